//! From parsed arguments to one validated [`Plan`]: which engine (with `auto` resolved), which
//! heuristic, which goal, which limits, which output format.
//!
//! Everything that can be wrong with the options is found here, before any board is read or
//! searched.

use anyhow::{Context, Result, bail};
use npuzzle_core::{GoalKind, Limits, Shape, parse_board};
use npuzzle_idastar::CycleCheck;

use npuzzle_pdb::PartitionSpec;

use crate::args::{CycleCheckChoice, EngineChoice, HeuristicChoice, SolveArgs, SolveFormat};
use crate::pdb::PdbPlan;

/// A concrete engine. [`Engine::name`] equals the engine's own `Solver::name()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// `npuzzle_idastar::IdaStar`.
    IdaStar,
    /// `npuzzle_astar::AStar`.
    AStar,
    /// `npuzzle_bidirectional::Bidirectional`.
    Bidirectional,
    /// `npuzzle_nxn::WeightedAStar` (the weight is [`Plan::weight`]).
    WeightedAStar,
    /// `npuzzle_nxn::Constructive`.
    Constructive,
}

impl Engine {
    /// The engine's name, as in `--engine` and the engine's `Solver::name()`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::IdaStar => "idastar",
            Engine::AStar => "astar",
            Engine::Bidirectional => "bidirectional",
            Engine::WeightedAStar => "weighted-astar",
            Engine::Constructive => "constructive",
        }
    }

    /// Whether the engine's answers are proven optimal, given weighted A*'s `weight`.
    pub fn is_optimal(self, weight: f64) -> bool {
        match self {
            Engine::IdaStar | Engine::AStar | Engine::Bidirectional => true,
            Engine::WeightedAStar => weight <= 1.0,
            Engine::Constructive => false,
        }
    }
}

/// A concrete heuristic. [`HeuristicKind::name`] equals the heuristic's own `Heuristic::name()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicKind {
    /// `npuzzle_core::Manhattan`.
    Manhattan,
    /// `npuzzle_core::LinearConflict`.
    LinearConflict,
    /// `npuzzle_core::Hamming`.
    Hamming,
    /// `npuzzle_core::Zero`.
    Zero,
    /// `npuzzle_pdb::PatternDb`.
    Pdb,
}

impl HeuristicKind {
    /// The heuristic's name, as in `--heuristic`.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::LinearConflict => "linear-conflict",
            HeuristicKind::Hamming => "hamming",
            HeuristicKind::Zero => "zero",
            HeuristicKind::Pdb => "pdb",
        }
    }
}

/// Everything `solve` needs to know, validated.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The engine, `auto` resolved.
    pub engine: Engine,
    /// The heuristic.
    pub heuristic: HeuristicKind,
    /// The goal convention (resolved against each board's shape when it is solved).
    pub goal: GoalKind,
    /// Limits, applied to each board's search separately.
    pub limits: Limits,
    /// IDA*'s cycle check (ignored by other engines; `--cycle-check` with them is an error).
    pub cycle_check: CycleCheck,
    /// The output format.
    pub format: SolveFormat,
    /// `--engine auto`: [`Plan::engine`] is the default for boards of at most 16 cells, and
    /// `crate::nxn::auto_engine` decides for larger ones, board by board.
    pub auto: bool,
    /// `--optimal`: only proven-optimal answers.
    pub optimal: bool,
    /// Weighted A*'s weight (1 unless `--weight`).
    pub weight: f64,
    /// How to open the pattern databases ([`HeuristicKind::Pdb`] only).
    pub pdb: Option<PdbPlan>,
    /// The pattern databases of the run, opened by `npuzzle solve` once the boards are known
    /// (see [`crate::pdb::open_for`]); `None` until then or without [`HeuristicKind::Pdb`].
    pub pdbs: Option<std::sync::Arc<crate::pdb::Databases>>,
    /// Whether each search may show a spinner on stderr (when it is a terminal): true for
    /// `npuzzle solve`, false for `npuzzle bench`, which shows one progress bar for the run.
    pub progress: bool,
}

impl From<EngineChoice> for Engine {
    /// The concrete engine; `auto` maps to IDA\*, its choice for boards of at most 16 cells
    /// (the caller keeps [`Plan::auto`] for larger boards).
    fn from(c: EngineChoice) -> Engine {
        match c {
            EngineChoice::Auto | EngineChoice::IdaStar => Engine::IdaStar,
            EngineChoice::AStar => Engine::AStar,
            EngineChoice::Bidirectional => Engine::Bidirectional,
            EngineChoice::WeightedAStar => Engine::WeightedAStar,
            EngineChoice::Constructive => Engine::Constructive,
        }
    }
}

impl From<HeuristicChoice> for HeuristicKind {
    fn from(c: HeuristicChoice) -> HeuristicKind {
        match c {
            HeuristicChoice::Manhattan => HeuristicKind::Manhattan,
            HeuristicChoice::LinearConflict => HeuristicKind::LinearConflict,
            HeuristicChoice::Hamming => HeuristicKind::Hamming,
            HeuristicChoice::Zero => HeuristicKind::Zero,
            HeuristicChoice::Pdb => HeuristicKind::Pdb,
        }
    }
}

