//! The reference scores of the tests: a plain minimax over the naive board
//! model of [`Naive`], sharing no code with the library (no bitboards, no
//! alpha-beta, no table but a memo of exact scores).
//!
//! Every legal move is searched to the end of the game, with one shortcut
//! that is exact: a move that wins at once scores the most any move of the
//! position can score (a win on the next move), so its siblings need no
//! search. Exhaustive in practice up to about a dozen empty cells on 7x6,
//! and on whole small boards (4x4, 4x5, 5x4).

use std::collections::HashMap;

use c4::Score;

use super::{Naive, win_score};

/// The exact score, for the side to move, of `b`, a position that is not
/// over.
pub fn minimax<const W: usize, const H: usize>(b: &Naive<W, H>) -> Score {
    minimax_memo(b, &mut HashMap::new())
}

/// [`minimax`] with a memo of the scores found, by cells, which several
/// calls can share.
pub fn minimax_memo<const W: usize, const H: usize>(
    b: &Naive<W, H>,
    memo: &mut HashMap<[[u8; H]; W], Score>,
) -> Score {
    debug_assert!(!b.won && !b.is_full());
    if let Some(&score) = memo.get(&b.cells) {
        return score;
    }
    let playable = || (0..W).filter(|&col| b.can_play(col));
    let score = if playable().any(|col| b.is_winning_move(col)) {
        win_score(W * H, b.moves + 1)
    } else {
        playable()
            .map(|col| {
                let mut child = *b;
                child.play(col);
                if child.is_full() {
                    0
                } else {
                    -minimax_memo(&child, memo)
                }
            })
            .max()
            .expect("a position that is not over has a move")
    };
    memo.insert(b.cells, score);
    score
}

/// The score, for the side to move of `b`, of playing `col` (which must
/// have room).
pub fn move_value<const W: usize, const H: usize>(b: &Naive<W, H>, col: usize) -> Score {
    let mut child = *b;
    if child.play(col) {
        win_score(W * H, child.moves)
    } else if child.is_full() {
        0
    } else {
        -minimax(&child)
    }
}

/// The reference score of any position, finished games included: minus the
/// winner's score before its winning move if the last move won, 0 for a full
/// board without a win.
pub fn reference_score<const W: usize, const H: usize>(b: &Naive<W, H>) -> Score {
    if b.won {
        -win_score(W * H, b.moves)
    } else if b.is_full() {
        0
    } else {
        minimax(b)
    }
}

/// [`reference_score`] of the position after `moves`, a move string of
/// digits `1`-`9` (panics on an illegal move).
pub fn reference_score_of<const W: usize, const H: usize>(moves: &str) -> Score {
    reference_score(&Naive::<W, H>::from_moves(&super::moves_from_string(moves)))
}

/// The reference score of every column of the position after `moves` (not
/// over): `None` for a full column.
pub fn reference_columns<const W: usize, const H: usize>(moves: &str) -> Vec<Option<Score>> {
    let b = Naive::<W, H>::from_moves(&super::moves_from_string(moves));
    assert!(!b.won && !b.is_full(), "'{moves}' is over");
    (0..W)
        .map(|col| b.can_play(col).then(|| move_value(&b, col)))
        .collect()
}
