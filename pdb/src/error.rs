//! The crate's error type.

use std::path::{Path, PathBuf};

use crate::MAX_CELLS;

/// Errors of building, loading and storing pattern databases.
#[derive(Debug, thiserror::Error)]
pub enum PdbError {
    /// A group too large for a table (or empty, or leaving no free cell).
    #[error(
        "a table of {tiles} tiles on {cells} cells is not supported (at most {max_entries} entries, at most 32 cells, at least one free cell)"
    )]
    TableTooLarge {
        /// Cells on the board.
        cells: usize,
        /// Tiles in the group.
        tiles: usize,
        /// The entry limit.
        max_entries: u64,
    },
    /// A malformed group.
    #[error("bad pattern group: {0}")]
    BadGroup(String),
    /// A malformed or unsuitable partition.
    #[error("bad partition: {0}")]
    BadPartition(String),
    /// A table value above 254 moves.
    #[error(
        "a pattern-database value exceeds 254 moves; the board is too large for one-byte entries"
    )]
    ValueOverflow,
    /// A table file that cannot be used.
    #[error("pattern-database file {path} is unusable: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A file-system error.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// No cache directory could be determined.
    #[error("no cache directory for pattern databases: set NPUZZLE_PDB_DIR or pass --pdb-dir")]
    NoCacheDir,
    /// A table is not cached and the build policy forbids building it.
    #[error(
        "the pattern table of tiles {tiles} ({entries} entries) is not cached in {dir} and is too large to build implicitly; build it with `npuzzle pdb build`"
    )]
    NotCached {
        /// The group's tiles.
        tiles: String,
        /// Its entries.
        entries: u64,
        /// The cache directory.
        dir: PathBuf,
    },
    /// The goal does not fit the board type.
    #[error("pattern databases support boards of at most {MAX_CELLS} cells; this one has {0}")]
    BoardTooLarge(usize),
    /// A table build stopped because its cancel flag was set ([`crate::build_table_cancellable`],
    /// [`crate::Cache::cancel_on`]); nothing was stored.
    #[error("cancelled while building the pattern table of tiles {tiles}")]
    Cancelled {
        /// The group's tiles.
        tiles: String,
    },
}

impl PdbError {
    /// What is wrong, without the file's path: a [`PdbError::Corrupt`] file's reason (`table
    /// checksum mismatch (corrupted contents)`, `truncated: ...`), else the whole message. For
    /// listings that name the file already.
    pub fn reason(&self) -> String {
        match self {
            PdbError::Corrupt { reason, .. } => reason.clone(),
            e => e.to_string(),
        }
    }

    pub(crate) fn io(path: &Path, source: std::io::Error) -> PdbError {
        PdbError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
