//! Beam search: breadth-first search that keeps only the `width` best states of each layer.

use rayon::prelude::*;
use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use npuzzle_core::{Board, Heuristic, Move};

/// Why a beam search ended without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BeamEnd {
    /// Every layer up to the upper bound was searched: this beam holds no answer shorter than
    /// the bound (other widths may).
    Exhausted,
    /// `stop` returned true (the time budget or cancellation).
    Stopped,
}

/// Bytes a beam of `width` states on a board of `cells` cells holds at its peak, besides the
/// path records: two layers of boards (the Vec board: 2 bytes a cell plus about 48 of header
/// and allocation), the candidate children (3 a state, 24 bytes each, with as many for the
/// unique ones and 16-byte selection keys) and the hash set of the deduplication (8 bytes a
/// slot, at most 12 slots a state). An estimate for choosing widths within a memory budget.
pub fn beam_layer_bytes(width: usize, cells: usize) -> u64 {
    let board = 48 + 2 * cells as u64 + 24;
    let per_state = board * 2 + 24 * 3 * 2 + 16 * 3 + 8 * 12;
    width as u64 * per_state
}

/// Bytes of path records a beam of `width` states keeps per layer (4 bytes a kept state).
pub const fn beam_record_bytes(width: usize) -> u64 {
    4 * width as u64
}

/// Nodes counted by [`beam`], added to as it goes (shared by the beams of an anytime search).
#[derive(Debug, Default)]
pub struct BeamCounts {
    /// States expanded (children generated from them).
    pub expanded: AtomicU64,
    /// Children generated (before duplicate detection and the width cut).
    pub generated: AtomicU64,
}

/// Zobrist hashing of a board's tiles: one pseudo-random word per (tile, cell).
struct Zobrist {
    cells: usize,
    words: Vec<u64>,
}

impl Zobrist {
    /// The words for `board`'s shape (`SplitMix64` from a fixed seed). O(N²).
    fn new<B: Board>(board: &B) -> Zobrist {
        let cells = board.shape().cells();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let words = (0..cells * cells)
            .map(|_| {
                x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = x;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            })
            .collect();
        Zobrist { cells, words }
    }

    #[inline]
    fn word(&self, tile: usize, cell: usize) -> u64 {
        self.words[tile * self.cells + cell]
    }

    /// The hash of `board`. O(N).
    fn hash<B: Board>(&self, board: &B) -> u64 {
        (0..self.cells).fold(0, |h, c| h ^ self.word(board.tile(c), c))
    }

    /// The hash after `tile` slides from `from` into the blank at `blank`. O(1).
    #[inline]
    fn moved(&self, h: u64, tile: usize, from: usize, blank: usize) -> u64 {
        h ^ self.word(tile, from)
            ^ self.word(tile, blank)
            ^ self.word(0, blank)
            ^ self.word(0, from)
    }
}

/// A hasher for keys that are already 64-bit hashes.
#[derive(Default, Clone, Copy)]
struct Identity(u64);

impl std::hash::Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

type HashSet64 = HashSet<u64, BuildHasherDefault<Identity>>;

/// A set of 64-bit Zobrist hashes by open addressing with linear probing, kept from layer to
/// layer (emptied, not freed): an insertion touches one cache line (a `SwissTable` touches its
/// control bytes and its slot), and the line can be prefetched before the insertion. 0 marks
/// an empty slot, so the hash 0 is stored as 1 (a collision like any other, probability about
/// 2^-64 a pair, which only drops a state).
#[derive(Default)]
struct ZobristSet {
    slots: Vec<u64>,
}

impl ZobristSet {
    /// Empties the set and sizes it for `entries` insertions (load at most 2/3). O(slots).
    fn clear_for(&mut self, entries: usize) {
        let slots = (entries + entries / 2).max(16).next_power_of_two();
        if self.slots.len() < slots || self.slots.len() > 4 * slots {
            self.slots = vec![0; slots];
        } else {
            self.slots.fill(0);
        }
    }

    #[inline]
    fn home(&self, z: u64) -> usize {
        z as usize & (self.slots.len() - 1)
    }

    /// Asks for the cache line where `z`'s probe starts.
    #[inline]
    fn prefetch(&self, z: u64) {
        npuzzle_core::prefetch(&self.slots[self.home(z.max(1))]);
    }

