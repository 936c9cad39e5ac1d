//! Pattern databases in the **multi-tile metric** (MTM: one move slides 1 to k tiles of the
//! blank's row or column one cell each, at cost 1) for boards of at most 16 cells.
//!
//! ## Why Korf & Felner's additivity does not carry over
//! An additive pattern database counts, per group, the moves of that group's tiles; since an
//! STM move moves one tile, the sum over disjoint groups never exceeds the true distance. One
//! MTM move slides up to W−1 tiles, possibly of several groups at once, so such a sum counts it
//! several times and may overestimate (`R3` on a row holding tiles of three groups costs 1, the
//! sum 3). These tables are instead **blank-aware abstractions maxed, never summed**.
//!
//! ## The abstraction
//! A group is a set of tiles. The group's tiles of its goal row **farthest from the goal
//! blank's row** (ties: the upper one) are told apart one by one; its other tiles only **by
//! their goal row** (tiles of one goal row are indistinguishable); every tile outside the group
//! is a "don't care", and the blank is tracked exactly. An abstract state is therefore the class
//! of each cell (blank, each told-apart tile, goal row r, …, don't care), and an abstract move
//! is an MTM move: the blank
//! slides 1..k cells along its row or column, each cell it passes shifting one cell back, at
//! cost 1. A table entry is the abstract state's distance to the abstract goal, found by a
//! breadth-first search over every abstract state ([`build_mtm_table`]).
//!
//! **Admissible and consistent in MTM**: the map from boards to abstract states sends every
//! MTM move to an MTM move of the abstraction (or to no change) and the goal to the abstract
//! goal, so every real path of length L maps to an abstract path of length at most L: the
//! abstract distance never exceeds the MTM distance, and since abstract neighbours differ in
//! distance by at most 1, neither does a move change the estimate by more than 1. Several
//! groups' values combine by **maximum** (each admissible and consistent, so is the
//! maximum). The **reflected lookup** (crate docs, "Reflected lookup": the board mirrored about
//! the main diagonal, its tiles renamed) is exactly as far from the goal in MTM too (the mirror
//! maps row moves to column moves of the same length), so the maximum with the table's value
//! there is admissible and consistent as well; on the mirrored board the group's tiles are told
//! apart by their goal **column**. In the single-tile metric the tables are admissible and
//! consistent too (an STM move is an MTM move) but weak. The tests check both claims against a
//! breadth-first search in MTM over every state of the 3×3, 4×2 and 2×4 boards with both goals
//! (`npuzzle-idastar`'s `tests/integration/mtm.rs`).
//!
//! ## Size and ranking
//! A group whose classes hold `t₁ … t_r` tiles on a board of N cells has
//! `N! / (1! · t₁! ⋯ t_r! · (N − 1 − Σt)!)` entries (a multinomial coefficient; a told-apart tile
//! is a class of one). The 15-puzzle's default ([`mtm_default_groups`], blank last) is two
//! groups: tiles 1–8 (row 1 one by one, row 2 by row: 16!/(4!·7!) = 172,972,800 entries) and
//! tiles 9–15 (row 3 one by one, row 4 by row: 16!/(3!·8!) = 86,486,400), one byte an entry,
//! 247 MiB in all; the choice against other classes is measured in BENCHMARKS.md, "Multi-tile
//! pattern databases". A state is ranked class by class, each class's cells as a combination
//! (colex) of the cells not taken by the classes before it: a parallel bit extract and a table
//! lookup a class ([`MtmRanking::rank`]), with 260 KB of bit tables built once a process.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use npuzzle_core::{Board, Goal, Heuristic, HeuristicProperties, Move, Shape};

use crate::build::{Stop, layered_in_place, reach};
use crate::set::{IndexKind, Ranking, Sealed, TableBuilder, TableSet};
use crate::{BuildProgress, MAX_CELLS, PdbError, TableKind};

/// The largest board, in cells, that multi-tile tables serve (a class per cell fits a `u64`
/// of 4-bit digits).
pub const MTM_MAX_CELLS: usize = 16;
const _: () = assert!(MTM_MAX_CELLS <= MAX_CELLS);
/// The most entries of a multi-tile table (its ranking refuses more): 1 GiB.
pub const MTM_MAX_ENTRIES: u64 = 1 << 30;
/// Outer digits of a build task: the leading classes' digits are split until there are at
/// least this many tasks (the 15-puzzle's default: 16 × 1,365 tasks of 11,550 entries).
const TASKS: u64 = 1 << 12;
/// Classes of a ranking: the blank, at most 15 goal rows of tiles, and the don't-care class.
const MAX_CLASSES: usize = MTM_MAX_CELLS + 1;

