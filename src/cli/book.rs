//! `c4 book`: generate, merge, describe and verify opening books. The
//! library builds and checks books ([`c4::book_builder`]); this module parses
//! the arguments, keeps the files (the checkpoint, atomic writes), catches
//! Ctrl-C and shows progress.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, IsTerminal, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use c4::book::builtin;
use c4::book::format::{self, Kind};
use c4::book_builder::{self, Job, Shard, run};
use c4::memory::{Need, solver_bytes};
use c4::rng::SplitMix64;
use c4::rules::moves_to_string;
use c4::{AnyBook, BoardSize, Game, Score, engine};

use super::limits::check_memory;
use super::options::{
    BoardArgs, EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE, TableArgs, human_duration, parse_count,
    parse_threads, parse_u64, read_any_book, read_book_bytes, resolve_threads,
};
use super::output::warn;
use c4::report::describe;

/// Exit status of a run stopped by Ctrl-C: 128 + SIGINT, as shells report a
/// process the signal ended.
const EXIT_INTERRUPTED: u8 = 130;

/// Writes `bytes` to `path` atomically: to a temporary file beside it,
/// synced, then renamed over `path`. A crash leaves the old file or the new
/// one, never a half-written one.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut file = File::create(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    fs::rename(&tmp, path)
}

/// Arguments of `c4 book`.
#[derive(Args, Debug)]
#[command(after_help = "\
An opening book holds the score of every position up to a depth (a number
of stones), so that the solving commands answer them without a search; c4
has one built in for 7x6 (depth 9) and `--book FILE` uses another. A book
records its board: give --width and --height before or after the
subcommand for a book of another board.

Memory: each subcommand's --help says what it takes.

Examples:
  c4 book info builtin                         what the built-in book holds
  c4 book generate --depth 2 --out 7x6-d2.c4book
  c4 book verify builtin --sample 100          re-solve 100 entries
  c4 book merge part*.c4book --out 7x6-d8.c4book
  c4 solve --book 7x6-d2.c4book 4453           solve with another book")]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: BookCommand,
    /// Board size: a book records its board and is refused on another.
    #[command(flatten)]
    pub board: BoardArgs,
}

/// The `c4 book` subcommands.
#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Solve every position up to a depth and write a book file.
    Generate(GenerateArgs),
    /// Join the parts made with `generate --shard` into one book.
    Merge(MergeArgs),
    /// Describe a book file.
    Info(InfoArgs),
    /// Re-solve a book's entries and report any that differ.
    Verify(VerifyArgs),
}

/// Arguments of `c4 book generate`.
#[derive(Args, Debug)]
#[command(after_help = "\
Only the positions with exactly DEPTH stones are searched; every shallower
score follows from its children. Progress is saved in OUT.partial after every
position: killed and started again with the same arguments, the run goes on
where it stopped. Ctrl-C stops it cleanly (the positions in flight are
finished and saved; a second Ctrl-C ends it at once) with exit status 130.
The book is written to OUT.tmp, then renamed to OUT.

Memory: about N x (tt-size + 1 MiB) with N threads (each worker has its own
solver: a table of --tt-size, whose pages only searches from the earliest
positions take, and a 1 MiB table), plus the positions of the levels up to
DEPTH and the --bounds-from book. c4 adds up the tables before it allocates
them and refuses a run that does not fit in the memory available.

With --shard K/N the run solves the K-th of N disjoint parts of the deepest
level and writes a part file; `c4 book merge` joins the N parts into the book
(the same bytes as one run without --shard).

Examples:
  c4 book generate --depth 2 --out 7x6-d2.c4book
  c4 book generate --depth 4 --shard 3/16 --out part3.c4book --tt-size 1G")]
