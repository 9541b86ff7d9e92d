//! What the commands share: the board, table, threads and book options,
//! the solvers a command runs on, and durations told in words.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use c4::book::builtin;
use c4::book::format::{FormatError, HEADER_BYTES, Kind, read_header};
use c4::memory::{Need, parse_size};
use c4::parallel::{PoolError, WorkerPool, available_cores, max_threads};
use c4::{AnyBook, BoardSize, Engine, engine};

use super::limits::check_memory;
use super::output::warn;

pub use super::output::{EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE};

/// The board options every command shares.
#[derive(Args, Debug, Clone, Copy)]
pub struct BoardArgs {
    /// Columns of the board: 4 or more, with width x (height + 1) at most
    /// 128 (so up to 25 columns on a 4-row board). Columns 10 and up are
    /// written a, b, c ... p in move strings.
    #[arg(
        long,
        value_name = "W",
        default_value_t = 7,
        value_parser = parse_count,
        global = true,
        help_heading = "Board"
    )]
    pub width: usize,
    /// Rows of the board: 4 or more (up to 31 on a 4-column board).
    #[arg(
        long,
        value_name = "H",
        default_value_t = 6,
        value_parser = parse_count,
        global = true,
        help_heading = "Board"
    )]
    pub height: usize,
}

impl BoardArgs {
    /// The board asked for, or the usage exit status after saying why it is
    /// not supported.
    pub fn board(&self, command: &str) -> Result<BoardSize, u8> {
        BoardSize::new(self.width, self.height).map_err(|e| {
            warn(format_args!("c4 {command}: --width/--height: {e}"));
            EXIT_USAGE
        })
    }
}

/// The transposition table option every solving command shares.
#[derive(Args, Debug, Clone)]
pub struct TableArgs {
    /// Memory for the positions each solver remembers, e.g. 64M, 1G, 512K:
    /// the default suffices on 7x6; lower it to save memory.
    ///
    /// Bytes, rounded down to a power of two; each solver (each of
    /// --threads) has its own. It changes how fast c4 answers, never the
    /// answer. Only positions near the start of a game use it: on 7x6 and
    /// smaller boards those with fewer than 3 stones, on larger ones also
    /// those with more than 39 empty cells; the others keep to a fixed
    /// 1 MiB table that stays in the processor's cache. So a larger table
    /// rarely helps: 1G searches about as many nodes as the default 64M from the
    /// empty 7x6, 9x4 and 10x4 boards. Lower it to save memory with many
    /// --threads or on a small machine. On the largest boards (7x8 and up)
    /// every search uses it and it must be at least 32M, or 64M for the
    /// largest: c4 says so when it is too small.
    #[arg(long = "tt-size", value_name = "SIZE", default_value = "64M", value_parser = parse_size)]
    pub tt_size: usize,
}

/// Parses `--threads`: 0 (every core) or a number of threads up to
/// [`max_threads`]; more is a usage error, not an attempt.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of threads"))?;
    let cap = max_threads();
    if n > cap {
        return Err(format!(
            "{n} threads is far more than this machine can run: at most {cap} \
             ({} cores); 0 uses every core",
            available_cores()
        ));
    }
    Ok(n)
}

/// Reads a whole number of at most `max` for a flag, in plain words where
/// clap's own parser speaks Rust ("invalid digit found in string", "is not
/// in 0..=65535").
fn whole_at_most(text: &str, max: u64) -> Result<u64, String> {
    let trimmed = text.trim();
    if trimmed.is_empty() || !trimmed.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{text}' is not a whole number (digits 0-9 only)"));
    }
    match trimmed.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("{trimmed} is too large: at most {max}")),
    }
}