/// `BINOM[n][k]` = C(n, k) for n, k ≤ 16 (0 where k > n).
const BINOM: [[u64; 17]; 17] = {
    let mut t = [[0u64; 17]; 17];
    let mut n = 0;
    while n < 17 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Bit tables of the ranking, computed once per process (260 KB): a class's cells are a
/// 16-bit mask, packed onto the cells no earlier class holds (a parallel bit extract, byte by
/// byte) and ranked as a combination (colex: the mask's place among the masks of as many bits
/// in increasing order).
struct Bits {
    /// `extract[free][x]`: the bits of `x` at the set bits of `free`, packed low.
    extract: Box<[[u8; 256]]>,
    /// `deposit[free][x]`: the low bits of `x` placed at the set bits of `free`.
    deposit: Box<[[u8; 256]]>,
    /// The colex rank of every 16-bit mask among the masks of its number of bits.
    colex: Box<[u16]>,
}

/// The process's [`Bits`].
fn bits() -> &'static Bits {
    static BITS: std::sync::OnceLock<Bits> = std::sync::OnceLock::new();
    BITS.get_or_init(|| {
        let mut extract = vec![[0u8; 256]; 256].into_boxed_slice();
        let mut deposit = vec![[0u8; 256]; 256].into_boxed_slice();
        for free in 0..256usize {
            for x in 0..256usize {
                let (mut packed, mut placed, mut k) = (0u8, 0u8, 0);
                for bit in 0..8 {
                    if free & (1 << bit) != 0 {
                        packed |= u8::from(x & (1 << bit) != 0) << k;
                        placed |= u8::from(x & (1 << k) != 0) << bit;
                        k += 1;
                    }
                }
                extract[free][x] = packed;
                deposit[free][x] = placed;
            }
        }
        let colex = (0..1usize << 16)
            .map(|mask| {
                let (mut rank, mut j) = (0u64, 0);
                for (p, row) in BINOM.iter().enumerate().take(16) {
                    if mask & (1 << p) != 0 {
                        j += 1;
                        rank += row[j];
                    }
                }
                rank as u16
            })
            .collect();
        Bits {
            extract,
            deposit,
            colex,
        }
    })
}

impl Bits {
    /// The bits of `x` at the set bits of `free`, packed low.
    #[inline]
    fn extract(&self, x: u16, free: u16) -> u16 {
        let [fl, fh] = free.to_le_bytes();
        let [xl, xh] = x.to_le_bytes();
        let lo = u16::from(self.extract[usize::from(fl)][usize::from(xl)]);
        let hi = u16::from(self.extract[usize::from(fh)][usize::from(xh)]);
        lo | hi << fl.count_ones()
    }

    /// The low bits of `x` placed at the set bits of `free`.
    #[inline]
    fn deposit(&self, x: u16, free: u16) -> u16 {
        let [fl, fh] = free.to_le_bytes();
        let k = fl.count_ones();
        let lo = self.deposit[usize::from(fl)][usize::from((x & ((1 << k) - 1)) as u8)];
        let hi = self.deposit[usize::from(fh)][usize::from((x >> k) as u8)];
        u16::from_le_bytes([lo, hi])
    }
}

impl std::fmt::Debug for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Bits")
    }
}

/// The `k`-bit mask of colex rank `d` among the masks of `k` bits. O(16).
fn colex_unrank(mut d: u64, k: usize) -> u16 {
    let (mut mask, mut p) = (0u16, 16usize);
    for j in (1..=k).rev() {
        p -= 1;
        while BINOM[p][j] > d {
            p -= 1;
        }
        d -= BINOM[p][j];
        mask |= 1 << p;
    }
    mask
}

/// The next larger mask of as many bits (Gosper's hack); beyond 16 bits once past the last.
#[inline]
fn next_combination(x: u32) -> u32 {
    let low = x & x.wrapping_neg();
    let ripple = x + low;
    (((ripple ^ x) >> 2) / low) | ripple
}

/// The cells of each class of an abstract state, as masks (class 0, the blank, one bit).
pub type ClassMasks = [u16; MAX_CLASSES];

/// The ranking of one multi-tile group (see the module docs): the class of every tile, the
/// number of cells of each class, and the radix of each class's digit.
#[derive(Clone, Debug)]
pub struct MtmRanking {
    /// Cells of the board.
    n: usize,
    /// Classes: 0 the blank; then the group's goal rows told apart by row (top to bottom); then
    /// the tiles of its row told apart one by one; last, don't care.
    classes: usize,
    /// Cells of each class.
    tally: [u8; MAX_CLASSES],
    /// C(free cells, tally) of each class but the last: its digit's radix.
    radix: [u64; MAX_CLASSES],
    /// The class of each tile (tile 0, the blank: class 0).
    class_of: [u8; MTM_MAX_CELLS],
    /// Entries of the table.
    size: u64,
    /// Every cell of the board.
    all: u16,
    bits: &'static Bits,
}

