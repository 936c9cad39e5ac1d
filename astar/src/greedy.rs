//! Greedy best-first search: A\*'s machinery ordered by h alone.

use npuzzle_core::{
    Board, Goal, Guarantee, Heuristic, HeuristicProperties, Limits, Outcome, Progress, SearchError,
    Solver,
};

use crate::SearchReport;
use crate::run::{Scratch, solve_in};

/// Greedy best-first search (Doran & Michie, "Experiments with the Graph Traverser program",
/// Proceedings of the Royal Society A 294, 1966; Pearl, *Heuristics*, 1984, §2.3): always expand
/// the stored state of least h, remember every state met, never reopen one.
///
/// It ignores the path length g entirely, so it is fast and its answers are long: it proves
/// nothing about their length, whatever the heuristic ([`Guarantee::Unproven`];
/// [`Solver::guarantee`] says so), and the `npuzzle` facade refuses it under `optimal`. It is
/// the classic first step of teaching informed search, before A\* puts g back into f = g + h.
///
/// Details:
/// - ties on h go to the newest state (depth-first among equals), so with h = 0 (the `Zero`
///   heuristic) it is a depth-first search with a visited set;
/// - the goal is tested when a state is *generated* (nothing is gained by waiting: the answer is
///   not optimal anyway), so a search stops as soon as the goal is met;
/// - a state met again is ignored, even through a shorter path: its stored move (and so the
///   answer) is that of the first path that met it.
///
/// Storage is A\*'s (see the crate docs): core's [`NodeStore`](npuzzle_core::NodeStore) arena
/// and visited map (about 10 + 6–11 bytes a state for `u64` keys) and an open list of 8-byte
/// entries, accounted before every growth and bounded by [`Limits::memory_bytes`] (default
/// [`DEFAULT_MEMORY_LIMIT`](crate::DEFAULT_MEMORY_LIMIT), 4 GiB); the meta words are widened
/// when a path outgrows 8,191 moves, which greedy paths on large boards do. Keys that own
/// heap memory (the Vec board's above 40 cells) are counted with it
/// ([`Board::key_heap_bytes`](npuzzle_core::Board::key_heap_bytes)): `--memory-limit 100M`
/// on a 40×40 board peaks at 105 MiB of resident memory (4.6 GB before they were).
///
/// ```
/// use npuzzle_astar::Greedy;
/// use npuzzle_core::{BitBoard, Board, Goal, Guarantee, Limits, Manhattan, Outcome, Solver, parse_board, verify};
///
/// let start = parse_board("8 6 7 2 5 4 3 0 1", None)?; // 31 moves at best
/// let goal = Goal::blank_last(start.shape());
/// let board = BitBoard::from_layout(&start)?;
/// let mut greedy = Greedy::new();
/// let outcome = greedy.solve(&board, &goal, &Manhattan::new(&goal), &Limits::default())?;
/// let Outcome::Solved(solution) = outcome else { panic!("solvable") };
/// verify(&start, &solution.moves, goal.layout())?;
/// assert!(solution.moves.len() >= 31);
/// assert_eq!(solution.guarantee, Guarantee::Unproven);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Greedy<B: Board> {
    scratch: Scratch<B::Key, u16>,
    last: SearchReport,
}

impl<B: Board> Default for Greedy<B> {
    fn default() -> Self {
        Greedy {
            scratch: Scratch::default(),
            last: SearchReport::default(),
        }
    }
}

impl<B: Board> Greedy<B> {
    /// A new engine. Allocates nothing until the first solve.
    pub fn new() -> Greedy<B> {
        Greedy::default()
    }

    /// Memory details of the last search (solved or stopped by a limit; all zero before the
    /// first search and after a board answered without search). `reopened` is always 0.
    pub fn last_report(&self) -> &SearchReport {
        &self.last
    }

    /// Frees the storage kept for the next search.
    pub fn release_memory(&mut self) {
        self.scratch.clear(true);
    }
}

impl<B: Board> Solver<B> for Greedy<B> {
    fn name(&self) -> &'static str {
        "greedy"
    }

    /// Always [`Guarantee::Unproven`]: ordering by h alone proves nothing about the length,
    /// even with a consistent heuristic.
    fn guarantee(&self, heuristic: HeuristicProperties) -> Guarantee {
        let _ = heuristic;
        Guarantee::Unproven
    }

    /// Runs greedy best-first search: parity check, then expansion by least h until the goal
    /// is generated.
    ///
    /// Time: O(s log s) for s stored states (one heap operation per stored state, one
    /// visited-map probe per generated node); memory: as A\*, bounded by
    /// [`Limits::memory_bytes`]. Node, time and cancel limits are checked every 2^14
    /// expansions; the observer is called at the start and every 2^16 expansions, with
    /// [`Progress::bound`] the start board's h (a lower bound on the optimal length when the
    /// heuristic is admissible).
    ///
    /// # Errors
    /// [`SearchError::LimitReached`] with [`npuzzle_core::Limit::Memory`] when storing more
    /// states would take more than the memory limit (or more than 2^32 states), with the other
    /// limits when they are hit; [`SearchError::Goal`] when the goal's shape differs from the
    /// board's; [`SearchError::Board`] when the goal does not fit the board type.
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
        let (result, report) = solve_in::<B, H, O, u16, true>(
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
