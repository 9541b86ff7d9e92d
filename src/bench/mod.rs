//! Batch runs: solve every case of a test set, compare with the expected
//! scores, and measure time and nodes.
//!
//! Each case is solved from a cleared transposition table by default
//! ([`Engine::clear`], an O(1) new table generation), so that every
//! measurement is that of the position alone, whatever came before it and
//! whichever worker thread solved it. Timing uses [`Instant`] around the
//! solve call only: parsing, clearing and bookkeeping are not counted.
//!
//! ```
//! use c4::BoardSize;
//! use c4::bench::{Bench, BenchConfig, Mode};
//! use c4::testset::{parse_set, TestCase};
//! let board = BoardSize::STANDARD;
//! let set = "175424313177774724541246612626552 4\n144572345532332435271375517774421 3\n";
//! let cases: Vec<TestCase> = parse_set(board, set)
//!     .map(|line| line.result.unwrap())
//!     .collect();
//! let config = BenchConfig { mode: Mode::Weak, table_bytes: 1 << 20, ..BenchConfig::default() };
//! let report = Bench::new(board, &config).unwrap().run(&cases, |_done| {});
//! assert_eq!(report.summary.positions, 2);
//! // Weak: 3 has the sign of the exact score, 2.
//! assert_eq!(report.summary.mismatches, 0);
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::board::BoardSize;
use crate::engine::{self, AnyBook, Engine};
use crate::parallel::{PoolError, WorkerPool};
use crate::rules::Score;
use crate::settings::DEFAULT_TABLE_BYTES;
use crate::testset::TestCase;

/// What a run asks of the solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// The exact score ([`Engine::solve`]).
    #[default]
    Strong,
    /// Only win, draw or loss ([`Engine::solve_weak`]), compared with the
    /// sign of the expected score.
    Weak,
}

/// How to run a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BenchConfig {
    /// Exact or weak scores.
    pub mode: Mode,
    /// Worker threads; each has its own solver and table.
    pub threads: usize,
    /// Transposition table size of each worker, in bytes.
    pub table_bytes: usize,
    /// Whether each case starts from an empty table (the default). Without
    /// it, a case may profit from what earlier ones left in the table.
    pub clear_table: bool,
}

impl Default for BenchConfig {
    /// Strong, one thread, the default table size, table cleared per case.
    fn default() -> Self {
        BenchConfig {
            mode: Mode::Strong,
            threads: 1,
            table_bytes: DEFAULT_TABLE_BYTES,
            clear_table: true,
        }
    }
}

/// The outcome of one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaseResult {
    /// The score the case expects: as given in strong mode, its sign in weak
    /// mode.
    pub expected: Score,
    /// The score the solver found (a sign in weak mode).
    pub got: Score,
    /// Nodes the search visited.
    pub nodes: u64,
    /// Time the solve took.
    pub duration: Duration,
}

impl CaseResult {
    /// Whether the solver agrees with the case.
    pub fn is_match(&self) -> bool {
        self.expected == self.got
    }
}

/// Totals and means of a run.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Summary {
    /// Cases solved.
    pub positions: usize,
    /// Cases where the solver disagreed with the expected score.
    pub mismatches: usize,
    /// Nodes visited, all cases together.
    pub total_nodes: u64,
    /// The solve times added up (the CPU time the searches took, across
    /// threads).
    pub solve_time: Duration,
    /// Time from the first case started to the last one finished.
    pub wall_time: Duration,
}

impl Summary {
    /// The summary of `results`, which took `wall_time` in all.
    pub fn new(results: &[CaseResult], wall_time: Duration) -> Self {
        Summary {
            positions: results.len(),
            mismatches: results.iter().filter(|r| !r.is_match()).count(),
            total_nodes: results.iter().map(|r| r.nodes).sum(),
            solve_time: results.iter().map(|r| r.duration).sum(),
            wall_time,
        }
    }

    /// Mean time of one solve (zero for an empty run). With several threads
    /// this is the latency of a solve, not the wall time over the count.
    pub fn mean_time(&self) -> Duration {
        match u32::try_from(self.positions) {
            Ok(0) => Duration::ZERO,
            Ok(n) => self.solve_time / n,
            Err(_) => self.solve_time.div_f64(self.positions as f64),
        }
    }

