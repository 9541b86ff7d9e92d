//! Criterion benchmarks of the search over fixed slices of the six standard
//! test sets, strong and weak. Each iteration solves the whole slice, every
//! position from a cleared table, as `c4 bench` does. A last group solves
//! one Begin-Hard position on one thread and on two (the parallel search of
//! `Solver::set_threads`), for thread scaling; another solves it with and
//! without a caller's stop flag and progress sink, whose polls must cost
//! nothing measurable.
//!
//! The sets are read from `../shared/testsets` beside the source tree (they
//! are not part of the project); without them the benchmarks are skipped
//! with a note. Slices and sample sizes keep a full run to a few minutes:
//! `cargo bench --bench search`, or one group with e.g.
//! `cargo bench --bench search -- middle-medium`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use c4::solver::Progress;
use c4::testset::{TestCase, parse_set};
use c4::{BoardSize, Position, Solver};

/// The standard sets: file, name, and the lines solved per iteration as
/// (lines skipped, lines taken): fewer for the sets whose positions take
/// longer. Begin-Hard skips its first line, which alone takes about 1.5 s
/// (15 s for ten samples); its next two take about 0.2 s together.
const SLICES: [(&str, &str, (usize, usize)); 6] = [
    ("Test_L3_R1", "end-easy", (0, 50)),
    ("Test_L2_R1", "middle-easy", (0, 50)),
    ("Test_L2_R2", "middle-medium", (0, 50)),
    ("Test_L1_R1", "begin-easy", (0, 50)),
    ("Test_L1_R2", "begin-medium", (0, 5)),
    ("Test_L1_R3", "begin-hard", (1, 2)),
];

/// Where the standard sets are.
fn sets_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/testsets")
}

/// The positions of `take` lines of `file` after the first `skip`, or
/// `None` if the file cannot be read.
fn slice(file: &str, (skip, take): (usize, usize)) -> Option<Vec<Position>> {
    let text = std::fs::read_to_string(sets_dir().join(file)).ok()?;
    let cases: Vec<TestCase> = parse_set(BoardSize::STANDARD, &text)
        .skip(skip)
        .take(take)
        .map(|line| line.result.expect("the standard sets are valid"))
        .collect();
    Some(
        cases
            .into_iter()
            .map(|case| case.position.fixed())
            .collect(),
    )
}

/// Solves every position from a cleared table; returns a checksum of the
/// scores so that nothing is optimised away.
fn solve_all(solver: &mut Solver, positions: &[Position], weak: bool) -> i64 {
    positions
        .iter()
        .map(|pos| {
            solver.clear();
            i64::from(if weak {
                solver.solve_weak(pos)
            } else {
                solver.solve(pos)
            })
        })
        .sum()
}

fn search(c: &mut Criterion) {
    if !sets_dir().is_dir() {
        eprintln!(
            "note: {} not found, skipping the search benchmarks",
            sets_dir().display()
        );
        return;
    }
    let mut solver = Solver::<7, 6>::new();
    for (file, name, lines) in SLICES {
        let Some(positions) = slice(file, lines) else {
            eprintln!("note: cannot read {file}, skipping {name}");
            continue;
        };
        let mut group = c.benchmark_group(name);
        for (mode, weak) in [("strong", false), ("weak", true)] {
            let id = format!("{mode}/lines-{}-{}", lines.0 + 1, lines.0 + lines.1);
            group.bench_function(id, |b| {
                b.iter(|| solve_all(&mut solver, black_box(&positions), weak))
            });
        }
        group.finish();
    }
    threads(c);
    control(c);
}

/// The position of the thread-scaling group: Begin-Hard's fourth line, about
/// 0.35 s on one thread (6.7M nodes), long enough for the two threads to
/// share the work and short enough for ten samples.
const THREADS_POSITION: &str = "751321";

/// One position solved on one thread and on two, each time from cleared
/// tables.
fn threads(c: &mut Criterion) {
    let pos = Position::parse(THREADS_POSITION).expect("a valid position");
    let mut group = c.benchmark_group("threads");
    for threads in [1, 2] {
        let mut solver = Solver::<7, 6>::new();
        solver.set_threads(threads);
        group.bench_function(format!("{THREADS_POSITION}/{threads}"), |b| {
            b.iter(|| {
                solver.clear();
                solver.solve(black_box(&pos))
            })
        });
    }
    group.finish();
}

/// The thread-scaling position solved on one thread by `solve`, and by
/// `try_solve` with a stop flag (never raised) and a progress sink.
fn control(c: &mut Criterion) {
    let pos = Position::parse(THREADS_POSITION).expect("a valid position");
    let mut group = c.benchmark_group("control");
    let mut plain = Solver::<7, 6>::new();
    group.bench_function(format!("{THREADS_POSITION}/plain"), |b| {
        b.iter(|| {
            plain.clear();
            plain.solve(black_box(&pos))
        })
    });
    let mut watched = Solver::<7, 6>::new();
    watched.set_stop_flag(Some(Arc::new(AtomicBool::new(false))));
    watched.set_progress(Some(Arc::new(Progress::new())));
    group.bench_function(format!("{THREADS_POSITION}/stop-flag-and-progress"), |b| {
        b.iter(|| {
            watched.clear();
            watched.try_solve(black_box(&pos))
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    // Ten samples, short warm-up: the slow slices take seconds an iteration,
    // and Criterion stretches the measurement time to fit the samples in.
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = search
}
criterion_main!(benches);
