//! A book run: the deepest-level positions of one job solved on worker
//! threads, each result handed to the caller (who keeps the checkpoint and
//! shows progress) as it comes, until done or told to stop.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use super::checkpoint::{self, CheckpointError, HEADER_BYTES, Resumed};
use super::{BuildError, Shard, assemble, deepest_positions};
use crate::Bitboard;
use crate::book::Book;
use crate::parallel::{PoolError, WorkerPool};
use crate::position::{Position, Score};
use crate::solver::Solver;

/// What one run builds: the book (or the part of a sharded one) of `depth`
/// on a `W` x `H` board, and the positions it searches for it.
#[derive(Debug, Clone)]
pub struct Job<const W: usize, const H: usize, B: Bitboard = u64> {
    /// The most stones an entry has.
    depth: usize,
    /// Which part of the deepest level the run solves.
    shard: Shard,
    /// The book positions of `depth` stones in `shard`, in the order of
    /// [`super::levels`].
    positions: Vec<Position<W, H, B>>,
}

/// One position solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solved<B: Bitboard = u64> {
    /// Its symmetric key.
    pub key: B,
    /// Its score.
    pub score: Score,
}

/// How [`Job::solve`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Results handed to the caller.
    pub solved: usize,
    /// Whether it stopped (the stop flag, or the caller's `Break`) before
    /// every position was solved.
    pub stopped: bool,
}

/// Worker solvers for [`Job::solve`]: `threads` of them, each with a table
/// of `table_bytes`.
pub fn workers<const W: usize, const H: usize, B: Bitboard>(
    threads: usize,
    table_bytes: usize,
) -> Result<WorkerPool<Solver<W, H, B>>, PoolError> {
    WorkerPool::new(threads, || Solver::<W, H, B>::with_table_bytes(table_bytes))
}

impl<const W: usize, const H: usize, B: Bitboard> Job<W, H, B> {
    /// The job of `depth` and `shard`: its positions are enumerated here.
    pub fn new(depth: usize, shard: Shard) -> Result<Self, BuildError> {
        if depth > W * H {
            return Err(BuildError::TooDeep {
                depth,
                cells: W * H,
            });
        }
        Ok(Job {
            depth,
            shard,
            positions: deepest_positions::<W, H, B>(depth, shard),
        })
    }

    /// The book's depth.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The shard the run solves.
    pub fn shard(&self) -> Shard {
        self.shard
    }

    /// The positions the run searches.
    pub fn positions(&self) -> &[Position<W, H, B>] {
        &self.positions
    }

    /// The header the run's checkpoint starts with.
    pub fn checkpoint_header(&self) -> [u8; HEADER_BYTES] {
        checkpoint::header::<W, H>(self.depth, self.shard)
    }

    /// The most bytes the run's checkpoint can have.
    pub fn max_checkpoint_bytes(&self) -> u64 {
        checkpoint::max_bytes::<B>(self.positions.len())
    }

    /// What the checkpoint `bytes` of this run holds ([`checkpoint::read`]).
    pub fn resume(&self, bytes: &[u8]) -> Result<Resumed<B>, CheckpointError> {
        checkpoint::read(bytes, &self.checkpoint_header(), &self.positions)
    }