    /// Mean nodes per case (zero for an empty run).
    pub fn mean_nodes(&self) -> f64 {
        if self.positions == 0 {
            0.0
        } else {
            self.total_nodes as f64 / self.positions as f64
        }
    }

    /// Throughput in thousands of nodes (positions explored by the search)
    /// per second of wall time, as in the standard benchmark tables; grows
    /// with the number of threads. Zero when no time was measured.
    pub fn kpos_per_s(&self) -> f64 {
        let secs = self.wall_time.as_secs_f64();
        if secs == 0.0 {
            0.0
        } else {
            self.total_nodes as f64 / secs / 1000.0
        }
    }

    /// Test cases solved per second of wall time (zero when no time was
    /// measured).
    pub fn cases_per_s(&self) -> f64 {
        let secs = self.wall_time.as_secs_f64();
        if secs == 0.0 {
            0.0
        } else {
            self.positions as f64 / secs
        }
    }
}

/// The results of a run: one per case, in the order of the cases, and their
/// summary.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchReport {
    /// One result per case, in input order.
    pub results: Vec<CaseResult>,
    /// Totals and means.
    pub summary: Summary,
}

/// A batch runner: worker threads with their solvers for one board, ready
/// to run any number of sets of that board (the tables are allocated once).
pub struct Bench {
    /// The workers, each with its solver.
    pool: WorkerPool<Box<dyn Engine>>,
    /// Exact or weak.
    mode: Mode,
    /// Whether each case starts from an empty table.
    clear_table: bool,
}

impl Bench {
    /// Sets up the workers of `config`, solving positions of `board`.
    pub fn new(board: BoardSize, config: &BenchConfig) -> Result<Self, PoolError> {
        Self::with_book(board, config, None)
    }

    /// Sets up the workers of `config`, solving positions of `board`, every
    /// solver using the opening `book` (see [`Engine::set_book`]). Panics if
    /// the book is of another board.
    pub fn with_book(
        board: BoardSize,
        config: &BenchConfig,
        book: Option<AnyBook>,
    ) -> Result<Self, PoolError> {
        Ok(Bench {
            pool: WorkerPool::new(config.threads, || {
                let mut solver = engine::new(board, config.table_bytes)?;
                solver
                    .set_book(book.clone())
                    .expect("a book of the bench's board");
                Ok(solver)
            })?,
            mode: config.mode,
            clear_table: config.clear_table,
        })
    }

    /// Solves every case, calling `progress` with the number of cases done
    /// after each one (from the worker threads, in any order of counts).
    /// The cases must be on the bench's board: one of another board panics.
    pub fn run(&self, cases: &[TestCase], progress: impl Fn(usize) + Sync) -> BenchReport {
        let done = AtomicUsize::new(0);
        let start = Instant::now();
        let results = self.pool.map(cases, |solver, case| {
            let result = self.solve(solver.as_mut(), case);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            result
        });
        let summary = Summary::new(&results, start.elapsed());
        BenchReport { results, summary }
    }

    /// Solves one case on `solver`.
    fn solve(&self, solver: &mut dyn Engine, case: &TestCase) -> CaseResult {
        if self.clear_table {
            solver.clear();
        }
        solver.reset_node_count();
        let start = Instant::now();
        let (got, expected) = match self.mode {
            Mode::Strong => (solver.solve(&case.position), case.score),
            Mode::Weak => (solver.solve_weak(&case.position), case.weak_score()),
        };
        let duration = start.elapsed();
        CaseResult {
            expected,
            got,
            nodes: solver.node_count(),
            duration,
        }
    }
}

/// The most memory a run over a test set of `file_bytes` bytes takes besides
/// the solvers: the set as read ([`testset::set_bytes`](crate::testset::set_bytes))
/// and a result per case.
pub fn batch_bytes(file_bytes: usize) -> usize {
    crate::testset::set_bytes(file_bytes).saturating_add(
        crate::testset::most_cases(file_bytes).saturating_mul(std::mem::size_of::<CaseResult>()),
    )
}

