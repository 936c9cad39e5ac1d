//! # npuzzle-astar
//!
//! A* (Hart, Nilsson & Raphael, "A formal basis for the heuristic determination of minimum cost
//! paths", IEEE Transactions on Systems Science and Cybernetics 4(2), 1968) for sliding-tile
//! puzzles, generic over [`npuzzle_core::Board`] and any admissible [`Heuristic`].
//!
//! A* keeps every state it meets. It repeatedly expands the open state of least f = g + h (ties
//! go to the smaller h, i.e. the deeper state), tests for the goal when a state is *expanded*
//! (not when it is generated), and stops at the first goal expanded: with an admissible
//! heuristic that solution is optimal. A state reached again by a strictly shorter path is
//! updated and, if it was already expanded, reopened, so the answer stays optimal even for
//! admissible heuristics that are not consistent (all of `npuzzle-core`'s are consistent, so
//! they never reopen a state).
//!
//! ## When to use it rather than IDA*
//! A* expands each state at most once and never re-enters a state through another path, so on
//! the 8-puzzle, on small non-square boards and on short or medium 15-puzzle instances it does
//! the least work. But it **stores every state it generates** (about 21 bytes each, see below),
//! so its memory grows with the search, and each node costs a few cache misses (1–5 million
//! generated nodes per second, against tens of millions for IDA*). Measured on seed15's 64-move
//! instance: 15.6 million states, 445 MiB and 14 s with linear conflict; 73 million states,
//! 1.7 GiB and 79 s with Manhattan distance; with Hamming, the default 4 GiB limit stops it
//! after 216 million states at f-bound 40. The hardest of Korf's 100 need more states than fit
//! in a few GiB, and boards larger than the 15-puzzle are out of reach. IDA*
//! (`npuzzle-idastar`) stores nothing but the current path: it is the engine for hard
//! 15-puzzles and anything bigger; A* is the engine when the instance fits in memory, or when
//! transpositions would make IDA* re-expand the same states many times (weak heuristics such as
//! Hamming on the 8-puzzle).
//!
//! ## Greedy best-first search
//! [`Greedy`] runs the same loop on the same storage ordered by h alone (Doran & Michie 1966;
//! Pearl 1984): it expands the stored state of least h, tests for the goal when a state is
//! generated, and never updates or reopens a stored state. It is fast and its answers are long;
//! it proves nothing about their length ([`Guarantee::Unproven`] with every heuristic). It is
//! here, rather than in its own crate, because it is A\* without g in the priority: the arena,
//! the visited map, the open list, the memory accounting and the widening of the meta words
//! are shared, and so are the limits and their errors.
//!
//! ## Memory layout
//! States live in core's [`NodeStore`] (shared with `npuzzle-bidirectional` and weighted A*):
//! each state is stored once, in an [`Arena`](npuzzle_core::Arena) of chunks of 16,384 states (structure of arrays):
//! its key (`B::Key`, 8 bytes for the `u64` bitboard) and a 2-byte meta word packing g
//! (13 bits), the move that reached it (2 bits) and a closed flag. If a search ever needs g
//! above 8,191 moves (only conceivable on huge boards), the meta words are widened to 4 bytes
//! (g up to 2^29 − 1) and the search resumes where it was. The parent is not stored: the path
//! is rebuilt at the end by undoing each state's move and looking the parent up in the visited
//! map.
//!
//! The visited map is a `hashbrown::HashTable<u32>` of arena indices hashed with
//! [`FoldedFx`](npuzzle_core::FoldedFx): Fx over the key, then a folded multiply (Fx alone leaves
//! the bucket bits of big tables depending on the tile in cell 0 only, which made probe
//! sequences explode past 2^26 buckets): 4 bytes plus one control byte per bucket, at
//! most 87.5 % full, doubling when full, and no key is stored twice. The open list is a
//! [`std::collections::BinaryHeap<u64>`] of packed entries — f (24 bits), a tie-break on h
//! (8 bits) and the arena index (32 bits) — so 8 bytes per open entry; it grows by a quarter at
//! a time. h is not stored: it is f − g when a state is expanded, and a child's h comes from
//! [`Heuristic::update`] on its parent.
//!
//! Measured at the end of 15-puzzle searches of 0.5 to 216 million states (Manhattan distance,
//! linear conflict, Hamming): **19.6 to 25.1 bytes per stored state**, typically 21–24: 10 in the
//! arena, 5.7 to 11.4 in the map depending on where it stands between two doublings, and 3.7–4.7
//! in the open list (open entries are about 46 % of the stored states). The peak, while the map
//! grows and holds its old and new tables, is up to about 5 bytes per state more.
//! [`SearchReport`] gives the exact figures of the last search;
//! [`Stats::peak_memory_bytes`](npuzzle_core::Stats::peak_memory_bytes) the largest number of
//! bytes held at once.
//!
//! ## Memory limit
//! The bytes reserved by arena, map and open list (capacity × element size) are accounted
//! before every growth ([`NodeStore::grow`]), counting both tables while the map grows; a growth that would exceed
//! [`Limits::memory_bytes`] — by default [`DEFAULT_MEMORY_LIMIT`], 4 GiB — stops the search
//! cleanly with [`SearchError::LimitReached`] and [`Limit::Memory`], whose [`Progress`] says how
//! many states were stored and which f-bound was reached (a lower bound on the solution
//! length). Process memory (peak RSS) tracks the accounted bytes closely: 0.99 GiB for a
//! search stopped at a 1 GiB limit, 4.0 GiB at the default limit. Keys that own heap memory (a Vec-based board's) are counted at
//! `size_of::<B::Key>()`, so the real footprint of such boards is larger than accounted.
//!
//! ## Limits of the encoding
//! f values are packed in 24 bits: states with f ≥ 16,777,215 are kept in the open list, after
//! all others, with their h recomputed from scratch, so solutions are guaranteed optimal up to
//! 16,777,214 moves — far beyond any search that fits in memory. At most 2^32 states are
//! stored (a memory-limit stop beyond that).
//!
//! ## Example
//! ```
//! use npuzzle_astar::AStar;
//! use npuzzle_core::{BitBoard, Board, Goal, Limits, Manhattan, Outcome, Solver, parse_board, verify};
//!
//! let start = parse_board("8 6 7 2 5 4 3 0 1", None)?; // 31 moves from the blank-last goal
//! let goal = Goal::blank_last(start.shape());
//! let board = BitBoard::from_layout(&start)?;
//! let mut astar = AStar::new();
//! let outcome = astar.solve(&board, &goal, &Manhattan::new(&goal), &Limits::default())?;
//! let Outcome::Solved(solution) = outcome else { panic!("solvable") };
//! assert_eq!(solution.moves.len(), 31);
//! verify(&start, &solution.moves, goal.layout())?;
//! assert!(solution.stats.stored_states <= 181_440);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod greedy;
mod hill_climbing;
mod meta;

