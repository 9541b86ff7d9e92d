//! `c4 analyze` end to end: the board, every column's score checked against
//! the library, the best move, the words, JSON, finished games and errors.
//!
//! Positions have at least a dozen moves so that each analysis is quick;
//! some come from the standard test sets in `../shared/testsets` (read at run
//! time, never copied into the repository).

use std::path::PathBuf;
use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;
use c4::{Position, Solver};
use predicates::prelude::*;

/// A middle-game position of Test_L1_R2 (12 moves): O wins on move 40.
const MIDDLE: &str = "335662333565";
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

/// The first `n` moves strings of a standard test set.
fn testset_moves(name: &str, n: usize) -> Vec<(String, i32)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/testsets")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .take(n)
        .map(|l| {
            let (m, s) = l.split_once(' ').unwrap();
            (m.to_owned(), s.parse().unwrap())
        })
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
    assert_eq!(score, -2);
    assert!(
        out.contains("score: -2: X loses: O wins with its 14th stone from now (move 40)"),
        "{out}"
    );
}

#[test]
fn json_report_matches_the_library() {
    let mut positions = vec![(MIDDLE.to_owned(), -2)];
    positions.extend(testset_moves("Test_L2_R1", 4));
    positions.extend(testset_moves("Test_L3_R1", 2));
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

#[test]
fn draw_in_words() {
    let draw = testset_moves("Test_L3_R1", 1000)
        .into_iter()
        .find(|(_, s)| *s == 0)
        .expect("a drawn position")
        .0;
    let out = stdout_of(&["analyze", &draw]);
    assert!(out.contains("score: 0: draw"), "{out}");
}

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
    assert_eq!(v["score"], -18);
    assert!(v["scores"].as_array().unwrap().iter().all(|s| s.is_null()));
}

#[test]
fn immediate_win() {
    // X has three stones in column 1 and wins at once, on move 7.
    let v = json_of(&["121212"]);
    assert_eq!(v["best_move"], 1);
    assert_eq!(v["score"], 18);
    assert_eq!(v["win_on_move"], 7);
    assert_eq!(v["result"], "X wins with its 1st stone from now (move 7)");
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
    c4(&["analyze"]).assert().code(2);
    c4(&["analyze", "--bogus", MIDDLE]).assert().code(2);
    c4(&["analyze", "--tt-size", "1", MIDDLE])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("too small"));
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
