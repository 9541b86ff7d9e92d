//! The review of a game: every move judged against perfect play, with a
//! verdict per move and a summary per player.
//!
//! For each move the position before it is analysed once, as
//! [`Engine::analyze`] does (every column's score for the side to move):
//! the best score is the highest of them, the played score the played
//! column's. Both are for the side that moved, so a move keeps its side's
//! result if the two scores have the same sign. The engine keeps its
//! transposition table and book from one position to the next, so a review
//! costs no more than analysing each position of the game one by one.
//!
//! ```
//! use c4::review::{Verdict, review};
//! use c4::{BoardSize, engine};
//! let board = BoardSize::new(4, 4).unwrap();
//! let mut solver = engine::new(board, 1 << 20).unwrap();
//! let r = review(solver.as_mut(), board, "1212", false).unwrap();
//! assert_eq!(r.moves.len(), 4);
//! assert_eq!(r.moves[0].verdict, Verdict::Best); // every first move draws on 4x4
//! let e = review(solver.as_mut(), board, "12x", false).unwrap_err();
//! assert_eq!(e.to_string(), "move 3: 'x' is not a column (1-4)");
//! ```

use serde::Serialize;
use thiserror::Error;

use crate::rules::{char_name, column_from_char, column_range};
use crate::solver::Interrupted;
use crate::{BoardSize, Engine, Game, Score};

/// How a move compares with the best one, for the side that played it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The played score is the best score.
    Best,
    /// The same result as the best move (win, draw or loss), but a win
    /// later or a loss sooner. Never with a weak review.
    Slower,
    /// A win becomes a draw, or a draw a loss.
    Mistake,
    /// A win becomes a loss.
    Blunder,
}

impl Verdict {
    /// The verdict of a move of score `played` where `best` was available
    /// (both for the side that moves; weak scores are signs and give no
    /// [`Verdict::Slower`]).
    pub fn of(best: Score, played: Score) -> Verdict {
        if played >= best {
            Verdict::Best
        } else if played.signum() == best.signum() {
            Verdict::Slower
        } else if best > 0 && played < 0 {
            Verdict::Blunder
        } else {
            Verdict::Mistake
        }
    }

    /// The verdict as a word: `best`, `slower`, `mistake`, `blunder`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Slower => "slower",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
        }
    }

    /// Whether the move changed the game's result (a mistake or a blunder).
    pub fn changes_result(self) -> bool {
        matches!(self, Verdict::Mistake | Verdict::Blunder)
    }
}

/// One move of a game, judged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveReview {
    /// The move's number in the game, 1-based (also the number of stones
    /// on the board after it).
    pub number: usize,
    /// Who played it: 1 for the first player (X), 2 for the second (O).
    pub player: u8,
    /// The column played, 1-based.
    pub column: usize,
    /// The best score of the position before the move, for the side that
    /// moved (a sign, -1, 0 or 1, in a weak review).
    pub best_score: Score,
    /// The score of the move played, for the same side: the score of the
    /// position after it, negated (a sign in a weak review).
    pub played_score: Score,
    /// Every column that has the best score, 1-based, left to right.
    pub best_columns: Vec<usize>,
    /// How the move compares with the best.
    pub verdict: Verdict,
}

/// The moves of one player, added up.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerSummary {
    /// 1 for the first player (X), 2 for the second (O).
    pub player: u8,
    /// Moves played.
    pub moves: usize,
    /// Moves judged [`Verdict::Best`].
    pub best: usize,
    /// Moves judged [`Verdict::Slower`].
    pub slower: usize,
    /// Moves judged [`Verdict::Mistake`].
    pub mistakes: usize,
    /// Moves judged [`Verdict::Blunder`].
    pub blunders: usize,
    /// `best / moves`; `None` if the player has not moved.
    pub share_best: Option<f64>,
    /// The number of this player's first move that changed the game's
    /// result (its first mistake or blunder), if any.
    pub result_changed: Option<usize>,
}

