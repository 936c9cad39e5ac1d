//! # npuzzle
//!
//! Optimal sliding-tile puzzle solving in one call. This crate is the front door of the npuzzle
//! toolkit: it re-exports the shared core and the engines, and holds the **auto policy** that
//! picks the engine, the board type, the heuristic and the pattern databases for a board, and
//! says when it had to give up on optimality. The `npuzzle` command line, the web server and
//! the Python package all call it.
//!
//! ```
//! let answer = npuzzle::solve("8 6 7 2 5 4 3 0 1")?;      // default goal blank-last, auto policy
//! assert_eq!(answer.len(), 31);
//! assert!(answer.is_optimal());
//! println!("{}", answer.moves());                          // "LDDRURULLDDRRUULLDRDRUULDLDRULU" or another optimal one
//! # Ok::<(), npuzzle::Error>(())
//! ```
//!
//! Every option of `npuzzle solve` is on the [`Config`] builder: goal, engine, heuristic,
//! pattern databases and their cache directory, limits (nodes, time, memory, cancellation),
//! `optimal`, weighted A\*'s weight, the anytime budget, and an [`Observer`] for progress.
//! [`Config::build`] validates them together into an [`Npuzzle`], which opens pattern databases
//! once per board shape and solves any number of boards (from any number of threads).
//!
//! ## What an answer proves
//! Every [`Answer`] is replayed to the goal before it is returned, and carries a
//! [`Guarantee`]: [`Guarantee::Optimal`], [`Guarantee::WithinFactor`] (at most W × the
//! optimum) or [`Guarantee::Unproven`], decided by the engine *and* the heuristic's declared
//! properties ([`HeuristicProperties`]: admissible, consistent) — see [`Engine::guarantee`]:
//!
//! | engine | admissible heuristic | also consistent |
//! |---|---|---|
//! | IDA\*, A\* (reopens), bidirectional (reopens) | optimal | optimal |
//! | weighted A\* (never reopens), W = 1 | nothing | optimal |
//! | weighted A\*, W > 1 | nothing | at most W × optimal |
//! | constructive | nothing | nothing |
//! | greedy best-first (f = h) | nothing | nothing |
//!
//! Manhattan distance, linear conflict, Hamming and zero are consistent; the pattern databases
//! are admissible only. `optimal(true)` refuses every combination that does not prove
//! optimality. Unsolvable boards are answered by parity before any search
//! ([`Answer::is_solvable`]); a limit reached is an [`Error::Search`] that says which limit and
//! how far the search got, never "no solution".
//!
//! ## The auto policy
//! With [`EngineChoice::Auto`] (the default), board by board:
//! 1. **Unsolvable** (parity): answered without search.
//! 2. **At most 16 cells** (8-puzzle, 15-puzzle, 4×3, ...): IDA\* on the `u64` bitboard,
//!    without a budget (every such board is within reach). Heuristic: additive pattern
//!    databases unless one is named — on 4×4 the 7-8 tables if they are cached (built once by
//!    `npuzzle pdb build --pdb 78`), else the default partition (7-6-2 on 4×4, 4-4 on 3×3),
//!    which is built on first use (about 20–30 s on 4×4, once) and cached; tables above
//!    [`databases::CHEAP_ENTRIES`] entries are never built implicitly. IDA\* beats A\* here: the highest node rate, memory only for
//!    the path.
//! 3. **17–25 cells** (the 24-puzzle, 4×6, 3×8, ...) run on the `u128` packed board. When the
//!    default partition's tables are cached (6-6-6-6 on 5×5, Korf & Felner 2002; built once by
//!    `npuzzle pdb build --size 5x5`), IDA\* with them: without a budget under `optimal(true)`,
//!    else within [`AUTO_PDB_NODE_BUDGET`] generated nodes, then an anytime answer (below)
//!    carrying the lower bound IDA\* proved. Without the tables, a note says how to build them
//!    and what it costs, and the search goes on as for larger boards; under `optimal(true)` the
//!    tables are built first (the note says so, with their size and memory).
//! 4. **More cells** (or no tables): with `optimal(true)`, IDA\* with linear conflict (or the
//!    heuristic named), without a budget. Otherwise IDA\* when the linear-conflict lower bound is
//!    at most [`AUTO_MAX_H`] moves (close to solved), within [`AUTO_NODE_BUDGET`] generated nodes;
//!    past the budget, or for boards farther from the goal, an **anytime answer**: within the
//!    time budget ([`Config::anytime_budget`], default 1 s) the constructive solver gives a
//!    first answer, then (on boards of at most [`ANYTIME_MAX_CELLS`] cells) beam searches with
//!    linear conflict of widths 64, 128, 256, ... run on [`Config::threads`] threads while time
//!    remains, every answer shortened by optimal windows (`npuzzle_nxn::AnytimeBeam`), and the
//!    shortest answer is kept (on the `DeepCubeA` 35- and 48-puzzle sets: BENCHMARKS.md, "Anytime
//!    beam search"). A longer budget runs the same beams and more, so it does not give a
//!    longer answer. The answer says it is not proven optimal (beam search proves no bound)
//!    and [`Answer::lower_bound`]; the decision is in [`Answer::notes`].
//!
//! ## Crates
//! The engines are re-exported for direct use: [`npuzzle_core`] (boards, parsing, goals,
//! parity, heuristics, [`verify`]), [`npuzzle_idastar`], [`npuzzle_astar`],
//! [`npuzzle_bidirectional`], [`npuzzle_nxn`] (Vec board, weighted A\*, constructive solver),
//! [`npuzzle_pdb`] (pattern databases). Use them when you want one engine with full control;
//! use this crate when you want the best answer for a board.

