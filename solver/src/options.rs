//! What can be asked for: the engines, the heuristics, and [`Config`], the builder that holds
//! every option of `npuzzle solve` and validates them together.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use npuzzle_core::{GoalKind, Layout, Metric, PartialKind, parse_partial};
use npuzzle_core::{HeuristicProperties, Limits, Progress, Shape, parse_board};
use npuzzle_idastar::CycleCheck;
use npuzzle_pdb::{BuildProgress, PartitionSpec};

use crate::Error;
use crate::databases::Tables;

/// A concrete engine. [`Engine::name`] equals the engine's own `Solver::name()`, the CLI's
/// `--engine` value and the bench IDs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Engine {
    /// `npuzzle_idastar::IdaStar`: iterative deepening A\* (Korf 1985), no stored states.
    IdaStar,
    /// `npuzzle_astar::AStar`: A\* with a memory-bounded visited store.
    AStar,
    /// `npuzzle_bidirectional::Bidirectional`: GBFHS (Barley et al. 2018).
    Bidirectional,
    /// `npuzzle_nxn::WeightedAStar`: f = g + W·h, no reopening.
    WeightedAStar,
    /// `npuzzle_nxn::Constructive`: places tiles by rule, any board up to 127×127.
    Constructive,
    /// `npuzzle_astar::Greedy`: greedy best-first search (f = h, visited set, never reopens),
    /// memory-bounded like A\*; never proven optimal.
    Greedy,
    /// `npuzzle_idastar::AStarIdaStar`: A\* until a memory budget is full, then IDA\* below its
    /// open list (Bu & Korf 2019).
    AStarIdaStar,
    /// `npuzzle_suboptimal::AnytimeBeam`: the constructive answer, then beam searches of growing
    /// widths within the time limit, shortened; never proven optimal (auto's anytime answers).
    Beam,
    /// `npuzzle_suboptimal::HillClimbing`: the teaching notes' hill climbing (best unvisited
    /// neighbour by h, a seeded random move at a dead end, capped steps and visited record);
    /// never proven optimal.
    HillClimbing,
}

impl Engine {
    /// The engine's name, as in `--engine` and the engine's `Solver::name()` (from the
    /// registry, [`Engine::info`]).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The engine named `name` or one of its aliases (`nxn` is an alias of `constructive`).
    pub fn from_name(name: &str) -> Option<Engine> {
        Engine::ALL.into_iter().find(|e| {
            let info = e.info();
            info.name == name || info.aliases.contains(&name)
        })
    }

    /// Whether the f-bound this engine reached when a limit or a cancel stopped it is a lower
    /// bound on the optimal length (from the registry, [`crate::registry::StoppedBound`]).
    pub fn proves_bound_when_stopped(self) -> bool {
        self.info().stopped == crate::registry::StoppedBound::FBound
    }
}

/// A concrete heuristic. [`HeuristicKind::name`] equals the heuristic's own `Heuristic::name()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum HeuristicKind {
    /// `npuzzle_core::Manhattan`: sum of the tiles' Manhattan distances.
    Manhattan,
    /// `npuzzle_core::LinearConflict`: Manhattan distance plus linear conflicts (Hansson et al.
    /// 1992).
    LinearConflict,
    /// `npuzzle_core::Hamming`: misplaced tiles.
    Hamming,
    /// `npuzzle_core::Zero`: h = 0 (brute force).
    Zero,
    /// `npuzzle_pdb::PatternDb`: additive disjoint pattern databases (Korf & Felner 2002).
    Pdb,
    /// `npuzzle_pdb::ZeroAwareDb`: zero-aware additive pattern databases, the blank's region
    /// in the index (Clausecker & Reinefeld 2019); same partitions as `Pdb`, consistent.
    Zpdb,
    /// `npuzzle_core::MtmManhattan`: Manhattan distance split by direction, each part divided
    /// by the most tiles one move slides; admissible and consistent in the multi-tile metric
    /// (and in STM); the default under [`Metric::Mtm`] on the boards walking distance does not
    /// serve.
    MtmManhattan,
    /// `npuzzle_core::WalkingDistance`: Takahashi's walking distance, tables of row and column
    /// occupancy built by breadth-first search in the search's metric (MTM for the MTM
    /// search, else STM); admissible and consistent in both; the default under
    /// [`Metric::Mtm`] on the boards it serves (at most 16 cells, sides at most 6).
    WalkingDistance,
    /// `npuzzle_pdb::MtmDb`: pattern databases in the multi-tile metric (blank-aware
    /// abstractions, tiles told apart by goal row, maxed over groups and the reflected board);
    /// admissible and consistent in MTM (and in STM); the default under [`Metric::Mtm`] on
    /// boards of at most 16 cells (walking distance where no tables are cached and a time
    /// limit is set).
    MtmPdb,
}