    /// Inserts `z`; false if it was already in the set. Expected O(1) at load ≤ 2/3.
    #[inline]
    fn insert(&mut self, z: u64) -> bool {
        let z = z.max(1);
        let mask = self.slots.len() - 1;
        let mut i = self.home(z);
        loop {
            let s = self.slots[i];
            if s == z {
                return false;
            }
            if s == 0 {
                self.slots[i] = z;
                return true;
            }
            i = (i + 1) & mask;
        }
    }
}

/// How many children ahead the one-thread deduplication prefetches their hash-set slots.
const PREFETCH_AHEAD: usize = 8;

/// The facts a beam keeps about each state of a layer besides its board: h, the move that
/// reached it, its Zobrist hash, the heuristic's memo and its [`Spread`].
type Meta<M> = (u32, Option<Move>, u64, M, u32);

/// A candidate child: its rank (h × 2^32 + [`Spread`]), Zobrist hash, parent index × 4 +
/// move, the heuristic's memo. A layer keeps the children of least (rank, hash).
type Child<M> = (u64, u64, u32, M);

/// A child's rank: by h, then by spread.
#[inline]
fn rank(h: u32, spread: u32) -> u64 {
    u64::from(h) << 32 | u64::from(spread)
}

/// The h and the spread of a rank.
#[inline]
fn unrank(rank: u64) -> (u32, u32) {
    ((rank >> 32) as u32, rank as u32)
}

/// How a beam breaks ties among children of equal h at the width cut (then by Zobrist hash).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ties {
    /// The least sum over the tiles of the squared Manhattan distance to the goal cell first
    /// (the default: 4–6 % shorter answers than by hash alone on 6×6 and 7×7, BENCHMARKS.md
    /// "Ties broken by squared distances").
    #[default]
    Squares,
    /// The least sum of the cubed distances first: about as good as [`Ties::Squares`] alone,
    /// but a different beam, so the shorter of one beam of each is shorter than either (the
    /// anytime search runs such pairs on two threads when its heuristic cannot be rebuilt for
    /// the reversed instance, its better partner). On boards where the sum could exceed
    /// 2^32 (square boards of 57×57 and larger) it is [`Ties::Squares`].
    Cubes,
}

/// A beam's tie-breaker among children of equal h: the sum over the tiles of the square (or,
/// with [`Ties::Cubes`], the cube) of each tile's Manhattan distance to its goal cell. Of two
/// states with the same estimate, the one whose distance is spread over more tiles (each nearer
/// its goal) is kept first. Measured on the `DeepCubeA` 48-puzzle set (BENCHMARKS.md, "Ties
/// broken by squared distances"): at a fixed width the answers are several percent shorter
/// than with ties broken by hash alone, and fewer beams wander; the estimate, its pruning and
/// its guarantees are untouched.
///
/// The distance is `npuzzle_core::Manhattan::tile_distance`'s, from per-cell row and column
/// tables instead of a division a call (this runs for every child of every beam layer).
struct Spread {
    /// The power of the distances summed: 2 or 3.
    power: u32,
    /// The goal cell's (row, column) of each tile (index: tile).
    goal: Vec<(u16, u16)>,
    /// Each cell's (row, column): no division a move.
    at: Vec<(u16, u16)>,
}

impl Spread {
    fn new<B: Board>(goal: &B, ties: Ties) -> Spread {
        let shape = goal.shape();
        let (cells, w) = (shape.cells(), shape.width());
        // The largest distance is w + h − 2: cubes only where every sum fits 32 bits.
        let far = (shape.width() + shape.height() - 2) as u64;
        let power = if ties == Ties::Cubes && (cells as u64) * far * far * far < 1 << 32 {
            3
        } else {
            2
        };
        // Sides are at most 127 cells (the boards' limit), so rows and columns fit u16.
        let at: Vec<(u16, u16)> = (0..cells)
            .map(|c| ((c / w) as u16, (c % w) as u16))
            .collect();
        let mut to = vec![(0, 0); cells];
        for (c, &rc) in at.iter().enumerate() {
            to[goal.tile(c)] = rc;
        }
        Spread {
            power,
            goal: to,
            at,
        }
    }

    /// `tile`'s Manhattan distance from `cell` to its goal cell, squared (or cubed).
    #[inline]
    fn term(&self, tile: usize, cell: usize) -> u32 {
        let ((gr, gc), (r, c)) = (self.goal[tile], self.at[cell]);
        let d = u32::from(gr.abs_diff(r)) + u32::from(gc.abs_diff(c));
        if self.power == 3 { d * d * d } else { d * d }
    }

