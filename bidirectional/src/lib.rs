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
//! the search with [`SearchError::LimitReached`] and [`Limit::Memory`](npuzzle_core::Limit::Memory), whose [`Progress`]
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

mod run;
mod store;

use npuzzle_core::{
    BidirectionalStats, Board, Goal, Guarantee, Heuristic, HeuristicProperties, Limits, Outcome,
    Progress, SearchError, SearchStart, Solver, Zero, start_search,
};

use crate::run::{Scratch, solve_in};

pub use npuzzle_core::DEFAULT_MEMORY_LIMIT;

/// Index of the forward direction (from the start board) in per-direction arrays.
const FORWARD: usize = 0;
/// Index of the backward direction (from the goal).
const BACKWARD: usize = 1;

/// Details of a bidirectional search that [`Stats`](npuzzle_core::Stats) does not carry, for memory measurements.
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
    /// [`SearchError::LimitReached`] with [`Limit::Memory`](npuzzle_core::Limit::Memory) when storing more states would take
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
