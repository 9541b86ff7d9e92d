//! The book file decoder (`c4::book::format`: header, length, checksum,
//! entries) on any bytes: it never panics, and what it accepts encodes back
//! to the same bytes.
#![no_main]

use c4::book::format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let header = format::read_header(data);
    let Ok(raw) = format::decode_raw(data) else {
        return;
    };
    assert_eq!(header.as_ref().ok(), Some(&raw.header));
    let h = &raw.header;
    let again = format::encode(h.width, h.height, h.depth, h.kind, &raw.entries);
    assert_eq!(again, data);
});
