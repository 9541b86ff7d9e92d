//! `c4 book` end to end on small boards (`--width 5 --height 4`), and the
//! `--book` / `--no-book` options of the solving commands: generation,
//! interruption and resumption, shards and merge, info and verify, damaged
//! and foreign files, the built-in book.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use assert_cmd::Command;

use c4::book::Book;
use c4::book::format::{self, Kind};
use c4::{Position, Score, Solver};

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

fn partial(out: &Path) -> PathBuf {
    PathBuf::from(format!("{}.partial", out.display()))
}

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
    let (info, _, code) = c4(&[
        "book",
        "info",
        "--width",
        "5",
        "--height",
        "4",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(info.contains("board: 5x4\ndepth: 5\n"), "{info}");
    assert!(
        info.contains(&format!("entries: {}\n", book.len())),
        "{info}"
    );
    assert!(info.contains("checksum: "), "{info}");
    assert!(info.contains("empty board: 0 (draw"), "{info}");
    let (v, _, code) = c4(&[
        "book",
        "verify",
        "--width",
        "5",
        "--height",
        "4",
        out.to_str().unwrap(),
    ]);
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
    let builtin = c4::book::builtin::builtin::<7, 6>().unwrap().unwrap();
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
        let (_, err, code) = c4(&["book", "info", "--width", "5", "--height", "4", file]);
        assert_eq!(code, 1, "{file}");
        assert!(err.contains(message), "{file}: {err}");
        let (_, err, code) = c4(&["book", "verify", "--width", "5", "--height", "4", file]);
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
    let mut entries: Vec<(u64, Score)> = book.entries().collect();
    let i = entries
        .iter()
        .position(|&(k, _)| Position::<5, 4>::from_key(k).unwrap().moves_played() == 4)
        .unwrap();
    entries[i].1 = if entries[i].1 == 0 { 1 } else { 0 };
    let bad = dir.join("bad.c4book");
    fs::write(&bad, format::encode(5, 4, 4, Kind::Complete, &entries)).unwrap();
    let (out, err, code) = c4(&[
        "book",
        "verify",
        "--width",
        "5",
        "--height",
        "4",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("1 differ"), "{out}");
    assert!(err.contains("the book says"), "{err}");
    // A sample of the good book.
    let (out, _, code) = c4(&[
        "book",
        "verify",
        "--width",
        "5",
        "--height",
        "4",
        "--sample",
        "10",
        good.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("verified 10 of"), "{out}");
}

#[test]
fn the_built_in_book_answers_the_opening_at_once() {
    let (info, _, code) = c4(&["book", "info", "builtin"]);
    assert_eq!(code, 0, "{info}");
    assert!(info.contains("board: 7x6"), "{info}");
    assert!(
        info.contains("empty board: 1 (X wins with its 21st stone"),
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
    // Without the book a short end-game search gives the same as with it.
    let line = "175424313177774724541246612626552";
    let with = c4(&["solve", line]);
    let without = c4(&["solve", "--no-book", line]);
    assert_eq!(with.0, without.0);
    assert_eq!(with.0, format!("{line} 4\n"));
}

#[test]
fn a_killed_run_resumes_to_the_same_file() {
    let dir = scratch("killed");
    let whole = dir.join("whole.c4book");
    assert_eq!(generate(&whole, "10", &["--threads", "1"]).2, 0);
    let out = dir.join("killed.c4book");
    // Killed (SIGKILL) at three moments, whatever it is doing then.
    for delay in [80, 160, 240] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("c4"))
            .args([
                "book", "generate", "--width", "5", "--height", "4", "--depth", "10",
            ])
            .args(["--tt-size", "4M", "--threads", "2", "--out"])
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay));
        let _ = child.kill();
        child.wait().unwrap();
        // Never a half-written book: none, or the whole one.
        if let Ok(bytes) = fs::read(&out) {
            assert_eq!(bytes, fs::read(&whole).unwrap());
        }
    }
    let (_, stderr, code) = generate(&out, "10", &["--threads", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(fs::read(&out).unwrap(), fs::read(&whole).unwrap());
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
