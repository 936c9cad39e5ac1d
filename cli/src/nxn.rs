//! Boards of more than 16 cells (run on `npuzzle_nxn::VecBoard`), the engines whose answers are
//! not proven optimal (weighted A*, the constructive solver), and `--engine auto`'s rule for
//! boards above 16 cells.
//!
//! [`crate::solve::run`] hands a whole run here when [`handles`] says so; each board then gets
//! its own engine and board type, with static dispatch through [`crate::solve::solve_one`].

use std::io::Write;

use anyhow::{Result, bail};
use npuzzle_astar::AStar;
use npuzzle_core::{
    BitBoard, Board, Goal, Hamming, Heuristic, Layout, Limit, LinearConflict, Manhattan,
    SearchError, Solver,
};
use npuzzle_nxn::{Constructive, VecBoard, WeightedAStar};

use crate::args::{SolveArgs, SolveFormat};
use crate::output::Answer;
use crate::plan::{Engine, HeuristicKind, Plan};
use crate::solve::{Tally, idastar, solve_one};

/// `--engine auto` tries optimal IDA* on a board of more than 16 cells only when its
/// linear-conflict lower bound is at most this many moves (random 5×5 boards are above 100).
pub const AUTO_MAX_H: u32 = 50;
/// The node budget (generated nodes) of that attempt: about 5 s; past it, auto falls back to the
/// constructive solver.
pub const AUTO_NODE_BUDGET: u64 = 50_000_000;
/// Weighted A*'s weight when `--engine weighted-astar` is given without `--weight`.
pub const DEFAULT_WEIGHT: f64 = 2.0;
/// `--format boards` refuses solutions whose board sequence has more cells than this.
const MAX_PRINTED_CELLS: usize = 100_000_000;

/// Validates `--weight` and `--optimal` against the engine; `--weight` with `--engine auto`
/// selects weighted A*. Returns the weight (1 for engines other than weighted A*).
///
/// # Errors
/// A weight outside `1..=1000`, `--weight` with another engine, or `--optimal` with an engine
/// that cannot prove optimality.
pub fn check_weight(args: &SolveArgs, engine: &mut Engine, auto: &mut bool) -> Result<f64> {
    let weight = match args.weight {
        Some(w) => {
            WeightedAStar::new(w)?;
            if *auto {
                *engine = Engine::WeightedAStar;
                *auto = false;
            } else if *engine != Engine::WeightedAStar {
                bail!(
                    "--weight applies to the weighted-astar engine only, not to {}",
                    engine.name()
                );
            }
            w
        }
        None if *engine == Engine::WeightedAStar => DEFAULT_WEIGHT,
        None => 1.0,
    };
    if args.optimal && !engine.is_optimal(weight) {
        bail!(
            "--optimal: the {} engine{} does not prove its answers optimal; use --engine auto, idastar or astar{}",
            engine.name(),
            if *engine == Engine::WeightedAStar {
                format!(" with weight {weight}")
            } else {
                String::new()
            },
            if *engine == Engine::WeightedAStar {
                " (or --weight 1)"
            } else {
                ""
            }
        );
    }
    Ok(weight)
}

/// Whether this module runs the boards: an engine of `npuzzle-nxn`, or some board of more than
/// 16 cells.
pub fn handles(plan: &Plan, boards: &[Layout]) -> bool {
    matches!(plan.engine, Engine::WeightedAStar | Engine::Constructive)
        || boards
            .iter()
            .any(|b| b.shape().cells() > BitBoard::MAX_CELLS)
}

/// Solves every board, each with its own engine and board type, printing answers as they come.
///
/// # Errors
/// As [`crate::solve::run`].
pub fn run(plan: &Plan, boards: &[Layout], out: &mut impl Write) -> Result<Tally> {
    let mut tally = Tally::default();
    let total = boards.len();
    for (i, layout) in boards.iter().enumerate() {
        let answer = solve_board(plan, layout);
        tally.record(answer, plan, i, total, layout, out)?;
    }
    Ok(tally)
}

/// Which engine `--engine auto` runs on a board, and with what node budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutoChoice {
    /// Optimal IDA*; `Some(budget)`: fall back to the constructive solver past that many
    /// generated nodes.
    Optimal(Option<u64>),
    /// The constructive solver.
    Constructive,
}

/// **The auto rule above 16 cells.** With `--optimal`: IDA* with the plan's heuristic, without a
/// budget. Otherwise IDA* when the board's linear-conflict bound is at most [`AUTO_MAX_H`]
/// (close to solved, so the optimum is usually within reach), with a budget of
/// [`AUTO_NODE_BUDGET`] generated nodes; else, or past the budget, the constructive solver.
/// Boards of at most 16 cells always get IDA* on the bitboard (see [`crate::plan::plan`]).
/// Unsolvable boards are answered by parity, so the choice does not matter for them.
pub fn auto_choice(plan: &Plan, layout: &Layout, goal: &Goal) -> (AutoChoice, u32) {
    let bound = if layout.shape().cells() <= BitBoard::MAX_CELLS {
        0
    } else {
        let board = VecBoard::from_layout(layout).expect("every layout fits the Vec board");
        LinearConflict::new(goal).estimate(&board)
    };
    let choice = if plan.optimal || layout.shape().cells() <= BitBoard::MAX_CELLS {
        AutoChoice::Optimal(None)
    } else if bound <= AUTO_MAX_H {
        AutoChoice::Optimal(Some(AUTO_NODE_BUDGET))
    } else {
        AutoChoice::Constructive
    };
    (choice, bound)
}

