//! The facade's one error type, in the library's words: settings are named as
//! [`crate::Config`] names them ([`Setting`]); the CLI, the web server and Python map them to
//! their own flags, fields and keywords with [`Error::describe`].

use npuzzle_core::{BoardError, GoalShapeError, Guarantee, ParseError, SearchError};
use npuzzle_nxn::WeightError;
use npuzzle_pdb::PdbError;

use crate::{Engine, HeuristicKind};

/// A setting of [`crate::Config`], named in errors. [`Setting::name`] is the library's word
/// (the builder method, with the value that matters); front ends print their own word for it
/// through [`Error::describe`] (the CLI: `--weight`, `--no-reflect`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Setting {
    /// [`crate::Config::goal`].
    Goal,
    /// [`crate::Config::engine`].
    Engine,
    /// [`crate::Config::heuristic`].
    Heuristic,
    /// [`crate::Config::pdb`]: the partition.
    Pdb,
    /// [`crate::Config::reflect`] set to false.
    NoReflect,
    /// [`crate::Config::cycle_check`] set to `CycleCheck::Path`.
    PathCycleCheck,
    /// [`crate::Config::cycle_check`] set to `CycleCheck::Fsm`.
    FsmCycleCheck,
    /// [`crate::Config::optimal`].
    Optimal,
    /// [`crate::Config::weight`].
    Weight,
    /// [`crate::Config::check_printable`]: answers printed as boards.
    CheckPrintable,
    /// [`crate::Config::threads`] (or [`crate::SearchSettings::threads`]).
    Threads,
    /// [`crate::Config::metric`]: the multi-tile metric.
    Metric,
    /// The moves of a solution to check ([`crate::check::check_solution`]).
    Moves,
    /// Listing or counting every optimal solution ([`crate::Npuzzle::all_optimal`]).
    AllOptimal,
    /// How many optimal solutions to list (the `limit` of [`crate::Npuzzle::all_optimal`]).
    Limit,
    /// The depth limit of the depth-first engines ([`crate::SearchSettings::max_depth`]).
    MaxDepth,
    /// Hill climbing's random seed ([`crate::SearchSettings::seed`]).
    Seed,
    /// Hill climbing's cap on steps ([`crate::SearchSettings::max_steps`]).
    MaxSteps,
    /// [`crate::Config::goal`] given a partial goal (cells that do not matter).
    PartialGoal,
}

impl Setting {
    /// The library's word for the setting: `goal`, `engine`, `heuristic`, `pdb`,
    /// `reflect(false)`, `cycle_check(Path)`, `optimal`, `weight`, `check_printable`.
    pub fn name(self) -> &'static str {
        match self {
            Setting::Goal => "goal",
            Setting::Engine => "engine",
            Setting::Heuristic => "heuristic",
            Setting::Pdb => "pdb",
            Setting::NoReflect => "reflect(false)",
            Setting::PathCycleCheck => "cycle_check(Path)",
            Setting::FsmCycleCheck => "cycle_check(Fsm)",
            Setting::Optimal => "optimal",
            Setting::Weight => "weight",
            Setting::CheckPrintable => "check_printable",
            Setting::Threads => "threads",
            Setting::Metric => "metric",
            Setting::Moves => "moves",
            Setting::AllOptimal => "all_optimal",
            Setting::Limit => "limit",
            Setting::MaxDepth => "max_depth",
            Setting::Seed => "seed",
            Setting::MaxSteps => "max_steps",
            Setting::PartialGoal => "a partial goal",
        }
    }
}

