//! `c4 solve` end to end: formats, stdin and arguments, bad lines, exit
//! statuses, threads, closed pipes and streaming.
//!
//! Positions come from the repository's own sets in `testsets/`, whose
//! scores are the solver's: comparing the command's output with them checks
//! the plumbing (input, order, formats), not that a score is right. The
//! scores' witnesses are elsewhere: the standard sets (`tests/testsets.rs`),
//! the exhaustive minimax (`tests/solver_minimax.rs`, and here
//! `solve_agrees_with_the_exhaustive_minimax`) and the independent checks
//! of `testsets/` (`tests/generated_sets.rs`). Every score written out here
//! names its witness.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use assert_cmd::cargo::{cargo_bin, cargo_bin_cmd};
use c4::{Position, Solver};
use common::minimax::reference_score_of;
use common::sets::{EMPTY_BOARD_SCORE, repo_set, repo_set_text};
use predicates::prelude::*;

/// One line of a set.
#[derive(Debug, Clone)]
struct Case {
    /// The moves.
    moves: String,
    /// The exact score the file gives.
    score: i32,
    /// The line as written in the file.
    line: String,
}

/// The first `n` lines of the repository's set `name` (e.g. `middle-easy`).
fn testset(name: &str, n: usize) -> Vec<Case> {
    repo_set(name, Some(n))
        .into_iter()
        .map(|t| Case {
            line: t.text(),
            moves: t.moves,
            score: t.score,
        })
        .collect()
}

/// `c4` with the given arguments.
fn c4(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("c4");
    cmd.args(args).timeout(Duration::from_secs(120));
    cmd
}

/// Runs `c4 args` with `stdin`; returns (stdout, stderr, exit status).
fn run(args: &[&str], stdin: impl Into<Vec<u8>>) -> (String, String, i32) {
    let out = c4(args).write_stdin(stdin).output().expect("c4 runs");
    (
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        String::from_utf8(out.stderr).expect("UTF-8 stderr"),
        out.status.code().expect("an exit status"),
    )
}

/// Joins lines, each with its newline.
fn lines_of<S: AsRef<str>>(lines: &[S]) -> String {
    lines.iter().map(|l| format!("{}\n", l.as_ref())).collect()
}

/// A mix of quick positions: middle and end game.
fn quick_cases(n: usize) -> Vec<Case> {
    let mut cases = testset("middle-easy", n / 2);
    cases.extend(testset("end-easy", n - n / 2));
    cases
}

/// The exact score of `moves` by the library.
fn library_score(moves: &str) -> i32 {
    let pos: Position = Position::parse(moves).unwrap();
    Solver::<7, 6>::with_table_bytes(16 << 20)
        .unwrap()
        .solve(&pos)
}

#[test]
fn positions_as_arguments_in_order() {
    let cases = testset("middle-easy", 3);
    let mut args = vec!["solve"];
    args.extend(cases.iter().map(|c| c.moves.as_str()));
    let expected: Vec<&str> = cases.iter().map(|c| c.line.as_str()).collect();
    c4(&args)
        .assert()
        .success()
        .stdout(lines_of(&expected))
        .stderr("");
}

#[test]
fn stdin_test_set_lines_come_back_unchanged() {
    // A test set fed as it is (`moves score` lines): the score is ignored on
    // input and recomputed, so the output is the file itself.
    let cases = quick_cases(200);
    let input: Vec<&str> = cases.iter().map(|c| c.line.as_str()).collect();
    let input = lines_of(&input);
    for args in [&["solve"][..], &["solve", "-"][..]] {
        let (out, err, code) = run(args, input.clone());
        assert_eq!(out, input, "{args:?}");
        assert_eq!(err, "", "no hint when stdin is not a terminal");
        assert_eq!(code, 0);
    }
    // A whole file, its `# board 7x6` line included, comes back as it is.
    let file = repo_set_text("end-easy");
    let (out, err, code) = run(&["solve"], file.clone());
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out == file,
        "c4 solve < testsets/end-easy.txt differs from the file"
    );
}

