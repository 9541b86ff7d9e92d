//! Tests of the solver's API: a book whose scores contradict each other, the
//! caller's stop flag, and the progress a solve reports.
//!
//! Expected scores are lines of Pascal Pons's standard sets
//! (`../shared/testsets`), named where used; the book-less solver that the
//! lying book is compared with is itself checked against exhaustive minimax
//! in `tests/solver_minimax.rs`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use super::probes::{FromRoot, Root, exact_score};
use super::search::Searcher;
use super::{Interrupted, Progress, Solver};
use crate::book::Book;
use crate::book::consistency::is_book_position;
use crate::book::format::{self, Kind};
use crate::position::Position;
use crate::rules::Score;

/// Standard-set lines: (moves, score, set and line).
pub(super) const LINES: [(&str, Score, &str); 3] = [
    ("751321", 2, "Begin-Hard (Test_L1_R3) line 4"),
    ("32751571231557", -3, "Begin-Medium (Test_L1_R2) line 1"),
    ("274552224131661", 0, "Middle-Medium (Test_L2_R2) line 1"),
];

fn pos(moves: &str) -> Position {
    Position::parse(moves).unwrap()
}

/// Every book position of a 5x4 board with at most `depth` stones, each
/// scored 3 (clipped to the position's range), encoded and decoded again
/// without the load-time consistency check (as a book given through the
/// library could be): the file passes every check of the format, yet a
/// position scored 3 cannot have only children scored 3 (it would score -3).
fn lying_book(depth: usize) -> Book<5, 4> {
    let mut level = vec![Position::<5, 4>::new()];
    let mut entries: Vec<(u64, Score)> = Vec::new();
    for stones in 0..=depth {
        for p in level.iter().filter(|p| is_book_position(*p)) {
            let (lo, hi) = p.score_range();
            entries.push((p.symmetric_key().0, 3.clamp(lo, hi)));
        }
        if stones < depth {
            let mut next: Vec<Position<5, 4>> = level
                .iter()
                .filter(|p| !p.is_game_over())
                .flat_map(|p| {
                    (0..5).filter(|&c| p.can_play(c)).map(move |c| {
                        let mut child = *p;
                        child.play_col(c);
                        child
                    })
                })
                .collect();
            next.sort_unstable_by_key(|p| p.symmetric_key().0);
            next.dedup_by_key(|p| p.symmetric_key().0);
            level = next;
        }
    }
    entries.sort_unstable();
    entries.dedup();
    let bytes = format::encode(5, 4, depth, Kind::Complete, &entries);
    assert!(
        Book::<5, 4>::decode(&bytes).is_err(),
        "the load-time check refuses the lying book"
    );
    Book::decode_trusting_entries(&bytes).expect("the lying book passes the format check")
}

#[test]
fn a_book_whose_scores_contradict_each_other_never_makes_the_solver_panic() {
    let empty = Position::<5, 4>::new();
    let mut honest = Solver::<5, 4>::with_table_bytes(1 << 20).unwrap();
    let mut lied_to = Solver::<5, 4>::with_table_bytes(1 << 20).unwrap();
    lied_to.set_book(Some(Arc::new(lying_book(4))));
    // The book answers the position itself, wrongly.
    assert_eq!(lied_to.solve(&empty), 3);
    assert_ne!(honest.solve(&empty), 3);
    // No move keeps that score: the best move and the line are searched
    // without the book, and agree with the book-less solver's.
    assert_eq!(lied_to.best_move(&empty), honest.best_move(&empty));
    let line = lied_to.principal_variation(&empty);
    assert_eq!(line, honest.principal_variation(&empty));
    let mut end = empty;
    line.iter().for_each(|&col| end.play_col(col));
    assert!(end.is_game_over());
    // The book is still the solver's.
    assert!(lied_to.book().is_some());
    assert_eq!(lied_to.solve(&empty), 3);
}

