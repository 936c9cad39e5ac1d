//! Facade values -> Python values: errors as exceptions, progress and boards as Python objects.

use std::convert::Infallible;

use npuzzle::{Error, Layout, Limit, Progress, SearchError, Setting};
use pyo3::BoundObject;
use pyo3::call::PyCallArgs;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// An exception class of `npuzzle/_errors.py`, called with `args`.
pub(crate) fn python_error<'py>(py: Python<'py>, class: &str, args: impl PyCallArgs<'py>) -> PyErr {
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
pub(crate) fn to_py(py: Python<'_>, e: Error) -> PyErr {
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
pub(crate) fn any<'py, T: IntoPyObject<'py, Error = Infallible>>(
    py: Python<'py>,
    v: T,
) -> Bound<'py, PyAny> {
    let Ok(v) = v.into_pyobject(py);
    v.into_any().into_bound()
}

pub(crate) fn progress_dict<'py>(py: Python<'py>, p: &Progress) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("expanded", p.expanded)?;
    d.set_item("generated", p.generated)?;
    d.set_item("seconds", p.seconds)?;
    d.set_item("bound", p.bound)?;
    d.set_item("stored_states", p.stored_states)?;
    d.set_item(
        "bound_kind",
        match p.bound_kind {
            npuzzle::BoundKind::StartEstimate => "start-estimate",
            npuzzle::BoundKind::FBound => "f-bound",
        },
    )?;
    Ok(d)
}

/// A board as a list of rows.
pub(crate) fn rows(layout: &Layout) -> Vec<Vec<u16>> {
    layout
        .cells()
        .chunks(layout.shape().width())
        .map(<[u16]>::to_vec)
        .collect()
}

/// Python's words for a setting named in an error: the keyword arguments of `npuzzle.solve`.
pub(crate) fn keyword(s: Setting) -> String {
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
