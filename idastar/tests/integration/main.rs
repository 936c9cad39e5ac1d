//! The integration tests of npuzzle-idastar, one module per area, in one test binary (one build
//! and link instead of eight: `cargo test -p npuzzle-idastar --test integration`, or one area
//! with a filter such as `-- tables::`).

mod astar_idastar;
mod frontier;
mod fsm;
mod fused;
mod mtm;
mod oracle;
mod parallel;
mod tables;

use npuzzle_core::{Board, Goal, Heuristic, Layout, Limits, Outcome, Solution, Solver, verify};

/// Solves `start` on board type `B` with `engine` (IDA\*, A\*+IDA\*, any [`Solver`]) and `h`,
/// without limits, and replays the moves to the goal. Every caller's board is solvable.
///
/// # Panics
/// On a search error, an "unsolvable" answer (with its explanation) or a move list that does
/// not reach the goal.
fn solve<B: Board, H: Heuristic<B>>(
    engine: &mut impl Solver<B>,
    start: &Layout,
    goal: &Goal,
    h: &H,
) -> Solution {
    let b = B::from_layout(start).unwrap();
    match engine.solve(&b, goal, h, &Limits::default()).unwrap() {
        Outcome::Solved(s) => {
            verify(start, &s.moves, goal.layout()).unwrap();
            s
        }
        Outcome::Unsolvable(p) => panic!("{start} reported unsolvable: {}", p.explain()),
    }
}
