//! `c4 bench` and `c4 generate` end to end: exit codes, what goes to stdout
//! and stderr, and that generated sets are right.

mod common;

use std::fs;
use std::path::PathBuf;

use assert_cmd::Command;
use predicates::prelude::*;

use c4::testset::parse_line;
use c4::{BoardSize, Solver, TestCase};
use common::minimax::reference_score_of;

/// End-game lines with their exact scores, quick to solve. Witness: the
/// exhaustive minimax (`good_lines_agree_with_the_exhaustive_minimax`).
const GOOD: [&str; 4] = [
    "175424313177774724541246612626552 4",
    "51722573463466563125243443324667777 0",
    "144572345532332435271375517774421 2",
    "55667424777333344255275537623664411611 0",
];

/// A file named `name` in this test binary's scratch directory, holding
/// `lines`.
fn set_file(name: &str, lines: &[&str]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_bench");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// `c4` with a small table, so that tests start fast.
fn c4(subcommand: &str) -> Command {
    let mut cmd = Command::cargo_bin("c4").unwrap();
    cmd.args([subcommand, "--tt-size", "4M"]);
    cmd
}

/// The JSON rows `c4 bench --json` prints.
fn json_rows(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("every line is a JSON object"))
        .collect()
}

/// The witness of the scores in [`GOOD`], and of the true score 2 of the
/// line the tests below give wrong scores.
#[test]
fn good_lines_agree_with_the_exhaustive_minimax() {
    for line in GOOD {
        let (moves, score) = line.split_once(' ').unwrap();
        assert_eq!(
            reference_score_of::<7, 6>(moves).to_string(),
            score,
            "{line}"
        );
    }
    assert_eq!(
        reference_score_of::<7, 6>("144572345532332435271375517774421"),
        2
    );
}

#[test]
fn a_correct_set_passes_with_a_table_row_and_a_quiet_stderr() {
    let file = set_file("good.txt", &GOOD);
    c4("bench")
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "| set | board | positions | mismatches | mean time | mean nodes | K pos/s |",
        ))
        .stdout(
            predicate::str::is_match(r"\| good\.txt \| 7x6 \| 4 \| 0 \| [0-9.]+ (ns|µs|ms|s) \|")
                .unwrap(),
        )
        // Not a terminal: no progress bar, and nothing else to say.
        .stderr("");
}

#[test]
fn a_wrong_score_fails_and_is_reported_with_its_line() {
    let file = set_file(
        "wrong.txt",
        &[GOOD[0], GOOD[1], "144572345532332435271375517774421 5"],
    );
    c4("bench")
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "wrong.txt line 3: 144572345532332435271375517774421: expected 5, got 2",
        ))
        .stdout(predicate::str::contains("| wrong.txt | 7x6 | 3 | 1 |"));
}

#[test]
fn weak_mode_compares_signs_only() {
    // 5 has the sign of the true score 2: right when weak.
    let file = set_file(
        "weak.txt",
        &[GOOD[0], "144572345532332435271375517774421 5"],
    );
    c4("bench").arg("--weak").arg(&file).assert().success();
    let file = set_file("weak-wrong.txt", &["144572345532332435271375517774421 -3"]);
    c4("bench")
        .arg("--weak")
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "line 1: 144572345532332435271375517774421: expected -1, got 1",
        ));
}

#[test]
fn bad_lines_are_reported_counted_and_do_not_stop_the_run() {
    let file = set_file(
        "bad.txt",
        &[GOOD[0], "1754x 2", GOOD[1], "4444 1 2", GOOD[2]],
    );
    let out = c4("bench").arg("--json").arg(&file).assert().code(1);
    let out = out.get_output();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.txt line 2: invalid moves: character 5 ('x') is not a column (1-7)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("bad.txt line 4: character 8: unexpected '2' after the score"),
        "{stderr}"
    );
    let rows = json_rows(&out.stdout);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["positions"], 3);
    assert_eq!(rows[0]["invalid_lines"], 2);
    assert_eq!(rows[0]["mismatches"], 0);
}

