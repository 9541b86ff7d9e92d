//! The book compiled into `c4`: `books/7x6.c4book`, made by `c4 book
//! generate` (the README says how and how long it took).

use super::Book;
use super::format::FormatError;
use crate::Bitboard;

/// The bytes of the built-in 7x6 book.
pub const BOOK_7X6: &[u8] = include_bytes!("../../books/7x6.c4book");

/// The built-in book of the `W` x `H` board, decoded: `None` when `c4` has
/// none for that board.
///
/// Every command that solves decodes it when it starts, so this checks the
/// header and the checksum but neither each entry's position nor the
/// agreement of the scores ([`Book::decode_trusting_entries`]): together
/// those checks take twenty times the decoding (see
/// [`check_consistency`](super::consistency::check_consistency)), and the
/// embedded bytes are fixed when `c4` is built and fully checked by
/// `tests/book.rs`. Callers decode it once and share it.
pub fn builtin<const W: usize, const H: usize, B: Bitboard>()
-> Option<Result<Book<W, H, B>, FormatError>> {
    (W == 7 && H == 6 && B::BITS == 64).then(|| Book::decode_trusting_entries(BOOK_7X6))
}
