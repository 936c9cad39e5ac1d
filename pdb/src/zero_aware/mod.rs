//! Zero-aware additive pattern databases (Clausecker & Reinefeld, "Zero-Aware Pattern
//! Databases with 1-Bit Compression for Sliding Tile Puzzles", `SoCS` 2019).
//!
//! A plain table ([`crate::PatternDb`]) stores, per placement of a group's tiles, the minimum
//! over the blank's possible regions. A zero-aware table keeps the blank's **region** (the
//! connected component of the cells not covered by the group's tiles that holds the blank) in
//! its index, and stores the exact cost of each (placement, region): the minimum number of
//! moves of the group's tiles that bring them home with the blank in the goal blank's region,
//! moves of other tiles being free. About 1.42× the entries of a plain table for 6 tiles on 5×5
//! (see [`ZeroAwareIndexer`]), never a lower value, often a higher one.
//!
//! ## Properties
//! - **Admissible**: each real move moves one tile, counted by at most one group; a solution's
//!   projection onto a group's abstract space costs its number of moves of that group's tiles,
//!   so the sum over disjoint groups never exceeds the true distance.
//! - **Consistent**: a move of a tile outside a group moves the blank to a free cell next to it,
//!   inside the same region: that group's state does not change. A move of a group tile is one
//!   unit-cost edge of the group's abstract space: its value changes by at most 1. So the sum
//!   changes by at most 1 per move, and so does the maximum of the direct and reflected sums.
//!   (The plain tables are not consistent: their minimum over regions jumps when the blank
//!   crosses into another region.) Tests check both against breadth-first search.
//!
//! ## Cost
//! A lookup from scratch ranks the group's cell set and permutation by O(k²) comparisons (no
//! popcount) and reads one 32-byte record of its cell set (the set's first index and its free
//! cells' region numbers; 5×5, 6 tiles: 5.7 MB shared by the groups, in memory advised for huge
//! pages) besides the table entry. A move changes at most one group's value (and one on the
//! reflected board), and in depth-first search [`Heuristic::update_memo`] updates those two
//! groups' index parts incrementally ([`ZeroAwareIndexer::reparts`]: O(1) for a horizontal
//! move, O(W) for a vertical one): 459 instructions per generated node on the 24-puzzle
//! against 609 when ranking from scratch, and 392 for the plain tables (BENCHMARKS.md,
//! "Zero-aware tables with incremental ranks").

mod build;
mod codes;
mod index;

use std::sync::Arc;

use npuzzle_core::{Board, Goal, Heuristic, HeuristicProperties, Move};

pub use build::{
    build_zero_aware_table, build_zero_aware_table_cancellable, zero_aware_build_memory,
};
pub use codes::{NO_POCKET, RegionCode, RegionCodes, region_codes};
pub use index::{MAX_CELL_SETS, ZeroAwareIndexer};
pub use npuzzle_core::ZERO_AWARE_MAX_TILES;

use crate::open::open_table;
use crate::reflection::Reflection;
use crate::set::{Group, IndexKind, Ranking, Sealed, TableBuilder, TableSet, huge_pages};
use crate::{
    BuildPolicy, Cache, Event, MAX_CELLS, MEMO_RANK_GROUPS, PdbError, Table, TableKey, TableKind,
};

/// One group's zero-aware table.
type ZGroup = Group<Arc<ZeroAwareIndexer>>;

impl ZGroup {
    /// The parts of the group's index (see [`ZeroAwareIndexer::parts`]) and its cell set as a
    /// bit mask, with tile `t` on `cell_of(t)`: `(comb, perm, mask)`. O(k²).
    #[inline]
    fn parts_by(&self, cell_of: impl Fn(u8) -> u8) -> (u32, u32, u32) {
        match self.tiles.len() {
            4 => self.parts_fixed::<4>(&cell_of),
            5 => self.parts_fixed::<5>(&cell_of),
            6 => self.parts_fixed::<6>(&cell_of),
            7 => self.parts_fixed::<7>(&cell_of),
            8 => self.parts_fixed::<8>(&cell_of),
            k => {
                let mut cells = [0u8; ZERO_AWARE_MAX_TILES];
                for (c, &t) in cells.iter_mut().zip(&self.tiles) {
                    *c = cell_of(t);
                }
                let (comb, perm) = self.ix.parts(&cells[..k]);
                (comb, perm, mask_of(&cells[..k]))
            }
        }
    }

