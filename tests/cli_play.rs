//! `c4 play` end to end: scripted games from a pipe, hints, undo, bad input
//! explained and asked again, the end of input, the opening from the book,
//! the game's moves printed at its end, undo and rematch after it, the
//! board drawn once a turn with its last move marked, and colour only when
//! asked for.
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

/// Runs `c4 play ARGS` with `input` on stdin and `env` set, in an
/// environment without colour settings of its own: (stdout, exit status).
fn play_with_env(args: &[&str], input: &str, env: &[(&str, &str)]) -> (String, i32) {
    let out = Command::cargo_bin("c4")
        .unwrap()
        .arg("play")
        .args(["--tt-size", "16M"])
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE")
        .envs(env.iter().copied())
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

/// Runs `c4 play ARGS` with `input` on stdin: (stdout, exit status).
fn play(args: &[&str], input: &str) -> (String, i32) {
    play_with_env(args, input, &[])
}

/// What `c4 play` prints of a game whose moves from the empty 7x6 board are
/// `moves`.
fn moves_text(moves: &str) -> String {
    format!(
        "The game's moves: {moves}\n  review them:  c4 review {moves}\n  \
         on the page:  http://127.0.0.1:8080/?review#{moves}  (while c4 serve runs)\n"
    )
}

/// The moves that finish the game from `start` with perfect play on both
/// sides (the library's best moves, as c4 plays them), as one string.
fn perfect_continuation(start: &str) -> String {
    let mut p = Position::<7, 6>::parse(start).unwrap();
    let mut solver = Solver::<7, 6>::with_table_bytes(1 << 24).unwrap();
    let mut line = String::new();
    while !p.is_game_over() {
        let (col, _) = solver.best_move(&p).unwrap();
        line.push_str(&(col + 1).to_string());
        p.play_col(col);
    }
    line
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
    // `quit` prints the game's moves, then says goodbye.
    assert!(
        out.ends_with(&format!("your move> quit\n{}Bye.\n", moves_text(ENDGAME))),
        "{out}"
    );
    // Each bad word was followed by a new prompt, and the board was drawn
    // once: nothing was played.
    assert_eq!(out.matches("your move> ").count(), 5, "{out}");
    assert_eq!(out.matches("1 2 3 4 5 6 7\n").count(), 1, "{out}");
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
    let line = perfect_continuation(ENDGAME);
    assert_eq!(line.len(), 3, "{line}");
    let input: String = line.chars().step_by(2).map(|c| format!("{c}\n")).collect();
    let (out, code) = play(&["--from", ENDGAME, "--as", "second"], &input);
    assert_eq!(code, 0);
    assert!(out.contains("O has won on move 36"), "{out}");
    // The game over, its moves, and what may be done next.
    let game = format!("{ENDGAME}{line}");
    assert!(
        out.contains(&format!(
            "Game over: You win!\n\n{}\nType undo (take back your last move), new (a rematch) \
             or quit.\nafter the game> \n",
            moves_text(&game)
        )),
        "{out}"
    );
    assert!(out.ends_with("after the game> \n"), "{out}");
    // The board was drawn once a turn: at the start (O to move), after c4's
    // reply, and at the end; c4's reply before the second drawing.
    assert_eq!(out.matches("1 2 3 4 5 6 7\n").count(), 3, "{out}");
    let reply = format!("c4 plays {} (c4 loses on move 36)\n", &line[1..2]);
    let boards: Vec<&str> = out.split("1 2 3 4 5 6 7\n").collect();
    assert!(boards[1].contains(&reply), "{out}");
    // The winning stone, O's in column line[2], is the one marked.
    let last_board = boards[2];
    assert_eq!(last_board.matches('[').count(), 1, "{out}");
    assert!(last_board.contains("[O]"), "{out}");
}

#[test]
fn the_moves_printed_are_the_ones_c4_review_takes() {
    let (out, _) = play(&["--from", ENDGAME, "--as", "second"], "quit\n");
    let command = out
        .lines()
        .find_map(|l| l.strip_prefix("  review them:  "))
        .unwrap_or_else(|| panic!("no review line: {out}"));
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(&words[..2], ["c4", "review"], "{command}");
    let review = Command::cargo_bin("c4")
        .unwrap()
        .args(&words[1..])
        .args(["--json", "--tt-size", "16M"])
        .output()
        .unwrap();
    assert!(review.status.success());
    let v: serde_json::Value = serde_json::from_slice(&review.stdout).unwrap();
    assert_eq!(v["game"], ENDGAME);
    // Another board names its size, as `c4 review` and the page take it.
    let (out, _) = play(
        &["--width", "5", "--height", "4", "--as", "first"],
        "3 quit\n",
    );
    let moves = out
        .lines()
        .find_map(|l| l.strip_prefix("The game's moves: "))
        .unwrap_or_else(|| panic!("no moves: {out}"));
    assert_eq!(moves.len(), 2, "{out}");
    assert!(moves.starts_with('3'), "{out}");
    assert!(
        out.contains(&format!(
            "  review them:  c4 review --width 5 --height 4 {moves}\n"
        )),
        "{out}"
    );
    assert!(out.contains(&format!("/?review#5x4:{moves} ")), "{out}");
    // Nothing played: nothing to review.
    let (out, _) = play(&["--as", "first"], "quit\n");
    assert!(
        out.ends_with("your move> quit\nNo moves were played.\nBye.\n"),
        "{out}"
    );
}

#[test]
fn after_a_lost_game_the_last_move_can_be_taken_back() {
    // The human plays X from the end game that O wins, in the first column
    // with room; c4 wins. Undo goes back to before the human's last move.
    let mut p = Position::<7, 6>::parse(ENDGAME).unwrap();
    let mut solver = Solver::<7, 6>::with_table_bytes(1 << 24).unwrap();
    let mut input = String::new();
    let mut last_human_move = 0;
    while !p.is_game_over() {
        let humans_turn = p.moves_played().is_multiple_of(2);
        let col = if humans_turn {
            last_human_move = p.moves_played() + 1;
            (0..7).find(|&c| p.can_play(c)).unwrap()
        } else {
            solver.best_move(&p).unwrap().0
        };
        if humans_turn {
            input.push_str(&format!("{}\n", col + 1));
        }
        p.play_col(col);
    }
    assert!(last_human_move > 0);
    input.push_str("undo\nquit\nquit\n");
    let (out, code) = play(&["--from", ENDGAME, "--as", "first"], &input);
    assert_eq!(code, 0);
    let (game, rest) = out.split_once("Game over: c4 wins.\n").expect(&out);
    assert!(game.contains("O has won on move"), "{out}");
    let after = rest
        .split_once("after the game> undo\nTaken back.\n")
        .expect(&out)
        .1;
    // The board again, at the human's last move, then the game goes on.
    assert!(
        after.contains(&format!("X to move (move {last_human_move})\n")),
        "{out}"
    );
    assert!(after.contains("your move> quit\n"), "{out}");
    assert!(out.ends_with("Bye.\n"), "{out}");
}

#[test]
fn a_rematch_swaps_the_sides() {
    let line = perfect_continuation(ENDGAME);
    let mut input: String = line.chars().step_by(2).map(|c| format!("{c}\n")).collect();
    input.push_str("bogus\nnew\nquit\n");
    let (out, code) = play(&["--from", ENDGAME, "--as", "second"], &input);
    assert_eq!(code, 0);
    let (_, rest) = out.split_once("Game over: You win!").expect(&out);
    assert!(
        rest.contains("after the game> bogus\n'bogus': type undo (take back your last move), new (a rematch) or quit\n"),
        "{out}"
    );
    let (_, rematch) = rest.split_once("after the game> new\n").expect(&out);
    // The same start, the human now X: c4 (O) moves first and wins.
    assert!(
        rematch.contains("Rematch: you play X (first); c4 plays at level 4 (perfect)."),
        "{out}"
    );
    let reply = format!("c4 plays {} (c4 wins on move 36)", &line[..1]);
    assert!(rematch.contains(&reply), "{out}");
    assert!(rematch.contains("X to move (move 35)"), "{out}");
    assert!(out.ends_with("Bye.\n"), "{out}");
}

#[test]
fn an_empty_line_gives_the_prompt_again() {
    let (out, code) = play(&["--from", ENDGAME, "--as", "second"], "\n  \n\nquit\n");
    assert_eq!(code, 0);
    assert!(
        out.contains("your move> \nyour move> \nyour move> \nyour move> quit\n"),
        "{out}"
    );
    // And the board is not drawn again.
    assert_eq!(out.matches("1 2 3 4 5 6 7\n").count(), 1, "{out}");
}

#[test]
fn the_level_is_named() {
    let (out, _) = play(&["--as", "first"], "quit\n");
    assert!(
        out.starts_with(
            "You play X (first); c4 plays at level 4 (perfect). Type a column (1-7), hint, \
             undo or quit.\n"
        ),
        "{out}"
    );
    let (out, _) = play(&["--as", "first", "--level", "0"], "quit\n");
    assert!(out.contains("c4 plays at level 0 (beginner)."), "{out}");
    let (out, _) = play(&["--as", "first", "--level", "2"], "quit\n");
    assert!(out.contains("c4 plays at level 2 (intermediate)."), "{out}");
}

#[test]
fn colour_only_on_a_terminal_or_when_forced_and_never_under_no_color() {
    let args = ["--from", ENDGAME, "--as", "second"];
    // Through a pipe: plain text, the last stone in brackets.
    let (plain, _) = play(&args, "quit\n");
    assert!(!plain.contains('\x1b'), "{plain:?}");
    assert_eq!(plain.matches('[').count(), 1, "{plain}");
    // CLICOLOR_FORCE asks for colour through the pipe: X red, O yellow.
    let (coloured, _) = play_with_env(&args, "quit\n", &[("CLICOLOR_FORCE", "1")]);
    assert!(coloured.contains("\x1b[31mX"), "{coloured:?}");
    assert!(coloured.contains("\x1b[33mO"), "{coloured:?}");
    // Without the escapes, the same text.
    let stripped = coloured
        .replace("\x1b[1m", "")
        .replace("\x1b[31m", "")
        .replace("\x1b[33m", "")
        .replace("\x1b[0m", "");
    assert_eq!(stripped, plain);
    // NO_COLOR wins over CLICOLOR_FORCE.
    let (none, _) = play_with_env(
        &args,
        "quit\n",
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
    );
    assert_eq!(none, plain);
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
    // Drawn at the start, after c4's reply and after the undo: once a turn.
    assert_eq!(out.matches("1 2 3 4 5 6 7\n").count(), 3, "{out}");
}

#[test]
fn the_end_of_input_ends_the_game_with_its_moves() {
    let (out, code) = play(&["--from", ENDGAME, "--as", "second"], "");
    assert_eq!(code, 0);
    assert!(
        out.ends_with(&format!("your move> \n{}", moves_text(ENDGAME))),
        "{out}"
    );
}

#[test]
fn who_starts_is_asked_and_c4_opens_from_the_book() {
    let (out, code) = play(&[], "maybe\nn\nquit\n");
    assert_eq!(code, 0);
    assert!(
        out.contains("Please answer y (you move first) or n (c4 moves first)."),
        "{out}"
    );
    assert!(
        out.contains("You play O (second); c4 plays at level 4"),
        "{out}"
    );
    // The empty board is won by the first player with its 21st stone, move
    // 41 (witness: the published solvers, see `EMPTY_BOARD_SCORE`), playing
    // the centre.
    let win_on_move = 2 * (22 - EMPTY_BOARD_SCORE) - 1;
    assert!(
        out.contains(&format!("c4 plays 4 (c4 wins on move {win_on_move})")),
        "{out}"
    );
    let (out, _) = play(&["--as", "first"], "4 quit\n");
    assert!(
        out.contains("You play X (first); c4 plays at level 4"),
        "{out}"
    );
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
    let (out, code) = play(&["--from", "1212121", "--as", "second"], "4\nundo\n");
    assert_eq!(code, 0);
    assert!(out.contains("X has won on move 7"), "{out}");
    assert!(
        out.contains(&format!("Game over: c4 wins.\n\n{}", moves_text("1212121"))),
        "{out}"
    );
    // Only undo, new or quit after a game; and the moves of --from are not
    // the player's to take back.
    assert!(out.contains("after the game> 4\n'4': type undo"), "{out}");
    assert!(
        out.ends_with(
            "after the game> undo\nNothing to undo: you have not moved.\nafter the game> \n"
        ),
        "{out}"
    );
}
