//! Where positions come from: command-line arguments, or stdin read line by
//! line with each line's length bounded; and how an input is named in
//! messages. What a line says is read by the library (`c4::input`).

use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, BufReader};

use c4::BoardSize;
use c4::input::{InputError, Line, MAX_LINE_BYTES, parse_line};

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
    /// The input read for `board` (see [`c4::input`]).
    pub fn parse(&self, board: BoardSize) -> Result<Line<'_>, InputError> {
        parse_line(board, &self.bytes)
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

/// The [`Source`] of a command that takes inputs as arguments, or one per
/// line from stdin when there are none (`from_stdin`).
pub fn source(args: &[OsString], from_stdin: bool) -> Source {
    if from_stdin {
        let mut lines = LineReader::new(BufReader::with_capacity(1 << 16, io::stdin()));
        Box::new(move || lines.next_line())
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

/// Reads stdin (or any reader) one line at a time, as bytes, so that a line
/// that is not UTF-8 is an error for that line only. Of a line longer than
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
    pub fn next_line(&mut self) -> io::Result<Option<RawInput>> {
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
        Ok(Some(RawInput {
            origin: Origin::Line(self.count),
            bytes,
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
        while let Some(raw) = r.next_line().unwrap() {
            got.push((raw.origin, raw.bytes));
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
        let long = r.next_line().unwrap().unwrap();
        assert_eq!(long.bytes.len(), MAX_LINE_BYTES + 1);
        let e = long.parse(BoardSize::STANDARD).unwrap_err();
        assert!(matches!(e, InputError::TooLong { .. }), "{e}");
        let next = r.next_line().unwrap().unwrap();
        assert_eq!(
            (next.origin, next.bytes),
            (Origin::Line(2), b"4453".to_vec())
        );
        assert_eq!(r.next_line().unwrap(), None);
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
