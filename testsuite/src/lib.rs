//! # npuzzle-testsuite
//!
//! Shared test harness for npuzzle engines (not published):
//! - the standard benchmark instances from `testdata/` (embedded at compile time, headers kept in
//!   the files): Korf's 100 (Korf 1985), Korf's 1985 IDA* node counts, the nine seed15 instances,
//!   the 31-move 8-puzzle positions, and Korf's 50 24-puzzle instances (Korf & Felner 2002);
//! - [`BfsOracle`], exhaustive breadth-first search over every reachable state of a small board,
//!   giving the exact distance of every position to the goal;
//! - [`solve_replayed`], one engine's answer replayed to the goal.

mod partial;
pub use partial::PartialOracle;

use npuzzle_core::{
    BitBoard, Board, Goal, Heuristic, Layout, Limits, Metric, Outcome, Shape, Solution, Solver,
    verify,
};
use rustc_hash::FxHashMap;

/// Korf's 100 random 15-puzzle instances, blank-first goal: `ID T0..T15 LENGTH`.
pub const KORF100: &str = include_str!("../../testdata/korf100.txt");
/// Korf's 1985 IDA* + Manhattan node counts: `ID LENGTH H0 NODES`.
pub const KORF100_NODES: &str = include_str!("../../testdata/korf100_nodes.txt");
/// Nine 15-puzzle instances (15 to 64 moves), blank-last goal: `HEX LENGTH`.
pub const SEED15: &str = include_str!("../../testdata/seed15.txt");
/// The 17 positions of the 15-puzzle 80 moves from the goal (Brüngger et al. 1999), blank-last
/// goal: `ID T0..T15 LENGTH`.
pub const ANTIPODES80: &str = include_str!("../../testdata/antipodes80.txt");
/// The 31-move 8-puzzle positions, both goals: `ID T0..T8 LENGTH`.
pub const EIGHT31: &str = include_str!("../../testdata/eight31.txt");
/// Korf's 50 random 24-puzzle instances, blank-first goal: `ID T0..T24 LENGTH`.
pub const KORF24: &str = include_str!("../../testdata/korf24_50.txt");

/// Solves `start` on board type `B` with `engine` (any [`Solver`]) and `h`, without limits, and
/// replays the moves to the goal with [`verify`]. For boards the caller knows to be solvable.
///
/// # Panics
/// On a search error, an "unsolvable" answer (with its explanation), or a move list that does
/// not reach the goal (naming the engine, the heuristic and the board).
pub fn solve_replayed<B: Board, S: Solver<B>, H: Heuristic<B>>(
    engine: &mut S,
    start: &Layout,
    goal: &Goal,
    h: &H,
) -> Solution {
    let b = B::from_layout(start).unwrap();
    match engine.solve(&b, goal, h, &Limits::default()).unwrap() {
        Outcome::Solved(s) => {
            verify(start, &s.moves, goal.layout()).unwrap_or_else(|err| {
                panic!("{} with {} on {start}: {err}", engine.name(), h.name())
            });
            s
        }
        Outcome::Unsolvable(p) => panic!("{start} reported unsolvable: {}", p.explain()),
    }
}

/// One benchmark instance with its known optimal length.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The instance's ID in its file (`1`..`100` for Korf's, the hex string for seed15).
    pub id: String,
    /// The start board.
    pub board: Layout,
    /// The goal it is measured against.
    pub goal: Goal,
    /// Known optimal solution length, in moves.
    pub optimal: u32,
}

/// The whitespace-separated fields of each data line (not blank, not a `#` comment) of the
/// node-count file, which is not an instance file.
fn data_lines(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().collect())
}

/// The instances of an embedded instance file, read by core's [`npuzzle_core::parse_instances`],
/// each with the goal `goal_of` gives for its ID.
fn instances(text: &str, shape: Shape, goal_of: impl Fn(&str) -> Goal) -> Vec<Instance> {
    npuzzle_core::parse_instances(text, Some(shape))
        .expect("embedded instance file")
        .into_iter()
        .map(|i| Instance {
            goal: goal_of(&i.id),
            id: i.id,
            board: i.board,
            optimal: i.optimal,
        })
        .collect()
}

/// Korf's 100, in file order (IDs 1..=100), with the blank-first goal.
///
/// # Panics
/// Never: the embedded file is fixed and checked by this crate's tests.
pub fn korf100() -> Vec<Instance> {
    let s = Shape::square(4).expect("4x4");
    instances(KORF100, s, |_| Goal::blank_first(s))
}

