//! `--engine auto`'s rule for boards above 16 cells, and the options of the engines whose
//! answers are not proven optimal (weighted A*, the constructive solver).
//!
//! [`crate::dispatch`] runs every engine on the bitboard (at most 16 cells) or on
//! `npuzzle_nxn::VecBoard` (larger boards), with static dispatch.

use anyhow::{Result, bail};
use npuzzle_core::{BitBoard, Board, Goal, Heuristic, Layout, LinearConflict};
use npuzzle_nxn::{VecBoard, WeightedAStar};

use crate::args::SolveArgs;
use crate::plan::{Engine, Plan};
/// `--engine auto` tries optimal IDA* on a board of more than 16 cells only when its
/// linear-conflict lower bound is at most this many moves (random 5×5 boards are above 100).
pub const AUTO_MAX_H: u32 = 50;
/// The node budget (generated nodes) of that attempt: about 5 s; past it, auto falls back to the
/// constructive solver.
pub const AUTO_NODE_BUDGET: u64 = 50_000_000;
/// Weighted A*'s weight when `--engine weighted-astar` is given without `--weight`.
pub const DEFAULT_WEIGHT: f64 = 2.0;

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
