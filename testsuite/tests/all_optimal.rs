//! Every optimal solution (`npuzzle_idastar::AllOptimal`) against exhaustive shortest-path
//! counting on the 8-puzzle: the number of shortest paths from each board to the goal in the
//! breadth-first search's layered graph, compared exactly; every listed sequence replayed,
//! optimal and distinct. Also IDA\*'s depth limit (`IdaStar::max_depth`) against the BFS
//! distances: proven bounds, never "no solution".

use std::collections::HashSet;

use npuzzle_core::{
    BitBoard, Board, Goal, Layout, Limit, Limits, LinearConflict, Manhattan, Outcome, PackedBoard,
    SearchError, Shape, Solver, verify,
};
use npuzzle_idastar::{AllOptimal, CycleCheck, IdaStar};
use npuzzle_nxn::VecBoard;
use npuzzle_testsuite::BfsOracle;
use rustc_hash::FxHashMap;

/// The number of shortest paths from every state to the goal: 1 at the goal, and for each
/// state the sum over its neighbours one step closer (BFS order visits them first).
fn path_counts(oracle: &BfsOracle) -> Vec<(Layout, u32, u64)> {
    let states = oracle.sample(1);
    let mut count: FxHashMap<u64, u64> = FxHashMap::default();
    let mut dist: FxHashMap<u64, u32> = FxHashMap::default();
    let mut out = Vec::with_capacity(states.len());
    for (layout, d) in states {
        let b = BitBoard::from_layout(&layout).unwrap();
        if dist.contains_key(&b.key()) {
            continue; // `sample` repeats the last state
        }
        let c = if d == 0 {
            1
        } else {
            b.legal()
                .map(|m| b.neighbor(m).key())
                .filter(|k| dist.get(k) == Some(&(d - 1)))
                .map(|k| count[&k])
                .sum()
        };
        dist.insert(b.key(), d);
        count.insert(b.key(), c);
        out.push((layout, d, c));
    }
    out
}

/// Every optimal solution of `layout` on board type `B`: the count, and all of them listed
/// (replayed, of length `d`, distinct).
fn all_optimal<B: Board>(layout: &Layout, goal: &Goal, d: u32, keep: usize) -> (u64, usize) {
    let mut all = AllOptimal::new(keep);
    let board = B::from_layout(layout).unwrap();
    let outcome = all
        .solve(&board, goal, &Manhattan::new(goal), &Limits::default())
        .unwrap();
    let Outcome::Solved(first) = outcome else {
        panic!("{layout}: solvable")
    };
    assert_eq!(first.moves.len() as u32, d, "{layout}");
    let mut seen = HashSet::new();
    for s in all.solutions() {
        assert_eq!(
            s.len() as u32,
            d,
            "{layout}: a listed solution is not optimal"
        );
        verify(layout, s, goal.layout()).unwrap();
        assert!(seen.insert(s.clone()), "{layout}: a sequence listed twice");
    }
    assert_eq!(all.solutions().first(), Some(&first.moves));
    (all.count(), all.solutions().len())
}

#[test]
fn counts_equal_bfs_shortest_path_counts_on_the_8_puzzle() {
    let s = Shape::square(3).unwrap();
    for goal in [Goal::blank_last(s), Goal::blank_first(s)] {
        let oracle = BfsOracle::new(&goal);
        let counts = path_counts(&oracle);
        assert_eq!(counts.len(), 181_440);
        // Every 151st state (every distance represented), the 40 with the most optimal
        // solutions, and every antipode (31 moves).
        let mut boards: Vec<&(Layout, u32, u64)> = counts.iter().step_by(151).collect();
        let mut by_count: Vec<&(Layout, u32, u64)> = counts.iter().collect();
        by_count.sort_by_key(|(_, _, c)| std::cmp::Reverse(*c));
        boards.extend(by_count.iter().take(40));
        boards.extend(counts.iter().filter(|(_, d, _)| *d == 31));
        let most = by_count[0].2;
        assert!(
            most >= 32,
            "the 8-puzzle has boards with many optimal solutions: {most}"
        );
        for (layout, d, expected) in boards {
            let keep = if *expected <= 5000 { 5000 } else { 10 };
            let (count, listed) = all_optimal::<BitBoard>(layout, &goal, *d, keep);
            assert_eq!(count, *expected, "{layout} ({d} moves)");
            assert_eq!(listed as u64, (*expected).min(keep as u64), "{layout}");
        }
    }
}

#[test]
fn every_board_type_counts_the_same() {
    let s = Shape::square(3).unwrap();
    let goal = Goal::blank_last(s);
    let oracle = BfsOracle::new(&goal);
    for (layout, d, expected) in path_counts(&oracle).iter().step_by(9001) {
        assert_eq!(all_optimal::<BitBoard>(layout, &goal, *d, 3).0, *expected);
        assert_eq!(
            all_optimal::<PackedBoard>(layout, &goal, *d, 3).0,
            *expected
        );
        assert_eq!(all_optimal::<VecBoard>(layout, &goal, *d, 3).0, *expected);
    }
}

/// Linear conflict (a stronger admissible heuristic) prunes more but counts the same.
#[test]
fn the_heuristic_does_not_change_the_count() {
    let s = Shape::square(3).unwrap();
    let goal = Goal::blank_last(s);
    let oracle = BfsOracle::new(&goal);
    for (layout, _, expected) in path_counts(&oracle).iter().step_by(3001) {
        let mut all = AllOptimal::new(0);
        all.solve(
            &BitBoard::from_layout(layout).unwrap(),
            &goal,
            &LinearConflict::new(&goal),
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(all.count(), *expected, "{layout}");
        assert!(all.solutions().is_empty());
    }
}

/// The depth limit: a board of optimum d is solved in d moves with `max_depth(d)`, and with
/// `max_depth(d - 1)` stops with `Limit::Depth(d - 1)` and a proven bound in `d..`, for every
/// cycle check; the all-optimal search does the same.
#[test]
fn max_depth_proves_its_bound() {
    let s = Shape::square(3).unwrap();
    let goal = Goal::blank_last(s);
    let oracle = BfsOracle::new(&goal);
    let h = Manhattan::new(&goal);
    for (layout, d) in oracle.sample(1009) {
        if d == 0 {
            continue;
        }
        let board = BitBoard::from_layout(&layout).unwrap();
        for check in [CycleCheck::Parent, CycleCheck::Path, CycleCheck::Fsm] {
            let mut ida = IdaStar::new().cycle_check(check).max_depth(Some(d));
            let Outcome::Solved(sol) = ida.solve(&board, &goal, &h, &Limits::default()).unwrap()
            else {
                panic!()
            };
            assert_eq!(sol.moves.len() as u32, d);
            let mut ida = IdaStar::new().cycle_check(check).max_depth(Some(d - 1));
            match ida.solve(&board, &goal, &h, &Limits::default()) {
                Err(SearchError::LimitReached { limit, progress }) => {
                    assert_eq!(limit, Limit::Depth(d - 1), "{layout}");
                    // Proven: above d - 1, and a lower bound, so at most d.
                    assert_eq!(progress.bound, d, "{layout}");
                }
                other => panic!("{layout} ({d} moves) with max depth {}: {other:?}", d - 1),
            }
        }
        let mut all = AllOptimal::new(1).max_depth(Some(d - 1));
        assert!(matches!(
            all.solve(&board, &goal, &h, &Limits::default()),
            Err(SearchError::LimitReached { limit: Limit::Depth(x), .. }) if x == d - 1
        ));
    }
}
