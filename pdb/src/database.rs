//! The additive pattern database as a heuristic: its groups, the reflected lookup, and the
//! per-node memo for incremental evaluation in depth-first search.

use npuzzle_core::{Board, Goal, Heuristic, HeuristicProperties, Move};

use crate::set::{Group, IndexKind, NONE, Sealed, TableBuilder, TableSet};
use crate::{
    Indexer, MAX_CELLS, PdbError, RERANK_TILES, TableKind, build_memory, build_table_cancellable,
};

impl Group<Indexer> {
    /// The group's value with tile `t` on cell `pos[t]`. O(k).
    #[inline]
    fn value(&self, pos: &[u8; MAX_CELLS]) -> u32 {
        self.value_by(|t| pos[usize::from(t) % MAX_CELLS])
    }

    /// The group's value with tile `t` on cell `cell_of(t)`. O(k).
    #[inline]
    pub(crate) fn value_by(&self, cell_of: impl Fn(u8) -> u8) -> u32 {
        u32::from(self.table[self.rank_by(cell_of)])
    }

    /// The table index with tile `t` on cell `cell_of(t)`. O(k); groups of 4 to 8 tiles use
    /// the unrolled [`Indexer::rank_array`].
    #[inline]
    pub(crate) fn rank_by(&self, cell_of: impl Fn(u8) -> u8) -> usize {
        self.ix.rank_by(|i| cell_of(self.tiles[i]))
    }
}

/// Most groups for which [`PatternDb`] keeps per-group values in its [`PdbMemo`]; with more
/// groups the memo is unused and each update evaluates from scratch.
pub const MEMO_GROUPS: usize = 16;

/// Most groups whose table indices a [`PdbMemo`] keeps (groups past these are re-ranked from
/// scratch at each update).
pub const MEMO_RANK_GROUPS: usize = 4;

/// A [`PatternDb`]'s per-node memo ([`Heuristic::Memo`]) for depth-first search: the cell of
/// every tile, every group's value on the board and on its reflection, and the first
/// [`MEMO_RANK_GROUPS`] groups' table indices on both, so that a child's estimate updates only
/// the index of the moved tile's group and of its mirror image's group — incrementally
/// ([`Indexer::rerank`]: O(1) for a horizontal move, O(W) for a vertical one) for groups of at
/// most [`RERANK_TILES`] tiles, else O(k) — and looks up two table entries, instead of O(N)
/// plus one lookup per group (per group twice with reflection). 104 bytes, `Copy`.
#[derive(Clone, Copy, Debug, Default)]
pub struct PdbMemo {
    /// Cell of each tile (`pos[0]` is the blank's).
    pos: [u8; MAX_CELLS],
    /// The table index of each of the first [`MEMO_RANK_GROUPS`] groups on the board.
    rank: [u32; MEMO_RANK_GROUPS],
    /// The same on the reflected board (unused without reflection).
    mrank: [u32; MEMO_RANK_GROUPS],
    /// Each group's value on the board.
    direct: [u8; MEMO_GROUPS],
    /// Each group's value on the reflected board (unused without reflection).
    mirrored: [u8; MEMO_GROUPS],
    /// Sums of `direct` and `mirrored`.
    sum: u16,
    msum: u16,
    /// Whether the fields hold a board's values (not for the default memo, nor with more than
    /// [`MEMO_GROUPS`] groups).
    valid: bool,
}

/// An additive disjoint pattern database: one table per group, the heuristic being the sum of
/// the groups' values (and, where valid, the maximum of that sum on the board and on its
/// reflection about the main diagonal).
///
/// Evaluation: [`Heuristic::estimate`] is O(N + Σk) with one table lookup per group (two with
/// reflection). Without reflection [`Heuristic::update`] re-ranks only the moving tile's group,
/// O(N + k) with two lookups (the O(N) is one pass over the cells to find the group's tiles,
/// since a board only answers "which tile is on this cell"); with reflection the maximum of two
/// sums cannot be updated from `h` alone, so it evaluates the moved board from scratch. IDA*
/// uses the memo form instead ([`Heuristic::update_memo`] with a [`PdbMemo`] per node on the
/// path): O(k) with at most two lookups per child, with or without reflection (1.3–1.6× the
/// node rate of the stateless form, same values; `BENCHMARKS.md`), and the bounded form
/// ([`Heuristic::update_memo_bounded`]) skips the reflected lookup of a child that the direct
/// sum already prunes. The memo keeps the first [`MEMO_RANK_GROUPS`] groups' table indices, which
/// a move updates incrementally ([`Indexer::rerank`]: ± one multiplier for a horizontal move, a
/// look at the `W - 1` cells in between for a vertical one; a move is horizontal on the board
/// and vertical on its reflection, or the other way round), 25 % fewer instructions in the
/// heuristic than re-ranking (BENCHMARKS.md, "Incremental ranks"); other groups of 4 to 8 tiles
/// are ranked by unrolled comparisons ([`Indexer::rank_array`]).
///
/// Memory: the tables, one byte per entry (on the 15-puzzle 6-6-3: 11.5 MB; 7-6-2: 63 MB;
/// 7-8: 577 MB), private if built, shared through the page cache if loaded from the cache. Clones share the
/// tables.
pub type PatternDb = TableSet<PlainKind>;

