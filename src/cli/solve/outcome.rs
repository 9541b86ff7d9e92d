//! What `c4 solve` makes of one input: the outcome (a score, an invalid
//! input, a comment to echo) and its output line, text or JSON.

use std::time::Instant;

use serde::Serialize;

use c4::input::{InputError, Line, ScoreKind};
use c4::rules::moves_to_string;
use c4::{BoardSize, Engine};

use crate::cli::input::{Origin, RawInput};
use crate::cli::status::Status;
use c4::report::{json_solved, to_json};

/// What to compute and print for each input.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Sign of the score only.
    pub weak: bool,
    /// Nodes and microseconds.
    pub stats: bool,
    /// Principal variation.
    pub pv: bool,
    /// JSON lines instead of text.
    pub json: bool,
    /// The board, named in JSON lines.
    pub board: BoardSize,
}

/// The result of one input.
#[derive(Debug)]
pub enum Outcome {
    /// The position and its score.
    Solved {
        /// Which input.
        origin: Origin,
        /// The moves as given, trimmed.
        moves: String,
        /// Exact or weak score.
        score: i32,
        /// Nodes the score's search took.
        nodes: u64,
        /// Microseconds the score's search took.
        micros: u64,
        /// Principal variation (0-based columns), if asked for.
        pv: Option<Vec<usize>>,
    },
    /// The input is not a position.
    Invalid {
        /// Which input.
        origin: Origin,
        /// The input as given, trimmed.
        input: String,
        /// What is wrong with it.
        error: InputError,
    },
    /// A comment line (`# ...`, e.g. a test set's board header): echoed as
    /// it is in text, so that the output still diffs against the set, and
    /// left out of JSON output.
    Comment {
        /// The line, without trailing whitespace.
        text: String,
    },
    /// The solver failed (a bug): reported like an invalid input so that the
    /// output stays aligned.
    Failed {
        /// Which input.
        origin: Origin,
        /// The input as given, trimmed.
        input: String,
    },
}

/// A JSON line for an input that is not a position.
#[derive(Serialize)]
struct JsonInvalid<'a> {
    line: usize,
    input: &'a str,
    error: String,
    /// 1-based character the error is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    character: Option<usize>,
}

impl Outcome {
    /// Whether the input failed (makes the exit status 1).
    pub fn failed(&self) -> bool {
        !matches!(self, Outcome::Solved { .. } | Outcome::Comment { .. })
    }

    /// The message for stderr, if the input failed.
    pub fn error_message(&self) -> Option<String> {
        match self {
            Outcome::Solved { .. } | Outcome::Comment { .. } => None,
            Outcome::Invalid { origin, error, .. } => Some(format!("{origin}: {error}")),
            Outcome::Failed { origin, .. } => {
                Some(format!("{origin}: internal error: the solver failed"))
            }
        }
    }

    /// The stdout line, without its newline; `None` for none.
    pub fn render(&self, opts: &Options) -> Option<String> {
        let line = match self {
            Outcome::Solved {
                origin,
                moves,
                score,
                nodes,
                micros,
                pv,
            } => {
                if opts.json {
                    json_solved(
                        Some(origin.number()),
                        opts.board,
                        moves,
                        *score,
                        opts.weak,
                        opts.stats.then_some((*nodes, *micros)),
                        pv.as_deref(),
                    )
                } else {
                    let pv_text = pv.as_deref().map(moves_to_string);
                    let mut line = format!("{moves} {score}");
                    if opts.stats {
                        line.push_str(&format!(" {nodes} {micros}"));
                    }
                    if let Some(pv) = pv_text {
                        line.push(' ');
                        line.push_str(&pv);
                    }
                    line
                }
            }
            Outcome::Invalid {
                origin,
                input,
                error,
            } => {
                if opts.json {
                    to_json(&JsonInvalid {
                        line: origin.number(),
                        input,
                        error: error.to_string(),
                        character: Some(error.index() + 1),
                    })
                } else {
                    format!("{input} invalid")
                }
            }
            Outcome::Failed { origin, input } => {
                if opts.json {
                    to_json(&JsonInvalid {
                        line: origin.number(),
                        input,
                        error: "internal error: the solver failed".to_owned(),
                        character: None,
                    })
                } else {
                    format!("{input} invalid")
                }
            }
            Outcome::Comment { text } => {
                if opts.json {
                    return None;
                }
                text.clone()
            }
        };
        Some(line)
    }
}

