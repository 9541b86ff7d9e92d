//! `--threads` in the commands that gained it: `c4 analyze` and `c4 play`
//! answer exactly as on one thread (the scores are exact whatever the
//! threads; tests/cli_analyze.rs checks the one-thread answers against the
//! library), and the witness for each position is a standard-set line.

mod common;

use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;

/// `c4 args` with `stdin`: its stdout, after checking it succeeded quietly.
fn output(args: &[&str], stdin: &str) -> String {
    let out = cargo_bin_cmd!("c4")
        .args(args)
        .timeout(Duration::from_secs(300))
        .write_stdin(stdin)
        .output()
        .expect("c4 runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    assert_eq!(stderr, "", "{args:?}");
    String::from_utf8(out.stdout).expect("UTF-8 stdout")
}

/// The first `n` lines of a standard set (or of this repository's set of
/// the same stage), as (moves, score).
fn standard(name: &str, n: usize) -> Vec<(String, i32)> {
    common::sets::standard_or_own(name, Some(n))
        .into_iter()
        .map(|line| (line.moves, line.score))
        .collect()
}

#[test]
fn analyze_gives_the_same_answer_on_any_number_of_threads() {
    let mut positions: Vec<(String, Option<i32>)> = standard("Test_L2_R1", 4)
        .into_iter()
        .chain(standard("Test_L1_R2", 2))
        .map(|(moves, score)| (moves, Some(score)))
        .collect();
    // A full column, and a finished game.
    positions.push(("111111232323".to_owned(), None));
    positions.push(("1212121".to_owned(), None));
    for (moves, score) in &positions {
        for extra in [&[][..], &["--json"], &["--weak"]] {
            let mut args = vec!["analyze", moves.as_str()];
            args.extend(extra);
            let one = output(&args, "");
            for threads in ["2", "3", "9"] {
                let mut threaded = args.clone();
                threaded.extend(["--threads", threads]);
                assert_eq!(output(&threaded, ""), one, "{threaded:?}");
            }
            if let (["--json"], Some(score)) = (extra, score) {
                let v: serde_json::Value = serde_json::from_str(&one).unwrap();
                assert_eq!(v["score"], *score, "{moves}: the set's score");
            }
        }
    }
}

#[test]
fn play_gives_the_same_game_on_two_threads() {
    // c4 plays first from a Begin-Medium position; the human's moves are
    // whatever is legal, then a hint.
    let (moves, _) = &standard("Test_L1_R2", 1)[0];
    let input = "1 2 3 4 5 6 7 hint quit\n";
    let args = ["play", "--from", moves.as_str(), "--as", "second"];
    let one = output(&args, input);
    let mut threaded = args.to_vec();
    threaded.extend(["--threads", "2"]);
    assert_eq!(output(&threaded, input), one);
    assert!(one.contains("c4 plays"), "{one}");
}
