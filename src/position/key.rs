//! Keys of a [`Position`]: the number that identifies it, the key it
//! shares with its mirror image (both by the rules in [`crate::rules`]),
//! and its parents. (The position back from its key is in `replay`.)

use super::Position;
use crate::Bitboard;
use crate::rules::Rules;

impl<const W: usize, const H: usize, B: Bitboard> Position<W, H, B> {
    /// A number that identifies the position uniquely, below `2^KEY_BITS`
    /// (see [`Rules::key`]).
    #[inline(always)]
    pub fn key(&self) -> B {
        Rules::<W, H, B>::key(self.current, self.mask)
    }

    /// A key shared by a position and its mirror image: the smaller of the two.
    /// Also tells whether the mirrored key was the one taken.
    #[inline(always)]
    pub fn symmetric_key(&self) -> (B, bool) {
        Rules::<W, H, B>::symmetric_key(self.key())
    }

    /// The positions this one can follow: for each column whose top stone is
    /// the last mover's, the position without that stone, the last mover
    /// to move. Whether a parent can arise in a game (it may hold a four
    /// already) is not checked.
    pub fn parents(&self) -> impl Iterator<Item = Self> + '_ {
        let last_mover = self.mask ^ self.current;
        (0..W).filter_map(move |col| {
            let height = self.column_height(col);
            if height == 0 {
                return None;
            }
            let top = Rules::<W, H, B>::cell(col, height - 1);
            (last_mover & top != B::ZERO).then(|| Position {
                current: last_mover ^ top,
                mask: self.mask ^ top,
                moves: self.moves - 1,
            })
        })
    }

    /// Reverses the columns of a bitboard.
    #[inline(always)]
    pub fn mirror(board: B) -> B {
        Rules::<W, H, B>::mirror(board)
    }

    /// This position with the columns reversed.
    pub fn mirrored(&self) -> Self {
        Position {
            current: Self::mirror(self.current),
            mask: Self::mirror(self.mask),
            moves: self.moves,
        }
    }
}
