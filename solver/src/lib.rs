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
//! [`Config::goal`] also takes a **partial goal** (cells that do not matter, written `x`:
//! `"1 2 3 x x x x x x"`, `first-rows:2`, `fringe`), solved optimally by IDA\* in either
//! metric with pattern databases over the tiles that matter built in memory
//! ([`Answer::partial`]).
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
//! Manhattan distance, linear conflict, Hamming, zero, walking distance, the zero-aware pattern
//! databases (`zpdb`) and the tile-only ones (`pdb` above 32 cells) are consistent; the plain
//! pattern databases (`pdb` up to 32 cells) are admissible only. `optimal(true)` refuses every
//! combination that does not prove optimality. Unsolvable boards are answered by parity before any
//! search ([`Answer::is_solvable`]); a limit reached is an [`Error::Search`] that says which limit
//! and how far the search got, never "no solution".
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
//!    the path. On a 4×4 board whose tables estimate at least [`AUTO_FSM_MIN_ESTIMATE_4X4`]
//!    moves, with FSM duplicate pruning (`CycleCheck::Fsm`, unless a cycle check is named).
//! 3. **17–25 cells** (the 24-puzzle, 4×6, 3×8, ...) run on the `u128` packed board. When the
//!    default partition's tables are cached (6-6-6-6 on 5×5, Korf & Felner 2002; built once by
//!    `npuzzle pdb build --size 5x5`; on 5×5 the partition's zero-aware tables instead when
//!    they are cached, `npuzzle pdb build --size 5x5 --zero-aware`: 0.93–0.97× the wall time,
//!    BENCHMARKS.md, "Region-coded tables cached"), IDA\* with them and FSM duplicate pruning
//!    (`CycleCheck::Fsm`, Taylor & Korf 1993, unless a cycle check is named): without a budget
//!    under `optimal(true)`,
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
//!    remains, every answer shortened by optimal windows (`npuzzle_suboptimal::AnytimeBeam`), and the
//!    shortest answer is kept (on the `DeepCubeA` 35- and 48-puzzle sets: BENCHMARKS.md, "Anytime
//!    beam search"). A longer budget runs the same beams and more, so it does not give a
//!    longer answer. The answer says it is not proven optimal (beam search proves no bound)
//!    and [`Answer::lower_bound`]; the decision is in [`Answer::notes`].
//!
//! ## Crates
//! The engines are re-exported for direct use: [`npuzzle_core`] (boards, parsing, goals,
//! parity, heuristics, [`verify`]), [`npuzzle_idastar`], [`npuzzle_astar`],
//! [`npuzzle_bidirectional`], [`npuzzle_nxn`] (Vec board, weighted A\*, constructive solver),
//! [`npuzzle_suboptimal`] (beam and anytime beam search, hill climbing), [`npuzzle_pdb`]
//! (pattern databases). Use them when you want one engine with full control; use this crate
//! when you want the best answer for a board.

mod all_optimal;
mod answer;
pub mod check;
pub mod databases;
mod error;
pub mod frontier;
pub mod generate;
mod job;
mod options;
mod partial;
mod record;
pub mod registry;

use std::sync::Arc;

pub use npuzzle_astar;
pub use npuzzle_bidirectional;
pub use npuzzle_core;
pub use npuzzle_idastar;
pub use npuzzle_nxn;
pub use npuzzle_pdb;
pub use npuzzle_suboptimal;

pub use npuzzle_core::{
    BoundKind, Goal, GoalKind, Guarantee, HeuristicProperties, Layout, Limit, Limits, Move, Parity,
    Progress, SearchError, Shape, Solution, Stats, moves_to_string, parse_board, parse_boards,
    verify,
};
pub use npuzzle_core::{Metric, Notation, moves_to_counts, mtm_length, parse_moves};
pub use npuzzle_core::{PartialGoal, PartialGoalError, PartialKind, parse_partial};
pub use npuzzle_idastar::CycleCheck;

pub use all_optimal::{AllOptimalAnswer, AllOptimalRecord, LengthCount};
pub use answer::Answer;
pub use answer::MAX_PRINTED_CELLS;
pub use databases::Tables;
pub use error::{Error, Setting};
pub use frontier::FrontierPlan;
pub use options::{
    Config, DEFAULT_ANYTIME, Engine, EngineChoice, HeuristicKind, MAX_THREADS, Observer, Quiet,
    SearchSettings, parse_goal,
};
pub use record::{Record, RecordParity, RecordStats};
pub use registry::{EngineInfo, HeuristicInfo};

