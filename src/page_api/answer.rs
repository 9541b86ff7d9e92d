//! The answers of the page's API computed: every search of a request within
//! one node budget and a cancel flag, and the JSON objects of
//! `c4 analyze --json`, `c4 solve --json --pv`, of a level's move and of
//! the review of a game.

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use super::{Kind, Query};
use crate::report::{json_solved, summarize, to_json};
use crate::review::{ReviewError, review_with};
use crate::rng::SplitMix64;
use crate::solver::ordering::center_first_columns;
use crate::{Engine, Game, Score};

/// Why a computation stopped before its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The cancel flag was set (the client went away).
    Cancelled,
    /// The node budget ran out.
    NodeLimit,
    /// No move kept the score the search gave (a solver bug): no answer
    /// rather than a wrong line.
    Inconsistent,
}

/// Searches within one request's limits: a node budget shared by all its
/// searches, and a cancel flag.
///
/// Each search is `Engine::solve_within` with what is left of the budget, so
/// a limit reached is seen as such and never turned into a score. The flag
/// is read before every search (every column of an analysis, every move of
/// a line); a back end that makes it the solver's stop flag too stops a
/// search under way at its next poll.
struct Budget<'a> {
    /// Set when the answer is no longer wanted.
    cancel: &'a AtomicBool,
    /// Nodes left.
    left: u64,
}

impl Budget<'_> {
    /// Stops if the answer is no longer wanted.
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

    /// The exact score of `pos` and its principal variation: the line of
    /// [`Engine::principal_variation`], each move the most central one that
    /// keeps the score.
    fn solve(&mut self, solver: &mut dyn Engine, pos: &Game) -> Result<(Score, Vec<usize>), Stop> {
        if pos.is_game_over() {
            // A finished game: its score needs no search, and the line is
            // empty.
            return Ok((solver.solve(pos), Vec::new()));
        }
        let first = self.exact(solver, pos)?;
        let (mut score, mut line, mut pos) = (first, Vec::new(), *pos);
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
        Ok((first, line))
    }
}

/// Why a review stopped: the budget or the flag, or a line that does not
/// replay (never, once the query is read).
enum ReviewStop {
    /// A search stopped.
    Stop(Stop),
    /// The line does not replay.
    Line,
}

impl From<Stop> for ReviewStop {
    fn from(stop: Stop) -> ReviewStop {
        ReviewStop::Stop(stop)
    }
}

impl From<ReviewError> for ReviewStop {
    fn from(_: ReviewError) -> ReviewStop {
        ReviewStop::Line
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

impl Query {
    /// The answer's JSON object (as text, without a newline), computed with
    /// `solver` (for the query's board) searching at most `max_nodes` nodes
    /// in all, and stopping before its next search once `cancel` is set.
    pub fn answer(
        &self,
        solver: &mut dyn Engine,
        max_nodes: u64,
        cancel: &AtomicBool,
    ) -> Result<String, Stop> {
        let mut budget = Budget {
            cancel,
            left: max_nodes,
        };
        let (pos, moves) = (&self.game, self.moves.as_str());
        match self.kind {
            Kind::Analyze { weak } => budget.analyze(solver, pos).map(|scores| {
                let scores = if weak {
                    scores.into_iter().map(|s| s.map(Score::signum)).collect()
                } else {
                    scores
                };
                to_json(&summarize(solver, moves.to_owned(), pos, weak, scores))
            }),
            Kind::Solve { weak } => budget.solve(solver, pos).map(|(score, pv)| {
                let score = if weak { score.signum() } else { score };
                json_solved(None, self.board, moves, score, weak, None, Some(&pv))
            }),
            Kind::Review { weak } => {
                let review = review_with(self.board, moves, weak, |pos: &Game| {
                    let scores = budget.analyze(solver, pos)?;
                    Ok::<_, ReviewStop>(if weak {
                        scores.into_iter().map(|s| s.map(Score::signum)).collect()
                    } else {
                        scores
                    })
                });
                match review {
                    Ok(review) => Ok(to_json(&review)),
                    Err(ReviewStop::Stop(stop)) => Err(stop),
                    // The line was checked before: it replays.
                    Err(ReviewStop::Line) => Err(Stop::Inconsistent),
                }
            }
            Kind::Move { level, seed } => {
                let mut rng = SplitMix64::new(seed);
                level
                    .choose(pos, &mut rng, || budget.analyze(solver, pos))
                    .map(|choice| {
                        to_json(&MoveAnswer {
                            board_size: self.board.to_string(),
                            moves,
                            level: level.number(),
                            level_name: level.name(),
                            seed,
                            column: choice.column + 1,
                            mistake: choice.mistake,
                        })
                    })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardSize;
    use crate::level::Level;
    use crate::page_api::{Request, Route, read};

    /// A solver of the standard board, with the built-in book if `book`.
    fn solver(book: bool) -> Box<dyn Engine> {
        let mut solver = crate::engine::new(BoardSize::STANDARD, 1 << 20).unwrap();
        if book {
            let book = crate::AnyBook::builtin(BoardSize::STANDARD)
                .unwrap()
                .unwrap();
            solver.set_book(Some(book)).unwrap();
        }
        solver
    }

    fn query(kind: Kind, moves: &str) -> Query {
        let Ok(Request::Query(mut q)) = read(Route::Analyze, [("moves", moves)], || 0) else {
            panic!("{moves} is a position");
        };
        q.kind = kind;
        q
    }

    fn run(kind: Kind, moves: &str, max_nodes: u64, book: bool) -> Result<String, Stop> {
        query(kind, moves).answer(solver(book).as_mut(), max_nodes, &AtomicBool::new(false))
    }

    /// The line is the one `Engine::principal_variation` gives, and the
    /// scores those of `Engine::analyze`.
    #[test]
    fn the_answers_are_the_solvers() {
        let mut solver = solver(true);
        for moves in ["4453", "2252576253462244111563365343671351441", "121212"] {
            let pos = Game::parse(BoardSize::STANDARD, moves).unwrap();
            let pv = crate::rules::moves_to_string(&solver.principal_variation(&pos));
            let json = run(Kind::Solve { weak: false }, moves, u64::MAX, true).unwrap();
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(v["pv"], pv.as_str(), "{moves}");
            assert_eq!(v["score"], solver.solve(&pos), "{moves}");
            let json = run(Kind::Analyze { weak: false }, moves, u64::MAX, true).unwrap();
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(
                v["scores"],
                serde_json::json!(solver.analyze(&pos)),
                "{moves}"
            );
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
            assert_eq!(run(kind, "", 1000, false), Err(Stop::NodeLimit), "{kind:?}");
        }
    }

    /// A review is the review module's, and keeps to the budget.
    #[test]
    fn a_review_is_the_review_modules() {
        for (line, weak) in [
            ("4453", false),
            ("2252576253462244111563365343671351441", true),
        ] {
            let json = run(Kind::Review { weak }, line, u64::MAX, true).unwrap();
            let mut solver = solver(true);
            let board = BoardSize::STANDARD;
            let expected = crate::review::review(solver.as_mut(), board, line, weak).unwrap();
            assert_eq!(json, to_json(&expected), "{line}");
        }
        let limited = run(Kind::Review { weak: false }, "", 1000, false);
        assert_eq!(limited, Err(Stop::NodeLimit));
    }

    #[test]
    fn a_cancelled_query_stops() {
        let q = query(Kind::Analyze { weak: false }, "4453");
        let answer = q.answer(solver(false).as_mut(), u64::MAX, &AtomicBool::new(true));
        assert_eq!(answer, Err(Stop::Cancelled));
    }
}
