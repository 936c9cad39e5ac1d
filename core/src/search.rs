//! Types shared by all engines: limits, progress, statistics, outcomes and errors.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::goal::{Goal, Parity};
use crate::heuristic::{Heuristic, HeuristicProperties};
use crate::layout::Layout;
use crate::moves::Move;
use crate::{Board, BoardError};

/// Resource limits for one search. The default has no node or time limit and no memory limit
/// (engines that store states apply their own default memory limit).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after generating this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop after this much wall-clock time.
    pub timeout: Option<Duration>,
    /// Stop when the engine's stored states would use more than this many bytes.
    pub memory_bytes: Option<u64>,
    /// Stop when this flag becomes true (set it from another thread).
    pub cancel: Option<Arc<AtomicBool>>,
}

/// Which limit stopped a search. Grows as engines gain limits: match with a wildcard arm, or use
/// [`Limit::name`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Limit {
    /// [`Limits::max_nodes`] generated nodes.
    Nodes(u64),
    /// [`Limits::timeout`], in seconds.
    Time(f64),
    /// [`Limits::memory_bytes`], in bytes.
    Memory(u64),
    /// The cancel flag was set.
    Cancelled,
    /// A depth-first engine's depth limit, in moves (`IdaStar::max_depth`): the next
    /// threshold is above it, so **no solution of at most this many moves exists** (proven);
    /// the progress's bound is the proven lower bound on the optimal length.
    Depth(u32),
    /// A local search's cap on steps (moves made), e.g. hill climbing's.
    Steps(u64),
}

impl Limit {
    /// The limit's name, as it is serialised: `nodes`, `time`, `memory`, `cancelled`, `depth`
    /// or `steps`.
    pub fn name(&self) -> &'static str {
        match self {
            Limit::Nodes(_) => "nodes",
            Limit::Time(_) => "time",
            Limit::Memory(_) => "memory",
            Limit::Cancelled => "cancelled",
            Limit::Depth(_) => "depth",
            Limit::Steps(_) => "steps",
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Nodes(n) => write!(f, "node limit of {n} generated nodes"),
            Limit::Time(s) => write!(f, "time limit of {s} s"),
            Limit::Memory(b) => write!(f, "memory limit of {} ({b} bytes)", human_bytes(*b)),
            Limit::Cancelled => write!(f, "cancellation"),
            Limit::Depth(d) => write!(
                f,
                "depth limit of {d} moves (proven: no solution of at most {d} moves, so every solution has at least {} moves)",
                u64::from(*d) + 1
            ),
            Limit::Steps(n) => write!(f, "step limit of {n} steps"),
        }
    }
}

/// Formats a byte count with a binary unit (`1.5 GiB`).
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// A snapshot of a running search, passed to observers and carried by limit errors.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Progress {
    /// Nodes expanded so far.
    pub expanded: u64,
    /// Nodes generated so far.
    pub generated: u64,
    /// Seconds since the search started.
    pub seconds: f64,
    /// Current f-bound: the IDA* threshold, or the A* f of the node being expanded, in moves
    /// (greedy best-first search and hill climbing, which order by h alone: the start board's
    /// h; [`Progress::bound_kind`] says which).
    pub bound: u32,
    /// States currently stored (A*), 0 for IDA*.
    pub stored_states: u64,
    /// What [`Progress::bound`] is: an f-bound, or only the start board's estimate.
    pub bound_kind: BoundKind,
}

/// What [`Progress::bound`] holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BoundKind {
    /// An f-bound: IDA*'s threshold, or the f = g + h (weighted: g + w·h) of the state A* is
    /// expanding. With an admissible heuristic and an optimal engine, a lower bound on every
    /// solution's length.
    #[default]
    FBound,
    /// The start board's estimate h, for engines that order by h alone (greedy best-first
    /// search, hill climbing): they reach no f-bound and bound nothing.
    StartEstimate,
}

