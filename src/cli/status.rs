//! What stderr shows while a command searches: a live status line when
//! stderr is a terminal, or with `--progress` a plain line each time the
//! score interval a solve has proved narrows; nothing else.
//!
//! The search publishes its nodes and the interval it has proved through a
//! [`Progress`] (every 2^18 nodes and at the end of each probe); a watcher
//! thread reads those atomics a few times a second, so the search itself
//! does no more work with a status than without one.

use std::fmt::{self, Display};
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use c4::Score;
use c4::solver::Progress;

/// How long the searches must have kept going before the live status
/// appears: a quick answer never flashes one.
const LIVE_AFTER: Duration = Duration::from_secs(1);

/// How often the live status is redrawn.
const LIVE_PERIOD: Duration = Duration::from_millis(100);

/// After this long with nothing being solved (stdin waiting for a line
/// typed at a terminal), the live status is cleared until the searches
/// have again run for [`LIVE_AFTER`].
const LIVE_IDLE: Duration = Duration::from_millis(300);

/// How often `--progress` looks for a narrower interval: probes that end
/// within the same 10 ms share one line.
const LINES_PERIOD: Duration = Duration::from_millis(10);

/// What stderr shows while the searches run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Nothing (stderr is not a terminal and `--progress` was not given).
    Quiet,
    /// A status line, redrawn in place (stderr is a terminal).
    Live,
    /// `--progress`: a plain line each time an interval narrows.
    Lines,
}

impl Mode {
    /// Lines with `--progress` (`lines`), else a live status if stderr is a
    /// terminal, else nothing.
    pub fn detect(lines: bool) -> Mode {
        if lines {
            Mode::Lines
        } else if io::stderr().is_terminal() {
            Mode::Live
        } else {
            Mode::Quiet
        }
    }
}

/// What a run solves, which decides how its status names the solves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One position: its solve is not named, and its answer is the last
    /// output.
    Single,
    /// Several solves named by the caller (the columns of `analyze`).
    Named,
    /// A batch of inputs, named by their line or argument and counted as
    /// they are written; `total` if known in advance.
    Batch {
        /// How many inputs there are, if known.
        total: Option<usize>,
    },
}

/// The status of a run: made before the searches start, told of each solve
/// ([`Status::job`]) and of each output ([`Status::print`]), and finished
/// ([`Status::finish`]) before the last output, which clears the live line.
pub struct Status {
    /// What the watcher thread reads.
    shared: Arc<Shared>,
    /// The watcher thread and the channel that stops it; `None` once
    /// finished, or from the start when quiet.
    watcher: Mutex<Option<(Sender<()>, JoinHandle<()>)>>,
}

/// The state the watcher and the solving threads share.
struct Shared {
    /// What stderr shows.
    mode: Mode,
    /// What the run solves.
    shape: Shape,
    /// When the run started.
    start: Instant,
    /// Inputs written so far (batches).
    written: AtomicUsize,
    /// Nodes of the solves that have ended.
    ended_nodes: AtomicU64,
    /// The solves under way, in the order they started.
    jobs: Mutex<Vec<Arc<JobState>>>,
    /// The live status line, while it is shown.
    bar: Mutex<Option<ProgressBar>>,
}

/// One solve under way, as the watcher sees it.
struct JobState {
    /// How the status names it (empty for a [`Shape::Single`] run).
    label: String,
    /// Whether the score shown is minus the one solved (a column's score is
    /// minus its child's).
    negate: bool,
    /// Where its solver reports.
    progress: Arc<Progress>,
    /// When it started.
    start: Instant,
    /// What `--progress` has printed of it.
    shown: Mutex<Shown>,
}

/// What has been said of one solve.
#[derive(Default)]
struct Shown {
    /// The interval of the last line printed.
    interval: Option<(Score, Score)>,
    /// The score, once found; its line is then printed and nothing follows.
    score: Option<Score>,
}

