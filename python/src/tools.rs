//! `check`, `generate`, `pdb_build`, `parse_instances`, `read_boards`.

use std::hash::{BuildHasher, RandomState};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use npuzzle::databases::build_into_cache;
use npuzzle::generate::{Method, generate as draw};
use npuzzle::npuzzle_core::parse_instances as parse_instance_text;
use npuzzle::npuzzle_pdb::{Cache, PartitionSpec, PlainKind};
use npuzzle::{Error, Goal, GoalKind, PartialGoal, Quiet};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::convert::{goal_of, layout_of, line, optional_shape, partial_goal_of, shape_of};
use crate::errors::{rows, to_py, value_error};
use crate::release::run_released;

/// Solvability and lower bounds without search; see `npuzzle.check`.
#[pyfunction]
#[pyo3(signature = (board, *, goal=None, size=None, moves=None, max_nodes=None))]
pub(crate) fn check<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    size: Option<&Bound<'py, PyAny>>,
    moves: Option<&str>,
    max_nodes: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let layout = layout_of(board, optional_shape(size)?)?;
    let goal = goal.filter(|g| !g.is_none());
    let partial = goal
        .map(|g| partial_goal_of(g, layout.shape()))
        .transpose()?
        .flatten();
    let kind = match (goal, &partial) {
        (Some(g), None) => goal_of(g, Some(layout.shape()))?,
        _ => GoalKind::BlankLast,
    };
    if let Some(text) = moves {
        let moves = npuzzle::check::read_moves(text).map_err(|e| to_py(py, e))?;
        let base = npuzzle::check::check_config("blank-last").map_err(|e| to_py(py, e))?;
        let mut config = match partial {
            // A partial goal searches with its own tables (`npuzzle::check::check_config_in`).
            Some(p) => base.partial_goal(p).heuristic(npuzzle::HeuristicKind::Pdb),
            None => base.goal_kind(kind),
        };
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
    let c = if let Some(p) = &partial {
        let p = PartialGoal::new(p, layout.shape()).map_err(value_error)?;
        npuzzle::check::check_partial(&layout, &p).map_err(|e| to_py(py, e))?
    } else {
        let goal = Goal::new(&kind, layout.shape()).map_err(value_error)?;
        npuzzle::check::check(&layout, &goal).map_err(|e| to_py(py, e))?
    };
    let goal = &c.goal;
    let d = PyDict::new(py);
    d.set_item("solvable", c.parity.solvable)?;
    d.set_item("explanation", c.parity.explain())?;
    d.set_item("transpositions", c.parity.transpositions)?;
    d.set_item("blank_distance", c.parity.blank_distance)?;
    d.set_item("manhattan", c.manhattan)?;
    d.set_item("linear_conflict", c.linear_conflict)?;
    d.set_item("size", layout.shape().to_string())?;
    d.set_item("goal", rows(goal.layout()))?;
    d.set_item(
        "partial_goal",
        c.partial.as_ref().map(PartialGoal::board_text),
    )?;
    Ok(d)
}

/// `npuzzle::check::SolutionCheck` as a dict with the keys of its JSON form
/// (`npuzzle check --moves ... --format json`).
pub(crate) fn judgement_dict<'py>(
    py: Python<'py>,
    c: &npuzzle::check::SolutionCheck,
) -> PyResult<Bound<'py, PyDict>> {
    use npuzzle::check::Optimum;
    let d = PyDict::new(py);
    d.set_item("board", &c.board)?;
    d.set_item("width", c.width)?;
    d.set_item("height", c.height)?;
    d.set_item("goal", &c.goal)?;
    d.set_item("partial_goal", &c.partial_goal)?;
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
pub(crate) fn generate(
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
pub(crate) fn pdb_build<'py>(
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
        build_into_cache::<PlainKind>(&goal, &spec, &cache, &Quiet)
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
pub(crate) fn parse_instances<'py>(
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
pub(crate) fn read_boards(text: &str, size: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
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