impl MtmRanking {
    /// The ranking of the group `tiles` for `goal`. O(N), and once per process the 260 KB
    /// of bit tables.
    ///
    /// # Errors
    /// [`PdbError::BoardTooLarge`] past [`MTM_MAX_CELLS`] cells; [`PdbError::BadGroup`] for a
    /// tile 0, off the board or repeated; [`PdbError::TableTooLarge`] past
    /// [`MTM_MAX_ENTRIES`].
    pub fn new(goal: &Goal, tiles: &[u8]) -> Result<MtmRanking, PdbError> {
        let shape = goal.shape();
        let n = shape.cells();
        if n > MTM_MAX_CELLS {
            return Err(PdbError::BoardTooLarge(n));
        }
        crate::partition::check_group(tiles, n)?;
        let width = shape.width();
        let row_of = |t: u8| goal.cell_of(usize::from(t)) / width;
        let blank_row = goal.cell_of(0) / width;
        let mut rows: Vec<usize> = tiles.iter().map(|&t| row_of(t)).collect();
        rows.sort_unstable();
        rows.dedup();
        // The row told apart tile by tile: the farthest from the blank's (ties: the lower).
        let single = rows
            .iter()
            .copied()
            .max_by_key(|&r| (r.abs_diff(blank_row), std::cmp::Reverse(r)))
            .unwrap_or(0);
        let singles = tiles.iter().filter(|&&t| row_of(t) == single).count();
        let classes = rows.len() - 1 + singles + 2;
        let dont_care = (classes - 1) as u8;
        let mut class_of = [dont_care; MTM_MAX_CELLS];
        class_of[0] = 0;
        let mut tally = [0u8; MAX_CLASSES];
        tally[0] = 1;
        let mut next_single = 1 + rows.len() - 1;
        for &t in tiles {
            let r = row_of(t);
            let c = if r == single {
                next_single += 1;
                next_single - 1
            } else {
                1 + rows.iter().filter(|&&x| x != single && x < r).count()
            } as u8;
            class_of[usize::from(t)] = c;
            tally[usize::from(c)] += 1;
        }
        tally[classes - 1] = (n - 1 - tiles.len()) as u8;
        let mut radix = [1u64; MAX_CLASSES];
        let (mut free, mut size) = (n, 1u64);
        for c in 0..classes - 1 {
            radix[c] = BINOM[free][usize::from(tally[c])];
            free -= usize::from(tally[c]);
            size = size.saturating_mul(radix[c]);
        }
        if size > MTM_MAX_ENTRIES {
            return Err(PdbError::TableTooLarge {
                cells: n,
                tiles: tiles.len(),
                max_entries: MTM_MAX_ENTRIES,
            });
        }
        Ok(MtmRanking {
            n,
            classes,
            tally,
            radix,
            class_of,
            size,
            all: ((1u32 << n) - 1) as u16,
            bits: bits(),
        })
    }

    /// Entries of the table.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The class of tile `t` (0 for the blank; the last class for tiles outside the group).
    #[inline]
    pub fn class_of(&self, t: usize) -> u8 {
        self.class_of[t % MTM_MAX_CELLS]
    }

    /// The class masks of the board whose cell `x` holds tile `tile_at(x)`. O(N).
    #[inline]
    pub fn masks(&self, tile_at: impl Fn(usize) -> usize) -> ClassMasks {
        let mut m = [0u16; MAX_CLASSES];
        for x in 0..self.n {
            m[usize::from(self.class_of(tile_at(x))) % MAX_CLASSES] |= 1 << x;
        }
        m
    }

    /// The rank of the abstract state with class masks `m` (the last class's mask is not
    /// read). O(classes), three table lookups a class.
    #[inline]
    pub fn rank(&self, m: &ClassMasks) -> usize {
        let (mut free, mut r) = (self.all, 0u64);
        let last = self.classes - 1;
        for (&mask, &radix) in m[..last].iter().zip(&self.radix[..last]) {
            let packed = self.bits.extract(mask, free);
            r = r * radix + u64::from(self.bits.colex[usize::from(packed)]);
            free &= !mask;
        }
        r as usize
    }

    /// The class masks of the state ranked `rank` (the last class's too). O(N · classes).
    pub fn unrank(&self, rank: usize) -> ClassMasks {
        let last = self.classes - 1;
        let mut digit = [0u64; MAX_CLASSES];
        let mut r = rank as u64;
        for c in (0..last).rev() {
            digit[c] = r % self.radix[c];
            r /= self.radix[c];
        }
        let mut m = [0u16; MAX_CLASSES];
        let mut free = self.all;
        for c in 0..last {
            m[c] = self
                .bits
                .deposit(colex_unrank(digit[c], usize::from(self.tally[c])), free);
            free &= !m[c];
        }
        m[last] = free;
        m
    }
}

