//! `npuzzle.solve`: options, the shared tables, the `Solution` class.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use npuzzle::npuzzle_core::Iteration;
use npuzzle::{
    Answer, Config, CycleCheck, Engine, EngineChoice, GoalKind, HeuristicKind, Limits, Quiet,
    Record, Tables,
};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::convert::{goal_of, layout_of, optional_shape, partial_goal_of, seconds};
use crate::errors::{python_error, rows, to_py};
use crate::release::run_released;

/// The pattern databases every solve of this process shares (`npuzzle::Tables`): a solver is
/// built per call from its options (validation only, microseconds), and a table opened by one
/// call is never reopened by the next with the same partition, cache directory, reflection,
/// goal and shape.
pub(crate) fn tables() -> Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::new).clone()
}

/// The result of [`solve`]: a solution replayed to the goal, what is proven about its length,
/// and the search statistics. Documented in `npuzzle/__init__.pyi`.
#[pyclass(frozen, name = "Solution", module = "npuzzle")]
pub(crate) struct Solution {
    pub(crate) answer: Answer,
    /// With `all_optimal` / `count` / `within`: the solutions counted and those listed.
    pub(crate) optimal_set: Option<OptimalSet>,
}

/// What `all_optimal`, `count` and `within` found: counts by length and the listed solutions.
pub(crate) struct OptimalSet {
    /// k of `within` (`None` without it).
    within: Option<u32>,
    /// The number of solutions by length, from the optimum (in the answer's metric) on.
    counts_by_length: Vec<(usize, u64)>,
    /// The listed ones, shortest first, letters, with their length in the answer's metric.
    solutions: Vec<(usize, String)>,
}

impl OptimalSet {
    fn of(all: &npuzzle::AllOptimalAnswer) -> OptimalSet {
        let metric = all.answer.metric;
        let optimum = all.answer.length();
        OptimalSet {
            within: (all.within > 0).then_some(all.within),
            counts_by_length: all
                .counts_by_length
                .iter()
                .enumerate()
                .map(|(i, &n)| (optimum + i, n))
                .collect(),
            solutions: all
                .solutions
                .iter()
                .map(|s| (metric.length(s), npuzzle::moves_to_string(s)))
                .collect(),
        }
    }
}

#[pymethods]
impl Solution {
    /// Number of moves, in the metric the board was solved in (`metric`).
    #[getter]
    fn length(&self) -> usize {
        self.answer.length()
    }

    /// Number of single-tile moves (the letters of `moves`), whatever the metric.
    #[getter]
    fn length_stm(&self) -> usize {
        self.answer.len()
    }

    /// Number of multi-tile-metric moves (runs of one direction), whatever the metric.
    #[getter]
    fn length_mtm(&self) -> usize {
        self.answer
            .solution
            .as_ref()
            .map_or(0, |s| npuzzle::mtm_length(&s.moves))
    }

