//! The one place that turns an engine, a heuristic and a board into a concrete, statically
//! dispatched search (one monomorphised loop per engine × heuristic × board type), checks the
//! answer by replay, and packages it as an [`Answer`].

use npuzzle_core::{
    BitBoard, Board, BoardError, Goal, Guarantee, Heuristic, Layout, Metric, MtmManhattan, Outcome,
    PackedBoard, Parity, Solution, Solver, Stats, verify,
};
use npuzzle_idastar::IdaStar;
use npuzzle_nxn::VecBoard;

use crate::databases::Db;
use crate::registry::with_engine;
use crate::{Answer, Engine, Error, HeuristicKind, Observer};

/// `check_printable` refuses solutions whose board sequence has more cells than this.
pub const MAX_PRINTED_CELLS: usize = 100_000_000;

/// One search to run: the engine and its settings, with everything resolved.
#[derive(Clone, Debug)]
pub(crate) struct Job<'a> {
    pub engine: Engine,
    pub heuristic: HeuristicKind,
    /// The opened tables, for [`HeuristicKind::Pdb`] (plain, or tile-only on boards of more
    /// than 32 cells) and [`HeuristicKind::Zpdb`] (zero-aware).
    pub tables: Option<&'a Db>,
    pub goal: &'a Goal,
    /// The board's parity, decided once by the caller (solvable: unsolvable boards never
    /// reach a search, see [`trivial`]).
    pub parity: Parity,
    pub limits: &'a npuzzle_core::Limits,
    pub cycle_check: npuzzle_idastar::CycleCheck,
    /// Weighted A\*'s weight.
    pub weight: f64,
    /// IDA\*'s threads (0 = all cores) and deterministic mode.
    pub threads: usize,
    pub deterministic: bool,
    /// Idle IDA\* engines of the [`crate::Npuzzle`], whose thread pools are reused.
    pub spares: &'a Spares,
    pub check_printable: bool,
    /// The metric moves are counted (and, with the idastar engine, searched) in.
    pub metric: Metric,
    /// IDA\*'s depth limit, in moves.
    pub max_depth: Option<u32>,
    /// Hill climbing's seed and cap on steps.
    pub seed: Option<u64>,
    pub max_steps: Option<u64>,
}

/// Runs `job` on `layout`: on the `u64` bitboard for boards of at most 16 cells, on the `u128`
/// packed board for 17–25 cells (the 24-puzzle, 4×6, 3×8, ...), else on the Vec board.
///
/// # Errors
/// A bad weight, a limit reached, an answer that fails the replay check, or (with
/// `check_printable`) a solution too long to print as boards.
pub(crate) fn run(
    job: &Job<'_>,
    layout: &Layout,
    observer: &dyn Observer,
) -> Result<Answer, Error> {
    let cells = layout.shape().cells();
    // The constructive solver works on the Vec board whatever the size.
    let answer = if job.engine == Engine::Constructive {
        with_engine::<VecBoard>(job, layout, observer)
    } else if cells <= BitBoard::MAX_CELLS {
        with_engine::<BitBoard>(job, layout, observer)
    } else if cells <= PackedBoard::CELLS {
        with_engine::<PackedBoard>(job, layout, observer)
    } else {
        with_engine::<VecBoard>(job, layout, observer)
    }?;
    if job.check_printable {
        printable(&answer)?;
    }
    Ok(answer)
}

/// Refuses an answer whose board sequence (start to goal) has more than [`MAX_PRINTED_CELLS`]
/// cells in all (`Config::check_printable`, `--format boards`).
///
/// # Errors
/// [`Error::TooManyBoards`] with the moves and the shape.
pub(crate) fn printable(answer: &Answer) -> Result<(), Error> {
    let shape = answer.layout.shape();
    if (answer.len() + 1).saturating_mul(shape.cells()) > MAX_PRINTED_CELLS {
        return Err(Error::TooManyBoards {
            moves: answer.len(),
            shape,
        });
    }
    Ok(())
}

/// Idle IDA\* engines, so that a parallel engine's thread pool is built once per
/// [`crate::Npuzzle`] and concurrent solves each get their own engine. Holds at most as many
/// engines as solves ran at the same time.
#[derive(Debug, Default)]
pub(crate) struct Spares(std::sync::Mutex<Vec<IdaStar>>);

impl Spares {
    /// An engine configured for `job`: an idle one if there is one (keeping its pool when the
    /// thread count is the same), else a new one.
    pub(crate) fn take(&self, job: &Job<'_>) -> IdaStar {
        let spare = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop();
        spare
            .unwrap_or_default()
            .threads(job.threads)
            .deterministic(job.deterministic)
            .cycle_check(job.cycle_check)
            .max_depth(job.max_depth)
    }

