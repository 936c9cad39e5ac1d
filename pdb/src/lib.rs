//! # npuzzle-pdb
//!
//! Additive disjoint pattern databases (Korf & Felner, "Disjoint pattern database heuristics",
//! Artificial Intelligence 134, 2002; Felner, Korf & Hanan, "Additive pattern database
//! heuristics", JAIR 22, 2004) for sliding-tile puzzles of at most 32 cells, as an
//! [`npuzzle_core::Heuristic`] that every engine can use.
//!
//! The tiles are split into disjoint groups. For each group a table holds, for every placement
//! of the group's tiles, the exact minimum number of moves **of that group's tiles** needed to
//! bring them to their goal cells — computed by a 0-1 breadth-first search over (group tile
//! cells, blank cell) in which moving any other tile costs 0 (see [`build_table`]), then
//! minimised over the blank's cell. Every move moves one tile, which belongs to at most one
//! group, so the sum of the groups' values never exceeds the true distance: the heuristic is
//! **admissible**, and IDA* or A* with it return optimal solutions. It is **not** consistent in
//! general: a group's value is minimised over the blank's region, and one move can carry the
//! blank into a region from which the group's tiles are several moves further from home (the
//! tests find 8-puzzle moves that raise the 4-4 value by 3). Each value has the parity of the
//! group's Manhattan distance, so every move changes the sum by an odd amount. IDA* needs only
//! admissibility; A* with it may reopen states.
//!
//! ## When to use it
//! On the 15-puzzle it is the heuristic of choice: 6-6-3 cuts IDA*'s nodes a thousandfold
//! against Manhattan distance for 12 MB of tables built in seconds; 7-6-2, the 4×4 default,
//! cuts them another 11× on the hardest seed15 board for 61 MB built once in about half a
//! minute; 7-8 with the reflected lookup cuts them another 5× for 577 MB built once in minutes.
//! Tables are cached (see [`Cache`]).
//! On the 24-puzzle the built-in 6-6-6-6 partition ([`PartitionSpec::P6666`], the 5×5 default;
//! Korf & Felner 2002) with the reflected lookup solves the easier of Korf's 50 instances with
//! IDA* on core's `PackedBoard` in seconds to minutes (#40: 82 moves, 65,099,578 generated
//! nodes, Korf & Felner's count) for 486 MB of tables built once in about 4 minutes;
//! [`PatternDb::with_huge_pages`] makes its lookups cheaper. On the 8-puzzle any heuristic
//! answers in milliseconds.
//!
//! ## Zero-aware tables
//! [`ZeroAwareDb`] (the `zpdb` heuristic) uses the same partitions with the blank's region in
//! each table's index (Clausecker & Reinefeld, `SoCS` 2019): about 1.42× the entries, never a
//! lower value, and consistent. On Korf's 24-puzzles it needs 1.25–2× fewer IDA* nodes than
//! [`PatternDb`]. Read by ranking each group's cell set and reading its record, it took
//! 1.5–2.0× the CPU time of the plain tables; read through its region-coded form
//! ([`ZeroAwareDb::with_region_codes`], [`region_codes`]: the same values indexed like a plain
//! table) IDA\*'s kernel takes 0.94× the plain tables' search time on the ten easiest of
//! Korf's 50 and, with the coded forms cached ([`ZeroAwareDb::with_cached_region_codes`]),
//! 0.93–0.97× the wall time (`BENCHMARKS.md`, "Region-coded tables cached"); the solver's auto
//! policy uses them on 5×5 when they are cached.
//! Files are cached beside the plain ones under `-z-` names ([`TableKey::zero_aware`]), their
//! region-coded forms under `-c-` names ([`TableKey::region_coded`]).
//!
//! ## Multi-tile-metric tables
//! [`MtmDb`] (the `mtm-pdb` heuristic) serves the multi-tile metric (one move slides 1..k
//! tiles of a line), where the sum above would overestimate: each group's table is a
//! blank-aware abstraction of the MTM state space (the group's tiles told apart by goal row, one
//! row tile by tile), and the groups' values combine by maximum, with the reflected lookup.
//! Admissible and consistent in MTM; see `mtm.rs` for the proof and the sizes (4×4: 259 M
//! entries in two tables, built in about 40 s on 2 cores). Cached under `-m-` names
//! ([`TableKey::mtm`]).
//!
//! ## Table sets and index kinds
//! [`PatternDb`], [`ZeroAwareDb`], [`TileOnlyDb`] and [`MtmDb`] are one type, [`TableSet`], over
//! four [`IndexKind`]s ([`PlainKind`], [`ZeroAwareKind`], [`TileOnlyKind`], [`MtmKind`]), as regex-automata's
//! one `Automaton` trait serves its dense and sparse DFAs. The set does what every kind does
//! alike: the group bookkeeping (tiles sorted, each tile's group and slot), the reflected
//! lookup, building group by group with progress and cancel ([`TableSet::build`]), opening
//! through the [`Cache`] with its checks, build locks and [`Event`]s ([`TableSet::open`]),
//! huge pages ([`TableSet::with_huge_pages`]), and the partition and size reports. A kind
//! supplies only what differs: its ranking ([`IndexKind::Indexer`]), its builder
//! ([`IndexKind::BUILD`]) and the build's memory, the [`TableKind`] its files are cached
//! under, and what a set of it holds besides its groups (the region-coded forms of zero-aware
//! tables, the linear conflict that tile-only tables are maxed with). Each kind has its own
//! `Heuristic` impl — its memo and lookups, the search's hot path — written for that kind
//! alone, with no dispatch per lookup.
//!
//! Adding a kind is (the multi-tile metric's tables were added so):
//! 1. a unit type implementing [`IndexKind`] beside its builder (as [`TileOnlyKind`] in
//!    `tile_only.rs`), with its ranking (an existing one, or a new one implementing the
//!    crate's `Ranking`) and the [`TableKind`] its files are stored under (a new one needs its
//!    entry encoding in the file format);
//! 2. the `Heuristic` impl of `TableSet<NewKind>` and a public alias
//!    (`pub type NewDb = TableSet<NewKind>;`);
//! 3. its registry entry in the facade (`npuzzle`): a heuristic in `solver/src/registry.rs`
//!    and one variant of the opened tables in `solver/src/databases.rs`, chosen where the
//!    other kinds are (`with_kind!`).
//!
//! `from_tables`, `build`, `open`, `with_huge_pages`, `partition`, `table_bytes` and `reflects`
//! come with the kind; the facade's `open` and `build_into_cache` are generic over it.
//!
//! ## Reflected lookup
//! On a square board, mirroring the board about its main diagonal (cell (r, c) → (c, r)) and
//! renaming each tile `t` to the tile whose goal cell is the mirror of `t`'s goal cell gives a
//! board exactly as far from the goal — provided the renaming keeps the blank the blank, i.e.
//! **the goal's blank lies on the main diagonal**. That holds for blank-first (cell 0) and
//! blank-last (the last cell) on every square board, and for any custom goal whose blank is on
//! the diagonal; [`PatternDb`] reflects only then (see [`PatternDb::reflects`]). The heuristic
//! is the maximum of the direct and the reflected sums, still admissible.
//!
//! ## Example
//! ```
//! use npuzzle_core::{BitBoard, Board, Goal, Heuristic, parse_board};
//! use npuzzle_pdb::{PartitionSpec, PatternDb};
//!
//! let layout = parse_board("8 6 7 2 5 4 3 0 1", None)?; // 31 moves from blank-last
//! let goal = Goal::blank_last(layout.shape());
//! // 3×3 default partition: tiles 1-4 and 5-8; small tables are built in milliseconds.
//! let pdb = PatternDb::build(&goal, &PartitionSpec::Default, true, &|_| {})?;
//! let h = pdb.estimate(&BitBoard::from_layout(&layout)?);
//! assert!(h <= 31 && h >= 21); // at least Manhattan distance (21), at most the true distance
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod build;
mod database;
mod error;
mod index;
mod mtm;
mod open;
mod partial;
mod partition;
mod reflection;
mod set;
mod store;
mod tile_only;
mod zero_aware;

