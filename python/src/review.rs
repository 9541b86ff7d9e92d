//! `c4.Review`, `c4.MoveReview` and `c4.PlayerSummary`: a game judged move
//! by move against perfect play ([`c4::review`]), as immutable Python
//! records, and the games `Solver.review` accepts.

use c4::BoardSize;
use c4::position::{column_range, moves_to_string};
use c4::review::{self, Outcome};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};

use crate::position::Position;

/// One move of a reviewed game.
///
/// Attributes:
///     number: the move's number in the game, from 1.
///     player: 1 for the first player (X), 2 for the second (O).
///     column: the column played, from 1.
///     best_score: the best score the mover had, from the position before
///         the move (a sign, -1, 0 or 1, in a weak review).
///     played_score: the score of the move played, for the mover.
///     best_columns: every column with the best score, left to right.
///     verdict: ``"best"`` (the best score), ``"slower"`` (the same result,
///         won later or lost sooner), ``"mistake"`` (a win becomes a draw or
///         a draw a loss) or ``"blunder"`` (a win becomes a loss).
#[pyclass(frozen, eq, get_all, module = "c4", name = "MoveReview")]
#[derive(Clone, PartialEq)]
pub struct MoveReview {
    /// The move's number in the game, from 1.
    number: usize,
    /// 1 for the first player (X), 2 for the second (O).
    player: u8,
    /// The column played, from 1.
    column: usize,
    /// The best score the mover had, from the position before the move.
    best_score: i32,
    /// The score of the move played, for the mover.
    played_score: i32,
    /// Every column with the best score, left to right.
    best_columns: Vec<usize>,
    /// ``"best"``, ``"slower"``, ``"mistake"`` or ``"blunder"``.
    verdict: &'static str,
}

#[pymethods]
impl MoveReview {
    fn __repr__(&self) -> String {
        format!(
            "MoveReview(number={}, player={}, column={}, best_score={}, played_score={}, \
             best_columns={:?}, verdict='{}')",
            self.number,
            self.player,
            self.column,
            self.best_score,
            self.played_score,
            self.best_columns,
            self.verdict
        )
    }
}

/// One player's moves in a reviewed game, added up.
///
/// Attributes:
///     player: 1 for the first player (X), 2 for the second (O).
///     moves: moves played.
///     best, slower, mistakes, blunders: moves of each verdict.
///     share_best: ``best / moves``; ``None`` if the player has not moved.
///     result_changed: the number of the player's first move that changed
///         the game's result (its first mistake or blunder), or ``None``.
#[pyclass(frozen, eq, get_all, module = "c4", name = "PlayerSummary")]
#[derive(Clone, PartialEq)]
pub struct PlayerSummary {
    /// 1 for the first player (X), 2 for the second (O).
    player: u8,
    /// Moves played.
    moves: usize,
    /// Moves judged ``"best"``.
    best: usize,
    /// Moves judged ``"slower"``.
    slower: usize,
    /// Moves judged ``"mistake"``.
    mistakes: usize,
    /// Moves judged ``"blunder"``.
    blunders: usize,
    /// ``best / moves``; ``None`` if the player has not moved.
    share_best: Option<f64>,
    /// The player's first move that changed the result, or ``None``.
    result_changed: Option<usize>,
}

#[pymethods]
impl PlayerSummary {
    fn __repr__(&self) -> String {
        let share = self
            .share_best
            .map_or("None".to_owned(), |share| format!("{share}"));
        let changed = self
            .result_changed
            .map_or("None".to_owned(), |n| n.to_string());
        format!(
            "PlayerSummary(player={}, moves={}, best={}, slower={}, mistakes={}, blunders={}, \
             share_best={share}, result_changed={changed})",
            self.player, self.moves, self.best, self.slower, self.mistakes, self.blunders
        )
    }
}

