//! Perfect ranking of zero-aware abstract states: (the cells of a group's `k` tiles, the blank's
//! region) on a W×H board.
//!
//! A pattern is split into its **cell set** (a `k`-combination of the `n` cells) and the
//! **permutation** that puts the group's tiles on those cells. The free cells of a cell set fall
//! into connected regions (orthogonal adjacency), numbered by their lowest cell; how many depends
//! on the cell set only. The index of (pattern, blank cell) is
//!
//! `(base[comb] + region) · k! + perm`
//!
//! where `comb` is the colexicographic rank of the cell set, `base[comb]` the number of regions
//! of all cell sets ranked before it, `region` the number of the blank's region and `perm` the
//! Lehmer rank of the permutation. The index space has `Σ regions(set) · k!` entries — about
//! 1.42× the `n!/(n-k)!` of a plain table for 6 tiles on 5×5 (Clausecker & Reinefeld,
//! "Zero-Aware Pattern Databases with 1-Bit Compression for Sliding Tile Puzzles", `SoCS` 2019,
//! whose layout this follows).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use npuzzle_core::{ZERO_AWARE_MAX_TILES, ZERO_AWARE_RECORD_BYTES, ZeroAwareLayout, record_word};

use crate::build::Grid;
use crate::store::huge_page_map;
use crate::{MAX_CELLS, MAX_ENTRIES, PdbError};

/// Most cell sets (`C(n, k)`) a [`ZeroAwareIndexer`] enumerates: its per-set tables take
/// 40 bytes per set.
pub const MAX_CELL_SETS: u64 = 1 << 24;

/// Bytes of one cell set's lookup record ([`ZERO_AWARE_RECORD_BYTES`], see
/// [`ZeroAwareLayout`]).
const RECORD: usize = ZERO_AWARE_RECORD_BYTES;

/// The ranking of zero-aware states of `k` tiles on a W×H board (see the module docs).
///
/// Construction enumerates every cell set and floods its free cells: O(C(n, k) · n) time and
/// `C(n, k) · 40` bytes (5×5, 6 tiles: 177,100 sets, 7.1 MB, milliseconds; the 32-byte records in
/// memory advised for huge pages). Ranking is
/// O(k²) comparisons plus two small-table reads; unranking O(k²).
#[derive(Clone, Debug)]
pub struct ZeroAwareIndexer {
    n: usize,
    k: usize,
    width: usize,
    height: usize,
    /// `k!`.
    pub(super) fact: u64,
    /// `pmult[i] = (k-1-i)!`: the weight of tile `i`'s Lehmer digit.
    pmult: [u32; ZERO_AWARE_MAX_TILES],
    /// `pweight[i][j]`: what a tile `j` lying strictly between the old and the new cell of
    /// tile `i` adds to the permutation rank's change, in units of the move's direction:
    /// `pmult[i]` for `j > i`, `-pmult[j]` for `j < i`, 0 for `j = i` (see
    /// [`ZeroAwareIndexer::reparts`]).
    pweight: [[i32; ZERO_AWARE_MAX_TILES]; ZERO_AWARE_MAX_TILES],
    /// `weight[s][c] = C(c, s + 1)`: what a set cell `c` that is the set's `s`-th lowest adds
    /// to the set's colex rank (`c < 32`, `s < 8`: power-of-two bounds, so indices are masked
    /// rather than checked).
    weight: [[u32; MAX_CELLS]; ZERO_AWARE_MAX_TILES],
    /// Per cell set (colex rank): regions of all earlier sets; one extra final entry (the total).
    pub(super) base: Vec<u32>,
    /// Per cell set: the set as a bit mask.
    pub(super) masks: Vec<u32>,
    /// Per cell set: its first index and the region number of each free cell, in one
    /// [`RECORD`]-byte record (one cache line per lookup), in anonymous memory advised for
    /// transparent huge pages (5×5, 6 tiles: 5.7 MB, read at random by every lookup).
    records: Arc<memmap2::Mmap>,
    size: u64,
}