impl HeuristicKind {
    /// The heuristic's name, as in `--heuristic` (from the registry, [`HeuristicKind::info`]).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The heuristic named `name`.
    pub fn from_name(name: &str) -> Option<HeuristicKind> {
        HeuristicKind::ALL.into_iter().find(|h| h.name() == name)
    }

    /// The heuristic's declared properties (from the registry, [`HeuristicKind::info`]; no
    /// default), the same values its `Heuristic::properties()` returns (a test checks that).
    pub fn properties(self) -> HeuristicProperties {
        self.info().properties
    }
}

/// Which engine to run: one engine, or the auto policy (see the crate docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EngineChoice {
    /// The auto policy.
    #[default]
    Auto,
    /// This engine on every board.
    Engine(Engine),
}

impl EngineChoice {
    /// What auto does, in one line (for help texts).
    pub const AUTO_SUMMARY: &'static str = "let the library choose: IDA* with pattern databases when it can prove the optimum, else an anytime answer (constructive solver, then beam search)";

    /// `auto` or the engine's name.
    pub fn name(self) -> &'static str {
        match self {
            EngineChoice::Auto => "auto",
            EngineChoice::Engine(e) => e.name(),
        }
    }

    /// The choice named `name`: `auto`, an engine's name or one of its aliases.
    pub fn from_name(name: &str) -> Option<EngineChoice> {
        if name == "auto" {
            Some(EngineChoice::Auto)
        } else {
            Engine::from_name(name).map(EngineChoice::Engine)
        }
    }
}

/// Receives what a facade call is doing, for progress displays: search progress, pattern
/// database builds, and the auto policy's decisions. Every method has an empty default.
/// Called from the searching thread (pattern-database build progress may come from any thread).
pub trait Observer: Send + Sync {
    /// A search by `engine` starts.
    fn search_started(&self, engine: Engine) {
        let _ = engine;
    }
    /// The running search's progress (every 2^16–2^20 nodes and once per IDA\* iteration).
    fn search_progress(&self, engine: Engine, progress: &Progress) {
        let _ = (engine, progress);
    }
    /// The search started last ended (answer, error or limit).
    fn search_finished(&self, engine: Engine) {
        let _ = engine;
    }
    /// Opening pattern databases for `shape` reported an event (loaded, building, built,
    /// rejected, upgraded).
    fn pdb_event(&self, shape: Shape, goal: &npuzzle_core::Goal, event: &npuzzle_pdb::Event<'_>) {
        let _ = (shape, goal, event);
    }
    /// A table build's progress.
    fn pdb_progress(&self, progress: &BuildProgress) {
        let _ = progress;
    }
    /// The pattern databases for `shape` took `seconds` to open (only reported above 1 s).
    fn pdb_ready(&self, shape: Shape, description: &str, seconds: f64) {
        let _ = (shape, description, seconds);
    }
    /// A decision of the auto policy worth telling a person (a fallback, a missing table); the
    /// same text is kept in [`crate::Answer::notes`].
    fn note(&self, text: &str) {
        let _ = text;
    }
}

/// An observer that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Observer for Quiet {}