use std::collections::BinaryHeap;
use std::mem::size_of;

use npuzzle_core::{
    Board, Goal, Guarantee, Heuristic, HeuristicProperties, Limit, LimitClock, Limits, Move,
    NodeStore, Outcome, Progress, SearchError, SearchStart, Solution, Solver, Stats, StoreReport,
    Visit, start_search,
};

use crate::meta::Meta;

pub use crate::greedy::Greedy;
pub use crate::hill_climbing::HillClimbing;

/// The memory limit applied when [`Limits::memory_bytes`] is `None`: 4 GiB
/// (4 × 2^30 bytes) of arena, visited map and open list.
pub const DEFAULT_MEMORY_LIMIT: u64 = 4 << 30;

/// Expansions between two checks of the node, time and cancel limits (a power of two): 2^12,
/// a few milliseconds at these engines' rates, so that `--timeout T` stops within T + 10 %
/// even for T = 0.5 s on a loaded machine (BENCHMARKS.md, "Limits honoured"; 2^14 overshot).
const CHECK_INTERVAL: u64 = 1 << 12;
/// Expansions between two observer calls (a power of two, a multiple of `CHECK_INTERVAL`).
const OBSERVE_INTERVAL: u64 = 1 << 16;
/// Scratch larger than this (bytes) is freed after a search rather than kept for the next one.
const RETAIN_BYTES: u64 = 32 << 20;
/// Open-list entries reserved at least per growth.
const MIN_HEAP_GROWTH: usize = 1 << 12;

