//! Allis's strategic rules (`c4::strategy`) checked: every strategy found
//! played out against every opponent line (the by-play check of
//! `common::strategy_play`), every bound a strategy claims against the
//! exhaustive minimax of `common::minimax` on whole small boards, and the
//! results of Allis's thesis that the rules reproduce.

mod common;

use std::collections::HashMap;

use c4::strategy::{self, Strategy};
use c4::{BoardSize, Game, Score};
use common::minimax::minimax_memo;
use common::strategy_play::check_by_play;
use common::{Naive, moves_string};

/// Every position of the `W` x `H` board reachable from the empty one and
/// not over, with the moves that reach it (one line per position).
fn all_positions<const W: usize, const H: usize>() -> Vec<(Vec<usize>, Naive<W, H>)> {
    let mut seen = HashMap::new();
    let mut stack = vec![(Vec::new(), Naive::<W, H>::new())];
    let mut out = Vec::new();
    while let Some((moves, b)) = stack.pop() {
        if b.won || b.is_full() || seen.insert(b.cells, ()).is_some() {
            continue;
        }
        for col in (0..W).filter(|&c| b.can_play(c)) {
            let mut child = b;
            child.play(col);
            let mut line = moves.clone();
            line.push(col);
            stack.push((line, child));
        }
        out.push((moves, b));
    }
    out
}

/// Counts of one board's exhaustive check.
#[derive(Debug, Default)]
struct Tally {
    positions: usize,
    for_waiting: usize,
    waiting_wins: usize,
    for_mover: usize,
    mover_wins: usize,
    played: usize,
    /// Stones played -> (positions, waiting side found, mover found).
    by_stones: std::collections::BTreeMap<usize, (usize, usize, usize)>,
}

/// Checks every position of a small board: each strategy's claim against
/// minimax, and each strategy of the player not to move by play.
fn check_board<const W: usize, const H: usize>() -> Tally {
    let board = BoardSize::new(W, H).unwrap();
    let mut memo = HashMap::new();
    let mut tally = Tally::default();
    for (moves, b) in all_positions::<W, H>() {
        tally.positions += 1;
        let entry = tally.by_stones.entry(moves.len()).or_default();
        entry.0 += 1;
        let game = Game::parse(board, &moves_string(&moves)).unwrap();
        let mut score: Option<Score> = None;
        let mut exact =
            |memo: &mut HashMap<_, _>| *score.get_or_insert_with(|| minimax_memo(&b, memo));
        if let Some(s) = strategy::find(&game) {
            tally.for_waiting += 1;
            tally.by_stones.get_mut(&moves.len()).unwrap().1 += 1;
            let mover = exact(&mut memo);
            // The strategy is for the player not to move: the mover's score
            // is at most 0, below 0 if the strategy wins.
            assert!(
                mover <= 0,
                "{moves:?}: strategy {s:?} but the mover scores {mover}"
            );
            if s.wins {
                tally.waiting_wins += 1;
                assert!(
                    mover < 0,
                    "{moves:?}: claimed win but the mover scores {mover}"
                );
            }
            check_by_play(&b, &s).unwrap_or_else(|e| {
                panic!(
                    "{moves:?}: {e}\n{}\n{}",
                    strategy::describe(&s).join("\n"),
                    strategy::draw(&game, &s)
                )
            });
            tally.played += 1;
        }
        if let Some((col, s)) = strategy::find_after_move(&game) {
            tally.for_mover += 1;
            tally.by_stones.get_mut(&moves.len()).unwrap().2 += 1;
            let mover = exact(&mut memo);
            assert!(
                mover >= 0,
                "{moves:?}: move {col} and {s:?} but the mover scores {mover}"
            );
            if s.wins {
                tally.mover_wins += 1;
                assert!(
                    mover > 0,
                    "{moves:?}: claimed win after {col}, mover scores {mover}"
                );
            }
        }
    }
    tally
}

#[test]
fn every_claim_holds_on_whole_small_boards() {
    let t44 = check_board::<4, 4>();
    println!("4x4: {t44:?}");
    let t54 = check_board::<5, 4>();
    println!("5x4: {t54:?}");
    let t45 = check_board::<4, 5>();
    println!("4x5: {t45:?}");
    for t in [&t44, &t54, &t45] {
        assert!(t.for_waiting > 0 && t.waiting_wins > 0 && t.for_mover > 0);
    }
}

/// Plays the strategy found on the empty `W` x `H` board (first player to
/// move) against every line of the opponent's; prints what it visited and
/// how long it took.
fn empty_board_by_play<const W: usize, const H: usize>() -> Strategy {
    let board = BoardSize::new(W, H).unwrap();
    let s = strategy::find(&Game::parse(board, "").unwrap())
        .unwrap_or_else(|| panic!("a strategy for the second player on the empty {W}x{H}"));
    assert_eq!(s.controller, c4::Player::Second);
    let start = std::time::Instant::now();
    let played =
        check_by_play(&Naive::<W, H>::new(), &s).unwrap_or_else(|e| panic!("{W}x{H}: {e}"));
    println!(
        "{W}x{H} empty ({} empty cells) by play: {played:?} in {:.2?}",
        W * H,
        start.elapsed()
    );
    s
}

/// Allis's results for the second player on boards of six columns and an
/// even number of rows (his 6 x 2n, columns by rows): the rules alone find
/// a strategy on the empty 6x4, 6x6 and 6x8 boards, and it holds by play
/// against every line of the first player's.
#[test]
fn the_second_player_draws_on_six_columns_by_the_rules() {
    for s in [
        empty_board_by_play::<6, 4>(),
        empty_board_by_play::<6, 6>(),
        empty_board_by_play::<6, 8>(),
    ] {
        assert!(!s.wins);
        let rules: Vec<&str> = s.applications.iter().map(|a| a.rule.name()).collect();
        assert!(
            rules.contains(&"claimeven")
                && rules.contains(&"baseinverse")
                && rules.contains(&"highinverse")
        );
    }
}

/// The strategy for the player not to move after `moves` on `board`.
fn found(board: BoardSize, moves: &str) -> Option<Strategy> {
    strategy::find(&Game::parse(board, moves).unwrap())
}

/// A report, not a check: which empty boards and which 7x6 first moves
/// the rules find a strategy for (`scripts/check/check-explain.sh` prints it).
#[test]
#[ignore = "a report: run by scripts/check/check-explain.sh"]
fn report_allis_results() {
    for (w, h) in [
        (6, 4),
        (6, 6),
        (6, 8),
        (7, 4),
        (4, 4),
        (5, 4),
        (4, 6),
        (5, 6),
        (7, 6),
        (8, 4),
    ] {
        let board = BoardSize::new(w, h).unwrap();
        let empty = found(board, "");
        println!("{w}x{h} empty: {}", empty.is_some());
        if let Some(s) = &empty {
            for line in strategy::describe(s) {
                println!("  {line}");
            }
        }
    }
    let board = BoardSize::STANDARD;
    for first in 1..=7 {
        let game = Game::parse(board, &first.to_string()).unwrap();
        let after = strategy::find_after_move(&game);
        println!(
            "7x6 after {first}: {:?}",
            after.as_ref().map(|(c, s)| (c + 1, s.wins))
        );
    }
}