/// The index kind of [`PatternDb`]: plain blank-aware tables ([`crate::build_table`]), ranked by
/// [`Indexer`], on boards of at most [`MAX_CELLS`] cells; stored as [`TableKind::Plain`].
#[derive(Clone, Copy, Debug)]
pub struct PlainKind;

impl Sealed for PlainKind {}

impl IndexKind for PlainKind {
    type Indexer = Indexer;
    type Extra = ();
    const TABLE: TableKind = TableKind::Plain;
    const ADJECTIVE: &'static str = "";
    const BUILD: TableBuilder = build_table_cancellable;

    fn build_memory(goal: &Goal, tiles: &[u8]) -> Result<u64, PdbError> {
        build_memory(goal.shape().cells(), tiles.len())
    }

    fn extra(_goal: &Goal) {}
}

impl PatternDb {
    /// The child's estimate and memo after `m` from `board` with memo `memo` (see
    /// [`Heuristic::update_memo_bounded`]): the reflected group is re-ranked only if the direct
    /// sum is at most `bound` (`u32::MAX`: always).
    #[expect(
        clippy::inline_always,
        reason = "IDA*'s hot path, called at two sites with a constant and a variable bound"
    )]
    #[inline(always)]
    fn child<B: Board>(
        &self,
        board: &B,
        h: u32,
        memo: &PdbMemo,
        m: Move,
        bound: u32,
    ) -> (u32, PdbMemo) {
        if !memo.valid {
            return (Heuristic::<B>::update(self, board, h, m), *memo);
        }
        let blank = board.blank();
        let from = board.tile_cell(m);
        let tile = board.tile(from);
        let mut next = *memo;
        next.pos[tile] = blank as u8;
        next.pos[0] = from as u8;
        let gi = usize::from(self.group_of[tile]);
        if let Some(g) = self.groups.get(gi) {
            let v = match next.rank.get_mut(gi) {
                Some(rank) if g.tiles.len() <= RERANK_TILES => {
                    // Which of the group's tiles is on cell `c` (between the two cells: the
                    // parent board's tiles there do not move).
                    let slot_at = |c: u8| {
                        let t = board.tile(usize::from(c)) % MAX_CELLS;
                        (usize::from(self.group_of[t]) == gi).then(|| usize::from(self.slot_of[t]))
                    };
                    let i = usize::from(self.slot_of[tile]);
                    let r =
                        g.ix.rerank(*rank as usize, i, from as u8, blank as u8, slot_at);
                    *rank = r as u32;
                    u32::from(g.table[r])
                }
                _ => g.value(&next.pos),
            };
            next.sum = next.sum - u16::from(next.direct[gi]) + v as u16;
            next.direct[gi] = v as u8;
        }
        let Some(r) = &self.reflection else {
            return (u32::from(next.sum), next);
        };
        if u32::from(next.sum) > bound {
            // Pruned on the direct sum alone: the reflected values in `next` are stale, and
            // the caller does not use a pruned child's memo.
            return (u32::from(next.sum), next);
        }
        // On the reflected board the mirror image of `tile` moved.
        let mirror = usize::from(r.tile[tile]);
        let mi = usize::from(self.group_of[mirror]);
        if let Some(g) = self.groups.get(mi) {
            let v = match next.mrank.get_mut(mi) {
                Some(rank) if g.tiles.len() <= RERANK_TILES => {
                    // The mirror image moves between the images of the tile's cells; the
                    // image of a cell `c` here holds the image of the tile on cell image(c).
                    let slot_at = |c: u8| {
                        let t = board.tile(usize::from(r.cell[usize::from(c) % MAX_CELLS]));
                        let u = usize::from(r.tile[t % MAX_CELLS]) % MAX_CELLS;
                        (usize::from(self.group_of[u]) == mi).then(|| usize::from(self.slot_of[u]))
                    };
                    let i = usize::from(self.slot_of[mirror]);
                    let (a, b) = (r.cell[from % MAX_CELLS], r.cell[blank % MAX_CELLS]);
                    let idx = g.ix.rerank(*rank as usize, i, a, b, slot_at);
                    *rank = idx as u32;
                    u32::from(g.table[idx])
                }
                _ => {
                    let pos = next.pos;
                    g.value_by(|u| r.mirrored_cell(&pos, u))
                }
            };
            next.msum = next.msum - u16::from(next.mirrored[mi]) + v as u16;
            next.mirrored[mi] = v as u8;
        }
        (u32::from(next.sum.max(next.msum)), next)
    }

    /// The heuristic for the placement `pos`: the sum, or the maximum of the sum and the
    /// reflected sum.
    #[inline]
    fn value(&self, pos: &[u8; MAX_CELLS]) -> u32 {
        self.sum_or_max(
            |g| g.value(pos),
            |r, g| g.value_by(|u| r.mirrored_cell(pos, u)),
        )
    }
}

