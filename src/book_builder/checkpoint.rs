//! The checkpoint of a book run: the deepest-level scores solved so far, as
//! bytes, so that a run killed at any moment goes on where it stopped. Pure
//! functions over bytes; the caller keeps the file.
//!
//! # Layout (integers little-endian)
//!
//! A 20-byte header: the magic `\x89C4PART\n`, the board width, height and
//! the book depth (one byte each), a zero, then the shard index and count
//! (4 bytes each). Then one record per solved position: its symmetric key
//! (8 bytes, or 16 on a board past 64 bits), its score (a signed byte),
//! three zeros, and the low 32 bits of the FNV-1a 64 of the bytes before;
//! 16 bytes in all (24 past 64 bits).
//!
//! Records are appended one at a time, so a kill can tear only the last one:
//! the first record whose check fails ends the usable part, and whatever
//! follows it is cut off when the run resumes.

use std::collections::HashMap;

use thiserror::Error;

use super::{Shard, key_name, position_name};
use crate::board::BoardSize;
use crate::book::format::Fnv64;
use crate::game::Game;
use crate::rules::Score;

/// The first eight bytes of every checkpoint.
pub const MAGIC: [u8; 8] = *b"\x89C4PART\n";
/// Bytes of the header.
pub const HEADER_BYTES: usize = 20;
/// Bytes of one record of `board`: the key (as many bytes as the word the
/// board is stored in, [`BoardSize::word_bytes`]), the score, three zeros
/// and the check.
pub fn record_bytes(board: BoardSize) -> usize {
    board.word_bytes() + 8
}

/// The header of the checkpoint of the run that solves the `depth`-stone
/// positions of `shard` on `board`. A board has fewer than 256 columns and
/// rows, and a possible run's depth fits in its byte.
pub fn header(board: BoardSize, depth: usize, shard: Shard) -> [u8; HEADER_BYTES] {
    let mut h = [0u8; HEADER_BYTES];
    h[..8].copy_from_slice(&MAGIC);
    h[8] = board.width() as u8;
    h[9] = board.height() as u8;
    h[10] = depth.min(255) as u8;
    h[12..16].copy_from_slice(&shard.index.to_le_bytes());
    h[16..20].copy_from_slice(&shard.count.to_le_bytes());
    h
}

/// The record of one solved position of `board`.
pub fn record(board: BoardSize, key: u128, score: Score) -> Vec<u8> {
    let k = board.word_bytes();
    let mut r = vec![0u8; record_bytes(board)];
    r[..k].copy_from_slice(&key.to_le_bytes()[..k]);
    r[k] = score.clamp(i8::MIN.into(), i8::MAX.into()) as i8 as u8;
    let check = Fnv64::of(&r[..k + 4]) as u32;
    r[k + 4..].copy_from_slice(&check.to_le_bytes());
    r
}

/// The (key, score) of a record of `board`, or `None` if its length or
/// check is wrong.
pub fn parse_record(board: BoardSize, r: &[u8]) -> Option<(u128, Score)> {
    if r.len() != record_bytes(board) {
        return None;
    }
    let (head, check) = r.split_at(board.word_bytes() + 4);
    let (key, rest) = head.split_at(board.word_bytes());
    let ok = check == (Fnv64::of(head) as u32).to_le_bytes() && rest[1..] == [0, 0, 0];
    ok.then(|| {
        let mut k = [0u8; 16];
        k[..key.len()].copy_from_slice(key);
        (u128::from_le_bytes(k), Score::from(rest[0] as i8))
    })
}

/// The most bytes a checkpoint of a run over `positions` positions of
/// `board` can have: the header, one record each, and a torn record.
/// Callers check a file's length against it before they read the file.
pub fn max_bytes(board: BoardSize, positions: usize) -> u64 {
    let record = record_bytes(board) as u64;
    (HEADER_BYTES as u64)
        .saturating_add((positions as u64).saturating_mul(record))
        .saturating_add(record - 1)
}

/// What a checkpoint holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resumed {
    /// The scores solved, by symmetric key.
    pub scores: HashMap<u128, Score>,
    /// How many leading bytes to keep: the header and the whole records.
    /// The rest (a torn record) is to be cut off; 0 means that not even the
    /// header is whole, and the file is to be started again from it.
    pub keep: usize,
}

