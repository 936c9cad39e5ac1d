//! # npuzzle-suboptimal
//!
//! The searches that never prove their answers optimal, for boards out of reach of optimal
//! search and for teaching. Each proves nothing about the length of its answers
//! ([`Guarantee::Unproven`](npuzzle_core::Guarantee::Unproven) whatever the heuristic), and the
//! `npuzzle` facade refuses them under `optimal`:
//!
//! - [`beam`], [`beam_threads`] and [`beam_ties`] (`src/beam.rs`): beam search, breadth-first
//!   search that keeps the `width` children of least h in each layer, ties broken by squared
//!   (or cubed) Manhattan distances ([`Ties`]), on one thread or several;
//! - [`anytime`] and [`AnytimeBeam`] (`src/anytime.rs`; the registry's `beam` engine): the
//!   constructive answer, then beams of growing widths on several threads within a time budget
//!   (on two threads or more, pairs of beams, one on the board and one on the reversed
//!   instance), every answer shortened; boards beyond [`DEFAULT_CORNER`]×[`DEFAULT_CORNER`]
//!   reduced to a corner first. Auto's anytime answers on 26–400 cells (near the lengths of
//!   `DeepCubeA` (2019) on 6×6 in seconds; BENCHMARKS.md, "Anytime beam search");
//! - [`LearnedRanking`] (`src/learned.rs`): the beams' ranking on 6×6 and 7×7, linear conflict
//!   plus learned costs of each tile's offset from its goal cell, by stage of the solve
//!   ([`Stage`]), fitted by the project from its own beams' answers (module `fit`, behind the
//!   feature `fit`; models in `models/`);
//! - [`shorten`] (`src/shorten.rs`): a solution made shorter by cutting its loops and replacing
//!   windows of it by optimal ones;
//! - [`HillClimbing`] (`src/hill_climbing.rs`; the registry's `hill-climbing` engine): the
//!   teaching notes' hill climbing, with a visited record and seeded random escapes.
//!
//! They live apart from the optimal engines (`npuzzle-idastar`, `npuzzle-astar`,
//! `npuzzle-bidirectional`) and from the Vec board (`npuzzle-nxn`) because they share their
//! role, not their machinery: a reader looking for what runs when no optimum can be proven
//! finds it here. The anytime search starts from the constructive solver's answer and reduces
//! large boards with it, so this crate depends on `npuzzle-nxn`. Two relatives stay where
//! their machinery is: greedy best-first search (`npuzzle_astar::Greedy`, A\*'s own loop
//! ordered by h alone) and the constructive solver's line beams (`npuzzle-nxn`, used by its
//! reduction only). Weighted A\* (`npuzzle_nxn::WeightedAStar`) bounds its answers' length
//! and stays with the constructive solver, which calls it.
//!
//! ## Example
//! ```
//! use npuzzle_core::{Board, Goal, Limits, LinearConflict, Move, Outcome, Shape, Solver, verify};
//! use npuzzle_nxn::VecBoard;
//! use npuzzle_suboptimal::AnytimeBeam;
//! let goal = Goal::blank_last(Shape::square(6)?);
//! let mut board = VecBoard::from_layout(goal.layout())?;
//! for m in [Move::Down, Move::Right, Move::Down, Move::Right] {
//!     board.apply(m);
//! }
//! let start = board.to_layout();
//! let mut engine = AnytimeBeam::new(1);
//! engine.options.max_width = 64;
//! let Outcome::Solved(s) =
//!     engine.solve(&board, &goal, &LinearConflict::new(&goal), &Limits::default())?
//! else { panic!("solvable") };
//! verify(&start, &s.moves, goal.layout())?;
//! assert!(s.moves.len() <= 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod anytime;
mod beam;
#[cfg(feature = "fit")]
pub mod fit;
mod hill_climbing;
mod learned;
mod shorten;

pub use anytime::{AnytimeAnswer, AnytimeBeam, AnytimeOptions, DEFAULT_CORNER, anytime};
pub use beam::{
    BeamCounts, BeamEnd, Ties, beam, beam_layer_bytes, beam_record_bytes, beam_threads, beam_ties,
};
pub use hill_climbing::HillClimbing;
pub use learned::{
    LearnedRanking, MAX_STAGES, ModelError, RankMemo, RankingWeights, Stage, StageWeights,
};
pub use shorten::shorten;
