//! One line of positions input, from untrusted bytes: `MOVES [SCORE]` or a
//! `#` comment, read into the position or an error naming the character.
//!
//! `MOVES` are the columns played, 1-based (e.g. `4453`; nothing at all for
//! the empty board). An integer may follow, which is ignored: the lines of
//! a test set (`moves score`) can be fed as they are. A line whose first
//! non-blank character is `#` is a comment, as a test set's header and
//! comments are; a board header (`# board WxH`) must name the board read
//! for. Any bytes give an answer, never a panic, in time linear in the
//! length of the line.
//!
//! ```
//! use c4::BoardSize;
//! use c4::input::{Line, parse_line};
//! let Ok(Line::Position { moves, position }) = parse_line(BoardSize::STANDARD, b" 4453 -2\r") else {
//!     panic!("a position");
//! };
//! assert_eq!((moves, position.moves_played()), ("4453", 4));
//! let error = parse_line(BoardSize::STANDARD, b"44 x").unwrap_err();
//! assert_eq!(error.index(), 3);
//! ```

use thiserror::Error;

use crate::board::{BoardError, BoardSize};
use crate::game::Game;
use crate::rules::ParseError;
use crate::testset::{is_comment, parse_board_header};

/// The longest line read, in bytes. A position has at most 60 moves and its
/// score a few characters, so a longer line is an error without a look at
/// its end: readers keep this many bytes of a line (and one more, to tell
/// it is longer) and skip the rest, so that one endless line cannot take
/// the memory.
pub const MAX_LINE_BYTES: usize = 1024;

/// A line that names a position, or a comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line<'a> {
    /// A position.
    Position {
        /// The moves field, trimmed (empty for the empty board).
        moves: &'a str,
        /// The position after the moves.
        position: Game,
    },
    /// A comment line, without its trailing whitespace.
    Comment(&'a str),
}

/// Why a line names no position. Every index is the 0-based index of a
/// character of the line, leading whitespace included; messages show it
/// 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InputError {
    /// The moves do not replay (the error names the character).
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// Something other than one integer follows the moves.
    #[error(
        "character {}: unexpected '{text}' after the moves (only a score may follow them)",
        index + 1
    )]
    Trailing {
        /// Where the unexpected text starts.
        index: usize,
        /// The unexpected text.
        text: String,
    },
    /// The bytes are not UTF-8.
    #[error("character {}: not valid UTF-8", index + 1)]
    NotUtf8 {
        /// The first invalid byte, counting the valid characters before it.
        index: usize,
    },
    /// A board header naming another board than the one read for, or no
    /// supported board.
    #[error("character {}: {}", index + 1, board_message(found, *expected))]
    Board {
        /// Where the board is named in the header.
        index: usize,
        /// The board the header names, or why it names none.
        found: Result<BoardSize, BoardError>,
        /// The board read for.
        expected: BoardSize,
    },
    /// The line is longer than [`MAX_LINE_BYTES`].
    #[error(
        "character {}: the line is longer than {MAX_LINE_BYTES} bytes, which no position needs",
        index + 1
    )]
    TooLong {
        /// The first character past the limit.
        index: usize,
    },
}

/// What is wrong with the board of a header.
fn board_message(found: &Result<BoardSize, BoardError>, expected: BoardSize) -> String {
    match found {
        Ok(found) => format!(
            "this input is for the {found} board, but c4 runs on {expected} \
             (use --width {} --height {})",
            found.width(),
            found.height()
        ),
        Err(e) => e.to_string(),
    }
}

impl InputError {
    /// 0-based index of the character the error is about.
    pub fn index(&self) -> usize {
        match self {
            InputError::Parse(e) => e.index(),
            InputError::Trailing { index, .. }
            | InputError::NotUtf8 { index }
            | InputError::Board { index, .. }
            | InputError::TooLong { index } => *index,
        }
    }
}

