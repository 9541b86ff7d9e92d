//! The rules of play, written once: the board's bit layout, fours,
//! threats, scores, keys and symmetry, move notation and drawing, which
//! the fixed-size [`crate::Position`] and the run-time [`crate::Game`] both
//! stand on.
//!
//! The rules come in two kinds. Those the search asks at every node are
//! associated functions of [`Rules<W, H, B>`](Rules), generic over the
//! board's constants and word like the search itself, so they compile to
//! the same code as if written in the search: here the layout, in `fours`
//! alignments and threats, in `key` keys and mirror images. The others are
//! written for a board chosen at run time and compiled once: `stones`
//! replays a move string on the raw bits of a position, `decode` turns a
//! key back into a position and finds a line of moves to it, `drawing`
//! draws a board; move strings themselves are in `notation`.
//!
//! # Bit layout
//! Column `c` (0-based, left to right) owns the `H + 1` bits starting at
//! `c * (H + 1)`; row `r` (0 = bottom) of that column is bit `c * (H + 1) + r`.
//! The extra bit on top of each column (row `H`) is never set: it stops the
//! diagonal and horizontal shifts used by the alignment tests from wrapping from
//! one column into the next, and it makes `current + mask` a unique key.
//!
//! A position is two words: `current`, the stones of the side to move, and
//! `mask`, every occupied cell. Playing a move swaps the point of view with one
//! XOR, so the same code serves both players (negamax).

mod decode;
mod drawing;
mod fours;
mod key;
pub mod notation;
mod stones;

use std::marker::PhantomData;

use crate::Bitboard;

pub use notation::{
    ParseError, char_name, column_char, column_from_char, column_range, moves_to_string,
};
pub(crate) use stones::Stones;

/// A position's score for the side to move: positive if it wins,
/// `(W * H + 1 - n) / 2` (rounded down) when it wins by playing move `n + 1`
/// of the game (on 7x6: 22 minus the number of stones it has played when it
/// wins); 0 for a draw; the opposite of the opponent's winning score if it
/// loses. A weak score is the sign only.
pub type Score = i32;

/// The player who moved first or second in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who plays moves 1, 3, 5, ... (drawn as `X`).
    First,
    /// The player who plays moves 2, 4, 6, ... (drawn as `O`).
    Second,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// The character this player's stones are drawn with.
    pub fn symbol(self) -> char {
        match self {
            Player::First => 'X',
            Player::Second => 'O',
        }
    }

    /// The player to move after `moves` stones.
    #[inline]
    pub fn to_move_after(moves: usize) -> Player {
        if moves.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }
}

/// The rules of play on a board `W` columns wide and `H` rows high, stored
/// in the word `B`: associated functions of the raw bitboards (`current`,
/// the side to move's stones, and `mask`, every stone), never a value.
///
/// `W * (H + 1)` must fit in `B` (`u64`, or `u128` for boards past 64 bits;
/// [`crate::BoardSize::dispatch`] picks it). The default is the standard
/// 7x6 board.
pub struct Rules<const W: usize = 7, const H: usize = 6, B: Bitboard = u64>(PhantomData<B>);

/// A bitboard with the bottom cell of every column set.
const fn bottom_row(width: usize, height: usize) -> u128 {
    let mut mask = 0u128;
    let mut col = 0;
    while col < width {
        mask |= 1u128 << (col * (height + 1));
        col += 1;
    }
    mask
}

/// A bitboard with every cell of row `row` (0 = bottom) set.
pub(crate) const fn row_mask(width: usize, height: usize, row: usize) -> u128 {
    bottom_row(width, height) << row
}

impl<const W: usize, const H: usize, B: Bitboard> Rules<W, H, B> {
    /// Number of cells, the most moves a game can last.
    pub const CELLS: usize = W * H;
    /// Bits a column occupies, its cells plus the sentinel bit on top.
    pub const COLUMN_BITS: usize = H + 1;
    /// Bits of the whole bitboard (a key is below `2^KEY_BITS`).
    pub const KEY_BITS: usize = W * (H + 1);
    /// The bottom cell of every column, as a `u128` (see [`Self::bottom`]).
    pub const BOTTOM_BITS: u128 = {
        assert!(
            W >= 1 && H >= 1 && W * (H + 1) <= B::BITS,
            "board does not fit in its word"
        );
        assert!(
            W <= 35,
            "at most 35 columns can be written in a move string"
        );
        bottom_row(W, H)
    };
    /// Every playable cell (sentinel bits excluded), as a `u128` (see
    /// [`Self::board`]).
    pub const BOARD_BITS: u128 = Self::BOTTOM_BITS * ((1u128 << H) - 1);
    /// The lowest score a position can have: losing to the opponent's first move.
    pub const MIN_SCORE: Score = -((W * H) as i32) / 2 + 3;
    /// The highest score a position can have: winning with one's first stone.
    pub const MAX_SCORE: Score = ((W * H) as i32 + 1) / 2 - 3;

