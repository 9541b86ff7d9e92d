//! Opening books: the exact scores of every position up to some number of
//! stones, looked up in a sorted table instead of searched.
//!
//! A book of depth `D` holds every position with at most `D` stones that can
//! arise in a game, except finished positions and positions where the side
//! to move wins at once (both are scored without a search). A position and
//! its mirror image have the same score and share one entry, under the
//! smaller of their two keys ([`Position::symmetric_key`]).
//!
//! `format` reads and writes book files, `consistency` holds the negamax
//! rule that ties the scores together (and [`Book::decode`], which checks
//! it), and `builtin` the book compiled into `c4`. Building a book needs the solver, so it lives above it, in
//! [`crate::book_builder`].

pub mod builtin;
pub mod consistency;
pub mod format;

use crate::Bitboard;
use crate::board::BoardSize;
use crate::position::Position;
use crate::rules::Score;
use format::{FormatError, Kind, RawBook};

/// An opening book for a `W` x `H` board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Book<const W: usize = 7, const H: usize = 6, B: Bitboard = u64> {
    /// The most stones an entry has.
    depth: usize,
    /// Whole book, or one part of a sharded one.
    kind: Kind,
    /// Symmetric keys, strictly increasing.
    keys: Vec<B>,
    /// `scores[i]` is the score of the position of `keys[i]`.
    scores: Vec<i8>,
}

impl<const W: usize, const H: usize, B: Bitboard> Book<W, H, B> {
    /// A book of `kind` holding `entries` (symmetric keys and scores, in any
    /// order). Each entry is checked as a loaded file's is; whether the
    /// scores agree with each other is [`consistency::check_consistency`]'s
    /// business (a book under construction may not agree yet).
    pub fn new(depth: usize, kind: Kind, entries: Vec<(B, Score)>) -> Result<Self, FormatError> {
        let raw = format::raw_book(BoardSize::of::<W, H>(), depth, kind, widen(entries))?;
        Ok(Self::from_checked(raw))
    }

    /// The book of a decoded file whose entries passed [`format::check_entries`]
    /// (or are trusted, [`Book::decode_trusting_entries`]).
    pub(crate) fn from_checked(raw: RawBook) -> Self {
        let (keys, scores) = narrow(&raw.entries);
        Book {
            depth: raw.header.depth,
            kind: raw.header.kind,
            keys,
            scores,
        }
    }

    /// Decodes a book file whose entries are known to be valid (the
    /// built-in book): the header, length and checksum are checked as by
    /// [`Book::decode`], each entry and the consistency of the scores are
    /// not. Invalid entries would give wrong scores, never a panic.
    pub fn decode_trusting_entries(bytes: &[u8]) -> Result<Self, FormatError> {
        let raw = format::decode_raw(bytes)?;
        format::check_board(&raw.header, BoardSize::of::<W, H>()).map(|()| Self::from_checked(raw))
    }

    /// The book as a file (see [`format`](mod@format)). The bytes depend only on the
    /// entries, so equal books give equal files.
    pub fn encode(&self) -> Vec<u8> {
        format::encode(
            W,
            H,
            self.depth,
            self.kind,
            &self.entries().collect::<Vec<_>>(),
        )
    }

    /// The most stones an entry has.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Whole book, or one part of a sharded one.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The entries, (symmetric key, score), by increasing key.
    pub fn entries(&self) -> impl Iterator<Item = (B, Score)> + '_ {
        self.keys
            .iter()
            .zip(&self.scores)
            .map(|(&key, &score)| (key, Score::from(score)))
    }

    /// The score of the position with symmetric key `key`, if in the book.
    #[inline]
    pub fn get_key(&self, key: B) -> Option<Score> {
        self.keys
            .binary_search(&key)
            .ok()
            .map(|i| Score::from(self.scores[i]))
    }

    /// The exact score of `pos`, if the book has it. Positions with more
    /// stones than the depth are answered without a look at the table.
    #[inline]
    pub fn get(&self, pos: &Position<W, H, B>) -> Option<Score> {
        if pos.moves_played() > self.depth {
            return None;
        }
        self.get_key(pos.symmetric_key().0)
    }

    /// A lower bound on the score of `pos` from the parents this book holds:
    /// the side to move gets at least minus the score of any parent (the
    /// parent's side could have played the move that made `pos`, so its score
    /// is at least minus that of `pos`). `None` if the book holds no parent.
    pub fn lower_bound_from_parents(&self, pos: &Position<W, H, B>) -> Option<Score> {
        pos.parents()
            .filter_map(|parent| self.get(&parent))
            .map(|s| -s)
            .max()
    }
}

/// Book entries with their keys widened to `u128`: for the code that
/// checks and writes books, compiled once for every size. (Not inlined:
/// it is compiled once per word, not into every size's caller.)
#[inline(never)]
fn widen<B: Bitboard>(entries: Vec<(B, Score)>) -> Vec<(u128, Score)> {
    let mut wide = Vec::with_capacity(entries.len());
    for (key, score) in entries {
        wide.push((key.to_u128(), score));
    }
    wide
}

/// The keys, narrowed to the board's word, and the scores of checked
/// entries (each key fits the word: [`format::check_entries`]). Not
/// inlined, as [`widen`].
#[inline(never)]
fn narrow<B: Bitboard>(entries: &[(u128, Score)]) -> (Vec<B>, Vec<i8>) {
    let mut keys = Vec::with_capacity(entries.len());
    let mut scores = Vec::with_capacity(entries.len());
    for &(key, score) in entries {
        keys.push(B::from_u128(key));
        scores.push(score as i8);
    }
    (keys, scores)
}

pub use crate::game::position_name;
