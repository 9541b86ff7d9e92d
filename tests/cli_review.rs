//! `c4 review` end to end: every verdict recomputed from the scores `c4
//! solve` gives for the positions before and after each move (not from the
//! review's code), the JSON shape, the weak review against the strong one,
//! threads, and games that do not replay.
//!
//! The scores' witness here is `c4 solve` (itself checked against the
//! standard sets and the exhaustive minimax elsewhere); the review's own
//! check against the minimax is `tests/review_minimax.rs`.

mod common;

use std::collections::HashMap;
use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;
use common::{Naive, Rng, moves_from_string, moves_string, random_finished_game, verdict};
use serde_json::Value;

/// `c4` with the given arguments.
fn c4(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("c4");
    cmd.args(args).timeout(Duration::from_secs(300));
    cmd
}

/// Runs `c4 args` with `stdin`; returns (stdout, stderr, exit status).
fn run(args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = c4(args).write_stdin(stdin).output().expect("c4 runs");
    (
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        String::from_utf8(out.stderr).expect("UTF-8 stderr"),
        out.status.code().expect("an exit status"),
    )
}

/// The scores `c4 solve` (with `extra` arguments) gives for `positions`,
/// by moves string.
fn solve_all(positions: &[String], extra: &[&str]) -> HashMap<String, i64> {
    let mut args = vec!["solve"];
    args.extend_from_slice(extra);
    let input: String = positions.iter().map(|p| format!("{p}\n")).collect();
    let (out, err, code) = run(&args, &input);
    assert_eq!(code, 0, "c4 solve failed: {err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), positions.len(), "{out}");
    positions
        .iter()
        .zip(lines)
        .map(|(p, line)| {
            let score = line.rsplit(' ').next().unwrap().parse().unwrap();
            (p.clone(), score)
        })
        .collect()
}

/// The column characters of a board of `width` columns.
fn column_chars(width: usize) -> Vec<char> {
    (0..width)
        .map(|c| {
            std::char::from_digit(c as u32 + 1, 36)
                .map(|ch| {
                    if c >= 9 {
                        (b'a' + c as u8 - 9) as char
                    } else {
                        ch
                    }
                })
                .unwrap()
        })
        .collect()
}

/// Checks `c4 review --json` (with `extra` arguments, the board's among
/// them) of `games` on the W x H board against `c4 solve` on
/// every position before each move and every child of it: the best score
/// is the position's score, a column's score minus its child's, the played
/// score the played column's. Returns the verdicts seen.
fn check_against_solve<const W: usize, const H: usize>(
    games: &[String],
    extra: &[&str],
) -> Vec<String> {
    let (width, height) = (W, H);
    let chars = column_chars(width);
    // Every position before a move, and each of its children.
    let mut positions = Vec::new();
    for game in games {
        for n in 0..game.len() {
            let before = &game[..n];
            positions.push(before.to_owned());
            let heights: Vec<usize> = chars
                .iter()
                .map(|&ch| before.chars().filter(|&c| c == ch).count())
                .collect();
            for (col, &ch) in chars.iter().enumerate() {
                if heights[col] < height {
                    positions.push(format!("{before}{ch}"));
                }
            }
        }
    }
    positions.sort();
    positions.dedup();
    let scores = solve_all(&positions, extra);
    let mut args = vec!["review", "--json"];
    args.extend_from_slice(extra);
    let input: String = games.iter().map(|g| format!("{g}\n")).collect();
    let (out, err, code) = run(&args, &input);
    assert_eq!(code, 0, "{err}");
    let reviews: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(reviews.len(), games.len());
    let mut seen = Vec::new();
    for (i, (game, r)) in games.iter().zip(&reviews).enumerate() {
        assert_eq!(r["line"], i + 1, "{r}");
        assert_eq!(r["game"], game.as_str(), "{r}");
        assert_eq!(r["board_size"], format!("{width}x{height}"));
        assert_eq!(r["weak"], false);
        let end = Naive::<W, H>::from_moves(&moves_from_string(game));
        assert_eq!(r["finished"], end.won || end.is_full(), "{game}");
        let moves = r["moves"].as_array().unwrap();
        assert_eq!(moves.len(), game.len(), "{game}");
        for (n, (ch, m)) in game.chars().zip(moves).enumerate() {
            let before = &game[..n];
            let best = scores[before];
            let column = |c: char| chars.iter().position(|&x| x == c).unwrap() + 1;
            let child_score = |c: char| -scores[&format!("{before}{c}")];
            let played = child_score(ch);
            let best_columns: Vec<usize> = chars
                .iter()
                .filter(|&&c| scores.contains_key(&format!("{before}{c}")))
                .filter(|&&c| child_score(c) == best)
                .map(|&c| column(c))
                .collect();
            let at = format!("{game}, move {}", n + 1);
            assert_eq!(m["number"], n + 1, "{at}");
            assert_eq!(m["player"], n % 2 + 1, "{at}");
            assert_eq!(m["column"], column(ch), "{at}");
            assert_eq!(m["best_score"], best, "{at}");
            assert_eq!(m["played_score"], played, "{at}");
            assert_eq!(
                m["best_columns"],
                serde_json::to_value(&best_columns).unwrap(),
                "{at}"
            );
            assert_eq!(m["verdict"], verdict(best, played), "{at}");
            seen.push(verdict(best, played).to_owned());
        }
        // The summary, counted from the verdicts above.
        for p in 0..2 {
            let summary = &r["players"][p];
            let mine: Vec<&Value> = moves.iter().skip(p).step_by(2).collect();
            let count = |v: &str| mine.iter().filter(|m| m["verdict"] == v).count();
            assert_eq!(summary["player"], p + 1);
            assert_eq!(summary["moves"], mine.len());
            assert_eq!(summary["best"], count("best"));
            assert_eq!(summary["slower"], count("slower"));
            assert_eq!(summary["mistakes"], count("mistake"));
            assert_eq!(summary["blunders"], count("blunder"));
            let share = count("best") as f64 / mine.len() as f64;
            assert!((summary["share_best"].as_f64().unwrap() - share).abs() < 1e-12);
            let first = mine
                .iter()
                .find(|m| m["verdict"] == "mistake" || m["verdict"] == "blunder")
                .map(|m| m["number"].clone())
                .unwrap_or(Value::Null);
            assert_eq!(summary["result_changed"], first, "{game}");
        }
        let last = moves
            .iter()
            .rev()
            .find(|m| m["verdict"] == "mistake" || m["verdict"] == "blunder")
            .map(|m| m["number"].clone())
            .unwrap_or(Value::Null);
        assert_eq!(r["turning_point"], last, "{game}");
        let start = match scores[""].signum() {
            1 => "first",
            0 => "draw",
            _ => "second",
        };
        assert_eq!(r["start"], start);
    }
    seen
}

/// Seeded random games played to their end on 7x6.
fn random_games(seed: u64, n: usize) -> Vec<String> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| moves_string(&random_finished_game::<7, 6>(&mut rng)))
        .collect()
}

