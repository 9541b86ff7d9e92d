//! `c4 bench`: solve test-set files and print a table of results.
//!
//! Output (stdout): a markdown table with one row per file, or with `--json`
//! one JSON object per file, one per line. Diagnostics (stderr): invalid
//! lines as `FILE line N: error`, mismatches as `FILE line N: moves: expected
//! X, got Y`, unreadable files. Exit status 0 when every line of every file
//! was read and solved to its expected score; 1 if any line was invalid,
//! any score mismatched, or a file could not be read (bad input, reported,
//! and the other files still run) or stdout could not be written; 2 for
//! usage errors (bad options, no set found, a table size that cannot work, a
//! run that does not fit in memory).

use std::fs;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use c4::BoardSize;
use c4::bench::{Bench, BenchConfig, BenchReport, Mode, batch_bytes};
use c4::input::{MAX_LINE_BYTES, strip_byte_order_mark};
use c4::memory::{Need, solver_bytes};
use c4::testset::{TestCase, header_board, most_cases, parse_lines, set_board};

use super::input::BYTE_ORDER_MARK_SKIPPED;
use super::limits::check_memory;
use super::options::{
    BookChoice, EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE, TableArgs, human_duration, load_book,
    parse_count, parse_threads, resolve_threads,
};
use super::output::{after_write_error, warn};

/// Name of the directory of test sets `c4 bench` runs without a file.
const TESTSETS_DIR: &str = "testsets";

/// Arguments of `c4 bench`.
#[derive(Args, Debug)]
#[command(after_help = "\
Output: one markdown table row per file (stdout); invalid lines and
mismatches on stderr, with their line numbers. `mean time` is the mean time
of one solve; `K pos/s` is thousands of nodes searched per second of wall
time (it grows with --threads). Each position is solved from a cleared
transposition table (unless --no-clear).

Memory: about N x (tt-size + 1 MiB) with N threads (each worker's table of
--tt-size, whose pages only searches from the earliest positions take, and
its 1 MiB table), up to 44 times the size of the largest file (its lines,
cases and results), and 8.4 MiB while the built-in book loads. c4 adds this
up before it allocates anything and refuses a run that does not fit in the
memory available.

Exit status: 0 all scores as expected; 1 a mismatch, an invalid line or an
unreadable file; 2 usage error, or a run that does not fit in memory.

Examples:
  c4 bench                                   every set in testsets/
  c4 bench ../shared/testsets/Test_L3_R1     one file
  c4 bench --weak --threads 2 --limit 100 FILE
  c4 bench --json FILE | jq .kpos_per_s")]
pub struct BenchArgs {
    /// Test-set files of `moves score` lines [default: every file in
    /// testsets/, looked for in the current directory, then in the source
    /// tree c4 was built from].
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Solve for win/draw/loss only, compared with the sign of the scores.
    #[arg(long)]
    pub weak: bool,

    /// Run only the first N lines of each file.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub limit: Option<usize>,

    /// Worker threads, each with its own tables (see Memory below); 0 uses
    /// every core.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_threads)]
    pub threads: usize,

    /// Print one JSON object per file instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Keep the table from one position to the next instead of clearing it.
    #[arg(long)]
    pub no_clear: bool,

    /// Run every file twice, with the opening book and without, one row
    /// each (`FILE (book)`, `FILE (no book)`).
    #[arg(long, conflicts_with = "no_book")]
    pub compare_book: bool,

    /// Opening book options (the built-in book by default).
    #[command(flatten)]
    pub book: BookChoice,

    /// Transposition table options.
    #[command(flatten)]
    pub table: TableArgs,

    /// Board size: each set's own, from its `# board WxH` header line.
    #[command(flatten)]
    pub board: SetBoardArgs,
}

/// The board options of `c4 bench`: a set names its board in its header,
/// so they have no default of their own; given, they are the board of the
/// sets without a header and must agree with the headers of the others.
#[derive(Args, Debug, Clone, Copy)]
pub struct SetBoardArgs {
    /// Columns of the board of the sets without a `# board WxH` header
    /// (4 or more, with width x (height + 1) at most 128); a set with a
    /// header must be on its board [default: the header's, or 7].
    #[arg(long, value_name = "W", help_heading = "Board")]
    pub width: Option<usize>,
    /// Rows of the board of the sets without a header (4 or more); a set
    /// with a header must be on its board [default: the header's, or 6].
    #[arg(long, value_name = "H", help_heading = "Board")]
    pub height: Option<usize>,
}

