//! The book file format: encoding a book to bytes and decoding it back, with
//! every way a file can be wrong as an error.
//!
//! # Layout (all integers little-endian)
//!
//! | offset | size | field |
//! |---:|---:|---|
//! | 0 | 8 | magic `\x89C4BOOK\n` |
//! | 8 | 2 | format version ([`VERSION`]) |
//! | 10 | 1 | board width |
//! | 11 | 1 | board height |
//! | 12 | 1 | depth: entries have at most this many stones |
//! | 13 | 1 | kind: 0 a complete book, 1 one part of a sharded book |
//! | 14 | 2 | zero |
//! | 16 | 4 | shard index, 1-based (1 for a complete book) |
//! | 20 | 4 | shard count (1 for a complete book) |
//! | 24 | 8 | entry count |
//! | 32 | 8 | payload length in bytes |
//! | 40 | 8 | checksum: FNV-1a 64 of bytes 0..40 and of the payload |
//! | 48 | ... | payload |
//!
//! The payload is the entries in increasing key order, each as the
//! difference from the previous key (the first from 0) in LEB128 (7 bits a
//! byte, low bits first, high bit set on every byte but the last), then the
//! score as one signed byte. The key is
//! [`Position::key`](crate::Position::key) of the position or of its mirror
//! image, whichever is smaller, so a position and its mirror share one
//! entry.
//!
//! The magic's first byte has its high bit set and its last is a newline, so
//! a file mangled by a 7-bit or text-mode transfer is not mistaken for a book.

use thiserror::Error;

use crate::board::BoardSize;
use crate::game::Game;
use crate::rules::Score;

/// The first eight bytes of every book file.
pub const MAGIC: [u8; 8] = *b"\x89C4BOOK\n";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;
/// Bytes before the payload.
pub const HEADER_BYTES: usize = 48;

/// Whether a file holds a whole book or one part of a sharded one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Every position with at most `depth` stones.
    Complete,
    /// The positions with exactly `depth` stones whose key falls in shard
    /// `index` (1-based) of `count` (the book builder assigns the shards).
    Part {
        /// 1-based shard number.
        index: u32,
        /// Number of shards.
        count: u32,
    },
}

/// What the header of a book file says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Format version.
    pub version: u16,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The most stones an entry has.
    pub depth: usize,
    /// Whole book or part.
    pub kind: Kind,
    /// Number of entries.
    pub entries: u64,
    /// Payload length in bytes.
    pub payload_bytes: u64,
    /// The stored checksum.
    pub checksum: u64,
}

/// A decoded file before its entries are checked against a board: the
/// header and the (key, score) pairs in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawBook {
    /// The header.
    pub header: Header,
    /// The entries, keys strictly increasing.
    pub entries: Vec<(u128, Score)>,
}

/// Why bytes are not a usable book.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FormatError {
    /// The bytes do not start with the magic bytes.
    #[error("not a c4 book file (it does not start with the c4 book magic bytes)")]
    NotABook,
    /// A version this code cannot read.
    #[error("book format version {found} is not supported (this c4 reads version {VERSION})")]
    UnsupportedVersion {
        /// The version in the file.
        found: u16,
    },
    /// The file is shorter than its header says.
    #[error("the book file is truncated: {expected} bytes expected, {found} present")]
    Truncated {
        /// Bytes the header announces.
        expected: u64,
        /// Bytes there are.
        found: u64,
    },
    /// The file is longer than its header says.
    #[error("the book file has {extra} unexpected bytes after its end")]
    TrailingBytes {
        /// How many.
        extra: u64,
    },
    /// The checksum does not match the contents.
    #[error(
        "the book file is corrupt: checksum {computed:016x} does not match the stored {stored:016x}"
    )]
    Checksum {
        /// Stored in the header.
        stored: u64,
        /// Computed over the contents.
        computed: u64,
    },
    /// A header field has an impossible value.
    #[error("the book file is corrupt: {0}")]
    BadHeader(&'static str),
    /// The book is for another board size.
    #[error("the book is for a {width}x{height} board, not {expected_width}x{expected_height}")]
    BoardMismatch {
        /// The file's board width.
        width: usize,
        /// The file's board height.
        height: usize,
        /// The width asked for.
        expected_width: usize,
        /// The height asked for.
        expected_height: usize,
    },
    /// An entry that cannot be right (the checksum matched, so the file was
    /// written that way).
    #[error("the book file is corrupt: entry {index}: {reason}")]
    BadEntry {
        /// 0-based entry number.
        index: u64,
        /// What is wrong.
        reason: &'static str,
    },
    /// A score that is not the best of its children's (see
    /// [`check_consistency`](super::consistency::check_consistency)).
    #[error(
        "inconsistent book: the position {moves} has score {stored} but its children give {}{derived}",
        if *.at_least { "at least " } else { "" }
    )]
    Inconsistent {
        /// A line reaching the position (1-based columns), or its key.
        moves: String,
        /// The score in the book.
        stored: Score,
        /// The score its children give.
        derived: Score,
        /// Some children have no score, so `derived` is only a lower bound.
        at_least: bool,
    },
}

