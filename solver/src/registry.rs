//! The registry: every heuristic and every engine of the facade, declared **once**.
//!
//! Each [`HeuristicKind`] has one [`HeuristicInfo`] (its `--heuristic` name, its declared
//! properties — admissible, consistent, with no default —, the boards it applies to, and the
//! precomputed tables it needs and how they are keyed, built, cached and shared) and each
//! [`Engine`] one [`EngineInfo`] (its `--engine` name, what it is for, why it does not prove
//! optimality when it does not, and what it proves when stopped early). The engine's guarantee
//! rule itself is asked of the engine (`Solver::guarantee`), in [`Engine::guarantee`] here too.
//!
//! Everything that lists heuristics or engines reads it: the CLI's value lists and `--help`,
//! the web server's `/api/engines`, the Python package's constants, the bench enumerations,
//! and the README's tables (checked against it by a test). The dispatch is here too, and runs
//! one way: the solver builds a search's job (`Npuzzle::job`, `crate::job`), `run` picks the
//! board type, `with_engine` the engine and `with_heuristic_task` the heuristic (the `match`es
//! that turn a kind into a concrete, statically dispatched search), `solve_one` calls the
//! engine, and `crate::answer` packages what it returns; nothing here calls back into its
//! caller. So adding a heuristic to the facade is: one module in the crate that owns it
//! (`npuzzle-core`, `npuzzle-pdb`, ...), one variant of [`HeuristicKind`], its entry in
//! [`HeuristicKind::info`] and its arm in `with_heuristic_task` — the compiler points at each
//! (every `match` is exhaustive, none has a wildcard arm); a heuristic with tables of a new
//! kind also adds that kind to the shared table store (`databases.rs`, as `zpdb` did).

use npuzzle_astar::{AStar, Greedy};
use npuzzle_bidirectional::Bidirectional;
use npuzzle_core::{
    BitBoard, Board, Guarantee, Hamming, Heuristic, HeuristicProperties, Layout, LinearConflict,
    Manhattan, Metric, MtmManhattan, PackedBoard, Shape, Solver, WalkingDistance, Zero,
};
use npuzzle_idastar::{AStarIdaStar, CycleCheck, IdaStar, MtmIdaStar};
use npuzzle_nxn::{Constructive, WeightedAStar};
use npuzzle_suboptimal::{AnytimeBeam, HillClimbing};

use npuzzle_core::{BoardError, Outcome};
use npuzzle_nxn::VecBoard;

use crate::answer::{printable, solved};
use crate::databases::Db;
use crate::job::Job;
use crate::{Answer, Engine, Error, HeuristicKind, Observer};

/// The boards a heuristic applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Boards {
    /// Every board shape, 2×2 to 127×127.
    Any,
    /// Boards with at most this many cells (the pattern databases' indexing).
    UpToCells(usize),
    /// Boards with at most `cells` cells and sides of at most `side` (walking distance, whose
    /// tables grow with the longer side: 16.9 M states for 2×7).
    UpToCellsAndSide {
        /// The most cells.
        cells: usize,
        /// The longest side.
        side: usize,
    },
}

impl Boards {
    /// Whether boards of `shape` are covered.
    pub fn covers(self, shape: Shape) -> bool {
        match self {
            Boards::Any => true,
            Boards::UpToCells(n) => shape.cells() <= n,
            Boards::UpToCellsAndSide { cells, side } => {
                shape.cells() <= cells && shape.width() <= side && shape.height() <= side
            }
        }
    }
}

/// The precomputed tables a heuristic needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TableNeed {
    /// None: the heuristic is computed from the board alone.
    None,
    /// Additive disjoint pattern databases (`npuzzle-pdb`): one table per group of tiles,
    /// keyed by board shape, goal and group (the file name holds all three), built by
    /// breadth-first search in the abstract space, checksummed and cached on disk (the
    /// `npuzzle pdb` cache), opened once per shape, partition, reflection and goal and shared by
    /// every solver that holds the same [`crate::Tables`].
    PatternDatabases,
}

