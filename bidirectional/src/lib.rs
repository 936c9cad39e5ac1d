//! # npuzzle-bidirectional
//!
//! Optimal front-to-end bidirectional heuristic search for sliding-tile puzzles, generic over
//! [`npuzzle_core::Board`] and any admissible [`Heuristic`]: a forward search from the start
//! board and a backward search from the goal, each guided by a heuristic toward the other end,
//! meeting in the middle.
//!
//! ## The algorithm: GBFHS
//! The engine implements **GBFHS**, the General Breadth-First Heuristic Search of Barley,
//! Riddle, Linares López, Dobson & Pohl ("GBFHS: A Generalized Breadth-First Heuristic Search
//! Algorithm", 11th Symposium on Combinatorial Search, 2018), the unit-cost member of the
//! family of bidirectional searches with a proven stopping rule that also contains MM (Holte,
//! Felner, Sharon & Sturtevant, AAAI 2016) and NBS (Chen, Holte, Zilles & Sturtevant, IJCAI
//! 2017). All of them bound any path through an open forward state u and an open backward
//! state v by `lb(u, v) = max(f_F(u), f_B(v), g_F(u) + g_B(v) + 1)`; GBFHS raises that bound
//! one move at a time:
//!
//! - It keeps an f-limit `fLim` (the lower bound on the solution length, starting at
//!   `max(h_F(start), h_B(goal))`) and two g-limits with `gLim_F + gLim_B = fLim`.
//! - In each direction it expands every open state with `f ≤ fLim` and `g < gLim`, in A*'s
//!   order (least f first, then greatest g, so the last f-layer is searched depth-first as with
//!   A*'s tie-breaking; with a consistent heuristic every state is expanded with its least g).
//!   Each generated state is looked up in the one shared visited map; if the other direction
//!   has reached it too, `g_F + g_B` is a solution and the best one, C, is kept with its
//!   *meeting state*.
//! - When the g-limits add up to less than `fLim`, one of them is raised: GBFHS leaves this
//!   *split function* open; this engine raises the direction whose next g-level holds fewer
//!   open states (Pohl's 1971 cardinality principle, applied per level). On Korf's 100 with
//!   Manhattan distance this beat the alternatives tried (counting only states with
//!   `f ≤ fLim`: 0.53× A*'s expansions on the 16 easiest instances against 0.41×; balancing
//!   the expansions of the two directions: up to 4.8× A*'s). When the g-limits reach `fLim` and
//!   every eligible state is expanded, `fLim` goes up by one.
//! - **Stopping rule: stop as soon as `C ≤ fLim`.** Once every state with `f ≤ fLim` and
//!   `g < gLim` is expanded in both directions, every path of length `c ≤ fLim` has been found:
//!   its first `gLim_F + 1` states are generated forward and its last `gLim_B + 1` backward,
//!   and these overlap because `gLim_F + gLim_B ≥ c` (all its states have `f ≤ c` by
//!   admissibility). So no solution is shorter than `fLim`, and a C equal to it is optimal.
//!   A meeting is never trusted by itself: a solution is returned only once the lower bound
//!   reaches its length. (Because GBFHS expands only states with g below its g-limits, whose
//!   sum is the proven bound, every meeting it finds is already no longer than that bound; the
//!   tests include over a thousand 8-puzzle boards on which a textbook bidirectional A\* that
//!   stops at its first meeting returns a longer path, and check that this engine does not.)
//!
//! With the [`Zero`] heuristic (h = 0 both ways) this is bidirectional breadth-first search:
//! the brute-force baseline, exact without any heuristic.
//!
//! Why GBFHS rather than NBS: with unit move costs, g and h are small integers, so open lists
//! can be arrays of buckets by (g, h) instead of the several priority queues NBS keeps; the
//! stopping rule is one comparison; and Barley et al. report it competitive with or better than
//! NBS and MM in expansions on the sliding-tile puzzle. Like NBS's, its lower bound is the one
//! above; unlike NBS it does not carry a factor-two guarantee against an optimal choice of
//! expansions.
//!
//! ## Heuristics in the two directions
//! The backward search needs estimates of the distance *to the start board*. The engine asks
//! the heuristic for a copy of itself aimed at the start board, with
//! [`Heuristic::for_goal`] and [`Goal::custom`]: Manhattan distance, linear conflict, Hamming
//! and zero all rebuild in O(N²) or less. A heuristic that cannot be rebuilt (for example a
//! pattern database computed for one goal) returns `None`; it then guides the forward search
//! only and the backward search is blind (h = 0), still optimal. Heuristics must be admissible;
//! the engine stays optimal with admissible heuristics that are not consistent by reopening a
//! state reached again by a shorter path (core's heuristics are consistent and never need it).
//!
//! ## Memory layout
//! Each state is stored once, however many directions reach it: its key (`B::Key`, 8 bytes for
//! the `u64` bitboard) and two 2-byte meta words, one per direction (g up to 8,190 moves, the
//! move that reached it, a closed flag, or "not reached"), in core's
//! [`NodeStore`](npuzzle_core::NodeStore) (shared with A*): an [`npuzzle_core::Arena`] of
//! 16,384-state chunks and one visited map, a `hashbrown::HashTable<u32>` of arena indices
//! ([`FoldedFx`](npuzzle_core::FoldedFx): Fx with a folded multiply), shared by both directions: one
//! probe per generated node finds the duplicate *and* the other direction's g. The open lists
//! are buckets of 4-byte arena indices by g and h. Parents are not stored: the path is rebuilt
//! by undoing each state's move and looking the parent up.
//!
//! Measured on 15-puzzle searches of 1 to 60 million stored states (see `BENCHMARKS.md`):
//! about 12 bytes of arena, 5–10 of map and 2–4 of open buckets per state, **19–26 bytes per
//! stored state** in all. [`SearchReport`] gives the exact figures of the last search.
//!
//! ## Memory limit
//! Arena, map and buckets are accounted (capacity × element size) before every growth,
//! counting old and new allocation together while one grows; a growth past
//! [`Limits::memory_bytes`] — by default [`DEFAULT_MEMORY_LIMIT`], 4 GiB, as for A* — stops
//! the search with [`SearchError::LimitReached`] and [`Limit::Memory`], whose [`Progress`]
//! gives the states stored and the lower bound reached. A search that would need g above 8,190
//! moves in one direction (conceivable only on huge boards) stops the same way.
//!
//! ## When to use it
//! Like A*, it stores every state it generates, so it is for instances that fit in memory.
//! Measured side by side with A* (`BENCHMARKS.md`, "Bidirectional search"), it answers the
//! 8-puzzle and easy 15-puzzles comparably; which one expands fewer nodes on hard 15-puzzle
//! instances depends on the instance. With the zero heuristic it is by far the fastest exact
//! brute force (it explores two balls of half the radius).
//!
//! ## Example
//! ```
//! use npuzzle_bidirectional::Bidirectional;
//! use npuzzle_core::{BitBoard, Board, Goal, Limits, Manhattan, Outcome, Solver, parse_board, verify};
//!
//! let start = parse_board("8 6 7 2 5 4 3 0 1", None)?; // 31 moves from the blank-last goal
//! let goal = Goal::blank_last(start.shape());
//! let board = BitBoard::from_layout(&start)?;
//! let mut engine = Bidirectional::new();
//! let outcome = engine.solve(&board, &goal, &Manhattan::new(&goal), &Limits::default())?;
//! let Outcome::Solved(solution) = outcome else { panic!("solvable") };
//! assert_eq!(solution.moves.len(), 31);
//! verify(&start, &solution.moves, goal.layout())?;
//! let meet = solution.stats.bidirectional.unwrap();
//! assert_eq!(meet.meeting_g_forward + meet.meeting_g_backward, 31);
//! assert_eq!(meet.lower_bound, 31);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod store;