/// Every option of a solve, as a builder. `Config::default()` is what `npuzzle solve` does with
/// no options: goal blank-last, the auto policy, pattern databases where they pay.
///
/// ```
/// use npuzzle::{Config, Engine, HeuristicKind};
/// let solver = Config::new()
///     .goal("blank-first")?
///     .engine(Engine::IdaStar)
///     .heuristic(HeuristicKind::Manhattan)
///     .max_nodes(10_000_000)
///     .build()?;
/// let answer = solver.solve_str("1 2 0 3 4 5 6 7 8")?;   // blank-first goal: 0 1 2 / 3 4 5 / 6 7 8
/// assert_eq!(answer.len(), 2);
/// assert!(answer.is_optimal());
/// # Ok::<(), npuzzle::Error>(())
/// ```
#[derive(Clone)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent yes/no options of a builder, as on the command line"
)]
pub struct Config {
    pub(crate) goal: GoalKind,
    /// A partial goal (cells that do not matter), instead of `goal`.
    pub(crate) partial: Option<PartialKind>,
    pub(crate) size: Option<Shape>,
    pub(crate) engine: EngineChoice,
    pub(crate) heuristic: Option<HeuristicKind>,
    pub(crate) pdb: Option<PartitionSpec>,
    pub(crate) pdb_dir: Option<PathBuf>,
    pub(crate) reflect: bool,
    pub(crate) cycle_check: CycleCheck,
    pub(crate) path_check_asked: bool,
    /// A cycle check was set explicitly (auto then keeps it, even `Parent`).
    pub(crate) cycle_check_asked: bool,
    pub(crate) optimal: bool,
    pub(crate) weight: Option<f64>,
    pub(crate) check_printable: bool,
    /// The metric moves are counted in (and optimal in).
    pub(crate) metric: Metric,
    /// The default settings of each search (see [`SearchSettings`]).
    pub(crate) settings: SearchSettings,
    /// The opened tables to share, if given.
    pub(crate) tables: Option<Tables>,
}

/// The settings of **one search**, passed to each call ([`crate::Npuzzle::solve_with`]), as
/// regex-automata passes an `Input` per search: limits (generated nodes, wall time, memory of
/// stored states, the cancel flag), the observer, the anytime budget and IDA\*'s threads.
/// Everything built once — the engine and heuristic choice, the goal, the pattern databases —
/// stays in [`crate::Npuzzle`], so one long-lived solver serves searches with any settings.
///
/// [`crate::Npuzzle::settings`] gives the solver's defaults (those set on [`Config`]) to start
/// from:
/// ```
/// use std::time::Duration;
/// let solver = npuzzle::Config::new().build()?;              // built once
/// let quick = solver.settings().timeout(Duration::from_secs(5)).max_nodes(1_000_000);
/// let answer = solver.solve_str_with("8 6 7 2 5 4 3 0 1", &quick)?;
/// assert_eq!(answer.len(), 31);
/// # Ok::<(), npuzzle::Error>(())
/// ```
#[derive(Clone)]
pub struct SearchSettings {
    pub(crate) limits: Limits,
    /// IDA\*'s depth limit ([`SearchSettings::max_depth`]).
    pub(crate) max_depth: Option<u32>,
    /// Hill climbing's seed and step cap ([`SearchSettings::seed`], [`SearchSettings::max_steps`]).
    pub(crate) seed: Option<u64>,
    pub(crate) max_steps: Option<u64>,
    pub(crate) observer: Arc<dyn Observer>,
    pub(crate) anytime: Duration,
    pub(crate) threads: usize,
    pub(crate) deterministic: bool,
}

impl Default for SearchSettings {
    fn default() -> SearchSettings {
        SearchSettings {
            limits: Limits::default(),
            max_depth: None,
            seed: None,
            max_steps: None,
            observer: Arc::new(Quiet),
            anytime: DEFAULT_ANYTIME,
            threads: 0,
            deterministic: false,
        }
    }
}

impl std::fmt::Debug for SearchSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchSettings")
            .field("limits", &self.limits)
            .field("max_depth", &self.max_depth)
            .field("seed", &self.seed)
            .field("max_steps", &self.max_steps)
            .field("anytime", &self.anytime)
            .field("threads", &self.threads)
            .field("deterministic", &self.deterministic)
            .finish_non_exhaustive()
    }
}

