//! Board sizes chosen at run time.
//!
//! The hot code takes the board size as const generics (`Position<W, H, B>`,
//! `Solver<W, H, B>`, with `B` the bitboard word: `u64` up to 64 bits, `u128`
//! beyond), so each size is compiled on its own and the standard 7x6
//! board runs exactly as fast as if it were the only one. A program that reads
//! the size at run time (the CLI's `--width`/`--height`) turns it into a
//! [`BoardSize`], which only holds supported sizes, and hands a [`ForBoard`]
//! job to [`BoardSize::dispatch`], which calls the job's generic method with
//! the matching constants.
//!
//! ```
//! use c4::board::{BoardSize, ForBoard};
//! use c4::{Bitboard, Position, Solver};
//!
//! /// Solves one move string on whatever board it is given.
//! struct SolveOne<'a>(&'a str);
//! impl ForBoard for SolveOne<'_> {
//!     type Output = i32;
//!     fn run<const W: usize, const H: usize, B: Bitboard>(self) -> i32 {
//!         let pos = Position::<W, H, B>::parse(self.0).unwrap();
//!         Solver::<W, H, B>::with_table_bytes(1 << 20).unwrap().solve(&pos)
//!     }
//! }
//!
//! let board = BoardSize::new(4, 4).unwrap();
//! assert_eq!(board.dispatch(SolveOne("")), 0); // 4x4 is a draw
//! ```

use crate::Bitboard;
use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The fewest columns and rows a board may have: with fewer, nobody can
/// connect four in some direction and the game is not Connect Four.
pub const MIN_SIDE: usize = 4;

/// Bits a board may take: `width * (height + 1)` (one sentinel bit on top of
/// each column) must fit in the widest word of [`crate::Position`], `u128`.
pub const MAX_BITS: usize = 128;

/// Boards of at most this many bits are stored in `u64` words, bigger ones in
/// `u128` words (see [`crate::Bitboard`]).
pub const NARROW_BITS: usize = 64;

/// Every supported board size, `(width, height)`, narrowest first, then
/// lowest first: width and height at least [`MIN_SIDE`] and
/// `width * (height + 1) <= 128`.
pub const SUPPORTED: [(usize, usize); 157] = [
    (4, 4),
    (4, 5),
    (4, 6),
    (4, 7),
    (4, 8),
    (4, 9),
    (4, 10),
    (4, 11),
    (4, 12),
    (4, 13),
    (4, 14),
    (4, 15),
    (4, 16),
    (4, 17),
    (4, 18),
    (4, 19),
    (4, 20),
    (4, 21),
    (4, 22),
    (4, 23),
    (4, 24),
    (4, 25),
    (4, 26),
    (4, 27),
    (4, 28),
    (4, 29),
    (4, 30),
    (4, 31),
    (5, 4),
    (5, 5),
    (5, 6),
    (5, 7),
    (5, 8),
    (5, 9),
    (5, 10),
    (5, 11),
    (5, 12),
    (5, 13),
    (5, 14),
    (5, 15),
    (5, 16),
    (5, 17),
    (5, 18),
    (5, 19),
    (5, 20),
    (5, 21),
    (5, 22),
    (5, 23),
    (5, 24),
    (6, 4),
    (6, 5),
    (6, 6),
    (6, 7),
    (6, 8),
    (6, 9),
    (6, 10),
    (6, 11),
    (6, 12),
    (6, 13),
    (6, 14),
    (6, 15),
    (6, 16),
    (6, 17),
    (6, 18),
    (6, 19),
    (6, 20),
    (7, 4),
    (7, 5),
    (7, 6),
    (7, 7),
    (7, 8),
    (7, 9),
    (7, 10),
    (7, 11),
    (7, 12),
    (7, 13),
    (7, 14),
    (7, 15),
    (7, 16),
    (7, 17),
    (8, 4),
    (8, 5),
    (8, 6),
    (8, 7),
    (8, 8),
    (8, 9),
    (8, 10),
    (8, 11),
    (8, 12),
    (8, 13),
    (8, 14),
    (8, 15),
    (9, 4),
    (9, 5),
    (9, 6),
    (9, 7),
    (9, 8),
    (9, 9),
    (9, 10),
    (9, 11),
    (9, 12),
    (9, 13),
    (10, 4),
    (10, 5),
    (10, 6),
    (10, 7),
    (10, 8),
    (10, 9),
    (10, 10),
    (10, 11),
    (11, 4),
    (11, 5),
    (11, 6),
    (11, 7),
    (11, 8),
    (11, 9),
    (11, 10),
    (12, 4),
    (12, 5),
    (12, 6),
    (12, 7),
    (12, 8),
    (12, 9),
    (13, 4),
    (13, 5),
    (13, 6),
    (13, 7),
    (13, 8),
    (14, 4),
    (14, 5),
    (14, 6),
    (14, 7),
    (14, 8),
    (15, 4),
    (15, 5),
    (15, 6),
    (15, 7),
    (16, 4),
    (16, 5),
    (16, 6),
    (16, 7),
    (17, 4),
    (17, 5),
    (17, 6),
    (18, 4),
    (18, 5),
    (18, 6),
    (19, 4),
    (19, 5),
    (20, 4),
    (20, 5),
    (21, 4),
    (21, 5),
    (22, 4),
    (23, 4),
    (24, 4),
    (25, 4),
];

