//! The negamax rule that ties a book's scores together: which positions a
//! book holds, how a position's score follows from its children's, and the
//! check that every entry with children in the book obeys it.
//!
//! The same rule derives the shallow levels when a book is built and refuses
//! a loaded book whose scores contradict each other, so a file cannot make
//! `c4` answer with scores its own entries disprove.

use super::Book;
use super::format::{self, FormatError, Kind, RawBook};
use crate::Bitboard;
use crate::board::BoardSize;
use crate::game::{Game, position_name};
use crate::position::Position;
use crate::rules::Score;

/// Whether a position belongs in a book: not finished, and the side to
/// move cannot win at once (both are scored without a search).
pub fn is_book_position<const W: usize, const H: usize, B: Bitboard>(
    pos: &Position<W, H, B>,
) -> bool {
    !pos.is_game_over() && !pos.can_win_next()
}

/// The score of `child` (a position reached by a move from a book position,
/// so not won) when it needs no book: a full board, or a win at once for its
/// side to move.
pub fn score_without_book<const W: usize, const H: usize, B: Bitboard>(
    child: &Position<W, H, B>,
) -> Option<Score> {
    game_score_without_book(&Game::from(*child))
}

/// [`score_without_book`] of a game.
fn game_score_without_book(child: &Game) -> Option<Score> {
    if child.is_full() {
        Some(0)
    } else if child.can_win_next() {
        Some(child.win_next_score())
    } else {
        None
    }
}

/// The score of `pos` (a book position) from its children, looked up by
/// `score_of` (symmetric key to score): `(best, complete)`, the best negated
/// child score found, and whether every child had one (if not, `best` is only
/// a lower bound; [`Score::MIN`] if no child had one).
pub fn from_children<const W: usize, const H: usize, B: Bitboard>(
    pos: &Position<W, H, B>,
    score_of: impl Fn(B) -> Option<Score>,
) -> (Score, bool) {
    game_from_children(&Game::from(*pos), &|key| score_of(B::from_u128(key)))
}

/// [`from_children`] of a game, its children looked up by their symmetric
/// keys widened to `u128`: compiled once for every size.
pub fn game_from_children(game: &Game, score_of: &dyn Fn(u128) -> Option<Score>) -> (Score, bool) {
    let mut best = Score::MIN;
    let mut complete = true;
    for col in 0..game.width() {
        if !game.can_play(col) {
            continue;
        }
        let child = game.after(col);
        match game_score_without_book(&child).or_else(|| score_of(child.symmetric_key().0)) {
            Some(s) => best = best.max(-s),
            None => complete = false,
        }
    }
    (best, complete)
}

/// Checks every entry against its children, in key order, and names the
/// first that disagrees: where every child has a score (in the book, or
/// without a search), the entry must be the best of their negated scores;
/// where some are missing, at least the best of the others. The deepest
/// entries of a complete book are skipped: their children are not in it.
///
/// Cost: 174 ms for the built-in depth-9 book (353,893 entries, 114k with
/// children in it), twenty times its 9 ms decoding (`cargo bench --profile
/// test --bench book -- load`, busy 2-core x86-64 VM). Far over a
/// millisecond, so the built-in book, fixed when `c4` is built, is checked
/// by `tests/book.rs` rather than at every start; every other book is
/// checked when it is loaded.
pub fn check_consistency<const W: usize, const H: usize, B: Bitboard>(
    book: &Book<W, H, B>,
) -> Result<(), FormatError> {
    check_scores(
        BoardSize::of::<W, H>(),
        (book.depth(), book.kind()),
        &mut book.entries().map(|(key, score)| (key.to_u128(), score)),
        &|key| book.get_key(B::from_u128(key)),
    )
}

/// [`check_consistency`] of a decoded book file of `board` whose entries
/// passed [`check_entries`](super::format::check_entries).
pub fn check_raw_consistency(raw: &RawBook, board: BoardSize) -> Result<(), FormatError> {
    let entries = &raw.entries;
    check_scores(
        board,
        (raw.header.depth, raw.header.kind),
        &mut entries.iter().copied(),
        &|key| {
            let index = entries.binary_search_by_key(&key, |&(k, _)| k).ok()?;
            Some(entries[index].1)
        },
    )
}

/// [`check_consistency`] of the book of `board` with `(depth, kind)`, whose
/// `entries` are (symmetric key, score) in key order and whose scores
/// `score_of` looks up: compiled once for every size.
fn check_scores(
    board: BoardSize,
    (depth, kind): (usize, Kind),
    entries: &mut dyn Iterator<Item = (u128, Score)>,
    score_of: &dyn Fn(u128) -> Option<Score>,
) -> Result<(), FormatError> {
    for (index, (key, stored)) in entries.enumerate() {
        let game = Game::from_key(board, key).ok_or(FormatError::BadEntry {
            index: index as u64,
            reason: "the key is not a position",
        })?;
        if game.moves_played() >= depth && kind == Kind::Complete {
            continue;
        }
        let (derived, complete) = game_from_children(&game, score_of);
        if derived == Score::MIN {
            continue;
        }
        if (complete && derived != stored) || (!complete && derived > stored) {
            return Err(FormatError::Inconsistent {
                moves: position_name(&game),
                stored,
                derived,
                at_least: !complete,
            });
        }
    }
    Ok(())
}

impl<const W: usize, const H: usize, B: Bitboard> Book<W, H, B> {
    /// Decodes a book file, checking everything: magic, version, board
    /// size, length, checksum, every entry, and that every score with
    /// children in the book is the best of theirs
    /// ([`check_consistency`]).
    pub fn decode(bytes: &[u8]) -> Result<Self, FormatError> {
        decode_checked(bytes, BoardSize::of::<W, H>()).map(Self::from_checked)
    }
}

/// A book file of `board`, decoded and checked as [`Book::decode`] says:
/// compiled once for every size.
fn decode_checked(bytes: &[u8], board: BoardSize) -> Result<RawBook, FormatError> {
    let raw = format::decode_raw(bytes)?;
    format::check_entries(&raw, board)?;
    check_raw_consistency(&raw, board)?;
    Ok(raw)
}