/// Bits of an open-list entry: f (24, inverted), tie-break on h (8, inverted), index (32).
const F_MAX: u32 = (1 << 24) - 1;
const TIE_MAX: u32 = (1 << 8) - 1;
const F_SHIFT: u32 = 40;
const TIE_SHIFT: u32 = 32;

/// Packs an open-list entry. `BinaryHeap` is a max-heap: f and h are inverted so that the least
/// f pops first and, among equal f, the least h (the deepest state). f above `F_MAX` is clamped
/// (the state is then expanded after every state with a smaller f, and its h is recomputed);
/// h above `TIE_MAX` ties.
#[inline]
fn entry(f: u32, h: u32, index: u32) -> u64 {
    (u64::from(F_MAX - f.min(F_MAX)) << F_SHIFT)
        | (u64::from(TIE_MAX - h.min(TIE_MAX)) << TIE_SHIFT)
        | u64::from(index)
}

/// f of an entry (`F_MAX` when clamped).
#[inline]
fn entry_f(e: u64) -> u32 {
    F_MAX - (e >> F_SHIFT) as u32
}

/// The arena index of an entry.
#[inline]
fn entry_index(e: u64) -> u32 {
    e as u32
}

/// Details of an A* search that [`Stats`] does not carry, for memory measurements.
///
/// All byte counts are bytes reserved (capacity × element size), at the end of the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchReport {
    /// Distinct states stored in the arena.
    pub stored_states: u64,
    /// Entries left in the open list (open states, plus stale entries of states that were
    /// later reached by a shorter path).
    pub open_entries: u64,
    /// Bytes of the arena (keys and meta words, in chunks of 16,384 states).
    pub arena_bytes: u64,
    /// Bytes of the visited map.
    pub map_bytes: u64,
    /// Bytes of the open list.
    pub heap_bytes: u64,
    /// Largest number of bytes held at once during the search, including the moment when a
    /// growing visited map holds both its old and its new table.
    pub peak_bytes: u64,
    /// Expanded states that were reached again by a shorter path and reopened (0 with a
    /// consistent heuristic).
    pub reopened: u64,
}

impl SearchReport {
    /// The report of a search whose node store reported `store` (with the open list's bytes
    /// as its outside bytes), with `open_entries` entries left in the open list and `reopened`
    /// states reopened.
    fn new(store: StoreReport, open_entries: u64, reopened: u64) -> SearchReport {
        SearchReport {
            stored_states: store.stored_states,
            open_entries,
            arena_bytes: store.arena_bytes,
            map_bytes: store.map_bytes,
            heap_bytes: store.outside_bytes,
            peak_bytes: store.peak_bytes,
            reopened,
        }
    }

    /// Arena + map + open list, in bytes.
    pub fn total_bytes(&self) -> u64 {
        self.arena_bytes + self.map_bytes + self.heap_bytes
    }

    /// [`total_bytes`](SearchReport::total_bytes) per stored state (0 when nothing is stored).
    pub fn bytes_per_state(&self) -> f64 {
        if self.stored_states == 0 {
            0.0
        } else {
            self.total_bytes() as f64 / self.stored_states as f64
        }
    }
}

/// Reusable storage of one search: the node store (arena and visited map, with the memory
/// accounting) and the open list.
#[derive(Debug)]
struct Scratch<K, M> {
    store: NodeStore<K, M>,
    heap: BinaryHeap<u64>,
}

impl<K, M> Default for Scratch<K, M> {
    fn default() -> Self {
        Scratch {
            store: NodeStore::default(),
            heap: BinaryHeap::new(),
        }
    }
}

