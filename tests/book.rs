//! Opening books: generation against fresh solves and an independent
//! enumeration, the file format's round trip and its rejection of damaged
//! or foreign files, shards and merging, the consistency check, the solver
//! using a book, and the built-in book.

mod common;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use c4::book::consistency::{check_consistency, from_children};
use c4::book::format::{self, FormatError, Kind};
use c4::book::{Book, builtin};
use c4::book_builder::{self, BuildError, Shard};
use c4::{AnyBook, BoardSize, Game, Position, Score, Solver};
use common::minimax::minimax_memo;
use common::{Naive, Rng};

/// Scores of `positions` by fresh searches (no book).
fn solve_all(positions: &[Game]) -> HashMap<u128, Score> {
    let Some(first) = positions.first() else {
        return HashMap::new();
    };
    let mut solver = c4::engine::new(first.board(), 1 << 22).unwrap();
    positions
        .iter()
        .map(|p| (p.symmetric_key().0, solver.solve(p)))
        .collect()
}

/// The 5x4 board.
fn board_5x4() -> BoardSize {
    BoardSize::new(5, 4).unwrap()
}

/// The complete book of `depth`, built as `c4 book generate` builds it.
fn build<const W: usize, const H: usize>(depth: usize) -> Book<W, H> {
    let board = BoardSize::of::<W, H>();
    let deepest = book_builder::deepest_positions(board, depth, Shard::WHOLE);
    let book = book_builder::complete(board, depth, &solve_all(&deepest)).unwrap();
    Arc::unwrap_or_clone(book.fixed::<W, H, u64>().unwrap())
}

/// Every game position with at most `depth` stones, enumerated on the
/// naive board: the canonical cell arrays (the smaller of the cells and
/// their mirror image) of positions not won, not full and where the side to
/// move cannot win at once.
fn naive_book_positions<const W: usize, const H: usize>(depth: usize) -> HashSet<[[u8; H]; W]> {
    let mut out = HashSet::new();
    let mut frontier = vec![Naive::<W, H>::new()];
    let mut seen = HashSet::new();
    for _ in 0..=depth {
        let mut next = Vec::new();
        for b in &frontier {
            let mut mirrored = b.cells;
            mirrored.reverse();
            let canonical = b.cells.min(mirrored);
            let can_win = (0..W).any(|c| b.can_play(c) && b.is_winning_move(c));
            if !b.is_full() && !can_win {
                out.insert(canonical);
            }
            for c in 0..W {
                if b.can_play(c) {
                    let mut child = *b;
                    if !child.play(c) && !child.is_full() && seen.insert(child.cells) {
                        next.push(child);
                    }
                }
            }
        }
        frontier = next;
    }
    out
}

/// The naive cell array of a library position, mirrored into canonical form.
fn naive_cells<const W: usize, const H: usize>(pos: &Position<W, H>) -> [[u8; H]; W] {
    let mut cells = [[0u8; H]; W];
    for (col, column) in cells.iter_mut().enumerate() {
        for (row, cell) in column.iter_mut().enumerate() {
            *cell = match pos.stone_at(col, row) {
                None => 0,
                Some(c4::Player::First) => 1,
                Some(c4::Player::Second) => 2,
            };
        }
    }
    let mut mirrored = cells;
    mirrored.reverse();
    cells.min(mirrored)
}

