//! The solver against a reference: the plain minimax of `common::minimax`
//! over the naive board model of `common::Naive` (no alpha-beta, no
//! bitboards; a memo of exact scores only), on positions small enough to
//! search exhaustively: 7x6 positions near the end of the game, and
//! positions of small boards (4x4, 5x4, 4x5, 5x5), including the whole 4x4
//! game from the empty board.
//!
//! For each position: `solve` equals the reference score; `solve_weak` its
//! sign; `score_at_least` agrees for every bound; `analyze` gives every
//! column's reference score; `best_move` is a column with the position's
//! score, centre-most among them; and the principal variation is a line of
//! reference-optimal moves that ends the game on the move the score predicts.

mod common;

use std::collections::HashMap;

use c4::{Position, Score, Solver};
use common::minimax::{minimax, move_value, reference_score, reference_score_of};
use common::{
    Naive, Rng, check_line_ends_as_predicted, moves_string, position_from_moves,
    random_finished_game, random_game_with, win_score,
};
use proptest::prelude::*;

/// The naive board as a number (base 3, column by column), for memo keys.
fn code<const W: usize, const H: usize>(b: &Naive<W, H>) -> u64 {
    b.cells
        .iter()
        .flatten()
        .fold(0u64, |acc, &cell| acc * 3 + cell as u64)
}

/// Minimax with a memo of every position's score, for whole small games.
/// Records the library position beside each score, built along the same
/// moves.
fn memo_minimax<const W: usize, const H: usize>(
    b: &Naive<W, H>,
    pos: &Position<W, H>,
    memo: &mut HashMap<u64, (Score, Position<W, H>)>,
) -> Score {
    let key = code(b);
    if let Some(&(score, _)) = memo.get(&key) {
        return score;
    }
    let mut best = Score::MIN;
    for col in 0..W {
        if !b.can_play(col) {
            continue;
        }
        let mut child = *b;
        let mut child_pos = *pos;
        child_pos.play_col(col);
        let value = if child.play(col) {
            win_score(W * H, child.moves)
        } else if child.is_full() {
            0
        } else {
            -memo_minimax(&child, &child_pos, memo)
        };
        best = best.max(value);
    }
    memo.insert(key, (best, *pos));
    best
}

/// Distance of a column from the centre, doubled (0 for the middle column of
/// an odd width, 1 for both middle columns of an even one).
fn centre_distance(width: usize, col: usize) -> usize {
    (2 * col).abs_diff(width - 1)
}

/// Checks every query of `solver` on the position after `moves` against the
/// reference. `pv` also checks the principal variation (it needs a minimax per
/// move of the line).
fn check_position<const W: usize, const H: usize>(
    solver: &mut Solver<W, H>,
    moves: &[usize],
    pv: bool,
) -> Result<(), TestCaseError> {
    let s = moves_string(moves);
    let naive = Naive::<W, H>::from_moves(moves);
    let pos = position_from_moves::<W, H>(moves);
    let expected = reference_score(&naive);
    let over = naive.won || naive.is_full();

    // Strong and weak, each from a cleared table and again from a warm one.
    solver.clear();
    prop_assert_eq!(solver.solve(&pos), expected, "{}x{} '{}': solve", W, H, s);
    solver.clear();
    prop_assert_eq!(
        solver.solve_weak(&pos),
        expected.signum(),
        "{}x{} '{}': solve_weak (score {})",
        W,
        H,
        s,
        expected
    );
    prop_assert_eq!(
        solver.solve(&pos),
        expected,
        "{}x{} '{}': solve, warm",
        W,
        H,
        s
    );
    prop_assert_eq!(solver.solve_weak(&pos), expected.signum());

    // Every bound, including some outside the range of scores.
    let half = (W * H) as Score / 2;
    for bound in -half - 2..=half + 2 {
        prop_assert_eq!(
            solver.score_at_least(&pos, bound),
            expected >= bound,
            "{}x{} '{}': score_at_least({}) with score {}",
            W,
            H,
            s,
            bound,
            expected
        );
    }

    // Every column.
    let want: Vec<Option<Score>> = (0..W)
        .map(|col| (!over && naive.can_play(col)).then(|| move_value(&naive, col)))
        .collect();
    let analysis = solver.analyze(&pos);
    prop_assert_eq!(&analysis, &want, "{}x{} '{}': analyze", W, H, s);
    if !over {
        prop_assert_eq!(analysis.iter().flatten().max().copied(), Some(expected));
    }

    // The best move: a column with the position's score, centre-most.
    match solver.best_move(&pos) {
        None => prop_assert!(over, "{}x{} '{}': no best move", W, H, s),
        Some((col, score)) => {
            prop_assert!(!over, "{}x{} '{}': a best move after the end", W, H, s);
            prop_assert_eq!(score, expected, "{}x{} '{}': best_move score", W, H, s);
            prop_assert_eq!(
                want[col],
                Some(expected),
                "{}x{} '{}': best_move {}",
                W,
                H,
                s,
                col
            );
            let closest = (0..W)
                .filter(|&c| want[c] == Some(expected))
                .map(|c| centre_distance(W, c))
                .min()
                .unwrap();
            prop_assert_eq!(
                centre_distance(W, col),
                closest,
                "{}x{} '{}': best_move {} is not centre-most",
                W,
                H,
                s,
                col
            );
        }
    }

    if pv {
        let line = solver.principal_variation(&pos);
        if let Err(e) =
            check_line_ends_as_predicted::<W, H>(moves, &c4::Game::of(&pos), expected, &line)
        {
            prop_assert!(false, "{}x{}: {}", W, H, e);
        }
        // Every move of the line is optimal for the side that plays it.
        let mut b = naive;
        for (i, &col) in line.iter().enumerate() {
            let score = minimax(&b);
            prop_assert_eq!(
                move_value(&b, col),
                score,
                "{}x{} '{}': move {} of the line '{}' is not optimal",
                W,
                H,
                s,
                i + 1,
                moves_string(&line)
            );
            b.play(col);
        }
    }
    Ok(())
}

