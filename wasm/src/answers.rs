//! The API's answers, built from the library as `c4 serve` builds them: the
//! parameters checked with the same messages, the objects of
//! [`c4::report`], the levels of [`c4::level`].

use std::collections::BTreeMap;

use serde_json::{Value, json};

use c4::input::parse_position;
use c4::level::Level;
use c4::memory::{min_table_bytes, table_bytes};
use c4::report::{json_solved, summarize};
use c4::rng::SplitMix64;
use c4::{AnyBook, BoardSize, Engine, Game, Score};

/// The parameters of a request: name to value, as the query string has them.
pub type Params = BTreeMap<String, String>;

/// An answer: the HTTP status `c4 serve` would give and its JSON object.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// 200, or the status of the error.
    pub status: u16,
    /// The object.
    pub body: Value,
}

impl Answer {
    /// A 200 answer of `body`, JSON text made by the library.
    fn ok(body: &str) -> Answer {
        let body = serde_json::from_str(body).expect("the library writes JSON");
        Answer { status: 200, body }
    }

    /// An error `{"error": message}`.
    pub fn error(status: u16, message: &str) -> Answer {
        Answer {
            status,
            body: json!({ "error": message }),
        }
    }

    /// A 400 about parameter `name`, given as `input`, as the server words
    /// it (with the 1-based `character` for a position).
    fn bad(name: &str, input: &str, message: &str, character: Option<usize>) -> Answer {
        let mut body = json!({ "error": message, "parameter": name, "input": input });
        if let Some(character) = character {
            body["character"] = json!(character);
        }
        Answer { status: 400, body }
    }

    /// `{"status": ..., "body": ...}`.
    pub fn to_json(&self) -> String {
        json!({ "status": self.status, "body": self.body }).to_string()
    }
}

/// The worker's solver, for one board at a time, and the built-in book.
#[derive(Default)]
pub struct Solvers {
    /// The solver of the board last asked about.
    engine: Option<Box<dyn Engine>>,
    /// The 7x6 book, decoded when first needed.
    book: Option<AnyBook>,
}

impl Solvers {
    /// The solver of `board`, with the built-in book when the board has one
    /// (the one of another board is dropped first: one table at a time).
    fn for_board(&mut self, board: BoardSize) -> &mut dyn Engine {
        if self.engine.as_ref().is_none_or(|e| e.board() != board) {
            self.engine = None;
            let mut engine = c4::engine::new(board, solver_table_bytes(board))
                .expect("the table is sized for the board's keys");
            if let Some(Ok(book)) = self.book_of(board) {
                engine.set_book(Some(book)).expect("the board's own book");
            }
            self.engine = Some(engine);
        }
        self.engine.as_deref_mut().expect("made above")
    }

    /// The built-in book of `board`, if it has one.
    fn book_of(&mut self, board: BoardSize) -> Option<Result<AnyBook, String>> {
        if let Some(book) = self.book.as_ref().filter(|b| b.board() == board) {
            return Some(Ok(book.clone()));
        }
        let book = AnyBook::builtin(board)?.map_err(|e| e.to_string());
        if let Ok(book) = &book {
            self.book = Some(book.clone());
        }
        Some(book)
    }
}

/// The table of the solver of `board`: [`TABLE_BYTES`](crate::TABLE_BYTES),
/// or the least the board's keys need when that is more.
pub fn solver_table_bytes(board: BoardSize) -> usize {
    if table_bytes(crate::TABLE_BYTES, board.key_bits()).is_some() {
        crate::TABLE_BYTES
    } else {
        min_table_bytes(board.key_bits())
    }
}

/// The answer of `path` to `params`.
pub fn answer(solvers: &mut Solvers, path: &str, params: &Params) -> Answer {
    route(solvers, path, params).unwrap_or_else(|error| error)
}

