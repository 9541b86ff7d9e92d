//! `c4` against random input, run as the built binary: random bytes on
//! stdin, and random argument vectors drawn from a grammar that mixes the
//! real subcommands and options with random tokens, numbers from 0 to far
//! past any limit (`--threads 100000`, `--tt-size 100000G`) and bytes that
//! are not UTF-8.
//!
//! Every run must exit with status 0, 1 or 2 (not a signal, not a panic's
//! 101), never print "panicked", and never hold more than [`RSS_LIMIT`]
//! resident: bad input gets an error, and memory is bounded before it is
//! taken. A run still going after [`TIME_LIMIT`] is killed and counted, not
//! failed (some random commands are long searches), and the count is
//! printed.
//!
//! Each case is drawn from its own seed; a failure prints the case's seed,
//! command line (shell-quoted) and stdin, so it can be run again by hand
//! (`C4_ROBUSTNESS_VERBOSE=1` also prints the command lines that timed
//! out). No new case starts after [`TIME_BUDGET`]: on a slow machine fewer
//! cases run, and the summary says how many.
//! The runs are confined: the working directory is a scratch directory, the
//! address space is capped (a backstop for the machine; the resident limit
//! is what the test judges), and so is the size of any file written.
#![cfg(unix)]

mod common;

use std::ffi::OsString;
use std::fmt::Write as _;
use std::fs;
use std::io::{Read, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use common::Rng;
use common::minimax::reference_score_of;

/// A run still going after this long is killed and counted as a timeout.
const TIME_LIMIT: Duration = Duration::from_secs(10);

/// A run holding more resident memory than this is killed and fails. The
/// grammar's ordinary values stay well under it: at most 3 threads, tables
/// of at most 64 MiB (two a thread for `generate`), and the book.
const RSS_LIMIT: u64 = 512 << 20;

/// The address space a run may map (`RLIMIT_AS`): a backstop that keeps a
/// runaway run from taking the machine's memory.
const ADDRESS_SPACE_LIMIT: u64 = 8 << 30;

/// The largest file a run may write (`RLIMIT_FSIZE`).
const FILE_SIZE_LIMIT: u64 = 64 << 20;

/// No new case starts after this long, so that the test stays short on a
/// slow machine (the cases left are reported).
const TIME_BUDGET: Duration = Duration::from_secs(25);

/// What a run did.
struct Outcome {
    /// The exit status, `None` if the run was killed for time.
    status: Option<std::process::ExitStatus>,
    /// The peak resident memory seen, in bytes, if the run was killed for
    /// holding more than [`RSS_LIMIT`].
    over_memory: Option<u64>,
    /// Standard error (at most its first 64 KiB).
    stderr: Vec<u8>,
    /// Standard output (at most its first 64 KiB).
    stdout: Vec<u8>,
}

/// Reads all of `r` from a thread, keeping the first 64 KiB.
fn drain(mut r: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = (64usize << 10).saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        }
        kept
    })
}

