//! IDA* against exact oracles: exhaustive BFS on small boards, the seed15 and Korf's 100
//! instances' known optimal lengths, and Korf's (1985) published node counts.

use npuzzle_core::{
    BitBoard, Board, Goal, Hamming, Heuristic, Layout, Limit, Limits, LinearConflict, Manhattan,
    Outcome, SearchError, Shape, Solution, Solver,
};
use npuzzle_idastar::{CycleCheck, IdaStar};
use npuzzle_testsuite::{BfsOracle, Instance, eight31, korf100, korf100_nodes, seed15};

/// [`crate::solve`] on the bitboard.
fn solve<H: Heuristic<BitBoard>>(e: &mut IdaStar, start: &Layout, goal: &Goal, h: &H) -> Solution {
    crate::solve::<BitBoard, _, _>(e, start, goal, h)
}

fn check_instance<H: Heuristic<BitBoard>>(inst: &Instance, h: &H) -> Solution {
    let s = solve(&mut IdaStar::new(), &inst.board, &inst.goal, h);
    assert_eq!(s.moves.len() as u32, inst.optimal, "instance {}", inst.id);
    s
}

#[test]
fn eight_puzzle_bfs_oracle_both_goals() {
    let s3 = Shape::square(3).unwrap();
    for goal in [Goal::blank_last(s3), Goal::blank_first(s3)] {
        let oracle = BfsOracle::new(&goal);
        let md = Manhattan::new(&goal);
        let lc = LinearConflict::new(&goal);
        let mut e = IdaStar::new();
        for (board, d) in oracle.sample(41) {
            assert_eq!(
                solve(&mut e, &board, &goal, &md).moves.len() as u32,
                d,
                "{board} md"
            );
        }
        for (board, d) in oracle.sample(131) {
            assert_eq!(
                solve(&mut e, &board, &goal, &lc).moves.len() as u32,
                d,
                "{board} lc"
            );
        }
        let mut path = IdaStar::new().cycle_check(CycleCheck::Path);
        for (board, d) in oracle.sample(997) {
            assert_eq!(
                solve(&mut path, &board, &goal, &lc).moves.len() as u32,
                d,
                "{board} path"
            );
        }
        let ham = Hamming::new(&goal);
        for (board, d) in oracle.sample(1999).into_iter().filter(|(_, d)| *d <= 20) {
            assert_eq!(
                solve(&mut e, &board, &goal, &ham).moves.len() as u32,
                d,
                "{board} hamming"
            );
        }
    }
}

#[test]
fn eight_puzzle_hardest_positions() {
    for inst in eight31() {
        check_instance(&inst, &Manhattan::new(&inst.goal));
        check_instance(&inst, &LinearConflict::new(&inst.goal));
    }
}

#[test]
fn small_non_square_boards_match_bfs() {
    for (w, h) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (2, 5), (5, 2)] {
        let shape = Shape::new(w, h).unwrap();
        for goal in [Goal::blank_last(shape), Goal::blank_first(shape)] {
            let oracle = BfsOracle::new(&goal);
            let lc = LinearConflict::new(&goal);
            let mut e = IdaStar::new();
            let step = (oracle.len() / 300).max(1);
            for (board, d) in oracle.sample(step) {
                assert_eq!(
                    solve(&mut e, &board, &goal, &lc).moves.len() as u32,
                    d,
                    "{shape} {board}"
                );
            }
        }
    }
}

#[test]
fn unsolvable_is_decided_by_parity_before_search() {
    let s = Shape::square(4).unwrap();
    let goal = Goal::blank_last(s);
    let board = npuzzle_core::parse_board("123456789abcdfe0", None).unwrap();
    let b = BitBoard::from_layout(&board).unwrap();
    let out = IdaStar::new()
        .solve(&b, &goal, &Manhattan::new(&goal), &Limits::default())
        .unwrap();
    match out {
        Outcome::Unsolvable(p) => assert_eq!((p.transpositions, p.blank_distance), (1, 0)),
        Outcome::Solved(_) => panic!("solved an unsolvable board"),
    }
}

#[test]
fn goal_board_is_zero_moves() {
    let s = Shape::new(4, 3).unwrap();
    let goal = Goal::blank_last(s);
    let sol = solve(
        &mut IdaStar::new(),
        goal.layout(),
        &goal,
        &Manhattan::new(&goal),
    );
    assert!(sol.moves.is_empty());
    assert_eq!(sol.stats.expanded, 0);
}

#[test]
fn seed15_easy_instances() {
    for inst in seed15().iter().filter(|i| i.optimal <= 44) {
        check_instance(inst, &LinearConflict::new(&inst.goal));
        if inst.optimal <= 33 {
            check_instance(inst, &Manhattan::new(&inst.goal));
        }
    }
}

