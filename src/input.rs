//! The grammar of positions input, read from untrusted bytes by one parser
//! for every route in (the command line, stdin, test-set files, the page's
//! API, the Python and npm packages); `docs/input.md` writes it down for
//! users.
//!
//! * A **move string** is the columns played, 1-based (`4453`; nothing at
//!   all for the empty board), with blanks allowed before and after it but
//!   nothing inside: a space, a tab or any other character that names no
//!   column is an error naming it ([`parse_moves`]). Arguments, API
//!   parameters and library calls take a move string alone.
//! * A **line** (of stdin or a file) is a move string, then optionally
//!   blanks and a score: `MOVES [SCORE]`. The score must be one the
//!   position can have ([`ScoreKind`] says which): an impossible one is an
//!   error naming the field, never ignored. Nothing may follow it. A line
//!   whose first non-blank character is `#` is a comment, as a test set's
//!   header and comments are; a board header (`# board WxH`) must name the
//!   board read for ([`parse_line`]).
//!
//! Blanks are any Unicode whitespace (a `\r` before the line's end
//! included). Any bytes give an answer, never a panic, in time linear in
//! the length of the input.
//!
//! ```
//! use c4::BoardSize;
//! use c4::input::{Line, ScoreKind, parse_line, parse_moves};
//! let Ok(Line::Position { moves, position, score }) =
//!     parse_line(BoardSize::STANDARD, ScoreKind::Exact, b" 4453 -2\r")
//! else {
//!     panic!("a position");
//! };
//! assert_eq!((moves, position.moves_played(), score), ("4453", 4, Some(-2)));
//! // No score after two stones on 7x6 is 53.
//! let error = parse_line(BoardSize::STANDARD, ScoreKind::Exact, b"44 53").unwrap_err();
//! assert_eq!(error.index(), 3);
//! // A move string holds columns only.
//! let error = parse_moves(BoardSize::STANDARD, b"44 53").unwrap_err();
//! assert_eq!(error.to_string(), "character 3 (a space) is not a column (1-7)");
//! ```

use thiserror::Error;

use crate::board::{BoardError, BoardSize};
use crate::game::Game;
use crate::rules::{ParseError, Score};

/// The longest line read, in bytes. A position has at most 60 moves and its
/// score a few characters, so a longer line is an error without a look at
/// its end: readers keep this many bytes of a line (and one more, to tell
/// it is longer) and skip the rest, so that one endless line cannot take
/// the memory.
pub const MAX_LINE_BYTES: usize = 1024;

/// The UTF-8 byte-order mark, U+FEFF, that some editors write at the start
/// of a text file. Readers skip it at the start of their input (and say
/// so) with [`strip_byte_order_mark`]; anywhere else it is a character like
/// any other, named in the error.
pub const BYTE_ORDER_MARK: &[u8] = b"\xef\xbb\xbf";

/// `bytes` without a leading [`BYTE_ORDER_MARK`], and whether there was one.
pub fn strip_byte_order_mark(bytes: &[u8]) -> (&[u8], bool) {
    match bytes.strip_prefix(BYTE_ORDER_MARK) {
        Some(rest) => (rest, true),
        None => (bytes, false),
    }
}

/// Which scores a line's second field may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreKind {
    /// An exact score: from the lowest to the highest score the position
    /// can have ([`score_bounds`]), the one score of a finished game.
    Exact,
    /// For a weak solve: an exact score as above (so that a test set is read
    /// as it is), or a weak one, -1, 0 or 1, of a sign the position can
    /// have.
    Weak,
}

impl ScoreKind {
    /// Whether `score` is one of this kind that `position` can have.
    pub fn allows(self, position: &Game, score: i64) -> bool {
        let (min, max) = score_bounds(position);
        let exact = (i64::from(min)..=i64::from(max)).contains(&score);
        let weak = self == ScoreKind::Weak
            && (i64::from(min.signum())..=i64::from(max.signum())).contains(&score);
        exact || weak
    }
}

/// A line that names a position, or a comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line<'a> {
    /// A position.
    Position {
        /// The moves field, trimmed (empty for the empty board).
        moves: &'a str,
        /// The position after the moves.
        position: Game,
        /// The score the line gives, if any (checked, never trusted: a
        /// solver computes its own).
        score: Option<Score>,
    },
    /// A comment line, without its trailing whitespace.
    Comment(&'a str),
}