/// Runs `cases`, positions of `board`, with `config` in one go; see
/// [`Bench::run`].
pub fn run(
    board: BoardSize,
    cases: &[TestCase],
    config: &BenchConfig,
    progress: impl Fn(usize) + Sync,
) -> Result<BenchReport, PoolError> {
    Ok(Bench::new(board, config)?.run(cases, progress))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testset::parse_line;

    fn result(expected: Score, got: Score, nodes: u64, micros: u64) -> CaseResult {
        CaseResult {
            expected,
            got,
            nodes,
            duration: Duration::from_micros(micros),
        }
    }

    #[test]
    fn summary_maths() {
        let results = [
            result(1, 1, 100, 10),
            result(-2, 3, 300, 30),
            result(0, 0, 200, 20),
        ];
        let s = Summary::new(&results, Duration::from_micros(50));
        assert_eq!(s.positions, 3);
        assert_eq!(s.mismatches, 1);
        assert_eq!(s.total_nodes, 600);
        assert_eq!(s.solve_time, Duration::from_micros(60));
        assert_eq!(s.mean_time(), Duration::from_micros(20));
        assert_eq!(s.mean_nodes(), 200.0);
        // 600 nodes in 50 µs: 12 million per second, 12,000 K/s.
        assert!((s.kpos_per_s() - 12_000.0).abs() < 1e-6);
        assert!((s.cases_per_s() - 60_000.0).abs() < 1e-6);
    }

    #[test]
    fn empty_summary_has_no_division_by_zero() {
        let s = Summary::new(&[], Duration::ZERO);
        assert_eq!(s.mean_time(), Duration::ZERO);
        assert_eq!(s.mean_nodes(), 0.0);
        assert_eq!(s.kpos_per_s(), 0.0);
        assert_eq!(s.cases_per_s(), 0.0);
    }

    fn cases(lines: &[&str]) -> Vec<TestCase> {
        lines
            .iter()
            .map(|l| parse_line(BoardSize::STANDARD, l).unwrap())
            .collect()
    }

    #[test]
    fn finds_mismatches_strong_and_weak() {
        // Generated end-game lines, the second one's score changed from 4 to
        // 3: wrong when strong, right when weak (same sign). The third one's
        // changed from 0 to -1: wrong either way.
        let cases = cases(&[
            "1644236131523113664122472667742 -2",
            "175424313177774724541246612626552 3",
            "55667424777333344255275537623664411611 -1",
        ]);
        let small = BenchConfig {
            table_bytes: 1 << 20,
            ..BenchConfig::default()
        };
        let strong = run(BoardSize::STANDARD, &cases, &small, |_| {}).unwrap();
        let matches: Vec<bool> = strong.results.iter().map(CaseResult::is_match).collect();
        assert_eq!(matches, [true, false, false]);
        assert_eq!(strong.results[1].got, 4);
        assert_eq!(strong.results[2].got, 0);
        assert_eq!(strong.summary.mismatches, 2);

        let weak = BenchConfig {
            mode: Mode::Weak,
            ..small
        };
        let weak = run(BoardSize::STANDARD, &cases, &weak, |_| {}).unwrap();
        let matches: Vec<bool> = weak.results.iter().map(CaseResult::is_match).collect();
        assert_eq!(matches, [true, true, false]);
        assert_eq!(weak.results[1].expected, 1);
        assert_eq!(weak.results[2].expected, -1);
        assert_eq!(weak.results[2].got, 0);
    }

    #[test]
    fn cleared_tables_make_node_counts_independent_of_threads() {
        let cases = cases(&[
            "3721265411744151174 -2",
            "1174242555457412 -5",
            "1714317652756423 0",
            "616425514112667745333334 -1",
        ]);
        let config = BenchConfig {
            table_bytes: 1 << 22,
            ..BenchConfig::default()
        };
        let one = run(BoardSize::STANDARD, &cases, &config, |_| {}).unwrap();
        let calls = AtomicUsize::new(0);
        let two = run(
            BoardSize::STANDARD,
            &cases,
            &BenchConfig {
                threads: 2,
                ..config
            },
            |_| {
                calls.fetch_add(1, Ordering::Relaxed);
            },
        )
        .unwrap();
        assert_eq!(calls.into_inner(), cases.len());
        assert_eq!(one.summary.mismatches, 0);
        assert_eq!(two.summary.mismatches, 0);
        let nodes = |r: &BenchReport| r.results.iter().map(|c| c.nodes).collect::<Vec<_>>();
        assert_eq!(nodes(&one), nodes(&two));
        assert!(one.summary.total_nodes > 0);
    }
}