impl Ranking for MtmRanking {
    fn for_group(goal: &Goal, tiles: &[u8]) -> Result<Self, PdbError> {
        MtmRanking::new(goal, tiles)
    }

    fn entries(&self) -> u64 {
        self.size
    }
}

/// Peak memory of building the multi-tile table of `tiles` for `goal`, in bytes: the table,
/// one byte per entry ([`MtmRanking::size`]).
///
/// # Errors
/// As [`MtmRanking::new`].
pub fn mtm_build_memory(goal: &Goal, tiles: &[u8]) -> Result<u64, PdbError> {
    Ok(MtmRanking::new(goal, tiles)?.size())
}

/// The cells one MTM move away: for each of the four directions, the cells the blank at `b`
/// passes, nearest first, on a `width` × `height` board.
fn rays(shape: Shape, b: usize) -> [([u8; MTM_MAX_CELLS], usize); 4] {
    let (w, h) = (shape.width() as isize, shape.height() as isize);
    let (r, c) = (b as isize / w, b as isize % w);
    [(-1, 0), (1, 0), (0, -1), (0, 1)].map(|(dr, dc)| {
        let mut cells = [0u8; MTM_MAX_CELLS];
        let mut k = 0;
        let (mut rr, mut cc) = (r + dr, c + dc);
        while rr >= 0 && rr < h && cc >= 0 && cc < w {
            cells[k] = (rr * w + cc) as u8;
            k += 1;
            rr += dr;
            cc += dc;
        }
        (cells, k)
    })
}

/// Builds the multi-tile table of the group `tiles` for `goal` (see the module docs): entry
/// [`MtmRanking::rank`] of an abstract state is its distance in MTM moves to the abstract goal.
/// A layered breadth-first search over the table itself: entry 255 is unvisited; layer `d`
/// walks every state in rank order (rayon tasks over the leading classes' digits, the other
/// classes' combinations enumerated in colex order, so no state is unranked) and sets each
/// unvisited MTM neighbour of a state at `d` to `d + 1` with relaxed loads and stores (two
/// workers reaching one entry both write `d + 1`); MTM moves are reversible, so the distance
/// from the goal is the distance to it. `progress` is called from worker threads after every
/// task that valued entries; `cancel` is read before the memory is allocated and before every
/// task.
///
/// Time: O(entries · (layers + moves · classes)); the 15-puzzle's default (259,459,200 entries
/// in two tables) in 39.7 s on 2 cores (BENCHMARKS.md, "The multi-tile metric"). Memory:
/// [`mtm_build_memory`].
///
/// # Errors
/// As [`MtmRanking::new`]; [`PdbError::Cancelled`] when `cancel` was set;
/// [`PdbError::ValueOverflow`] for a value above 254 (impossible on 16 cells).
pub fn build_mtm_table(
    goal: &Goal,
    tiles: &[u8],
    progress: &(dyn Fn(&BuildProgress) + Sync),
    cancel: Option<&AtomicBool>,
) -> Result<Vec<u8>, PdbError> {
    let shape = goal.shape();
    let n = shape.cells();
    let ix = MtmRanking::new(goal, tiles)?;
    let stop = Stop { cancel, tiles };
    stop.check()?;
    let size = ix.size() as usize;
    let rays: Vec<_> = (0..n).map(|b| rays(shape, b)).collect();
    let home = ix.rank(&ix.masks(|x| goal.layout().tile(x)));
    // The ranked classes; the first `split` of them are fixed by a task.
    let levels = ix.classes - 1;
    let (mut split, mut tasks) = (0, 1u64);
    while split + 1 < levels && tasks < TASKS {
        tasks *= ix.radix[split];
        split += 1;
    }
    let per_task = ix.size() / tasks;
    // The neighbours of the state `m` (blank at `b`) that are unvisited become `next`.
    let expand = |table: &[AtomicU8], m: &ClassMasks, next: u8| {
        let mut new = 0u64;
        let b = m[0].trailing_zeros() as usize;
        for &(cells, k) in &rays[b % MTM_MAX_CELLS] {
            let mut s = *m;
            let mut at = b;
            for &q in &cells[..k] {
                let q = usize::from(q);
                let moved = (1u16 << q) | (1u16 << at);
                if let Some(c) = s[1..levels].iter_mut().find(|c| **c & (1 << q) != 0) {
                    *c ^= moved;
                }
                s[0] = 1 << q;
                at = q;
                new += reach(&table[ix.rank(&s)], next);
            }
        }
        new
    };
    layered_in_place(
        size,
        home,
        tasks as usize,
        progress,
        &stop,
        |task, layer, table| {
            let base = task * per_task as usize;
            let entries = &table[base..base + per_task as usize];
            if entries.iter().all(|e| e.load(Ordering::Relaxed) != layer) {
                return 0;
            }
            // The task's leading classes, then the others' first combinations.
            let mut m = ix.unrank(base);
            let mut comb = [0u32; MAX_CLASSES];
            let mut frees = [0u16; MAX_CLASSES + 1];
            let mut limit = [0u32; MAX_CLASSES];
            frees[0] = ix.all;
            for c in 0..levels {
                frees[c + 1] = frees[c] & !m[c];
                comb[c] = (1 << ix.tally[c]) - 1;
                limit[c] = 1 << frees[c].count_ones();
            }
            let mut new = 0u64;
            for e in entries {
                if e.load(Ordering::Relaxed) == layer {
                    new += expand(table, &m, layer + 1);
                }
                // The next state in rank order: the last class's next combination, carrying into
                // the classes before it (never past `split`: the task's last entry is the last of
                // its range).
                let mut c = levels - 1;
                loop {
                    let next = next_combination(comb[c]);
                    if next < limit[c] || c == split {
                        comb[c] = next;
                        break;
                    }
                    comb[c] = (1 << ix.tally[c]) - 1;
                    c -= 1;
                }
                for c in c..levels {
                    m[c] = ix.bits.deposit(comb[c] as u16, frees[c]);
                    frees[c + 1] = frees[c] & !m[c];
                }
            }
            new
        },
    )
}