    /// The metric `length`, `optimal` and `lower_bound` are in: "stm" or "mtm".
    #[getter]
    fn metric(&self) -> &'static str {
        self.answer.metric.name()
    }

    /// The moves with counts, the speedsolving notation: "R2U2LDLD" for "RRUULDLD".
    #[getter]
    fn moves_counts(&self) -> String {
        self.answer
            .solution
            .as_ref()
            .map_or_else(String::new, |s| npuzzle::moves_to_counts(&s.moves))
    }

    /// The moves as letters U D L R, naming the direction the tile slides into the blank.
    #[getter]
    fn moves(&self) -> String {
        self.answer.moves()
    }

    /// Whether the length is proven optimal.
    #[getter]
    fn optimal(&self) -> bool {
        self.answer.is_optimal()
    }

    /// What is proven, in words: `optimal`, `at most W times the optimum`, `not proven optimal`.
    #[getter]
    fn guarantee(&self) -> String {
        self.answer
            .guarantee()
            .map_or_else(String::new, |g| g.to_string())
    }

    /// The proven bound on length / optimal length: 1.0 when optimal, W for weighted A*, None.
    #[getter]
    fn factor(&self) -> Option<f64> {
        self.answer.guarantee().and_then(npuzzle::Guarantee::factor)
    }

    /// The best proven lower bound on the optimal length, in moves.
    #[getter]
    fn lower_bound(&self) -> u32 {
        self.answer.lower_bound
    }

    /// With `all_optimal=True`, `count=True` or `within`: the number of distinct optimal move
    /// sequences; else None.
    #[getter]
    fn optimal_count(&self) -> Option<u64> {
        self.optimal_set
            .as_ref()
            .map(|set| set.counts_by_length.first().map_or(0, |&(_, n)| n))
    }

    /// With `all_optimal=True` or `within`: the optimal ones among the listed solutions
    /// (letters); else empty.
    #[getter]
    fn optimal_solutions(&self) -> Vec<String> {
        let optimum = self.answer.length();
        self.optimal_set.as_ref().map_or_else(Vec::new, |set| {
            set.solutions
                .iter()
                .filter(|(n, _)| *n == optimum)
                .map(|(_, s)| s.clone())
                .collect()
        })
    }

    /// With `within=k`: k; else None.
    #[getter]
    fn within(&self) -> Option<u32> {
        self.optimal_set.as_ref().and_then(|set| set.within)
    }

    /// With `within=k`: the number of solutions within k moves of the optimum; else None.
    #[getter]
    fn within_count(&self) -> Option<u64> {
        self.optimal_set
            .as_ref()
            .filter(|set| set.within.is_some())
            .map(|set| set.counts_by_length.iter().map(|&(_, n)| n).sum())
    }

    /// With `all_optimal=True`, `count=True` or `within`: `(length, count)` pairs from the
    /// optimum to the optimum + k (one pair without `within`), lengths in `metric`; else
    /// empty.
    #[getter]
    fn counts_by_length(&self) -> Vec<(usize, u64)> {
        self.optimal_set
            .as_ref()
            .map_or_else(Vec::new, |set| set.counts_by_length.clone())
    }

    /// With `all_optimal=True` or `within`: the first `limit` solutions, shortest first
    /// (letters); else empty.
    #[getter]
    fn solutions(&self) -> Vec<String> {
        self.optimal_set.as_ref().map_or_else(Vec::new, |set| {
            set.solutions.iter().map(|(_, s)| s.clone()).collect()
        })
    }

    /// The engine that found the solution.
    #[getter]
    fn engine(&self) -> &'static str {
        self.answer.engine.name()
    }

    /// The heuristic it searched with.
    #[getter]
    fn heuristic(&self) -> &'static str {
        self.answer.heuristic.name()
    }

    /// The auto policy's decisions, in words.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.answer.notes.clone()
    }

    /// The start board, as rows.
    #[getter]
    fn board(&self) -> Vec<Vec<u16>> {
        rows(&self.answer.layout)
    }

    /// The goal board, as rows. For a partial goal, the full board the solution reaches.
    #[getter]
    fn goal(&self) -> Vec<Vec<u16>> {
        rows(self.answer.goal.layout())
    }

    /// The partial goal the board was solved for (`goal="first-row"`, `"123xxxxxx"`, ...), as
    /// its board text with `x` for the cells that do not matter; `None` for a full goal.
    #[getter]
    fn partial_goal(&self) -> Option<String> {
        self.answer
            .partial
            .as_ref()
            .map(npuzzle::PartialGoal::board_text)
    }

    /// The search statistics as a dict.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let Some(solution) = &self.answer.solution else {
            return Ok(d);
        };
        let s = &solution.stats;
        d.set_item("expanded", s.expanded)?;
        d.set_item("generated", s.generated)?;
        d.set_item("seconds", s.seconds)?;
        d.set_item("initial_h", s.initial_h)?;
        d.set_item("stored_states", s.stored_states)?;
        d.set_item("peak_memory_bytes", s.peak_memory_bytes)?;
        let iterations = PyList::empty(py);
        for &Iteration {
            threshold,
            expanded,
            generated,
        } in &s.iterations
        {
            let it = PyDict::new(py);
            it.set_item("threshold", threshold)?;
            it.set_item("expanded", expanded)?;
            it.set_item("generated", generated)?;
            iterations.append(it)?;
        }
        d.set_item("iterations", iterations)?;
        Ok(d)
    }

    /// Every board along the solution, the start first and the goal last, each as rows.
    fn boards(&self) -> Vec<Vec<Vec<u16>>> {
        self.answer.boards().iter().map(rows).collect()
    }

    /// The answer as one line of JSON, the line `npuzzle solve --format json` prints.
    fn record(&self) -> PyResult<String> {
        record_json(&self.answer)
    }

    fn __len__(&self) -> usize {
        self.answer.len()
    }

    fn __repr__(&self) -> String {
        let seconds = self
            .answer
            .solution
            .as_ref()
            .map_or(0.0, |s| s.stats.seconds);
        format!(
            "Solution(length={}, moves={:?}, optimal={}, engine={:?}, heuristic={:?}, seconds={seconds:.3})",
            self.answer.len(),
            self.answer.moves(),
            if self.answer.is_optimal() {
                "True"
            } else {
                "False"
            },
            self.answer.engine.name(),
            self.answer.heuristic.name(),
        )
    }
}

