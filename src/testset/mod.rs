//! Test sets: files of `moves score` lines, one position and its exact score
//! per line, as in the standard Connect Four benchmark sets.
//!
//! A line is the move string (columns `1`-`7` on the standard board, see
//! [`Game::parse`]), whitespace, then the exact score for the side to move
//! (see [`crate::solver`]). This module parses lines into [`TestCase`]s with
//! errors that say what is wrong and where, reads whole sets line by line so
//! that one bad line does not hide the others, and writes lines back in the
//! same format. [`generate`](mod@generate) makes new graded sets.
//!
//! # Board header
//! A set records its board in a first line `# board WxH` (see
//! [`board_header`]); a set without one (the standard sets) is on the 7x6
//! board. Other lines starting with `#` are comments. Readers of a set check
//! its board with [`set_board`] and refuse a set of another board: its lines
//! could replay on a wider board and give scores that mean nothing.
//!
//! ```
//! use c4::BoardSize;
//! use c4::testset::{parse_line, TestCase};
//! let case: TestCase = parse_line(BoardSize::STANDARD, "4453 -2").unwrap();
//! assert_eq!(case.position.moves_played(), 4);
//! assert_eq!(case.to_string(), "4453 -2");
//! ```

pub mod difficulty;
pub mod generate;

use std::fmt;

use thiserror::Error;

use crate::board::{BoardError, BoardSize};
use crate::game::Game;
use crate::rules::{ParseError, Score};

pub use difficulty::{Difficulty, Grading};
pub use generate::{GenerateConfig, GenerateError, GenerateProgress, GeneratedCase, generate};

/// One line of a test set: a position and the score it should have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestCase {
    /// The move string as written in the line (its first field).
    pub moves: String,
    /// The exact score the line gives for the side to move.
    pub score: Score,
    /// The position the moves lead to, on the board the set was read for.
    pub position: Game,
}

impl TestCase {
    /// The expected result of a weak solve: the sign of [`TestCase::score`].
    pub fn weak_score(&self) -> Score {
        self.score.signum()
    }
}

impl fmt::Display for TestCase {
    /// Writes the case as a test-set line, `moves score` (no newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", format_line(&self.moves, self.score))
    }
}

/// Why a test-set line could not be read. Every index is the 0-based
/// character index in the line; messages show it 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineError {
    /// A board header naming another board than the one being read for.
    #[error("this set is for the {found} board, not {expected}")]
    WrongBoard {
        /// The board the header names.
        found: BoardSize,
        /// The board the reader wants.
        expected: BoardSize,
    },
    /// A line that starts like a board header but names no supported board.
    #[error("bad board header: {0}")]
    BadHeader(BoardError),
    /// The line has no field at all.
    #[error("empty line")]
    Empty,
    /// The move string does not replay; its index is the line's too.
    #[error("invalid moves: {0}")]
    Moves(#[from] ParseError),
    /// The line has moves but no score after them.
    #[error("missing score after the moves")]
    MissingScore,
    /// The second field is not an integer.
    #[error("character {}: '{text}' is not a score (an integer)", index + 1)]
    InvalidScore {
        /// 0-based index of the field's first character.
        index: usize,
        /// The field as written.
        text: String,
    },
    /// The score cannot be the score of this position: no game from it ends
    /// with that score.
    #[error(
        "character {}: score {score} is impossible after {moves} moves (it must be from {min} to {max})",
        index + 1
    )]
    ScoreOutOfRange {
        /// 0-based index of the score's first character.
        index: usize,
        /// The score as read.
        score: Score,
        /// Moves played in the position.
        moves: usize,
        /// The lowest score the position can have.
        min: Score,
        /// The highest score the position can have.
        max: Score,
    },
    /// Something follows the score.
    #[error("character {}: unexpected extra field '{text}' after the score", index + 1)]
    ExtraField {
        /// 0-based index of the field's first character.
        index: usize,
        /// The field as written.
        text: String,
    },
}

impl LineError {
    /// 0-based character index of the problem in the line, when it has one.
    pub fn index(&self) -> Option<usize> {
        match self {
            LineError::Empty
            | LineError::MissingScore
            | LineError::WrongBoard { .. }
            | LineError::BadHeader(_) => None,
            LineError::Moves(e) => Some(e.index()),
            LineError::InvalidScore { index, .. }
            | LineError::ScoreOutOfRange { index, .. }
            | LineError::ExtraField { index, .. } => Some(*index),
        }
    }
}

