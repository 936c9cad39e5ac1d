//! One search's machinery: the reusable scratch storage, the per-search state ([`Run`]) with
//! its expansion, meeting and stopping rules, and the whole solve ([`solve_in`]).

use npuzzle_core::{
    BidirectionalStats, Board, BoundKind, Guarantee, Heuristic, HeuristicProperties, Limit,
    LimitClock, Limits, Move, Outcome, Progress, SearchError, Solution, Stats, Visit,
};

use crate::store::{Half, Halves, Open, Store, only};
use crate::{BACKWARD, FORWARD, SearchReport};
use npuzzle_core::{
    DEFAULT_MEMORY_LIMIT, RETAIN_BYTES, STORING_CHECK_INTERVAL as CHECK_INTERVAL,
    STORING_OBSERVE_INTERVAL as OBSERVE_INTERVAL,
};

/// Reusable storage of one search: the node store (arena and visited map, with the memory
/// accounting) and the two directions' open buckets.
#[derive(Debug)]
pub(crate) struct Scratch<K> {
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
    pub(crate) fn clear(&mut self, free: bool) {
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

/// How a search ended without an answer.
#[derive(Debug)]
pub(crate) enum Stop {
    /// A node, time or cancel limit.
    Clock(Limit),
    /// The memory limit (or the 2^32-state or g limits of the encoding).
    Memory,
}

/// One search's state beyond the scratch storage.
pub(crate) struct Run<'a, B: Board, O> {
    start: &'a B,
    clock: LimitClock,
    observer: O,
    expanded: [u64; 2],
    generated: [u64; 2],
    /// The total expansion count at which to check the limits next
    /// ([`LimitClock::next_expansion_check`]).
    next_check: u64,
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
            bound_kind: BoundKind::FBound,
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
                // The clock every CHECK_INTERVAL expansions, the node limit within 4 nodes.
                let expanded = self.expanded[FORWARD] + self.expanded[BACKWARD];
                if expanded >= self.next_check {
                    self.checkpoint(s.store.len())?;
                    self.next_check = self.clock.next_expansion_check(
                        expanded,
                        self.generated[FORWARD] + self.generated[BACKWARD],
                        CHECK_INTERVAL,
                        4,
                    );
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
pub(crate) fn solve_in<B: Board, HF: Heuristic<B>, HB: Heuristic<B>, O: FnMut(&Progress)>(
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
    scratch
        .store
        .begin_keys(memory_limit, scratch.open_bytes(), start.key_heap_bytes());
    let hf = forward.estimate(start);
    let hb = backward.estimate(goal);
    let clock = LimitClock::new(limits);
    let mut run = Run {
        start,
        next_check: clock.next_expansion_check(0, 0, CHECK_INTERVAL, 4),
        clock,
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
