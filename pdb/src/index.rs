//! Perfect ranking of partial permutations: the index of a pattern (the cells of a group's `k`
//! tiles on a board of `n` cells) in `0..n!/(n-k)!`.

use crate::PdbError;

/// Largest number of cells of a board whose pattern databases minimise over the blank's region
/// ([`crate::PatternDb`], [`crate::build_table`]: their builder keeps cell sets in `u32` masks).
/// Larger boards, up to [`MAX_INDEX_CELLS`], get tile-only tables ([`crate::TileOnlyDb`]).
pub const MAX_CELLS: usize = 32;

/// Largest number of cells an [`Indexer`] ranks (cell sets are `u64` masks): 8×8.
pub const MAX_INDEX_CELLS: usize = 64;

/// Largest table this crate builds or loads, in entries (4 Gi; the 15-puzzle's 8-tile table has
/// 518,918,400).
pub const MAX_ENTRIES: u64 = 1 << 32;

/// The lexicographic rank of `k` distinct cells out of `n` (a partial permutation).
///
/// `rank(p) = Σᵢ dᵢ · (n-1-i)!/(n-k)!`, where `dᵢ` is the number of cells below `p[i]` not used
/// by `p[0..i]` (the mixed-radix "Lehmer code" of a k-permutation; see Korf & Schultze,
/// "Large-scale parallel breadth-first search", AAAI 2005, for its use in pattern databases).
/// Ranking is O(k) with one popcount per tile; unranking is O(k · n).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Indexer {
    n: usize,
    k: usize,
    /// `mult[i] = (n-1-i)!/(n-k)!`.
    mult: [u64; MAX_INDEX_CELLS],
    /// For patterns of at most [`RERANK_TILES`] tiles, `weight[i][j]`: what a tile `j` lying
    /// strictly between the old and the new cell of tile `i` adds to the rank's change, in
    /// units of the move's direction: `-mult[i]` for `j < i`, `mult[j]` for `j > i`, 0 for
    /// `j = i` (see [`Indexer::rerank`]).
    weight: [[i64; RERANK_TILES]; RERANK_TILES],
    size: u64,
}

/// Largest pattern (in tiles) that [`Indexer::rerank`] updates incrementally.
pub const RERANK_TILES: usize = 8;

impl Indexer {
    /// The ranking of `k` tiles on `n` cells.
    ///
    /// # Errors
    /// [`PdbError::TableTooLarge`] if `n > 64` ([`MAX_INDEX_CELLS`]), `k == 0`, `k >= n` or
    /// `n!/(n-k)!` exceeds [`MAX_ENTRIES`].
    pub fn new(n: usize, k: usize) -> Result<Indexer, PdbError> {
        let too_large = || PdbError::TableTooLarge {
            cells: n,
            tiles: k,
            max_entries: MAX_ENTRIES,
        };
        if n > MAX_INDEX_CELLS || k == 0 || k >= n {
            return Err(too_large());
        }
        let mut mult = [0u64; MAX_INDEX_CELLS];
        let mut m = 1u64;
        for i in (0..k).rev() {
            mult[i] = m;
            // (n-1-i)!/(n-k)! → (n-i)!/(n-k)!.
            m = m.checked_mul((n - i) as u64).ok_or_else(too_large)?;
        }
        if m > MAX_ENTRIES {
            return Err(too_large());
        }
        let mut weight = [[0i64; RERANK_TILES]; RERANK_TILES];
        if k <= RERANK_TILES {
            for (i, row) in weight.iter_mut().enumerate().take(k) {
                for (j, w) in row.iter_mut().enumerate().take(k) {
                    *w = match j.cmp(&i) {
                        std::cmp::Ordering::Less => -(mult[i] as i64),
                        std::cmp::Ordering::Equal => 0,
                        std::cmp::Ordering::Greater => mult[j] as i64,
                    };
                }
            }
        }
        Ok(Indexer {
            n,
            k,
            mult,
            weight,
            size: m,
        })
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.n
    }

    /// Number of tiles in the pattern.
    pub fn tiles(&self) -> usize {
        self.k
    }