    /// Returns an engine after its solve.
    pub(crate) fn put(&self, engine: IdaStar) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(engine);
    }
}

/// A board decided without search: unsolvable by parity, or equal to its goal.
pub(crate) struct Trivial<'a> {
    pub layout: &'a Layout,
    pub goal: &'a Goal,
    pub parity: Parity,
    /// The engine and heuristic that would have searched.
    pub engine: Engine,
    pub heuristic: HeuristicKind,
    pub weight: Option<f64>,
    pub metric: Metric,
}

/// The answer for a [`Trivial`] board: the parity proof, or the empty solution (optimal
/// whatever the engine: nothing is shorter).
pub(crate) fn trivial(t: &Trivial<'_>) -> Answer {
    let solution = t.parity.solvable.then(|| Solution {
        moves: Vec::new(),
        guarantee: Guarantee::Optimal,
        stats: Stats::default(),
    });
    Answer {
        layout: t.layout.clone(),
        goal: t.goal.clone(),
        engine: t.engine,
        heuristic: t.heuristic,
        weight: t.weight,
        parity: t.parity.clone(),
        solution,
        lower_bound: 0,
        notes: Vec::new(),
        metric: t.metric,
    }
}

/// Searches one solvable board (parity was decided by the caller, once: [`Job::parity`]),
/// then replays the returned moves independently.
///
/// # Errors
/// A board too large for `B`, a limit reached, or an engine's answer that fails the replay.
pub(crate) fn solve_one<B, S, H>(
    solver: &mut S,
    heuristic: &H,
    job: &Job<'_>,
    layout: &Layout,
    observer: &dyn Observer,
) -> Result<Answer, Error>
where
    B: Board,
    S: Solver<B>,
    H: Heuristic<B>,
{
    let goal = job.goal;
    let answer = unsolved(job, layout);
    if !answer.parity.solvable {
        return Ok(answer);
    }
    let board = B::from_layout(layout).map_err(|e| match e {
        BoardError::TooLarge { .. } => Error::Board(e),
    })?;
    observer.search_started(job.engine);
    let outcome = solver.solve_observed(&board, goal, heuristic, job.limits, |p| {
        observer.search_progress(job.engine, p);
    });
    observer.search_finished(job.engine);
    match outcome? {
        Outcome::Solved(solution) => solved(answer, solution, heuristic.properties().admissible),
        Outcome::Unsolvable(_) => Err(Error::Internal(format!(
            "the {} engine called a board unsolvable that parity says is solvable",
            job.engine.name()
        ))),
    }
}

/// The answer for `layout` under `job` before its solution is known (none yet, lower bound 0).
pub(crate) fn unsolved(job: &Job<'_>, layout: &Layout) -> Answer {
    Answer {
        layout: layout.clone(),
        goal: job.goal.clone(),
        engine: job.engine,
        heuristic: job.heuristic,
        weight: (job.engine == Engine::WeightedAStar).then_some(job.weight),
        parity: job.parity.clone(),
        solution: None,
        lower_bound: 0,
        notes: Vec::new(),
        metric: job.metric,
    }
}

/// `answer` with `solution`, replayed to the goal, and its lower bound: the length (in the
/// answer's metric) when the solution is proven optimal, else the start's h when the heuristic
/// is `admissible`, else 0. In the multi-tile metric only the idastar engine searches MTM
/// moves: any other engine's solution is unproven there, with the MTM bound as lower bound.
///
/// # Errors
/// [`Error::Internal`] when the moves do not solve the board.
pub(crate) fn solved(
    mut answer: Answer,
    solution: Solution,
    admissible: bool,
) -> Result<Answer, Error> {
    verify(&answer.layout, &solution.moves, answer.goal.layout()).map_err(|e| {
        Error::Internal(format!(
            "the {} engine returned moves that do not solve the board: {e}",
            answer.engine.name()
        ))
    })?;
    let mut solution = solution;
    if answer.metric == Metric::Mtm && !answer.engine.searches_mtm() {
        // Searched in single-tile moves: nothing is proven about the MTM optimum but the MTM
        // bound of the start board.
        solution.guarantee = Guarantee::Unproven;
        answer.lower_bound = MtmManhattan::new(&answer.goal).estimate_layout(&answer.layout);
    } else {
        answer.lower_bound = if solution.guarantee.is_optimal() {
            answer.metric.length(&solution.moves) as u32
        } else if admissible {
            solution.stats.initial_h
        } else {
            0
        };
    }
    answer.solution = Some(solution);
    Ok(answer)
}
