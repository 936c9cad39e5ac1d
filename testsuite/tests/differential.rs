//! Differential tests: IDA* and A* agree with each other (and with exhaustive BFS where it
//! fits) on random boards of every shape the bitboard holds, and every answer replays to the
//! goal.

use npuzzle_astar::AStar;
use npuzzle_core::{
    BitBoard, Goal, Heuristic, Layout, LinearConflict, Manhattan, Move, Shape, Solver,
};
use npuzzle_idastar::IdaStar;
use npuzzle_testsuite::BfsOracle;
use proptest::prelude::*;

fn length<S: Solver<BitBoard>, H: Heuristic<BitBoard>>(
    e: &mut S,
    start: &Layout,
    goal: &Goal,
    h: &H,
) -> usize {
    npuzzle_testsuite::solve_replayed(e, start, goal, h)
        .moves
        .len()
}

fn walk(goal: &Goal, steps: &[u8]) -> Layout {
    let mut l = goal.layout().clone();
    for &s in steps {
        l.apply(Move::from_index(s as usize));
    }
    l
}

fn shapes() -> Vec<Shape> {
    let mut v = Vec::new();
    for w in 2..=8 {
        for h in 2..=8 {
            if w * h <= 16 {
                v.push(Shape::new(w, h).unwrap());
            }
        }
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// On every shape and both standard goals, the two engines find solutions of equal length
    /// for boards up to 60 random moves from the goal.
    #[test]
    fn engines_agree_on_every_shape(steps in prop::collection::vec(0u8..4, 0..60), first in any::<bool>()) {
        for shape in shapes() {
            let goal = if first { Goal::blank_first(shape) } else { Goal::blank_last(shape) };
            let start = walk(&goal, &steps);
            let lc = LinearConflict::new(&goal);
            let md = Manhattan::new(&goal);
            let a = length(&mut AStar::new(), &start, &goal, &md);
            let i = length(&mut IdaStar::new(), &start, &goal, &lc);
            prop_assert_eq!(a, i, "{} {}", shape, start);
            prop_assert!(a <= steps.len());
        }
    }
}

/// Both engines return exactly the BFS distance on a sample of every distance of the 2x5 and
/// 5x2 boards (1,814,400 states each) and a custom goal on the 8-puzzle.
#[test]
fn engines_match_bfs_on_larger_small_boards() {
    let s3 = Shape::square(3).unwrap();
    let custom = Goal::custom(npuzzle_core::parse_board("4 1 2 0 8 7 6 3 5", None).unwrap());
    let goals = [
        Goal::blank_last(Shape::new(2, 5).unwrap()),
        Goal::blank_first(Shape::new(5, 2).unwrap()),
        custom,
        Goal::blank_first(s3),
    ];
    for goal in goals {
        let oracle = BfsOracle::new(&goal);
        let lc = LinearConflict::new(&goal);
        let step = oracle.len() / 150;
        let mut astar = AStar::new();
        let mut ida = IdaStar::new();
        for (board, d) in oracle.sample(step) {
            assert_eq!(
                length(&mut astar, &board, &goal, &lc) as u32,
                d,
                "astar {board}"
            );
            assert_eq!(
                length(&mut ida, &board, &goal, &lc) as u32,
                d,
                "idastar {board}"
            );
        }
    }
}