/// Why a board size is not supported.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// A side shorter than four cells.
    #[error("a {width}x{height} board is too small: width and height must be at least {MIN_SIDE}")]
    TooSmall {
        /// Columns asked for.
        width: usize,
        /// Rows asked for.
        height: usize,
    },
    /// More cells than a 128-bit bitboard holds.
    #[error(
        "a {width}x{height} board is too big: width x (height + 1) = {} is more than {MAX_BITS} bits",
        width.saturating_mul(height.saturating_add(1))
    )]
    TooBig {
        /// Columns asked for.
        width: usize,
        /// Rows asked for.
        height: usize,
    },
    /// Text that is not `WxH`.
    #[error("'{0}' is not a board size (write it as WIDTHxHEIGHT, e.g. 7x6)")]
    Syntax(String),
}

/// A supported board size: only [`BoardSize::new`] makes one, so every
/// value can be dispatched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardSize {
    /// Columns, at most 25 (a byte keeps a [`crate::Game`] small).
    width: u8,
    /// Rows, at most 31.
    height: u8,
}

impl BoardSize {
    /// The standard board: 7 columns, 6 rows.
    pub const STANDARD: BoardSize = BoardSize {
        width: 7,
        height: 6,
    };

    /// The board `width` columns wide and `height` rows high, if supported.
    pub fn new(width: usize, height: usize) -> Result<BoardSize, BoardError> {
        if width < MIN_SIDE || height < MIN_SIDE {
            return Err(BoardError::TooSmall { width, height });
        }
        if width.saturating_mul(height.saturating_add(1)) > MAX_BITS {
            return Err(BoardError::TooBig { width, height });
        }
        // Both fit in a byte: 128 bits hold at most 25 columns of 5 bits
        // and 4 columns of 32.
        Ok(BoardSize {
            width: width as u8,
            height: height as u8,
        })
    }

    /// The board of `Position<W, H, B>`.
    pub fn of<const W: usize, const H: usize>() -> BoardSize {
        BoardSize::new(W, H).expect("the size of a Position that compiled")
    }

    /// Number of columns.
    pub fn width(self) -> usize {
        self.width as usize
    }

    /// Number of rows.
    pub fn height(self) -> usize {
        self.height as usize
    }

    /// Number of cells, the most moves a game can last.
    pub fn cells(self) -> usize {
        self.width() * self.height()
    }

    /// Bits of a position's key on this board (`Position::KEY_BITS`): a
    /// column of `height + 1` bits for each column.
    pub fn key_bits(self) -> u32 {
        (self.width() * (self.height() + 1)) as u32
    }

