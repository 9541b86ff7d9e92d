//! Reading positions: where they come from (arguments or stdin, line by
//! line), how one input line splits into moves and an ignored score, and the
//! errors a line can have.
//!
//! An input line is `MOVES [SCORE]`: the moves played (1-based columns, e.g.
//! `4453`; nothing at all for the empty board), optionally followed by an
//! integer that is ignored. That second field lets a test-set file of
//! `moves score` lines be fed as it is (`c4 solve < Test_L2_R1`).

use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead};

use c4::testset::{is_comment, parse_board_header};
use c4::{BoardError, BoardSize, ParseError, Position};

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

/// Why an input line is not a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineError {
    /// The moves do not replay (the error names the character).
    Parse(ParseError),
    /// Something other than one integer follows the moves.
    Trailing {
        /// 0-based character index where the unexpected text starts.
        index: usize,
        /// The unexpected text.
        text: String,
    },
    /// The bytes are not UTF-8.
    NotUtf8 {
        /// 0-based character index of the first invalid byte, counting the
        /// valid characters before it.
        index: usize,
    },
    /// A board header (`# board WxH`) naming another board than the one
    /// c4 runs on, or no supported board.
    Board {
        /// 0-based character index of the board in the header.
        index: usize,
        /// The board the header names, or why it names none.
        found: Result<BoardSize, BoardError>,
        /// The board c4 runs on.
        expected: BoardSize,
    },
}

impl LineError {
    /// 0-based index of the character the error is about.
    pub fn index(&self) -> usize {
        match self {
            LineError::Parse(e) => e.index(),
            LineError::Trailing { index, .. }
            | LineError::NotUtf8 { index }
            | LineError::Board { index, .. } => *index,
        }
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Parse(e) => e.fmt(f),
            LineError::Trailing { index, text } => write!(
                f,
                "character {}: unexpected '{text}' after the moves (only a score may follow them)",
                index + 1
            ),
            LineError::NotUtf8 { index } => {
                write!(f, "character {}: not valid UTF-8", index + 1)
            }
            LineError::Board {
                index,
                found: Ok(found),
                expected,
            } => write!(
                f,
                "character {}: this input is for the {found} board, but c4 runs on {expected} \
                 (use --width {} --height {})",
                index + 1,
                found.width(),
                found.height()
            ),
            LineError::Board {
                index,
                found: Err(e),
                ..
            } => write!(f, "character {}: {e}", index + 1),
        }
    }
}

/// One input, as read: the text (or why it is not text) and where it came from.
#[derive(Debug, Clone)]
pub struct RawInput {
    /// Which argument or line this is.
    pub origin: Origin,
    /// The text without its line ending, or the bytes if they are not UTF-8.
    pub text: Result<String, Vec<u8>>,
}

impl RawInput {
    /// The input as it should be echoed back: trimmed, with invalid UTF-8
    /// replaced by U+FFFD.
    pub fn display_text(&self) -> String {
        match &self.text {
            Ok(s) => s.trim().to_owned(),
            Err(bytes) => String::from_utf8_lossy(bytes).trim().to_owned(),
        }
    }
}

/// Makes a [`RawInput`] from bytes, checking that they are UTF-8.
pub fn raw_from_bytes(origin: Origin, bytes: Vec<u8>) -> RawInput {
    let text = String::from_utf8(bytes).map_err(|e| e.into_bytes());
    RawInput { origin, text }
}

/// Makes a [`RawInput`] from a command-line argument.
pub fn raw_from_arg(n: usize, arg: &OsString) -> RawInput {
    let origin = Origin::Argument(n);
    match arg.to_str() {
        Some(s) => RawInput {
            origin,
            text: Ok(s.to_owned()),
        },
        None => raw_from_bytes(origin, arg.as_encoded_bytes().to_vec()),
    }
}

/// A valid input: the moves as given (trimmed) and the position they reach.
#[derive(Debug, Clone)]
pub struct Parsed<const W: usize, const H: usize> {
    /// The moves field, trimmed (empty for the empty board).
    pub moves: String,
    /// The position after the moves.
    pub position: Position<W, H>,
}

/// Reads a comment line (first non-blank character `#`, as in the header
/// and comments of a test set): `None` if `raw` is not one; the line to echo
/// if it is; an error if it is a board header naming another board than
/// `W` x `H`.
pub fn parse_comment<const W: usize, const H: usize>(
    raw: &RawInput,
) -> Option<Result<String, LineError>> {
    let text = raw.text.as_ref().ok()?;
    if !is_comment(text) {
        return None;
    }
    let expected = BoardSize::of::<W, H>();
    let result = match parse_board_header(text) {
        Some(found) if found != Ok(expected) => {
            // Point at the board, the header's last field.
            let board_start = text
                .trim_end()
                .rfind(char::is_whitespace)
                .map_or(0, |i| i + 1);
            Err(LineError::Board {
                index: text[..board_start].chars().count(),
                found,
                expected,
            })
        }
        _ => Ok(text.trim_end().to_owned()),
    };
    Some(result)
}

