//! `c4 book` end to end on small boards (`--width 5 --height 4`), and the
//! `--book` / `--no-book` options of the solving commands: generation,
//! interruption and resumption, shards and merge, info and verify, damaged
//! and foreign files, the built-in book.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

mod common;

use assert_cmd::Command;

use c4::book::Book;
use c4::book::consistency::check_consistency;
use c4::book::format::{self, Kind};
use c4::book_builder::{Job, Shard};
use c4::rng::SplitMix64;
use c4::{BoardSize, Position, Score, Solver};
use common::Naive;
use common::minimax::minimax;

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_book")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `c4 ARGS`: (stdout, stderr, exit status).
fn c4(args: &[&str]) -> (String, String, i32) {
    let out = Command::cargo_bin("c4")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

/// `c4 book generate --width 5 --height 4` with `extra` arguments, into `out`.
fn generate(out: &Path, depth: &str, extra: &[&str]) -> (String, String, i32) {
    let mut args = vec![
        "book",
        "generate",
        "--width",
        "5",
        "--height",
        "4",
        "--depth",
        depth,
        "--tt-size",
        "4M",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    c4(&args)
}

/// Runs `c4 book SUBCOMMAND --width 5 --height 4 ARGS`.
fn book_5x4(subcommand: &str, args: &[&str]) -> (String, String, i32) {
    let mut all = vec!["book", subcommand, "--width", "5", "--height", "4"];
    all.extend_from_slice(args);
    c4(&all)
}

fn partial(out: &Path) -> PathBuf {
    PathBuf::from(format!("{}.partial", out.display()))
}

/// Plumbing: the CLI's book against the library's solver, entry by entry.
#[test]
fn a_generated_book_holds_fresh_solves_and_info_describes_it() {
    let dir = scratch("generate");
    let out = dir.join("b.c4book");
    let (stdout, stderr, code) = generate(&out, "5", &["--threads", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("book of depth 5"), "{stdout}");
    assert!(
        !partial(&out).exists(),
        "the checkpoint is removed at the end"
    );
    let book = Book::<5, 4>::decode(&fs::read(&out).unwrap()).unwrap();
    let mut solver = Solver::<5, 4>::with_table_bytes(1 << 22).unwrap();
    for (key, score) in book.entries() {
        let pos = Position::<5, 4>::from_key(key).unwrap();
        assert_eq!(solver.solve(&pos), score);
    }
    let (info, _, code) = book_5x4("info", &[out.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(info.contains("board: 5x4\ndepth: 5\n"), "{info}");
    assert!(
        info.contains(&format!("entries: {}\n", book.len())),
        "{info}"
    );
    assert!(info.contains("checksum: "), "{info}");
    // Plumbing: the line shows the library's score of the empty board.
    let empty = solver.solve(&Position::new());
    assert!(info.contains(&format!("empty board: {empty}: ")), "{info}");
    let (v, _, code) = book_5x4("verify", &[out.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(
        v.contains(&format!("verified {0} of {0} entries", book.len())),
        "{v}"
    );
    assert!(v.contains("all agree"), "{v}");
}

#[test]
fn an_interrupted_run_resumes_to_the_same_file() {
    let dir = scratch("resume");
    let whole = dir.join("whole.c4book");
    assert_eq!(generate(&whole, "6", &["--threads", "1"]).2, 0);
    let out = dir.join("resumed.c4book");
    // Stopped twice, as a kill would stop it, once with a torn record.
    let (_, stderr, code) = generate(&out, "6", &["--threads", "2", "--stop-after", "300"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("stopped after 300 positions"), "{stderr}");
    assert!(!out.exists(), "no book before the end");
    let saved = fs::metadata(partial(&out)).unwrap().len();
    assert!(saved >= 20 + 300 * 16, "{saved}");
    let (_, stderr, code) = generate(&out, "6", &["--threads", "1", "--stop-after", "500"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("resuming from"), "{stderr}");
    let mut bytes = fs::read(partial(&out)).unwrap();
    bytes.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7]);
    fs::write(partial(&out), &bytes).unwrap();
    let (_, stderr, code) = generate(&out, "6", &["--threads", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("800 of 1500 positions already solved"),
        "{stderr}"
    );
    assert_eq!(fs::read(&out).unwrap(), fs::read(&whole).unwrap());
    assert!(!partial(&out).exists());
}

#[test]
fn a_checkpoint_of_other_arguments_is_refused() {
    let dir = scratch("other-args");
    let out = dir.join("b.c4book");
    assert_eq!(
        generate(&out, "6", &["--stop-after", "5", "--threads", "1"]).2,
        1
    );
    let (_, stderr, code) = generate(&out, "5", &[]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("is the checkpoint of another run"),
        "{stderr}"
    );
}

#[test]
fn shards_merge_into_the_single_run_and_bad_merges_are_refused() {
    let dir = scratch("shards");
    let whole = dir.join("whole.c4book");
    assert_eq!(generate(&whole, "5", &[]).2, 0);
    let mut parts = Vec::new();
    for k in 1..=3 {
        let part = dir.join(format!("part{k}.c4book"));
        let shard = format!("{k}/3");
        let (stdout, stderr, code) = generate(&part, "5", &["--shard", &shard]);
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stdout.contains(&format!("part {k}/3 of depth 5")),
            "{stdout}"
        );
        parts.push(part.to_str().unwrap().to_owned());
    }
    let merged = dir.join("merged.c4book");
    let mut args = vec![
        "book",
        "merge",
        "--width",
        "5",
        "--height",
        "4",
        "--out",
        merged.to_str().unwrap(),
    ];
    args.extend(parts.iter().map(String::as_str).rev());
    let (_, stderr, code) = c4(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(fs::read(&merged).unwrap(), fs::read(&whole).unwrap());

    // A part given twice, a part missing, a part of another depth.
    let merge = |files: &[&str]| {
        let mut args = vec![
            "book",
            "merge",
            "--width",
            "5",
            "--height",
            "4",
            "--out",
            "unused.c4book",
        ];
        args.extend_from_slice(files);
        c4(&args)
    };
    let (_, err, code) = merge(&[&parts[0], &parts[0], &parts[1], &parts[2]]);
    assert_eq!(code, 1);
    assert!(err.contains("given twice"), "{err}");
    let (_, err, code) = merge(&[&parts[0], &parts[1]]);
    assert_eq!(code, 1);
    assert!(err.contains("shard 3/3 is missing"), "{err}");
    let other = dir.join("other.c4book");
    assert_eq!(generate(&other, "4", &["--shard", "3/3"]).2, 0);
    let (_, err, code) = merge(&[&parts[0], &parts[1], other.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("depth 5 and 4"), "{err}");
    // A part of another board.
    let (_, err, code) = c4(&[
        "book",
        "merge",
        "--width",
        "4",
        "--height",
        "4",
        "--out",
        "unused.c4book",
        &parts[0],
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("is for a 5x4 board, not 4x4"), "{err}");
    assert!(!Path::new("unused.c4book").exists());
    // A part is not a book to solve with (a 7x6 part: the depth-1 entries
    // of the built-in book, labelled as part 1 of 3).
    let builtin = c4::book::builtin::builtin::<7, 6, u64>().unwrap().unwrap();
    let deepest: Vec<(u64, Score)> = builtin
        .entries()
        .filter(|&(k, _)| Position::<7, 6>::from_key(k).unwrap().moves_played() == 1)
        .collect();
    let part = Book::<7, 6>::new(1, Kind::Part { index: 1, count: 3 }, deepest).unwrap();
    let part_file = dir.join("7x6-part.c4book");
    fs::write(&part_file, part.encode()).unwrap();
    let (_, err, code) = c4(&["solve", "--book", part_file.to_str().unwrap(), "44"]);
    assert_eq!(code, 1);
    assert!(err.contains("is part 1 of 3 of a sharded book"), "{err}");
}

#[test]
fn damaged_and_foreign_files_are_clear_errors() {
    let dir = scratch("damaged");
    let good = dir.join("good.c4book");
    assert_eq!(generate(&good, "4", &[]).2, 0);
    let bytes = fs::read(&good).unwrap();
    let write = |name: &str, data: &[u8]| {
        let p = dir.join(name);
        fs::write(&p, data).unwrap();
        p.to_str().unwrap().to_owned()
    };
    let truncated = write("truncated.c4book", &bytes[..bytes.len() - 3]);
    let mut flipped = bytes.clone();
    flipped[60] ^= 0x10;
    let corrupt = write("corrupt.c4book", &flipped);
    let text = write("text.c4book", b"4453 -2\n");
    for (file, message) in [
        (&truncated, "truncated"),
        (&corrupt, "corrupt"),
        (&text, "not a c4 book file"),
    ] {
        let (_, err, code) = book_5x4("info", &[file]);
        assert_eq!(code, 1, "{file}");
        assert!(err.contains(message), "{file}: {err}");
        let (_, err, code) = book_5x4("verify", &[file]);
        assert_eq!(code, 1, "{file}");
        assert!(err.contains(message), "{file}: {err}");
        let (out, err, code) = c4(&["analyze", "--book", file, "44"]);
        assert_eq!(code, 1, "{file}");
        assert!(out.is_empty());
        assert!(err.contains(message), "{file}: {err}");
    }
    // A 5x4 book given to a 7x6 command.
    let (_, err, code) = c4(&["solve", "--book", good.to_str().unwrap(), "44"]);
    assert_eq!(code, 1);
    assert!(err.contains("is for a 5x4 board, not 7x6"), "{err}");
    let (_, err, code) = c4(&["solve", "--book", "/nonexistent/b.c4book", "44"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read /nonexistent/b.c4book"), "{err}");
    // --book and --no-book together are a usage error.
    assert_eq!(c4(&["solve", "--book", "x", "--no-book", "44"]).2, 2);
}

#[test]
fn verify_reports_a_wrong_entry() {
    let dir = scratch("verify");
    let good = dir.join("good.c4book");
    assert_eq!(generate(&good, "4", &[]).2, 0);
    let book = Book::<5, 4>::decode(&fs::read(&good).unwrap()).unwrap();
    let entries: Vec<(u64, Score)> = book.entries().collect();
    let verify = |file: &Path| book_5x4("verify", &[file.to_str().unwrap()]);
    // A deepest score changed so that its parents still agree with their
    // children (it is no parent's best move before or after): only a
    // search can tell.
    let bad = dir.join("bad.c4book");
    let unseen = (0..entries.len()).find_map(|i| {
        if Position::<5, 4>::from_key(entries[i].0)
            .unwrap()
            .moves_played()
            != 4
        {
            return None;
        }
        let mut changed = entries.clone();
        changed[i].1 = if changed[i].1 == 0 { 1 } else { 0 };
        let wrong = Book::<5, 4>::new(4, Kind::Complete, changed.clone()).unwrap();
        check_consistency(&wrong).is_ok().then_some(changed)
    });
    let unseen = unseen.expect("some deepest entry is no parent's best move");
    fs::write(&bad, format::encode(5, 4, 4, Kind::Complete, &unseen)).unwrap();
    let (out, err, code) = verify(&bad);
    assert_eq!(code, 1);
    assert!(out.contains("1 differ"), "{out}");
    assert!(err.contains("the book says"), "{err}");
    // A shallower score changed: refused when the file is loaded.
    let mut contradicting = entries.clone();
    let i = entries
        .iter()
        .position(|&(k, _)| Position::<5, 4>::from_key(k).unwrap().moves_played() == 3)
        .unwrap();
    contradicting[i].1 += 1;
    fs::write(
        &bad,
        format::encode(5, 4, 4, Kind::Complete, &contradicting),
    )
    .unwrap();
    let (out, err, code) = verify(&bad);
    assert_eq!(code, 1);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("inconsistent book: the position '"), "{err}");
    // A sample of the good book.
    let (out, _, code) = book_5x4("verify", &["--sample", "10", good.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("verified 10 of"), "{out}");
}

#[test]
fn the_built_in_book_answers_the_opening_at_once() {
    let (info, _, code) = c4(&["book", "info", "builtin"]);
    assert_eq!(code, 0, "{info}");
    assert!(info.contains("board: 7x6"), "{info}");
    // Witness for the empty board's scores: published solvers (John
    // Tromp's, Pascal Pons's): the first player wins with their 21st stone,
    // score +1, by playing the centre; columns from left to right score
    // -2 -1 0 +1 0 -1 -2.
    assert!(
        info.contains("empty board: 1: X wins with its 21st stone (move 41)"),
        "{info}"
    );
    // The empty board, from the book: no search (0 nodes), well under a
    // second where a search takes a minute.
    let start = Instant::now();
    let (out, _, code) = c4(&["solve", "--stats", ""]);
    assert_eq!(code, 0);
    assert!(out.starts_with(" 1 0 "), "{out}");
    let (out, _, code) = c4(&["analyze", ""]);
    assert_eq!(code, 0);
    assert!(out.contains("best move: 4"), "{out}");
    assert!(out.contains("score   -2  -1   0  +1   0  -1  -2"), "{out}");
    assert!(start.elapsed().as_secs() < 10);
    // Without the book a short end-game search gives the same as with it,
    // and the exhaustive minimax agrees.
    let line = "175424313177774724541246612626552";
    let with = c4(&["solve", line]);
    let without = c4(&["solve", "--no-book", line]);
    assert_eq!(with.0, without.0);
    let naive = Naive::<7, 6>::from_moves(&common::moves_from_string(line));
    let score = minimax(&naive);
    assert_eq!(with.0, format!("{line} {score}\n"));
}

/// The built-in book with every score rewritten to 3 and its checksum
/// recomputed is refused by every command that loads it.
#[test]
fn a_forged_book_is_refused_with_the_first_bad_entry_named() {
    let dir = scratch("forged");
    let book = c4::book::builtin::builtin::<7, 6, u64>().unwrap().unwrap();
    let forged: Vec<(u64, Score)> = book.entries().map(|(key, _)| (key, 3)).collect();
    let file = dir.join("forged.c4book");
    fs::write(
        &file,
        format::encode(7, 6, book.depth(), Kind::Complete, &forged),
    )
    .unwrap();
    let name = file.to_str().unwrap();
    for args in [
        vec!["solve", "--book", name, "44"],
        vec!["analyze", "--book", name, "44"],
        vec!["book", "info", name],
        vec!["book", "verify", "--sample", "1", name],
    ] {
        let (out, err, code) = c4(&args);
        assert_eq!(code, 1, "{args:?}");
        assert!(
            err.contains("inconsistent book: the position '")
                && err.contains("has score 3 but its children give"),
            "{args:?}: {err}"
        );
        assert!(!out.contains(" 3\n"), "{args:?}: {out}");
    }
}

/// `c4 book generate` of a second or two: the 6x4 book of depth 6 (3,550
/// positions searched) into `out`.
fn long_run(out: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin!("c4"));
    command
        .args([
            "book", "generate", "--width", "6", "--height", "4", "--depth", "6",
        ])
        .args(["--tt-size", "4M", "--threads", "2", "--out"])
        .arg(out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    command
}

/// Runs [`long_run`] to its end, which must be a success; its stderr.
fn finish_long_run(out: &Path) -> String {
    let output = long_run(out).output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    stderr
}

#[test]
fn a_killed_run_resumes_to_the_same_file() {
    let dir = scratch("killed");
    finish_long_run(&dir.join("whole.c4book"));
    let whole = fs::read(dir.join("whole.c4book")).unwrap();
    let out = dir.join("killed.c4book");
    // Random delays: `C4_KILL_SEED`, or the time (printed, to replay).
    let seed: u64 = std::env::var("C4_KILL_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_secs()
        });
    eprintln!("kill delays: C4_KILL_SEED={seed}");
    let mut rng = SplitMix64::new(seed);
    // Killed (SIGKILL) four times, whatever it is doing then.
    for _ in 0..4 {
        let mut child = long_run(&out).spawn().unwrap();
        let delay = rng.in_range(20, 700) as u64;
        std::thread::sleep(std::time::Duration::from_millis(delay));
        let _ = child.kill();
        child.wait().unwrap();
        // Never a half-written book: none, or the whole one.
        if let Ok(bytes) = fs::read(&out) {
            assert_eq!(bytes, whole, "after {delay} ms");
        }
    }
    finish_long_run(&out);
    assert_eq!(fs::read(&out).unwrap(), whole);
    assert!(!partial(&out).exists());
}

#[test]
fn ctrl_c_saves_a_valid_checkpoint_exits_130_and_the_run_resumes() {
    let dir = scratch("ctrl-c");
    finish_long_run(&dir.join("whole.c4book"));
    let whole = fs::read(dir.join("whole.c4book")).unwrap();
    let out = dir.join("interrupted.c4book");
    let child = long_run(&out).spawn().unwrap();
    // Once some positions are saved, Ctrl-C.
    let start = Instant::now();
    while fs::metadata(partial(&out)).map_or(0, |m| m.len()) < 20 + 16 * 50 {
        assert!(start.elapsed().as_secs() < 120, "no progress");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: sends a signal to our own child, which has not been waited for.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted: "), "{stderr}");
    assert!(!out.exists());
    // Whole records only, each of a position of the run.
    let bytes = fs::read(partial(&out)).unwrap();
    assert_eq!((bytes.len() - 20) % 16, 0, "{} bytes", bytes.len());
    let job = Job::new(BoardSize::new(6, 4).unwrap(), 6, Shard::WHOLE).unwrap();
    let resumed = job.resume(&bytes).unwrap();
    assert_eq!(resumed.keep, bytes.len());
    assert_eq!(resumed.scores.len(), (bytes.len() - 20) / 16);
    assert!(resumed.scores.len() < job.positions().len());
    let stderr = finish_long_run(&out);
    assert!(stderr.contains("resuming from"), "{stderr}");
    assert_eq!(fs::read(&out).unwrap(), whole);
}

#[test]
fn bounds_from_a_smaller_book_give_the_same_book() {
    let dir = scratch("bounds");
    let small = dir.join("d4.c4book");
    let plain = dir.join("plain.c4book");
    let bounded = dir.join("bounded.c4book");
    for (out, depth) in [(&small, "4"), (&plain, "6")] {
        let (_, stderr, code) = generate(out, depth, &["--threads", "2"]);
        assert_eq!(code, 0, "{stderr}");
    }
    // A depth-4 book holds no parent of a 6-stone position: said, no bounds.
    let (_, stderr, code) = generate(
        &bounded,
        "6",
        &["--threads", "2", "--bounds-from", small.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("gives no bounds"), "{stderr}");
    assert_eq!(fs::read(&plain).unwrap(), fs::read(&bounded).unwrap());
    // A depth-5 book bounds every 6-stone position; the result is the same.
    let five = dir.join("d5.c4book");
    let (_, stderr, code) = generate(&five, "5", &["--threads", "2"]);
    assert_eq!(code, 0, "{stderr}");
    fs::remove_file(&bounded).unwrap();
    let (_, stderr, code) = generate(
        &bounded,
        "6",
        &["--threads", "2", "--bounds-from", five.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("gives no bounds"), "{stderr}");
    assert_eq!(fs::read(&plain).unwrap(), fs::read(&bounded).unwrap());
    // A book of another board, or no book at all, is refused.
    for bad in ["builtin", dir.join("missing").to_str().unwrap()] {
        fs::remove_file(&bounded).ok();
        let (_, stderr, code) = generate(&bounded, "6", &["--bounds-from", bad]);
        assert_eq!(code, 1, "{stderr}");
        assert!(stderr.contains("--bounds-from"), "{stderr}");
    }
}

/// Runs `scripts/build-book.sh ARGS` on 5x4 books with the `c4` under test,
/// `target` as the book to replace: (stderr, exit status).
fn build_book(target: &Path, args: &[&str], env: &[(&str, &str)]) -> (String, i32) {
    let out = std::process::Command::new("bash")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/build-book.sh"
        ))
        .args(args)
        .env("C4_BIN", assert_cmd::cargo::cargo_bin!("c4"))
        .env("C4_BOOK_TARGET", target)
        .envs([("C4_WIDTH", "5"), ("C4_HEIGHT", "4"), ("C4_TT", "4M")])
        .envs([("C4_THREADS", "2"), ("C4_VERIFY_SAMPLE", "all")])
        .env_remove("C4_BOOK_DEPTH")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

#[test]
fn the_book_script_never_installs_a_shallower_or_failing_book() {
    let dir = scratch("script");
    let target = dir.join("5x4.c4book");
    assert_eq!(generate(&target, "5", &[]).2, 0);
    let shipped = fs::read(&target).unwrap();
    let wip = dir.join("wip");
    // A shallower depth, as an argument or from the environment: refused
    // before anything is built.
    let (err, code) = build_book(&target, &["3"], &[]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("depth 3 is shallower than the installed book's (5)"),
        "{err}"
    );
    let (err, code) = build_book(&target, &[], &[("C4_BOOK_DEPTH", "4")]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("shallower"), "{err}");
    assert!(!wip.join("5x4-d4.c4book").exists());
    // A finished run left in wip/ that fails verification: its scores
    // contradict each other.
    fs::create_dir_all(&wip).unwrap();
    let planted = wip.join("5x4-d5.c4book");
    let book = Book::<5, 4>::decode(&shipped).unwrap();
    let forged: Vec<(u64, Score)> = book.entries().map(|(key, _)| (key, 1)).collect();
    fs::write(&planted, format::encode(5, 4, 5, Kind::Complete, &forged)).unwrap();
    let (err, code) = build_book(&target, &[], &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("fails c4 book verify"), "{err}");
    assert!(err.contains("inconsistent book"), "{err}");
    // One whose depth is not what its name says, and shallower.
    assert_eq!(generate(&planted, "4", &[]).2, 0);
    let (err, code) = build_book(&target, &[], &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("has depth 4, not 5"), "{err}");
    assert_eq!(fs::read(&target).unwrap(), shipped, "the book is untouched");
    // With no depth given, a clean run rebuilds the installed depth: the
    // same bytes.
    fs::remove_file(&planted).unwrap();
    let (err, code) = build_book(&target, &[], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("installed"), "{err}");
    assert_eq!(fs::read(&target).unwrap(), shipped);
    // A deeper one is installed (its searches bounded by the installed book).
    let (err, code) = build_book(&target, &["6"], &[]);
    assert_eq!(code, 0, "{err}");
    let deeper = Book::<5, 4>::decode(&fs::read(&target).unwrap()).unwrap();
    assert_eq!(deeper.depth(), 6);
    assert!(!wip.join("5x4-d6.c4book").exists());
}
