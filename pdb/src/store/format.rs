//! The table file format: its constants, the key of a table, the header, and the table
//! checksum (the layout is in the parent module's docs).

use std::path::Path;

use npuzzle_core::{Goal, Layout, Shape};
use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

use crate::PdbError;
use crate::index::{Indexer, MAX_CELLS, MAX_INDEX_CELLS};
use crate::mtm::MtmRanking;
use crate::zero_aware::ZeroAwareIndexer;

pub(super) const MAGIC: &[u8; 8] = b"NPZPDB\r\n";
/// The file format version this build writes (it also reads version 1).
pub const FORMAT_VERSION: u32 = 2;
/// Bytes per checksummed chunk in format version 2.
pub(super) const CHUNK: usize = 1 << 20;
pub(super) const HEADER_LEN: usize = 128;
pub(super) const ENCODING_U8: u8 = 1;
/// Entry encoding of zero-aware tables: one byte per entry, indexed by [`ZeroAwareIndexer`].
pub(super) const ENCODING_ZERO_AWARE: u8 = 2;
/// Entry encoding of the plain tables of boards of more than [`MAX_CELLS`] cells: tile-only
/// tables ([`crate::TileOnlyDb`]), one byte per entry indexed by [`Indexer`]; the goal board
/// takes bytes `40..40 + N` of the header and the group's tiles the `k` bytes after it.
pub(super) const ENCODING_TILE_ONLY: u8 = 3;
/// Entry encoding of a zero-aware table's region-coded form ([`crate::region_codes`]): the
/// coded entries, one byte per plain pattern indexed by [`Indexer`], then the pocket bytes,
/// as many again.
pub(super) const ENCODING_REGION_CODED: u8 = 4;
/// Entry encoding of a duplicate-pruning automaton ([`TableKind::Automaton`]): its bytes as
/// the engine that builds it writes them (`npuzzle_idastar::Fsm::to_payload`); byte 18 of the
/// header holds its depth, and goal and tiles are empty.
pub(super) const ENCODING_AUTOMATON: u8 = 5;
/// Entry encoding 6: a multi-tile table ([`crate::MtmDb`]), one byte per abstract state
/// ([`crate::MtmRanking`]), the group's tiles at byte 72 as for plain tables.
pub(super) const ENCODING_MTM: u8 = 6;
/// The environment variable that overrides the cache directory.
pub const ENV_DIR: &str = "NPUZZLE_PDB_DIR";
/// File name extension of table files.
pub const EXTENSION: &str = "pdb";
/// File name extension of the automaton files of earlier versions, which kept automata apart
/// from the tables ([`crate::Cache::clear`] removes them).
pub(super) const OLD_FSM: &str = "fsm";
/// Name prefix of the cache's temporary and lock files.
pub(super) const TEMP_PREFIX: &str = ".npuzzle-pdb-";
/// Name suffix of temporary files (a table being written).
pub(super) const TEMP_SUFFIX: &str = ".tmp";
/// Name suffix of lock files (held while a table is built, [`Cache::lock`]).
pub(super) const LOCK_SUFFIX: &str = ".lock";

/// The name prefix of the temporary files of table `key`: `.npuzzle-pdb-NAME.` (a random part
/// and `.tmp` follow).
pub(super) fn temp_prefix(key: &TableKey) -> String {
    format!("{TEMP_PREFIX}{}.", key.file_name())
}

/// The checksum of `table` in the current format version: the digest a table derived from it
/// records of its source ([`Header::source`]). O(len), in parallel.
pub(crate) fn digest(table: &[u8]) -> u64 {
    table_checksum(FORMAT_VERSION, table)
}

/// The table checksum of format `version` (1 or 2, see the module docs). O(len), version 2 in
/// parallel over 1 MiB chunks on rayon's pool.
///
/// # Panics
/// If `version` is neither 1 nor 2.
pub(super) fn table_checksum(version: u32, table: &[u8]) -> u64 {
    match version {
        1 => xxh3_64(table),
        2 => {
            let digests: Vec<[u8; 8]> = table
                .par_chunks(CHUNK)
                .map(|c| xxh3_64(c).to_le_bytes())
                .collect();
            xxh3_64(digests.as_flattened())
        }
        v => panic!("no table checksum for format version {v}"),
    }
}