    #[inline]
    fn parts_fixed<const K: usize>(&self, cell_of: &impl Fn(u8) -> u8) -> (u32, u32, u32) {
        let tiles: &[u8; K] = self.tiles[..K]
            .try_into()
            .expect("the caller checked the group size");
        let mut cells = [0u8; K];
        for (c, &t) in cells.iter_mut().zip(tiles) {
            *c = cell_of(t);
        }
        let (comb, perm) = self.ix.parts_array(&cells);
        (comb, perm, mask_of(&cells))
    }

    /// The group's value with tile `t` on `cell_of(t)` and the blank on `blank`. O(k²).
    #[inline]
    fn value_by(&self, cell_of: impl Fn(u8) -> u8, blank: u8) -> u8 {
        let (comb, perm, _) = self.parts_by(cell_of);
        self.table[self.ix.index(comb, perm, blank)]
    }

    /// The group's value on the board `pos` (`pos[t]` = cell of tile `t`).
    #[inline]
    fn direct(&self, pos: &[u8; MAX_CELLS]) -> u8 {
        self.value_by(|t| pos[usize::from(t) % MAX_CELLS], pos[0])
    }

    /// The group's value on the reflection of the board `pos`.
    #[inline]
    fn mirrored(&self, r: &Reflection, pos: &[u8; MAX_CELLS]) -> u8 {
        self.value_by(
            |u| r.mirrored_cell(pos, u),
            r.cell[usize::from(pos[0]) % MAX_CELLS],
        )
    }
}

/// The source digest a cached region-coded table of `g` records ([`crate::Header::source`]):
/// the zero-aware table's checksum and [`codes::REGION_CODES_VERSION`]. O(1) for a table
/// loaded from a cache file of the current format (its checked header gives the checksum),
/// else O(entries), in parallel (5×5, 6 tiles: 181 MB).
fn codes_source(g: &ZGroup) -> u64 {
    let mut bytes = [0u8; 12];
    bytes[..8].copy_from_slice(&g.table.digest().to_le_bytes());
    bytes[8..].copy_from_slice(&codes::REGION_CODES_VERSION.to_le_bytes());
    xxhash_rust::xxh3::xxh3_64(&bytes)
}

/// A group's region-coded table in its file layout ([`crate::TableKind::RegionCoded`]): the
/// [`region_codes`] entries, then the pockets; `None` if they do not fit.
fn derive_codes(g: &ZGroup) -> Result<Option<Vec<u8>>, PdbError> {
    Ok(region_codes(&g.ix, &g.table)?.map(|c| {
        let mut both = c.entries;
        both.extend_from_slice(&c.pockets);
        both
    }))
}

/// The cells as a bit mask.
#[inline]
fn mask_of(cells: &[u8]) -> u32 {
    cells.iter().fold(0, |m, &c| m | 1 << (c % 32))
}

/// A [`ZeroAwareDb`]'s per-node memo ([`Heuristic::Memo`]) for depth-first search, for
/// databases of at most [`MEMO_RANK_GROUPS`] groups (others update from scratch): for every
/// group, on the board and on its reflection, the two parts of its table index (the colex rank
/// of its cell set, the Lehmer rank of its permutation), its cell set as a bit mask and its
/// value, and the two sums. A child's estimate updates the moved tile's group (and its mirror
/// image's group) by [`ZeroAwareIndexer::reparts`] — O(1) for a horizontal move, the group's
/// tiles among the `W - 1` cells in between for a vertical one — and reads two table entries,
/// instead of ranking two groups from scratch. 96 bytes, `Copy` (small enough to be copied
/// inline: a 168-byte form was copied by `memcpy` calls, 140 instructions a node).
#[derive(Clone, Copy, Debug, Default)]
pub struct ZeroAwareMemo {
    /// Colex rank of each group's cell set: `[board, reflection][group]`.
    comb: [[u32; MEMO_RANK_GROUPS]; 2],
    /// Each group's cell set as a bit mask.
    mask: [[u32; MEMO_RANK_GROUPS]; 2],
    /// Lehmer rank of each group's permutation (below `8!`).
    perm: [[u16; MEMO_RANK_GROUPS]; 2],
    /// Each group's value.
    value: [[u8; MEMO_RANK_GROUPS]; 2],
    /// Sums of `value` on the board and on the reflection.
    sum: [u16; 2],
    /// Whether the fields hold a board's values (not for the default memo, nor with more than
    /// [`MEMO_RANK_GROUPS`] groups).
    valid: bool,
}