/// Reads one line (without its `\n`; a `\r` before it is whitespace) for
/// `board`: a comment, or `MOVES [SCORE]` as [`parse_position`] reads it.
/// See the module documentation.
pub fn parse_line(board: BoardSize, bytes: &[u8]) -> Result<Line<'_>, InputError> {
    let text = utf8_line(bytes)?;
    if is_comment(text) {
        return comment(board, text);
    }
    let (moves, position) = position_of(board, text)?;
    Ok(Line::Position { moves, position })
}

/// Reads `MOVES [SCORE]` (no comment) for `board`: the moves field,
/// trimmed, and the position it reaches.
pub fn parse_position(board: BoardSize, bytes: &[u8]) -> Result<(&str, Game), InputError> {
    position_of(board, utf8_line(bytes)?)
}

/// The line as text, if it is not too long and is UTF-8.
fn utf8_line(bytes: &[u8]) -> Result<&str, InputError> {
    if bytes.len() > MAX_LINE_BYTES {
        return Err(InputError::TooLong {
            index: String::from_utf8_lossy(&bytes[..MAX_LINE_BYTES])
                .chars()
                .count(),
        });
    }
    std::str::from_utf8(bytes).map_err(|e| InputError::NotUtf8 {
        index: String::from_utf8_lossy(&bytes[..e.valid_up_to()])
            .chars()
            .count(),
    })
}

/// `MOVES [SCORE]`: the trimmed moves and their position.
fn position_of(board: BoardSize, text: &str) -> Result<(&str, Game), InputError> {
    let (moves, rest) = split_moves(text);
    let position = Game::parse(board, moves)?;
    let extra = rest.trim();
    if !extra.is_empty() && extra.parse::<i64>().is_err() {
        let start = text.len() - rest.trim_start().len();
        return Err(InputError::Trailing {
            index: text[..start].chars().count(),
            text: extra.to_owned(),
        });
    }
    Ok((moves.trim(), position))
}

