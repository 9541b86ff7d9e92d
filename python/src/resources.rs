//! What a solver may take of the machine: its table size read from Python
//! (`"64M"` or a number of bytes), the memory check made before any table
//! is allocated (the library adds the memory up, see [`c4::memory`]; this
//! reads what the machine has left, as the `c4` command does), and the
//! number of threads.

use std::fs;

use c4::memory::{Bytes, MEMORY_FILES, Need, parse_size};
use c4::parallel::{available_cores, max_threads};
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Bytes of a table given as a number of bytes or as text: a number with an
/// optional K, M, G or T suffix (powers of 1024), with or without a
/// trailing `B` / `iB`, as `c4 --tt-size` reads it.
pub fn table_size(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(text) = value.cast::<PyString>() {
        return parse_size(&text.to_cow()?).map_err(PyValueError::new_err);
    }
    match value.extract::<i128>() {
        Ok(n) if n > 0 => usize::try_from(n).map_err(|_| {
            PyValueError::new_err(format!("a table of {n} bytes is not a usable size"))
        }),
        Ok(n) => Err(PyValueError::new_err(format!(
            "a table of {n} bytes is not a usable size"
        ))),
        Err(_) => Err(PyTypeError::new_err(
            "table must be a number of bytes or a size such as \"64M\"",
        )),
    }
}

/// The threads `threads` asks for: itself, every core for 0, and a
/// `ValueError` past what this machine can run.
pub fn thread_count(threads: usize) -> PyResult<usize> {
    let cores = available_cores();
    let cap = max_threads();
    if threads > cap {
        return Err(PyValueError::new_err(format!(
            "{threads} threads is far more than this machine can run: at most {cap} \
             ({cores} cores); 0 uses every core"
        )));
    }
    Ok(if threads == 0 { cores } else { threads })
}

/// Raises `MemoryError` if `need` does not fit in the memory available
/// (no check when the system does not say how much that is), naming what
/// it would take and what to lower. Called before anything is allocated.
pub fn check_memory(need: &Need, hint: &str) -> PyResult<()> {
    match available_memory() {
        Some(available) if need.total() > available => Err(PyMemoryError::new_err(format!(
            "not enough memory: this needs {} ({need}) but {} is available; {hint}",
            Bytes(need.total()),
            Bytes(available)
        ))),
        _ => Ok(()),
    }
}

/// Bytes of memory this process may still take, if the system says (see
/// [`c4::memory::available_memory`]).
fn available_memory() -> Option<usize> {
    let [meminfo, max, current] = MEMORY_FILES.map(|path| fs::read_to_string(path).ok());
    c4::memory::available_memory(meminfo.as_deref(), max.as_deref(), current.as_deref())
}
