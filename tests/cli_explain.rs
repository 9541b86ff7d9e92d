//! `c4 explain` end to end: the solver's result, a strategy in words and
//! drawn, its JSON, the principal variation when none is found, other
//! boards, and a batch with a bad line.
//!
//! The strategies shown are the library's (`c4::strategy`, checked by
//! `tests/strategy.rs` and `tests/strategy_solver.rs`); here the command
//! must show what the library finds, and agree with the solver.

use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;
use c4::{BoardSize, Game, strategy};
use predicates::prelude::*;

fn c4(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("c4");
    cmd.args(args).timeout(Duration::from_secs(120));
    cmd
}

fn stdout_of(args: &[&str]) -> String {
    let out = c4(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A 7x6 position X is to move in and loses: O wins on move 42 (score -1,
/// witness: End-Easy line 10), and the rules find O's winning strategy
/// (the library's answer, asserted below).
const WITH_STRATEGY: &str = "6763525635134453444361412671365712";

#[test]
fn a_strategy_is_shown_in_words_and_drawn() {
    let game = Game::parse(BoardSize::STANDARD, WITH_STRATEGY).unwrap();
    let found = strategy::find(&game).expect("a strategy for O");
    assert!(found.wins);
    let out = stdout_of(&["explain", WITH_STRATEGY]);
    assert!(out.contains("score -1: X loses: O wins"), "{out}");
    assert!(out.contains("O wins by these rules:"), "{out}");
    for line in strategy::describe(&found) {
        assert!(out.contains(&line), "{line} missing from {out}");
    }
    assert!(out.contains("aftereven"), "{out}");
    assert!(out.contains("a b c d e f g"), "{out}");
    assert!(!out.contains("no strategy found"), "{out}");
}

#[test]
fn json_lists_the_rule_applications_and_their_cells() {
    let out = stdout_of(&["explain", "--json", WITH_STRATEGY]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["moves"], WITH_STRATEGY);
    assert_eq!(v["score"], -1);
    let strategies = v["strategies"].as_array().unwrap();
    assert_eq!(strategies.len(), 1, "{v}");
    let s = &strategies[0];
    assert_eq!(s["player"], "O");
    assert_eq!(s["after_move"], serde_json::Value::Null);
    assert_eq!(s["wins"], true);
    let apps = s["applications"].as_array().unwrap();
    assert!(
        apps.iter()
            .any(|a| !a["refutes"].as_array().unwrap().is_empty())
    );
    for a in apps {
        for cell in a["cells"].as_array().unwrap() {
            let name = cell.as_str().unwrap();
            assert!(
                name.len() >= 2 && name.as_bytes()[0].is_ascii_lowercase(),
                "{name}"
            );
        }
    }
    assert_eq!(v["pv"], serde_json::Value::Null);
}

#[test]
fn without_a_strategy_the_principal_variation_and_threats_are_shown() {
    // The empty 7x6 board: the first player wins, and the rules find no
    // strategy for it (they never do for the side with an odd number of
    // empty cells to answer in).
    let game = Game::parse(BoardSize::STANDARD, "").unwrap();
    assert!(strategy::find_after_move(&game).is_none());
    let out = stdout_of(&["explain", ""]);
    assert!(out.contains("X wins"), "{out}");
    assert!(out.contains("no strategy found by the rules"), "{out}");
    assert!(out.contains("principal variation: 4"), "{out}");
    assert!(out.contains("threats: none"), "{out}");
}

#[test]
fn other_boards_are_explained() {
    let board = BoardSize::new(6, 4).unwrap();
    let found = strategy::find(&Game::parse(board, "").unwrap());
    let out = stdout_of(&["explain", "--width", "6", "--height", "4", ""]);
    assert!(out.contains("(6x4)"), "{out}");
    assert_eq!(
        out.contains("O at least draws by these rules"),
        found.is_some(),
        "{out}"
    );
}

#[test]
fn a_bad_line_is_named_and_the_batch_goes_on() {
    c4(&["explain", "--json"])
        .write_stdin("44\n4x4\n# a comment\n445\n")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("line 2").and(predicate::str::contains("'4x4'")))
        .stdout(
            predicate::str::contains("\"moves\":\"44\"")
                .and(predicate::str::contains("\"moves\":\"445\""))
                .and(predicate::function(|s: &str| s.lines().count() == 2)),
        );
}

#[test]
fn review_marks_where_a_strategy_first_appears() {
    // On 4x4 the rules find O's strategy on the empty board; X, with an odd
    // number of empty cells whenever O is to move, never has one.
    let board = BoardSize::new(4, 4).unwrap();
    assert!(strategy::find(&Game::parse(board, "").unwrap()).is_some());
    let out = stdout_of(&["review", "--width", "4", "--height", "4", "1234"]);
    assert!(
        out.contains(
            "Allis's rules (c4 explain) first find a strategy for X: in no position; for O: from the start."
        ),
        "{out}"
    );
}
