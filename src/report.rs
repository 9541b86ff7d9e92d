//! The objects a position's answers are reported as, shared by the
//! commands, the server and the browser build: the JSON line of a solve, the
//! analysis of every column, and a score told in words.

use serde::Serialize;

use crate::rules::moves_to_string;
use crate::solver::ordering::center_first_columns;
use crate::{BoardSize, Engine, Game, Player, Score};

/// A JSON result line.
#[derive(Serialize)]
struct JsonSolved<'a> {
    /// The input's number, for a command's batch (none for a single answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
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

/// The request parameter a refused board is blamed on, with the input to
/// quote: `width` or `height` when that side is under 4, else the `board`
/// as `WxH` (too many cells). The server and the browser build answer the
/// same 400 with it.
pub fn refused_board_parameter(width: u64, height: u64) -> (&'static str, String) {
    if width < 4 {
        ("width", width.to_string())
    } else if height < 4 {
        ("height", height.to_string())
    } else {
        ("board", format!("{width}x{height}"))
    }
}

/// The JSON line of a solved input (see `c4 solve --help`), without its newline:
/// `line` is the input's number in a batch, `stats` the nodes and
/// microseconds, `pv` the principal variation (0-based columns), each
/// written only when given.
pub fn json_solved(
    line: Option<usize>,
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
pub fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("plain structs serialize")
}

/// Everything `c4 analyze` reports about a position.
#[derive(Debug, Serialize)]
pub struct Analysis {
    /// The moves as given, trimmed.
    pub moves: String,
    /// The board's size, `WxH`.
    pub board_size: String,
    /// The rows of the board, top first: `X`, `O` or `.` per cell.
    pub board: Vec<String>,
    /// `X` or `O`.
    pub side_to_move: String,
    /// Stones on the board.
    pub moves_played: usize,
    /// Whether someone has connected four or the board is full.
    pub game_over: bool,
    /// `X` or `O` once someone has connected four.
    pub winner: Option<String>,
    /// Whether the scores are signs only.
    pub weak: bool,
    /// Score of each column for the side to move; `None` when full.
    pub scores: Vec<Option<Score>>,
    /// 1-based best column, `None` once the game is over.
    pub best_move: Option<usize>,
    /// The position's score.
    pub score: Score,
    /// The move of the game that wins with perfect play (exact scores only).
    pub win_on_move: Option<usize>,
    /// The score in words.
    pub result: String,
}

/// The analysis of `pos` from the score of every column (signs only with
/// `weak`; `None` for a full column, or every column once the game is over).
/// `solver` only scores a game that is over, which takes no search.
pub fn summarize(
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

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, ..., `21st`, ...
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// How a game ends with perfect play, from an exact score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Nobody can force a win.
    Draw,
    /// `winner` connects four with move `on_move` of the game (1-based),
    /// its `stone`-th stone of the game, `from_now` stones from now (0 if
    /// it has already won).
    Win {
        /// The player who wins.
        winner: Player,
        /// The game's move number of the winning stone (1-based).
        on_move: usize,
        /// The winning stone's number among the winner's stones of the
        /// whole game, 1-based: the count the score is made of (on 7x6 a win
        /// scores 22 minus it).
        stone: usize,
        /// How many stones the winner plays from now, the winning one
        /// included; 0 when the last move has already won.
        from_now: usize,
    },
}

/// Reads an exact score of `pos` (for the side to move) as the move on which
/// the game ends. The score of a win is `(W * H + 1 - n) / 2` (rounded down)
/// for a win by move `n + 1` of the game, where `n` has the parity of the
/// winner's turns; this inverts it.
pub fn outcome(pos: &Game, score: Score) -> Outcome {
    if score == 0 {
        return Outcome::Draw;
    }
    let played = pos.moves_played();
    let to_move = pos.side_to_move();
    if pos.is_won() {
        return Outcome::Win {
            winner: to_move.other(),
            on_move: played,
            stone: played.div_ceil(2),
            from_now: 0,
        };
    }
    // The winner's first move from now is move `first` of the game, 0-based:
    // `played` for the side to move, `played + 1` for its opponent.
    let (winner, first) = if score > 0 {
        (to_move, played)
    } else {
        (to_move.other(), played + 1)
    };
    let twice = 2 * score.unsigned_abs() as usize;
    // n = cells + 1 - 2s or cells - 2s, whichever has the winner's parity.
    let cells = pos.board().cells();
    let mut before = (cells + 1).saturating_sub(twice);
    if before % 2 != first % 2 {
        before = before.saturating_sub(1);
    }
    let before = before.max(first);
    Outcome::Win {
        winner,
        on_move: before + 1,
        stone: before / 2 + 1,
        from_now: (before - first) / 2 + 1,
    }
}

