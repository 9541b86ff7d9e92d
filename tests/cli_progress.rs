//! What a long solve shows on stderr: nothing on a pipe, and with
//! `--progress` one plain line each time the interval the score is proved to
//! lie in narrows, ending on the score printed on stdout. (The live status
//! line needs a terminal; `--progress` is the same watcher printing plain
//! lines.)

use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;

/// An empty board that takes long enough to search (tenths of a second)
/// for several probes to end: 6x5 without a book.
const BOARD: [&str; 5] = ["--width", "6", "--height", "5", "--no-book"];

/// Runs `c4 args`; returns (stdout, stderr), checking that it succeeded.
fn run(args: &[&str]) -> (String, String) {
    let out = cargo_bin_cmd!("c4")
        .args(args)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Reads a `--progress` line, `[PREFIX: ]SECS s  NODES nodes  score in
/// [MIN, MAX]`: (prefix, nodes, min, max).
fn parse_line(line: &str) -> (String, u64, i32, i32) {
    let (prefix, rest) = match line.split_once(": ") {
        Some((p, r)) => (p.to_owned(), r),
        None => (String::new(), line),
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    assert_eq!(fields.len(), 8, "{line}");
    assert_eq!(
        (fields[1], fields[3], fields[4], fields[5]),
        ("s", "nodes", "score", "in")
    );
    assert!(fields[0].parse::<f64>().is_ok(), "{line}");
    let nodes = fields[2].parse().unwrap();
    let min = fields[6]
        .trim_start_matches('[')
        .trim_end_matches(',')
        .parse()
        .unwrap();
    let max = fields[7].trim_end_matches(']').parse().unwrap();
    (prefix, nodes, min, max)
}

/// Checks that `lines` narrow one after another (nodes never fewer, each
/// interval inside the last) and end on `[score, score]`.
fn check_narrowing(lines: &[&str], score: i32) {
    assert!(!lines.is_empty());
    let mut last = (0, i32::MIN, i32::MAX);
    for line in lines {
        let (_, nodes, min, max) = parse_line(line);
        assert!(min <= max, "{line}");
        assert!(
            nodes >= last.0 && min >= last.1 && max <= last.2,
            "{lines:#?}"
        );
        last = (nodes, min, max);
    }
    assert_eq!((last.1, last.2), (score, score), "{lines:#?}");
}

#[test]
fn nothing_extra_appears_on_a_pipe() {
    let (out, err) = run(&[&["solve"][..], &BOARD[..], &[""]].concat());
    assert_eq!(err, "");
    assert_eq!(out.lines().count(), 1);
    let (out, err) = run(&["analyze", "4453", "--threads", "2"]);
    assert_eq!(err, "");
    assert!(out.contains("best move"), "{out}");
}

#[test]
fn progress_lines_narrow_to_the_score_printed() {
    let args = [&["solve", "--progress"][..], &BOARD[..], &[""]].concat();
    let (out, err) = run(&args);
    let score: i32 = out.trim().parse().unwrap();
    let lines: Vec<&str> = err.lines().collect();
    check_narrowing(&lines, score);
    // The probes of a search from the empty board end one after another:
    // more than one line.
    assert!(lines.len() >= 2, "{lines:#?}");
}

#[test]
fn analyze_progress_names_each_column_and_ends_on_its_score() {
    let args = [&["analyze", "--progress", "--json"][..], &BOARD[..], &["3"]].concat();
    let (out, err) = run(&args);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    for col in 0..6 {
        let score = json["scores"][col].as_i64().unwrap() as i32;
        let prefix = format!("column {}", col + 1);
        let lines: Vec<&str> = err
            .lines()
            .filter(|l| l.split_once(": ").is_some_and(|(p, _)| p == prefix))
            .collect();
        check_narrowing(&lines, score);
    }
    assert!(err.lines().all(|l| l.starts_with("column ")), "{err}");
}
