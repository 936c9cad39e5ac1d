//! # npuzzle-benches
//!
//! Criterion benches comparing the npuzzle engines (`cargo bench -p npuzzle-benches`), plus the
//! helpers they share. Bench IDs are `instance/engine/heuristic` (with a `/vec-board` suffix where
//! the generic Vec board runs an instance that the `u64` bitboard also runs); every timed solve
//! asserts the known optimal length, so a fast wrong engine fails instead of winning.
//!
//! Whole-suite runs (all of Korf's 100, with JSON-lines results) are the CLI's job:
//! `npuzzle bench FILE`.
//!
//! ```
//! use npuzzle_benches::{Case, solve_exact_case};
//! use npuzzle_core::{BitBoard, Goal, Manhattan, parse_board};
//! use npuzzle_idastar::IdaStar;
//!
//! let layout = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
//! let case: Case<BitBoard> = Case::new("A31_1", &layout, Goal::blank_last(layout.shape()), 31);
//! let h = Manhattan::new(&case.goal);
//! assert_eq!(solve_exact_case(&mut IdaStar::new(), &case, &h), 31);
//! ```

use npuzzle_core::{
    BitBoard, Board, Goal, Heuristic, Layout, Limits, Move, Outcome, Solver, legal_moves,
};
use npuzzle_testsuite::Instance;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Solves `inst` with `engine` and `heuristic` on the `u64` bitboard and returns the solution
/// length.
///
/// # Panics
/// If the board does not fit the bitboard, the search fails, the board is reported unsolvable,
/// or the length is not the known optimum — inside the timed code, by design.
pub fn solve_exact<S: Solver<BitBoard>, H: Heuristic<BitBoard>>(
    engine: &mut S,
    inst: &Instance,
    heuristic: &H,
) -> usize {
    let case = Case::<BitBoard>::new(&inst.id, &inst.board, inst.goal.clone(), inst.optimal);
    solve_exact_case(engine, &case, heuristic)
}

/// One bench instance on board type `B`: the start board already converted (outside the timed
/// code), its goal and its known optimal length.
#[derive(Clone, Debug)]
pub struct Case<B> {
    /// The instance's ID, the first part of the bench IDs.
    pub id: String,
    /// The start board as a layout (for replay checks).
    pub layout: Layout,
    /// The start board as `B`.
    pub board: B,
    /// The goal.
    pub goal: Goal,
    /// Known optimal solution length, in moves.
    pub optimal: u32,
}

impl<B: Board> Case<B> {
    /// Converts `layout` to `B`.
    ///
    /// # Panics
    /// If the board does not fit `B` (more than 16 cells for the bitboard).
    pub fn new(id: &str, layout: &Layout, goal: Goal, optimal: u32) -> Case<B> {
        Case {
            id: id.to_string(),
            layout: layout.clone(),
            board: B::from_layout(layout).expect("the instance fits the board type"),
            goal,
            optimal,
        }
    }

    /// The same case from a test-suite instance.
    ///
    /// # Panics
    /// As [`Case::new`].
    pub fn from_instance(inst: &Instance) -> Case<B> {
        Case::new(&inst.id, &inst.board, inst.goal.clone(), inst.optimal)
    }
}

/// Solves `case` with `engine` and `heuristic` and returns the solution length. O(the search).
///
/// # Panics
/// If the search fails (no limits are set, so only on an engine's own memory limit), the board
/// is reported unsolvable, or the length is not `case.optimal` — inside the timed code, by
/// design.
pub fn solve_exact_case<B: Board, S: Solver<B>, H: Heuristic<B>>(
    engine: &mut S,
    case: &Case<B>,
    heuristic: &H,
) -> usize {
    let n = solve_len(engine, case, heuristic);
    assert_eq!(
        n as u32,
        case.optimal,
        "{} by {}: not the optimal length",
        case.id,
        engine.name()
    );
    n
}

/// Solves `case` with an engine that does not prove optimality (weighted A\*, the constructive
/// solver) and returns the solution length, asserting `optimal <= length <= bound`.
///
/// # Panics
/// If the search fails, the board is reported unsolvable, or the length is outside those
/// bounds.
pub fn solve_bounded<B: Board, S: Solver<B>, H: Heuristic<B>>(
    engine: &mut S,
    case: &Case<B>,
    heuristic: &H,
    bound: u32,
) -> usize {
    let n = solve_len(engine, case, heuristic);
    assert!(
        case.optimal as usize <= n && n <= bound as usize,
        "{} by {}: {n} moves, outside {}..={bound}",
        case.id,
        engine.name(),
        case.optimal
    );
    n
}