/// Locks `mutex`, whether or not a thread panicked while holding it (the
/// status is only ever read for display).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Status {
    /// The status of a run of `shape`, showing what `mode` says; starts the
    /// watcher thread unless quiet (or if the system refuses it: the run
    /// then goes on without a status).
    pub fn start(mode: Mode, shape: Shape) -> Status {
        let shared = Arc::new(Shared {
            mode,
            shape,
            start: Instant::now(),
            written: AtomicUsize::new(0),
            ended_nodes: AtomicU64::new(0),
            jobs: Mutex::new(Vec::new()),
            bar: Mutex::new(None),
        });
        let watcher = if mode == Mode::Quiet {
            None
        } else {
            let (stop, stopped) = mpsc::channel::<()>();
            let watched = Arc::clone(&shared);
            thread::Builder::new()
                .name("c4-status".to_owned())
                .spawn(move || watched.watch(&stopped))
                .ok()
                .map(|thread| (stop, thread))
        };
        Status {
            shared,
            watcher: Mutex::new(watcher),
        }
    }

    /// A status that shows nothing.
    #[cfg(test)]
    pub fn quiet() -> Status {
        Status::start(Mode::Quiet, Shape::Single)
    }

    /// A solve starts, named `label` (unused for a [`Shape::Single`] run);
    /// with `negate` the status shows minus the score solved. Give its
    /// solver [`Job::progress`]; the solve ends when the job is dropped.
    pub fn job(&self, label: impl Display, negate: bool) -> Job<'_> {
        if self.shared.mode == Mode::Quiet {
            return Job {
                shared: &self.shared,
                state: None,
            };
        }
        let label = match self.shared.shape {
            Shape::Single => String::new(),
            Shape::Named | Shape::Batch { .. } => label.to_string(),
        };
        let state = Arc::new(JobState {
            label,
            negate,
            progress: Arc::new(Progress::new()),
            start: Instant::now(),
            shown: Mutex::new(Shown::default()),
        });
        lock(&self.shared.jobs).push(Arc::clone(&state));
        Job {
            shared: &self.shared,
            state: Some(state),
        }
    }

    /// Writes one output with `write`: the live status line is taken off
    /// the terminal while it writes and drawn again after, or cleared for
    /// good if this is the run's last output (a single position's answer,
    /// a batch's last input).
    pub fn print<R>(&self, write: impl FnOnce() -> R) -> R {
        let written = self.shared.written.fetch_add(1, Ordering::Relaxed) + 1;
        let last = match self.shared.shape {
            Shape::Single => true,
            Shape::Named => false,
            Shape::Batch { total } => total == Some(written),
        };
        if last {
            self.finish();
        }
        let bar = lock(&self.shared.bar);
        match bar.as_ref() {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }

    /// Stops the watcher and clears the live status line; call it before
    /// writing the run's last output. Idempotent.
    pub fn finish(&self) {
        if let Some((stop, thread)) = lock(&self.watcher).take() {
            drop(stop);
            let _ = thread.join();
        }
        if let Some(bar) = lock(&self.shared.bar).take() {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Status {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A solve under way (see [`Status::job`]).
pub struct Job<'s> {
    /// The run's state.
    shared: &'s Shared,
    /// This solve's state; `None` when the status is quiet.
    state: Option<Arc<JobState>>,
}

impl Job<'_> {
    /// Where the solver should report ([`c4::Solver::set_progress`]); `None`
    /// when the status is quiet, so that the solver reports nowhere.
    pub fn progress(&self) -> Option<Arc<Progress>> {
        self.state.as_ref().map(|state| Arc::clone(&state.progress))
    }

    /// The score is found (as shown: minus the solved one with `negate`).
    /// With `--progress` its line is printed now, before the answer, unless
    /// the last line already said it; what the solver does after (a
    /// principal variation) is not reported.
    pub fn scored(&self, score: Score) {
        let Some(state) = &self.state else {
            return;
        };
        let mut shown = lock(&state.shown);
        if self.shared.mode == Mode::Lines && shown.interval != Some((score, score)) {
            state.print_line(&mut shown, (score, score));
        }
        shown.score = Some(score);
    }
}

impl Drop for Job<'_> {
    fn drop(&mut self) {
        if let Some(state) = self.state.take() {
            let mut jobs = lock(&self.shared.jobs);
            jobs.retain(|job| !Arc::ptr_eq(job, &state));
            // Under the lock, so that no status counts the nodes twice or
            // not at all.
            self.shared
                .ended_nodes
                .fetch_add(state.progress.nodes(), Ordering::Relaxed);
        }
    }
}

impl JobState {
    /// The interval proved so far, as shown (negated with `negate`); `None`
    /// before the solver has begun.
    fn interval(&self) -> Option<(Score, Score)> {
        let (min, max) = self.progress.interval();
        if min == Score::MIN || max == Score::MAX {
            return None;
        }
        Some(if self.negate {
            (-max, -min)
        } else {
            (min, max)
        })
    }

    /// `label: ` or nothing.
    fn prefix(&self) -> String {
        if self.label.is_empty() {
            String::new()
        } else {
            format!("{}: ", self.label)
        }
    }

    /// `--progress`: prints a line if the interval has narrowed since the
    /// last one and the score is not yet known.
    fn print_if_narrowed(&self) {
        let Some(interval) = self.interval() else {
            return;
        };
        let mut shown = lock(&self.shown);
        if shown.score.is_none() && shown.interval != Some(interval) {
            self.print_line(&mut shown, interval);
        }
    }

    /// Prints the `--progress` line of `interval`: the time and nodes of
    /// this solve so far, e.g. `0.512 s  1234567 nodes  score in [-1, 3]`.
    fn print_line(&self, shown: &mut Shown, interval: (Score, Score)) {
        let secs = self.start.elapsed().as_secs_f64();
        let nodes = self.progress.nodes();
        let mut err = io::stderr().lock();
        // Nowhere to report a failed write to stderr.
        let _ = writeln!(
            err,
            "{}{secs:.3} s  {nodes} nodes  score in {}",
            self.prefix(),
            Interval(interval)
        );
        shown.interval = Some(interval);
    }

    /// What the live status says of this solve, if anything: `score in [-1,
    /// 3]`, `score 3, finding a perfect-play line`, named by its label.
    fn live_text(&self) -> Option<String> {
        let what = match lock(&self.shown).score {
            Some(score) => format!("score {score}, finding a perfect-play line"),
            None => match self.interval() {
                Some(interval) => format!("score in {}", Interval(interval)),
                None => return (!self.label.is_empty()).then(|| self.label.clone()),
            },
        };
        Some(format!("{}{what}", self.prefix()))
    }
}

impl Shared {
    /// The watcher thread: reads the solves' progress until `stopped` says
    /// the run is over.
    fn watch(&self, stopped: &mpsc::Receiver<()>) {
        let period = match self.mode {
            Mode::Lines => LINES_PERIOD,
            Mode::Live | Mode::Quiet => LIVE_PERIOD,
        };
        // Since when solves have been under way, with no idle time longer
        // than LIVE_IDLE; and since when none has been.
        let mut busy_since: Option<Instant> = None;
        let mut idle_since: Option<Instant> = None;
        while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(period) {
            match self.mode {
                Mode::Lines => {
                    let jobs = lock(&self.jobs).clone();
                    jobs.iter().for_each(|job| job.print_if_narrowed());
                }
                Mode::Live => {
                    let now = Instant::now();
                    if lock(&self.jobs).is_empty() {
                        let idle = *idle_since.get_or_insert(now);
                        if now - idle >= LIVE_IDLE {
                            busy_since = None;
                            if let Some(bar) = lock(&self.bar).take() {
                                bar.finish_and_clear();
                            }
                        }
                        continue;
                    }
                    idle_since = None;
                    if now - *busy_since.get_or_insert(now) >= LIVE_AFTER {
                        self.draw();
                    }
                }
                Mode::Quiet => {}
            }
        }
    }

    /// Draws the live status line, showing it first if need be.
    fn draw(&self) {
        let message = self.live_message();
        let mut bar = lock(&self.bar);
        let bar = bar.get_or_insert_with(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {wide_msg}")
                    .expect("the template is valid"),
            );
            bar
        });
        bar.set_message(message);
        bar.tick();
    }

    /// The live status: the run's time, nodes and nodes per second, the
    /// inputs written (batches), and each solve under way, e.g. `3.2 s
    /// 412.6M nodes  129.0M nodes/s  score in [-1, 3]`.
    fn live_message(&self) -> String {
        let elapsed = self.start.elapsed();
        let (nodes, solves) = {
            let jobs = lock(&self.jobs);
            let nodes = self.ended_nodes.load(Ordering::Relaxed)
                + jobs.iter().map(|job| job.progress.nodes()).sum::<u64>();
            let solves: Vec<String> = jobs.iter().filter_map(|job| job.live_text()).collect();
            (nodes, solves)
        };
        let rate = nodes as f64 / elapsed.as_secs_f64().max(1e-3);
        let mut parts = vec![
            Elapsed(elapsed).to_string(),
            format!("{} nodes", Count(nodes as f64)),
            format!("{} nodes/s", Count(rate)),
        ];
        if let Shape::Batch { total } = self.shape {
            let written = self.written.load(Ordering::Relaxed);
            parts.push(match total {
                Some(total) => format!("{written} of {total} done"),
                None => format!("{written} done"),
            });
        }
        if !solves.is_empty() {
            parts.push(solves.join(", "));
        }
        parts.join("  ")
    }
}