mod answer;
pub mod check;
pub mod databases;
mod error;
pub mod generate;
mod options;
mod record;
mod run;

use std::sync::Arc;

pub use npuzzle_astar;
pub use npuzzle_bidirectional;
pub use npuzzle_core;
pub use npuzzle_idastar;
pub use npuzzle_nxn;
pub use npuzzle_pdb;

pub use npuzzle_core::{
    Goal, GoalKind, Guarantee, HeuristicProperties, Layout, Limit, Limits, Move, Parity, Progress,
    SearchError, Shape, Solution, Stats, moves_to_string, parse_board, parse_boards, verify,
};
pub use npuzzle_idastar::CycleCheck;

pub use answer::Answer;
pub use error::Error;
pub use options::{
    Config, DEFAULT_ANYTIME, Engine, EngineChoice, HeuristicKind, Observer, Quiet, parse_goal,
};
pub use record::{Record, RecordParity, RecordStats};
pub use run::MAX_PRINTED_CELLS;

use npuzzle_core::{BitBoard, Board, Heuristic, LinearConflict, SearchError as SE};
use npuzzle_nxn::{VecBoard, WeightedAStar};
use npuzzle_pdb::PartitionSpec;

use databases::{Databases, PdbPlan};
use run::Job;

/// Auto tries optimal IDA\* on a board of more than 16 cells only when its linear-conflict lower
/// bound is at most this many moves (random 5×5 boards are above 100).
pub const AUTO_MAX_H: u32 = 50;
/// The node budget (generated nodes) of that attempt: about 5 s.
pub const AUTO_NODE_BUDGET: u64 = 50_000_000;
/// The node budget of auto's IDA\* attempt on a board of 17–25 cells with cached pattern
/// databases (about 10–20 s at 10–20 M nodes/s): Korf's easier 24-puzzle instances need 38–65
/// M nodes with 6-6-6-6 (#38, #40), random ones 10^9–10^12.
pub const AUTO_PDB_NODE_BUDGET: u64 = 200_000_000;
/// Weighted A\*'s weight when the weighted-astar engine is asked for without a weight.
pub const DEFAULT_WEIGHT: f64 = 2.0;
/// Anytime beam search runs only on boards of at most this many cells (20×20): beyond, the
/// constructive solver's answer comes at once (its shortening alone would take longer than
/// the default budget: O(moves × cells)).
pub const ANYTIME_MAX_CELLS: usize = 400;
/// The memory of the anytime beams, all threads together (unless a smaller limit was given):
/// 4 GiB.
pub const ANYTIME_MEMORY: u64 = 4 << 30;

/// Solves one board given as text (any format [`parse_board`] reads) for the blank-last goal
/// with the auto policy: the shortest solution when it can be proven, else the best answer
/// found (see the crate docs). Pattern databases are cached in the platform cache directory.
///
/// # Errors
/// [`Error::Parse`] for a malformed board; [`Error::Pdb`] when the pattern databases cannot be
/// opened or built; [`Error::Search`] never without limits, except for cancellation.
pub fn solve(board: &str) -> Result<Answer, Error> {
    Config::new().build()?.solve_str(board)
}

