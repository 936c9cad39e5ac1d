//! `npuzzle._npuzzle`: the native half of the Python package `npuzzle` (`PyO3`).
//!
//! Glue only: every function converts its Python arguments, calls the `npuzzle` library facade
//! (`npuzzle::Config`, `npuzzle::check`, `npuzzle::generate`, `npuzzle::databases::open`) and
//! converts the answer back. Boards and goals are turned into the text the CLI reads and parsed
//! by the facade's own parser, so the formats and the error messages are the CLI's.
//!
//! Searches run on a separate thread with the GIL released; the calling thread wakes every
//! 50 ms (`POLL`) to run Python's signal handlers, and when one raises (Ctrl-C: `KeyboardInterrupt`)
//! it sets the search's cancel flag (`npuzzle::Config::cancel`) and re-raises.
//!
//! The Python-level API, its docstrings and the exception classes are in `npuzzle/__init__.py`
//! and `npuzzle/_errors.py`; the type stubs in `npuzzle/__init__.pyi`.

use std::convert::Infallible;
use std::hash::{BuildHasher, RandomState};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use npuzzle::databases::build_into_cache;
use npuzzle::generate::{Method, generate as draw};
use npuzzle::npuzzle_core::{Iteration, parse_instances as parse_instance_text};
use npuzzle::npuzzle_core::{moves_to_string, parse_moves};
use npuzzle::npuzzle_idastar::SubtreeEnd;
use npuzzle::npuzzle_pdb::{Cache, PartitionSpec};
use npuzzle::{
    Answer, Config, CycleCheck, Engine, EngineChoice, Error, Goal, GoalKind, HeuristicKind, Layout,
    Limit, Limits, Move, Npuzzle, Progress, Quiet, Record, SearchError, SearchSettings, Setting,
    Shape, Stats, Tables, parse_board, parse_goal,
};
use pyo3::BoundObject;
use pyo3::call::PyCallArgs;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyString};

/// How often the waiting thread runs Python's signal handlers during a search: 50 ms.
const POLL: Duration = Duration::from_millis(50);

// ---------------------------------------------------------------------------------------------
// Python values -> facade values

/// The numbers of a flat sequence of integers, or `None` when `items` is not one.
fn ints(items: &[Bound<'_, PyAny>]) -> PyResult<Option<Vec<i64>>> {
    if !items
        .first()
        .is_some_and(PyAnyMethods::is_instance_of::<PyInt>)
    {
        return Ok(None);
    }
    items
        .iter()
        .map(|v| {
            v.extract::<i64>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "a board is a flat sequence of ints or a sequence of rows of ints; found {}",
                    v.repr().map_or_else(|_| "?".into(), |r| r.to_string())
                ))
            })
        })
        .collect::<PyResult<Vec<i64>>>()
        .map(Some)
}

/// `value.tolist()` for numpy arrays and the like (duck-typed: numpy is not a dependency), else
/// the value itself.
fn plain<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if !value.is_instance_of::<PyString>() && value.hasattr("tolist")? {
        value.call_method0("tolist")
    } else {
        Ok(value.clone())
    }
}

/// A board from a Python value: a string in any format the CLI reads; a flat sequence of ints
/// (square unless `size` says otherwise); a sequence of rows; anything with `.tolist()`.
fn layout_of(value: &Bound<'_, PyAny>, size: Option<Shape>) -> PyResult<Layout> {
    let value = plain(value)?;
    if let Ok(text) = value.cast::<PyString>() {
        return parse_board(text.to_str()?, size).map_err(value_error);
    }
    let items: Vec<Bound<'_, PyAny>> = value
        .try_iter()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "a board is a string, a sequence of ints, a sequence of rows or an array; found {}",
                value
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".into(), |n| n.to_string())
            ))
        })?
        .collect::<PyResult<_>>()?;
    if let Some(cells) = ints(&items)? {
        return parse_board(&line(&cells), size).map_err(value_error);
    }
    let mut rows = Vec::with_capacity(items.len());
    for (i, row) in items.iter().enumerate() {
        let row = plain(row)?;
        let cells: Vec<Bound<'_, PyAny>> = match row.try_iter() {
            Ok(it) if !row.is_instance_of::<PyString>() => it.collect::<PyResult<_>>()?,
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "row {} of the board is not a sequence of ints",
                    i + 1
                )));
            }
        };
        match ints(&cells)? {
            Some(cells) => rows.push(cells),
            None => {
                return Err(PyTypeError::new_err(format!(
                    "row {} of the board is not a sequence of ints",
                    i + 1
                )));
            }
        }
    }
    let Some(first) = rows.first() else {
        return parse_board("", size).map_err(value_error);
    };
    let width = first.len();
    if let Some((i, row)) = rows.iter().enumerate().find(|(_, r)| r.len() != width) {
        return Err(PyValueError::new_err(format!(
            "row {} of the board has {} numbers, row 1 has {width}: rows must have equal length",
            i + 1,
            row.len()
        )));
    }
    let shape = Shape::new(width, rows.len()).map_err(value_error)?;
    if let Some(s) = size
        && s != shape
    {
        return Err(PyValueError::new_err(format!(
            "the board has {} rows of {width} numbers ({shape}) but size={s} was given",
            rows.len()
        )));
    }
    parse_board(&line(&rows.concat()), Some(shape)).map_err(value_error)
}