/// Multi-tile pattern databases (see the module docs): the maximum over the groups of each
/// group's table value on the board and, where the goal allows the reflected lookup, on the
/// mirrored board. **Admissible and consistent in MTM** (and in STM).
///
/// Evaluation: O(N + Σk) per board (the tiles' cells found once, each group's state ranked
/// from its tiles' cells, twice with reflection), one lookup per group and side, stopping at the
/// first value above IDA\*'s bound ([`Heuristic::update_memo_bounded`]); no memo. Memory: the
/// tables, one byte per entry (the 15-puzzle's default: 259 MB), mapped from the cache and
/// shared by clones.
pub type MtmDb = TableSet<MtmKind>;

/// The index kind of [`MtmDb`]: multi-tile tables ([`build_mtm_table`]) ranked by
/// [`MtmRanking`], on boards of at most [`MTM_MAX_CELLS`] cells; stored as [`TableKind::Mtm`].
#[derive(Clone, Copy, Debug)]
pub struct MtmKind;

impl Sealed for MtmKind {}

impl IndexKind for MtmKind {
    type Indexer = MtmRanking;
    type Extra = ();
    const TABLE: TableKind = TableKind::Mtm;
    const ADJECTIVE: &'static str = "multi-tile ";
    const BUILD: TableBuilder = build_mtm_table;
    const MAX_BOARD_CELLS: usize = MTM_MAX_CELLS;

    fn build_memory(goal: &Goal, tiles: &[u8]) -> Result<u64, PdbError> {
        mtm_build_memory(goal, tiles)
    }

    fn extra(_goal: &Goal) {}
}

/// The default groups of multi-tile tables for `goal`: the goal rows, farthest from the goal
/// blank's row first (ties: the lower row), added to the current group while its table stays
/// within `max_entries` entries, else starting the next group. On the 15-puzzle with
/// `max_entries` ≥ 173 M: rows 1–2 (tiles 1–8: row 1 tile by tile, row 2 by row,
/// 172,972,800 entries) and rows 3–4 (tiles 9–15: row 3 tile by tile, row 4 by row,
/// 86,486,400 entries), 259 MB in all; with the blank first, rows 4–3 and 2–1 alike.
/// O(H² · N).
///
/// # Errors
/// [`PdbError::BoardTooLarge`] past [`MTM_MAX_CELLS`] cells; [`PdbError::BadPartition`]
/// when a goal row alone does not fit.
pub fn mtm_default_groups(goal: &Goal, max_entries: u64) -> Result<Vec<Vec<u8>>, PdbError> {
    let shape = goal.shape();
    if shape.cells() > MTM_MAX_CELLS {
        return Err(PdbError::BoardTooLarge(shape.cells()));
    }
    let w = shape.width();
    let blank_row = goal.cell_of(0) / w;
    let mut rows: Vec<usize> = (0..shape.height()).collect();
    rows.sort_by_key(|&r| (std::cmp::Reverse(r.abs_diff(blank_row)), r));
    let fits = |g: &[u8]| MtmRanking::new(goal, g).is_ok_and(|ix| ix.size() <= max_entries);
    let mut groups: Vec<Vec<u8>> = Vec::new();
    let mut group: Vec<u8> = Vec::new();
    for r in rows {
        let row: Vec<u8> = (r * w..(r + 1) * w)
            .map(|c| goal.layout().tile(c) as u8)
            .filter(|&t| t != 0)
            .collect();
        let mut next = [group.as_slice(), &row].concat();
        next.sort_unstable();
        if fits(&next) {
            group = next;
        } else if fits(&row) {
            groups.push(std::mem::replace(&mut group, row));
        } else {
            return Err(PdbError::BadPartition(format!(
                "goal row {} of {shape} does not fit a multi-tile table of {max_entries} entries",
                r + 1
            )));
        }
    }
    groups.push(group);
    groups.retain(|g| !g.is_empty());
    for g in &mut groups {
        g.sort_unstable();
    }
    Ok(groups)
}

