//! The one place that turns an engine, a heuristic and a board into a concrete, statically
//! dispatched search (one monomorphised loop per engine × heuristic × board type), checks the
//! answer by replay, and packages it as an [`Answer`].

use npuzzle_astar::{AStar, Greedy};
use npuzzle_bidirectional::Bidirectional;
use npuzzle_core::{
    BitBoard, Board, BoardError, Goal, Hamming, Heuristic, Layout, LinearConflict, Manhattan,
    Outcome, PackedBoard, Solver, Zero, verify,
};
use npuzzle_idastar::IdaStar;
use npuzzle_nxn::{AnytimeBeam, Constructive, VecBoard, WeightedAStar};

use crate::{Answer, Engine, Error, HeuristicKind, Observer};
use npuzzle_pdb::PatternDb;

/// `check_printable` refuses solutions whose board sequence has more cells than this.
pub const MAX_PRINTED_CELLS: usize = 100_000_000;

/// One search to run: the engine and its settings, with everything resolved.
#[derive(Clone, Debug)]
pub(crate) struct Job<'a> {
    pub engine: Engine,
    pub heuristic: HeuristicKind,
    /// The database for [`HeuristicKind::Pdb`].
    pub pdb: Option<&'a PatternDb>,
    pub goal: &'a Goal,
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
    let answer = if job.engine == Engine::Constructive {
        with_heuristic::<VecBoard, _>(&mut Constructive::new(), job, layout, observer)
    } else if cells <= BitBoard::MAX_CELLS {
        on_board::<BitBoard>(job, layout, observer)
    } else if cells <= PackedBoard::CELLS {
        on_board::<PackedBoard>(job, layout, observer)
    } else {
        on_board::<VecBoard>(job, layout, observer)
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

/// The job's search engine on board type `B`.
fn on_board<B: Board>(
    job: &Job<'_>,
    layout: &Layout,
    observer: &dyn Observer,
) -> Result<Answer, Error> {
    match job.engine {
        Engine::IdaStar => {
            let mut engine = job.spares.take(job);
            let answer = with_heuristic::<B, _>(&mut engine, job, layout, observer);
            job.spares.put(engine);
            answer
        }
        Engine::AStar => with_heuristic::<B, _>(&mut AStar::new(), job, layout, observer),
        Engine::Bidirectional => {
            with_heuristic::<B, _>(&mut Bidirectional::new(), job, layout, observer)
        }
        Engine::WeightedAStar => {
            with_heuristic::<B, _>(&mut WeightedAStar::new(job.weight)?, job, layout, observer)
        }
        Engine::Constructive => {
            with_heuristic::<B, _>(&mut Constructive::new(), job, layout, observer)
        }
        Engine::Greedy => with_heuristic::<B, _>(&mut Greedy::new(), job, layout, observer),
        Engine::Beam => {
            let threads = match job.threads {
                0 => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
                n => n,
            };
            with_heuristic::<B, _>(&mut AnytimeBeam::new(threads), job, layout, observer)
        }
    }
}

/// Idle IDA\* engines, so that a parallel engine's thread pool is built once per
/// [`crate::Npuzzle`] and concurrent solves each get their own engine. Holds at most as many
/// engines as solves ran at the same time.
#[derive(Debug, Default)]
pub(crate) struct Spares(std::sync::Mutex<Vec<IdaStar>>);

impl Spares {
    /// An engine configured for `job`: an idle one if there is one (keeping its pool when the
    /// thread count is the same), else a new one.
    fn take(&self, job: &Job<'_>) -> IdaStar {
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
    }

    /// Returns an engine after its solve.
    fn put(&self, engine: IdaStar) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(engine);
    }
}

/// [`solve_one`] with the job's heuristic, statically dispatched.
fn with_heuristic<B: Board, S: Solver<B>>(
    solver: &mut S,
    job: &Job<'_>,
    layout: &Layout,
    observer: &dyn Observer,
) -> Result<Answer, Error> {
    let goal = job.goal;
    match job.heuristic {
        HeuristicKind::Manhattan => {
            solve_one::<B, _, _>(solver, &Manhattan::new(goal), job, layout, observer)
        }
        HeuristicKind::LinearConflict => {
            solve_one::<B, _, _>(solver, &LinearConflict::new(goal), job, layout, observer)
        }
        HeuristicKind::Hamming => {
            solve_one::<B, _, _>(solver, &Hamming::new(goal), job, layout, observer)
        }
        HeuristicKind::Zero => solve_one::<B, _, _>(solver, &Zero, job, layout, observer),
        HeuristicKind::Pdb => {
            let db = job.pdb.ok_or_else(|| {
                Error::Internal(format!(
                    "no pattern database was opened for {} boards",
                    layout.shape()
                ))
            })?;
            solve_one::<B, _, _>(solver, db, job, layout, observer)
        }
    }
}

/// Decides one board: parity first (an unsolvable board of any size is answered without
/// search), then the search, then an independent replay of the returned moves.
///
/// # Errors
/// A board too large for `B`, a limit reached, or an engine's answer that fails the replay.
fn solve_one<B, S, H>(
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
    let parity = goal.parity(layout)?;
    let mut answer = Answer {
        layout: layout.clone(),
        goal: goal.clone(),
        engine: job.engine,
        heuristic: job.heuristic,
        weight: (job.engine == Engine::WeightedAStar).then_some(job.weight),
        parity,
        solution: None,
        lower_bound: 0,
        notes: Vec::new(),
    };
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
        Outcome::Solved(solution) => {
            verify(layout, &solution.moves, goal.layout()).map_err(|e| {
                Error::Internal(format!(
                    "the {} engine returned moves that do not solve the board: {e}",
                    job.engine.name()
                ))
            })?;
            answer.lower_bound = if solution.guarantee.is_optimal() {
                solution.moves.len() as u32
            } else if heuristic.properties().admissible {
                solution.stats.initial_h
            } else {
                0
            };
            answer.solution = Some(solution);
            Ok(answer)
        }
        Outcome::Unsolvable(_) => Err(Error::Internal(format!(
            "the {} engine called a board unsolvable that parity says is solvable",
            job.engine.name()
        ))),
    }
}