#[test]
fn a_book_holds_exactly_the_right_positions_and_every_score_is_a_fresh_solve() {
    let book = build::<5, 4>(6);
    let bytes = book.encode();
    let loaded = Book::<5, 4>::decode(&bytes).unwrap();
    assert_eq!(loaded, book);
    // The positions: the same set as an independent enumeration.
    let expected = naive_book_positions::<5, 4>(6);
    let got: HashSet<_> = loaded
        .entries()
        .map(|(key, _)| naive_cells(&Position::<5, 4>::from_key(key).unwrap()))
        .collect();
    assert_eq!(got.len(), loaded.len());
    assert_eq!(got, expected);
    // Every score, shallow levels (derived) included, against a fresh search.
    let mut solver = Solver::<5, 4>::with_table_bytes(1 << 22).unwrap();
    for (key, score) in loaded.entries() {
        let pos = Position::<5, 4>::from_key(key).unwrap();
        solver.clear();
        assert_eq!(solver.solve(&pos), score, "key {key:#x}");
        assert_eq!(loaded.get(&pos), Some(score));
        assert_eq!(loaded.get(&pos.mirrored()), Some(score));
        // A line to the position replays to it.
        let line = pos.line().expect("a book position is reachable");
        assert_eq!(common::position_from_moves::<5, 4>(&line), pos);
    }
    // A few bytes per entry.
    assert!(
        bytes.len() < format::HEADER_BYTES + 4 * loaded.len(),
        "{}",
        bytes.len()
    );
}

#[test]
fn the_whole_4x4_game_fits_in_a_book() {
    let book = build::<4, 4>(16);
    let expected = naive_book_positions::<4, 4>(16);
    assert_eq!(book.len(), expected.len());
    // Every score, against the exhaustive minimax.
    let mut memo = HashMap::new();
    for (key, score) in book.entries() {
        let pos = Position::<4, 4>::from_key(key).unwrap();
        let naive = Naive::<4, 4>::from_moves(&pos.line().unwrap());
        assert_eq!(score, minimax_memo(&naive, &mut memo), "key {key:#x}");
    }
    // Witness: the exhaustive minimax (4x4 is a draw).
    assert_eq!(book.get(&Position::new()), Some(0), "4x4 is a draw");
    check_consistency(&book).unwrap();
}

#[test]
fn positions_outside_the_book_are_not_answered() {
    let book = build::<5, 4>(3);
    // Too deep.
    assert_eq!(book.get(&Position::<5, 4>::parse("3333").unwrap()), None);
    assert!(book.get(&Position::<5, 4>::parse("333").unwrap()).is_some());
    // An immediate win is not stored (it needs no search).
    let deeper = build::<5, 4>(6);
    let p = Position::<5, 4>::parse("112233").unwrap();
    assert!(p.can_win_next());
    assert_eq!(deeper.get(&p), None);
}

#[test]
fn truncated_corrupt_and_foreign_files_are_rejected() {
    let book = build::<5, 4>(4);
    let bytes = book.encode();
    for len in 0..bytes.len() {
        assert!(Book::<5, 4>::decode(&bytes[..len]).is_err(), "length {len}");
    }
    assert!(matches!(
        Book::<5, 4>::decode(&bytes[..bytes.len() - 1]),
        Err(FormatError::Truncated { .. })
    ));
    let mut rng = Rng(7);
    for _ in 0..2000 {
        let mut b = bytes.clone();
        let i = rng.below(b.len());
        b[i] ^= 1 << rng.below(8);
        assert!(Book::<5, 4>::decode(&b).is_err(), "byte {i}");
    }
    // Random garbage, and garbage behind a valid magic.
    for n in [0, 5, 48, 100, 1000] {
        let junk: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
        assert!(Book::<5, 4>::decode(&junk).is_err());
        let mut with_magic = format::MAGIC.to_vec();
        with_magic.extend_from_slice(&junk);
        assert!(Book::<5, 4>::decode(&with_magic).is_err());
    }
    assert_eq!(
        Book::<5, 4>::decode(b"moves score\n4453 -2\n"),
        Err(FormatError::NotABook)
    );
    // Another board.
    assert_eq!(
        Book::<4, 4>::decode(&bytes),
        Err(FormatError::BoardMismatch {
            width: 5,
            height: 4,
            expected_width: 4,
            expected_height: 4
        })
    );
    // A well-formed file (right checksum) with a wrong entry: a key that is
    // no position, a score out of range, a position deeper than the depth.
    let entries: Vec<(u64, Score)> = book.entries().collect();
    let mut bad = entries.clone();
    bad[3].1 = 100;
    let file = format::encode(5, 4, 4, Kind::Complete, &bad);
    assert!(matches!(
        Book::<5, 4>::decode(&file),
        Err(FormatError::BadEntry { .. })
    ));
    let file = format::encode(5, 4, 3, Kind::Complete, &entries);
    assert!(matches!(
        Book::<5, 4>::decode(&file),
        Err(FormatError::BadEntry { .. })
    ));
    let mut bad = entries.clone();
    bad.push((u64::MAX >> 30, 0));
    let file = format::encode(5, 4, 4, Kind::Complete, &bad);
    assert!(matches!(
        Book::<5, 4>::decode(&file),
        Err(FormatError::BadEntry { .. })
    ));
}

