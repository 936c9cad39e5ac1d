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
//! A lookup ranks the group's cell set and permutation by O(k²) comparisons (no popcount) and
//! reads one 32-byte record of its cell set (the set's first index and its free cells' region
//! numbers; 5×5, 6 tiles: 5.7 MB shared by the groups) besides the table entry. A move changes at most one group's value (and one on the reflected board),
//! so [`Heuristic::update_memo`] ranks at most two groups, as the plain tables do.

mod build;
mod index;

use std::sync::Arc;

use npuzzle_core::{Board, Goal, Heuristic, HeuristicProperties, Move};

pub use build::{
    build_zero_aware_table, build_zero_aware_table_cancellable, zero_aware_build_memory,
};
pub use index::{MAX_CELL_SETS, ZERO_AWARE_MAX_TILES, ZeroAwareIndexer};

use crate::database::{Reflection, reflection};
use crate::open::open_table;
use crate::{
    BuildPolicy, BuildProgress, Cache, Event, MAX_CELLS, MEMO_GROUPS, MEMO_RANK_GROUPS,
    PartitionSpec, PdbError, Table, TableKey, format_groups, partition,
};

const NONE: u8 = u8::MAX;

/// One group's zero-aware table.
#[derive(Debug)]
struct ZGroup {
    /// The group's tiles, ascending.
    tiles: Vec<u8>,
    ix: Arc<ZeroAwareIndexer>,
    table: Table,
}

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

/// The cells as a bit mask.
#[inline]
fn mask_of(cells: &[u8]) -> u32 {
    cells.iter().fold(0, |m, &c| m | 1 << (c % 32))
}

/// One group's index parts on one board, kept in a [`ZeroAwareMemo`]: the colex rank of its
/// cell set, the Lehmer rank of its permutation, and the cell set as a bit mask (12 bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Parts {
    comb: u32,
    perm: u32,
    mask: u32,
}

/// A [`ZeroAwareDb`]'s per-node memo ([`Heuristic::Memo`]): the cell of every tile, every
/// group's value on the board and on its reflection, and for the first [`MEMO_RANK_GROUPS`]
/// groups the two parts of their table index and their cell set on both boards, so that a
/// child's estimate updates the moved tile's group (and its mirror image's group) by
/// [`ZeroAwareIndexer::reparts`] — O(1) for a horizontal move, the group's tiles among the
/// `W - 1` cells in between for a vertical one — instead of ranking it from scratch. 164 bytes,
/// `Copy`.
#[derive(Clone, Copy, Debug)]
pub struct ZeroAwareMemo {
    /// Cell of each tile (`pos[0]` is the blank's).
    pos: [u8; MAX_CELLS],
    /// Index parts of the first [`MEMO_RANK_GROUPS`] groups on the board.
    parts: [Parts; MEMO_RANK_GROUPS],
    /// The same on the reflected board (unused without reflection).
    mparts: [Parts; MEMO_RANK_GROUPS],
    direct: [u8; MEMO_GROUPS],
    mirrored: [u8; MEMO_GROUPS],
    sum: u16,
    msum: u16,
    /// Whether the fields hold a board's values (not for the default memo, nor with more than
    /// [`MEMO_GROUPS`] groups).
    valid: bool,
}

impl Default for ZeroAwareMemo {
    fn default() -> ZeroAwareMemo {
        ZeroAwareMemo {
            pos: [0; MAX_CELLS],
            parts: [Parts::default(); MEMO_RANK_GROUPS],
            mparts: [Parts::default(); MEMO_RANK_GROUPS],
            direct: [0; MEMO_GROUPS],
            mirrored: [0; MEMO_GROUPS],
            sum: 0,
            msum: 0,
            valid: false,
        }
    }
}

/// An additive zero-aware pattern database: one zero-aware table per disjoint group of tiles,
/// the heuristic being the sum of the groups' values (and, where valid, the maximum of that sum
/// on the board and on its reflection about the main diagonal, as for [`crate::PatternDb`]).
/// Admissible and consistent (see the module docs).
///
/// Evaluation: [`Heuristic::estimate`] is O(N + Σk²) with one table lookup per group (two with
/// reflection); [`Heuristic::update_memo`] O(k²) with at most two lookups, the bounded form
/// skipping the reflected one when the direct sum already exceeds the bound.
///
/// Memory: the tables, one byte per entry (5×5 6-6-6-6: 4 × 180.7 M = 723 MB), plus the
/// shared per-cell-set index tables. Clones share the tables.
#[derive(Clone, Debug)]
pub struct ZeroAwareDb {
    n: usize,
    partition: String,
    groups: Arc<[ZGroup]>,
    /// Tile → index of its group, [`u8::MAX`] for tiles in no group.
    group_of: [u8; MAX_CELLS],
    /// Tile → its index within its group's (ascending) tiles, [`u8::MAX`] for tiles in no
    /// group.
    slot_of: [u8; MAX_CELLS],
    reflection: Option<Reflection>,
}