    /// The bottom cell of every column.
    #[inline(always)]
    pub fn bottom() -> B {
        B::from_u128(Self::BOTTOM_BITS)
    }

    /// Every playable cell (sentinel bits excluded).
    #[inline(always)]
    pub fn board() -> B {
        B::from_u128(Self::BOARD_BITS)
    }

    /// The cells of 0-based column `col`.
    #[inline(always)]
    pub fn column_mask(col: usize) -> B {
        // The constant is narrowed first, so the shift by a run-time amount
        // is one of the word's (a 128-bit shift on a 64-bit board would cost
        // the search, which masks a column per move).
        B::from_u128((1u128 << H) - 1) << (col * (H + 1))
    }

    /// The top cell of 0-based column `col`.
    #[inline(always)]
    pub fn top_cell(col: usize) -> B {
        B::ONE << (H - 1 + col * (H + 1))
    }

    /// The bottom cell of 0-based column `col`.
    #[inline(always)]
    pub fn bottom_cell(col: usize) -> B {
        B::ONE << (col * (H + 1))
    }

    /// The cell at 0-based `col` and `row` (0 = bottom).
    #[inline(always)]
    pub fn cell(col: usize, row: usize) -> B {
        B::ONE << (col * (H + 1) + row)
    }

    /// The 0-based column of a one-bit cell of the board (a bit past the
    /// board gives the last column).
    #[inline(always)]
    pub fn column_of(cell: B) -> usize {
        // A table lookup rather than the division by `H + 1`: one load
        // against a multiplication and shifts, in every child loop of the
        // search. The mask keeps the index in range (a cell lies below bit
        // 128) without a bounds check.
        let columns = const { Self::column_of_bit() };
        columns[cell.trailing_zeros() as usize & 127] as usize
    }

    /// The column of each bit index, for [`Self::column_of`].
    const fn column_of_bit() -> [u8; 128] {
        let mut columns = [0; 128];
        let mut bit = 0;
        while bit < 128 {
            // Clamped to the last column past the board, so that every
            // value is a column and indexing by it needs no bounds check
            // (-0.9% to -1.5% of the instructions on the 7x6 sets, -2.2%
            // on 9x4).
            let col = bit / (H + 1);
            columns[bit] = (if col < W { col } else { W - 1 }) as u8;
            bit += 1;
        }
        columns
    }

    /// The cells playable with the occupied cells `mask`: the lowest empty
    /// cell of every column that has one.
    #[inline(always)]
    pub fn possible(mask: B) -> B {
        (mask + Self::bottom()) & Self::board()
    }

    /// The cell a stone played in 0-based column `col` lands on, with the
    /// occupied cells `mask`. Precondition: the column has room.
    #[inline(always)]
    pub fn landing_cell(mask: B, col: usize) -> B {
        (mask + Self::bottom_cell(col)) & Self::column_mask(col)
    }
}

/// The range `(min, max)` holding the score of a position of `moves` stones
/// on a board of `cells` cells (one the game is not over in): losing to the
/// opponent's next stone at worst, winning with its own next stone at best.
#[inline(always)]
pub fn score_range(cells: usize, moves: usize) -> (Score, Score) {
    let cells = cells as i32;
    let moves = moves as i32;
    (-(cells - moves) / 2, (cells + 1 - moves) / 2)
}

/// The score of a position of `moves` stones on a board of `cells` cells
/// whose last move won, for the side to move (which lost): minus the
/// winner's score before that move.
#[inline(always)]
pub fn lost_score(cells: usize, moves: usize) -> Score {
    -((cells as i32 + 2 - moves as i32) / 2)
}

/// The score of a win by the side to move with its next stone, after
/// `moves` stones on a board of `cells` cells: the number of its stones
/// still in hand after that stone, plus one.
#[inline(always)]
pub fn win_next_score(cells: usize, moves: usize) -> Score {
    (cells as i32 + 1 - moves as i32) / 2
}
