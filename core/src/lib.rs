//! # npuzzle-core
//!
//! The shared core of the npuzzle sliding-tile solver: board shapes and validated layouts,
//! parsing, goals and solvability by parity, the [`Board`] trait that every engine is generic
//! over, the `u64` [`BitBoard`] (any W×H with W, H ≥ 2 and W·H ≤ 16), the `u128` [`PackedBoard`]
//! (W·H ≤ 25: the 24-puzzle, 4×6, 3×8, …), admissible heuristics with
//! incremental updates, the types engines share ([`Solver`], [`Limits`], [`Stats`], [`Outcome`]),
//! [`verify`], an independent solution checker, the chunked node [`Arena`] and the
//! memory-bounded [`NodeStore`] (arena + visited map + byte accounting) that A*, bidirectional
//! search and weighted A* store their states in, and [`start_search`], the start every engine
//! shares (parity, goal board, start = goal).
//!
//! Use this crate to read, check and represent boards; use an engine crate (`npuzzle-idastar`,
//! `npuzzle-astar`) to solve them.
//!
//! ## Conventions
//! - Cells are row-major indices `0..W*H`; tile `0` is the blank.
//! - Default goal: tiles `1..N-1` in order with the blank last (`123456789abcdef0` for 4×4).
//!   Also supported: blank-first (`0 1 2 .. N-1`, Korf's convention, used by Korf's 100) and any
//!   explicit goal board. Every heuristic and parity test is relative to the chosen [`Goal`].
//!   **Partial goals** ([`partial`]: some cells do not matter, written `x`, `?`, `*` or `_`)
//!   are a separate type, [`PartialGoal`], searched by `npuzzle_idastar::partial`.
//! - Move letters `U D L R` name the direction **the tile slides** into the blank (`U` = the tile
//!   below the blank moves up = the blank moves down).
//! - Costs and heuristics are in moves, memory in bytes, times in seconds.
//!
//! ## Example
//! ```
//! use npuzzle_core::{BitBoard, Board, Goal, Heuristic, Manhattan, parse_board};
//! let layout = parse_board("8 6 7\n2 5 4\n3 0 1", None)?;
//! let goal = Goal::blank_last(layout.shape());
//! assert!(goal.parity(&layout)?.solvable);
//! let board = BitBoard::from_layout(&layout)?;
//! let md = Manhattan::new(&goal);
//! assert_eq!(md.estimate(&board), 21);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod additive;
mod arena;
mod bitboard;
mod board;
mod goal;
mod heuristic;
mod layout;
mod moves;
mod packed;
pub mod parse;
pub mod partial;
mod prefetch;
mod search;
mod store;
mod threads;
mod verify;
pub mod walking;
mod word;

pub use additive::{
    AdditiveTables, CodedTable, TableGroup, TableReflection, ZERO_AWARE_MAX_TILES,
    ZERO_AWARE_RECORD_BYTES, ZeroAwareLayout, record_word,
};
pub use arena::{ARENA_CHUNK, Arena};
pub use bitboard::BitBoard;
pub use board::{Board, BoardError};
pub use goal::{Goal, GoalKind, GoalShapeError, Parity};
pub use heuristic::{
    Hamming, Heuristic, HeuristicProperties, LinearConflict, Manhattan, MtmManhattan, Zero,
    slide_estimates_in_turn, slide_step_estimate,
};
pub use layout::{Layout, LayoutError, MAX_SIDE, Shape, ShapeError};
pub use moves::{
    MAX_COUNT, Metric, Move, MoveGroup, MoveParseError, Moves, Notation, group_moves, legal_moves,
    moves_to_counts, moves_to_string, mtm_length, parse_move_groups, parse_moves,
};
pub use packed::PackedBoard;
pub use parse::{
    BoardReader, Instance, MAX_LINE_BYTES, ParseError, ReadError, is_instance_file, parse_board,
    parse_boards, parse_instances,
};
pub use partial::{
    PartialGoal, PartialGoalError, PartialHeuristic, PartialKind, PartialManhattan, parse_partial,
    verify_partial,
};
pub use prefetch::prefetch;
pub use search::{
    BidirectionalStats, BoundKind, Guarantee, Iteration, Limit, LimitClock, Limits, Outcome,
    Progress, SearchError, SearchStart, Solution, Solver, Stats, StopAt, human_bytes, start_search,
};
pub use store::{
    DEFAULT_MEMORY_LIMIT, FoldedFx, FoldedFxHasher, MIN_OPEN_GROWTH, NodeStore, RETAIN_BYTES,
    STORING_CHECK_INTERVAL, STORING_OBSERVE_INTERVAL, StoreReport, Visit,
};
pub use threads::{Threads, TooManyThreads};
pub use verify::{VerifyError, verify};
pub use walking::{WalkingDistance, WalkingShapeError};
