//! The solver workers of `c4 serve`: a fixed number of threads, each with one
//! solver, fed from a bounded queue; a job whose client has gone is dropped
//! before it starts and stopped while it runs, and a job whose time is up is
//! stopped and answered as such.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread;

use serde::Serialize;
use tokio::sync::oneshot;

use c4::{AnyBook, BoardSize, Engine, TableError, engine};

use super::compute::{Reply, Task};

/// What every worker shares: how to make a solver.
pub struct SolverConfig {
    /// Bytes of each solver's table.
    pub table_bytes: usize,
    /// The opening books, one per board that has one; none when
    /// `--no-book`.
    pub books: Vec<AnyBook>,
}

impl SolverConfig {
    /// The book of `board`, if any.
    fn book(&self, board: BoardSize) -> Option<AnyBook> {
        self.books
            .iter()
            .find(|book| book.board() == board)
            .cloned()
    }
}

/// A worker's solver for `board`: the one it kept (its last one, of any
/// board) if it is for that board, else a new one, made after the old one
/// is dropped so that a worker never holds two tables. Cleared either way,
/// so that an answer does not depend on the jobs before it.
pub fn solver_for<'a>(
    kept: &'a mut Option<Box<dyn Engine>>,
    config: &SolverConfig,
    board: BoardSize,
) -> Result<&'a mut dyn Engine, TableError> {
    if kept.as_ref().is_some_and(|k| k.board() != board) {
        *kept = None;
    }
    let solver = match kept {
        Some(solver) => solver,
        None => {
            let mut solver = engine::new(board, config.table_bytes)?;
            solver
                .set_book(config.book(board))
                .expect("the book found is for this board");
            kept.insert(solver)
        }
    };
    solver.clear();
    solver.reset_node_count();
    Ok(solver.as_mut())
}

/// A worker's answer and the nodes its searches took.
#[derive(Debug)]
pub struct Outcome {
    /// The answer.
    pub reply: Reply,
    /// Nodes searched for it (0 if it needed no search or never started).
    pub nodes: u64,
}

/// How a request's job is stopped: raised by the request's handler, read by
/// the worker, whose solver polls the flag inside its searches (a search
/// stops within milliseconds).
#[derive(Debug, Default)]
pub struct Halt {
    /// The solver's stop flag, raised for any reason.
    flag: Arc<AtomicBool>,
    /// Raised before the flag when the request's time is up.
    time_up: AtomicBool,
}

impl Halt {
    /// A halt not raised.
    pub fn new() -> Arc<Halt> {
        Arc::new(Halt::default())
    }

    /// Nobody wants the answer any more (the client has gone, or the server
    /// stops): the job is dropped, or stopped, and answered
    /// [`Reply::Cancelled`].
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::SeqCst);
    }

    /// The request's time is up: the job is stopped and answered
    /// [`Reply::TimeLimit`] (unless its answer came first).
    pub fn time_up(&self) {
        self.time_up.store(true, Ordering::SeqCst);
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Whether it was raised, for either reason.
    fn is_raised(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }
}

/// One request's work, as queued.
struct Job {
    /// The board and what to compute.
    task: Task,
    /// Raised when the job is to stop.
    halt: Arc<Halt>,
    /// Told when a worker starts the job's search (dropped unsent if the
    /// job is dropped before).
    started: oneshot::Sender<()>,
    /// Where the answer goes.
    reply: oneshot::Sender<Outcome>,
}

/// A job queued: what its request's handler waits on.
#[derive(Debug)]
pub struct Submitted {
    /// Completes when a worker starts the job (closed if it never does).
    pub started: oneshot::Receiver<()>,
    /// The answer (closed without one if the job was dropped).
    pub answer: oneshot::Receiver<Outcome>,
}

/// Counters of the pool, as `GET /api/status` reports them.
#[derive(Debug, Default)]
struct Counters {
    /// Jobs being computed.
    busy: AtomicUsize,
    /// Jobs waiting in the queue.
    queued: AtomicUsize,
    /// Jobs answered (any answer, a reached limit included).
    answered: AtomicU64,
    /// Jobs dropped or stopped because their client had gone.
    cancelled: AtomicU64,
    /// Requests turned away because the queue was full.
    rejected: AtomicU64,
    /// Jobs that reached the node limit.
    limited: AtomicU64,
    /// Jobs stopped by the time limit.
    timed_out: AtomicU64,
}

/// A snapshot of the pool's state.
#[derive(Debug, Serialize)]
pub struct Status {
    /// Worker threads.
    pub workers: usize,
    /// Jobs the queue holds at most besides those running.
    pub queue_capacity: usize,
    /// Jobs being computed.
    pub busy: usize,
    /// Jobs waiting.
    pub queued: usize,
    /// Jobs answered since the server started.
    pub answered: u64,
    /// Jobs dropped or stopped because their client had gone.
    pub cancelled: u64,
    /// Requests turned away with 503 because the queue was full.
    pub rejected: u64,
    /// Jobs that reached the node limit.
    pub limited: u64,
    /// Jobs stopped by the time limit.
    pub timed_out: u64,
}

/// Why a job was not queued.
#[derive(Debug)]
pub enum SubmitError {
    /// The queue is full: try again later.
    Full,
    /// The workers are gone (they never stop while the server runs).
    Closed,
}

