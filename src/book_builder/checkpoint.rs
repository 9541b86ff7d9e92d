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

use super::Shard;
use crate::Bitboard;
use crate::book::format::Fnv64;
use crate::book::position_name;
use crate::position::{Position, Score};

/// The first eight bytes of every checkpoint.
pub const MAGIC: [u8; 8] = *b"\x89C4PART\n";
/// Bytes of the header.
pub const HEADER_BYTES: usize = 20;
/// Bytes of one record of a board stored in the word `B`: the key, the
/// score, three zeros and the check.
pub const fn record_bytes<B: Bitboard>() -> usize {
    B::BITS / 8 + 8
}

/// The header of the checkpoint of the run that solves the `depth`-stone
/// positions of `shard` on a `W` x `H` board. A board has fewer than 64
/// cells, so the depth of a possible run fits in its byte.
pub fn header<const W: usize, const H: usize>(depth: usize, shard: Shard) -> [u8; HEADER_BYTES] {
    let mut h = [0u8; HEADER_BYTES];
    h[..8].copy_from_slice(&MAGIC);
    h[8] = W as u8;
    h[9] = H as u8;
    h[10] = depth.min(255) as u8;
    h[12..16].copy_from_slice(&shard.index.to_le_bytes());
    h[16..20].copy_from_slice(&shard.count.to_le_bytes());
    h
}

/// The record of one solved position.
pub fn record<B: Bitboard>(key: B, score: Score) -> Vec<u8> {
    let k = B::BITS / 8;
    let mut r = vec![0u8; record_bytes::<B>()];
    r[..k].copy_from_slice(&key.to_u128().to_le_bytes()[..k]);
    r[k] = score.clamp(i8::MIN.into(), i8::MAX.into()) as i8 as u8;
    let check = Fnv64::of(&r[..k + 4]) as u32;
    r[k + 4..].copy_from_slice(&check.to_le_bytes());
    r
}

/// The (key, score) of a record, or `None` if its length or check is wrong.
pub fn parse_record<B: Bitboard>(r: &[u8]) -> Option<(B, Score)> {
    if r.len() != record_bytes::<B>() {
        return None;
    }
    let (head, check) = r.split_at(B::BITS / 8 + 4);
    let (key, rest) = head.split_at(B::BITS / 8);
    let ok = check == (Fnv64::of(head) as u32).to_le_bytes() && rest[1..] == [0, 0, 0];
    ok.then(|| {
        let mut k = [0u8; 16];
        k[..key.len()].copy_from_slice(key);
        (
            B::from_u128(u128::from_le_bytes(k)),
            Score::from(rest[0] as i8),
        )
    })
}

/// The most bytes a checkpoint of a run over `positions` positions can
/// have: the header, one record each, and a torn record. Callers check a
/// file's length against it before they read the file.
pub fn max_bytes<B: Bitboard>(positions: usize) -> u64 {
    let record = record_bytes::<B>() as u64;
    (HEADER_BYTES as u64)
        .saturating_add((positions as u64).saturating_mul(record))
        .saturating_add(record - 1)
}

/// What a checkpoint holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resumed<B: Bitboard = u64> {
    /// The scores solved, by symmetric key.
    pub scores: HashMap<B, Score>,
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

