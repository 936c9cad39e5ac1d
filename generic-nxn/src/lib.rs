//! # npuzzle-nxn
//!
//! Sliding-tile puzzles of any shape from 2×2 to 127×127:
//!
//! - [`VecBoard`], a [`Board`](npuzzle_core::Board) with one `u16` a cell and a compact packed
//!   key ([`NxnKey`]), so that the optimal engines (`npuzzle-idastar`, `npuzzle-astar`) and
//!   core's admissible heuristics run on boards of any size unchanged (the facade uses it above
//!   25 cells: boards of at most 16 cells run on core's `BitBoard`, 17–25 cells on core's
//!   `PackedBoard`);
//! - [`WeightedAStar`], best-first search on f = g + w·h: answers at most `w` times longer than
//!   optimal (optimal for `w = 1`), for mid-sized boards (5×5 to about 8×8) that optimal search
//!   cannot finish;
//! - [`Constructive`], a tile-by-tile solver that finishes on every board up to 127×127 in well
//!   under a second, with answers far from optimal; [`Constructive::reduce`] and
//!   [`Constructive::reduce_with_beams`] (lines placed by beam search) stop it at a corner of a
//!   given size ([`Reduction`]), which the `beam` engine then searches (boards beyond 7×7).
//!
//! The never-optimal searches (beam search, the anytime beam search that starts from
//! [`Constructive`]'s answer, answer shortening, hill climbing) are in `npuzzle-suboptimal`;
//! this crate keeps the board, the constructive solver (with the line beams of its reduction,
//! `src/line_beam.rs`, which it alone uses) and weighted A\*, which the constructive solver
//! calls for the last corner of a board.
//!
//! Use the `u64` [`BitBoard`](npuzzle_core::BitBoard) for boards of at most 16 cells (it is
//! faster); use this crate's board above that, and its solvers when proven-optimal answers are
//! out of reach. [`Constructive`] and [`WeightedAStar`] implement
//! [`Solver`](npuzzle_core::Solver) like the optimal engines, but their answers are **not**
//! proven optimal (except `WeightedAStar` with `w = 1`): callers must say so.
//!
//! ## Example
//! ```
//! use npuzzle_core::{Board, Goal, Layout, Limits, Manhattan, Move, Outcome, Shape, Solver, verify};
//! use npuzzle_nxn::{Constructive, VecBoard};
//! let shape = Shape::new(40, 30)?;
//! let goal = Goal::blank_last(shape);
//! let mut board = VecBoard::from_layout(goal.layout())?;
//! for m in [Move::Down, Move::Right, Move::Down, Move::Right] {
//!     board.apply(m);
//! }
//! let start = board.to_layout();
//! let Outcome::Solved(s) =
//!     Constructive::new().solve(&board, &goal, &Manhattan::new(&goal), &Limits::default())?
//! else { panic!("solvable") };
//! verify(&start, &s.moves, goal.layout())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod board;
mod constructive;
mod line_beam;
mod weighted;

pub use board::{INLINE_WORDS, NxnKey, VecBoard};
pub use constructive::{Constructive, Reduction, cancel_inverse_pairs};
pub use weighted::{DEFAULT_MEMORY_LIMIT, WeightError, WeightedAStar};