impl Progress {
    /// `f-bound N reached` or `start estimate N`: what [`Progress::bound`] is, in words.
    pub fn bound_text(&self) -> String {
        match self.bound_kind {
            BoundKind::FBound => format!("f-bound {} reached", self.bound),
            BoundKind::StartEstimate => format!("start estimate {}", self.bound),
        }
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, {} nodes expanded, {} generated",
            self.bound_text(),
            self.expanded,
            self.generated
        )?;
        if self.stored_states > 0 {
            write!(f, ", {} states stored", self.stored_states)?;
        }
        write!(f, " in {:.2} s", self.seconds)
    }
}

/// One IDA* iteration.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Iteration {
    /// The iteration's f-threshold, in moves.
    pub threshold: u32,
    /// Nodes expanded in this iteration.
    pub expanded: u64,
    /// Nodes generated in this iteration.
    pub generated: u64,
}

/// Statistics of a finished search.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Nodes expanded (successors generated), all iterations.
    pub expanded: u64,
    /// Nodes generated (children created, before any duplicate check), all iterations.
    pub generated: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Heuristic value of the start board, in moves.
    pub initial_h: u32,
    /// Per-iteration thresholds and counts (IDA* only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub iterations: Vec<Iteration>,
    /// Distinct states stored at the end (A*), 0 for IDA*.
    pub stored_states: u64,
    /// Peak bytes of the engine's state storage (A*: arena + map + heap), 0 for IDA*.
    pub peak_memory_bytes: u64,
    /// Per-direction figures of a bidirectional search (`None` for one-directional engines;
    /// left out of the JSON output then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bidirectional: Option<BidirectionalStats>,
}

/// Per-direction statistics of a bidirectional search: forward from the start board, backward
/// from the goal.
///
/// The solution is the forward path from the start to the *meeting state* followed by the
/// backward path from there to the goal, so
/// `meeting_g_forward + meeting_g_backward` is the solution length.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BidirectionalStats {
    /// Nodes expanded by the forward search (from the start board).
    pub forward_expanded: u64,
    /// Nodes expanded by the backward search (from the goal).
    pub backward_expanded: u64,
    /// Nodes generated by the forward search.
    pub forward_generated: u64,
    /// Nodes generated by the backward search.
    pub backward_generated: u64,
    /// Moves from the start board to the meeting state along the solution.
    pub meeting_g_forward: u32,
    /// Moves from the meeting state to the goal along the solution.
    pub meeting_g_backward: u32,
    /// The lower bound on the solution length, in moves, proven when the search stopped (it
    /// equals the solution length: that is the stopping rule).
    pub lower_bound: u32,
    /// Length in moves of the first solution found, when the frontiers first met. It may be
    /// longer than the optimum: that is why the search goes on until the lower bound reaches
    /// the best length found.
    pub first_meeting: u32,
}

impl Stats {
    /// Generated nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.generated as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// What is proven about a solution's length, decided by the engine **and** the heuristic's
/// declared [`HeuristicProperties`] (see [`Solver::guarantee`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Guarantee {
    /// Proven optimal: no shorter solution exists (IDA\*, A\*, bidirectional search with an
    /// admissible heuristic; weighted A\* with weight 1 and a consistent heuristic).
    Optimal,
    /// Proven at most `factor` times the optimal length (weighted A\* with weight `factor > 1`
    /// and a consistent heuristic: Pohl 1970; without reopening the bound needs consistency,
    /// Likhachev, Gordon & Thrun 2003).
    WithinFactor(f64),
    /// Nothing proven beyond being a valid solution (the constructive solver; an engine whose
    /// proof needs a property the heuristic does not declare).
    Unproven,
}

impl Guarantee {
    /// Whether the solution is proven optimal.
    pub fn is_optimal(self) -> bool {
        self == Guarantee::Optimal
    }