/// A heuristic's entry in the registry.
#[derive(Clone, Copy, Debug)]
pub struct HeuristicInfo {
    /// The `--heuristic` value, equal to the heuristic's own `Heuristic::name()`.
    pub name: &'static str,
    /// One line for help texts.
    pub summary: &'static str,
    /// Its declared properties, equal to its `Heuristic::properties()` (a test checks that).
    pub properties: HeuristicProperties,
    /// The boards it applies to.
    pub boards: Boards,
    /// The precomputed tables it needs.
    pub tables: TableNeed,
    /// Where the heuristic comes from.
    pub source: &'static str,
    /// Whether it is admissible in the **multi-tile metric** too (where one move slides 1..k
    /// tiles, see [`crate::Metric::Mtm`]): only such heuristics guide the MTM search. Declared,
    /// never defaulted; checked against the breadth-first oracle for `mtm-manhattan` and zero.
    pub mtm_admissible: bool,
}

impl HeuristicKind {
    /// Every heuristic, in the order the CLI, the web API and Python list them.
    pub const ALL: [HeuristicKind; 9] = [
        HeuristicKind::Manhattan,
        HeuristicKind::LinearConflict,
        HeuristicKind::Hamming,
        HeuristicKind::Zero,
        HeuristicKind::Pdb,
        HeuristicKind::Zpdb,
        HeuristicKind::MtmManhattan,
        HeuristicKind::WalkingDistance,
        HeuristicKind::MtmPdb,
    ];

    /// The heuristic's registry entry.
    pub fn info(self) -> &'static HeuristicInfo {
        const MANHATTAN: HeuristicInfo = HeuristicInfo {
            name: "manhattan",
            summary: "sum of the tiles' Manhattan distances to their goal cells",
            properties: HeuristicProperties::CONSISTENT,
            boards: Boards::Any,
            tables: TableNeed::None,
            source: "classic; Korf 1985",
            mtm_admissible: false,
        };
        const LINEAR_CONFLICT: HeuristicInfo = HeuristicInfo {
            name: "linear-conflict",
            summary: "Manhattan distance plus 2 moves per linear conflict",
            properties: HeuristicProperties::CONSISTENT,
            boards: Boards::Any,
            tables: TableNeed::None,
            source: "Hansson, Mayer & Yung 1992",
            mtm_admissible: false,
        };
        const HAMMING: HeuristicInfo = HeuristicInfo {
            name: "hamming",
            summary: "number of misplaced tiles",
            properties: HeuristicProperties::CONSISTENT,
            boards: Boards::Any,
            tables: TableNeed::None,
            source: "classic",
            mtm_admissible: false,
        };
        const ZERO: HeuristicInfo = HeuristicInfo {
            name: "zero",
            summary: "h = 0: brute force (breadth-first order for A*)",
            properties: HeuristicProperties::CONSISTENT,
            boards: Boards::Any,
            tables: TableNeed::None,
            source: "",
            mtm_admissible: true,
        };
        const PDB: HeuristicInfo = HeuristicInfo {
            name: "pdb",
            summary: "additive disjoint pattern databases, with the reflected lookup (tile-only tables above 32 cells)",
            properties: HeuristicProperties::ADMISSIBLE,
            boards: Boards::UpToCells(npuzzle_pdb::MAX_INDEX_CELLS),
            tables: TableNeed::PatternDatabases,
            source: "Korf & Felner 2002",
            mtm_admissible: false,
        };
        const ZPDB: HeuristicInfo = HeuristicInfo {
            name: "zpdb",
            summary: "zero-aware additive pattern databases: the blank's region is part of each table's index",
            properties: HeuristicProperties::CONSISTENT,
            boards: Boards::UpToCells(npuzzle_pdb::MAX_CELLS),
            tables: TableNeed::PatternDatabases,
            source: "Clausecker & Reinefeld 2019",
            mtm_admissible: false,
        };
        const MTM_MANHATTAN: HeuristicInfo = HeuristicInfo {
            name: "mtm-manhattan",
            summary: "multi-tile metric bound: Manhattan distance split by direction, each part divided by the most tiles one move slides (W-1 or H-1)",
            properties: HeuristicProperties::CONSISTENT,
            boards: Boards::Any,
            tables: TableNeed::None,
            source: "this project (MTM: one move slides 1..k tiles); see npuzzle_core::MtmManhattan",
            mtm_admissible: true,
        };
        const WALKING_DISTANCE: HeuristicInfo = HeuristicInfo {
            name: "walking-distance",
            summary: "walking distance: tables of row and column occupancy by goal line, built by breadth-first search in the search's metric (multi-tile with --metric mtm); boards of at most 16 cells, sides at most 6",
            properties: HeuristicProperties::CONSISTENT,
            boards: Boards::UpToCellsAndSide {
                cells: WalkingDistance::MAX_CELLS,
                side: WalkingDistance::MAX_SIDE,
            },
            tables: TableNeed::None,
            source: "Ken'ichiro Takahashi (walking distance, about 2002); see npuzzle_core::WalkingDistance",
            mtm_admissible: true,
        };
        const MTM_PDB: HeuristicInfo = HeuristicInfo {
            name: "mtm-pdb",
            summary: "multi-tile-metric pattern databases: the blank and the tiles told apart by goal row, distances by breadth-first search in MTM, maxed over groups and the reflected board; boards of at most 16 cells",
            properties: HeuristicProperties::CONSISTENT,
            boards: Boards::UpToCells(npuzzle_pdb::MTM_MAX_CELLS),
            tables: TableNeed::PatternDatabases,
            source: "this project (abstraction of the MTM state space; Culberson & Schaeffer 1998 for pattern databases); see npuzzle_pdb::MtmDb",
            mtm_admissible: true,
        };
        match self {
            HeuristicKind::MtmPdb => &MTM_PDB,
            HeuristicKind::WalkingDistance => &WALKING_DISTANCE,
            HeuristicKind::MtmManhattan => &MTM_MANHATTAN,
            HeuristicKind::Zpdb => &ZPDB,
            HeuristicKind::Manhattan => &MANHATTAN,
            HeuristicKind::LinearConflict => &LINEAR_CONFLICT,
            HeuristicKind::Hamming => &HAMMING,
            HeuristicKind::Zero => &ZERO,
            HeuristicKind::Pdb => &PDB,
        }
    }
}