#[test]
fn moves_only_lines_get_their_score() {
    let cases = testset("middle-medium", 5);
    let input: String = cases.iter().map(|c| format!("  {}\r\n", c.moves)).collect();
    let expected: Vec<String> = cases
        .iter()
        .map(|c| format!("{} {}", c.moves, c.score))
        .collect();
    let (out, _, code) = run(&["solve"], input);
    assert_eq!(out, lines_of(&expected));
    assert_eq!(code, 0);
}

/// Plumbing: positions that are in no set (a win at once, a finished game
/// and two middle games) get the library's score from the command line.
/// This is no evidence that a score is right; the two short ones are
/// checked against the exhaustive minimax, the witness.
#[test]
fn own_positions_match_the_library() {
    let moves = ["121212", "1212121", "44444433", "1234567123456"];
    let expected: Vec<String> = moves
        .iter()
        .map(|m| format!("{m} {}", library_score(m)))
        .collect();
    let mut args = vec!["solve"];
    args.extend(moves);
    c4(&args).assert().success().stdout(lines_of(&expected));
    // Witness: the exhaustive minimax (X wins with its 4th stone: 22 - 4).
    assert_eq!(reference_score_of::<7, 6>("121212"), 18);
    assert_eq!(library_score("121212"), 18);
    assert_eq!(reference_score_of::<7, 6>("1212121"), -18);
    assert_eq!(library_score("1212121"), -18);
}

/// End-game lines of `testsets/end-easy.txt` with at most 10 empty cells:
/// `c4 solve` (the binary, with its book and table) gives the exhaustive
/// minimax's score, an independent witness.
#[test]
fn solve_agrees_with_the_exhaustive_minimax() {
    let cases: Vec<Case> = repo_set("end-easy", None)
        .into_iter()
        .filter(|t| t.moves.len() >= 32)
        .take(40)
        .map(|t| Case {
            line: t.text(),
            moves: t.moves,
            score: t.score,
        })
        .collect();
    assert_eq!(cases.len(), 40);
    let input: Vec<&str> = cases.iter().map(|c| c.moves.as_str()).collect();
    let (out, _, code) = run(&["solve"], lines_of(&input));
    assert_eq!(code, 0);
    let expected: Vec<String> = cases
        .iter()
        .map(|c| format!("{} {}", c.moves, reference_score_of::<7, 6>(&c.moves)))
        .collect();
    assert_eq!(out, lines_of(&expected));
}

/// Spawns `c4 args` with piped stdin, stdout and stderr.
fn spawn(args: &[&str]) -> Child {
    Command::new(cargo_bin!("c4"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("c4 starts")
}

/// Waits up to `limit` for `child` to exit.
fn wait_with_limit(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        thread::sleep(Duration::from_millis(20));
    }
    None
}

#[test]
fn empty_position_is_accepted() {
    // Without a book the empty board takes far too long to solve for a
    // test, so this checks that '' and an empty line are taken as a position
    // (an invalid input would be reported and c4 would exit at once) and are
    // being solved.
    let empty_arg = spawn(&["solve", "--no-book", ""]);
    let mut empty_line = spawn(&["solve", "--no-book"]);
    empty_line.stdin.take().unwrap().write_all(b"\n").unwrap();
    for mut child in [empty_arg, empty_line] {
        let status = wait_with_limit(&mut child, Duration::from_millis(1500));
        assert!(status.is_none(), "c4 stopped: {status:?}");
        child.kill().unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stderr), "");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    }
    // With the built-in book it is answered at once: the first player wins
    // with its last stone (witness: the published solvers, see
    // `EMPTY_BOARD_SCORE`).
    let expected = format!(" {EMPTY_BOARD_SCORE}\n");
    let (out, err, code) = run(&["solve", ""], "");
    assert_eq!(
        (code, err.as_str(), out.as_str()),
        (0, "", expected.as_str())
    );
    let mut with_book = spawn(&["solve"]);
    with_book.stdin.take().unwrap().write_all(b"\n").unwrap();
    let status = wait_with_limit(&mut with_book, Duration::from_millis(5000));
    assert!(status.is_some_and(|s| s.success()));
    let out = with_book.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
}

