//! Where positions come from: command-line arguments, or stdin read line by
//! line with each line's length bounded (a byte-order mark at its start
//! skipped, and said so); and how an input is named in messages. What an
//! input says is read by the library (`c4::input`): an argument is a move
//! string alone, a line of stdin `MOVES [SCORE]` or a comment.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, BufReader};

use c4::BoardSize;
use c4::input::{
    InputError, Line, MAX_LINE_BYTES, ScoreKind, parse_line, parse_moves, strip_byte_order_mark,
};

use super::output::warn;

/// Where an input came from, to name it in error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The n-th (1-based) position argument.
    Argument(usize),
    /// The n-th (1-based) line of stdin.
    Line(usize),
}

impl Origin {
    /// The 1-based number of the argument or line.
    pub fn number(self) -> usize {
        match self {
            Origin::Argument(n) | Origin::Line(n) => n,
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Argument(n) => write!(f, "argument {n}"),
            Origin::Line(n) => write!(f, "line {n}"),
        }
    }
}

/// One input, as read: its bytes and where they came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawInput {
    /// Which argument or line this is.
    pub origin: Origin,
    /// The bytes, without the line ending; of a line longer than
    /// [`MAX_LINE_BYTES`], only the first `MAX_LINE_BYTES + 1`.
    pub bytes: Vec<u8>,
}

impl RawInput {
    /// The input read for `board` (see [`c4::input`]): an argument as a
    /// move string alone, a line as `MOVES [SCORE]` (a score of `kind`) or
    /// a comment.
    pub fn parse(&self, board: BoardSize, kind: ScoreKind) -> Result<Line<'_>, InputError> {
        match self.origin {
            Origin::Argument(_) => {
                parse_moves(board, &self.bytes).map(|(moves, position)| Line::Position {
                    moves,
                    position,
                    score: None,
                })
            }
            Origin::Line(_) => parse_line(board, kind, &self.bytes),
        }
    }

    /// The input as it should be echoed back: trimmed, with invalid UTF-8
    /// replaced by U+FFFD.
    pub fn display_text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).trim().to_owned()
    }
}

/// Makes a [`RawInput`] from the `n`-th (1-based) position argument.
pub fn raw_from_arg(n: usize, arg: &OsString) -> RawInput {
    RawInput {
        origin: Origin::Argument(n),
        bytes: arg.as_encoded_bytes().to_vec(),
    }
}

/// Where a batch's inputs come from, pulled one at a time by the ordered
/// pipeline: stdin line by line when `from_stdin`, else the arguments.
pub type Source = Box<dyn FnMut() -> io::Result<Option<RawInput>> + Send>;

/// The [`Source`] of `c4 command`, which takes inputs as arguments, or one
/// per line from stdin when there are none (`from_stdin`). A byte-order
/// mark at the start of stdin is skipped with a warning that says so.
pub fn source(command: &'static str, args: &[OsString], from_stdin: bool) -> Source {
    if from_stdin {
        let mut lines = LineReader::new(BufReader::with_capacity(1 << 16, io::stdin()));
        Box::new(move || {
            let line = lines.next_line()?;
            if line.as_ref().is_some_and(|l| l.skipped_byte_order_mark) {
                warn(format_args!("c4 {command}: {BYTE_ORDER_MARK_SKIPPED}"));
            }
            Ok(line.map(|l| l.raw))
        })
    } else {
        let mut raws = args
            .iter()
            .enumerate()
            .map(|(i, arg)| raw_from_arg(i + 1, arg))
            .collect::<Vec<_>>()
            .into_iter();
        Box::new(move || Ok(raws.next()))
    }
}

/// What a reader says when it skips a byte-order mark at the start of its
/// input.
pub const BYTE_ORDER_MARK_SKIPPED: &str = "line 1 starts with a UTF-8 byte-order mark \
     (U+FEFF, an invisible mark some editors write at the start of a file): skipped";

/// A line read by a [`LineReader`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadLine {
    /// The line.
    pub raw: RawInput,
    /// Whether a byte-order mark was skipped at its start (the first line
    /// only).
    pub skipped_byte_order_mark: bool,
}

/// Reads stdin (or any reader) one line at a time, as bytes, so that a line
/// that is not UTF-8 is an error for that line only. A UTF-8 byte-order
/// mark at the start of the input is skipped (the line says so). Of a line longer than
/// [`MAX_LINE_BYTES`] it keeps one byte more (the parser then says it is too
/// long) and skips the rest: an endless line takes no more memory than a
/// short one.
pub struct LineReader<R> {
    /// The input.
    reader: R,
    /// Lines read so far.
    count: usize,
}