/// The options of `npuzzle.solve` that configure a solver (the board, goal, size and limits
/// aside).
pub(crate) struct Options<'a> {
    pub(crate) engine: &'a str,
    pub(crate) heuristic: Option<&'a str>,
    pub(crate) optimal: bool,
    pub(crate) weight: Option<f64>,
    pub(crate) pdb: Option<&'a str>,
    pub(crate) pdb_dir: Option<PathBuf>,
    pub(crate) threads: usize,
    pub(crate) deterministic: bool,
    pub(crate) anytime: f64,
    pub(crate) reflect: bool,
    pub(crate) cycle_check: &'a str,
    pub(crate) metric: &'a str,
}

/// `config` with the options `o` (the CLI's words in every error).
pub(crate) fn configure(py: Python<'_>, config: Config, o: &Options<'_>) -> PyResult<Config> {
    let Options {
        engine,
        heuristic,
        optimal,
        weight,
        pdb,
        ref pdb_dir,
        threads,
        deterministic,
        anytime,
        reflect,
        cycle_check,
        metric,
    } = *o;
    let mut config = config
        .threads(threads)
        .deterministic(deterministic)
        .reflect(reflect)
        .optimal(optimal)
        .anytime_budget(seconds("anytime", anytime)?)
        .observer(Arc::new(Quiet));
    config = match engine {
        "auto" => config.engine_choice(EngineChoice::Auto),
        name => config.engine(Engine::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown engine {name:?}: expected auto, {}",
                Engine::ALL.map(Engine::name).join(", ")
            ))
        })?),
    };
    if let Some(name) = heuristic {
        config = config.heuristic(HeuristicKind::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown heuristic {name:?}: expected {}",
                HeuristicKind::ALL.map(HeuristicKind::name).join(", ")
            ))
        })?);
    }
    config = config.metric(npuzzle::Metric::from_name(metric).ok_or_else(|| {
        PyValueError::new_err(format!("unknown metric {metric:?}: expected stm or mtm"))
    })?);
    config = config.cycle_check(match cycle_check {
        "parent" => CycleCheck::Parent,
        "path" => CycleCheck::Path,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown cycle_check {other:?}: expected parent or path"
            )));
        }
    });
    if let Some(w) = weight {
        config = config.weight(w);
    }
    if let Some(p) = pdb {
        config = config.pdb(p).map_err(|e| to_py(py, e))?;
    }
    if let Some(dir) = pdb_dir.clone() {
        config = config.pdb_dir(dir);
    }
    Ok(config)
}

/// The largest `within` [`solve`] takes (as `npuzzle solve --within`).
const MAX_WITHIN: u32 = 1000;