/// Solves one input with a cleared table, so that results do not depend on
/// what was solved before, and tells `status` of its search. The input is
/// read on the board `solver` solves.
pub fn evaluate(
    solver: &mut dyn Engine,
    raw: &RawInput,
    opts: &Options,
    status: &Status,
) -> Outcome {
    let kind = if opts.weak {
        ScoreKind::Weak
    } else {
        ScoreKind::Exact
    };
    let (moves, pos) = match raw.parse(solver.board(), kind) {
        Ok(Line::Position {
            moves, position, ..
        }) => (moves.to_owned(), position),
        Ok(Line::Comment(text)) => {
            return Outcome::Comment {
                text: text.to_owned(),
            };
        }
        Err(error) => {
            return Outcome::Invalid {
                origin: raw.origin,
                input: raw.display_text(),
                error,
            };
        }
    };
    solver.clear();
    solver.reset_node_count();
    let job = status.job(raw.origin, false);
    solver.set_progress(job.progress());
    let start = Instant::now();
    let score = if opts.weak {
        solver.solve_weak(&pos)
    } else {
        solver.solve(&pos)
    };
    let micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
    let nodes = solver.node_count();
    job.scored(score);
    let pv = opts.pv.then(|| solver.principal_variation(&pos));
    solver.set_progress(None);
    Outcome::Solved {
        origin: raw.origin,
        moves,
        score,
        nodes,
        micros,
        pv,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> Options {
        Options {
            weak: false,
            stats: false,
            pv: false,
            json: false,
            board: BoardSize::STANDARD,
        }
    }

    /// [`evaluate`] with no status.
    fn evaluate_quiet(solver: &mut dyn Engine, raw: &RawInput, opts: &Options) -> Outcome {
        evaluate(solver, raw, opts, &Status::quiet())
    }

    /// A solver for `width` x `height` with a 1 MiB table.
    fn engine(width: usize, height: usize) -> Box<dyn Engine> {
        c4::engine::new(BoardSize::new(width, height).unwrap(), 1 << 20).unwrap()
    }

    fn raw(text: &str) -> RawInput {
        RawInput {
            origin: Origin::Line(3),
            bytes: text.as_bytes().to_vec(),
        }
    }

    #[test]
    fn text_lines() {
        let mut solver = engine(7, 6);
        let out = evaluate_quiet(solver.as_mut(), &raw(" 121212 9"), &opts());
        assert_eq!(out.render(&opts()).unwrap(), "121212 18");
        assert!(out.error_message().is_none());
        let bad = evaluate_quiet(solver.as_mut(), &raw("121212 -8x"), &opts());
        assert_eq!(bad.render(&opts()).unwrap(), "121212 -8x invalid");
        assert_eq!(
            bad.error_message().unwrap(),
            "line 3: character 8: '-8x' after the moves is not a score \
             (a line is the moves, then at most a score)"
        );
        // After 6 stones on 7x6 a score is from -18 to 18.
        let bad = evaluate_quiet(solver.as_mut(), &raw("121212\t53"), &opts());
        assert_eq!(bad.render(&opts()).unwrap(), "121212\t53 invalid");
        assert!(
            bad.error_message()
                .unwrap()
                .starts_with("line 3: character 8: 53 is not")
        );
        // A weak solve takes a sign too.
        let weak = Options {
            weak: true,
            ..opts()
        };
        let out = evaluate_quiet(solver.as_mut(), &raw("121212 1"), &weak);
        assert_eq!(out.render(&weak).unwrap(), "121212 1");
        let arg = RawInput {
            origin: Origin::Argument(2),
            bytes: b"44 5".to_vec(),
        };
        let bad = evaluate_quiet(solver.as_mut(), &arg, &opts());
        assert_eq!(
            bad.error_message().unwrap(),
            "argument 2: character 3 (a space) is not a column (1-7)"
        );
    }

    #[test]
    fn empty_board_keeps_an_empty_moves_field() {
        let solved = Outcome::Solved {
            origin: Origin::Line(1),
            moves: String::new(),
            score: 1,
            nodes: 0,
            micros: 0,
            pv: None,
        };
        assert_eq!(solved.render(&opts()).unwrap(), " 1");
    }

    #[test]
    fn json_lines() {
        let o = Options {
            json: true,
            pv: true,
            stats: true,
            ..opts()
        };
        let mut solver = engine(7, 6);
        let out = evaluate_quiet(solver.as_mut(), &raw("121212"), &o)
            .render(&o)
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["line"], 3);
        assert_eq!(v["board_size"], "7x6");
        assert_eq!(v["score"], 18);
        assert_eq!(v["pv"], "1");
        assert_eq!(v["best_move"], 1);
        assert!(v["nodes"].is_u64() && v["micros"].is_u64());
        let bad = evaluate_quiet(solver.as_mut(), &raw("1x"), &o)
            .render(&o)
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(&bad).unwrap();
        assert_eq!(v["character"], 2);
        assert_eq!(v["input"], "1x");
    }

    #[test]
    fn comments_are_echoed_in_text_and_left_out_of_json() {
        let mut solver = engine(7, 6);
        let header = evaluate_quiet(solver.as_mut(), &raw("# board 7x6"), &opts());
        assert!(!header.failed());
        assert_eq!(header.render(&opts()).unwrap(), "# board 7x6");
        let json = Options {
            json: true,
            ..opts()
        };
        assert_eq!(header.render(&json), None);
        let other = evaluate_quiet(solver.as_mut(), &raw("# board 6x5"), &opts());
        assert!(other.failed());
        assert_eq!(other.render(&opts()).unwrap(), "# board 6x5 invalid");
    }

    #[test]
    fn other_boards_score_with_their_own_size() {
        // 4x4: the empty board is a draw; on 6x5 the JSON names the board.
        let o = Options {
            json: true,
            board: BoardSize::new(6, 5).unwrap(),
            ..opts()
        };
        let mut small = engine(4, 4);
        assert_eq!(
            evaluate_quiet(small.as_mut(), &raw(""), &opts())
                .render(&opts())
                .unwrap(),
            " 0"
        );
        let mut solver = engine(6, 5);
        let out = evaluate_quiet(solver.as_mut(), &raw("121212"), &o)
            .render(&o)
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["board_size"], "6x5");
        // X wins with its 4th stone on a 30-cell board: (30 + 1 - 6) / 2.
        assert_eq!(v["score"], 12);
    }
}
