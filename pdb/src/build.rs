//! Building one pattern table: an exact 0-1 breadth-first search over (pattern, blank region),
//! layer by layer, frontier-parallel with rayon.
//!
//! ## The abstract space
//! A state is the cells of the group's `k` tiles plus the blank's cell; every other tile is
//! indistinguishable. Moving a non-group tile (the blank moving onto a free cell) costs 0;
//! moving a group tile costs 1. Because 0-cost moves let the blank wander freely inside its
//! connected region of free cells, a state is identified by (pattern, region), and the search is
//! a plain layered BFS over those: layer `d` holds every (pattern, region) whose cheapest cost to
//! the goal (group tiles home, blank in the goal blank's region) is `d`. A table entry is the
//! minimum over the pattern's regions, i.e. the first layer that reaches the pattern — the
//! admissible per-group cost of Korf & Felner (2002), "Disjoint pattern database heuristics",
//! Artificial Intelligence 134, and Felner, Korf & Hanan (2004), JAIR 22.
//!
//! ## Memory (known before building)
//! One byte per pattern for the table, plus one word per pattern holding 2 bits for each free
//! cell (`n - k` free cells: `u16` up to 8, `u32` up to 16, `u64` beyond): unvisited, closed,
//! or one of two alternating frontier labels. The 15-puzzle's 8-tile table has 518,918,400
//! patterns and 8 free cells: 519 MB + 1,038 MB = 1.56 GB at the peak
//! ([`build_memory`]). Each region is marked as a whole with one atomic `fetch_or`, so threads
//! may push into the same pattern concurrently; a pattern's own thread turns its frontier
//! regions into closed ones with one `fetch_xor`.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering};

use npuzzle_core::Goal;
use rayon::prelude::*;

use crate::PdbError;
use crate::index::Indexer;

/// Patterns scanned per rayon task.
const CHUNK: usize = 1 << 15;
/// The low bit of every 2-bit slot.
const LO: u64 = 0x5555_5555_5555_5555;

/// Progress of a table build, reported after every chunk of patterns scanned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildProgress {
    /// The BFS layer being expanded (= the cost of its patterns, in moves of group tiles).
    pub layer: u32,
    /// Patterns whose value is known so far.
    pub reached: u64,
    /// Patterns in the table.
    pub entries: u64,
}

/// Peak memory of building the table of `k` tiles on `n` cells, in bytes: one byte per entry
/// for the table plus one 2-, 4- or 8-byte word of per-free-cell BFS state.
///
/// # Errors
/// As [`Indexer::new`].
pub fn build_memory(n: usize, k: usize) -> Result<u64, PdbError> {
    let size = Indexer::new(n, k)?.size();
    let word = match n - k {
        0..=8 => 2,
        9..=16 => 4,
        _ => 8,
    };
    Ok(size * (1 + word))
}

/// An atomic word of 2-bit slots.
trait Word: Send + Sync + Sized {
    fn zeroed(len: usize) -> Vec<Self>;
    fn get(&self) -> u64;
    fn or(&self, v: u64);
    fn xor(&self, v: u64);
}

macro_rules! word {
    ($a:ty, $t:ty) => {
        impl Word for $a {
            fn zeroed(len: usize) -> Vec<Self> {
                (0..len).into_par_iter().map(|_| <$a>::new(0)).collect()
            }
            #[inline]
            fn get(&self) -> u64 {
                u64::from(self.load(Ordering::Relaxed))
            }
            #[inline]
            fn or(&self, v: u64) {
                self.fetch_or(v as $t, Ordering::Relaxed);
            }
            #[inline]
            fn xor(&self, v: u64) {
                self.fetch_xor(v as $t, Ordering::Relaxed);
            }
        }
    };
}
word!(AtomicU16, u16);
word!(AtomicU32, u32);
word!(AtomicU64, u64);

/// Cell-set geometry of a W×H board (cells ≤ 32).
#[derive(Clone, Debug)]
pub(crate) struct Grid {
    width: usize,
    all: u32,
    not_first_col: u32,
    not_last_col: u32,
    adj: [u32; 32],
}