/// What an engine proves when a limit or a cancel stops it before it answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoppedBound {
    /// The f-bound it reached ([`npuzzle_core::Progress::bound`]) is a lower bound on the
    /// optimal length: it expands in order of f = g + h with an admissible heuristic.
    FBound,
    /// Nothing: its order (weighted f, h alone, rules) proves no bound.
    Nothing,
}

/// An engine's entry in the registry.
#[derive(Clone, Copy, Debug)]
pub struct EngineInfo {
    /// The `--engine` value, equal to the engine's own `Solver::name()` and the bench IDs.
    pub name: &'static str,
    /// Other names accepted for it.
    pub aliases: &'static [&'static str],
    /// The crate that holds it.
    pub crate_name: &'static str,
    /// One line for help texts.
    pub summary: &'static str,
    /// Why it does not prove its answers optimal, for the engines that never do (`None` for
    /// the engines whose guarantee depends on the heuristic and the weight).
    pub never_optimal: Option<&'static str>,
    /// What it proves when stopped early (the lower bound printed on interrupt).
    pub stopped: StoppedBound,
    /// Whether `memory_limit` bounds its stored states.
    pub stores_states: bool,
}

impl Engine {
    /// Every engine, in the order the CLI, the web API and Python list them.
    pub const ALL: [Engine; 9] = [
        Engine::IdaStar,
        Engine::AStar,
        Engine::Bidirectional,
        Engine::WeightedAStar,
        Engine::Constructive,
        Engine::Greedy,
        Engine::AStarIdaStar,
        Engine::Beam,
        Engine::HillClimbing,
    ];

    /// Whether the engine searches multi-tile-metric moves (and so proves MTM optimality) under
    /// [`crate::Metric::Mtm`]: idastar only (`npuzzle_idastar::MtmIdaStar`, dispatched in
    /// `with_engine`); every other engine searches single-tile moves and answers unproven there.
    pub const fn searches_mtm(self) -> bool {
        matches!(self, Engine::IdaStar)
    }