/// A validated configuration, ready to solve boards: see [`Config`] and the crate docs for the
/// policy. Opens pattern databases on first use for each board shape and keeps them.
/// `Npuzzle` is `Send + Sync`: share it between threads to solve boards in parallel.
#[derive(Debug)]
pub struct Npuzzle {
    config: Config,
    /// `Some(engine)`: that engine on every board; `None`: auto.
    engine: Option<Engine>,
    /// The heuristic (under auto: for boards of at most 16 cells, and larger ones when named).
    heuristic: HeuristicKind,
    weight: f64,
    pdb: Option<PdbPlan>,
    databases: Arc<Databases>,
    spares: run::Spares,
}

impl Npuzzle {
    fn new(config: Config) -> Result<Npuzzle, Error> {
        let mut engine = match config.engine {
            EngineChoice::Auto => None,
            EngineChoice::Engine(e) => Some(e),
        };
        let weight = match config.weight {
            Some(w) => {
                WeightedAStar::new(w)?;
                match engine {
                    None => engine = Some(Engine::WeightedAStar),
                    Some(Engine::WeightedAStar) => {}
                    Some(other) => {
                        return Err(Error::Options(format!(
                            "--weight applies to the weighted-astar engine only, not to {}",
                            other.name()
                        )));
                    }
                }
                w
            }
            None if engine == Some(Engine::WeightedAStar) => DEFAULT_WEIGHT,
            None => 1.0,
        };
        let pdb_asked = config.pdb.is_some();
        let heuristic = match config.heuristic {
            Some(h) => h,
            None if pdb_asked || engine.is_none() => HeuristicKind::Pdb,
            None => HeuristicKind::LinearConflict,
        };
        let pdb = if heuristic == HeuristicKind::Pdb {
            let spec = config.pdb.clone();
            Some(PdbPlan {
                build_any: spec.is_some() || config.heuristic == Some(HeuristicKind::Pdb),
                spec: spec.or_else(|| engine.is_some().then_some(PartitionSpec::Default)),
                dir: config.pdb_dir.clone(),
                reflect: config.reflect,
                build_large: engine.is_none() && config.optimal,
                time_limited: config.limits.timeout.is_some(),
            })
        } else {
            if pdb_asked || !config.reflect {
                return Err(Error::Options(format!(
                    "--pdb and --no-reflect apply to the pdb heuristic only, not to {}",
                    heuristic.name()
                )));
            }
            None
        };
        if config.path_check_asked
            && let Some(e) = engine
            && e != Engine::IdaStar
        {
            return Err(Error::Options(format!(
                "--cycle-check path applies to the idastar engine only, not to {}",
                e.name()
            )));
        }
        if config.optimal
            && let Some(e) = engine
        {
            refuse_unproven(e, weight, heuristic)?;
        }
        Ok(Npuzzle {
            config,
            engine,
            heuristic,
            weight,
            pdb,
            databases: Arc::default(),
            spares: run::Spares::default(),
        })
    }