impl Grid {
    pub(crate) fn new(width: usize, height: usize) -> Grid {
        let n = width * height;
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut first = 0u32;
        let mut last = 0u32;
        for r in 0..height {
            first |= 1 << (r * width);
            last |= 1 << (r * width + width - 1);
        }
        let mut g = Grid {
            width,
            all,
            not_first_col: all & !first,
            not_last_col: all & !last,
            adj: [0; 32],
        };
        for c in 0..n {
            g.adj[c] = g.grow(1 << c) & !(1 << c);
        }
        g
    }

    /// The orthogonal neighbours of cell `c`.
    #[inline]
    pub(crate) fn adj(&self, c: usize) -> u32 {
        self.adj[c % 32]
    }

    /// `m` and its orthogonal neighbours.
    #[inline]
    pub(crate) fn grow(&self, m: u32) -> u32 {
        (m | ((m << 1) & self.not_first_col)
            | ((m >> 1) & self.not_last_col)
            | (m << self.width)
            | (m >> self.width))
            & self.all
    }

    /// The connected component of `free` containing `seed` (a subset of `free`).
    #[inline]
    pub(crate) fn flood(&self, seed: u32, free: u32) -> u32 {
        let mut r = seed;
        loop {
            let e = self.grow(r) & free;
            if e == r {
                return r;
            }
            r = e;
        }
    }
}

/// The 2-bit slot mask (low bits) of the cells `region` within the free cells `free`: slot `j`
/// is the `j`-th lowest free cell.
#[inline]
fn slots_of(region: u32, free: u32) -> u64 {
    let mut bits = 0u64;
    let mut r = region;
    while r != 0 {
        let c = r.trailing_zeros();
        r &= r - 1;
        bits |= 1 << (2 * (free & ((1u32 << c) - 1)).count_ones());
    }
    bits
}

/// The cells of the slots set in `slots` (low bits), within `free`.
#[inline]
fn cells_of(slots: u64, free: u32) -> u32 {
    let mut cells = 0u32;
    let mut f = free;
    let mut j = 0;
    while f != 0 {
        let c = f & f.wrapping_neg();
        if slots >> (2 * j) & 1 != 0 {
            cells |= c;
        }
        f &= f - 1;
        j += 1;
    }
    cells
}

/// Everything a scan needs, shared by all threads.
struct Ctx<'a, W> {
    grid: Grid,
    ix: Indexer,
    states: &'a [W],
}

impl<W: Word> Ctx<'_, W> {
    /// Scans the patterns `base..base + table.len()` at `layer`: sets the value of patterns
    /// reached for the first time, expands their frontier regions into `next` and closes them.
    /// Returns (patterns newly valued, regions newly marked).
    fn scan(&self, base: usize, table: &mut [u8], layer: u32, cur: u64, next: u64) -> (u64, u64) {
        let k = self.ix.tiles();
        let mut pos = [0u8; 32];
        let mut valued = 0u64;
        let mut marked = 0u64;
        for (off, entry) in table.iter_mut().enumerate() {
            let i = base + off;
            let x = self.states[i].get();
            if x == 0 {
                continue;
            }
            let lo = x & LO;
            let hi = (x >> 1) & LO;
            let frontier = if cur == 2 { hi & !lo } else { hi & lo };
            if frontier == 0 {
                continue;
            }
            if lo & !hi == 0 {
                // No closed region: first reached at this layer.
                *entry = layer as u8;
                valued += 1;
            }
            self.ix.unrank(i, &mut pos);
            let pos = &pos[..k];
            let tiles = pos.iter().fold(0u32, |m, &p| m | (1 << p));
            let free = self.grid.all & !tiles;
            let mut todo = cells_of(frontier, free);
            while todo != 0 {
                let region = self.grid.flood(todo & todo.wrapping_neg(), free);
                todo &= !region;
                let movable = self.grid.grow(region) & tiles;
                for (t, &p) in pos.iter().enumerate() {
                    if movable & (1 << p) == 0 {
                        continue;
                    }
                    let mut dests = self.grid.adj[p as usize] & region;
                    while dests != 0 {
                        let q = dests.trailing_zeros();
                        dests &= dests - 1;
                        let r = self.ix.rank_moved(pos, t, q as u8);
                        let free2 = free ^ (1 << p) ^ (1 << q);
                        let pslot = (free2 & ((1u32 << p) - 1)).count_ones();
                        let target = &self.states[r];
                        if (target.get() >> (2 * pslot)) & 3 != 0 {
                            continue;
                        }
                        let region2 = self.grid.flood(1 << p, free2);
                        target.or(slots_of(region2, free2) * next);
                        marked += 1;
                    }
                }
            }
            // Frontier → closed: 10 → 01 (xor 11) or 11 → 01 (xor 10).
            let flip = if cur == 2 {
                frontier * 3
            } else {
                frontier << 1
            };
            self.states[i].xor(flip);
        }
        (valued, marked)
    }
}