impl<K: std::hash::Hash + Eq, M: Meta> Scratch<K, M> {
    /// Bytes reserved by arena, map and heap.
    fn bytes(&self) -> u64 {
        self.store.bytes() + self.heap_bytes()
    }

    fn heap_bytes(&self) -> u64 {
        (self.heap.capacity() * size_of::<u64>()) as u64
    }

    /// Forgets every state; frees the storage when it is larger than `RETAIN_BYTES` (or when
    /// `free` is set), else keeps it for the next search.
    fn clear(&mut self, free: bool) {
        if free || self.bytes() > RETAIN_BYTES {
            self.store.release();
            self.heap = BinaryHeap::new();
        } else {
            self.store.clear();
            self.heap.clear();
        }
    }

    /// Whether the arena, the map and the heap all have room for `n` more states and entries.
    #[inline]
    fn has_room(&self, n: usize) -> bool {
        self.store.has_room(n) && self.heap.capacity() - self.heap.len() >= n
    }

    /// Makes room for `n` more states and open entries, growing the arena, the map or the heap
    /// as needed. Returns `false`, growing nothing, when that would take more than the store's
    /// limit (counting the old and new map together while the map grows) or more than 2^32
    /// states ([`NodeStore::grow`]).
    #[cold]
    #[inline(never)]
    fn grow(&mut self, n: usize) -> bool {
        let heap_short = self.heap.capacity() - self.heap.len() < n;
        let heap_add = if heap_short {
            (self.heap.capacity() / 4).max(MIN_HEAP_GROWTH).max(n)
        } else {
            0
        };
        let heap_growth = (heap_add * size_of::<u64>()) as u64;
        if !self.store.grow(n, self.heap_bytes(), heap_growth) {
            return false;
        }
        if heap_short {
            self.heap.reserve_exact(heap_add);
        }
        true
    }

    /// The same search with 4-byte meta words, or `None` when they would take more than the
    /// limit. Leaves `self` empty.
    fn widen(&mut self) -> Option<Scratch<K, u32>> {
        let heap_bytes = self.heap_bytes();
        let s = std::mem::take(self);
        match s.store.map_meta(heap_bytes, Meta::word) {
            Ok(store) => Some(Scratch {
                store,
                heap: s.heap,
            }),
            Err(store) => {
                *self = Scratch {
                    store,
                    heap: s.heap,
                };
                None
            }
        }
    }

    /// Measurements for [`SearchReport`].
    fn report(&self, reopened: u64) -> SearchReport {
        SearchReport::new(
            self.store.report(self.heap_bytes()),
            self.heap.len() as u64,
            reopened,
        )
    }
}

/// The A* engine: best-first search with a visited map, optimal with any admissible heuristic.
///
/// Generic over the board type `B` because it owns reusable storage for `B`'s keys: the arena,
/// the visited map and the open list are kept between solves (and freed after a search that
/// grew them past 32 MiB), so one engine can solve many boards in a row.
///
/// ```
/// use npuzzle_astar::AStar;
/// use npuzzle_core::{BitBoard, Board, Goal, Limits, LinearConflict, Outcome, Solver, parse_board};
///
/// let goal = Goal::blank_last(npuzzle_core::Shape::square(4)?);
/// let h = LinearConflict::new(&goal);
/// let mut astar = AStar::<BitBoard>::new();
/// for (hex, optimal) in [("2348170c56ab9def", 15), ("51309af4d7b826ec", 25)] {
///     let board = BitBoard::from_layout(&parse_board(hex, None)?)?;
///     let Outcome::Solved(s) = astar.solve(&board, &goal, &h, &Limits::default())? else {
///         panic!("solvable")
///     };
///     assert_eq!(s.moves.len(), optimal);
///     assert_eq!(astar.last_report().stored_states, s.stats.stored_states);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct AStar<B: Board> {
    scratch: Scratch<B::Key, u16>,
    last: SearchReport,
}

impl<B: Board> Default for AStar<B> {
    fn default() -> Self {
        AStar {
            scratch: Scratch::default(),
            last: SearchReport::default(),
        }
    }
}

