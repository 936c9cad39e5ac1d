//! # npuzzle-benches
//!
//! Criterion benches comparing the npuzzle engines (`cargo bench -p npuzzle-benches`), plus the
//! helpers they share. Bench IDs are `instance/engine/heuristic`; every timed solve asserts the
//! known optimal length, so a fast wrong engine fails instead of winning.

use npuzzle_core::{BitBoard, Board, Heuristic, Limits, Outcome, Solver};
use npuzzle_testsuite::Instance;

/// Solves `inst` with `engine` and `heuristic` and returns the solution length.
///
/// # Panics
/// If the search fails, the board is reported unsolvable, or the length is not the known
/// optimum — inside the timed code, by design.
pub fn solve_exact<S: Solver<BitBoard>, H: Heuristic<BitBoard>>(
    engine: &mut S,
    inst: &Instance,
    heuristic: &H,
) -> usize {
    let board = BitBoard::from_layout(&inst.board).expect("instance fits the bitboard");
    match engine.solve(&board, &inst.goal, heuristic, &Limits::default()) {
        Ok(Outcome::Solved(s)) => {
            assert_eq!(
                s.moves.len() as u32,
                inst.optimal,
                "{} by {}",
                inst.id,
                engine.name()
            );
            s.moves.len()
        }
        Ok(Outcome::Unsolvable(_)) => panic!("{} reported unsolvable", inst.id),
        Err(e) => panic!("{}: {e}", inst.id),
    }
}
