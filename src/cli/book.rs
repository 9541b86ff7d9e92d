//! `c4 book`: generate, merge, describe and verify opening books. The
//! library builds and checks books; this module does the file work: the
//! resumable checkpoint, atomic writes and the progress bar.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, IsTerminal, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::Instant;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use c4::book::format::{self, Fnv64, Kind};
use c4::book::generate::{self, Shard};
use c4::book::{Book, builtin, line_to};
use c4::position::moves_to_string;
use c4::testset::rng::SplitMix64;
use c4::{Position, Score, Solver};

use super::options::{
    BoardArgs, EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE, TableArgs, human_duration, on_board, read_book,
};
use super::output::{describe, warn};

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
where it stopped. The book is written to OUT.tmp, then renamed to OUT.

With --shard K/N the run solves the K-th of N disjoint parts of the deepest
level and writes a part file; `c4 book merge` joins the N parts into the book
(the same bytes as one run without --shard).

Examples:
  c4 book generate --depth 2 --out 7x6-d2.c4book
  c4 book generate --depth 4 --shard 3/16 --out part3.c4book --tt-size 1G")]
pub struct GenerateArgs {
    /// Every position with at most this many stones.
    #[arg(long, value_name = "D")]
    pub depth: usize,
    /// The book file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Worker threads, each with its own table of --tt-size bytes; 0 uses
    /// every core.
    #[arg(long, value_name = "N", default_value_t = 0)]
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
    #[arg(long, value_name = "N", hide = true)]
    pub stop_after: Option<usize>,
    /// Transposition table options.
    #[command(flatten)]
    pub table: TableArgs,
}

/// Arguments of `c4 book merge`.
#[derive(Args, Debug)]
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
pub struct InfoArgs {
    /// The book file (`builtin` for the book built into c4).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Arguments of `c4 book verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The book file (`builtin` for the book built into c4).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Re-solve only N entries drawn at random (all by default).
    #[arg(long, value_name = "N")]
    pub sample: Option<usize>,
    /// Seed of the random sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Transposition table options.
    #[command(flatten)]
    pub table: TableArgs,
}

/// Runs `c4 book`; returns the exit status.
pub fn run(args: &BookArgs) -> u8 {
    on_board!("book", run_on(args: BookArgs))
}

/// Runs a `c4 book` subcommand on a `W` x `H` board.
fn run_on<const W: usize, const H: usize>(args: &BookArgs) -> u8 {
    match &args.command {
        BookCommand::Generate(a) => run_generate::<W, H>(a),
        BookCommand::Merge(a) => run_merge::<W, H>(a),
        BookCommand::Info(a) => run_info::<W, H>(a),
        BookCommand::Verify(a) => run_verify::<W, H>(a),
    }
}

/// Magic bytes of a checkpoint file.
const CHECKPOINT_MAGIC: [u8; 8] = *b"\x89C4PART\n";
/// Bytes of the checkpoint header: magic, width, height, depth, a zero,
/// shard index and count (u32 each).
const CHECKPOINT_HEADER: usize = 20;
/// Bytes of one checkpoint record: key (u64), score (i8), three zeros, and
/// the low 32 bits of the FNV-1a 64 of the first 12 bytes, so that a record
/// torn by a kill is recognised and dropped.
const RECORD: usize = 16;

/// The checkpoint header of a run.
fn checkpoint_header<const W: usize, const H: usize>(depth: usize, shard: Shard) -> Vec<u8> {
    let mut h = CHECKPOINT_MAGIC.to_vec();
    h.extend_from_slice(&[W as u8, H as u8, depth as u8, 0]);
    h.extend_from_slice(&shard.index.to_le_bytes());
    h.extend_from_slice(&shard.count.to_le_bytes());
    debug_assert_eq!(h.len(), CHECKPOINT_HEADER);
    h
}

/// One checkpoint record.
fn record(key: u64, score: Score) -> [u8; RECORD] {
    let mut r = [0u8; RECORD];
    r[..8].copy_from_slice(&key.to_le_bytes());
    r[8] = score as i8 as u8;
    let check = Fnv64::of(&r[..12]) as u32;
    r[12..].copy_from_slice(&check.to_le_bytes());
    r
}

