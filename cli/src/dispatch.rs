//! The one place that turns a [`Plan`] and a board into a concrete engine, heuristic and board
//! type (static dispatch: one monomorphised search loop per engine × heuristic × board type), and
//! `--engine auto`'s per-board decision. Used by `npuzzle solve` and `npuzzle bench`.

use anyhow::{Result, anyhow, bail};
use npuzzle_astar::AStar;
use npuzzle_bidirectional::Bidirectional;
use npuzzle_core::{
    BitBoard, Board, Goal, Hamming, Layout, Limit, LinearConflict, Manhattan, SearchError, Solver,
    Zero,
};
use npuzzle_nxn::{Constructive, VecBoard, WeightedAStar};

use crate::args::SolveFormat;
use crate::nxn::{AUTO_MAX_H, AutoChoice, auto_choice};
use crate::output::Answer;
use crate::plan::{Engine, HeuristicKind, Plan};
use crate::solve::{idastar, solve_one};

/// `--format boards` refuses solutions whose board sequence has more cells than this.
const MAX_PRINTED_CELLS: usize = 100_000_000;

/// Decides one board with the plan's engine, or auto's choice for it (see [`auto_choice`]; boards
/// of at most 16 cells always get IDA\* on the bitboard when the engine is auto).
///
/// # Errors
/// As [`dispatch`].
pub fn solve_board(plan: &Plan, layout: &Layout) -> Result<Answer> {
    if plan.heuristic == HeuristicKind::Pdb
        && plan.pdb.as_ref().is_some_and(|p| !p.build_any)
        && layout.shape().cells() > BitBoard::MAX_CELLS
    {
        // Auto's pattern databases are for boards of at most 16 cells; larger ones get linear
        // conflict (see `crate::plan::plan`).
        let mut lc = plan.clone();
        lc.heuristic = HeuristicKind::LinearConflict;
        return solve_board(&lc, layout);
    }
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
///
/// # Errors
/// A bad goal, a bad weight, a limit reached, an answer that fails the replay check, or a
/// solution too long to print with `--format boards`.
pub fn dispatch(plan: &Plan, engine: Engine, layout: &Layout) -> Result<Answer> {
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
        (Engine::Bidirectional, true) => {
            with_heuristic::<BitBoard, _>(Bidirectional::new(), plan, engine, layout)
        }
        (Engine::Bidirectional, false) => {
            with_heuristic::<VecBoard, _>(Bidirectional::new(), plan, engine, layout)
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
        HeuristicKind::Pdb => {
            // A goal that does not fit the board is that board's error.
            Goal::new(&plan.goal, layout.shape())?;
            let db = plan
                .pdbs
                .as_ref()
                .and_then(|d| d.get(layout.shape()))
                .ok_or_else(|| {
                    anyhow!(
                        "internal error: no pattern database was opened for {} boards",
                        layout.shape()
                    )
                })?;
            solve_one::<B, _, _, _>(&mut solver, &|_: &Goal| db.clone(), plan, engine, layout)
        }
        HeuristicKind::Zero => {
            solve_one::<B, _, _, _>(&mut solver, &|_: &Goal| Zero, plan, engine, layout)
        }
    }
}
