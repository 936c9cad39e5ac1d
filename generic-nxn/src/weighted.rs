//! Weighted A*: best-first search on f = g + w·h, for answers within a factor `w` of optimal.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::mem::size_of;

use npuzzle_core::{
    Board, BoundKind, Goal, Guarantee, Heuristic, HeuristicProperties, Limit, LimitClock, Limits,
    Move, NodeStore, Outcome, Progress, SearchError, SearchStart, Solution, Solver, Stats, Visit,
    start_search,
};

/// The weight's fixed-point scale: weights are rounded to multiples of 1/1000.
const SCALE: u64 = 1000;
pub use npuzzle_core::DEFAULT_MEMORY_LIMIT;
use npuzzle_core::{
    MIN_OPEN_GROWTH as MIN_HEAP_GROWTH, STORING_CHECK_INTERVAL as CHECK_INTERVAL,
    STORING_OBSERVE_INTERVAL as OBSERVE_INTERVAL,
};

/// Weighted A* (Pohl, "Heuristic search viewed as path finding in a graph", Artificial
/// Intelligence 1, 1970): A* ordered by f = g + w·h with `w ≥ 1`.
///
/// With an admissible, consistent heuristic h (Manhattan distance, linear conflict) the first
/// goal popped costs at most `w` × the optimal length, **without** re-opening closed states
/// (Likhachev, Gordon & Thrun, "ARA*", NIPS 2003), which this engine never does. With `w = 1`
/// it is plain A* and the answer is optimal; larger weights expand far fewer states: on random
/// 6×6 boards `w = 2` answers in milliseconds where optimal search takes hours.
///
/// Every state is stored once, in core's [`NodeStore`] (shared with A* and bidirectional
/// search; hashed with `ahash` here, for the Vec board's larger keys): its key and a 4-byte word
/// of g, the move that reached it and a closed flag; the path is rebuilt at the end by undoing
/// each state's move and looking the parent up. The open list is a binary heap of
/// `(f, h, index)` (16 bytes an entry), ties broken towards the smaller h. Memory:
/// `size_of::<B::Key>()` + 4 bytes a state in the arena, 5.7–11.4 in the visited map, plus the
/// open list, all accounted before each allocation and bounded by [`Limits::memory_bytes`]
/// (default 4 GiB).
///
/// ```
/// use npuzzle_core::{Board, Goal, Limits, Manhattan, Outcome, Solver, parse_board, verify};
/// use npuzzle_nxn::{VecBoard, WeightedAStar};
/// let start = parse_board("8 6 7 2 5 4 3 0 1", None)?;
/// let goal = Goal::blank_last(start.shape());
/// let mut engine = WeightedAStar::new(2.0)?;
/// let b = VecBoard::from_layout(&start)?;
/// let Outcome::Solved(s) = engine.solve(&b, &goal, &Manhattan::new(&goal), &Limits::default())?
/// else { panic!("solvable") };
/// verify(&start, &s.moves, goal.layout())?;
/// assert!(s.moves.len() <= 2 * 31); // the optimum is 31
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct WeightedAStar {
    /// The weight × [`SCALE`], at least `SCALE`.
    weight: u64,
}

/// A weight below 1, or not a finite number.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("bad weight {0}: the weight must be a finite number of at least 1 (1 = optimal A*)")]
pub struct WeightError(pub f64);

impl WeightedAStar {
    /// The largest accepted weight.
    pub const MAX_WEIGHT: f64 = 1000.0;

    /// An engine with weight `w` (rounded to a multiple of 1/1000).
    ///
    /// # Errors
    /// [`WeightError`] unless `1 ≤ w ≤ 1000`.
    pub fn new(w: f64) -> Result<WeightedAStar, WeightError> {
        if !(w.is_finite() && (1.0..=Self::MAX_WEIGHT).contains(&w)) {
            return Err(WeightError(w));
        }
        Ok(WeightedAStar {
            weight: ((w * SCALE as f64).round() as u64).max(SCALE),
        })
    }

    /// The weight, as given (rounded to 1/1000).
    pub fn weight(&self) -> f64 {
        self.weight as f64 / SCALE as f64
    }

    /// Whether answers are proven optimal (weight exactly 1).
    pub fn is_optimal(&self) -> bool {
        self.weight == SCALE
    }
}

