//! Distributed IDA\* through the facade: the frontier pieces of `npuzzle_idastar::frontier`
//! (AIDA\*, Reinefeld & Schnecke 1994) with the heuristic, tables and cycle check a
//! [`Npuzzle`] solver would search a board with, so that a driver (the Python package's
//! `npuzzle.distributed`, or any Rust program) can spread one board's IDA\* iterations over
//! processes or machines, each of which holds its own long-lived `Npuzzle` (tables opened
//! once per process, through [`crate::Tables`]).
//!
//! The driver: `h0 = frontier(board, 0, 1).initial_h`; for thresholds `t = h0, ...` in
//! order: `frontier(board, t, N)` (a solution met on the way ends the search), then
//! [`Npuzzle::search_subtrees`] over packets of its nodes anywhere; the first packet with
//! `Found` at the smallest threshold with one gives an optimal solution (with an admissible
//! heuristic), else the next threshold is the minimum of the frontier's and the packets'
//! `Exceeded`; a packet expected to be large can first be cut deeper with
//! [`Npuzzle::split_frontier`]. [`Npuzzle::frontier_answer`] turns the moves into an [`Answer`] (replayed,
//! with the guarantee and lower bound of the IDA\* engine).

use npuzzle_core::{
    BitBoard, Board, Heuristic, Layout, Metric, Move, PackedBoard, Solution, Stats,
};
use npuzzle_idastar::{Frontier, FrontierError, IdaStar, SubtreeSearch};
use npuzzle_nxn::VecBoard;

use crate::job::Job;
use crate::registry::{HeuristicTask, with_heuristic_task};
use crate::{Answer, Engine, Error, Goal, HeuristicKind, Npuzzle, SearchSettings, Setting};

/// A frontier cut by [`Npuzzle::frontier`], with what it was searched with.
#[derive(Clone, Debug)]
pub struct FrontierPlan {
    /// The frontier (nodes in depth-first order, counts, a solution met on the way).
    pub frontier: Frontier,
    /// The heuristic used (the configured one, or linear conflict where auto has no tables
    /// for the shape): give it to [`Npuzzle::frontier_answer`].
    pub heuristic: HeuristicKind,
    /// The cycle check used.
    pub cycle_check: npuzzle_idastar::CycleCheck,
}

impl Npuzzle {
    /// Cuts the tree of the IDA\* iteration with `threshold` (f = g + h, in moves) from
    /// `layout` at a frontier of at least `target` nodes (a whole level of the tree, so often
    /// up to 3× more; fewer when the tree ends): `npuzzle_idastar::IdaStar::frontier` with
    /// this solver's heuristic, tables and cycle check for the board (under auto: FSM
    /// duplicate pruning on 17–25 cells). Opens the tables on first use. Threshold 0 gives
    /// the start's h in [`Frontier::initial_h`] and [`Frontier::next_threshold`].
    ///
    /// # Errors
    /// [`Error::NotApplicable`] when the configured engine is not IDA\* (or auto); [`Error::BadValue`]
    /// for the multi-tile metric (the pieces search single-tile moves);
    /// [`Error::Goal`], [`Error::Pdb`] as [`Npuzzle::solve`]; [`Error::Frontier`] for an
    /// unsolvable board (decide parity first: [`Npuzzle::answers_without_search`]);
    /// [`Error::Search`] when the node limit of `settings` stops the expansion.
    pub fn frontier(
        &self,
        layout: &Layout,
        threshold: u32,
        target: usize,
        settings: &SearchSettings,
    ) -> Result<FrontierPlan, Error> {
        self.with_frontier_job(layout, settings, |job| {
            let frontier = on_board(
                job,
                layout,
                Expand {
                    job,
                    layout,
                    threshold,
                    target,
                },
            )?;
            Ok(FrontierPlan {
                frontier,
                heuristic: job.heuristic,
                cycle_check: job.cycle_check,
            })
        })
    }

