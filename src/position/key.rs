//! Keys: the number that identifies a position, the key it shares with its
//! mirror image, and its parents. (The position back from its key is
//! decoded in `game`, compiled once for every size.)

use super::Position;
use crate::Bitboard;

impl<const W: usize, const H: usize, B: Bitboard> Position<W, H, B> {
    /// A number that identifies the position uniquely, below `2^KEY_BITS`.
    ///
    /// `current + mask` sets, in each column, the bit just above the stones
    /// (the column's height) and keeps the side to move's stones below it.
    #[inline(always)]
    pub fn key(&self) -> B {
        self.current.wrapping_add(self.mask)
    }

    /// The key of this position seen in a mirror (columns reversed).
    #[inline(always)]
    pub fn mirrored_key(&self) -> B {
        Self::mirror(self.key())
    }

    /// A key shared by a position and its mirror image: the smaller of the two.
    /// Also tells whether the mirrored key was the one taken.
    #[inline(always)]
    pub fn symmetric_key(&self) -> (B, bool) {
        let key = self.key();
        let mirrored = Self::mirror(key);
        if mirrored < key {
            (mirrored, true)
        } else {
            (key, false)
        }
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
            let top = B::ONE << (col * (H + 1) + height - 1);
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
        let column = B::from_u128((1u128 << (H + 1)) - 1);
        let mut out = B::ZERO;
        let mut col = 0;
        while col < W {
            let bits = (board >> (col * (H + 1))) & column;
            out |= bits << ((W - 1 - col) * (H + 1));
            col += 1;
        }
        out
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
