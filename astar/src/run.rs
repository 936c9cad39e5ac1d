//! One A* search's machinery: the open-list entry encoding, the reusable scratch storage, the
//! per-search state ([`Run`]) with its expansion and stopping rules, and the whole solve
//! ([`solve_in`]), shared with greedy best-first search.

use std::collections::BinaryHeap;
use std::mem::size_of;

use npuzzle_core::{
    Board, BoundKind, Goal, Guarantee, Heuristic, Limit, LimitClock, Limits, Move, NodeStore,
    Outcome, Progress, SearchError, SearchStart, Solution, Stats, Visit, start_search,
};

use crate::SearchReport;
use crate::meta::Meta;
use npuzzle_core::{
    DEFAULT_MEMORY_LIMIT, MIN_OPEN_GROWTH as MIN_HEAP_GROWTH, RETAIN_BYTES,
    STORING_CHECK_INTERVAL as CHECK_INTERVAL, STORING_OBSERVE_INTERVAL as OBSERVE_INTERVAL,
};

/// Bits of an open-list entry: f (24, inverted), tie-break on h (8, inverted), index (32).
pub(crate) const F_MAX: u32 = (1 << 24) - 1;
pub(crate) const TIE_MAX: u32 = (1 << 8) - 1;
pub(crate) const F_SHIFT: u32 = 40;
pub(crate) const TIE_SHIFT: u32 = 32;

/// Packs an open-list entry. `BinaryHeap` is a max-heap: f and h are inverted so that the least
/// f pops first and, among equal f, the least h (the deepest state). f above `F_MAX` is clamped
/// (the state is then expanded after every state with a smaller f, and its h is recomputed);
/// h above `TIE_MAX` ties.
#[inline]
pub(crate) fn entry(f: u32, h: u32, index: u32) -> u64 {
    (u64::from(F_MAX - f.min(F_MAX)) << F_SHIFT)
        | (u64::from(TIE_MAX - h.min(TIE_MAX)) << TIE_SHIFT)
        | u64::from(index)
}

/// f of an entry (`F_MAX` when clamped).
#[inline]
pub(crate) fn entry_f(e: u64) -> u32 {
    F_MAX - (e >> F_SHIFT) as u32
}

/// The arena index of an entry.
#[inline]
pub(crate) fn entry_index(e: u64) -> u32 {
    e as u32
}

/// Reusable storage of one search: the node store (arena and visited map, with the memory
/// accounting) and the open list.
#[derive(Debug)]
pub(crate) struct Scratch<K, M> {
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
    pub(crate) fn clear(&mut self, free: bool) {
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

/// How a search ended without an answer.
pub(crate) enum Stop {
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
pub(crate) struct Run<'a, B: Board, H, O, const GREEDY: bool> {
    start: &'a B,
    heuristic: &'a H,
    goal_key: B::Key,
    clock: LimitClock,
    observer: O,
    expanded: u64,
    generated: u64,
    /// The expansion count at which to check the limits next
    /// ([`LimitClock::next_expansion_check`]).
    next_check: u64,
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
            bound_kind: if GREEDY {
                BoundKind::StartEstimate
            } else {
                BoundKind::FBound
            },
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
            // The clock and the cancel flag every CHECK_INTERVAL expansions, the node limit
            // within 4 nodes (an expansion generates at most 4).
            if self.expanded >= self.next_check {
                self.checkpoint(s.store.len())?;
                self.next_check = self.clock.next_expansion_check(
                    self.expanded,
                    self.generated,
                    CHECK_INTERVAL,
                    4,
                );
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
pub(crate) fn solve_in<
    B: Board,
    H: Heuristic<B>,
    O: FnMut(&Progress),
    M: Meta,
    const GREEDY: bool,
>(
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
    scratch
        .store
        .begin_keys(memory_limit, scratch.heap_bytes(), start.key_heap_bytes());
    let h0 = heuristic.estimate(start);
    let clock = LimitClock::new(limits);
    let mut run = Run::<B, H, O, GREEDY> {
        start,
        heuristic,
        goal_key: goal_board.key(),
        next_check: clock.next_expansion_check(0, 0, CHECK_INTERVAL, 4),
        clock,
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
