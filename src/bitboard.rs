//! The word a board is stored in: the [`Bitboard`] trait over `u64` and `u128`.
//!
//! Every board routine is written once, generic over the word. A board whose
//! `W x (H + 1)` bits fit in 64 uses `u64` and compiles to the code a plain
//! `u64` version would; bigger boards, up to 128 bits, use `u128`. Constant
//! masks are computed as `u128` and narrowed with [`Bitboard::from_u128`],
//! which the optimiser folds into an immediate.

use std::fmt::{Debug, LowerHex};
use std::hash::Hash;
use std::ops::{
    Add, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr, Sub,
};

/// A bitboard word: the integer operations the board and the search use.
/// Implemented for `u64` and `u128` only.
pub trait Bitboard:
    Copy
    + Eq
    + Ord
    + Hash
    + Default
    + Debug
    + LowerHex
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Not<Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
    + Add<Output = Self>
    + Sub<Output = Self>
    + Into<u128>
{
    /// Bits of the word.
    const BITS: usize;
    /// No bit set.
    const ZERO: Self;
    /// Bit 0 set.
    const ONE: Self;

    /// `self + other` modulo `2^BITS`.
    fn wrapping_add(self, other: Self) -> Self;
    /// `self * other` modulo `2^BITS`.
    fn wrapping_mul(self, other: Self) -> Self;
    /// `-self` modulo `2^BITS`.
    fn wrapping_neg(self) -> Self;
    /// Number of set bits.
    fn count_ones(self) -> u32;
    /// Number of zero bits below the lowest set bit (`BITS` for zero).
    fn trailing_zeros(self) -> u32;
    /// Number of zero bits above the highest set bit (`BITS` for zero).
    fn leading_zeros(self) -> u32;
    /// The low `BITS` bits of `value`.
    fn from_u128(value: u128) -> Self;
    /// The value as a `u128`.
    #[inline(always)]
    fn to_u128(self) -> u128 {
        self.into()
    }
    /// The word folded to 64 bits (the two halves XORed): itself for `u64`.
    /// For hashing, never for identity.
    #[inline(always)]
    fn fold64(self) -> u64 {
        let x = self.to_u128();
        x as u64 ^ (x >> 64) as u64
    }
}

macro_rules! bitboard_word {
    ($t:ty) => {
        impl Bitboard for $t {
            const BITS: usize = <$t>::BITS as usize;
            const ZERO: Self = 0;
            const ONE: Self = 1;

            #[inline(always)]
            fn wrapping_add(self, other: Self) -> Self {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn wrapping_mul(self, other: Self) -> Self {
                <$t>::wrapping_mul(self, other)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> Self {
                <$t>::wrapping_neg(self)
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline(always)]
            fn from_u128(value: u128) -> Self {
                value as $t
            }
        }
    };
}

bitboard_word!(u64);
bitboard_word!(u128);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_narrow_and_widen() {
        let x: u128 = (7 << 64) | 9;
        assert_eq!(<u64 as Bitboard>::from_u128(x), 9);
        assert_eq!(<u128 as Bitboard>::from_u128(x), x);
        assert_eq!(Bitboard::to_u128(u64::MAX), u64::MAX as u128);
        assert_eq!(Bitboard::trailing_zeros(1u128 << 100), 100);
        assert_eq!(Bitboard::leading_zeros(1u128 << 100), 27);
        assert_eq!(Bitboard::count_ones(x), 5);
    }
}
