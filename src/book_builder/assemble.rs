//! From deepest-level scores to books: a shard's part, the complete book with
//! its shallow levels derived, the merge of parts, and the checks each
//! passes before it is written.

use std::collections::{BTreeMap, HashMap, HashSet};

use thiserror::Error;

use super::{
    Shard, deepest_positions, is_book_position, key_name, levels, position_name, shard_of,
};
use crate::board::BoardSize;
use crate::book::consistency;
use crate::book::format::{FormatError, Kind};
use crate::engine::AnyBook;
use crate::game::Game;
use crate::rules::Score;

/// Why a book cannot be built or merged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BuildError {
    /// The new book and the book its bounds came from disagree.
    #[error(
        "the position {moves} has score {ours} in the new book but {theirs} in the book of the bounds: one of them is wrong"
    )]
    Disagrees {
        /// A line reaching the position (1-based columns).
        moves: String,
        /// Its score in the new book.
        ours: Score,
        /// Its score in the book of the bounds.
        theirs: Score,
    },
    /// A position of the book has no score.
    #[error(
        "the position {moves} ({stones} stones) is missing: the parts do not cover the whole book"
    )]
    Missing {
        /// A line reaching it.
        moves: String,
        /// Its number of stones.
        stones: usize,
    },
    /// A score for a position the book should not hold.
    #[error(
        "a score for the position {moves}, which does not belong in this part of a depth-{depth} book"
    )]
    Unexpected {
        /// A line reaching it, or its key if none does.
        moves: String,
        /// The book's depth.
        depth: usize,
    },
    /// Parts that do not belong together.
    #[error("cannot merge: {0}")]
    Mismatch(String),
    /// Two parts hold the same position.
    #[error("cannot merge: parts {first} and {second} overlap (both hold the position {moves})")]
    Overlap {
        /// A line reaching the position.
        moves: String,
        /// The first part's shard number.
        first: u32,
        /// The second part's shard number.
        second: u32,
    },
    /// The depth asked for is impossible.
    #[error("depth {depth} is more than the {cells} cells of the board")]
    TooDeep {
        /// The depth asked for.
        depth: usize,
        /// Cells of the board.
        cells: usize,
    },
    /// The entries do not form a valid book (an entry, or scores that
    /// contradict each other).
    #[error(transparent)]
    Format(#[from] FormatError),
}

/// Checks that `book` and `other` give the same score to every position both
/// hold. A book generated with bounds from `other` must agree with it: a
/// disagreement means one of them is wrong. Books of two boards share no
/// position.
pub fn check_agrees(book: &AnyBook, other: &AnyBook) -> Result<(), BuildError> {
    if book.board() != other.board() {
        return Ok(());
    }
    let ours = book.entries();
    for (key, theirs) in other.entries() {
        if let Ok(i) = ours.binary_search_by_key(&key, |&(k, _)| k)
            && ours[i].1 != theirs
        {
            return Err(BuildError::Disagrees {
                moves: key_name(book.board(), key),
                ours: ours[i].1,
                theirs,
            });
        }
    }
    Ok(())
}

/// The part of a sharded book of `board` holding `scores` (the
/// deepest-level results of one shard), checked to be exactly the positions
/// of that shard.
pub fn part(
    board: BoardSize,
    depth: usize,
    shard: Shard,
    scores: &HashMap<u128, Score>,
) -> Result<AnyBook, BuildError> {
    let expected = deepest_positions(board, depth, shard);
    check_covers(board, &expected, scores, depth)?;
    let kind = Kind::Part {
        index: shard.index,
        count: shard.count,
    };
    Ok(AnyBook::from_entries(
        board,
        depth,
        kind,
        scores.iter().map(|(&k, &s)| (k, s)).collect(),
    )?)
}

/// Checks that `scores` has a score for every position of `expected` (of
/// `board`) and for nothing else.
fn check_covers(
    board: BoardSize,
    expected: &[Game],
    scores: &HashMap<u128, Score>,
    depth: usize,
) -> Result<(), BuildError> {
    if let Some(pos) = expected
        .iter()
        .find(|pos| !scores.contains_key(&pos.symmetric_key().0))
    {
        return Err(BuildError::Missing {
            moves: position_name(pos),
            stones: pos.moves_played(),
        });
    }
    if scores.len() != expected.len() {
        let known: HashSet<u128> = expected.iter().map(|p| p.symmetric_key().0).collect();
        let stray = scores.keys().copied().filter(|k| !known.contains(k)).min();
        return Err(BuildError::Unexpected {
            moves: stray.map_or_else(|| "?".to_owned(), |key| key_name(board, key)),
            depth,
        });
    }
    Ok(())
}

