//! Replaying a move string onto a [`Position`], drawing it, decoding it
//! from its key and finding a line of moves to it: each done by the rules
//! on the raw bits of its stones ([`Stones`]), written and compiled once for
//! every board size.

use std::fmt;

use super::Position;
use crate::Bitboard;
use crate::board::BoardSize;
use crate::rules::{ParseError, Stones};

impl<const W: usize, const H: usize, B: Bitboard> Position<W, H, B> {
    /// This position's stones, for the rules written for every size.
    fn stones(&self) -> Stones {
        Stones::of::<W, H, B>(self.current, self.mask, self.moves)
    }

    /// The position of `stones`, which are on this board.
    fn of_stones(stones: &Stones) -> Self {
        debug_assert_eq!(stones.board(), BoardSize::of::<W, H>());
        Position::from_bits(
            B::from_u128(stones.current()),
            B::from_u128(stones.mask()),
            stones.moves(),
        )
    }

    /// Replays a move string (columns `1`-`9`, then `a`... for wider boards)
    /// from the empty board. Leading and trailing whitespace, including a
    /// trailing `\r`, is ignored.
    pub fn parse(moves: &str) -> Result<Self, ParseError> {
        let mut pos = Self::new();
        pos.play_str(moves)?;
        Ok(pos)
    }

    /// Plays a move string from this position; see [`Position::parse`]. On
    /// error the position is left as it was before the offending character.
    pub fn play_str(&mut self, moves: &str) -> Result<(), ParseError> {
        let mut stones = self.stones();
        let result = stones.play_str(moves);
        *self = Self::of_stones(&stones);
        result
    }

    /// The position whose [`Position::key`] is `key`, if `key` describes a
    /// possible position: every column's stones packed from the bottom, the
    /// side to move having played as many stones as its turn says (half the
    /// stones, rounded down) and no four of its own. (Not every such position
    /// is reachable in a game: [`Position::line`] finds a game.)
    /// Opening books store keys and rebuild positions with this.
    pub fn from_key(key: B) -> Option<Self> {
        Stones::from_key(BoardSize::of::<W, H>(), key.to_u128())
            .map(|stones| Self::of_stones(&stones))
    }

    /// A sequence of moves (0-based columns) that reaches this position
    /// from the empty board, or `None` if none does (a position that cannot
    /// arise in a game).
    pub fn line(&self) -> Option<Vec<usize>> {
        self.stones().line()
    }
}

impl<const W: usize, const H: usize, B: Bitboard> fmt::Display for Position<W, H, B> {
    /// Draws the board top row first, with column labels below and a line
    /// saying whose turn it is (or how the game ended).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.stones(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::column_range;

    type P = Position<7, 6>;

    #[test]
    fn parse_trims_whitespace_and_cr() {
        let p = P::parse("  4453\r").unwrap();
        assert_eq!(p.moves_played(), 4);
        assert_eq!(p, P::parse("4453").unwrap());
    }

    #[test]
    fn error_indexes_count_leading_whitespace() {
        assert_eq!(
            P::parse("  48").unwrap_err(),
            ParseError::InvalidColumn {
                index: 3,
                ch: '8',
                width: 7
            }
        );
    }

    #[test]
    fn a_failed_string_leaves_the_moves_before_the_fault() {
        let mut p = P::parse("44").unwrap();
        assert!(p.play_str("4x").is_err());
        assert_eq!(p, P::parse("444").unwrap());
    }

    #[test]
    fn wide_boards_name_columns_with_letters() {
        assert_eq!(column_range(7), "1-7");
        assert_eq!(column_range(10), "1-9, a");
        assert_eq!(column_range(12), "1-9, a-c");
        let p = Position::<12, 4>::parse("9aAbc").unwrap();
        assert_eq!(p.column_height(9), 2);
        assert_eq!(p.column_height(11), 1);
        assert_eq!(
            Position::<12, 4>::parse("9abd").unwrap_err().to_string(),
            "character 4 ('d') is not a column (1-9, a-c)"
        );
    }

    #[test]
    fn keys_lines_and_drawings_come_back_to_the_position() {
        let p = P::parse("4453").unwrap();
        assert_eq!(P::from_key(p.key()), Some(p));
        let line = p.line().unwrap();
        let mut again = P::new();
        for col in line {
            again.play_col(col);
        }
        assert_eq!(again, p);
        assert!(p.to_string().ends_with("X to move (move 5)"));
    }
}
