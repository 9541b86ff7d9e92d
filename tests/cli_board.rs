//! `--width` / `--height` end to end: every command takes the board, says
//! which board it is on, and refuses sets of another board.
//!
//! Scores written out here name their witness, the exhaustive minimax of
//! `common::minimax`; comparisons with the library check plumbing only.

mod common;

use std::fs;
use std::path::PathBuf;

use assert_cmd::Command;
use predicates::prelude::*;

use c4::{Position, Solver};
use common::Naive;
use common::minimax::{minimax, reference_columns, reference_score_of};
use common::sets::README_EXAMPLE;

/// `c4 SUBCOMMAND` with a small table.
fn c4(subcommand: &str) -> Command {
    let mut cmd = Command::cargo_bin("c4").unwrap();
    cmd.args([subcommand, "--tt-size", "4M"]);
    cmd
}

/// A scratch file of this test binary.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_board");
    fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

/// The empty 4x4 board is a draw (witness: the exhaustive minimax); the
/// rest is plumbing: 4x5 from the empty board and a 10-column board with a
/// letter column give the library's scores.
#[test]
fn solve_on_small_and_wide_boards_matches_the_library() {
    assert_eq!(minimax(&Naive::<4, 4>::new()), 0);
    let out = stdout_of(c4("solve").args(["--width", "4", "--height", "4", ""]));
    assert_eq!(out, " 0\n");
    let expected = Solver::<4, 5>::new().solve(&Position::new());
    let out = stdout_of(c4("solve").args(["--width", "4", "--height", "5", "", "1"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!(" {expected}"));
    assert!(lines[1].starts_with("1 "));

    let moves = "9aa9a9a9545412";
    let pos = Position::<10, 4>::parse(moves).unwrap();
    let score = Solver::<10, 4>::new().solve(&pos);
    let out = stdout_of(c4("solve").args(["--width", "10", "--height", "4", moves]));
    assert_eq!(out, format!("{moves} {score}\n"));
}

#[test]
fn json_names_the_board() {
    let out = stdout_of(c4("solve").args(["--json", "--width", "6", "--height", "5", "121212"]));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["board_size"], "6x5");
    // Witness: the exhaustive minimax (a win with the 4th stone on 30
    // cells: (30 + 1 - 6) / 2).
    assert_eq!(reference_score_of::<6, 5>("121212"), 12);
    assert_eq!(v["score"], 12);
    let out = stdout_of(c4("analyze").args(["--json", "--width", "5", "--height", "4", "3333"]));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["board_size"], "5x4");
    assert_eq!(v["scores"].as_array().unwrap().len(), 5);
    assert_eq!(v["board"].as_array().unwrap().len(), 4);
}

#[test]
fn analyze_text_says_the_board() {
    // Witness of the draw: the exhaustive minimax.
    assert_eq!(reference_score_of::<4, 4>("2233"), 0);
    let out = stdout_of(c4("analyze").args(["--width", "4", "--height", "4", "2233"]));
    assert!(out.starts_with("board: 4x4, moves: 2233\n"), "{out}");
    assert!(out.contains("score: 0: draw"), "{out}");
}

#[test]
fn unsupported_boards_are_usage_errors() {
    c4("solve")
        .args(["--width", "3", "--height", "6", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("3x6 board is too small"));
    c4("analyze")
        .args(["--width", "11", "--height", "11", ""])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "width x (height + 1) = 132 is more than 128 bits",
        ));
}

#[test]
fn boards_past_64_bits_are_solved() {
    // 11x10 takes 121 bits. The first player's fourth stone in column a
    // wins on move 7: by the score rule, (110 + 1 - 6) / 2 = 52.
    c4("solve")
        .args(["--width", "11", "--height", "10", "a1a1a1"])
        .assert()
        .success()
        .stdout("a1a1a1 52\n");
    // 8x8 (72 bits): the first player wins at once in column 1; witness,
    // the score rule: (64 + 1 - 6) / 2 = 29.
    c4("solve")
        .args(["--width", "8", "--height", "8", "121212"])
        .assert()
        .success()
        .stdout("121212 29\n");
    // Ten cells from the end of a random 8x8 game: every column's score and
    // the position's against the exhaustive minimax. (Every size against
    // the minimax: tests/board_sizes.rs.)
    let moves = "771587586435325352268523734686511171852712722171388833";
    let out = stdout_of(c4("analyze").args(["--json", "--width", "8", "--height", "8", moves]));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["board_size"], "8x8");
    let expected: Vec<serde_json::Value> = reference_columns::<8, 8>(moves)
        .into_iter()
        .map(|s| s.map_or(serde_json::Value::Null, |s| s.into()))
        .collect();
    assert_eq!(v["scores"].as_array().unwrap(), &expected);
    assert_eq!(v["score"], reference_score_of::<8, 8>(moves));
}