/// Runs `solve` on `solver` (one of its `try_` methods on the empty board,
/// hundreds of millions of nodes without a book) and raises the stop flag
/// from another thread once the progress sink shows the search under way.
fn stopped_midway(
    solver: &mut Solver,
    solve: fn(&mut Solver) -> Result<Score, Interrupted>,
) -> Result<Score, Interrupted> {
    let (stop, progress) = (Arc::new(AtomicBool::new(false)), Arc::new(Progress::new()));
    solver.set_stop_flag(Some(Arc::clone(&stop)));
    solver.set_progress(Some(Arc::clone(&progress)));
    thread::scope(|scope| {
        scope.spawn(|| {
            while progress.nodes() == 0 {
                thread::sleep(Duration::from_millis(1));
            }
            stop.store(true, Ordering::Relaxed);
        });
        solve(solver)
    })
}

#[test]
fn a_stopped_solve_returns_no_score_and_the_solver_stays_usable() {
    for threads in [1, 2] {
        let mut solver = Solver::<7, 6>::with_table_bytes(1 << 24).unwrap();
        solver.set_threads(threads);
        let empty = Position::new();
        let strong = stopped_midway(&mut solver, |s| s.try_solve(&Position::new()));
        assert_eq!(strong, Err(Interrupted), "{threads} threads");
        let weak = stopped_midway(&mut solver, |s| s.try_solve_weak(&Position::new()));
        assert_eq!(weak, Err(Interrupted), "{threads} threads");
        // While the flag is up, nothing is searched.
        let nodes = solver.node_count();
        assert_eq!(solver.try_solve(&empty), Err(Interrupted));
        assert_eq!(solver.node_count(), nodes);
        // Lowered, the same solver (same tables) answers right.
        solver.set_stop_flag(Some(Arc::new(AtomicBool::new(false))));
        for (moves, score, line) in LINES {
            assert_eq!(solver.try_solve(&pos(moves)), Ok(score), "{line}");
            assert_eq!(solver.try_solve_weak(&pos(moves)), Ok(score.signum()));
        }
    }
}

#[test]
fn the_reported_interval_narrows_to_the_exact_score() {
    for threads in [1, 2] {
        let mut solver = Solver::<7, 6>::with_table_bytes(1 << 24).unwrap();
        solver.set_threads(threads);
        for (moves, score, line) in LINES {
            let (p, progress) = (pos(moves), Arc::new(Progress::new()));
            solver.set_progress(Some(Arc::clone(&progress)));
            solver.clear();
            solver.reset_node_count();
            let done = AtomicBool::new(false);
            // Watched while it runs: every interval seen holds the score
            // and holds the next one.
            let seen = thread::scope(|scope| {
                let watcher = scope.spawn(|| {
                    let mut seen = vec![progress.interval()];
                    while !done.load(Ordering::Relaxed) {
                        seen.push(progress.interval());
                        thread::sleep(Duration::from_micros(200));
                    }
                    seen
                });
                assert_eq!(solver.solve(&p), score, "{line}");
                done.store(true, Ordering::Relaxed);
                watcher.join().unwrap()
            });
            assert_eq!(progress.interval(), (score, score), "{line}");
            assert_eq!(progress.nodes(), solver.node_count(), "{line}");
            for pair in seen.windows(2) {
                let ((a, b), (c, d)) = (pair[0], pair[1]);
                assert!(a <= c && d <= b, "{line}: {:?}", pair);
            }
            assert!(seen.iter().all(|&(a, b)| a <= score && score <= b));
            solver.solve_weak(&p);
            assert_eq!(progress.interval(), (score.signum(), score.signum()));
        }
    }
}

#[test]
fn the_probes_themselves_narrow_the_interval_to_the_score() {
    // Without the solver's final report: one thread's probes, then the
    // parallel ones.
    let mut solver = Solver::<7, 6>::with_table_bytes(1 << 24).unwrap();
    for (moves, score, line) in LINES {
        let (p, progress) = (pos(moves), Progress::new());
        let (lo, hi) = p.score_range();
        progress.begin(lo, hi);
        solver.clear();
        let mut searcher =
            Searcher::new(solver.tables(&p, 0, false)).with_control(None, Some(&progress));
        let root = &mut FromRoot {
            searcher: &mut searcher,
            pos: &p,
        };
        assert_eq!(exact_score(root, Root::of(&p), (lo, hi)), Some(score));
        assert_eq!(progress.interval(), (score, score), "{line}");
    }
    solver.set_threads(2);
    for (moves, score, line) in LINES {
        let (p, progress) = (pos(moves), Arc::new(Progress::new()));
        let (lo, hi) = p.score_range();
        progress.begin(lo, hi);
        solver.set_progress(Some(Arc::clone(&progress)));
        solver.clear();
        assert_eq!(solver.parallel_probes(&p, lo, hi, false), Some(score));
        assert_eq!(progress.interval(), (score, score), "{line}");
    }
}