/// Korf's 1985 node counts: `(id, optimal length, Manhattan h0, nodes)`. See the file header:
/// an IDA* with Korf's move order generates `nodes - 1` nodes on 97 of the 100 instances.
///
/// # Panics
/// Never: the embedded file is fixed and checked by this crate's tests.
pub fn korf100_nodes() -> Vec<(u32, u32, u32, u64)> {
    data_lines(KORF100_NODES)
        .map(|f| {
            (
                f[0].parse().expect("id"),
                f[1].parse().expect("len"),
                f[2].parse().expect("h0"),
                f[3].parse().expect("nodes"),
            )
        })
        .collect()
}

/// Korf's 50 24-puzzle instances (Korf & Felner 2002), in file order (IDs 1..=50), with the
/// blank-first goal; optimal lengths 81 to 125 moves.
///
/// # Panics
/// Never: the embedded file is fixed and checked by this crate's tests.
pub fn korf24() -> Vec<Instance> {
    let s = Shape::square(5).expect("5x5");
    instances(KORF24, s, |_| Goal::blank_first(s))
}

/// The nine seed15 instances (blank-last goal), from 15 to 64 moves.
///
/// # Panics
/// Never: the embedded file is fixed and checked by this crate's tests.
pub fn seed15() -> Vec<Instance> {
    let s = Shape::square(4).expect("4x4");
    instances(SEED15, s, |_| Goal::blank_last(s))
}

/// The 17 positions of the 15-puzzle at its diameter, 80 moves from the blank-last goal
/// (Brüngger, Marzetta, Fukuda & Nievergelt 1999), in file order (IDs 1..=17).
///
/// # Panics
/// Never: the embedded file is fixed and checked by this crate's tests.
pub fn antipodes80() -> Vec<Instance> {
    let s = Shape::square(4).expect("4x4");
    instances(ANTIPODES80, s, |_| Goal::blank_last(s))
}

/// The four 31-move 8-puzzle positions: `A31_*` for the blank-last goal, `K31_*` for blank-first.
///
/// # Panics
/// Never: the embedded file is fixed and checked by this crate's tests.
pub fn eight31() -> Vec<Instance> {
    let s = Shape::square(3).expect("3x3");
    instances(EIGHT31, s, |id| {
        if id.starts_with('K') {
            Goal::blank_first(s)
        } else {
            Goal::blank_last(s)
        }
    })
}

/// Exact distances of every reachable position of a small board (at most 16 cells and a few
/// million states) to a goal, by breadth-first search from the goal, in the single-tile or the
/// multi-tile metric. The 8-puzzle has 181,440.
pub struct BfsOracle {
    goal: Goal,
    dist: FxHashMap<u64, u8>,
    order: Vec<u64>,
}

impl BfsOracle {
    /// Runs the BFS in the single-tile metric. O(states) time and memory (about 30 bytes a
    /// state).
    ///
    /// # Panics
    /// If the goal has more than 16 cells.
    pub fn new(goal: &Goal) -> BfsOracle {
        BfsOracle::in_metric(goal, Metric::Stm)
    }

    /// Runs the BFS with the moves of `metric`: single-tile moves (STM), or in the multi-tile
    /// metric (MTM) every slide of 1 to k tiles of the blank's row or column as one move, so
    /// that [`BfsOracle::distance`] is the MTM optimum (the 8-puzzle's MTM diameter is 24).
    /// Moves are reversible in both metrics, so the distance from the goal is the distance to
    /// it. O(states × moves of a state) time, O(states) memory.
    ///
    /// # Panics
    /// If the goal has more than 16 cells.
    pub fn in_metric(goal: &Goal, metric: Metric) -> BfsOracle {
        let start = BitBoard::from_layout(goal.layout()).expect("at most 16 cells");
        let mut dist = FxHashMap::default();
        let mut order = vec![start.key()];
        dist.insert(start.key(), 0u8);
        let mut i = 0;
        while i < order.len() {
            let b = start.with_key(&order[i]);
            let d = dist[&order[i]];
            for m in b.legal() {
                // STM: one tile; MTM: one to k tiles in direction `m`, each a neighbour.
                let mut next = b.neighbor(m);
                loop {
                    let k = next.key();
                    if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(k) {
                        e.insert(d + 1);
                        order.push(k);
                    }
                    if metric == Metric::Stm || !next.legal().contains(m) {
                        break;
                    }
                    next = next.neighbor(m);
                }
            }
            i += 1;
        }
        BfsOracle {
            goal: goal.clone(),
            dist,
            order,
        }
    }