impl std::fmt::Display for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why [`crate::solve`] (or any facade call) gave no answer. An unsolvable board is **not** an
/// error: it is a proven [`crate::Answer`] (see [`crate::Answer::is_solvable`]).
///
/// The `Display` text names settings in the library's words ([`Setting::name`]);
/// [`Error::describe`] gives the same text in a front end's words.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The board (or goal) text could not be read; the message names the offending data.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A setting's value could not be read (a goal that is neither keyword nor board, a
    /// malformed partition).
    #[error("{}", self.describe(&|s| s.name().to_string()))]
    BadValue {
        /// The setting.
        setting: Setting,
        /// The value given.
        value: String,
        /// Why it was refused.
        reason: String,
    },
    /// A count beyond the bound every front end shares (a random walk's moves, the boards of
    /// one `generate` call: [`crate::generate::check`]).
    #[error("{what} {value}: at most {max} {unit}")]
    OutOfRange {
        /// What was counted (`walk`, `count`).
        what: &'static str,
        /// The value asked for.
        value: u64,
        /// The bound.
        max: u64,
        /// The unit of both (`moves`).
        unit: &'static str,
    },
    /// A setting given with an engine or heuristic it does not apply to (a weight with IDA\*,
    /// a partition with Manhattan distance, ...).
    #[error("{}", self.describe(&|s| s.name().to_string()))]
    NotApplicable {
        /// The setting.
        setting: Setting,
        /// What it applies to (`the weighted-astar engine`).
        applies_to: &'static str,
        /// The engine or heuristic chosen instead.
        chosen: &'static str,
    },
    /// `optimal` with the multi-tile metric and an engine that searches in single-tile moves,
    /// so proves nothing about the MTM optimum (only IDA\* searches in MTM).
    #[error("{}", self.describe(&|s| s.name().to_string()))]
    MetricNotProven {
        /// The engine.
        engine: Engine,
    },
    /// `optimal` with an engine × heuristic (× weight) that does not prove optimality.
    #[error("{}", self.describe(&|s| s.name().to_string()))]
    NotOptimal {
        /// The engine.
        engine: Engine,
        /// The heuristic.
        heuristic: HeuristicKind,
        /// Weighted A\*'s weight.
        weight: f64,
        /// What the combination does prove.
        guarantee: Guarantee,
    },
    /// Weighted A*'s weight is out of range.
    #[error(transparent)]
    Weight(#[from] WeightError),
    /// The goal does not have the board's shape.
    #[error(transparent)]
    Goal(#[from] GoalShapeError),
    /// The board does not fit the board type the engine runs on.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A limit (nodes, time, memory, cancellation) stopped the search; the error says which and
    /// how far the search got. Never means "no solution".
    #[error(transparent)]
    Search(#[from] SearchError),
    /// Opening or building the pattern databases failed.
    #[error("pattern database {what}: {source}")]
    Pdb {
        /// Which databases (`6-6-3 for 4x4 blank-last`).
        what: String,
        /// Why.
        #[source]
        source: PdbError,
    },
    /// A solution too long to print as boards ([`crate::Config::check_printable`]).
    #[error("{}", self.describe(&|s| s.name().to_string()))]
    TooManyBoards {
        /// Moves in the solution.
        moves: usize,
        /// The board's shape.
        shape: npuzzle_core::Shape,
    },
    /// A frontier of distributed IDA\* that cannot be built or searched (an unsolvable board,
    /// a node path not in the tree: [`crate::frontier`]).
    #[error(transparent)]
    Frontier(npuzzle_idastar::FrontierError),
    /// An engine returned moves that fail the independent replay check, or called a board
    /// unsolvable that parity says is solvable: a bug, reported rather than printed as an
    /// answer.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// The error's text with each [`Setting`] named by `word` (the CLI passes its flags:
    /// `--weight`, `--no-reflect`; the web server its JSON fields). The `Display` text is
    /// `describe` with [`Setting::name`]. Variants that name no setting print as `Display`.
    pub fn describe(&self, word: &dyn Fn(Setting) -> String) -> String {
        match self {
            Error::BadValue {
                setting,
                value,
                reason,
            } => format!("bad {} {value:?}: {reason}", word(*setting)),
            Error::NotApplicable {
                setting,
                applies_to,
                chosen,
            } => format!(
                "{} applies to {applies_to} only, not to {chosen}",
                word(*setting)
            ),
            Error::MetricNotProven { engine } => format!(
                "{} mtm with {}: the {} engine searches in single-tile moves and cannot prove an answer optimal in the multi-tile metric; use the idastar engine (or auto)",
                word(Setting::Metric),
                word(Setting::Optimal),
                engine.name()
            ),
            Error::NotOptimal {
                engine,
                heuristic,
                weight,
                guarantee,
            } => not_optimal(*engine, *heuristic, *weight, *guarantee, word),
            Error::TooManyBoards { moves, shape } => format!(
                "the solution has {moves} moves on a {shape} board: too many boards to print with {}",
                word(Setting::CheckPrintable)
            ),
            other => other.to_string(),
        }
    }

    /// The search limit that stopped the search, with its progress, if that is the error.
    pub fn limit(&self) -> Option<(&npuzzle_core::Limit, &npuzzle_core::Progress)> {
        match self {
            Error::Search(SearchError::LimitReached { limit, progress }) => Some((limit, progress)),
            _ => None,
        }
    }
}

/// [`Error::NotOptimal`]'s text: why the combination does not prove optimality, and what does.
fn not_optimal(
    engine: Engine,
    heuristic: HeuristicKind,
    weight: f64,
    guarantee: Guarantee,
    word: &dyn Fn(Setting) -> String,
) -> String {
    let optimal = word(Setting::Optimal);
    let engines = format!("use {} auto, idastar or astar", word(Setting::Engine));
    let name = engine.name();
    if let Some(why) = engine.info().never_optimal {
        return format!(
            "{optimal}: the {name} engine does not prove its answers optimal ({why}); {engines}"
        );
    }
    match (engine, guarantee) {
        (Engine::WeightedAStar, Guarantee::WithinFactor(w)) => format!(
            "{optimal}: the {name} engine with weight {w} does not prove its answers optimal, only at most {w} times the optimum; {engines} (or {} 1)",
            word(Setting::Weight)
        ),
        (Engine::WeightedAStar, _) => {
            let h = heuristic.name();
            format!(
                "{optimal}: the {name} engine with weight {weight} does not prove its answers optimal with the {h} heuristic: it never reopens states, so its bound needs a consistent heuristic, and {h} is only admissible; {engines}, or a consistent heuristic (manhattan, linear-conflict)"
            )
        }
        _ => format!(
            "{optimal}: the {name} engine does not prove its answers optimal with the {} heuristic (not admissible)",
            heuristic.name()
        ),
    }
}