impl SearchSettings {
    /// No limits, no observer, the default anytime budget, one IDA\* thread per core.
    pub fn new() -> SearchSettings {
        SearchSettings::default()
    }

    /// Stop the search after generating this many nodes.
    #[must_use]
    pub fn max_nodes(mut self, n: u64) -> SearchSettings {
        self.limits.max_nodes = Some(n);
        self
    }

    /// Stop the search after this much wall-clock time.
    #[must_use]
    pub fn timeout(mut self, t: Duration) -> SearchSettings {
        self.limits.timeout = Some(t);
        self
    }

    /// Stop A\*, bidirectional search, weighted A\* and greedy search when their stored states
    /// would take more than this many bytes.
    #[must_use]
    pub fn memory_limit(mut self, bytes: u64) -> SearchSettings {
        self.limits.memory_bytes = Some(bytes);
        self
    }

    /// Stop the search when this flag becomes true (set it from another thread).
    #[must_use]
    pub fn cancel(mut self, flag: Arc<AtomicBool>) -> SearchSettings {
        self.limits.cancel = Some(flag);
        self
    }

    /// All limits at once.
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> SearchSettings {
        self.limits = limits;
        self
    }

    /// Where progress and the auto policy's decisions go.
    #[must_use]
    pub fn observer(mut self, observer: Arc<dyn Observer>) -> SearchSettings {
        self.observer = observer;
        self
    }

    /// The auto policy's time budget for anytime answers [default: [`DEFAULT_ANYTIME`]].
    #[must_use]
    pub fn anytime_budget(mut self, t: Duration) -> SearchSettings {
        self.anytime = t;
        self
    }

    /// IDA\*'s threads: `0` one per available core, `1` the sequential engine, `n` a pool of
    /// `n` workers (see `npuzzle_idastar::IdaStar::threads`).
    #[must_use]
    pub fn threads(mut self, n: usize) -> SearchSettings {
        self.threads = n;
        self
    }

    /// With threads: the same moves on every run and for any thread count.
    #[must_use]
    pub fn deterministic(mut self, on: bool) -> SearchSettings {
        self.deterministic = on;
        self
    }

    /// The limits.
    pub fn limits_ref(&self) -> &Limits {
        &self.limits
    }

    /// A depth limit for the depth-first engines, in moves (the idastar engine, and auto,
    /// which then always runs IDA\*; [`crate::Npuzzle::all_optimal`] too): a search whose next
    /// IDA\* threshold exceeds `depth` stops with a [`crate::Limit::Depth`] error whose
    /// progress bound is the proven lower bound on the optimum (no solution of at most
    /// `depth` moves exists). Other engines refuse it ([`crate::Error::NotApplicable`]).
    #[must_use]
    pub fn max_depth(mut self, depth: u32) -> SearchSettings {
        self.max_depth = Some(depth);
        self
    }

    /// The seed of hill climbing's random moves [default:
    /// `npuzzle_suboptimal::HillClimbing::DEFAULT_SEED`]; the hill-climbing engine only.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> SearchSettings {
        self.seed = Some(seed);
        self
    }

    /// Hill climbing's cap on steps (moves made) [default:
    /// `npuzzle_suboptimal::HillClimbing::DEFAULT_MAX_STEPS`, 1,000,000]; at least 1; the
    /// hill-climbing engine only. Its visited record is capped by the memory limit.
    #[must_use]
    pub fn max_steps(mut self, steps: u64) -> SearchSettings {
        self.max_steps = Some(steps);
        self
    }

    /// The depth limit, if any.
    pub fn max_depth_ref(&self) -> Option<u32> {
        self.max_depth
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("goal", &self.goal)
            .field("partial", &self.partial)
            .field("size", &self.size)
            .field("engine", &self.engine)
            .field("heuristic", &self.heuristic)
            .field("pdb", &self.pdb)
            .field("pdb_dir", &self.pdb_dir)
            .field("reflect", &self.reflect)
            .field("cycle_check", &self.cycle_check)
            .field("optimal", &self.optimal)
            .field("weight", &self.weight)
            .field("metric", &self.metric)
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            goal: GoalKind::BlankLast,
            partial: None,
            size: None,
            engine: EngineChoice::Auto,
            heuristic: None,
            pdb: None,
            pdb_dir: None,
            reflect: true,
            cycle_check: CycleCheck::Parent,
            path_check_asked: false,
            cycle_check_asked: false,
            optimal: false,
            weight: None,
            check_printable: false,
            metric: Metric::Stm,
            settings: SearchSettings::default(),
            tables: None,
        }
    }
}