    /// What the engine proves about its answers with a heuristic of these properties, asked
    /// of the engine itself (`Solver::guarantee`); `weight` is weighted A\*'s (ignored by the
    /// others).
    ///
    /// # Errors
    /// [`Error::Weight`] for a weight outside `1..=1000`.
    pub fn guarantee(
        self,
        weight: f64,
        heuristic: HeuristicProperties,
    ) -> Result<Guarantee, Error> {
        Ok(match self {
            Engine::IdaStar => Solver::<BitBoard>::guarantee(&IdaStar::new(), heuristic),
            Engine::AStar => Solver::<BitBoard>::guarantee(&AStar::new(), heuristic),
            Engine::Bidirectional => {
                Solver::<BitBoard>::guarantee(&Bidirectional::new(), heuristic)
            }
            Engine::WeightedAStar => {
                Solver::<BitBoard>::guarantee(&WeightedAStar::new(weight)?, heuristic)
            }
            Engine::Constructive => Solver::<BitBoard>::guarantee(&Constructive::new(), heuristic),
            Engine::Greedy => Solver::<BitBoard>::guarantee(&Greedy::new(), heuristic),
            Engine::AStarIdaStar => Solver::<BitBoard>::guarantee(&AStarIdaStar::new(), heuristic),
            Engine::Beam => Solver::<BitBoard>::guarantee(&AnytimeBeam::default(), heuristic),
            Engine::HillClimbing => Solver::<BitBoard>::guarantee(&HillClimbing::new(), heuristic),
        })
    }

    /// The engine's registry entry.
    pub fn info(self) -> &'static EngineInfo {
        const IDASTAR: EngineInfo = EngineInfo {
            name: "idastar",
            aliases: &[],
            crate_name: "npuzzle-idastar",
            summary: "IDA* (Korf 1985): depth-first iterations on f = g + h, no stored states",
            never_optimal: None,
            stopped: StoppedBound::FBound,
            stores_states: false,
        };
        const ASTAR: EngineInfo = EngineInfo {
            name: "astar",
            aliases: &[],
            crate_name: "npuzzle-astar",
            summary: "A* with a binary heap and a visited map; reopens states; memory-bounded",
            never_optimal: None,
            stopped: StoppedBound::FBound,
            stores_states: true,
        };
        const BIDIRECTIONAL: EngineInfo = EngineInfo {
            name: "bidirectional",
            aliases: &[],
            crate_name: "npuzzle-bidirectional",
            summary: "GBFHS (Barley et al. 2018): front-to-end bidirectional heuristic search",
            never_optimal: None,
            stopped: StoppedBound::FBound,
            stores_states: true,
        };
        const WEIGHTED_ASTAR: EngineInfo = EngineInfo {
            name: "weighted-astar",
            aliases: &[],
            crate_name: "npuzzle-nxn",
            summary: "weighted A* on f = g + W*h, no reopening: at most W times the optimum",
            never_optimal: None,
            stopped: StoppedBound::Nothing,
            stores_states: true,
        };
        const CONSTRUCTIVE: EngineInfo = EngineInfo {
            name: "constructive",
            aliases: &["nxn"],
            crate_name: "npuzzle-nxn",
            summary: "places the tiles row by row: any board up to 127x127, far from optimal",
            never_optimal: Some("it places tiles by rule"),
            stopped: StoppedBound::Nothing,
            stores_states: false,
        };
        const GREEDY: EngineInfo = EngineInfo {
            name: "greedy",
            aliases: &[],
            crate_name: "npuzzle-astar",
            summary: "greedy best-first search (f = h): fast, long answers, never optimal",
            never_optimal: Some(
                "greedy best-first search orders states by h alone and ignores the path length",
            ),
            stopped: StoppedBound::Nothing,
            stores_states: true,
        };
        const ASTAR_IDASTAR: EngineInfo = EngineInfo {
            name: "astar-idastar",
            aliases: &[],
            crate_name: "npuzzle-idastar",
            summary: "A*+IDA* (Bu & Korf 2019): A* until the memory limit is nearly full, then IDA* below each open node",
            never_optimal: None,
            stopped: StoppedBound::FBound,
            stores_states: true,
        };
        const BEAM: EngineInfo = EngineInfo {
            name: "beam",
            aliases: &[],
            crate_name: "npuzzle-suboptimal",
            summary: "anytime beam search: the constructive answer, then beams of growing widths until the time limit, shortened; never optimal",
            never_optimal: Some(
                "beam search keeps only the best states of each layer and proves no bound",
            ),
            stopped: StoppedBound::Nothing,
            stores_states: true,
        };
        const HILL_CLIMBING: EngineInfo = EngineInfo {
            name: "hill-climbing",
            aliases: &[],
            crate_name: "npuzzle-suboptimal",
            summary: "hill climbing (the teaching notes): best unvisited neighbour by h, a seeded random move at a dead end; capped; never optimal",
            never_optimal: Some(
                "hill climbing is a local search: it follows h downhill, escapes dead ends by random moves, and proves no bound",
            ),
            stopped: StoppedBound::Nothing,
            stores_states: true,
        };
        match self {
            Engine::HillClimbing => &HILL_CLIMBING,
            Engine::Beam => &BEAM,
            Engine::AStarIdaStar => &ASTAR_IDASTAR,
            Engine::IdaStar => &IDASTAR,
            Engine::AStar => &ASTAR,
            Engine::Bidirectional => &BIDIRECTIONAL,
            Engine::WeightedAStar => &WEIGHTED_ASTAR,
            Engine::Constructive => &CONSTRUCTIVE,
            Engine::Greedy => &GREEDY,
        }
    }
}