/// The resident memory of process `pid` in bytes, if it can be read.
fn resident_bytes(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Runs `c4 args` in `dir` with `stdin` written and then closed, within the
/// limits above.
fn run(args: &[OsString], stdin: &[u8], dir: &Path) -> Outcome {
    let mut cmd = Command::new(cargo_bin!("c4"));
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: the closure only calls setrlimit, which is async-signal-safe,
    // between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            for (resource, limit) in [
                (libc::RLIMIT_AS, ADDRESS_SPACE_LIMIT),
                (libc::RLIMIT_FSIZE, FILE_SIZE_LIMIT),
                (libc::RLIMIT_CORE, 0),
            ] {
                let rlim = libc::rlimit {
                    rlim_cur: limit as libc::rlim_t,
                    rlim_max: limit as libc::rlim_t,
                };
                if libc::setrlimit(resource, &rlim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().expect("c4 starts");
    let input = stdin.to_vec();
    let mut pipe = child.stdin.take().unwrap();
    let writer = thread::spawn(move || {
        // c4 may exit without reading: a closed pipe is no error here.
        let _ = pipe.write_all(&input);
    });
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    let start = Instant::now();
    let mut over_memory = None;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if let Some(rss) = resident_bytes(child.id()).filter(|&r| r > RSS_LIMIT) {
            over_memory = Some(rss);
            let _ = child.kill();
            break Some(child.wait().unwrap());
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            child.wait().unwrap();
            break None;
        }
        thread::sleep(Duration::from_millis(5));
    };
    writer.join().unwrap();
    Outcome {
        status,
        over_memory,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// A word for the shell: as it is if plain, else `$'...'` with escapes.
fn shell_word(arg: &[u8]) -> String {
    let plain = |b: &u8| b.is_ascii_alphanumeric() || b"_./=:,+-%@".contains(b);
    if !arg.is_empty() && arg.iter().all(plain) {
        return String::from_utf8_lossy(arg).into_owned();
    }
    let mut s = String::from("$'");
    for &b in arg {
        match b {
            b'\'' => s.push_str("\\'"),
            b'\\' => s.push_str("\\\\"),
            b' '..=b'~' => s.push(b as char),
            _ => write!(s, "\\x{b:02x}").unwrap(),
        }
    }
    s.push('\'');
    s
}

/// `c4 ARGS` as a shell command line.
fn command_line(args: &[OsString]) -> String {
    let mut line = String::from("c4");
    for arg in args {
        line.push(' ');
        line.push_str(&shell_word(arg.as_bytes()));
    }
    line
}

/// What is wrong with an outcome, if anything.
fn judge(outcome: &Outcome) -> Option<String> {
    if let Some(rss) = outcome.over_memory {
        return Some(format!(
            "held {} MiB resident (limit {} MiB)",
            rss >> 20,
            RSS_LIMIT >> 20
        ));
    }
    let status = outcome.status?;
    let panicked = |bytes: &[u8]| String::from_utf8_lossy(bytes).contains("panicked");
    if panicked(&outcome.stderr) || panicked(&outcome.stdout) {
        return Some(format!("printed \"panicked\" ({status})"));
    }
    match (status.code(), status.signal()) {
        (Some(0..=2), _) => None,
        (Some(code), _) => Some(format!("exit status {code}")),
        (None, Some(signal)) => Some(format!("killed by signal {signal}")),
        (None, None) => Some(format!("ended as {status}")),
    }
}

/// One case: its seed, arguments and stdin.
struct Case {
    seed: u64,
    args: Vec<OsString>,
    stdin: Vec<u8>,
}

/// Runs every case (until [`TIME_BUDGET`] is spent) in a scratch directory
/// named `name`, prints a summary, and fails listing every failure.
fn run_cases(name: &str, cases: impl Iterator<Item = Case>, planned: usize) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_robustness")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    // Files the grammar names: a small valid set and an empty file.
    fs::write(
        dir.join("set.txt"),
        "# board 7x6\n175424313177774724541246612626552 4\n\
         51722573463466563125243443324667777 0\n",
    )
    .unwrap();
    fs::write(dir.join("empty.txt"), "").unwrap();
    let start = Instant::now();
    let (mut ran, mut timeouts) = (0, 0);
    let mut failures = Vec::new();
    for case in cases {
        if start.elapsed() > TIME_BUDGET {
            break;
        }
        let outcome = run(&case.args, &case.stdin, &dir);
        ran += 1;
        if outcome.status.is_none() && outcome.over_memory.is_none() {
            timeouts += 1;
            if std::env::var_os("C4_ROBUSTNESS_VERBOSE").is_some() {
                let _ = writeln!(
                    std::io::stderr().lock(),
                    "timeout: seed {:#x}: {}",
                    case.seed,
                    command_line(&case.args)
                );
            }
        }
        if let Some(problem) = judge(&outcome) {
            let shown = &case.stdin[..case.stdin.len().min(300)];
            let excerpt = |bytes: &[u8]| {
                String::from_utf8_lossy(&bytes[..bytes.len().min(400)])
                    .trim_end()
                    .replace('\n', "\n          ")
            };
            failures.push(format!(
                "seed {:#x}: {problem}\n  command: {}\n  stdin ({} bytes): {}\n  \
                 stderr: {}\n  stdout: {}",
                case.seed,
                command_line(&case.args),
                case.stdin.len(),
                shell_word(shown),
                excerpt(&outcome.stderr),
                excerpt(&outcome.stdout),
            ));
        }
    }
    let summary = format!(
        "{name}: {ran} of {planned} runs in {:.1?}, {timeouts} killed after {TIME_LIMIT:?} \
         (not failures), {} failures",
        start.elapsed(),
        failures.len()
    );
    // Straight to the process's stderr, past the harness's capture.
    let _ = writeln!(std::io::stderr().lock(), "{summary}");
    assert!(failures.is_empty(), "{summary}:\n{}", failures.join("\n"));
    let _ = fs::remove_dir_all(&dir);
}

/// Picks one of `items`.
fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

/// Whether an event of probability `percent`% happens.
fn chance(rng: &mut Rng, percent: usize) -> bool {
    rng.below(100) < percent
}

/// Numbers at and far past every limit.
const HUGE: [&str; 10] = [
    "65535",
    "65536",
    "100000",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999",
    "-1",
];

/// A number: mostly small, sometimes far too big or not a number.
fn number(rng: &mut Rng, small: &[&str]) -> OsString {
    match rng.below(10) {
        0..=6 => pick(rng, small).to_string(),
        7 | 8 => pick(rng, &HUGE).to_string(),
        _ => pick(rng, &["", "x", "1.5", "+3", "0x10", " 2", "1e3", "٣"]).to_string(),
    }
    .into()
}

/// A random move string: mostly columns 1-7, sometimes others; mostly short
/// enough to be in the book or long enough to be near the end of the game.
fn moves(rng: &mut Rng) -> OsString {
    let len = match rng.below(10) {
        0..=4 => rng.below(10),
        5 | 6 => 10 + rng.below(8),
        _ => 25 + rng.below(25),
    };
    let odd = chance(rng, 15);
    let s: String = (0..len)
        .map(|_| {
            if odd && chance(rng, 10) {
                *pick(rng, &['0', '8', '9', 'a', 'c', 'A', 'z', ' ', '-', 'é'])
            } else {
                char::from(b'1' + rng.below(7) as u8)
            }
        })
        .collect();
    s.into()
}

/// A random token: printable junk, unicode, or bytes that are not UTF-8 (no
/// `/`, so that no written path leaves the scratch directory).
fn token(rng: &mut Rng) -> OsString {
    let len = rng.below(12);
    match rng.below(3) {
        0 => (0..len)
            .map(|_| char::from(b' ' + rng.below(95) as u8))
            .filter(|&c| c != '/')
            .collect::<String>()
            .into(),
        1 => (0..len)
            .map(|_| *pick(rng, &['é', '中', '\u{202e}', '\t', '-', 'x', '7', '\n']))
            .collect::<String>()
            .into(),
        _ => OsString::from_vec(
            (0..len)
                .map(|_| rng.below(256) as u8)
                .filter(|&b| b != b'/' && b != 0)
                .collect(),
        ),
    }
}

/// A file to read: the scratch files, missing ones, special ones, junk.
fn file_to_read(rng: &mut Rng) -> OsString {
    match rng.below(12) {
        0 => token(rng),
        _ => pick(
            rng,
            &[
                "set.txt",
                "empty.txt",
                "missing.txt",
                ".",
                "/dev/null",
                "/dev/zero",
                "/no/such/dir/file",
                "builtin",
                "set.txt",
                "-",
            ],
        )
        .into(),
    }
}

/// A file to write, always inside the scratch directory or impossible.
fn file_to_write(rng: &mut Rng) -> OsString {
    match rng.below(8) {
        0 => token(rng),
        _ => pick(
            rng,
            &[
                "out.txt",
                "out.c4book",
                "set.txt",
                ".",
                "/no/such/dir/out",
                "",
                "out.txt",
            ],
        )
        .into(),
    }
}

/// An option of any subcommand, with a value drawn for it if it takes one.
fn option(rng: &mut Rng, args: &mut Vec<OsString>) {
    let sizes = [
        "0",
        "1",
        "1K",
        "2K",
        "64K",
        "1M",
        "4M",
        "16M",
        "64M",
        "1T",
        "100000G",
        "16E",
        "1.5M",
        "-4M",
        "64m",
        "18446744073709551615",
    ];
    let name = *pick(
        rng,
        &[
            "--weak",
            "--stats",
            "--pv",
            "--json",
            "--no-book",
            "--no-clear",
            "--compare-book",
            "--threads",
            "--threads",
            "--tt-size",
            "--tt-size",
            "--book",
            "--width",
            "--height",
            "--limit",
            "--count",
            "--min-moves",
            "--max-moves",
            "--difficulty",
            "--seed",
            "--out",
            "-o",
            "--max-tries",
            "--max-nodes",
            "--as",
            "--from",
            "--depth",
            "--shard",
            "--sample",
            "--bounds-from",
            "-h",
            "--help",
            "-V",
        ],
    );
    args.push(name.into());
    let value = match name {
        "--threads" => number(rng, &["1", "2", "3", "0"]),
        "--tt-size" => pick(rng, &sizes).into(),
        "--book" | "--bounds-from" => file_to_read(rng),
        "--width" | "--height" => number(rng, &["4", "5", "6", "7", "8", "12", "15", "3", "0"]),
        "--limit" | "--count" | "--max-tries" | "--sample" => number(rng, &["0", "1", "2", "3"]),
        "--max-nodes" => number(rng, &["0", "1", "1000", "100000"]),
        "--min-moves" | "--max-moves" => number(
            rng,
            &["0", "1", "4", "14", "20", "30", "35", "41", "42", "43"],
        ),
        "--depth" => number(rng, &["0", "1", "2", "3", "4", "100"]),
        "--seed" => number(rng, &["0", "1", "7", "12345"]),
        "--difficulty" => pick(rng, &["easy", "medium", "hard", "any", "HARD", ""]).into(),
        "--as" => pick(rng, &["first", "second", "x", ""]).into(),
        "--from" => moves(rng),
        "--shard" => pick(
            rng,
            &[
                "1/2",
                "2/2",
                "0/0",
                "3/2",
                "1/0",
                "1/100000",
                "x/y",
                "18446744073709551615/1",
            ],
        )
        .into(),
        "--out" | "-o" => file_to_write(rng),
        _ => return,
    };
    args.push(value);
}

/// A random argument vector: mostly a real subcommand, then options,
/// positions, files, numbers and junk in any order.
fn random_args(rng: &mut Rng) -> Vec<OsString> {
    let mut args: Vec<OsString> = Vec::new();
    let sub = *pick(
        rng,
        &[
            "solve", "solve", "solve", "analyze", "analyze", "bench", "generate", "play", "book",
            "help", "", "--help", "-V", "junk",
        ],
    );
    match sub {
        "" => {}
        "junk" => args.push(token(rng)),
        "book" => {
            args.push("book".into());
            let what = *pick(
                rng,
                &["generate", "merge", "info", "verify", "help", "junk"],
            );
            args.push(if what == "junk" {
                token(rng)
            } else {
                what.into()
            });
            // Books of 7x6 take hours: mostly the smallest board.
            if what == "generate" && chance(rng, 85) {
                args.extend(["--width", "4", "--height", "4"].map(OsString::from));
            }
            if what == "verify" && chance(rng, 85) {
                args.extend(["--sample", "1"].map(OsString::from));
            }
        }
        "bench" => {
            args.push("bench".into());
            // With no file, bench runs every set of testsets/: minutes.
            if chance(rng, 95) {
                args.extend(["--limit", "1"].map(OsString::from));
            }
        }
        "generate" => {
            args.push("generate".into());
            // The default is 100 positions, each up to 20 million nodes.
            if chance(rng, 95) {
                args.extend(["--count", "1", "--max-nodes", "100000"].map(OsString::from));
            }
        }
        other => args.push(other.into()),
    }
    for _ in 0..rng.below(7) {
        match rng.below(20) {
            0..=8 => option(rng, &mut args),
            9..=12 => args.push(moves(rng)),
            13 => args.push(file_to_read(rng)),
            14 => args.push(pick(rng, &HUGE).into()),
            15 => args.push(pick(rng, &["-", "--", "-x", "---", "--=", "--threads=2"]).into()),
            _ => args.push(token(rng)),
        }
    }
    args
}

/// Random bytes, or lines mixing positions, scores, headers and junk.
fn random_stdin(rng: &mut Rng) -> Vec<u8> {
    if chance(rng, 25) {
        return (0..rng.below(3000)).map(|_| rng.below(256) as u8).collect();
    }
    let mut out = Vec::new();
    for _ in 0..rng.below(12) {
        match rng.below(16) {
            0..=5 => out.extend_from_slice(moves(rng).as_bytes()),
            6 | 7 => {
                out.extend_from_slice(moves(rng).as_bytes());
                out.push(b' ');
                out.extend_from_slice(number(rng, &["0", "1", "-3", "18", "22"]).as_bytes());
            }
            8 => out.extend_from_slice(
                pick(
                    rng,
                    &[
                        "# board 7x6",
                        "# board 4x4",
                        "# board 99x99",
                        "# board 18446744073709551615x4",
                        "#",
                    ],
                )
                .as_bytes(),
            ),
            9 => out.extend_from_slice(
                pick(rng, &["hint", "undo", "quit", "y", "n", "4", "9"]).as_bytes(),
            ),
            10 => out.extend(std::iter::repeat_n(b'4', rng.below(200_000))),
            11 => out.extend_from_slice(b"\r"),
            _ => out.extend_from_slice(token(rng).as_bytes()),
        }
        out.push(if chance(rng, 90) { b'\n' } else { b' ' });
    }
    out
}

/// The seed of case `i` of a test.
fn seed(base: u64, i: usize) -> u64 {
    base ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Command lines at the limits, run every time (stdin: one position).
const EDGES: [&[&str]; 20] = [
    &["solve", "--threads", "100000", "4453"],
    &["solve", "--threads", "100000"],
    &["solve", "--threads", "65535", "4453", "44"],
    &["solve", "--threads", "4294967296"],
    &["solve", "--threads", "18446744073709551615"],
    &["solve", "--tt-size", "100000G", "4453"],
    &["solve", "--tt-size", "18446744073709551615", "4453"],
    &["solve", "--book", "/dev/zero", "4453"],
    &[
        "solve",
        "--width",
        "18446744073709551615",
        "--height",
        "4",
        "1",
    ],
    &["analyze", "--tt-size", "1T", "4453"],
    &["bench", "--threads", "65535", "--limit", "1", "set.txt"],
    &["bench", "--limit", "1", "/dev/zero"],
    &[
        "generate",
        "--threads",
        "65535",
        "--count",
        "1",
        "--max-nodes",
        "1000",
    ],
    &[
        "generate",
        "--count",
        "18446744073709551615",
        "--max-tries",
        "1",
    ],
    &[
        "generate",
        "--count",
        "1",
        "--min-moves",
        "18446744073709551615",
    ],
    &[
        "book",
        "generate",
        "--width",
        "4",
        "--height",
        "4",
        "--depth",
        "2",
        "--threads",
        "100000",
        "--out",
        "b.c4book",
    ],
    &["book", "info", "/dev/zero"],
    &["book", "verify", "/dev/zero"],
    &["play", "--tt-size", "100000G"],
    &["play", "--as", "first", "--threads", "100000"],
];

/// The command lines of [`EDGES`].
#[test]
fn limits_are_refused_not_crashed_into() {
    let cases = EDGES.iter().enumerate().map(|(i, args)| Case {
        seed: i as u64,
        args: args.iter().map(OsString::from).collect(),
        stdin: b"4453\n".to_vec(),
    });
    run_cases("limits", cases, EDGES.len());
}

/// Random argument vectors, with stdin closed at once or holding a few
/// random lines.
#[test]
fn random_arguments_never_crash() {
    const CASES: usize = 600;
    let cases = (0..CASES).map(|i| {
        let seed = seed(0xC4A2_0001, i);
        let mut rng = Rng(seed);
        let args = random_args(&mut rng);
        let stdin = if chance(&mut rng, 30) {
            random_stdin(&mut rng)
        } else {
            Vec::new()
        };
        Case { seed, args, stdin }
    });
    run_cases("arguments", cases, CASES);
}

/// Random stdin for the commands that read it (`solve`, `play`), with a few
/// random options.
#[test]
fn random_stdin_never_crashes() {
    const CASES: usize = 300;
    let cases = (0..CASES).map(|i| {
        let seed = seed(0xC4B1_0002, i);
        let mut rng = Rng(seed);
        let mut args: Vec<OsString> =
            vec![pick(&mut rng, &["solve", "solve", "solve", "play"]).into()];
        for _ in 0..rng.below(3) {
            let flag = *pick(
                &mut rng,
                &[
                    "--weak",
                    "--json",
                    "--pv",
                    "--stats",
                    "--threads",
                    "--width",
                    "--as",
                    "-",
                ],
            );
            args.push(flag.into());
            match flag {
                "--threads" => args.push(number(&mut rng, &["1", "2", "3"])),
                "--width" => {
                    args.push(number(&mut rng, &["4", "5", "7", "9"]));
                    args.push("--height".into());
                    args.push(number(&mut rng, &["4", "5", "6"]));
                }
                "--as" => args.push(pick(&mut rng, &["first", "second"]).into()),
                _ => {}
            }
        }
        let stdin = random_stdin(&mut rng);
        Case { seed, args, stdin }
    });
    run_cases("stdin", cases, CASES);
}

/// The runner itself: a good run passes, and what it must catch is caught.
#[test]
fn the_judge_tells_good_runs_from_bad() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_robustness_judge");
    fs::create_dir_all(&dir).unwrap();
    let args = |a: &[&str]| a.iter().map(OsString::from).collect::<Vec<_>>();
    let good = run(&args(&["solve", "121212"]), b"", &dir);
    assert_eq!(judge(&good), None);
    // Witness of the score: the exhaustive minimax.
    let score = reference_score_of::<7, 6>("121212");
    assert_eq!(
        String::from_utf8_lossy(&good.stdout),
        format!("121212 {score}\n")
    );
    let usage = run(&args(&["solve", "--bogus"]), b"", &dir);
    assert_eq!(usage.status.and_then(|s| s.code()), Some(2));
    assert_eq!(judge(&usage), None);
    let exit = |code: i32| Outcome {
        status: Some(std::process::ExitStatus::from_raw(code << 8)),
        over_memory: None,
        stderr: Vec::new(),
        stdout: Vec::new(),
    };
    assert!(judge(&exit(101)).is_some());
    assert!(judge(&exit(3)).is_some());
    assert!(judge(&exit(1)).is_none());
    let killed = Outcome {
        status: Some(std::process::ExitStatus::from_raw(libc::SIGABRT)),
        ..exit(0)
    };
    assert!(judge(&killed).is_some());
    let panicked = Outcome {
        stderr: b"thread 'main' panicked at src/x.rs".to_vec(),
        ..exit(1)
    };
    assert!(judge(&panicked).is_some());
    let timed_out = Outcome {
        status: None,
        ..exit(0)
    };
    assert!(judge(&timed_out).is_none());
    assert_eq!(
        command_line(&[
            OsString::from("solve"),
            OsString::from_vec(vec![b'a', 0xff, b' '])
        ]),
        "c4 solve $'a\\xff '"
    );
}