#[test]
fn shards_are_disjoint_and_merge_into_the_single_run_byte_for_byte() {
    let depth = 5;
    let board = board_5x4();
    let single = build::<5, 4>(depth).encode();
    let count = 3;
    let mut parts = Vec::new();
    let mut all = HashSet::new();
    for index in 1..=count {
        let shard = Shard { index, count };
        let positions = book_builder::deepest_positions(board, depth, shard);
        for p in &positions {
            assert!(all.insert(p.symmetric_key().0), "shards overlap");
        }
        let part = book_builder::part(board, depth, shard, &solve_all(&positions)).unwrap();
        // Parts survive a file round trip.
        parts.push(AnyBook::decode(board, &part.encode()).unwrap());
    }
    assert_eq!(
        all.len(),
        book_builder::deepest_positions(board, depth, Shard::WHOLE).len()
    );
    // Any order.
    parts.reverse();
    let merged = book_builder::merge(&parts).unwrap();
    assert_eq!(merged.encode(), single);

    // A missing part, a part twice, parts of another depth or job.
    assert!(matches!(
        book_builder::merge(&parts[..2]),
        Err(BuildError::Mismatch(_))
    ));
    let mut twice = parts.clone();
    twice[0] = parts[1].clone();
    assert!(book_builder::merge(&twice).is_err());
    let other_depth = {
        let shard = Shard { index: 1, count: 3 };
        let positions = book_builder::deepest_positions(board, 4, shard);
        book_builder::part(board, 4, shard, &solve_all(&positions)).unwrap()
    };
    let mut mixed = parts.clone();
    let i = mixed
        .iter()
        .position(|p| p.kind() == Kind::Part { index: 1, count: 3 })
        .unwrap();
    mixed[i] = other_depth;
    assert!(matches!(
        book_builder::merge(&mixed),
        Err(BuildError::Mismatch(_))
    ));
    // Overlapping parts: one part's entries relabelled as another shard.
    let entries: Vec<(u128, Score)> = parts[0]
        .entries()
        .into_iter()
        .chain(parts[1].entries())
        .collect();
    let Kind::Part { index, .. } = parts[1].kind() else {
        panic!()
    };
    let overlapping =
        AnyBook::from_entries(board, depth, Kind::Part { index, count }, entries).unwrap();
    let mut with_overlap = parts.clone();
    with_overlap[1] = overlapping;
    assert!(matches!(
        book_builder::merge(&with_overlap),
        Err(BuildError::Overlap { .. } | BuildError::Unexpected { .. })
    ));
    // A complete book is not a part.
    assert!(book_builder::merge(&[AnyBook::decode(board, &single).unwrap()]).is_err());
}

#[test]
fn the_consistency_check_catches_a_wrong_score() {
    let book = build::<5, 4>(4);
    check_consistency(&book).unwrap();
    let mut entries: Vec<(u64, Score)> = book.entries().collect();
    // Change one shallow entry (fewer stones than the depth).
    let i = entries
        .iter()
        .position(|&(k, _)| Position::<5, 4>::from_key(k).unwrap().moves_played() == 2)
        .unwrap();
    entries[i].1 += 1;
    let wrong = Book::<5, 4>::new(4, Kind::Complete, entries).unwrap();
    assert!(matches!(
        check_consistency(&wrong),
        Err(FormatError::Inconsistent { .. })
    ));
    // And a deepest score changed: complete() derives the parents from it,
    // but the check against a fresh solve of the parent would differ; the
    // builder refuses scores for positions that are not in the job.
    let board = board_5x4();
    let deepest = book_builder::deepest_positions(board, 4, Shard::WHOLE);
    let mut scores = solve_all(&deepest);
    scores.insert(Game::parse(board, "12345").unwrap().symmetric_key().0, 0);
    assert!(book_builder::complete(board, 4, &scores).is_err());
    let mut scores = solve_all(&deepest);
    let key = deepest[0].symmetric_key().0;
    scores.remove(&key);
    assert!(matches!(
        book_builder::complete(board, 4, &scores),
        Err(BuildError::Missing { .. })
    ));
}