impl PlayerSummary {
    /// The summary of `player`'s moves among `moves`.
    fn of(player: u8, moves: &[MoveReview]) -> PlayerSummary {
        let mine: Vec<&MoveReview> = moves.iter().filter(|m| m.player == player).collect();
        let count = |verdict| mine.iter().filter(|m| m.verdict == verdict).count();
        let best = count(Verdict::Best);
        PlayerSummary {
            player,
            moves: mine.len(),
            best,
            slower: count(Verdict::Slower),
            mistakes: count(Verdict::Mistake),
            blunders: count(Verdict::Blunder),
            share_best: (!mine.is_empty()).then(|| best as f64 / mine.len() as f64),
            result_changed: mine
                .iter()
                .find(|m| m.verdict.changes_result())
                .map(|m| m.number),
        }
    }
}

/// Who wins a position with perfect play from there on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The first player (X) wins.
    First,
    /// A draw.
    Draw,
    /// The second player (O) wins.
    Second,
}

impl Outcome {
    /// The outcome of a score for `player` (1 or 2) of the side it is for.
    fn of(score: Score, player: u8) -> Outcome {
        let for_first = if player == 1 { score } else { -score };
        match for_first.signum() {
            1 => Outcome::First,
            0 => Outcome::Draw,
            _ => Outcome::Second,
        }
    }
}

/// A whole game, judged move by move.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Review {
    /// The board, `WxH`.
    pub board_size: String,
    /// The game, as its columns played (trimmed).
    pub game: String,
    /// Whether scores are signs only (win, draw, loss).
    pub weak: bool,
    /// Every move, in order.
    pub moves: Vec<MoveReview>,
    /// The first player's summary, then the second's.
    pub players: [PlayerSummary; 2],
    /// Who wins the empty board with perfect play.
    pub start: Outcome,
    /// Who wins the last position with perfect play (for a finished game,
    /// who won).
    pub end: Outcome,
    /// Whether the game is over: four connected, or the board full.
    pub finished: bool,
    /// The last move that changed the result (a mistake or blunder), after
    /// which the result stayed `end`; `None` if no move changed it.
    pub turning_point: Option<usize>,
}

/// Why a game cannot be reviewed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReviewError {
    /// A character that names no column of the board.
    #[error("move {number}: {} is not a column ({})", char_name(*ch), column_range(*width))]
    NotAColumn {
        /// The move's number, 1-based.
        number: usize,
        /// The character.
        ch: char,
        /// The board's width.
        width: usize,
    },
    /// A move into a full column.
    #[error("move {number}: column {column} is already full")]
    ColumnFull {
        /// The move's number, 1-based.
        number: usize,
        /// The column, 1-based.
        column: usize,
    },
    /// A move after a player has connected four.
    #[error("move {number} (column {column}): the game was already won on move {}", number - 1)]
    AfterWin {
        /// The move's number, 1-based.
        number: usize,
        /// The column, 1-based.
        column: usize,
    },
    /// A move after every cell is filled.
    #[error("move {number} (column {column}): the board is already full")]
    BoardFull {
        /// The move's number, 1-based.
        number: usize,
        /// The column, 1-based.
        column: usize,
    },
    /// The engine's stop flag was raised (only from [`try_review`]).
    #[error("interrupted")]
    Interrupted,
}

impl ReviewError {
    /// The number of the move the error is about, 1-based (`None` if
    /// interrupted).
    pub fn number(&self) -> Option<usize> {
        match *self {
            ReviewError::NotAColumn { number, .. }
            | ReviewError::ColumnFull { number, .. }
            | ReviewError::AfterWin { number, .. }
            | ReviewError::BoardFull { number, .. } => Some(number),
            ReviewError::Interrupted => None,
        }
    }
}

impl From<Interrupted> for ReviewError {
    fn from(_: Interrupted) -> ReviewError {
        ReviewError::Interrupted
    }
}

/// The moves of `line` on `board` as 0-based columns, every one legal;
/// leading and trailing whitespace is ignored.
pub fn parse_game(board: BoardSize, line: &str) -> Result<Vec<usize>, ReviewError> {
    let mut game = Game::new(board);
    let mut columns = Vec::new();
    for (i, ch) in line.trim().chars().enumerate() {
        let number = i + 1;
        let col = column_from_char(ch, board.width()).ok_or(ReviewError::NotAColumn {
            number,
            ch,
            width: board.width(),
        })?;
        let column = col + 1;
        if game.is_won() {
            return Err(ReviewError::AfterWin { number, column });
        }
        if game.is_full() {
            return Err(ReviewError::BoardFull { number, column });
        }
        if !game.can_play(col) {
            return Err(ReviewError::ColumnFull { number, column });
        }
        game.play_col(col);
        columns.push(col);
    }
    Ok(columns)
}