use npuzzle_core::{
    BidirectionalStats, Board, Goal, Guarantee, Heuristic, HeuristicProperties, Limit, LimitClock,
    Limits, Move, Outcome, Progress, SearchError, SearchStart, Solution, Solver, Stats, Visit,
    Zero, start_search,
};

use crate::store::{Half, Halves, Open, Store, only};

/// The memory limit applied when [`Limits::memory_bytes`] is `None`: 4 GiB (4 × 2^30 bytes)
/// of arena, visited map and open buckets — the same as A*'s.
pub const DEFAULT_MEMORY_LIMIT: u64 = 4 << 30;

/// Expansions between two checks of the node, time and cancel limits (a power of two): 2^12,
/// a few milliseconds at these engines' rates, so that `--timeout T` stops within T + 10 %
/// even for T = 0.5 s on a loaded machine (BENCHMARKS.md, "Limits honoured"; 2^14 overshot).
const CHECK_INTERVAL: u64 = 1 << 12;
/// Expansions between two observer calls (a power of two, a multiple of `CHECK_INTERVAL`).
const OBSERVE_INTERVAL: u64 = 1 << 16;
/// Scratch larger than this (bytes) is freed after a search rather than kept for the next one.
const RETAIN_BYTES: u64 = 32 << 20;