    /// Bytes of the word a position of this board is stored in: 8 (`u64`)
    /// up to [`NARROW_BITS`] bits, else 16 (`u128`).
    pub fn word_bytes(self) -> usize {
        if self.key_bits() as usize <= NARROW_BITS {
            8
        } else {
            16
        }
    }

    /// Every supported size, in the order of [`SUPPORTED`].
    pub fn all() -> impl Iterator<Item = BoardSize> {
        SUPPORTED
            .iter()
            .map(|&(width, height)| BoardSize::new(width, height).expect("a supported size"))
    }

    /// Runs `job` with this board's width and height as const generics.
    ///
    /// Every call site instantiates `job` once per arm, so the arms are what
    /// the build pays for. The library's own unit tests compile fewer arms.
    #[cfg(not(test))]
    pub fn dispatch<J: ForBoard>(self, job: J) -> J::Output {
        // One arm per supported size. A size missing here would be a bug the
        // `every_supported_size_dispatches_to_itself` test of
        // tests/board_sizes.rs catches.
        macro_rules! arms {
            (narrow: $($w:literal => [$($h:literal),*];)* wide: $($ww:literal => [$($wh:literal),*];)*) => {
                match (self.width, self.height) {
                    $($(($w, $h) => job.run::<$w, $h, u64>(),)*)*
                    $($(($ww, $wh) => job.run::<$ww, $wh, u128>(),)*)*
                    (w, h) => unreachable!("{w}x{h} passed BoardSize::new but has no dispatch arm"),
                }
            };
        }
        arms! {
            narrow:
            4 => [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
            5 => [4, 5, 6, 7, 8, 9, 10, 11];
            6 => [4, 5, 6, 7, 8, 9];
            7 => [4, 5, 6, 7, 8];
            8 => [4, 5, 6, 7];
            9 => [4, 5, 6];
            10 => [4, 5];
            11 => [4];
            12 => [4];
            wide:
            4 => [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31];
            5 => [12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24];
            6 => [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20];
            7 => [9, 10, 11, 12, 13, 14, 15, 16, 17];
            8 => [8, 9, 10, 11, 12, 13, 14, 15];
            9 => [7, 8, 9, 10, 11, 12, 13];
            10 => [6, 7, 8, 9, 10, 11];
            11 => [5, 6, 7, 8, 9, 10];
            12 => [5, 6, 7, 8, 9];
            13 => [4, 5, 6, 7, 8];
            14 => [4, 5, 6, 7, 8];
            15 => [4, 5, 6, 7];
            16 => [4, 5, 6, 7];
            17 => [4, 5, 6];
            18 => [4, 5, 6];
            19 => [4, 5];
            20 => [4, 5];
            21 => [4, 5];
            22 => [4];
            23 => [4];
            24 => [4];
            25 => [4];
        }
    }

    /// [`BoardSize::dispatch`] as the library's own unit tests compile it:
    /// only the sizes they name, of both word types, instead of all 157.
    /// Each arm compiles the whole search again, and the unit tests are a
    /// second build of the library, so this takes about two minutes off
    /// `cargo test --release` on 2 cores (docs/experiments.md, Build time).
    /// Every size is still tested, through the library as it ships, by the
    /// integration tests (tests/board_sizes.rs).
    ///
    /// Panics on a size the unit tests do not compile: a unit test to fix.
    #[cfg(test)]
    pub fn dispatch<J: ForBoard>(self, job: J) -> J::Output {
        match (self.width, self.height) {
            (4, 4) => job.run::<4, 4, u64>(),
            (5, 4) => job.run::<5, 4, u64>(),
            (4, 5) => job.run::<4, 5, u64>(),
            (6, 5) => job.run::<6, 5, u64>(),
            (7, 6) => job.run::<7, 6, u64>(),
            (6, 7) => job.run::<6, 7, u64>(),
            (9, 4) => job.run::<9, 4, u64>(),
            (12, 4) => job.run::<12, 4, u64>(),
            (8, 7) => job.run::<8, 7, u64>(),
            (8, 8) => job.run::<8, 8, u128>(),
            (4, 16) => job.run::<4, 16, u128>(),
            (w, h) => panic!("{w}x{h} is not among the sizes the unit tests compile"),
        }
    }
}

impl Default for BoardSize {
    fn default() -> Self {
        BoardSize::STANDARD
    }
}

impl fmt::Display for BoardSize {
    /// Writes the size as `WxH`, e.g. `7x6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for BoardSize {
    type Err = BoardError;