/// Checks a random open position of `n` moves (no four on the board), drawn
/// from `seed`, with a roomy solver and with one whose table is the smallest
/// allowed (so that entries are evicted all the time). If `careful`, the
/// side to move cannot win at once (see `common::random_game_with`): such
/// positions need a real search.
fn check_random<const W: usize, const H: usize>(
    seed: u64,
    n: usize,
    careful: bool,
    tiny_table: usize,
) -> Result<(), TestCaseError> {
    let moves = random_game_with::<W, H>(&mut Rng(seed), n, careful);
    let moves = moves.expect("random_game_with gets stuck too often");
    if careful {
        prop_assert!(!position_from_moves::<W, H>(&moves).can_win_next());
    }
    let mut roomy = Solver::<W, H>::with_table_bytes(1 << 20).unwrap();
    check_position(&mut roomy, &moves, true)?;
    let mut tiny = Solver::<W, H>::with_table_bytes(tiny_table).unwrap();
    check_position(&mut tiny, &moves, false)
}

/// Mostly positions that need a search, some where the side to move may win
/// at once.
fn careful() -> impl Strategy<Value = bool> {
    prop::bool::weighted(0.8)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn standard_board_near_the_end(seed in any::<u64>(), n in 30usize..=40, careful in careful()) {
        check_random::<7, 6>(seed, n, careful, 2048)?;
    }

    #[test]
    fn board_4x4(seed in any::<u64>(), n in 4usize..=15, careful in careful()) {
        check_random::<4, 4>(seed, n, careful, 16)?;
    }

    #[test]
    fn board_5x4(seed in any::<u64>(), n in 8usize..=19, careful in careful()) {
        check_random::<5, 4>(seed, n, careful, 64)?;
    }

    #[test]
    fn board_4x5(seed in any::<u64>(), n in 8usize..=19, careful in careful()) {
        check_random::<4, 5>(seed, n, careful, 64)?;
    }

    #[test]
    fn board_5x5_odd_number_of_cells(seed in any::<u64>(), n in 13usize..=24, careful in careful()) {
        check_random::<5, 5>(seed, n, careful, 256)?;
    }

    /// Finished games (a win, or rarely a full board): the terminal scores,
    /// and no move, analysis or line after the end.
    #[test]
    fn finished_games(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let moves = random_finished_game::<7, 6>(&mut rng);
        let mut solver = Solver::<7, 6>::with_table_bytes(1 << 16).unwrap();
        check_position(&mut solver, &moves, true)?;
        let moves = random_finished_game::<4, 4>(&mut rng);
        let mut solver = Solver::<4, 4>::with_table_bytes(1 << 12).unwrap();
        check_position(&mut solver, &moves, true)?;
        let moves = random_finished_game::<5, 5>(&mut rng);
        let mut solver = Solver::<5, 5>::with_table_bytes(1 << 12).unwrap();
        check_position(&mut solver, &moves, true)?;
    }
}

