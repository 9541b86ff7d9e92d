//! `c4 play --level`: c4 plays below perfect strength when asked, and only
//! levels 0 to 4 exist.

use assert_cmd::Command;

/// Runs `c4 play ARGS` with `input` on stdin: (stdout, stderr, exit status).
fn play(args: &[&str], input: &str) -> (String, String, i32) {
    let out = Command::cargo_bin("c4")
        .unwrap()
        .arg("play")
        .args(["--tt-size", "16M"])
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

/// Every column in turn, many times: enough words to finish any game (a
/// full column is refused and the next word is read).
fn every_column() -> String {
    "1 2 3 4 5 6 7 ".repeat(40)
}

#[test]
fn a_game_against_the_beginner_runs_to_its_end() {
    let (out, err, code) = play(&["--as", "first", "--level", "0"], &every_column());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Game over: "), "{out}");
    let replies: Vec<&str> = out.lines().filter(|l| l.starts_with("c4 plays ")).collect();
    assert!(!replies.is_empty(), "{out}");
    // Below perfect, c4 does not claim to know the outcome.
    for reply in &replies {
        let col = reply.trim_start_matches("c4 plays ");
        assert!(
            matches!(col, "1" | "2" | "3" | "4" | "5" | "6" | "7"),
            "{reply}"
        );
    }
}

#[test]
fn the_default_level_is_perfect() {
    // The same game from an end-game position (O to move wins, score 4):
    // perfect play says how it ends, as without --level.
    let endgame = "175424313177774724541246612626552";
    let input = every_column();
    let default = play(&["--from", endgame, "--as", "first"], &input);
    let perfect = play(
        &["--from", endgame, "--as", "first", "--level", "4"],
        &input,
    );
    assert_eq!(default, perfect);
    assert!(default.0.contains("(c4 wins on move"), "{}", default.0);
}

#[test]
fn there_is_no_level_5() {
    let (_, err, code) = play(&["--level", "5"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--level"), "{err}");
}
