//! The objects a position's answers are reported as, shared by the
//! commands and the server: the JSON line of a solve and the analysis of
//! every column.

use serde::Serialize;

use c4::position::moves_to_string;
use c4::solver::ordering::center_first_columns;
use c4::{BoardSize, Engine, Game, Player, Score};

use super::output::{Outcome, describe, outcome};

/// A JSON result line.
#[derive(Serialize)]
struct JsonSolved<'a> {
    line: usize,
    /// The board's size, `WxH`.
    board_size: String,
    moves: &'a str,
    score: i32,
    weak: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    micros: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pv: Option<String>,
    /// Outer `None`: not asked for; inner `None` (null): the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    best_move: Option<Option<usize>>,
}

/// The JSON line of a solved input (see `c4 solve --help`), without its newline:
/// `stats` is the nodes and microseconds, `pv` the principal variation
/// (0-based columns), each written only when given.
pub(in crate::cli) fn json_solved(
    line: usize,
    board: BoardSize,
    moves: &str,
    score: i32,
    weak: bool,
    stats: Option<(u64, u64)>,
    pv: Option<&[usize]>,
) -> String {
    to_json(&JsonSolved {
        line,
        board_size: board.to_string(),
        moves,
        score,
        weak,
        nodes: stats.map(|(nodes, _)| nodes),
        micros: stats.map(|(_, micros)| micros),
        best_move: pv.map(|pv| pv.first().map(|&c| c + 1)),
        pv: pv.map(moves_to_string),
    })
}

/// Serializes a value that cannot fail to serialize (plain structs).
pub(in crate::cli) fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("plain structs serialize")
}

/// Everything `c4 analyze` reports about a position.
#[derive(Debug, Serialize)]
pub(in crate::cli) struct Analysis {
    /// The moves as given, trimmed.
    pub(in crate::cli) moves: String,
    /// The board's size, `WxH`.
    pub(in crate::cli) board_size: String,
    /// The rows of the board, top first: `X`, `O` or `.` per cell.
    pub(in crate::cli) board: Vec<String>,
    /// `X` or `O`.
    pub(in crate::cli) side_to_move: String,
    /// Stones on the board.
    pub(in crate::cli) moves_played: usize,
    /// Whether someone has connected four or the board is full.
    pub(in crate::cli) game_over: bool,
    /// `X` or `O` once someone has connected four.
    pub(in crate::cli) winner: Option<String>,
    /// Whether the scores are signs only.
    pub(in crate::cli) weak: bool,
    /// Score of each column for the side to move; `None` when full.
    pub(in crate::cli) scores: Vec<Option<Score>>,
    /// 1-based best column, `None` once the game is over.
    pub(in crate::cli) best_move: Option<usize>,
    /// The position's score.
    pub(in crate::cli) score: Score,
    /// The move of the game that wins with perfect play (exact scores only).
    pub(in crate::cli) win_on_move: Option<usize>,
    /// The score in words.
    pub(in crate::cli) result: String,
}

/// The analysis of `pos` from the score of every column (signs only with
/// `weak`; `None` for a full column, or every column once the game is over).
/// `solver` only scores a game that is over, which takes no search.
pub(in crate::cli) fn summarize(
    solver: &mut dyn Engine,
    moves: String,
    pos: &Game,
    weak: bool,
    scores: Vec<Option<Score>>,
) -> Analysis {
    let game_over = pos.is_game_over();
    // The most central of the best columns (the solver's tie-break too).
    let best = center_first_columns(pos.width())
        .filter_map(|col| scores[col].map(|s| (col, s)))
        .fold(None, |best: Option<(usize, Score)>, (col, s)| match best {
            Some((_, b)) if b >= s => best,
            _ => Some((col, s)),
        });
    let score = match best {
        Some((_, s)) => s,
        None if weak => solver.solve_weak(pos),
        None => solver.solve(pos),
    };
    let winner = pos.is_won().then(|| pos.side_to_move().other());
    let result = if let Some(winner) = winner {
        format!("{} has won on move {}", winner.symbol(), pos.moves_played())
    } else if pos.is_full() {
        "the board is full: draw".to_owned()
    } else {
        describe(pos, score, weak)
    };
    let win_on_move = match (weak, winner) {
        (_, Some(_)) => Some(pos.moves_played()),
        (true, None) => None,
        (false, None) => match outcome(pos, score) {
            Outcome::Win { on_move, .. } => Some(on_move),
            Outcome::Draw => None,
        },
    };
    Analysis {
        moves,
        board_size: pos.board().to_string(),
        board: board_rows(pos),
        side_to_move: pos.side_to_move().symbol().to_string(),
        moves_played: pos.moves_played(),
        game_over,
        winner: winner.map(|p| p.symbol().to_string()),
        weak,
        scores,
        best_move: best.map(|(col, _)| col + 1),
        score,
        win_on_move,
        result,
    }
}

/// The rows of the board, top first, one character per cell.
fn board_rows(pos: &Game) -> Vec<String> {
    (0..pos.height())
        .rev()
        .map(|row| {
            (0..pos.width())
                .map(|col| pos.stone_at(col, row).map_or('.', Player::symbol))
                .collect()
        })
        .collect()
}