/// Builds the table of the group `tiles` (in this order) for `goal`: entry `rank(cells)` is the
/// minimum number of moves of group tiles needed to bring them to their goal cells, over all
/// positions of the other tiles and the blank.
///
/// Time: O(entries · k · free cells) spread over rayon's threads; memory: [`build_memory`].
/// `progress` is called from worker threads after every chunk of patterns.
///
/// # Errors
/// [`PdbError::TableTooLarge`] as in [`Indexer::new`]; [`PdbError::BadGroup`] if a tile is 0
/// (the blank) or not on the board, or repeats; [`PdbError::ValueOverflow`] if some value
/// exceeds 254 (boards far larger than the ones this crate targets).
pub fn build_table(
    goal: &Goal,
    tiles: &[u8],
    progress: &(dyn Fn(&BuildProgress) + Sync),
) -> Result<Vec<u8>, PdbError> {
    build_table_cancellable(goal, tiles, progress, None)
}

/// [`build_table`] that stops when `cancel` becomes true: the flag is read before the
/// memory is allocated and before every chunk of `CHUNK` patterns (32,768: a few
/// milliseconds of work), so a build stops within milliseconds of the flag (SIGINT, a
/// server's time limit, a client gone) and frees its memory; nothing is written anywhere.
///
/// # Errors
/// As [`build_table`]; [`PdbError::Cancelled`] when `cancel` was set.
pub fn build_table_cancellable(
    goal: &Goal,
    tiles: &[u8],
    progress: &(dyn Fn(&BuildProgress) + Sync),
    cancel: Option<&AtomicBool>,
) -> Result<Vec<u8>, PdbError> {
    let shape = goal.shape();
    let n = shape.cells();
    crate::partition::check_group(tiles, n)?;
    let ix = Indexer::new(n, tiles.len())?;
    let grid = Grid::new(shape.width(), shape.height());
    let stop = Stop { cancel, tiles };
    stop.check()?;
    match n - tiles.len() {
        0..=8 => run::<AtomicU16>(goal, tiles, ix, grid, progress, &stop),
        9..=16 => run::<AtomicU32>(goal, tiles, ix, grid, progress, &stop),
        _ => run::<AtomicU64>(goal, tiles, ix, grid, progress, &stop),
    }
}

/// The goal cells of `tiles`, in their order: the pattern every build starts from.
pub(crate) fn home(goal: &Goal, tiles: &[u8]) -> Vec<u8> {
    tiles
        .iter()
        .map(|&t| goal.cell_of(usize::from(t)) as u8)
        .collect()
}

/// A build's cancel flag and the group it builds (for the error): what every builder checks
/// before it allocates and between chunks of work.
pub(crate) struct Stop<'a> {
    pub(crate) cancel: Option<&'a AtomicBool>,
    pub(crate) tiles: &'a [u8],
}

impl Stop<'_> {
    /// Whether the flag is set.
    pub(crate) fn is_set(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// # Errors
    /// [`PdbError::Cancelled`] naming the group when the flag is set.
    pub(crate) fn check(&self) -> Result<(), PdbError> {
        if self.is_set() {
            return Err(PdbError::Cancelled {
                tiles: crate::partition::format_groups(&[self.tiles.to_vec()]),
            });
        }
        Ok(())
    }
}

/// An unvisited entry of a table valued in place ([`layered_in_place`]).
pub(crate) const UNSEEN: u8 = u8::MAX;