use npuzzle_core::{BitBoard, Board, Heuristic, LinearConflict, MtmManhattan, SearchError as SE};
use npuzzle_nxn::{VecBoard, WeightedAStar};
use npuzzle_pdb::PartitionSpec;

use databases::{Db, Kind, PdbPlan, PerSearch};
use job::Job;

/// Auto tries optimal IDA\* on a board of more than 16 cells only when its linear-conflict lower
/// bound is at most this many moves (random 5×5 boards are above 100).
pub const AUTO_MAX_H: u32 = 50;
/// The node budget (generated nodes) of that attempt: about 5 s.
pub const AUTO_NODE_BUDGET: u64 = 50_000_000;
/// In the multi-tile metric, auto tries optimal IDA\* (with `mtm-manhattan`: no tables serve
/// boards of more than 16 cells) on such a board only when its `mtm-manhattan` bound is at
/// most this many MTM moves, within [`AUTO_NODE_BUDGET`]; otherwise, or past the budget, it
/// gives an anytime answer counted in MTM (the moves of the STM anytime search, its lower bound
/// the MTM one), not proven optimal (`optimal` searches on).
pub const AUTO_MAX_MTM_H: u32 = 20;
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

/// The depth of the duplicate-pruning automaton that auto adds to IDA\* on boards of `shape`
/// (unless a cycle check is asked for): [`npuzzle_idastar::fsm::default_depth`] on boards of
/// 17–25 cells (the packed board's: 5×5, 4×6, 3×8, …), `None` elsewhere (the bitboard's
/// boards run parent pruning, larger boards the Vec board). `npuzzle pdb build` builds this
/// automaton beside the tables. O(1).
pub fn auto_automaton_depth(shape: Shape) -> Option<u32> {
    let cells = shape.cells();
    (cells > BitBoard::MAX_CELLS && cells <= npuzzle_core::PackedBoard::CELLS)
        .then(|| npuzzle_idastar::fsm::default_depth(cells))
}

/// The estimate from which auto adds FSM duplicate pruning (`CycleCheck::Fsm`) to IDA\* on a
/// 4×4 board with plain pattern databases: 60 moves. Pruning duplicate paths pays in long
/// searches only: on the 17 positions 80 moves from the goal (estimates 66–68, 9–26 M nodes
/// with 7-8 + reflection) it takes 0.64–0.72× the nodes and 0.88× the CPU time a process
/// (median; 0.73–1.01×), but on seed15 and Korf's 100 (estimates at most 56 and 58, at most
/// a few hundred thousand nodes) 1.02–1.03× the CPU time, the automaton's loading and a
/// slower node costing more than the pruning saves (BENCHMARKS.md, "The 15-puzzle's
/// antipodes").
pub const AUTO_FSM_MIN_ESTIMATE_4X4: u32 = 60;

/// Whether `layout` is a 4×4 board whose estimate by `tables` (plain pattern databases) is at
/// least [`AUTO_FSM_MIN_ESTIMATE_4X4`]: a search long enough for auto's FSM duplicate pruning
/// to pay. O(groups) lookups.
fn deep_4x4(layout: &Layout, tables: Option<&Db>) -> bool {
    let shape = layout.shape();
    let (Some(Db::Plain(db)), true) = (tables, shape.width() == 4 && shape.height() == 4) else {
        return false;
    };
    BitBoard::from_layout(layout)
        .is_ok_and(|b| Heuristic::<BitBoard>::estimate(db, &b) >= AUTO_FSM_MIN_ESTIMATE_4X4)
}

/// Refuses a path or FSM cycle check with an engine that has none.
///
/// # Errors
/// [`Error::NotApplicable`] naming the check and the engine.
fn check_cycle_check(config: &Config, engine: Option<Engine>) -> Result<(), Error> {
    if config.path_check_asked
        && let Some(e) = engine
        && e != Engine::IdaStar
        && !(e == Engine::AStarIdaStar && config.cycle_check == CycleCheck::Fsm)
    {
        let fsm = config.cycle_check == CycleCheck::Fsm;
        return Err(Error::NotApplicable {
            setting: if fsm {
                Setting::FsmCycleCheck
            } else {
                Setting::PathCycleCheck
            },
            applies_to: if fsm {
                "the idastar and astar-idastar engines"
            } else {
                "the idastar engine"
            },
            chosen: e.name(),
        });
    }
    Ok(())
}

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
/// policy. **Built once, searched many times**: it holds what searches share — the pattern
/// databases per board shape (opened on first use and kept, in its [`Tables`]) and idle IDA\*
/// engines with their thread pools — while each search may bring its own [`SearchSettings`]
/// (limits, cancel flag, observer, anytime budget, threads: [`Npuzzle::solve_with`]).
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
    tables: Tables,
    spares: job::Spares,
    /// With a partial goal ([`Config::goal`] with wildcards): what its search runs with.
    partial_plan: Option<partial::PartialPlan>,
    /// The partial goal's tables, built on first use.
    partial_tables: partial::PartialTables,
}