/// The file of `entries` as a complete book of `depth`, checksum and all.
fn file_of(depth: usize, entries: &[(u64, Score)]) -> Vec<u8> {
    format::encode(7, 6, depth, Kind::Complete, entries)
}

/// An attack on the loader: the built-in book with every score rewritten to
/// 3 and the checksum recomputed. Each entry alone is possible; only the
/// scores' disagreement with each other gives it away.
#[test]
fn a_book_whose_scores_contradict_each_other_is_refused_when_loaded() {
    let book = builtin::builtin::<7, 6, u64>().unwrap().unwrap();
    let forged: Vec<(u64, Score)> = book.entries().map(|(key, _)| (key, 3)).collect();
    let err = Book::<7, 6>::decode(&file_of(book.depth(), &forged)).unwrap_err();
    let FormatError::Inconsistent {
        moves,
        stored,
        derived,
        at_least,
    } = &err
    else {
        panic!("not refused as inconsistent: {err}");
    };
    assert_eq!((*stored, *at_least), (3, false), "{err}");
    // The error names a position of the book with a line reaching it, and
    // the score its children in the forged book give.
    let pos = Position::<7, 6>::parse(moves.trim_matches('\'')).unwrap();
    let forged_book = Book::<7, 6>::new(book.depth(), Kind::Complete, forged).unwrap();
    assert_eq!(forged_book.get(&pos), Some(3));
    let children = from_children(&pos, |key| forged_book.get_key(key));
    assert_eq!(children, (*derived, true));
    assert_ne!(*derived, 3);
    let message = err.to_string();
    assert!(
        message.contains(&format!(
            "{moves} has score 3 but its children give {derived}"
        )),
        "{message}"
    );
    // It is the first bad entry: every entry before it obeys the rule.
    let key = pos.symmetric_key().0;
    for (k, _) in forged_book.entries().take_while(|&(k, _)| k < key) {
        let p = Position::<7, 6>::from_key(k).unwrap();
        if p.moves_played() < book.depth() {
            let (best, complete) = from_children(&p, |c| forged_book.get_key(c));
            assert!(best == 3 || (!complete && best < 3), "{k:#x}");
        }
    }
}

/// One shallow score moved by one, at every level of a small book: refused
/// at load, naming the changed entry or one of its parents.
#[test]
fn one_wrong_shallow_score_is_refused_when_loaded() {
    let depth = 5;
    let book = build::<5, 4>(depth);
    let entries: Vec<(u64, Score)> = book.entries().collect();
    for stones in 0..depth {
        let i = entries
            .iter()
            .position(|&(k, _)| Position::<5, 4>::from_key(k).unwrap().moves_played() == stones)
            .unwrap();
        let pos = Position::<5, 4>::from_key(entries[i].0).unwrap();
        let mut bad = entries.clone();
        bad[i].1 += if bad[i].1 < pos.score_range().1 {
            1
        } else {
            -1
        };
        let file = format::encode(5, 4, depth, Kind::Complete, &bad);
        let err = Book::<5, 4>::decode(&file).unwrap_err();
        let FormatError::Inconsistent { moves, .. } = &err else {
            panic!("{stones} stones: {err}");
        };
        let named = Position::<5, 4>::parse(moves.trim_matches('\'')).unwrap();
        let named = named.symmetric_key().0;
        assert!(
            named == entries[i].0 || pos.parents().any(|p| p.symmetric_key().0 == named),
            "{stones} stones: {err}"
        );
    }
}