/// Index of the forward direction (from the start board) in per-direction arrays.
const FORWARD: usize = 0;
/// Index of the backward direction (from the goal).
const BACKWARD: usize = 1;

/// Details of a bidirectional search that [`Stats`] does not carry, for memory measurements.
///
/// Byte counts are bytes reserved (capacity × element size) at the end of the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchReport {
    /// Distinct states stored (each once, whichever directions reached it).
    pub stored_states: u64,
    /// Entries left in the forward open buckets (stale ones included).
    pub forward_open: u64,
    /// Entries left in the backward open buckets (stale ones included).
    pub backward_open: u64,
    /// Bytes of the arena (keys and the two meta words, in chunks of 16,384 states).
    pub arena_bytes: u64,
    /// Bytes of the shared visited map.
    pub map_bytes: u64,
    /// Bytes of both directions' open buckets.
    pub open_bytes: u64,
    /// Largest number of bytes held at once during the search, counting a growing table's old
    /// and new allocation together.
    pub peak_bytes: u64,
    /// States expanded in one direction and later reached there by a shorter path, so expanded
    /// again (0 with a consistent heuristic).
    pub reopened: u64,
}

impl SearchReport {
    /// Arena + map + open buckets, in bytes.
    pub fn total_bytes(&self) -> u64 {
        self.arena_bytes + self.map_bytes + self.open_bytes
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
/// accounting) and the two directions' open buckets.
#[derive(Debug)]
struct Scratch<K> {
    store: Store<K>,
    open: [Open; 2],
}

impl<K> Default for Scratch<K> {
    fn default() -> Self {
        Scratch {
            store: Store::default(),
            open: [Open::default(), Open::default()],
        }
    }
}

impl<K: std::hash::Hash + Eq> Scratch<K> {
    /// Bytes reserved by both directions' buckets.
    fn open_bytes(&self) -> u64 {
        self.open[FORWARD].bytes() + self.open[BACKWARD].bytes()
    }

    /// Bytes reserved by arena, map and buckets.
    fn bytes(&self) -> u64 {
        self.store.bytes() + self.open_bytes()
    }

    /// Forgets every state; frees the storage when it is larger than `RETAIN_BYTES` (or when
    /// `free` is set).
    fn clear(&mut self, free: bool) {
        if free || self.bytes() > RETAIN_BYTES {
            self.store.release();
        } else {
            self.store.clear();
        }
        self.open.iter_mut().for_each(Open::clear);
    }

    /// Makes room for `n` more states in arena and map ([`npuzzle_core::NodeStore::grow`]).
    /// Returns `false`, growing nothing, when that would take more than the limit (old and new
    /// map counted together) or more than 2^32 states.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, n: usize) -> bool {
        let open = self.open_bytes();
        self.store.grow(n, open, 0)
    }

    /// Adds state `i` to direction `d`'s bucket (`g`, `h`), growing it within the limit.
    #[inline]
    fn push_open(&mut self, d: usize, g: u32, h: u32, i: u32) -> Result<(), Stop> {
        if !self.open[d].has_room(g, h) {
            if !self
                .store
                .admit(self.open_bytes(), self.open[d].growth_bytes(g, h))
            {
                return Err(Stop::Memory);
            }
            self.open[d].grow(g, h);
        }
        self.open[d].push(g, h, i);
        Ok(())
    }

    /// Measurements for [`SearchReport`].
    fn report(&self, reopened: u64) -> SearchReport {
        let store = self.store.report(self.open_bytes());
        SearchReport {
            stored_states: store.stored_states,
            forward_open: self.open[FORWARD].entries(),
            backward_open: self.open[BACKWARD].entries(),
            arena_bytes: store.arena_bytes,
            map_bytes: store.map_bytes,
            open_bytes: store.outside_bytes,
            peak_bytes: store.peak_bytes,
            reopened,
        }
    }
}

/// The bidirectional engine (GBFHS, see the crate docs): optimal with any admissible heuristic.
///
/// Generic over the board type `B` because it owns reusable storage for `B`'s keys, kept
/// between solves (and freed after a search that grew it past 32 MiB).
///
/// ```
/// use npuzzle_bidirectional::Bidirectional;
/// use npuzzle_core::{BitBoard, Board, Goal, Limits, LinearConflict, Outcome, Solver, parse_board};
///
/// let goal = Goal::blank_last(npuzzle_core::Shape::square(4)?);
/// let h = LinearConflict::new(&goal);
/// let mut engine = Bidirectional::<BitBoard>::new();
/// for (hex, optimal) in [("2348170c56ab9def", 15), ("51309af4d7b826ec", 25)] {
///     let board = BitBoard::from_layout(&parse_board(hex, None)?)?;
///     let Outcome::Solved(s) = engine.solve(&board, &goal, &h, &Limits::default())? else {
///         panic!("solvable")
///     };
///     assert_eq!(s.moves.len(), optimal);
///     assert_eq!(engine.last_report().stored_states, s.stats.stored_states);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Bidirectional<B: Board> {
    scratch: Scratch<B::Key>,
    last: SearchReport,
}