    /// Searches the subtrees below `nodes` (move paths from `layout`, as a frontier of the
    /// same solver gave them) within `threshold`: `npuzzle_idastar::IdaStar::search_subtrees`
    /// with this solver's heuristic, tables and cycle check, on `settings`' threads (1: the
    /// calling thread), stopped by `settings`' limits and cancel flag.
    ///
    /// # Errors
    /// As [`Npuzzle::frontier`]; [`Error::Frontier`] for a path that is not in the tree;
    /// [`Error::Search`] with [`npuzzle_core::SearchError::LimitReached`] when a limit or the
    /// cancel flag stops it (its bound: `threshold`).
    pub fn search_subtrees(
        &self,
        layout: &Layout,
        threshold: u32,
        nodes: &[Vec<Move>],
        settings: &SearchSettings,
    ) -> Result<SubtreeSearch, Error> {
        self.with_frontier_job(layout, settings, |job| {
            on_board(
                job,
                layout,
                Search {
                    job,
                    layout,
                    threshold,
                    nodes,
                },
            )
        })
    }

    /// Splits frontier nodes (move paths from `layout`, as a frontier of the same solver gave
    /// them) into a deeper frontier of the iteration with `threshold`, of at least `target`
    /// nodes (whole levels below the given nodes, in depth-first order):
    /// `npuzzle_idastar::IdaStar::split` with this solver's heuristic, tables and cycle
    /// check. A driver splits a node whose subtree it expects to be large (for example from
    /// [`SubtreeSearch::subtree_generated`] of the previous iteration) and searches the new
    /// nodes in several packets; nothing is searched twice.
    ///
    /// # Errors
    /// As [`Npuzzle::search_subtrees`].
    pub fn split_frontier(
        &self,
        layout: &Layout,
        threshold: u32,
        nodes: &[Vec<Move>],
        target: usize,
        settings: &SearchSettings,
    ) -> Result<Frontier, Error> {
        self.with_frontier_job(layout, settings, |job| {
            on_board(
                job,
                layout,
                Split {
                    job,
                    layout,
                    threshold,
                    nodes,
                    target,
                },
            )
        })
    }

    /// The answer of a distributed IDA\* search of `layout` that found `moves` with
    /// `heuristic` ([`FrontierPlan::heuristic`]): replayed to the goal, with the IDA\*
    /// engine's guarantee for that heuristic (optimal when admissible and the thresholds ran
    /// in order) and its lower bound; `stats` are the counts the driver added up. Opens no
    /// table. O(moves).
    ///
    /// # Errors
    /// [`Error::Goal`] for a goal of another shape; [`Error::Internal`] when the moves do not
    /// solve the board.
    pub fn frontier_answer(
        &self,
        layout: &Layout,
        heuristic: HeuristicKind,
        moves: Vec<Move>,
        stats: Stats,
    ) -> Result<Answer, Error> {
        let goal = Goal::new(self.full_goal("distributed IDA*")?, layout.shape())?;
        let parity = goal.parity(layout)?;
        let settings = self.settings();
        let mut job = self.job(Engine::IdaStar, (layout, &goal, parity), None, &settings);
        job.heuristic = heuristic;
        let properties = heuristic.properties();
        let solution = Solution {
            moves,
            guarantee: Engine::IdaStar.guarantee(1.0, properties)?,
            stats,
        };
        crate::answer::solved(job.unsolved(layout), solution, properties.admissible)
    }

