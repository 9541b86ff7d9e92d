//! What a solver may take of the machine: its table size read from Python
//! (`"64M"` or a number of bytes), the memory check made before any table
//! is allocated (the library adds the memory up, see [`c4::memory`]; this
//! reads what the machine has left, as the `c4` command does), and the
//! number of threads.

use std::fs;

use c4::memory::{Bytes, Need};
use c4::parallel::available_cores;
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// A solver may run this many threads per core: enough to oversubscribe
/// the cores a little, far from the thousands that only exhaust the memory
/// (as `c4 --threads`).
const THREADS_PER_CORE: usize = 8;

/// The cap on threads is never below this, so that a machine of few cores
/// may still run many workers.
const MIN_THREAD_CAP: usize = 64;

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

/// Parses a byte size such as `64M` (see [`table_size`]).
fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let upper = t.to_ascii_uppercase();
    let body = upper
        .strip_suffix("IB")
        .or_else(|| upper.strip_suffix('B'))
        .unwrap_or(&upper);
    let (digits, shift) = match body.chars().last() {
        Some('K') => (&body[..body.len() - 1], 10),
        Some('M') => (&body[..body.len() - 1], 20),
        Some('G') => (&body[..body.len() - 1], 30),
        Some('T') => (&body[..body.len() - 1], 40),
        _ => (body, 0),
    };
    let n: usize = digits
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a size (examples: 64M, 1G, 512K)"))?;
    n.checked_mul(1usize << shift)
        .filter(|&b| b > 0)
        .ok_or_else(|| format!("'{text}' is not a usable size"))
}

/// The threads `threads` asks for: itself, every core for 0, and a
/// `ValueError` past what this machine can run.
pub fn thread_count(threads: usize) -> PyResult<usize> {
    let cores = available_cores();
    let cap = cores.saturating_mul(THREADS_PER_CORE).max(MIN_THREAD_CAP);
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

/// Bytes of memory this process may still take, if the system says:
/// `MemAvailable` of `/proc/meminfo`, and no more than a cgroup (v2) limit
/// leaves (`memory.max` less `memory.current`).
fn available_memory() -> Option<usize> {
    let read = |path: &str| fs::read_to_string(path).ok();
    let available = read("/proc/meminfo").as_deref().and_then(mem_available);
    let cgroup = cgroup_room(
        read("/sys/fs/cgroup/memory.max").as_deref(),
        read("/sys/fs/cgroup/memory.current").as_deref(),
    );
    match (available, cgroup) {
        (Some(a), Some(c)) => Some(a.min(c)),
        (a, c) => a.or(c),
    }
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn mem_available(meminfo: &str) -> Option<usize> {
    let line = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))?;
    let kib: usize = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// What a cgroup's `memory.max` (a number, or `max` for none) leaves above
/// its `memory.current`.
fn cgroup_room(max: Option<&str>, current: Option<&str>) -> Option<usize> {
    let max: usize = max?.trim().parse().ok()?;
    let current: usize = current.map_or(Some(0), |c| c.trim().parse().ok())?;
    Some(max.saturating_sub(current))
}
