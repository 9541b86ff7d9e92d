//! The book compiled into `c4`: `books/7x6.c4book`, made by `c4 book
//! generate` (the README says how and how long it took).

use super::Book;
use super::format::FormatError;

/// The bytes of the built-in 7x6 book.
pub const BOOK_7X6: &[u8] = include_bytes!("../../books/7x6.c4book");

/// The built-in book of the `W` x `H` board, decoded: `None` when `c4` has
/// none for that board. Decoding checks the whole file (a few microseconds
/// for each thousand entries), so callers decode it once and share it.
pub fn builtin<const W: usize, const H: usize>() -> Option<Result<Book<W, H>, FormatError>> {
    (W == 7 && H == 6).then(|| Book::decode(BOOK_7X6))
}