/// The most threads [`Config::threads`] accepts: [`npuzzle_core::Threads::MAX`], 1,024.
pub const MAX_THREADS: usize = npuzzle_core::Threads::MAX;

/// The default time budget of the auto policy's anytime answers on boards beyond optimal
/// search (see the crate docs): 1 second.
pub const DEFAULT_ANYTIME: Duration = Duration::from_secs(1);

impl Config {
    /// The defaults (see [`Config`]).
    pub fn new() -> Config {
        Config::default()
    }

    /// The goal: `blank-last` (default), `blank-first` (Korf's convention) or a goal board in
    /// any format [`npuzzle_core::parse_board`] reads (its shape from the text, or from
    /// [`Config::size`] if that was set first); or a **partial goal**
    /// ([`npuzzle_core::partial`]): a goal board whose cells that do not matter are written
    /// `x` (or `?`, `*`, `_`), the blank fixed when `0` is written, else anywhere those cells
    /// are — or `first-row`, `first-rows:K`, `fringe`. A partial goal is solved by IDA\* only
    /// (auto runs it), with in-memory pattern databases over the tiles that matter, optimal in
    /// the configured metric (module docs of `npuzzle_core::partial` and
    /// [`npuzzle_pdb::PartialDb`]); [`crate::Answer::partial`] holds it and
    /// [`crate::Answer::goal`] the board the solution reaches.
    ///
    /// ```
    /// let solver = npuzzle::Config::new().goal("1 2 3 x x x x x x")?.build()?;
    /// let answer = solver.solve_str("1 2 0 4 5 3 6 7 8")?;
    /// assert_eq!(answer.moves(), "U");             // 3 slides up: the first row is done
    /// assert!(answer.is_optimal());
    /// assert_eq!(answer.partial.as_ref().map(|g| g.board_text()), Some("123xxxxxx".into()));
    /// # Ok::<(), npuzzle::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::BadValue`] naming the text when it is neither keyword nor a valid board or
    /// partial goal (the reason says what is wrong: a tile twice, no cell specified, ...).
    pub fn goal(mut self, goal: &str) -> Result<Config, Error> {
        let partial = parse_partial(goal, self.size).map_err(|e| Error::BadValue {
            setting: crate::Setting::Goal,
            value: goal.to_string(),
            reason: e.to_string(),
        })?;
        if partial.is_none() {
            self.goal = parse_goal(goal, self.size)?;
        }
        self.partial = partial;
        Ok(self)
    }

    /// The goal, already parsed.
    #[must_use]
    pub fn goal_kind(mut self, goal: GoalKind) -> Config {
        self.goal = goal;
        self.partial = None;
        self
    }

    /// A partial goal, already parsed ([`npuzzle_core::parse_partial`]; see [`Config::goal`]).
    #[must_use]
    pub fn partial_goal(mut self, goal: PartialKind) -> Config {
        self.partial = Some(goal);
        self
    }

    /// The board shape for texts that do not give it (a non-square board on one line).
    #[must_use]
    pub fn size(mut self, shape: Shape) -> Config {
        self.size = Some(shape);
        self
    }

    /// Run this engine on every board instead of the auto policy.
    #[must_use]
    pub fn engine(mut self, engine: Engine) -> Config {
        self.engine = EngineChoice::Engine(engine);
        self
    }

    /// The engine choice, auto included.
    #[must_use]
    pub fn engine_choice(mut self, engine: EngineChoice) -> Config {
        self.engine = engine;
        self
    }

    /// The heuristic [default: pattern databases under auto on boards they are built for,
    /// else linear conflict].
    #[must_use]
    pub fn heuristic(mut self, heuristic: HeuristicKind) -> Config {
        self.heuristic = Some(heuristic);
        self
    }