    /// The spread of `board`, from scratch: O(cells).
    fn of<B: Board>(&self, board: &B) -> u32 {
        let blank = board.blank();
        (0..board.shape().cells())
            .filter(|&c| c != blank)
            .map(|c| self.term(board.tile(c), c))
            .sum()
    }

    /// The spread after `tile` moves from `from` to `to`, given the spread `s` before: O(1).
    #[inline]
    fn moved(&self, s: u32, tile: usize, from: usize, to: usize) -> u32 {
        s + self.term(tile, to) - self.term(tile, from)
    }
}

/// Layers of fewer than this many states per thread are expanded on one thread (a layer's
/// threads start and join three times; below this the work does not pay for it).
const PARALLEL_MIN_STATES: usize = 1024;

/// Beam search (Lowerre 1976; Bisiani, "Beam search", Encyclopedia of AI, 1987) from `start`
/// to the state whose key is `goal_key`: layer `d + 1` is made of the children of layer `d`'s
/// states, without duplicates within the layer nor states of layer `d - 1` (the only earlier
/// layer of the same parity that could hold them), and only its `width` children of least h are
/// kept (ties broken by the sum of the squared Manhattan distances of the tiles to their goal
/// cells, then by the Zobrist hash, so that the choice is deterministic). The first layer
/// holding the goal gives the answer: no shorter answer exists **within the beam**, but
/// nothing is proven about the optimum.
///
/// Duplicates are detected by a 64-bit Zobrist hash (Zobrist 1970: the XOR of one random word
/// per (tile, cell), updated in O(1) a move; fixed seed), and a child's key is packed only if it
/// is kept: two states with the same hash (probability about 2^-64 a pair) make the beam drop
/// one of them, which can only make its answer longer, never wrong.
///
/// `upper` is the shared length of the best answer known (the anytime search's incumbent):
/// a child with g + h at least `upper` is dropped, h being the heuristic's admissible
/// [`Heuristic::lower_bound`] (none for a heuristic that has none), and the search
/// ends ([`BeamEnd::Exhausted`]) at depth `upper - 1`. `stop` is polled once a layer. Without
/// a bound (`u32::MAX`) a narrow beam may wander without reaching the goal (a width-64 beam on
/// a random 15×15 board did not within 120 s): give it a bound or a `stop`.
///
/// Each state carries the heuristic's memo ([`Heuristic::update_memo`]; zero bytes for Manhattan
/// distance and linear conflict). One thread; [`beam_threads`] expands each layer on several.
///
/// On one thread a layer's children are made in the order (parent, move) and only those whose
/// h can still make the cut are deduplicated, in an open-addressing hash set whose slots are
/// prefetched ahead; the kept states stay in that order, so the next layer reads its parents'
/// boards in memory order (1.2–1.7× faster than a `HashSet` of every child at width 65,536 on
/// 7×7, same answers: BENCHMARKS.md, "A faster one-thread beam layer").
///
/// Time: O(depth · width · 3) heuristic updates, at most as many hash probes, and one board copy
/// a kept state (into the buffers of the layer before last: no allocation once both layers are
/// full); memory: [`beam_layer_bytes`] plus [`beam_record_bytes`] a layer.
///
/// # Errors
/// [`BeamEnd`] when there is no answer.
///
/// # Panics
/// If `width` is above 2^30.
pub fn beam<B: Board, H: Heuristic<B>>(
    start: &B,
    goal_key: &B::Key,
    heuristic: &H,
    width: usize,
    upper: &AtomicU32,
    stop: &dyn Fn() -> bool,
    counts: &BeamCounts,
) -> Result<Vec<Move>, BeamEnd> {
    beam_threads(start, goal_key, heuristic, width, 1, upper, stop, counts)
}