    /// The goal.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    /// Number of reachable states.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether there are no states (never: the goal itself is one).
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The largest distance (31 for the 8-puzzle).
    pub fn diameter(&self) -> u32 {
        self.order.last().map_or(0, |k| u32::from(self.dist[k]))
    }

    /// The exact distance of `layout` to the goal, or `None` if unreachable.
    pub fn distance(&self, layout: &Layout) -> Option<u32> {
        let b = BitBoard::from_layout(layout).ok()?;
        self.dist.get(&b.key()).map(|&d| u32::from(d))
    }

    /// Every `step`-th reachable state in BFS order (so every distance is represented), with
    /// its distance. `step = 1` gives all of them.
    ///
    /// # Panics
    /// Never: the goal was checked to fit the bitboard in [`BfsOracle::new`].
    pub fn sample(&self, step: usize) -> Vec<(Layout, u32)> {
        let start = BitBoard::from_layout(self.goal.layout()).expect("small board");
        self.order
            .iter()
            .step_by(step.max(1))
            .chain(self.order.last())
            .map(|k| (start.with_key(k).to_layout(), u32::from(self.dist[k])))
            .collect()
    }
}

/// The number of move sequences from `start` that reach `goal` at their end and not before,
/// with no move followed by its inverse, of each length up to `max_len` (element n: sequences
/// of n moves), counted by dynamic programming over (state, last move) pairs layer by layer —
/// an enumeration independent of any heuristic or search engine, the oracle of "every
/// solution within k moves of the optimum". O(`max_len` × pairs reached) time and memory.
///
/// # Panics
/// If the board has more than 16 cells.
pub fn solutions_by_length(start: &Layout, goal: &Goal, max_len: usize) -> Vec<u64> {
    let b = BitBoard::from_layout(start).expect("at most 16 cells");
    let goal_key = BitBoard::from_layout(goal.layout())
        .expect("at most 16 cells")
        .key();
    let mut counts = vec![0u64; max_len + 1];
    // (state, index of the last move, or 4 for none) -> sequences ending there.
    let mut layer: FxHashMap<(u64, usize), u64> = FxHashMap::default();
    if b.key() == goal_key {
        counts[0] = 1;
        return counts;
    }
    layer.insert((b.key(), 4), 1);
    for count in &mut counts[1..] {
        let mut next: FxHashMap<(u64, usize), u64> = FxHashMap::default();
        for (&(key, last), &n) in &layer {
            let board = b.with_key(&key);
            for m in board.legal() {
                if last < 4 && m == npuzzle_core::Move::from_index(last).inverse() {
                    continue;
                }
                let child = board.neighbor(m);
                if child.key() == goal_key {
                    *count += n;
                } else {
                    *next.entry((child.key(), m.index())).or_insert(0) += n;
                }
            }
        }
        layer = next;
    }
    counts
}