/// Which kind of table a file holds, for one group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// A plain table ([`crate::PatternDb`], entry encoding 1; on boards of more than
    /// [`MAX_CELLS`] cells a tile-only table, [`crate::TileOnlyDb`], encoding 3): `N!/(N−k)!`
    /// entries.
    Plain,
    /// A zero-aware table ([`crate::ZeroAwareDb`], entry encoding 2):
    /// [`ZeroAwareIndexer::size`] entries.
    ZeroAware,
    /// The region-coded form of a zero-aware table ([`crate::region_codes`], entry encoding
    /// 4): the `N!/(N−k)!` coded entries, then as many pocket bytes; derived from the
    /// zero-aware table and cached so that opening does not derive it again.
    RegionCoded,
    /// A duplicate-pruning automaton of the board shape (entry encoding 5), for forbidden
    /// move strings of at most `depth` moves: bytes that this crate stores and checksums but
    /// does not interpret (`npuzzle_idastar::Fsm::to_payload`), any number of them. Its key
    /// has no goal and no tiles.
    Automaton {
        /// The longest forbidden string, in moves.
        depth: u8,
    },
    /// A multi-tile-metric table ([`crate::MtmDb`], entry encoding 6): [`MtmRanking::size`]
    /// entries, one per abstract state (the blank, the group's tiles told apart by goal row).
    Mtm,
}

/// What a table file holds: the board shape, the goal, the group's tiles (ascending) and the
/// kind of table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableKey {
    /// Board shape.
    pub shape: Shape,
    /// The goal board, one tile per cell.
    pub goal: Vec<u8>,
    /// The group's tiles, ascending.
    pub tiles: Vec<u8>,
    /// Plain, zero-aware, region-coded or an automaton.
    pub kind: TableKind,
}

impl TableKey {
    /// The key of `tiles` (any order) for `goal`.
    pub fn new(goal: &Goal, tiles: &[u8]) -> TableKey {
        let mut tiles = tiles.to_vec();
        tiles.sort_unstable();
        TableKey {
            shape: goal.shape(),
            goal: goal.layout().cells().iter().map(|&t| t as u8).collect(),
            tiles,
            kind: TableKind::Plain,
        }
    }

    /// The key of the zero-aware table of `tiles` (any order) for `goal`.
    pub fn zero_aware(goal: &Goal, tiles: &[u8]) -> TableKey {
        TableKey {
            kind: TableKind::ZeroAware,
            ..TableKey::new(goal, tiles)
        }
    }

    /// The key of the region-coded form of the zero-aware table of `tiles` (any order) for
    /// `goal` ([`TableKind::RegionCoded`]).
    pub fn region_coded(goal: &Goal, tiles: &[u8]) -> TableKey {
        TableKey {
            kind: TableKind::RegionCoded,
            ..TableKey::new(goal, tiles)
        }
    }

    /// The key of the multi-tile table of `tiles` (any order) for `goal` ([`TableKind::Mtm`]).
    pub fn mtm(goal: &Goal, tiles: &[u8]) -> TableKey {
        TableKey {
            kind: TableKind::Mtm,
            ..TableKey::new(goal, tiles)
        }
    }

    /// The key of the duplicate-pruning automaton of `shape` for forbidden strings of at most
    /// `depth` moves ([`TableKind::Automaton`]): no goal, no tiles.
    pub fn automaton(shape: Shape, depth: u8) -> TableKey {
        TableKey {
            shape,
            goal: Vec::new(),
            tiles: Vec::new(),
            kind: TableKind::Automaton { depth },
        }
    }

    /// Number of entries (bytes after the header): `N!/(N-k)!`, twice that for a region-coded
    /// table, [`ZeroAwareIndexer::size`] for a zero-aware one (computed once per process and
    /// board: about 0.1 s on 5×5); 0 for an automaton, whose size its key does not fix.
    ///
    /// # Errors
    /// As [`Indexer::new`] or [`ZeroAwareIndexer::new`].
    pub fn entries(&self) -> Result<u64, PdbError> {
        if self.kind == TableKind::Mtm {
            return Ok(MtmRanking::new(&self.goal()?, &self.tiles)?.size());
        }
        entries(self.shape, self.tiles.len(), self.kind)
    }

    /// The goal of the key, as a [`Goal`].
    ///
    /// # Errors
    /// [`PdbError::BadGroup`] if the goal cells are not a permutation of the shape's tiles.
    fn goal(&self) -> Result<Goal, PdbError> {
        let cells: Vec<usize> = self.goal.iter().map(|&t| usize::from(t)).collect();
        Layout::new(self.shape, &cells)
            .map(Goal::custom)
            .map_err(|e| PdbError::BadGroup(format!("bad goal in the key: {e}")))
    }

    /// Whether this is a tile-only table ([`crate::TileOnlyDb`]): the plain table of a board of
    /// more than [`MAX_CELLS`] cells.
    pub fn tile_only(&self) -> bool {
        self.kind == TableKind::Plain && self.shape.cells() > MAX_CELLS
    }