/// [`beam`] with each layer expanded in `threads` parts (at least one; layers of fewer than
/// 1,024 states a part use fewer) on rayon's global thread pool (one thread a core): the
/// parents are split into contiguous ranges, the children spread by hash over one bucket per
/// part, each bucket deduplicated by one task against the layer before last and itself (the
/// first child of a state in the order parent, move is kept, as on one thread), the `width`
/// best chosen and their boards built in parallel.
///
/// On this project's 2-core machine two parts gain little: about 1.1–1.3× over one (BENCHMARKS.md
/// "Linear conflict by table"), the choice of the best children and the layer bookkeeping
/// being sequential.
///
/// Every layer holds the same states as [`beam`]'s at any thread count, so the answer has the
/// same length (the path itself can differ between thread counts when a state has two parents
/// in the layer before; with a given thread count it is deterministic).
///
/// Time: [`beam`]'s work spread over `threads` (the choice of the best `width` children is
/// sequential, O(children)); memory: [`beam`]'s plus one bucket vector per thread pair.
///
/// # Errors
/// [`BeamEnd`] when there is no answer.
///
/// # Panics
/// If `width` is above 2^30.
#[expect(
    clippy::too_many_arguments,
    reason = "beam's arguments and the thread count"
)]
pub fn beam_threads<B: Board, H: Heuristic<B>>(
    start: &B,
    goal_key: &B::Key,
    heuristic: &H,
    width: usize,
    threads: usize,
    upper: &AtomicU32,
    stop: &dyn Fn() -> bool,
    counts: &BeamCounts,
) -> Result<Vec<Move>, BeamEnd> {
    beam_ties(
        start,
        goal_key,
        heuristic,
        width,
        threads,
        Ties::Squares,
        upper,
        stop,
        counts,
    )
}

/// [`beam_threads`] with ties at the width cut broken by `ties` (then by hash).
///
/// # Errors
/// [`BeamEnd`] when there is no answer.
///
/// # Panics
/// If `width` is above 2^30.
#[expect(
    clippy::too_many_arguments,
    reason = "beam_threads's arguments and the tie-break"
)]
pub fn beam_ties<B: Board, H: Heuristic<B>>(
    start: &B,
    goal_key: &B::Key,
    heuristic: &H,
    width: usize,
    threads: usize,
    ties: Ties,
    upper: &AtomicU32,
    stop: &dyn Fn() -> bool,
    counts: &BeamCounts,
) -> Result<Vec<Move>, BeamEnd> {
    beam_observed(
        start,
        goal_key,
        heuristic,
        width,
        threads,
        ties,
        upper,
        stop,
        counts,
        &mut |_, _| {},
    )
}