/// [`solutions_by_length`] in the **multi-tile metric**: the number of distinct MTM solutions
/// of `start` of each length up to `max_len` MTM moves (element n: solutions of n moves).
///
/// A distinct MTM solution is a sequence of MTM moves — each a direction and a count of
/// tiles, 1 to as many as lie between the blank and the edge — in which no move is followed by
/// a move along the same axis (horizontal then vertical then horizontal, or the other way
/// round), that ends at the goal and is not at the goal after any earlier move (a move slides
/// its tiles in one motion: the boards inside it, after fewer tiles, are not visited). The
/// definition of `npuzzle_idastar::AllOptimal` in MTM. Counted by dynamic programming over
/// (state, axis of the last move) pairs layer by layer, independent of any heuristic or search
/// engine. O(`max_len` × pairs reached × moves of a state) time, O(pairs reached) memory.
///
/// # Panics
/// If the board has more than 16 cells.
pub fn mtm_solutions_by_length(start: &Layout, goal: &Goal, max_len: usize) -> Vec<u64> {
    let b = BitBoard::from_layout(start).expect("at most 16 cells");
    let goal_key = BitBoard::from_layout(goal.layout())
        .expect("at most 16 cells")
        .key();
    let mut counts = vec![0u64; max_len + 1];
    if b.key() == goal_key {
        counts[0] = 1;
        return counts;
    }
    // (state, axis of the last move: 0 none, 1 horizontal, 2 vertical) -> sequences ending
    // there.
    let mut layer: FxHashMap<(u64, u8), u64> = FxHashMap::default();
    layer.insert((b.key(), 0), 1);
    for count in &mut counts[1..] {
        let mut next: FxHashMap<(u64, u8), u64> = FxHashMap::default();
        for (&(key, last), &n) in &layer {
            let board = b.with_key(&key);
            for dir in npuzzle_core::Move::ALL {
                let axis = if dir.is_vertical() { 2 } else { 1 };
                if axis == last {
                    continue;
                }
                // One move for each number of tiles: 1, 2, ... up to the edge.
                let mut child = board;
                while child.legal().contains(dir) {
                    child = child.neighbor(dir);
                    if child.key() == goal_key {
                        *count += n;
                    } else {
                        *next.entry((child.key(), axis)).or_insert(0) += n;
                    }
                }
            }
        }
        layer = next;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_parse() {
        let k = korf100();
        assert_eq!(k.len(), 100);
        assert_eq!(k.iter().map(|i| i.optimal).sum::<u32>(), 5305);
        assert_eq!(korf100_nodes().len(), 100);
        assert_eq!(seed15().len(), 9);
        let a = antipodes80();
        assert_eq!(a.len(), 17);
        assert!(a.iter().all(|i| i.optimal == 80
            && i.board.cells()[0] == 0
            && i.goal.parity(&i.board).unwrap().solvable));
        let k24 = korf24();
        assert_eq!(k24.len(), 50);
        assert_eq!(k24.iter().map(|i| i.optimal).sum::<u32>(), 5039);
        assert_eq!((k24[39].id.as_str(), k24[39].optimal), ("40", 82));
        assert!(
            k24.iter()
                .all(|i| i.goal.parity(&i.board).unwrap().solvable)
        );
        assert_eq!(eight31().len(), 4);
    }

    /// The antipodes are 17 distinct boards, closed under the reflection about the main
    /// diagonal that fixes the blank-last goal (cell (r, c) to (c, r), each tile to the tile
    /// whose goal cell is its own goal cell's mirror image).
    #[test]
    fn antipodes_closed_under_reflection() {
        let boards: Vec<Vec<u16>> = antipodes80()
            .iter()
            .map(|i| i.board.cells().to_vec())
            .collect();
        // Blank-last goal: tile t's goal cell is t - 1.
        let mirror_tile = |t: u16| match t {
            0 => 0,
            t => {
                let g = usize::from(t) - 1;
                (g % 4 * 4 + g / 4 + 1) as u16
            }
        };
        let mut images = Vec::new();
        for b in &boards {
            let mut m = vec![0u16; 16];
            for (c, &t) in b.iter().enumerate() {
                m[c % 4 * 4 + c / 4] = mirror_tile(t);
            }
            let j = boards
                .iter()
                .position(|x| *x == m)
                .expect("mirror image in the set");
            images.push(j + 1);
        }
        assert_eq!(
            images,
            [15, 16, 4, 3, 5, 11, 13, 17, 9, 10, 6, 12, 7, 14, 1, 2, 8]
        );
        let mut sorted = boards.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 17);
    }

    #[test]
    fn eight_puzzle_oracle() {
        let s = Shape::square(3).unwrap();
        for goal in [Goal::blank_last(s), Goal::blank_first(s)] {
            let o = BfsOracle::new(&goal);
            assert_eq!(o.len(), 181_440);
            assert_eq!(o.diameter(), 31);
        }
        for inst in eight31() {
            let o = BfsOracle::new(&inst.goal);
            assert_eq!(o.distance(&inst.board), Some(31), "{}", inst.id);
        }
    }

    /// The enumeration by length agrees with breadth-first search on the optimum (the first
    /// non-zero length) and counts the hardest 8-puzzle's 40 optimal solutions; lengths of the
    /// other parity never occur (the 8-puzzle's graph is bipartite).
    #[test]
    fn solutions_by_length_of_the_hardest_8_puzzle() {
        let hard = npuzzle_core::parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
        let goal = Goal::blank_last(hard.shape());
        let by_length = solutions_by_length(&hard, &goal, 33);
        assert!(by_length[..31].iter().all(|&n| n == 0));
        assert_eq!(by_length[31], 40);
        assert_eq!(by_length[32], 0);
        assert!(by_length[33] > 40);
        let near = npuzzle_core::parse_board("1 2 3 4 5 6 0 7 8", None).unwrap();
        // LL, and nothing else below 10 moves: another solution of n moves followed by RR
        // would close a walk without reversals of at most n + 2 moves, and the puzzle's
        // shortest cycle has 12.
        let by_length = solutions_by_length(&near, &goal, 9);
        assert_eq!(by_length[2], 1);
        assert!(by_length[3..].iter().all(|&n| n == 0), "{by_length:?}");
        assert_eq!(
            solutions_by_length(&goal.layout().clone(), &goal, 5),
            [1, 0, 0, 0, 0, 0]
        );
    }

    /// The MTM enumeration: its first non-zero length is the MTM optimum of breadth-first
    /// search for many 8-puzzle boards; a board one move `L2` from the goal has that one
    /// optimal solution; every count equals a brute-force walk's on a 3x3 and a 2x4 board.
    #[test]
    fn mtm_solutions_by_length_agree_with_bfs() {
        let s = Shape::square(3).unwrap();
        let goal = Goal::blank_last(s);
        let mtm = BfsOracle::in_metric(&goal, Metric::Mtm);
        for (layout, d) in mtm.sample(9_001) {
            let by_length = mtm_solutions_by_length(&layout, &goal, d as usize + 1);
            let first = by_length.iter().position(|&n| n > 0);
            assert_eq!(first, Some(d as usize), "{layout}: {by_length:?}");
        }
        // The blank at the bottom left: L2 is the one solution of one move; every length
        // against a brute-force walk over layouts.
        let near = npuzzle_core::parse_board("1 2 3 4 5 6 0 7 8", None).unwrap();
        let by_length = mtm_solutions_by_length(&near, &goal, 6);
        assert_eq!(&by_length[..3], [0, 1, 0]);
        assert_eq!(by_length, brute_force_mtm(&near, &goal, 6));
        assert_eq!(
            mtm_solutions_by_length(&goal.layout().clone(), &goal, 3),
            [1, 0, 0, 0]
        );
        // A 2x4 board, blank first.
        let s = Shape::new(4, 2).unwrap();
        let goal = Goal::blank_first(s);
        let board = npuzzle_core::parse_board("4 1 2 3 0 5 6 7", Some(s)).unwrap();
        assert_eq!(
            mtm_solutions_by_length(&board, &goal, 7),
            brute_force_mtm(&board, &goal, 7)
        );
    }

    /// Every MTM move sequence of at most `max_len` moves tried one by one on layouts (no
    /// bitboard, no table): the counts of those that alternate axes and reach `goal` at their
    /// end only.
    fn brute_force_mtm(start: &Layout, goal: &Goal, max_len: usize) -> Vec<u64> {
        fn walk(
            b: &Layout,
            goal: &Layout,
            last: Option<bool>,
            n: usize,
            max: usize,
            out: &mut [u64],
        ) {
            if b == goal {
                out[n] += 1;
                return;
            }
            if n == max {
                return;
            }
            for dir in npuzzle_core::Move::ALL {
                if last == Some(dir.is_vertical()) {
                    continue;
                }
                let mut c = b.clone();
                while c.apply(dir) {
                    walk(&c, goal, Some(dir.is_vertical()), n + 1, max, out);
                }
            }
        }
        let mut out = vec![0; max_len + 1];
        walk(start, goal.layout(), None, 0, max_len, &mut out);
        out
    }

    /// The multi-tile metric: the same 181,440 states, every one at most its STM distance, the
    /// hardest STM position (`8 6 7 2 5 4 3 0 1`) at 20 MTM moves.
    #[test]
    fn eight_puzzle_mtm_oracle() {
        let s = Shape::square(3).unwrap();
        let goal = Goal::blank_last(s);
        let mtm = BfsOracle::in_metric(&goal, Metric::Mtm);
        let stm = BfsOracle::new(&goal);
        assert_eq!(mtm.len(), 181_440);
        assert_eq!(mtm.diameter(), 24);
        let hard = npuzzle_core::parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
        assert_eq!(mtm.distance(&hard), Some(20));
        // One MTM move from the goal: the blank (bottom right) slides 1 or 2 tiles of its row
        // or column.
        let one: Vec<_> = mtm.sample(1).into_iter().filter(|&(_, d)| d == 1).collect();
        assert_eq!(one.len(), 4);
        for (layout, d) in mtm.sample(97) {
            let s = stm.distance(&layout).unwrap();
            assert!(d <= s && s <= 2 * d, "{layout}: mtm {d}, stm {s}");
        }
    }
}