/// The range of scores a position can have: a single value once the game is
/// won (the score the solver gives it), otherwise from losing to the
/// opponent's next stone to winning with one's own.
pub fn score_bounds(pos: &Game) -> (Score, Score) {
    if pos.is_won() {
        (pos.lost_score(), pos.lost_score())
    } else {
        pos.score_range()
    }
}

/// The prefix of a board header line; the board follows it.
const HEADER_PREFIX: &str = "# board ";

/// The header line that records a set's board, e.g. `# board 7x6` (no
/// newline).
pub fn board_header(board: BoardSize) -> String {
    format!("{HEADER_PREFIX}{board}")
}

/// Reads a board header line: `None` if `line` is not one, else the board it
/// names or why it names none.
pub fn parse_board_header(line: &str) -> Option<Result<BoardSize, BoardError>> {
    line.trim()
        .strip_prefix(HEADER_PREFIX.trim_end())
        .filter(|rest| rest.starts_with(char::is_whitespace))
        .map(str::parse)
}

/// Whether `line` is a comment (a board header included): its first
/// non-blank character is `#`.
pub fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

/// The board of a set whose first lines are `lines`: the one its header
/// names (the header must come before the first position), or 7x6 if it has
/// none. An error if the header names no supported board.
pub fn set_board<I>(lines: I) -> Result<BoardSize, BoardError>
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    header_board(lines).map(|board| board.unwrap_or(BoardSize::STANDARD))
}

/// The board the header of a set whose first lines are `lines` names, `None`
/// if it has no header (the header must come before the first position): a
/// reader told the board some other way reads a headerless set on that one.
/// An error if the header names no supported board.
pub fn header_board<I>(lines: I) -> Result<Option<BoardSize>, BoardError>
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    for line in lines {
        let line = line.as_ref();
        if let Some(board) = parse_board_header(line) {
            return board.map(Some);
        }
        if !line.trim().is_empty() && !is_comment(line) {
            break;
        }
    }
    Ok(None)
}

/// The whitespace-separated fields of `line`, each with the 0-based character
/// index where it starts and the byte range it spans.
fn fields(line: &str) -> impl Iterator<Item = (usize, &str, std::ops::Range<usize>)> {
    let mut chars = line.char_indices().enumerate().peekable();
    std::iter::from_fn(move || {
        while chars.next_if(|(_, (_, c))| c.is_whitespace()).is_some() {}
        let (index, (start, _)) = chars.next()?;
        let mut end = line.len();
        for (_, (byte, c)) in chars.by_ref() {
            if c.is_whitespace() {
                end = byte;
                break;
            }
        }
        Some((index, &line[start..end], start..end))
    })
}

/// Parses one test-set line of a set on `board`, `moves score`. Leading and
/// trailing whitespace (a `\r` included) is ignored; fields are separated by
/// any whitespace.
pub fn parse_line(board: BoardSize, line: &str) -> Result<TestCase, LineError> {
    let mut fields = fields(line);
    let (_, moves, range) = fields.next().ok_or(LineError::Empty)?;
    // Parse the line up to the end of the moves, so that the error indexes
    // are the line's.
    let position = Game::parse(board, &line[..range.end])?;
    let (index, text, _) = fields.next().ok_or(LineError::MissingScore)?;
    let score: Score = text.parse().map_err(|_| LineError::InvalidScore {
        index,
        text: text.to_owned(),
    })?;
    let (min, max) = score_bounds(&position);
    if !(min..=max).contains(&score) {
        return Err(LineError::ScoreOutOfRange {
            index,
            score,
            moves: position.moves_played(),
            min,
            max,
        });
    }
    if let Some((index, text, _)) = fields.next() {
        return Err(LineError::ExtraField {
            index,
            text: text.to_owned(),
        });
    }
    Ok(TestCase {
        moves: moves.to_owned(),
        score,
        position,
    })
}

/// A test-set line as read: its 1-based line number and the case or the
/// reason it could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetLine {
    /// 1-based line number in the set.
    pub number: usize,
    /// The case, or why the line is invalid.
    pub result: Result<TestCase, LineError>,
}

/// Parses lines of a test set on `board`, each on its own: a bad line yields
/// an error and reading goes on. Blank lines and comments are skipped (and
/// still counted in the line numbers); a board header naming another board
/// than `board` is an error ([`LineError::WrongBoard`]). A set without a header
/// is not refused here: check it with [`set_board`] first. Works on any
/// iterator of lines: `text.lines()`, or `BufRead::lines()` once its I/O
/// errors are dealt with.
pub fn parse_lines<I>(board: BoardSize, lines: I) -> impl Iterator<Item = SetLine>
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    lines.into_iter().enumerate().filter_map(move |(i, line)| {
        let line = line.as_ref();
        let result = match parse_board_header(line) {
            Some(Ok(found)) if found == board => return None,
            Some(Ok(found)) => Err(LineError::WrongBoard {
                found,
                expected: board,
            }),
            Some(Err(e)) => Err(LineError::BadHeader(e)),
            None if line.trim().is_empty() || is_comment(line) => return None,
            None => parse_line(board, line),
        };
        Some(SetLine {
            number: i + 1,
            result,
        })
    })
}