/// Short positions whose scores follow by hand from the convention, each
/// also checked against the minimax.
#[test]
fn terminal_scores_by_hand() {
    for (moves, score) in [
        ("1212121", -18),
        ("121212", 18),
        ("17171727", -18),
        ("1717172", 18),
    ] {
        assert_eq!(reference_score_of::<7, 6>(moves), score, "{moves}");
    }
    let mut solver = Solver::<7, 6>::with_table_bytes(1 << 16).unwrap();
    // The first player wins with its 4th stone on move 7: 22 - 4 = 18 before
    // the move, so -18 for the loser after it.
    let won = Position::<7, 6>::parse("1212121").unwrap();
    assert_eq!(solver.solve(&won), -18);
    assert_eq!(solver.solve_weak(&won), -1);
    let before = Position::<7, 6>::parse("121212").unwrap();
    assert_eq!(solver.solve(&before), 18);
    assert_eq!(solver.best_move(&before), Some((0, 18)));
    assert_eq!(solver.principal_variation(&before), vec![0]);
    // The second player wins with its 4th stone on move 8: 22 - 4 = 18.
    let won = Position::<7, 6>::parse("17171727").unwrap();
    assert_eq!(solver.solve(&won), -18);
    // Forced: after 1717172 the side to move (second player) wins at once.
    assert_eq!(
        solver.solve(&Position::<7, 6>::parse("1717172").unwrap()),
        18
    );
    // The first player must block column 7, or lose: after 274767 (no
    // threat of its own), any other move lets the second player win with its
    // 4th stone, 22 - 4 = 18.
    let pos = Position::<7, 6>::parse("274767").unwrap();
    let naive = Naive::<7, 6>::from_moves(&[1, 6, 3, 6, 5, 6]);
    for col in 0..6 {
        assert_eq!(move_value(&naive, col), -18, "minimax, column {}", col + 1);
    }
    let analysis = solver.analyze(&pos);
    assert!(
        analysis[..6].iter().all(|s| *s == Some(-18)),
        "{analysis:?}"
    );
    assert!(analysis[6].unwrap() > -18, "{analysis:?}");
    assert_eq!(solver.best_move(&pos).map(|(col, _)| col), Some(6));
}

#[test]
fn table_size_limits() {
    // 7x6 keys have 49 bits; an entry holds at most 42 of them, so the table
    // needs at least 2^7 buckets of 16 bytes.
    assert!(Solver::<7, 6>::with_table_bytes(2048).is_ok());
    assert!(matches!(
        Solver::<7, 6>::with_table_bytes(2047),
        Err(c4::TableError::TooSmall { .. })
    ));
    assert!(Solver::<7, 6>::with_table_bytes(0).is_err());
    // A table size is rounded down to a power of two.
    let solver = Solver::<7, 6>::with_table_bytes(3 << 20).unwrap();
    assert_eq!(solver.table_bytes(), 2 << 20);
}

/// The whole game of a small board: a memoized minimax from the empty board
/// scores every reachable position that is not over; the solver must agree on
/// every `sample_every`-th of them (in the map's order), strong and weak.
fn check_whole_game<const W: usize, const H: usize>(
    known_empty_score: Option<Score>,
    sample_every: usize,
    table_bytes: usize,
) {
    let mut memo = HashMap::new();
    let start = std::time::Instant::now();
    let empty = memo_minimax(&Naive::<W, H>::new(), &Position::new(), &mut memo);
    eprintln!(
        "{W}x{H}: {} positions, score {empty}, {:?}",
        memo.len(),
        start.elapsed()
    );
    if let Some(known) = known_empty_score {
        assert_eq!(empty, known, "{W}x{H}: the reference itself");
    }
    let mut solver = Solver::<W, H>::with_table_bytes(table_bytes).unwrap();
    assert_eq!(
        solver.solve(&Position::new()),
        empty,
        "{W}x{H}: empty board"
    );
    solver.clear();
    assert_eq!(solver.solve_weak(&Position::new()), empty.signum());
    let mut mismatches = Vec::new();
    for (score, pos) in memo.values().step_by(sample_every) {
        let (strong, weak) = (solver.solve(pos), solver.solve_weak(pos));
        if strong != *score || weak != score.signum() {
            mismatches.push(format!(
                "{pos}\nexpected {score}, solve {strong}, solve_weak {weak}"
            ));
        }
    }
    eprintln!(
        "{W}x{H}: solved with a {} byte table, {:?}",
        solver.table_bytes(),
        start.elapsed()
    );
    assert!(
        mismatches.is_empty(),
        "{W}x{H}: {} of {} positions differ:\n{}",
        mismatches.len(),
        memo.len(),
        mismatches.join("\n\n")
    );
}

