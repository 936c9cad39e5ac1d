//! The bidirectional engine against exact oracles: exhaustive BFS on the 8-puzzle (both goals,
//! Manhattan distance and the zero heuristic, i.e. bidirectional breadth-first search) and on
//! small non-square boards, the 31-move 8-puzzles, and the seed15 instances' known lengths.

use npuzzle_bidirectional::Bidirectional;
use npuzzle_core::{
    BitBoard, Board, Goal, Hamming, Heuristic, Layout, Limits, LinearConflict, Manhattan, Outcome,
    Shape, Solution, Solver, Zero, verify,
};
use npuzzle_testsuite::{BfsOracle, Instance, eight31, seed15};

/// Solves, replays the moves with `verify`, and checks the statistics' bookkeeping.
fn solve<H: Heuristic<BitBoard>>(
    e: &mut Bidirectional<BitBoard>,
    start: &Layout,
    goal: &Goal,
    h: &H,
) -> Solution {
    let b = BitBoard::from_layout(start).unwrap();
    match e.solve(&b, goal, h, &Limits::default()).unwrap() {
        Outcome::Solved(s) => {
            verify(start, &s.moves, goal.layout())
                .unwrap_or_else(|err| panic!("{start} with {}: {err}", h.name()));
            let bi = s.stats.bidirectional.clone().expect("per-direction stats");
            let n = s.moves.len() as u32;
            assert_eq!(bi.meeting_g_forward + bi.meeting_g_backward, n, "{start}");
            assert_eq!(bi.lower_bound, n, "the stopping rule: C = lower bound");
            assert_eq!(bi.forward_expanded + bi.backward_expanded, s.stats.expanded);
            assert_eq!(
                bi.forward_generated + bi.backward_generated,
                s.stats.generated
            );
            assert_eq!(s.stats.stored_states, e.last_report().stored_states);
            assert!(s.stats.peak_memory_bytes >= e.last_report().total_bytes());
            s
        }
        Outcome::Unsolvable(p) => panic!("{start} reported unsolvable: {}", p.explain()),
    }
}

fn check_instance<H: Heuristic<BitBoard>>(e: &mut Bidirectional<BitBoard>, inst: &Instance, h: &H) {
    let s = solve(e, &inst.board, &inst.goal, h);
    assert_eq!(s.moves.len() as u32, inst.optimal, "instance {}", inst.id);
    assert_eq!(e.last_report().reopened, 0, "consistent heuristic reopened");
}

/// Every `step`-th state of the oracle, solved with `h`, has exactly the BFS distance.
fn against_oracle<H: Heuristic<BitBoard>>(oracle: &BfsOracle, step: usize, h: &H) {
    let mut e = Bidirectional::new();
    let goal = oracle.goal();
    for (board, d) in oracle.sample(step) {
        let s = solve(&mut e, &board, goal, h);
        assert_eq!(s.moves.len() as u32, d, "{board} with {}", h.name());
        assert_eq!(e.last_report().reopened, 0);
    }
}

#[test]
fn eight_puzzle_bfs_oracle_manhattan_both_goals() {
    let s3 = Shape::square(3).unwrap();
    for goal in [Goal::blank_last(s3), Goal::blank_first(s3)] {
        let oracle = BfsOracle::new(&goal);
        against_oracle(&oracle, 23, &Manhattan::new(&goal));
    }
}

/// The zero heuristic: bidirectional breadth-first search, the brute-force baseline.
#[test]
fn eight_puzzle_bfs_oracle_zero_both_goals() {
    let s3 = Shape::square(3).unwrap();
    for goal in [Goal::blank_last(s3), Goal::blank_first(s3)] {
        let oracle = BfsOracle::new(&goal);
        against_oracle(&oracle, 89, &Zero);
    }
}

#[test]
fn eight_puzzle_bfs_oracle_other_heuristics_and_custom_goal() {
    let s3 = Shape::square(3).unwrap();
    let custom = Goal::custom(npuzzle_core::parse_board("4 1 2 0 8 7 6 3 5", None).unwrap());
    for goal in [Goal::blank_last(s3), custom] {
        let oracle = BfsOracle::new(&goal);
        against_oracle(&oracle, 211, &LinearConflict::new(&goal));
        against_oracle(&oracle, 401, &Hamming::new(&goal));
    }
}

#[test]
fn eight_puzzle_hardest_positions() {
    let mut e = Bidirectional::new();
    for inst in eight31() {
        check_instance(&mut e, &inst, &Manhattan::new(&inst.goal));
        check_instance(&mut e, &inst, &LinearConflict::new(&inst.goal));
        check_instance(&mut e, &inst, &Zero);
    }
}

#[test]
fn non_square_boards_bfs_oracle() {
    for (w, h, step) in [(2, 3, 1), (3, 2, 1), (2, 4, 7), (4, 2, 7), (2, 5, 20_011)] {
        let shape = Shape::new(w, h).unwrap();
        for goal in [Goal::blank_last(shape), Goal::blank_first(shape)] {
            let oracle = BfsOracle::new(&goal);
            against_oracle(&oracle, step, &Manhattan::new(&goal));
            against_oracle(&oracle, step * 3, &Zero);
        }
    }
}

#[test]
fn seed15_easier_instances() {
    let mut e = Bidirectional::new();
    for inst in seed15().iter().filter(|i| i.optimal <= 44) {
        check_instance(&mut e, inst, &LinearConflict::new(&inst.goal));
        check_instance(&mut e, inst, &Manhattan::new(&inst.goal));
    }
}

#[test]
fn goal_board_needs_no_moves() {
    let goal = Goal::blank_first(Shape::square(3).unwrap());
    let mut e = Bidirectional::new();
    let s = solve(&mut e, goal.layout(), &goal, &Manhattan::new(&goal));
    assert!(s.moves.is_empty());
    assert_eq!((s.stats.expanded, s.stats.stored_states), (0, 1));
}