/// Reads the checkpoint `bytes` of the run whose header is `header` and
/// whose positions are `positions`. A missing or torn header (a prefix of
/// `header`) and a torn or damaged tail are not errors: [`Resumed::keep`]
/// says how much to keep. Every whole record must be of one of `positions`,
/// with a score it can have. The memory taken is bounded by `positions`.
pub fn read<const W: usize, const H: usize, B: Bitboard>(
    bytes: &[u8],
    header: &[u8; HEADER_BYTES],
    positions: &[Position<W, H, B>],
) -> Result<Resumed<B>, CheckpointError> {
    let max = max_bytes::<B>(positions.len());
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
    let by_key: HashMap<B, &Position<W, H, B>> =
        positions.iter().map(|p| (p.symmetric_key().0, p)).collect();
    let mut keep = HEADER_BYTES;
    for (i, chunk) in records.chunks_exact(record_bytes::<B>()).enumerate() {
        let Some((key, score)) = parse_record::<B>(chunk) else {
            break;
        };
        let (record, offset) = (i + 1, keep);
        let Some(pos) = by_key.get(&key) else {
            let moves = Position::<W, H, B>::from_key(key)
                .map_or_else(|| format!("with key {key:#x}"), |p| position_name(&p));
            return Err(CheckpointError::NotInRun {
                record,
                offset,
                moves,
            });
        };
        let (min, max) = pos.score_range();
        if !(min..=max).contains(&score) {
            return Err(CheckpointError::ImpossibleScore {
                record,
                offset,
                moves: position_name(*pos),
                score,
            });
        }
        if let Some(earlier) = scores.insert(key, score)
            && earlier != score
        {
            return Err(CheckpointError::Contradicts {
                record,
                offset,
                moves: position_name(*pos),
                score,
                earlier,
            });
        }
        keep += record_bytes::<B>();
    }
    Ok(Resumed { scores, keep })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_damage_is_seen() {
        let r = record(0x1234_5678_9abcu64, -7);
        assert_eq!(r.len(), 16);
        assert_eq!(parse_record(&r), Some((0x1234_5678_9abcu64, -7)));
        for bit in 0..r.len() * 8 {
            let mut bad = r.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(parse_record::<u64>(&bad), None, "bit {bit}");
        }
        assert_eq!(parse_record::<u64>(&[0; 16]), None);
        assert_eq!(parse_record::<u64>(&r[..15]), None);
        // A key past 64 bits takes a 24-byte record.
        let wide = record(1u128 << 100 | 5, 3);
        assert_eq!(wide.len(), 24);
        assert_eq!(parse_record(&wide), Some((1u128 << 100 | 5, 3)));
        assert_eq!(parse_record::<u64>(&wide), None);
    }

    #[test]
    fn whole_records_are_kept_and_a_torn_tail_is_cut() {
        let positions = super::super::deepest_positions::<5, 4, u64>(3, Shard::WHOLE);
        let h = header::<5, 4>(3, Shard::WHOLE);
        let (a, b) = (
            positions[0].symmetric_key().0,
            positions[1].symmetric_key().0,
        );
        let mut bytes = h.to_vec();
        bytes.extend_from_slice(&record(a, 1));
        bytes.extend_from_slice(&record(b, -2));
        let whole = bytes.len();
        bytes.extend_from_slice(&record(a, 1)[..10]);
        let resumed = read(&bytes, &h, &positions).unwrap();
        assert_eq!(resumed.scores, HashMap::from([(a, 1), (b, -2)]));
        assert_eq!(resumed.keep, whole);
        // A torn header, or none: start again.
        assert_eq!(read(&h[..7], &h, &positions).unwrap().keep, 0);
        assert_eq!(read(&[], &h, &positions).unwrap().keep, 0);
        // Another run's checkpoint, or a file that is no checkpoint.
        let other = header::<5, 4>(4, Shard::WHOLE);
        assert_eq!(
            read(&bytes, &other, &positions),
            Err(CheckpointError::OtherRun)
        );
        assert_eq!(read(b"abc", &h, &positions), Err(CheckpointError::OtherRun));
    }

    #[test]
    fn bad_records_are_named_errors() {
        let positions = super::super::deepest_positions::<5, 4, u64>(3, Shard::WHOLE);
        let h = header::<5, 4>(3, Shard::WHOLE);
        let a = positions[0].symmetric_key().0;
        let with = |records: &[Vec<u8>]| {
            let mut bytes = h.to_vec();
            records.iter().for_each(|r| bytes.extend_from_slice(r));
            read(&bytes, &h, &positions)
        };
        let deeper = super::super::deepest_positions::<5, 4, u64>(4, Shard::WHOLE)[0];
        assert!(matches!(
            with(&[record(a, 0), record(deeper.symmetric_key().0, 0)]),
            Err(CheckpointError::NotInRun {
                record: 2,
                offset: 36,
                ..
            })
        ));
        assert!(matches!(
            with(&[record(a, 100)]),
            Err(CheckpointError::ImpossibleScore { record: 1, .. })
        ));
        assert!(matches!(
            with(&[record(a, 1), record(a, 2)]),
            Err(CheckpointError::Contradicts { record: 2, .. })
        ));
        // Longer than the run can write: refused before anything is read.
        let long = vec![0u8; max_bytes::<u64>(positions.len()) as usize + 1];
        assert!(matches!(
            read(&long, &h, &positions),
            Err(CheckpointError::TooLong { .. })
        ));
    }

    proptest::proptest! {
        /// Any bytes at all read as a checkpoint give its scores or an error,
        /// never a panic; so do a valid checkpoint's bytes with one overwritten.
        #[test]
        fn reading_a_checkpoint_never_panics(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..300),
                                             at in 0usize..400, value in proptest::num::u8::ANY) {
            let job = super::super::Job::<5, 4>::new(3, Shard::WHOLE).unwrap();
            let _ = job.resume(&bytes);
            let mut with_header = job.checkpoint_header().to_vec();
            with_header.extend_from_slice(&bytes);
            let _ = job.resume(&with_header);
            let mut good = job.checkpoint_header().to_vec();
            for pos in job.positions() {
                let key = pos.symmetric_key().0;
                good.extend_from_slice(&record(key, 0));
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
