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
//! States live in core's [`NodeStore`](npuzzle_core::NodeStore) (shared with `npuzzle-bidirectional` and weighted A*):
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
//! before every growth ([`NodeStore::grow`](npuzzle_core::NodeStore::grow)), counting both tables while the map grows; a growth that would exceed
//! [`Limits::memory_bytes`] — by default [`DEFAULT_MEMORY_LIMIT`], 4 GiB — stops the search
//! cleanly with [`SearchError::LimitReached`] and [`Limit::Memory`](npuzzle_core::Limit::Memory), whose [`Progress`] says how
//! many states were stored and which f-bound was reached (a lower bound on the solution
//! length). Process memory (peak RSS) tracks the accounted bytes closely: 0.99 GiB for a
//! search stopped at a 1 GiB limit, 4.0 GiB at the default limit. Keys that own heap memory (a
//! Vec-based board's above 40 cells: its packed words, 64 bytes on 7×7, 32,288 on 127×127) are
//! counted with it ([`NodeStore::begin_keys`](npuzzle_core::NodeStore::begin_keys)): on 7×7
//! with `--memory-limit 64M` A\* peaks at 60 MiB of resident memory (123 MiB before).
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
mod meta;
mod run;

use npuzzle_core::{
    Board, Goal, Guarantee, Heuristic, HeuristicProperties, Limits, Outcome, Progress, SearchError,
    Solver, StoreReport,
};

use crate::run::{Scratch, solve_in};

pub use crate::greedy::Greedy;

pub use npuzzle_core::DEFAULT_MEMORY_LIMIT;

/// Details of an A* search that [`Stats`](npuzzle_core::Stats) does not carry, for memory measurements.
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
    /// [`SearchError::LimitReached`] with [`Limit::Memory`](npuzzle_core::Limit::Memory) when storing more states would take
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
    use std::collections::BinaryHeap;

    use super::*;
    use crate::meta::Meta;
    use crate::run::{F_MAX, entry, entry_f, entry_index};

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