/// A game judged move by move against perfect play.
///
/// Attributes:
///     width, height: the board.
///     game: the game as a move string.
///     weak: whether scores are signs only (win, draw, loss).
///     moves: one :class:`MoveReview` per move, in order.
///     players: the :class:`PlayerSummary` of the first player, then the
///         second's.
///     start: who wins the empty board with perfect play: ``"first"``,
///         ``"draw"`` or ``"second"``.
///     end: who wins after the last move with perfect play (for a finished
///         game, who won).
///     finished: whether the game is over (four connected, or a full board).
///     turning_point: the last move that changed the result (a mistake or a
///         blunder), or ``None``.
#[pyclass(frozen, module = "c4", name = "Review")]
pub struct Review {
    /// Number of columns.
    #[pyo3(get)]
    width: usize,
    /// Number of rows.
    #[pyo3(get)]
    height: usize,
    /// The game, as a move string.
    #[pyo3(get)]
    game: String,
    /// Whether scores are signs only (win, draw, loss).
    #[pyo3(get)]
    weak: bool,
    /// One :class:`MoveReview` per move, in order.
    #[pyo3(get)]
    moves: Py<PyTuple>,
    /// The :class:`PlayerSummary` of the first player, then the second's.
    #[pyo3(get)]
    players: Py<PyTuple>,
    /// Who wins the empty board with perfect play: ``"first"``, ``"draw"``
    /// or ``"second"``.
    #[pyo3(get)]
    start: &'static str,
    /// Who wins after the last move with perfect play (who won, once over).
    #[pyo3(get)]
    end: &'static str,
    /// Whether the game is over: four connected, or a full board.
    #[pyo3(get)]
    finished: bool,
    /// The last move that changed the result, or ``None``.
    #[pyo3(get)]
    turning_point: Option<usize>,
    /// The review as `c4 review --json` writes it (without `line`).
    json_text: String,
}

#[pymethods]
impl Review {
    /// The review as one JSON object, as ``c4 review --json`` writes it
    /// (without the input's ``line`` number).
    fn to_json(&self) -> String {
        self.json_text.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Review(game='{}', board='{}x{}', weak={}, end='{}', turning_point={})",
            self.game,
            self.width,
            self.height,
            if self.weak { "True" } else { "False" },
            self.end,
            self.turning_point
                .map_or("None".to_owned(), |n| n.to_string())
        )
    }
}

/// An outcome as Python names it.
fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::First => "first",
        Outcome::Draw => "draw",
        Outcome::Second => "second",
    }
}

/// The Python record of `r`, a review on `board`.
pub fn to_python(py: Python<'_>, board: BoardSize, r: &review::Review) -> PyResult<Review> {
    let moves = r.moves.iter().map(|m| MoveReview {
        number: m.number,
        player: m.player,
        column: m.column,
        best_score: m.best_score,
        played_score: m.played_score,
        best_columns: m.best_columns.clone(),
        verdict: m.verdict.as_str(),
    });
    let moves = PyTuple::new(
        py,
        moves
            .map(|m| Py::new(py, m))
            .collect::<PyResult<Vec<_>>>()?,
    )?;
    let players = r.players.iter().map(|p| PlayerSummary {
        player: p.player,
        moves: p.moves,
        best: p.best,
        slower: p.slower,
        mistakes: p.mistakes,
        blunders: p.blunders,
        share_best: p.share_best,
        result_changed: p.result_changed,
    });
    let players = PyTuple::new(
        py,
        players
            .map(|p| Py::new(py, p))
            .collect::<PyResult<Vec<_>>>()?,
    )?;
    Ok(Review {
        width: board.width(),
        height: board.height(),
        game: r.game.clone(),
        weak: r.weak,
        moves: moves.unbind(),
        players: players.unbind(),
        start: outcome_name(r.start),
        end: outcome_name(r.end),
        finished: r.finished,
        turning_point: r.turning_point,
        json_text: c4::report::to_json(r),
    })
}

/// The move string of the game `obj` names on `board`, checked to replay:
/// a move string (str or bytes), a `Position` (the moves that reached
/// it), or a sequence of 1-based columns. A game that does not replay is
/// a `ValueError` naming the move.
pub fn game_line(board: BoardSize, obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let line = if let Ok(text) = obj.cast::<PyString>() {
        text.to_cow()?.trim().to_owned()
    } else if let Ok(bytes) = obj.cast::<PyBytes>() {
        std::str::from_utf8(bytes.as_bytes())
            .map_err(|e| PyValueError::new_err(format!("the game is not UTF-8: {e}")))?
            .trim()
            .to_owned()
    } else if let Ok(position) = obj.cast::<Position>() {
        let position = position.get();
        if position.game().board() != board {
            return Err(PyValueError::new_err(format!(
                "a position of the {} board given to a solver of the {board} board",
                position.game().board()
            )));
        }
        moves_to_string(position.history())
    } else if let Ok(columns) = obj.extract::<Vec<i64>>() {
        let mut zero_based = Vec::with_capacity(columns.len());
        for (i, &column) in columns.iter().enumerate() {
            match usize::try_from(column) {
                Ok(c) if (1..=board.width()).contains(&c) => zero_based.push(c - 1),
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "move {}: {column} is not a column ({})",
                        i + 1,
                        column_range(board.width())
                    )));
                }
            }
        }
        moves_to_string(&zero_based)
    } else {
        return Err(PyTypeError::new_err(format!(
            "a game is a move string, a c4.Position or a sequence of 1-based columns, not {}",
            obj.get_type().name()?
        )));
    };
    review::parse_game(board, &line).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(line)
}