impl<B: Board> Default for Bidirectional<B> {
    fn default() -> Self {
        Bidirectional {
            scratch: Scratch::default(),
            last: SearchReport::default(),
        }
    }
}

impl<B: Board> Bidirectional<B> {
    /// A new engine. Allocates nothing until the first solve.
    pub fn new() -> Bidirectional<B> {
        Bidirectional::default()
    }

    /// Memory details of the last search (solved or stopped by a limit; all zero before the
    /// first search and after a board answered without search: unsolvable, or the goal).
    pub fn last_report(&self) -> &SearchReport {
        &self.last
    }

    /// Frees the storage kept for the next search.
    pub fn release_memory(&mut self) {
        self.scratch.clear(true);
    }
}

/// How a search ended without an answer.
#[derive(Debug)]
enum Stop {
    /// A node, time or cancel limit.
    Clock(Limit),
    /// The memory limit (or the 2^32-state or g limits of the encoding).
    Memory,
}

/// One search's state beyond the scratch storage.
struct Run<'a, B: Board, O> {
    start: &'a B,
    clock: LimitClock,
    observer: O,
    expanded: [u64; 2],
    generated: [u64; 2],
    reopened: u64,
    /// The f-limit: every path shorter than it has been ruled out.
    f_lim: u32,
    /// Per direction: states with g below this (and f ≤ `f_lim`) are expanded.
    g_lim: [u32; 2],
    /// The best solution length found (`u32::MAX` before the frontiers meet).
    best: u32,
    /// The length of the first solution found (`u32::MAX` before the frontiers meet).
    first: u32,
    /// The meeting state of the best solution.
    meet: u32,
    /// States stored when the search stopped.
    stored: u64,
}