impl ZeroAwareIndexer {
    /// The ranking of `k` tiles on a `width`×`height` board.
    ///
    /// # Errors
    /// [`PdbError::TableTooLarge`] if the board has more than 32 cells, `k` is 0, at least the
    /// number of cells or above [`ZERO_AWARE_MAX_TILES`], there are more than [`MAX_CELL_SETS`]
    /// cell sets, or more than [`MAX_ENTRIES`] entries; [`PdbError::Io`] if the record array's
    /// memory cannot be mapped.
    pub fn new(width: usize, height: usize, k: usize) -> Result<ZeroAwareIndexer, PdbError> {
        let n = width * height;
        let too_large = || PdbError::TableTooLarge {
            cells: n,
            tiles: k,
            max_entries: MAX_ENTRIES,
        };
        if n > MAX_CELLS || k == 0 || k >= n || k > ZERO_AWARE_MAX_TILES {
            return Err(too_large());
        }
        let binom = binomials();
        let sets = u64::from(binom[n][k]);
        let mut weight = [[0u32; MAX_CELLS]; ZERO_AWARE_MAX_TILES];
        for (s, row) in weight.iter_mut().enumerate() {
            for (c, w) in row.iter_mut().enumerate() {
                *w = binom[c][s + 1];
            }
        }
        if sets > MAX_CELL_SETS {
            return Err(too_large());
        }
        let mut pmult = [0u32; ZERO_AWARE_MAX_TILES];
        let mut f = 1u32;
        for i in (0..k).rev() {
            pmult[i] = f;
            f *= (k - i) as u32;
        }
        let fact = u64::from(f);
        let pweight = perm_weights(&pmult, k);
        let grid = Grid::new(width, height);
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let sets = sets as usize;
        let mut base = Vec::with_capacity(sets + 1);
        let mut masks = Vec::with_capacity(sets);
        let mut records = Vec::with_capacity(sets * RECORD);
        let mut total = 0u64;
        // Colex order of k-subsets is the numeric order of their masks (Gosper's hack).
        let mut m: u32 = (1u32 << k) - 1;
        for s in 0..sets {
            base.push(total as u32);
            masks.push(m);
            let free = all & !m;
            let mut todo = free;
            let mut r = 0u8;
            let mut regions = [0u64; 2];
            while todo != 0 {
                let reg = grid.flood(todo & todo.wrapping_neg(), free);
                todo &= !reg;
                let mut b = reg;
                while b != 0 {
                    let c = b.trailing_zeros();
                    regions[c as usize / 16] |= u64::from(r) << (4 * (c % 16));
                    b &= b - 1;
                }
                r += 1;
            }
            if r > 16 {
                // Region numbers are 4-bit fields.
                return Err(too_large());
            }
            for word in [regions[0], regions[1], total * fact, 0] {
                records.extend_from_slice(&word.to_le_bytes());
            }
            total += u64::from(r);
            if s + 1 < sets {
                let c = m & m.wrapping_neg();
                let rr = m + c;
                m = (((rr ^ m) >> 2) / c) | rr;
            }
        }
        base.push(total as u32);
        let size = total * fact;
        if size > MAX_ENTRIES {
            return Err(too_large());
        }
        let records = Arc::new(
            huge_page_map(&records)
                .map_err(|e| PdbError::io(std::path::Path::new("<anonymous memory>"), e))?,
        );
        Ok(ZeroAwareIndexer {
            n,
            k,
            width,
            height,
            fact,
            pmult,
            pweight,
            weight,
            base,
            masks,
            records,
            size,
        })
    }

