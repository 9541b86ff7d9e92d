//! The move parser (`Position::parse`) on any text, on the 7x6 board and on
//! a wide one (letters for columns past 9): it never panics, an accepted
//! string plays one stone per column character, and a refusal names a
//! character that is in the string.
#![no_main]

use c4::Position;
use libfuzzer_sys::fuzz_target;

fn check<const W: usize, const H: usize>(text: &str) {
    let chars = text.chars().count();
    match Position::<W, H>::parse(text) {
        Ok(pos) => assert_eq!(pos.moves_played(), text.trim().chars().count()),
        Err(e) => assert!(e.index() < chars, "index {} of {chars} chars", e.index()),
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        check::<7, 6>(text);
        check::<11, 4>(text);
    }
});