impl SetBoardArgs {
    /// The board of the sets without a header: the one the options give,
    /// 7x6 for an option not given; the usage exit status after saying why
    /// it is not supported.
    fn board(&self) -> Result<BoardSize, u8> {
        let width = self.width.unwrap_or(BoardSize::STANDARD.width());
        let height = self.height.unwrap_or(BoardSize::STANDARD.height());
        BoardSize::new(width, height).map_err(|e| {
            warn(format_args!("c4 bench: --width/--height: {e}"));
            EXIT_USAGE
        })
    }

    /// The board of a set whose header names `header`: the header's, or an
    /// error if an option given says otherwise; without a header, the
    /// options' board `plain`.
    fn for_set(&self, header: Option<BoardSize>, plain: BoardSize) -> Result<BoardSize, String> {
        let Some(found) = header else {
            return Ok(plain);
        };
        let width_differs = self.width.is_some_and(|w| w != found.width());
        let height_differs = self.height.is_some_and(|h| h != found.height());
        if width_differs || height_differs {
            let given: Vec<String> = [("width", self.width), ("height", self.height)]
                .into_iter()
                .filter_map(|(name, value)| value.map(|v| format!("--{name} {v}")))
                .collect();
            return Err(format!(
                "is a set for the {found} board (its header says so), but {} asks for \
                 another; drop the option to run it on {found}",
                given.join(" ")
            ));
        }
        Ok(found)
    }
}

/// What went wrong with one file, for the exit status.
#[derive(Debug, Default)]
struct FileOutcome {
    /// Lines that could not be read.
    invalid_lines: usize,
    /// Cases whose score was not the expected one.
    mismatches: usize,
}

/// One mismatch, for the JSON output.
#[derive(Serialize)]
struct JsonMismatch<'a> {
    /// 1-based line number.
    line: usize,
    /// The move string.
    moves: &'a str,
    /// The expected score (its sign with --weak).
    expected: i32,
    /// The score found.
    got: i32,
}

/// The JSON object printed per file with `--json`.
#[derive(Serialize)]
struct JsonRow<'a> {
    /// The file as given.
    file: String,
    /// The board's size, `WxH`.
    board_size: String,
    /// `strong` or `weak`.
    mode: &'static str,
    /// Worker threads.
    threads: usize,
    /// Table size per worker, in bytes.
    tt_bytes: usize,
    /// Cases solved.
    positions: usize,
    /// Lines that could not be read.
    invalid_lines: usize,
    /// Number of mismatches.
    mismatches: usize,
    /// Mean time of one solve, in microseconds.
    mean_time_us: f64,
    /// Mean nodes per case.
    mean_nodes: f64,
    /// Thousands of nodes per second of wall time.
    kpos_per_s: f64,
    /// Total nodes.
    total_nodes: u64,
    /// The opening book used: `built-in`, a file, or null for none.
    book: Option<String>,
    /// Wall time of the run, in seconds.
    wall_time_s: f64,
    /// The solve times added up, in seconds.
    solve_time_s: f64,
    /// Every mismatch.
    mismatch_details: Vec<JsonMismatch<'a>>,
}