impl<B: Board> AStar<B> {
    /// A new engine. Allocates nothing until the first solve.
    pub fn new() -> AStar<B> {
        AStar::default()
    }

    /// Memory details of the last search (solved or stopped by a limit; all zero before the
    /// first search and after a board answered without search: unsolvable, or the goal).
    pub fn last_report(&self) -> &SearchReport {
        &self.last
    }

    /// Bytes reserved per stored state (arena + map + open list) at the end of the last
    /// search; see [`SearchReport::bytes_per_state`].
    pub fn bytes_per_state(&self) -> f64 {
        self.last.bytes_per_state()
    }

    /// Frees the storage kept for the next search.
    pub fn release_memory(&mut self) {
        self.scratch.clear(true);
    }
}

/// How a search ended without an answer.
enum Stop {
    /// A node, time or cancel limit.
    Clock(Limit),
    /// The memory limit (or the 2^32-state limit of the arena indices).
    Memory,
    /// A g too large for the meta words: widen them and resume.
    Widen,
}

/// One search's state beyond the scratch storage. `GREEDY` selects greedy best-first search
/// ([`Greedy`]): priority h instead of g + h, newest first among equal h, goal test when a
/// state is generated, and a state is never updated nor reopened once stored.
struct Run<'a, B: Board, H, O, const GREEDY: bool> {
    start: &'a B,
    heuristic: &'a H,
    goal_key: B::Key,
    clock: LimitClock,
    observer: O,
    expanded: u64,
    generated: u64,
    reopened: u64,
    /// f of the state being expanded (A\*); h of the start board (greedy search, whose f = h
    /// bounds nothing).
    bound: u32,
    /// States stored when the search stopped.
    stored: u64,
}

