//! The review of whole games on small boards (4x4, 5x4, 4x5, 5x5) against
//! the exhaustive minimax of `common::minimax`, which shares no code with
//! the library: every move's best score, played score, best columns and
//! verdict are recomputed from the minimax scores of the position before
//! it, and the verdict from its definition; the weak review gives their
//! signs. On 5x5 the minimax checks every move from the 13th on (the
//! earlier positions are beyond it). The games are seeded: each move is a minimax-best one or a random
//! legal one, so that every verdict occurs (which the test checks).

mod common;

use std::collections::HashMap;

use c4::review::{Outcome, Review, Verdict, review};
use c4::{BoardSize, Score};
use common::minimax::minimax_memo;
use common::{Naive, Rng, moves_string, random_game_with, win_score};

/// The minimax memo of one board.
type Memo<const W: usize, const H: usize> = HashMap<[[u8; H]; W], Score>;

/// The minimax score of every column of `b` (not over), `None` if full.
fn columns<const W: usize, const H: usize>(
    b: &Naive<W, H>,
    memo: &mut Memo<W, H>,
) -> Vec<Option<Score>> {
    (0..W)
        .map(|col| {
            b.can_play(col).then(|| {
                let mut child = *b;
                if child.play(col) {
                    win_score(W * H, child.moves)
                } else if child.is_full() {
                    0
                } else {
                    -minimax_memo(&child, memo)
                }
            })
        })
        .collect()
}

/// The verdict as the definition states it: best keeps the score; slower
/// keeps the result; a win that becomes a loss is a blunder; any other
/// drop in result (win to draw, draw to loss) a mistake.
fn expected_verdict(best: Score, played: Score) -> Verdict {
    let result = |s: Score| s.signum();
    if played == best {
        Verdict::Best
    } else if result(played) == result(best) {
        Verdict::Slower
    } else if result(best) == 1 && result(played) == -1 {
        Verdict::Blunder
    } else {
        Verdict::Mistake
    }
}

/// A game to its end: `prefix` random moves that neither win nor let the
/// opponent win at once, then each move a minimax-best one (half the time)
/// or a random legal one.
fn mixed_game<const W: usize, const H: usize>(
    rng: &mut Rng,
    prefix: usize,
    memo: &mut Memo<W, H>,
) -> Vec<usize> {
    let mut moves = random_game_with::<W, H>(rng, prefix, true).expect("a quiet opening");
    let mut b = Naive::<W, H>::from_moves(&moves);
    while !b.won && !b.is_full() {
        let scores = columns(&b, memo);
        let legal: Vec<usize> = (0..W).filter(|&c| b.can_play(c)).collect();
        let col = if rng.below(2) == 0 {
            let best = scores.iter().flatten().max().copied().unwrap();
            let top: Vec<usize> = legal
                .iter()
                .copied()
                .filter(|&c| scores[c] == Some(best))
                .collect();
            top[rng.below(top.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        b.play(col);
        moves.push(col);
    }
    moves
}

/// Checks the strong and weak reviews of `games` random games of W x H
/// against minimax, every move from move `prefix + 1` on (the earlier
/// ones, on 5x5, are beyond the minimax: only their numbering is checked);
/// returns how many moves got each verdict.
fn check_board<const W: usize, const H: usize>(
    seed: u64,
    games: usize,
    prefix: usize,
) -> HashMap<Verdict, usize> {
    let board = BoardSize::new(W, H).unwrap();
    let mut engine = c4::engine::new(board, 1 << 22).unwrap();
    let mut memo = Memo::<W, H>::new();
    let mut rng = Rng(seed);
    let mut seen = HashMap::new();
    for _ in 0..games {
        let moves = mixed_game::<W, H>(&mut rng, prefix, &mut memo);
        let line = moves_string(&moves);
        let strong = review(engine.as_mut(), board, &line, false).unwrap();
        let weak = review(engine.as_mut(), board, &line, true).unwrap();
        assert_eq!(strong.moves.len(), moves.len(), "{line}");
        assert!(strong.finished, "{line}");
        let mut b = Naive::<W, H>::new();
        let mut first_change = [None, None];
        for (i, &col) in moves.iter().enumerate() {
            let m = &strong.moves[i];
            assert_eq!(
                (m.number, m.player, m.column),
                (i + 1, (i % 2) as u8 + 1, col + 1),
                "{line}"
            );
            if i < prefix {
                b.play(col);
                continue;
            }
            let scores = columns(&b, &mut memo);
            let best = scores.iter().flatten().max().copied().unwrap();
            let played = scores[col].unwrap();
            let best_columns: Vec<usize> = (0..W)
                .filter(|&c| scores[c] == Some(best))
                .map(|c| c + 1)
                .collect();
            let verdict = expected_verdict(best, played);
            let at = format!("{W}x{H} game {line}, move {}", i + 1);
            assert_eq!((m.best_score, m.played_score), (best, played), "{at}");
            assert_eq!(m.best_columns, best_columns, "{at}");
            assert_eq!(m.verdict, verdict, "{at}");
            let w = &weak.moves[i];
            assert_eq!(
                (w.best_score, w.played_score),
                (best.signum(), played.signum()),
                "{at} (weak)"
            );
            assert_eq!(
                w.verdict,
                expected_verdict(best.signum(), played.signum()),
                "{at} (weak)"
            );
            assert_ne!(w.verdict, Verdict::Slower, "{at} (weak)");
            if matches!(verdict, Verdict::Mistake | Verdict::Blunder) {
                first_change[i % 2].get_or_insert(i + 1);
            }
            *seen.entry(verdict).or_insert(0) += 1;
            b.play(col);
        }
        if prefix == 0 {
            check_summary(&strong, &first_change, &line);
        }
        let winner = if b.won {
            if moves.len() % 2 == 1 {
                Outcome::First
            } else {
                Outcome::Second
            }
        } else {
            Outcome::Draw
        };
        assert_eq!(strong.end, winner, "{line}");
        assert_eq!(weak.end, winner, "{line}");
    }
    seen
}

/// The per-player counts and first result changes of a review.
fn check_summary(r: &Review, first_change: &[Option<usize>; 2], line: &str) {
    for (p, summary) in r.players.iter().enumerate() {
        let mine: Vec<_> = r.moves.iter().skip(p).step_by(2).collect();
        let count = |v| mine.iter().filter(|m| m.verdict == v).count();
        assert_eq!(summary.moves, mine.len(), "{line}");
        assert_eq!(
            (
                summary.best,
                summary.slower,
                summary.mistakes,
                summary.blunders
            ),
            (
                count(Verdict::Best),
                count(Verdict::Slower),
                count(Verdict::Mistake),
                count(Verdict::Blunder)
            ),
            "{line}"
        );
        assert_eq!(summary.result_changed, first_change[p], "{line}");
    }
}

#[test]
fn reviews_of_small_boards_agree_with_the_minimax() {
    let mut seen: HashMap<Verdict, usize> = HashMap::new();
    let mut add = |counts: HashMap<Verdict, usize>| {
        for (v, n) in counts {
            *seen.entry(v).or_insert(0) += n;
        }
    };
    add(check_board::<4, 4>(1, 40, 0));
    add(check_board::<5, 4>(2, 30, 0));
    add(check_board::<4, 5>(3, 30, 0));
    add(check_board::<5, 5>(4, 20, 12));
    for v in [
        Verdict::Best,
        Verdict::Slower,
        Verdict::Mistake,
        Verdict::Blunder,
    ] {
        assert!(seen.get(&v).copied().unwrap_or(0) > 0, "no {v:?} seen");
    }
}
