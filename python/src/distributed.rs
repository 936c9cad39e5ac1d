//! `_Solver`: a long-lived solver for `npuzzle.distributed`'s workers.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use npuzzle::npuzzle_core::Iteration;
use npuzzle::npuzzle_core::moves_to_string;
use npuzzle::npuzzle_idastar::{Frontier, SubtreeEnd};
use npuzzle::{
    Config, GoalKind, HeuristicKind, Layout, Limits, Move, Npuzzle, SearchSettings, Shape, Stats,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::convert::{goal_of, layout_of, moves_of, optional_shape, seconds};
use crate::errors::to_py;
use crate::release::{run_released, run_released_until};
use crate::solve::{Options, Solution, configure, record_json, tables};

/// One configuration of `npuzzle.solve`'s options, built once and kept: `npuzzle.distributed`
/// keeps one per worker process and configuration, so that the process opens its pattern
/// databases once (they are shared with every `solve` of the process through the same
/// `npuzzle::Tables`) and its threads share them. Documented in `npuzzle/distributed.py`.
#[pyclass(frozen, name = "_Solver", module = "npuzzle._npuzzle")]
pub(crate) struct DistSolver {
    solver: Arc<Npuzzle>,
    size: Option<Shape>,
}

impl DistSolver {
    /// The solver's settings for one call, with `cancel` as the cancel flag.
    fn settings(&self, cancel: &Arc<AtomicBool>) -> SearchSettings {
        self.solver.settings().cancel(Arc::clone(cancel))
    }
}

#[pymethods]
impl DistSolver {
    #[new]
    #[pyo3(signature = (
        *, goal=None, engine="auto", heuristic=None, timeout=None, max_nodes=None,
        memory_limit=None, optimal=false, weight=None, pdb=None, pdb_dir=None, size=None,
        threads=0, deterministic=false, anytime=1.0, reflect=true, cycle_check="parent",
        metric="stm"
    ))]
    #[expect(
        clippy::too_many_arguments,
        reason = "the CLI's options as keyword arguments"
    )]
    fn new(
        py: Python<'_>,
        goal: Option<&Bound<'_, PyAny>>,
        engine: &str,
        heuristic: Option<&str>,
        timeout: Option<f64>,
        max_nodes: Option<u64>,
        memory_limit: Option<u64>,
        optimal: bool,
        weight: Option<f64>,
        pdb: Option<&str>,
        pdb_dir: Option<PathBuf>,
        size: Option<&Bound<'_, PyAny>>,
        threads: usize,
        deterministic: bool,
        anytime: f64,
        reflect: bool,
        cycle_check: &str,
        metric: &str,
    ) -> PyResult<DistSolver> {
        let size = optional_shape(size)?;
        let goal = match goal.filter(|g| !g.is_none()) {
            Some(g) => goal_of(g, size)?,
            None => GoalKind::BlankLast,
        };
        let config = configure(
            py,
            Config::new().goal_kind(goal),
            &Options {
                engine,
                heuristic,
                optimal,
                weight,
                pdb,
                pdb_dir,
                threads,
                deterministic,
                anytime,
                reflect,
                cycle_check,
                metric,
            },
        )?;
        let limits = Limits {
            max_nodes,
            timeout: timeout.map(|t| seconds("timeout", t)).transpose()?,
            memory_bytes: memory_limit,
            cancel: None,
        };
        let solver = config
            .tables(tables())
            .limits(limits)
            .build()
            .map_err(|e| to_py(py, e))?;
        Ok(DistSolver {
            solver: Arc::new(solver),
            size,
        })
    }

    /// Solves `boards` in turn with the GIL released: for each, `(True, json_line)` (the line
    /// `npuzzle solve --format json` prints; unsolvable boards included) or `(False,
    /// exception)` (the exception `npuzzle.solve` would raise: `ValueError`, `LimitReached`,
    /// `PdbError`, ...). One board's error never stops the others.
    fn solve_batch<'py>(
        &self,
        py: Python<'py>,
        boards: Vec<Bound<'py, PyAny>>,
    ) -> PyResult<Vec<(bool, Py<PyAny>)>> {
        let layouts: Vec<PyResult<Layout>> =
            boards.iter().map(|b| layout_of(b, self.size)).collect();
        let parsed: Vec<Option<Layout>> =
            layouts.iter().map(|l| l.as_ref().ok().cloned()).collect();
        let cancel = Arc::new(AtomicBool::new(false));
        let settings = self.settings(&cancel);
        let solver = Arc::clone(&self.solver);
        let answers = run_released(py, &cancel, move || {
            parsed
                .iter()
                .map(|l| l.as_ref().map(|l| solver.solve_with(l, &settings)))
                .collect::<Vec<_>>()
        })?;
        let mut out = Vec::with_capacity(answers.len());
        for (layout, answer) in layouts.into_iter().zip(answers) {
            let item = match (layout, answer) {
                (Err(e), _) => (false, e.into_value(py).into_any()),
                (Ok(_), Some(Ok(a))) => (
                    true,
                    PyString::new(py, &record_json(&a)?).into_any().unbind(),
                ),
                (Ok(_), Some(Err(e))) => (false, to_py(py, e).into_value(py).into_any()),
                (Ok(_), None) => unreachable!("a parsed board has an answer"),
            };
            out.push(item);
        }
        Ok(out)
    }

    /// Whether `board` is answered without search (unsolvable by parity, or the goal).
    fn trivial(&self, board: &Bound<'_, PyAny>) -> PyResult<bool> {
        let layout = layout_of(board, self.size)?;
        Ok(self.solver.answers_without_search(&layout))
    }

    /// `npuzzle::Npuzzle::frontier`: a dict with `nodes` (a list of `(moves, g, h)`),
    /// `solution` (moves or `None`), `next_threshold` (`None`: no f above the threshold
    /// seen), `initial_h`, `expanded`, `generated`, `heuristic`.
    fn frontier<'py>(
        &self,
        py: Python<'py>,
        board: &Bound<'py, PyAny>,
        threshold: u32,
        target: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        let layout = layout_of(board, self.size)?;
        let cancel = Arc::new(AtomicBool::new(false));
        let settings = self.settings(&cancel);
        let solver = Arc::clone(&self.solver);
        let plan = run_released(py, &cancel, move || {
            solver.frontier(&layout, threshold, target, &settings)
        })?
        .map_err(|e| to_py(py, e))?;
        let d = frontier_dict(py, &plan.frontier)?;
        d.set_item("heuristic", plan.heuristic.name())?;
        Ok(d)
    }

    /// `npuzzle::Npuzzle::split_frontier` with the GIL released: the nodes below `paths`
    /// (frontier nodes of the iteration with `threshold`) down to a level of at least
    /// `target` nodes, as a dict like `frontier`'s (without `heuristic`). Raises
    /// `ValueError` for a path not in the tree.
    fn split<'py>(
        &self,
        py: Python<'py>,
        board: &Bound<'py, PyAny>,
        threshold: u32,
        paths: Vec<String>,
        target: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        let layout = layout_of(board, self.size)?;
        let nodes = paths_of(&paths)?;
        let cancel = Arc::new(AtomicBool::new(false));
        let settings = self.settings(&cancel);
        let solver = Arc::clone(&self.solver);
        let frontier = run_released(py, &cancel, move || {
            solver.split_frontier(&layout, threshold, &nodes, target, &settings)
        })?
        .map_err(|e| to_py(py, e))?;
        frontier_dict(py, &frontier)
    }

    /// `npuzzle::Npuzzle::search_subtrees` with the GIL released: a dict with `solution`
    /// (moves or `None`), `next_threshold` (`None`: none), `expanded`, `generated`, `seconds`,
    /// `subtree_generated` (the nodes generated below each path, in order).
    /// `stop()`, if given, is called every 50 ms; when it returns true the search is
    /// cancelled (`LimitReached` with limit `"cancelled"`). Raises `LimitReached` for the
    /// solver's limits too, `ValueError` for a path not in the tree.
    #[pyo3(signature = (board, threshold, paths, stop=None))]
    fn search<'py>(
        &self,
        py: Python<'py>,
        board: &Bound<'py, PyAny>,
        threshold: u32,
        paths: Vec<String>,
        stop: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let layout = layout_of(board, self.size)?;
        let nodes = paths_of(&paths)?;
        let cancel = Arc::new(AtomicBool::new(false));
        let settings = self.settings(&cancel);
        let solver = Arc::clone(&self.solver);
        let started = Instant::now();
        let search = run_released_until(py, &cancel, stop, move || {
            solver.search_subtrees(&layout, threshold, &nodes, &settings)
        })?
        .map_err(|e| to_py(py, e))?;
        let d = PyDict::new(py);
        let (solution, next) = match search.end {
            SubtreeEnd::Found(m) => (Some(moves_to_string(&m)), None),
            SubtreeEnd::Exceeded(t) => (None, (t != u32::MAX).then_some(t)),
        };
        d.set_item("solution", solution)?;
        d.set_item("next_threshold", next)?;
        d.set_item("expanded", search.expanded)?;
        d.set_item("generated", search.generated)?;
        d.set_item("subtree_generated", search.subtree_generated)?;
        d.set_item("seconds", started.elapsed().as_secs_f64())?;
        Ok(d)
    }

    /// `npuzzle::Npuzzle::frontier_answer`: the `Solution` of a distributed search that found
    /// `moves` with `heuristic`; `iterations` are `(threshold, expanded, generated)` triples,
    /// the totals their sums. Opens no table.
    #[expect(
        clippy::too_many_arguments,
        reason = "a Python method: the answer's parts as positional arguments"
    )]
    fn answer(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        heuristic: &str,
        moves: &str,
        seconds: f64,
        initial_h: u32,
        iterations: Vec<(u32, u64, u64)>,
    ) -> PyResult<Solution> {
        let layout = layout_of(board, self.size)?;
        let heuristic = HeuristicKind::from_name(heuristic)
            .ok_or_else(|| PyValueError::new_err(format!("unknown heuristic {heuristic:?}")))?;
        let iterations: Vec<Iteration> = iterations
            .into_iter()
            .map(|(threshold, expanded, generated)| Iteration {
                threshold,
                expanded,
                generated,
            })
            .collect();
        let stats = Stats {
            expanded: iterations.iter().map(|i| i.expanded).sum(),
            generated: iterations.iter().map(|i| i.generated).sum(),
            seconds,
            initial_h,
            iterations,
            ..Stats::default()
        };
        let answer = self
            .solver
            .frontier_answer(&layout, heuristic, moves_of(moves)?, stats)
            .map_err(|e| to_py(py, e))?;
        Ok(Solution {
            answer,
            optimal_set: None,
        })
    }
}

/// Frontier nodes' move paths (letters, as `frontier` gives them) as moves; `ValueError` for a
/// bad letter.
fn paths_of(paths: &[String]) -> PyResult<Vec<Vec<Move>>> {
    paths.iter().map(|p| moves_of(p)).collect()
}

/// A frontier as the dict `_Solver.frontier` and `_Solver.split` return: `nodes` (a list of
/// `(moves, g, h)`), `solution` (moves or `None`), `next_threshold` (`None`: no f above the
/// threshold seen), `initial_h`, `expanded`, `generated`.
fn frontier_dict<'py>(py: Python<'py>, f: &Frontier) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let nodes: Vec<(String, u32, u32)> = f
        .nodes
        .iter()
        .map(|n| (moves_to_string(&n.moves), n.g, n.h))
        .collect();
    d.set_item("nodes", nodes)?;
    d.set_item("solution", f.solution.as_deref().map(moves_to_string))?;
    d.set_item(
        "next_threshold",
        (f.next_threshold != u32::MAX).then_some(f.next_threshold),
    )?;
    d.set_item("initial_h", f.initial_h)?;
    d.set_item("expanded", f.expanded)?;
    d.set_item("generated", f.generated)?;
    Ok(d)
}
