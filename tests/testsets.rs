//! The standard test sets (Pascal Pons's), the independent witness of the
//! solver's scores, read in place (never copied into the repository) from
//! where `common::sets` finds them: `../shared/testsets` beside the crate,
//! or the directory `C4_STANDARD_SETS` names.
//!
//! If they are absent (or declared absent with `C4_STANDARD_SETS=none`),
//! each test here that needs them prints one skip line and passes, unless
//! the environment variable `CI` is set (not empty): then it fails, so that
//! CI cannot pass without running the sets.
//!
//! - One test per set and mode (strong: the exact score; weak: its sign), so
//!   that the test harness runs them in parallel. Every line of End-Easy,
//!   Middle-Easy, Middle-Medium and Begin-Easy, the first 200 lines of
//!   Begin-Medium and the first 20 of Begin-Hard. The table is cleared
//!   before every position, so each result stands on its own. Every mismatch
//!   is listed in the failure message.
//! - On a sample of lines: `analyze`, `best_move` and the principal
//!   variation agree with the expected score.

mod common;

use std::fmt;
use std::time::Instant;

use c4::{Position, Score, Solver};
use common::sets::{
    CITED, DECLARED_ABSENT, SKIP_PREFIX, SKIP_REASON, StandardSets, TestLine, absence_verdict,
    locate_standard_sets, standard_sets,
};
use common::{check_line_ends_as_predicted, moves_from_string};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `Solver::solve`, compared with the expected score.
    Strong,
    /// `Solver::solve_weak`, compared with the sign of the expected score.
    Weak,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Strong => "strong",
            Mode::Weak => "weak",
        })
    }
}

/// Lines in each full test set.
const FULL_SET: usize = 1000;

/// Solves the first `limit` lines of test set `file` (all of them if `None`)
/// in `mode`, with the table cleared before each position, and fails listing
/// every mismatch.
fn run_set(file: &str, label: &str, limit: Option<usize>, mode: Mode) {
    run_set_threads(file, label, limit, mode, 1);
}

/// [`run_set`] with a solver searching each position on `threads` threads
/// (parallel probes over one shared table).
fn run_set_threads(file: &str, label: &str, limit: Option<usize>, mode: Mode, threads: usize) {
    let Some(sets) = standard_sets() else {
        return;
    };
    let lines = sets.load(file, limit);
    assert_eq!(
        lines.len(),
        limit.unwrap_or(FULL_SET),
        "{label} ({file}): number of lines"
    );
    let mut solver = Solver::<7, 6>::new();
    solver.set_threads(threads);
    let mut mismatches = Vec::new();
    let start = Instant::now();
    for t in &lines {
        let pos: Position = match Position::parse(&t.moves) {
            Ok(pos) => pos,
            Err(e) => {
                mismatches.push(format!(
                    "line {} '{}': does not parse: {e}",
                    t.line, t.moves
                ));
                continue;
            }
        };
        solver.clear();
        let (got, want) = match mode {
            Mode::Strong => (solver.solve(&pos), t.score),
            Mode::Weak => (solver.solve_weak(&pos), t.score.signum()),
        };
        if got != want {
            mismatches.push(format!(
                "line {} '{}': expected {want}, got {got}",
                t.line, t.moves
            ));
        }
    }
    let elapsed = start.elapsed();
    eprintln!(
        "{label} ({file}), {mode}, {} positions: {:.2?} ({:.2?} per position), {} nodes",
        lines.len(),
        elapsed,
        elapsed / lines.len() as u32,
        solver.node_count()
    );
    assert!(
        mismatches.is_empty(),
        "{label} ({file}), {mode}: {} mismatches out of {} positions:\n{}",
        mismatches.len(),
        lines.len(),
        mismatches.join("\n")
    );
}

#[test]
fn end_easy_strong() {
    run_set("Test_L3_R1", "End-Easy", None, Mode::Strong);
}

#[test]
fn end_easy_weak() {
    run_set("Test_L3_R1", "End-Easy", None, Mode::Weak);
}

#[test]
fn middle_easy_strong() {
    run_set("Test_L2_R1", "Middle-Easy", None, Mode::Strong);
}

#[test]
fn middle_easy_weak() {
    run_set("Test_L2_R1", "Middle-Easy", None, Mode::Weak);
}

#[test]
fn middle_medium_strong() {
    run_set("Test_L2_R2", "Middle-Medium", None, Mode::Strong);
}

#[test]
fn middle_medium_weak() {
    run_set("Test_L2_R2", "Middle-Medium", None, Mode::Weak);
}