impl Npuzzle {
    fn new(config: Config) -> Result<Npuzzle, Error> {
        check_threads(config.settings.threads)?;
        let partial_plan = config.partial.as_ref().map(|_| partial::plan(&config));
        let partial_plan = partial_plan.transpose()?;
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
                        return Err(Error::NotApplicable {
                            setting: Setting::Weight,
                            applies_to: "the weighted-astar engine",
                            chosen: other.name(),
                        });
                    }
                }
                w
            }
            None if engine == Some(Engine::WeightedAStar) => DEFAULT_WEIGHT,
            None => 1.0,
        };
        let pdb_asked = config.pdb.is_some();
        let mtm_search = config.metric == Metric::Mtm && engine.is_none_or(Engine::searches_mtm);
        if mtm_search {
            // The multi-tile metric: auto always runs IDA* over MTM moves.
            engine = Some(Engine::IdaStar);
        }
        let heuristic = match config.heuristic {
            Some(h) => h,
            // Per board, walking distance or mtm-manhattan where no multi-tile tables serve
            // (`Npuzzle::mtm_without_tables`).
            None if mtm_search => HeuristicKind::MtmPdb,
            None if pdb_asked || engine.is_none() => HeuristicKind::Pdb,
            None => HeuristicKind::LinearConflict,
        };
        if config.metric == Metric::Mtm {
            check_mtm(&config, engine, heuristic, mtm_search)?;
        }
        let pdb = if let Some(kind) = Kind::of(heuristic) {
            let spec = config.pdb.clone();
            Some(PdbPlan {
                build_any: spec.is_some() || config.heuristic == Some(heuristic),
                spec: spec.or_else(|| engine.is_some().then_some(PartitionSpec::Default)),
                dir: config.pdb_dir.clone(),
                reflect: config.reflect,
                kind,
                prefer_zero_aware: config.heuristic.is_none() && engine.is_none(),
                build_large: engine.is_none() && config.optimal,
            })
        } else {
            if pdb_asked || !config.reflect {
                return Err(Error::NotApplicable {
                    setting: if pdb_asked {
                        Setting::Pdb
                    } else {
                        Setting::NoReflect
                    },
                    applies_to: "the pdb, zpdb and mtm-pdb heuristics",
                    chosen: heuristic.name(),
                });
            }
            None
        };
        check_cycle_check(&config, engine)?;
        if config.optimal
            && let Some(e) = engine
        {
            refuse_unproven(e, weight, heuristic)?;
        }
        let tables = config.tables.clone().unwrap_or_default();
        let npuzzle = Npuzzle {
            config,
            engine,
            heuristic,
            weight,
            pdb,
            tables,
            spares: job::Spares::default(),
            partial_plan,
            partial_tables: partial::PartialTables::default(),
        };
        npuzzle.check_settings(&npuzzle.config.settings)?;
        Ok(npuzzle)
    }

    /// Shares `other`'s opened pattern databases (a batch run comparing engines opens the
    /// tables once); the same as building with `Config::tables(other.tables())`.
    #[must_use]
    pub fn sharing_databases_with(mut self, other: &Npuzzle) -> Npuzzle {
        self.tables = other.tables.clone();
        self
    }

    /// The opened tables this solver uses (and shares with the solvers given them through
    /// [`Config::tables`]).
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The default settings of each search: those set on the [`Config`]. Start from them to
    /// give one search other limits ([`Npuzzle::solve_with`]).
    pub fn settings(&self) -> SearchSettings {
        self.config.settings.clone()
    }

    /// Whether the f-bound a search of this solver reached when a limit or a cancel stopped it
    /// is a lower bound on the optimal length (the registry's rule for the engine, see
    /// [`registry::StoppedBound`]; under auto only with `optimal`, since auto may be running
    /// weighted A\* for an anytime answer).
    pub fn proves_bound_when_stopped(&self) -> bool {
        match self.engine {
            Some(e) => e.proves_bound_when_stopped(),
            None => self.config.optimal,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The goal convention boards are solved for.
    pub fn goal(&self) -> &GoalKind {
        &self.config.goal
    }

    /// The goal, for the searches that need one goal board (distributed IDA\*): refused when
    /// the goal is partial.
    ///
    /// # Errors
    /// [`Error::NotApplicable`] naming `what` when [`Config::goal`] was a partial goal.
    pub(crate) fn full_goal(&self, what: &'static str) -> Result<&GoalKind, Error> {
        if self.config.partial.is_some() {
            return Err(Error::NotApplicable {
                setting: Setting::PartialGoal,
                applies_to: "solve",
                chosen: what,
            });
        }
        Ok(&self.config.goal)
    }

    /// The partial goal boards are solved for, when [`Config::goal`] was given one (cells that
    /// do not matter; `npuzzle_core::partial`); [`Npuzzle::goal`] is then not used.
    pub fn partial_goal(&self) -> Option<&PartialKind> {
        self.config.partial.as_ref()
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
        let settings = &self.config.settings;
        for layout in boards {
            if self.config.partial.is_some() {
                // A partial goal's tables are built on its first board.
                break;
            }
            if Goal::new(&self.config.goal, layout.shape()).is_err()
                || self.answers_without_search(layout)
            {
                continue;
            }
            self.pdb_for_search(layout, settings, true)?;
        }
        Ok(())
    }

    /// Whether `layout` is answered without any search and without opening pattern
    /// databases: it is unsolvable for the goal (parity) or it is the goal itself. O(cells).
    /// `false` when the goal does not fit the board's shape ([`Npuzzle::solve`] reports that).
    pub fn answers_without_search(&self, layout: &Layout) -> bool {
        if let Some(kind) = &self.config.partial {
            return npuzzle_core::PartialGoal::new(kind, layout.shape()).is_ok_and(|goal| {
                goal.is_reached(layout.cells())
                    || goal.solvability(layout).is_ok_and(|p| !p.solvable)
            });
        }
        Goal::new(&self.config.goal, layout.shape()).is_ok_and(|goal| {
            goal.layout() == layout || goal.parity(layout).is_ok_and(|p| !p.solvable)
        })
    }

    /// The heuristic named in the answer for a board that needs no search: the one a search
    /// would have used ([`databases::Tables::planned`]: `zpdb` where auto would open cached
    /// zero-aware tables, linear conflict where it would use no pattern databases for the
    /// shape), found without opening or building any table.
    fn trivial_heuristic(&self, layout: &Layout, settings: &SearchSettings) -> HeuristicKind {
        match &self.pdb {
            Some(plan) if Kind::of(self.heuristic).is_some() => {
                match self.tables.planned(
                    plan,
                    &Self::per_search(settings),
                    &self.config.goal,
                    layout.shape(),
                ) {
                    Some(_) if plan.kind == Kind::Mtm => HeuristicKind::MtmPdb,
                    None if plan.kind == Kind::Mtm => Self::mtm_without_tables(layout),
                    Some(true) => HeuristicKind::Zpdb,
                    Some(false) => HeuristicKind::Pdb,
                    None => HeuristicKind::LinearConflict,
                }
            }
            _ => self.heuristic,
        }
    }

    /// The MTM search's heuristic where no multi-tile tables serve (none cached and a time
    /// limit set, or more than 16 cells): walking distance on the boards it serves,
    /// `mtm-manhattan` on the others.
    fn mtm_without_tables(layout: &Layout) -> HeuristicKind {
        if HeuristicKind::WalkingDistance
            .info()
            .boards
            .covers(layout.shape())
        {
            HeuristicKind::WalkingDistance
        } else {
            HeuristicKind::MtmManhattan
        }
    }

    /// Solves one board given as text (any format [`parse_board`] reads; the shape from
    /// [`Config::size`] when the text does not give it).
    ///
    /// # Errors
    /// [`Error::Parse`] for a malformed board, else as [`Npuzzle::solve`].
    pub fn solve_str(&self, board: &str) -> Result<Answer, Error> {
        self.solve_str_with(board, &self.config.settings)
    }

    /// [`Npuzzle::solve_str`] with the settings of this one search.
    ///
    /// # Errors
    /// As [`Npuzzle::solve_str`].
    pub fn solve_str_with(&self, board: &str, settings: &SearchSettings) -> Result<Answer, Error> {
        let layout = parse_board(board, self.config.size)?;
        self.solve_with(&layout, settings)
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
        self.solve_with(layout, &self.config.settings)
    }

    /// Solves one board with the settings of this one search (limits, cancel flag, observer,
    /// anytime budget, threads) instead of the configured defaults; the tables and engines
    /// built once are reused. Parity is decided first, once: an unsolvable board (and a board
    /// equal to its goal) is answered before any table is opened or built.
    ///
    /// # Errors
    /// As [`Npuzzle::solve`].
    pub fn solve_with(&self, layout: &Layout, settings: &SearchSettings) -> Result<Answer, Error> {
        check_threads(settings.threads)?;
        if let (Some(kind), Some(plan)) = (&self.config.partial, self.partial_plan) {
            return self.solve_partial(kind, plan, layout, settings);
        }
        self.check_settings(settings)?;
        let goal = Goal::new(&self.config.goal, layout.shape())?;
        let parity = goal.parity(layout)?;
        let engine = self.engine.unwrap_or(Engine::IdaStar);
        if !parity.solvable || layout == goal.layout() {
            // Decided without tables or search, by the engine that would have searched.
            return Ok(answer::trivial(&answer::Trivial {
                layout,
                goal: &goal,
                parity,
                engine,
                heuristic: self.trivial_heuristic(layout, settings),
                weight: (engine == Engine::WeightedAStar).then_some(self.weight),
                metric: self.config.metric,
            }));
        }
        let tables = self.pdb_for(layout, settings)?;
        self.preload_automaton(layout, tables.as_ref());
        let job = self.job(engine, (layout, &goal, parity), tables.as_ref(), settings);
        let observer = &*settings.observer;
        // Auto in the multi-tile metric runs the MTM IDA* (`self.engine`), but on boards of
        // more than 16 cells like auto in STM: a budgeted attempt, then an anytime answer.
        let auto_mtm =
            self.config.metric == Metric::Mtm && self.config.engine == EngineChoice::Auto;
        if (self.engine.is_some() && !auto_mtm)
            || layout.shape().cells() <= BitBoard::MAX_CELLS
            || self.config.optimal
            || settings.max_depth.is_some()
        {
            return registry::run(&job, layout, observer);
        }
        self.auto_large(&job, layout, &goal, settings)
    }

    /// The search `settings` ask for on `layout` (`goal` and `parity` decided by the caller)
    /// with `engine` and the opened `tables`: the configured heuristic, or linear conflict
    /// where auto found no tables for the shape.
    fn job<'a>(
        &'a self,
        engine: Engine,
        (layout, goal, parity): (&Layout, &'a Goal, npuzzle_core::Parity),
        tables: Option<&'a Db>,
        settings: &'a SearchSettings,
    ) -> Job<'a> {
        let heuristic = if tables.is_none()
            && matches!(self.heuristic, HeuristicKind::Pdb | HeuristicKind::Zpdb)
        {
            // Auto found no tables for this shape (none cached above 16 cells, or too large).
            HeuristicKind::LinearConflict
        } else if tables.is_none() && self.heuristic == HeuristicKind::MtmPdb {
            Self::mtm_without_tables(layout)
        } else if matches!(tables, Some(Db::ZeroAware(_))) {
            // Named, or auto's pick where the zero-aware tables are cached (5×5).
            HeuristicKind::Zpdb
        } else {
            self.heuristic
        };
        Job {
            engine,
            heuristic,
            tables,
            goal,
            parity,
            limits: &settings.limits,
            cycle_check: self.cycle_check_for(layout, tables),
            weight: self.weight,
            threads: settings.threads,
            deterministic: settings.deterministic,
            spares: &self.spares,
            check_printable: self.config.check_printable,
            metric: self.config.metric,
            max_depth: settings.max_depth,
            seed: settings.seed,
            max_steps: settings.max_steps,
        }
    }

    /// Refuses per-search settings that do not apply to this solver's engine: a depth limit
    /// (idastar and auto only, in the single-tile metric), hill climbing's seed and cap on steps (hill-climbing only, the
    /// cap at least 1); and, for a solver with a partial goal, every search but
    /// [`Npuzzle::solve`]'s (a search for every optimal solution needs one goal board).
    ///
    /// # Errors
    /// [`Error::NotApplicable`] or [`Error::BadValue`] naming the setting.
    pub fn check_per_search(&self, settings: &SearchSettings) -> Result<(), Error> {
        if self.config.partial.is_some() {
            return Err(Error::NotApplicable {
                setting: Setting::PartialGoal,
                applies_to: "a search for one optimal solution (solve)",
                chosen: "a search for every optimal solution",
            });
        }
        self.check_settings(settings)
    }

    /// [`Npuzzle::check_per_search`]'s checks of the settings alone.
    fn check_settings(&self, settings: &SearchSettings) -> Result<(), Error> {
        if settings.max_depth.is_some()
            && let Some(e) = self.engine
            && e != Engine::IdaStar
        {
            return Err(Error::NotApplicable {
                setting: Setting::MaxDepth,
                applies_to: "the idastar engine (and auto, which then runs IDA*)",
                chosen: e.name(),
            });
        }
        if settings.max_depth.is_some() && self.config.metric != Metric::Stm {
            // The multi-tile search (MtmIdaStar) has no depth limit.
            return Err(Error::NotApplicable {
                setting: Setting::MaxDepth,
                applies_to: "the single-tile metric (stm)",
                chosen: self.config.metric.name(),
            });
        }
        for (set, setting) in [
            (settings.seed.is_some(), Setting::Seed),
            (settings.max_steps.is_some(), Setting::MaxSteps),
        ] {
            if set && self.engine != Some(Engine::HillClimbing) {
                return Err(Error::NotApplicable {
                    setting,
                    applies_to: "the hill-climbing engine",
                    chosen: self.engine.map_or("auto", Engine::name),
                });
            }
        }
        if settings.max_steps == Some(0) {
            return Err(Error::BadValue {
                setting: Setting::MaxSteps,
                value: "0".into(),
                reason: "at least 1 step".into(),
            });
        }
        Ok(())
    }

    /// The cycle check of a search: the one asked for, else under auto FSM duplicate pruning
    /// on boards of 17–25 cells (Taylor & Korf 1993; the automaton, of depth 14 on 5×5, is
    /// built once per cache directory in about 0.5 s and then loaded from there
    /// (`Npuzzle::preload_automaton`), which only searches of that size repay: on Korf's
    /// 24-puzzles it takes 0.50–0.71× the nodes and 0.56–0.80× the CPU time of parent pruning
    /// at depth 12, BENCHMARKS.md "FSM duplicate pruning") and on 4×4 boards whose table
    /// estimate is at least [`AUTO_FSM_MIN_ESTIMATE_4X4`] ([`deep_4x4`]), else parent pruning.
    fn cycle_check_for(&self, layout: &Layout, tables: Option<&Db>) -> CycleCheck {
        if self.engine.is_none()
            && !self.config.cycle_check_asked
            && (auto_automaton_depth(layout.shape()).is_some() || deep_4x4(layout, tables))
        {
            CycleCheck::Fsm
        } else {
            self.config.cycle_check
        }
    }

    /// With FSM duplicate pruning (IDA\* or A\*+IDA\*, single-tile metric) on a board of at
    /// most [`npuzzle_idastar::fsm::MAX_CELLS`] cells: loads the engine's automaton (of the
    /// board's default depth, [`npuzzle_idastar::fsm::default_depth`]) from the pattern
    /// databases' cache directory, or builds it and stores it there
    /// ([`databases::automaton`]; on the 24-puzzle a 4.2 MB file that loads in
    /// milliseconds instead of 0.5 s to build), so that the engine finds it in this
    /// process's memory. Without a cache directory the engine builds it itself; a file that
    /// cannot be written or read is no error (the automaton is built in memory).
    fn preload_automaton(&self, layout: &Layout, tables: Option<&Db>) {
        let shape = layout.shape();
        if self.cycle_check_for(layout, tables) != CycleCheck::Fsm
            || !matches!(
                self.engine,
                None | Some(Engine::IdaStar | Engine::AStarIdaStar)
            )
            || self.config.metric != Metric::Stm
            || shape.cells() > npuzzle_idastar::fsm::MAX_CELLS
        {
            return;
        }
        let dir = self.pdb.as_ref().and_then(|plan| plan.dir.as_deref());
        if let Ok(cache) = npuzzle_pdb::Cache::locate(dir) {
            // The engine's depth (auto's, or the one `--cycle-check fsm` gets by default).
            let depth = npuzzle_idastar::fsm::default_depth(shape.cells());
            let _ = databases::automaton(shape, depth, &cache);
        }
    }

    /// What one search adds to the table plan: its time limit and cancel flag.
    fn per_search(settings: &SearchSettings) -> PerSearch {
        PerSearch {
            time_limited: settings.limits.timeout.is_some(),
            cancel: settings.limits.cancel.clone(),
            preparing: false,
        }
    }

    fn pdb_for(&self, layout: &Layout, settings: &SearchSettings) -> Result<Option<Db>, Error> {
        self.pdb_for_search(layout, settings, false)
    }

    /// [`Npuzzle::pdb_for`], `preparing` when called by [`Npuzzle::prepare`].
    fn pdb_for_search(
        &self,
        layout: &Layout,
        settings: &SearchSettings,
        preparing: bool,
    ) -> Result<Option<Db>, Error> {
        match &self.pdb {
            Some(plan) => self.tables.get(
                plan,
                &PerSearch {
                    preparing,
                    ..Self::per_search(settings)
                },
                &self.config.goal,
                layout.shape(),
                &*settings.observer,
            ),
            None => Ok(None),
        }
    }

    /// Auto on a solvable board of more than 16 cells, without `optimal`: a budgeted IDA\*
    /// attempt when the board is close to solved, else (or past the budget) an anytime answer.
    fn auto_large(
        &self,
        job: &Job<'_>,
        layout: &Layout,
        goal: &Goal,
        settings: &SearchSettings,
    ) -> Result<Answer, Error> {
        let shape = layout.shape();
        let board = VecBoard::from_layout(layout)?;
        // The bound in the search's metric: an STM bound is no bound in MTM.
        let mtm = self.config.metric == Metric::Mtm;
        let (bound, bound_name, max_h) = if mtm {
            (
                MtmManhattan::new(goal).estimate(&board),
                "mtm-manhattan",
                AUTO_MAX_MTM_H,
            )
        } else {
            (
                LinearConflict::new(goal).estimate(&board),
                "linear-conflict",
                AUTO_MAX_H,
            )
        };
        let with_tables = matches!(job.heuristic, HeuristicKind::Pdb | HeuristicKind::Zpdb);
        let (budget, what) = if with_tables {
            (AUTO_PDB_NODE_BUDGET, "pattern databases")
        } else {
            (AUTO_NODE_BUDGET, "linear conflict")
        };
        // Above 25 cells the tables (cached for the beam search) do not bring random boards
        // within reach of optimal search either.
        let reach = with_tables && shape.cells() <= databases::AUTO_LARGE_PDB_MAX_CELLS;
        let budget = if with_tables && !reach {
            AUTO_NODE_BUDGET
        } else {
            budget
        };
        if !reach && bound > max_h {
            let why = format!(
                "a {shape} board with {bound_name} bound {bound} (above {max_h}) is out of reach of optimal search"
            );
            return self.anytime(job, layout, bound, &why, settings);
        }
        let user = settings.limits.max_nodes;
        let mut limits = settings.limits.clone();
        limits.max_nodes = Some(user.map_or(budget, |n| n.min(budget)));
        let tight = Job {
            limits: &limits,
            ..job.clone()
        };
        match registry::run(&tight, layout, &*settings.observer) {
            Err(Error::Search(SE::LimitReached {
                limit: Limit::Nodes(n),
                progress,
            })) if n == budget && user.is_none_or(|u| u > budget) => {
                let what = if mtm { "mtm-manhattan" } else { what };
                let why = format!(
                    "optimal IDA* with {what} on this {shape} board ({bound_name} bound {bound}) used its budget of {budget} generated nodes, proving at least {} moves",
                    progress.bound
                );
                self.anytime(job, layout, bound.max(progress.bound), &why, settings)
            }
            other => other,
        }
    }

    /// The anytime answer: the constructive solver's answer, then beam searches of growing
    /// widths on [`Config::threads`] threads with linear conflict while the time budget lasts,
    /// every answer shortened (`npuzzle_suboptimal::AnytimeBeam`); the shortest wins. On boards of
    /// more than [`ANYTIME_MAX_CELLS`] cells only the constructive answer. `lower_bound` is
    /// what is proven so far; `why` says why optimal search was not (or no longer) tried.
    fn anytime(
        &self,
        job: &Job<'_>,
        layout: &Layout,
        lower_bound: u32,
        why: &str,
        settings: &SearchSettings,
    ) -> Result<Answer, Error> {
        let budget = settings.anytime;
        let cells = layout.shape().cells();
        let beam = cells <= ANYTIME_MAX_CELLS && !budget.is_zero();
        // The tables opened for this board (cached ones on 26–49 cells, see
        // `databases::beam_tables_serve`): the beams rank states by them.
        let tables = beam
            && job.heuristic == HeuristicKind::Pdb
            && matches!(job.tables, Some(Db::Plain(_) | Db::TileOnly(_)))
            && (cells <= databases::AUTO_LARGE_PDB_MAX_CELLS
                || databases::beam_tables_serve(layout.shape()));
        let ranked_by = match job.tables {
            Some(db) if tables => format!("pattern databases {}", db.partition()),
            _ if npuzzle_suboptimal::LearnedRanking::has_shipped(layout.shape()) => {
                "the learned ranking (linear conflict and learned tile-offset costs)".to_string()
            }
            _ => "linear conflict".to_string(),
        };
        let note = if budget.is_zero() {
            format!(
                "auto: {why}; using the constructive solver (anytime budget 0; answer not proven optimal)"
            )
        } else if beam {
            format!(
                "auto: {why}; searching for a short answer instead (constructive solver, then beam search with {ranked_by} for up to {} s; not proven optimal; --optimal searches on)",
                budget.as_secs_f64()
            )
        } else {
            format!(
                "auto: {why}; using the constructive solver (beam search does not improve boards of more than {ANYTIME_MAX_CELLS} cells within the anytime budget; answer not proven optimal; --optimal forces IDA*)"
            )
        };
        settings.observer.note(&note);
        let mut limits = settings.limits.clone();
        limits.timeout = Some(limits.timeout.map_or(budget, |t| t.min(budget)));
        limits.memory_bytes = Some(
            limits
                .memory_bytes
                .map_or(ANYTIME_MEMORY, |m| m.min(ANYTIME_MEMORY)),
        );
        // The board's job (`Npuzzle::job`) with the anytime engine, ranking and limits.
        let job = Job {
            engine: if beam {
                Engine::Beam
            } else {
                Engine::Constructive
            },
            heuristic: if tables {
                HeuristicKind::Pdb
            } else {
                HeuristicKind::LinearConflict
            },
            tables: job.tables.filter(|_| tables),
            limits: &limits,
            cycle_check: CycleCheck::Parent,
            weight: 1.0,
            deterministic: false,
            check_printable: false,
            max_depth: None,
            seed: None,
            max_steps: None,
            ..job.clone()
        };
        let mut best = registry::run(&job, layout, &*settings.observer)?;
        best.lower_bound = best.lower_bound.max(lower_bound);
        best.notes.push(note);
        if self.config.check_printable {
            answer::printable(&best)?;
        }
        Ok(best)
    }
}