pub use build::{BuildProgress, build_memory, build_table, build_table_cancellable};
pub use database::{MEMO_GROUPS, MEMO_RANK_GROUPS, PatternDb, PdbMemo, PlainKind};
pub use error::PdbError;
pub use index::{Indexer, MAX_CELLS, MAX_ENTRIES, MAX_INDEX_CELLS, RERANK_TILES};
pub use mtm::{
    MTM_MAX_CELLS, MTM_MAX_ENTRIES, MtmDb, MtmKind, MtmRanking, build_mtm_table, mtm_build_memory,
    mtm_default_groups,
};
pub use open::{BuildPolicy, Event};
pub use partial::{PARTIAL_MAX_ENTRIES, PARTIAL_MAX_TOTAL, PartialDb};
pub use partition::{PartitionSpec, format_groups, large_group_size};
pub use set::{IndexKind, TableBuilder, TableSet};
pub use store::{
    BuildLock, Cache, CacheEntry, ENV_DIR, EXTENSION, FORMAT_VERSION, Header, Table, TableKey,
    TableKind,
};
pub use tile_only::{
    TileOnlyDb, TileOnlyKind, TileOnlyMemo, build_tile_only_table, tile_only_build_memory,
};
pub use zero_aware::{
    MAX_CELL_SETS, NO_POCKET, RegionCode, RegionCodes, ZERO_AWARE_MAX_TILES, ZeroAwareDb,
    ZeroAwareIndexer, ZeroAwareKind, ZeroAwareMemo, build_zero_aware_table,
    build_zero_aware_table_cancellable, region_codes, zero_aware_build_memory,
};