pub struct GenerateArgs {
    /// Every position with at most this many stones.
    #[arg(long, value_name = "D", value_parser = parse_count)]
    pub depth: usize,
    /// The book file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Worker threads, each with its own table of --tt-size bytes; 0 uses
    /// every core.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Generate only part K of N (1 <= K <= N) and write it as a part file.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Take lower bounds from this book (`builtin` for the built-in one):
    /// a position scores at least minus any parent's score there, so a book
    /// of depth D-1 saves the probes below that bound (a quarter of the time
    /// at depth 9). Its scores must be right: the new book is checked
    /// against it before it is written, but a wrong bound can go unseen.
    #[arg(long, value_name = "BOOK")]
    pub bounds_from: Option<PathBuf>,
    /// Stop after solving N positions, as if killed (to test resuming).
    #[arg(long, value_name = "N", hide = true, value_parser = parse_count)]
    pub stop_after: Option<usize>,
    /// Transposition table options.
    #[command(flatten)]
    pub table: TableArgs,
}

/// Arguments of `c4 book merge`.
#[derive(Args, Debug)]
#[command(after_help = "\
The parts are the files `c4 book generate --shard K/N` wrote, every K from
1 to N once, in any order; they may come from several machines. Each part
is checked as it is read (its header, its checksum, that it belongs to the
same job as the others), and the book written is the same, byte for byte,
as one run without --shard. OUT is written to OUT.tmp, then renamed.

Memory: about 160 bytes per entry of the book made, for the parts, their
entries decoded and the book (a 5x4 book of depth 12, 216,929 entries, from
two parts: 39 MiB at most). Nothing is solved.

Exit status: 0 when the book was written; 1 for a part that cannot be read,
is no part, or does not fit with the others, or a book that cannot be
written; 2 for a bad command line.

Examples:
  c4 book merge part1.c4book part2.c4book --out 7x6-d2.c4book
  c4 book merge part*.c4book --out 7x6-d8.c4book   every part of one job
  c4 book merge --width 5 --height 4 5x4-part*.c4book --out 5x4-d8.c4book")]