/// `optimal(true)` with an explicit engine: refuses every engine × heuristic that does not prove
/// optimality ([`Error::NotOptimal`] says why).
fn refuse_unproven(engine: Engine, weight: f64, heuristic: HeuristicKind) -> Result<(), Error> {
    let guarantee = engine.guarantee(weight, heuristic.properties())?;
    if guarantee.is_optimal() {
        return Ok(());
    }
    Err(Error::NotOptimal {
        engine,
        heuristic,
        weight,
        guarantee,
    })
}

/// The checks of the multi-tile metric: the MTM search (`mtm_search`: IDA\*) takes only a
/// heuristic admissible in MTM and no cycle-check option (it prunes by axis itself); the other
/// engines search in single-tile moves and prove nothing in MTM, so `optimal` refuses them.
fn check_mtm(
    config: &Config,
    engine: Option<Engine>,
    heuristic: HeuristicKind,
    mtm_search: bool,
) -> Result<(), Error> {
    if !mtm_search {
        if config.optimal
            && let Some(engine) = engine
        {
            return Err(Error::MetricNotProven { engine });
        }
        return Ok(());
    }
    if !heuristic.info().mtm_admissible {
        return Err(Error::BadValue {
            setting: Setting::Heuristic,
            value: heuristic.name().to_string(),
            reason: "not admissible in the multi-tile metric (one move slides up to W-1 tiles at cost 1); the MTM search takes walking-distance (the default), mtm-manhattan or zero".to_string(),
        });
    }
    if config.path_check_asked {
        return Err(Error::NotApplicable {
            setting: if config.cycle_check == CycleCheck::Fsm {
                Setting::FsmCycleCheck
            } else {
                Setting::PathCycleCheck
            },
            applies_to: "the single-tile metric",
            chosen: "the multi-tile metric (its IDA* prunes by axis)",
        });
    }
    Ok(())
}

/// Refuses more than [`MAX_THREADS`] threads ([`npuzzle_core::Threads::new`]).
fn check_threads(threads: usize) -> Result<(), Error> {
    npuzzle_core::Threads::new(threads)
        .map(drop)
        .map_err(|_| Error::BadValue {
            setting: Setting::Threads,
            value: threads.to_string(),
            reason: format!("at most {MAX_THREADS} (0 = one per available core)"),
        })
}

/// A shareable observer (for [`Config::observer`]).
pub fn observer(o: impl Observer + 'static) -> Arc<dyn Observer> {
    Arc::new(o)
}