/// Why an input names no position. Every index is the 0-based index of a
/// character of the input, leading whitespace included; messages show it
/// 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InputError {
    /// The moves do not replay (the error names the character).
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The field after the moves is not an integer.
    #[error(
        "character {}: '{text}' after the moves is not a score \
         (a line is the moves, then at most a score)",
        index + 1
    )]
    NotAScore {
        /// Where the field starts.
        index: usize,
        /// The field.
        text: String,
    },
    /// The field after the moves is a score the position cannot have.
    #[error("character {}: {}", index + 1, impossible_score_message(*score, *moves, *bounds, *kind))]
    ImpossibleScore {
        /// Where the score starts.
        index: usize,
        /// The score as read.
        score: i64,
        /// Stones on the board.
        moves: usize,
        /// The lowest and highest exact score the position can have.
        bounds: (Score, Score),
        /// The kind of score that was asked for.
        kind: ScoreKind,
    },
    /// Something follows the score.
    #[error(
        "character {}: unexpected '{text}' after the score \
         (a line is the moves, then at most a score)",
        index + 1
    )]
    AfterScore {
        /// Where the unexpected text starts.
        index: usize,
        /// The unexpected text, trimmed.
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

/// Why `score` is no score of a position of `moves` stones whose exact
/// scores lie in `bounds`.
fn impossible_score_message(
    score: i64,
    moves: usize,
    (min, max): (Score, Score),
    kind: ScoreKind,
) -> String {
    let stones = if moves == 1 { "stone" } else { "stones" };
    let exact = if min == max {
        format!("the game is over: its score is {min}")
    } else {
        format!("after {moves} {stones} a score is from {min} to {max}")
    };
    let weak = match kind {
        ScoreKind::Exact => String::new(),
        ScoreKind::Weak if min.signum() == max.signum() => {
            format!(", or its sign {}", min.signum())
        }
        ScoreKind::Weak => format!(", or its sign {} to {}", min.signum(), max.signum()),
    };
    format!("{score} is not a score this position can have ({exact}{weak})")
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
            InputError::NotAScore { index, .. }
            | InputError::ImpossibleScore { index, .. }
            | InputError::AfterScore { index, .. }
            | InputError::NotUtf8 { index }
            | InputError::Board { index, .. }
            | InputError::TooLong { index } => *index,
        }
    }
}

/// Reads a move string alone for `board` (see the module documentation):
/// the moves, trimmed, and the position they reach. Any character inside
/// that names no column, a blank included, is an error naming it.
pub fn parse_moves(board: BoardSize, bytes: &[u8]) -> Result<(&str, Game), InputError> {
    let text = utf8_line(bytes)?;
    let position = Game::parse(board, text)?;
    Ok((text.trim(), position))
}

/// Reads one line (without its `\n`; a `\r` before it is a blank) for
/// `board`: a comment, or `MOVES [SCORE]` with a score of `kind`. See the
/// module documentation.
pub fn parse_line(board: BoardSize, kind: ScoreKind, bytes: &[u8]) -> Result<Line<'_>, InputError> {
    let text = utf8_line(bytes)?;
    if is_comment(text) {
        return comment(board, text);
    }
    let (moves, position, score) = parse_position_line(board, kind, text)?;
    Ok(Line::Position {
        moves,
        position,
        score,
    })
}

/// Reads `MOVES [SCORE]` from `text` (no comment, no length limit: for a
/// reader that deals with those itself, as a test set's does): the moves,
/// trimmed, the position they reach and the score, checked against `kind`.
pub fn parse_position_line(
    board: BoardSize,
    kind: ScoreKind,
    text: &str,
) -> Result<(&str, Game, Option<Score>), InputError> {
    let (moves, rest) = split_field(text);
    let position = Game::parse(board, moves)?;
    let moves = moves.trim();
    let (score_text, after) = split_field(rest);
    let score_field = score_text.trim();
    if score_field.is_empty() {
        return Ok((moves, position, None));
    }
    let index_of = |field: &str| {
        let start = text.len() - field.len();
        text[..start].chars().count()
    };
    let score_index = index_of(score_text.trim_start());
    let Ok(score) = score_field.parse::<i64>() else {
        return Err(InputError::NotAScore {
            index: score_index,
            text: score_field.to_owned(),
        });
    };
    if !kind.allows(&position, score) {
        return Err(InputError::ImpossibleScore {
            index: score_index,
            score,
            moves: position.moves_played(),
            bounds: score_bounds(&position),
            kind,
        });
    }
    let extra = after.trim();
    if !extra.is_empty() {
        return Err(InputError::AfterScore {
            index: index_of(after.trim_start()),
            text: extra.to_owned(),
        });
    }
    let score = Score::try_from(score).expect("a score within the bounds fits");
    Ok((moves, position, Some(score)))
}