/// FNV-1a, 64 bits: a simple, well-spread checksum, enough to catch any
/// accidental damage to a file (it is no defence against tampering).
#[derive(Debug, Clone, Copy)]
pub struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Self {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv64 {
    /// Adds `bytes` to the hash.
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }

    /// The hash of `bytes` alone.
    pub fn of(bytes: &[u8]) -> u64 {
        let mut h = Self::default();
        h.update(bytes);
        h.finish()
    }
}

/// Encodes a book: `entries` must be sorted by key, strictly increasing.
pub fn encode<K: Copy + Into<u128>>(
    width: usize,
    height: usize,
    depth: usize,
    kind: Kind,
    entries: &[(K, Score)],
) -> Vec<u8> {
    let mut payload = Vec::with_capacity(entries.len() * 6);
    let mut previous = 0u128;
    for &(key, score) in entries {
        let key: u128 = key.into();
        debug_assert!(key >= previous, "entries are sorted");
        let mut delta = key - previous;
        previous = key;
        loop {
            let byte = (delta & 0x7f) as u8;
            delta >>= 7;
            if delta == 0 {
                payload.push(byte);
                break;
            }
            payload.push(byte | 0x80);
        }
        payload.push(score as i8 as u8);
    }
    let (index, count) = match kind {
        Kind::Complete => (1, 1),
        Kind::Part { index, count } => (index, count),
    };
    let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(width as u8);
    out.push(height as u8);
    out.push(depth as u8);
    out.push(u8::from(matches!(kind, Kind::Part { .. })));
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(&index.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    let mut hash = Fnv64::default();
    hash.update(&out);
    hash.update(&payload);
    out.extend_from_slice(&hash.finish().to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// Little-endian integer of `len` bytes at `at` in a header (0 past its end,
/// which the fixed offsets below never reach).
fn le(header: &[u8; HEADER_BYTES], at: usize, len: usize) -> u64 {
    header
        .iter()
        .skip(at)
        .take(len)
        .rev()
        .fold(0, |acc, &b| (acc << 8) | u64::from(b))
}

/// Reads and checks the header alone: magic, version, field values and the
/// file's length (not the checksum).
pub fn read_header(bytes: &[u8]) -> Result<Header, FormatError> {
    if !MAGIC.starts_with(bytes) && !bytes.starts_with(&MAGIC) {
        return Err(FormatError::NotABook);
    }
    let Some(h) = bytes.first_chunk::<HEADER_BYTES>() else {
        return Err(FormatError::Truncated {
            expected: HEADER_BYTES as u64,
            found: bytes.len() as u64,
        });
    };
    let version = le(h, 8, 2) as u16;
    if version != VERSION {
        return Err(FormatError::UnsupportedVersion { found: version });
    }
    let (width, height, depth) = (usize::from(h[10]), usize::from(h[11]), usize::from(h[12]));
    if width == 0 || height == 0 || width * (height + 1) > 64 {
        return Err(FormatError::BadHeader("impossible board size"));
    }
    if depth > width * height {
        return Err(FormatError::BadHeader("depth beyond the number of cells"));
    }
    let (index, count) = (le(h, 16, 4) as u32, le(h, 20, 4) as u32);
    let kind = match h[13] {
        0 if index == 1 && count == 1 => Kind::Complete,
        1 if count >= 1 && (1..=count).contains(&index) => Kind::Part { index, count },
        0 | 1 => return Err(FormatError::BadHeader("impossible shard number")),
        _ => return Err(FormatError::BadHeader("unknown kind of book")),
    };
    if h[14] != 0 || h[15] != 0 {
        return Err(FormatError::BadHeader("reserved bytes are not zero"));
    }
    let header = Header {
        version,
        width,
        height,
        depth,
        kind,
        entries: le(h, 24, 8),
        payload_bytes: le(h, 32, 8),
        checksum: le(h, 40, 8),
    };
    let expected = (HEADER_BYTES as u64).saturating_add(header.payload_bytes);
    let found = bytes.len() as u64;
    if found < expected {
        return Err(FormatError::Truncated { expected, found });
    }
    if found > expected {
        return Err(FormatError::TrailingBytes {
            extra: found - expected,
        });
    }
    // Every entry takes at least two bytes.
    if header.entries > header.payload_bytes / 2 {
        return Err(FormatError::BadHeader(
            "more entries than the payload can hold",
        ));
    }
    Ok(header)
}

/// Decodes a file: header, checksum and the entries as (key, score) pairs,
/// keys strictly increasing. Nothing is checked against a board yet (see
/// [`check_entries`]).
pub fn decode_raw(bytes: &[u8]) -> Result<RawBook, FormatError> {
    let header = read_header(bytes)?;
    // `read_header` saw the whole header; the payload is the rest.
    let (head, payload) = bytes.split_at(HEADER_BYTES.min(bytes.len()));
    let mut hash = Fnv64::default();
    hash.update(head.get(..40).unwrap_or(head));
    hash.update(payload);
    if hash.finish() != header.checksum {
        return Err(FormatError::Checksum {
            stored: header.checksum,
            computed: hash.finish(),
        });
    }
    // Bounded by the file's length: `read_header` checked that every
    // announced entry has its two bytes at least.
    let mut entries = Vec::with_capacity(usize::try_from(header.entries).unwrap_or(0));
    let mut at = 0;
    let mut key = 0u128;
    for index in 0..header.entries {
        let bad = |reason| FormatError::BadEntry { index, reason };
        let mut delta = 0u128;
        let mut shift = 0;
        loop {
            let &byte = payload.get(at).ok_or(bad("the payload ends inside it"))?;
            at += 1;
            if shift > 126 || (shift == 126 && byte > 3) {
                return Err(bad("key delta too large"));
            }
            // One book, one file: a delta is written in as few bytes as it
            // takes, so a last byte of zero after the first is refused.
            if shift > 0 && byte == 0 {
                return Err(bad("key delta written with extra bytes"));
            }
            delta |= u128::from(byte & 0x7f) << shift;
            shift += 7;
            if byte & 0x80 == 0 {
                break;
            }
        }
        if index > 0 && delta == 0 {
            return Err(bad("keys are not increasing"));
        }
        key = key.checked_add(delta).ok_or(bad("key too large"))?;
        let &score = payload.get(at).ok_or(bad("the payload ends inside it"))?;
        at += 1;
        entries.push((key, Score::from(score as i8)));
    }
    if at != payload.len() {
        return Err(FormatError::BadHeader(
            "the payload is longer than its entries",
        ));
    }
    Ok(RawBook { header, entries })
}

/// Checks that a book with `header` is for `board`.
pub fn check_board(header: &Header, board: BoardSize) -> Result<(), FormatError> {
    if header.width != board.width() || header.height != board.height() {
        return Err(FormatError::BoardMismatch {
            width: header.width,
            height: header.height,
            expected_width: board.width(),
            expected_height: board.height(),
        });
    }
    Ok(())
}

/// Checks that the entries of `raw` make sense on `board`: the board size
/// matches, and every key is a canonical position (the smaller of it and
/// its mirror image) accepted by [`Game::from_key`], with at most `depth`
/// stones (exactly `depth` in a part), not finished and without an
/// immediate win, and its score is possible for it.
pub fn check_entries(raw: &RawBook, board: BoardSize) -> Result<(), FormatError> {
    let h = &raw.header;
    check_board(h, board)?;
    for (index, &(key, score)) in raw.entries.iter().enumerate() {
        let bad = |reason| FormatError::BadEntry {
            index: index as u64,
            reason,
        };
        let game = Game::from_key(board, key).ok_or(bad("the key is not a position"))?;
        if game.symmetric_key().0 != key {
            return Err(bad(
                "the key is not the smaller of a position and its mirror",
            ));
        }
        let moves = game.moves_played();
        if moves > h.depth || (matches!(h.kind, Kind::Part { .. }) && moves != h.depth) {
            return Err(bad("a position outside the book's depth"));
        }
        if game.is_game_over() || game.can_win_next() {
            return Err(bad("a finished position or one with an immediate win"));
        }
        let (min, max) = game.score_range();
        if score < min || score > max {
            return Err(bad("a score the position cannot have"));
        }
    }
    Ok(())
}

/// The checked book of `board` holding `entries` (symmetric keys and
/// scores, in any order), as [`crate::book::Book::new`] makes it: a key
/// too wide for the board's word, the same key twice and every entry
/// [`check_entries`] refuses are errors.
pub fn raw_book(
    board: BoardSize,
    depth: usize,
    kind: Kind,
    mut entries: Vec<(u128, Score)>,
) -> Result<RawBook, FormatError> {
    if let Kind::Part { index, count } = kind
        && !(1..=count).contains(&index)
    {
        return Err(FormatError::BadHeader("impossible shard number"));
    }
    let word_bits = board.word_bytes() * 8;
    if let Some(index) = entries
        .iter()
        .position(|&(key, _)| key.checked_shr(word_bits as u32).unwrap_or(0) != 0)
    {
        return Err(FormatError::BadEntry {
            index: index as u64,
            reason: "the key is not a position",
        });
    }
    entries.sort_unstable();
    if let Some(i) = entries.windows(2).position(|w| w[0].0 == w[1].0) {
        return Err(FormatError::BadEntry {
            index: i as u64 + 1,
            reason: "the same position twice",
        });
    }
    let raw = RawBook {
        header: Header {
            version: VERSION,
            width: board.width(),
            height: board.height(),
            depth,
            kind,
            entries: entries.len() as u64,
            payload_bytes: 0,
            checksum: 0,
        },
        entries,
    };
    check_entries(&raw, board)?;
    Ok(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_reference_values() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(Fnv64::of(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(Fnv64::of(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(Fnv64::of(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn round_trip_with_large_deltas() {
        let entries = vec![
            (0, 1),
            (1, -2),
            (300, 0),
            (u64::MAX as u128 >> 1, 18),
            (u128::MAX, 3),
        ];
        let bytes = encode(7, 6, 3, Kind::Part { index: 2, count: 5 }, &entries);
        let raw = decode_raw(&bytes).unwrap();
        assert_eq!(raw.entries, entries);
        assert_eq!(raw.header.kind, Kind::Part { index: 2, count: 5 });
        assert_eq!(raw.header.depth, 3);
    }

    #[test]
    fn every_truncation_and_every_flipped_bit_is_an_error() {
        let entries = vec![(3u64, 1), (77, -2), (1 << 40, 0)];
        let bytes = encode(7, 6, 3, Kind::Complete, &entries);
        for len in 0..bytes.len() {
            assert!(decode_raw(&bytes[..len]).is_err(), "length {len}");
        }
        for bit in 0..bytes.len() * 8 {
            let mut b = bytes.clone();
            b[bit / 8] ^= 1 << (bit % 8);
            assert!(decode_raw(&b).is_err(), "bit {bit}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            decode_raw(&longer),
            Err(FormatError::TrailingBytes { extra: 1 })
        );
        assert_eq!(decode_raw(b"hello, world"), Err(FormatError::NotABook));
    }

    #[test]
    fn a_key_delta_with_extra_bytes_is_refused_so_one_book_has_one_file() {
        // The delta 3 as `0x83 0x00` instead of `0x03`, resealed.
        let mut payload = vec![0x83, 0x00, 1];
        let canonical = encode(5, 4, 3, Kind::Complete, &[(3u64, 1)]);
        let mut bytes = canonical[..HEADER_BYTES].to_vec();
        bytes[32..40].copy_from_slice(&(payload.len() as u64).to_le_bytes());
        let mut hash = Fnv64::default();
        hash.update(&bytes[..40]);
        hash.update(&payload);
        bytes[40..48].copy_from_slice(&hash.finish().to_le_bytes());
        bytes.append(&mut payload);
        assert_eq!(
            decode_raw(&bytes),
            Err(FormatError::BadEntry {
                index: 0,
                reason: "key delta written with extra bytes"
            })
        );
        assert_eq!(decode_raw(&canonical).unwrap().entries, vec![(3, 1)]);
    }

    #[test]
    fn claimed_sizes_are_checked_against_the_length_before_memory_is_taken() {
        let good = encode(5, 4, 3, Kind::Complete, &[(3u64, 1), (77, -2)]);
        let reseal = |mut bytes: Vec<u8>| {
            let mut hash = Fnv64::default();
            hash.update(&bytes[..40]);
            hash.update(&bytes[HEADER_BYTES..]);
            bytes[40..48].copy_from_slice(&hash.finish().to_le_bytes());
            bytes
        };
        let mut many = good.clone();
        many[24..32].copy_from_slice(&(1u64 << 40).to_le_bytes());
        assert_eq!(
            decode_raw(&reseal(many)),
            Err(FormatError::BadHeader(
                "more entries than the payload can hold"
            ))
        );
        let mut long = good.clone();
        long[32..40].copy_from_slice(&(1u64 << 62).to_le_bytes());
        assert!(matches!(
            decode_raw(&reseal(long)),
            Err(FormatError::Truncated { .. })
        ));
    }
}
