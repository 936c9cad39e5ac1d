//! A read-only view of an additive disjoint pattern database's tables, for engines with a loop
//! specialised to them.

/// One group of an [`AdditiveTables`] view: its tiles and its table.
#[derive(Clone, Copy, Debug)]
pub struct TableGroup<'a> {
    /// The group's tiles, ascending (the ranking's tile order); never the blank (tile 0).
    pub tiles: &'a [u8],
    /// The table: one entry per pattern, in moves, indexed by the pattern's lexicographic rank
    /// (see [`AdditiveTables`]); `cells!/(cells − k)!` entries for `k` tiles. For a zero-aware
    /// table (`zero_aware` set), one entry per (pattern, blank region), indexed by
    /// [`ZeroAwareLayout::index`].
    pub entries: &'a [u8],
    /// For a zero-aware table (Clausecker & Reinefeld, `SoCS` 2019: the blank's region is part
    /// of the index), its ranking; `None` for a plain table.
    pub zero_aware: Option<ZeroAwareLayout<'a>>,
    /// For a zero-aware table, optionally the same values indexed like a plain table
    /// (`npuzzle-pdb`'s `region_codes`); `None` otherwise.
    pub coded: Option<CodedTable<'a>>,
}

/// A zero-aware table's values indexed like a plain table ([`TableGroup::coded`]).
///
/// `entries` has one byte per pattern (plain lexicographic rank, see [`AdditiveTables`]): the
/// minimum over the blank's regions in bits 0–5 and in bits 6–7 a code: 0 = every region has
/// that value; 1 = the **majority region** (the region of more than half of the free cells)
/// has it and every other region 2 more; 2 = the majority region has 2 more and every other
/// region has it; 3 = see `pockets`.
///
/// `pockets` has one byte per pattern, read for code 3 only. Its bits 0–5 name one region, never
/// the majority one, by its lowest cell; bits 6–7 say how the regions differ from the minimum
/// ([`CodedTable::pocket_correction`]): 0 = that region has 2 more and every other region the
/// minimum; 1 = that region has the minimum and every other region 2 more; 2 = that region has
/// 4 more and every other region the minimum. 255 when the pattern is of none of these forms:
/// then read the zero-aware entry itself.
#[derive(Clone, Copy, Debug)]
pub struct CodedTable<'a> {
    /// Coded values, one per pattern.
    pub entries: &'a [u8],
    /// Code 3's region, one per pattern.
    pub pockets: &'a [u8],
}

impl CodedTable<'_> {
    /// A pocket byte that names no region: read the zero-aware entry.
    pub const NO_POCKET: u8 = u8::MAX;

    /// What pocket byte `pocket` (not [`CodedTable::NO_POCKET`]) adds to the plain value, in
    /// moves, when the blank's region is (`in_named`) or is not the region that holds cell
    /// `pocket & 63`: 0, 2 or 4 (see [`CodedTable`]). O(1).
    pub const fn pocket_correction(pocket: u8, in_named: bool) -> u32 {
        match (pocket >> 6, in_named) {
            (0, true) | (1, false) => 2,
            (2, true) => 4,
            _ => 0,
        }
    }
}