pub struct MergeArgs {
    /// The part files, every shard of one job exactly once, in any order.
    #[arg(value_name = "PART", required = true)]
    pub parts: Vec<PathBuf>,
    /// The book file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// Arguments of `c4 book info`.
#[derive(Args, Debug)]
#[command(after_help = "\
Prints the header of the file (format version, board, depth, whether it is
a complete book or one part of a sharded one, entries, size, checksum), and
for a book of the board asked for (7x6 unless --width and --height say
otherwise), its entries counted by stones and by outcome, and the empty
board's score in words. The header, the size and the checksum are checked
for a book of any board; for a book of the board asked for, also that
every score agrees with the scores of its children.

Memory: about 80 bytes per entry while they are checked and counted
(`c4 book info builtin`, 353,893 entries: 32 MiB at most). Nothing is
solved.

Exit status: 0 when the file is a valid book; 1 for a file that cannot be
read or is no valid book; 2 for a bad command line.

Examples:
  c4 book info builtin                       the book built into c4
  c4 book info 7x6-d2.c4book                 a book made with `c4 book generate`
  c4 book info --width 5 --height 4 5x4-d8.c4book")]
pub struct InfoArgs {
    /// The book file (`builtin` for the book built into c4).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Arguments of `c4 book verify`.
#[derive(Args, Debug)]
#[command(after_help = "\
Loading the book already checks that every score agrees with the scores
of its children in the book; verify then solves each entry (or --sample N
entries drawn at random) again from scratch, without any book, and names
every position whose score differs on stderr. The deepest entries take the
most time: the built-in book's 353,893 entries take hours, a sample of 100
a few seconds.

Memory: about tt-size + 1 MiB for the solver (its table of --tt-size,
whose pages only searches from positions near the start of a game take,
and a 1 MiB table), plus about 50 bytes per entry of the book while it
loads (`c4 book verify builtin --sample 10`: 22 MiB at most). c4 adds up
the solver's tables before it allocates them and refuses a run that does
not fit in the memory available.

Exit status: 0 when every entry verified agrees; 1 when one differs, or
for a file that cannot be read or is no valid book; 2 for a bad command
line, or a run that does not fit in memory.

Examples:
  c4 book verify builtin --sample 100        100 entries of the built-in book
  c4 book verify 7x6-d2.c4book               every entry of a book file
  c4 book verify builtin --sample 1000 --seed 7 --tt-size 16M")]
pub struct VerifyArgs {
    /// The book file (`builtin` for the book built into c4).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Re-solve only N entries drawn at random (all by default).
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub sample: Option<usize>,
    /// Seed of the random sample.
    #[arg(long, default_value_t = 1, value_parser = parse_u64)]
    pub seed: u64,
    /// Transposition table options.
    #[command(flatten)]
    pub table: TableArgs,
}

/// Runs `c4 book`; returns the exit status.
pub fn run(args: &BookArgs) -> u8 {
    let board = match args.board.board("book") {
        Ok(board) => board,
        Err(code) => return code,
    };
    match &args.command {
        BookCommand::Generate(a) => run_generate(board, a),
        BookCommand::Merge(a) => run_merge(board, a),
        BookCommand::Info(a) => run_info(board, a),
        BookCommand::Verify(a) => run_verify(board, a),
    }
}

/// A flag Ctrl-C sets. A second Ctrl-C ends the process at once with
/// [`EXIT_INTERRUPTED`]: the checkpoint is valid at every moment (a torn
/// last record is cut when the run resumes). The exit is registered first,
/// so that it fires only once the flag is already set.
fn interrupt_flag() -> io::Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    signal_hook::flag::register_conditional_shutdown(
        libc::SIGINT,
        i32::from(EXIT_INTERRUPTED),
        Arc::clone(&flag),
    )?;
    signal_hook::flag::register(libc::SIGINT, Arc::clone(&flag))?;
    Ok(flag)
}

/// Opens the checkpoint `path` of `job` for appending, creating it if it
/// does not exist, and returns the scores it already holds. A torn tail is
/// cut off; a checkpoint of another run, or one longer than this run can
/// write (checked before it is read), is an error.
fn open_checkpoint(path: &Path, job: &Job) -> Result<(File, HashMap<u128, Score>), String> {
    let name = path.display();
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("cannot open {name}: {e}"))?;
    let mut bytes = Vec::new();
    (&mut file)
        .take(job.max_checkpoint_bytes().saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    let resumed = job
        .resume(&bytes)
        .map_err(|e| format!("{name}: {e}; delete it or run with the same arguments"))?;
    if resumed.keep != bytes.len() {
        file.set_len(resumed.keep as u64)
            .map_err(|e| format!("cannot repair {name}: {e}"))?;
    }
    if resumed.keep == 0 {
        file.write_all(&job.checkpoint_header())
            .map_err(|e| format!("cannot write {name}: {e}"))?;
    }
    Ok((file, resumed.scores))
}

/// A progress bar on stderr when it is a terminal, hidden otherwise.
fn progress_bar(len: usize, message: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {per_sec} {elapsed} (eta {eta})")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(message.to_owned());
    bar
}

/// `c4 book generate` on `board`.
fn run_generate(board: BoardSize, args: &GenerateArgs) -> u8 {
    // First, so that from the first checkpoint byte on Ctrl-C stops cleanly.
    let stop = match interrupt_flag() {
        Ok(flag) => flag,
        Err(e) => {
            warn(format_args!("c4 book generate: cannot catch Ctrl-C: {e}"));
            return EXIT_BAD_INPUT;
        }
    };
    let depth = args.depth;
    let job = match Job::new(board, depth, args.shard.unwrap_or(Shard::WHOLE)) {
        Ok(job) => job,
        Err(e) => {
            warn(format_args!("c4 book generate: --depth: {e}"));
            return EXIT_USAGE;
        }
    };
    let threads = resolve_threads(args.threads);
    let need = Need {
        solvers: threads,
        per_solver: solver_bytes(args.table.tt_size, board.key_bits(), 1),
        positions: 0,
        book: 0,
    };
    if let Err(code) = check_memory("book generate", &need, "lower --threads or --tt-size") {
        return code;
    }
    let pool = match run::workers(board, threads, args.table.tt_size) {
        Ok(pool) => pool,
        Err(e) => {
            warn(format_args!("c4 book generate: --tt-size: {e}"));
            return EXIT_USAGE;
        }
    };
    let bounds: Option<AnyBook> = match &args.bounds_from {
        None => None,
        Some(path) => match read_book_or_builtin(board, path) {
            Ok(book) => {
                if book.depth() + 1 < depth {
                    warn(format_args!(
                        "c4 book generate: {} has depth {}: it holds no parent of a {depth}-stone position and gives no bounds",
                        path.display(),
                        book.depth()
                    ));
                }
                Some(book)
            }
            Err(message) => {
                warn(format_args!("c4 book generate: --bounds-from: {message}"));
                return EXIT_BAD_INPUT;
            }
        },
    };
    let mut partial = args.out.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let (mut checkpoint, resumed) = match open_checkpoint(&partial, &job) {
        Ok(x) => x,
        Err(message) => {
            warn(format_args!("c4 book generate: {message}"));
            return EXIT_BAD_INPUT;
        }
    };
    let total = job.positions().len();
    if !resumed.is_empty() {
        warn(format_args!(
            "c4 book generate: resuming from {}: {} of {total} positions already solved",
            partial.display(),
            resumed.len(),
        ));
    }

    let start = Instant::now();
    let bar = progress_bar(total, &format!("depth {depth}"));
    bar.set_position(resumed.len() as u64);
    bar.reset_eta();
    let mut done = resumed.clone();
    let mut write_error = None;
    let mut stopped_after = false;
    let outcome = job.solve(&pool, bounds.as_ref(), &resumed, &stop, |solved| {
        if let Err(e) = checkpoint.write_all(&job.checkpoint_record(solved)) {
            write_error = Some(e);
            return ControlFlow::Break(());
        }
        done.insert(solved.key, solved.score);
        bar.set_position(done.len() as u64);
        let stop_here = args
            .stop_after
            .is_some_and(|n| done.len() - resumed.len() >= n);
        if stop_here && done.len() < total {
            stopped_after = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    bar.finish_and_clear();
    let solved_now = done.len() - resumed.len();
    if let Some(e) = write_error {
        warn(format_args!(
            "c4 book generate: cannot write {}: {e}",
            partial.display()
        ));
        return EXIT_BAD_INPUT;
    }
    let _ = checkpoint.sync_all();
    if stopped_after {
        warn(format_args!(
            "c4 book generate: stopped after {solved_now} positions; run again to resume"
        ));
        return EXIT_BAD_INPUT;
    }
    if outcome.stopped {
        warn(format_args!(
            "c4 book generate: interrupted: {} of {total} positions solved and saved in {}; run again to resume",
            done.len(),
            partial.display()
        ));
        return EXIT_INTERRUPTED;
    }
    let elapsed = start.elapsed();

    let book = match job.finish(&done, bounds.as_ref()) {
        Ok(book) => book,
        Err(e) => {
            warn(format_args!("c4 book generate: {e}"));
            return EXIT_BAD_INPUT;
        }
    };
    let bytes = book.encode();
    if let Err(e) = write_atomically(&args.out, &bytes) {
        warn(format_args!(
            "c4 book generate: cannot write {}: {e}",
            args.out.display()
        ));
        return EXIT_BAD_INPUT;
    }
    let _ = fs::remove_file(&partial);
    let what = match book.kind() {
        Kind::Complete => "book".to_owned(),
        Kind::Part { index, count } => format!("part {index}/{count}"),
    };
    println!(
        "wrote {}: {what} of depth {depth}, {} entries, {} bytes; searched {} positions in {} ({} thread{})",
        args.out.display(),
        book.len(),
        bytes.len(),
        solved_now,
        human_duration(elapsed),
        threads,
        if threads == 1 { "" } else { "s" }
    );
    EXIT_OK
}

/// `c4 book merge` on `board`.
fn run_merge(board: BoardSize, args: &MergeArgs) -> u8 {
    let mut parts = Vec::new();
    for path in &args.parts {
        match read_any_book(board, path) {
            Ok(book) => parts.push(book),
            Err(message) => {
                warn(format_args!("c4 book merge: {message}"));
                return EXIT_BAD_INPUT;
            }
        }
    }
    let book = match book_builder::merge(&parts) {
        Ok(book) => book,
        Err(e) => {
            warn(format_args!("c4 book merge: {e}"));
            return EXIT_BAD_INPUT;
        }
    };
    let bytes = book.encode();
    if let Err(e) = write_atomically(&args.out, &bytes) {
        warn(format_args!(
            "c4 book merge: cannot write {}: {e}",
            args.out.display()
        ));
        return EXIT_BAD_INPUT;
    }
    println!(
        "wrote {}: book of depth {}, {} entries, {} bytes, from {} parts",
        args.out.display(),
        book.depth(),
        book.len(),
        bytes.len(),
        parts.len()
    );
    EXIT_OK
}

/// The book of `board` in the file `path`; `builtin` names the built-in
/// book.
fn read_book_or_builtin(board: BoardSize, path: &Path) -> Result<AnyBook, String> {
    let bytes = book_bytes(path)?;
    AnyBook::decode(board, &bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The bytes of the book file `path`; `builtin` names the built-in book.
fn book_bytes(path: &Path) -> Result<Vec<u8>, String> {
    if path == Path::new("builtin") && !path.exists() {
        return Ok(builtin::BOOK_7X6.to_vec());
    }
    read_book_bytes(path)
}

/// What `c4 book info` says of a book's entries: how many of each number of
/// stones, the outcomes for the side to move, and the empty board's score.
fn describe_entries(book: &AnyBook) -> String {
    let mut per_level = vec![0usize; book.depth() + 1];
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for (key, score) in book.entries() {
        let stones = Game::from_key(book.board(), key).map(|p| p.moves_played());
        if let Some(n) = stones.and_then(|m| per_level.get_mut(m)) {
            *n += 1;
        }
        match score.signum() {
            1 => wins += 1,
            0 => draws += 1,
            _ => losses += 1,
        }
    }
    let levels: Vec<String> = per_level
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(m, n)| format!("{m}: {n}"))
        .collect();
    let mut text = format!("entries by stones: {}\n", levels.join(", "));
    text.push_str(&format!(
        "side to move: wins {wins}, draws {draws}, loses {losses}\n"
    ));
    let empty = Game::new(book.board());
    if let Some(score) = book.get(&empty) {
        text.push_str(&format!(
            "empty board: {score}: {}\n",
            describe(&empty, score, false)
        ));
    }
    text
}

/// `c4 book info`: what a book file holds. The header is described for any
/// board; the entries are checked and counted for a book of `board`.
fn run_info(board: BoardSize, args: &InfoArgs) -> u8 {
    let name = args.file.display();
    let bytes = match book_bytes(&args.file) {
        Ok(b) => b,
        Err(message) => {
            warn(format_args!("c4 book info: {message}"));
            return EXIT_BAD_INPUT;
        }
    };
    let raw = match format::decode_raw(&bytes) {
        Ok(raw) => raw,
        Err(e) => {
            warn(format_args!("c4 book info: {name}: {e}"));
            return EXIT_BAD_INPUT;
        }
    };
    let h = raw.header;
    let mut text = format!(
        "file: {name}\nformat: c4 book, version {}\nboard: {}x{}\ndepth: {}\n",
        h.version, h.width, h.height, h.depth
    );
    text.push_str(&match h.kind {
        Kind::Complete => format!(
            "contents: complete book, every position with at most {} stone{}\n",
            h.depth,
            if h.depth == 1 { "" } else { "s" }
        ),
        Kind::Part { index, count } => format!(
            "contents: part {index} of {count} of a sharded book (positions with {} stones); join with `c4 book merge`\n",
            h.depth
        ),
    });
    text.push_str(&format!(
        "entries: {}\nsize: {} bytes ({:.2} bytes per entry)\nchecksum: {:016x} (ok)\n",
        h.entries,
        bytes.len(),
        if h.entries == 0 {
            0.0
        } else {
            h.payload_bytes as f64 / h.entries as f64
        },
        h.checksum
    ));
    let mut code = EXIT_OK;
    if (h.width, h.height) == (board.width(), board.height()) {
        match AnyBook::decode(board, &bytes) {
            Ok(book) => text.push_str(&describe_entries(&book)),
            Err(e) => {
                warn(format_args!("c4 book info: {name}: {e}"));
                code = EXIT_BAD_INPUT;
            }
        }
    } else {
        text.push_str(&format!(
            "entries not checked: this c4 command works on {board} boards\n"
        ));
    }
    print!("{text}");
    code
}

/// `c4 book verify`: re-solves entries without any book and reports those
/// whose score differs. Loading the book has already checked that every
/// score with children in the book agrees with theirs.
fn run_verify(board: BoardSize, args: &VerifyArgs) -> u8 {
    let name = args.file.display();
    let book = match read_book_or_builtin(board, &args.file) {
        Ok(book) => book,
        Err(message) => {
            warn(format_args!("c4 book verify: {message}"));
            return EXIT_BAD_INPUT;
        }
    };
    let mut entries: Vec<(u128, Score)> = book.entries();
    if let Some(n) = args.sample
        && n < entries.len()
    {
        // A partial Fisher-Yates shuffle: the first n are a uniform sample.
        let mut rng = SplitMix64::new(args.seed);
        for i in 0..n {
            let j = i + rng.below(entries.len() - i);
            entries.swap(i, j);
        }
        entries.truncate(n);
        entries.sort_unstable();
    }
    let need = Need {
        solvers: 1,
        per_solver: solver_bytes(args.table.tt_size, board.key_bits(), 1),
        positions: 0,
        book: 0,
    };
    if let Err(code) = check_memory("book verify", &need, "lower --tt-size") {
        return code;
    }
    let mut solver = match engine::new(board, args.table.tt_size) {
        Ok(s) => s,
        Err(e) => {
            warn(format_args!("c4 book verify: --tt-size: {e}"));
            return EXIT_USAGE;
        }
    };
    let bar = progress_bar(entries.len(), "verify");
    let start = Instant::now();
    let mut differ = 0;
    for (i, &(key, stored)) in entries.iter().enumerate() {
        let verdict = match Game::from_key(board, key) {
            None => Some(format!("{key:#x} is not a position")),
            Some(pos) => {
                let got = solver.solve(&pos);
                (got != stored).then(|| {
                    format!(
                        "{}: the book says {stored}, a search gives {got}",
                        pos.line()
                            .map_or(format!("{key:#x}"), |l| moves_to_string(&l))
                    )
                })
            }
        };
        if let Some(message) = verdict {
            differ += 1;
            bar.suspend(|| warn(format_args!("c4 book verify: {message}")));
        }
        bar.set_position(i as u64 + 1);
    }
    bar.finish_and_clear();
    println!(
        "verified {} of {} entries of {name} in {}: {}",
        entries.len(),
        book.len(),
        human_duration(start.elapsed()),
        if differ == 0 {
            "all agree".to_owned()
        } else {
            format!("{differ} differ")
        }
    );
    if differ == 0 { EXIT_OK } else { EXIT_BAD_INPUT }
}