/// Largest g a meta word holds, in moves.
const G_MAX: u32 = (1 << 29) - 1;

/// A stored state's meta word: g (bits 3–31), closed flag (bit 2), index of the move that
/// reached it (bits 0–1; meaningless for the root, state 0).
#[inline]
fn word(g: u32, came: usize) -> u32 {
    debug_assert!(g <= G_MAX && came < 4);
    (g << 3) | came as u32
}

/// The open list: `(f × SCALE, h, index)`, least first.
type Open = BinaryHeap<Reverse<(u64, u32, u32)>>;

/// Bytes reserved by the open list.
fn open_bytes(open: &Open) -> u64 {
    (open.capacity() * size_of::<Reverse<(u64, u32, u32)>>()) as u64
}

/// Makes room for 4 more states and open entries within the store's limit; `false`, growing
/// nothing, when it does not fit (see [`NodeStore::grow`]).
fn grow<K: std::hash::Hash + Eq>(
    store: &mut NodeStore<K, u32, ahash::RandomState>,
    open: &mut Open,
) -> bool {
    let open_short = open.capacity() - open.len() < 4;
    let open_add = if open_short {
        (open.capacity() / 4).max(MIN_HEAP_GROWTH)
    } else {
        0
    };
    let growth = (open_add * size_of::<Reverse<(u64, u32, u32)>>()) as u64;
    if !store.grow(4, open_bytes(open), growth) {
        return false;
    }
    open.reserve_exact(open_add);
    true
}

