//! The checkpoint reader of book runs (`c4::book_builder::checkpoint::read`)
//! on any bytes, for the depth-4 run on the 4x4 board. The first byte picks
//! how the rest is read: as the whole file, after a correct header, or as
//! records made with correct checks (two bytes pick a position of the run,
//! or a key of none, one byte its score; a last partial chunk is a torn
//! tail), so that every check on a record is reached. It never panics, and
//! what it keeps is the header and whole records, each scored within its
//! position's range.
#![no_main]

use std::sync::OnceLock;

use c4::book_builder::checkpoint::{self, HEADER_BYTES};
use c4::book_builder::{Shard, levels};
use c4::{BoardSize, Game};
use libfuzzer_sys::fuzz_target;

const DEPTH: usize = 4;

/// The 4x4 board.
fn board() -> BoardSize {
    BoardSize::new(4, 4).expect("4x4 is supported")
}

fn positions() -> &'static [Game] {
    static LEVEL: OnceLock<Vec<Game>> = OnceLock::new();
    LEVEL.get_or_init(|| levels(board(), DEPTH).swap_remove(DEPTH))
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let header = checkpoint::header(board(), DEPTH, Shard { index: 1, count: 1 });
    // Bytes of a record of a 4x4 board (64-bit keys).
    let record_bytes = checkpoint::record_bytes(board());
    let bytes = match first % 3 {
        0 => rest.to_vec(),
        1 => [header.as_slice(), rest].concat(),
        _ => {
            let mut bytes = header.to_vec();
            let chunks = rest.chunks_exact(3);
            let tail = chunks.remainder();
            for c in chunks {
                let pick = usize::from(u16::from_le_bytes([c[0], c[1]]));
                let key = match positions().get(pick) {
                    Some(p) => p.symmetric_key().0,
                    None => pick as u128,
                };
                bytes.extend_from_slice(&checkpoint::record(board(), key, (c[2] as i8).into()));
            }
            bytes.extend_from_slice(tail);
            bytes
        }
    };
    let Ok(resumed) = checkpoint::read(board(), &bytes, &header, positions()) else {
        return;
    };
    assert!(resumed.keep <= bytes.len());
    if resumed.keep > 0 {
        assert_eq!((resumed.keep - HEADER_BYTES) % record_bytes, 0);
        assert!(resumed.scores.len() <= (resumed.keep - HEADER_BYTES) / record_bytes);
    } else {
        assert!(resumed.scores.is_empty());
    }
    for (&key, &score) in &resumed.scores {
        let pos = Game::from_key(board(), key).expect("a kept key is a position");
        let (min, max) = pos.score_range();
        assert!((min..=max).contains(&score));
    }
});