/// Numbers as one line of text.
fn line(cells: &[i64]) -> String {
    cells
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A goal: `"blank-last"`, `"blank-first"`, or a board in any form [`layout_of`] reads.
fn goal_of(value: &Bound<'_, PyAny>, size: Option<Shape>) -> PyResult<GoalKind> {
    if let Ok(text) = value.cast::<PyString>() {
        return parse_goal(text.to_str()?, size).map_err(|e| to_py(value.py(), e));
    }
    Ok(GoalKind::Custom(layout_of(value, size)?))
}

/// A board shape: `"4x4"` (`WxH`, W columns by H rows), `4` (square), or `(4, 3)` (W, H).
fn shape_of(value: &Bound<'_, PyAny>) -> PyResult<Shape> {
    if let Ok(text) = value.cast::<PyString>() {
        return text.to_str()?.parse().map_err(value_error);
    }
    if let Ok(n) = value.extract::<usize>() {
        return Shape::square(n).map_err(value_error);
    }
    if let Ok((w, h)) = value.extract::<(usize, usize)>() {
        return Shape::new(w, h).map_err(value_error);
    }
    Err(PyTypeError::new_err(
        "a size is a string \"WxH\", an int (square) or a tuple (W, H)",
    ))
}

fn optional_shape(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Shape>> {
    value.filter(|v| !v.is_none()).map(shape_of).transpose()
}

/// Seconds as a [`Duration`]; `what` names the argument in the error.
fn seconds(what: &str, s: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(s).map_err(|_| {
        PyValueError::new_err(if s.is_finite() && s > 0.0 {
            format!(
                "{what} {s} is too long: at most {} seconds (about 585 billion years)",
                u64::MAX
            )
        } else {
            format!("{what} must be a non-negative number of seconds, not {s}")
        })
    })
}

// ---------------------------------------------------------------------------------------------
// Facade values -> Python values

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// An exception class of `npuzzle/_errors.py`, called with `args`.
fn python_error<'py>(py: Python<'py>, class: &str, args: impl PyCallArgs<'py>) -> PyErr {
    let made = py
        .import("npuzzle._errors")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call1(args));
    match made {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

/// A facade error as a Python exception: `LimitReached` for a limit, `PdbError` for the
/// pattern databases, `RuntimeError` for an internal error, `ValueError` for everything else
/// (bad board, goal, options), with the CLI's message.
fn to_py(py: Python<'_>, e: Error) -> PyErr {
    let message = e.describe(&keyword);
    match e {
        Error::Search(SearchError::LimitReached { limit, progress }) => {
            // `Limit` is non-exhaustive: a limit without a value (cancellation, or one added
            // later) gives None.
            let name = limit.name();
            let value = match limit {
                Limit::Nodes(n) | Limit::Steps(n) | Limit::Memory(n) => any(py, n),
                Limit::Time(s) => any(py, s),
                Limit::Depth(d) => any(py, d),
                _ => py.None().into_bound(py),
            };
            match progress_dict(py, &progress) {
                Ok(p) => python_error(py, "LimitReached", (message, name, value, p)),
                Err(e) => e,
            }
        }
        Error::Pdb { .. } => python_error(py, "PdbError", (message,)),
        Error::Internal(_) => PyRuntimeError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// A Python int or float.
fn any<'py, T: IntoPyObject<'py, Error = Infallible>>(py: Python<'py>, v: T) -> Bound<'py, PyAny> {
    let Ok(v) = v.into_pyobject(py);
    v.into_any().into_bound()
}

fn progress_dict<'py>(py: Python<'py>, p: &Progress) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("expanded", p.expanded)?;
    d.set_item("generated", p.generated)?;
    d.set_item("seconds", p.seconds)?;
    d.set_item("bound", p.bound)?;
    d.set_item("stored_states", p.stored_states)?;
    Ok(d)
}

/// A board as a list of rows.
fn rows(layout: &Layout) -> Vec<Vec<u16>> {
    layout
        .cells()
        .chunks(layout.shape().width())
        .map(<[u16]>::to_vec)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Running with the GIL released, cancellable from Python

/// Runs `job` on its own thread with the GIL released. Every [`POLL`] the calling thread takes
/// the GIL back and runs Python's signal handlers; if one raises (Ctrl-C raises
/// `KeyboardInterrupt`), `cancel` is set and the exception is returned at once (the job sees
/// the flag and ends on its own).
fn run_released<T: Send + 'static>(
    py: Python<'_>,
    cancel: &AtomicBool,
    job: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    run_released_until(py, cancel, None, job)
}

/// [`run_released`], also calling `stop()` (a Python callable) every [`POLL`]: when it returns
/// true, `cancel` is set and the job's own answer (a cancelled search) is awaited and returned.
fn run_released_until<T: Send + 'static>(
    py: Python<'_>,
    cancel: &AtomicBool,
    stop: Option<&Bound<'_, PyAny>>,
    job: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, mut rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("npuzzle".into())
        .spawn(move || {
            // The receiver may be gone (the caller was interrupted): nothing to tell then.
            let _ = tx.send(job());
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the search thread: {e}")))?;
    loop {
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(POLL);
            (rx, got)
        });
        rx = back;
        match got {
            Ok(value) => return Ok(value),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "internal error: the search thread panicked",
                ));
            }
        }
        if let Err(interrupt) = py.check_signals() {
            cancel.store(true, Ordering::Relaxed);
            return Err(interrupt);
        }
        if let Some(stop) = stop
            && !cancel.load(Ordering::Relaxed)
            && stop.call0()?.is_truthy()?
        {
            cancel.store(true, Ordering::Relaxed);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// solve

/// The pattern databases every solve of this process shares (`npuzzle::Tables`): a solver is
/// built per call from its options (validation only, microseconds), and a table opened by one
/// call is never reopened by the next with the same partition, cache directory, reflection,
/// goal and shape.
fn tables() -> Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::new).clone()
}

