//! What the workers of `c4 serve` compute: the answers of `/api/analyze`,
//! `/api/solve` and `/api/move`, under a per-request node limit and a cancel
//! flag, as the JSON of `c4 analyze --json` and `c4 solve --json --pv`.

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use c4::level::Level;
use c4::rng::SplitMix64;
use c4::solver::ordering::center_first_columns;
use c4::{BoardSize, Engine, Game, Score};

use c4::input::parse_position;
use c4::report::{json_solved, summarize};

/// One request's work.
#[derive(Debug, Clone)]
pub struct Task {
    /// The board.
    pub board: BoardSize,
    /// The `moves` parameter as given (checked before the task is queued).
    pub moves: String,
    /// What to compute.
    pub kind: Kind,
    /// The most nodes the whole request may search.
    pub max_nodes: u64,
}

/// What a request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Every column's score (`c4 analyze --json`).
    Analyze {
        /// Signs only.
        weak: bool,
    },
    /// The score and a perfect-play line (`c4 solve --json --pv`).
    Solve {
        /// Sign only (the line is exact either way).
        weak: bool,
    },
    /// The move of a level.
    Move {
        /// The level.
        level: Level,
        /// The seed of its random choices.
        seed: u64,
    },
}

/// A worker's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The answer's JSON, newline included.
    Json(String),
    /// The request needed more than `max_nodes` nodes: no answer.
    NodeLimit {
        /// The limit.
        max_nodes: u64,
    },
    /// The client went away; nobody reads this.
    Cancelled,
    /// The solver failed (a bug).
    Failed,
}

/// Why a computation stopped before its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// The client went away.
    Cancelled,
    /// The node budget ran out.
    NodeLimit,
    /// No move kept the score the search gave (a solver bug): no answer
    /// rather than a wrong line.
    Inconsistent,
}

/// Searches within one request's limits: a node budget shared by all its
/// searches, and the cancel flag set when the client goes away.
///
/// Each search is `Engine::solve_within` with what is left of the budget, so
/// a limit reached is seen as such and never turned into a score. The cancel
/// flag is the solver's stop flag too (see `pool.rs`): a search under way
/// stops at its next poll, and the flag is read again before every search
/// (every column of an analysis, every move of a line).
struct Budget<'a> {
    /// Set when the client has gone.
    cancel: &'a AtomicBool,
    /// Nodes left.
    left: u64,
}

impl Budget<'_> {
    /// Stops if the client has gone.
    fn check(&self) -> Result<(), Stop> {
        if self.cancel.load(Ordering::Relaxed) {
            Err(Stop::Cancelled)
        } else {
            Ok(())
        }
    }

    /// The exact score of `pos` (a position whose game is not over).
    fn exact(&mut self, solver: &mut dyn Engine, pos: &Game) -> Result<Score, Stop> {
        self.check()?;
        let before = solver.node_count();
        let score = solver.solve_within(pos, self.left);
        self.left = self
            .left
            .saturating_sub(solver.node_count().saturating_sub(before));
        match score {
            Some(score) => Ok(score),
            None => {
                self.check()?;
                Err(Stop::NodeLimit)
            }
        }
    }

    /// The exact score of playing 0-based `col` in `pos`, as
    /// [`Engine::column_score`] gives it.
    fn column(
        &mut self,
        solver: &mut dyn Engine,
        pos: &Game,
        col: usize,
    ) -> Result<Option<Score>, Stop> {
        if pos.is_game_over() || !pos.can_play(col) {
            return Ok(None);
        }
        if pos.is_winning_move(col) {
            return Ok(Some(pos.win_next_score()));
        }
        Ok(Some(-self.exact(solver, &pos.after(col))?))
    }

    /// Every column's exact score, as [`Engine::analyze`] gives them.
    fn analyze(&mut self, solver: &mut dyn Engine, pos: &Game) -> Result<Vec<Option<Score>>, Stop> {
        (0..pos.width())
            .map(|col| self.column(solver, pos, col))
            .collect()
    }

    /// The principal variation from `pos`, whose exact score is `score`:
    /// the line of [`Engine::principal_variation`], with each move the most
    /// central one that keeps the score.
    fn principal_variation(
        &mut self,
        solver: &mut dyn Engine,
        pos: &Game,
        mut score: Score,
    ) -> Result<Vec<usize>, Stop> {
        let mut line = Vec::new();
        let mut pos = *pos;
        while !pos.is_game_over() {
            let mut chosen = None;
            for col in center_first_columns(pos.width()) {
                if self.column(solver, &pos, col)? == Some(score) {
                    chosen = Some(col);
                    break;
                }
            }
            let Some(col) = chosen else {
                return Err(Stop::Inconsistent);
            };
            line.push(col);
            pos.play_col(col);
            // The position after a best move has the opposite score.
            score = -score;
        }
        Ok(line)
    }
}

/// The JSON of `/api/move`.
#[derive(Debug, Serialize)]
struct MoveAnswer<'a> {
    /// The board's size, `WxH`.
    board_size: String,
    /// The moves as given, trimmed.
    moves: &'a str,
    /// The level's number.
    level: u8,
    /// The level's name.
    level_name: &'static str,
    /// The seed of the level's random choices.
    seed: u64,
    /// The 1-based column to play.
    #[serde(rename = "move")]
    column: usize,
    /// Whether the level's mistake roll fired.
    mistake: bool,
}