#[test]
fn begin_easy_strong() {
    run_set("Test_L1_R1", "Begin-Easy", None, Mode::Strong);
}

#[test]
fn begin_easy_weak() {
    run_set("Test_L1_R1", "Begin-Easy", None, Mode::Weak);
}

#[test]
fn begin_medium_first_200_strong() {
    run_set("Test_L1_R2", "Begin-Medium", Some(200), Mode::Strong);
}

#[test]
fn begin_medium_first_200_weak() {
    run_set("Test_L1_R2", "Begin-Medium", Some(200), Mode::Weak);
}

#[test]
fn begin_hard_first_20_strong() {
    run_set("Test_L1_R3", "Begin-Hard", Some(20), Mode::Strong);
}

#[test]
fn begin_hard_first_20_weak() {
    run_set("Test_L1_R3", "Begin-Hard", Some(20), Mode::Weak);
}

/// On the given lines, from a cleared table each: the best score of
/// `analyze` is the expected score and no column scores more; full columns
/// have no score; `best_move` has the expected score and names a column with
/// that score; the principal variation ends the game on the move the score
/// predicts. Fails listing every problem.
fn check_sample(label: &str, lines: &[TestLine]) {
    let mut solver = Solver::<7, 6>::new();
    let mut problems = Vec::new();
    let start = Instant::now();
    for t in lines {
        let id = format!("{label} line {} '{}' (score {})", t.line, t.moves, t.score);
        let pos: Position = match Position::parse(&t.moves) {
            Ok(pos) => pos,
            Err(e) => {
                problems.push(format!("{id}: does not parse: {e}"));
                continue;
            }
        };
        solver.clear();
        let analysis = solver.analyze(&pos);
        for (col, score) in analysis.iter().enumerate() {
            if score.is_some() != pos.can_play(col) {
                problems.push(format!("{id}: analyze column {}: {score:?}", col + 1));
            }
        }
        let best = analysis.iter().flatten().max().copied();
        if best != Some(t.score) {
            problems.push(format!("{id}: analyze {analysis:?}, best {best:?}"));
        }
        match solver.best_move(&pos) {
            Some((col, score)) if score == t.score && analysis[col] == Some(t.score) => {}
            other => problems.push(format!(
                "{id}: best_move {other:?} with analysis {analysis:?}"
            )),
        }
        let line = solver.principal_variation(&pos);
        if let Err(e) = check_line_ends_as_predicted::<7, 6>(
            &moves_from_string(&t.moves),
            &c4::Game::of(&pos),
            t.score,
            &line,
        ) {
            problems.push(e);
        }
    }
    eprintln!(
        "{label}: analyze, best_move and principal variation of {} positions: {:.2?}",
        lines.len(),
        start.elapsed()
    );
    assert!(
        problems.is_empty(),
        "{label}: {} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn begin_medium_first_30_two_threads_strong() {
    run_set_threads("Test_L1_R2", "Begin-Medium", Some(30), Mode::Strong, 2);
}

#[test]
fn begin_medium_first_30_two_threads_weak() {
    run_set_threads("Test_L1_R2", "Begin-Medium", Some(30), Mode::Weak, 2);
}

/// Two threads on middle-game positions: those with at least 20 empty cells
/// are searched by parallel probes, which begin with the sign and walk from
/// it.
#[test]
fn middle_medium_first_200_two_threads_strong() {
    run_set_threads("Test_L2_R2", "Middle-Medium", Some(200), Mode::Strong, 2);
}

/// Two threads on the earliest positions: their nodes are split between the
/// shared full table and a small table per thread.
#[test]
fn begin_hard_first_10_two_threads_strong() {
    run_set_threads("Test_L1_R3", "Begin-Hard", Some(10), Mode::Strong, 2);
}

/// Every `step`-th line of a whole test set, starting with the first.
fn every_nth(sets: &StandardSets, file: &str, step: usize) -> Vec<TestLine> {
    let lines = sets.load(file, None);
    lines.into_iter().step_by(step).collect()
}

#[test]
fn sample_end_easy_analysis() {
    let Some(sets) = standard_sets() else {
        return;
    };
    check_sample("End-Easy every 50th", &every_nth(&sets, "Test_L3_R1", 50));
}

#[test]
fn sample_middle_sets_analysis() {
    let Some(sets) = standard_sets() else {
        return;
    };
    check_sample(
        "Middle-Easy every 50th",
        &every_nth(&sets, "Test_L2_R1", 50),
    );
    check_sample(
        "Middle-Medium every 100th",
        &every_nth(&sets, "Test_L2_R2", 100),
    );
}

#[test]
fn sample_begin_sets_analysis() {
    // `analyze` solves every column exactly, and a poor column of a position
    // with only 4-7 stones can be as hard as Begin-Hard: those lines are left
    // out of the sample (that keeps 17 of the 20).
    let Some(sets) = standard_sets() else {
        return;
    };
    let lines: Vec<TestLine> = every_nth(&sets, "Test_L1_R1", 50)
        .into_iter()
        .filter(|t| t.moves.len() >= 8)
        .collect();
    assert!(
        lines.len() >= 10,
        "Begin-Easy sample: {} lines",
        lines.len()
    );
    check_sample("Begin-Easy every 50th, 8 stones or more", &lines);
    check_sample("Begin-Medium first 5", &sets.load("Test_L1_R2", Some(5)));
}

/// The lines other tests cite as the witnesses of the scores they write out
/// (`common::sets::CITED`) are the standard sets' lines.
#[test]
fn cited_lines_are_the_standard_sets_lines() {
    let Some(sets) = standard_sets() else {
        return;
    };
    for cited in CITED {
        let lines = sets.load(cited.set, Some(cited.line));
        let line = lines.last().unwrap();
        assert_eq!(line.line, cited.line, "{cited:?}: no blank lines before it");
        assert_eq!(line.text(), cited.text(), "{cited:?}");
    }
}

/// Where the sets are: the default directory, a declared absence, a given
/// directory; a directory that does not exist is an absence.
#[test]
fn the_standard_sets_are_found_or_declared_absent() {
    use std::ffi::OsStr;
    use std::path::Path;
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let missing = here.join("no/such/testsets");
    let existing = here.join("testsets");
    assert_eq!(locate_standard_sets(None, &existing), Ok(existing.clone()));
    assert_eq!(
        locate_standard_sets(Some(OsStr::new("")), &existing),
        Ok(existing.clone())
    );
    assert!(locate_standard_sets(None, &missing).is_err());
    let declared = locate_standard_sets(Some(OsStr::new(DECLARED_ABSENT)), &existing);
    assert_eq!(declared, Err("C4_STANDARD_SETS=none".to_owned()));
    assert_eq!(
        locate_standard_sets(Some(existing.as_os_str()), &missing),
        Ok(existing.clone())
    );
    let why = locate_standard_sets(Some(missing.as_os_str()), &existing).unwrap_err();
    assert!(why.contains("no/such/testsets"), "{why}");
}

/// Absent sets: outside CI one skip line naming the test and the reason; in
/// CI a failure.
#[test]
fn absent_sets_skip_outside_ci_and_fail_in_ci() {
    let line = absence_verdict("some_test", "C4_STANDARD_SETS=none", false).unwrap();
    assert!(
        line.starts_with(&format!(
            "{SKIP_PREFIX}some_test: {SKIP_REASON} (C4_STANDARD_SETS=none)"
        )),
        "{line}"
    );
    assert_eq!(line.lines().count(), 1);
    let error = absence_verdict("some_test", "C4_STANDARD_SETS=none", true).unwrap_err();
    assert!(
        error.contains("the standard test sets are missing"),
        "{error}"
    );
    assert!(error.contains("CI is set"), "{error}");
}

/// The built-in book against the reference scores: every line of the three
/// Begin sets with at most the book's depth in stones (1,120 lines, 774 of
/// them Begin-Hard's) is answered by `solve` without a search (0 nodes) and
/// with the expected score; every line with fewer stones is analysed
/// without a search too (its children are in the book), the best column
/// giving the expected score.
#[test]
fn the_built_in_book_answers_the_begin_sets_without_a_search() {
    let book = c4::book::builtin::builtin::<7, 6, u64>()
        .expect("c4 has a 7x6 book")
        .unwrap();
    let depth = book.depth();
    let mut solver = Solver::<7, 6>::new();
    solver.set_book(Some(std::sync::Arc::new(book)));
    let Some(sets) = standard_sets() else {
        return;
    };
    let mut problems = Vec::new();
    let mut looked_up = 0;
    for (file, label) in [
        ("Test_L1_R1", "Begin-Easy"),
        ("Test_L1_R2", "Begin-Medium"),
        ("Test_L1_R3", "Begin-Hard"),
    ] {
        let lines = sets.load(file, None);
        for t in lines.iter().filter(|t| t.moves.len() <= depth) {
            let id = format!("{label} line {} '{}' (score {})", t.line, t.moves, t.score);
            let pos: Position = Position::parse(&t.moves).unwrap();
            solver.reset_node_count();
            let score = solver.solve(&pos);
            if score != t.score || solver.node_count() != 0 {
                problems.push(format!("{id}: {score} in {} nodes", solver.node_count()));
            }
            if t.moves.len() < depth {
                let analysis = solver.analyze(&pos);
                let best = analysis.iter().flatten().max().copied();
                if best != Some(t.score) || solver.node_count() != 0 {
                    problems.push(format!(
                        "{id}: analyze {analysis:?} in {} nodes",
                        solver.node_count()
                    ));
                }
            }
            looked_up += 1;
        }
    }
    eprintln!("built-in book (depth {depth}): {looked_up} Begin lines looked up");
    // The Begin sets have 1120 lines of at most 8 stones and 251 of 9: all
    // must have been looked up (a book deeper than 9 would need its count).
    let expected = match depth {
        8 => Some(1120),
        9 => Some(1371),
        _ => None,
    };
    if let Some(n) = expected {
        assert_eq!(looked_up, n, "Begin lines within the book's depth");
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// `solve_in` with any range holding the reference score gives that score:
/// the bound-first probe, the probes a bound skips, and (two threads) the
/// parallel probes.
#[test]
fn solve_in_gives_the_reference_score_for_every_true_range() {
    let Some(sets) = standard_sets() else {
        return;
    };
    let (mm, bm) = (
        sets.load("Test_L2_R2", Some(200)),
        sets.load("Test_L1_R2", Some(6)),
    );
    let mut one = Solver::<7, 6>::new();
    let mut two = Solver::<7, 6>::new();
    two.set_threads(2);
    let mut mismatches = Vec::new();
    for (lines, solver) in [(&mm, &mut one), (&bm, &mut two)] {
        for t in lines {
            let pos = Position::<7, 6>::parse(&t.moves).unwrap();
            let s = t.score;
            for (min, max) in [
                (s, s),
                (s, Score::MAX),
                (s - 1, Score::MAX),
                (s - 5, s + 1),
                (Score::MIN, s),
                (Score::MIN, Score::MAX),
            ] {
                solver.clear();
                let got = solver.solve_in(&pos, min, max);
                if got != s {
                    mismatches.push(format!(
                        "line {} '{}' in [{min}, {max}]: expected {s}, got {got}",
                        t.line, t.moves
                    ));
                }
            }
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// Positions one stone past the built-in book: `solve` gives the reference
/// score, weak solves its sign (a losing parent proves a win at once), and
/// `score_at_least` agrees (yes at once when the parents' bound proves it),
/// in fewer nodes in all than without the book.
#[test]
fn positions_one_stone_past_the_book_are_bounded_by_their_parents() {
    let book = std::sync::Arc::new(
        c4::book::builtin::builtin::<7, 6, u64>()
            .expect("c4 has a 7x6 book")
            .unwrap(),
    );
    let stones = book.depth() + 1;
    let mut with_book = Solver::<7, 6>::new();
    with_book.set_book(Some(book));
    let mut without = Solver::<7, 6>::new();
    let Some(sets) = standard_sets() else {
        return;
    };
    let mut problems = Vec::new();
    let mut solved = 0;
    for (file, limit) in [("Test_L1_R1", 1000), ("Test_L1_R2", 20)] {
        let lines = sets.load(file, None);
        for t in lines.iter().filter(|t| t.moves.len() == stones).take(limit) {
            let pos: Position = Position::parse(&t.moves).unwrap();
            for solver in [&mut with_book, &mut without] {
                solver.clear();
                let score = solver.solve(&pos);
                let weak = solver.solve_weak(&pos);
                let at_least = (
                    solver.score_at_least(&pos, t.score),
                    solver.score_at_least(&pos, t.score + 1),
                );
                if score != t.score || weak != t.score.signum() || at_least != (true, false) {
                    problems.push(format!(
                        "{file} line {} '{}': expected {}, got {score} (weak {weak})",
                        t.line, t.moves, t.score
                    ));
                }
            }
            solved += 1;
        }
    }
    let (a, b) = (with_book.node_count(), without.node_count());
    eprintln!("{solved} positions of {stones} stones: {a} nodes with the book, {b} without");
    assert!(solved >= 90, "only {solved} lines of {stones} stones");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(a < b, "{a} nodes with the book's bounds, {b} without");
}