/// A whole-number flag of type `usize`.
pub fn parse_count(text: &str) -> Result<usize, String> {
    let n = whole_at_most(text, u64::try_from(usize::MAX).unwrap_or(u64::MAX))?;
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

/// A whole-number flag of type `u64`.
pub fn parse_u64(text: &str) -> Result<u64, String> {
    whole_at_most(text, u64::MAX)
}

/// A whole-number flag of type `u64` that must be at least 1.
pub fn parse_positive_u64(text: &str) -> Result<u64, String> {
    match parse_u64(text)? {
        0 => Err("0 is too small: at least 1".to_owned()),
        n => Ok(n),
    }
}

/// A port number.
pub fn parse_port(text: &str) -> Result<u16, String> {
    let n = whole_at_most(text, u64::from(u16::MAX))?;
    Ok(u16::try_from(n).unwrap_or(u16::MAX))
}

/// The number of threads `--threads N` asks for: N, or every core for 0.
pub fn resolve_threads(n: usize) -> usize {
    if n == 0 { available_cores() } else { n }
}

/// Which opening book a solving command uses.
#[derive(Args, Debug, Clone, Default)]
pub struct BookChoice {
    /// Use this opening book file instead of the built-in one.
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    pub book: Option<PathBuf>,
    /// Use no opening book: search every position.
    #[arg(long)]
    pub no_book: bool,
}

impl BookChoice {
    /// The most memory loading the book takes on `board` (see
    /// [`c4::memory::book_bytes`]): 0 without one, the built-in book's
    /// entries, or what a file of this size can hold (0 if it cannot be
    /// read: loading it then fails and says why).
    pub fn memory(&self, board: BoardSize) -> usize {
        if self.no_book {
            return 0;
        }
        let word_bytes = board.word_bytes();
        match &self.book {
            None if board == BoardSize::STANDARD => {
                let entries = c4::book::format::read_header(builtin::BOOK_7X6)
                    .map_or(builtin::BOOK_7X6.len() / 2, |h| h.entries as usize);
                c4::memory::book_bytes(0, Some(entries), word_bytes)
            }
            None => 0,
            Some(path) => fs::metadata(path).map_or(0, |m| {
                c4::memory::book_bytes(
                    usize::try_from(m.len()).unwrap_or(usize::MAX),
                    None,
                    word_bytes,
                )
            }),
        }
    }
}

/// The book `choice` names for `board`: the file given, none, or the
/// built-in one (none if `c4` has none for this board). An unreadable or
/// invalid file is reported (as `c4 COMMAND: ...`) and gives `Err` with the
/// exit status.
pub fn load_book(
    choice: &BookChoice,
    command: &str,
    board: BoardSize,
) -> Result<Option<AnyBook>, u8> {
    if choice.no_book {
        return Ok(None);
    }
    let Some(path) = &choice.book else {
        return match AnyBook::builtin(board) {
            None => Ok(None),
            Some(Ok(book)) => Ok(Some(book)),
            Some(Err(e)) => {
                warn(format_args!(
                    "c4 {command}: the built-in book is broken: {e}"
                ));
                Err(EXIT_BAD_INPUT)
            }
        };
    };
    let book = read_any_book(board, path).map_err(|message| {
        warn(format_args!("c4 {command}: {message}"));
        EXIT_BAD_INPUT
    })?;
    if let Kind::Part { index, count } = book.kind() {
        warn(format_args!(
            "c4 {command}: {} is part {index} of {count} of a sharded book; join the parts with `c4 book merge`",
            path.display()
        ));
        return Err(EXIT_BAD_INPUT);
    }
    Ok(Some(book))
}

/// Reads and decodes a book file of `board`; the error is a message naming
/// the file.
pub fn read_any_book(board: BoardSize, path: &Path) -> Result<AnyBook, String> {
    let bytes = read_book_bytes(path)?;
    AnyBook::decode(board, &bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The most bytes a book file may have (4 GiB): far above any book `c4`
/// builds (the built-in depth-9 7x6 book is 0.8 MiB); a header that
/// announces more is refused before anything else is read.
pub const MAX_BOOK_FILE_BYTES: u64 = 1 << 32;

/// The bytes of the book file `path`, read without trusting it: its header
/// first, so that a file that is no book (`/dev/zero` included) is refused
/// after 48 bytes, then only as many bytes as the header announces (one
/// more, so that trailing bytes are seen), and no more than
/// [`MAX_BOOK_FILE_BYTES`]. The error is a message naming the file.
pub fn read_book_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let name = path.display();
    let cannot = |e: io::Error| format!("cannot read {name}: {e}");
    let mut file = fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    (&mut file)
        .take(HEADER_BYTES as u64)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() < HEADER_BYTES {
        // Too short for a header: decoding says what is wrong.
        return Ok(bytes);
    }
    let announced = match read_header(&bytes) {
        Ok(_) => HEADER_BYTES as u64,
        Err(FormatError::Truncated { expected, .. }) => expected,
        Err(e) => return Err(format!("{name}: {e}")),
    };
    if announced > MAX_BOOK_FILE_BYTES {
        return Err(format!(
            "{name}: its header announces {announced} bytes, more than a book file may have ({MAX_BOOK_FILE_BYTES})"
        ));
    }
    let rest = announced - HEADER_BYTES as u64 + 1;
    file.take(rest).read_to_end(&mut bytes).map_err(cannot)?;
    Ok(bytes)
}
/// The solvers a command runs on: checks that `need` fits in the memory
/// available (see [`check_memory`]), loads the book, and makes `workers`
/// solvers for `board`, each with a table of `tt_size` bytes and searching
/// on `search_threads` threads. On failure the reason is on stderr and the
/// exit status is returned.
pub fn solver_pool(
    command: &str,
    board: BoardSize,
    need: &Need,
    book: &BookChoice,
    tt_size: usize,
    workers: usize,
    search_threads: usize,
) -> Result<WorkerPool<Box<dyn Engine>>, u8> {
    check_memory(command, need, "lower --threads or --tt-size")?;
    let book = load_book(book, command, board)?;
    let pool = WorkerPool::new(workers, || {
        let mut solver = engine::new(board, tt_size)?;
        solver.set_threads(search_threads);
        solver
            .set_book(book.clone())
            .expect("the book was loaded for this board");
        Ok(solver)
    });
    pool.map_err(|e| match e {
        PoolError::Table(e) => {
            warn(format_args!("c4 {command}: --tt-size: {e}"));
            EXIT_USAGE
        }
        e => {
            warn(format_args!("c4 {command}: {e}"));
            EXIT_BAD_INPUT
        }
    })
}

/// A duration in a unit that fits it: `850 ns`, `12.3 µs`, `4.56 ms`, `1.234 s`.
pub fn human_duration(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 1e-6 {
        format!("{} ns", d.as_nanos())
    } else if secs < 1e-3 {
        format!("{:.1} µs", secs * 1e6)
    } else if secs < 1.0 {
        format!("{:.2} ms", secs * 1e3)
    } else {
        format!("{secs:.3} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_up_to_the_cap() {
        assert_eq!(parse_threads("0"), Ok(0));
        assert_eq!(parse_threads("64"), Ok(64));
        assert_eq!(parse_threads(&max_threads().to_string()), Ok(max_threads()));
        let e = parse_threads(&(max_threads() + 1).to_string()).unwrap_err();
        assert!(e.contains("at most"), "{e}");
        assert!(parse_threads("-1").is_err());
        assert!(parse_threads("x").is_err());
        assert_eq!(resolve_threads(0), available_cores());
        assert_eq!(resolve_threads(3), 3);
    }

    #[test]
    fn durations_in_human_units() {
        assert_eq!(human_duration(Duration::from_nanos(850)), "850 ns");
        assert_eq!(human_duration(Duration::from_nanos(12_345)), "12.3 µs");
        assert_eq!(human_duration(Duration::from_micros(4_560)), "4.56 ms");
        assert_eq!(human_duration(Duration::from_millis(1_234)), "1.234 s");
    }
}