impl MtmDb {
    /// The cell of every tile of `board` after `moved` (`Some((tile, from))`: that tile slid
    /// from `from` onto the blank's cell). O(N).
    #[inline]
    fn positions_after<B: Board>(&self, board: &B, moved: Option<(usize, usize)>) -> Pos {
        let mut pos = [0u8; MTM_MAX_CELLS];
        for c in 0..self.n {
            pos[board.tile(c) % MTM_MAX_CELLS] = c as u8;
        }
        if let Some((tile, from)) = moved {
            pos[tile % MTM_MAX_CELLS] = board.blank() as u8;
            pos[0] = from as u8;
        }
        pos
    }

    /// The maximum over the groups (and the mirror) of the table values of the board whose
    /// tiles lie on `pos`, or the first partial maximum above `bound`. O(Σk) per lookup, one
    /// lookup per group and side; the groups' direct lookups come before the mirrored ones.
    #[inline]
    fn value(&self, pos: &Pos, bound: u32) -> u32 {
        let mut h = 0u32;
        let direct = |u: u8| pos[usize::from(u) % MTM_MAX_CELLS];
        for g in self.groups.iter() {
            h = h.max(Self::group_value(g, direct));
            if h > bound {
                return h;
            }
        }
        if let Some(r) = &self.reflection {
            // The mirrored board holds tile u on the mirror of the cell of tile r.tile[u].
            let mirrored =
                |u: u8| r.cell[usize::from(direct(r.tile[usize::from(u) % MAX_CELLS])) % MAX_CELLS];
            for g in self.groups.iter() {
                h = h.max(Self::group_value(g, mirrored));
                if h > bound {
                    return h;
                }
            }
        }
        h
    }

    /// The table value of group `g` when tile `u` (the blank: 0) lies on `cell(u)`. O(k), one
    /// lookup.
    #[inline]
    fn group_value(g: &crate::set::Group<MtmRanking>, cell: impl Fn(u8) -> u8) -> u32 {
        u32::from(g.table[Self::group_index(g, cell)])
    }

    /// The index in group `g`'s table of the board whose tile `u` (the blank: 0) lies on
    /// `cell(u)`. O(k).
    #[inline]
    fn group_index(g: &crate::set::Group<MtmRanking>, cell: impl Fn(u8) -> u8) -> usize {
        let mut m = [0u16; MAX_CLASSES];
        m[0] = 1 << cell(0);
        for &u in &g.tiles {
            m[usize::from(g.ix.class_of(usize::from(u))) % MAX_CLASSES] |= 1 << cell(u);
        }
        g.ix.rank(&m)
    }

    /// The child's value after `m` from `board`, or a value above `bound` as soon as one is
    /// known. O(N + Σk).
    #[inline]
    fn child<B: Board>(&self, board: &B, m: Move, bound: u32) -> u32 {
        let from = board.tile_cell(m);
        self.value(
            &self.positions_after(board, Some((board.tile(from), from))),
            bound,
        )
    }
}

/// The cell of each tile.
type Pos = [u8; MTM_MAX_CELLS];

impl<B: Board> Heuristic<B> for MtmDb {
    type Memo = ();