#[test]
fn verdicts_follow_from_the_scores_of_solve() {
    // Random games, a game of strong moves then a blunder, and a game on
    // another board.
    let mut games = random_games(7, 4);
    games.push("4444443".to_owned());
    games.push("4455443".to_owned());
    let mut seen = check_against_solve::<7, 6>(&games, &[]);
    let mut rng = Rng(11);
    let small: Vec<String> = (0..4)
        .map(|_| moves_string(&random_finished_game::<5, 4>(&mut rng)))
        .collect();
    seen.extend(check_against_solve::<5, 4>(
        &small,
        &["--width", "5", "--height", "4"],
    ));
    for v in ["best", "mistake", "blunder"] {
        assert!(seen.iter().any(|s| s == v), "no {v} among {seen:?}");
    }
}

#[test]
fn weak_agrees_with_strong_on_signs() {
    let games = random_games(3, 3).join("\n") + "\n";
    let (strong, _, code) = run(&["review", "--json"], &games);
    assert_eq!(code, 0);
    let (weak, _, code) = run(&["review", "--json", "--weak"], &games);
    assert_eq!(code, 0);
    for (s, w) in strong.lines().zip(weak.lines()) {
        let s: Value = serde_json::from_str(s).unwrap();
        let w: Value = serde_json::from_str(w).unwrap();
        assert_eq!(w["weak"], true);
        for (sm, wm) in s["moves"]
            .as_array()
            .unwrap()
            .iter()
            .zip(w["moves"].as_array().unwrap())
        {
            for key in ["best_score", "played_score"] {
                assert_eq!(
                    sm[key].as_i64().unwrap().signum(),
                    wm[key].as_i64().unwrap(),
                    "{sm} {wm}"
                );
            }
            let (best, played) = (
                wm["best_score"].as_i64().unwrap(),
                wm["played_score"].as_i64().unwrap(),
            );
            assert_eq!(wm["verdict"], verdict(best, played), "{wm}");
            let strong_verdict = sm["verdict"].as_str().unwrap();
            let expected = if strong_verdict == "slower" {
                "best"
            } else {
                strong_verdict
            };
            assert_eq!(wm["verdict"], expected, "{sm} {wm}");
        }
        assert_eq!(s["end"], w["end"]);
        assert_eq!(s["turning_point"], w["turning_point"]);
    }
}

#[test]
fn threads_give_the_same_output_in_input_order() {
    let games = random_games(5, 6).join("\n") + "\n";
    for format in [&[][..], &["--json"][..]] {
        let mut one = vec!["review", "--threads", "1"];
        one.extend_from_slice(format);
        let mut two = vec!["review", "--threads", "2"];
        two.extend_from_slice(format);
        let (a, _, ca) = run(&one, &games);
        let (b, _, cb) = run(&two, &games);
        assert_eq!((ca, cb), (0, 0));
        assert_eq!(a, b);
        assert!(!a.is_empty());
    }
}