/// Solves one board; see `npuzzle.solve` in `npuzzle/__init__.pyi` for the arguments.
#[pyfunction]
#[pyo3(signature = (
    board, *, goal=None, engine="auto", heuristic=None, timeout=None, max_nodes=None,
    memory_limit=None, optimal=false, weight=None, pdb=None, pdb_dir=None, size=None,
    threads=0, deterministic=false, anytime=1.0, reflect=true, cycle_check="parent",
    metric="stm", max_depth=None, seed=None, max_steps=None, all_optimal=false, count=false,
    limit=None, within=None
))]
#[expect(
    clippy::too_many_arguments,
    clippy::fn_params_excessive_bools,
    reason = "the CLI's options as keyword arguments"
)]
pub(crate) fn solve(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
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
    max_depth: Option<u32>,
    seed: Option<u64>,
    max_steps: Option<u64>,
    all_optimal: bool,
    count: bool,
    limit: Option<u64>,
    within: Option<u32>,
) -> PyResult<Solution> {
    let size = optional_shape(size)?;
    let layout = layout_of(board, size)?;
    let goal = goal.filter(|g| !g.is_none());
    let base = match goal
        .map(|g| partial_goal_of(g, layout.shape()))
        .transpose()?
    {
        Some(Some(partial)) => Config::new().partial_goal(partial),
        _ => Config::new().goal_kind(match goal {
            Some(g) => goal_of(g, Some(layout.shape()))?,
            None => GoalKind::BlankLast,
        }),
    };
    let mut config = configure(
        py,
        base,
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
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        max_nodes,
        timeout: timeout.map(|t| seconds("timeout", t)).transpose()?,
        memory_bytes: memory_limit,
        cancel: Some(Arc::clone(&cancel)),
    };
    if let Some(d) = max_depth {
        config = config.max_depth(d);
    }
    if let Some(s) = seed {
        config = config.seed(s);
    }
    if let Some(n) = max_steps {
        config = config.max_steps(n);
    }
    if let Some(k) = within
        && k > MAX_WITHIN
    {
        return Err(PyValueError::new_err(format!(
            "bad within {k}: at most {MAX_WITHIN} moves beyond the optimum"
        )));
    }
    let listing = match (all_optimal || count || within.is_some(), limit) {
        (false, Some(_)) => {
            return Err(PyValueError::new_err(
                "limit applies to all_optimal=True and within only",
            ));
        }
        (_, Some(0)) => {
            return Err(PyValueError::new_err(
                "bad limit 0: at least 1 solution (count=True counts without listing)",
            ));
        }
        (false, None) => None,
        (true, _) if count => Some(0),
        (true, k) => Some(usize::try_from(k.unwrap_or(1000)).unwrap_or(usize::MAX)),
    };
    let solver = config
        .tables(tables())
        .limits(limits)
        .build()
        .map_err(|e| to_py(py, e))?;
    let answer = run_released(py, &cancel, move || match listing {
        None => solver.solve(&layout).map(|a| (a, None)),
        Some(k) => solver
            .solutions_within(&layout, within.unwrap_or(0), k, &solver.settings())
            .map(|all| {
                let set = OptimalSet::of(&all);
                (all.answer, Some(set))
            }),
    })?;
    let (answer, optimal_set) = answer.map_err(|e| to_py(py, e))?;
    if !answer.is_solvable() {
        let p = answer.parity;
        return Err(python_error(
            py,
            "Unsolvable",
            (
                format!("unsolvable: {}", p.explain()),
                p.transpositions,
                p.blank_distance,
            ),
        ));
    }
    Ok(Solution {
        answer,
        optimal_set,
    })
}

/// An answer as the JSON line of `npuzzle solve --format json` (`npuzzle::Record`).
pub(crate) fn record_json(answer: &Answer) -> PyResult<String> {
    serde_json::to_string(&Record::from(answer))
        .map_err(|e| PyRuntimeError::new_err(format!("internal error: cannot write JSON: {e}")))
}