impl<B: Board, O: FnMut(&Progress)> Run<'_, B, O> {
    fn progress(&self) -> Progress {
        Progress {
            expanded: self.expanded[FORWARD] + self.expanded[BACKWARD],
            generated: self.generated[FORWARD] + self.generated[BACKWARD],
            seconds: self.clock.seconds(),
            bound: self.f_lim,
            stored_states: self.stored,
        }
    }

    /// Limit check, and the observer call every `OBSERVE_INTERVAL` expansions.
    #[cold]
    #[inline(never)]
    fn checkpoint(&mut self, stored: usize) -> Result<(), Stop> {
        self.stored = stored as u64;
        let p = self.progress();
        if p.expanded.is_multiple_of(OBSERVE_INTERVAL) {
            (self.observer)(&p);
        }
        self.clock
            .check(p.generated)
            .map_or(Ok(()), |l| Err(Stop::Clock(l)))
    }

    /// Records that direction `d` reached state `j` with `g`: a solution if the other direction
    /// has reached it too.
    #[inline]
    fn meet<K: std::hash::Hash + Eq>(&mut self, s: &Scratch<K>, d: usize, j: u32, g: u32) {
        let other = s.store.half(j, 1 - d);
        if other.is_present() && g + other.g() < self.best {
            if self.best == u32::MAX {
                self.first = g + other.g();
            }
            self.best = g + other.g();
            self.meet = j;
        }
    }

    /// Stores the start board (forward, h = `hf`) and the goal (backward, h = `hb`) and opens
    /// them.
    fn open_roots(
        &mut self,
        s: &mut Scratch<B::Key>,
        goal: &B,
        hf: u32,
        hb: u32,
    ) -> Result<(), Stop> {
        if !s.grow(2) {
            return Err(Stop::Memory);
        }
        for (d, board, h) in [(FORWARD, self.start, hf), (BACKWARD, goal, hb)] {
            let i = match s
                .store
                .find_or_insert(board.key(), only(d, Half::open(0, 0)))
            {
                Visit::Seen(i) => {
                    s.store.set_half(i, d, Half::open(0, 0));
                    i
                }
                Visit::New(i) => i,
            };
            s.push_open(d, 0, h, i)?;
            self.meet(s, d, i, 0);
        }
        Ok(())
    }

    /// Expands every open state of direction `d` with g below its g-limit and f ≤ `f_lim`,
    /// guided by `heuristic`, in A*'s order: least f first and, among equal f, greatest g (so
    /// the last f-layer is searched depth-first, as A*'s tie-breaking does). With a consistent
    /// heuristic every state is thus expanded with its least g, as in A*; a child whose f is
    /// below the layer being expanded (an inconsistent heuristic) sends the sweep back to its
    /// layer. Returns `true` as soon as the best solution is no longer than `f_lim` (it is then
    /// optimal).
    fn expand<H: Heuristic<B>>(
        &mut self,
        s: &mut Scratch<B::Key>,
        d: usize,
        heuristic: &H,
    ) -> Result<bool, Stop> {
        let f_lim = self.f_lim;
        let g_lim = self.g_lim[d].min(f_lim + 1);
        if g_lim == 0 {
            return Ok(false);
        }
        let mut f = 0;
        while f <= f_lim {
            // Sweep layer f from the deepest eligible level down.
            let mut g = (g_lim - 1).min(f);
            let mut back = u32::MAX;
            loop {
                let Some(i) = s.open[d].pop(g, f - g) else {
                    if g == 0 {
                        break;
                    }
                    g -= 1;
                    continue;
                };
                let m = s.store.half(i, d);
                if m.g() != g || m.is_closed() {
                    // Stale: the state was reached later by a shorter path.
                    continue;
                }
                s.store.set_half(i, d, m.closed());
                self.expanded[d] += 1;
                if (self.expanded[FORWARD] + self.expanded[BACKWARD]).is_multiple_of(CHECK_INTERVAL)
                {
                    self.checkpoint(s.store.len())?;
                }
                if g + 1 > Half::G_MAX {
                    return Err(Stop::Memory);
                }
                if !s.store.has_room(4) && !s.grow(4) {
                    return Err(Stop::Memory);
                }
                let h = f - g;
                let mut board = self.start.with_key(s.store.key(i));
                let mut moves = board.legal();
                if g > 0 {
                    moves = moves.without(Move::from_index(m.came()).inverse());
                }
                let g2 = g + 1;
                for mv in moves {
                    self.generated[d] += 1;
                    let h2 = heuristic.update(&board, h, mv);
                    board.apply(mv);
                    let child = board.key();
                    board.apply(mv.inverse());
                    let j = match s
                        .store
                        .find_or_insert(child, only(d, Half::open(g2, mv.index())))
                    {
                        Visit::Seen(j) => {
                            let mj = s.store.half(j, d);
                            if mj.is_present() && mj.g() <= g2 {
                                continue;
                            }
                            self.reopened += u64::from(mj.is_present() && mj.is_closed());
                            s.store.set_half(j, d, Half::open(g2, mv.index()));
                            j
                        }
                        Visit::New(j) => j,
                    };
                    s.push_open(d, g2, h2, j)?;
                    self.meet(s, d, j, g2);
                    back = back.min(g2 + h2);
                }
                if self.best <= f_lim {
                    return Ok(true);
                }
                if back < f {
                    // Inconsistent heuristic: a child below this layer.
                    break;
                }
                back = u32::MAX;
                // Depth first within the layer: a child of equal f is one level deeper.
                if g + 1 < g_lim && g < f {
                    g += 1;
                }
            }
            if back < f {
                f = back;
            } else {
                f += 1;
            }
        }
        Ok(false)
    }

    /// Runs GBFHS until the best solution is no longer than the f-limit (see the crate docs).
    fn search<HF: Heuristic<B>, HB: Heuristic<B>>(
        &mut self,
        s: &mut Scratch<B::Key>,
        forward: &HF,
        backward: &HB,
    ) -> Result<(), Stop> {
        loop {
            if self.best <= self.f_lim {
                return Ok(());
            }
            if self.g_lim[FORWARD] + self.g_lim[BACKWARD] < self.f_lim {
                // Raise the g-limit of the direction whose next level holds fewer states
                // (Pohl's cardinality principle, per level).
                let next = |d: usize| s.open[d].count(self.g_lim[d], u32::MAX);
                let d = if next(FORWARD) <= next(BACKWARD) {
                    FORWARD
                } else {
                    BACKWARD
                };
                self.g_lim[d] += 1;
            } else {
                // Every path of length f_lim has been found: none is shorter than f_lim + 1.
                self.f_lim += 1;
                continue;
            }
            if self.expand(s, FORWARD, forward)? || self.expand(s, BACKWARD, backward)? {
                return Ok(());
            }
            assert!(
                self.best != u32::MAX || s.open[FORWARD].entries() + s.open[BACKWARD].entries() > 0,
                "the parity test proved the goal reachable, yet the search exhausted the state space"
            );
        }
    }

    /// The moves from the root of direction `d` to state `i`, in the order direction `d`
    /// made them (from its root outward).
    fn half_path(&self, s: &Scratch<B::Key>, mut i: u32, d: usize) -> Vec<Move> {
        let mut moves = Vec::with_capacity(s.store.half(i, d).g() as usize);
        loop {
            let m = s.store.half(i, d);
            debug_assert!(m.is_present());
            if m.g() == 0 {
                break;
            }
            let mv = Move::from_index(m.came());
            moves.push(mv);
            let mut board = self.start.with_key(s.store.key(i));
            board.apply(mv.inverse());
            i = s
                .store
                .find(&board.key())
                .expect("every reached state's parent is stored");
        }
        moves.reverse();
        moves
    }

    /// The solution through the meeting state: the forward path, then the backward path
    /// reversed with every move inverted. Returns the moves and the lengths of the two halves.
    fn path(&self, s: &Scratch<B::Key>) -> (Vec<Move>, u32, u32) {
        let mut moves = self.half_path(s, self.meet, FORWARD);
        let forward = moves.len() as u32;
        let backward = self.half_path(s, self.meet, BACKWARD);
        moves.extend(backward.iter().rev().map(|m| m.inverse()));
        (moves, forward, backward.len() as u32)
    }
}