/// The range of scores a position can have: a single value once the game is
/// won (the score the solver gives it), otherwise from losing to the
/// opponent's next stone to winning with one's own (0 and 0 on a full
/// board).
pub fn score_bounds(pos: &Game) -> (Score, Score) {
    if pos.is_won() {
        (pos.lost_score(), pos.lost_score())
    } else {
        pos.score_range()
    }
}

/// The prefix of a board header line (`# board 7x6`); the board follows it.
pub const BOARD_HEADER_PREFIX: &str = "# board ";

/// Reads a board header line: `None` if `line` is not one, else the board it
/// names or why it names none.
pub fn parse_board_header(line: &str) -> Option<Result<BoardSize, BoardError>> {
    line.trim()
        .strip_prefix(BOARD_HEADER_PREFIX.trim_end())
        .filter(|rest| rest.starts_with(char::is_whitespace))
        .map(str::parse)
}

/// Whether `line` is a comment (a board header included): its first
/// non-blank character is `#`.
pub fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
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
fn split_field(text: &str) -> (&str, &str) {
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
        parse_line(BoardSize::STANDARD, ScoreKind::Exact, text.as_bytes())
    }

    fn moves_of(text: &str) -> (String, usize) {
        match parse(text).unwrap() {
            Line::Position {
                moves, position, ..
            } => (moves.to_owned(), position.moves_played()),
            Line::Comment(c) => panic!("a comment: {c}"),
        }
    }

    fn score_of(kind: ScoreKind, text: &str) -> Result<Option<Score>, InputError> {
        match parse_line(BoardSize::STANDARD, kind, text.as_bytes())? {
            Line::Position { score, .. } => Ok(score),
            Line::Comment(c) => panic!("a comment: {c}"),
        }
    }

    #[test]
    fn moves_alone_and_with_score() {
        assert_eq!(moves_of("4453"), ("4453".to_owned(), 4));
        assert_eq!(moves_of("  4453 -7\r"), ("4453".to_owned(), 4));
        assert_eq!(score_of(ScoreKind::Exact, "4453\t\t-7 \r"), Ok(Some(-7)));
        assert_eq!(score_of(ScoreKind::Exact, "4453 +7"), Ok(Some(7)));
        assert_eq!(score_of(ScoreKind::Exact, "4453"), Ok(None));
    }

    #[test]
    fn a_score_must_be_one_the_position_can_have() {
        // After two stones on 7x6 a score is from -20 to 20.
        for line in ["44 53", "44\t53", "44 -21", "44 99999999999999999"] {
            let e = score_of(ScoreKind::Exact, line).unwrap_err();
            assert!(
                matches!(e, InputError::ImpossibleScore { index: 3, .. }),
                "{e:?}"
            );
        }
        assert_eq!(
            parse("44 53").unwrap_err().to_string(),
            "character 4: 53 is not a score this position can have \
             (after 2 stones a score is from -20 to 20)"
        );
        assert_eq!(score_of(ScoreKind::Exact, "44 20"), Ok(Some(20)));
        assert_eq!(score_of(ScoreKind::Exact, "44 -20"), Ok(Some(-20)));
        // A finished game has one score: X won with its 4th stone.
        assert_eq!(score_of(ScoreKind::Exact, "1212121 -18"), Ok(Some(-18)));
        assert_eq!(
            parse("1212121 -1").unwrap_err().to_string(),
            "character 9: -1 is not a score this position can have \
             (the game is over: its score is -18)"
        );
        // A weak solve takes the sign as well.
        assert_eq!(score_of(ScoreKind::Weak, "1212121 -1"), Ok(Some(-1)));
        assert_eq!(score_of(ScoreKind::Weak, "1212121 -18"), Ok(Some(-18)));
        let e = score_of(ScoreKind::Weak, "1212121 1").unwrap_err();
        assert!(
            e.to_string().ends_with("its score is -18, or its sign -1)"),
            "{e}"
        );
        let e = score_of(ScoreKind::Weak, "44 53").unwrap_err();
        assert!(
            e.to_string()
                .ends_with("from -20 to 20, or its sign -1 to 1)"),
            "{e}"
        );
    }

    #[test]
    fn a_move_string_holds_columns_only() {
        let board = BoardSize::STANDARD;
        assert_eq!(parse_moves(board, b" 4453 \r").unwrap().0, "4453");
        for (text, message) in [
            ("44 53", "character 3 (a space) is not a column (1-7)"),
            ("44\t53", "character 3 (a tab) is not a column (1-7)"),
            ("4453 -2", "character 5 (a space) is not a column (1-7)"),
            (
                "\u{feff}4453",
                "character 1 (U+FEFF, a byte-order mark) is not a column (1-7)",
            ),
            ("44\u{a0}5", "character 3 (U+00A0) is not a column (1-7)"),
            ("44x", "character 3 ('x') is not a column (1-7)"),
        ] {
            let e = parse_moves(board, text.as_bytes()).unwrap_err();
            assert_eq!(e.to_string(), message, "{text:?}");
        }
        let e = parse_moves(board, b"4\xff").unwrap_err();
        assert_eq!(e, InputError::NotUtf8 { index: 1 });
    }

    #[test]
    fn a_byte_order_mark_is_stripped_at_the_start_only() {
        assert_eq!(
            strip_byte_order_mark(b"\xef\xbb\xbf4453"),
            (&b"4453"[..], true)
        );
        assert_eq!(strip_byte_order_mark(b"4453"), (&b"4453"[..], false));
        assert_eq!(
            strip_byte_order_mark(b"\xef\xbb"),
            (&b"\xef\xbb"[..], false)
        );
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
            InputError::NotAScore {
                index: 3,
                text: "x".into()
            }
        );
        let e = parse("4 4 5 3").unwrap_err();
        assert_eq!(
            e,
            InputError::AfterScore {
                index: 4,
                text: "5 3".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "character 5: unexpected '5 3' after the score \
             (a line is the moves, then at most a score)"
        );
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
        let e = parse_line(BoardSize::STANDARD, ScoreKind::Exact, b"4\xc3\xa94\xff").unwrap_err();
        assert_eq!(e, InputError::NotUtf8 { index: 3 });
        assert_eq!(e.to_string(), "character 4: not valid UTF-8");
    }

    #[test]
    fn a_move_string_is_no_comment() {
        let e = parse_moves(BoardSize::STANDARD, b" # board 6x5").unwrap_err();
        assert_eq!(e.index(), 1);
        assert_eq!(
            parse_moves(BoardSize::STANDARD, b" 44 "),
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
        assert!(parse_line(BoardSize::STANDARD, ScoreKind::Exact, &line).is_ok());
        line.push(b' ');
        let e = parse_line(BoardSize::STANDARD, ScoreKind::Exact, &line).unwrap_err();
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
            match parse_line(BoardSize::STANDARD, ScoreKind::Exact, &bytes) {
                Ok(Line::Position { moves, position, score }) => {
                    prop_assert_eq!(Game::parse(BoardSize::STANDARD, moves), Ok(position));
                    if let Some(score) = score {
                        prop_assert!(ScoreKind::Exact.allows(&position, score.into()));
                    }
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
            if let Err(e) = parse_line(BoardSize::STANDARD, ScoreKind::Exact, text.as_bytes()) {
                prop_assert!(e.index() < text.chars().count(), "{} in {:?}", e, text);
            }
        }

        /// Lines made of columns, blanks, signs and digits, the alphabet of
        /// real input, on a board of another size too.
        #[test]
        fn move_like_lines_give_an_answer(text in "[ 0-9a-c#\\-\\t\\r]{0,70}") {
            let _ = parse_line(BoardSize::STANDARD, ScoreKind::Weak, text.as_bytes());
            let _ = parse_moves(BoardSize::new(12, 4).unwrap(), text.as_bytes());
            if let Err(e) = parse_line(BoardSize::new(4, 4).unwrap(), ScoreKind::Exact, text.as_bytes()) {
                prop_assert!(e.index() <= text.chars().count());
            }
            // A move string is read as the line's first field is, when it
            // is all there is.
            if !text.trim().contains(char::is_whitespace) && !text.trim_start().starts_with('#') {
                let alone = parse_moves(BoardSize::STANDARD, text.as_bytes());
                let line = parse_line(BoardSize::STANDARD, ScoreKind::Exact, text.as_bytes());
                match (alone, line) {
                    (Ok((m, g)), Ok(Line::Position { moves, position, score: None })) => {
                        prop_assert_eq!((m, g), (moves, position));
                    }
                    (Err(a), Err(b)) => prop_assert_eq!(a, b),
                    (a, b) => prop_assert!(false, "{:?} against {:?}", a, b),
                }
            }
        }
    }
}
