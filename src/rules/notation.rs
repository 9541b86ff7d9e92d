//! Move strings: the characters that name columns, and the error that names
//! the character at fault when a string cannot be replayed (replaying is in
//! `stones`).

use thiserror::Error;

/// Why a move string could not be replayed. Every index is the 0-based
/// character index in the string as given (leading whitespace included).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// A character that does not name a column of this board.
    #[error("character {} ({}) is not a column ({})", index + 1, char_name(*ch), column_range(*width))]
    InvalidColumn {
        /// 0-based index of the character.
        index: usize,
        /// The offending character.
        ch: char,
        /// The board's width, to say which columns exist.
        width: usize,
    },
    /// A move into a column that is already full.
    #[error("character {}: column {column} is already full", index + 1)]
    ColumnFull {
        /// 0-based index of the character.
        index: usize,
        /// 1-based column that is full.
        column: usize,
    },
    /// A move after one of the players has already connected four.
    #[error("character {}: the game was already won by the previous move", index + 1)]
    GameOver {
        /// 0-based index of the character.
        index: usize,
    },
    /// A move after every cell of the board is already filled.
    #[error("character {}: more moves than cells, the board is already full", index + 1)]
    TooManyMoves {
        /// 0-based index of the character.
        index: usize,
    },
}

impl ParseError {
    /// 0-based index of the character the error is about.
    pub fn index(&self) -> usize {
        match *self {
            ParseError::InvalidColumn { index, .. }
            | ParseError::ColumnFull { index, .. }
            | ParseError::GameOver { index }
            | ParseError::TooManyMoves { index } => index,
        }
    }
}

/// The character that names 0-based column `col` in a move string: `1`-`9`,
/// then `a`, `b`, `c`, ... for columns 10 and up.
pub fn column_char(col: usize) -> char {
    if col < 9 {
        (b'1' + col as u8) as char
    } else {
        (b'a' + (col - 9) as u8) as char
    }
}

/// The 0-based column named by `ch` (the inverse of [`column_char`], letters in
/// either case), or `None` if `ch` names no column of a board `width` wide.
pub fn column_from_char(ch: char, width: usize) -> Option<usize> {
    let col = match ch {
        '1'..='9' => ch as usize - '1' as usize,
        'a'..='z' => ch as usize - 'a' as usize + 9,
        'A'..='Z' => ch as usize - 'A' as usize + 9,
        _ => return None,
    };
    (col < width).then_some(col)
}

/// How the columns of a board `width` wide are written, for messages:
/// `1-7`, `1-9, a`, `1-9, a-c`.
pub fn column_range(width: usize) -> String {
    match width {
        0 => String::from("none"),
        1 => String::from("1"),
        2..=9 => format!("1-{width}"),
        10 => String::from("1-9, a"),
        _ => format!("1-9, a-{}", column_char(width - 1)),
    }
}

/// How a character is named in a message, so that one that cannot be seen
/// is still named: `'x'` for a visible one, `a space`, `a tab`, `U+FEFF (a
/// byte-order mark)`, and `U+XXXX` for any other blank, control or
/// invisible format character.
pub fn char_name(ch: char) -> String {
    match ch {
        ' ' => String::from("a space"),
        '\t' => String::from("a tab"),
        '\u{feff}' => String::from("U+FEFF, a byte-order mark"),
        _ if ch.is_whitespace() || ch.is_control() || is_invisible_format(ch) => {
            format!("U+{:04X}", u32::from(ch))
        }
        _ => format!("'{ch}'"),
    }
}

/// Whether `ch` is one of the format characters that show nothing (soft
/// hyphen, zero-width spaces and joiners, direction marks, word joiner).
fn is_invisible_format(ch: char) -> bool {
    matches!(ch, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}')
}

/// Writes a sequence of 0-based columns in the move-string notation.
pub fn moves_to_string(moves: &[usize]) -> String {
    moves.iter().map(|&c| column_char(c)).collect()
}