/// The plan of one `npuzzle bench` configuration: `engine` × `heuristic` with the run's goal
/// and limits, no spinner, JSON format, IDA\*'s default cycle check, and `weight` for weighted
/// A\* (`None`: its default, 2; validated by the engine when it is built, so a bad weight is
/// each board's error). `--engine auto` gets [`Plan::optimal`] set, so that it never falls back
/// to the constructive solver (whose answers are not optimal).
pub fn bench_plan(
    engine: EngineChoice,
    heuristic: HeuristicChoice,
    goal: GoalKind,
    limits: Limits,
    weight: Option<f64>,
) -> Plan {
    let concrete = Engine::from(engine);
    Plan {
        engine: concrete,
        heuristic: heuristic.into(),
        goal,
        limits,
        cycle_check: CycleCheck::Parent,
        format: SolveFormat::Json,
        auto: engine == EngineChoice::Auto,
        optimal: engine == EngineChoice::Auto,
        weight: if concrete == Engine::WeightedAStar {
            weight.unwrap_or(crate::nxn::DEFAULT_WEIGHT)
        } else {
            1.0
        },
        progress: false,
        pdb: (heuristic == HeuristicChoice::Pdb).then_some(PdbPlan {
            spec: None,
            dir: None,
            reflect: true,
            build_any: false,
        }),
        pdbs: None,
    }
}

/// Validates `args` into a [`Plan`], resolving `--engine auto`.
///
/// **The auto rule: IDA\* on every board of at most 16 cells.** On the 15-puzzle IDA\* with
/// Manhattan distance or linear conflict is the fastest engine we have (its node rate is the
/// highest, it re-expands few states) and it needs memory only for the current path, while A\*
/// stores every state and runs out of memory on the harder instances. On the 8-puzzle and smaller
/// boards both engines answer in milliseconds, so switching engines by size would buy nothing
/// measurable and would make `auto`'s behaviour harder to predict. Larger boards are decided
/// board by board by `crate::nxn::auto_choice` (IDA\* on the Vec board when close to solved, else
/// the constructive solver); `--weight` with auto selects weighted A\*.
///
/// **The heuristic under auto: pattern databases** (unless `--heuristic` is given) on boards of at
/// most 16 cells, where additive PDBs beat linear conflict by orders of magnitude on the
/// 15-puzzle and cost milliseconds on smaller boards. On 4×4 boards auto uses 7-8 if its tables
/// are cached, else 6-6-3; it builds missing tables only when they are cheap (at most
/// [`crate::pdb::CHEAP_ENTRIES`] entries, seconds), never the 7-8 ones. Larger boards get linear
/// conflict (see `crate::dispatch::solve_board`). An explicit engine defaults to linear conflict.
///
/// # Errors
/// A bad `--goal` or `--pdb`, `--pdb`/`--no-reflect` with another heuristic, `--cycle-check`
/// with an engine other than IDA\*, a bad `--weight` or one with an engine other than weighted
/// A\*, or `--optimal` with an engine that is not optimal.
pub fn plan(args: &SolveArgs) -> Result<Plan> {
    let mut engine = Engine::from(args.engine);
    let mut auto = args.engine == EngineChoice::Auto;
    let weight = crate::nxn::check_weight(args, &mut engine, &mut auto)?;
    let pdb_asked = args.pdb.is_some();
    let heuristic = match args.heuristic {
        None if pdb_asked || auto => HeuristicKind::Pdb,
        None | Some(HeuristicChoice::LinearConflict) => HeuristicKind::LinearConflict,
        Some(HeuristicChoice::Manhattan) => HeuristicKind::Manhattan,
        Some(HeuristicChoice::Hamming) => HeuristicKind::Hamming,
        Some(HeuristicChoice::Zero) => HeuristicKind::Zero,
        Some(HeuristicChoice::Pdb) => HeuristicKind::Pdb,
    };
    let pdb = if heuristic == HeuristicKind::Pdb {
        let spec = args
            .pdb
            .as_deref()
            .map(crate::pdb::parse_spec)
            .transpose()?;
        Some(PdbPlan {
            build_any: spec.is_some() || args.heuristic == Some(HeuristicChoice::Pdb),
            spec: spec.or_else(|| (!auto).then_some(PartitionSpec::Default)),
            dir: args.pdb_dir.clone(),
            reflect: !args.no_reflect,
        })
    } else {
        if pdb_asked || args.no_reflect {
            bail!(
                "--pdb and --no-reflect apply to the pdb heuristic only, not to {}",
                heuristic.name()
            );
        }
        None
    };
    let cycle_check = match (args.cycle_check, engine) {
        (None | Some(CycleCheckChoice::Parent), _) => CycleCheck::Parent,
        (Some(CycleCheckChoice::Path), Engine::IdaStar) => CycleCheck::Path,
        (Some(CycleCheckChoice::Path), other) => bail!(
            "--cycle-check path applies to the idastar engine only, not to {}",
            other.name()
        ),
    };
    let goal = parse_goal(&args.board.goal, args.board.size)?;
    let limits = Limits {
        max_nodes: args.max_nodes,
        timeout: args.timeout,
        memory_bytes: args.memory_limit,
        cancel: None,
    };
    Ok(Plan {
        engine,
        heuristic,
        goal,
        limits,
        cycle_check,
        format: args.format,
        auto,
        optimal: args.optimal,
        weight,
        pdb,
        pdbs: None,
        progress: true,
    })
}