/// The children of `p` that the search enters (playable, not an immediate
/// win), each with its exact score from `solver`.
fn children_scores(solver: &mut Solver<7, 6>, p: &Position) -> Vec<(Position, Score)> {
    (0..7)
        .filter(|&col| p.can_play(col) && !p.is_winning_move(col))
        .map(|col| {
            let mut child = *p;
            child.play_col(col);
            (child, solver.solve(&child))
        })
        .collect()
}

#[test]
fn seeded_children_give_the_same_scores_with_a_fraction_of_the_nodes() {
    let mut witness = Solver::<7, 6>::with_table_bytes(1 << 24).unwrap();
    // Not the Begin-Hard line: solved a dozen times here, it takes a minute.
    for &(moves, score, line) in &LINES[1..] {
        let p = pos(moves);
        witness.clear();
        witness.reset_node_count();
        assert_eq!(witness.solve(&p), score, "{line}");
        let alone = witness.node_count();
        let children = children_scores(&mut witness, &p);

        // Exact scores of every child: the root's search stops at them.
        let mut seeded = Solver::<7, 6>::with_table_bytes(1 << 24).unwrap();
        for &(child, child_score) in &children {
            seeded.seed(&child, child_score, child_score).unwrap();
        }
        assert_eq!(seeded.solve(&p), score, "{line}");
        assert_eq!(seeded.solve_weak(&p), score.signum(), "{line}");
        let with_seeds = seeded.node_count();
        assert!(
            with_seeds * 4 < alone,
            "{line}: {with_seeds} nodes seeded against {alone} alone"
        );
        seeded.clear();
        seeded.reset_node_count();
        assert_eq!(seeded.solve(&p), score, "{line}: cleared");
        assert!(
            seeded.node_count() * 4 >= alone,
            "{line}: clear forgets the seeds"
        );

        // True one-sided bounds, as a distributed solve's null windows leave
        // them: the same scores in both modes, and the same analysis.
        for lower_side in [true, false] {
            let mut seeded = Solver::<7, 6>::with_table_bytes(1 << 24).unwrap();
            for &(child, child_score) in &children {
                let (lo, hi) = if lower_side {
                    (child_score - 1, Score::MAX)
                } else {
                    (Score::MIN, child_score + 2)
                };
                seeded.seed(&child, lo, hi).unwrap();
            }
            assert_eq!(seeded.solve(&p), score, "{line}: lower side {lower_side}");
            assert_eq!(seeded.solve_weak(&p), score.signum(), "{line}");
            assert_eq!(seeded.analyze(&p), witness.analyze(&p), "{line}");
        }
    }
}

#[test]
fn seeds_that_contradict_each_other_are_refused_and_empty_ones_ignored() {
    let mut solver = Solver::<7, 6>::with_table_bytes(1 << 20).unwrap();
    let p = pos("4453");
    let err = solver.seed(&p, 3, -3).unwrap_err();
    assert_eq!((err.lower, err.upper), (3, -3));
    assert_eq!(err.to_string(), "a lower bound 3 above the upper bound -3");
    // Beyond the score range on both sides: clipped, nothing said, stored
    // as nothing; the score is the search's.
    solver.seed(&p, -100, 100).unwrap();
    assert_eq!(solver.solve(&p), -2);
    // A lower bound past the range (or an upper one below it) is no true
    // bound of anything: refused.
    let (lo, hi) = p.score_range();
    assert_eq!(solver.seed(&p, hi + 5, hi + 9).unwrap_err().upper, hi);
    assert_eq!(solver.seed(&p, lo - 9, lo - 1).unwrap_err().lower, lo);
    assert_eq!(solver.solve(&p), -2);
}
