//! Weighted A*: best-first search on f = g + w·h, for answers within a factor `w` of optimal.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use hashbrown::HashTable;
use npuzzle_core::{
    Board, Goal, Guarantee, Heuristic, HeuristicProperties, Limit, LimitClock, Limits, Move,
    Outcome, Progress, SearchError, Solution, Solver, Stats,
};

/// Expansions between two checks of the node, time, cancel and memory limits (a power of two).
const CHECK_INTERVAL: u64 = 1 << 12;
/// Expansions between two observer calls (a power of two, a multiple of `CHECK_INTERVAL`).
const OBSERVE_INTERVAL: u64 = 1 << 16;
/// The weight's fixed-point scale: weights are rounded to multiples of 1/1000.
const SCALE: u64 = 1000;
/// The memory limit applied when [`Limits::memory_bytes`] is `None`: 4 GiB.
pub const DEFAULT_MEMORY_LIMIT: u64 = 4 << 30;

/// Weighted A* (Pohl, "Heuristic search viewed as path finding in a graph", Artificial
/// Intelligence 1, 1970): A* ordered by f = g + w·h with `w ≥ 1`.
///
/// With an admissible, consistent heuristic h (Manhattan distance, linear conflict) the first
/// goal popped costs at most `w` × the optimal length, **without** re-opening closed states
/// (Likhachev, Gordon & Thrun, "ARA*", NIPS 2003), which this engine never does. With `w = 1`
/// it is plain A* and the answer is optimal; larger weights expand far fewer states: on random
/// 6×6 boards `w = 2` answers in milliseconds where optimal search takes hours.
///
/// Every state is stored once (its key, parent index, move and g in arrays; a
/// [`hashbrown::HashTable`] of indices hashed with `ahash`); the open list is a binary heap of
/// `(f, h, index)`, ties broken towards the smaller h. Memory: about `size_of::<B::Key>() + 30`
/// bytes a stored state, bounded by [`Limits::memory_bytes`] (default 4 GiB).
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