/// A layered breadth-first search that values a table of `size` one-byte entries in place,
/// written once for the builders whose abstract moves are reversible and cost 1 (tile-only and
/// multi-tile tables): every entry starts [`UNSEEN`], entry `home` at 0; layer `d` runs
/// `visit(task, d, table)` for each task in `0..tasks` on rayon, which sets the unvisited
/// neighbours of the entries equal to `d` to `d + 1` ([`reach`]) and returns how many it set;
/// the search ends after a layer that sets none. `progress` is called after every task that
/// valued entries; `stop` is read before every task. Memory: the table.
///
/// # Errors
/// [`PdbError::ValueOverflow`] for a value above 254; [`PdbError::Cancelled`] when `stop` is
/// set.
pub(crate) fn layered_in_place(
    size: usize,
    home: usize,
    tasks: usize,
    progress: &(dyn Fn(&BuildProgress) + Sync),
    stop: &Stop<'_>,
    visit: impl Fn(usize, u8, &[AtomicU8]) -> u64 + Sync,
) -> Result<Vec<u8>, PdbError> {
    let table: Vec<AtomicU8> = (0..size)
        .into_par_iter()
        .map(|_| AtomicU8::new(UNSEEN))
        .collect();
    table[home].store(0, Ordering::Relaxed);
    let reached = Reached::new(1, size as u64, progress);
    for layer in 0u8.. {
        if layer == UNSEEN - 1 {
            return Err(PdbError::ValueOverflow);
        }
        let found: u64 = (0..tasks)
            .into_par_iter()
            .map(|task| {
                if stop.is_set() {
                    return 0;
                }
                let new = visit(task, layer, &table);
                reached.add(u32::from(layer) + 1, new);
                new
            })
            .sum();
        stop.check()?;
        if found == 0 {
            break;
        }
    }
    // In place: `AtomicU8` has the layout of `u8`.
    Ok(table.into_iter().map(AtomicU8::into_inner).collect())
}

/// Sets the unvisited entry `e` to `next` with a relaxed load and store (two workers reaching
/// one entry in a layer both write `next`: a benign race); 1 if it was unvisited, else 0.
#[inline]
pub(crate) fn reach(e: &AtomicU8, next: u8) -> u64 {
    if e.load(Ordering::Relaxed) == UNSEEN {
        e.store(next, Ordering::Relaxed);
        1
    } else {
        0
    }
}

/// The entries a layered build has valued so far, reported to its progress callback as
/// workers value more.
pub(crate) struct Reached<'a> {
    count: AtomicU64,
    entries: u64,
    progress: &'a (dyn Fn(&BuildProgress) + Sync),
}

impl<'a> Reached<'a> {
    /// `count` entries of `entries` valued before the first layer.
    pub(crate) fn new(
        count: u64,
        entries: u64,
        progress: &'a (dyn Fn(&BuildProgress) + Sync),
    ) -> Reached<'a> {
        Reached {
            count: AtomicU64::new(count),
            entries,
            progress,
        }
    }

    /// Counts `new` entries valued in `layer` and reports the total if any were (capped at
    /// the table's entries: an entry that two workers both set may count twice). Any thread.
    pub(crate) fn add(&self, layer: u32, new: u64) {
        if new > 0 {
            let reached = (self.count.fetch_add(new, Ordering::Relaxed) + new).min(self.entries);
            (self.progress)(&BuildProgress {
                layer,
                reached,
                entries: self.entries,
            });
        }
    }
}

