//! Building a book across processes with the recipes in `scripts/`: GNU
//! parallel (`scripts/book-parallel.sh`) and a Slurm job array
//! (`scripts/book-slurm.sh`). Each must merge into the same bytes as one
//! `c4 book generate` run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The c4 binary Cargo built for these tests.
const C4: &str = env!("CARGO_BIN_EXE_c4");

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("c4-cluster-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A script of this repository's `scripts/`.
fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(name)
}

/// Runs `bash scripts/NAME ARGS` with `C4` set to the binary under test,
/// plus `envs`, in `dir`; returns its output, checking that it succeeded.
fn run_script(name: &str, args: &[&str], envs: &[(&str, &str)], dir: &Path) -> Output {
    let out = Command::new("bash")
        .arg(script(name))
        .args(args)
        .args(BOARD)
        .env("C4", C4)
        .envs(envs.iter().copied())
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The board and depth of every test: small enough to take a second, big
/// enough that every shard holds positions.
const BOARD: [&str; 4] = ["--width", "5", "--height", "4"];
const DEPTH: &str = "7";

/// The book of one uninterrupted, unsharded run.
fn single_run(dir: &Path) -> Vec<u8> {
    let out = dir.join("single.c4book");
    let status = Command::new(C4)
        .args(["book", "generate", "--depth", DEPTH, "--threads", "1"])
        .args(BOARD)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    std::fs::read(out).unwrap()
}

/// Whether GNU parallel is installed; without it the parallel recipe cannot
/// run. Under CI it is required (`.ci/run` installs it).
fn have_parallel() -> bool {
    let found = Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "GNU parallel is required under CI (.ci/run installs it)"
        );
        println!("skipped: GNU parallel is not installed (apt-get install parallel)");
    }
    found
}

#[test]
fn four_shards_through_gnu_parallel_merge_into_the_single_run_bytes() {
    if !have_parallel() {
        return;
    }
    let dir = scratch("parallel");
    let out = dir.join("sharded.c4book");
    let out_arg = out.to_str().unwrap();
    run_script("book-parallel.sh", &[DEPTH, "4", out_arg], &[], &dir);
    let joblog = std::fs::read_to_string(dir.join("sharded.c4book.parts/joblog")).unwrap();
    assert_eq!(
        joblog.lines().count(),
        5,
        "a header and four shards:\n{joblog}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), single_run(&dir));

    // Run again: the job log says every shard is done, so none runs again,
    // and the merge gives the same book.
    std::fs::remove_file(&out).unwrap();
    run_script("book-parallel.sh", &[DEPTH, "4", out_arg], &[], &dir);
    let joblog = std::fs::read_to_string(dir.join("sharded.c4book.parts/joblog")).unwrap();
    assert_eq!(joblog.lines().count(), 5, "no shard ran twice:\n{joblog}");
    assert_eq!(std::fs::read(&out).unwrap(), single_run(&dir));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_slurm_array_tasks_and_merge_job_give_the_single_run_bytes() {
    let dir = scratch("slurm");
    let out = dir.join("array.c4book");
    // What Slurm does: run the array's tasks (here one after another, in a
    // shuffled order), then the merge job.
    let out_arg = out.to_str().unwrap();
    for k in ["3", "1", "4", "2"] {
        let task = [("SLURM_ARRAY_TASK_ID", k)];
        run_script(
            "book-slurm.sh",
            &["shard", DEPTH, "4", out_arg],
            &task,
            &dir,
        );
    }
    // A task run again after its part is complete returns at once.
    let task = [("SLURM_ARRAY_TASK_ID", "2")];
    let again = run_script(
        "book-slurm.sh",
        &["shard", DEPTH, "4", out_arg],
        &task,
        &dir,
    );
    assert!(String::from_utf8_lossy(&again.stdout).contains("already complete"));
    run_script("book-slurm.sh", &["merge", DEPTH, "4", out_arg], &[], &dir);
    assert_eq!(std::fs::read(&out).unwrap(), single_run(&dir));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn submitting_asks_slurm_for_an_array_and_a_merge_that_waits_for_it() {
    let dir = scratch("submit");
    // A stand-in for `sbatch` that records its arguments and answers a job
    // id, as `sbatch --parsable` does.
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = dir.join("sbatch.log");
    let fake = bin.join("sbatch");
    std::fs::write(
        &fake,
        format!("#!/bin/sh\necho \"$@\" >> '{}'\necho 4242\n", log.display()),
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = Command::new("bash")
        .arg(script("book-slurm.sh"))
        .args([
            "submit",
            "12",
            "1000",
            "big.c4book",
            "--bounds-from",
            "builtin",
        ])
        .env("PATH", path)
        .env("C4_THREADS", "2")
        .env("SBATCH_ARGS", "--partition=long")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let calls = std::fs::read_to_string(&log).unwrap();
    let calls: Vec<&str> = calls.lines().collect();
    assert_eq!(calls.len(), 2, "{calls:?}");
    assert!(calls[0].contains("--partition=long"));
    assert!(calls[0].contains("--array=1-1000") && calls[0].contains("--cpus-per-task=2"));
    assert!(calls[0].contains("shard 12 1000 big.c4book --bounds-from builtin"));
    assert!(calls[1].contains("--dependency=afterok:4242"));
    assert!(calls[1].contains("merge 12 1000 big.c4book --bounds-from builtin"));
    let _ = std::fs::remove_dir_all(dir);
}