impl<B: Board> Solver<B> for WeightedAStar {
    fn name(&self) -> &'static str {
        "weighted-astar"
    }

    /// With a consistent heuristic: at most `w` × the optimum ([`Guarantee::WithinFactor`]),
    /// optimal when `w = 1`. This engine never reopens a closed state, and without reopening
    /// the bound needs consistency (Likhachev, Gordon & Thrun 2003): with a heuristic that is
    /// only admissible (pattern databases) nothing is proven, whatever the weight.
    fn guarantee(&self, heuristic: HeuristicProperties) -> Guarantee {
        if !heuristic.consistent {
            Guarantee::Unproven
        } else if self.is_optimal() {
            Guarantee::Optimal
        } else {
            Guarantee::WithinFactor(self.weight())
        }
    }

    /// Solves `start`. Unsolvable boards are answered by parity without search.
    ///
    /// # Errors
    /// [`SearchError::LimitReached`] when a node, time, cancel or memory limit stops the search
    /// (memory counts the stored keys and meta words, the visited map and the open list, before
    /// each allocation; a g above 2^29 − 1 moves also stops it as memory); [`SearchError::Goal`]
    /// when the goal's shape differs from the board's.
    #[expect(
        clippy::too_many_lines,
        reason = "one best-first loop: the goal test, the limit check and the expansion"
    )]
    fn solve_observed<H: Heuristic<B>, O: FnMut(&Progress)>(
        &mut self,
        start: &B,
        goal: &Goal,
        heuristic: &H,
        limits: &Limits,
        mut observer: O,
    ) -> Result<Outcome, SearchError> {
        let goal_key = match start_search(start, goal)? {
            SearchStart::Answered(outcome) => return Ok(outcome),
            SearchStart::Search { goal_board, .. } => goal_board.key(),
        };
        let clock = LimitClock::new(limits);
        let memory_limit = limits.memory_bytes.unwrap_or(DEFAULT_MEMORY_LIMIT);
        let h0 = heuristic.estimate(start);
        let mut store =
            NodeStore::<B::Key, u32, _>::with_hasher(ahash::RandomState::with_seeds(1, 2, 3, 4));
        store.begin_keys(memory_limit, 0, start.key_heap_bytes());
        let mut open = Open::new();
        let (mut expanded, mut generated, mut bound) = (0u64, 0u64, h0);
        let mut next_check = clock.next_expansion_check(0, 0, CHECK_INTERVAL, 4);
        let progress = |expanded, generated, bound, stored: usize, clock: &LimitClock| Progress {
            expanded,
            generated,
            seconds: clock.seconds(),
            bound,
            stored_states: stored as u64,
            bound_kind: BoundKind::FBound,
        };
        let memory_stop = |expanded, generated, bound, store: &NodeStore<_, _, _>| {
            Err(SearchError::LimitReached {
                limit: Limit::Memory(memory_limit),
                progress: progress(expanded, generated, bound, store.len(), &clock),
            })
        };
        if !grow(&mut store, &mut open) {
            return memory_stop(0, 0, bound, &store);
        }
        store.find_or_insert(start.key(), word(0, 0));
        open.push(Reverse((self.weight * u64::from(h0), h0, 0)));
        while let Some(Reverse((f, h, index))) = open.pop() {
            let meta = store.meta(index);
            let g = meta >> 3;
            if meta & 4 != 0 || f != node_f(self.weight, g, h) {
                continue; // a stale entry: the state was reached more cheaply since
            }
            bound = (f / SCALE) as u32;
            if h == 0 && *store.key(index) == goal_key {
                let report = store.report(open_bytes(&open));
                return Ok(Outcome::Solved(Solution {
                    moves: path(start, &store, index),
                    guarantee: Solver::<B>::guarantee(self, heuristic.properties()),
                    stats: Stats {
                        expanded,
                        generated,
                        seconds: clock.seconds(),
                        initial_h: h0,
                        iterations: Vec::new(),
                        stored_states: report.stored_states,
                        peak_memory_bytes: report.peak_bytes,
                        bidirectional: None,
                    },
                }));
            }
            *store.meta_mut(index) |= 4;
            expanded += 1;
            // The clock every CHECK_INTERVAL expansions, the node limit within 4 nodes.
            if expanded >= next_check {
                next_check = clock.next_expansion_check(expanded, generated, CHECK_INTERVAL, 4);
                if let Some(limit) = clock.check(generated) {
                    return Err(SearchError::LimitReached {
                        limit,
                        progress: progress(expanded, generated, bound, store.len(), &clock),
                    });
                }
                if expanded.is_multiple_of(OBSERVE_INTERVAL) {
                    observer(&progress(expanded, generated, bound, store.len(), &clock));
                }
            }
            // g beyond the meta word: more states than any memory holds, reported as memory.
            let room = store.has_room(4) && open.capacity() - open.len() >= 4;
            if g + 1 > G_MAX || !(room || grow(&mut store, &mut open)) {
                return memory_stop(expanded, generated, bound, &store);
            }
            let mut board = start.with_key(store.key(index));
            let parent_move = (index != 0).then(|| Move::from_index((meta & 3) as usize).inverse());
            for m in board.legal() {
                if Some(m) == parent_move {
                    continue;
                }
                generated += 1;
                let h2 = heuristic.update(&board, h, m);
                board.apply(m);
                let key = board.key();
                board.apply(m.inverse());
                let g2 = g + 1;
                let child = match store.find_or_insert(key, word(g2, m.index())) {
                    Visit::New(j) => j,
                    Visit::Seen(j) => {
                        // Lower g of an open state reached more cheaply; closed states are
                        // never re-opened.
                        let mj = store.meta(j);
                        if mj & 4 != 0 || mj >> 3 <= g2 {
                            continue;
                        }
                        *store.meta_mut(j) = word(g2, m.index());
                        j
                    }
                };
                open.push(Reverse((node_f(self.weight, g2, h2), h2, child)));
            }
        }
        unreachable!("parity proved the board solvable, so the goal is reachable")
    }
}

/// f = g + w·h in fixed point (× [`SCALE`]).
#[inline]
fn node_f(weight: u64, g: u32, h: u32) -> u64 {
    SCALE * u64::from(g) + weight * u64::from(h)
}

/// The moves from the root (state 0) to state `index`, following each state's move back and
/// looking its parent up in the store. O(moves) probes.
fn path<B: Board>(
    start: &B,
    store: &NodeStore<B::Key, u32, ahash::RandomState>,
    index: u32,
) -> Vec<Move> {
    let mut moves = Vec::new();
    let mut i = index;
    while i != 0 {
        let m = Move::from_index((store.meta(i) & 3) as usize);
        moves.push(m);
        let mut board = start.with_key(store.key(i));
        board.apply(m.inverse());
        i = store
            .find(&board.key())
            .expect("every stored state's parent is stored");
    }
    moves.reverse();
    moves
}

#[cfg(test)]
mod tests {
    use npuzzle_core::{BitBoard, LinearConflict, parse_board, verify};