/// A merge takes memory by the parts given, not by the shard count they
/// claim.
#[test]
fn a_claimed_shard_count_takes_no_memory() {
    let claims_all = Book::<5, 4>::new(
        3,
        Kind::Part {
            index: 1,
            count: u32::MAX,
        },
        vec![],
    )
    .unwrap();
    let err = book_builder::merge(&[AnyBook::from(claims_all)]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot merge: shard 2/4294967295 is missing"
    );
}

#[test]
fn a_solver_with_a_book_gives_the_same_scores_with_fewer_nodes() {
    let book = Arc::new(build::<5, 4>(5));
    let mut with = Solver::<5, 4>::with_table_bytes(1 << 22).unwrap();
    with.set_book(Some(book));
    let mut without = Solver::<5, 4>::with_table_bytes(1 << 22).unwrap();
    // The empty board is in the book: no search at all.
    assert_eq!(
        with.solve(&Position::new()),
        without.solve(&Position::new())
    );
    assert_eq!(with.node_count(), 0);
    assert!(without.node_count() > 0);
    // Positions with few stones, in the book or not, and their analysis.
    let mut rng = Rng(11);
    for _ in 0..60 {
        let n = rng.below(9);
        let Some(moves) = common::random_game::<5, 4>(&mut rng, n) else {
            continue;
        };
        let pos = common::position_from_moves::<5, 4>(&moves);
        with.clear();
        without.clear();
        assert_eq!(with.solve(&pos), without.solve(&pos), "{moves:?}");
        assert_eq!(with.solve_weak(&pos), without.solve_weak(&pos), "{moves:?}");
        assert_eq!(with.analyze(&pos), without.analyze(&pos), "{moves:?}");
    }
    // A search from a position shallower than the book's depth stops at it.
    let (mut a, mut b) = (with, without);
    a.clear();
    b.clear();
    a.reset_node_count();
    b.reset_node_count();
    let empty = Position::<5, 4>::new();
    assert_eq!(a.best_move(&empty), b.best_move(&empty));
    assert_eq!(a.principal_variation(&empty), b.principal_variation(&empty));
    assert!(a.node_count() < b.node_count());
}

#[test]
fn from_key_inverts_key_and_rejects_non_positions() {
    let mut rng = Rng(3);
    for _ in 0..500 {
        let n = rng.below(30);
        let Some(moves) = common::random_game::<7, 6>(&mut rng, n) else {
            continue;
        };
        let pos = common::position_from_moves::<7, 6>(&moves);
        assert_eq!(Position::<7, 6>::from_key(pos.key()), Some(pos));
    }
    // A column bit pattern of all ones (height 7 of 6), a wrong stone count.
    assert_eq!(Position::<7, 6>::from_key(0x7f), None);
    assert_eq!(Position::<7, 6>::from_key(2), None);
    assert_eq!(Position::<7, 6>::from_key(1 << 49), None);
}

