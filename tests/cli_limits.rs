//! What a run may take: an absurd `--threads` is a usage error, a run that
//! would not fit in memory is refused before it allocates (exit status 2,
//! saying what it needs, what there is and what to change), every solving
//! command's help says how much memory it takes, and the commands that
//! solve share their options.

mod common;

use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin_cmd;
use common::sets::{repo_set, repo_set_path};
use predicates::prelude::*;

/// `c4` with the given arguments.
fn c4(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("c4");
    cmd.args(args).timeout(Duration::from_secs(120));
    cmd
}

/// Every command that takes `--threads`, with arguments that make it run.
fn threaded_commands(set: &str) -> Vec<Vec<String>> {
    [
        vec!["solve", "4453"],
        vec!["analyze", "4453"],
        vec!["bench", set],
        vec![
            "generate",
            "--count",
            "1",
            "--seed",
            "1",
            "--min-moves",
            "30",
            "--max-moves",
            "34",
        ],
        vec!["play", "--as", "first"],
    ]
    .into_iter()
    .map(|args| args.into_iter().map(str::to_owned).collect())
    .collect()
}

/// The path of this repository's set `name` (e.g. `end-easy`), as a string:
/// positions `c4 generate` wrote, so that the tests need nothing from outside
/// the clone.
fn set_path(name: &str) -> String {
    repo_set_path(name).to_string_lossy().into_owned()
}

#[test]
fn absurd_thread_counts_are_usage_errors() {
    let set = set_path("end-easy");
    for command in threaded_commands(&set) {
        let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
        args.extend(["--threads", "100000"]);
        let start = Instant::now();
        c4(&args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("100000 threads"))
            .stderr(predicate::str::contains("at most"));
        // Refused at once, not after trying.
        assert!(start.elapsed() < Duration::from_secs(10), "{args:?}");
    }
}

#[test]
fn runs_that_do_not_fit_in_memory_are_refused_before_they_start() {
    // 64 workers with a 1 TiB table each: no machine has 64 TiB free.
    let meminfo = std::fs::read_to_string("/proc/meminfo").expect("Linux /proc/meminfo");
    assert!(
        meminfo.contains("MemAvailable:"),
        "the check reads MemAvailable"
    );
    let set = set_path("end-easy");
    for command in threaded_commands(&set) {
        let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
        args.extend(["--threads", "64", "--tt-size", "1T"]);
        let name = format!("c4 {}: not enough memory: this run needs", command[0]);
        c4(&args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::starts_with(name))
            .stderr(predicate::str::contains(" TiB of tables"))
            .stderr(predicate::str::contains("is available"))
            .stderr(predicate::str::contains("--tt-size"));
    }
    // stdin is not read: the run stops before its first line.
    c4(&["solve", "--threads", "64", "--tt-size", "1T"])
        .write_stdin("4453\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("64 solvers x 1 TiB of tables"));
}

#[test]
fn small_machines_may_oversubscribe_their_cores() {
    // 64 threads are allowed on any machine; with small tables they fit.
    let lines = repo_set("end-easy", Some(200));
    let input: String = lines.iter().map(|l| format!("{}\n", l.text())).collect();
    c4(&["solve", "--threads", "64", "--tt-size", "1M"])
        .write_stdin(input.clone())
        .assert()
        .success()
        .stdout(input);
    // 0 uses every core, in every command that takes --threads.
    let set = set_path("end-easy");
    for command in threaded_commands(&set) {
        let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
        args.extend(["--threads", "0", "--limit", "5"]);
        if command[0] != "bench" {
            args.truncate(args.len() - 2);
        }
        c4(&args).write_stdin("quit\n").assert().success();
    }
}

#[test]
fn every_solving_command_says_what_memory_it_takes() {
    for command in ["solve", "analyze", "bench", "generate", "play"] {
        c4(&[command, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("Memory: about"))
            .stdout(predicate::str::contains("tt-size"))
            .stdout(predicate::str::contains("refuses a run that does not fit"));
    }
}

#[test]
fn solving_commands_share_their_options() {
    // Each of these takes the board, table, threads and book options.
    for command in ["solve", "analyze", "play", "bench"] {
        let help = c4(&[command, "--help"]).assert().success();
        let out = String::from_utf8(help.get_output().stdout.clone()).unwrap();
        for option in ["--tt-size", "--threads", "--book", "--no-book", "--width"] {
            assert!(out.contains(option), "c4 {command} lacks {option}");
        }
    }
    // The batch and one-position commands also share --weak and --json.
    for command in ["solve", "analyze", "bench"] {
        let help = c4(&[command, "--help"]).assert().success();
        let out = String::from_utf8(help.get_output().stdout.clone()).unwrap();
        for option in ["--weak", "--json"] {
            assert!(out.contains(option), "c4 {command} lacks {option}");
        }
    }
}
