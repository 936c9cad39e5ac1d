//! The job of one search: the engine, the heuristic, its tables and the per-search settings,
//! resolved once by the solver (`Npuzzle::job`) and handed to the registry's dispatch.

use npuzzle_core::{Goal, Layout, Metric, Parity};
use npuzzle_idastar::IdaStar;

use crate::databases::Db;
use crate::{Answer, Engine, HeuristicKind};

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
    /// reach a search, see [`crate::answer::trivial`]).
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

impl Job<'_> {
    /// The answer for `layout` under this job before its solution is known (none yet, lower
    /// bound 0).
    pub(crate) fn unsolved(&self, layout: &Layout) -> Answer {
        Answer {
            layout: layout.clone(),
            goal: self.goal.clone(),
            engine: self.engine,
            heuristic: self.heuristic,
            weight: (self.engine == Engine::WeightedAStar).then_some(self.weight),
            parity: self.parity.clone(),
            solution: None,
            lower_bound: 0,
            notes: Vec::new(),
            metric: self.metric,
            partial: None,
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
