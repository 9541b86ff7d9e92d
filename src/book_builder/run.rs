//! A book run: the deepest-level positions of one job solved on worker
//! threads, each result handed to the caller (who keeps the checkpoint and
//! shows progress) as it comes, until done or told to stop.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use super::checkpoint::{self, CheckpointError, HEADER_BYTES, Resumed};
use super::{BuildError, Shard, assemble, deepest_positions};
use crate::board::BoardSize;
use crate::engine::{self, AnyBook, Engine};
use crate::game::Game;
use crate::parallel::{PoolError, WorkerPool};
use crate::rules::Score;

/// What one run builds: the book (or the part of a sharded one) of `depth`
/// on a board, and the positions it searches for it.
#[derive(Debug, Clone)]
pub struct Job {
    /// The board.
    board: BoardSize,
    /// The most stones an entry has.
    depth: usize,
    /// Which part of the deepest level the run solves.
    shard: Shard,
    /// The book positions of `depth` stones in `shard`, in the order of
    /// [`super::levels`].
    positions: Vec<Game>,
}

/// One position solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solved {
    /// Its symmetric key.
    pub key: u128,
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

/// Worker solvers of `board` for [`Job::solve`]: `threads` of them, each
/// with a table of `table_bytes` and no book.
pub fn workers(
    board: BoardSize,
    threads: usize,
    table_bytes: usize,
) -> Result<WorkerPool<Box<dyn Engine>>, PoolError> {
    WorkerPool::new(threads, || engine::new(board, table_bytes))
}

impl Job {
    /// The job of `depth` and `shard` on `board`: its positions are
    /// enumerated here.
    pub fn new(board: BoardSize, depth: usize, shard: Shard) -> Result<Self, BuildError> {
        if depth > board.cells() {
            return Err(BuildError::TooDeep {
                depth,
                cells: board.cells(),
            });
        }
        Ok(Job {
            board,
            depth,
            shard,
            positions: deepest_positions(board, depth, shard),
        })
    }

    /// The board.
    pub fn board(&self) -> BoardSize {
        self.board
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
    pub fn positions(&self) -> &[Game] {
        &self.positions
    }

    /// The header the run's checkpoint starts with.
    pub fn checkpoint_header(&self) -> [u8; HEADER_BYTES] {
        checkpoint::header(self.board, self.depth, self.shard)
    }

    /// The checkpoint record of one result of the run.
    pub fn checkpoint_record(&self, solved: Solved) -> Vec<u8> {
        checkpoint::record(self.board, solved.key, solved.score)
    }

    /// The most bytes the run's checkpoint can have.
    pub fn max_checkpoint_bytes(&self) -> u64 {
        checkpoint::max_bytes(self.board, self.positions.len())
    }

    /// What the checkpoint `bytes` of this run holds ([`checkpoint::read`]).
    pub fn resume(&self, bytes: &[u8]) -> Result<Resumed, CheckpointError> {
        checkpoint::read(
            self.board,
            bytes,
            &self.checkpoint_header(),
            &self.positions,
        )
    }

    /// Solves the positions not in `done` on `workers` (engines of the
    /// job's board), each with the lower bound `bounds` (a book of the job's
    /// board) gives from its parents (see
    /// [`AnyBook::lower_bound_from_parents`]), and hands each result to
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
        workers: &WorkerPool<Box<dyn Engine>>,
        bounds: Option<&AnyBook>,
        done: &HashMap<u128, Score>,
        stop: &AtomicBool,
        mut on_solved: impl FnMut(Solved) -> ControlFlow<()>,
    ) -> Outcome {
        let remaining: Vec<Game> = self
            .positions
            .iter()
            .copied()
            .filter(|p| !done.contains_key(&p.symmetric_key().0))
            .collect();
        let halt = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<Solved>();
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
        scores: &HashMap<u128, Score>,
        bounds: Option<&AnyBook>,
    ) -> Result<AnyBook, BuildError> {
        let book = if self.shard == Shard::WHOLE {
            assemble::complete(self.board, self.depth, scores)?
        } else {
            assemble::part(self.board, self.depth, self.shard, scores)?
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
        let board = BoardSize::new(5, 4).unwrap();
        let job = Job::new(board, 5, Shard::WHOLE).unwrap();
        let pool = workers(board, 2, 1 << 20).unwrap();
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
        let one = workers(board, 1, 1 << 20).unwrap();
        let mut all = HashMap::new();
        job.solve(&one, None, &HashMap::new(), &stop, |s| {
            all.insert(s.key, s.score);
            ControlFlow::Continue(())
        });
        assert_eq!(job.finish(&all, None).unwrap().encode(), resumed.encode());
    }
}