/// An additive zero-aware pattern database: one zero-aware table per disjoint group of tiles,
/// the heuristic being the sum of the groups' values (and, where valid, the maximum of that sum
/// on the board and on its reflection about the main diagonal, as for [`crate::PatternDb`]).
/// Admissible and consistent (see the module docs).
///
/// Evaluation: [`Heuristic::estimate`] is O(N + Σk²) with one table lookup per group (two with
/// reflection); with at most [`MEMO_RANK_GROUPS`] groups [`Heuristic::update_memo`] updates
/// the moved groups' index parts incrementally (O(1) for a horizontal move, O(W) for a vertical
/// one, [`ZeroAwareIndexer::reparts`]) with at most two lookups, the bounded form skipping the
/// reflected one when the direct sum already exceeds the bound; with more groups it evaluates
/// the child from scratch ([`Heuristic::update`]: O(N + Σk²), every group looked up).
///
/// Memory: the tables, one byte per entry (5×5 6-6-6-6: 4 × 180.7 M = 723 MB), plus the
/// shared per-cell-set index tables. Clones share the tables.
pub type ZeroAwareDb = TableSet<ZeroAwareKind>;

/// The index kind of [`ZeroAwareDb`]: zero-aware tables ([`build_zero_aware_table`]), ranked
/// by a shared [`ZeroAwareIndexer`], on boards of at most [`MAX_CELLS`] cells; stored as
/// [`TableKind::ZeroAware`]. A set holds each group's region-coded table besides, once derived
/// or loaded ([`ZeroAwareDb::with_region_codes`], [`ZeroAwareDb::with_cached_region_codes`]).
#[derive(Clone, Copy, Debug)]
pub struct ZeroAwareKind;

impl Sealed for ZeroAwareKind {}

impl Ranking for Arc<ZeroAwareIndexer> {
    fn for_group(goal: &Goal, tiles: &[u8]) -> Result<Self, PdbError> {
        let shape = goal.shape();
        ZeroAwareIndexer::shared(shape.width(), shape.height(), tiles.len())
    }

    fn entries(&self) -> u64 {
        self.size()
    }
}

impl IndexKind for ZeroAwareKind {
    type Indexer = Arc<ZeroAwareIndexer>;
    type Extra = Option<Arc<[Coded]>>;
    const TABLE: TableKind = TableKind::ZeroAware;
    const ADJECTIVE: &'static str = "zero-aware ";
    const BUILD: TableBuilder = build_zero_aware_table_cancellable;
    const DERIVED: &'static str = "region-coded forms";

    fn build_memory(goal: &Goal, tiles: &[u8]) -> Result<u64, PdbError> {
        let shape = goal.shape();
        zero_aware_build_memory(shape.width(), shape.height(), tiles.len())
    }

    fn extra(_goal: &Goal) -> Option<Arc<[Coded]>> {
        None
    }