/// [`answer`], errors apart.
fn route(solvers: &mut Solvers, path: &str, params: &Params) -> Result<Answer, Answer> {
    match path {
        "/api/info" => {
            allow(params, &[])?;
            Ok(info())
        }
        "/api/analyze" | "/api/solve" => {
            allow(params, &["moves", "width", "height", "weak"])?;
            let (board, moves, game) = position(params)?;
            let weak = params.get("weak").map_or(Ok(false), |v| flag("weak", v))?;
            let solver = solvers.for_board(board);
            Ok(if path == "/api/analyze" {
                analyze(solver, moves, &game, weak)
            } else {
                solve(solver, moves, &game, weak)
            })
        }
        "/api/move" => {
            allow(params, &["moves", "width", "height", "level", "seed"])?;
            let (board, moves, game) = position(params)?;
            let level = match params.get("level") {
                None => {
                    return Err(Answer::bad(
                        "level",
                        "",
                        "parameter 'level' is missing: 0 (beginner) to 4 (perfect)",
                        None,
                    ));
                }
                Some(v) => Level::new(number("level", v)?)
                    .map_err(|e| Answer::bad("level", v, &e.to_string(), None))?,
            };
            let seed = match params.get("seed") {
                Some(v) => number("seed", v)?,
                None => fresh_seed(),
            };
            if game.is_game_over() {
                return Err(Answer::bad(
                    "moves",
                    moves,
                    "the game is over: there is no move to play",
                    None,
                ));
            }
            Ok(play_move(
                solvers.for_board(board),
                moves,
                &game,
                level,
                seed,
            ))
        }
        _ => Err(Answer::error(404, &format!("no such page: {path}"))),
    }
}

/// Refuses a parameter not in `allowed`, as the server does.
fn allow(params: &Params, allowed: &[&str]) -> Result<(), Answer> {
    match params
        .iter()
        .find(|(name, _)| !allowed.contains(&name.as_str()))
    {
        None => Ok(()),
        Some((name, value)) => Err(Answer::bad(
            name,
            value,
            &format!(
                "unknown parameter '{name}' (this route takes {})",
                allowed.join(", ")
            ),
            None,
        )),
    }
}

/// A whole number parameter.
fn number(name: &str, value: &str) -> Result<u64, Answer> {
    value.parse::<u64>().map_err(|_| {
        let message = format!("parameter '{name}': '{value}' is not a whole number");
        Answer::bad(name, value, &message, None)
    })
}

/// A yes/no parameter: 1, true or yes; 0, false or no (or empty: yes).
fn flag(name: &str, value: &str) -> Result<bool, Answer> {
    match value.to_ascii_lowercase().as_str() {
        "" | "1" | "true" | "yes" => Ok(true),
        "0" | "false" | "no" => Ok(false),
        _ => {
            let message = format!("parameter '{name}': '{value}' is not 1 or 0");
            Err(Answer::bad(name, value, &message, None))
        }
    }
}

/// The board (`width`, `height`, 7x6 by default) and the position of
/// `moves` on it, checked as `c4 analyze` checks it.
fn position(params: &Params) -> Result<(BoardSize, &str, Game), Answer> {
    let dimension =
        |name: &str, default: u64| params.get(name).map_or(Ok(default), |v| number(name, v));
    let (width, height) = (dimension("width", 7)?, dimension("height", 6)?);
    let board = BoardSize::new(width as usize, height as usize).map_err(|e| {
        let (name, input) = c4::report::refused_board_parameter(width, height);
        Answer::bad(name, &input, &e.to_string(), None)
    })?;
    let text = params.get("moves").map_or("", String::as_str);
    let (moves, game) = parse_position(board, text.as_bytes())
        .map_err(|e| Answer::bad("moves", text, &e.to_string(), Some(e.index() + 1)))?;
    Ok((board, moves, game))
}