/// [`beam_ties`] that shows `observe` each layer it keeps: its depth (1 for the start's
/// children) and its states, in the beam's order (not by rank). The layer-wide fit of a
/// learned ranking samples its competitors there (`fit`, feature `fit`).
#[expect(
    clippy::too_many_arguments,
    reason = "beam_ties's arguments and the observer"
)]
#[expect(
    clippy::too_many_lines,
    reason = "one layer loop: expansion, deduplication, choice and the next layer's boards"
)]
pub(crate) fn beam_observed<B: Board, H: Heuristic<B>>(
    start: &B,
    goal_key: &B::Key,
    heuristic: &H,
    width: usize,
    threads: usize,
    ties: Ties,
    upper: &AtomicU32,
    stop: &dyn Fn() -> bool,
    counts: &BeamCounts,
    observe: &mut dyn FnMut(u32, &[B]),
) -> Result<Vec<Move>, BeamEnd> {
    assert!(width <= 1 << 30, "beam width {width} above 2^30");
    let width = width.max(1);
    let threads = threads.max(1);
    if start.key() == *goal_key {
        return Ok(Vec::new());
    }
    let zobrist = Zobrist::new(start);
    let goal_board = start.with_key(goal_key);
    let goal_hash = zobrist.hash(&goal_board);
    let spread = Spread::new(&goal_board, ties);
    // The current layer: boards, and (h, the move that reached it, Zobrist hash, memo) of
    // each. Boards, not keys: a beam unpacks no key and packs one only at the goal. The memo
    // lets a heuristic such as a maximum of two update incrementally. `spare` keeps the boards
    // of the layer before, overwritten in place by the next layer's.
    let (h0, memo0) = heuristic.estimate_memo(start);
    let mut boards: Vec<B> = vec![start.clone()];
    let mut meta: Vec<Meta<H::Memo>> =
        vec![(h0, None, zobrist.hash(start), memo0, spread.of(start))];
    let mut spare: Vec<B> = Vec::new();
    // The Zobrist hashes of layer d - 1: a child found among them is dropped by the
    // deduplication (its set starts with them), on as many threads as the layer uses.
    let mut previous: Vec<u64> = Vec::new();
    // For each depth d ≥ 1: each kept state's parent index in layer d - 1 (× 4) + its move.
    let mut parents: Vec<Vec<u32>> = Vec::new();
    let mut depth: u32 = 0;
    let path_to = |parents: &[Vec<u32>], pi: usize, m: Move| {
        let mut moves = vec![m];
        let mut i = pi;
        for level in parents.iter().rev() {
            let r = level[i];
            moves.push(Move::from_index((r & 3) as usize));
            i = (r >> 2) as usize;
        }
        moves.reverse();
        moves
    };
    // Buffers of the one-thread layers, kept from layer to layer: the children in the order
    // (parent, move), the unique ones among them, the count of children by h, and the keys
    // (rank, hash) of the kept ones.
    let mut children: Vec<Child<H::Memo>> = Vec::new();
    let mut unique: Vec<Child<H::Memo>> = Vec::new();
    let mut by_h: Vec<usize> = Vec::new();
    let mut keys: Vec<(u64, u64)> = Vec::new();
    let mut set = ZobristSet::default();
    // Unique states a child within the cut in the last one-thread layer (`keep_best`).
    let mut unique_rate = 1.0f64;
    loop {
        if stop() {
            return Err(BeamEnd::Stopped);
        }
        let bound = upper.load(Ordering::Relaxed);
        if depth + 1 >= bound {
            return Err(BeamEnd::Exhausted);
        }
        let n = boards.len();
        let parts = threads.min(n / PARALLEL_MIN_STATES).max(1);
        counts.expanded.fetch_add(n as u64, Ordering::Relaxed);
        // Expansion of the parents `range` into `buckets` (emptied first; `parts` of them, by
        // hash): the children not pruned by the bound, in the order (parent, move); the number
        // generated; the least and greatest h pushed; the first goal found.
        let expand = |range: std::ops::Range<usize>, mut buckets: Vec<Vec<Child<H::Memo>>>| {
            buckets.resize_with(parts, Vec::new);
            for b in &mut buckets {
                b.clear();
                b.reserve(range.len() * 3 / parts + 16);
            }
            let mut generated = 0u64;
            let (mut least, mut most) = (u32::MAX, 0u32);
            for pi in range {
                let board = &boards[pi];
                let (h, came, z, memo, s) = &meta[pi];
                let blank = board.blank();
                for m in board.legal() {
                    if Some(m.inverse()) == *came {
                        continue;
                    }
                    let (h2, memo2) = heuristic.update_memo(board, *h, memo, m);
                    generated += 1;
                    if heuristic
                        .lower_bound(h2, &memo2)
                        .is_some_and(|lb| depth + 1 + lb >= bound)
                    {
                        continue;
                    }
                    let from = board.tile_cell(m);
                    let tile = board.tile(from);
                    let z2 = zobrist.moved(*z, tile, from, blank);
                    if z2 == goal_hash && board.neighbor(m).key() == *goal_key {
                        return (buckets, generated, (least, most), Some((pi, m)));
                    }
                    least = least.min(h2);
                    most = most.max(h2);
                    let b = if parts == 1 {
                        0
                    } else {
                        ((z2 >> 32) % parts as u64) as usize
                    };
                    buckets[b].push((
                        rank(h2, spread.moved(*s, tile, from, blank)),
                        z2,
                        (pi as u32) << 2 | m.index() as u32,
                        memo2,
                    ));
                }
            }
            (buckets, generated, (least, most), None)
        };
        let chosen: &[Child<H::Memo>] = if parts == 1 {
            let (mut buckets, generated, (least, most), goal) =
                expand(0..n, vec![std::mem::take(&mut children)]);
            counts.generated.fetch_add(generated, Ordering::Relaxed);
            if let Some((pi, m)) = goal {
                return Ok(path_to(&parents, pi, m));
            }
            children = buckets.pop().expect("one bucket");
            keep_best(
                &children,
                (least, most),
                width,
                &previous,
                &mut set,
                &mut by_h,
                &mut unique,
                &mut keys,
                &mut unique_rate,
            );
            &unique
        } else {
            let ranges: Vec<std::ops::Range<usize>> = (0..parts)
                .map(|p| p * n / parts..(p + 1) * n / parts)
                .collect();
            let expanded: Vec<_> = ranges
                .into_par_iter()
                .map(|r| expand(r, Vec::new()))
                .collect();
            let generated: u64 = expanded.iter().map(|e| e.1).sum();
            counts.generated.fetch_add(generated, Ordering::Relaxed);
            // The first goal in the order parent, move: the lowest range's.
            if let Some((pi, m)) = expanded.iter().find_map(|e| e.3) {
                return Ok(path_to(&parents, pi, m));
            }
            // Bucket b of every range, deduplicated by one thread in range order.
            let dedup = |b: usize| {
                let total: usize = expanded.iter().map(|e| e.0[b].len()).sum();
                let mut seen = HashSet64::with_capacity_and_hasher(
                    total + previous.len() / parts,
                    BuildHasherDefault::default(),
                );
                seen.extend(
                    previous
                        .iter()
                        .filter(|&&z| ((z >> 32) % parts as u64) as usize == b),
                );
                let mut out = Vec::with_capacity(total);
                for e in &expanded {
                    out.extend(e.0[b].iter().filter(|c| seen.insert(c.1)).copied());
                }
                out
            };
            let parts_unique: Vec<Vec<Child<H::Memo>>> =
                (0..parts).into_par_iter().map(dedup).collect();
            unique = parts_unique.concat();
            if unique.len() > width {
                unique.select_nth_unstable_by_key(width - 1, |c| (c.0, c.1));
                unique.truncate(width);
            }
            &unique
        };
        if chosen.is_empty() {
            return Err(BeamEnd::Exhausted);
        }
        // Layer d + 2 must not repeat layer d's states.
        previous.clear();
        previous.extend(meta.iter().map(|s| s.2));
        parents.push(chosen.iter().map(|c| c.2).collect());
        // The next layer's boards, written over the spare ones.
        let k = chosen.len();
        spare.truncate(k);
        let reuse = spare.len();
        let build = |out: &mut [B], offset: usize| {
            for (i, b) in out.iter_mut().enumerate() {
                let r = chosen[offset + i].2;
                b.clone_from(&boards[(r >> 2) as usize]);
                b.apply(Move::from_index((r & 3) as usize));
            }
        };
        let build_parts = threads.min(reuse / PARALLEL_MIN_STATES).max(1);
        if build_parts == 1 {
            build(&mut spare, 0);
        } else {
            let chunk = reuse.div_ceil(build_parts);
            spare
                .par_chunks_mut(chunk)
                .enumerate()
                .for_each(|(j, out)| build(out, j * chunk));
        }
        spare.extend(chosen[reuse..].iter().map(|&(_, _, r, _)| {
            boards[(r >> 2) as usize].neighbor(Move::from_index((r & 3) as usize))
        }));
        meta.clear();
        meta.extend(chosen.iter().map(|&(key, z, r, memo)| {
            let (h, s) = unrank(key);
            (h, Some(Move::from_index((r & 3) as usize)), z, memo, s)
        }));
        std::mem::swap(&mut boards, &mut spare);
        depth += 1;
        observe(depth, &boards);
    }
}