/// Reviews the game `line` (columns played from the empty board, e.g.
/// `4453`) of `board` on `engine`, whose board it must be: exact scores,
/// or with `weak` only their signs (faster). Uses the engine as it is set
/// up (book, threads, table); ignores its stop flag.
pub fn review(
    engine: &mut dyn Engine,
    board: BoardSize,
    line: &str,
    weak: bool,
) -> Result<Review, ReviewError> {
    review_on_engine(engine, board, line, weak, false)
}

/// [`review`], stopped by the engine's stop flag (see
/// [`Engine::set_stop_flag`]): [`ReviewError::Interrupted`] if it was
/// raised before the review was done.
pub fn try_review(
    engine: &mut dyn Engine,
    board: BoardSize,
    line: &str,
    weak: bool,
) -> Result<Review, ReviewError> {
    review_on_engine(engine, board, line, weak, true)
}

/// [`review`] and [`try_review`]: the engine's own analysis of each
/// position, heeding its stop flag when `stoppable`.
fn review_on_engine(
    engine: &mut dyn Engine,
    board: BoardSize,
    line: &str,
    weak: bool,
    stoppable: bool,
) -> Result<Review, ReviewError> {
    assert_eq!(engine.board(), board, "an engine of another board");
    review_with(board, line, weak, |game: &Game| {
        Ok::<_, ReviewError>(analyze(engine, game, weak, stoppable)?)
    })
}

/// The review of `line` on `board` with the scores `analyze` gives: for a
/// position not over, one entry per column of the board, the score of
/// playing there for the side to move (`None` for a full column), exact
/// as [`Engine::analyze`] gives them, or with `weak` their signs. It is
/// called once per move, on the position before it, and once on the empty
/// board if `line` has no move. An error of `analyze` (a node budget spent,
/// a stop) ends the review with it; a line that does not replay is an
/// error before any call.
///
/// Panics if `analyze` gives no score to a legal column or fewer entries
/// than the board has columns.
pub fn review_with<E: From<ReviewError>>(
    board: BoardSize,
    line: &str,
    weak: bool,
    mut analyze: impl FnMut(&Game) -> Result<Vec<Option<Score>>, E>,
) -> Result<Review, E> {
    let columns = parse_game(board, line)?;
    let mut game = Game::new(board);
    let mut moves = Vec::with_capacity(columns.len());
    for (i, &col) in columns.iter().enumerate() {
        let scores = analyze(&game)?;
        let best = best_of(&scores);
        let played = scores[col].expect("the analysis scores every legal column");
        moves.push(MoveReview {
            number: i + 1,
            player: if i % 2 == 0 { 1 } else { 2 },
            column: col + 1,
            best_score: best,
            played_score: played,
            best_columns: (0..board.width())
                .filter(|&c| scores[c] == Some(best))
                .map(|c| c + 1)
                .collect(),
            verdict: Verdict::of(best, played),
        });
        game.play_col(col);
    }
    let start = match moves.first() {
        Some(m) => Outcome::of(m.best_score, 1),
        None => Outcome::of(best_of(&analyze(&game)?), 1),
    };
    let end = match moves.last() {
        Some(m) => Outcome::of(m.played_score, m.player),
        None => start,
    };
    let turning_point = moves
        .iter()
        .rev()
        .find(|m| m.verdict.changes_result())
        .map(|m| m.number);
    Ok(Review {
        board_size: board.to_string(),
        game: line.trim().to_owned(),
        weak,
        players: [PlayerSummary::of(1, &moves), PlayerSummary::of(2, &moves)],
        moves,
        start,
        end,
        finished: game.is_game_over(),
        turning_point,
    })
}

/// The best of a position's column scores.
fn best_of(scores: &[Option<Score>]) -> Score {
    scores
        .iter()
        .flatten()
        .copied()
        .max()
        .expect("a position not over has a legal column")
}