/// Runs `c4 bench`; returns the exit status.
pub fn run(args: &BenchArgs) -> u8 {
    let board = match args.board.board() {
        Ok(board) => board,
        Err(code) => return code,
    };
    let files = if args.files.is_empty() {
        match default_sets(board) {
            Ok(files) => files,
            Err(message) => {
                warn(format_args!("c4 bench: {message}"));
                return EXIT_USAGE;
            }
        }
    } else {
        args.files.clone()
    };
    let config = BenchConfig {
        mode: if args.weak { Mode::Weak } else { Mode::Strong },
        threads: resolve_threads(args.threads),
        table_bytes: args.table.tt_size,
        clear_table: !args.no_clear,
    };
    // The files are read one at a time, each with its cases and results.
    let largest = files
        .iter()
        .filter_map(|file| fs::metadata(file).ok())
        .map(|m| usize::try_from(m.len()).unwrap_or(usize::MAX))
        .max()
        .unwrap_or(0);

    let mut failed = false;
    let mut header_printed = false;
    let mut out = io::stdout().lock();
    // The workers of the board of the last set, kept while the next set is
    // on the same board.
    let mut prepared: Option<(BoardSize, Vec<Variant>)> = None;
    for file in &files {
        let Some((text, on)) = read_set(file, args, board) else {
            failed = true;
            continue;
        };
        if prepared.as_ref().is_none_or(|(last, _)| *last != on) {
            // The previous workers' tables are freed before new ones are made.
            drop(prepared.take());
            match prepare(on, args, &config, largest) {
                Ok(variants) => prepared = Some((on, variants)),
                Err(code) => return code,
            }
        }
        for variant in prepared.iter().flat_map(|(_, variants)| variants) {
            let set = SetText {
                file,
                lines: &text,
                board: on,
            };
            match run_file(&set, args, &config, variant, &mut header_printed, &mut out) {
                Ok(outcome) => {
                    failed |= outcome.invalid_lines > 0 || outcome.mismatches > 0;
                }
                Err(e) => {
                    let code = if failed { EXIT_BAD_INPUT } else { EXIT_OK };
                    return after_write_error("bench", &e, code);
                }
            }
        }
    }
    if failed { EXIT_BAD_INPUT } else { EXIT_OK }
}

/// The memory check, the book and the workers of a run on `board` (with
/// the book and without it for --compare-book), the usage or bad-input exit
/// status after saying why they cannot be had. `largest`: the size of the
/// largest file, in bytes.
fn prepare(
    board: BoardSize,
    args: &BenchArgs,
    config: &BenchConfig,
    largest: usize,
) -> Result<Vec<Variant>, u8> {
    let need = Need {
        solvers: config.threads,
        per_solver: solver_bytes(config.table_bytes, board.key_bits(), 1),
        positions: batch_bytes(largest).saturating_add(
            most_cases(largest).saturating_mul(size_of::<usize>() + size_of::<JsonMismatch>()),
        ),
        book: args.book.memory(board),
    };
    check_memory("bench", &need, "lower --threads or --tt-size")?;
    let book = load_book(&args.book, "bench", board)?;
    let book_name = book.as_ref().map(|_| {
        args.book
            .book
            .as_ref()
            .map_or("built-in".to_owned(), |p| p.display().to_string())
    });
    let mut runs = vec![(String::new(), book_name.clone(), book.clone())];
    if args.compare_book {
        if book.is_none() {
            warn(format_args!(
                "c4 bench: --compare-book: there is no book for the {board} board to compare with"
            ));
            return Err(EXIT_USAGE);
        }
        runs = vec![
            (" (book)".to_owned(), book_name, book),
            (" (no book)".to_owned(), None, None),
        ];
    }
    let mut variants = Vec::new();
    for (suffix, name, book) in runs {
        match Bench::with_book(board, config, book) {
            Ok(bench) => variants.push(Variant {
                suffix,
                book: name,
                bench,
            }),
            Err(e) => {
                warn(format_args!("c4 bench: {e}"));
                return Err(EXIT_USAGE);
            }
        }
    }
    Ok(variants)
}

/// Reads the first lines of the set `file` (those --limit asks for, and the
/// header) and finds its board (`plain` for a set without a header); `None`
/// after saying why it cannot be run.
fn read_set(file: &Path, args: &BenchArgs, plain: BoardSize) -> Option<(Vec<String>, BoardSize)> {
    let name = file.display();
    let limit = args.limit.unwrap_or(usize::MAX);
    let text = match read_set_lines(file, limit.saturating_add(HEADER_SCAN_LINES)) {
        Ok((text, skipped_byte_order_mark)) => {
            if skipped_byte_order_mark {
                warn(format_args!("c4 bench: {name}: {BYTE_ORDER_MARK_SKIPPED}"));
            }
            text
        }
        Err(e) => {
            warn(format_args!("c4 bench: cannot read {name}: {e}"));
            return None;
        }
    };
    let header = match header_board(&text) {
        Ok(header) => header,
        Err(e) => {
            warn(format_args!("c4 bench: {name}: bad board header: {e}"));
            return None;
        }
    };
    match args.board.for_set(header, plain) {
        Ok(board) => Some((text, board)),
        Err(message) => {
            warn(format_args!("c4 bench: {name} {message}"));
            None
        }
    }
}

/// One way of running the files: a bench with or without a book.
struct Variant {
    /// Added to the file's name in the table.
    suffix: String,
    /// The book's name, `None` without a book.
    book: Option<String>,
    /// The workers.
    bench: Bench,
}