/// Parses `--goal`: `blank-last`, `blank-first`, or a board (any format `parse_board` reads;
/// `size` as given by `--size`).
///
/// # Errors
/// When the text is neither keyword nor a valid board.
pub fn parse_goal(text: &str, size: Option<Shape>) -> Result<GoalKind> {
    match text.trim() {
        "blank-last" => Ok(GoalKind::BlankLast),
        "blank-first" => Ok(GoalKind::BlankFirst),
        board => {
            let layout = parse_board(board, size).with_context(|| {
                format!("bad --goal {text:?} (expected blank-last, blank-first or a board)")
            })?;
            Ok(GoalKind::Custom(layout))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Cli, Command};
    use clap::Parser;
    use npuzzle_core::{BitBoard, Hamming, Heuristic, LinearConflict, Manhattan, Solver};

    fn solve_args(argv: &[&str]) -> SolveArgs {
        let mut v = vec!["npuzzle", "solve"];
        v.extend_from_slice(argv);
        match Cli::parse_from(v).command {
            Command::Solve(a) => a,
            other => panic!("not solve: {other:?}"),
        }
    }

    #[test]
    fn names_match_the_engines_and_heuristics() {
        assert_eq!(
            Engine::IdaStar.name(),
            Solver::<BitBoard>::name(&npuzzle_idastar::IdaStar::new())
        );
        assert_eq!(
            Engine::AStar.name(),
            Solver::<BitBoard>::name(&npuzzle_astar::AStar::new())
        );
        assert_eq!(
            Engine::Bidirectional.name(),
            Solver::<BitBoard>::name(&npuzzle_bidirectional::Bidirectional::new())
        );
        assert_eq!(
            HeuristicKind::Zero.name(),
            Heuristic::<BitBoard>::name(&npuzzle_core::Zero)
        );
        let goal = npuzzle_core::Goal::blank_last(Shape::square(3).unwrap());
        assert_eq!(
            HeuristicKind::Manhattan.name(),
            Heuristic::<BitBoard>::name(&Manhattan::new(&goal))
        );
        assert_eq!(
            HeuristicKind::LinearConflict.name(),
            Heuristic::<BitBoard>::name(&LinearConflict::new(&goal))
        );
        assert_eq!(
            HeuristicKind::Hamming.name(),
            Heuristic::<BitBoard>::name(&Hamming::new(&goal))
        );
    }

    #[test]
    fn auto_is_idastar_and_defaults() {
        let p = plan(&solve_args(&["123456780"])).unwrap();
        assert_eq!(p.engine, Engine::IdaStar);
        assert_eq!(p.heuristic, HeuristicKind::Pdb);
        let pdb = p.pdb.unwrap();
        assert!(pdb.spec.is_none() && !pdb.build_any && pdb.reflect);
        assert_eq!(p.goal, GoalKind::BlankLast);
        assert_eq!(p.cycle_check, CycleCheck::Parent);
        assert!(p.limits.max_nodes.is_none() && p.limits.memory_bytes.is_none());
    }

    #[test]
    fn options_are_validated() {
        let p = plan(&solve_args(&[
            "--engine",
            "astar",
            "--memory-limit",
            "1M",
            "--goal",
            "blank-first",
        ]))
        .unwrap();
        assert_eq!(p.engine, Engine::AStar);
        assert_eq!(p.limits.memory_bytes, Some(1 << 20));
        assert_eq!(p.goal, GoalKind::BlankFirst);
        assert!(plan(&solve_args(&["--engine", "astar", "--cycle-check", "path"])).is_err());
        assert!(plan(&solve_args(&["--goal", "12345678"])).is_err());
        // An explicit engine keeps linear conflict as the default heuristic.
        let p = plan(&solve_args(&["--engine", "idastar"])).unwrap();
        assert_eq!(p.heuristic, HeuristicKind::LinearConflict);
        let p = plan(&solve_args(&["--engine", "idastar", "--pdb", "78"])).unwrap();
        assert_eq!(p.heuristic, HeuristicKind::Pdb);
        let pdb = p.pdb.unwrap();
        assert_eq!(pdb.spec, Some(PartitionSpec::P78));
        assert!(pdb.build_any);
        assert!(plan(&solve_args(&["--pdb", "7x8"])).is_err());
        assert!(plan(&solve_args(&["--heuristic", "manhattan", "--pdb", "78"])).is_err());
        assert!(plan(&solve_args(&["--heuristic", "manhattan", "--no-reflect"])).is_err());
        let p = plan(&solve_args(&[
            "--goal",
            "1 2 3 4 5 6 7 8 9 10 11 0",
            "--size",
            "4x3",
        ]));
        assert!(matches!(p.unwrap().goal, GoalKind::Custom(l) if l.shape().width() == 4));
    }
}