    /// The file name: `4x4-0123456789abcdef-1.2.3.4.5.6.7.pdb` (goal cells as base-32 digits);
    /// zero-aware tables `4x4-0123456789abcdef-z-1.2.3.4.5.6.7.pdb`, their region-coded forms
    /// `4x4-0123456789abcdef-c-1.2.3.4.5.6.7.pdb`; on boards of more than 32
    /// cells, whose tiles base-32 digits cannot name, the goal is its XXH3-64 digest in hex
    /// after a `g` and the table is tile-only: `7x7-g0123456789abcdef-t-1.2.3.4.pdb` (the
    /// header holds the whole goal, checked on every load); automata `4x4-fsm-14.pdb` (the
    /// depth last).
    pub fn file_name(&self) -> String {
        const DIGITS: &[u8; 32] = b"0123456789abcdefghijklmnopqrstuv";
        let shape = &self.shape;
        if let TableKind::Automaton { depth } = self.kind {
            return format!("{shape}-fsm-{depth}.{EXTENSION}");
        }
        let tiles: Vec<String> = self.tiles.iter().map(u8::to_string).collect();
        if shape.cells() > MAX_CELLS {
            return format!(
                "{shape}-g{:016x}-{}{}.{EXTENSION}",
                xxh3_64(&self.goal),
                if self.kind == TableKind::Plain {
                    "t-"
                } else {
                    self.kind.infix()
                },
                tiles.join(".")
            );
        }
        let goal: String = self
            .goal
            .iter()
            .map(|&t| DIGITS[usize::from(t) & 31] as char)
            .collect();
        let (infix, tiles) = (self.kind.infix(), tiles.join("."));
        format!("{shape}-{goal}-{infix}{tiles}.{EXTENSION}")
    }

    /// The header of a file holding `table` under this key; `source`: [`Header::source`].
    pub(super) fn header(&self, table: &[u8], source: u64) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        h[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
        h[16] = self.shape.width() as u8;
        h[17] = self.shape.height() as u8;
        h[18] = self.tiles.len() as u8;
        h[19] = match self.kind {
            TableKind::Automaton { depth } => {
                h[18] = depth;
                ENCODING_AUTOMATON
            }
            TableKind::ZeroAware => ENCODING_ZERO_AWARE,
            TableKind::RegionCoded => ENCODING_REGION_CODED,
            TableKind::Plain if self.tile_only() => ENCODING_TILE_ONLY,
            TableKind::Plain => ENCODING_U8,
            TableKind::Mtm => ENCODING_MTM,
        };
        h[24..32].copy_from_slice(&(table.len() as u64).to_le_bytes());
        h[32..40].copy_from_slice(&table_checksum(FORMAT_VERSION, table).to_le_bytes());
        h[40..40 + self.goal.len()].copy_from_slice(&self.goal);
        let at = tiles_at(self.goal.len(), self.tile_only());
        h[at..at + self.tiles.len()].copy_from_slice(&self.tiles);
        h[104..112].copy_from_slice(&source.to_le_bytes());
        let sum = xxh3_64(&h[..120]);
        h[120..128].copy_from_slice(&sum.to_le_bytes());
        h
    }
}

/// Where the group's tiles start in the header: byte 72, or right after the goal's `n` bytes in a
/// tile-only table's header.
fn tiles_at(n: usize, tile_only: bool) -> usize {
    if tile_only { 40 + n } else { 72 }
}

impl TableKind {
    /// The file name's part after the goal: `""`, `"z-"` or `"c-"` (`"fsm-"` after the shape
    /// for an automaton).
    fn infix(self) -> &'static str {
        match self {
            TableKind::Plain => "",
            TableKind::ZeroAware => "z-",
            TableKind::RegionCoded => "c-",
            TableKind::Automaton { .. } => "fsm-",
            TableKind::Mtm => "m-",
        }
    }
}

/// Entries (bytes after the header) of a table of `k` tiles on `shape` of `kind`.
pub(super) fn entries(shape: Shape, k: usize, kind: TableKind) -> Result<u64, PdbError> {
    match kind {
        TableKind::ZeroAware => {
            Ok(ZeroAwareIndexer::shared(shape.width(), shape.height(), k)?.size())
        }
        TableKind::RegionCoded => Ok(2 * Indexer::new(shape.cells(), k)?.size()),
        TableKind::Plain => Ok(Indexer::new(shape.cells(), k)?.size()),
        TableKind::Automaton { .. } => Ok(0),
        // Fixed by the goal and the tiles ([`TableKey::entries`]), not by their number.
        TableKind::Mtm => Err(PdbError::BadGroup(
            "a multi-tile table's size depends on its goal and tiles".into(),
        )),
    }
}