#[test]
fn whole_game_4x4() {
    // 4x4 is a draw. Three tables: an ordinary one; one with more buckets
    // than there are keys (2^20 on 4x4: an entry stores no key bits); and a
    // single bucket, where every store evicts.
    check_whole_game::<4, 4>(Some(0), 1, 1 << 22);
    check_whole_game::<4, 4>(Some(0), 1, 64 << 20);
    check_whole_game::<4, 4>(Some(0), 1, 16);
}

#[test]
fn whole_game_5x4() {
    // 3.1 million positions: the solver checks one in 8 to save time.
    check_whole_game::<5, 4>(None, 8, 1 << 22);
}

#[test]
fn whole_game_4x5() {
    check_whole_game::<4, 5>(None, 1, 1 << 22);
}

#[test]
fn node_count_counts_searches_and_resets() {
    let mut solver = Solver::<7, 6>::with_table_bytes(1 << 20).unwrap();
    assert_eq!(solver.node_count(), 0);
    // A position that needs a search.
    let moves = random_game_with::<7, 6>(&mut Rng(5), 24, true).unwrap();
    let pos = position_from_moves::<7, 6>(&moves);
    assert!(!pos.can_win_next() && pos.non_losing_moves() != 0);
    let score = solver.solve(&pos);
    let after_one = solver.node_count();
    assert!(after_one > 0);
    solver.clear();
    assert_eq!(solver.solve(&pos), score);
    assert!(solver.node_count() >= 2 * after_one - 1, "counts add up");
    solver.reset_node_count();
    assert_eq!(solver.node_count(), 0);
    // A win at once needs no search.
    let won_next = Position::<7, 6>::parse("121212").unwrap();
    assert_eq!(solver.solve(&won_next), 18);
    assert_eq!(solver.node_count(), 0);
}

#[test]
fn clearing_many_times_wraps_the_generation_safely() {
    // The table tags entries with a generation of at most 16 bits and zeroes
    // itself when the counter wraps: results stay right across the wrap.
    let mut rng = Rng(11);
    let positions: Vec<(Vec<usize>, Score)> = (0..8)
        .map(|_| {
            let moves = random_game_with::<4, 4>(&mut rng, 6, true).unwrap();
            let score = minimax(&Naive::<4, 4>::from_moves(&moves));
            (moves, score)
        })
        .collect();
    let mut solver = Solver::<4, 4>::with_table_bytes(1 << 12).unwrap();
    for i in 0..140_000usize {
        solver.clear();
        if i % 997 == 0 || (65_530..65_545).contains(&i) || (131_065..131_080).contains(&i) {
            let (moves, score) = &positions[i % positions.len()];
            let pos = position_from_moves::<4, 4>(moves);
            assert_eq!(solver.solve(&pos), *score, "after {i} clears");
            // Solve again on the warm table, then after one more clear.
            assert_eq!(solver.solve(&pos), *score, "after {i} clears, warm");
        }
    }
}

/// A solver with a big table searches positions of 3 stones and more in its
/// small table, the earlier ones in the big one; a solver whose table is no
/// bigger than the small one has only that. Which table a search uses must
/// change nothing but its speed: the two agree on positions from the empty
/// board to the middle game, strong and weak, cleared or kept between
/// positions.
#[test]
fn the_small_table_and_the_full_table_give_the_same_scores() {
    let mut big = Solver::<6, 5>::with_table_bytes(64 << 20).unwrap();
    let mut only = Solver::<6, 5>::with_table_bytes(1 << 20).unwrap();
    let mut rng = Rng(11);
    for n in 0..=12 {
        for _ in 0..4 {
            let Some(moves) = random_game_with::<6, 5>(&mut rng, n, false) else {
                continue;
            };
            let pos = position_from_moves::<6, 5>(&moves);
            if pos.is_game_over() {
                continue;
            }
            if n % 2 == 0 {
                big.clear();
                only.clear();
            }
            assert_eq!(big.solve(&pos), only.solve(&pos), "{moves:?}");
            assert_eq!(big.solve_weak(&pos), only.solve_weak(&pos), "{moves:?}");
        }
    }
}