/// The solution's moves, for replay checks outside the timed code.
///
/// # Panics
/// If the search fails or the board is reported unsolvable.
pub fn solution_moves<B: Board, S: Solver<B>, H: Heuristic<B>>(
    engine: &mut S,
    case: &Case<B>,
    heuristic: &H,
) -> Vec<Move> {
    match engine.solve(&case.board, &case.goal, heuristic, &Limits::default()) {
        Ok(Outcome::Solved(s)) => s.moves,
        Ok(Outcome::Unsolvable(_)) => panic!("{} reported unsolvable", case.id),
        Err(e) => panic!("{} by {}: {e}", case.id, engine.name()),
    }
}

fn solve_len<B: Board, S: Solver<B>, H: Heuristic<B>>(
    engine: &mut S,
    case: &Case<B>,
    heuristic: &H,
) -> usize {
    match engine.solve(&case.board, &case.goal, heuristic, &Limits::default()) {
        Ok(Outcome::Solved(s)) => s.moves.len(),
        Ok(Outcome::Unsolvable(_)) => panic!("{} reported unsolvable", case.id),
        Err(e) => panic!("{} by {}: {e}", case.id, engine.name()),
    }
}

/// The board after `k` random moves from `goal` (`ChaCha8` seeded with `seed`), never undoing
/// the previous move: at most `k` moves from the goal. O(W·H + k).
///
/// # Panics
/// Never (every board has a legal move besides the inverse of the last one).
pub fn random_walk(goal: &Goal, k: usize, seed: u64) -> Layout {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let shape = goal.shape();
    let mut layout = goal.layout().clone();
    let mut last: Option<Move> = None;
    for _ in 0..k {
        let mut legal = legal_moves(layout.blank(), shape.width(), shape.height());
        if let Some(m) = last {
            legal = legal.without(m.inverse());
        }
        let choices: Vec<Move> = legal.collect();
        let m = choices[rng.random_range(0..choices.len())];
        let applied = layout.apply(m);
        debug_assert!(applied, "legal moves apply");
        last = Some(m);
    }
    layout
}

/// A uniformly random board solvable for `goal` (`ChaCha8` seeded with `seed`): a random
/// permutation, with two tiles swapped when its parity is wrong. O(W·H).
///
/// # Panics
/// Never for a valid goal (every permutation of its cells is a valid layout).
pub fn random_solvable(goal: &Goal, seed: u64) -> Layout {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let shape = goal.shape();
    let mut cells: Vec<usize> = (0..shape.cells()).collect();
    cells.shuffle(&mut rng);
    let layout = Layout::new(shape, &cells).expect("a permutation");
    if goal.parity(&layout).expect("same shape").solvable {
        return layout;
    }
    let mut tiles = (0..cells.len()).filter(|&c| cells[c] != 0);
    let (Some(a), Some(b)) = (tiles.next(), tiles.next()) else {
        unreachable!("every board has at least 3 tiles");
    };
    cells.swap(a, b);
    Layout::new(shape, &cells).expect("a permutation")
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{LinearConflict, Manhattan, Shape, verify};
    use npuzzle_idastar::IdaStar;
    use npuzzle_nxn::VecBoard;

    #[test]
    fn walks_and_random_boards_are_solvable_and_reproducible() {
        let goal = Goal::blank_last(Shape::square(5).unwrap());
        let w = random_walk(&goal, 30, 7);
        assert_eq!(w, random_walk(&goal, 30, 7));
        assert!(goal.parity(&w).unwrap().solvable);
        let case = Case::<VecBoard>::new("walk", &w, goal.clone(), 0);
        let moves = solution_moves(&mut IdaStar::new(), &case, &LinearConflict::new(&goal));
        assert!(moves.len() <= 30 && moves.len().is_multiple_of(2));
        verify(&w, &moves, goal.layout()).unwrap();
        let r = random_solvable(&goal, 3);
        assert_eq!(r, random_solvable(&goal, 3));
        assert!(goal.parity(&r).unwrap().solvable);
    }

    #[test]
    #[should_panic(expected = "not the optimal length")]
    fn a_wrong_length_panics() {
        let layout = npuzzle_core::parse_board("123456708", None).unwrap();
        let case = Case::<BitBoard>::new("x", &layout, Goal::blank_last(layout.shape()), 2);
        solve_exact_case(&mut IdaStar::new(), &case, &Manhattan::new(&case.goal));
    }
}