impl ZeroAwareDb {
    /// Assembles a database from already-built zero-aware tables, one `(tiles, table)` per
    /// group, for `goal`; reflection is used if `reflect` is set and valid for the goal (see
    /// [`crate::PatternDb::reflects`]).
    ///
    /// # Errors
    /// [`PdbError::BadGroup`] / [`PdbError::BadPartition`] for malformed or overlapping groups
    /// or a table of the wrong length; [`PdbError::TableTooLarge`] for a group of more than
    /// [`ZERO_AWARE_MAX_TILES`] tiles; [`PdbError::BoardTooLarge`] past 32 cells.
    pub fn from_tables(
        goal: &Goal,
        tables: Vec<(Vec<u8>, Table)>,
        reflect: bool,
    ) -> Result<ZeroAwareDb, PdbError> {
        let shape = goal.shape();
        let n = shape.cells();
        if n > MAX_CELLS {
            return Err(PdbError::BoardTooLarge(n));
        }
        let mut group_of = [NONE; MAX_CELLS];
        let mut slot_of = [NONE; MAX_CELLS];
        let mut groups = Vec::with_capacity(tables.len());
        for (gi, (mut tiles, table)) in tables.into_iter().enumerate() {
            partition::check_group(&tiles, n)?;
            tiles.sort_unstable();
            let ix = ZeroAwareIndexer::shared(shape.width(), shape.height(), tiles.len())?;
            if table.len() as u64 != ix.size() {
                return Err(PdbError::BadGroup(format!(
                    "the zero-aware table of tiles {tiles:?} has {} entries, expected {}",
                    table.len(),
                    ix.size()
                )));
            }
            for (slot, &t) in tiles.iter().enumerate() {
                if group_of[usize::from(t)] != NONE {
                    return Err(PdbError::BadPartition(format!("tile {t} is in two groups")));
                }
                group_of[usize::from(t)] = gi as u8;
                slot_of[usize::from(t)] = slot as u8;
            }
            groups.push(ZGroup { tiles, ix, table });
        }
        let partition = format_groups(&groups.iter().map(|g| g.tiles.clone()).collect::<Vec<_>>());
        Ok(ZeroAwareDb {
            n,
            partition,
            groups: groups.into(),
            group_of,
            slot_of,
            reflection: if reflect { reflection(goal) } else { None },
        })
    }

    /// Builds every zero-aware table of `spec` for `goal` in memory (no cache). See
    /// [`build_zero_aware_table`].
    ///
    /// # Errors
    /// As [`PartitionSpec::resolve`] and [`build_zero_aware_table`].
    pub fn build(
        goal: &Goal,
        spec: &PartitionSpec,
        reflect: bool,
        progress: &(dyn Fn(&BuildProgress) + Sync),
    ) -> Result<ZeroAwareDb, PdbError> {
        let mut tables = Vec::new();
        for tiles in spec.resolve(goal)? {
            let t = build_zero_aware_table(goal, &tiles, progress)?;
            tables.push((tiles, t.into()));
        }
        ZeroAwareDb::from_tables(goal, tables, reflect)
    }

