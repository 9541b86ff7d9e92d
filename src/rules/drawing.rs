//! Drawing a board as text: rows of stones, the column labels and a line
//! saying whose turn it is or how the game ended.

use std::fmt;

use super::{Player, Stones, column_char};

impl fmt::Display for Stones {
    /// Draws the board top row first, with column labels below and a line
    /// saying whose turn it is (or how the game ended).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (width, height) = (self.board.width(), self.board.height());
        for row in (0..height).rev() {
            for col in 0..width {
                let ch = self.stone_at(col, row).map_or('.', Player::symbol);
                write!(f, "{}{ch}", if col == 0 { "" } else { " " })?;
            }
            writeln!(f)?;
        }
        for col in 0..width {
            write!(f, "{}{}", if col == 0 { "" } else { " " }, column_char(col))?;
        }
        writeln!(f)?;
        if self.is_won() {
            write!(
                f,
                "{} has won on move {}",
                self.side_to_move().other().symbol(),
                self.moves
            )
        } else if self.is_full() {
            write!(f, "the board is full: draw")
        } else {
            write!(
                f,
                "{} to move (move {})",
                self.side_to_move().symbol(),
                self.moves + 1
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSize;

    #[test]
    fn a_board_is_drawn_top_row_first() {
        let mut stones = Stones::new(BoardSize::new(4, 4).unwrap());
        stones.play_str("1122").unwrap();
        assert_eq!(
            stones.to_string(),
            ". . . .\n. . . .\nO O . .\nX X . .\n1 2 3 4\nX to move (move 5)"
        );
        stones.play_str("334").unwrap();
        assert!(stones.to_string().ends_with("X has won on move 7"));
    }
}