/// A set read for running: the file as given, its first lines (see
/// [`read_set`]) and its board.
struct SetText<'a> {
    /// The file, as given.
    file: &'a Path,
    /// Its first lines.
    lines: &'a [String],
    /// Its board.
    board: BoardSize,
}

/// Runs and reports `set` on `out`; an error if `out` could not be written.
fn run_file(
    set: &SetText,
    args: &BenchArgs,
    config: &BenchConfig,
    variant: &Variant,
    header_printed: &mut bool,
    out: &mut impl Write,
) -> io::Result<FileOutcome> {
    let SetText {
        file,
        lines: text,
        board,
    } = *set;
    let bench = &variant.bench;
    let name = file.display();
    let limit = args.limit.unwrap_or(usize::MAX);
    let lines = text.iter().take(limit);
    let mut outcome = FileOutcome::default();
    let mut cases: Vec<TestCase> = Vec::new();
    let mut line_numbers = Vec::new();
    for line in parse_lines(board, lines) {
        match line.result {
            Ok(case) => {
                cases.push(case);
                line_numbers.push(line.number);
            }
            Err(e) => {
                warn(format_args!("{name} line {}: {e}", line.number));
                outcome.invalid_lines += 1;
            }
        }
    }

    let label = file_label(file) + &variant.suffix;
    let report = run_with_progress(bench, &cases, &label);
    let mut mismatch_details = Vec::new();
    for ((case, result), &line) in cases.iter().zip(&report.results).zip(&line_numbers) {
        if !result.is_match() {
            warn(format_args!(
                "{name} line {line}: {}: expected {}, got {}",
                case.moves, result.expected, result.got
            ));
            mismatch_details.push(JsonMismatch {
                line,
                moves: &case.moves,
                expected: result.expected,
                got: result.got,
            });
        }
    }
    outcome.mismatches = report.summary.mismatches;

    let s = &report.summary;
    if args.json {
        let row = JsonRow {
            file: file.display().to_string(),
            board_size: board.to_string(),
            mode: match config.mode {
                Mode::Strong => "strong",
                Mode::Weak => "weak",
            },
            threads: config.threads,
            tt_bytes: config.table_bytes,
            positions: s.positions,
            invalid_lines: outcome.invalid_lines,
            mismatches: s.mismatches,
            mean_time_us: s.mean_time().as_secs_f64() * 1e6,
            mean_nodes: s.mean_nodes(),
            kpos_per_s: s.kpos_per_s(),
            total_nodes: s.total_nodes,
            book: variant.book.clone(),
            wall_time_s: s.wall_time.as_secs_f64(),
            solve_time_s: s.solve_time.as_secs_f64(),
            mismatch_details,
        };
        writeln!(
            out,
            "{}",
            serde_json::to_string(&row).expect("a JSON row always serializes")
        )?;
    } else {
        if !*header_printed {
            writeln!(
                out,
                "| set | board | positions | mismatches | mean time | mean nodes | K pos/s |"
            )?;
            writeln!(out, "|---|---|---:|---:|---:|---:|---:|")?;
            *header_printed = true;
        }
        writeln!(
            out,
            "| {} | {board} | {} | {} | {} | {} | {:.0} |",
            label,
            s.positions,
            s.mismatches,
            human_duration(s.mean_time()),
            human_count(s.mean_nodes()),
            s.kpos_per_s()
        )?;
    }
    out.flush()?;
    Ok(outcome)
}