/// The score of `pos` (a book position) from its children, looked up in
/// `scores` by symmetric key: `(best, complete)`, as
/// [`consistency::from_children`] gives it.
fn from_children(pos: &Game, scores: &BTreeMap<u128, Score>) -> (Score, bool) {
    consistency::game_from_children(pos, &|key| scores.get(&key).copied())
}

/// The complete book of `board` and depth `depth` from the scores of all
/// its deepest positions: the shallower levels are derived from their
/// children, then the whole book is checked with
/// [`AnyBook::check_consistency`].
pub fn complete(
    board: BoardSize,
    depth: usize,
    deepest: &HashMap<u128, Score>,
) -> Result<AnyBook, BuildError> {
    let levels = levels(board, depth);
    let mut scores: BTreeMap<u128, Score> = BTreeMap::new();
    if let Some(last) = levels.get(depth) {
        let expected: Vec<Game> = last.iter().copied().filter(is_book_position).collect();
        check_covers(board, &expected, deepest, depth)?;
        scores.extend(deepest.iter().map(|(&k, &s)| (k, s)));
    }
    for level in levels.iter().take(depth).rev() {
        for pos in level.iter().filter(|p| is_book_position(p)) {
            let (score, complete) = from_children(pos, &scores);
            // Every child of a shallower level is in the book or needs no
            // search, so this only fails if the levels are wrong.
            if !complete {
                return Err(BuildError::Missing {
                    moves: position_name(pos),
                    stones: pos.moves_played() + 1,
                });
            }
            scores.insert(pos.symmetric_key().0, score);
        }
    }
    let book = AnyBook::from_entries(board, depth, Kind::Complete, scores.into_iter().collect())?;
    book.check_consistency()?;
    Ok(book)
}

/// Joins the parts of a sharded book into the complete book: they must be
/// parts of one job (same board, same depth, same shard count), every shard
/// exactly once, each holding only its own positions, none overlapping. The
/// memory taken is bounded by the parts' entries, whatever shard count they
/// claim.
pub fn merge(parts: &[AnyBook]) -> Result<AnyBook, BuildError> {
    let first = parts
        .first()
        .ok_or_else(|| BuildError::Mismatch("no part given".to_owned()))?;
    let (board, depth) = (first.board(), first.depth());
    let Kind::Part { count, .. } = first.kind() else {
        return Err(BuildError::Mismatch(
            "the first file is a complete book, not a part".to_owned(),
        ));
    };
    let mut owner: HashMap<u128, u32> = HashMap::new();
    let mut seen: HashSet<u32> = HashSet::new();
    let mut deepest: HashMap<u128, Score> = HashMap::new();
    for part in parts {
        let Kind::Part { index, count: n } = part.kind() else {
            return Err(BuildError::Mismatch(
                "a complete book is not a part".to_owned(),
            ));
        };
        if part.board() != board {
            return Err(BuildError::Mismatch(format!(
                "parts of books of the {board} and {} boards",
                part.board()
            )));
        }
        if part.depth() != depth {
            return Err(BuildError::Mismatch(format!(
                "parts of books of depth {depth} and {}",
                part.depth()
            )));
        }
        if n != count {
            return Err(BuildError::Mismatch(format!(
                "parts of a job of {count} shards and of one of {n}"
            )));
        }
        if !seen.insert(index) {
            return Err(BuildError::Mismatch(format!(
                "shard {index}/{count} given twice"
            )));
        }
        for (key, score) in part.entries() {
            if let Some(other) = owner.insert(key, index) {
                return Err(BuildError::Overlap {
                    moves: key_name(board, key),
                    first: other,
                    second: index,
                });
            }
            if shard_of(key, count) != index {
                return Err(BuildError::Unexpected {
                    moves: key_name(board, key),
                    depth,
                });
            }
            deepest.insert(key, score);
        }
    }
    // At most `parts.len()` shards are present, so the first missing one is
    // found within `parts.len() + 1` steps.
    if let Some(missing) = (1..=count).find(|i| !seen.contains(i)) {
        return Err(BuildError::Mismatch(format!(
            "shard {missing}/{count} is missing"
        )));
    }
    drop(owner);
    complete(board, depth, &deepest)
}