/// Python's words for a setting named in an error: the keyword arguments of `npuzzle.solve`.
fn keyword(s: Setting) -> String {
    match s {
        Setting::Goal => "goal",
        Setting::Engine => "engine",
        Setting::Heuristic => "heuristic",
        Setting::Pdb => "pdb",
        Setting::NoReflect => "reflect=False",
        Setting::PathCycleCheck => "cycle_check=\"path\"",
        Setting::FsmCycleCheck => "cycle_check=\"fsm\"",
        Setting::Optimal => "optimal=True",
        Setting::Weight => "weight",
        Setting::Threads => "threads",
        Setting::Metric => "metric",
        Setting::Moves => "moves",
        Setting::AllOptimal => "all_optimal",
        Setting::Limit => "limit",
        Setting::MaxDepth => "max_depth",
        Setting::Seed => "seed",
        Setting::MaxSteps => "max_steps",
        other => return other.name().to_string(),
    }
    .to_string()
}

/// The result of [`solve`]: a solution replayed to the goal, what is proven about its length,
/// and the search statistics. Documented in `npuzzle/__init__.pyi`.
#[pyclass(frozen, name = "Solution", module = "npuzzle")]
struct Solution {
    answer: Answer,
    /// With `all_optimal` / `count`: the number of optimal solutions and those listed.
    optimal_set: Option<(u64, Vec<String>)>,
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

    /// With `all_optimal=True` or `count=True`: the number of distinct optimal move
    /// sequences; else None.
    #[getter]
    fn optimal_count(&self) -> Option<u64> {
        self.optimal_set.as_ref().map(|(n, _)| *n)
    }

