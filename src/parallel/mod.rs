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

#[cfg(test)]
mod tests {
    #[test]
    fn at_least_one_core() {
        assert!(super::available_cores() >= 1);
    }
}