impl<R: BufRead> LineReader<R> {
    /// Reads from `reader`.
    pub fn new(reader: R) -> Self {
        LineReader { reader, count: 0 }
    }

    /// The next line, without its `\n` (a `\r` before it is left for
    /// trimming), or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<ReadLine>> {
        let mut bytes = Vec::new();
        let mut read_any = false;
        loop {
            let buffer = match self.reader.fill_buf() {
                Ok(buffer) => buffer,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buffer.is_empty() {
                break;
            }
            read_any = true;
            let newline = buffer.iter().position(|&b| b == b'\n');
            let line = &buffer[..newline.unwrap_or(buffer.len())];
            let room = (MAX_LINE_BYTES + 1).saturating_sub(bytes.len());
            bytes.extend_from_slice(&line[..line.len().min(room)]);
            let used = line.len() + usize::from(newline.is_some());
            self.reader.consume(used);
            if newline.is_some() {
                break;
            }
        }
        if !read_any {
            return Ok(None);
        }
        self.count += 1;
        let mut skipped_byte_order_mark = false;
        if self.count == 1 {
            let (rest, skipped) = strip_byte_order_mark(&bytes);
            if skipped {
                bytes = rest.to_vec();
                skipped_byte_order_mark = true;
            }
        }
        Ok(Some(ReadLine {
            raw: RawInput {
                origin: Origin::Line(self.count),
                bytes,
            },
            skipped_byte_order_mark,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_splits_lines_and_counts_them() {
        let data: &[u8] = b"44\n\n53\r\nlast";
        let mut r = LineReader::new(data);
        let mut got = Vec::new();
        while let Some(line) = r.next_line().unwrap() {
            assert!(!line.skipped_byte_order_mark);
            got.push((line.raw.origin, line.raw.bytes));
        }
        assert_eq!(
            got,
            vec![
                (Origin::Line(1), b"44".to_vec()),
                (Origin::Line(2), Vec::new()),
                (Origin::Line(3), b"53\r".to_vec()),
                (Origin::Line(4), b"last".to_vec()),
            ]
        );
    }

    #[test]
    fn an_endless_line_is_cut_and_the_next_one_read() {
        let mut data = vec![b'4'; 3 << 20];
        data.extend_from_slice(b"\n4453\n");
        // A small buffer, so that the long line spans many reads.
        let mut r = LineReader::new(io::BufReader::with_capacity(100, &data[..]));
        let long = r.next_line().unwrap().unwrap().raw;
        assert_eq!(long.bytes.len(), MAX_LINE_BYTES + 1);
        let e = long
            .parse(BoardSize::STANDARD, ScoreKind::Exact)
            .unwrap_err();
        assert!(matches!(e, InputError::TooLong { .. }), "{e}");
        let next = r.next_line().unwrap().unwrap().raw;
        assert_eq!(
            (next.origin, next.bytes),
            (Origin::Line(2), b"4453".to_vec())
        );
        assert_eq!(r.next_line().unwrap(), None);
    }

    #[test]
    fn a_byte_order_mark_is_skipped_at_the_start_only() {
        let data: &[u8] = b"\xef\xbb\xbf4453 -2\n\xef\xbb\xbf44\n";
        let mut r = LineReader::new(data);
        let first = r.next_line().unwrap().unwrap();
        assert!(first.skipped_byte_order_mark);
        assert_eq!(first.raw.bytes, b"4453 -2");
        let second = r.next_line().unwrap().unwrap();
        assert!(!second.skipped_byte_order_mark);
        let e = second
            .raw
            .parse(BoardSize::STANDARD, ScoreKind::Exact)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "character 1 (U+FEFF, a byte-order mark) is not a column (1-7)"
        );
    }

    #[test]
    fn arguments_are_move_strings_and_lines_may_hold_a_score() {
        let arg = raw_from_arg(1, &OsString::from("44 5"));
        let e = arg
            .parse(BoardSize::STANDARD, ScoreKind::Exact)
            .unwrap_err();
        assert_eq!(e.to_string(), "character 3 (a space) is not a column (1-7)");
        let line = RawInput {
            origin: Origin::Line(1),
            bytes: b"44 5".to_vec(),
        };
        assert!(matches!(
            line.parse(BoardSize::STANDARD, ScoreKind::Exact),
            Ok(Line::Position { score: Some(5), .. })
        ));
    }

    #[test]
    fn echoes_are_trimmed_and_lossy() {
        let raw = RawInput {
            origin: Origin::Line(2),
            bytes: b" 4\xc3\xa94\xff \r".to_vec(),
        };
        assert_eq!(raw.display_text(), "4\u{e9}4\u{fffd}");
    }
}