/// The (key, score) of a record, or `None` if its check fails.
fn parse_record(r: &[u8]) -> Option<(u64, Score)> {
    let check = u32::from_le_bytes(r[12..16].try_into().expect("4 bytes"));
    (check == Fnv64::of(&r[..12]) as u32 && r[9..12] == [0, 0, 0]).then(|| {
        let key = u64::from_le_bytes(r[..8].try_into().expect("8 bytes"));
        (key, Score::from(r[8] as i8))
    })
}

/// Opens the checkpoint `path` for appending, creating it with `header` if
/// it does not exist, and returns the scores it already holds. A torn or
/// damaged tail (a record whose check fails, and everything after it) is cut
/// off. A checkpoint of other arguments is an error.
fn open_checkpoint(path: &Path, header: &[u8]) -> Result<(File, HashMap<u64, Score>), String> {
    let name = path.display();
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("cannot open {name}: {e}"))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    let mut done = HashMap::new();
    let keep = if bytes.len() < header.len() && header.starts_with(&bytes) {
        // Nothing usable yet (a kill before the header was written whole).
        0
    } else if !bytes.starts_with(header) {
        return Err(format!(
            "{name} is the checkpoint of another run (other board, depth or shard); \
             delete it or run with the same arguments"
        ));
    } else {
        let mut at = header.len();
        while at + RECORD <= bytes.len() {
            let Some((key, score)) = parse_record(&bytes[at..at + RECORD]) else {
                break;
            };
            done.insert(key, score);
            at += RECORD;
        }
        at
    };
    if keep != bytes.len() {
        file.set_len(keep as u64)
            .map_err(|e| format!("cannot repair {name}: {e}"))?;
        file.seek(io::SeekFrom::End(0))
            .map_err(|e| format!("cannot repair {name}: {e}"))?;
    }
    if keep == 0 {
        file.write_all(header)
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write {name}: {e}"))?;
    }
    Ok((file, done))
}

/// A progress bar on stderr when it is a terminal, hidden otherwise.
fn progress_bar(len: usize, message: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{bar:40}] {pos}/{len} {per_sec} {elapsed} (eta {eta})",
        )
        .expect("the template is valid")
        .progress_chars("=> "),
    );
    bar.set_message(message.to_owned());
    bar
}

