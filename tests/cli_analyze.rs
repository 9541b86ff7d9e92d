//! `c4 analyze` end to end: the board, every column's score checked against
//! the library, the best move, the words, JSON, finished games and errors.
//!
//! Comparing the command with the library checks the plumbing (the report
//! shows what the library computes), not that a score is right; every score
//! written out here names its witness: a standard-set line
//! (`common::sets::CITED`, checked by `tests/testsets.rs`) or the exhaustive
//! minimax. Positions have at least a dozen moves so that each analysis is
//! quick; some come from the repository's own sets in `testsets/`.

mod common;

use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;
use c4::{Position, Solver};
use common::minimax::{reference_columns, reference_score_of};
use common::sets::{MIDDLE_GAME, repo_set};
use predicates::prelude::*;

/// A middle-game position (12 moves) that X, to move, loses: O wins on move
/// 40 (score -2, witness: Begin-Medium line 2, [`MIDDLE_GAME`]).
const MIDDLE: &str = MIDDLE_GAME.moves;
/// A position whose column 3 is full (18 moves).
const FULL_COLUMN: &str = "271713432331713132";

/// `c4` with the given arguments.
fn c4(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("c4");
    cmd.args(args).timeout(Duration::from_secs(120));
    cmd
}

/// Runs `c4 args`; returns stdout, checking that it succeeded.
fn stdout_of(args: &[&str]) -> String {
    let out = c4(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Parses `c4 analyze --json args`.
fn json_of(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["analyze", "--json"];
    all.extend(args);
    let out = stdout_of(&all);
    assert_eq!(out.lines().count(), 1, "one JSON line: {out}");
    serde_json::from_str(&out).expect("valid JSON")
}

/// The library's view: the position, its column scores and its score.
fn library(moves: &str) -> (Position, Vec<Option<i32>>, i32) {
    let pos: Position = Position::parse(moves).unwrap();
    let mut solver = Solver::<7, 6>::with_table_bytes(16 << 20).unwrap();
    let scores = solver.analyze(&pos);
    let score = solver.solve(&pos);
    (pos, scores, score)
}

/// The first `n` moves and scores of the repository's set `name` (scores by
/// the solver: see `common::sets::repo_set`).
fn testset_moves(name: &str, n: Option<usize>) -> Vec<(String, i32)> {
    repo_set(name, n)
        .into_iter()
        .map(|t| (t.moves, t.score))
        .collect()
}

/// The best column (1-based) of `scores`: the highest, most central first.
fn central_best(scores: &[Option<i32>]) -> usize {
    let order = [3, 2, 4, 1, 5, 0, 6];
    let best = scores.iter().flatten().max().unwrap();
    order
        .into_iter()
        .find(|&c| scores[c] == Some(*best))
        .unwrap()
        + 1
}

/// Plumbing: the text report shows the library's board, column scores and
/// best move; the score and its words are the cited line's.
#[test]
fn text_report() {
    let (pos, scores, score) = library(MIDDLE);
    let out = stdout_of(&["analyze", MIDDLE]);
    // The board as the library draws it, with whose turn it is.
    assert!(out.contains(&pos.to_string()), "{out}");
    assert!(out.contains("X to move (move 13)"), "{out}");
    // The scores row, column by column.
    let row = out
        .lines()
        .find(|l| l.starts_with("score "))
        .expect("a score row");
    let cells: Vec<&str> = row.split_whitespace().skip(1).collect();
    let expected: Vec<String> = scores
        .iter()
        .map(|s| match s {
            None => "-".to_owned(),
            Some(s) if *s > 0 => format!("+{s}"),
            Some(s) => s.to_string(),
        })
        .collect();
    assert_eq!(cells, expected);
    assert!(out.contains(&format!("best move: {}\n", central_best(&scores))));
    assert_eq!(score, MIDDLE_GAME.score);
    assert_eq!(score, -2);
    assert!(
        out.contains("score: -2: X loses: O wins with its 20th stone (move 40)"),
        "{out}"
    );
}

/// Plumbing: the JSON report holds what the library computes, for the cited
/// line and for lines of the repository's sets.
#[test]
fn json_report_matches_the_library() {
    let mut positions = vec![(MIDDLE.to_owned(), MIDDLE_GAME.score)];
    positions.extend(testset_moves("middle-easy", Some(4)));
    positions.extend(testset_moves("end-easy", Some(2)));
    for (moves, file_score) in positions {
        let (pos, scores, score) = library(&moves);
        let v = json_of(&[&moves]);
        assert_eq!(v["moves"], moves.as_str());
        assert_eq!(score, file_score, "{moves}");
        assert_eq!(v["score"], score, "{moves}");
        let got: Vec<Option<i32>> = v["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_i64().map(|s| s as i32))
            .collect();
        assert_eq!(got, scores, "{moves}");
        assert_eq!(v["best_move"], central_best(&scores), "{moves}");
        assert_eq!(v["moves_played"], moves.len());
        assert_eq!(v["game_over"], false);
        assert_eq!(v["winner"], serde_json::Value::Null);
        assert_eq!(v["weak"], false);
        let side = if moves.len().is_multiple_of(2) {
            "X"
        } else {
            "O"
        };
        assert_eq!(v["side_to_move"], side);
        // Board rows top first, matching the library's cells.
        let rows: Vec<&str> = v["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        assert_eq!(rows.len(), 6);
        for (i, row) in rows.iter().enumerate() {
            let expected: String = (0..7)
                .map(|col| pos.stone_at(col, 5 - i).map_or('.', |p| p.symbol()))
                .collect();
            assert_eq!(*row, expected, "{moves} row {i}");
        }
        let result = v["result"].as_str().unwrap();
        match score.signum() {
            1 => assert!(result.contains(&format!("{side} wins")), "{result}"),
            -1 => assert!(result.contains(&format!("{side} loses")), "{result}"),
            _ => assert!(result.contains("draw"), "{result}"),
        }
        if score == 0 {
            assert_eq!(v["win_on_move"], serde_json::Value::Null);
        } else {
            // The winner's stones when it wins: 22 - |score|.
            let on_move = v["win_on_move"].as_u64().unwrap() as i32;
            assert_eq!((on_move + 1) / 2, 22 - score.abs(), "{moves}");
        }
    }
}

/// End-game positions against the exhaustive minimax (the witness): every
/// column's score, and a drawn position said in words.
#[test]
fn end_game_columns_agree_with_the_exhaustive_minimax() {
    let positions: Vec<(String, i32)> = testset_moves("end-easy", None)
        .into_iter()
        .filter(|(m, _)| m.len() >= 33)
        .take(6)
        .collect();
    assert_eq!(positions.len(), 6);
    for (moves, _) in &positions {
        let v = json_of(&[moves]);
        let got: Vec<Option<i32>> = v["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_i64().map(|s| s as i32))
            .collect();
        assert_eq!(got, reference_columns::<7, 6>(moves), "{moves}");
        assert_eq!(v["score"], reference_score_of::<7, 6>(moves), "{moves}");
    }
    let draw = testset_moves("end-easy", None)
        .into_iter()
        .map(|(m, _)| m)
        .filter(|m| m.len() >= 32)
        .find(|m| reference_score_of::<7, 6>(m) == 0)
        .expect("a drawn position");
    let out = stdout_of(&["analyze", &draw]);
    assert!(out.contains("score: 0: draw"), "{out}");
}

/// Plumbing: a full column has no score, in the library and in the report.
#[test]
fn full_column_is_marked() {
    let (pos, scores, _) = library(FULL_COLUMN);
    assert!(!pos.can_play(2));
    assert_eq!(scores[2], None);
    let v = json_of(&[FULL_COLUMN]);
    assert_eq!(v["scores"][2], serde_json::Value::Null);
    let out = stdout_of(&["analyze", FULL_COLUMN]);
    let row = out.lines().find(|l| l.starts_with("score ")).unwrap();
    assert_eq!(row.split_whitespace().nth(3), Some("-"), "{row}");
}

/// Plumbing: weak column scores are the signs of the library's.
#[test]
fn weak_scores_are_signs() {
    let (_, scores, score) = library(MIDDLE);
    let v = json_of(&["--weak", MIDDLE]);
    assert_eq!(v["weak"], true);
    assert_eq!(v["score"], score.signum());
    let got: Vec<Option<i64>> = v["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_i64())
        .collect();
    let expected: Vec<Option<i64>> = scores
        .iter()
        .map(|s| s.map(|s| s.signum().into()))
        .collect();
    assert_eq!(got, expected);
    assert_eq!(v["win_on_move"], serde_json::Value::Null);
}

/// Witness of -18: the exhaustive minimax (X has won with its 4th stone).
#[test]
fn finished_game() {
    c4(&["analyze", "1212121"])
        .assert()
        .success()
        .stdout(predicate::str::contains("X has won on move 7"))
        .stdout(predicate::str::contains("game over"));
    let v = json_of(&["1212121"]);
    assert_eq!(v["game_over"], true);
    assert_eq!(v["winner"], "X");
    assert_eq!(v["best_move"], serde_json::Value::Null);
    assert_eq!(reference_score_of::<7, 6>("1212121"), -18);
    assert_eq!(v["score"], -18);
    assert!(v["scores"].as_array().unwrap().iter().all(|s| s.is_null()));
}

/// Witness of 18: the exhaustive minimax (X wins with its 4th stone).
#[test]
fn immediate_win() {
    // X has three stones in column 1 and wins at once, on move 7.
    let v = json_of(&["121212"]);
    assert_eq!(v["best_move"], 1);
    assert_eq!(reference_score_of::<7, 6>("121212"), 18);
    assert_eq!(v["score"], 18);
    assert_eq!(v["win_on_move"], 7);
    assert_eq!(v["result"], "X wins with its next stone (its 4th, move 7)");
}

#[test]
fn errors_and_exit_statuses() {
    c4(&["analyze", "12x4"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("character 3 ('x')"));
    c4(&["analyze", "1111111"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("character 7"))
        .stderr(predicate::str::contains("full"));
    // No position reads stdin: here an empty one, so nothing to analyze.
    c4(&["analyze"]).write_stdin("").assert().code(0).stdout("");
    c4(&["analyze", "--bogus", MIDDLE]).assert().code(2);
    c4(&["analyze", "--tt-size", "1", MIDDLE])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("too small"));
}

/// Several positions, as arguments or one per line of stdin (`-` or no
/// argument), give the reports a single position gives, in input order,
/// whatever the threads; a bad one is named and the others still come.
#[test]
fn batches_come_in_input_order_as_single_analyses_do() {
    let one = stdout_of(&["analyze", MIDDLE]);
    let two = stdout_of(&["analyze", FULL_COLUMN]);
    let both = format!("{one}\n{two}");
    assert_eq!(stdout_of(&["analyze", MIDDLE, FULL_COLUMN]), both);
    let stdin = format!("{MIDDLE}\n# a comment\n{FULL_COLUMN}\n");
    for args in [
        &["analyze"][..],
        &["analyze", "-"],
        &["analyze", "--threads", "2", "-"],
    ] {
        c4(args)
            .write_stdin(stdin.clone())
            .assert()
            .success()
            .stdout(both.clone());
    }
    // With --json, one object per line: each a single analysis's object,
    // its input's number first.
    let out = c4(&[
        "analyze",
        "--json",
        "--threads",
        "2",
        MIDDLE,
        "44x",
        FULL_COLUMN,
    ])
    .assert()
    .code(1)
    .stderr("argument 2: character 3 ('x') is not a column (1-7)\n")
    .get_output()
    .stdout
    .clone();
    let objects: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 3);
    for (object, (line, moves)) in [&objects[0], &objects[2]]
        .into_iter()
        .zip([(1, MIDDLE), (3, FULL_COLUMN)])
    {
        let mut object = object.clone();
        assert_eq!(
            object.as_object_mut().unwrap().remove("line"),
            Some(line.into())
        );
        assert_eq!(object, json_of(&[moves]));
    }
    assert_eq!(
        objects[1],
        serde_json::json!({
            "line": 2,
            "input": "44x",
            "error": "character 3 ('x') is not a column (1-7)",
            "character": 3
        })
    );
}

/// `--json` errors are JSON, as `solve`'s and `review`'s are; an argument
/// is a move string alone, and a line's score must be one the position can
/// have.
#[test]
fn errors_under_json_and_blanks_and_impossible_scores() {
    let out = c4(&["analyze", "--json", "44x"])
        .assert()
        .code(1)
        .stderr("argument 1: character 3 ('x') is not a column (1-7)\n")
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        (v["line"].as_u64(), v["character"].as_u64()),
        (Some(1), Some(3))
    );
    for (arg, named) in [("44 53", "a space"), ("44\t53", "a tab")] {
        c4(&["analyze", arg])
            .assert()
            .code(1)
            .stdout("")
            .stderr(format!(
                "argument 1: character 3 ({named}) is not a column (1-7)\n"
            ));
    }
    // After two stones on 7x6 a score is from -20 to 20.
    c4(&["analyze", "-"])
        .write_stdin("44 53\n44\t53\n")
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "line 1: character 4: 53 is not a score this position can have \
             (after 2 stones a score is from -20 to 20)\n\
             line 2: character 4: 53 is not a score this position can have \
             (after 2 stones a score is from -20 to 20)\n",
        );
    // A byte-order mark at the start of stdin is skipped, and said.
    let one = stdout_of(&["analyze", MIDDLE]);
    c4(&["analyze"])
        .write_stdin(format!("\u{feff}{MIDDLE}\n"))
        .assert()
        .success()
        .stdout(one)
        .stderr(predicate::str::contains("byte-order mark (U+FEFF"));
}

#[test]
fn help_shows_examples() {
    for flag in ["-h", "--help"] {
        c4(&["analyze", flag])
            .assert()
            .success()
            .stdout(predicate::str::contains("Examples:"))
            .stdout(predicate::str::contains("c4 analyze "));
    }
}