/// The tables of an additive disjoint pattern database (Korf & Felner, "Disjoint pattern
/// database heuristics", Artificial Intelligence 134, 2002), as an engine with a loop
/// specialised to them needs them: IDA\* (`npuzzle-idastar`) updates each child's table index
/// in place and looks up at most two entries a child.
///
/// The heuristic it describes, for a board with tile `t` on cell `pos[t]`:
/// `h = Σ_groups entries[rank(pos of the group's tiles)]`, and with a reflection
/// `max(h, the same sum on the reflected board)`, where the reflected board has tile
/// `reflection.tile[t]` on cell `reflection.cell[pos[t]]`.
///
/// The rank of a group of `k` tiles on cells `p[0..k]` (its tiles in ascending order) is the
/// lexicographic rank of that partial permutation of `cells` cells:
/// `Σᵢ dᵢ · (cells−1−i)!/(cells−k)!`, where `dᵢ` is `p[i]` minus the number of `p[j]`, `j < i`,
/// below it (Korf & Schultze, AAAI 2005). Tiles in no group add nothing. A zero-aware group's
/// index is [`ZeroAwareLayout::index`] of its [`ZeroAwareLayout::parts`] and the blank's cell
/// (the reflected blank's on the reflected board).
///
/// A heuristic returns this view from [`crate::Heuristic::as_additive_tables`] only when it
/// equals that formula exactly, so that an engine may evaluate it instead of calling the
/// heuristic (and count the same nodes).
#[derive(Clone, Debug)]
pub struct AdditiveTables<'a> {
    /// Cells of the board (the ranks' `cells`).
    pub cells: usize,
    /// The groups, pairwise disjoint.
    pub groups: Vec<TableGroup<'a>>,
    /// The reflection whose sum is maxed with the direct one, if any.
    pub reflection: Option<TableReflection<'a>>,
}

/// The reflection of an [`AdditiveTables`] view (about the main diagonal of a square board).
#[derive(Clone, Copy, Debug)]
pub struct TableReflection<'a> {
    /// The image of each cell, `cells` entries at least; an involution.
    pub cell: &'a [u8],
    /// The tile that stands, on the reflected board, for each tile; `cells` entries at least,
    /// `tile[0] = 0`; an involution.
    pub tile: &'a [u8],
}

/// Most tiles in a zero-aware group: `k!` and the per-tile tables of [`ZeroAwareLayout`] are
/// sized for it.
pub const ZERO_AWARE_MAX_TILES: usize = 8;

/// Bytes of one cell set's record in [`ZeroAwareLayout::records`]: the region numbers of its
/// free cells (4 bits a cell, 0 on the set's own cells; cells 0–15 in the first little-endian
/// `u64`, 16–31 in the second) and its first index (`base · k!`, the third `u64`), padded to 32
/// bytes (one cache line per lookup).
pub const ZERO_AWARE_RECORD_BYTES: usize = 32;

/// The ranking of a zero-aware pattern database's table of `k` tiles on a board of at most 32
/// cells (Clausecker & Reinefeld, "Zero-Aware Pattern Databases with 1-Bit Compression for
/// Sliding Tile Puzzles", `SoCS` 2019), borrowed from the database that owns its tables
/// (`npuzzle-pdb`'s `ZeroAwareIndexer` builds them).
///
/// The index of the state whose `i`-th tile (ascending tile order) is on `cells[i]`, with the
/// blank on `blank`, is `(base[comb] + region) · k! + perm`, where `comb` is the
/// colexicographic rank of the cell set, `base[comb]` the number of blank regions of all cell
/// sets ranked before it, `region` the number of the blank's region among the set's free cells
/// (connected components, numbered by their lowest cell) and `perm` the Lehmer rank of the
/// permutation. [`ZeroAwareLayout::parts`] computes `(comb, perm)` from scratch,
/// [`ZeroAwareLayout::reparts`] after one tile's move, [`ZeroAwareLayout::index`] the index.
#[derive(Clone, Copy, Debug)]
pub struct ZeroAwareLayout<'a> {
    /// Tiles in the group, `k` (1 to [`ZERO_AWARE_MAX_TILES`]).
    pub tiles: usize,
    /// `k!`: entries per (cell set, region).
    pub perms: u32,
    /// `pmult[i] = (k−1−i)!`: the weight of tile `i`'s Lehmer digit.
    pub pmult: &'a [u32; ZERO_AWARE_MAX_TILES],
    /// `pweight[i][j]`: what a tile `j` lying strictly between the old and the new cell of
    /// tile `i` adds to the permutation rank's change, in units of the move's direction:
    /// `pmult[i]` for `j > i`, `−pmult[j]` for `j < i`, 0 for `j = i`.
    pub pweight: &'a [[i32; ZERO_AWARE_MAX_TILES]; ZERO_AWARE_MAX_TILES],
    /// `weight[s][c] = C(c, s + 1)`: what a set cell `c` that is the set's `s`-th lowest adds to
    /// the set's colex rank.
    pub weight: &'a [[u32; 32]; ZERO_AWARE_MAX_TILES],
    /// Per cell set (colex rank), one [`ZERO_AWARE_RECORD_BYTES`]-byte record.
    pub records: &'a [u8],
    /// Per cell set, the regions of all sets ranked before it; one extra final entry (the
    /// total), so that `base[comb + 1] − base[comb]` is the set's number of regions.
    pub base: &'a [u32],
}

