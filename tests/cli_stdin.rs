//! `c4 solve` on untrusted stdin: 100,000 lines with bad ones mixed in give
//! exactly one output line per input line, in input order, every bad line
//! reported on stderr by line and character, and exit status 1; an endless
//! line is refused without being held; a full disk is an error, never a
//! panic.
//!
//! The good lines are lines of the standard sets Test_L3_R1 and Test_L2_R1
//! (Pons's, read from `../shared/testsets`, or without them this
//! repository's sets of the same stages), whose scores are the witness:
//! `c4 solve` must give each line back as it is. The bad ones are good lines
//! broken at a known character, so the test knows which character the error
//! must name without asking the library.

mod common;

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::Duration;

use assert_cmd::cargo::{cargo_bin, cargo_bin_cmd};
use c4::rng::SplitMix64;

/// The `moves score` lines of a standard test set (or of this repository's
/// set of the same stage, see `common::sets::standard_or_own_set`).
fn standard_set(name: &str) -> Vec<String> {
    common::sets::standard_or_own(name, None)
        .iter()
        .map(|line| line.text())
        .collect()
}

/// `c4` with the given arguments.
fn c4(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("c4");
    cmd.args(args).timeout(Duration::from_secs(300));
    cmd
}

/// One input line and what `c4 solve` must make of it.
struct Case {
    /// The bytes of the line, without its newline.
    input: Vec<u8>,
    /// The stdout line.
    output: String,
    /// For a bad line, the 1-based character its error names.
    bad_at: Option<usize>,
}

/// A good line of `set`, written one of several ways (with or without its
/// score, blanks around, a CR before the newline); `c4` answers each with
/// the set's line.
fn good(rng: &mut SplitMix64, set: &[String]) -> Case {
    let line = &set[rng.below(set.len())];
    let (moves, score) = line.split_once(' ').expect("`moves score` lines");
    let input = match rng.below(4) {
        0 => line.clone(),
        1 => moves.to_owned(),
        2 => format!("  {moves}\t{score} \r"),
        _ => format!("{moves} +0"),
    };
    Case {
        input: input.into_bytes(),
        output: line.clone(),
        bad_at: None,
    }
}

/// A good line of `set` broken at a known character: a byte that is no
/// column (or no UTF-8) in the moves, text after them, an impossible score,
/// or a line longer than any position needs.
fn bad(rng: &mut SplitMix64, set: &[String]) -> Case {
    let line = &set[rng.below(set.len())];
    let (moves, _) = line.split_once(' ').expect("`moves score` lines");
    let mut input = moves.as_bytes().to_vec();
    let at = rng.below(input.len());
    let bad_at = match rng.below(7) {
        // A byte no 7-column move string has, in place of a move.
        0 => {
            input[at] = b"089xX\0-"[rng.below(7)];
            at + 1
        }
        // Bytes that are not UTF-8: an invalid byte, or a truncated
        // two-byte character, in place of a move.
        1 => {
            input[at] = [0xff, 0x80, 0xc3][rng.below(3)];
            at + 1
        }
        // A two-byte character, which counts as one character.
        2 => {
            input.splice(at..at + 1, "é".bytes());
            at + 1
        }
        // Something other than a score after the moves.
        3 => {
            input.extend_from_slice(b" 12x");
            moves.len() + 2
        }
        // A score and then more (0 is a score every position of a set
        // can have: none is over).
        4 => {
            input.extend_from_slice(b" 0 4");
            moves.len() + 4
        }
        // A score no position can have (on 7x6 a score is at most 21).
        5 => {
            input.extend_from_slice(b"\t99");
            moves.len() + 2
        }
        // Longer than any position needs: the limit is 1024 bytes.
        _ => {
            input.resize(1024, b' ');
            input.extend_from_slice(&vec![b'4'; rng.below(3000) + 1]);
            1025
        }
    };
    let shown = String::from_utf8_lossy(&input[..input.len().min(1025)])
        .trim()
        .to_owned();
    Case {
        input,
        output: format!("{shown} invalid"),
        bad_at: Some(bad_at),
    }
}

