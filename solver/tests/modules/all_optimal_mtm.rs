//! `Npuzzle::all_optimal` and `Npuzzle::solutions_within` in the multi-tile metric: the counts
//! by length (in MTM moves) against the enumeration by dynamic programming over every MTM move
//! sequence (`npuzzle_testsuite::mtm_solutions_by_length`, the same definition of a distinct
//! solution: MTM moves alternating axes, the goal at the end only), on every board of a sample
//! of the 8-puzzle, 2×4 and 4×2 boards (both goals) and 15-puzzle boards near the goal; every
//! listed solution replayed to the goal, distinct, of the length counted.

use std::collections::HashSet;

use npuzzle::npuzzle_core::group_moves;
use npuzzle::{
    AllOptimalAnswer, Config, Engine, Error, GoalKind, HeuristicKind, Layout, Metric, Npuzzle,
    Setting, Shape, mtm_length, parse_board, verify,
};
use npuzzle_testsuite::{BfsOracle, mtm_solutions_by_length};

/// An MTM solver for `goal` with heuristic `h` (multi-tile tables built, tiny, in `dir`).
fn mtm(goal: &GoalKind, h: HeuristicKind, dir: &std::path::Path) -> Npuzzle {
    Config::new()
        .metric(Metric::Mtm)
        .engine(Engine::IdaStar)
        .goal_kind(goal.clone())
        .heuristic(h)
        .pdb_dir(dir)
        .build()
        .unwrap()
}

/// Checks `all` (a search of `board` within `k` MTM moves of the optimum, everything listed)
/// against the enumeration `expected` (counts by MTM length from 0 on, at least to the
/// optimum + k): the optimum, the counts by length, and each listed solution replayed to the
/// goal with `verify`, of the length counted, alternating axes, not at the goal after an
/// earlier move, listed once.
fn check(board: &Layout, goal: &Layout, k: u32, all: &AllOptimalAnswer, expected: &[u64]) {
    let l = all.answer.length();
    let k = k as usize;
    assert_eq!(all.answer.metric, Metric::Mtm);
    assert!(all.answer.is_optimal(), "{board}");
    assert_eq!(
        expected.iter().position(|&n| n > 0),
        Some(l),
        "{board}: optimum {l}, enumeration {expected:?}"
    );
    assert_eq!(
        all.counts_by_length,
        expected[l..=l + k],
        "{board} within {k}"
    );
    assert_eq!(
        all.count,
        expected[l..=l + k].iter().sum::<u64>(),
        "{board} within {k}"
    );
    assert_eq!(all.optimal_count(), expected[l], "{board}");
    assert!(all.is_complete(), "{board} within {k}: everything listed");
    let mut seen = HashSet::new();
    let mut previous = l;
    for s in &all.solutions {
        verify(board, s, goal).unwrap_or_else(|e| panic!("{board}: {s:?}: {e}"));
        let groups = group_moves(s);
        let n = groups.len();
        assert_eq!(n, mtm_length(s));
        assert!(n >= previous && n <= l + k, "{board}: shortest first");
        previous = n;
        assert!(
            groups
                .windows(2)
                .all(|w| w[0].dir.is_vertical() != w[1].dir.is_vertical()),
            "{board}: {s:?} has two moves along one axis in a row"
        );
        // The goal after no move but the last (boards inside a move are not visited).
        let mut b = board.clone();
        for (i, g) in groups.iter().enumerate() {
            assert_ne!(&b, goal, "{board}: the goal before the end, at move {i}");
            for _ in 0..g.count {
                assert!(b.apply(g.dir));
            }
        }
        assert_eq!(&b, goal);
        assert!(seen.insert(s.clone()), "{board}: listed twice");
    }
    // The first solution is the answer's.
    if let Some(first) = all.solutions.first() {
        assert_eq!(first.as_slice(), all.answer.move_list());
    }
}

/// Checks `solutions_within(k)` for k = 0, 1, 2 on `board` against one enumeration to the
/// optimum + 2 (the optimum breadth-first search gives, when known, else the answer's: the
/// enumeration's first length then checks it).
fn check_k012(npz: &Npuzzle, board: &Layout, goal: &npuzzle::Goal, optimum: Option<usize>) {
    let optimum = optimum.unwrap_or_else(|| npz.solve(board).unwrap().length());
    let expected = mtm_solutions_by_length(board, goal, optimum + 2);
    for k in 0..=2 {
        let all = npz
            .solutions_within(board, k, 1_000_000, &npz.settings())
            .unwrap();
        check(board, goal.layout(), k, &all, &expected);
    }
}

/// A sample of the 8-puzzle (every distance, the MTM antipodes included), both goals, with
/// walking distance in MTM; k = 0, 1, 2 against the enumeration.
#[test]
fn eight_puzzle_counts_match_the_enumeration() {
    let dir = tempfile::tempdir().unwrap();
    for goal_kind in [GoalKind::BlankLast, GoalKind::BlankFirst] {
        let goal = npuzzle::Goal::new(&goal_kind, Shape::square(3).unwrap()).unwrap();
        let oracle = BfsOracle::in_metric(&goal, Metric::Mtm);
        let npz = mtm(&goal_kind, HeuristicKind::WalkingDistance, dir.path());
        let sample = oracle.sample(15_121);
        assert!(sample.len() >= 12);
        for (board, d) in sample {
            check_k012(&npz, &board, &goal, Some(d as usize));
        }
    }
}