    /// [`ZeroAwareIndexer::new`], built once per process for each `(width, height, k)` and
    /// shared: the tables of one partition, the cache's header checks and size computations
    /// all use the same indexer (5×5, 6 tiles: about 0.1 s and 7.1 MB once, kept for the
    /// process's lifetime).
    ///
    /// # Errors
    /// As [`ZeroAwareIndexer::new`] (errors are not cached).
    pub fn shared(
        width: usize,
        height: usize,
        k: usize,
    ) -> Result<Arc<ZeroAwareIndexer>, PdbError> {
        type Shared = Mutex<HashMap<(usize, usize, usize), Arc<ZeroAwareIndexer>>>;
        static SHARED: OnceLock<Shared> = OnceLock::new();
        let mut map = SHARED
            .get_or_init(Shared::default)
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(ix) = map.get(&(width, height, k)) {
            return Ok(Arc::clone(ix));
        }
        let ix = Arc::new(ZeroAwareIndexer::new(width, height, k)?);
        map.insert((width, height, k), Arc::clone(&ix));
        Ok(ix)
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.n
    }

    /// Board width.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Tiles in the group.
    pub fn tiles(&self) -> usize {
        self.k
    }

    /// Number of entries, `Σ regions · k!`.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Number of cell sets, `C(n, k)`.
    pub fn cell_sets(&self) -> usize {
        self.masks.len()
    }

    /// Number of (cell set, region) pairs: [`ZeroAwareIndexer::size`] / `k!`.
    pub fn regions(&self) -> u64 {
        u64::from(self.base[self.masks.len()])
    }

    /// The index of the state whose `i`-th tile is on `cells[i]` with the blank on `blank`.
    /// O(k²) comparisons.
    ///
    /// # Panics
    /// Debug-asserts that `cells` has `k` distinct cells below `n` and that `blank` is another
    /// cell below `n`; in release builds such input gives a meaningless index (or panics on an
    /// out-of-bounds table read).
    #[inline]
    pub fn rank(&self, cells: &[u8], blank: u8) -> usize {
        let (comb, perm) = self.parts(cells);
        self.finish(comb as usize, perm, blank)
    }

    /// The two parts of the index of the state whose `i`-th tile is on `cells[i]`: the colex
    /// rank of the cell set and the Lehmer rank of the permutation (`(comb, perm)`, see the
    /// module docs). O(k²) comparisons.
    ///
    /// # Panics
    /// Debug-asserts that `cells` has `k` distinct cells below `n`; in release builds such
    /// input gives meaningless parts.
    #[inline]
    pub fn parts(&self, cells: &[u8]) -> (u32, u32) {
        self.layout().parts(cells)
    }