    /// Loads every zero-aware table of `spec` for `goal` from `cache` (files keyed by
    /// [`TableKey::zero_aware`]), building and storing the missing or unusable ones as `policy`
    /// allows — the same cache, checksums, build locks and [`Event`]s as
    /// [`crate::PatternDb::open`].
    ///
    /// # Errors
    /// As [`PartitionSpec::resolve`] and [`build_zero_aware_table`]; [`PdbError::NotCached`]
    /// when a table is missing and `policy` forbids building it; [`PdbError::Io`] if a file
    /// exists but cannot be read.
    pub fn open(
        goal: &Goal,
        spec: &PartitionSpec,
        reflect: bool,
        cache: &Cache,
        policy: BuildPolicy,
        events: &mut dyn FnMut(Event<'_>),
        progress: &(dyn Fn(&BuildProgress) + Sync),
    ) -> Result<ZeroAwareDb, PdbError> {
        let shape = goal.shape();
        let mut tables = Vec::new();
        for tiles in spec.resolve(goal)? {
            let key = TableKey::zero_aware(goal, &tiles);
            let memory = zero_aware_build_memory(shape.width(), shape.height(), tiles.len())?;
            let t = open_table(&key, &tiles, cache, policy, memory, events, || {
                build_zero_aware_table_cancellable(goal, &tiles, progress, cache.cancel_flag())
            })?;
            tables.push((tiles, t));
        }
        ZeroAwareDb::from_tables(goal, tables, reflect)
    }

    /// The same database with every table copied into anonymous memory backed by transparent
    /// huge pages where the kernel grants them (see [`crate::PatternDb::with_huge_pages`]).
    ///
    /// # Errors
    /// [`PdbError::Io`] if the memory cannot be mapped.
    pub fn with_huge_pages(self) -> Result<ZeroAwareDb, PdbError> {
        let groups =
            self.groups
                .iter()
                .map(|g| {
                    Ok(ZGroup {
                        tiles: g.tiles.clone(),
                        ix: Arc::clone(&g.ix),
                        table: g.table.to_huge_pages().map_err(|e| {
                            PdbError::io(std::path::Path::new("<anonymous memory>"), e)
                        })?,
                    })
                })
                .collect::<Result<Vec<ZGroup>, PdbError>>()?;
        Ok(ZeroAwareDb {
            groups: groups.into(),
            ..self
        })
    }

    /// Whether the reflected lookup is in use.
    pub fn reflects(&self) -> bool {
        self.reflection.is_some()
    }

    /// The groups, as `1,2,3/4,5,6`.
    pub fn partition(&self) -> &str {
        &self.partition
    }

    /// Total table memory in bytes (the entries; the shared index tables are not counted).
    pub fn table_bytes(&self) -> u64 {
        self.groups.iter().map(|g| g.table.len() as u64).sum()
    }

    /// The cells of all tiles: `pos[t]` = cell of tile `t`. O(N).
    #[inline]
    fn positions<B: Board>(&self, board: &B) -> [u8; MAX_CELLS] {
        let mut pos = [0u8; MAX_CELLS];
        for c in 0..self.n {
            pos[board.tile(c) % MAX_CELLS] = c as u8;
        }
        pos
    }

    /// The heuristic for the placement `pos`.
    fn value(&self, pos: &[u8; MAX_CELLS]) -> u32 {
        let h: u32 = self.groups.iter().map(|g| u32::from(g.direct(pos))).sum();
        match &self.reflection {
            None => h,
            Some(r) => h.max(
                self.groups
                    .iter()
                    .map(|g| u32::from(g.mirrored(r, pos)))
                    .sum(),
            ),
        }
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
        next.pos[tile] = blank as u8;
        next.pos[0] = from as u8;
        // Only the moved tile's group changes: for every other group the blank moved to a
        // free cell next to it, inside its region.
        let gi = usize::from(self.group_of[tile]);
        if let Some(g) = self.groups.get(gi) {
            let v = match next.parts.get_mut(gi) {
                Some(p) => {
                    // Which of the group's tiles is on cell `c` (a cell of the group's set
                    // between the two cells: the parent board's tiles there do not move).
                    let slot_at =
                        |c: u8| usize::from(self.slot_of[board.tile(usize::from(c)) % MAX_CELLS]);
                    let i = usize::from(self.slot_of[tile]);
                    let (from, to) = (from as u8, blank as u8);
                    let (comb, perm) = g.ix.reparts((p.comb, p.perm), p.mask, i, from, to, slot_at);
                    *p = Parts {
                        comb,
                        perm,
                        mask: p.mask ^ (1 << (from % 32)) ^ (1 << (to % 32)),
                    };
                    // The blank is now on the tile's old cell.
                    g.table[g.ix.index(comb, perm, from)]
                }
                None => g.direct(&next.pos),
            };
            next.sum = next.sum - u16::from(next.direct[gi % MEMO_GROUPS]) + u16::from(v);
            next.direct[gi % MEMO_GROUPS] = v;
        }
        let Some(r) = &self.reflection else {
            return (u32::from(next.sum), next);
        };
        if u32::from(next.sum) > bound {
            // Pruned on the direct sum: the reflected values in `next` are stale, and the
            // caller does not use a pruned child's memo.
            return (u32::from(next.sum), next);
        }
        // On the reflected board the mirror image of `tile` moved, between the images of the
        // two cells; the image of a cell `c` there holds the image of the tile on image(c).
        let mirror = usize::from(r.tile[tile]) % MAX_CELLS;
        let mi = usize::from(self.group_of[mirror]);
        if let Some(g) = self.groups.get(mi) {
            let v = match next.mparts.get_mut(mi) {
                Some(p) => {
                    let slot_at = |c: u8| {
                        let t = board.tile(usize::from(r.cell[usize::from(c) % MAX_CELLS]));
                        usize::from(self.slot_of[usize::from(r.tile[t % MAX_CELLS]) % MAX_CELLS])
                    };
                    let i = usize::from(self.slot_of[mirror]);
                    let (from, to) = (r.cell[from % MAX_CELLS], r.cell[blank % MAX_CELLS]);
                    let (comb, perm) = g.ix.reparts((p.comb, p.perm), p.mask, i, from, to, slot_at);
                    *p = Parts {
                        comb,
                        perm,
                        mask: p.mask ^ (1 << (from % 32)) ^ (1 << (to % 32)),
                    };
                    g.table[g.ix.index(comb, perm, from)]
                }
                None => g.mirrored(r, &next.pos),
            };
            next.msum = next.msum - u16::from(next.mirrored[mi % MEMO_GROUPS]) + u16::from(v);
            next.mirrored[mi % MEMO_GROUPS] = v;
        }
        (u32::from(next.sum.max(next.msum)), next)
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

    /// From scratch on the moved board: O(N + Σk²).
    fn update(&self, board: &B, _h: u32, m: Move) -> u32 {
        let blank = board.blank();
        let from = board.tile_cell(m);
        let tile = board.tile(from);
        let mut pos = self.positions(board);
        pos[tile % MAX_CELLS] = blank as u8;
        pos[0] = from as u8;
        self.value(&pos)
    }

    /// O(N + Σk²) with one lookup per group (two with reflection).
    fn estimate_memo(&self, board: &B) -> (u32, ZeroAwareMemo) {
        let pos = self.positions(board);
        if self.groups.len() > MEMO_GROUPS {
            return (self.value(&pos), ZeroAwareMemo::default());
        }
        let mut memo = ZeroAwareMemo {
            pos,
            valid: true,
            ..ZeroAwareMemo::default()
        };
        for (gi, g) in self.groups.iter().enumerate() {
            let (comb, perm, mask) = g.parts_by(|t| pos[usize::from(t) % MAX_CELLS]);
            if let Some(p) = memo.parts.get_mut(gi) {
                *p = Parts { comb, perm, mask };
            }
            let v = g.table[g.ix.index(comb, perm, pos[0])];
            memo.direct[gi] = v;
            memo.sum += u16::from(v);
        }
        let mut h = u32::from(memo.sum);
        if let Some(r) = &self.reflection {
            let blank = r.cell[usize::from(pos[0]) % MAX_CELLS];
            for (gi, g) in self.groups.iter().enumerate() {
                let (comb, perm, mask) = g.parts_by(|u| r.mirrored_cell(&pos, u));
                if let Some(p) = memo.mparts.get_mut(gi) {
                    *p = Parts { comb, perm, mask };
                }
                let v = g.table[g.ix.index(comb, perm, blank)];
                memo.mirrored[gi] = v;
                memo.msum += u16::from(v);
            }
            h = h.max(u32::from(memo.msum));
        }
        (h, memo)
    }

    /// O(k²) with at most two lookups (the moved tile's group, and with reflection the group of
    /// its mirror image).
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

    use super::*;

    /// Along random walks on the 15-puzzle, the memo that the moves update (incremental index
    /// parts, values, sums) equals the memo computed from scratch on the moved board, on the
    /// board and on its reflection; with five groups the fifth is re-ranked from scratch.
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
                assert_eq!(memo2.pos, fresh.pos);
                assert_eq!(memo2.parts, fresh.parts, "step {step}");
                assert_eq!(memo2.mparts, fresh.mparts, "step {step}");
                assert_eq!(memo2.direct, fresh.direct);
                assert_eq!(memo2.mirrored, fresh.mirrored);
                assert_eq!((memo2.sum, memo2.msum), (fresh.sum, fresh.msum));
                (h, memo, last) = (h2, memo2, Some(m));
            }
        }
    }
}