impl Task {
    /// Computes the answer with `solver` (cleared), stopping when `cancel`
    /// is set.
    /// `solver` is for the task's board.
    pub fn run(&self, solver: &mut dyn Engine, cancel: &AtomicBool) -> Reply {
        let Ok((moves, pos)) = parse_position(self.board, self.moves.as_bytes()) else {
            // Checked before the task was queued.
            return Reply::Failed;
        };
        let mut budget = Budget {
            cancel,
            left: self.max_nodes,
        };
        let answer = match self.kind {
            Kind::Analyze { weak } => budget.analyze(solver, &pos).map(|scores| {
                let scores = if weak {
                    scores.into_iter().map(|s| s.map(Score::signum)).collect()
                } else {
                    scores
                };
                let analysis = summarize(solver, moves.to_owned(), &pos, weak, scores);
                serde_json::to_string(&analysis).expect("plain structs serialize") + "\n"
            }),
            Kind::Solve { weak } => solve(&mut budget, solver, &pos).map(|(score, pv)| {
                let score = if weak { score.signum() } else { score };
                json_solved(1, self.board, moves, score, weak, None, Some(&pv)) + "\n"
            }),
            Kind::Move { level, seed } => {
                let mut rng = SplitMix64::new(seed);
                level
                    .choose(&pos, &mut rng, || budget.analyze(solver, &pos))
                    .map(|choice| {
                        let answer = MoveAnswer {
                            board_size: self.board.to_string(),
                            moves,
                            level: level.number(),
                            level_name: level.name(),
                            seed,
                            column: choice.column + 1,
                            mistake: choice.mistake,
                        };
                        serde_json::to_string(&answer).expect("plain structs serialize") + "\n"
                    })
            }
        };
        match answer {
            Ok(json) => Reply::Json(json),
            Err(Stop::Cancelled) => Reply::Cancelled,
            Err(Stop::Inconsistent) => Reply::Failed,
            Err(Stop::NodeLimit) => Reply::NodeLimit {
                max_nodes: self.max_nodes,
            },
        }
    }
}

/// The exact score of `pos` and its principal variation.
fn solve(
    budget: &mut Budget<'_>,
    solver: &mut dyn Engine,
    pos: &Game,
) -> Result<(Score, Vec<usize>), Stop> {
    if pos.is_game_over() {
        // A finished game: its score needs no search, and the line is empty.
        return Ok((solver.solve(pos), Vec::new()));
    }
    let score = budget.exact(solver, pos)?;
    let pv = budget.principal_variation(solver, pos, score)?;
    Ok((score, pv))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solver of the standard board, with the built-in book if `book`.
    fn solver(book: bool) -> Box<dyn Engine> {
        let mut solver = c4::engine::new(BoardSize::STANDARD, 1 << 20).unwrap();
        if book {
            let book = c4::AnyBook::builtin(BoardSize::STANDARD).unwrap().unwrap();
            solver.set_book(Some(book)).unwrap();
        }
        solver
    }

    fn run(kind: Kind, moves: &str, max_nodes: u64, book: bool) -> Reply {
        let mut solver = solver(book);
        let task = Task {
            board: BoardSize::STANDARD,
            moves: moves.to_owned(),
            kind,
            max_nodes,
        };
        task.run(solver.as_mut(), &AtomicBool::new(false))
    }

    /// The line is the one `Engine::principal_variation` gives.
    #[test]
    fn the_line_is_the_solvers() {
        let mut solver = solver(true);
        for moves in ["4453", "2252576253462244111563365343671351441", "121212"] {
            let pos = Game::parse(BoardSize::STANDARD, moves).unwrap();
            let pv = c4::position::moves_to_string(&solver.principal_variation(&pos));
            let Reply::Json(json) = run(Kind::Solve { weak: false }, moves, u64::MAX, true) else {
                panic!("solved");
            };
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(v["pv"], pv.as_str(), "{moves}");
            assert_eq!(v["score"], solver.solve(&pos), "{moves}");
        }
    }

    #[test]
    fn a_limit_reached_is_no_score() {
        // The empty board without a book takes far more than 1000 nodes.
        for kind in [
            Kind::Analyze { weak: false },
            Kind::Solve { weak: true },
            Kind::Move {
                level: Level::PERFECT,
                seed: 1,
            },
        ] {
            assert_eq!(
                run(kind, "", 1000, false),
                Reply::NodeLimit { max_nodes: 1000 },
                "{kind:?}"
            );
        }
    }

    #[test]
    fn a_cancelled_request_stops() {
        let mut solver = solver(false);
        let task = Task {
            board: BoardSize::STANDARD,
            moves: "4453".into(),
            kind: Kind::Analyze { weak: false },
            max_nodes: u64::MAX,
        };
        assert_eq!(
            task.run(solver.as_mut(), &AtomicBool::new(true)),
            Reply::Cancelled
        );
    }
}
