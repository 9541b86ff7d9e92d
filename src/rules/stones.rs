//! [`Stones`]: the raw bits of a position on a board chosen at run time,
//! and replaying a move string on them, written once for every board size.

use super::{ParseError, Player, Rules, column_from_char};
use crate::Bitboard;
use crate::board::{BoardSize, for_board};

/// The stones of a position on a board known only at run time: the bits
/// of [`Rules`]' layout widened to `u128`. The fixed-size
/// [`crate::Position`] and the run-time [`crate::Game`] hand their stones
/// to it for what is not worth compiling once per size: replaying a move
/// string, decoding a key, finding a line and drawing the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Stones {
    /// The board.
    pub(super) board: BoardSize,
    /// Stones of the side to move.
    pub(super) current: u128,
    /// Every occupied cell.
    pub(super) mask: u128,
    /// Number of stones on the board.
    pub(super) moves: u32,
}

impl Stones {
    /// The empty board of `board`, first player to move.
    pub(crate) fn new(board: BoardSize) -> Stones {
        Stones {
            board,
            current: 0,
            mask: 0,
            moves: 0,
        }
    }

    /// The stones `current` (the side to move's) and `mask` (all of them),
    /// `moves` stones in all, on `board`. Nothing is checked.
    pub(crate) fn from_bits(board: BoardSize, current: u128, mask: u128, moves: u32) -> Stones {
        Stones {
            board,
            current,
            mask,
            moves,
        }
    }

    /// The stones `current` (the side to move's) and `mask` (all of them),
    /// `moves` stones in all, of a position on the `W` x `H` board in the
    /// word `B`. Nothing is checked.
    pub(crate) fn of<const W: usize, const H: usize, B: Bitboard>(
        current: B,
        mask: B,
        moves: u32,
    ) -> Stones {
        Stones {
            board: BoardSize::of::<W, H>(),
            current: current.to_u128(),
            mask: mask.to_u128(),
            moves,
        }
    }

    /// The board.
    pub(crate) fn board(&self) -> BoardSize {
        self.board
    }

    /// Stones of the side to move.
    pub(crate) fn current(&self) -> u128 {
        self.current
    }

    /// Every occupied cell.
    pub(crate) fn mask(&self) -> u128 {
        self.mask
    }

    /// Number of stones on the board.
    pub(crate) fn moves(&self) -> u32 {
        self.moves
    }

    /// Number of columns.
    fn width(&self) -> usize {
        self.board.width()
    }

    /// Number of rows.
    fn height(&self) -> usize {
        self.board.height()
    }

    /// The player whose turn it is.
    pub(crate) fn side_to_move(&self) -> Player {
        Player::to_move_after(self.moves as usize)
    }

    /// The bit of the cell at 0-based `col` and `row` (0 = bottom).
    pub(super) fn cell_bit(&self, col: usize, row: usize) -> u128 {
        1u128 << (col * (self.height() + 1) + row)
    }

    /// The owner of the cell at 0-based `col` and `row` (0 = bottom), if
    /// any. Panics outside the board.
    pub(crate) fn stone_at(&self, col: usize, row: usize) -> Option<Player> {
        assert!(
            col < self.width() && row < self.height(),
            "cell outside the board"
        );
        let bit = self.cell_bit(col, row);
        if self.mask & bit == 0 {
            None
        } else if self.current & bit != 0 {
            Some(self.side_to_move())
        } else {
            Some(self.side_to_move().other())
        }
    }

    /// The cells of 0-based column `col`. Panics outside the board.
    pub(crate) fn column_mask(&self, col: usize) -> u128 {
        assert!(col < self.width(), "column outside the board");
        ((1u128 << self.height()) - 1) << (col * (self.height() + 1))
    }

    /// Number of stones in 0-based column `col`. Panics outside the board.
    pub(crate) fn column_height(&self, col: usize) -> usize {
        (self.mask & self.column_mask(col)).count_ones() as usize
    }

    /// Whether 0-based column `col` exists and still has room.
    pub(crate) fn can_play(&self, col: usize) -> bool {
        col < self.width() && self.column_height(col) < self.height()
    }

    /// Plays in 0-based column `col`. Panics if the column is full or does
    /// not exist.
    pub(crate) fn play_col(&mut self, col: usize) {
        assert!(self.can_play(col), "column {col} cannot be played");
        let cell = self.cell_bit(col, self.column_height(col));
        self.current ^= self.mask;
        self.mask |= cell;
        self.moves += 1;
    }

    /// Whether the stones `stones` (in this board's layout) hold four in a
    /// row: [`Rules::has_four`] on this board.
    pub(crate) fn has_four(&self, stones: u128) -> bool {
        for_board!(self.board, bool, with (stones: u128 = stones), <W, H, B> {
            Rules::<W, H, B>::has_four(B::from_u128(stones))
        })
    }

    /// Whether the last move connected four (the side to move has lost).
    pub(crate) fn is_won(&self) -> bool {
        self.has_four(self.current ^ self.mask)
    }

    /// Whether every cell is filled.
    pub(crate) fn is_full(&self) -> bool {
        self.moves as usize == self.board.cells()
    }

    /// The position's key (see [`Rules::key`]).
    pub(crate) fn key(&self) -> u128 {
        self.current.wrapping_add(self.mask)
    }

    /// Plays a move string (columns `1`-`9`, then `a`... for wider boards)
    /// from this position. Leading and trailing whitespace, including a
    /// trailing `\r`, is ignored. On error the position is left as it was
    /// before the offending character, which the error names.
    pub(crate) fn play_str(&mut self, moves: &str) -> Result<(), ParseError> {
        let start = moves.len() - moves.trim_start().len();
        let body = moves.trim();
        for (offset, ch) in body.char_indices() {
            let index = moves[..start + offset].chars().count();
            let col = column_from_char(ch, self.width()).ok_or(ParseError::InvalidColumn {
                index,
                ch,
                width: self.width(),
            })?;
            if self.is_won() {
                return Err(ParseError::GameOver { index });
            }
            if self.is_full() {
                return Err(ParseError::TooManyMoves { index });
            }
            if !self.can_play(col) {
                return Err(ParseError::ColumnFull {
                    index,
                    column: col + 1,
                });
            }
            self.play_col(col);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaying_names_the_character_at_fault() {
        let board = BoardSize::STANDARD;
        let mut stones = Stones::new(board);
        stones.play_str("  4453\r").unwrap();
        assert_eq!(stones.moves(), 4);
        assert_eq!(stones.column_height(3), 2);
        assert_eq!(stones.stone_at(3, 1), Some(Player::Second));
        assert_eq!(stones.stone_at(2, 0), Some(Player::Second));
        assert_eq!(stones.stone_at(4, 0), Some(Player::First));
        assert_eq!(
            stones.play_str(" 18"),
            Err(ParseError::InvalidColumn {
                index: 2,
                ch: '8',
                width: 7
            })
        );
        // The move before the bad character was played.
        assert_eq!(stones.moves(), 5);
        let mut won = Stones::new(board);
        assert_eq!(
            won.play_str("12121212"),
            Err(ParseError::GameOver { index: 7 })
        );
        assert!(won.is_won() && !won.is_full() && won.moves() == 7);
        let mut full = Stones::new(board);
        assert_eq!(
            full.play_str("1111111"),
            Err(ParseError::ColumnFull {
                index: 6,
                column: 1
            })
        );
    }
}