impl<B: Board, H: Heuristic<B>, O: FnMut(&Progress), const GREEDY: bool> Run<'_, B, H, O, GREEDY> {
    fn progress(&self) -> Progress {
        Progress {
            expanded: self.expanded,
            generated: self.generated,
            seconds: self.clock.seconds(),
            bound: self.bound,
            stored_states: self.stored,
        }
    }

    /// Limit check, and the observer call every `OBSERVE_INTERVAL` expansions.
    #[cold]
    #[inline(never)]
    fn checkpoint(&mut self, stored: usize) -> Result<(), Stop> {
        self.stored = stored as u64;
        if self.expanded.is_multiple_of(OBSERVE_INTERVAL) {
            let p = self.progress();
            (self.observer)(&p);
        }
        self.clock
            .check(self.generated)
            .map_or(Ok(()), |l| Err(Stop::Clock(l)))
    }

    /// Stores the start board (h = `h0`) as state 0 and opens it.
    fn open_root<M: Meta>(&mut self, s: &mut Scratch<B::Key, M>, h0: u32) -> Result<(), Stop> {
        self.bound = h0;
        let p = self.progress();
        (self.observer)(&p);
        if !s.grow(4) {
            return Err(Stop::Memory);
        }
        let root = match s.store.find_or_insert(self.start.key(), M::pack(0, 0)) {
            Visit::New(i) | Visit::Seen(i) => i,
        };
        debug_assert_eq!(root, 0);
        s.heap.push(entry(h0, h0, root));
        Ok(())
    }

    /// Expands open states in order of f until the goal is popped (A\*) or generated (greedy);
    /// returns its index.
    fn expand<M: Meta>(&mut self, s: &mut Scratch<B::Key, M>) -> Result<u32, Stop> {
        while let Some(e) = s.heap.pop() {
            let i = entry_index(e);
            let m = s.store.meta(i);
            if m.is_closed() {
                // Stale: the state was reached by a shorter path and expanded with it.
                continue;
            }
            let g = m.g();
            let f = entry_f(e);
            if !GREEDY {
                self.bound = f;
            }
            let key = s.store.key(i);
            if *key == self.goal_key {
                return Ok(i);
            }
            if g >= M::G_MAX {
                s.heap.push(e);
                return Err(Stop::Widen);
            }
            let mut board = self.start.with_key(key);
            // The popped entry of an open state is always its latest (least f), so h = f - g
            // (greedy: f = h).
            let h = if f == F_MAX {
                self.heuristic.estimate(&board)
            } else if GREEDY {
                f
            } else {
                debug_assert!(f >= g);
                f - g
            };
            *s.store.meta_mut(i) = m.closed();
            self.expanded += 1;
            if self.expanded.is_multiple_of(CHECK_INTERVAL) {
                self.checkpoint(s.store.len())?;
            }
            if !s.has_room(4) && !s.grow(4) {
                return Err(Stop::Memory);
            }
            let mut moves = board.legal();
            if i != 0 {
                moves = moves.without(Move::from_index(m.came()).inverse());
            }
            let g2 = g + 1;
            for mv in moves {
                self.generated += 1;
                let h2 = self.heuristic.update(&board, h, mv);
                board.apply(mv);
                let child = board.key();
                board.apply(mv.inverse());
                let is_goal = GREEDY && child == self.goal_key;
                match s.store.find_or_insert(child, M::pack(g2, mv.index())) {
                    Visit::Seen(_) if GREEDY => {}
                    Visit::New(j) if GREEDY => {
                        if is_goal {
                            return Ok(j);
                        }
                        // Ties on h: the larger index, i.e. the newest state, pops first.
                        s.heap.push(entry(h2, 0, j));
                    }
                    Visit::Seen(j) => {
                        let mj = s.store.meta(j);
                        if g2 < mj.g() {
                            self.reopened += u64::from(mj.is_closed());
                            *s.store.meta_mut(j) = M::pack(g2, mv.index());
                            s.heap.push(entry(g2 + h2, h2, j));
                        }
                    }
                    Visit::New(j) => {
                        s.heap.push(entry(g2 + h2, h2, j));
                    }
                }
            }
        }
        unreachable!(
            "the parity test proved the goal reachable, yet the search exhausted the state space"
        )
    }

    /// The moves from the root (state 0) to state `i`, following each state's move back.
    fn path<M: Meta>(&self, s: &Scratch<B::Key, M>, mut i: u32) -> Vec<Move> {
        let mut moves = Vec::with_capacity(s.store.meta(i).g() as usize);
        while i != 0 {
            let m = Move::from_index(s.store.meta(i).came());
            moves.push(m);
            let mut board = self.start.with_key(s.store.key(i));
            board.apply(m.inverse());
            i = s
                .store
                .find(&board.key())
                .expect("every state's parent is stored");
        }
        moves.reverse();
        moves
    }

    /// Runs A* in `s` (2-byte meta words for `M = u16`), widening the meta words to 4 bytes
    /// and resuming if g outgrows them. Returns the moves, and the report of the storage used.
    fn run<M: Meta>(
        &mut self,
        s: &mut Scratch<B::Key, M>,
        h0: u32,
    ) -> (Result<Vec<Move>, Stop>, SearchReport) {
        let end = self.open_root(s, h0).and_then(|()| self.expand(s));
        self.stored = s.store.len() as u64;
        match end {
            Ok(goal) => (Ok(self.path(s, goal)), s.report(self.reopened)),
            Err(Stop::Widen) => match s.widen() {
                Some(mut wide) => {
                    let end = self.expand(&mut wide);
                    self.stored = wide.store.len() as u64;
                    let end = match end {
                        Ok(goal) => Ok(self.path(&wide, goal)),
                        // g beyond 2^29 - 1 moves: more states than the indices address.
                        Err(Stop::Widen) => Err(Stop::Memory),
                        Err(stop) => Err(stop),
                    };
                    (end, wide.report(self.reopened))
                }
                None => (Err(Stop::Memory), s.report(self.reopened)),
            },
            Err(stop) => (Err(stop), s.report(self.reopened)),
        }
    }
}

