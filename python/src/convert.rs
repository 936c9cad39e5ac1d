//! Python values -> facade values: boards, goals, shapes, seconds, moves.

use std::time::Duration;

use npuzzle::npuzzle_core::parse_moves;
use npuzzle::{
    GoalKind, Layout, Move, PartialGoal, PartialKind, Shape, parse_board, parse_goal, parse_partial,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

use crate::errors::{to_py, value_error};

/// The numbers of a flat sequence of integers, or `None` when `items` is not one.
pub(crate) fn ints(items: &[Bound<'_, PyAny>]) -> PyResult<Option<Vec<i64>>> {
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
pub(crate) fn plain<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if !value.is_instance_of::<PyString>() && value.hasattr("tolist")? {
        value.call_method0("tolist")
    } else {
        Ok(value.clone())
    }
}

/// A board from a Python value: a string in any format the CLI reads; a flat sequence of ints
/// (square unless `size` says otherwise); a sequence of rows; anything with `.tolist()`.
pub(crate) fn layout_of(value: &Bound<'_, PyAny>, size: Option<Shape>) -> PyResult<Layout> {
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
pub(crate) fn line(cells: &[i64]) -> String {
    cells
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A goal: `"blank-last"`, `"blank-first"`, or a board in any form [`layout_of`] reads.
pub(crate) fn goal_of(value: &Bound<'_, PyAny>, size: Option<Shape>) -> PyResult<GoalKind> {
    if let Ok(text) = value.cast::<PyString>() {
        return parse_goal(text.to_str()?, size).map_err(|e| to_py(value.py(), e));
    }
    Ok(GoalKind::Custom(layout_of(value, size)?))
}

/// A partial goal (`npuzzle_core::partial`): `first-row`, `first-rows:K`, `fringe`, or a goal
/// board text with `x` (or `?`, `*`, `_`) for the cells that do not matter; `None` for any
/// other value, which [`goal_of`] reads as a full goal.
///
/// # Errors
/// `ValueError` for a partial goal that is malformed or does not fit the board's shape.
pub(crate) fn partial_goal_of(
    value: &Bound<'_, PyAny>,
    shape: Shape,
) -> PyResult<Option<PartialKind>> {
    let Ok(text) = value.cast::<PyString>() else {
        return Ok(None);
    };
    let text = text.to_str()?;
    let kind = parse_partial(text, Some(shape)).map_err(value_error)?;
    if let Some(k) = &kind {
        PartialGoal::new(k, shape).map_err(value_error)?;
    }
    Ok(kind)
}

/// A board shape: `"4x4"` (`WxH`, W columns by H rows), `4` (square), or `(4, 3)` (W, H).
pub(crate) fn shape_of(value: &Bound<'_, PyAny>) -> PyResult<Shape> {
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

pub(crate) fn optional_shape(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Shape>> {
    value.filter(|v| !v.is_none()).map(shape_of).transpose()
}

/// Seconds as a [`Duration`]; `what` names the argument in the error.
pub(crate) fn seconds(what: &str, s: f64) -> PyResult<Duration> {
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

/// Moves from their letters (`U D L R`).
pub(crate) fn moves_of(text: &str) -> PyResult<Vec<Move>> {
    parse_moves(text).map_err(value_error)
}