/// The one-thread layer's choice, into `unique` (in the order of `children`): the `width`
/// children of least (rank, hash) among the unique ones of `children` that are not in the
/// layer before last (hashes `previous`), a state's first child in the order (parent, move)
/// standing for it. `(least, most)` are the least and greatest h among `children`; `set`,
/// `by_h` and `keys` are buffers kept from layer to layer.
///
/// Only the children at or below the cut are looked up in the hash set: the least h at which
/// `children`, duplicates included, number at least `width` ÷ `rate` (the unique states a
/// child of the last pass, carried from layer to layer: a layer's copies are about as
/// frequent as its predecessor's; updated here). Copies of a state have the same
/// h, so the unique children at or below the cut are the unique children of least h; if fewer
/// than `width` remain, the cut moves past enough further children to make up the shortfall
/// at the rate of unique states a child seen so far (and a quarter more), and the
/// deduplication is redone (rare with linear conflict, whose group at the cut is usually much
/// larger than the duplicates; with the learned ranking's fine-grained h, moving the cut one h
/// a pass made a 6×6 beam of width 65,536 2.0–2.3× slower). The chosen states are exactly
/// those of deduplicating every child first ([`beam_threads`] on several threads does that).
///
/// Time: O(children) with one hash-set insertion per child at or below the cut and per state
/// of `previous`, each prefetched [`PREFETCH_AHEAD`] insertions before it, and a selection on
/// the unique ones.
#[expect(
    clippy::too_many_arguments,
    reason = "the children, the layer's facts, four reused buffers and the rate carried over"
)]
fn keep_best<M: Copy>(
    children: &[Child<M>],
    (least, most): (u32, u32),
    width: usize,
    previous: &[u64],
    set: &mut ZobristSet,
    by_h: &mut Vec<usize>,
    unique: &mut Vec<Child<M>>,
    keys: &mut Vec<(u64, u64)>,
    rate: &mut f64,
) {
    unique.clear();
    if children.is_empty() {
        return;
    }
    let h_of = |c: &Child<M>| unrank(c.0).0;
    // The children by h (unless the span of h is far wider than the layer: then no cut).
    let span = (most - least) as usize + 1;
    let mut cut = most;
    by_h.clear();
    if span <= 2 * children.len() + 1024 {
        by_h.resize(span, 0);
        for c in children {
            by_h[(h_of(c) - least) as usize] += 1;
        }
        // Enough children for `width` unique ones at the rate of the layer before.
        let target = (width as f64 / rate.clamp(0.05, 1.0)) as usize;
        let mut total = 0;
        for (i, &k) in by_h.iter().enumerate() {
            total += k;
            if total >= target {
                cut = least + i as u32;
                break;
            }
        }
    }
    loop {
        let within: usize = if by_h.is_empty() {
            children.len()
        } else {
            by_h[..=(cut - least) as usize].iter().sum()
        };
        set.clear_for(previous.len() + within);
        for (i, &z) in previous.iter().enumerate() {
            if let Some(&ahead) = previous.get(i + PREFETCH_AHEAD) {
                set.prefetch(ahead);
            }
            set.insert(z);
        }
        unique.clear();
        for (i, c) in children.iter().enumerate() {
            if let Some(ahead) = children.get(i + PREFETCH_AHEAD)
                && h_of(ahead) <= cut
            {
                set.prefetch(ahead.1);
            }
            if h_of(c) <= cut && set.insert(c.1) {
                unique.push(*c);
            }
        }
        *rate = unique.len().max(1) as f64 / within.max(1) as f64;
        if unique.len() >= width || cut >= most {
            break;
        }
        // Too many copies: widen the cut past enough children to make up the shortfall at
        // this pass's rate of unique states a child (with a quarter more for the rate's
        // error), and redo. One h at a time would redo the pass for every h past the cut:
        // with a fine-grained ranking (the learned one's h is in 1/16 moves) that was most
        // of a beam's time.
        let need = ((width - unique.len()) as f64 / *rate * 1.25) as usize + 1;
        let mut added = 0;
        while cut < most && added < need {
            cut += 1;
            added += by_h[(cut - least) as usize];
        }
    }
    if unique.len() > width {
        // Hashes are unique now, so exactly `width` keys are at most the width-th least.
        keys.clear();
        keys.extend(unique.iter().map(|c| (c.0, c.1)));
        let (_, &mut last, _) = keys.select_nth_unstable(width - 1);
        unique.retain(|c| (c.0, c.1) <= last);
    }
}

