//! Keys: the number that identifies a position, the mirror image of a
//! bitboard, and the key a position shares with its mirror image. (A key
//! is turned back into a position in `decode`.)

use super::Rules;
use crate::Bitboard;

impl<const W: usize, const H: usize, B: Bitboard> Rules<W, H, B> {
    /// The number that identifies the position of the stones `current` (the
    /// side to move's) and `mask` (all of them) uniquely, below
    /// `2^KEY_BITS`.
    ///
    /// `current + mask` sets, in each column, the bit just above the stones
    /// (the column's height) and keeps the side to move's stones below it.
    #[inline(always)]
    pub fn key(current: B, mask: B) -> B {
        current.wrapping_add(mask)
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

    /// The key shared by the position of key `key` and its mirror image:
    /// the smaller of the two. Also tells whether the mirrored key was the
    /// one taken.
    #[inline(always)]
    pub fn symmetric_key(key: B) -> (B, bool) {
        let mirrored = Self::mirror(key);
        if mirrored < key {
            (mirrored, true)
        } else {
            (key, false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mirror_reverses_the_columns() {
        type R = Rules<7, 6>;
        assert_eq!(R::mirror(R::cell(0, 2)), R::cell(6, 2));
        assert_eq!(R::mirror(R::cell(3, 5)), R::cell(3, 5));
        let key = R::key(R::cell(1, 0), R::cell(1, 0) | R::cell(1, 1));
        assert_eq!(R::mirror(R::mirror(key)), key);
        // Stones on the left make the smaller key.
        assert!(key < R::mirror(key));
        assert_eq!(R::symmetric_key(key), (key, false));
        assert_eq!(R::symmetric_key(R::mirror(key)), (key, true));
    }
}