    /// [`ZeroAwareDb::with_cached_region_codes`].
    fn cached_derived(
        set: ZeroAwareDb,
        cache: &Cache,
        events: &mut dyn FnMut(Event<'_>),
    ) -> Result<ZeroAwareDb, PdbError> {
        set.with_cached_region_codes(cache, events)
    }

    /// The region-coded forms' bytes (their entries once, whether mapped or copied into huge
    /// pages).
    fn extra_bytes(coded: &Option<Arc<[Coded]>>) -> u64 {
        coded
            .iter()
            .flat_map(|c| c.iter())
            .map(|c| c.whole.len() as u64)
            .sum()
    }

    /// The region-coded entries if the set has them, else the zero-aware tables. With region
    /// codes, IDA\*'s kernel reads the pocket bytes for about 2 % of its lookups and the
    /// zero-aware tables for about 0.1 %, so they stay as they are (mapped from the cache: on
    /// 5×5 6-6-6-6, 510 MB of pockets and 723 MB of zero-aware tables not copied; 510 MB
    /// copied; coded forms derived in memory, with no file behind them, are copied whole); the
    /// ranked lookups of other engines ([`Heuristic::update_memo`]) then read the zero-aware
    /// tables through 4 KiB pages.
    fn huge_pages(set: ZeroAwareDb) -> Result<ZeroAwareDb, PdbError> {
        let Some(c) = &set.extra else {
            return set.with_huge_group_tables();
        };
        let coded = c
            .iter()
            .map(|c| {
                Ok(if c.whole.is_mapped() {
                    Coded {
                        whole: Arc::clone(&c.whole),
                        entries: Some(huge_pages(c.entries())?),
                    }
                } else {
                    // Derived in memory (a cache that could not store it): no file to read
                    // the pockets from, so the whole form is copied.
                    Coded::from(huge_pages(&c.whole)?)
                })
            })
            .collect::<Result<Vec<Coded>, PdbError>>()?;
        Ok(set.with_extra(Some(coded.into())))
    }
}

/// One group's region-coded table ([`region_codes`]): the entries, then as many pocket bytes,
/// as derived or mapped from the cache; and, once [`ZeroAwareDb::with_huge_pages`] has copied
/// them, the entries alone in huge pages (the pockets, read for about 2 % of the kernel's
/// lookups on 5×5, stay where they are).
#[derive(Debug)]
pub struct Coded {
    whole: Arc<Table>,
    entries: Option<Table>,
}

impl Coded {
    /// The coded entries, one byte per plain pattern.
    fn entries(&self) -> &[u8] {
        match &self.entries {
            Some(t) => t,
            None => &self.whole[..self.whole.len() / 2],
        }
    }

    /// The pocket bytes, one per plain pattern.
    fn pockets(&self) -> &[u8] {
        &self.whole[self.whole.len() / 2..]
    }
}

impl From<Table> for Coded {
    fn from(whole: Table) -> Coded {
        Coded {
            whole: Arc::new(whole),
            entries: None,
        }
    }
}

impl ZeroAwareDb {
    /// The same database with each group's region-coded table derived from its zero-aware
    /// table ([`region_codes`]: the same values, indexed like a plain table, one byte a
    /// pattern), which IDA\*'s kernel for additive tables reads instead of ranking cell sets
    /// (`BENCHMARKS.md`, "Zero-aware values from plain-indexed tables"). The values and every
    /// other method are unchanged. A database with a plain value of 64 or more (it does not
    /// fit in the code's 6 bits) is returned as it is. Memory: two more bytes per plain pattern
    /// (5×5 6-6-6-6: 4 × 255 MB), about twice that while a group's is derived; time
    /// O(entries), in parallel (5×5 6-6-6-6: about 20 s of CPU, 13 s on 2 cores).
    /// [`ZeroAwareDb::with_cached_region_codes`] derives them once and caches them.
    ///
    /// # Errors
    /// As [`region_codes`].
    pub fn with_region_codes(self) -> Result<ZeroAwareDb, PdbError> {
        let mut coded = Vec::with_capacity(self.groups.len());
        for g in self.groups.iter() {
            match derive_codes(g)? {
                Some(c) => coded.push(Coded::from(Table::from(c))),
                None => return Ok(self),
            }
        }
        Ok(self.with_extra(Some(coded.into())))
    }