/// One stored state: parent index, the move from the parent, g (moves).
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    came: u8,
    closed: bool,
    g: u32,
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
    /// (memory counts the stored keys, nodes, hash table and open list); [`SearchError::Goal`]
    /// when the goal's shape differs from the board's.
    fn solve_observed<H: Heuristic<B>, O: FnMut(&Progress)>(
        &mut self,
        start: &B,
        goal: &Goal,
        heuristic: &H,
        limits: &Limits,
        mut observer: O,
    ) -> Result<Outcome, SearchError> {
        let parity = goal.parity(&start.to_layout())?;
        if !parity.solvable {
            return Ok(Outcome::Unsolvable(parity));
        }
        let clock = LimitClock::new(limits);
        let memory_limit = limits.memory_bytes.unwrap_or(DEFAULT_MEMORY_LIMIT);
        let goal_key = B::from_layout(goal.layout())?.key();
        let h0 = heuristic.estimate(start);
        let mut store = Store::<B>::new();
        store.offer(start.key(), u32::MAX, Move::Down, 0);
        store
            .open
            .push(Reverse((self.weight * u64::from(h0), h0, 0)));
        let (mut expanded, mut generated, mut peak) = (0u64, 0u64, 0u64);
        let progress = |expanded, generated, bound, stored: usize, clock: &LimitClock| Progress {
            expanded,
            generated,
            seconds: clock.seconds(),
            bound,
            stored_states: stored as u64,
        };
        while let Some(Reverse((f, h, index))) = store.open.pop() {
            let node = store.nodes[index as usize];
            if node.closed || f != node_f(self.weight, node.g, h) {
                continue; // a stale entry: the state was reached more cheaply since
            }
            if h == 0 && store.keys[index as usize] == goal_key {
                return Ok(Outcome::Solved(Solution {
                    moves: store.path(index),
                    guarantee: Solver::<B>::guarantee(self, heuristic.properties()),
                    stats: Stats {
                        expanded,
                        generated,
                        seconds: clock.seconds(),
                        initial_h: h0,
                        iterations: Vec::new(),
                        stored_states: store.keys.len() as u64,
                        peak_memory_bytes: peak,
                        bidirectional: None,
                    },
                }));
            }
            store.nodes[index as usize].closed = true;
            expanded += 1;
            if expanded.is_multiple_of(CHECK_INTERVAL) {
                let bytes = store.bytes();
                peak = peak.max(bytes);
                let stop = if bytes > memory_limit {
                    Some(Limit::Memory(memory_limit))
                } else {
                    clock.check(generated)
                };
                let bound = (f / SCALE) as u32;
                if let Some(limit) = stop {
                    return Err(SearchError::LimitReached {
                        limit,
                        progress: progress(expanded, generated, bound, store.keys.len(), &clock),
                    });
                }
                if expanded.is_multiple_of(OBSERVE_INTERVAL) {
                    observer(&progress(
                        expanded,
                        generated,
                        bound,
                        store.keys.len(),
                        &clock,
                    ));
                }
            }
            let mut board = start.with_key(&store.keys[index as usize]);
            let parent_move =
                (node.parent != u32::MAX).then(|| Move::from_index(node.came as usize).inverse());
            for m in board.legal() {
                if Some(m) == parent_move {
                    continue;
                }
                generated += 1;
                let h2 = heuristic.update(&board, h, m);
                board.apply(m);
                let key = board.key();
                board.apply(m.inverse());
                let g2 = node.g + 1;
                let Some(child) = store.offer(key, index, m, g2) else {
                    continue;
                };
                store
                    .open
                    .push(Reverse((node_f(self.weight, g2, h2), h2, child)));
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

/// The stored states: keys and nodes in parallel arrays, a hash table of their indices (hashed
/// with `ahash`, fixed seeds), and the open list.
struct Store<B: Board> {
    hasher: ahash::RandomState,
    keys: Vec<B::Key>,
    nodes: Vec<Node>,
    table: HashTable<u32>,
    open: BinaryHeap<Reverse<(u64, u32, u32)>>,
}

impl<B: Board> Store<B> {
    fn new() -> Store<B> {
        Store {
            hasher: ahash::RandomState::with_seeds(1, 2, 3, 4),
            keys: Vec::new(),
            nodes: Vec::new(),
            table: HashTable::new(),
            open: BinaryHeap::new(),
        }
    }

    /// Offers the state `key`, reached from `parent` (`u32::MAX` for the root) by `m` at cost
    /// `g`: stores it if new, lowers its g if open and reached more cheaply (no re-opening of
    /// closed states). Returns its index when it must be (re)pushed on the open list.
    fn offer(&mut self, key: B::Key, parent: u32, m: Move, g: u32) -> Option<u32> {
        let hash = self.hasher.hash_one(&key);
        let keys = &self.keys;
        if let Some(&i) = self.table.find(hash, |&i| keys[i as usize] == key) {
            let n = &mut self.nodes[i as usize];
            if n.closed || n.g <= g {
                return None;
            }
            n.g = g;
            n.parent = parent;
            n.came = m.index() as u8;
            return Some(i);
        }
        let i = self.keys.len() as u32;
        self.keys.push(key);
        self.nodes.push(Node {
            parent,
            came: m.index() as u8,
            closed: false,
            g,
        });
        let (hasher, keys) = (&self.hasher, &self.keys);
        self.table
            .insert_unique(hash, i, |&j| hasher.hash_one(&keys[j as usize]));
        Some(i)
    }

    /// The moves from the root to state `index`.
    fn path(&self, index: u32) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut i = index as usize;
        while self.nodes[i].parent != u32::MAX {
            moves.push(Move::from_index(self.nodes[i].came as usize));
            i = self.nodes[i].parent as usize;
        }
        moves.reverse();
        moves
    }

    /// Bytes reserved by the keys, nodes, table and open list (keys' heap parts excluded).
    fn bytes(&self) -> u64 {
        ((size_of::<B::Key>() * self.keys.capacity())
            + (size_of::<Node>() * self.nodes.capacity())
            + (5 * self.table.capacity())
            + (16 * self.open.capacity())) as u64
    }
}