/// The built-in book: well formed, holding the right positions, consistent
/// (every shallower entry is the negamax of its children), and its deepest
/// entries (the searched ones) agree with fresh solves on a random sample.
/// A 7x6 solve of a position with 2 stones takes a minute or more, one with
/// 8 stones about half a second, so the sample is `C4_BOOK_SAMPLE` entries
/// (0 to skip; by default 1 for a book of depth 5 or less, 20 for a deeper
/// one) drawn with the seed `C4_BOOK_SEED` (default: the time, printed, so
/// that CI runs cover different entries).
#[test]
fn the_built_in_book_agrees_with_fresh_solves() {
    let book = builtin::builtin::<7, 6, u64>()
        .expect("c4 has a 7x6 book")
        .unwrap();
    // `builtin` trusts the entries; the full check of every entry must agree.
    assert_eq!(Book::<7, 6>::decode(builtin::BOOK_7X6).as_ref(), Ok(&book));
    assert_eq!(book.kind(), Kind::Complete);
    assert!(book.depth() >= 1);
    check_consistency(&book).unwrap();
    assert!(builtin::builtin::<5, 4, u64>().is_none());
    // The set of positions is the right one.
    let expected = naive_book_positions::<7, 6>(book.depth());
    let got: HashSet<_> = book
        .entries()
        .map(|(key, _)| naive_cells(&Position::<7, 6>::from_key(key).unwrap()))
        .collect();
    assert_eq!(got, expected);
    // Witness: published solvers (John Tromp's, Pascal Pons's): the first
    // player wins with their last stone, score +1.
    assert_eq!(book.get(&Position::new()), Some(1), "the first player wins");

    let sample: usize = std::env::var("C4_BOOK_SAMPLE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if book.depth() <= 5 { 1 } else { 20 });
    let seed: u64 = std::env::var("C4_BOOK_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_secs()
        });
    eprintln!("built-in book sample: {sample} entries, C4_BOOK_SEED={seed}");
    let entries: Vec<(u64, Score)> = book
        .entries()
        .filter(|&(k, _)| Position::<7, 6>::from_key(k).unwrap().moves_played() == book.depth())
        .collect();
    let mut rng = Rng(seed);
    let mut solver = Solver::<7, 6>::with_table_bytes(1 << 28).unwrap();
    solver.set_threads(2);
    for _ in 0..sample {
        let (key, score) = entries[rng.below(entries.len())];
        let pos = Position::<7, 6>::from_key(key).unwrap();
        let line = c4::position::moves_to_string(&pos.line().unwrap());
        assert_eq!(solver.solve(&pos), score, "built-in book entry '{line}'");
    }
}

proptest::proptest! {
    /// Any bytes at all decode to a valid book or to an error, never a panic;
    /// so do a valid file's bytes with some of them overwritten.
    #[test]
    fn decoding_never_panics(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..200),
                             at in 0usize..400, value in proptest::num::u8::ANY) {
        let _ = Book::<7, 6>::decode(&bytes);
        let mut with_magic = format::MAGIC.to_vec();
        with_magic.extend_from_slice(&bytes);
        let _ = Book::<7, 6>::decode(&with_magic);
        let mut good = builtin::builtin::<7, 6, u64>().unwrap().unwrap().encode();
        let i = at % good.len();
        good[i] = value;
        if let Ok(book) = Book::<7, 6>::decode(&good) {
            // A change that still decodes cannot have changed anything.
            proptest::prop_assert_eq!(book, builtin::builtin::<7, 6, u64>().unwrap().unwrap());
        }
    }
}

#[test]
fn parent_bounds_hold_and_a_disagreeing_book_is_caught() {
    let small = build::<5, 4>(4);
    let big = build::<5, 4>(5);
    let deepest = book_builder::deepest_positions(board_5x4(), 5, Shard::WHOLE);
    let mut solver = Solver::<5, 4>::with_table_bytes(1 << 22).unwrap();
    let mut exact = 0;
    for game in &deepest {
        let pos = &game.fixed::<5, 4, u64>();
        let bound = small
            .lower_bound_from_parents(pos)
            .expect("every 5-stone position has a parent in a depth-4 book");
        let score = solver.solve(pos);
        assert!(bound <= score, "{pos:?}: bound {bound} above score {score}");
        exact += usize::from(bound == score);
        assert_eq!(solver.solve_in(pos, bound, Score::MAX), score);
    }
    // Some bound is the score itself (each parent's best child attains it).
    assert!(exact > 0 && exact < deepest.len(), "{exact} exact bounds");
    let (big, small_any) = (AnyBook::from(big), AnyBook::from(small.clone()));
    book_builder::check_agrees(&big, &small_any).unwrap();
    let mut entries: Vec<(u64, Score)> = small.entries().collect();
    let last = entries.len() - 1;
    entries[last].1 -= 1;
    let wrong = Book::<5, 4>::new(4, Kind::Complete, entries).unwrap();
    assert!(matches!(
        book_builder::check_agrees(&big, &AnyBook::from(wrong)),
        Err(BuildError::Disagrees { .. })
    ));
}