/// `c4 book generate` on a `W` x `H` board.
fn run_generate<const W: usize, const H: usize>(args: &GenerateArgs) -> u8 {
    let depth = args.depth;
    if depth > W * H || depth > 255 {
        warn(format_args!(
            "c4 book generate: --depth {depth} is more than the {} cells of the board",
            W * H
        ));
        return EXIT_USAGE;
    }
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let threads = match args.threads {
        0 => thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let mut solvers = Vec::new();
    for _ in 0..threads {
        match Solver::<W, H>::with_table_bytes(args.table.tt_size) {
            Ok(s) => solvers.push(s),
            Err(e) => {
                warn(format_args!("c4 book generate: --tt-size: {e}"));
                return EXIT_USAGE;
            }
        }
    }
    let bounds: Option<Arc<Book<W, H>>> = match &args.bounds_from {
        None => None,
        Some(path) => match read_book_or_builtin(path) {
            Ok(book) => {
                if book.depth() + 1 < depth {
                    warn(format_args!(
                        "c4 book generate: {} has depth {}: it holds no parent of a {depth}-stone position and gives no bounds",
                        path.display(),
                        book.depth()
                    ));
                }
                Some(Arc::new(book))
            }
            Err(message) => {
                warn(format_args!("c4 book generate: --bounds-from: {message}"));
                return EXIT_BAD_INPUT;
            }
        },
    };
    let todo = generate::deepest_positions::<W, H>(depth, shard);
    let mut partial = args.out.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let header = checkpoint_header::<W, H>(depth, shard);
    let (mut checkpoint, mut done) = match open_checkpoint(&partial, &header) {
        Ok(x) => x,
        Err(message) => {
            warn(format_args!("c4 book generate: {message}"));
            return EXIT_BAD_INPUT;
        }
    };
    let wanted: std::collections::HashSet<u64> = todo.iter().map(|p| p.symmetric_key().0).collect();
    if let Some(key) = done.keys().find(|k| !wanted.contains(k)) {
        warn(format_args!(
            "c4 book generate: {} holds a position ({key:#x}) this run does not solve; delete it",
            partial.display()
        ));
        return EXIT_BAD_INPUT;
    }
    let remaining: Vec<Position<W, H>> = todo
        .iter()
        .copied()
        .filter(|p| !done.contains_key(&p.symmetric_key().0))
        .collect();
    if !done.is_empty() {
        warn(format_args!(
            "c4 book generate: resuming from {}: {} of {} positions already solved",
            partial.display(),
            done.len(),
            todo.len()
        ));
    }

    let start = Instant::now();
    let bar = progress_bar(todo.len(), &format!("depth {depth}"));
    bar.set_position(done.len() as u64);
    bar.reset_eta();
    let stop = Arc::new(AtomicBool::new(false));
    let next = Arc::new(AtomicUsize::new(0));
    let remaining = Arc::new(remaining);
    let (tx, rx) = mpsc::channel::<(u64, Score)>();
    for mut solver in solvers {
        let (stop, next, remaining, tx, bounds) = (
            Arc::clone(&stop),
            Arc::clone(&next),
            Arc::clone(&remaining),
            tx.clone(),
            bounds.clone(),
        );
        // Detached: after --stop-after the process ends without waiting for
        // the positions in flight, as a kill would.
        thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(pos) = remaining.get(i) else { break };
                // The table is kept between positions: neighbours share much
                // of their search, and every stored bound stays true.
                let lower = bounds
                    .as_deref()
                    .and_then(|book| book.lower_bound_from_parents(pos));
                let score = match lower {
                    Some(lower) => solver.solve_in(pos, lower, Score::MAX),
                    None => solver.solve(pos),
                };
                if tx.send((pos.symmetric_key().0, score)).is_err() {
                    break;
                }
            }
        });
    }
    drop(tx);
    let mut solved_now = 0;
    for (key, score) in rx {
        if let Err(e) = checkpoint
            .write_all(&record(key, score))
            .and_then(|()| checkpoint.flush())
        {
            warn(format_args!(
                "c4 book generate: cannot write {}: {e}",
                partial.display()
            ));
            return EXIT_BAD_INPUT;
        }
        done.insert(key, score);
        solved_now += 1;
        bar.set_position(done.len() as u64);
        if args.stop_after.is_some_and(|n| solved_now >= n) && done.len() < todo.len() {
            stop.store(true, Ordering::Relaxed);
            bar.finish_and_clear();
            warn(format_args!(
                "c4 book generate: stopped after {solved_now} positions; run again to resume"
            ));
            return EXIT_BAD_INPUT;
        }
    }
    bar.finish_and_clear();
    let _ = checkpoint.sync_all();
    let elapsed = start.elapsed();

    let built = if shard == Shard::WHOLE {
        generate::complete::<W, H>(depth, &done)
    } else {
        generate::part::<W, H>(depth, shard, &done)
    };
    let built = built.and_then(|book| match &bounds {
        Some(bounds) => generate::check_agrees(&book, bounds).map(|()| book),
        None => Ok(book),
    });
    let book = match built {
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

/// `c4 book merge` on a `W` x `H` board.
fn run_merge<const W: usize, const H: usize>(args: &MergeArgs) -> u8 {
    let mut parts = Vec::new();
    for path in &args.parts {
        match read_book::<W, H>(path) {
            Ok(book) => parts.push(book),
            Err(message) => {
                warn(format_args!("c4 book merge: {message}"));
                return EXIT_BAD_INPUT;
            }
        }
    }
    let book = match generate::merge(&parts) {
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

/// The book in the file `path`; `builtin` names the built-in book.
fn read_book_or_builtin<const W: usize, const H: usize>(path: &Path) -> Result<Book<W, H>, String> {
    let bytes = book_bytes(path)?;
    Book::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The bytes of the book file `path`; `builtin` names the built-in book.
fn book_bytes(path: &Path) -> Result<Vec<u8>, String> {
    if path == Path::new("builtin") && !path.exists() {
        return Ok(builtin::BOOK_7X6.to_vec());
    }
    fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// `c4 book info`: what a book file holds. The header is described for any
/// board; the entries are checked and counted for a `W` x `H` book.
fn run_info<const W: usize, const H: usize>(args: &InfoArgs) -> u8 {
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
    if (h.width, h.height) == (W, H) {
        match Book::<W, H>::decode(&bytes) {
            Ok(book) => {
                let mut per_level = vec![0usize; book.depth() + 1];
                let (mut wins, mut draws, mut losses) = (0, 0, 0);
                for (key, score) in book.entries() {
                    let pos = Position::<W, H>::from_key(key).expect("checked keys");
                    per_level[pos.moves_played()] += 1;
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
                text.push_str(&format!("entries by stones: {}\n", levels.join(", ")));
                text.push_str(&format!(
                    "side to move: wins {wins}, draws {draws}, loses {losses}\n"
                ));
                let empty = Position::<W, H>::new();
                if let Some(score) = book.get(&empty) {
                    text.push_str(&format!(
                        "empty board: {score} ({})\n",
                        describe(&empty, score, false)
                    ));
                }
            }
            Err(e) => {
                warn(format_args!("c4 book info: {name}: {e}"));
                code = EXIT_BAD_INPUT;
            }
        }
    } else {
        text.push_str(&format!(
            "entries not checked: this c4 command works on {W}x{H} boards\n"
        ));
    }
    print!("{text}");
    code
}

/// `c4 book verify`: re-solves entries without any book and reports those
/// whose score differs.
fn run_verify<const W: usize, const H: usize>(args: &VerifyArgs) -> u8 {
    let name = args.file.display();
    let book = match read_book_or_builtin::<W, H>(&args.file) {
        Ok(book) => book,
        Err(message) => {
            warn(format_args!("c4 book verify: {message}"));
            return EXIT_BAD_INPUT;
        }
    };
    let mut entries: Vec<(u64, Score)> = book.entries().collect();
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
    let mut solver = match Solver::<W, H>::with_table_bytes(args.table.tt_size) {
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
        let pos = Position::<W, H>::from_key(key).expect("checked keys");
        let got = solver.solve(&pos);
        if got != stored {
            differ += 1;
            let moves = line_to(&pos).map_or(format!("{key:#x}"), |l| moves_to_string(&l));
            bar.suspend(|| {
                warn(format_args!(
                    "c4 book verify: {moves}: the book says {stored}, a search gives {got}"
                ))
            });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_damage_is_seen() {
        let r = record(0x1234_5678_9abc, -7);
        assert_eq!(parse_record(&r), Some((0x1234_5678_9abc, -7)));
        for bit in 0..RECORD * 8 {
            let mut bad = r;
            bad[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(parse_record(&bad), None, "bit {bit}");
        }
        assert_eq!(parse_record(&[0; RECORD]), None);
    }

    #[test]
    fn a_checkpoint_keeps_whole_records_and_cuts_a_torn_tail() {
        let dir = std::env::temp_dir().join(format!("c4-checkpoint-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.partial");
        let header = checkpoint_header::<5, 4>(3, Shard::WHOLE);
        let mut bytes = header.clone();
        bytes.extend_from_slice(&record(5, 1));
        bytes.extend_from_slice(&record(9, -2));
        bytes.extend_from_slice(&record(11, 0)[..10]);
        fs::write(&path, &bytes).unwrap();
        let (_, done) = open_checkpoint(&path, &header).unwrap();
        assert_eq!(done, HashMap::from([(5, 1), (9, -2)]));
        assert_eq!(
            fs::metadata(&path).unwrap().len() as usize,
            header.len() + 2 * RECORD
        );
        // Another run's checkpoint, or a file that is no checkpoint.
        let other = checkpoint_header::<5, 4>(4, Shard::WHOLE);
        assert!(open_checkpoint(&path, &other).is_err());
        fs::write(&path, b"abc").unwrap();
        assert!(open_checkpoint(&path, &header).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