    /// [`ZeroAwareDb::with_region_codes`] through `cache`: each group's region-coded table is
    /// loaded from its file ([`TableKey::region_coded`], checked like every table file, and
    /// used only if its header records this zero-aware table's checksum and this version of
    /// the coding, [`Cache::load_derived`]; [`Event::Loaded`]) or else derived from the
    /// zero-aware table under the table's build lock, like any table ([`Event::Building`],
    /// [`Event::Built`]) and stored, so that later opens read 2 bytes a plain pattern (5×5
    /// 6-6-6-6: 4 × 255 MB, verified in well under a second when in the page cache) instead
    /// of deriving them (about 13 s on 2 cores). Deriving is always allowed, whatever the
    /// [`BuildPolicy`] of the zero-aware tables: it needs no search, only the tables in hand. A
    /// file that cannot be stored (a read-only cache) is reported in [`Event::Built`] and the
    /// derived table used; an unusable file is reported ([`Event::Rejected`]) and replaced. A
    /// database whose plain values do not fit the code's 6 bits is returned as it is.
    ///
    /// # Errors
    /// [`PdbError::Io`] if a file exists but cannot be read; as [`region_codes`].
    pub fn with_cached_region_codes(
        self,
        cache: &Cache,
        events: &mut dyn FnMut(Event<'_>),
    ) -> Result<ZeroAwareDb, PdbError> {
        let mut coded = Vec::with_capacity(self.groups.len());
        for g in self.groups.iter() {
            let key = TableKey::region_coded(&self.goal, &g.tiles);
            let memory = 2 * key.entries()?;
            // Set when the values do not fit the code: the database is then returned as it is.
            let unfit = std::cell::Cell::new(false);
            let derive = || {
                derive_codes(g)?.ok_or_else(|| {
                    unfit.set(true);
                    PdbError::BadGroup(format!(
                        "tiles {:?}: plain values of 64 or more do not fit the region codes",
                        g.tiles
                    ))
                })
            };
            let source = (&key, codes_source(g));
            match open_table(
                source,
                &g.tiles,
                cache,
                BuildPolicy::Always,
                memory,
                events,
                derive,
            ) {
                Ok(t) => coded.push(Coded::from(t)),
                Err(_) if unfit.get() => return Ok(self),
                Err(e) => return Err(e),
            }
        }
        Ok(self.with_extra(Some(coded.into())))
    }

    /// Whether [`ZeroAwareDb::with_region_codes`] derived the coded tables.
    pub fn has_region_codes(&self) -> bool {
        self.extra.is_some()
    }

    /// The heuristic for the placement `pos`.
    fn value(&self, pos: &[u8; MAX_CELLS]) -> u32 {
        self.sum_or_max(
            |g| u32::from(g.direct(pos)),
            |r, g| u32::from(g.mirrored(r, pos)),
        )
    }

    /// The child's estimate and memo after `m` (see [`Heuristic::update_memo_bounded`]).
    #[expect(
        clippy::inline_always,
        reason = "IDA*'s hot path, called at two sites with a constant and a variable bound"
    )]
    #[inline(always)]
    fn child<B: Board>(
        &self,
        board: &B,
        h: u32,
        memo: &ZeroAwareMemo,
        m: Move,
        bound: u32,
    ) -> (u32, ZeroAwareMemo) {
        if !memo.valid {
            return (Heuristic::<B>::update(self, board, h, m), *memo);
        }
        let blank = board.blank();
        let from = board.tile_cell(m);
        let tile = board.tile(from) % MAX_CELLS;
        let mut next = *memo;
        // Only the moved tile's group changes: for every other group the blank moved to a
        // free cell next to it, inside its region.
        let gi = usize::from(self.group_of[tile]);
        if let Some(g) = self.groups.get(gi) {
            let gi = gi % MEMO_RANK_GROUPS;
            // Which of the group's tiles is on cell `c` (a cell of the group's set between the
            // two cells: the parent board's tiles there do not move).
            let slot_at = |c: u8| usize::from(self.slot_of[board.tile(usize::from(c)) % MAX_CELLS]);
            let i = usize::from(self.slot_of[tile]);
            let v = next.step(0, gi, g, i, (from as u8, blank as u8), slot_at);
            next.sum[0] = next.sum[0] - u16::from(next.value[0][gi]) + u16::from(v);
            next.value[0][gi] = v;
        }
        let Some(r) = &self.reflection else {
            return (u32::from(next.sum[0]), next);
        };
        if u32::from(next.sum[0]) > bound {
            // Pruned on the direct sum: the reflected values in `next` are stale, and the
            // caller does not use a pruned child's memo.
            return (u32::from(next.sum[0]), next);
        }
        // On the reflected board the mirror image of `tile` moved, between the images of the
        // two cells; the image of a cell `c` there holds the image of the tile on image(c).
        let mirror = usize::from(r.tile[tile]) % MAX_CELLS;
        let mi = usize::from(self.group_of[mirror]);
        if let Some(g) = self.groups.get(mi) {
            let mi = mi % MEMO_RANK_GROUPS;
            let slot_at = |c: u8| {
                let t = board.tile(usize::from(r.cell[usize::from(c) % MAX_CELLS]));
                usize::from(self.slot_of[usize::from(r.tile[t % MAX_CELLS]) % MAX_CELLS])
            };
            let i = usize::from(self.slot_of[mirror]);
            let cells = (r.cell[from % MAX_CELLS], r.cell[blank % MAX_CELLS]);
            let v = next.step(1, mi, g, i, cells, slot_at);
            next.sum[1] = next.sum[1] - u16::from(next.value[1][mi]) + u16::from(v);
            next.value[1][mi] = v;
        }
        (u32::from(next.sum[0].max(next.sum[1])), next)
    }
}

