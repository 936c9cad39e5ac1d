//! Solving for a **partial goal** (`npuzzle_core::partial`: some cells do not matter), the
//! facade's side: the options it refuses, the heuristic it builds once per goal and metric,
//! and the [`Answer`] it returns.
//!
//! Only IDA\* serves a partial goal (`npuzzle_idastar::partial::solve_partial`, in STM or
//! MTM): the engines that need one goal board (A\*, bidirectional search, weighted A\*,
//! greedy search, the constructive solver, beam search, hill climbing) are refused with
//! [`Error::NotApplicable`], as are every-optimal search, a depth limit, a pattern-database
//! partition and the path/FSM cycle checks; auto runs IDA\*. The heuristic is
//! `npuzzle_pdb::PartialDb` (in-memory tables over the tiles that matter, built on the first
//! board of each shape and metric and kept by the solver), or with `linear-conflict` (STM) /
//! `mtm-manhattan` (MTM) `npuzzle_core::PartialManhattan` alone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use npuzzle_core::{
    Goal, Guarantee, Layout, Metric, Outcome, PartialGoal, PartialGoalError, PartialKind,
    PartialManhattan, Solution, Stats, verify_partial,
};
use npuzzle_pdb::{PARTIAL_MAX_ENTRIES, PartialDb};

use crate::{Answer, Config, Engine, Error, HeuristicKind, Npuzzle, SearchSettings, Setting};

/// The partial-goal tables a solver built, by goal and metric.
#[derive(Debug, Default)]
pub(crate) struct PartialTables(Mutex<HashMap<(PartialGoal, Metric), Arc<PartialDb>>>);

/// What a partial goal's search runs with, decided once from the options: tables or not.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PartialPlan {
    tables: bool,
}

/// What [`Error::NotApplicable`] says a partial goal applies to.
const APPLIES_TO: &str = "the idastar engine (and auto)";

/// Validates the options of a solver whose goal is partial: the idastar engine or auto; the
/// heuristic `pdb`/`mtm-pdb` (the default) or `linear-conflict`/`mtm-manhattan` (no tables);
/// no partition, weight or path/FSM cycle check.
///
/// # Errors
/// [`Error::NotApplicable`] naming the option.
pub(crate) fn plan(config: &Config) -> Result<PartialPlan, Error> {
    if let crate::EngineChoice::Engine(e) = config.engine
        && e != Engine::IdaStar
    {
        return Err(Error::NotApplicable {
            setting: Setting::PartialGoal,
            applies_to: APPLIES_TO,
            chosen: e.name(),
        });
    }
    for (set, setting, chosen) in [
        (config.weight.is_some(), Setting::PartialGoal, "a weight"),
        (config.pdb.is_some(), Setting::Pdb, "a partial goal"),
        (
            config.cycle_check != npuzzle_idastar::CycleCheck::Parent,
            Setting::PartialGoal,
            "a path or fsm cycle check",
        ),
    ] {
        if set {
            return Err(Error::NotApplicable {
                setting,
                applies_to: if setting == Setting::Pdb {
                    "full goals (a partial goal builds its own tables)"
                } else {
                    "IDA* with parent pruning"
                },
                chosen,
            });
        }
    }
    let tables = match (config.heuristic, config.metric) {
        (None | Some(HeuristicKind::Pdb), Metric::Stm)
        | (None | Some(HeuristicKind::MtmPdb), Metric::Mtm) => true,
        (Some(HeuristicKind::LinearConflict), Metric::Stm)
        | (Some(HeuristicKind::MtmManhattan), Metric::Mtm) => false,
        (Some(h), _) => {
            return Err(Error::NotApplicable {
                setting: Setting::Heuristic,
                applies_to: "a partial goal as pdb or linear-conflict (stm), mtm-pdb or mtm-manhattan (mtm)",
                chosen: h.name(),
            });
        }
    };
    Ok(PartialPlan { tables })
}

/// The partial goal `kind` for boards of `shape`.
///
/// # Errors
/// [`Error::Goal`] when its shape is another; [`Error::BadValue`] when it does not fit
/// (`first-rows:K` with K not below the height, ...).
pub(crate) fn resolve(
    kind: &PartialKind,
    shape: npuzzle_core::Shape,
) -> Result<PartialGoal, Error> {
    PartialGoal::new(kind, shape).map_err(|e| goal_error(kind, e))
}