    /// Reads `WxH` (`x` or `X`, surrounding whitespace ignored).
    fn from_str(text: &str) -> Result<BoardSize, BoardError> {
        let syntax = || BoardError::Syntax(text.to_owned());
        let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(syntax)?;
        let width = w.trim().parse().map_err(|_| syntax())?;
        let height = h.trim().parse().map_err(|_| syntax())?;
        BoardSize::new(width, height)
    }
}

/// A job generic over the board size, run by [`BoardSize::dispatch`] on the
/// size chosen at run time. (A closure cannot be generic over constants,
/// hence a trait.)
pub trait ForBoard {
    /// What the job returns.
    type Output;
    /// Runs the job on the `W` x `H` board.
    fn run<const W: usize, const H: usize, B: Bitboard>(self) -> Self::Output;
}

/// Runs `$body` on `$board` with its width, height and word bound to the
/// names given as `<W, H, B>`, giving a value of type `$out`: one small
/// [`ForBoard`] job, compiled once per board size. A fn item captures
/// nothing, so the body sees only the values listed after `with`; a
/// reference among them may use the lifetime `'b`.
macro_rules! for_board {
    ($board:expr, $out:ty, with ($($name:ident: $ty:ty = $value:expr),*),
     <$w:ident, $h:ident, $b:ident> $body:expr) => {{
        struct Job<'b>(($($ty,)*), std::marker::PhantomData<&'b ()>);
        impl $crate::board::ForBoard for Job<'_> {
            type Output = $out;
            #[allow(unused_parens)]
            fn run<const $w: usize, const $h: usize, $b: $crate::Bitboard>(self) -> $out {
                let ($($name,)*) = self.0;
                $body
            }
        }
        $crate::board::BoardSize::dispatch($board, Job(($($value,)*), std::marker::PhantomData))
    }};
}
pub(crate) use for_board;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn supported_is_exactly_the_sizes_that_fit() {
        let mut fitting = Vec::new();
        for w in 1..=70 {
            for h in 1..=70 {
                if BoardSize::new(w, h).is_ok() {
                    fitting.push((w, h));
                }
            }
        }
        assert_eq!(fitting, SUPPORTED);
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(
            BoardSize::new(3, 6),
            Err(BoardError::TooSmall {
                width: 3,
                height: 6
            })
        );
        assert_eq!(
            BoardSize::new(11, 11).unwrap_err().to_string(),
            "a 11x11 board is too big: width x (height + 1) = 132 is more than 128 bits"
        );
        assert!(BoardSize::new(usize::MAX, usize::MAX).is_err());
    }

    #[test]
    fn parses_and_prints() {
        assert_eq!("7x6".parse(), Ok(BoardSize::STANDARD));
        assert_eq!(" 12X4 ".parse::<BoardSize>().unwrap().to_string(), "12x4");
        assert!(matches!(
            "7*6".parse::<BoardSize>(),
            Err(BoardError::Syntax(_))
        ));
        assert!(matches!(
            "7x".parse::<BoardSize>(),
            Err(BoardError::Syntax(_))
        ));
        assert!(matches!(
            "26x4".parse::<BoardSize>(),
            Err(BoardError::TooBig { .. })
        ));
        assert_eq!(BoardSize::of::<6, 5>().cells(), 30);
        assert_eq!(BoardSize::default(), BoardSize::STANDARD);
    }
}