    /// Number of ranks, `n!/(n-k)!`.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The rank of the pattern whose `i`-th tile is on cell `cells[i]`. O(k).
    ///
    /// # Panics
    /// Debug-asserts that `cells` has `k` distinct cells below `n`.
    #[inline]
    pub fn rank(&self, cells: &[u8]) -> usize {
        debug_assert_eq!(cells.len(), self.k);
        let mut used = 0u64;
        let mut r = 0u64;
        for (i, &p) in cells.iter().enumerate() {
            debug_assert!((p as usize) < self.n && used & (1 << p) == 0);
            let below = (used & ((1u64 << p) - 1)).count_ones();
            r += u64::from(u32::from(p) - below) * self.mult[i];
            used |= 1 << p;
        }
        r as usize
    }

    /// [`Indexer::rank`] for a pattern of a compile-time number of tiles `K` (= `k`), by
    /// comparisons instead of popcounts: the digit of tile `i` is `cells[i]` minus the number of
    /// earlier tiles on lower cells. O(K²) comparisons, fully unrolled; on the baseline x86-64
    /// target, which has no popcount instruction (each popcount is emulated in about 15
    /// instructions), a 6-tile table lookup drops from 255 to 114 instructions
    /// (BENCHMARKS.md, "24-puzzle").
    ///
    /// # Panics
    /// Debug-asserts that `K == k` and that the cells are distinct and below `n`.
    #[inline]
    pub fn rank_array<const K: usize>(&self, cells: &[u8; K]) -> usize {
        debug_assert_eq!(K, self.k);
        debug_assert!(
            cells
                .iter()
                .enumerate()
                .all(|(i, &p)| (p as usize) < self.n && !cells[..i].contains(&p)),
            "{cells:?} is not a pattern of distinct cells below {}",
            self.n
        );
        let mut r = 0u64;
        for i in 0..K {
            let p = cells[i];
            let mut below = 0u32;
            for &q in &cells[..i] {
                below += u32::from(q < p);
            }
            r += u64::from(u32::from(p) - below) * self.mult[i];
        }
        r as usize
    }

    /// [`Indexer::rank`] of the pattern whose `i`-th tile is on cell `cell(i)`, by the unrolled
    /// [`Indexer::rank_array`] for patterns of 4 to 8 tiles. O(k²) comparisons (O(k) above 8
    /// tiles).
    ///
    /// # Panics
    /// Debug-asserts as [`Indexer::rank`].
    #[inline]
    pub fn rank_by(&self, cell: impl Fn(usize) -> u8) -> usize {
        fn fixed<const K: usize>(ix: &Indexer, cell: impl Fn(usize) -> u8) -> usize {
            ix.rank_array(&std::array::from_fn::<u8, K, _>(cell))
        }
        match self.k {
            4 => fixed::<4>(self, cell),
            5 => fixed::<5>(self, cell),
            6 => fixed::<6>(self, cell),
            7 => fixed::<7>(self, cell),
            8 => fixed::<8>(self, cell),
            k => {
                let mut cells = [0u8; MAX_INDEX_CELLS];
                for (i, c) in cells.iter_mut().enumerate().take(k) {
                    *c = cell(i);
                }
                self.rank(&cells[..k])
            }
        }
    }

    /// The rank after tile `i` of a pattern of at most [`RERANK_TILES`] tiles moves from cell
    /// `from` to the free cell `to`, given the rank before the move, `rank`, and `slot_at(c)`:
    /// which tile of the pattern (its index `j`) is on cell `c`, if any. Only the cells strictly
    /// between `from` and `to` are asked for (none for neighbouring cells, `|to - from| - 1` in
    /// all).
    ///
    /// Incremental: with `s` the sign of `to - from`, tile `i`'s digit changes by
    /// `s · (|to - from| - #{j < i strictly between})` and each later tile `j` strictly between
    /// gains `s` (tile `i` no longer, or now, lies below it), so the rank changes by
    /// `s · (mult[i] · |to - from| + Σ_{j between} weight[i][j])` with `weight[i][j]` =
    /// `-mult[i]` for `j < i` and `mult[j]` for `j > i`. A sliding move to a horizontal
    /// neighbour changes the rank by exactly `±mult[i]`; a vertical one on a board `W` cells
    /// wide asks about the `W - 1` cells in between. Equals [`Indexer::rank`] of the moved
    /// pattern (tested exhaustively on small spaces).
    ///
    /// # Panics
    /// If `i` or a slot returned is at least [`RERANK_TILES`]; debug-asserts that `k` is at
    /// most [`RERANK_TILES`].
    #[inline]
    pub fn rerank(
        &self,
        rank: usize,
        i: usize,
        from: u8,
        to: u8,
        slot_at: impl Fn(u8) -> Option<usize>,
    ) -> usize {
        debug_assert!(self.k <= RERANK_TILES);
        let (lo, hi) = if from < to { (from, to) } else { (to, from) };
        let weights = &self.weight[i];
        let mut between = 0i64;
        for c in lo + 1..hi {
            if let Some(j) = slot_at(c) {
                between += weights[j];
            }
        }
        let step = (self.mult[i] * u64::from(hi - lo)) as i64 + between;
        if to > from {
            (rank as i64 + step) as usize
        } else {
            (rank as i64 - step) as usize
        }
    }