/// Why a checkpoint cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CheckpointError {
    /// The header is another run's, or not a checkpoint's.
    #[error("it is the checkpoint of another run (other board, depth or shard), or no checkpoint")]
    OtherRun,
    /// Longer than any checkpoint of this run.
    #[error("it has {found} bytes, more than a checkpoint of this run can hold ({max})")]
    TooLong {
        /// Bytes there are.
        found: u64,
        /// The most there can be.
        max: u64,
    },
    /// A record of a position that the run does not solve.
    #[error("record {record} (byte {offset}): the position {moves} is not one this run solves")]
    NotInRun {
        /// 1-based record number.
        record: usize,
        /// Byte offset of the record.
        offset: usize,
        /// A line reaching the position, or its key.
        moves: String,
    },
    /// A score the position cannot have.
    #[error(
        "record {record} (byte {offset}): the score {score} is impossible for the position {moves}"
    )]
    ImpossibleScore {
        /// 1-based record number.
        record: usize,
        /// Byte offset of the record.
        offset: usize,
        /// A line reaching the position.
        moves: String,
        /// The recorded score.
        score: Score,
    },
    /// Two records of one position with different scores.
    #[error(
        "record {record} (byte {offset}): the position {moves} has score {score}, an earlier record {earlier}"
    )]
    Contradicts {
        /// 1-based record number.
        record: usize,
        /// Byte offset of the record.
        offset: usize,
        /// A line reaching the position.
        moves: String,
        /// This record's score.
        score: Score,
        /// The earlier record's score.
        earlier: Score,
    },
}