/// The whole solve in `scratch` with backward heuristic `backward`, leaving `scratch` cleared.
fn solve_in<B: Board, HF: Heuristic<B>, HB: Heuristic<B>, O: FnMut(&Progress)>(
    scratch: &mut Scratch<B::Key>,
    start: &B,
    goal: &B,
    forward: &HF,
    backward: &HB,
    limits: &Limits,
    observer: O,
) -> (Result<Outcome, SearchError>, SearchReport) {
    let memory_limit = limits.memory_bytes.unwrap_or(DEFAULT_MEMORY_LIMIT);
    if scratch.bytes() > memory_limit {
        scratch.clear(true);
    }
    scratch.store.begin(memory_limit, scratch.open_bytes());
    let hf = forward.estimate(start);
    let hb = backward.estimate(goal);
    let mut run = Run {
        start,
        clock: LimitClock::new(limits),
        observer,
        expanded: [0; 2],
        generated: [0; 2],
        reopened: 0,
        f_lim: hf.max(hb),
        g_lim: [0; 2],
        best: u32::MAX,
        first: u32::MAX,
        meet: 0,
        stored: 0,
    };
    let p = run.progress();
    (run.observer)(&p);
    let end = run
        .open_roots(scratch, goal, hf, hb)
        .and_then(|()| run.search(scratch, forward, backward));
    run.stored = scratch.store.len() as u64;
    let report = scratch.report(run.reopened);
    let result = match end {
        Ok(()) => {
            let (moves, forward_len, backward_len) = run.path(scratch);
            debug_assert_eq!(moves.len() as u32, run.best);
            Ok(Outcome::Solved(Solution {
                moves,
                guarantee: Guarantee::of_admissible_search(HeuristicProperties {
                    admissible: forward.properties().admissible && backward.properties().admissible,
                    consistent: false,
                }),
                stats: Stats {
                    expanded: run.expanded[FORWARD] + run.expanded[BACKWARD],
                    generated: run.generated[FORWARD] + run.generated[BACKWARD],
                    seconds: run.clock.seconds(),
                    initial_h: hf,
                    iterations: Vec::new(),
                    stored_states: report.stored_states,
                    peak_memory_bytes: report.peak_bytes,
                    bidirectional: Some(BidirectionalStats {
                        forward_expanded: run.expanded[FORWARD],
                        backward_expanded: run.expanded[BACKWARD],
                        forward_generated: run.generated[FORWARD],
                        backward_generated: run.generated[BACKWARD],
                        meeting_g_forward: forward_len,
                        meeting_g_backward: backward_len,
                        lower_bound: run.f_lim,
                        first_meeting: run.first.min(run.best),
                    }),
                },
            }))
        }
        Err(stop) => Err(SearchError::LimitReached {
            limit: match stop {
                Stop::Clock(l) => l,
                Stop::Memory => Limit::Memory(memory_limit),
            },
            progress: run.progress(),
        }),
    };
    scratch.clear(false);
    (result, report)
}

