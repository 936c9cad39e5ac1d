//! `Npuzzle::all_optimal` and `Npuzzle::solutions_within`: the counts by length against an
//! enumeration by dynamic programming over every move sequence
//! (`npuzzle_testsuite::solutions_by_length`), every listed solution replayed, distinct,
//! without a move followed by its inverse, reaching the goal at its end only, shortest first.

use std::collections::HashSet;

use npuzzle::{Config, Engine, Error, Goal, Layout, Metric, Setting, parse_board};
use npuzzle_testsuite::{BfsOracle, solutions_by_length};

/// Checks `solutions_within(k)` on `board` against the enumeration, listing everything.
fn check(board: &Layout, k: u32) {
    let goal = Goal::blank_last(board.shape());
    let npz = Config::new().engine(Engine::IdaStar).build().unwrap();
    let all = npz
        .solutions_within(board, k, 1_000_000, &npz.settings())
        .unwrap();
    let l = all.answer.len();
    let expected = solutions_by_length(board, &goal, l + k as usize);
    assert!(
        expected[..l].iter().all(|&n| n == 0),
        "{board}: optimum {l}"
    );
    assert_eq!(all.counts_by_length, expected[l..], "{board} within {k}");
    assert_eq!(
        all.count,
        expected.iter().sum::<u64>(),
        "{board} within {k}"
    );
    assert_eq!(all.optimal_count(), expected[l]);
    assert!(all.is_complete());
    let mut seen = HashSet::new();
    let mut previous = l;
    for s in &all.solutions {
        assert!(
            s.len() >= previous && s.len() <= l + k as usize,
            "shortest first"
        );
        previous = s.len();
        assert!(s.windows(2).all(|w| w[1] != w[0].inverse()), "no reversal");
        let mut b = board.clone();
        for (i, &m) in s.iter().enumerate() {
            assert_ne!(&b, goal.layout(), "the goal before the end, at move {i}");
            assert!(b.apply(m));
        }
        assert_eq!(&b, goal.layout());
        assert!(seen.insert(s.clone()), "listed twice");
    }
}

/// Boards at several distances (one of each from a breadth-first search), k from 0 to 4:
/// the counts equal the enumeration's, lengths of the optimum's parity only.
#[test]
fn solutions_within_k_match_the_enumeration() {
    let goal = Goal::blank_last(npuzzle::Shape::square(3).unwrap());
    let bfs = BfsOracle::new(&goal);
    let all = bfs.sample(1);
    for d in [1, 4, 9, 14] {
        let (board, _) = all.iter().find(|(_, e)| *e == d).unwrap();
        for k in 0..=4 {
            check(board, k);
        }
    }
    // The hardest board: 40 optimal solutions, none of 32 moves, and those of 33.
    let hard = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
    check(&hard, 2);
    // A 4x3 board.
    let wide = parse_board("1 2 3 4 5 6 0 8 9 10 7 11", Some("4x3".parse().unwrap())).unwrap();
    check(&wide, 4);
}

/// A limit lists the shortest first (the optimal ones before the longer), all counted; the
/// goal itself has one solution, the empty one; the multi-tile metric counts MTM moves;
/// refusals: a depth limit with k > 0, another engine.
#[test]
fn limits_goals_and_refusals() {
    let hard = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
    let npz = Config::new().build().unwrap();
    let all = npz.solutions_within(&hard, 2, 45, &npz.settings()).unwrap();
    assert_eq!(all.solutions.len(), 45);
    assert!(all.solutions[..40].iter().all(|s| s.len() == 31));
    assert!(all.solutions[40..].iter().all(|s| s.len() == 33));
    assert!(!all.is_complete());
    let record = serde_json::to_value(all.record(true)).unwrap();
    assert_eq!(record["optimal_count"], 40);
    assert_eq!(record["within"], 2);
    assert_eq!(record["within_count"], all.count);
    assert_eq!(record["counts_by_length"][0]["length"], 31);
    assert_eq!(record["counts_by_length"][1]["count"], 0);
    assert_eq!(record["solutions"].as_array().unwrap().len(), 45);
    assert!(record.get("optimal_solutions").is_none());
    // Without k: the record of before.
    let all = npz.all_optimal(&hard, 3, &npz.settings()).unwrap();
    let record = serde_json::to_value(all.record(true)).unwrap();
    assert_eq!(record["optimal_solutions"].as_array().unwrap().len(), 3);
    assert!(record.get("within").is_none() && record.get("solutions").is_none());

    let goal = parse_board("1 2 3 4 5 6 7 8 0", None).unwrap();
    let all = npz.solutions_within(&goal, 3, 10, &npz.settings()).unwrap();
    assert_eq!((all.count, all.solutions.len()), (1, 1));
    assert_eq!(all.counts_by_length, [1, 0, 0, 0]);

    let settings = npz.settings().max_depth(40);
    let e = npz.solutions_within(&hard, 2, 10, &settings).unwrap_err();
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
    assert!(npz.solutions_within(&hard, 0, 10, &settings).is_ok());
    // The multi-tile metric counts MTM solutions (`all_optimal_mtm`): the optimum in MTM
    // moves.
    let mtm = Config::new()
        .metric(Metric::Mtm)
        .heuristic(npuzzle::HeuristicKind::WalkingDistance)
        .build()
        .unwrap();
    let all = mtm.solutions_within(&hard, 1, 10, &mtm.settings()).unwrap();
    assert_eq!((all.answer.length(), all.counts_by_length.len()), (20, 2));
    let astar = Config::new().engine(Engine::AStar).build().unwrap();
    assert!(
        astar
            .solutions_within(&hard, 1, 10, &astar.settings())
            .is_err()
    );
}
