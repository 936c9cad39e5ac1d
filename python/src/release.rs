//! Running a search with the GIL released, cancellable from Python (Ctrl-C, `stop()`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::POLL;

/// Runs `job` on its own thread with the GIL released. Every [`POLL`] the calling thread takes
/// the GIL back and runs Python's signal handlers; if one raises (Ctrl-C raises
/// `KeyboardInterrupt`), `cancel` is set and the exception is returned at once (the job sees
/// the flag and ends on its own).
pub(crate) fn run_released<T: Send + 'static>(
    py: Python<'_>,
    cancel: &AtomicBool,
    job: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    run_released_until(py, cancel, None, job)
}

/// [`run_released`], also calling `stop()` (a Python callable) every [`POLL`]: when it returns
/// true, `cancel` is set and the job's own answer (a cancelled search) is awaited and returned.
pub(crate) fn run_released_until<T: Send + 'static>(
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