/// Something to run with a search's heuristic, whatever its concrete type (a search, or the
/// frontier pieces of distributed IDA\*): [`with_heuristic_task`] builds the heuristic and
/// calls [`HeuristicTask::run`] with it, statically dispatched.
pub(crate) trait HeuristicTask<B: Board> {
    /// What the task returns.
    type Output;
    /// Runs the task with `heuristic`.
    fn run<H: Heuristic<B>>(self, heuristic: &H) -> Result<Self::Output, Error>;
}

/// The fewest cells of a board that [`run`] and the frontier's routing search on
/// board type `B`: 17 for the packed board (16 cells or fewer go to the bitboard), else none.
///
/// The registry's dispatch tests it (and `B::MAX_CELLS`) in inline `const` blocks, so that
/// each board type's instantiation leaves out the heuristics and engines that the routing
/// never gives it: compile time of the facade, not behaviour (BENCHMARKS.md, "CI time").
const fn fewest_cells<B: Board>() -> usize {
    if B::MAX_CELLS == PackedBoard::CELLS {
        BitBoard::MAX_CELLS + 1
    } else {
        0
    }
}

/// The error of a dispatch arm that the routing never reaches for board type `B` (see
/// [`fewest_cells`]): an internal error, since reaching it is a bug of the routing.
fn not_routed(what: &str, layout: &Layout) -> Error {
    Error::Internal(format!(
        "{what} was routed to the wrong board type for {} boards",
        layout.shape()
    ))
}

/// The one place that builds each heuristic for a search: runs `task` with the job's
/// heuristic (one monomorphised task per heuristic × board).
///
/// # Errors
/// As the task's; [`Error::Internal`] when a table-backed heuristic has no tables.
pub(crate) fn with_heuristic_task<B: Board, T: HeuristicTask<B>>(
    job: &Job<'_>,
    layout: &Layout,
    task: T,
) -> Result<T::Output, Error> {
    let goal = job.goal;
    match job.heuristic {
        HeuristicKind::Manhattan => task.run(&Manhattan::new(goal)),
        HeuristicKind::LinearConflict => task.run(&LinearConflict::new(goal)),
        HeuristicKind::Hamming => task.run(&Hamming::new(goal)),
        HeuristicKind::Zero => task.run(&Zero),
        HeuristicKind::MtmManhattan => task.run(&MtmManhattan::new(goal)),
        HeuristicKind::WalkingDistance => {
            // Tables in MTM for the MTM search, else in STM (the engine searches single-tile
            // moves).
            let metric = if job.metric == Metric::Mtm && job.engine.searches_mtm() {
                Metric::Mtm
            } else {
                Metric::Stm
            };
            let wd = WalkingDistance::new(goal, metric).map_err(|e| Error::BadValue {
                setting: crate::Setting::Heuristic,
                value: "walking-distance".to_string(),
                reason: e.to_string(),
            })?;
            // Built first, so that a board it cannot serve gets its own error; the routing
            // gives it no board of more than 16 cells, so no instantiation for those.
            if const { fewest_cells::<B>() > WalkingDistance::MAX_CELLS } {
                return Err(not_routed("walking distance", layout));
            }
            task.run(&wd)
        }
        HeuristicKind::Pdb => match job.tables {
            Some(Db::Plain(db)) => task.run(db),
            Some(Db::TileOnly(db)) => {
                // Tile-only tables serve 33-64 cells: only the Vec board gets them.
                if const { B::MAX_CELLS <= PackedBoard::CELLS } {
                    return Err(not_routed("tile-only pattern databases", layout));
                }
                task.run(db)
            }
            _ => Err(Error::Internal(format!(
                "no pattern database was opened for {} boards",
                layout.shape()
            ))),
        },
        HeuristicKind::Zpdb => match job.tables {
            Some(Db::ZeroAware(db)) => task.run(db),
            _ => Err(Error::Internal(format!(
                "no zero-aware pattern database was opened for {} boards",
                layout.shape()
            ))),
        },
        HeuristicKind::MtmPdb => match job.tables {
            Some(Db::Mtm(db)) => {
                // Multi-tile tables serve at most 16 cells: never the packed board.
                if const { fewest_cells::<B>() > npuzzle_pdb::MTM_MAX_CELLS } {
                    return Err(not_routed("multi-tile pattern databases", layout));
                }
                task.run(db)
            }
            _ => Err(Error::Internal(format!(
                "no multi-tile pattern database was opened for {} boards",
                layout.shape()
            ))),
        },
    }
}