impl ZeroAwareMemo {
    /// Moves tile `i` of group `gi` on board `side` (0: the board, 1: its reflection) from
    /// cell `from` to `to` (`slot_at` as in [`ZeroAwareIndexer::reparts`]) and returns the
    /// group's new value; the blank ends on `from`.
    #[expect(
        clippy::inline_always,
        reason = "IDA*'s hot path: a call costs a fifth of the update"
    )]
    #[inline(always)]
    fn step(
        &mut self,
        side: usize,
        gi: usize,
        g: &ZGroup,
        i: usize,
        (from, to): (u8, u8),
        slot_at: impl Fn(u8) -> usize,
    ) -> u8 {
        let side = side & 1;
        let mask = self.mask[side][gi];
        let (comb, perm) = g.ix.reparts(
            (self.comb[side][gi], u32::from(self.perm[side][gi])),
            mask,
            i,
            from,
            to,
            slot_at,
        );
        self.comb[side][gi] = comb;
        self.perm[side][gi] = perm as u16;
        self.mask[side][gi] = mask ^ (1 << (from % 32)) ^ (1 << (to % 32));
        g.table[g.ix.index(comb, perm, from)]
    }

    /// Records group `gi`'s parts and value on board `side`.
    fn set(&mut self, side: usize, gi: usize, (comb, perm, mask): (u32, u32, u32), value: u8) {
        self.comb[side][gi] = comb;
        self.perm[side][gi] = perm as u16;
        self.mask[side][gi] = mask;
        self.value[side][gi] = value;
        self.sum[side] += u16::from(value);
    }
}

impl<B: Board> Heuristic<B> for ZeroAwareDb {
    type Memo = ZeroAwareMemo;