    /// The proven bound on `length / optimal length`: 1 when optimal, the factor when bounded,
    /// `None` when nothing is proven.
    pub fn factor(self) -> Option<f64> {
        match self {
            Guarantee::Optimal => Some(1.0),
            Guarantee::WithinFactor(w) => Some(w),
            Guarantee::Unproven => None,
        }
    }

    /// The guarantee of an engine that is optimal with any admissible heuristic (IDA\*, A\*
    /// that reopens states, bidirectional search that reopens states): [`Guarantee::Optimal`]
    /// if `h` is admissible, else [`Guarantee::Unproven`].
    pub fn of_admissible_search(h: HeuristicProperties) -> Guarantee {
        if h.admissible {
            Guarantee::Optimal
        } else {
            Guarantee::Unproven
        }
    }
}

impl fmt::Display for Guarantee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Guarantee::Optimal => f.write_str("optimal"),
            Guarantee::WithinFactor(w) => write!(f, "at most {w} times the optimum"),
            Guarantee::Unproven => f.write_str("not proven optimal"),
        }
    }
}

/// A solution, what is proven about it, and its search statistics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Solution {
    /// The moves, in the tile-slide notation (see [`Move`]).
    pub moves: Vec<Move>,
    /// What the engine proves about the length, given the heuristic (see
    /// [`Solver::guarantee`]).
    pub guarantee: Guarantee,
    /// Search statistics.
    pub stats: Stats,
}

/// The result of a completed search: a solution (with what is proven about it) or a proof
/// that none exists.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A solution; [`Solution::guarantee`] says whether it is proven optimal.
    Solved(Solution),
    /// Proven unsolvable by parity, before any search.
    Unsolvable(Parity),
}