impl<B: Board> Solver<B> for Bidirectional<B> {
    fn name(&self) -> &'static str {
        "bidirectional"
    }

    /// Optimal with any admissible heuristic (GBFHS's stopping rule needs admissibility in both
    /// directions; states reached again by a shorter path are reopened, so consistency is not
    /// needed). The backward heuristic is the same heuristic rebuilt for the start board, or
    /// zero, with the same properties.
    fn guarantee(&self, heuristic: HeuristicProperties) -> Guarantee {
        Guarantee::of_admissible_search(heuristic)
    }

    /// Runs GBFHS: parity check, then the forward and backward searches until the best
    /// solution found is no longer than the proven lower bound.
    ///
    /// The backward heuristic is `heuristic.for_goal(start)` ([`Heuristic::for_goal`]), or
    /// [`Zero`] when the heuristic cannot be rebuilt.
    ///
    /// Time: O(s) bucket operations and one visited-map probe per generated node, for s stored
    /// states; memory about 19–26 bytes per stored state for `u64` keys, bounded by
    /// [`Limits::memory_bytes`] (default [`DEFAULT_MEMORY_LIMIT`]). Node, time and cancel limits
    /// are checked every 2^12 expansions (a node limit can be overshot by up to 2^14 generated
    /// nodes); the observer is called at the start and every 2^16 expansions, with the current
    /// f-limit (a lower bound on the solution length) as the bound.
    ///
    /// # Errors
    /// [`SearchError::LimitReached`] with [`Limit::Memory`] when storing more states would take
    /// more than the memory limit (or more than 2^32 states, or g above 8,190 moves), with the
    /// other limits when they are hit; [`SearchError::Goal`] when the goal's shape differs from
    /// the board's; [`SearchError::Board`] when the goal does not fit the board type.
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
        self.last = SearchReport::default();
        let (goal_board, start_layout) = match start_search(start, goal)? {
            SearchStart::Answered(Outcome::Solved(mut solution)) => {
                // The start is the goal: every per-direction figure is 0 too.
                solution.stats.bidirectional = Some(BidirectionalStats::default());
                return Ok(Outcome::Solved(solution));
            }
            SearchStart::Answered(outcome) => return Ok(outcome),
            SearchStart::Search {
                goal_board,
                start_layout,
            } => (goal_board, start_layout),
        };
        let scratch = &mut self.scratch;
        let (result, report) = match heuristic.for_goal(&Goal::custom(start_layout)) {
            Some(backward) => solve_in(
                scratch,
                start,
                &goal_board,
                heuristic,
                &backward,
                limits,
                observer,
            ),
            None => solve_in(
                scratch,
                start,
                &goal_board,
                heuristic,
                &Zero,
                limits,
                observer,
            ),
        };
        self.last = report;
        result
    }
}