/// The worker threads and their queue.
pub struct Pool {
    /// The queue's sending end.
    queue: SyncSender<Job>,
    /// The counters.
    counters: Arc<Counters>,
    /// Worker threads.
    workers: usize,
    /// Queue capacity.
    capacity: usize,
}

impl Pool {
    /// Starts `workers` threads (at least one) sharing a queue of `capacity`
    /// waiting jobs. Each worker makes its solver on its first job.
    pub fn start(workers: usize, capacity: usize, config: Arc<SolverConfig>) -> Pool {
        let workers = workers.max(1);
        let (queue, jobs) = mpsc::sync_channel::<Job>(capacity);
        let jobs = Arc::new(Mutex::new(jobs));
        let counters = Arc::new(Counters::default());
        for n in 0..workers {
            let jobs = Arc::clone(&jobs);
            let counters = Arc::clone(&counters);
            let config = Arc::clone(&config);
            thread::Builder::new()
                .name(format!("c4-solver-{n}"))
                .spawn(move || work(&jobs, &counters, &config))
                .expect("a worker thread starts");
        }
        Pool {
            queue,
            counters,
            workers,
            capacity,
        }
    }

    /// Queues `task`; `halt` stops it once raised.
    pub fn submit(&self, task: Task, halt: Arc<Halt>) -> Result<Submitted, SubmitError> {
        let (reply, answer) = oneshot::channel();
        let (started_tx, started) = oneshot::channel();
        // Counted before it is sent, so that a worker's decrement never
        // comes first.
        self.counters.queued.fetch_add(1, Ordering::SeqCst);
        match self.queue.try_send(Job {
            task,
            halt,
            started: started_tx,
            reply,
        }) {
            Ok(()) => Ok(Submitted { started, answer }),
            Err(e) => {
                self.counters.queued.fetch_sub(1, Ordering::SeqCst);
                match e {
                    TrySendError::Full(_) => {
                        self.counters.rejected.fetch_add(1, Ordering::Relaxed);
                        Err(SubmitError::Full)
                    }
                    TrySendError::Disconnected(_) => Err(SubmitError::Closed),
                }
            }
        }
    }

    /// The pool's state now.
    pub fn status(&self) -> Status {
        let c = &self.counters;
        Status {
            workers: self.workers,
            queue_capacity: self.capacity,
            busy: c.busy.load(Ordering::SeqCst),
            queued: c.queued.load(Ordering::SeqCst),
            answered: c.answered.load(Ordering::Relaxed),
            cancelled: c.cancelled.load(Ordering::Relaxed),
            rejected: c.rejected.load(Ordering::Relaxed),
            limited: c.limited.load(Ordering::Relaxed),
            timed_out: c.timed_out.load(Ordering::Relaxed),
        }
    }
}

/// A worker: takes jobs until the queue closes.
fn work(jobs: &Mutex<Receiver<Job>>, counters: &Counters, config: &SolverConfig) {
    let mut kept: Option<Box<dyn Engine>> = None;
    loop {
        let job = jobs.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok(job) = job else { return };
        counters.busy.fetch_add(1, Ordering::SeqCst);
        counters.queued.fetch_sub(1, Ordering::SeqCst);
        let (mut reply, nodes) = if job.halt.is_raised() || job.reply.is_closed() {
            (Reply::Cancelled, 0)
        } else {
            // The handler starts the request's clock (a handler gone
            // meanwhile has raised the halt: the flag stops the search).
            let _ = job.started.send(());
            catch_unwind(AssertUnwindSafe(|| {
                run_task(&job.task, &mut kept, config, &job.halt.flag)
            }))
            .unwrap_or_else(|_| {
                // The solver may be left in any state: make a new one.
                kept = None;
                (Reply::Failed, 0)
            })
        };
        if reply == Reply::Cancelled && job.halt.time_up.load(Ordering::SeqCst) {
            reply = Reply::TimeLimit;
        }
        let counter = match reply {
            Reply::Cancelled => &counters.cancelled,
            Reply::NodeLimit { .. } => {
                counters.answered.fetch_add(1, Ordering::Relaxed);
                &counters.limited
            }
            Reply::TimeLimit => {
                counters.answered.fetch_add(1, Ordering::Relaxed);
                &counters.timed_out
            }
            _ => &counters.answered,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        // The client may have gone meanwhile: nobody to answer.
        let _ = job.reply.send(Outcome { reply, nodes });
        counters.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Computes `task` on the worker's solver for the task's board (`kept`,
/// made with `config` if it is for another board), stopped once `stop`
/// is set. Gives the reply and the nodes searched.
fn run_task(
    task: &Task,
    kept: &mut Option<Box<dyn Engine>>,
    config: &SolverConfig,
    stop: &Arc<AtomicBool>,
) -> (Reply, u64) {
    match solver_for(kept, config, task.query.board) {
        Ok(solver) => {
            // The solver polls the flag inside its searches too, so a
            // request whose client has gone, or whose time is up, stops
            // within milliseconds.
            solver.set_stop_flag(Some(Arc::clone(stop)));
            let reply = task.run(solver, stop);
            solver.set_stop_flag(None);
            (reply, solver.node_count())
        }
        Err(_) => (Reply::Failed, 0),
    }
}