/// Why a search did not produce an answer. Never means "no solution": see [`Outcome`].
/// Grows as engines do: match with a wildcard arm.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// A limit was hit before the search finished.
    #[error("search stopped by the {limit}: {progress}")]
    LimitReached {
        /// Which limit.
        limit: Limit,
        /// How far the search got.
        progress: Progress,
    },
    /// The goal and the start board have different shapes.
    #[error(transparent)]
    Goal(#[from] crate::goal::GoalShapeError),
    /// The goal does not fit the board type.
    #[error(transparent)]
    Board(#[from] BoardError),
}

/// A search engine over boards of type `B`.
pub trait Solver<B: Board> {
    /// The engine's name, as used by `--engine` and in bench IDs (`idastar`, `astar`, ...).
    fn name(&self) -> &'static str;

    /// What this engine, as configured, proves about its answers when it searches with a
    /// heuristic of the given properties. Every [`Solution`] it returns carries this value, and
    /// callers can ask before searching (`--optimal` refuses anything but
    /// [`Guarantee::Optimal`]).
    fn guarantee(&self, heuristic: HeuristicProperties) -> Guarantee;

    /// Finds a solution from `start` to `goal` (optimal when [`Solver::guarantee`] says so), or
    /// proves by parity that none exists.
    /// `observer` is called now and then (at least once per IDA* iteration, every 2^16–2^20
    /// nodes) with the search's progress.
    ///
    /// # Errors
    /// [`SearchError::LimitReached`] when a limit in `limits` stops the search;
    /// [`SearchError::Goal`] when shapes differ.
    fn solve_observed<H: Heuristic<B>, O: FnMut(&Progress)>(
        &mut self,
        start: &B,
        goal: &Goal,
        heuristic: &H,
        limits: &Limits,
        observer: O,
    ) -> Result<Outcome, SearchError>;

    /// [`Solver::solve_observed`] with no observer.
    ///
    /// # Errors
    /// As [`Solver::solve_observed`].
    fn solve<H: Heuristic<B>>(
        &mut self,
        start: &B,
        goal: &Goal,
        heuristic: &H,
        limits: &Limits,
    ) -> Result<Outcome, SearchError> {
        self.solve_observed(start, goal, heuristic, limits, |_| {})
    }
}

/// What [`start_search`] found: the answer already, or what the search needs.
#[derive(Clone, Debug)]
pub enum SearchStart<B> {
    /// Answered without search: [`Outcome::Unsolvable`] (parity), or [`Outcome::Solved`] with
    /// no moves and all-zero [`Stats`] when the start board is the goal.
    Answered(Outcome),
    /// A search is needed.
    Search {
        /// The goal as a board of the engine's type.
        goal_board: B,
        /// The start board's layout (computed for the parity test; bidirectional search aims
        /// its backward heuristic at it, the constructive solver works on it).
        start_layout: Layout,
    },
}

/// The start every engine shares, before any search: the parity test (an unsolvable board is
/// answered with [`Outcome::Unsolvable`], a proof, never an error), the goal board of type `B`,
/// and the trivial case (the start board is the goal: an empty solution with all-zero
/// [`Stats`]: no node expanded, generated or stored, 0 s, h = 0).
///
/// Complexity: O(N) for N cells (the layout, the cycles of the permutation, the goal board and
/// the key comparison), no search.
///
/// ```
/// use npuzzle_core::{BitBoard, Board, Goal, Outcome, SearchStart, Stats, parse_board, start_search};
/// let goal = Goal::blank_last(npuzzle_core::Shape::square(3)?);
/// let board = |t| BitBoard::from_layout(&parse_board(t, None).unwrap()).unwrap();
/// let SearchStart::Answered(Outcome::Unsolvable(p)) = start_search(&board("213456780"), &goal)?
/// else { panic!("odd permutation, blank home") };
/// assert!(!p.solvable);
/// let SearchStart::Answered(Outcome::Solved(s)) = start_search(&board("123456780"), &goal)?
/// else { panic!("the goal itself") };
/// assert!(s.moves.is_empty() && s.stats == Stats::default());
/// let SearchStart::Search { goal_board, .. } = start_search(&board("123456708"), &goal)? else {
///     panic!("one move away")
/// };
/// assert_eq!(goal_board.key(), board("123456780").key());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SearchError::Goal`] when the goal's shape differs from the board's (checked first);
/// [`SearchError::Board`] when the goal does not fit the board type `B`.
pub fn start_search<B: Board>(start: &B, goal: &Goal) -> Result<SearchStart<B>, SearchError> {
    let start_layout = start.to_layout();
    let parity = goal.parity(&start_layout)?;
    if !parity.solvable {
        return Ok(SearchStart::Answered(Outcome::Unsolvable(parity)));
    }
    let goal_board = B::from_layout(goal.layout())?;
    if start.key() == goal_board.key() {
        return Ok(SearchStart::Answered(Outcome::Solved(Solution {
            moves: Vec::new(),
            // No moves: nothing can be shorter, whatever the engine.
            guarantee: Guarantee::Optimal,
            stats: Stats::default(),
        })));
    }
    Ok(SearchStart::Search {
        goal_board,
        start_layout,
    })
}

/// When a search that answers at any time (beam searches, path shortening, line beams) must
/// stop: at a deadline, or when a cancel flag is set (Ctrl-C, a client gone), whichever comes
/// first. Cheap to check (one atomic load, one clock read); cheap to clone (an `Arc`).
///
/// ```
/// use npuzzle_core::{Limits, StopAt};
/// assert!(!StopAt::never().reached());
/// let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
/// let limits = Limits { cancel: Some(flag), ..Limits::default() };
/// assert!(StopAt::new(&limits, std::time::Instant::now()).reached());
/// ```
#[derive(Clone, Debug, Default)]
pub struct StopAt {
    /// The deadline, if any.
    pub deadline: Option<Instant>,
    /// The cancel flag, if any.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl StopAt {
    /// Never stops.
    pub fn never() -> StopAt {
        StopAt::default()
    }

    /// `limits`' cancel flag and time limit counted from `begun`; a time limit beyond what the
    /// clock can represent is no deadline (never a panic).
    pub fn new(limits: &Limits, begun: Instant) -> StopAt {
        StopAt {
            deadline: limits.timeout.and_then(|t| begun.checked_add(t)),
            cancel: limits.cancel.clone(),
        }
    }

    /// The same cancel flag with another deadline.
    #[must_use]
    pub fn with_deadline(&self, deadline: Option<Instant>) -> StopAt {
        StopAt {
            deadline,
            cancel: self.cancel.clone(),
        }
    }

    /// Whether the cancel flag is set.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Whether the cancel flag is set or the deadline has passed. O(1).
    pub fn reached(&self) -> bool {
        self.cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Checks node, time and cancel limits cheaply; engines call [`LimitClock::check`] every few
/// thousand nodes.
#[derive(Debug)]
pub struct LimitClock {
    start: Instant,
    max_nodes: u64,
    deadline: Option<Instant>,
    timeout: Option<Duration>,
    cancel: Option<Arc<AtomicBool>>,
}

impl LimitClock {
    /// Starts the clock now. A timeout so long that no instant of the system clock lies that
    /// far ahead (such as 10^19 seconds) never stops the search; it is no error.
    pub fn new(limits: &Limits) -> LimitClock {
        let start = Instant::now();
        LimitClock {
            start,
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            deadline: limits.timeout.and_then(|t| start.checked_add(t)),
            timeout: limits.timeout,
            cancel: limits.cancel.clone(),
        }
    }

    /// Seconds since the start.
    pub fn seconds(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// The node budget (`u64::MAX` when unlimited).
    pub fn max_nodes(&self) -> u64 {
        self.max_nodes
    }

    /// The expansion count at which an engine that counts expansions should call
    /// [`LimitClock::check`] next, after a check at `expanded` expansions and `generated`
    /// generated nodes: the next multiple of `interval` expansions (the clock and the cancel
    /// flag cost a system call or an atomic load), or earlier: at the first expansion that
    /// could see the node limit reached if every expansion generated `branching` children (4
    /// in the single-tile metric), the check generating its own children after it. The engine
    /// then compares one counter an expansion (`expanded >= next`), and stops fewer than
    /// `branching` nodes past the limit. O(1).
    ///
    /// # Panics
    /// If `interval` or `branching` is 0.
    pub fn next_expansion_check(
        &self,
        expanded: u64,
        generated: u64,
        interval: u64,
        branching: u64,
    ) -> u64 {
        let regular = expanded - expanded % interval + interval;
        let budget = self.max_nodes.saturating_sub(generated);
        regular.min(expanded.saturating_add(budget.div_ceil(branching).max(1)))
    }

    /// The generated-node count at which an engine that counts the nodes it enters should call
    /// [`LimitClock::check`] next, after a check at `generated` nodes: `interval` nodes later,
    /// or at the node limit if that comes first (so the search stops at the first node it
    /// enters at or past the limit). O(1).
    pub fn next_node_check(&self, generated: u64, interval: u64) -> u64 {
        generated.saturating_add(interval).min(self.max_nodes)
    }

    /// The limit that is hit, if any, after `generated` nodes.
    pub fn check(&self, generated: u64) -> Option<Limit> {
        if generated >= self.max_nodes {
            return Some(Limit::Nodes(self.max_nodes));
        }
        if let Some(c) = &self.cancel
            && c.load(Ordering::Relaxed)
        {
            return Some(Limit::Cancelled);
        }
        if let Some(d) = self.deadline
            && Instant::now() >= d
        {
            return Some(Limit::Time(self.timeout.map_or(0.0, |t| t.as_secs_f64())));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::{BitBoard, Shape, parse_board};

    /// A timeout beyond what the system clock can represent ahead is no deadline (issue 52,
    /// case 1: it panicked with "overflow when adding duration to instant").
    #[test]
    fn a_timeout_beyond_the_clock_never_stops_and_never_panics() {
        let limits = Limits {
            timeout: Some(Duration::from_secs_f64(1e19)),
            ..Limits::default()
        };
        let clock = LimitClock::new(&limits);
        assert_eq!(clock.check(1_000), None);
        let limits = Limits {
            timeout: Some(Duration::MAX),
            ..Limits::default()
        };
        assert_eq!(LimitClock::new(&limits).check(0), None);
    }

    /// The next check falls on the regular interval, or early enough that expansions of at
    /// most `branching` children each overshoot the node limit by fewer than `branching`.
    #[test]
    fn the_next_check_keeps_the_node_limit() {
        let free = LimitClock::new(&Limits::default());
        assert_eq!(free.next_expansion_check(0, 0, 4096, 4), 4096);
        assert_eq!(free.next_expansion_check(5000, 20_000, 4096, 4), 8192);
        assert_eq!(free.next_node_check(100, 4096), 4196);
        let limits = Limits {
            max_nodes: Some(1000),
            ..Limits::default()
        };
        let clock = LimitClock::new(&limits);
        assert_eq!(clock.next_expansion_check(0, 0, 4096, 4), 250);
        assert_eq!(clock.next_expansion_check(300, 998, 4096, 4), 301);
        assert_eq!(clock.next_expansion_check(300, 1200, 4096, 4), 301);
        assert_eq!(clock.next_node_check(100, 4096), 1000);
        assert_eq!(clock.next_node_check(1000, 4096), 1000);
        // Simulated: each expansion generates `branching` children after its check; the first
        // check that sees the limit comes within `branching` nodes of it.
        for branching in [1u64, 3, 4, 6] {
            for max in [0u64, 1, 10, 1000, 5000] {
                let clock = LimitClock::new(&Limits {
                    max_nodes: Some(max),
                    ..Limits::default()
                });
                let (mut expanded, mut generated) = (0u64, 0u64);
                let mut next = clock.next_expansion_check(0, 0, 64, branching);
                loop {
                    expanded += 1;
                    if expanded >= next {
                        if clock.check(generated).is_some() {
                            break;
                        }
                        next = clock.next_expansion_check(expanded, generated, 64, branching);
                    }
                    generated += branching;
                }
                assert!(
                    generated >= max && generated < max + branching,
                    "limit {max}, {branching} a node: stopped at {generated}"
                );
            }
        }
    }

    fn board(text: &str) -> BitBoard {
        BitBoard::from_layout(&parse_board(text, None).unwrap()).unwrap()
    }

    #[test]
    fn start_search_answers_parity_and_goal_and_hands_over_the_rest() {
        let goal = Goal::blank_first(Shape::square(3).unwrap());
        let SearchStart::Answered(Outcome::Unsolvable(p)) =
            start_search(&board("0 2 1 3 4 5 6 7 8"), &goal).unwrap()
        else {
            panic!("one transposition, blank home: unsolvable")
        };
        assert_eq!(
            (p.transpositions, p.blank_distance, p.solvable),
            (1, 0, false)
        );
        let SearchStart::Answered(Outcome::Solved(s)) =
            start_search(&board("0 1 2 3 4 5 6 7 8"), &goal).unwrap()
        else {
            panic!("the goal")
        };
        assert_eq!((s.moves, s.stats), (Vec::new(), Stats::default()));
        let start = board("1 0 2 3 4 5 6 7 8");
        let SearchStart::Search {
            goal_board,
            start_layout,
        } = start_search(&start, &goal).unwrap()
        else {
            panic!("one move from the goal")
        };
        assert_eq!(goal_board.to_layout(), *goal.layout());
        assert_eq!(start_layout, start.to_layout());
    }

    #[test]
    fn start_search_rejects_another_shape() {
        let goal = Goal::blank_last(Shape::square(4).unwrap());
        let err = start_search(&board("1 2 3 4 5 6 7 8 0"), &goal).unwrap_err();
        assert!(matches!(err, SearchError::Goal(_)), "{err}");
    }
}