/// Parses a whole test set on `board` held in memory; see [`parse_lines`].
pub fn parse_set(board: BoardSize, text: &str) -> impl Iterator<Item = SetLine> + '_ {
    parse_lines(board, text.lines())
}

/// The most cases a set of `file_bytes` bytes holds: a case takes at least
/// four bytes (`1 0` and a newline).
pub fn most_cases(file_bytes: usize) -> usize {
    file_bytes / 4
}

/// The most memory reading a set of `file_bytes` bytes takes: the text, and
/// for each case a [`TestCase`] and its moves (no more bytes, all together,
/// than the text).
pub fn set_bytes(file_bytes: usize) -> usize {
    file_bytes
        .saturating_mul(2)
        .saturating_add(most_cases(file_bytes).saturating_mul(std::mem::size_of::<TestCase>()))
}

/// Writes a test-set line, `moves score`, without a newline: exactly the
/// standard format, so that generated sets and outputs diff against them.
pub fn format_line(moves: &str, score: Score) -> String {
    format!("{moves} {score}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// Parses a line of a 7x6 set.
    fn parse(line: &str) -> Result<TestCase, LineError> {
        parse_line(BoardSize::STANDARD, line)
    }

    #[test]
    fn parses_a_line() {
        let case = parse("1644236131523113664122472667742 -2").unwrap();
        assert_eq!(case.moves, "1644236131523113664122472667742");
        assert_eq!(case.score, -2);
        assert_eq!(case.weak_score(), -1);
        assert_eq!(case.position.moves_played(), 31);
    }

    #[test]
    fn accepts_tabs_spaces_and_crlf() {
        let case = parse("  4453\t\t-2\r").unwrap();
        assert_eq!(case.moves, "4453");
        assert_eq!(case.score, -2);
        assert_eq!(
            case.position,
            Game::parse(BoardSize::STANDARD, "4453").unwrap()
        );
    }

    #[test]
    fn bad_move_reports_its_index_in_the_line() {
        assert_eq!(
            parse(" 4483 1"),
            Err(LineError::Moves(ParseError::InvalidColumn {
                index: 3,
                ch: '8',
                width: 7
            }))
        );
        let err = parse("1111111 0").unwrap_err();
        assert_eq!(err.index(), Some(6));
        assert!(matches!(
            err,
            LineError::Moves(ParseError::ColumnFull { column: 1, .. })
        ));
        assert_eq!(
            err.to_string(),
            "invalid moves: character 7: column 1 is already full"
        );
    }

    #[test]
    fn missing_invalid_and_out_of_range_scores() {
        assert_eq!(parse("4453"), Err(LineError::MissingScore));
        assert_eq!(parse("4453   "), Err(LineError::MissingScore));
        assert_eq!(
            parse("4453 x2"),
            Err(LineError::InvalidScore {
                index: 5,
                text: "x2".into()
            })
        );
        assert_eq!(
            parse("4453 1.5").unwrap_err().to_string(),
            "character 6: '1.5' is not a score (an integer)"
        );
        // After 4 moves the side to move scores between -19 and 19.
        assert_eq!(
            parse("4453 20"),
            Err(LineError::ScoreOutOfRange {
                index: 5,
                score: 20,
                moves: 4,
                min: -19,
                max: 19
            })
        );
        assert!(parse("4453 19").is_ok());
        assert!(parse("4453 -19").is_ok());
    }

    #[test]
    fn extra_fields_and_empty_lines() {
        assert_eq!(
            parse("4453 -2 7"),
            Err(LineError::ExtraField {
                index: 8,
                text: "7".into()
            })
        );
        assert_eq!(parse(""), Err(LineError::Empty));
        assert_eq!(parse(" \t "), Err(LineError::Empty));
        assert_eq!(LineError::Empty.index(), None);
    }

    #[test]
    fn won_positions_have_a_single_possible_score() {
        // The first player connected four with its 4th stone (move 7): the
        // side to move lost, the score the solver gives is -(42 + 2 - 7) / 2.
        let pos = Position::<7, 6>::parse("1212121").unwrap();
        assert_eq!(score_bounds(&Game::of(&pos)), (-18, -18));
        assert!(parse("1212121 -18").is_ok());
        assert!(matches!(
            parse("1212121 0"),
            Err(LineError::ScoreOutOfRange { .. })
        ));
    }

    #[test]
    fn format_round_trips() {
        for line in ["4453 -2", "1 0", "1644236131523113664122472667742 -2"] {
            let case = parse(line).unwrap();
            assert_eq!(case.to_string(), line);
            assert_eq!(parse(&case.to_string()), Ok(case));
        }
        assert_eq!(format_line("44", 3), "44 3");
    }

    #[test]
    fn a_set_reports_every_line_on_its_own() {
        let text = "4453 -2\n\n4489 1\n44 -1 extra\n12 3\n";
        let lines: Vec<SetLine> = parse_set(BoardSize::STANDARD, text).collect();
        let numbers: Vec<usize> = lines.iter().map(|l| l.number).collect();
        assert_eq!(numbers, [1, 3, 4, 5]);
        assert!(lines[0].result.is_ok());
        assert!(matches!(lines[1].result, Err(LineError::Moves(_))));
        assert!(matches!(lines[2].result, Err(LineError::ExtraField { .. })));
        assert_eq!(lines[3].result.as_ref().unwrap().score, 3);
    }

    #[test]
    fn parse_lines_takes_owned_strings_too() {
        let owned = vec![String::from("4 1"), String::from("44 0")];
        let scores: Vec<Score> = parse_lines(BoardSize::STANDARD, owned)
            .map(|l| l.result.unwrap().score)
            .collect();
        assert_eq!(scores, [1, 0]);
    }

    proptest::proptest! {
        #[test]
        fn random_positions_round_trip(seed: u64, moves in 1usize..=41) {
            let mut rng = crate::rng::SplitMix64::new(seed);
            let drawn = generate::random_position(BoardSize::STANDARD, &mut rng, moves, moves);
            if let Some((position, moves)) = drawn {
                let (min, max) = score_bounds(&position);
                for score in [min, 0, max] {
                    let case = TestCase { moves: moves.clone(), score, position };
                    proptest::prop_assert_eq!(parse(&case.to_string()), Ok(case));
                }
            }
        }

        #[test]
        fn any_line_parses_or_says_where_it_is_wrong(line in "[ 0-9a-z\t-]{0,50}") {
            if let Err(e) = parse(&line)
                && let Some(index) = e.index()
            {
                proptest::prop_assert!(index < line.chars().count(), "{e}");
            }
        }
    }

    #[test]
    fn board_headers() {
        let board: BoardSize = "6x5".parse().unwrap();
        assert_eq!(board_header(board), "# board 6x5");
        assert_eq!(parse_board_header("# board 6x5\r"), Some(Ok(board)));
        assert_eq!(parse_board_header("4453 -2"), None);
        assert_eq!(parse_board_header("# boarding"), None);
        assert!(matches!(parse_board_header("# board 3x3"), Some(Err(_))));
        assert_eq!(
            set_board(["", "# a comment", "# board 6x5", "1 0"]),
            Ok(board)
        );
        assert_eq!(
            set_board(["4453 -2", "# board 6x5"]),
            Ok(BoardSize::STANDARD)
        );
        assert_eq!(set_board(Vec::<String>::new()), Ok(BoardSize::STANDARD));
        assert_eq!(header_board(["4453 -2"]), Ok(None));
        assert_eq!(header_board(["# c", "# board 6x5", "1 0"]), Ok(Some(board)));

        // Read for 7x6, a 6x5 set's header is an error; its own board is
        // skipped like a comment.
        let text = "# board 6x5\n# comment\n1 0\n";
        let on_7x6: Vec<SetLine> = parse_set(BoardSize::STANDARD, text).collect();
        assert_eq!(on_7x6.len(), 2);
        assert_eq!(
            on_7x6[0].result,
            Err(LineError::WrongBoard {
                found: board,
                expected: BoardSize::STANDARD
            })
        );
        assert_eq!(
            on_7x6[0].result.as_ref().unwrap_err().to_string(),
            "this set is for the 6x5 board, not 7x6"
        );
        let on_6x5: Vec<SetLine> = parse_set(board, text).collect();
        assert_eq!(on_6x5.len(), 1);
        assert_eq!(on_6x5[0].number, 3);
        assert!(on_6x5[0].result.is_ok());
    }

    #[test]
    fn other_board_sizes() {
        let case = parse_line(BoardSize::new(8, 7).unwrap(), "88 0").unwrap();
        assert_eq!(case.position.column_height(7), 2);
        assert!(parse_line(BoardSize::new(6, 5).unwrap(), "7 0").is_err());
    }
}