    /// Runs `f` with the IDA\* job for `layout` (tables opened).
    fn with_frontier_job<T>(
        &self,
        layout: &Layout,
        settings: &SearchSettings,
        f: impl FnOnce(&Job<'_>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        if let Some(e) = self.engine()
            && e != Engine::IdaStar
        {
            return Err(Error::NotApplicable {
                setting: Setting::Engine,
                applies_to: "auto and the idastar engine (distributed IDA*)",
                chosen: e.name(),
            });
        }
        if self.config.metric != Metric::Stm {
            // The frontier pieces are single-tile IDA*: its threshold and lengths are STM's.
            return Err(Error::BadValue {
                setting: Setting::Metric,
                value: self.config.metric.name().to_string(),
                reason: "distributed IDA* searches single-tile moves (stm); solve multi-tile-metric boards locally".to_string(),
            });
        }
        let goal = Goal::new(self.full_goal("distributed IDA*")?, layout.shape())?;
        let parity = goal.parity(layout)?;
        let tables = self.pdb_for(layout, settings)?;
        let job = self.job(
            Engine::IdaStar,
            (layout, &goal, parity),
            tables.as_ref(),
            settings,
        );
        f(&job)
    }
}

/// The facade's error for a frontier error (a limit stays a [`Error::Search`]).
fn frontier_error(e: FrontierError) -> Error {
    match e {
        FrontierError::Search(e) => Error::Search(e),
        other => Error::Frontier(other),
    }
}

/// Runs `task` on the board type the facade searches `layout` on (the `u64` bitboard up to 16
/// cells, the `u128` packed board up to 25, else the Vec board) with the job's heuristic.
fn on_board<O, T>(job: &Job<'_>, layout: &Layout, task: T) -> Result<O, Error>
where
    T: HeuristicTask<BitBoard, Output = O>
        + HeuristicTask<PackedBoard, Output = O>
        + HeuristicTask<VecBoard, Output = O>,
{
    let cells = layout.shape().cells();
    if cells <= BitBoard::MAX_CELLS {
        with_heuristic_task::<BitBoard, _>(job, layout, task)
    } else if cells <= PackedBoard::CELLS {
        with_heuristic_task::<PackedBoard, _>(job, layout, task)
    } else {
        with_heuristic_task::<VecBoard, _>(job, layout, task)
    }
}

/// [`Npuzzle::frontier`] on one board type and heuristic.
struct Expand<'a> {
    job: &'a Job<'a>,
    layout: &'a Layout,
    threshold: u32,
    target: usize,
}

impl<B: Board> HeuristicTask<B> for Expand<'_> {
    type Output = Frontier;
    fn run<H: Heuristic<B>>(self, heuristic: &H) -> Result<Frontier, Error> {
        let board = B::from_layout(self.layout)?;
        let engine = self.job.spares.take(self.job);
        let frontier = engine.frontier(
            &board,
            self.job.goal,
            heuristic,
            self.threshold,
            self.target,
            self.job.limits,
        );
        self.job.spares.put(engine);
        frontier.map_err(frontier_error)
    }
}

/// [`Npuzzle::split_frontier`] on one board type and heuristic.
struct Split<'a> {
    job: &'a Job<'a>,
    layout: &'a Layout,
    threshold: u32,
    nodes: &'a [Vec<Move>],
    target: usize,
}

impl<B: Board> HeuristicTask<B> for Split<'_> {
    type Output = Frontier;
    fn run<H: Heuristic<B>>(self, heuristic: &H) -> Result<Frontier, Error> {
        let board = B::from_layout(self.layout)?;
        let engine = self.job.spares.take(self.job);
        let frontier = engine.split(
            &board,
            self.job.goal,
            heuristic,
            self.threshold,
            self.nodes,
            self.target,
            self.job.limits,
        );
        self.job.spares.put(engine);
        frontier.map_err(frontier_error)
    }
}

/// [`Npuzzle::search_subtrees`] on one board type and heuristic.
struct Search<'a> {
    job: &'a Job<'a>,
    layout: &'a Layout,
    threshold: u32,
    nodes: &'a [Vec<Move>],
}

impl<B: Board> HeuristicTask<B> for Search<'_> {
    type Output = SubtreeSearch;
    fn run<H: Heuristic<B>>(self, heuristic: &H) -> Result<SubtreeSearch, Error> {
        let board = B::from_layout(self.layout)?;
        let mut engine: IdaStar = self.job.spares.take(self.job);
        let search = engine.search_subtrees(
            &board,
            self.job.goal,
            heuristic,
            self.threshold,
            self.nodes,
            self.job.limits,
        );
        self.job.spares.put(engine);
        search.map_err(frontier_error)
    }
}