/// `POP11[x]`: the number of ones in the 11-bit `x` (a popcount in three table reads: the
/// workspace targets baseline x86-64, where `count_ones` is about 20 instructions).
static POP11: [u8; 2048] = {
    let mut t = [0u8; 2048];
    let mut i = 0;
    while i < 2048 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The number of ones in `x`, by [`POP11`].
#[inline]
fn ones(x: u32) -> usize {
    usize::from(POP11[(x & 0x7ff) as usize])
        + usize::from(POP11[((x >> 11) & 0x7ff) as usize])
        + usize::from(POP11[(x >> 22) as usize])
}

impl ZeroAwareLayout<'_> {
    /// Number of entries of a table with this ranking, `Σ regions · k!`.
    pub fn entries(&self) -> usize {
        self.base.last().map_or(0, |&b| b as usize) * self.perms as usize
    }

    /// The two parts of the index of the state whose `i`-th tile is on `cells[i]`: the colex
    /// rank of the cell set and the Lehmer rank of the permutation (`(comb, perm)`). O(k²)
    /// comparisons.
    ///
    /// # Panics
    /// Debug-asserts that `cells` has `k` distinct cells below 32; in release builds such input
    /// gives meaningless parts.
    #[inline]
    pub fn parts(&self, cells: &[u8]) -> (u32, u32) {
        debug_assert_eq!(cells.len(), self.tiles);
        let mut comb = 0u32;
        let mut perm = 0u32;
        for (i, &c) in cells.iter().enumerate() {
            let mut below = 0u32;
            let mut later = 0u32;
            for (j, &d) in cells.iter().enumerate() {
                let lt = u32::from(d < c);
                below += lt;
                if j > i {
                    later += lt;
                }
            }
            comb += self.weight[below as usize & 7][usize::from(c) & 31];
            perm += later * self.pmult[i & 7];
        }
        (comb, perm)
    }

    /// The parts after tile `i` of the group moves from cell `from` to the free cell `to`,
    /// given the parts before the move `(comb, perm)`, the cell set before the move as a bit
    /// mask `mask`, and `slot_at(c)`: which tile of the group (its index `j`) is on cell `c`
    /// (asked only for the cells of `mask` strictly between `from` and `to`). The new cell set
    /// is `mask ^ (1 << from | 1 << to)`.
    ///
    /// Incremental: with `m` tiles of the group strictly between the two cells, the moved
    /// tile's place in the sorted cell set shifts by `m` and each tile in between shifts by one
    /// the other way, so the colex rank changes by `C(to, p' + 1) − C(from, p + 1)` plus one
    /// such difference per tile in between; the permutation's order changes only between the
    /// moved tile and the tiles in between (`pmult[i]` for each later tile, `−pmult[j]` for
    /// each earlier tile `j`, signed by the direction). A move to a horizontal neighbour
    /// changes the colex rank by one binomial difference and leaves the permutation as it is;
    /// a vertical one on a board `W` cells wide visits the group's tiles among the `W − 1`
    /// cells in between. Equals [`ZeroAwareLayout::parts`] of the moved state. O(1) plus O(m)
    /// (one 32-bit popcount, by three reads of a 2 KiB table).
    ///
    /// # Panics
    /// Debug-asserts that `from` is in `mask` and `to` is not.
    #[expect(
        clippy::inline_always,
        reason = "search hot path: not inlined, its prologue and epilogue were a fifth of it"
    )]
    #[inline(always)]
    pub fn reparts(
        &self,
        (comb, perm): (u32, u32),
        mask: u32,
        i: usize,
        from: u8,
        to: u8,
        slot_at: impl Fn(u8) -> usize,
    ) -> (u32, u32) {
        debug_assert!(mask & (1 << from) != 0 && mask & (1 << to) == 0);
        let up = to > from;
        let (lo, hi) = if up { (from, to) } else { (to, from) };
        // Group cells below `lo`: the place of `lo` in the sorted set (if it is a set cell).
        let p = ones(mask & ((1u32 << lo) - 1));
        // The cells in between, ascending; their old and new places in the sorted set.
        let mut between = mask & !((2u32 << lo) - 1) & ((1u32 << hi) - 1);
        let mut place = if up { p + 1 } else { p };
        let mut comb = comb;
        let mut dperm = 0i32;
        let pw = &self.pweight[i & 7];
        while between != 0 {
            let c = between.trailing_zeros() as usize;
            between &= between - 1;
            let new_place = if up { place - 1 } else { place + 1 };
            comb = comb
                .wrapping_add(self.weight[new_place & 7][c & 31])
                .wrapping_sub(self.weight[place & 7][c & 31]);
            dperm += pw[slot_at(c as u8) & 7];
            place += 1;
        }
        // The moved tile: from place `p` (up) or `p + m` (down) to `p + m` (up) or `p`.
        let (old_place, new_place) = if up { (p, place - 1) } else { (place, p) };
        comb = comb
            .wrapping_add(self.weight[new_place & 7][usize::from(to) & 31])
            .wrapping_sub(self.weight[old_place & 7][usize::from(from) & 31]);
        let perm = if up {
            perm.wrapping_add_signed(dperm)
        } else {
            perm.wrapping_add_signed(-dperm)
        };
        (comb, perm)
    }

    /// The index of the state with parts `(comb, perm)` and the blank on `blank`: one read of
    /// the cell set's [`ZERO_AWARE_RECORD_BYTES`]-byte record. O(1).
    ///
    /// # Panics
    /// If `comb` is not below the number of cell sets. A `blank` on one of the set's cells
    /// gives the index of region 0.
    #[expect(clippy::inline_always, reason = "search hot path (BENCHMARKS.md)")]
    #[inline(always)]
    pub fn index(&self, comb: u32, perm: u32, blank: u8) -> usize {
        let at = comb as usize * ZERO_AWARE_RECORD_BYTES;
        let rec: &[u8; ZERO_AWARE_RECORD_BYTES] = self.records[at..at + ZERO_AWARE_RECORD_BYTES]
            .try_into()
            .expect("a slice of ZERO_AWARE_RECORD_BYTES bytes");
        let region =
            (record_word(rec, usize::from(blank >> 4) & 1) >> (4 * (blank & 15))) as usize & 15;
        record_word(rec, 2) as usize + region * self.perms as usize + perm as usize
    }
}

/// Word `i` (little-endian `u64`; `i` is taken modulo 4) of a zero-aware record
/// ([`ZERO_AWARE_RECORD_BYTES`]). O(1).
///
/// # Panics
/// Never: the word's 8 bytes always lie inside the record.
#[inline]
pub fn record_word(rec: &[u8; ZERO_AWARE_RECORD_BYTES], i: usize) -> u64 {
    let i = (i & 3) * 8;
    u64::from_le_bytes(rec[i..i + 8].try_into().expect("8 bytes"))
}

#[cfg(test)]
mod tests {
    use super::ones;

    #[test]
    fn ones_counts_bits() {
        for x in [
            0u32,
            1,
            0x7ff,
            0x800,
            0x1ff_ffff,
            0xffff_ffff,
            0x8000_0001,
            0x0123_4567,
        ] {
            assert_eq!(ones(x), x.count_ones() as usize, "{x:#x}");
        }
        let mut x = 0x9e37_79b9u32;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            assert_eq!(ones(x), x.count_ones() as usize);
        }
    }
}
