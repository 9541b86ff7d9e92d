//! `c4 play` end to end: scripted games from a pipe, hints, undo, bad input
//! explained and asked again, the end of input, the opening from the book.
//!
//! Scores written out here name their witness: the exhaustive minimax of
//! `common::minimax`, or the published solvers for the empty board.

mod common;

use assert_cmd::Command;

use c4::{Position, Solver};
use common::minimax::{reference_columns, reference_score_of};
use common::sets::EMPTY_BOARD_SCORE;

/// An end-game position (33 stones, O to move, O wins: score 4) where
/// columns 2, 4 and 7 are full. Witness: the exhaustive minimax
/// (`the_end_game_scores_are_the_exhaustive_minimax_s`).
const ENDGAME: &str = "175424313177774724541246612626552";

/// Runs `c4 play ARGS` with `input` on stdin: (stdout, exit status).
fn play(args: &[&str], input: &str) -> (String, i32) {
    let out = Command::cargo_bin("c4")
        .unwrap()
        .arg("play")
        .args(["--tt-size", "16M"])
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap(),
    )
}

/// The scores this file writes out, against the exhaustive minimax: the
/// position scores 4 and its column 6 does (O wins on move 36: its 18th
/// stone, 22 - 18).
#[test]
fn the_end_game_scores_are_the_exhaustive_minimax_s() {
    assert_eq!(reference_score_of::<7, 6>(ENDGAME), 4);
    let columns = reference_columns::<7, 6>(ENDGAME);
    assert_eq!(columns[5], Some(4));
    assert_eq!(columns.iter().flatten().max(), Some(&4));
    assert_eq!(columns.iter().filter(|c| **c == Some(4)).count(), 1);
}

#[test]
fn bad_input_is_explained_and_asked_again() {
    let (out, code) = play(&["--from", ENDGAME, "--as", "second"], "x 9 44\n2 quit\n");
    assert_eq!(code, 0);
    assert!(
        out.contains("'x' is not a column (1-7) or a command (hint, undo, quit)"),
        "{out}"
    );
    assert!(out.contains("'9' is not a column"), "{out}");
    assert!(out.contains("'44' is not a column"), "{out}");
    assert!(out.contains("Column 2 is full; choose another."), "{out}");
    assert!(out.ends_with("your move> quit\nBye.\n"), "{out}");
    // Each bad word was followed by a new prompt.
    assert_eq!(out.matches("your move> ").count(), 5, "{out}");
}

/// Plumbing: the hint shows the library's column scores in words; the best
/// column's score is the minimax's (see above).
#[test]
fn hint_gives_every_column_score_in_words() {
    let (out, code) = play(&["--from", ENDGAME, "--as", "second"], "hint\n");
    assert_eq!(code, 0);
    let pos = Position::<7, 6>::parse(ENDGAME).unwrap();
    let scores = Solver::<7, 6>::with_table_bytes(1 << 24)
        .unwrap()
        .analyze(&pos);
    for (col, score) in scores.iter().enumerate() {
        let label = format!("  column {}: ", col + 1);
        let line = out
            .lines()
            .find(|l| l.starts_with(&label))
            .unwrap_or_else(|| panic!("no line for column {}: {out}", col + 1));
        match score {
            None => assert!(line.ends_with("full"), "{line}"),
            Some(s) => {
                let shown = if *s > 0 {
                    format!("+{s}")
                } else {
                    s.to_string()
                };
                assert!(line.contains(&shown), "{line}");
                let words = if *s > 0 {
                    "wins on move"
                } else if *s < 0 {
                    "loses on move"
                } else {
                    "draw"
                };
                assert!(line.contains(words), "{line}");
            }
        }
    }
    // The best column is marked: column 6, score +4, O wins on move 36.
    assert!(
        out.contains("  column 6:  +4  wins on move 36  (best)"),
        "{out}"
    );
}

#[test]
fn a_scripted_game_is_played_to_its_end_against_perfect_play() {
    // O plays the best moves the hint names; c4 answers; O wins on move 36
    // as the score 4 of the start says.
    let pos = Position::<7, 6>::parse(ENDGAME).unwrap();
    let mut solver = Solver::<7, 6>::with_table_bytes(1 << 24).unwrap();
    let mut p = pos;
    let mut input = String::new();
    while !p.is_game_over() {
        let (col, _) = solver.best_move(&p).unwrap();
        if p.moves_played() % 2 == 1 {
            input.push_str(&format!("{}\n", col + 1));
        }
        p.play_col(col);
    }
    let (out, code) = play(&["--from", ENDGAME, "--as", "second"], &input);
    assert_eq!(code, 0);
    assert!(out.contains("O has won on move 36"), "{out}");
    assert!(out.ends_with("Game over: You win!\n"), "{out}");
    // The board was drawn after every move: start, then moves 34 to 36.
    assert_eq!(out.matches("1 2 3 4 5 6 7\n").count(), 4, "{out}");
    assert!(out.contains("c4 plays"), "{out}");
}

#[test]
fn undo_takes_back_the_move_and_the_reply() {
    let (out, code) = play(&["--from", ENDGAME, "--as", "second"], "1 undo undo quit\n");
    assert_eq!(code, 0);
    assert!(out.contains("Taken back."), "{out}");
    assert!(out.contains("Nothing to undo."), "{out}");
    // After the undo it is O's move 34 again.
    let after = out.split("Taken back.").nth(1).unwrap();
    assert!(after.contains("O to move (move 34)"), "{out}");
}

#[test]
fn the_end_of_input_ends_the_game_quietly() {
    let (out, code) = play(&["--from", ENDGAME, "--as", "second"], "");
    assert_eq!(code, 0);
    assert!(out.ends_with("your move> \n"), "{out}");
}

#[test]
fn who_starts_is_asked_and_c4_opens_from_the_book() {
    let (out, code) = play(&[], "maybe\nn\nquit\n");
    assert_eq!(code, 0);
    assert!(
        out.contains("Please answer y (you move first) or n (c4 moves first)."),
        "{out}"
    );
    assert!(out.contains("You play O (second)."), "{out}");
    // The empty board is won by the first player with its 21st stone, move
    // 41 (witness: the published solvers, see `EMPTY_BOARD_SCORE`), playing
    // the centre.
    let win_on_move = 2 * (22 - EMPTY_BOARD_SCORE) - 1;
    assert!(
        out.contains(&format!("c4 plays 4 (c4 wins on move {win_on_move})")),
        "{out}"
    );
    let (out, _) = play(&["--as", "first"], "4 quit\n");
    assert!(out.contains("You play X (first)."), "{out}");
}

#[test]
fn an_invalid_start_position_is_an_error() {
    let out = Command::cargo_bin("c4")
        .unwrap()
        .args(["play", "--from", "4444x", "--as", "first"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("c4 play: --from 4444x: character 5 ('x') is not a column"),
        "{err}"
    );
}

#[test]
fn a_finished_start_position_ends_at_once() {
    let (out, code) = play(&["--from", "1212121", "--as", "second"], "4\n");
    assert_eq!(code, 0);
    assert!(out.contains("X has won on move 7"), "{out}");
    assert!(out.ends_with("Game over: c4 wins.\n"), "{out}");
}