/// Reads the checkpoint `bytes` of the run on `board` whose header is
/// `header` and whose positions are `positions`. A missing or torn header (a
/// prefix of `header`) and a torn or damaged tail are not errors:
/// [`Resumed::keep`] says how much to keep. Every whole record must be of
/// one of `positions`, with a score it can have. The memory taken is bounded
/// by `positions`.
pub fn read(
    board: BoardSize,
    bytes: &[u8],
    header: &[u8; HEADER_BYTES],
    positions: &[Game],
) -> Result<Resumed, CheckpointError> {
    let max = max_bytes(board, positions.len());
    if bytes.len() as u64 > max {
        return Err(CheckpointError::TooLong {
            found: bytes.len() as u64,
            max,
        });
    }
    let mut scores = HashMap::new();
    if bytes.len() < HEADER_BYTES && header.starts_with(bytes) {
        return Ok(Resumed { scores, keep: 0 });
    }
    let Some(records) = bytes.strip_prefix(header.as_slice()) else {
        return Err(CheckpointError::OtherRun);
    };
    let by_key: HashMap<u128, &Game> = positions.iter().map(|p| (p.symmetric_key().0, p)).collect();
    let mut keep = HEADER_BYTES;
    for (i, chunk) in records.chunks_exact(record_bytes(board)).enumerate() {
        let Some((key, score)) = parse_record(board, chunk) else {
            break;
        };
        let (record, offset) = (i + 1, keep);
        let Some(pos) = by_key.get(&key) else {
            return Err(CheckpointError::NotInRun {
                record,
                offset,
                moves: key_name(board, key),
            });
        };
        let (min, max) = pos.score_range();
        if !(min..=max).contains(&score) {
            return Err(CheckpointError::ImpossibleScore {
                record,
                offset,
                moves: position_name(pos),
                score,
            });
        }
        if let Some(earlier) = scores.insert(key, score)
            && earlier != score
        {
            return Err(CheckpointError::Contradicts {
                record,
                offset,
                moves: position_name(pos),
                score,
                earlier,
            });
        }
        keep += record_bytes(board);
    }
    Ok(Resumed { scores, keep })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 5x4 board, stored in 64-bit words.
    fn small() -> BoardSize {
        BoardSize::new(5, 4).unwrap()
    }

    #[test]
    fn records_round_trip_and_damage_is_seen() {
        let board = small();
        let r = record(board, 0x1234_5678_9abc, -7);
        assert_eq!(r.len(), 16);
        assert_eq!(parse_record(board, &r), Some((0x1234_5678_9abc, -7)));
        for bit in 0..r.len() * 8 {
            let mut bad = r.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(parse_record(board, &bad), None, "bit {bit}");
        }
        assert_eq!(parse_record(board, &[0; 16]), None);
        assert_eq!(parse_record(board, &r[..15]), None);
        // A key past 64 bits takes a 24-byte record.
        let wide_board = BoardSize::new(8, 8).unwrap();
        let wide = record(wide_board, 1u128 << 100 | 5, 3);
        assert_eq!(wide.len(), 24);
        assert_eq!(parse_record(wide_board, &wide), Some((1u128 << 100 | 5, 3)));
        assert_eq!(parse_record(board, &wide), None);
    }

    #[test]
    fn whole_records_are_kept_and_a_torn_tail_is_cut() {
        let board = small();
        let positions = super::super::deepest_positions(board, 3, Shard::WHOLE);
        let h = header(board, 3, Shard::WHOLE);
        let (a, b) = (
            positions[0].symmetric_key().0,
            positions[1].symmetric_key().0,
        );
        let mut bytes = h.to_vec();
        bytes.extend_from_slice(&record(board, a, 1));
        bytes.extend_from_slice(&record(board, b, -2));
        let whole = bytes.len();
        bytes.extend_from_slice(&record(board, a, 1)[..10]);
        let resumed = read(board, &bytes, &h, &positions).unwrap();
        assert_eq!(resumed.scores, HashMap::from([(a, 1), (b, -2)]));
        assert_eq!(resumed.keep, whole);
        // A torn header, or none: start again.
        assert_eq!(read(board, &h[..7], &h, &positions).unwrap().keep, 0);
        assert_eq!(read(board, &[], &h, &positions).unwrap().keep, 0);
        // Another run's checkpoint, or a file that is no checkpoint.
        let other = header(board, 4, Shard::WHOLE);
        assert_eq!(
            read(board, &bytes, &other, &positions),
            Err(CheckpointError::OtherRun)
        );
        assert_eq!(
            read(board, b"abc", &h, &positions),
            Err(CheckpointError::OtherRun)
        );
    }

    #[test]
    fn bad_records_are_named_errors() {
        let board = small();
        let positions = super::super::deepest_positions(board, 3, Shard::WHOLE);
        let h = header(board, 3, Shard::WHOLE);
        let a = positions[0].symmetric_key().0;
        let with = |records: &[Vec<u8>]| {
            let mut bytes = h.to_vec();
            records.iter().for_each(|r| bytes.extend_from_slice(r));
            read(board, &bytes, &h, &positions)
        };
        let deeper = super::super::deepest_positions(board, 4, Shard::WHOLE)[0];
        assert!(matches!(
            with(&[
                record(board, a, 0),
                record(board, deeper.symmetric_key().0, 0)
            ]),
            Err(CheckpointError::NotInRun {
                record: 2,
                offset: 36,
                ..
            })
        ));
        assert!(matches!(
            with(&[record(board, a, 100)]),
            Err(CheckpointError::ImpossibleScore { record: 1, .. })
        ));
        assert!(matches!(
            with(&[record(board, a, 1), record(board, a, 2)]),
            Err(CheckpointError::Contradicts { record: 2, .. })
        ));
        // Longer than the run can write: refused before anything is read.
        let long = vec![0u8; max_bytes(board, positions.len()) as usize + 1];
        assert!(matches!(
            read(board, &long, &h, &positions),
            Err(CheckpointError::TooLong { .. })
        ));
    }

    proptest::proptest! {
        /// Any bytes at all read as a checkpoint give its scores or an error,
        /// never a panic; so do a valid checkpoint's bytes with one overwritten.
        #[test]
        fn reading_a_checkpoint_never_panics(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..300),
                                             at in 0usize..400, value in proptest::num::u8::ANY) {
            let job = super::super::Job::new(small(), 3, Shard::WHOLE).unwrap();
            let _ = job.resume(&bytes);
            let mut with_header = job.checkpoint_header().to_vec();
            with_header.extend_from_slice(&bytes);
            let _ = job.resume(&with_header);
            let mut good = job.checkpoint_header().to_vec();
            for pos in job.positions() {
                let key = pos.symmetric_key().0;
                good.extend_from_slice(&record(small(), key, 0));
            }
            let i = at % good.len();
            good[i] = value;
            if let Ok(resumed) = job.resume(&good) {
                proptest::prop_assert!(resumed.keep <= good.len());
                proptest::prop_assert!(resumed.scores.len() <= job.positions().len());
            }
        }
    }
}
