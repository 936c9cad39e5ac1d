//! Every optimal solution of a board ([`Npuzzle::all_optimal`]): IDA\*'s last iteration
//! searched to the end with parent pruning (`npuzzle_idastar::AllOptimal`, whose docs prove
//! the count exact).

use npuzzle_core::{
    BitBoard, Board, Goal, Layout, Metric, Move, PackedBoard, moves_to_string, verify,
};
use npuzzle_idastar::{AllOptimal, CycleCheck};
use npuzzle_nxn::VecBoard;
use serde::Serialize;

use crate::answer::{Trivial, trivial};
use crate::registry::with_heuristic;
use crate::{Answer, Engine, Error, Npuzzle, Record, SearchSettings, Setting};

/// Every optimal solution of a board, counted, and the first ones listed.
#[derive(Clone, Debug)]
pub struct AllOptimalAnswer {
    /// The answer with the first optimal solution (proven optimal), its statistics (the last
    /// iteration searched in full), the parity proof for an unsolvable board.
    pub answer: Answer,
    /// The number of distinct optimal move sequences: 0 for an unsolvable board, 1 for a
    /// board equal to its goal.
    pub count: u64,
    /// The first `limit` of them (Korf's child order), each replayed to the goal.
    pub solutions: Vec<Vec<Move>>,
}

impl AllOptimalAnswer {
    /// Whether every optimal solution is listed (the count is at most the limit).
    pub fn is_complete(&self) -> bool {
        self.solutions.len() as u64 == self.count
    }

    /// The JSON record of `npuzzle solve --all-optimal --format json` and of the web API:
    /// [`Record`]'s fields in their order, then `optimal_count` and (when `listed`)
    /// `optimal_solutions`.
    pub fn record(&self, listed: bool) -> AllOptimalRecord {
        AllOptimalRecord {
            record: Record::from(&self.answer),
            optimal_count: self.count,
            optimal_solutions: listed
                .then(|| self.solutions.iter().map(|s| moves_to_string(s)).collect()),
        }
    }
}

/// [`AllOptimalAnswer::record`]: a [`Record`] with the number of optimal solutions and the
/// ones listed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AllOptimalRecord {
    /// The answer's record, flattened into this object.
    #[serde(flatten)]
    pub record: Record,
    /// The number of distinct optimal move sequences.
    pub optimal_count: u64,
    /// The listed ones, letters `U D L R` (absent when only counted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimal_solutions: Option<Vec<String>>,
}

impl Npuzzle {
    /// Counts every optimal solution of `layout` (distinct move sequences of the optimal
    /// length) and lists the first `limit` of them (0: count only), with this solver's
    /// heuristic and pattern databases and `settings`' limits. Runs IDA\*'s iterations with
    /// **parent pruning**, whatever cycle check was configured: FSM duplicate pruning keeps
    /// one shortest path to each state and so drops optimal solutions by design, while parent
    /// pruning only removes paths with a cycle, which no optimal path holds. Cost: IDA\*'s
    /// plus the rest of its last iteration (1.4–4.6× the generated nodes of IDA\* with the same
    /// heuristic and parent pruning on the boards of BENCHMARKS.md, "Every optimal
    /// solution"); against a default solve (FSM duplicate pruning, every core) 11–24× the
    /// time on 4×4 boards of 65–80 moves, two cores.
    ///
    /// ```
    /// let solver = npuzzle::Config::new().engine(npuzzle::Engine::IdaStar).build()?;
    /// let layout = npuzzle::parse_board("1 2 3 4 5 6 0 7 8", None)?;
    /// let all = solver.all_optimal(&layout, 10, &solver.settings())?;
    /// assert_eq!((all.answer.len(), all.count), (2, 1));
    /// # Ok::<(), npuzzle::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::NotApplicable`] with an engine other than idastar (or auto), or in the
    /// multi-tile metric;
    /// [`Error::Search`] when a limit stops the search (no count then; with a depth limit
    /// the bound is proven); as [`Npuzzle::solve`] otherwise.
    pub fn all_optimal(
        &self,
        layout: &Layout,
        limit: usize,
        settings: &SearchSettings,
    ) -> Result<AllOptimalAnswer, Error> {
        if let Some(e) = self.engine
            && e != Engine::IdaStar
        {
            return Err(Error::NotApplicable {
                setting: Setting::AllOptimal,
                applies_to: "the idastar engine (and auto)",
                chosen: e.name(),
            });
        }
        if self.config.metric != Metric::Stm {
            return Err(Error::NotApplicable {
                setting: Setting::AllOptimal,
                applies_to: "the single-tile metric (stm)",
                chosen: self.config.metric.name(),
            });
        }
        self.check_per_search(settings)?;
        let goal = Goal::new(&self.config.goal, layout.shape())?;
        let parity = goal.parity(layout)?;
        if !parity.solvable || layout == goal.layout() {
            let solvable = parity.solvable;
            let answer = trivial(&Trivial {
                layout,
                goal: &goal,
                parity,
                engine: Engine::IdaStar,
                heuristic: self.trivial_heuristic(layout, settings),
                weight: None,
                metric: self.config.metric,
            });
            return Ok(AllOptimalAnswer {
                answer,
                count: u64::from(solvable),
                solutions: if solvable && limit > 0 {
                    vec![Vec::new()]
                } else {
                    Vec::new()
                },
            });
        }
        let tables = self.pdb_for(layout, settings)?;
        let mut job = self.job(
            Engine::IdaStar,
            (layout, &goal, parity),
            tables.as_ref(),
            settings,
        );
        // One deterministic thread with parent pruning (see above); no hill-climbing settings.
        job.cycle_check = CycleCheck::Parent;
        job.weight = 1.0;
        job.threads = 1;
        job.deterministic = true;
        job.check_printable = false;
        job.seed = None;
        job.max_steps = None;
        let mut search = AllOptimal::new(limit).max_depth(settings.max_depth);
        let observer = &*settings.observer;
        let cells = layout.shape().cells();
        let answer = if cells <= BitBoard::MAX_CELLS {
            with_heuristic::<BitBoard, _>(&mut search, &job, layout, observer)
        } else if cells <= PackedBoard::CELLS {
            with_heuristic::<PackedBoard, _>(&mut search, &job, layout, observer)
        } else {
            with_heuristic::<VecBoard, _>(&mut search, &job, layout, observer)
        }?;
        for (i, moves) in search.solutions().iter().enumerate() {
            verify(layout, moves, goal.layout()).map_err(|e| {
                Error::Internal(format!("optimal solution {} fails the replay: {e}", i + 1))
            })?;
            if moves.len() != answer.len() {
                return Err(Error::Internal(format!(
                    "optimal solution {} has {} moves, the first {}",
                    i + 1,
                    moves.len(),
                    answer.len()
                )));
            }
        }
        Ok(AllOptimalAnswer {
            answer,
            count: search.count(),
            solutions: search.solutions().to_vec(),
        })
    }
}