    /// The pattern-database partition (`663`, `555`, `78`, `default`, or groups `1,2,3/4,5,6`);
    /// implies the pdb heuristic.
    ///
    /// # Errors
    /// [`Error::BadValue`] for an unknown name or malformed groups.
    pub fn pdb(mut self, partition: &str) -> Result<Config, Error> {
        self.pdb = Some(
            partition
                .parse()
                .map_err(|e: npuzzle_pdb::PdbError| Error::BadValue {
                    setting: crate::Setting::Pdb,
                    value: partition.to_string(),
                    reason: e.to_string(),
                })?,
        );
        Ok(self)
    }

    /// The pattern-database cache directory [default: `$NPUZZLE_PDB_DIR`, else the platform
    /// cache directory].
    #[must_use]
    pub fn pdb_dir(mut self, dir: impl Into<PathBuf>) -> Config {
        self.pdb_dir = Some(dir.into());
        self
    }

    /// Whether the pattern databases use the reflected lookup [default: true].
    #[must_use]
    pub fn reflect(mut self, reflect: bool) -> Config {
        self.reflect = reflect;
        self
    }

    /// The default settings of each search at once (a search may pass others:
    /// [`crate::Npuzzle::solve_with`]).
    #[must_use]
    pub fn settings(mut self, settings: SearchSettings) -> Config {
        self.settings = settings;
        self
    }

    /// Share these opened tables (pattern databases) with other solvers: a solver built from
    /// this configuration opens a table only if no solver sharing `tables` has opened it
    /// (same partition, cache directory, reflection, goal and shape) [default: its own].
    #[must_use]
    pub fn tables(mut self, tables: Tables) -> Config {
        self.tables = Some(tables);
        self
    }

    /// IDA\*'s cycle check [default: parent]; `Path` and `Fsm` (duplicate pruning with an
    /// automaton, Taylor & Korf 1993) only with the IDA\* engine.
    #[must_use]
    pub fn cycle_check(mut self, check: CycleCheck) -> Config {
        self.cycle_check = check;
        self.path_check_asked = check != CycleCheck::Parent;
        self.cycle_check_asked = true;
        self
    }

    /// The metric moves are counted in: [`Metric::Stm`] (the default: every tile slid one cell
    /// is a move) or [`Metric::Mtm`] (the multi-tile metric: 1..k tiles of the blank's row or
    /// column slid at once are one move). Under MTM, the idastar engine (and auto, which then
    /// always runs it) searches MTM moves with an MTM-admissible heuristic (default
    /// `walking-distance` built in MTM on the boards it serves, else `mtm-manhattan`; a
    /// heuristic not admissible in MTM is refused) and proves its answers
    /// optimal **in MTM**; every other engine searches as in STM and its answer, counted in
    /// MTM, is not proven optimal (with `optimal(true)` they are refused:
    /// [`crate::Error::MetricNotProven`]). [`crate::Answer::length`] counts in the metric.
    #[must_use]
    pub fn metric(mut self, metric: Metric) -> Config {
        self.metric = metric;
        self
    }

    /// Accept only proven-optimal answers: combinations that do not prove optimality are
    /// refused by [`Config::build`], and auto never falls back to a non-optimal answer.
    #[must_use]
    pub fn optimal(mut self, optimal: bool) -> Config {
        self.optimal = optimal;
        self
    }

    /// Weighted A\*'s weight W ≥ 1; selects weighted A\* under auto.
    #[must_use]
    pub fn weight(mut self, w: f64) -> Config {
        self.weight = Some(w);
        self
    }

    /// Refuse solutions whose board sequence would be too long to print (`--format boards`):
    /// more than 100,000,000 cells in all.
    #[must_use]
    pub fn check_printable(mut self, on: bool) -> Config {
        self.check_printable = on;
        self
    }

    /// The limits set so far.
    pub fn limits_ref(&self) -> &Limits {
        &self.settings.limits
    }

