//! Every supported board size, chosen at run time: the solver agrees with
//! itself across modes on random positions of each size (weak is the sign of
//! strong, analyze's best column and `best_move` score what `solve` scores,
//! the principal variation ends the game on the move the score predicts), and
//! positions a few moves from the end agree with a plain minimax.
//!
//! The exhaustive whole-game checks of small boards (4x4, 5x4, 4x5) against
//! a memoized minimax are in `tests/solver_minimax.rs`.

mod common;

use c4::board::{BoardSize, ForBoard};
use c4::{Bitboard, Position, Score, Solver};
use common::minimax::minimax;
use common::{Naive, Rng, check_line_ends_as_predicted, moves_string, random_game_with};

/// Checks `count` random positions of one board: `empty` cells left (the
/// side to move cannot win at once), and with `with_minimax` also the exact
/// score against the minimax.
struct SelfConsistent {
    seed: u64,
    count: usize,
    empty: usize,
    with_minimax: bool,
}

impl ForBoard for SelfConsistent {
    type Output = Result<usize, String>;

    fn run<const W: usize, const H: usize, B: Bitboard>(self) -> Result<usize, String> {
        let mut rng = Rng(self.seed ^ (W * 100 + H) as u64);
        // The default size: the boards of 64-bit keys need its 2^22 buckets
        // (an entry has room for 42 key bits), those of 128-bit keys 2^21
        // of two words.
        let mut solver = Solver::<W, H, B>::new();
        let n = (W * H).saturating_sub(self.empty).max(4);
        let mut checked = 0;
        // Random games on wide boards often end before `n` moves: draw up to
        // ten times as many as wanted.
        for _ in 0..self.count * 10 {
            if checked == self.count {
                break;
            }
            let Some(moves) = random_game_with::<W, H>(&mut rng, n, true) else {
                continue;
            };
            let text = moves_string(&moves);
            let at = |what: &str| format!("{W}x{H} '{text}': {what}");
            let pos = Position::<W, H, B>::parse(&text).map_err(|e| at(&e.to_string()))?;
            solver.clear();
            let strong = solver.solve(&pos);
            solver.clear();
            let weak = solver.solve_weak(&pos);
            if weak != strong.signum() {
                return Err(at(&format!("weak {weak}, strong {strong}")));
            }
            let scores = solver.analyze(&pos);
            if scores.iter().flatten().max() != Some(&strong) {
                return Err(at(&format!("analyze {scores:?}, solve {strong}")));
            }
            match solver.best_move(&pos) {
                Some((col, score)) if score == strong && scores[col] == Some(strong) => {}
                other => return Err(at(&format!("best_move {other:?}, solve {strong}"))),
            }
            let line = solver.principal_variation(&pos);
            check_line_ends_as_predicted(&moves, &pos, strong, &line).map_err(|e| at(&e))?;
            if self.with_minimax {
                let expected = minimax(&Naive::<W, H>::from_moves(&moves));
                if strong != expected {
                    return Err(at(&format!("solve {strong}, minimax {expected}")));
                }
            }
            checked += 1;
        }
        Ok(checked)
    }
}

#[test]
fn every_size_agrees_with_itself_and_with_minimax_near_the_end() {
    for board in BoardSize::all() {
        // Ten cells left: a plain minimax is still quick.
        let near_end = SelfConsistent {
            seed: 1,
            count: 6,
            empty: 10,
            with_minimax: true,
        };
        let checked = board.dispatch(near_end).unwrap();
        assert!(checked >= 3, "{board}: only {checked} positions drawn");
        // Twenty cells left: a real search, every mode against the others.
        let middle = SelfConsistent {
            seed: 2,
            count: 4,
            empty: 20,
            with_minimax: false,
        };
        let checked = board.dispatch(middle).unwrap();
        assert!(checked >= 2, "{board}: only {checked} positions drawn");
    }
}

/// The empty board of the smallest sizes, solved through run-time dispatch,
/// against the minimax (memoized) on the naive model.
struct EmptyBoard;

impl ForBoard for EmptyBoard {
    type Output = (Score, Score, Score);
    fn run<const W: usize, const H: usize, B: Bitboard>(self) -> (Score, Score, Score) {
        let expected = minimax(&Naive::<W, H>::new());
        let mut solver = Solver::<W, H, B>::with_table_bytes(1 << 22).unwrap();
        let strong = solver.solve(&Position::<W, H, B>::new());
        solver.clear();
        (
            expected,
            strong,
            solver.solve_weak(&Position::<W, H, B>::new()),
        )
    }
}

#[test]
fn smallest_boards_from_empty_through_dispatch() {
    for (w, h) in [(4, 4), (4, 5)] {
        let board = BoardSize::new(w, h).unwrap();
        let (expected, strong, weak) = board.dispatch(EmptyBoard);
        assert_eq!(strong, expected, "{board}");
        assert_eq!(weak, expected.signum(), "{board}");
    }
}