/// [`solve_one`] as a [`HeuristicTask`].
struct SolveTask<'s, 'j, S> {
    solver: &'s mut S,
    job: &'j Job<'j>,
    layout: &'j Layout,
    observer: &'j dyn Observer,
}

impl<B: Board, S: Solver<B>> HeuristicTask<B> for SolveTask<'_, '_, S> {
    type Output = Answer;
    fn run<H: Heuristic<B>>(self, heuristic: &H) -> Result<Answer, Error> {
        solve_one(self.solver, heuristic, self.job, self.layout, self.observer)
    }
}

/// Searches with the job's heuristic: [`solve_one`] through [`with_heuristic_task`].
///
/// # Errors
/// As [`solve_one`]; [`Error::Internal`] when a table-backed heuristic has no tables.
pub(crate) fn with_heuristic<B: Board, S: Solver<B>>(
    solver: &mut S,
    job: &Job<'_>,
    layout: &Layout,
    observer: &dyn Observer,
) -> Result<Answer, Error> {
    with_heuristic_task::<B, _>(
        job,
        layout,
        SolveTask {
            solver,
            job,
            layout,
            observer,
        },
    )
}

/// The one place that builds each engine for a search on board type `B`.
///
/// # Errors
/// As [`with_heuristic`]; a weight out of range.
pub(crate) fn with_engine<B: Board>(
    job: &Job<'_>,
    layout: &Layout,
    observer: &dyn Observer,
) -> Result<Answer, Error> {
    match job.engine {
        // The multi-tile metric: IDA* over MTM moves (`npuzzle_idastar::mtm`), the heuristic
        // admissible in MTM (checked when the solver was built).
        Engine::IdaStar if job.metric == Metric::Mtm => {
            // Its parallel iterations may return another optimal path from run to run: on one
            // thread when the same moves are asked for.
            let threads = if job.deterministic { 1 } else { job.threads };
            let mut engine = MtmIdaStar::new().threads(threads);
            with_heuristic::<B, _>(&mut engine, job, layout, observer)
        }
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
            // `run` gives the constructive solver the Vec board whatever the size.
            if const { B::MAX_CELLS <= PackedBoard::CELLS } {
                return Err(not_routed("the constructive solver", layout));
            }
            with_heuristic::<B, _>(&mut Constructive::new(), job, layout, observer)
        }
        Engine::Greedy => with_heuristic::<B, _>(&mut Greedy::new(), job, layout, observer),
        Engine::Beam => {
            let threads = npuzzle_core::Threads::resolve(job.threads);
            with_heuristic::<B, _>(&mut AnytimeBeam::new(threads), job, layout, observer)
        }
        Engine::HillClimbing => {
            let mut engine = HillClimbing::new()
                .seed(job.seed.unwrap_or(HillClimbing::DEFAULT_SEED))
                .max_steps(job.max_steps.unwrap_or(HillClimbing::DEFAULT_MAX_STEPS));
            with_heuristic::<B, _>(&mut engine, job, layout, observer)
        }
        Engine::AStarIdaStar => {
            let mut engine = AStarIdaStar::new()
                .threads(job.threads)
                .duplicate_pruning(job.cycle_check == CycleCheck::Fsm);
            with_heuristic::<B, _>(&mut engine, job, layout, observer)
        }
    }
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
    let answer = job.unsolved(layout);
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