fn run<W: Word>(
    goal: &Goal,
    tiles: &[u8],
    ix: Indexer,
    grid: Grid,
    progress: &(dyn Fn(&BuildProgress) + Sync),
    stop: &Stop<'_>,
) -> Result<Vec<u8>, PdbError> {
    let size = ix.size() as usize;
    let states = W::zeroed(size);
    stop.check()?;
    let mut table = vec![0u8; size];
    // The goal: group tiles home, blank anywhere in the goal blank's free region, cost 0.
    let home = home(goal, tiles);
    let tiles_mask = home.iter().fold(0u32, |m, &p| m | (1 << p));
    let free = grid.all & !tiles_mask;
    let start = grid.flood(1 << goal.cell_of(0), free);
    states[ix.rank(&home)].or(slots_of(start, free) * 2);
    let ctx = Ctx {
        grid,
        ix,
        states: &states,
    };
    let reached = Reached::new(0, size as u64, progress);
    let mut cur = 2u64;
    for layer in 0u32.. {
        if layer > 254 {
            return Err(PdbError::ValueOverflow);
        }
        let next = 5 - cur;
        let marked: u64 = table
            .par_chunks_mut(CHUNK)
            .enumerate()
            .map(|(ci, chunk)| {
                if stop.is_set() {
                    return 0;
                }
                let (valued, marked) = ctx.scan(ci * CHUNK, chunk, layer, cur, next);
                reached.add(layer, valued);
                marked
            })
            .sum();
        stop.check()?;
        if marked == 0 {
            break;
        }
        cur = next;
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TableBuilder;
    use npuzzle_core::{Goal, Shape};

    #[test]
    fn flood_and_slots() {
        let g = Grid::new(4, 4);
        // Free cells 0, 1, 5 and 15: {0, 1, 5} is one region.
        let free = 0b1000_0000_0010_0011;
        assert_eq!(g.flood(1, free), 0b10_0011);
        assert_eq!(slots_of(0b10_0011, free), 0b01_0101);
        assert_eq!(cells_of(0b01_0101, free), 0b10_0011);
        assert_eq!(g.adj[0], 0b1_0010);
        assert_eq!(g.adj[7], (1 << 3) | (1 << 6) | (1 << 11));
    }

    /// Every builder (plain, zero-aware, tile-only) stops with `Cancelled` when its flag is set
    /// before it starts or while it runs, and builds the same table with the flag unset.
    #[test]
    fn every_builder_stops_when_cancelled() {
        type Uncancellable =
            fn(&Goal, &[u8], &(dyn Fn(&BuildProgress) + Sync)) -> Result<Vec<u8>, PdbError>;
        let builders: [(TableBuilder, Uncancellable); 3] = [
            (build_table_cancellable, build_table),
            (
                crate::build_zero_aware_table_cancellable,
                crate::build_zero_aware_table,
            ),
            (crate::build_tile_only_table, |goal, tiles, progress| {
                crate::build_tile_only_table(goal, tiles, progress, None)
            }),
        ];
        let square = Shape::square(4).unwrap();
        for goal in [Goal::blank_last(square), Goal::blank_first(square)] {
            for (build, uncancellable) in builders {
                let cancel = AtomicBool::new(true);
                let e = build(&goal, &[1, 2, 3, 4, 5], &|_| {}, Some(&cancel)).unwrap_err();
                assert_eq!(
                    e.to_string(),
                    "cancelled while building the pattern table of tiles 1,2,3,4,5"
                );
                // Set during the build (by its first progress report): stops before the next
                // layer.
                let cancel = AtomicBool::new(false);
                let stop_now = |_: &BuildProgress| cancel.store(true, Ordering::Relaxed);
                let e = build(&goal, &[1, 2, 3, 4, 5], &stop_now, Some(&cancel));
                assert!(matches!(e, Err(PdbError::Cancelled { .. })), "{e:?}");
                // Without the flag set, the same table as without a flag.
                let cancel = AtomicBool::new(false);
                assert_eq!(
                    build(&goal, &[1, 2, 3], &|_| {}, Some(&cancel)).unwrap(),
                    uncancellable(&goal, &[1, 2, 3], &|_| {}).unwrap()
                );
            }
        }
    }

    #[test]
    fn one_tile_tables_are_manhattan_distances() {
        // With one group tile, its cost is its Manhattan distance to its goal cell.
        let goal = Goal::blank_first(Shape::new(4, 3).unwrap());
        let t = build_table(&goal, &[5], &|_| {}).unwrap();
        let ix = Indexer::new(12, 1).unwrap();
        for c in 0..12u8 {
            let (r, col) = (usize::from(c) / 4, usize::from(c) % 4);
            let d = r.abs_diff(1) + col.abs_diff(1);
            assert_eq!(usize::from(t[ix.rank(&[c])]), d, "cell {c}");
        }
    }
}
