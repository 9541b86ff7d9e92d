//! Criterion benchmarks of the built-in opening book: loading it (decoding
//! as every solving command does, the full check of a user's book, and the
//! consistency check alone), and the answers it gives without a search:
//! `solve` and `analyze` of the Begin-Hard lines within its reach, each from
//! a cleared table, as the CLI answers one position.
//!
//! Begin-Hard is read from `../shared/testsets` beside the source tree; without
//! it the answer benchmarks are skipped with a note. `cargo bench --bench book`.

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

use c4::testset::parse_set;
use c4::{BoardSize, Position, Solver};

/// The first 50 Begin-Hard positions with `stones` stones, or `None`
/// without the set.
fn positions(stones: usize) -> Option<Vec<Position>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/testsets/Test_L1_R3");
    let text = std::fs::read_to_string(path).ok()?;
    Some(
        parse_set(BoardSize::STANDARD, &text)
            .filter_map(|line| line.result.ok())
            .map(|case| case.position.fixed())
            .filter(|pos: &Position| pos.moves_played() == stones)
            .take(50)
            .collect(),
    )
}

fn load(c: &mut Criterion) {
    use c4::book::{Book, builtin::BOOK_7X6, consistency::check_consistency};
    c.bench_function("load/builtin-trusting-entries", |b| {
        b.iter(|| black_box(Book::<7, 6>::decode_trusting_entries(black_box(BOOK_7X6))))
    });
    c.bench_function("load/builtin-full-check", |b| {
        b.iter(|| black_box(Book::<7, 6>::decode(black_box(BOOK_7X6))))
    });
    let book = Book::<7, 6>::decode_trusting_entries(BOOK_7X6).expect("the built-in book decodes");
    c.bench_function("load/consistency-check", |b| {
        b.iter(|| black_box(check_consistency(black_box(&book))))
    });
}

fn book(c: &mut Criterion) {
    let book = c4::book::builtin::builtin::<7, 6, u64>()
        .expect("c4 has a 7x6 book")
        .expect("the built-in book decodes");
    let depth = book.depth();
    let mut solver = Solver::<7, 6>::new();
    solver.set_book(Some(Arc::new(book)));
    // `analyze` of a position one stone shallower than the book looks up
    // every child; `solve` of a position of the book's depth looks it up.
    for (what, analyze, stones) in [("analyze", true, depth - 1), ("solve", false, depth)] {
        let Some(positions) = positions(stones) else {
            eprintln!(
                "note: ../shared/testsets/Test_L1_R3 not found, skipping the book benchmarks"
            );
            return;
        };
        let id = format!("{what}/begin-hard-{stones}-stones-per-position");
        let mut i = 0;
        c.bench_function(&id, |b| {
            b.iter(|| {
                let pos = &positions[i % positions.len()];
                i += 1;
                solver.clear();
                if analyze {
                    black_box(solver.analyze(black_box(pos)));
                } else {
                    black_box(solver.solve(black_box(pos)));
                }
            })
        });
        assert_eq!(
            solver.node_count(),
            0,
            "{what}: the book answers without a search"
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = load, book
}
criterion_main!(benches);