    /// Solves the positions not in `done` on `workers`, each with the lower
    /// bound `bounds` gives from its parents (see
    /// [`Book::lower_bound_from_parents`]), and hands each result to
    /// `on_solved` on the calling thread as it comes.
    ///
    /// Once `stop` is set, or `on_solved` returns `Break`, no position is
    /// started; the ones in flight finish (about half a second each at depth
    /// 9). After `stop` their results still reach `on_solved`, so nothing
    /// solved is lost; after `Break` they are dropped. Each worker keeps its
    /// table between positions: neighbours share much of their search, and
    /// every stored bound stays true.
    pub fn solve(
        &self,
        workers: &WorkerPool<Solver<W, H, B>>,
        bounds: Option<&Book<W, H, B>>,
        done: &HashMap<B, Score>,
        stop: &AtomicBool,
        mut on_solved: impl FnMut(Solved<B>) -> ControlFlow<()>,
    ) -> Outcome {
        let remaining: Vec<Position<W, H, B>> = self
            .positions
            .iter()
            .copied()
            .filter(|p| !done.contains_key(&p.symmetric_key().0))
            .collect();
        let halt = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<Solved<B>>();
        let mut solved = 0;
        std::thread::scope(|scope| {
            let (remaining, halt) = (&remaining, &halt);
            scope.spawn(move || {
                let tx = tx;
                workers.map(remaining, |solver, pos| {
                    if stop.load(Ordering::Relaxed) || halt.load(Ordering::Relaxed) {
                        return;
                    }
                    let lower = bounds.and_then(|book| book.lower_bound_from_parents(pos));
                    let score = match lower {
                        Some(lower) => solver.solve_in(pos, lower, Score::MAX),
                        None => solver.solve(pos),
                    };
                    let key = pos.symmetric_key().0;
                    // The receiver outlives the workers; a failed send only
                    // means the caller has stopped listening.
                    let _ = tx.send(Solved { key, score });
                });
            });
            for result in rx {
                if halt.load(Ordering::Relaxed) {
                    continue;
                }
                solved += 1;
                if on_solved(result).is_break() {
                    halt.store(true, Ordering::Relaxed);
                }
            }
        });
        Outcome {
            solved,
            stopped: solved < remaining.len(),
        }
    }

    /// The book from the scores of every position of the job (the part for
    /// a shard), checked against `bounds`, the book the search bounds came
    /// from, if any.
    pub fn finish(
        &self,
        scores: &HashMap<B, Score>,
        bounds: Option<&Book<W, H, B>>,
    ) -> Result<Book<W, H, B>, BuildError> {
        let book = if self.shard == Shard::WHOLE {
            assemble::complete::<W, H, B>(self.depth, scores)?
        } else {
            assemble::part::<W, H, B>(self.depth, self.shard, scores)?
        };
        if let Some(bounds) = bounds {
            assemble::check_agrees(&book, bounds)?;
        }
        Ok(book)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_stops_when_told_and_resumes_to_the_same_book() {
        let job = Job::<5, 4>::new(5, Shard::WHOLE).unwrap();
        let pool = workers::<5, 4, u64>(2, 1 << 20).unwrap();
        let stop = AtomicBool::new(false);
        let mut done = HashMap::new();
        // Stopped by the caller after 100 results.
        let outcome = job.solve(&pool, None, &HashMap::new(), &stop, |s| {
            done.insert(s.key, s.score);
            if done.len() == 100 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(
            outcome,
            Outcome {
                solved: 100,
                stopped: true
            }
        );
        // The stop flag set: nothing is started.
        stop.store(true, Ordering::Relaxed);
        let outcome = job.solve(&pool, None, &done.clone(), &stop, |_| {
            ControlFlow::Continue(())
        });
        assert_eq!(
            outcome,
            Outcome {
                solved: 0,
                stopped: true
            }
        );
        stop.store(false, Ordering::Relaxed);
        let before = done.clone();
        let outcome = job.solve(&pool, None, &before, &stop, |s| {
            done.insert(s.key, s.score);
            ControlFlow::Continue(())
        });
        assert_eq!(outcome.solved, job.positions().len() - 100);
        assert!(!outcome.stopped);
        let resumed = job.finish(&done, None).unwrap();
        // One uninterrupted run on one thread gives the same bytes.
        let one = workers::<5, 4, u64>(1, 1 << 20).unwrap();
        let mut all = HashMap::new();
        job.solve(&one, None, &HashMap::new(), &stop, |s| {
            all.insert(s.key, s.score);
            ControlFlow::Continue(())
        });
        assert_eq!(job.finish(&all, None).unwrap().encode(), resumed.encode());
    }
}
