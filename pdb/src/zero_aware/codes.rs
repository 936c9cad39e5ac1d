//! Region codes: a zero-aware table's values indexed like a plain table, one byte a pattern,
//! for search kernels (`npuzzle-idastar`'s additive-table kernel).
//!
//! A zero-aware table differs from the plain table of the same group only where the group's
//! tiles cut the free cells into several regions and the blank's region matters. The coded
//! table keeps, per pattern (plain [`crate::Indexer`] rank), the plain value — the minimum over
//! the regions — in bits 0–5, and in bits 6–7 how the blank's region changes it
//! ([`RegionCode`]). The **majority region** of a pattern is the region holding more than half
//! of the free cells, if one does. A second table of one byte per pattern, read for code 3
//! only ([`RegionCodes::pockets`]), names one region by its lowest cell and says whether it is
//! 2 above every other region, 2 below every other, or 4 above every other
//! (`npuzzle_core::CodedTable`); the remaining patterns are read from the zero-aware table.
//! For the 24-puzzle's 6-6-6-6 partition 16–17 % of the patterns carry a correction, 86–87 %
//! of those are codes 1 and 2, and 2.2 % of all patterns are code 3: 82–84 % of those of the
//! first form, 9–11 % of the second, about 1.5 % of the third, about 5 % read from the
//! zero-aware table.
//!
//! A search that knows the group's cells and the blank's cell then gets the zero-aware value
//! from one read of a plain-sized table (and, for a corrected pattern, a flood fill of the
//! blank's region among the free cells, in registers), instead of ranking the cell set and
//! reading its 32-byte record first: `BENCHMARKS.md`, "Zero-aware values from plain-indexed
//! tables".

use std::sync::atomic::{AtomicU8, Ordering};

use rayon::prelude::*;

use npuzzle_core::CodedTable;

use super::ZeroAwareIndexer;
use crate::{Indexer, PdbError};

/// The version of [`region_codes`]'s output, part of the source digest that a cached
/// region-coded file records (`crate::Header::source`): a change to the coding bumps it, so
/// that files derived by an older version are rejected and derived again, never used.
pub(crate) const REGION_CODES_VERSION: u32 = 1;

/// What bits 6–7 of a coded entry say about the blank's region (see [`region_codes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionCode {
    /// 0: every region has the plain value.
    Same = 0,
    /// 1: the majority region has the plain value, every other region the plain value + 2.
    PocketsPlusTwo = 1,
    /// 2: the majority region has the plain value + 2, every other region the plain value.
    MajorityPlusTwo = 2,
    /// 3: anything else: the pocket table's byte (`npuzzle_core::CodedTable`: one region 2
    /// above, 2 below or 4 above every other), or the zero-aware table.
    Lookup = 3,
}

impl RegionCode {
    /// The code of a coded entry.
    pub fn of(entry: u8) -> RegionCode {
        match entry >> 6 {
            0 => RegionCode::Same,
            1 => RegionCode::PocketsPlusTwo,
            2 => RegionCode::MajorityPlusTwo,
            _ => RegionCode::Lookup,
        }
    }
}

/// A zero-aware table's region-coded form: `entries` (one byte per plain pattern, `n!/(n−k)!`
/// of them, [`Indexer`] ranks: the value in bits 0–5, the [`RegionCode`] in bits 6–7) and
/// `pockets` (same length, read for [`RegionCode::Lookup`] only: the lowest cell of one region
/// and in bits 6–7 its form, see `npuzzle_core::CodedTable`, or [`NO_POCKET`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionCodes {
    /// Coded values.
    pub entries: Vec<u8>,
    /// Code 3's region.
    pub pockets: Vec<u8>,
}

