//! Building a book: which positions it holds, how the work splits into
//! shards, how shallow scores follow from deep ones, and the consistency
//! check every book passes before it is written.
//!
//! Only the positions with exactly `depth` stones are searched. Every
//! shallower position's score follows exactly from its children's (negamax:
//! the best of the children's negated scores), and each child is either in
//! the book or scored without a search (a win at once). So generating a book
//! costs about as much as solving its deepest level, and shards split that
//! level alone; merging the shards derives the rest.

use std::collections::{BTreeMap, HashMap};

use thiserror::Error;

use super::Book;
use super::format::{FormatError, Kind};
use crate::position::Position;
use crate::position::Score;

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

/// The shard (1-based, of `count`) a symmetric key belongs to. The key is
/// mixed first (SplitMix64's finaliser) so that shards get about as many
/// positions each: raw keys of early positions share most of their bits.
pub fn shard_of(key: u64, count: u32) -> u32 {
    let mut z = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z % u64::from(count)) as u32 + 1
}

/// Whether a position belongs in a book: not finished, and the side to
/// move cannot win at once.
pub fn is_book_position<const W: usize, const H: usize>(pos: &Position<W, H>) -> bool {
    !pos.is_game_over() && !pos.can_win_next()
}

/// The distinct positions with 0, 1, ..., `depth` stones that can arise in a
/// game, mirror images counted once (each stored as the one whose key is the
/// symmetric key), and the game not over. Level `k` is in discovery order:
/// the children of level `k - 1`, parents in order, columns left to right, so
/// that siblings are next to each other (they share much of their search).
/// Positions with an immediate win are included (their children are
/// positions too); [`is_book_position`] tells the entries.
pub fn levels<const W: usize, const H: usize>(depth: usize) -> Vec<Vec<Position<W, H>>> {
    let mut levels = vec![vec![Position::<W, H>::new()]];
    while levels.len() <= depth.min(W * H) {
        let mut seen = std::collections::HashSet::new();
        let mut next = Vec::new();
        for pos in levels.last().expect("level 0 exists") {
            for col in 0..W {
                if !pos.can_play(col) {
                    continue;
                }
                let mut child = *pos;
                child.play_col(col);
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

/// The positions a run must search: the book positions with exactly `depth`
/// stones in `shard`, in the order of [`levels`].
pub fn deepest_positions<const W: usize, const H: usize>(
    depth: usize,
    shard: Shard,
) -> Vec<Position<W, H>> {
    let mut levels = levels::<W, H>(depth);
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

/// Checks that `book` and `other` give the same score to every position both
/// hold. A book generated with bounds from `other` must agree with it: a
/// disagreement means one of them is wrong.
pub fn check_agrees<const W: usize, const H: usize>(
    book: &Book<W, H>,
    other: &Book<W, H>,
) -> Result<(), BuildError> {
    for (key, theirs) in other.entries() {
        if let Some(ours) = book.get_key(key)
            && ours != theirs
        {
            let pos = Position::<W, H>::from_key(key);
            return Err(BuildError::Disagrees {
                moves: pos.map_or_else(|| format!("with key {key:#x}"), |p| name(&p)),
                ours,
                theirs,
            });
        }
    }
    Ok(())
}

/// Why a book cannot be built or merged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BuildError {
    /// A score is not what its children give.
    #[error(
        "inconsistent book: the position {moves} has score {stored} but its children give {derived}"
    )]
    Inconsistent {
        /// A line reaching the position (1-based columns).
        moves: String,
        /// The score in the book.
        stored: Score,
        /// The score from its children ("at least" when some are missing).
        derived: Score,
    },
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
    /// A deepest-level position has no score.
    #[error(
        "the position {moves} ({depth} stones) is missing: the parts do not cover the whole book"
    )]
    Missing {
        /// A line reaching it.
        moves: String,
        /// The book's depth.
        depth: usize,
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
    /// The entries do not form a valid book.
    #[error(transparent)]
    Format(#[from] FormatError),
}

/// A readable name for a position: a line reaching it, or its key.
fn name<const W: usize, const H: usize>(pos: &Position<W, H>) -> String {
    match super::line_to(pos) {
        Some(line) => format!("'{}'", crate::position::moves_to_string(&line)),
        None => format!("with key {:#x}", pos.key()),
    }
}

/// The score of `child` (the game not over) if it needs no book: a win at
/// once, or a full board.
fn child_score_without_book<const W: usize, const H: usize>(
    child: &Position<W, H>,
) -> Option<Score> {
    if child.is_full() {
        Some(0)
    } else if child.can_win_next() {
        Some(child.win_next_score())
    } else {
        None
    }
}

/// The score of `pos` (a book position) from its children, looked up by
/// `score_of`: `(best, complete)`, the best negated child score found, and
/// whether every child had one (if not, `best` is only a lower bound).
pub fn from_children<const W: usize, const H: usize>(
    pos: &Position<W, H>,
    score_of: impl Fn(u64) -> Option<Score>,
) -> (Score, bool) {
    let mut best = Score::MIN;
    let mut complete = true;
    for col in 0..W {
        if !pos.can_play(col) {
            continue;
        }
        let mut child = *pos;
        child.play_col(col);
        match child_score_without_book(&child).or_else(|| score_of(child.symmetric_key().0)) {
            Some(s) => best = best.max(-s),
            None => complete = false,
        }
    }
    (best, complete)
}

/// The part of a sharded book holding `scores` (the deepest-level results of
/// one shard), checked to be exactly the positions of that shard.
pub fn part<const W: usize, const H: usize>(
    depth: usize,
    shard: Shard,
    scores: &HashMap<u64, Score>,
) -> Result<Book<W, H>, BuildError> {
    let expected = deepest_positions::<W, H>(depth, shard);
    check_covers(&expected, scores, depth)?;
    let kind = Kind::Part {
        index: shard.index,
        count: shard.count,
    };
    Ok(Book::new(
        depth,
        kind,
        scores.iter().map(|(&k, &s)| (k, s)).collect(),
    )?)
}

/// Checks that `scores` has a score for every position of `expected` and
/// for nothing else.
fn check_covers<const W: usize, const H: usize>(
    expected: &[Position<W, H>],
    scores: &HashMap<u64, Score>,
    depth: usize,
) -> Result<(), BuildError> {
    for pos in expected {
        if !scores.contains_key(&pos.symmetric_key().0) {
            return Err(BuildError::Missing {
                moves: name(pos),
                depth,
            });
        }
    }
    if scores.len() != expected.len() {
        let known: std::collections::HashSet<u64> =
            expected.iter().map(|p| p.symmetric_key().0).collect();
        let key = scores
            .keys()
            .copied()
            .filter(|k| !known.contains(k))
            .min()
            .expect("more scores than positions, all positions scored");
        let moves =
            Position::<W, H>::from_key(key).map_or(format!("with key {key:#x}"), |p| name(&p));
        return Err(BuildError::Unexpected { moves, depth });
    }
    Ok(())
}

/// The complete book of depth `depth` from the scores of all its deepest
/// positions: the shallower levels are derived from their children, then
/// the whole book is checked with [`check_consistency`].
pub fn complete<const W: usize, const H: usize>(
    depth: usize,
    deepest: &HashMap<u64, Score>,
) -> Result<Book<W, H>, BuildError> {
    let levels = levels::<W, H>(depth);
    let mut scores: BTreeMap<u64, Score> = BTreeMap::new();
    if let Some(last) = levels.get(depth) {
        let expected: Vec<_> = last.iter().copied().filter(is_book_position).collect();
        check_covers(&expected, deepest, depth)?;
        scores.extend(deepest.iter().map(|(&k, &s)| (k, s)));
    }
    for level in levels.iter().take(depth).rev() {
        for pos in level.iter().filter(|p| is_book_position(*p)) {
            let (score, complete) = from_children(pos, |key| scores.get(&key).copied());
            assert!(
                complete,
                "every child of a shallower level is in the book or needs no search"
            );
            scores.insert(pos.symmetric_key().0, score);
        }
    }
    let book = Book::new(depth, Kind::Complete, scores.into_iter().collect())?;
    check_consistency(&book)?;
    Ok(book)
}

/// Checks every entry against its children: where all of them have a score
/// (in the book, or a win at once), the entry must be their best negated
/// score; where some are missing, at least the best of the others.
pub fn check_consistency<const W: usize, const H: usize>(
    book: &Book<W, H>,
) -> Result<(), BuildError> {
    for (key, stored) in book.entries() {
        let pos = Position::<W, H>::from_key(key).expect("book keys are positions");
        if pos.moves_played() >= book.depth() && book.kind() == Kind::Complete {
            continue;
        }
        let (derived, complete) = from_children(&pos, |k| book.get_key(k));
        if derived == Score::MIN {
            continue;
        }
        if (complete && derived != stored) || (!complete && derived > stored) {
            return Err(BuildError::Inconsistent {
                moves: name(&pos),
                stored,
                derived,
            });
        }
    }
    Ok(())
}

/// Joins the parts of a sharded book into the complete book: they must be
/// parts of one job (same depth, same shard count), every shard exactly
/// once, each holding only its own positions, none overlapping.
pub fn merge<const W: usize, const H: usize>(
    parts: &[Book<W, H>],
) -> Result<Book<W, H>, BuildError> {
    let first = parts
        .first()
        .ok_or_else(|| BuildError::Mismatch("no part given".to_owned()))?;
    let depth = first.depth();
    let Kind::Part { count, .. } = first.kind() else {
        return Err(BuildError::Mismatch(
            "the first file is a complete book, not a part".to_owned(),
        ));
    };
    let mut owner: HashMap<u64, u32> = HashMap::new();
    let mut seen = vec![false; count as usize];
    for part in parts {
        let Kind::Part { index, count: n } = part.kind() else {
            return Err(BuildError::Mismatch(
                "a complete book is not a part".to_owned(),
            ));
        };
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
        if std::mem::replace(&mut seen[index as usize - 1], true) {
            return Err(BuildError::Mismatch(format!(
                "shard {index}/{count} given twice"
            )));
        }
        for (key, _) in part.entries() {
            let pos = Position::<W, H>::from_key(key).expect("book keys are positions");
            if let Some(other) = owner.insert(key, index) {
                return Err(BuildError::Overlap {
                    moves: name(&pos),
                    first: other,
                    second: index,
                });
            }
            if shard_of(key, count) != index {
                return Err(BuildError::Unexpected {
                    moves: name(&pos),
                    depth,
                });
            }
        }
    }
    if let Some(missing) = seen.iter().position(|&s| !s) {
        return Err(BuildError::Mismatch(format!(
            "shard {}/{count} is missing",
            missing + 1
        )));
    }
    let deepest: HashMap<u64, Score> = parts.iter().flat_map(Book::entries).collect();
    complete(depth, &deepest)
}