impl<B: Board> Heuristic<B> for PatternDb {
    type Memo = PdbMemo;

    fn name(&self) -> &'static str {
        "pdb"
    }

    /// Admissible, not consistent: each group's value is minimised over the blank's region
    /// (see the crate docs).
    fn properties(&self) -> HeuristicProperties {
        HeuristicProperties::ADMISSIBLE
    }

    /// O(N + Σk) with one lookup per group (two with reflection).
    fn estimate_memo(&self, board: &B) -> (u32, PdbMemo) {
        let pos = self.positions(board);
        if self.groups.len() > MEMO_GROUPS {
            return (self.value(&pos), PdbMemo::default());
        }
        let mut memo = PdbMemo {
            pos,
            valid: true,
            ..PdbMemo::default()
        };
        for (gi, g) in self.groups.iter().enumerate() {
            let rank = g.rank_by(|t| pos[usize::from(t) % MAX_CELLS]);
            if let Some(slot) = memo.rank.get_mut(gi) {
                *slot = rank as u32;
            }
            let v = u32::from(g.table[rank]);
            memo.direct[gi] = v as u8;
            memo.sum += v as u16;
        }
        let mut h = u32::from(memo.sum);
        if let Some(r) = &self.reflection {
            for (gi, g) in self.groups.iter().enumerate() {
                let rank = g.rank_by(|u| r.mirrored_cell(&pos, u));
                if let Some(slot) = memo.mrank.get_mut(gi) {
                    *slot = rank as u32;
                }
                let v = u32::from(g.table[rank]);
                memo.mirrored[gi] = v as u8;
                memo.msum += v as u16;
            }
            h = h.max(u32::from(memo.msum));
        }
        (h, memo)
    }

    /// O(k) with at most two lookups (the moved tile's group, and with reflection the group of
    /// its mirror image), given the parent's memo; from scratch ([`Heuristic::update`]) when the
    /// memo is unused.
    #[inline]
    fn update_memo(&self, board: &B, h: u32, memo: &PdbMemo, m: Move) -> (u32, PdbMemo) {
        self.child(board, h, memo, m, u32::MAX)
    }

    /// [`Heuristic::update_memo`] that skips the reflected lookup when the direct sum already
    /// exceeds `bound` (Korf & Felner 2002): one lookup instead of two for most pruned children.
    #[inline]
    fn update_memo_bounded(
        &self,
        board: &B,
        h: u32,
        memo: &PdbMemo,
        m: Move,
        bound: u32,
    ) -> (u32, PdbMemo) {
        self.child(board, h, memo, m, bound)
    }

    fn estimate(&self, board: &B) -> u32 {
        self.value(&self.positions(board))
    }

    /// The groups' tiles and tables and the reflection: this database is exactly the sum (or
    /// the maximum of the direct and reflected sums) that [`npuzzle_core::AdditiveTables`]
    /// describes, with [`Indexer::rank`]'s ranking.
    fn as_additive_tables(&self) -> Option<npuzzle_core::AdditiveTables<'_>> {
        Some(npuzzle_core::AdditiveTables {
            cells: self.n,
            groups: self
                .groups
                .iter()
                .map(|g| npuzzle_core::TableGroup {
                    tiles: &g.tiles,
                    entries: &g.table,
                    zero_aware: None,
                    coded: None,
                })
                .collect(),
            reflection: self.reflection.as_ref().map(|r| r.view(self.n)),
        })
    }

    #[inline]
    fn update(&self, board: &B, h: u32, m: Move) -> u32 {
        let blank = board.blank();
        let from = board.tile_cell(m);
        let tile = board.tile(from);
        if self.reflection.is_some() {
            let mut pos = self.positions(board);
            pos[tile] = blank as u8;
            pos[0] = from as u8;
            return self.value(&pos);
        }
        let gi = self.group_of[tile];
        if gi == NONE {
            return h;
        }
        let g = &self.groups[usize::from(gi)];
        let pos: [u8; MAX_CELLS] = self.positions(board);
        let mut cells = [0u8; MAX_CELLS];
        let mut moved = 0;
        for (i, (c, &t)) in cells.iter_mut().zip(&g.tiles).enumerate() {
            *c = pos[usize::from(t)];
            if usize::from(t) == tile {
                moved = i;
            }
        }
        let cells = &cells[..g.tiles.len()];
        let before = u32::from(g.table[g.ix.rank(cells)]);
        let after = u32::from(g.table[g.ix.rank_moved(cells, moved, blank as u8)]);
        h + after - before
    }
}