/// The facade's error for a partial goal that does not fit the board.
fn goal_error(kind: &PartialKind, e: PartialGoalError) -> Error {
    match e {
        PartialGoalError::Shape(s) => Error::Goal(s),
        other => Error::BadValue {
            setting: Setting::Goal,
            value: match kind {
                PartialKind::FirstRows(k) => format!("first-rows:{k}"),
                PartialKind::Fringe => "fringe".into(),
                PartialKind::Board { .. } => format!("{kind:?}"),
            },
            reason: other.to_string(),
        },
    }
}

impl Npuzzle {
    /// Solves `layout` for the partial goal `kind` (see the [module docs](self)).
    pub(crate) fn solve_partial(
        &self,
        kind: &PartialKind,
        plan: PartialPlan,
        layout: &Layout,
        settings: &SearchSettings,
    ) -> Result<Answer, Error> {
        if settings.max_depth.is_some() {
            return Err(Error::NotApplicable {
                setting: Setting::MaxDepth,
                applies_to: "full goals",
                chosen: "a partial goal",
            });
        }
        self.check_settings(settings)?;
        let goal = resolve(kind, layout.shape())?;
        let metric = self.config.metric;
        let heuristic = match (plan.tables, metric) {
            (true, Metric::Stm) => HeuristicKind::Pdb,
            (true, Metric::Mtm) => HeuristicKind::MtmPdb,
            (false, Metric::Stm) => HeuristicKind::LinearConflict,
            (false, Metric::Mtm) => HeuristicKind::MtmManhattan,
        };
        let parity = goal.solvability(layout)?;
        let mut answer = Answer {
            layout: layout.clone(),
            goal: Goal::custom(goal.canonical()),
            engine: Engine::IdaStar,
            heuristic,
            weight: None,
            parity,
            solution: None,
            lower_bound: 0,
            notes: Vec::new(),
            metric,
            partial: Some(goal.clone()),
        };
        if !answer.parity.solvable {
            return Ok(answer);
        }
        if goal.is_reached(layout.cells()) {
            answer.goal = Goal::custom(layout.clone());
            answer.solution = Some(Solution {
                moves: Vec::new(),
                guarantee: Guarantee::Optimal,
                stats: Stats::default(),
            });
            return Ok(answer);
        }
        let observer = &*settings.observer;
        let outcome = if plan.tables {
            let db = self.partial_db(&goal, metric, &mut answer.notes, settings);
            observer.search_started(Engine::IdaStar);
            npuzzle_idastar::partial::solve_partial(layout, &goal, &*db, &settings.limits, |p| {
                observer.search_progress(Engine::IdaStar, p);
            })
        } else {
            observer.search_started(Engine::IdaStar);
            npuzzle_idastar::partial::solve_partial(
                layout,
                &goal,
                &PartialManhattan::new(&goal, metric),
                &settings.limits,
                |p| {
                    observer.search_progress(Engine::IdaStar, p);
                },
            )
        };
        observer.search_finished(Engine::IdaStar);
        let solution = match outcome? {
            Outcome::Solved(s) => s,
            Outcome::Unsolvable(_) => {
                return Err(Error::Internal(
                    "the partial-goal search called a solvable board unsolvable".into(),
                ));
            }
        };
        let reached = verify_partial(layout, &solution.moves, &goal).map_err(|e| {
            Error::Internal(format!(
                "the partial-goal search returned moves that do not reach the goal: {e}"
            ))
        })?;
        answer.goal = Goal::custom(reached);
        answer.parity = answer.goal.parity(layout)?;
        crate::answer::solved(answer, solution, true)
    }

    /// The tables for `goal` in `metric`: built on first use (their description and build
    /// time noted in `notes` and told to the observer), then shared by every search of this
    /// solver.
    fn partial_db(
        &self,
        goal: &PartialGoal,
        metric: Metric,
        notes: &mut Vec<String>,
        settings: &SearchSettings,
    ) -> Arc<PartialDb> {
        let key = (goal.clone(), metric);
        let mut map = self
            .partial_tables
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(db) = map.get(&key) {
            return Arc::clone(db);
        }
        let begun = Instant::now();
        let db = Arc::new(PartialDb::build(goal, metric, PARTIAL_MAX_ENTRIES));
        let note = format!(
            "partial goal {}: built {} in {:.2} s",
            goal.board_text(),
            db.description(),
            begun.elapsed().as_secs_f64()
        );
        settings.observer.note(&note);
        notes.push(note);
        map.insert(key, Arc::clone(&db));
        db
    }
}