#[test]
fn bad_lines_are_reported_and_the_batch_goes_on() {
    let good = testset("middle-easy", 2);
    let mut input = Vec::new();
    input.extend_from_slice(format!("{}\n", good[0].moves).as_bytes());
    input.extend_from_slice(b"1x3\n"); // line 2: invalid character
    input.extend_from_slice(b"1111111\n"); // line 3: full column
    input.extend_from_slice(b"12121212\n"); // line 4: a move after a win
    input.extend_from_slice(b"4\xff5\n"); // line 5: not UTF-8
    input.extend_from_slice(b"44 x\n"); // line 6: not a score after the moves
    input.extend_from_slice(format!("{}\n", good[1].line).as_bytes());
    let (out, err, code) = run(&["solve"], input);
    assert_eq!(code, 1, "stderr: {err}");
    let expected = [
        good[0].line.as_str(),
        "1x3 invalid",
        "1111111 invalid",
        "12121212 invalid",
        "4\u{fffd}5 invalid",
        "44 x invalid",
        good[1].line.as_str(),
    ];
    assert_eq!(out, lines_of(&expected));
    let err: Vec<&str> = err.lines().collect();
    assert_eq!(err.len(), 5, "{err:?}");
    assert_eq!(err[0], "line 2: character 2 ('x') is not a column (1-7)");
    assert!(err[1].starts_with("line 3: character 7:"), "{}", err[1]);
    assert!(err[1].contains("column 1 is already full"), "{}", err[1]);
    assert!(err[2].starts_with("line 4: character 8:"), "{}", err[2]);
    assert!(err[2].contains("already won"), "{}", err[2]);
    assert!(err[3].starts_with("line 5: character 2:"), "{}", err[3]);
    assert!(err[3].contains("UTF-8"), "{}", err[3]);
    assert!(err[4].starts_with("line 6: character 4:"), "{}", err[4]);
}

#[test]
fn bad_arguments_are_named_by_number() {
    let good = &testset("end-easy", 1)[0];
    c4(&["solve", &good.moves, "44a"])
        .assert()
        .code(1)
        .stdout(format!("{}\n44a invalid\n", good.line))
        .stderr("argument 2: character 3 ('a') is not a column (1-7)\n");
}

/// No silent wrong answer: an argument is a move string alone, so a space
/// or a tab in it is refused, naming the character; a line's second field
/// is a score only if the position can have it (after two stones on 7x6,
/// from -20 to 20: the score range of `c4::rules::score_range`), and the
/// batch goes on.
#[test]
fn a_blank_in_an_argument_or_an_impossible_score_is_refused() {
    for (arg, named) in [
        ("44 53", "a space"),
        ("44\t53", "a tab"),
        ("44 5", "a space"),
    ] {
        c4(&["solve", arg])
            .assert()
            .code(1)
            .stdout(format!("{arg} invalid\n"))
            .stderr(format!(
                "argument 1: character 3 ({named}) is not a column (1-7)\n"
            ));
    }
    // What matters here is which lines are refused: a line that is read
    // answers as the moves alone do.
    let (alone, _, code) = run(&["solve", "44"], "");
    assert_eq!(code, 0);
    let (out, err, code) = run(
        &["solve"],
        "44 53\n44\t53\n44 20\n44\t-20\n44 -21\n4 4 5 3\n44\n",
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        out,
        format!(
            "44 53 invalid\n44\t53 invalid\n{alone}{alone}44 -21 invalid\n4 4 5 3 invalid\n{alone}"
        )
    );
    let err: Vec<&str> = err.lines().collect();
    let impossible = "53 is not a score this position can have \
                      (after 2 stones a score is from -20 to 20)";
    assert_eq!(err[0], format!("line 1: character 4: {impossible}"));
    assert_eq!(err[1], format!("line 2: character 4: {impossible}"));
    assert!(
        err[2].starts_with("line 5: character 4: -21 is not a score"),
        "{}",
        err[2]
    );
    assert!(err[3].starts_with("line 6: character 5: unexpected '5 3' after the score"));
    assert_eq!(err.len(), 4, "{err:?}");
    // Under --weak a sign reads back too; a finished game has one score.
    let (out, err, code) = run(&["solve", "--weak"], "1212121 -1\n1212121 -18\n1212121 1\n");
    assert_eq!(code, 1);
    assert_eq!(out, "1212121 -1\n1212121 -1\n1212121 1 invalid\n");
    assert!(
        err.starts_with("line 3: character 9: 1 is not a score"),
        "{err}"
    );
    // With --json the field is named by its character.
    let (out, _, code) = run(&["solve", "--json"], "44\t53\n");
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["line"].as_u64(), v["character"].as_u64()),
        (Some(1), Some(4))
    );
}