#[test]
fn bad_games_name_their_line_and_move_and_the_batch_goes_on() {
    let input = "44\n1111111\n4x\n\n12121213\n# a comment\n45\n";
    let (out, err, code) = run(&["review", "--json"], input);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("line 2: move 7: column 1 is already full"),
        "{err}"
    );
    assert!(
        err.contains("line 3: move 2: 'x' is not a column (1-7)"),
        "{err}"
    );
    assert!(
        err.contains("line 5: move 8 (column 3): the game was already won on move 7"),
        "{err}"
    );
    let objects: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let lines: Vec<u64> = objects
        .iter()
        .map(|o| o["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [1, 2, 3, 5, 7]);
    assert_eq!(objects[0]["game"], "44");
    assert_eq!(objects[1]["move"], 7);
    assert_eq!(objects[1]["input"], "1111111");
    assert_eq!(objects[2]["move"], 2);
    assert_eq!(objects[3]["move"], 8);
    assert_eq!(objects[4]["game"], "45");
    // The same as arguments, in text.
    let (out, err, code) = run(&["review", "4", "9", "45"], "");
    assert_eq!(code, 1);
    assert!(
        err.contains("argument 2: move 1: '9' is not a column (1-7)"),
        "{err}"
    );
    assert!(out.contains("argument 1: 4 (7x6)"), "{out}");
    assert!(out.contains("argument 3: 45 (7x6)"), "{out}");
}

/// A game is a move string alone: a space, a tab or a score after the moves
/// is refused, naming the move, and the other games are reviewed; a
/// byte-order mark at the start of stdin is skipped with a warning.
#[test]
fn a_blank_or_a_score_in_a_game_is_refused() {
    let (out, err, code) = run(
        &["review", "--json"],
        "\u{feff}44\n44 53\n44\t53\n4455 3\n45\n",
    );
    assert_eq!(code, 1, "{err}");
    let err: Vec<&str> = err.lines().collect();
    assert_eq!(
        err,
        [
            "c4 review: line 1 starts with a UTF-8 byte-order mark (U+FEFF, an invisible \
             mark some editors write at the start of a file): skipped",
            "line 2: move 3: a space is not a column (1-7)",
            "line 3: move 3: a tab is not a column (1-7)",
            "line 4: move 5: a space is not a column (1-7)",
        ]
    );
    let lines: Vec<(u64, Value)> = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|o| (o["line"].as_u64().unwrap(), o["game"].clone()))
        .collect();
    assert_eq!(
        lines,
        [
            (1, Value::from("44")),
            (2, Value::Null),
            (3, Value::Null),
            (4, Value::Null),
            (5, Value::from("45"))
        ]
    );
    let (_, err, code) = run(&["review", "44 53"], "");
    assert_eq!(code, 1);
    assert_eq!(err, "argument 1: move 3: a space is not a column (1-7)\n");
}

#[test]
fn the_table_shows_each_move_and_the_summary() {
    // 7x6 first moves score -2 -1 0 1 0 -1 -2: column 1 turns X's win into a
    // loss (a blunder whose witness is the standard first-move scores).
    let (out, err, code) = run(&["review", "14"], "");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "argument 1: 14 (7x6)");
    assert!(lines[1].starts_with("move  player"), "{out}");
    let first: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(first, ["1", "X", "1", "+1", "-2", "4", "blunder"], "{out}");
    assert!(
        out.contains(
            "X played 1 move: 0 best (0%), 0 slower, 0 mistakes, 1 blunder. \
             Its first to change the result: move 1.\n"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "O played 1 move: 1 best (100%), 0 slower, 0 mistakes, 0 blunders. \
             None changed the result.\n"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "From the start, with perfect play: X wins. After the last move: O wins.\n\
             Turning point: move 1, the last move that changed the result.\n"
        ),
        "{out}"
    );
    let (help, _, _) = run(&["review", "--help"], "");
    assert!(
        help.contains("Examples:") && help.contains("c4 review"),
        "{help}"
    );
}

/// The summary in words when nothing changed the result, a player has not
/// moved, the review is weak (no `slower`) or the game is over.
#[test]
fn the_summary_reads_as_sentences() {
    // The centre keeps X's win (the standard first-move scores).
    let (out, err, code) = run(&["review", "4"], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "X played 1 move: 1 best (100%), 0 slower, 0 mistakes, 0 blunders. \
             None changed the result.\nO played no moves.\n"
        ),
        "{out}"
    );
    assert!(out.contains("No move changed the result.\n"), "{out}");
    let (out, _, _) = run(&["review", "--weak", "14"], "");
    assert!(
        out.contains("X played 1 move: 0 best (0%), 0 mistakes, 1 blunder."),
        "{out}"
    );
    assert!(!out.contains("slower"), "{out}");
    // X connects four in column 1 on move 7.
    let (out, _, _) = run(&["review", "1212121"], "");
    assert!(out.contains("The game is over: X won."), "{out}");
    for old in ["result changed", "never", "turning point: none"] {
        assert!(!out.contains(old), "{out}");
    }
}