    /// With `all_optimal=True`: the first `limit` optimal solutions (letters); else empty.
    #[getter]
    fn optimal_solutions(&self) -> Vec<String> {
        self.optimal_set
            .as_ref()
            .map_or_else(Vec::new, |(_, list)| list.clone())
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

    /// The goal board, as rows.
    #[getter]
    fn goal(&self) -> Vec<Vec<u16>> {
        rows(self.answer.goal.layout())
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
struct Options<'a> {
    engine: &'a str,
    heuristic: Option<&'a str>,
    optimal: bool,
    weight: Option<f64>,
    pdb: Option<&'a str>,
    pdb_dir: Option<PathBuf>,
    threads: usize,
    deterministic: bool,
    anytime: f64,
    reflect: bool,
    cycle_check: &'a str,
    metric: &'a str,
}

/// `config` with the options `o` (the CLI's words in every error).
fn configure(py: Python<'_>, config: Config, o: &Options<'_>) -> PyResult<Config> {
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

/// Solves one board; see `npuzzle.solve` in `npuzzle/__init__.pyi` for the arguments.
#[pyfunction]
#[pyo3(signature = (
    board, *, goal=None, engine="auto", heuristic=None, timeout=None, max_nodes=None,
    memory_limit=None, optimal=false, weight=None, pdb=None, pdb_dir=None, size=None,
    threads=0, deterministic=false, anytime=1.0, reflect=true, cycle_check="parent",
    metric="stm", max_depth=None, seed=None, max_steps=None, all_optimal=false, count=false,
    limit=None
))]
#[expect(
    clippy::too_many_arguments,
    clippy::fn_params_excessive_bools,
    reason = "the CLI's options as keyword arguments"
)]
fn solve(
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
) -> PyResult<Solution> {
    let size = optional_shape(size)?;
    let layout = layout_of(board, size)?;
    let goal = match goal.filter(|g| !g.is_none()) {
        Some(g) => goal_of(g, Some(layout.shape()))?,
        None => GoalKind::BlankLast,
    };
    let mut config = configure(
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
    let listing = match (all_optimal || count, limit) {
        (false, Some(_)) => {
            return Err(PyValueError::new_err(
                "limit applies to all_optimal=True only",
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
            .all_optimal(&layout, k, &solver.settings())
            .map(|all| {
                let list = all
                    .solutions
                    .iter()
                    .map(|s| npuzzle::moves_to_string(s))
                    .collect();
                (all.answer, Some((all.count, list)))
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

// ---------------------------------------------------------------------------------------------
// _Solver: a long-lived solver for npuzzle.distributed's workers

/// An answer as the JSON line of `npuzzle solve --format json` (`npuzzle::Record`).
fn record_json(answer: &Answer) -> PyResult<String> {
    serde_json::to_string(&Record::from(answer))
        .map_err(|e| PyRuntimeError::new_err(format!("internal error: cannot write JSON: {e}")))
}

/// Moves from their letters (`U D L R`).
fn moves_of(text: &str) -> PyResult<Vec<Move>> {
    parse_moves(text).map_err(value_error)
}

/// One configuration of `npuzzle.solve`'s options, built once and kept: `npuzzle.distributed`
/// keeps one per worker process and configuration, so that the process opens its pattern
/// databases once (they are shared with every `solve` of the process through the same
/// `npuzzle::Tables`) and its threads share them. Documented in `npuzzle/distributed.py`.
#[pyclass(frozen, name = "_Solver", module = "npuzzle._npuzzle")]
struct DistSolver {
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
        let f = plan.frontier;
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
        d.set_item("heuristic", plan.heuristic.name())?;
        Ok(d)
    }

    /// `npuzzle::Npuzzle::search_subtrees` with the GIL released: a dict with `solution`
    /// (moves or `None`), `next_threshold` (`None`: none), `expanded`, `generated`, `seconds`.
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
        let nodes = paths
            .iter()
            .map(|p| moves_of(p))
            .collect::<PyResult<Vec<_>>>()?;
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

// ---------------------------------------------------------------------------------------------
// check, generate, pdb_build, parse_instances

/// Solvability and lower bounds without search; see `npuzzle.check`.
#[pyfunction]
#[pyo3(signature = (board, *, goal=None, size=None, moves=None, max_nodes=None))]
fn check<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    size: Option<&Bound<'py, PyAny>>,
    moves: Option<&str>,
    max_nodes: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let layout = layout_of(board, optional_shape(size)?)?;
    let kind = match goal.filter(|g| !g.is_none()) {
        Some(g) => goal_of(g, Some(layout.shape()))?,
        None => GoalKind::BlankLast,
    };
    if let Some(text) = moves {
        let moves = npuzzle::check::read_moves(text).map_err(|e| to_py(py, e))?;
        let mut config = npuzzle::check::check_config("blank-last")
            .map_err(|e| to_py(py, e))?
            .goal_kind(kind);
        if let Some(n) = max_nodes {
            config = config.max_nodes(n);
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let solver = config
            .cancel(Arc::clone(&cancel))
            .build()
            .map_err(|e| to_py(py, e))?;
        let judged = run_released(py, &cancel, move || {
            solver.check_solution(&layout, &moves, &solver.settings())
        })?
        .map_err(|e| to_py(py, e))?;
        return judgement_dict(py, &judged);
    }
    if max_nodes.is_some() {
        return Err(PyValueError::new_err(
            "max_nodes applies to check(moves=...) only",
        ));
    }
    let goal = Goal::new(&kind, layout.shape()).map_err(value_error)?;
    let c = npuzzle::check::check(&layout, &goal).map_err(|e| to_py(py, e))?;
    let d = PyDict::new(py);
    d.set_item("solvable", c.parity.solvable)?;
    d.set_item("explanation", c.parity.explain())?;
    d.set_item("transpositions", c.parity.transpositions)?;
    d.set_item("blank_distance", c.parity.blank_distance)?;
    d.set_item("manhattan", c.manhattan)?;
    d.set_item("linear_conflict", c.linear_conflict)?;
    d.set_item("size", layout.shape().to_string())?;
    d.set_item("goal", rows(goal.layout()))?;
    Ok(d)
}

/// `npuzzle::check::SolutionCheck` as a dict with the keys of its JSON form
/// (`npuzzle check --moves ... --format json`).
fn judgement_dict<'py>(
    py: Python<'py>,
    c: &npuzzle::check::SolutionCheck,
) -> PyResult<Bound<'py, PyDict>> {
    use npuzzle::check::Optimum;
    let d = PyDict::new(py);
    d.set_item("board", &c.board)?;
    d.set_item("width", c.width)?;
    d.set_item("height", c.height)?;
    d.set_item("goal", &c.goal)?;
    d.set_item("moves", &c.moves)?;
    d.set_item("length", c.length)?;
    d.set_item("legal", c.legal)?;
    match &c.illegal {
        Some(i) => {
            let x = PyDict::new(py);
            x.set_item("index", i.index)?;
            x.set_item("move", i.mv.to_string())?;
            x.set_item("blank_cell", i.blank_cell)?;
            x.set_item("blank_row", i.blank_row)?;
            x.set_item("blank_column", i.blank_column)?;
            x.set_item("reason", &i.reason)?;
            d.set_item("illegal", x)?;
        }
        None => d.set_item("illegal", py.None())?,
    }
    d.set_item("reached", &c.reached)?;
    d.set_item("solves", c.solves)?;
    let wrong = PyList::empty(py);
    for w in &c.wrong_cells {
        let x = PyDict::new(py);
        x.set_item("cell", w.cell)?;
        x.set_item("row", w.row)?;
        x.set_item("column", w.column)?;
        x.set_item("tile", w.tile)?;
        x.set_item("expected", w.expected)?;
        wrong.append(x)?;
    }
    d.set_item("wrong_cells", wrong)?;
    d.set_item("solvable", c.solvable)?;
    d.set_item("parity", &c.parity)?;
    let o = PyDict::new(py);
    match &c.optimum {
        Optimum::Known { length, moves, how } => {
            o.set_item("kind", "known")?;
            o.set_item("length", length)?;
            o.set_item("moves", moves)?;
            o.set_item("how", how)?;
        }
        Optimum::AtLeast { lower_bound, how } => {
            o.set_item("kind", "at-least")?;
            o.set_item("lower_bound", lower_bound)?;
            o.set_item("how", how)?;
        }
        Optimum::Unsolvable => o.set_item("kind", "unsolvable")?,
    }
    d.set_item("optimum", o)?;
    d.set_item("optimal", c.optimal)?;
    d.set_item("extra_moves", c.extra_moves)?;
    d.set_item("verdict", c.verdict())?;
    Ok(d)
}

/// Reproducible random solvable boards; see `npuzzle.generate`.
#[pyfunction]
#[pyo3(signature = (size, *, seed=None, count=1, walk=None, goal=None))]
fn generate(
    size: &Bound<'_, PyAny>,
    seed: Option<u64>,
    count: u64,
    walk: Option<u64>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Vec<Vec<u16>>>> {
    let shape = shape_of(size)?;
    let kind = match goal.filter(|g| !g.is_none()) {
        Some(g) => goal_of(g, Some(shape))?,
        None => GoalKind::BlankLast,
    };
    let goal = Goal::new(&kind, shape).map_err(value_error)?;
    let method = walk.map_or(Method::Uniform, Method::Walk);
    npuzzle::generate::check(method, count).map_err(value_error)?;
    // Without a seed, a random one from the OS-seeded hasher keys of the standard library.
    let seed = seed.unwrap_or_else(|| RandomState::new().hash_one(Instant::now()));
    Ok(draw(&goal, method, seed, count).map(|l| rows(&l)).collect())
}

/// Builds (or checks) pattern databases in the cache; see `npuzzle.pdb_build`.
#[pyfunction]
#[pyo3(signature = (size, *, partition="default", goal=None, pdb_dir=None))]
fn pdb_build<'py>(
    py: Python<'py>,
    size: &Bound<'py, PyAny>,
    partition: &str,
    goal: Option<&Bound<'py, PyAny>>,
    pdb_dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let shape = shape_of(size)?;
    let spec: PartitionSpec = partition
        .parse()
        .map_err(|e| PyValueError::new_err(format!("bad partition: {e}")))?;
    let kind = match goal.filter(|g| !g.is_none()) {
        Some(g) => goal_of(g, Some(shape))?,
        None => GoalKind::BlankLast,
    };
    let goal = Goal::new(&kind, shape).map_err(value_error)?;
    let cache = Cache::locate(pdb_dir.as_deref()).map_err(|source| {
        to_py(
            py,
            Error::Pdb {
                what: "cache".into(),
                source,
            },
        )
    })?;
    let dir = cache.dir().to_path_buf();
    let cancel = Arc::new(AtomicBool::new(false));
    let cache = cache.cancel_on(Arc::clone(&cancel));
    let (name, goal_name) = (spec.to_string(), goal.name());
    let start = Instant::now();
    // Ctrl-C returns at once and sets `cancel`: the build stops within milliseconds in the
    // background, storing nothing more.
    let db = run_released(py, &cancel, move || {
        build_into_cache(&goal, &spec, &cache, &Quiet)
    })?
    .map_err(|e| to_py(py, e))?;
    let d = PyDict::new(py);
    d.set_item("partition", name)?;
    d.set_item("groups", db.partition())?;
    d.set_item("size", shape.to_string())?;
    d.set_item("goal", goal_name)?;
    d.set_item("bytes", db.table_bytes())?;
    d.set_item("dir", dir.display().to_string())?;
    d.set_item("seconds", start.elapsed().as_secs_f64())?;
    Ok(d)
}

/// Reads benchmark instance files; see `npuzzle.parse_instances`.
#[pyfunction]
#[pyo3(signature = (text, *, size=None))]
fn parse_instances<'py>(
    py: Python<'py>,
    text: &str,
    size: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let instances = parse_instance_text(text, optional_shape(size)?).map_err(value_error)?;
    let out = PyList::empty(py);
    for i in instances {
        let d = PyDict::new(py);
        d.set_item("id", i.id)?;
        d.set_item("board", rows(&i.board))?;
        d.set_item("optimal", i.optimal)?;
        d.set_item("line", i.line)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The boards of a text as `npuzzle solve` reads a file (any board format, one board after the
/// other; a benchmark instance file's boards, its known lengths ignored), each as text: its
/// rows on lines (the shape unambiguous, and cheaper to send and parse than lists). Raises
/// `ValueError` with the CLI's message for the first malformed board.
#[pyfunction]
#[pyo3(signature = (text, *, size=None))]
fn read_boards(text: &str, size: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let size = optional_shape(size)?;
    let boards = match npuzzle::parse_boards(text, size) {
        Ok(boards) => boards,
        Err(e) => match parse_instance_text(text, size) {
            Ok(instances) => instances.into_iter().map(|i| i.board).collect(),
            Err(_) => return Err(value_error(e)),
        },
    };
    Ok(boards
        .iter()
        .map(|b| {
            rows(b)
                .iter()
                .map(|r| line(&r.iter().map(|&t| i64::from(t)).collect::<Vec<_>>()))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect())
}

/// The native module `npuzzle._npuzzle`.
#[pymodule]
fn _npuzzle(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Solution>()?;
    m.add_class::<DistSolver>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(pdb_build, m)?)?;
    m.add_function(wrap_pyfunction!(parse_instances, m)?)?;
    m.add_function(wrap_pyfunction!(read_boards, m)?)?;
    m.add("ENGINE_NAMES", Engine::ALL.map(Engine::name).to_vec())?;
    m.add(
        "HEURISTIC_NAMES",
        HeuristicKind::ALL.map(HeuristicKind::name).to_vec(),
    )?;
    Ok(())
}