    /// Shares `other`'s opened pattern databases when both use the same partition, cache
    /// directory, reflection and goal (a batch run comparing engines opens the tables once);
    /// otherwise leaves this one's own.
    #[must_use]
    pub fn sharing_databases_with(mut self, other: &Npuzzle) -> Npuzzle {
        let same = match (&self.pdb, &other.pdb) {
            (Some(a), Some(b)) => {
                a.spec == b.spec
                    && a.dir == b.dir
                    && a.reflect == b.reflect
                    && a.build_any == b.build_any
                    && a.build_large == b.build_large
                    && a.time_limited == b.time_limited
                    && self.config.goal == other.config.goal
            }
            _ => false,
        };
        if same {
            self.databases = Arc::clone(&other.databases);
        }
        self
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The goal convention boards are solved for.
    pub fn goal(&self) -> &GoalKind {
        &self.config.goal
    }

    /// The engine run on every board, or `None` under the auto policy.
    pub fn engine(&self) -> Option<Engine> {
        self.engine
    }

    /// The heuristic asked for (under auto, the one for boards of at most 16 cells).
    pub fn heuristic(&self) -> HeuristicKind {
        self.heuristic
    }

    /// Opens (or builds) the pattern databases every board of `boards` needs, up front, so that
    /// a table problem is reported before any board is solved. Optional: [`Npuzzle::solve`]
    /// opens them on first use.
    ///
    /// # Errors
    /// As [`Npuzzle::solve`]'s [`Error::Pdb`]; a board whose shape does not fit the goal is
    /// skipped here (its own solve reports it).
    pub fn prepare(&self, boards: &[Layout]) -> Result<(), Error> {
        if let Some(plan) = &self.pdb {
            for layout in boards {
                if Goal::new(&self.config.goal, layout.shape()).is_err() {
                    continue;
                }
                self.databases.get(
                    plan,
                    &self.config.goal,
                    layout.shape(),
                    &*self.config.observer,
                )?;
            }
        }
        Ok(())
    }

    /// Solves one board given as text (any format [`parse_board`] reads; the shape from
    /// [`Config::size`] when the text does not give it).
    ///
    /// # Errors
    /// [`Error::Parse`] for a malformed board, else as [`Npuzzle::solve`].
    pub fn solve_str(&self, board: &str) -> Result<Answer, Error> {
        let layout = parse_board(board, self.config.size)?;
        self.solve(&layout)
    }

    /// Solves one board: the configured engine, or the auto policy (see the crate docs).
    /// Time: that of the engine; the answer is replayed to the goal in O(moves) before it is
    /// returned.
    ///
    /// # Errors
    /// [`Error::Goal`] when the goal does not have the board's shape; [`Error::Search`] when a
    /// limit stops the search (under auto without `optimal`, only the user's own limits and
    /// cancellation: auto's budget leads to an anytime answer instead); [`Error::Pdb`] when
    /// pattern databases cannot be opened; [`Error::TooManyBoards`] with
    /// [`Config::check_printable`]; [`Error::Internal`] if an answer fails the replay check.
    pub fn solve(&self, layout: &Layout) -> Result<Answer, Error> {
        let goal = Goal::new(&self.config.goal, layout.shape())?;
        let pdb = self.pdb_for(layout)?;
        let heuristic = if self.heuristic == HeuristicKind::Pdb && pdb.is_none() {
            // Auto found no tables for this shape (none cached above 16 cells, or too large).
            HeuristicKind::LinearConflict
        } else {
            self.heuristic
        };
        let job = Job {
            engine: self.engine.unwrap_or(Engine::IdaStar),
            heuristic,
            pdb: pdb.as_ref(),
            goal: &goal,
            limits: &self.config.limits,
            cycle_check: self.config.cycle_check,
            weight: self.weight,
            threads: self.config.threads,
            deterministic: self.config.deterministic,
            spares: &self.spares,
            check_printable: self.config.check_printable,
        };
        let observer = &*self.config.observer;
        if self.engine.is_some()
            || layout.shape().cells() <= BitBoard::MAX_CELLS
            || self.config.optimal
            || !goal.parity(layout)?.solvable
        {
            return run::run(&job, layout, observer);
        }
        self.auto_large(&job, layout, &goal)
    }

    fn pdb_for(&self, layout: &Layout) -> Result<Option<npuzzle_pdb::PatternDb>, Error> {
        match &self.pdb {
            Some(plan) => self.databases.get(
                plan,
                &self.config.goal,
                layout.shape(),
                &*self.config.observer,
            ),
            None => Ok(None),
        }
    }

    /// Auto on a solvable board of more than 16 cells, without `optimal`: a budgeted IDA\*
    /// attempt when the board is close to solved, else (or past the budget) an anytime answer.
    fn auto_large(&self, job: &Job<'_>, layout: &Layout, goal: &Goal) -> Result<Answer, Error> {
        let shape = layout.shape();
        let board = VecBoard::from_layout(layout)?;
        let bound = LinearConflict::new(goal).estimate(&board);
        let with_tables = job.heuristic == HeuristicKind::Pdb;
        let (budget, what) = if with_tables {
            (AUTO_PDB_NODE_BUDGET, "pattern databases")
        } else {
            (AUTO_NODE_BUDGET, "linear conflict")
        };
        if !with_tables && bound > AUTO_MAX_H {
            let why = format!(
                "a {shape} board with linear-conflict bound {bound} (above {AUTO_MAX_H}) is out of reach of optimal search"
            );
            return self.anytime(layout, goal, bound, &why);
        }
        let user = self.config.limits.max_nodes;
        let mut limits = self.config.limits.clone();
        limits.max_nodes = Some(user.map_or(budget, |n| n.min(budget)));
        let tight = Job {
            limits: &limits,
            ..job.clone()
        };
        match run::run(&tight, layout, &*self.config.observer) {
            Err(Error::Search(SE::LimitReached {
                limit: Limit::Nodes(n),
                progress,
            })) if n == budget && user.is_none_or(|u| u > budget) => {
                let why = format!(
                    "optimal IDA* with {what} on this {shape} board (linear-conflict bound {bound}) used its budget of {budget} generated nodes, proving at least {} moves",
                    progress.bound
                );
                self.anytime(layout, goal, bound.max(progress.bound), &why)
            }
            other => other,
        }
    }

    /// The anytime answer: the constructive solver's answer, then beam searches of growing
    /// widths on [`Config::threads`] threads with linear conflict while the time budget lasts,
    /// every answer shortened (`npuzzle_nxn::AnytimeBeam`); the shortest wins. On boards of
    /// more than [`ANYTIME_MAX_CELLS`] cells only the constructive answer. `lower_bound` is
    /// what is proven so far; `why` says why optimal search was not (or no longer) tried.
    fn anytime(
        &self,
        layout: &Layout,
        goal: &Goal,
        lower_bound: u32,
        why: &str,
    ) -> Result<Answer, Error> {
        let budget = self.config.anytime;
        let cells = layout.shape().cells();
        let beam = cells <= ANYTIME_MAX_CELLS && !budget.is_zero();
        let note = if budget.is_zero() {
            format!(
                "auto: {why}; using the constructive solver (anytime budget 0; answer not proven optimal)"
            )
        } else if beam {
            format!(
                "auto: {why}; searching for a short answer instead (constructive solver, then beam search with linear conflict for up to {} s; not proven optimal; --optimal searches on)",
                budget.as_secs_f64()
            )
        } else {
            format!(
                "auto: {why}; using the constructive solver (beam search does not improve boards of more than {ANYTIME_MAX_CELLS} cells within the anytime budget; answer not proven optimal; --optimal forces IDA*)"
            )
        };
        self.config.observer.note(&note);
        let mut limits = self.config.limits.clone();
        limits.timeout = Some(limits.timeout.map_or(budget, |t| t.min(budget)));
        limits.memory_bytes = Some(
            limits
                .memory_bytes
                .map_or(ANYTIME_MEMORY, |m| m.min(ANYTIME_MEMORY)),
        );
        let job = Job {
            engine: if beam {
                Engine::Beam
            } else {
                Engine::Constructive
            },
            heuristic: HeuristicKind::LinearConflict,
            pdb: None,
            goal,
            limits: &limits,
            cycle_check: CycleCheck::Parent,
            weight: 1.0,
            threads: self.config.threads,
            deterministic: false,
            spares: &self.spares,
            check_printable: false,
        };
        let mut best = run::run(&job, layout, &*self.config.observer)?;
        best.lower_bound = best.lower_bound.max(lower_bound);
        best.notes.push(note);
        if self.config.check_printable {
            run::printable(&best)?;
        }
        Ok(best)
    }
}

/// `optimal(true)` with an explicit engine: refuses every engine × heuristic that does not prove
/// optimality, saying why.
fn refuse_unproven(engine: Engine, weight: f64, heuristic: HeuristicKind) -> Result<(), Error> {
    let props = heuristic.properties();
    let g = engine.guarantee(weight, props)?;
    if g.is_optimal() {
        return Ok(());
    }
    let msg = match (engine, g) {
        (Engine::WeightedAStar, Guarantee::WithinFactor(w)) => format!(
            "--optimal: the weighted-astar engine with weight {w} does not prove its answers optimal, only at most {w} times the optimum; use --engine auto, idastar or astar (or --weight 1)"
        ),
        (Engine::WeightedAStar, _) => format!(
            "--optimal: the weighted-astar engine with weight {weight} does not prove its answers optimal with the {} heuristic: it never reopens states, so its bound needs a consistent heuristic, and {} is only admissible; use --engine auto, idastar or astar, or a consistent heuristic (manhattan, linear-conflict)",
            heuristic.name(),
            heuristic.name()
        ),
        (Engine::Constructive, _) => "--optimal: the constructive engine does not prove its answers optimal (it places tiles by rule); use --engine auto, idastar or astar".to_string(),
        (Engine::Greedy, _) => "--optimal: the greedy engine does not prove its answers optimal (greedy best-first search orders states by h alone and ignores the path length); use --engine auto, idastar or astar".to_string(),
        (e, _) => format!(
            "--optimal: the {} engine does not prove its answers optimal with the {} heuristic (not admissible)",
            e.name(),
            heuristic.name()
        ),
    };
    Err(Error::Options(msg))
}

/// A shareable observer (for [`Config::observer`]).
pub fn observer(o: impl Observer + 'static) -> Arc<dyn Observer> {
    Arc::new(o)
}