/// Every column's score for the side to move in `game` (not over), `None`
/// for a full column: exact as [`Engine::analyze`] gives them, or signs.
fn analyze(
    engine: &mut dyn Engine,
    game: &Game,
    weak: bool,
    stoppable: bool,
) -> Result<Vec<Option<Score>>, Interrupted> {
    (0..game.width())
        .map(|col| {
            if !game.can_play(col) {
                return Ok(None);
            }
            if game.is_winning_move(col) {
                return Ok(Some(if weak { 1 } else { game.win_next_score() }));
            }
            Ok(Some(-solve(engine, &game.after(col), weak, stoppable)?))
        })
        .collect()
}

/// The score of `game`, exact or weak, stoppable or not.
fn solve(
    engine: &mut dyn Engine,
    game: &Game,
    weak: bool,
    stoppable: bool,
) -> Result<Score, Interrupted> {
    match (weak, stoppable) {
        (false, false) => Ok(engine.solve(game)),
        (false, true) => engine.try_solve(game),
        (true, false) => Ok(engine.solve_weak(game)),
        (true, true) => engine.try_solve_weak(game),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_from_scores() {
        assert_eq!(Verdict::of(3, 3), Verdict::Best);
        assert_eq!(Verdict::of(3, 1), Verdict::Slower);
        assert_eq!(Verdict::of(-1, -4), Verdict::Slower);
        assert_eq!(Verdict::of(3, 0), Verdict::Mistake);
        assert_eq!(Verdict::of(0, -2), Verdict::Mistake);
        assert_eq!(Verdict::of(2, -2), Verdict::Blunder);
        assert_eq!(Verdict::of(1, -1), Verdict::Blunder);
        assert_eq!(Verdict::of(0, 0), Verdict::Best);
    }

    #[test]
    fn errors_name_the_move() {
        let board = BoardSize::STANDARD;
        assert_eq!(
            parse_game(board, "1111111"),
            Err(ReviewError::ColumnFull {
                number: 7,
                column: 1
            })
        );
        assert_eq!(
            parse_game(board, "12121213"),
            Err(ReviewError::AfterWin {
                number: 8,
                column: 3
            })
        );
        let e = parse_game(board, " 448").unwrap_err();
        assert_eq!(e.number(), Some(3));
        assert_eq!(e.to_string(), "move 3: '8' is not a column (1-7)");
        assert_eq!(parse_game(board, " 44 "), Ok(vec![3, 3]));
    }

    #[test]
    fn a_won_game_on_7x6() {
        let board = BoardSize::STANDARD;
        let mut engine = crate::engine::new(board, 1 << 22).unwrap();
        let book = crate::AnyBook::builtin(board).unwrap().unwrap();
        engine.set_book(Some(book)).unwrap();
        // The first move's scores on 7x6 are -2 -1 0 1 0 -1 -2.
        let r = review(engine.as_mut(), board, "1", false).unwrap();
        assert_eq!(r.moves[0].verdict, Verdict::Blunder);
        assert_eq!((r.moves[0].best_score, r.moves[0].played_score), (1, -2));
        assert_eq!(r.moves[0].best_columns, vec![4]);
        assert_eq!((r.start, r.end), (Outcome::First, Outcome::Second));
        assert_eq!(r.players[0].result_changed, Some(1));
        assert_eq!(r.turning_point, Some(1));
        let r = review(engine.as_mut(), board, "3", false).unwrap();
        assert_eq!(r.moves[0].verdict, Verdict::Mistake);
        // X stacks column 4 and wins on move 7.
        let r = review(engine.as_mut(), board, "4142434", false).unwrap();
        assert!(r.finished);
        assert_eq!(r.end, Outcome::First);
        let last = r.moves.last().unwrap();
        assert_eq!((last.played_score, last.verdict), (18, Verdict::Best));
        assert_eq!(r.players[0].share_best, Some(1.0));
        let weak = review(engine.as_mut(), board, "4142434", true).unwrap();
        for (s, w) in r.moves.iter().zip(&weak.moves) {
            assert_eq!(s.best_score.signum(), w.best_score);
            assert_eq!(s.played_score.signum(), w.played_score);
        }
    }
}
