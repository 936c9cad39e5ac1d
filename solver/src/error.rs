//! The facade's one error type.

use npuzzle_core::{BoardError, GoalShapeError, ParseError, SearchError};
use npuzzle_nxn::WeightError;
use npuzzle_pdb::PdbError;

/// Why [`crate::solve`] (or any facade call) gave no answer. An unsolvable board is **not** an
/// error: it is a proven [`crate::Answer`] (see [`crate::Answer::is_solvable`]).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The board (or goal) text could not be read; the message names the offending data.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// Options that do not go together, or a bad value (`--optimal` with an engine that does not
    /// prove optimality, `--weight` with another engine, a bad partition, ...).
    #[error("{0}")]
    Options(String),
    /// Weighted A*'s weight is out of range.
    #[error(transparent)]
    Weight(#[from] WeightError),
    /// The goal does not have the board's shape.
    #[error(transparent)]
    Goal(#[from] GoalShapeError),
    /// The board does not fit the board type the engine runs on.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A limit (nodes, time, memory, cancellation) stopped the search; the error says which and
    /// how far the search got. Never means "no solution".
    #[error(transparent)]
    Search(#[from] SearchError),
    /// Opening or building the pattern databases failed.
    #[error("pattern database {what}: {source}")]
    Pdb {
        /// Which databases (`6-6-3 for 4x4 blank-last`).
        what: String,
        /// Why.
        #[source]
        source: PdbError,
    },
    /// A solution too long to print as boards (`--format boards`).
    #[error(
        "the solution has {moves} moves on a {shape} board: too many boards to print with --format boards; use --format text or json"
    )]
    TooManyBoards {
        /// Moves in the solution.
        moves: usize,
        /// The board's shape.
        shape: npuzzle_core::Shape,
    },
    /// An engine returned moves that fail the independent replay check, or called a board
    /// unsolvable that parity says is solvable: a bug, reported rather than printed as an
    /// answer.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// The search limit that stopped the search, with its progress, if that is the error.
    pub fn limit(&self) -> Option<(&npuzzle_core::Limit, &npuzzle_core::Progress)> {
        match self {
            Error::Search(SearchError::LimitReached { limit, progress }) => Some((limit, progress)),
            _ => None,
        }
    }
}
