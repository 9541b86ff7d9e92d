//! The follow-up rules of the search (claimeven and its pairings of odd
//! columns, `Searcher::claimeven`) restated on the naive board model and
//! checked against the plain minimax of `common::minimax`, on random
//! positions of small boards and of 7x6 near the end.
//!
//! A column is odd when it has an odd number of empty cells. When a player
//! moves first in a position whose columns are all even and the other
//! answers every move on top of it, the first player gets exactly the empty
//! cells on rows of the parity of the board's height (0-based rows). From
//! that:
//!
//! - no odd column, and the side to move gets no four from those cells: its
//!   score is at most 0;
//! - one odd column, and the opponent gets no four from those cells: at
//!   least 0;
//! - two odd columns, and the side to move gets no four from those cells
//!   plus either lowest empty cell of the two: at most 0 (the opponent
//!   answers one of the pair with the other);
//! - three odd columns, and for two of their lowest cells the opponent gets
//!   no four from those cells plus that one: at least 0 (the side to move
//!   plays the third);
//! - four odd columns, and the opponent can pair their lowest cells so that
//!   the side to move gets no four from those cells plus one cell of each
//!   pair, whichever: at most 0.
//!
//! Each rule must also fire on a fair share of the sample, so that the test
//! cannot pass on rules that never apply.

mod common;

use c4::Score;
use common::minimax::minimax;
use common::{Naive, Rng, random_game_with};

/// What the rules conclude about a position's score, for the side to move.
#[derive(Debug, PartialEq)]
enum Claim {
    AtMostZero,
    AtLeastZero,
}

/// Whether `player`'s stones plus the cells `extra` (by column and row)
/// hold four in a row.
fn has_four<const W: usize, const H: usize>(
    b: &Naive<W, H>,
    player: u8,
    extra: &[(usize, usize)],
) -> bool {
    let mut owned = *b;
    for &(col, row) in extra {
        owned.cells[col][row] = player;
    }
    !owned.fours(player).is_empty()
}

/// The claim the rules make about `b` (not over), if any, with the number
/// of odd columns that chose the rule.
fn claim<const W: usize, const H: usize>(b: &Naive<W, H>) -> Option<(usize, Claim)> {
    let mover = b.player_to_move();
    let opponent = 3 - mover;
    let follow_up: Vec<(usize, usize)> = (0..W)
        .flat_map(|col| (b.heights[col]..H).map(move |row| (col, row)))
        .filter(|&(_, row)| row % 2 == H % 2)
        .collect();
    let lows: Vec<(usize, usize)> = (0..W)
        .filter(|&col| (H - b.heights[col]) % 2 == 1)
        .map(|col| (col, b.heights[col]))
        .collect();
    let with = |chosen: &[(usize, usize)]| {
        let mut cells = follow_up.clone();
        cells.extend_from_slice(chosen);
        cells
    };
    let odd_columns = lows.len();
    match odd_columns {
        0 if !has_four(b, mover, &follow_up) => Some((odd_columns, Claim::AtMostZero)),
        1 if !has_four(b, opponent, &follow_up) => Some((odd_columns, Claim::AtLeastZero)),
        2 if lows.iter().all(|&low| !has_four(b, mover, &with(&[low]))) => {
            Some((odd_columns, Claim::AtMostZero))
        }
        3 if lows
            .iter()
            .filter(|&&low| !has_four(b, opponent, &with(&[low])))
            .count()
            >= 2 =>
        {
            Some((odd_columns, Claim::AtLeastZero))
        }
        // The three ways to pair four cells: lows[0] with lows[1], [2] or
        // [3], the other two together. The mover gets one cell of each pair.
        4 if [[1, 2, 3], [2, 1, 3], [3, 1, 2]].iter().any(|&[p, q, r]| {
            [lows[0], lows[p]].iter().all(|&x| {
                [lows[q], lows[r]]
                    .iter()
                    .all(|&y| !has_four(b, mover, &with(&[x, y])))
            })
        }) =>
        {
            Some((odd_columns, Claim::AtMostZero))
        }
        _ => None,
    }
}

/// Checks the rules on `positions` random positions of `W`x`H` with
/// `min_moves..=max_moves` stones; returns how often each rule fired, by
/// number of odd columns.
fn check_board<const W: usize, const H: usize>(
    seed: u64,
    positions: usize,
    min_moves: usize,
    max_moves: usize,
) -> [usize; 5] {
    let mut rng = Rng(seed);
    let mut fired = [0; 5];
    let mut checked = 0;
    while checked < positions {
        let n = min_moves + rng.below(max_moves - min_moves + 1);
        let Some(moves) = random_game_with::<W, H>(&mut rng, n, false) else {
            continue;
        };
        let b = Naive::<W, H>::from_moves(&moves);
        if b.won || b.is_full() {
            continue;
        }
        checked += 1;
        let Some((odd, claim)) = claim(&b) else {
            continue;
        };
        let score: Score = minimax(&b);
        let holds = match claim {
            Claim::AtMostZero => score <= 0,
            Claim::AtLeastZero => score >= 0,
        };
        assert!(
            holds,
            "{W}x{H} {moves:?}, {odd} odd columns: {claim:?} but the score is {score}"
        );
        fired[odd] += 1;
    }
    fired
}

/// Every rule fires at least `min` times in `fired`.
fn assert_each_fired(board: &str, fired: [usize; 5], min: usize) {
    for (odd, &count) in fired.iter().enumerate() {
        assert!(
            count >= min,
            "{board}: the rule for {odd} odd columns fired {count} times, expected at least {min}"
        );
    }
}

#[test]
fn follow_up_rules_bound_the_minimax_score_on_small_boards() {
    assert_each_fired("4x4", check_board::<4, 4>(1, 3000, 2, 13), 20);
    assert_each_fired("5x4", check_board::<5, 4>(2, 2000, 6, 17), 20);
    assert_each_fired("4x5", check_board::<4, 5>(3, 4000, 6, 17), 20);
    assert_each_fired("5x5", check_board::<5, 5>(4, 2000, 12, 22), 10);
}

#[test]
fn follow_up_rules_bound_the_minimax_score_near_the_end_of_7x6() {
    assert_each_fired("7x6", check_board::<7, 6>(5, 4000, 30, 38), 10);
}
