//! A pool of worker threads, each with its own state (a solver and so its
//! transposition tables), for batches whose items may be worked on in any
//! order.

use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;
use thiserror::Error;

use crate::solver::table::TableError;

/// Why a pool could not be set up.
#[derive(Debug, Error)]
pub enum PoolError {
    /// No thread was asked for.
    #[error("at least one thread is needed")]
    NoThreads,
    /// A worker's transposition table could not be made.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The operating system refused the worker threads.
    #[error("cannot start the worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

/// Worker threads, each with its own state `S` (typically a
/// [`Solver`](crate::Solver)).
///
/// The states are made once, with the pool, so that a batch of thousands of
/// microsecond-sized solves does not pay for a table allocation more than
/// once per thread. Each worker locks only its own state (an uncontended
/// lock costs a few nanoseconds), so no table is ever shared between threads.
pub struct WorkerPool<S> {
    /// The worker threads; `None` for one thread, which runs on the caller's.
    threads: Option<rayon::ThreadPool>,
    /// One state per worker, indexed by rayon's thread index.
    states: Vec<Mutex<S>>,
}

impl<S: Send> WorkerPool<S> {
    /// A pool of `threads` workers, each with a state made by `make` (so a
    /// pool of solvers takes `threads` tables).
    pub fn new(
        threads: usize,
        make: impl FnMut() -> Result<S, TableError>,
    ) -> Result<Self, PoolError> {
        if threads == 0 {
            return Err(PoolError::NoThreads);
        }
        let states = std::iter::repeat_with(make)
            .take(threads)
            .map(|state| state.map(Mutex::new))
            .collect::<Result<Vec<_>, _>>()?;
        let threads = if threads == 1 {
            None
        } else {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|i| format!("c4-worker-{i}"))
                    .build()?,
            )
        };
        Ok(WorkerPool { threads, states })
    }

    /// Number of worker threads.
    pub fn threads(&self) -> usize {
        self.states.len()
    }

    /// `f(state, item)` for every item, on the workers, each with its own
    /// state; the results come back in the order of `items`. Which worker
    /// gets which item is up to the scheduler, so `f` should clear a
    /// solver's table if results must not depend on it.
    pub fn map<T, R, F>(&self, items: &[T], f: F) -> Vec<R>
    where
        T: Sync,
        R: Send,
        F: Fn(&mut S, &T) -> R + Sync,
    {
        match &self.threads {
            // On the caller's thread, which may belong to another rayon pool:
            // its thread index would not be ours.
            None => items
                .iter()
                .map(|item| self.with_state(0, |state| f(state, item)))
                .collect(),
            Some(pool) => pool.install(|| {
                items
                    .par_iter()
                    .map(|item| self.with_worker_state(|state| f(state, item)))
                    .collect()
            }),
        }
    }

    /// The workers' states, once the work is done.
    pub fn into_states(self) -> Vec<S> {
        self.states
            .into_iter()
            .map(|state| state.into_inner().unwrap_or_else(PoisonError::into_inner))
            .collect()
    }

    /// The worker threads; `None` when the pool has one worker, which runs
    /// on the caller's thread.
    pub(super) fn rayon(&self) -> Option<&rayon::ThreadPool> {
        self.threads.as_ref()
    }

    /// `f` on the state of worker `index`.
    pub(super) fn with_state<R>(&self, index: usize, f: impl FnOnce(&mut S) -> R) -> R {
        let mut state = self.states[index]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        f(&mut state)
    }

    /// `f` on the state of the worker running it: from a job of this pool,
    /// whose thread index is below `threads()`.
    pub(super) fn with_worker_state<R>(&self, f: impl FnOnce(&mut S) -> R) -> R {
        let index = rayon::current_thread_index()
            .filter(|&i| i < self.states.len())
            .unwrap_or(0);
        self.with_state(index, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Position, Solver};

    fn solvers(threads: usize) -> Result<WorkerPool<Solver>, PoolError> {
        WorkerPool::new(threads, || Solver::with_table_bytes(1 << 20))
    }

    #[test]
    fn keeps_order_on_any_number_of_threads() {
        let positions: Vec<Position> = [
            "1644236131523113664122472667742",
            "175424313177774724541246612626552",
            "55667424777333344255275537623664411611",
            "616425514112667745333334",
        ]
        .iter()
        .map(|m| Position::parse(m).unwrap())
        .collect();
        let solve = |s: &mut Solver, p: &Position| {
            s.clear();
            s.solve(p)
        };
        let one = solvers(1).unwrap().map(&positions, solve);
        assert_eq!(one, [-2, 4, 0, -1]);
        let two = solvers(2).unwrap();
        assert_eq!(two.threads(), 2);
        assert_eq!(two.map(&positions, solve), one);
    }

    #[test]
    fn every_worker_has_its_own_state() {
        let pool = WorkerPool::new(2, || Ok(Vec::new())).unwrap();
        let items: Vec<usize> = (0..1000).collect();
        pool.map(&items, |seen: &mut Vec<usize>, &i| seen.push(i));
        let mut all: Vec<usize> = pool.into_states().into_iter().flatten().collect();
        all.sort_unstable();
        assert_eq!(all, items);
    }

    #[test]
    fn rejects_zero_threads_and_tiny_tables() {
        assert!(matches!(solvers(0), Err(PoolError::NoThreads)));
        assert!(matches!(
            WorkerPool::new(1, || Solver::<7, 6>::with_table_bytes(8)),
            Err(PoolError::Table(_))
        ));
    }
}