/// A sentence saying what `score` means for `pos`, e.g. "X wins with its
/// 5th stone (move 9)" or "X wins with its next stone (its 4th, move 7)".
/// Stones are counted over the whole game, as the score counts them. With
/// `weak`, the score is only a sign.
pub fn describe(pos: &Game, score: Score, weak: bool) -> String {
    let me = pos.side_to_move().symbol();
    let you = pos.side_to_move().other().symbol();
    if weak {
        return match score.signum() {
            1 => format!("{me} wins with perfect play"),
            -1 => format!("{me} loses: {you} wins with perfect play"),
            _ => "draw with perfect play".to_owned(),
        };
    }
    match outcome(pos, score) {
        Outcome::Draw => "draw with perfect play: the board fills up".to_owned(),
        Outcome::Win {
            winner,
            on_move,
            stone,
            from_now,
        } => {
            let stones = if from_now == 1 {
                format!("its next stone (its {}, move {on_move})", ordinal(stone))
            } else {
                format!("its {} stone (move {on_move})", ordinal(stone))
            };
            if winner == pos.side_to_move() {
                format!("{me} wins with {stones}")
            } else {
                format!("{me} loses: {you} wins with {stones}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_board_blames_the_side_too_small_or_the_size() {
        assert_eq!(refused_board_parameter(3, 6), ("width", "3".to_string()));
        assert_eq!(refused_board_parameter(7, 2), ("height", "2".to_string()));
        assert_eq!(
            refused_board_parameter(11, 11),
            ("board", "11x11".to_string())
        );
    }

    /// The 7x6 position after `moves`.
    fn parse(moves: &str) -> Game {
        Game::parse(BoardSize::STANDARD, moves).unwrap()
    }

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
                "111th"
            ]
        );
    }

    /// A position with `n` stones and no four in a row; `outcome` only looks
    /// at how many stones there are (whose turn it is), not where they are.
    fn with_stones(n: usize) -> Game {
        let mut pos = Game::new(BoardSize::STANDARD);
        let mut next = 0;
        while pos.moves_played() < n {
            let col = (0..7)
                .map(|d| (next + d) % 7)
                .find(|&c| pos.can_play(c) && !pos.is_winning_move(c))
                .expect("a move that does not win");
            pos.play_col(col);
            next = (col + 3) % 7;
        }
        assert!(!pos.is_won());
        pos
    }

    #[test]
    fn outcome_inverts_the_score() {
        // The empty board: X wins with its last (21st) stone, move 41.
        assert_eq!(
            outcome(&Game::new(BoardSize::STANDARD), 1),
            Outcome::Win {
                winner: Player::First,
                on_move: 41,
                stone: 21,
                from_now: 21
            }
        );
        // X to move with three stones in column 1 wins at once, on move 7.
        let p = parse("121212");
        assert_eq!(
            outcome(&p, p.win_next_score()),
            Outcome::Win {
                winner: Player::First,
                on_move: 7,
                stone: 4,
                from_now: 1
            }
        );
        // O to move after "1212121" has lost on move 7 (the solver's score).
        let won = parse("1212121");
        assert_eq!(
            outcome(&won, -((42 + 2 - 7) / 2)),
            Outcome::Win {
                winner: Player::First,
                on_move: 7,
                stone: 4,
                from_now: 0
            }
        );
        assert_eq!(outcome(&Game::new(BoardSize::STANDARD), 0), Outcome::Draw);
    }

    #[test]
    fn every_win_maps_back_to_its_score() {
        for played in 0..42 {
            let pos = with_stones(played);
            // A win by the side to move, then by its opponent.
            for (sign, first) in [(1, played), (-1, played + 1)] {
                for s in 1..=(42 + 1 - first as i32) / 2 {
                    let Outcome::Win {
                        on_move,
                        stone,
                        from_now,
                        ..
                    } = outcome(&pos, sign * s)
                    else {
                        panic!("a nonzero score is a win");
                    };
                    let before = on_move - 1;
                    assert_eq!((42 + 1 - before as i32) / 2, s, "{played} {sign} {s}");
                    assert_eq!(before % 2, first % 2, "{played} {sign} {s}");
                    assert_eq!(first + 2 * (from_now - 1), before);
                    // The README's count: a win scores 22 minus the stones
                    // the winner has played when it wins.
                    assert_eq!(22 - stone as i32, s, "{played} {sign} {s}");
                }
            }
        }
    }

    #[test]
    fn sentences_count_the_stones_of_the_whole_game() {
        // O to move after 44533 wins on move 40 with its 20th stone: 22 - 20.
        let p = parse("44533");
        assert_eq!(
            describe(&p, 2, false),
            "O wins with its 20th stone (move 40)"
        );
        assert_eq!(
            describe(&p, -2, false),
            "O loses: X wins with its 20th stone (move 39)"
        );
        // X to move after 121212 wins at once: its next stone, its 4th.
        let p = parse("121212");
        assert_eq!(
            describe(&p, p.win_next_score(), false),
            "X wins with its next stone (its 4th, move 7)"
        );
        // O to move after 12121 loses to X's next stone, move 7.
        let p = parse("12121");
        assert_eq!(
            describe(&p, -(22 - 4), false),
            "O loses: X wins with its next stone (its 4th, move 7)"
        );
        assert_eq!(
            describe(&Game::new(BoardSize::STANDARD), 1, false),
            "X wins with its 21st stone (move 41)"
        );
        assert_eq!(
            describe(&p, 0, false),
            "draw with perfect play: the board fills up"
        );
        assert_eq!(describe(&p, -1, true), "O loses: X wins with perfect play");
    }
}