/// A UTF-8 byte-order mark at the start of stdin is skipped, and a warning
/// says what it was; anywhere else it is named.
#[test]
fn a_leading_byte_order_mark_is_skipped_and_said() {
    let (alone, _, _) = run(&["solve", "44"], "");
    let (out, err, code) = run(&["solve"], &b"\xef\xbb\xbf44\n\xef\xbb\xbf44\n"[..]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, format!("{alone}\u{feff}44 invalid\n"));
    let err: Vec<&str> = err.lines().collect();
    assert_eq!(
        err,
        [
            "c4 solve: line 1 starts with a UTF-8 byte-order mark (U+FEFF, an invisible \
             mark some editors write at the start of a file): skipped",
            "line 2: character 1 (U+FEFF, a byte-order mark) is not a column (1-7)",
        ]
    );
}

#[test]
fn json_lines_parse() {
    let cases = testset("middle-easy", 4);
    let mut input: Vec<&str> = cases.iter().map(|c| c.moves.as_str()).collect();
    input.insert(2, "123 4 5");
    let (out, err, code) = run(&["solve", "--json", "--stats", "--pv"], lines_of(&input));
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1);
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(objects.len(), 5);
    let bad = &objects[2];
    assert_eq!(bad["line"], 3);
    assert_eq!(bad["input"], "123 4 5");
    assert_eq!(bad["character"], 7);
    assert!(bad["error"].as_str().unwrap().contains("unexpected"));
    let good: Vec<&serde_json::Value> = objects
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != 2)
        .map(|(_, v)| v)
        .collect();
    for (v, case) in good.iter().zip(&cases) {
        assert_eq!(v["moves"], case.moves.as_str());
        assert_eq!(v["score"], case.score);
        assert_eq!(v["weak"], false);
        assert!(v["nodes"].is_u64() && v["micros"].is_u64(), "{v}");
        let pv = v["pv"].as_str().unwrap();
        let best = v["best_move"].as_u64().unwrap();
        assert_eq!(pv[..1], best.to_string());
    }
    assert_eq!(good[0]["line"], 1);
    assert_eq!(good[3]["line"], 5);
    // Without --stats and --pv those fields are absent.
    let (out, _, _) = run(&["solve", "--json", "--weak", &cases[0].moves], "");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys.len(), 5, "{keys:?}");
    assert_eq!(v["board_size"], "7x6");
    assert_eq!(v["weak"], true);
    assert_eq!(v["score"], cases[0].score.signum());
}

#[test]
fn weak_is_the_sign_of_the_score() {
    let mut cases = quick_cases(30);
    cases.extend(testset("middle-medium", 5));
    let input: Vec<&str> = cases.iter().map(|c| c.moves.as_str()).collect();
    let (out, _, code) = run(&["solve", "--weak"], lines_of(&input));
    assert_eq!(code, 0);
    let expected: Vec<String> = cases
        .iter()
        .map(|c| format!("{} {}", c.moves, c.score.signum()))
        .collect();
    assert_eq!(out, lines_of(&expected));
    assert!(cases.iter().any(|c| c.score > 0));
    assert!(cases.iter().any(|c| c.score < 0));
    assert!(cases.iter().any(|c| c.score == 0));
}