    /// The ranking as a [`ZeroAwareLayout`] borrowing this indexer's tables (what a search
    /// kernel evaluates; [`ZeroAwareIndexer::parts`], [`ZeroAwareIndexer::reparts`] and
    /// [`ZeroAwareIndexer::index`] are its methods). O(1).
    #[inline]
    pub fn layout(&self) -> ZeroAwareLayout<'_> {
        ZeroAwareLayout {
            tiles: self.k,
            perms: self.fact as u32,
            pmult: &self.pmult,
            pweight: &self.pweight,
            weight: &self.weight,
            records: &self.records[..self.masks.len() * RECORD],
            base: &self.base,
        }
    }

    /// [`ZeroAwareIndexer::rank`] for a compile-time group size `K` (= `k`): fully unrolled,
    /// `K(K-1)/2` comparisons and no division (5×5, 6 tiles: about 150 instructions).
    #[inline]
    pub fn rank_array<const K: usize>(&self, cells: &[u8; K], blank: u8) -> usize {
        let (comb, perm) = self.parts_array(cells);
        self.finish(comb as usize, perm, blank)
    }

    /// [`ZeroAwareIndexer::parts`] for a compile-time group size `K` (= `k`), fully unrolled.
    #[inline]
    pub fn parts_array<const K: usize>(&self, cells: &[u8; K]) -> (u32, u32) {
        debug_assert_eq!(K, self.k);
        // later[i]: tiles after i on lower cells (tile i's Lehmer digit); above[j]: tiles
        // before j on higher cells. Tile i's position in the set is later[i] + i - above[i].
        let mut later = [0u32; K];
        let mut above = [0u32; K];
        for i in 0..K {
            for j in i + 1..K {
                let lt = u32::from(cells[j] < cells[i]);
                later[i] += lt;
                above[j] += lt;
            }
        }
        let mut comb = 0u32;
        let mut perm = 0u32;
        for i in 0..K {
            let below = later[i] + i as u32 - above[i];
            comb += self.weight[below as usize & 7][usize::from(cells[i]) & 31];
            perm += later[i] * self.pmult[i & 7];
        }
        (comb, perm)
    }

    /// The index of the state with parts `(comb, perm)` (from [`ZeroAwareIndexer::parts`] or
    /// [`ZeroAwareIndexer::reparts`]) and the blank on `blank`: one read of the cell set's
    /// 32-byte record. O(1).
    ///
    /// # Panics
    /// If `comb` is not below [`ZeroAwareIndexer::cell_sets`]; debug-asserts that `blank` is
    /// not in the cell set.
    #[expect(clippy::inline_always, reason = "search hot path (BENCHMARKS.md)")]
    #[inline(always)]
    pub fn index(&self, comb: u32, perm: u32, blank: u8) -> usize {
        self.finish(comb as usize, perm, blank)
    }

    /// The parts after tile `i` of the group moves from cell `from` to the free cell `to`:
    /// [`ZeroAwareLayout::reparts`] of this indexer's [`ZeroAwareIndexer::layout`] (see there
    /// for `mask`, `slot_at` and the incremental update). Equals [`ZeroAwareIndexer::parts`] of
    /// the moved state (tested exhaustively on small spaces). O(1) plus the group's tiles
    /// between the two cells.
    ///
    /// # Panics
    /// If a slot returned is at least [`ZERO_AWARE_MAX_TILES`]; debug-asserts that `from` is in
    /// `mask` and `to` is not.
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
        self.layout()
            .reparts((comb, perm), mask, i, from, to, slot_at)
    }

    #[inline]
    fn finish(&self, comb: usize, perm: u32, blank: u8) -> usize {
        debug_assert!(
            self.masks[comb] & (1 << blank) == 0,
            "the blank is on a group tile's cell"
        );
        self.layout().index(comb as u32, perm, blank)
    }

    /// The record of cell set `comb`.
    #[inline]
    fn record(&self, comb: usize) -> &[u8; RECORD] {
        self.records[comb * RECORD..(comb + 1) * RECORD]
            .try_into()
            .expect("a slice of RECORD bytes")
    }

    /// The state of index `index`: writes the `i`-th tile's cell into `cells[i]` and returns
    /// the blank's region as a cell mask. O(k² + log C(n, k)).
    ///
    /// # Panics
    /// If `index >= size()` or `cells` is shorter than `k`.
    pub fn unrank(&self, index: usize, cells: &mut [u8]) -> u32 {
        assert!((index as u64) < self.size, "index {index} out of range");
        let pair = (index as u64 / self.fact) as u32;
        let perm = (index as u64 % self.fact) as u32;
        // The last set whose base is at most `pair`.
        let comb = self.base.partition_point(|&b| b <= pair) - 1;
        let region = (pair - self.base[comb]) as u8;
        self.unrank_perm(self.masks[comb], perm, cells);
        self.region_mask(comb, region)
    }

    /// Writes the cells of permutation `perm` over the cell set `mask` into `cells[..k]`.
    pub(crate) fn unrank_perm(&self, mask: u32, perm: u32, cells: &mut [u8]) {
        let mut sorted = [0u8; ZERO_AWARE_MAX_TILES];
        let mut m = mask;
        for s in sorted.iter_mut().take(self.k) {
            *s = m.trailing_zeros() as u8;
            m &= m - 1;
        }
        // Tile i takes the d_i-th smallest of the cells not taken by tiles 0..i.
        let mut taken = 0u32;
        let mut p = perm;
        for (i, c) in cells.iter_mut().enumerate().take(self.k) {
            let d = p / self.pmult[i];
            p %= self.pmult[i];
            let mut seen = 0;
            for (j, &s) in sorted.iter().enumerate().take(self.k) {
                if taken & (1 << j) != 0 {
                    continue;
                }
                if seen == d {
                    *c = s;
                    taken |= 1 << j;
                    break;
                }
                seen += 1;
            }
        }
    }

    /// The cells of region `region` of cell set `comb`.
    pub(crate) fn region_mask(&self, comb: usize, region: u8) -> u32 {
        let rec = self.record(comb);
        let regions = [record_word(rec, 0), record_word(rec, 1)];
        let free = !self.masks[comb];
        (0..self.n)
            .filter(|&c| {
                free & (1 << c) != 0 && (regions[c / 16] >> (4 * (c % 16))) as u8 & 15 == region
            })
            .fold(0, |m, c| m | (1 << c))
    }

    /// The cell set of colex rank `comb` and its first index: `(mask, base[comb] · k!,
    /// regions)`.
    pub(crate) fn cell_set(&self, comb: usize) -> (u32, usize, u8) {
        (
            self.masks[comb],
            self.base[comb] as usize * self.fact as usize,
            (self.base[comb + 1] - self.base[comb]) as u8,
        )
    }

    /// `k!`.
    pub(crate) fn perms(&self) -> usize {
        self.fact as usize
    }
}