    fn name(&self) -> &'static str {
        "zpdb"
    }

    /// Admissible and consistent (see the module docs; tested against breadth-first search).
    fn properties(&self) -> HeuristicProperties {
        HeuristicProperties::CONSISTENT
    }

    fn estimate(&self, board: &B) -> u32 {
        self.value(&self.positions(board))
    }

    /// The groups' tiles, zero-aware tables and rankings, and the reflection: this database is
    /// exactly the sum (or the maximum of the direct and reflected sums) that
    /// [`npuzzle_core::AdditiveTables`] describes for zero-aware groups
    /// ([`ZeroAwareIndexer::layout`]).
    fn as_additive_tables(&self) -> Option<npuzzle_core::AdditiveTables<'_>> {
        Some(npuzzle_core::AdditiveTables {
            cells: self.n,
            groups: self
                .groups
                .iter()
                .enumerate()
                .map(|(gi, g)| npuzzle_core::TableGroup {
                    tiles: &g.tiles,
                    entries: &g.table,
                    zero_aware: Some(g.ix.layout()),
                    coded: self.extra.as_ref().map(|c| npuzzle_core::CodedTable {
                        entries: c[gi].entries(),
                        pockets: c[gi].pockets(),
                    }),
                })
                .collect(),
            reflection: self.reflection.as_ref().map(|r| r.view(self.n)),
        })
    }

    /// From scratch on the moved board: O(N + Σk²).
    fn update(&self, board: &B, _h: u32, m: Move) -> u32 {
        let blank = board.blank();
        let from = board.tile_cell(m);
        let tile = board.tile(from);
        let mut pos: [u8; MAX_CELLS] = self.positions(board);
        pos[tile % MAX_CELLS] = blank as u8;
        pos[0] = from as u8;
        self.value(&pos)
    }

    /// O(N + Σk²) with one lookup per group (two with reflection).
    fn estimate_memo(&self, board: &B) -> (u32, ZeroAwareMemo) {
        let pos: [u8; MAX_CELLS] = self.positions(board);
        if self.groups.len() > MEMO_RANK_GROUPS {
            return (self.value(&pos), ZeroAwareMemo::default());
        }
        let mut memo = ZeroAwareMemo {
            valid: true,
            ..ZeroAwareMemo::default()
        };
        for (gi, g) in self.groups.iter().enumerate() {
            let parts = g.parts_by(|t| pos[usize::from(t) % MAX_CELLS]);
            let v = g.table[g.ix.index(parts.0, parts.1, pos[0])];
            memo.set(0, gi, parts, v);
        }
        let mut h = u32::from(memo.sum[0]);
        if let Some(r) = &self.reflection {
            let blank = r.cell[usize::from(pos[0]) % MAX_CELLS];
            for (gi, g) in self.groups.iter().enumerate() {
                let parts = g.parts_by(|u| r.mirrored_cell(&pos, u));
                let v = g.table[g.ix.index(parts.0, parts.1, blank)];
                memo.set(1, gi, parts, v);
            }
            h = h.max(u32::from(memo.sum[1]));
        }
        (h, memo)
    }

    /// O(1) plus the group's tiles between the two cells, with at most two lookups (the moved
    /// tile's group, and with reflection the group of its mirror image), given the parent's
    /// memo; from scratch ([`Heuristic::update`]) with more than [`MEMO_RANK_GROUPS`] groups.
    #[inline]
    fn update_memo(
        &self,
        board: &B,
        h: u32,
        memo: &ZeroAwareMemo,
        m: Move,
    ) -> (u32, ZeroAwareMemo) {
        self.child(board, h, memo, m, u32::MAX)
    }

    /// [`Heuristic::update_memo`] that skips the reflected lookup when the direct sum already
    /// exceeds `bound`.
    #[inline]
    fn update_memo_bounded(
        &self,
        board: &B,
        h: u32,
        memo: &ZeroAwareMemo,
        m: Move,
        bound: u32,
    ) -> (u32, ZeroAwareMemo) {
        self.child(board, h, memo, m, bound)
    }
}

#[cfg(test)]
mod tests {
    use npuzzle_core::{BitBoard, Shape};

    use crate::PartitionSpec;

    use super::*;

    /// Along random walks on the 15-puzzle, the memo that the moves update (incremental index
    /// parts, values, sums) equals the memo computed from scratch on the moved board, on the
    /// board and on its reflection; with five groups the memo is unused and updates are from
    /// scratch.
    #[test]
    fn memo_updated_along_walks_equals_the_memo_from_scratch() {
        let goal = Goal::blank_first(Shape::square(4).unwrap());
        for spec in [
            "1,2,3,4,5/6,7,8,9,10/11,12,13,14,15",
            "1,2,3/4,5,6/7,8,9/10,11,12/13,14,15",
        ] {
            let spec: PartitionSpec = spec.parse().unwrap();
            let z = ZeroAwareDb::build(&goal, &spec, true, &|_| {}).unwrap();
            assert!(z.reflects());
            // Copied inline by IDA* (a 168-byte memo was copied by `memcpy` calls).
            assert_eq!(size_of::<ZeroAwareMemo>(), 96);
            let mut x = 0x853c_49e6_748f_ea9b_u64;
            let mut b = BitBoard::from_layout(goal.layout()).unwrap();
            let (mut h, mut memo) = z.estimate_memo(&b);
            let mut last: Option<Move> = None;
            for step in 0..20_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let legal: Vec<Move> = b.legal().filter(|&m| Some(m.inverse()) != last).collect();
                let m = legal[(x % legal.len() as u64) as usize];
                let (h2, memo2) = z.update_memo(&b, h, &memo, m);
                b.apply(m);
                let (h3, fresh) = z.estimate_memo(&b);
                assert_eq!(h2, h3, "step {step}");
                if fresh.valid {
                    assert_eq!(memo2.comb, fresh.comb, "step {step}");
                    assert_eq!(memo2.perm, fresh.perm, "step {step}");
                    assert_eq!(memo2.mask, fresh.mask, "step {step}");
                    assert_eq!(memo2.value, fresh.value);
                    assert_eq!(memo2.sum, fresh.sum);
                }
                (h, memo, last) = (h2, memo2, Some(m));
            }
        }
    }
}
