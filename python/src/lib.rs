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

mod convert;
mod distributed;
mod errors;
mod release;
mod solve;
mod tools;

use std::time::Duration;

use npuzzle::{Engine, HeuristicKind};
use pyo3::prelude::*;

use crate::distributed::DistSolver;
use crate::solve::Solution;
use crate::tools::{check, generate, parse_instances, pdb_build, read_boards};

/// How often the waiting thread runs Python's signal handlers during a search: 50 ms.
const POLL: Duration = Duration::from_millis(50);

/// The native module `npuzzle._npuzzle`.
#[pymodule]
fn _npuzzle(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Solution>()?;
    m.add_class::<DistSolver>()?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
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