/// The whole solve in `scratch`, which is left cleared (or freed after a large search): A\*, or
/// greedy best-first search when `GREEDY`. Returns the outcome and the storage report.
fn solve_in<B: Board, H: Heuristic<B>, O: FnMut(&Progress), M: Meta, const GREEDY: bool>(
    scratch: &mut Scratch<B::Key, M>,
    start: &B,
    goal: &Goal,
    heuristic: &H,
    limits: &Limits,
    observer: O,
) -> (Result<Outcome, SearchError>, SearchReport) {
    let goal_board = match start_search(start, goal) {
        Ok(SearchStart::Search { goal_board, .. }) => goal_board,
        Ok(SearchStart::Answered(outcome)) => return (Ok(outcome), SearchReport::default()),
        Err(e) => return (Err(e), SearchReport::default()),
    };
    let memory_limit = limits.memory_bytes.unwrap_or(DEFAULT_MEMORY_LIMIT);
    if scratch.bytes() > memory_limit {
        scratch.clear(true);
    }
    scratch.store.begin(memory_limit, scratch.heap_bytes());
    let h0 = heuristic.estimate(start);
    let mut run = Run::<B, H, O, GREEDY> {
        start,
        heuristic,
        goal_key: goal_board.key(),
        clock: LimitClock::new(limits),
        observer,
        expanded: 0,
        generated: 0,
        reopened: 0,
        bound: h0,
        stored: 0,
    };
    let (end, report) = run.run(scratch, h0);
    scratch.clear(false);
    let result = match end {
        Ok(moves) => Ok(Outcome::Solved(Solution {
            moves,
            guarantee: if GREEDY {
                Guarantee::Unproven
            } else {
                Guarantee::of_admissible_search(heuristic.properties())
            },
            stats: Stats {
                expanded: run.expanded,
                generated: run.generated,
                seconds: run.clock.seconds(),
                initial_h: h0,
                iterations: Vec::new(),
                stored_states: report.stored_states,
                peak_memory_bytes: report.peak_bytes,
                bidirectional: None,
            },
        })),
        Err(stop) => {
            let limit = match stop {
                Stop::Clock(l) => l,
                Stop::Memory | Stop::Widen => Limit::Memory(memory_limit),
            };
            Err(SearchError::LimitReached {
                limit,
                progress: run.progress(),
            })
        }
    };
    (result, report)
}