/// `/api/info`: the boards (every one: the worker's table is sized for
/// each), the levels; the server's limits are absent (`null`): the browser
/// has one solver, no queue and no node limit.
fn info() -> Answer {
    let boards: Vec<Value> = BoardSize::all()
        .map(|b| {
            let book = AnyBook::builtin(b).is_some_and(|book| book.is_ok());
            json!({ "width": b.width(), "height": b.height(), "book": book })
        })
        .collect();
    let levels: Vec<Value> = Level::all()
        .map(|l| json!({ "level": l.number(), "name": l.name(), "description": l.description() }))
        .collect();
    Answer {
        status: 200,
        body: json!({
            "version": env!("CARGO_PKG_VERSION"),
            "boards": boards,
            "levels": levels,
            "max_nodes": null,
            "workers": 1,
            "queue_capacity": 0,
            "max_connections": null,
            "header_timeout": null,
            "idle_timeout": null,
        }),
    }
}

/// `/api/analyze`: the object of `c4 analyze --json`.
fn analyze(solver: &mut dyn Engine, moves: &str, game: &Game, weak: bool) -> Answer {
    let scores = solver.analyze(game);
    let scores = if weak {
        scores.into_iter().map(|s| s.map(Score::signum)).collect()
    } else {
        scores
    };
    let analysis = summarize(solver, moves.to_owned(), game, weak, scores);
    Answer::ok(&serde_json::to_string(&analysis).expect("plain structs serialize"))
}

/// `/api/solve`: the object of `c4 solve --json --pv`.
fn solve(solver: &mut dyn Engine, moves: &str, game: &Game, weak: bool) -> Answer {
    let score = solver.solve(game);
    let pv = solver.principal_variation(game);
    let score = if weak { score.signum() } else { score };
    Answer::ok(&json_solved(
        1,
        game.board(),
        moves,
        score,
        weak,
        None,
        Some(&pv),
    ))
}

/// `/api/move`: the move of `level`.
fn play_move(solver: &mut dyn Engine, moves: &str, game: &Game, level: Level, seed: u64) -> Answer {
    let mut rng = SplitMix64::new(seed);
    let Ok(choice) = level.choose(game, &mut rng, || {
        Ok::<_, std::convert::Infallible>(solver.analyze(game))
    });
    Answer {
        status: 200,
        body: json!({
            "board_size": game.board().to_string(),
            "moves": moves,
            "level": level.number(),
            "level_name": level.name(),
            "seed": seed,
            "move": choice.column + 1,
            "mistake": choice.mistake,
        }),
    }
}

/// A seed for a request that gives none: a counter, mixed. The worker
/// (`web/worker.js`) gives every move request a random seed from the
/// browser, so this only serves callers that do not.
fn fresh_seed() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    SplitMix64::new(COUNTER.fetch_add(1, Ordering::Relaxed)).next_u64()
}

/// Solves the test-set lines of `lines` on `width` x `height` as `c4 bench
/// --no-book` does (see [`crate::bench`]).
pub fn bench(width: usize, height: usize, lines: &str, table: usize) -> Value {
    let Ok(board) = BoardSize::new(width, height) else {
        return json!({ "error": format!("no {width}x{height} board") });
    };
    let mut solver = c4::engine::new(board, table.max(min_table_bytes(board.key_bits())))
        .expect("the table is sized for the board's keys");
    let (mut positions, mut mismatches) = (0u64, 0u64);
    for line in lines
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
    {
        let mut fields = line.split_whitespace();
        let (Some(moves), Some(expected)) = (fields.next(), fields.next()) else {
            return json!({ "error": format!("not a test-set line: {line}") });
        };
        let (Ok(game), Ok(expected)) = (Game::parse(board, moves), expected.parse::<Score>())
        else {
            return json!({ "error": format!("not a test-set line: {line}") });
        };
        solver.clear();
        positions += 1;
        if solver.solve(&game) != expected {
            mismatches += 1;
        }
    }
    json!({ "positions": positions, "nodes": solver.node_count(), "mismatches": mismatches })
}