/// Runs `cases`, with a progress bar on stderr when it is a terminal.
fn run_with_progress(bench: &Bench, cases: &[TestCase], label: &str) -> BenchReport {
    if !std::io::stderr().is_terminal() {
        return bench.run(cases, |_| {});
    }
    let bar = ProgressBar::new(cases.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {elapsed} (eta {eta})")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar.set_message(label.to_owned());
    let report = bench.run(cases, |done| bar.set_position(done as u64));
    bar.finish_and_clear();
    report
}

/// The name a file goes by in the table: its file name.
fn file_label(file: &Path) -> String {
    file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Whether the set in `path` is on `board` (by its header; 7x6 without
/// one). An unreadable file counts as on the board, so that running it
/// reports why it cannot be read.
fn on_board(path: &Path, board: BoardSize) -> bool {
    match read_set_lines(path, HEADER_SCAN_LINES) {
        Ok((text, _)) => set_board(&text) == Ok(board),
        Err(_) => true,
    }
}

/// Lines read from the top of a set for its board header, beyond those a
/// `--limit` asks for (the header comes before the first position).
const HEADER_SCAN_LINES: usize = 64;

/// The most bytes of one line `c4 bench` reads past the line-length limit
/// while looking for its end: a longer line means the file is no test set
/// (`/dev/zero`, a binary), and reading stops there.
const SKIP_LIMIT: u64 = 1 << 20;

/// The first `max_lines` lines of the test set `path`, without their line
/// endings, read so that memory stays bounded whatever the file holds: a
/// line longer than [`MAX_LINE_BYTES`] keeps its first bytes (the parser
/// then reports it as that line's error), invalid UTF-8 becomes U+FFFD (an
/// invalid column, named by its character), and a line that does not end
/// within [`SKIP_LIMIT`] bytes ends the reading with an error. A UTF-8
/// byte-order mark at the start is skipped: the flag says so.
fn read_set_lines(path: &Path, max_lines: usize) -> Result<(Vec<String>, bool), String> {
    let file = fs::File::open(path).map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(file);
    let mut lines = Vec::new();
    let mut bytes = Vec::new();
    let mut skipped_byte_order_mark = false;
    while lines.len() < max_lines {
        bytes.clear();
        let read = (&mut reader)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| e.to_string())?;
        if read == 0 {
            break;
        }
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
        } else if bytes.len() > MAX_LINE_BYTES {
            // Skip the rest of an over-long line, up to its end.
            let mut rest = Vec::new();
            (&mut reader)
                .take(SKIP_LIMIT)
                .read_until(b'\n', &mut rest)
                .map_err(|e| e.to_string())?;
            if rest.last() != Some(&b'\n') && rest.len() as u64 == SKIP_LIMIT {
                return Err(format!(
                    "line {} is longer than {} bytes: not a test set",
                    lines.len() + 1,
                    SKIP_LIMIT
                ));
            }
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        let (line, skipped) = match lines.is_empty() {
            true => strip_byte_order_mark(&bytes),
            false => (&bytes[..], false),
        };
        skipped_byte_order_mark |= skipped;
        lines.push(String::from_utf8_lossy(line).into_owned());
    }
    Ok((lines, skipped_byte_order_mark))
}

/// Every test set of the repository's `testsets/` directory on `board`, sorted by name:
/// every regular file but the hidden ones and the `.md` documentation.
fn default_sets(board: BoardSize) -> Result<Vec<PathBuf>, String> {
    let here = PathBuf::from(TESTSETS_DIR);
    let dir = if here.is_dir() {
        here
    } else {
        let built_from = Path::new(env!("CARGO_MANIFEST_DIR")).join(TESTSETS_DIR);
        if !built_from.is_dir() {
            return Err(format!(
                "no FILE given and no {TESTSETS_DIR}/ directory here or in {}",
                env!("CARGO_MANIFEST_DIR")
            ));
        }
        built_from
    };
    let entries = fs::read_dir(&dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.is_file() && is_test_set(path) && on_board(path, board))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!(
            "no test set for the {board} board in {}",
            dir.display()
        ));
    }
    Ok(files)
}

/// Whether a file of the test-set directory is a set (not a hidden file or
/// a `.md` document).
fn is_test_set(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    !name.starts_with('.') && path.extension().is_none_or(|ext| ext != "md")
}

/// A mean count: one decimal below 100, whole numbers with thousands
/// separators above (`6.3`, `1,234,567`).
fn human_count(n: f64) -> String {
    if n < 100.0 {
        return format!("{n:.1}");
    }
    let digits = format!("{n:.0}");
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_with_separators() {
        assert_eq!(human_count(6.26), "6.3");
        assert_eq!(human_count(999.4), "999");
        assert_eq!(human_count(1_234_567.0), "1,234,567");
        assert_eq!(human_count(100.0), "100");
    }

    #[test]
    fn test_sets_are_not_docs_or_hidden() {
        assert!(is_test_set(Path::new("testsets/end-easy.txt")));
        assert!(is_test_set(Path::new("testsets/Test_L3_R1")));
        assert!(!is_test_set(Path::new("testsets/README.md")));
        assert!(!is_test_set(Path::new("testsets/.gitkeep")));
    }
}