impl<B: Board> Solver<B> for AStar<B> {
    fn name(&self) -> &'static str {
        "astar"
    }

    /// Optimal with any admissible heuristic: a state reached again by a shorter path is
    /// reopened, so consistency is not needed.
    fn guarantee(&self, heuristic: HeuristicProperties) -> Guarantee {
        Guarantee::of_admissible_search(heuristic)
    }

    /// Runs A*: parity check, then best-first search until the goal is expanded.
    ///
    /// Time: O(s log s) for s stored states (one heap operation per generated state, one
    /// visited-map probe per generated node); memory: about 20–24 bytes per stored state for
    /// `u64` keys, bounded by [`Limits::memory_bytes`] (default [`DEFAULT_MEMORY_LIMIT`]).
    /// Node, time and cancel limits are checked every 2^12 expansions, so a node limit can be
    /// overshot by up to 2^14 generated nodes; the observer is called at the start and every
    /// 2^16 expansions.
    ///
    /// # Errors
    /// [`SearchError::LimitReached`] with [`Limit::Memory`] when storing more states would take
    /// more than the memory limit (or more than 2^32 states), with the other limits when they
    /// are hit; [`SearchError::Goal`] when the goal's shape differs from the board's;
    /// [`SearchError::Board`] when the goal does not fit the board type.
    ///
    /// # Panics
    /// Only on a broken [`Board`] implementation (a solvable board whose goal is unreachable).
    fn solve_observed<H: Heuristic<B>, O: FnMut(&Progress)>(
        &mut self,
        start: &B,
        goal: &Goal,
        heuristic: &H,
        limits: &Limits,
        observer: O,
    ) -> Result<Outcome, SearchError> {
        let (result, report) = solve_in::<B, H, O, u16, false>(
            &mut self.scratch,
            start,
            goal,
            heuristic,
            limits,
            observer,
        );
        self.last = report;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_order_by_f_then_h() {
        let mut heap = BinaryHeap::new();
        heap.push(entry(10, 5, 1));
        heap.push(entry(9, 9, 2));
        heap.push(entry(10, 2, 3));
        heap.push(entry(12, 0, 4));
        heap.push(entry(10, 300, 5));
        let order: Vec<u32> = std::iter::from_fn(|| heap.pop()).map(entry_index).collect();
        assert_eq!(order, [2, 3, 1, 5, 4]);
        assert_eq!(entry_f(entry(57, 3, u32::MAX)), 57);
        assert_eq!(entry_index(entry(57, 3, u32::MAX)), u32::MAX);
        assert_eq!(entry_f(entry(u32::MAX, 3, 0)), F_MAX);
    }

    /// Meta words that hold g up to 7 only, to exercise widening on small boards.
    #[derive(Clone, Copy, Debug)]
    struct Tiny(u16);

    impl Meta for Tiny {
        const G_MAX: u32 = 7;
        fn pack(g: u32, came: usize) -> Tiny {
            assert!(g <= Self::G_MAX, "g {g} overflows");
            Tiny(((g << 3) | came as u32) as u16)
        }
        fn word(self) -> u32 {
            u32::from(self.0)
        }
        fn closed(self) -> Tiny {
            Tiny(self.0 | 4)
        }
    }

    #[test]
    fn widening_meta_words_keeps_searches_optimal() {
        use npuzzle_core::{BitBoard, Manhattan, Shape, verify};
        let goal = Goal::blank_last(Shape::square(3).unwrap());
        let oracle = npuzzle_testsuite::BfsOracle::new(&goal);
        let h = Manhattan::new(&goal);
        let mut scratch = Scratch::<u64, Tiny>::default();
        for (layout, d) in oracle.sample(1009) {
            let b = BitBoard::from_layout(&layout).unwrap();
            let (out, report) = solve_in::<_, _, _, _, false>(
                &mut scratch,
                &b,
                &goal,
                &h,
                &Limits::default(),
                |_| {},
            );
            let Ok(Outcome::Solved(s)) = out else {
                panic!("{out:?}")
            };
            assert_eq!(s.moves.len() as u32, d, "{layout}");
            verify(&layout, &s.moves, goal.layout()).unwrap();
            assert_eq!(report.stored_states, s.stats.stored_states);
            if d > 8 {
                // Widened: 8-byte keys and 4-byte words in the arena.
                assert!(
                    report.arena_bytes >= npuzzle_core::ARENA_CHUNK as u64 * 12,
                    "{report:?}"
                );
            }
        }
    }

    #[test]
    fn widening_meta_words_keeps_greedy_answers_valid() {
        use npuzzle_core::{BitBoard, Manhattan, Shape, verify};
        let goal = Goal::blank_last(Shape::square(3).unwrap());
        let oracle = npuzzle_testsuite::BfsOracle::new(&goal);
        let h = Manhattan::new(&goal);
        let mut scratch = Scratch::<u64, Tiny>::default();
        let mut widened = 0;
        for (layout, d) in oracle.sample(1009) {
            let b = BitBoard::from_layout(&layout).unwrap();
            let (out, report) = solve_in::<_, _, _, _, true>(
                &mut scratch,
                &b,
                &goal,
                &h,
                &Limits::default(),
                |_| {},
            );
            let Ok(Outcome::Solved(s)) = out else {
                panic!("{out:?}")
            };
            assert!(s.moves.len() as u32 >= d, "{layout}");
            // The goal itself is answered without search, with the (optimal) empty answer.
            let proven = if d == 0 {
                Guarantee::Optimal
            } else {
                Guarantee::Unproven
            };
            assert_eq!(s.guarantee, proven);
            verify(&layout, &s.moves, goal.layout()).unwrap();
            assert_eq!(report.reopened, 0);
            if s.moves.len() > 8 {
                widened += 1;
                assert!(
                    report.arena_bytes >= npuzzle_core::ARENA_CHUNK as u64 * 12,
                    "{report:?}"
                );
            }
        }
        assert!(widened > 0);
    }
}
