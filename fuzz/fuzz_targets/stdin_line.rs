//! The reader of one stdin or test-set line (`c4::input::parse_line`) on
//! any bytes: it never panics, and a refusal names a character index no
//! further than one past the line's last character.
#![no_main]

use c4::input::{Line, parse_line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let chars = String::from_utf8_lossy(data).chars().count();
    match parse_line(c4::BoardSize::STANDARD, data) {
        Ok(Line::Position { moves, position }) => {
            assert_eq!(position.moves_played(), moves.chars().count())
        }
        Ok(Line::Comment(_)) => {}
        Err(e) => assert!(e.index() <= chars, "index {} of {chars} chars", e.index()),
    }
});
