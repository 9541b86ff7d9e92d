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
use c4::{Bitboard, Game, Score, engine};
use common::minimax::minimax;
use common::{Naive, Rng, check_line_ends_as_predicted, moves_string, random_game_with};

/// Checks `count` random positions of one board: `empty` cells left (the
/// side to move cannot win at once), and with `with_minimax` also the exact
/// score against the minimax.
///
/// The positions and the minimax come from the naive model, whose board is
/// fixed at compile time; the solver is the run-time [`engine`] every command
/// uses, so the test compiles no search of its own.
struct SelfConsistent {
    seed: u64,
    count: usize,
    empty: usize,
    with_minimax: bool,
}

impl ForBoard for SelfConsistent {
    type Output = Result<usize, String>;

    fn run<const W: usize, const H: usize, B: Bitboard>(self) -> Result<usize, String> {
        let board = BoardSize::new(W, H).map_err(|e| e.to_string())?;
        let mut rng = Rng(self.seed ^ (W * 100 + H) as u64);
        // The default size: the boards of 64-bit keys need its 2^22 buckets
        // (an entry has room for 42 key bits), those of 128-bit keys 2^21
        // of two words.
        let mut solver = engine::new(board, c4::settings::DEFAULT_TABLE_BYTES)
            .map_err(|e| format!("{board}: {e}"))?;
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
            let pos = Game::parse(board, &text).map_err(|e| at(&e.to_string()))?;
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
            check_line_ends_as_predicted::<W, H>(&moves, &pos, strong, &line)
                .map_err(|e| at(&e))?;
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

/// A board's dimensions and key bits, as the fixed-size position has them.
struct Dims;

impl ForBoard for Dims {
    type Output = (usize, usize, usize);
    fn run<const W: usize, const H: usize, B: Bitboard>(self) -> (usize, usize, usize) {
        (W, H, c4::Position::<W, H, B>::KEY_BITS)
    }
}

/// The dispatch of the library as it ships (its unit tests compile only a
/// few sizes) has one arm per supported size, and each arm is its own size.
#[test]
fn every_supported_size_dispatches_to_itself() {
    assert_eq!(BoardSize::all().count(), c4::board::SUPPORTED.len());
    for board in BoardSize::all() {
        let (w, h, bits) = board.dispatch(Dims);
        assert_eq!((w, h), (board.width(), board.height()));
        assert!(bits <= c4::board::MAX_BITS);
        assert_eq!(board.key_bits() as usize, bits);
    }
}

/// The minimax (memoized) of the empty board on the naive model.
struct EmptyBoardMinimax;

impl ForBoard for EmptyBoardMinimax {
    type Output = Score;
    fn run<const W: usize, const H: usize, B: Bitboard>(self) -> Score {
        minimax(&Naive::<W, H>::new())
    }
}

/// The empty board of the smallest sizes, solved through the run-time
/// engine, against the minimax.
#[test]
fn smallest_boards_from_empty_through_dispatch() {
    for (w, h) in [(4, 4), (4, 5)] {
        let board = BoardSize::new(w, h).unwrap();
        let expected = board.dispatch(EmptyBoardMinimax);
        let mut solver = engine::new(board, 1 << 22).unwrap();
        let empty = Game::new(board);
        assert_eq!(solver.solve(&empty), expected, "{board}");
        solver.clear();
        assert_eq!(solver.solve_weak(&empty), expected.signum(), "{board}");
    }
}
