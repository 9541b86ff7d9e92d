//! Building opening books: which positions a book holds, how the work splits
//! into shards, the parallel search of the deepest level, the resumable
//! checkpoint, and the assembly of parts into a checked book.
//!
//! Only the positions with exactly `depth` stones are searched. Every
//! shallower position's score follows exactly from its children's (the
//! negamax rule of [`crate::book::consistency`]), and each child is either
//! in the book or scored without a search (a win at once). So generating a
//! book costs about as much as solving its deepest level, and shards split
//! that level alone; merging the shards derives the rest.
//!
//! `assemble` turns deepest-level scores into parts and books and merges
//! parts, `checkpoint` reads and writes the record of solved positions a run
//! keeps, and `run` solves a job's positions on worker threads. Like the rest
//! of the library this does no I/O: the caller stores the checkpoint and the
//! book.
//!
//! The builder works on the board chosen at run time: positions are
//! [`Game`]s, keys `u128`, books [`AnyBook`](crate::AnyBook)s and the
//! solvers [`Engine`](crate::Engine)s, so it is compiled once for every
//! board size; only the search and the book's own checks run on the
//! fixed-size types.

pub mod assemble;
pub mod checkpoint;
pub mod run;

use std::collections::HashSet;

pub use assemble::{BuildError, check_agrees, complete, merge, part};
pub use run::{Job, Outcome, Solved};

use crate::Bitboard;
use crate::board::{BoardSize, for_board};
use crate::book::consistency;
use crate::game::Game;
use crate::rng::SplitMix64;

/// Which part of the work a run does: shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based shard number.
    pub index: u32,
    /// Number of shards.
    pub count: u32,
}

impl Shard {
    /// The whole job in one part.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Parses `K/N` (1 <= K <= N).
    pub fn parse(text: &str) -> Result<Self, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("'{text}' is not K/N (e.g. 2/8)"))?;
        let index: u32 = k
            .trim()
            .parse()
            .map_err(|_| format!("'{k}' is not a shard number"))?;
        let count: u32 = n
            .trim()
            .parse()
            .map_err(|_| format!("'{n}' is not a shard count"))?;
        if count == 0 || index == 0 || index > count {
            return Err(format!("shard {index}/{count}: K must be between 1 and N"));
        }
        Ok(Shard { index, count })
    }
}

/// The shard (1-based, of `count`; a count of 0 is taken as 1) a symmetric
/// key belongs to. The key is scrambled first (the first SplitMix64 output
/// seeded with it) so that shards get about as many positions each: raw keys
/// of early positions share most of their bits. A key's shard is the same
/// whatever word the board stores it in (the high half of a narrow board's
/// key is zero, and folding leaves the low half as it is).
pub fn shard_of(key: u128, count: u32) -> u32 {
    (SplitMix64::new(key.fold64()).next_u64() % u64::from(count.max(1))) as u32 + 1
}

/// Whether a position belongs in a book: not finished, and the side to move
/// cannot win at once ([`consistency::is_book_position`]).
pub fn is_book_position(game: &Game) -> bool {
    for_board!(game.board(), bool, with (game: &'b Game = game), <W, H, B> {
        consistency::is_book_position(&game.fixed::<W, H, B>())
    })
}

pub use crate::book::position_name;

/// A readable name for the position of `board` whose symmetric key is `key`.
pub fn key_name(board: BoardSize, key: u128) -> String {
    Game::from_key(board, key).map_or_else(|| format!("with key {key:#x}"), |g| position_name(&g))
}

/// The distinct positions of `board` with 0, 1, ..., `depth` stones that can
/// arise in a game, mirror images counted once (each stored as the one whose
/// key is the symmetric key), and the game not over. Level `k` is in
/// discovery order: the children of level `k - 1`, parents in order, columns
/// left to right, so that siblings are next to each other (they share much
/// of their search). Positions with an immediate win are included (their
/// children are positions too); [`is_book_position`] tells the entries.
pub fn levels(board: BoardSize, depth: usize) -> Vec<Vec<Game>> {
    let mut levels = vec![vec![Game::new(board)]];
    while levels.len() <= depth.min(board.cells()) {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for pos in levels.iter().last().into_iter().flatten() {
            for col in 0..board.width() {
                if !pos.can_play(col) {
                    continue;
                }
                let child = pos.after(col);
                if child.is_game_over() {
                    continue;
                }
                let (key, mirrored) = child.symmetric_key();
                if seen.insert(key) {
                    next.push(if mirrored { child.mirrored() } else { child });
                }
            }
        }
        levels.push(next);
    }
    levels
}

/// The positions a run must search: the book positions of `board` with
/// exactly `depth` stones in `shard`, in the order of [`levels`].
pub fn deepest_positions(board: BoardSize, depth: usize, shard: Shard) -> Vec<Game> {
    let mut levels = levels(board, depth);
    if levels.len() <= depth {
        return Vec::new();
    }
    levels
        .swap_remove(depth)
        .into_iter()
        .filter(|pos| {
            is_book_position(pos) && shard_of(pos.symmetric_key().0, shard.count) == shard.index
        })
        .collect()
}