/// A goal with the blank in the middle (a custom goal): a solution may slide through the
/// goal's arrangement inside one move and go on (the blank crosses the middle cell), which
/// counts, the boards inside a move not being visited; the enumeration counts the same.
#[test]
fn a_move_may_slide_through_the_goal() {
    let dir = tempfile::tempdir().unwrap();
    let shape = Shape::square(3).unwrap();
    let centre = parse_board("1 2 3 4 0 5 6 7 8", Some(shape)).unwrap();
    let goal_kind = GoalKind::Custom(centre);
    let goal = npuzzle::Goal::new(&goal_kind, shape).unwrap();
    let oracle = BfsOracle::in_metric(&goal, Metric::Mtm);
    for h in [HeuristicKind::WalkingDistance, HeuristicKind::MtmManhattan] {
        let npz = mtm(&goal_kind, h, dir.path());
        for (board, d) in oracle.sample(20_161) {
            check_k012(&npz, &board, &goal, Some(d as usize));
        }
    }
    // The blank one cell left of the middle: `L1` solves it. `L2` slides through the goal and
    // on; the shortest way back that starts off the row takes 11 more moves, so 12-move
    // solutions starting `L2` exist, within 11 of the optimum.
    let near = parse_board("1 2 3 0 4 5 6 7 8", Some(shape)).unwrap();
    let through = mtm_solutions_by_length(&near, &goal, 12);
    let npz = mtm(&goal_kind, HeuristicKind::WalkingDistance, dir.path());
    let all = npz
        .solutions_within(&near, 11, 1_000_000, &npz.settings())
        .unwrap();
    assert_eq!(all.counts_by_length, through[1..]);
    check(&near, goal.layout(), 11, &all, &through);
    let l2 = all
        .solutions
        .iter()
        .filter(|s| s.starts_with(&[npuzzle::Move::Left, npuzzle::Move::Left]))
        .count();
    assert_eq!(
        l2, 2,
        "the solutions that slide through the goal inside their first move"
    );
}

/// The other MTM heuristics (mtm-manhattan, the multi-tile pattern databases, whose lookups
/// stop early above the bound) count the same: a few 8-puzzle boards.
#[test]
fn every_mtm_heuristic_counts_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let goal = npuzzle::Goal::new(&GoalKind::BlankLast, Shape::square(3).unwrap()).unwrap();
    let oracle = BfsOracle::in_metric(&goal, Metric::Mtm);
    for h in [
        HeuristicKind::MtmManhattan,
        HeuristicKind::MtmPdb,
        HeuristicKind::Zero,
    ] {
        let npz = mtm(&GoalKind::BlankLast, h, dir.path());
        let step = if h == HeuristicKind::Zero {
            90_001
        } else {
            45_001
        };
        for (board, d) in oracle.sample(step).into_iter().filter(|&(_, d)| d <= 16) {
            check_k012(&npz, &board, &goal, Some(d as usize));
        }
    }
}

/// 2×4 and 4×2 boards, both goals: a sample of every distance (the antipodes included).
#[test]
fn two_by_four_and_four_by_two_match_the_enumeration() {
    let dir = tempfile::tempdir().unwrap();
    for shape in [Shape::new(4, 2).unwrap(), Shape::new(2, 4).unwrap()] {
        for goal_kind in [GoalKind::BlankLast, GoalKind::BlankFirst] {
            let goal = npuzzle::Goal::new(&goal_kind, shape).unwrap();
            let oracle = BfsOracle::in_metric(&goal, Metric::Mtm);
            let npz = mtm(&goal_kind, HeuristicKind::WalkingDistance, dir.path());
            for (board, d) in oracle.sample(1_441) {
                check_k012(&npz, &board, &goal, Some(d as usize));
            }
        }
    }
}