/// The region-coded form of the zero-aware table `za` ranked by `ix` ([`RegionCodes`]), or
/// `None` if some plain value is 64 or more (it does not fit in 6 bits).
///
/// The table differs from the plain table of the same group only where the group's tiles cut
/// the free cells into several regions. Each entry keeps the plain value (the minimum over the
/// regions) in bits 0–5 and a [`RegionCode`] in bits 6–7, relative to the **majority region**
/// (the region of more than half of the free cells, if one is); for code 3 the pocket table
/// names one region by its lowest cell, 2 above, 2 below or 4 above all others, or the
/// zero-aware table is read. O(entries of `za`), in
/// parallel over the cell sets (5×5, 6 tiles: 181 M entries read, 2 × 127.5 M written).
///
/// # Errors
/// [`PdbError::TableTooLarge`] as [`Indexer::new`]; [`PdbError::BadGroup`] if `za` is not
/// [`ZeroAwareIndexer::size`] entries long.
pub fn region_codes(ix: &ZeroAwareIndexer, za: &[u8]) -> Result<Option<RegionCodes>, PdbError> {
    let (n, k) = (ix.cells(), ix.tiles());
    if za.len() as u64 != ix.size() {
        return Err(PdbError::BadGroup(format!(
            "a zero-aware table of {} entries, expected {}",
            za.len(),
            ix.size()
        )));
    }
    let plain = Indexer::new(n, k)?;
    let fact = ix.fact as usize;
    let nfree = (n - k) as u32;
    let out: Vec<AtomicU8> = (0..plain.size()).map(|_| AtomicU8::new(0)).collect();
    let pockets: Vec<AtomicU8> = (0..plain.size())
        .map(|_| AtomicU8::new(NO_POCKET))
        .collect();
    let fits = (0..ix.cell_sets())
        .into_par_iter()
        .with_min_len(64)
        .all(|comb| {
            let mask = ix.masks[comb];
            let first = ix.base[comb] as usize;
            let regions = ix.base[comb + 1] as usize - first;
            let mut lowest = [0u8; 16];
            let mut majority = None;
            for (r, low) in lowest.iter_mut().enumerate().take(regions) {
                let m = ix.region_mask(comb, r as u8);
                *low = m.trailing_zeros() as u8;
                if 2 * m.count_ones() > nfree {
                    majority = Some(r);
                }
            }
            // The set's cells ascending: permutation rank 0; `next_permutation` then walks the
            // ranks in order (the rank is the lexicographic rank of the tiles' cells).
            let mut cells = [0u8; super::ZERO_AWARE_MAX_TILES];
            let mut m = mask;
            for c in cells.iter_mut().take(k) {
                *c = m.trailing_zeros() as u8;
                m &= m - 1;
            }
            let mut values = [0u8; 16];
            for perm in 0..fact {
                let mut min = u8::MAX;
                for (r, v) in values.iter_mut().enumerate().take(regions) {
                    *v = za[(first + r) * fact + perm];
                    min = min.min(*v);
                }
                if min >= 64 {
                    return false;
                }
                let code = code_of(&values[..regions], min, majority);
                let rank = plain.rank_by(|i| cells[i]);
                out[rank].store(min | (code as u8) << 6, Ordering::Relaxed);
                if code == RegionCode::Lookup {
                    pockets[rank].store(
                        pocket_of(&values[..regions], min, majority, &lowest),
                        Ordering::Relaxed,
                    );
                }
                next_permutation(&mut cells[..k]);
            }
            true
        });
    Ok(fits.then(|| RegionCodes {
        entries: out.into_iter().map(AtomicU8::into_inner).collect(),
        pockets: pockets.into_iter().map(AtomicU8::into_inner).collect(),
    }))
}

/// [`RegionCodes::pockets`] of a pattern that is of none of its forms.
pub const NO_POCKET: u8 = CodedTable::NO_POCKET;

/// The pocket byte of a code-3 pattern whose regions have `values` (minimum `min`), majority
/// region `majority` and lowest cells `lowest` (see [`npuzzle_core::CodedTable`]): one region
/// 2 above every other (form 0), one region at the minimum and every other 2 above it (form 1),
/// or one region 4 above every other (form 2), the named region not being the majority one;
/// else [`NO_POCKET`].
fn pocket_of(values: &[u8], min: u8, majority: Option<usize>, lowest: &[u8]) -> u8 {
    let one = |pred: &dyn Fn(u8) -> bool| {
        let mut hits = (0..values.len()).filter(|&r| pred(values[r]));
        match (hits.next(), hits.next()) {
            (Some(r), None) if Some(r) != majority => Some(r),
            _ => None,
        }
    };
    let above = |d: u8| values.iter().all(|&v| v == min || v == min + d);
    if above(2)
        && let Some(r) = one(&|v| v != min)
    {
        lowest[r]
    } else if above(2)
        && let Some(r) = one(&|v| v == min)
    {
        1 << 6 | lowest[r]
    } else if above(4)
        && let Some(r) = one(&|v| v != min)
    {
        2 << 6 | lowest[r]
    } else {
        NO_POCKET
    }
}

/// Rearranges `a` into the next permutation in lexicographic order (the first one after the
/// last). Amortised O(1).
fn next_permutation(a: &mut [u8]) {
    let Some(i) = a.windows(2).rposition(|w| w[0] < w[1]) else {
        a.reverse();
        return;
    };
    let j = a.iter().rposition(|&x| x > a[i]).expect("a[i + 1] > a[i]");
    a.swap(i, j);
    a[i + 1..].reverse();
}

/// The code of a pattern whose regions have `values` (minimum `min`) and majority region
/// `majority`.
fn code_of(values: &[u8], min: u8, majority: Option<usize>) -> RegionCode {
    if values.iter().all(|&v| v == min) {
        return RegionCode::Same;
    }
    let Some(m) = majority else {
        return RegionCode::Lookup;
    };
    let others = |d: u8| {
        values
            .iter()
            .enumerate()
            .all(|(r, &v)| r == m || v == min + d)
    };
    if values[m] == min && others(2) {
        RegionCode::PocketsPlusTwo
    } else if values[m] == min + 2 && others(0) {
        RegionCode::MajorityPlusTwo
    } else {
        RegionCode::Lookup
    }
}