/// A comment line: itself, or an error if it is a board header naming
/// another board than `W` x `H`.
fn comment(expected: BoardSize, text: &str) -> Result<Line<'_>, InputError> {
    match parse_board_header(text) {
        Some(found) if found != Ok(expected) => {
            // Point at the board, the header's last field.
            // (A whitespace character may take several bytes.)
            let trimmed = text.trim_end();
            let last_field = trimmed.split(char::is_whitespace).next_back();
            let board_start = trimmed.len() - last_field.map_or(0, str::len);
            Err(InputError::Board {
                index: text[..board_start].chars().count(),
                found,
                expected,
            })
        }
        _ => Ok(Line::Comment(text.trim_end())),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(text: &str) -> Result<Line<'_>, InputError> {
        parse_line(BoardSize::STANDARD, text.as_bytes())
    }

    fn moves_of(text: &str) -> (String, usize) {
        match parse(text).unwrap() {
            Line::Position { moves, position } => (moves.to_owned(), position.moves_played()),
            Line::Comment(c) => panic!("a comment: {c}"),
        }
    }

    #[test]
    fn moves_alone_and_with_score() {
        assert_eq!(moves_of("4453"), ("4453".to_owned(), 4));
        assert_eq!(moves_of("  4453 -7\r"), ("4453".to_owned(), 4));
    }

    #[test]
    fn empty_line_is_the_empty_board() {
        for text in ["", "   ", "\r"] {
            assert_eq!(moves_of(text), (String::new(), 0));
        }
    }

    #[test]
    fn errors_count_characters_of_the_whole_line() {
        let e = parse(" 448").unwrap_err();
        assert_eq!(e.index(), 3);
        assert!(e.to_string().contains("character 4"), "{e}");
        assert_eq!(
            parse("44 x").unwrap_err(),
            InputError::Trailing {
                index: 3,
                text: "x".into()
            }
        );
        assert_eq!(parse("44 1 2").unwrap_err().index(), 3);
        // Characters, not bytes: 'é' is two bytes.
        assert_eq!(parse("é4").unwrap_err().index(), 0);
        assert_eq!(parse("4 é").unwrap_err().index(), 2);
    }

    #[test]
    fn a_board_header_after_wide_whitespace_names_its_character() {
        // U+1680, OGHAM SPACE MARK, is whitespace of three bytes (found by
        // fuzzing: the index once fell inside it and panicked).
        let e = parse("# board\u{1680}6x5").unwrap_err();
        assert!(matches!(e, InputError::Board { index: 8, .. }), "{e:?}");
        let e = parse("# board 98\u{1680}\u{1680}").unwrap_err();
        assert_eq!(e.index(), 8);
    }

    #[test]
    fn bad_utf8_names_the_character() {
        let e = parse_line(BoardSize::STANDARD, b"4\xc3\xa94\xff").unwrap_err();
        assert_eq!(e, InputError::NotUtf8 { index: 3 });
        assert_eq!(e.to_string(), "character 4: not valid UTF-8");
    }

    #[test]
    fn a_position_alone_is_no_comment() {
        let e = parse_position(BoardSize::STANDARD, b" # board 6x5").unwrap_err();
        assert_eq!(e.index(), 1);
        assert_eq!(
            parse_position(BoardSize::STANDARD, b"44 3"),
            Ok(("44", Game::parse(BoardSize::STANDARD, "44").unwrap()))
        );
    }

    #[test]
    fn comments_and_board_headers() {
        assert_eq!(parse("  # hello\r"), Ok(Line::Comment("  # hello")));
        assert_eq!(parse("# board 7x6"), Ok(Line::Comment("# board 7x6")));
        let err = parse("# board 6x5").unwrap_err();
        assert_eq!(err.index(), 8);
        assert_eq!(
            err.to_string(),
            "character 9: this input is for the 6x5 board, but c4 runs on 7x6 \
             (use --width 6 --height 5)"
        );
        let err = parse("# board 3x9").unwrap_err();
        assert!(err.to_string().contains("too small"), "{err}");
    }

    #[test]
    fn long_lines_are_refused_at_the_limit() {
        let mut line = b"4453".to_vec();
        line.resize(MAX_LINE_BYTES, b' ');
        assert!(parse_line(BoardSize::STANDARD, &line).is_ok());
        line.push(b' ');
        let e = parse_line(BoardSize::STANDARD, &line).unwrap_err();
        assert_eq!(
            e,
            InputError::TooLong {
                index: MAX_LINE_BYTES
            }
        );
        assert!(
            e.to_string()
                .starts_with("character 1025: the line is longer"),
            "{e}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Any bytes: an answer, never a panic; an error points inside the
        /// line (or just past its end), and a position replays from its
        /// moves.
        #[test]
        fn any_bytes_give_an_answer(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            let chars = String::from_utf8_lossy(&bytes).chars().count();
            match parse_line(BoardSize::STANDARD, &bytes) {
                Ok(Line::Position { moves, position }) => {
                    prop_assert_eq!(Game::parse(BoardSize::STANDARD, moves), Ok(position));
                }
                Ok(Line::Comment(text)) => prop_assert!(text.trim_start().starts_with('#')),
                Err(e) => prop_assert!(e.index() <= chars, "{} in {:?}", e, bytes),
            }
        }

        /// Board headers with any whitespace, multi-byte kinds included,
        /// around any fields: an error names a character of the line.
        #[test]
        fn board_headers_with_any_whitespace_give_an_answer(
            text in "# board[ \t\u{85}\u{a0}\u{1680}\u{2003}\u{3000}0-9x]{0,20}"
        ) {
            if let Err(e) = parse_line(BoardSize::STANDARD, text.as_bytes()) {
                prop_assert!(e.index() < text.chars().count(), "{} in {:?}", e, text);
            }
        }

        /// Lines made of columns, blanks, signs and digits, the alphabet of
        /// real input, on a board of another size too.
        #[test]
        fn move_like_lines_give_an_answer(text in "[ 0-9a-c#\\-\\t\\r]{0,70}") {
            let _ = parse_line(BoardSize::STANDARD, text.as_bytes());
            let _ = parse_line(BoardSize::new(12, 4).unwrap(), text.as_bytes());
            if let Err(e) = parse_line(BoardSize::new(4, 4).unwrap(), text.as_bytes()) {
                prop_assert!(e.index() <= text.chars().count());
            }
        }
    }
}