#[test]
fn a_hundred_thousand_lines_with_bad_ones_come_back_in_order() {
    let end = standard_set("Test_L3_R1");
    let middle = standard_set("Test_L2_R1");
    let mut rng = SplitMix64::new(2024);
    let cases: Vec<Case> = (0..100_000)
        .map(|_| match rng.below(10) {
            0 => bad(&mut rng, &end),
            1 => bad(&mut rng, &middle),
            2..=5 => good(&mut rng, &middle),
            _ => good(&mut rng, &end),
        })
        .collect();
    let mut stdin = Vec::new();
    for case in &cases {
        stdin.extend_from_slice(&case.input);
        stdin.push(b'\n');
    }
    let out = c4(&["solve", "--threads", "2"])
        .write_stdin(stdin)
        .output()
        .expect("c4 runs");
    assert_eq!(out.status.code(), Some(1), "bad lines make the status 1");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 stdout");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), cases.len(), "one output line per input line");
    for (i, (got, case)) in lines.iter().zip(&cases).enumerate() {
        assert_eq!(*got, case.output, "line {}", i + 1);
    }
    let stderr = String::from_utf8(out.stderr).expect("UTF-8 stderr");
    let mut expected = String::new();
    for (i, case) in cases.iter().enumerate() {
        if let Some(at) = case.bad_at {
            writeln!(expected, "line {}: character {at}", i + 1).unwrap();
        }
    }
    // Each message, cut after the character's number.
    let got: String = stderr
        .lines()
        .map(|l| {
            let (line, rest) = l.split_once(": ").unwrap_or((l, ""));
            let digits: String = rest
                .strip_prefix("character ")
                .unwrap_or("?")
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            format!("{line}: character {digits}\n")
        })
        .collect();
    assert_eq!(got, expected, "each bad line named by line and character");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn an_endless_line_is_refused_and_the_next_one_answered() {
    let line = &standard_set("Test_L3_R1")[0];
    let mut stdin = vec![b'4'; 64 << 20];
    stdin.push(b'\n');
    stdin.extend_from_slice(line.as_bytes());
    stdin.push(b'\n');
    for threads in ["1", "2"] {
        let out = c4(&["solve", "--threads", threads])
            .write_stdin(stdin.clone())
            .output()
            .expect("c4 runs");
        assert_eq!(out.status.code(), Some(1));
        let stdout = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0], format!("{} invalid", "4".repeat(1025)));
        assert_eq!(lines[1], line);
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.starts_with("line 1: character 1025: the line is longer than 1024 bytes"),
            "{stderr}"
        );
    }
}

#[test]
fn a_full_disk_is_an_error() {
    let line = &standard_set("Test_L3_R1")[0];
    let run = |args: &[&str]| {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full (Linux) is needed for this test");
        let mut child = Command::new(cargo_bin!("c4"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(full)
            .stderr(Stdio::piped())
            .spawn()
            .expect("c4 starts");
        let mut stdin = child.stdin.take().unwrap();
        // c4 may stop reading at the first failed write.
        let _ = writeln!(stdin, "{line}");
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    };
    for threads in ["1", "2"] {
        let (code, stderr) = run(&["solve", "--threads", threads]);
        assert_eq!(code, Some(1), "threads {threads}: {stderr}");
        assert!(
            stderr.contains("c4 solve: cannot write the output"),
            "threads {threads}: {stderr}"
        );
    }
    let set = common::sets::standard_or_own_set("Test_L3_R1");
    let set = set.to_string_lossy();
    let others: [&[&str]; 3] = [
        &["analyze", "4453"],
        &["bench", "--limit", "5", &set],
        &[
            "generate",
            "--count",
            "2",
            "--min-moves",
            "30",
            "--max-moves",
            "34",
            "--seed",
            "1",
        ],
    ];
    for args in others {
        let (code, stderr) = run(args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        let message = format!("c4 {}: cannot write the output", args[0]);
        assert!(stderr.contains(&message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