/// A score no position of the line can have (after two stones on 7x6, from
/// -20 to 20), after a space or a tab, is an invalid line, never a
/// mismatch; a byte-order mark at the start of the file is skipped, and
/// said.
#[test]
fn impossible_scores_are_invalid_lines_and_a_byte_order_mark_is_skipped() {
    let first = format!("\u{feff}{}", GOOD[0]);
    let file = set_file("impossible.txt", &[&first, "44 53", "44\t53", GOOD[1]]);
    let out = c4("bench").arg("--json").arg(&file).assert().code(1);
    let out = out.get_output();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("impossible.txt: line 1 starts with a UTF-8 byte-order mark (U+FEFF"),
        "{stderr}"
    );
    for line in [2, 3] {
        let says = format!(
            "impossible.txt line {line}: character 4: 53 is not a score this position can have \
             (after 2 stones a score is from -20 to 20)"
        );
        assert!(stderr.contains(&says), "{stderr}");
    }
    let rows = json_rows(&out.stdout);
    assert_eq!(rows[0]["positions"], 2);
    assert_eq!(rows[0]["invalid_lines"], 2);
    assert_eq!(rows[0]["mismatches"], 0);
}

#[test]
fn json_has_one_object_per_file_with_the_figures() {
    let good = set_file("json-good.txt", &GOOD);
    let wrong = set_file(
        "json-wrong.txt",
        &[GOOD[0], "144572345532332435271375517774421 3"],
    );
    let out = c4("bench")
        .args(["--json", "--weak"])
        .arg(&good)
        .arg(&wrong)
        .assert()
        .success();
    let rows = json_rows(&out.get_output().stdout);
    assert_eq!(rows.len(), 2);
    assert!(rows[0]["file"].as_str().unwrap().ends_with("json-good.txt"));
    assert_eq!(rows[0]["mode"], "weak");
    assert_eq!(rows[0]["positions"], 4);
    assert_eq!(rows[0]["mismatches"], 0);
    assert!(rows[0]["mean_nodes"].as_f64().unwrap() > 0.0);
    assert!(rows[0]["kpos_per_s"].as_f64().unwrap() > 0.0);
    assert_eq!(rows[0]["tt_bytes"], 4 << 20);
    // Weak: 3 has the sign of 2, so no mismatch either.
    assert_eq!(rows[1]["mismatches"], 0);
}

#[test]
fn limit_takes_the_first_lines_of_each_file() {
    let file = set_file("limit.txt", &[GOOD[0], GOOD[1], "4444 99", GOOD[3]]);
    let out = c4("bench")
        .args(["--json", "--limit", "2"])
        .arg(&file)
        .assert()
        .success();
    assert_eq!(json_rows(&out.get_output().stdout)[0]["positions"], 2);
    // The third line is invalid (score out of range): with --limit 3 it counts.
    c4("bench")
        .args(["--limit", "3"])
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "limit.txt line 3: character 6: 99 is not a score this position can have",
        ));
}

#[test]
fn two_threads_find_the_same_mismatches_and_nodes() {
    let lines = [
        GOOD[0],
        "51722573463466563125243443324667777 1",
        GOOD[3],
        "144572345532332435271375517774421 3",
        GOOD[2],
    ];
    let file = set_file("threads.txt", &lines);
    let run = |threads: &str| {
        let out = c4("bench")
            .args(["--json", "--threads", threads])
            .arg(&file)
            .assert()
            .code(1);
        json_rows(&out.get_output().stdout).remove(0)
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one["mismatches"], 2);
    assert_eq!(two["mismatches"], 2);
    assert_eq!(two["threads"], 2);
    // Every position starts from a cleared table: same work on any thread.
    assert_eq!(one["total_nodes"], two["total_nodes"]);
    assert_eq!(one["mismatch_details"], two["mismatch_details"]);
}

#[test]
fn an_unreadable_file_is_an_error_but_the_others_still_run() {
    let good = set_file("readable.txt", &GOOD);
    c4("bench")
        .arg("/no/such/file.txt")
        .arg(&good)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("cannot read /no/such/file.txt"))
        .stdout(predicate::str::contains("| readable.txt | 7x6 | 4 | 0 |"));
}

#[test]
fn without_files_it_runs_the_testsets_directory_here() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_bench_default");
    let sets = dir.join("testsets");
    fs::create_dir_all(&sets).unwrap();
    fs::write(sets.join("b-set.txt"), format!("{}\n", GOOD[1])).unwrap();
    fs::write(sets.join("a-set.txt"), format!("{}\n", GOOD[0])).unwrap();
    fs::write(sets.join("README.md"), "not a set\n").unwrap();
    let out = c4("bench").current_dir(&dir).assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let a = stdout
        .find("| a-set.txt | 7x6 | 1 | 0 |")
        .expect("a-set.txt row");
    let b = stdout
        .find("| b-set.txt | 7x6 | 1 | 0 |")
        .expect("b-set.txt row");
    assert!(a < b, "sorted by name:\n{stdout}");
    assert!(!stdout.contains("README"));
}