/// 15-puzzle boards a few MTM moves from the goal, both goals (walking distance and
/// mtm-manhattan, no tables): the counts by length equal the enumeration's.
#[test]
fn fifteen_puzzle_near_the_goal() {
    let dir = tempfile::tempdir().unwrap();
    let mut boards = vec![
        // L3; L then U; U then L then U; U3 then L3.
        (GoalKind::BlankLast, "1 2 3 4 5 6 7 8 9 10 11 12 0 13 14 15"),
        (GoalKind::BlankLast, "1 2 3 4 5 6 7 8 9 10 0 11 13 14 15 12"),
        (GoalKind::BlankLast, "1 2 3 4 5 6 0 8 9 10 7 11 13 14 15 12"),
        (GoalKind::BlankLast, "0 2 3 4 1 6 7 8 5 10 11 12 9 13 14 15"),
        // R then D; R3 then D3.
        (
            GoalKind::BlankFirst,
            "4 1 2 3 5 0 6 7 8 9 10 11 12 13 14 15",
        ),
        (
            GoalKind::BlankFirst,
            "4 1 2 3 8 5 6 7 12 9 10 11 13 14 15 0",
        ),
    ]
    .into_iter()
    .map(|(g, text)| (g, parse_board(text, None).unwrap()))
    .collect::<Vec<_>>();
    // Random walks of 8 single-tile moves from each goal.
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    for goal_kind in [GoalKind::BlankLast, GoalKind::BlankFirst] {
        let goal = npuzzle::Goal::new(&goal_kind, Shape::square(4).unwrap()).unwrap();
        for _ in 0..3 {
            let mut b = goal.layout().clone();
            let mut done = 0;
            while done < 8 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                done += usize::from(b.apply(npuzzle::Move::ALL[(seed % 4) as usize]));
            }
            boards.push((goal_kind.clone(), b));
        }
    }
    for (goal_kind, board) in boards {
        let goal = npuzzle::Goal::new(&goal_kind, board.shape()).unwrap();
        for h in [HeuristicKind::WalkingDistance, HeuristicKind::MtmManhattan] {
            let npz = mtm(&goal_kind, h, dir.path());
            check_k012(&npz, &board, &goal, None);
        }
    }
}

/// The hardest STM 8-puzzle board in MTM (20 moves): a limit lists the shortest first, all
/// counted; the record's lengths are MTM moves and the listed solutions come with counts too;
/// the goal has one solution; a depth limit (refused in MTM) and another engine are refused.
#[test]
fn limits_records_goals_and_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let hard = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
    let npz = mtm(
        &GoalKind::BlankLast,
        HeuristicKind::WalkingDistance,
        dir.path(),
    );
    let full = npz
        .solutions_within(&hard, 1, 1_000_000, &npz.settings())
        .unwrap();
    assert_eq!(full.answer.length(), 20);
    let optimal = full.counts_by_length[0];
    let limited = npz
        .solutions_within(&hard, 1, optimal as usize + 3, &npz.settings())
        .unwrap();
    assert_eq!(
        (limited.count, &limited.counts_by_length),
        (full.count, &full.counts_by_length)
    );
    assert_eq!(limited.solutions, full.solutions[..optimal as usize + 3]);
    assert!(!limited.is_complete());
    let record = serde_json::to_value(limited.record(true)).unwrap();
    assert_eq!(record["length"], 20);
    assert_eq!(record["metric"], "mtm");
    assert_eq!(record["within_count"], full.count);
    assert_eq!(record["counts_by_length"][0]["length"], 20);
    assert_eq!(record["counts_by_length"][1]["length"], 21);
    assert_eq!(
        record["counts_by_length"][1]["count"],
        full.counts_by_length[1]
    );
    let letters = record["solutions"].as_array().unwrap();
    let counts = record["solutions_counts"].as_array().unwrap();
    assert_eq!(letters.len(), optimal as usize + 3);
    for (l, c) in letters.iter().zip(counts) {
        let (l, c) = (l.as_str().unwrap(), c.as_str().unwrap());
        assert_eq!(
            npuzzle::parse_moves(c).unwrap(),
            npuzzle::parse_moves(l).unwrap()
        );
    }
    // All optimal: the optimal lists, no `within`.
    let all = npz.all_optimal(&hard, 2, &npz.settings()).unwrap();
    assert_eq!(all.count, optimal);
    let record = serde_json::to_value(all.record(true)).unwrap();
    assert_eq!(record["optimal_count"], optimal);
    assert_eq!(
        record["optimal_solutions_counts"].as_array().unwrap().len(),
        2
    );
    assert!(record.get("within").is_none() && record.get("solutions_counts").is_none());
    // STM records carry no counts lists.
    let stm = Config::new().engine(Engine::IdaStar).build().unwrap();
    let record = serde_json::to_value(
        stm.all_optimal(&hard, 2, &stm.settings())
            .unwrap()
            .record(true),
    )
    .unwrap();
    assert!(record.get("optimal_solutions_counts").is_none());

    let goal = parse_board("1 2 3 4 5 6 7 8 0", None).unwrap();
    let all = npz.solutions_within(&goal, 2, 10, &npz.settings()).unwrap();
    assert_eq!((all.count, all.solutions.len()), (1, 1));
    assert_eq!(all.counts_by_length, [1, 0, 0]);

    // A depth limit is refused in MTM (as for a plain MTM solve), with k = 0 too.
    for k in [0, 1] {
        let e = npz
            .solutions_within(&hard, k, 10, &npz.settings().max_depth(25))
            .unwrap_err();
        assert!(
            matches!(
                e,
                Error::NotApplicable {
                    setting: Setting::MaxDepth,
                    ..
                }
            ),
            "{e}"
        );
    }
    let astar = Config::new()
        .metric(Metric::Mtm)
        .engine(Engine::AStar)
        .build()
        .unwrap();
    assert!(matches!(
        astar.solutions_within(&hard, 1, 10, &astar.settings()),
        Err(Error::NotApplicable { .. })
    ));
}