#[cfg(test)]
mod tests {
    use npuzzle_core::{Board, Goal, Shape};
    use npuzzle_nxn::VecBoard;
    use rand::{Rng, SeedableRng};

    use super::{Child, Spread, Ties, ZobristSet, keep_best, rank, unrank};

    /// The spread updated a move at a time equals the spread from scratch, along random walks
    /// on square and oblong boards, for both goal conventions.
    #[test]
    fn spread_updates_match_from_scratch() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for (w, h) in [(3, 3), (7, 7), (5, 3), (2, 9), (12, 4)] {
            let shape = Shape::new(w, h).unwrap();
            for goal in [Goal::blank_last(shape), Goal::blank_first(shape)] {
                for ties in [Ties::Squares, Ties::Cubes] {
                    let mut b = VecBoard::from_layout(goal.layout()).unwrap();
                    let spread = Spread::new(&b, ties);
                    let mut s = spread.of(&b);
                    assert_eq!(s, 0, "{w}x{h}: the goal's spread");
                    for _ in 0..3000 {
                        let legal: Vec<_> = b.legal().into_iter().collect();
                        let m = legal[rng.random_range(0..legal.len())];
                        let from = b.tile_cell(m);
                        s = spread.moved(s, b.tile(from), from, b.blank());
                        b.apply(m);
                        assert_eq!(s, spread.of(&b), "{w}x{h}");
                    }
                    assert!(s > 0);
                }
            }
        }
    }

    /// The one-thread choice keeps exactly the states of the plain one: deduplicate every
    /// child (first occurrence kept, the layer before last's states dropped), then the `width`
    /// least (rank, hash). Random layers with many copies, h spread over a few values (so that
    /// the cut falls inside a group), and widths from 1 to above the layer's size.
    #[test]
    fn keep_best_matches_dedup_all_then_select() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let (mut set, mut by_h, mut unique, mut keys) =
            (ZobristSet::default(), Vec::new(), Vec::new(), Vec::new());
        let mut rate = 1.0;
        for round in 0..600 {
            let n = rng.random_range(0..3000usize);
            let pool = (n / 3).max(1) as u64;
            // A state's hash decides its h and spread, as on a board: h over 7 values (linear
            // conflict's coarse groups) or, every other round, over 2,000 (a fine-grained
            // ranking, where the cut moves many h at once).
            let grain = if round % 2 == 0 { 7 } else { 2000 };
            let state = |z: u64| rank(10 + (z % grain) as u32, (z / grain % 50) as u32);
            let children: Vec<Child<()>> = (0..n)
                .map(|i| {
                    let z = rng.random_range(0..pool) * 0x9E37_79B9 + 1;
                    (state(z), z, i as u32, ())
                })
                .collect();
            let previous: Vec<u64> = (0..rng.random_range(0..200))
                .map(|_| rng.random_range(0..pool) * 0x9E37_79B9 + 1)
                .collect();
            let hs = children.iter().fold((u32::MAX, 0), |(a, b), c| {
                let h = unrank(c.0).0;
                (a.min(h), b.max(h))
            });
            for width in [1, 5, 100, n / 4 + 1, n, 2 * n + 1] {
                keep_best(
                    &children,
                    hs,
                    width,
                    &previous,
                    &mut set,
                    &mut by_h,
                    &mut unique,
                    &mut keys,
                    &mut rate,
                );
                let mut seen: std::collections::HashSet<u64> = previous.iter().copied().collect();
                let mut plain: Vec<Child<()>> = children
                    .iter()
                    .filter(|c| seen.insert(c.1))
                    .copied()
                    .collect();
                plain.sort_by_key(|c| (c.0, c.1));
                plain.truncate(width);
                let mut got = unique.clone();
                got.sort_by_key(|c| (c.0, c.1));
                assert_eq!(got, plain, "round {round}, {n} children, width {width}");
            }
        }
    }

    /// The observer sees every layer once, in depth order, each of at most `width` distinct
    /// states, and the answer's state at depth d is in layer d (random 5×5 boards, widths 1
    /// to 256).
    #[test]
    fn the_observer_sees_each_layer_and_the_answer_passes_through_them() {
        use npuzzle_core::{Goal, LinearConflict, Move};
        use std::sync::atomic::AtomicU32;
        let shape = Shape::new(5, 5).unwrap();
        let goal = Goal::blank_last(shape);
        let lc = LinearConflict::new(&goal);
        let goal_key = VecBoard::from_layout(goal.layout()).unwrap().key();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for width in [1, 16, 256] {
            for _ in 0..4 {
                let mut b = VecBoard::from_layout(goal.layout()).unwrap();
                for _ in 0..200 {
                    let legal: Vec<Move> = b.legal().into_iter().collect();
                    b.apply(legal[rng.random_range(0..legal.len())]);
                }
                let mut layers: Vec<(u32, Vec<_>)> = Vec::new();
                let found = super::beam_observed(
                    &b,
                    &goal_key,
                    &lc,
                    width,
                    1,
                    Ties::Squares,
                    &AtomicU32::new(1000),
                    &|| false,
                    &super::BeamCounts::default(),
                    &mut |depth, layer: &[VecBoard]| {
                        layers.push((depth, layer.iter().map(Board::key).collect()));
                    },
                );
                let Ok(moves) = found else { continue };
                // Every layer before the goal's, numbered from 1.
                assert_eq!(layers.len() + 1, moves.len(), "width {width}");
                let mut state = b.clone();
                for (i, (depth, keys)) in layers.iter().enumerate() {
                    assert_eq!(*depth as usize, i + 1);
                    assert!(keys.len() <= width);
                    let distinct: std::collections::HashSet<_> = keys.iter().collect();
                    assert_eq!(distinct.len(), keys.len(), "a layer repeats a state");
                    state.apply(moves[i]);
                    assert!(
                        keys.contains(&state.key()),
                        "depth {depth}: the answer's state"
                    );
                }
            }
        }
    }

    /// Ranks order by h first, then by spread, and give both back.
    #[test]
    fn ranks_order_by_h_then_spread() {
        assert!(rank(3, u32::MAX) < rank(4, 0));
        assert!(rank(3, 5) < rank(3, 6));
        assert_eq!(unrank(rank(17, 123_456)), (17, 123_456));
    }
}