#[cfg(test)]
mod tests {
    use npuzzle_core::{Goal, Shape};

    use super::*;
    use crate::build_zero_aware_table;

    /// Every zero-aware state (cell set, region, permutation) of a few groups on small boards:
    /// its coded entry (and pocket), decoded with the blank anywhere in that region, equals the
    /// zero-aware value, and its value bits are the minimum over the regions (the plain
    /// table's value).
    #[test]
    fn decoding_gives_every_zero_aware_value() {
        let s33 = Shape::square(3).unwrap();
        let s34 = Shape::new(3, 4).unwrap();
        let cases: [(Goal, &[u8]); 4] = [
            (Goal::blank_last(s33), &[1, 2, 3, 4]),
            (Goal::blank_first(s33), &[5, 6, 7, 8]),
            (Goal::blank_first(s34), &[1, 2, 3, 4, 5]),
            (Goal::blank_last(s34), &[6, 7, 8, 9, 10, 11]),
        ];
        let mut all_forms = [0usize; 3];
        for (goal, tiles) in cases {
            let shape = goal.shape();
            let (n, k) = (shape.cells(), tiles.len());
            let ix = ZeroAwareIndexer::new(shape.width(), shape.height(), k).unwrap();
            let za = build_zero_aware_table(&goal, tiles, &|_| {}).unwrap();
            let codes = region_codes(&ix, &za).unwrap().expect("small values");
            let coded = &codes.entries;
            let plain = Indexer::new(n, k).unwrap();
            let fact = ix.fact as usize;
            let mut counts = [0usize; 4];
            let mut forms = [0usize; 4];
            let mut cells = [0u8; 8];
            for comb in 0..ix.cell_sets() {
                let first = ix.base[comb] as usize;
                let regions = ix.base[comb + 1] as usize - first;
                for perm in 0..fact {
                    ix.unrank_perm(ix.masks[comb], perm as u32, &mut cells);
                    let rank = plain.rank(&cells[..k]);
                    let e = coded[rank];
                    let pocket = codes.pockets[rank];
                    let min = (0..regions)
                        .map(|r| za[(first + r) * fact + perm])
                        .min()
                        .unwrap();
                    assert_eq!(e & 63, min);
                    counts[usize::from(e >> 6)] += 1;
                    for r in 0..regions {
                        let in_majority =
                            2 * ix.region_mask(comb, r as u8).count_ones() > (n - k) as u32;
                        let value = za[(first + r) * fact + perm];
                        let decoded = match RegionCode::of(e) {
                            RegionCode::Same => min,
                            RegionCode::PocketsPlusTwo => min + if in_majority { 0 } else { 2 },
                            RegionCode::MajorityPlusTwo => min + if in_majority { 2 } else { 0 },
                            RegionCode::Lookup if pocket != NO_POCKET => {
                                forms[usize::from(pocket >> 6)] += 1;
                                let low = ix.region_mask(comb, r as u8).trailing_zeros() as u8;
                                let named = low == pocket & 63;
                                // The kernel's flood fill stops early in the majority region,
                                // so a pocket byte never names it.
                                assert!(!(named && in_majority), "{tiles:?} set {comb}");
                                min + CodedTable::pocket_correction(pocket, named) as u8
                            }
                            RegionCode::Lookup => value,
                        };

                        assert_eq!(
                            decoded, value,
                            "{tiles:?} set {comb} region {r} perm {perm}"
                        );
                    }
                }
            }
            // Codes 1 and 2 occur (on these small boards code 3 is common: few free cells).
            assert!(counts[1] > 0 && counts[2] > 0, "{tiles:?}: {counts:?}");
            assert!(counts[0] > 0, "{tiles:?}: {counts:?}");
            eprintln!("{tiles:?}: codes {counts:?}, pocket forms {forms:?}");
            all_forms = [0, 1, 2].map(|f| all_forms[f] + forms[f]);
        }
        // Every pocket form is decoded somewhere.
        assert!(all_forms.iter().all(|&c| c > 0), "{all_forms:?}");
    }

    #[test]
    fn next_permutation_walks_the_lexicographic_order() {
        let mut a = [1u8, 4, 7];
        let mut seen = vec![a];
        for _ in 0..5 {
            next_permutation(&mut a);
            seen.push(a);
        }
        let mut sorted = seen.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(
            seen, sorted,
            "six distinct permutations in increasing order"
        );
        next_permutation(&mut a);
        assert_eq!(a, [1, 4, 7], "the last one wraps to the first");
    }
}