/// Decides one board with the plan's engine, or auto's choice for it.
fn solve_board(plan: &Plan, layout: &Layout) -> Result<Answer> {
    if !plan.auto {
        return dispatch(plan, plan.engine, layout);
    }
    let goal = Goal::new(&plan.goal, layout.shape())?;
    if !goal.parity(layout)?.solvable {
        return dispatch(plan, Engine::IdaStar, layout);
    }
    let shape = layout.shape();
    let (choice, bound) = auto_choice(plan, layout, &goal);
    match choice {
        AutoChoice::Optimal(None) => dispatch(plan, Engine::IdaStar, layout),
        AutoChoice::Optimal(Some(budget)) => {
            let mut tight = plan.clone();
            let user = plan.limits.max_nodes;
            tight.limits.max_nodes = Some(user.map_or(budget, |n| n.min(budget)));
            match dispatch(&tight, Engine::IdaStar, layout) {
                Err(e) if user.is_none_or(|n| n > budget) && is_budget(&e, budget) => {
                    eprintln!(
                        "npuzzle: auto: optimal IDA* on this {shape} board (linear-conflict bound {bound}) used its budget of {budget} generated nodes; falling back to the constructive solver (answer not proven optimal; --optimal searches on)"
                    );
                    dispatch(plan, Engine::Constructive, layout)
                }
                other => other,
            }
        }
        AutoChoice::Constructive => {
            eprintln!(
                "npuzzle: auto: a {shape} board with linear-conflict bound {bound} (above {AUTO_MAX_H}) is out of reach of optimal search; using the constructive solver (answer not proven optimal; --optimal forces IDA*)"
            );
            dispatch(plan, Engine::Constructive, layout)
        }
    }
}

/// Whether `e` is IDA* stopping at auto's node budget.
fn is_budget(e: &anyhow::Error, budget: u64) -> bool {
    matches!(
        e.downcast_ref::<SearchError>(),
        Some(SearchError::LimitReached { limit: Limit::Nodes(n), .. }) if *n == budget
    )
}

/// Runs `engine` on the bitboard (at most 16 cells) or the Vec board, with the plan's heuristic.
fn dispatch(plan: &Plan, engine: Engine, layout: &Layout) -> Result<Answer> {
    let small = layout.shape().cells() <= BitBoard::MAX_CELLS;
    let weighted = || WeightedAStar::new(plan.weight);
    let answer = match (engine, small) {
        (Engine::IdaStar, true) => {
            with_heuristic::<BitBoard, _>(idastar(plan), plan, engine, layout)
        }
        (Engine::IdaStar, false) => {
            with_heuristic::<VecBoard, _>(idastar(plan), plan, engine, layout)
        }
        (Engine::AStar, true) => with_heuristic::<BitBoard, _>(AStar::new(), plan, engine, layout),
        (Engine::AStar, false) => with_heuristic::<VecBoard, _>(AStar::new(), plan, engine, layout),
        (Engine::WeightedAStar, true) => {
            with_heuristic::<BitBoard, _>(weighted()?, plan, engine, layout)
        }
        (Engine::WeightedAStar, false) => {
            with_heuristic::<VecBoard, _>(weighted()?, plan, engine, layout)
        }
        (Engine::Constructive, _) => {
            with_heuristic::<VecBoard, _>(Constructive::new(), plan, engine, layout)
        }
    }?;
    if plan.format == SolveFormat::Boards
        && let Some(s) = &answer.solution
        && (s.moves.len() + 1).saturating_mul(layout.shape().cells()) > MAX_PRINTED_CELLS
    {
        bail!(
            "the solution has {} moves on a {} board: too many boards to print with --format boards; use --format text or json",
            s.moves.len(),
            layout.shape()
        );
    }
    Ok(answer)
}

/// [`solve_one`] with the plan's heuristic, statically dispatched.
fn with_heuristic<B: Board, S: Solver<B>>(
    mut solver: S,
    plan: &Plan,
    engine: Engine,
    layout: &Layout,
) -> Result<Answer> {
    match plan.heuristic {
        HeuristicKind::Manhattan => {
            solve_one::<B, _, _, _>(&mut solver, &Manhattan::new, plan, engine, layout)
        }
        HeuristicKind::LinearConflict => {
            solve_one::<B, _, _, _>(&mut solver, &LinearConflict::new, plan, engine, layout)
        }
        HeuristicKind::Hamming => {
            solve_one::<B, _, _, _>(&mut solver, &Hamming::new, plan, engine, layout)
        }
    }
}