/// `binom[c][j] = C(c, j)` for `c ≤ 32`, `j ≤ 8`.
fn binomials() -> [[u32; ZERO_AWARE_MAX_TILES + 1]; MAX_CELLS + 1] {
    let mut binom = [[0u32; ZERO_AWARE_MAX_TILES + 1]; MAX_CELLS + 1];
    for (c, row) in binom.iter_mut().enumerate() {
        let mut v = 1u64;
        for (j, b) in row.iter_mut().enumerate() {
            // C(c, j) = C(c, j-1) · (c-j+1)/j, exact in u64 for c ≤ 32, j ≤ 8.
            if j > 0 {
                v = if j > c {
                    0
                } else {
                    v * (c - j + 1) as u64 / j as u64
                };
            }
            *b = v as u32;
        }
    }
    binom
}

/// `pweight[i][j]` of [`ZeroAwareIndexer`] for `k` tiles with Lehmer digit weights `pmult`.
fn perm_weights(
    pmult: &[u32; ZERO_AWARE_MAX_TILES],
    k: usize,
) -> [[i32; ZERO_AWARE_MAX_TILES]; ZERO_AWARE_MAX_TILES] {
    let mut pweight = [[0i32; ZERO_AWARE_MAX_TILES]; ZERO_AWARE_MAX_TILES];
    for (i, row) in pweight.iter_mut().enumerate().take(k) {
        for (j, w) in row.iter_mut().enumerate().take(k) {
            *w = match j.cmp(&i) {
                std::cmp::Ordering::Less => -(pmult[j] as i32),
                std::cmp::Ordering::Equal => 0,
                std::cmp::Ordering::Greater => pmult[i] as i32,
            };
        }
    }
    pweight
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zero_aware::mask_of;

    #[test]
    fn every_index_round_trips_on_small_boards() {
        for (w, h, k) in [
            (3, 3, 1),
            (3, 3, 2),
            (3, 3, 3),
            (4, 2, 3),
            (4, 3, 3),
            (3, 3, 8),
        ] {
            let ix = ZeroAwareIndexer::new(w, h, k).unwrap();
            let n = w * h;
            let mut seen = vec![false; ix.size() as usize];
            let mut cells = [0u8; 8];
            for (i, seen) in seen.iter_mut().enumerate() {
                let region = ix.unrank(i, &mut cells);
                assert_ne!(region, 0);
                let set = cells[..k].iter().fold(0u32, |m, &c| m | (1 << c));
                assert_eq!(set.count_ones() as usize, k, "distinct cells");
                assert_eq!(region & set, 0);
                assert!(region < 1 << n);
                let mut r = region;
                while r != 0 {
                    let b = r.trailing_zeros() as u8;
                    r &= r - 1;
                    assert_eq!(ix.rank(&cells[..k], b), i, "{w}x{h} k={k}");
                }
                assert!(!*seen);
                *seen = true;
            }
            // Every pattern with every blank cell maps to some index.
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn sizes() {
        // One tile: every cell set has one region unless the tile cuts a corner off (never on
        // boards at least 2 wide and high with one tile) -> n · 1 · 1.
        assert_eq!(ZeroAwareIndexer::new(3, 3, 1).unwrap().size(), 9);
        // 3×3 with the 8 tiles: one free cell, one region: 9!/1.
        assert_eq!(ZeroAwareIndexer::new(3, 3, 8).unwrap().size(), 362_880);
        let ix = ZeroAwareIndexer::new(5, 5, 6).unwrap();
        assert_eq!(ix.cell_sets(), 177_100);
        // More entries than the plain 127,512,000, less than twice as many.
        assert!(ix.size() > 127_512_000 && ix.size() < 2 * 127_512_000);
        assert!(ZeroAwareIndexer::new(3, 3, 9).is_err());
        assert!(ZeroAwareIndexer::new(3, 3, 0).is_err());
        assert!(ZeroAwareIndexer::new(6, 6, 6).is_err());
    }

    #[test]
    fn rank_array_equals_rank() {
        let ix = ZeroAwareIndexer::new(5, 5, 6).unwrap();
        let mut cells = [0u8; 6];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = (x % ix.size()) as usize;
            let region = ix.unrank(i, &mut cells);
            let blank = region.trailing_zeros() as u8;
            assert_eq!(ix.rank_array(&cells, blank), i);
            assert_eq!(ix.rank(&cells, blank), i);
        }
    }

    /// Every state of every small space, every tile of the group moved to every free cell (not
    /// only neighbours): the incremental parts equal the parts of the moved state from scratch.
    #[test]
    fn reparts_equals_parts_of_the_moved_state_exhaustively() {
        for (w, h, k) in [
            (3, 3, 1),
            (3, 3, 3),
            (4, 2, 3),
            (4, 3, 4),
            (3, 4, 2),
            (3, 3, 7),
        ] {
            let ix = ZeroAwareIndexer::new(w, h, k).unwrap();
            let n = w * h;
            let mut cells = [0u8; 8];
            let mut checked = 0u64;
            for i in 0..ix.size() as usize {
                ix.unrank(i, &mut cells);
                let cells = &cells[..k];
                let mask = mask_of(cells);
                let before = ix.parts(cells);
                let slot_at = |c: u8| cells.iter().position(|&d| d == c).unwrap();
                for tile in 0..k {
                    for to in (0..n as u8).filter(|&c| mask & (1 << c) == 0) {
                        let mut moved = [0u8; 8];
                        moved[..k].copy_from_slice(cells);
                        moved[tile] = to;
                        let after = ix.reparts(before, mask, tile, cells[tile], to, slot_at);
                        assert_eq!(
                            after,
                            ix.parts(&moved[..k]),
                            "{w}x{h} {cells:?} {tile}->{to}"
                        );
                        checked += 1;
                    }
                }
            }
            assert!(checked > 0);
        }
    }

    /// The 24-puzzle's 6-tile groups: random states, every tile to every free cell.
    #[test]
    fn reparts_on_the_24_puzzle() {
        let ix = ZeroAwareIndexer::new(5, 5, 6).unwrap();
        let mut cells = [0u8; 6];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ix.unrank((x % ix.size()) as usize, &mut cells);
            let mask = mask_of(&cells);
            let before = ix.parts_array(&cells);
            assert_eq!(before, ix.parts(&cells));
            let slot_at = |c: u8| cells.iter().position(|&d| d == c).unwrap();
            for tile in 0..6 {
                for to in (0..25u8).filter(|&c| mask & (1 << c) == 0) {
                    let mut moved = cells;
                    moved[tile] = to;
                    let after = ix.reparts(before, mask, tile, cells[tile], to, slot_at);
                    assert_eq!(after, ix.parts_array(&moved));
                }
            }
        }
    }
}