    /// Validates the options together into a [`crate::Npuzzle`] ready to solve boards.
    ///
    /// # Errors
    /// [`Error::BadValue`]: more than [`MAX_THREADS`] threads; [`Error::NotApplicable`]: a partition or no reflection with another heuristic, a path
    /// cycle check with an engine other than IDA\*, a weight with an engine other than weighted
    /// A\*; [`Error::NotOptimal`]: `optimal` with an engine × heuristic that does not prove
    /// optimality (the message says why); [`Error::Weight`] for a weight outside `1..=1000`.
    pub fn build(self) -> Result<crate::Npuzzle, Error> {
        crate::Npuzzle::new(self)
    }
}

/// The setters of [`Config`]'s default [`SearchSettings`]: each sets that default through the
/// [`SearchSettings`] setter of the same name (documented there), so that the settings are
/// defined once, in [`SearchSettings`], and `Config` only holds their default value.
macro_rules! default_search_settings {
    ($($(#[$doc:meta])* $name:ident($arg:ident: $ty:ty);)*) => {
        impl Config {
            $(
                $(#[$doc])*
                #[must_use]
                pub fn $name(mut self, $arg: $ty) -> Config {
                    self.settings = self.settings.$name($arg);
                    self
                }
            )*
        }
    };
}

default_search_settings! {
    /// The depth limit of each search ([`SearchSettings::max_depth`]).
    max_depth(depth: u32);
    /// Hill climbing's seed ([`SearchSettings::seed`]).
    seed(seed: u64);
    /// Hill climbing's cap on steps ([`SearchSettings::max_steps`]).
    max_steps(steps: u64);
    /// Stop each search after generating this many nodes.
    max_nodes(n: u64);
    /// Stop each search after this much wall-clock time.
    timeout(t: Duration);
    /// Stop A\*, bidirectional search, weighted A\* and greedy search when their stored states
    /// would take more than this many bytes.
    memory_limit(bytes: u64);
    /// Stop every search when this flag becomes true (set it from another thread).
    cancel(flag: Arc<AtomicBool>);
    /// All limits at once.
    limits(limits: Limits);
    /// The auto policy's time budget for anytime answers on boards beyond optimal search
    /// [default: [`DEFAULT_ANYTIME`]].
    anytime_budget(t: Duration);
    /// IDA\*'s threads: `0` (the default) one per available core, `1` the sequential engine
    /// (same node counts as ever), `n` a pool of `n` workers (parallel IDA\*, see
    /// `npuzzle_idastar::IdaStar::threads`), at most [`MAX_THREADS`] ([`Config::build`] refuses
    /// more). Small searches stay on the calling thread.
    threads(n: usize);
    /// With threads: return the same moves on every run and for any thread count (the
    /// sequential engine's first solution in child order), at a small cost in the last
    /// iteration. Without threads IDA\* is always deterministic.
    deterministic(on: bool);
    /// Where progress and the auto policy's decisions go (default: nowhere).
    observer(observer: Arc<dyn Observer>);
}

/// Parses a goal: `blank-last`, `blank-first`, or a board (any format `parse_board` reads).
/// A partial goal is not a goal board: only [`Config::goal`] takes it.
///
/// # Errors
/// [`Error::BadValue`] when the text is neither keyword nor a valid board, or is a partial goal;
/// the message names the text and the board error.
pub fn parse_goal(text: &str, size: Option<Shape>) -> Result<GoalKind, Error> {
    if let Ok(Some(_)) = parse_partial(text, size) {
        return Err(Error::BadValue {
            setting: crate::Setting::Goal,
            value: text.to_string(),
            reason: "a partial goal (cells that do not matter) is taken by solve and check only; give a full goal board".into(),
        });
    }
    match text.trim() {
        "blank-last" => Ok(GoalKind::BlankLast),
        "blank-first" => Ok(GoalKind::BlankFirst),
        board => {
            let layout: Layout = parse_board(board, size).map_err(|e| Error::BadValue {
                setting: crate::Setting::Goal,
                value: text.to_string(),
                reason: format!("expected blank-last, blank-first or a board: {e}"),
            })?;
            Ok(GoalKind::Custom(layout))
        }
    }
}
