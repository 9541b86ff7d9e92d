//! The book loader (`Book::decode`: format, entries and the consistency of
//! the scores) on any bytes, on two small boards where whole books are cheap
//! (4x4 and 5x4): it never panics, and an accepted book holds only scores its
//! positions can have and encodes back to the same bytes.
#![no_main]

use c4::Book;
use c4::position::Position;
use libfuzzer_sys::fuzz_target;

fn check<const W: usize, const H: usize>(data: &[u8]) {
    let Ok(book) = Book::<W, H>::decode(data) else {
        return;
    };
    for (key, score) in book.entries() {
        let pos = Position::<W, H>::from_key(key).expect("an accepted key is a position");
        let (min, max) = pos.score_range();
        assert!((min..=max).contains(&score));
    }
    assert_eq!(book.encode(), data);
}

fuzz_target!(|data: &[u8]| {
    check::<4, 4>(data);
    check::<5, 4>(data);
});
