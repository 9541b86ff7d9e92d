//! Running work on several threads: [`WorkerPool`] where the order in which
//! items are worked on does not matter, [`ordered`] where results must leave
//! in input order as soon as each is ready, and [`available_cores`] to size
//! them by.
//!
//! Both keep one state per worker (a [`Solver`](crate::Solver) and so its
//! transposition tables) that no two threads share, and both run on rayon's
//! threads.

pub mod ordered;
pub mod pool;

pub use ordered::{Panicked, PipelineError, run_ordered};
pub use pool::{PoolError, WorkerPool};

/// The number of cores this process may run on, 1 when the system does not
/// say ([`std::thread::available_parallelism`] fails on some platforms and
/// in some sandboxes).
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Threads a run may ask for per core: enough to oversubscribe the cores
/// a little, far from the thousands that only exhaust the memory (each
/// worker has tables of its own).
const THREADS_PER_CORE: usize = 8;

/// The cap of [`max_threads`] is never below this, so that a machine of few
/// cores may still run many workers.
const MIN_THREAD_CAP: usize = 64;

/// The most threads a run may ask for on this machine (`c4 --threads`, the
/// Python module's `threads`): more is refused as a mistake, not tried.
pub fn max_threads() -> usize {
    available_cores()
        .saturating_mul(THREADS_PER_CORE)
        .max(MIN_THREAD_CAP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_least_one_core() {
        assert!(available_cores() >= 1);
    }

    #[test]
    fn the_cap_lets_small_machines_oversubscribe() {
        assert!(max_threads() >= MIN_THREAD_CAP);
        assert!(max_threads() >= THREADS_PER_CORE * available_cores());
    }
}