#[test]
fn columns_past_the_board_name_the_character_and_the_range() {
    c4("solve")
        .args(["--width", "10", "--height", "5", "9ab"])
        .assert()
        .code(1)
        .stdout("9ab invalid\n")
        .stderr(predicate::str::contains(
            "argument 1: character 3 ('b') is not a column (1-9, a)",
        ));
}

#[test]
fn generated_sets_record_their_board_and_bench_reads_them_on_it() {
    let file = scratch("6x5.txt");
    c4("generate")
        .args([
            "--width", "6", "--height", "5", "--count", "5", "--seed", "7",
        ])
        .args(["--min-moves", "14", "--max-moves", "20", "--out"])
        .arg(&file)
        .assert()
        .success();
    let text = fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().next(), Some("# board 6x5"));
    assert_eq!(text.lines().count(), 6);

    // Plumbing: each score is the library's.
    for line in text.lines().skip(1) {
        let (moves, score) = line.split_once(' ').unwrap();
        let pos = Position::<6, 5>::parse(moves).unwrap();
        let mut solver = Solver::<6, 5>::with_table_bytes(1 << 20).unwrap();
        assert_eq!(solver.solve(&pos).to_string(), score, "{line}");
    }

    // The header chooses the board; an option that says otherwise is an
    // error naming both.
    for flags in [&[][..], &["--width", "6", "--height", "5"][..]] {
        c4("bench")
            .args(flags)
            .arg(&file)
            .assert()
            .success()
            .stdout(predicate::str::contains("| 6x5.txt | 6x5 | 5 | 0 |"));
    }
    c4("bench")
        .args(["--width", "7"])
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "6x5.txt is a set for the 6x5 board (its header says so), but --width 7 asks for another",
        ));

    // A set without a header is read on 7x6 when no option says otherwise.
    let plain = scratch("plain.txt");
    // (A standard-set line, Begin-Hard line 371.)
    fs::write(&plain, format!("{}\n", README_EXAMPLE.text())).unwrap();
    c4("bench")
        .arg(&plain)
        .assert()
        .success()
        .stdout(predicate::str::contains("| plain.txt | 7x6 | 1 | 0 |"));

    // Fed to solve, the set comes back as it is (header included) on its own
    // board; on another board its header line is an error and the rest goes on.
    let solved = stdout_of(
        c4("solve")
            .args(["--width", "6", "--height", "5"])
            .write_stdin(text.clone()),
    );
    assert_eq!(solved, text);
    c4("solve")
        .write_stdin(text.clone())
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("# board 6x5 invalid\n"))
        .stderr(predicate::str::contains(
            "line 1: character 9: this input is for the 6x5 board, but c4 runs on 7x6",
        ));
}

/// A set without a header is read on the board `--width`/`--height` give:
/// a 9x4 set (`c4 generate`), its scores checked by the exhaustive minimax,
/// benched with its header and without it.
#[test]
fn headerless_sets_are_read_on_the_board_the_options_give() {
    let file = scratch("9x4.txt");
    c4("generate")
        .args([
            "--width", "9", "--height", "4", "--count", "4", "--seed", "11",
        ])
        .args(["--min-moves", "24", "--max-moves", "27", "--out"])
        .arg(&file)
        .assert()
        .success();
    let text = fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().next(), Some("# board 9x4"));
    let body: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(body.len(), 4);
    for line in &body {
        let (moves, score) = line.split_once(' ').unwrap();
        assert_eq!(
            reference_score_of::<9, 4>(moves).to_string(),
            score,
            "{line}"
        );
    }
    c4("bench")
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains("| 9x4.txt | 9x4 | 4 | 0 |"));

    let plain = scratch("9x4-plain.txt");
    fs::write(&plain, body.join("\n") + "\n").unwrap();
    c4("bench")
        .args(["--width", "9", "--height", "4"])
        .arg(&plain)
        .assert()
        .success()
        .stdout(predicate::str::contains("| 9x4-plain.txt | 9x4 | 4 | 0 |"));
    // Without the options it is a 7x6 set, where these lines do not fit.
    c4("bench").arg(&plain).assert().code(1);

    // Both sets in one run: each on its own board.
    let out = stdout_of(
        c4("bench")
            .args(["--width", "9", "--height", "4"])
            .arg(&plain)
            .arg(&file),
    );
    assert!(out.contains("| 9x4-plain.txt | 9x4 | 4 | 0 |"), "{out}");
    assert!(out.contains("| 9x4.txt | 9x4 | 4 | 0 |"), "{out}");
    // Sets of two boards in one run: each on its own.
    let seven = scratch("seven.txt");
    fs::write(&seven, format!("{}\n", README_EXAMPLE.text())).unwrap();
    let out = stdout_of(c4("bench").arg(&file).arg(&seven));
    assert!(out.contains("| 9x4.txt | 9x4 | 4 | 0 |"), "{out}");
    assert!(out.contains("| seven.txt | 7x6 | 1 | 0 |"), "{out}");
}