/// An interval of scores, `[-1, 3]`.
struct Interval((Score, Score));

impl Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (min, max) = self.0;
        write!(f, "[{min}, {max}]")
    }
}

/// A running time: `0.8 s`, `42.1 s`, `3m 07s`, `2h 05m`.
struct Elapsed(Duration);

impl Display for Elapsed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.0.as_secs();
        if secs < 60 {
            write!(f, "{:.1} s", self.0.as_secs_f64())
        } else if secs < 3600 {
            write!(f, "{}m {:02}s", secs / 60, secs % 60)
        } else {
            write!(f, "{}h {:02}m", secs / 3600, secs / 60 % 60)
        }
    }
}

/// A count in at most four digits and a unit: `950`, `12.3k`, `412.6M`,
/// `1.2G`.
struct Count(f64);

impl Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0;
        let units = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
        match units.iter().find(|&&(size, _)| n >= size) {
            Some(&(size, unit)) => write!(f, "{:.1}{unit}", n / size),
            None => write!(f, "{n:.0}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_times_read_at_a_glance() {
        assert_eq!(Count(950.0).to_string(), "950");
        assert_eq!(Count(12_345.0).to_string(), "12.3k");
        assert_eq!(Count(412_600_000.0).to_string(), "412.6M");
        assert_eq!(Count(1.25e9).to_string(), "1.2G");
        assert_eq!(Elapsed(Duration::from_millis(800)).to_string(), "0.8 s");
        assert_eq!(Elapsed(Duration::from_secs(187)).to_string(), "3m 07s");
        assert_eq!(Elapsed(Duration::from_secs(7500)).to_string(), "2h 05m");
        assert_eq!(Interval((-1, 3)).to_string(), "[-1, 3]");
    }

    #[test]
    fn a_quiet_status_gives_the_solver_nothing_to_report_to() {
        let status = Status::quiet();
        let job = status.job("line 1", false);
        assert!(job.progress().is_none());
        job.scored(3);
        assert_eq!(status.print(|| 7), 7);
    }

    #[test]
    fn a_column_shows_minus_its_childs_interval() {
        let status = Status::start(Mode::Live, Shape::Named);
        let job = status.job("column 4 of 7", true);
        let state = job.state.clone().expect("a live status watches its jobs");
        assert_eq!(state.live_text().as_deref(), Some("column 4 of 7"));
        let mut solver = c4::Solver::<7, 6>::with_table_bytes(1 << 20).unwrap();
        solver.set_progress(job.progress());
        // After 121212, X wins at once in column 1 with its 4th stone:
        // (42 + 1 - 6) / 2 = 18 by the scoring rule. The child, where X has
        // won, is solved -18 for O.
        let child = c4::Position::<7, 6>::parse("1212121").unwrap();
        assert_eq!(solver.solve(&child), -18);
        assert_eq!(
            state.live_text().as_deref(),
            Some("column 4 of 7: score in [18, 18]")
        );
        job.scored(18);
        assert_eq!(
            state.live_text().as_deref(),
            Some("column 4 of 7: score 18, finding a perfect-play line")
        );
        drop(job);
        assert!(lock(&status.shared.jobs).is_empty());
        status.finish();
    }
}