/// Splits and parses one input: `MOVES [SCORE]`. Error indexes count from the
/// start of the input as given, leading whitespace included.
pub fn parse_input<const W: usize, const H: usize>(
    raw: &RawInput,
) -> Result<Parsed<W, H>, LineError> {
    let text = match &raw.text {
        Ok(text) => text.as_str(),
        Err(bytes) => {
            let up_to = std::str::from_utf8(bytes)
                .err()
                .map_or(bytes.len(), |e| e.valid_up_to());
            let index = String::from_utf8_lossy(&bytes[..up_to]).chars().count();
            return Err(LineError::NotUtf8 { index });
        }
    };
    let (moves_part, rest) = split_moves(text);
    let position = Position::<W, H>::parse(moves_part).map_err(LineError::Parse)?;
    let extra = rest.trim();
    if !extra.is_empty() && extra.parse::<i64>().is_err() {
        let start = text.len() - rest.trim_start().len();
        return Err(LineError::Trailing {
            index: text[..start].chars().count(),
            text: extra.to_owned(),
        });
    }
    Ok(Parsed {
        moves: moves_part.trim().to_owned(),
        position,
    })
}

/// Splits `text` after its first whitespace-separated field: the part up to
/// the end of that field (leading whitespace kept, so that character indexes
/// still count from the start of the line) and the rest.
fn split_moves(text: &str) -> (&str, &str) {
    let start = text.len() - text.trim_start().len();
    let end = text[start..]
        .find(char::is_whitespace)
        .map_or(text.len(), |i| start + i);
    text.split_at(end)
}

/// Reads stdin (or any reader) one line at a time, as bytes, so that a line
/// that is not UTF-8 is an error for that line only.
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
        if self.reader.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(None);
        }
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
        }
        self.count += 1;
        Ok(Some(raw_from_bytes(Origin::Line(self.count), bytes)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> RawInput {
        RawInput {
            origin: Origin::Line(1),
            text: Ok(text.to_owned()),
        }
    }

    #[test]
    fn comments_and_board_headers() {
        let raw = |text: &str| RawInput {
            origin: Origin::Line(1),
            text: Ok(text.to_owned()),
        };
        assert_eq!(parse_comment::<7, 6>(&raw("4453")), None);
        assert_eq!(
            parse_comment::<7, 6>(&raw("  # hello\r")),
            Some(Ok("  # hello".to_owned()))
        );
        assert_eq!(
            parse_comment::<7, 6>(&raw("# board 7x6")),
            Some(Ok("# board 7x6".to_owned()))
        );
        let err = parse_comment::<7, 6>(&raw("# board 6x5"))
            .unwrap()
            .unwrap_err();
        assert_eq!(err.index(), 8);
        assert_eq!(
            err.to_string(),
            "character 9: this input is for the 6x5 board, but c4 runs on 7x6 \
             (use --width 6 --height 5)"
        );
        let err = parse_comment::<7, 6>(&raw("# board 3x9"))
            .unwrap()
            .unwrap_err();
        assert!(err.to_string().contains("too small"), "{err}");
    }

    fn parse(text: &str) -> Result<Parsed<7, 6>, LineError> {
        parse_input(&line(text))
    }

    #[test]
    fn moves_alone_and_with_score() {
        assert_eq!(parse("4453").unwrap().moves, "4453");
        let p = parse("  4453 -7\r").unwrap();
        assert_eq!(p.moves, "4453");
        assert_eq!(p.position.moves_played(), 4);
    }

    #[test]
    fn empty_line_is_the_empty_board() {
        for text in ["", "   ", "\r"] {
            let p = parse(text).unwrap();
            assert_eq!(p.moves, "");
            assert_eq!(p.position.moves_played(), 0);
        }
    }

    #[test]
    fn errors_count_characters_of_the_whole_line() {
        let e = parse(" 448").unwrap_err();
        assert_eq!(e.index(), 3);
        assert!(e.to_string().contains("character 4"), "{e}");
        let e = parse("44 x").unwrap_err();
        assert_eq!(
            e,
            LineError::Trailing {
                index: 3,
                text: "x".into()
            }
        );
        let e = parse("44 1 2").unwrap_err();
        assert_eq!(e.index(), 3);
    }

    #[test]
    fn bad_utf8_names_the_character() {
        let raw = raw_from_bytes(Origin::Line(2), b"4\xc3\xa94\xff".to_vec());
        let e = parse_input::<7, 6>(&raw).unwrap_err();
        assert_eq!(e, LineError::NotUtf8 { index: 3 });
        assert_eq!(raw.display_text(), "4\u{e9}4\u{fffd}");
    }

    #[test]
    fn reader_splits_lines_and_counts_them() {
        let data: &[u8] = b"44\n\n53\r\nlast";
        let mut r = LineReader::new(data);
        let mut got = Vec::new();
        while let Some(raw) = r.next_line().unwrap() {
            got.push((raw.origin, raw.text.unwrap()));
        }
        assert_eq!(
            got,
            vec![
                (Origin::Line(1), "44".to_owned()),
                (Origin::Line(2), String::new()),
                (Origin::Line(3), "53\r".to_owned()),
                (Origin::Line(4), "last".to_owned()),
            ]
        );
    }
}