    /// The rank of `cells` with tile `moved` on cell `to` instead. O(k).
    #[inline]
    pub fn rank_moved(&self, cells: &[u8], moved: usize, to: u8) -> usize {
        let mut used = 0u64;
        let mut r = 0u64;
        for (i, &p) in cells.iter().enumerate() {
            let p = if i == moved { to } else { p };
            let below = (used & ((1u64 << p) - 1)).count_ones();
            r += u64::from(u32::from(p) - below) * self.mult[i];
            used |= 1 << p;
        }
        r as usize
    }

    /// Writes the pattern of rank `rank` into `cells[..k]` (the inverse of [`Indexer::rank`]).
    /// O(k · n).
    ///
    /// # Panics
    /// If `rank >= size()` (debug builds) or `cells` is shorter than `k`.
    pub fn unrank(&self, rank: usize, cells: &mut [u8]) {
        debug_assert!((rank as u64) < self.size);
        let mut r = rank as u64;
        let mut free: u64 = if self.n == 64 {
            u64::MAX
        } else {
            (1 << self.n) - 1
        };
        for (i, &mult) in self.mult.iter().enumerate().take(self.k) {
            let d = r / mult;
            r %= mult;
            // The d-th (0-based) free cell.
            let mut f = free;
            for _ in 0..d {
                f &= f - 1;
            }
            let p = f.trailing_zeros();
            cells[i] = p as u8;
            free &= !(1 << p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(Indexer::new(16, 8).unwrap().size(), 518_918_400);
        assert_eq!(Indexer::new(16, 7).unwrap().size(), 57_657_600);
        assert_eq!(Indexer::new(16, 6).unwrap().size(), 5_765_760);
        assert_eq!(Indexer::new(9, 4).unwrap().size(), 3024);
        assert!(Indexer::new(16, 16).is_err());
        assert!(Indexer::new(16, 0).is_err());
        assert!(Indexer::new(65, 2).is_err());
        assert!(Indexer::new(32, 12).is_err());
        assert_eq!(Indexer::new(49, 5).unwrap().size(), 228_826_080);
        assert_eq!(Indexer::new(64, 4).unwrap().size(), 15_249_024);
        assert!(Indexer::new(49, 6).is_err());
    }

    #[test]
    fn every_rank_round_trips_on_a_small_space() {
        let ix = Indexer::new(9, 4).unwrap();
        let mut seen = vec![false; ix.size() as usize];
        let mut cells = [0u8; 4];
        for (r, seen) in seen.iter_mut().enumerate() {
            ix.unrank(r, &mut cells);
            assert_eq!(ix.rank(&cells), r);
            assert!(!*seen);
            *seen = true;
        }
        // Lexicographic: the first and last patterns.
        ix.unrank(0, &mut cells);
        assert_eq!(cells, [0, 1, 2, 3]);
        ix.unrank(3023, &mut cells);
        assert_eq!(cells, [8, 7, 6, 5]);
    }

    /// All k-permutations of `0..n` in lexicographic order (the test's reference).
    fn rec(n: usize, k: usize, at: usize, p: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if at == k {
            out.push(p.clone());
            return;
        }
        for c in 0..n as u8 {
            if !p[..at].contains(&c) {
                p[at] = c;
                rec(n, k, at + 1, p, out);
            }
        }
    }

    /// Every rank on spaces of more than 32 cells (cell sets past a `u32`): round trips,
    /// lexicographic order against an independent enumeration, and `rank_moved`.
    #[test]
    fn every_rank_round_trips_above_32_cells() {
        for (n, k) in [(33, 2), (49, 2), (64, 2), (40, 3)] {
            let ix = Indexer::new(n, k).unwrap();
            assert_eq!(
                ix.size(),
                (n - k + 1..=n).map(|x| x as u64).product::<u64>()
            );
            // The reference: k-permutations of 0..n in lexicographic order, by nested counting.
            let mut expected = Vec::new();
            let mut p = vec![0u8; k];
            rec(n, k, 0, &mut p, &mut expected);
            assert_eq!(expected.len() as u64, ix.size());
            let mut cells = vec![0u8; k];
            for (r, want) in expected.iter().enumerate() {
                ix.unrank(r, &mut cells);
                assert_eq!(&cells, want, "rank {r} of {k} on {n}");
                assert_eq!(ix.rank(want), r);
                // The last tile moved to every free cell.
                for to in 0..n as u8 {
                    if !want.contains(&to) {
                        let mut moved = want.clone();
                        moved[k - 1] = to;
                        assert_eq!(ix.rank_moved(want, k - 1, to), ix.rank(&moved));
                    }
                }
            }
        }
    }

    #[test]
    fn rank_array_and_rerank_on_49_and_64_cells() {
        fn sample<const K: usize>(n: usize, step: usize) {
            let ix = Indexer::new(n, K).unwrap();
            let mut cells = [0u8; K];
            for r in (0..ix.size() as usize)
                .step_by(step)
                .chain([ix.size() as usize - 1])
            {
                ix.unrank(r, &mut cells);
                assert_eq!(ix.rank_array(&cells), r);
                assert_eq!(ix.rank(&cells), r);
                rerank_every_move(&ix, r, &cells);
            }
        }
        sample::<4>(49, 9973);
        sample::<5>(49, 999_983);
        sample::<4>(64, 99_991);
    }

    #[test]
    fn rank_array_equals_rank() {
        let ix = Indexer::new(25, 6).unwrap();
        let mut cells = [0u8; 6];
        for r in (0..ix.size() as usize)
            .step_by(9973)
            .chain([ix.size() as usize - 1])
        {
            ix.unrank(r, &mut cells);
            assert_eq!(ix.rank_array(&cells), r);
        }
        let ix = Indexer::new(9, 4).unwrap();
        for r in 0..ix.size() as usize {
            let mut c = [0u8; 4];
            ix.unrank(r, &mut c);
            assert_eq!(ix.rank_array(&c), ix.rank(&c));
        }
    }

    /// [`Indexer::rerank`] of the pattern `cells` of rank `r` equals [`Indexer::rank`] of the
    /// moved pattern, for every tile moved to every free cell.
    fn rerank_every_move<const K: usize>(ix: &Indexer, r: usize, cells: &[u8; K]) {
        for i in 0..K {
            for to in (0..ix.cells() as u8).filter(|to| !cells.contains(to)) {
                let mut moved = *cells;
                moved[i] = to;
                let slot_at = |c: u8| cells.iter().position(|&x| x == c);
                assert_eq!(ix.rerank(r, i, cells[i], to, slot_at), ix.rank(&moved));
            }
        }
    }

    #[test]
    fn rerank_equals_rank_of_the_moved_pattern_exhaustively() {
        fn all<const K: usize>(n: usize) {
            let ix = Indexer::new(n, K).unwrap();
            let mut cells = [0u8; K];
            for r in 0..ix.size() as usize {
                ix.unrank(r, &mut cells);
                rerank_every_move(&ix, r, &cells);
            }
        }
        all::<1>(4);
        all::<2>(6);
        all::<3>(9);
        all::<4>(9);
        all::<5>(8);
        all::<6>(8);
        all::<7>(9);
    }

    #[test]
    fn rerank_on_large_patterns() {
        // The 24-puzzle's 6-tile and the 15-puzzle's 8-tile patterns, sampled.
        fn sample<const K: usize>(n: usize) {
            let ix = Indexer::new(n, K).unwrap();
            let mut cells = [0u8; K];
            for r in (0..ix.size() as usize).step_by(99_991) {
                ix.unrank(r, &mut cells);
                rerank_every_move(&ix, r, &cells);
            }
        }
        sample::<6>(25);
        sample::<8>(16);
    }

    #[test]
    fn rank_moved_equals_rank_of_the_moved_pattern() {
        let ix = Indexer::new(16, 5).unwrap();
        let cells = [3u8, 9, 0, 15, 7];
        let mut moved = cells;
        moved[2] = 4;
        assert_eq!(ix.rank_moved(&cells, 2, 4), ix.rank(&moved));
    }
}