#[test]
fn stats_add_nodes_and_microseconds() {
    let cases = testset("middle-medium", 5);
    let input: Vec<&str> = cases.iter().map(|c| c.moves.as_str()).collect();
    let (out, _, code) = run(&["solve", "--stats"], lines_of(&input));
    assert_eq!(code, 0);
    let mut total_nodes = 0;
    for (line, case) in out.lines().zip(&cases) {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 4, "{line}");
        assert_eq!(fields[0], case.moves);
        assert_eq!(fields[1], case.score.to_string());
        let nodes: u64 = fields[2].parse().unwrap();
        let _micros: u64 = fields[3].parse().unwrap();
        total_nodes += nodes;
    }
    assert_eq!(out.lines().count(), cases.len());
    assert!(total_nodes > 0);
}

/// Plays `pv` from `moves` and checks that the game ends on its last move,
/// the way `score` says.
fn check_pv(moves: &str, score: i32, pv: &str) {
    let start: Position = Position::parse(moves).unwrap();
    let mut pos = start;
    for (i, ch) in pv.chars().enumerate() {
        assert!(
            !pos.is_game_over(),
            "{moves}: pv {pv} goes on after the end"
        );
        let col = ch.to_digit(10).expect("a column digit") as usize - 1;
        assert!(pos.can_play(col), "{moves}: pv {pv} move {i} is illegal");
        pos.play_col(col);
    }
    assert!(pos.is_game_over(), "{moves}: pv {pv} stops before the end");
    let played = pos.moves_played();
    if score == 0 {
        assert!(pos.is_full() && !pos.is_won(), "{moves}: draw expected");
        return;
    }
    assert!(pos.is_won(), "{moves}: pv {pv} should end in a win");
    // The winner made the last move; 22 - |score| is its number of stones.
    let winner_first = played % 2 == 1;
    let mover_first = start.moves_played() % 2 == 0;
    assert_eq!(
        winner_first == mover_first,
        score > 0,
        "{moves}: wrong winner"
    );
    let winner_stones = played.div_ceil(2);
    assert_eq!(
        winner_stones as i32,
        22 - score.abs(),
        "{moves} {score}: pv {pv} wins on move {played}"
    );
}

#[test]
fn pv_ends_the_game_as_the_score_predicts() {
    let mut cases = quick_cases(30);
    cases.extend(testset("begin-easy", 5));
    let input: Vec<&str> = cases.iter().map(|c| c.moves.as_str()).collect();
    let (out, _, code) = run(&["solve", "--pv"], lines_of(&input));
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), cases.len());
    for (line, case) in out.lines().zip(&cases) {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert_eq!(fields[1], case.score.to_string());
        check_pv(&case.moves, case.score, fields[2]);
    }
    // --stats and --pv together: moves score nodes us pv.
    let case = &cases[0];
    let (out, _, _) = run(&["solve", "--stats", "--pv", &case.moves], "");
    let fields: Vec<&str> = out.trim_end().split(' ').collect();
    assert_eq!(fields.len(), 5, "{out}");
    check_pv(&case.moves, case.score, fields[4]);
}

#[test]
fn a_finished_game_has_an_empty_pv() {
    // Witness of -18: the exhaustive minimax (X has won with its 4th stone).
    let score = reference_score_of::<7, 6>("1212121");
    assert_eq!(score, -18);
    c4(&["solve", "--pv", "1212121"])
        .assert()
        .success()
        .stdout(format!("1212121 {score} \n"));
}

#[test]
fn exit_statuses() {
    let good = &testset("end-easy", 1)[0].moves;
    c4(&["solve", good]).assert().code(0);
    c4(&["solve", "9"]).assert().code(1);
    c4(&["solve", "--bogus", good])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--bogus"));
    c4(&["solve", "--tt-size", "12Q", good]).assert().code(2);
    c4(&["solve", "--tt-size", "1", good])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("too small"));
    c4(&["solve", "--threads", "x", good]).assert().code(2);
}