/// The heavy seed15 instances (50 to 64 moves); run by `.ci/run` in release mode.
#[test]
#[ignore = "heavy: run in release mode by .ci/run"]
fn seed15_hard_instances() {
    for inst in seed15().iter().filter(|i| i.optimal > 44) {
        check_instance(inst, &LinearConflict::new(&inst.goal));
        check_instance(inst, &Manhattan::new(&inst.goal));
    }
}

/// Korf (1985) Table 1: IDA* + Manhattan with Korf's move order generates exactly the published
/// number of nodes minus one (the root), on every instance cheap enough for `cargo test`.
#[test]
fn korf100_node_counts_reproduce_korf_1985() {
    let nodes = korf100_nodes();
    let instances = korf100();
    let mut checked = 0;
    for (inst, &(id, len, h0, published)) in instances.iter().zip(&nodes) {
        assert_eq!(inst.id, id.to_string());
        if published > 20_000_000 || [22, 88, 89].contains(&id) {
            continue;
        }
        let md = Manhattan::new(&inst.goal);
        assert_eq!(
            md.estimate(&BitBoard::from_layout(&inst.board).unwrap()),
            h0,
            "h0 of #{id}"
        );
        let s = check_instance(inst, &md);
        assert_eq!(s.moves.len() as u32, len);
        assert_eq!(
            s.stats.generated,
            published - 1,
            "generated nodes on Korf #{id}"
        );
        assert_eq!(s.stats.iterations.last().unwrap().threshold, len);
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} instances checked");
}

/// A tier of Korf's 100 with linear conflict, every length exact; the cheap ones in `cargo test`.
#[test]
fn korf100_linear_conflict_tier() {
    let nodes = korf100_nodes();
    for (inst, &(_, _, _, published)) in korf100().iter().zip(&nodes) {
        if published < 30_000_000 {
            check_instance(inst, &LinearConflict::new(&inst.goal));
        }
    }
}

/// The heavy Korf's 100 tier: every instance whose Manhattan IDA* tree is below 600 M nodes,
/// solved with linear conflict. Run in release mode by `.ci/run`.
#[test]
#[ignore = "heavy: run in release mode by .ci/run"]
fn korf100_heavy_tier() {
    let nodes = korf100_nodes();
    for (inst, &(_, _, _, published)) in korf100().iter().zip(&nodes) {
        if (30_000_000..600_000_000).contains(&published) {
            check_instance(inst, &LinearConflict::new(&inst.goal));
        }
    }
}

#[test]
fn node_limit_stops_with_progress() {
    let inst = &seed15()[8];
    let b = BitBoard::from_layout(&inst.board).unwrap();
    let limits = Limits {
        max_nodes: Some(1_000_000),
        ..Limits::default()
    };
    let err = IdaStar::new()
        .solve(&b, &inst.goal, &Manhattan::new(&inst.goal), &limits)
        .unwrap_err();
    match err {
        SearchError::LimitReached {
            limit: Limit::Nodes(n),
            progress,
        } => {
            assert_eq!(n, 1_000_000);
            assert!(
                (1_000_000..1_000_008).contains(&progress.generated),
                "{}",
                progress.generated
            );
            assert!(progress.bound >= 41);
        }
        e => panic!("unexpected {e}"),
    }
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let limits = Limits {
        cancel: Some(cancel),
        ..Limits::default()
    };
    let err = IdaStar::new()
        .solve(&b, &inst.goal, &Manhattan::new(&inst.goal), &limits)
        .unwrap_err();
    assert!(matches!(
        err,
        SearchError::LimitReached {
            limit: Limit::Cancelled,
            ..
        }
    ));
    let limits = Limits {
        timeout: Some(std::time::Duration::from_millis(50)),
        ..Limits::default()
    };
    let err = IdaStar::new()
        .solve(&b, &inst.goal, &Manhattan::new(&inst.goal), &limits)
        .unwrap_err();
    assert!(matches!(
        err,
        SearchError::LimitReached {
            limit: Limit::Time(_),
            ..
        }
    ));
}

#[test]
fn observer_sees_every_iteration() {
    let inst = &seed15()[3];
    let b = BitBoard::from_layout(&inst.board).unwrap();
    let mut bounds = Vec::new();
    let out = IdaStar::new()
        .solve_observed(
            &b,
            &inst.goal,
            &Manhattan::new(&inst.goal),
            &Limits::default(),
            |p| {
                bounds.push(p.bound);
            },
        )
        .unwrap();
    let Outcome::Solved(s) = out else { panic!() };
    let thresholds: Vec<u32> = s.stats.iterations.iter().map(|i| i.threshold).collect();
    for t in &thresholds {
        assert!(bounds.contains(t));
    }
    // Thresholds rise by 2 (parity of Manhattan distance) and end at the optimal length.
    assert!(thresholds.windows(2).all(|w| w[1] == w[0] + 2));
    assert_eq!(*thresholds.last().unwrap(), inst.optimal);
}
