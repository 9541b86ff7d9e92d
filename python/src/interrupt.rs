//! Running a search off the Python thread: the GIL released while it runs,
//! and Ctrl-C heard within a fraction of a second.
//!
//! Python runs signal handlers (the one that raises `KeyboardInterrupt`
//! included) only on its main thread, and only when that thread runs Python
//! or asks for them ([`Python::check_signals`]). So the search runs on a
//! helper thread, and the calling thread waits for it in slices with the GIL
//! released, asking for the signals between slices. When a handler raises,
//! the search is told to stop through the solver's stop flag
//! ([`c4::Engine::set_stop_flag`]), the caller waits for it to end (a
//! stopped search returns within a few thousand nodes and stores nothing)
//! and the exception goes up to Python.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How long the caller waits, GIL released, between two looks at Python's
/// signals: Ctrl-C is heard within this (plus the few thousand nodes a
/// search takes to see its stop flag), and the waiting costs nothing
/// measurable.
const SIGNAL_SLICE: Duration = Duration::from_millis(50);

/// Why a job did not give its answer.
pub enum Stopped {
    /// A signal handler raised this exception (`KeyboardInterrupt` for
    /// Ctrl-C); the job was stopped and has ended.
    Signal(PyErr),
    /// The job panicked: a bug, reported as `RuntimeError` with the panic's
    /// message. The solver's state may be half-updated: the caller resets it.
    Panic(PyErr),
}

impl From<Stopped> for PyErr {
    fn from(stopped: Stopped) -> PyErr {
        match stopped {
            Stopped::Signal(e) | Stopped::Panic(e) => e,
        }
    }
}

/// Runs `job` on a helper thread while this one waits with the GIL
/// released, checking Python's signals every [`SIGNAL_SLICE`]. On a signal,
/// raises `stop` (which the job's searches read), waits for the job to end,
/// lowers `stop` again and gives the handler's exception. A panic of the
/// job is caught here and never crosses into Python.
pub fn run_stoppable<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    job: impl FnOnce() -> T + Send,
) -> Result<T, Stopped> {
    let done = AtomicBool::new(false);
    let caller = thread::current();
    thread::scope(|scope| {
        let worker = thread::Builder::new()
            .name("c4-search".into())
            .spawn_scoped(scope, || {
                let outcome = catch_unwind(AssertUnwindSafe(job));
                done.store(true, Ordering::Release);
                caller.unpark();
                outcome
            })
            .map_err(|e| {
                Stopped::Panic(PyRuntimeError::new_err(format!(
                    "cannot start the search thread: {e}"
                )))
            })?;
        let mut signal = None;
        while !py.detach(|| wait_slice(&done)) {
            if let Err(e) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                signal = Some(e);
                break;
            }
        }
        let outcome = py.detach(|| worker.join());
        stop.store(false, Ordering::Relaxed);
        if let Some(e) = signal {
            return Err(Stopped::Signal(e));
        }
        match outcome {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(payload)) | Err(payload) => Err(Stopped::Panic(panic_error(payload))),
        }
    })
}

/// Waits until `done` is set or a slice has passed; whether it is set.
/// The job wakes this thread when it ends, so a short job costs no slice.
fn wait_slice(done: &AtomicBool) -> bool {
    if !done.load(Ordering::Acquire) {
        thread::park_timeout(SIGNAL_SLICE);
    }
    done.load(Ordering::Acquire)
}

/// The `RuntimeError` reporting a panic of the solver, with its message.
fn panic_error(payload: Box<dyn Any + Send>) -> PyErr {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned());
    PyRuntimeError::new_err(format!("internal error in the c4 solver: {message}"))
}