#[test]
fn threads_keep_input_order() {
    let mut cases = quick_cases(40);
    cases.extend(testset("middle-medium", 10));
    let mut input: Vec<&str> = cases.iter().map(|c| c.line.as_str()).collect();
    input.insert(7, "77777777");
    input.insert(30, "0");
    let input = lines_of(&input);
    let single = run(&["solve", "--stats"], input.clone());
    let multi = run(&["solve", "--stats", "--threads", "3"], input.clone());
    // Nodes and times differ from run to run; moves and scores must not.
    let strip = |out: &str| -> Vec<String> {
        out.lines()
            .map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" "))
            .collect()
    };
    assert_eq!(strip(&multi.0), strip(&single.0));
    assert_eq!(multi.1, single.1, "the same errors, in the same order");
    assert_eq!((single.2, multi.2), (1, 1));
    assert_eq!(single.0.lines().count(), 52);
    // Without --stats the outputs are identical.
    let single = run(&["solve"], input.clone());
    let multi = run(&["solve", "--threads", "3"], input);
    assert_eq!(multi, single);
}

#[test]
fn one_position_searched_by_two_threads() {
    // A single argument with --threads 2: both threads search it together.
    for case in testset("begin-medium", 3) {
        c4(&["solve", "--threads", "2", &case.moves])
            .assert()
            .success()
            .stdout(format!("{}\n", case.line));
        c4(&["solve", "--weak", "--threads", "2", &case.moves])
            .assert()
            .success()
            .stdout(format!("{} {}\n", case.moves, case.score.signum()));
    }
}

/// Writes `input` to the child's stdin from a thread, ignoring errors (the
/// child may stop reading).
fn feed(child: &mut Child, input: Vec<u8>) -> thread::JoinHandle<()> {
    let mut stdin = child.stdin.take().unwrap();
    thread::spawn(move || {
        let _ = stdin.write_all(&input);
    })
}

#[test]
fn closed_stdout_ends_quietly() {
    // Far more output than a pipe buffers, so that c4 must see the pipe close.
    let cases = testset("end-easy", 1000);
    let mut input = String::new();
    for _ in 0..20 {
        for c in &cases {
            input.push_str(&c.moves);
            input.push('\n');
        }
    }
    for threads in ["1", "2"] {
        let mut child = spawn(&["solve", "--threads", threads]);
        let feeder = feed(&mut child, input.clone().into_bytes());
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        assert_eq!(first.trim_end(), cases[0].line);
        drop(stdout);
        let status = wait_with_limit(&mut child, Duration::from_secs(60))
            .expect("c4 stops once its stdout is closed");
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "stderr: {err}");
        assert_eq!(err, "", "threads {threads}");
        assert_eq!(status.code(), Some(0), "threads {threads}");
        feeder.join().unwrap();
    }
}

#[test]
fn answers_stream_before_stdin_closes() {
    let cases = testset("middle-easy", 3);
    for threads in ["1", "2"] {
        let mut child = spawn(&["solve", "--threads", threads]);
        let mut stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            for line in stdout.lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        for case in &cases {
            writeln!(stdin, "{}", case.moves).unwrap();
            stdin.flush().unwrap();
            let answer = rx
                .recv_timeout(Duration::from_secs(60))
                .expect("an answer while stdin is still open");
            assert_eq!(answer, case.line);
        }
        drop(stdin);
        let status = wait_with_limit(&mut child, Duration::from_secs(60)).unwrap();
        assert!(status.success());
        assert!(
            rx.recv_timeout(Duration::from_secs(5)).is_err(),
            "no more output"
        );
    }
}

#[test]
fn help_shows_examples() {
    for args in [&["--help"][..], &["solve", "--help"], &["solve", "-h"]] {
        c4(args)
            .assert()
            .success()
            .stdout(predicate::str::contains("Examples:"))
            .stdout(predicate::str::contains("c4 solve 4453"));
    }
    c4(&["solve", "--help"])
        .assert()
        .stdout(predicate::str::contains("Exit status"))
        .stdout(predicate::str::contains("invalid"));
}