    use super::*;

    /// Seed15's 64-move instance: weighted A* with w = 1 (plain A*) stores millions of states.
    const HARD: &str = "cbfed67a13248095";

    fn hard() -> (npuzzle_core::Layout, BitBoard, Goal) {
        let layout = parse_board(HARD, None).unwrap();
        let b = BitBoard::from_layout(&layout).unwrap();
        let goal = Goal::blank_last(layout.shape());
        (layout, b, goal)
    }

    #[test]
    fn memory_limit_is_checked_before_allocating_and_carries_progress() {
        let (_, b, goal) = hard();
        let h = LinearConflict::new(&goal);
        let mut e = WeightedAStar::new(1.0).unwrap();
        for limit in [1000, 1 << 20] {
            let limits = Limits {
                memory_bytes: Some(limit),
                ..Limits::default()
            };
            let Err(SearchError::LimitReached { limit: l, progress }) =
                e.solve(&b, &goal, &h, &limits)
            else {
                panic!("limit {limit}: expected the memory limit");
            };
            assert_eq!(l, Limit::Memory(limit));
            if limit == 1000 {
                // Not even the first arena chunk fits.
                assert_eq!((progress.stored_states, progress.expanded), (0, 0));
            } else {
                // 1 MiB holds tens of thousands of 12-byte states, not millions.
                assert!(progress.stored_states > 10_000, "{progress:?}");
                assert!(progress.stored_states < 100_000, "{progress:?}");
                assert!(progress.generated >= progress.expanded && progress.expanded > 0);
                assert!((43..=64).contains(&progress.bound), "{progress:?}");
            }
        }
    }

    #[test]
    fn peak_memory_is_within_the_limit_when_solved() {
        let layout = parse_board("51309af4d7b826ec", None).unwrap(); // 25 moves
        let goal = Goal::blank_last(layout.shape());
        let b = BitBoard::from_layout(&layout).unwrap();
        let h = LinearConflict::new(&goal);
        let limits = Limits {
            memory_bytes: Some(1 << 20),
            ..Limits::default()
        };
        let Outcome::Solved(s) = WeightedAStar::new(1.0)
            .unwrap()
            .solve(&b, &goal, &h, &limits)
            .unwrap()
        else {
            panic!("solvable")
        };
        assert_eq!(s.moves.len(), 25);
        verify(&layout, &s.moves, goal.layout()).unwrap();
        let st = &s.stats;
        assert!(
            st.stored_states > 0 && st.peak_memory_bytes <= 1 << 20,
            "{st:?}"
        );
        // At least the arena chunk (12 bytes a state) and the open list's first block.
        assert!(st.peak_memory_bytes >= 16_384 * 12 + 4096 * 16, "{st:?}");
    }

    /// Both generic-nxn engines answer the goal itself and an unsolvable board without search.
    #[test]
    fn goal_and_unsolvable_boards_are_answered_without_search() {
        use crate::{Constructive, VecBoard};
        let goal = Goal::blank_last(npuzzle_core::Shape::new(5, 3).unwrap());
        let h = npuzzle_core::Manhattan::new(&goal);
        let at_goal = VecBoard::from_layout(goal.layout()).unwrap();
        let mut swapped: Vec<usize> = goal.layout().cells().iter().map(|&t| t as usize).collect();
        swapped.swap(0, 1);
        let layout = npuzzle_core::Layout::new(goal.shape(), &swapped).unwrap();
        let unsolvable = VecBoard::from_layout(&layout).unwrap();
        let mut w = WeightedAStar::new(2.0).unwrap();
        let mut c = Constructive;
        for out in [
            w.solve(&at_goal, &goal, &h, &Limits::default()),
            c.solve(&at_goal, &goal, &h, &Limits::default()),
        ] {
            let Ok(Outcome::Solved(s)) = out else {
                panic!("{out:?}")
            };
            assert_eq!((s.moves, s.stats), (Vec::new(), Stats::default()));
        }
        for out in [
            w.solve(&unsolvable, &goal, &h, &Limits::default()),
            c.solve(&unsolvable, &goal, &h, &Limits::default()),
        ] {
            assert!(
                matches!(out, Ok(Outcome::Unsolvable(ref p)) if !p.solvable),
                "{out:?}"
            );
        }
    }
}