/// Plumbing: `generate` is deterministic for a seed and writes the
/// library's scores (a check of the command, not of the scores).
#[test]
fn generate_is_deterministic_and_every_line_re_solves_to_its_score() {
    let generate = || {
        let out = c4("generate")
            .args([
                "--count",
                "5",
                "--seed",
                "1",
                "--min-moves",
                "16",
                "--max-moves",
                "30",
            ])
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let first = generate();
    assert_eq!(first, generate());
    // The board header first, then the cases.
    let mut lines = first.lines();
    assert_eq!(lines.next(), Some("# board 7x6"));
    let cases: Vec<TestCase> = lines
        .map(|l| parse_line(BoardSize::STANDARD, l).unwrap())
        .collect();
    assert_eq!(cases.len(), 5);
    let mut solver = Solver::<7, 6>::with_table_bytes(1 << 22).unwrap();
    for case in &cases {
        let moves = case.position.moves_played();
        assert!((16..=30).contains(&moves), "{case}");
        assert!(
            !case.position.is_won() && !case.position.can_win_next(),
            "{case}"
        );
        assert_eq!(solver.solve(&case.position.fixed()), case.score, "{case}");
    }
    let other = c4("generate")
        .args([
            "--count",
            "5",
            "--seed",
            "2",
            "--min-moves",
            "16",
            "--max-moves",
            "30",
        ])
        .output()
        .unwrap();
    assert_ne!(String::from_utf8(other.stdout).unwrap(), first);
}

#[test]
fn generate_writes_a_file_that_bench_passes() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("generated-medium.txt");
    c4("generate")
        .args([
            "--count",
            "6",
            "--seed",
            "3",
            "--min-moves",
            "18",
            "--max-moves",
            "28",
        ])
        .args(["--difficulty", "medium", "--threads", "2", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains("medium 6"));
    let text = fs::read_to_string(&out).unwrap();
    // The board header and the six cases.
    assert_eq!(text.lines().count(), 7);
    c4("bench").arg(&out).assert().success();
}

#[test]
fn generate_gives_up_clearly_and_rejects_bad_ranges() {
    c4("generate")
        .args(["--count", "3", "--min-moves", "30", "--max-moves", "40"])
        .args(["--difficulty", "hard", "--max-tries", "50", "--seed", "1"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains(
            "gave up after 50 candidates: found 0 of the 3",
        ));
    // Each bad range names the flag at fault in words, never in Rust's
    // range syntax.
    for (args, message) in [
        (
            &["--min-moves", "10", "--max-moves", "5"][..],
            "c4 generate: --min-moves 10 is more than --max-moves 5: give --max-moves 10 or more\n",
        ),
        (
            &["--min-moves", "20"][..],
            "c4 generate: --min-moves 20 is more than --max-moves 14 (the default): give \
             --max-moves 20 or more\n",
        ),
        (
            &["--min-moves", "50"][..],
            "c4 generate: --min-moves 50: a position on 7x6 has at most 41 moves\n",
        ),
        (
            &["--max-moves", "16", "--width", "4", "--height", "4"][..],
            "c4 generate: --max-moves 16: a position on 4x4 has at most 15 moves\n",
        ),
        (
            &["--min-moves", "0"][..],
            "c4 generate: --min-moves 0: a position has at least 1 move\n",
        ),
    ] {
        c4("generate")
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(message);
    }
}

#[test]
fn compare_book_prints_a_row_with_and_one_without_the_book() {
    let file = set_file("compare.txt", &GOOD);
    c4("bench")
        .args(["--compare-book"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "| compare.txt (book) | 7x6 | 4 | 0 |",
        ))
        .stdout(predicate::str::contains(
            "| compare.txt (no book) | 7x6 | 4 | 0 |",
        ));
    let out = c4("bench")
        .args(["--json", "--no-book"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(json_rows(&out.stdout)[0]["book"], serde_json::Value::Null);
    let out = c4("bench").arg("--json").arg(&file).output().unwrap();
    assert_eq!(json_rows(&out.stdout)[0]["book"], "built-in");
    c4("bench")
        .args(["--compare-book", "--no-book"])
        .arg(&file)
        .assert()
        .code(2);
}
