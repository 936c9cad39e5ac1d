//! A* against exact oracles: exhaustive BFS on the 8-puzzle and small non-square boards, and the
//! seed15 instances' known optimal lengths.

use npuzzle_astar::AStar;
use npuzzle_core::{
    BitBoard, Goal, Hamming, Heuristic, Layout, LinearConflict, Manhattan, Shape, Solution, Zero,
};
use npuzzle_testsuite::{BfsOracle, Instance, eight31, seed15};

/// Solves and replays the moves ([`npuzzle_testsuite::solve_replayed`]), then checks the
/// statistics' bookkeeping against the engine's report.
fn solve<H: Heuristic<BitBoard>>(
    e: &mut AStar<BitBoard>,
    start: &Layout,
    goal: &Goal,
    h: &H,
) -> Solution {
    let s = npuzzle_testsuite::solve_replayed(e, start, goal, h);
    assert_eq!(s.stats.stored_states, e.last_report().stored_states);
    assert!(s.stats.peak_memory_bytes >= e.last_report().total_bytes());
    s
}

fn check_instance<H: Heuristic<BitBoard>>(e: &mut AStar<BitBoard>, inst: &Instance, h: &H) {
    let s = solve(e, &inst.board, &inst.goal, h);
    assert_eq!(s.moves.len() as u32, inst.optimal, "instance {}", inst.id);
    assert_eq!(
        e.last_report().reopened,
        0,
        "consistent heuristic reopened states"
    );
}

/// Every `step`-th state of the oracle, solved with `h`, has exactly the BFS distance.
fn against_oracle<H: Heuristic<BitBoard>>(oracle: &BfsOracle, step: usize, h: &H) {
    let mut e = AStar::new();
    let goal = oracle.goal();
    for (board, d) in oracle.sample(step) {
        let s = solve(&mut e, &board, goal, h);
        assert_eq!(s.moves.len() as u32, d, "{board} with {}", h.name());
    }
}

#[test]
fn eight_puzzle_bfs_oracle_both_goals() {
    let s3 = Shape::square(3).unwrap();
    for goal in [Goal::blank_last(s3), Goal::blank_first(s3)] {
        let oracle = BfsOracle::new(&goal);
        against_oracle(&oracle, 97, &Manhattan::new(&goal));
        against_oracle(&oracle, 331, &LinearConflict::new(&goal));
        against_oracle(&oracle, 997, &Hamming::new(&goal));
        against_oracle(&oracle, 4999, &Zero);
    }
}

#[test]
fn eight_puzzle_hardest_positions() {
    let mut e = AStar::new();
    for inst in eight31() {
        check_instance(&mut e, &inst, &Manhattan::new(&inst.goal));
        check_instance(&mut e, &inst, &LinearConflict::new(&inst.goal));
        check_instance(&mut e, &inst, &Hamming::new(&inst.goal));
    }
}

#[test]
fn non_square_boards_bfs_oracle() {
    for (w, h, step) in [(2, 3, 1), (3, 2, 1), (2, 4, 7), (4, 2, 7)] {
        let shape = Shape::new(w, h).unwrap();
        for goal in [Goal::blank_last(shape), Goal::blank_first(shape)] {
            let oracle = BfsOracle::new(&goal);
            against_oracle(&oracle, step, &Manhattan::new(&goal));
            against_oracle(&oracle, step * 3, &LinearConflict::new(&goal));
        }
    }
}

/// 2×5 and 5×2 (1,814,400 states, diameter 55): one goal each, a thin sample.
#[test]
fn ten_cell_boards_bfs_oracle() {
    for (w, h, blank_first) in [(2, 5, false), (5, 2, true)] {
        let shape = Shape::new(w, h).unwrap();
        let goal = if blank_first {
            Goal::blank_first(shape)
        } else {
            Goal::blank_last(shape)
        };
        let oracle = BfsOracle::new(&goal);
        assert_eq!(oracle.len(), 1_814_400);
        against_oracle(&oracle, 40_009, &Manhattan::new(&goal));
        against_oracle(&oracle, 90_001, &LinearConflict::new(&goal));
    }
}

#[test]
fn seed15_easier_instances() {
    let mut e = AStar::new();
    for inst in seed15().iter().filter(|i| i.optimal <= 44) {
        check_instance(&mut e, inst, &LinearConflict::new(&inst.goal));
        check_instance(&mut e, inst, &Manhattan::new(&inst.goal));
    }
}

#[test]
fn goal_board_needs_no_moves() {
    let s3 = Shape::square(3).unwrap();
    let goal = Goal::blank_first(s3);
    let mut e = AStar::new();
    let s = solve(&mut e, goal.layout(), &goal, &Manhattan::new(&goal));
    assert!(s.moves.is_empty());
    // Answered before any search (npuzzle_core::start_search): nothing stored, all-zero stats.
    assert_eq!(s.stats, npuzzle_core::Stats::default());
    assert_eq!(*e.last_report(), npuzzle_astar::SearchReport::default());
}

/// Seed15's 50- to 64-move instances with linear conflict (about 20 s in all in release mode;
/// the 64-move one stores 15.6 million states in about 450 MiB).
#[test]
#[ignore = "heavy: run with cargo test --profile heavy -- --ignored"]
fn seed15_50_to_64_moves_linear_conflict() {
    let mut e = AStar::new();
    for inst in seed15().iter().filter(|i| i.optimal >= 45) {
        check_instance(&mut e, inst, &LinearConflict::new(&inst.goal));
        let r = e.last_report();
        assert!(r.bytes_per_state() < 28.0, "{}: {r:?}", inst.id);
        assert!(r.peak_bytes < 600 << 20, "{}: {r:?}", inst.id);
    }
}

/// Seed15's 50-move instance with Manhattan distance (about 7 million stored states).
#[test]
#[ignore = "heavy: run with cargo test --profile heavy -- --ignored"]
fn seed15_50_moves_manhattan() {
    let inst = seed15().into_iter().find(|i| i.optimal == 50).unwrap();
    let mut e = AStar::new();
    check_instance(&mut e, &inst, &Manhattan::new(&inst.goal));
    let r = e.last_report();
    assert!(r.bytes_per_state() < 28.0, "{r:?}");
}