    fn name(&self) -> &'static str {
        "mtm-pdb"
    }

    /// Admissible and consistent in MTM and in STM (see the module docs).
    fn properties(&self) -> HeuristicProperties {
        HeuristicProperties::CONSISTENT
    }

    /// O(N + groups · k), one lookup per group and side.
    fn estimate(&self, board: &B) -> u32 {
        self.value(&self.positions_after(board, None), u32::MAX)
    }

    /// The child's value after `m`, from its tiles' cells. O(N + groups · k).
    #[inline]
    fn update(&self, board: &B, _h: u32, m: Move) -> u32 {
        self.child(board, m, u32::MAX)
    }

    /// `true`: [`Heuristic::slide_estimates`] overlaps the children's lookups.
    #[inline]
    fn batches_slides(&self) -> bool {
        true
    }

    /// Every child's lookups (each group, direct and mirrored) are indexed and prefetched
    /// before the first is read, so that their cache misses overlap; then each child's value
    /// is read as [`Heuristic::update_memo_bounded`] reads it, stopping at the first above
    /// `bound`. O(slides · (N + groups · k)); slides longer than 15 tiles or more than 8
    /// lookups a child take the default, one child at a time.
    #[inline]
    fn slide_estimates(
        &self,
        board: &mut B,
        parent: (u32, &()),
        m: Move,
        bound: u32,
        out: &mut [(u32, ())],
    ) {
        const SLIDES: usize = 15;
        const LOOKUPS: usize = 8;
        let sides = if self.reflection.is_some() { 2 } else { 1 };
        let lookups = self.groups.len() * sides;
        if out.len() > SLIDES || lookups > LOOKUPS {
            npuzzle_core::slide_estimates_in_turn(self, board, parent, m, bound, out);
            return;
        }
        let width = board.shape().width();
        let mut pos = self.positions_after(board, None);
        let mut blank = board.blank();
        let mut index = [[0usize; LOOKUPS]; SLIDES];
        for row in index.iter_mut().take(out.len()) {
            // The next tile of the line slides onto the blank's cell.
            let from = m.blank_target(blank, width);
            pos[board.tile(from) % MTM_MAX_CELLS] = blank as u8;
            pos[0] = from as u8;
            blank = from;
            let direct = |u: u8| pos[usize::from(u) % MTM_MAX_CELLS];
            for (slot, g) in row.iter_mut().zip(self.groups.iter()) {
                *slot = Self::group_index(g, direct);
                npuzzle_core::prefetch(&g.table[*slot]);
            }
            if let Some(r) = &self.reflection {
                let mirrored = |u: u8| {
                    r.cell[usize::from(direct(r.tile[usize::from(u) % MAX_CELLS])) % MAX_CELLS]
                };
                for (slot, g) in row[self.groups.len()..].iter_mut().zip(self.groups.iter()) {
                    *slot = Self::group_index(g, mirrored);
                    npuzzle_core::prefetch(&g.table[*slot]);
                }
            }
        }
        let tables = self.groups.iter().cycle().take(lookups);
        for (slot, row) in out.iter_mut().zip(&index) {
            let mut v = 0u32;
            for (g, &i) in tables.clone().zip(row) {
                v = v.max(u32::from(g.table[i]));
                if v > bound {
                    break;
                }
            }
            *slot = (v, ());
        }
    }

    /// Stops at the first group (direct lookups first, then mirrored ones) whose value exceeds
    /// `bound`: most children IDA\* prunes cost one lookup instead of four. Values have no
    /// parity in MTM, so a smaller value above `bound` may lower IDA\*'s next threshold (an
    /// iteration more, never a wrong answer).
    #[inline]
    fn update_memo_bounded(
        &self,
        board: &B,
        _h: u32,
        _memo: &(),
        m: Move,
        bound: u32,
    ) -> (u32, ()) {
        (self.child(board, m, bound), ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{BitBoard, Layout};

    /// Every rank of a small ranking unranks to a state that ranks back to it, and the ranks
    /// cover 0..size exactly once.
    #[test]
    fn rank_and_unrank_are_inverse() {
        for (w, h, tiles) in [
            (3usize, 3usize, vec![1u8, 2, 3, 4, 5, 6]),
            (4, 2, vec![1, 2, 3, 4]),
            (2, 4, vec![1, 2, 5, 6, 7]),
            (3, 3, vec![1, 2, 3, 4, 5, 6, 7, 8]),
        ] {
            let goal = Goal::blank_last(Shape::new(w, h).unwrap());
            let ix = MtmRanking::new(&goal, &tiles).unwrap();
            let mut seen = vec![false; ix.size() as usize];
            for r in 0..ix.size() as usize {
                let m = ix.unrank(r);
                for (c, mask) in m.iter().enumerate().take(ix.classes) {
                    assert_eq!(
                        mask.count_ones(),
                        u32::from(ix.tally[c]),
                        "class {c} of rank {r}"
                    );
                }
                assert_eq!(m[..ix.classes].iter().fold(0, |a, &b| a | b), ix.all);
                let back = ix.rank(&m);
                assert_eq!(back, r);
                assert!(!std::mem::replace(&mut seen[back], true));
            }
        }
    }

    #[test]
    fn sizes_are_multinomials() {
        let goal = Goal::blank_last(Shape::square(4).unwrap());
        let groups = mtm_default_groups(&goal, 300_000_000).unwrap();
        assert_eq!(
            groups,
            vec![(1..=8).collect::<Vec<u8>>(), (9..=15).collect::<Vec<u8>>()]
        );
        // Row 1 tile by tile, row 2 by row: 16!/(4!·7!); row 3 tile by tile, row 4 by row:
        // 16!/(3!·8!).
        let sizes: Vec<u64> = groups
            .iter()
            .map(|g| MtmRanking::new(&goal, g).unwrap().size())
            .collect();
        assert_eq!(sizes, [172_972_800, 86_486_400]);
        let first = Goal::blank_first(Shape::square(4).unwrap());
        assert_eq!(
            mtm_default_groups(&first, 300_000_000).unwrap(),
            vec![(8..=15).collect::<Vec<u8>>(), (1..=7).collect::<Vec<u8>>()]
        );
        // A smaller budget: one row a group (the first: 16·15·14·13·12 entries).
        let small = mtm_default_groups(&goal, 1_000_000).unwrap();
        assert_eq!(small.len(), 4);
        assert_eq!(MtmRanking::new(&goal, &small[0]).unwrap().size(), 524_160);
        // The 8-puzzle: one group of every tile.
        let eight = Goal::blank_last(Shape::square(3).unwrap());
        assert_eq!(
            mtm_default_groups(&eight, 300_000_000).unwrap(),
            vec![(1..=8).collect::<Vec<u8>>()]
        );
    }

    /// The children of every slide estimated at once give what one child at a time gives:
    /// the exact value when it is within the bound, else a value above the bound and at most
    /// the exact one; the board is unchanged. Boards of random walks on 3×3 (two groups, with
    /// and without the mirrored lookups: one to four lookups a child; five groups and the
    /// mirror, ten lookups, past the batch) and 4×2.
    #[test]
    fn slide_estimates_are_the_children_one_at_a_time() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for (w, h, groups, reflect) in [
            (3, 3, vec![vec![1u8, 2, 3, 4], vec![5, 6, 7, 8]], true),
            (3, 3, vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]], false),
            (4, 2, vec![vec![1, 2, 3, 4, 5, 6, 7]], true),
            // Ten lookups a child, more than the batch holds: one child at a time.
            (
                3,
                3,
                vec![vec![1, 2], vec![3, 4], vec![5, 6], vec![7], vec![8]],
                true,
            ),
        ] {
            let goal = Goal::blank_last(Shape::new(w, h).unwrap());
            let db = MtmDb::build(
                &goal,
                &crate::PartitionSpec::Custom(groups),
                reflect,
                &|_| {},
            )
            .unwrap();
            let mut board = BitBoard::from_layout(goal.layout()).unwrap();
            let mut checked = 0;
            for _ in 0..400 {
                let moves: Vec<Move> = board.legal().collect();
                board.apply(moves[random() as usize % moves.len()]);
                let before = board;
                for m in board.legal() {
                    let mut room = 0;
                    let mut exact = Vec::new();
                    let mut child = board;
                    while child.legal().contains(m) {
                        child.apply(m);
                        exact.push(db.estimate(&child));
                        room += 1;
                    }
                    for bound in (0..=12).chain([u32::MAX]) {
                        let mut out = [(0, ()); 3];
                        db.slide_estimates(&mut board, (0, &()), m, bound, &mut out[..room]);
                        assert_eq!(board, before);
                        for (&(v, ()), &e) in out[..room].iter().zip(&exact) {
                            if e <= bound {
                                assert_eq!(v, e, "{board:?} {m:?} bound {bound}");
                            } else {
                                assert!(bound < v && v <= e, "{board:?} {m:?} bound {bound}");
                            }
                            checked += 1;
                        }
                    }
                }
            }
            assert!(checked > 10_000, "{checked}");
        }
    }

    #[test]
    fn the_goal_is_zero_and_one_move_is_one() {
        let goal = Goal::blank_last(Shape::square(3).unwrap());
        let db = MtmDb::build(
            &goal,
            &crate::PartitionSpec::Custom(vec![vec![1, 2, 3, 4, 5, 6, 7, 8]]),
            true,
            &|_| {},
        )
        .unwrap();
        let b = BitBoard::from_layout(goal.layout()).unwrap();
        assert_eq!(db.estimate(&b), 0);
        // R2: the blank two cells left of its goal cell, one MTM move.
        let l = Layout::new(goal.shape(), &[1, 2, 3, 4, 5, 6, 0, 7, 8]).unwrap();
        let b = BitBoard::from_layout(&l).unwrap();
        assert_eq!(db.estimate(&b), 1);
    }
}