/// A parsed, self-consistent header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The table's key.
    pub key: TableKey,
    /// Entries in the table.
    pub entries: u64,
    /// The file's format version (1 or 2).
    pub version: u32,
    /// Checksum of the table bytes (of that version's kind).
    pub checksum: u64,
    /// Bytes 104..112: for a table derived from another (a region-coded table,
    /// [`crate::ZeroAwareDb::with_cached_region_codes`]), a digest of its source and of the
    /// derivation's version, checked when it is loaded ([`crate::Cache::load_derived`]); 0
    /// for every other table.
    pub source: u64,
}

pub(super) fn u32_at(h: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(h[at..at + 4].try_into().expect("4 bytes"))
}

pub(super) fn u64_at(h: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(h[at..at + 8].try_into().expect("8 bytes"))
}

impl Header {
    /// Parses and checks the header `h` of the file `path` on its own (magic, version, header
    /// checksum, shape, sizes). O(1).
    ///
    /// # Errors
    /// [`PdbError::Corrupt`] naming `path` and the first problem found.
    pub fn parse(path: &Path, h: &[u8; HEADER_LEN]) -> Result<Header, PdbError> {
        Header::check(h).map_err(|reason| PdbError::Corrupt {
            path: path.to_path_buf(),
            reason,
        })
    }

    /// [`Header::parse`] without the path: the first problem found, in words.
    fn check(h: &[u8; HEADER_LEN]) -> Result<Header, String> {
        if &h[0..8] != MAGIC {
            return Err("not a pattern-database file (bad magic bytes)".into());
        }
        let version = u32_at(h, 8);
        if version != 1 && version != FORMAT_VERSION {
            return Err(format!(
                "format version {version}, this program reads versions 1 to {FORMAT_VERSION}"
            ));
        }
        if u32_at(h, 12) as usize != HEADER_LEN {
            return Err(format!(
                "header length {}, expected {HEADER_LEN}",
                u32_at(h, 12)
            ));
        }
        if u64_at(h, 120) != xxh3_64(&h[..120]) {
            return Err("header checksum mismatch (corrupted header)".into());
        }
        let (kind, tile_only) = match h[19] {
            ENCODING_U8 => (TableKind::Plain, false),
            ENCODING_ZERO_AWARE => (TableKind::ZeroAware, false),
            ENCODING_TILE_ONLY => (TableKind::Plain, true),
            ENCODING_REGION_CODED => (TableKind::RegionCoded, false),
            ENCODING_AUTOMATON => (TableKind::Automaton { depth: h[18] }, false),
            ENCODING_MTM => (TableKind::Mtm, false),
            e => return Err(format!("unknown entry encoding {e}")),
        };
        let shape = Shape::new(usize::from(h[16]), usize::from(h[17]))
            .map_err(|e| format!("bad shape in header: {e}"))?;
        let entries = u64_at(h, 24);
        let header = |key| Header {
            key,
            entries,
            version,
            checksum: u64_at(h, 32),
            source: u64_at(h, 104),
        };
        if let TableKind::Automaton { depth } = kind {
            // Its bytes are the engine's to check (their length too); here only that there are
            // some, and a depth.
            if depth == 0 || entries == 0 {
                return Err(format!(
                    "an automaton of depth {depth} with {entries} bytes"
                ));
            }
            return Ok(header(TableKey::automaton(shape, depth)));
        }
        let n = shape.cells();
        let k = usize::from(h[18]);
        let max = if tile_only {
            MAX_INDEX_CELLS
        } else {
            MAX_CELLS
        };
        if n > max || k == 0 || k >= n || tiles_at(n, tile_only) + k > 120 {
            return Err(format!("bad group size {k} for {shape}"));
        }
        if tile_only != (n > MAX_CELLS) {
            return Err(format!(
                "entry encoding {} on a {shape} board (tile-only tables are for boards of more than {MAX_CELLS} cells)",
                h[19]
            ));
        }
        let key = TableKey {
            shape,
            goal: h[40..40 + n].to_vec(),
            tiles: h[tiles_at(n, tile_only)..tiles_at(n, tile_only) + k].to_vec(),
            kind,
        };
        let expected = key.entries().map_err(|e| e.to_string())?;
        if entries != expected {
            return Err(format!(
                "{entries} entries, expected {expected} for {k} tiles on {shape}{}",
                match kind {
                    TableKind::Plain | TableKind::Automaton { .. } => "",
                    TableKind::ZeroAware => " (zero-aware)",
                    TableKind::RegionCoded => " (region-coded)",
                    TableKind::Mtm => " (multi-tile)",
                }
            ));
        }
        Ok(header(key))
    }
}
