//! The page's API, one piece of code for both of its back ends (`c4 serve`
//! and the static site's WebAssembly worker): which routes there are, what
//! each takes, its parameters read and checked (a refusal names the
//! parameter, what was given and why, and the character for a position),
//! and each route's answer built as its JSON object.
//!
//! No I/O and no threads: a back end decodes the request's parameters into
//! name-value pairs, calls [`read`], and either sends the [`Refusal`] or
//! computes the [`Query`] with [`Query::answer`] on a solver of its own. What
//! only a server has (connections, queues, node limits, the table's size) it
//! keeps to itself: [`Query::answer`] takes the node budget and the cancel
//! flag, [`info`] the limits to report.

mod answer;

use serde_json::{Value, json};

use crate::input::parse_moves;
use crate::level::Level;
use crate::{BoardSize, Game};

pub use answer::Stop;

/// A route of the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// `/api/info`: the boards, the levels and the back end's limits.
    Info,
    /// `/api/status`: the server's workers and connections (the worker of
    /// the static site has none: it does not answer it).
    Status,
    /// `/api/analyze`: the object of `c4 analyze --json`.
    Analyze,
    /// `/api/solve`: the object of `c4 solve --json --pv`.
    Solve,
    /// `/api/move`: the move of a level.
    Move,
    /// `/api/review`: the review of a game, move by move ([`crate::review`]).
    Review,
}

impl Route {
    /// Every route.
    pub const ALL: [Route; 6] = [
        Route::Info,
        Route::Status,
        Route::Analyze,
        Route::Solve,
        Route::Move,
        Route::Review,
    ];

    /// The route of `path` (`/api/analyze`, ...), if it is one.
    pub fn from_path(path: &str) -> Option<Route> {
        Route::ALL.into_iter().find(|r| r.path() == path)
    }

    /// Its path.
    pub fn path(self) -> &'static str {
        match self {
            Route::Info => "/api/info",
            Route::Status => "/api/status",
            Route::Analyze => "/api/analyze",
            Route::Solve => "/api/solve",
            Route::Move => "/api/move",
            Route::Review => "/api/review",
        }
    }

    /// The parameters it takes.
    pub fn parameters(self) -> &'static [&'static str] {
        match self {
            Route::Info | Route::Status => &[],
            Route::Analyze | Route::Solve | Route::Review => &["moves", "width", "height", "weak"],
            Route::Move => &["moves", "width", "height", "level", "seed"],
        }
    }
}

/// A request that is not answered: its HTTP status and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// 400 for a bad parameter, 404 for no such route.
    pub status: u16,
    /// What is wrong.
    pub message: String,
    /// The parameter at fault, and its value as given.
    pub parameter: Option<(String, String)>,
    /// The 1-based character of the parameter's value the error is about.
    pub character: Option<usize>,
}

impl Refusal {
    /// 400 about parameter `name`, given as `input`.
    fn bad(name: &str, input: &str, message: String) -> Refusal {
        Refusal {
            status: 400,
            message,
            parameter: Some((name.to_owned(), input.to_owned())),
            character: None,
        }
    }

    /// 404: `path` is no page.
    pub fn not_found(path: &str) -> Refusal {
        Refusal {
            status: 404,
            message: format!("no such page: {path}"),
            parameter: None,
            character: None,
        }
    }

    /// The JSON object: `{"error", "parameter", "input", "character"}`,
    /// the last three when known.
    pub fn to_json(&self) -> Value {
        let mut body = json!({ "error": self.message });
        if let Some((name, input)) = &self.parameter {
            body["parameter"] = json!(name);
            body["input"] = json!(input);
        }
        if let Some(character) = self.character {
            body["character"] = json!(character);
        }
        body
    }
}

/// A request read and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// `/api/info`: answered with [`info`] and the back end's limits.
    Info,
    /// `/api/status`: the server's own.
    Status,
    /// A position to compute an answer for.
    Query(Query),
}

/// A question about a position: what [`Query::answer`] computes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// The board.
    pub board: BoardSize,
    /// The moves, trimmed, as the answer repeats them.
    pub moves: String,
    /// The position they lead to.
    pub game: Game,
    /// What to compute.
    pub kind: Kind,
}

/// What a [`Query`] asks for.
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
    /// Every move of the game judged against perfect play (the object of
    /// [`crate::review::Review`]).
    Review {
        /// Signs only: win, draw or loss.
        weak: bool,
    },
}

/// Reads the parameters of a request to `route`: `params` are the name-value
/// pairs of its query string, decoded, in order. Each parameter must be one
/// the route takes, given at most once. `fresh_seed` gives the seed of a
/// `/api/move` that names none (the back ends draw it differently).
pub fn read<'a>(
    route: Route,
    params: impl IntoIterator<Item = (&'a str, &'a str)>,
    fresh_seed: impl FnOnce() -> u64,
) -> Result<Request, Refusal> {
    let allowed = route.parameters();
    let mut seen: Vec<&str> = Vec::new();
    let (mut moves, mut width, mut height) = ("", None, None);
    let (mut weak, mut level, mut seed) = (false, None, None);
    for (name, value) in params {
        if !allowed.contains(&name) {
            let message = if allowed.is_empty() {
                format!("unknown parameter '{name}' (this route takes no parameters)")
            } else {
                let takes = allowed.join(", ");
                format!("unknown parameter '{name}' (this route takes {takes})")
            };
            return Err(Refusal::bad(name, value, message));
        }
        if seen.contains(&name) {
            let message = format!("parameter '{name}' is given twice");
            return Err(Refusal::bad(name, value, message));
        }
        seen.push(name);
        match name {
            "moves" => moves = value,
            "width" => width = Some(number(name, value)?),
            "height" => height = Some(number(name, value)?),
            "weak" => weak = flag(name, value)?,
            "level" => {
                let n = number(name, value)?;
                let checked =
                    Level::new(n).map_err(|e| Refusal::bad(name, value, e.to_string()))?;
                level = Some(checked);
            }
            "seed" => seed = Some(number(name, value)?),
            _ => unreachable!("every allowed parameter is read"),
        }
    }
    let board = board(width.unwrap_or(7), height.unwrap_or(6))?;
    match route {
        Route::Info => return Ok(Request::Info),
        Route::Status => return Ok(Request::Status),
        _ => {}
    }
    let (trimmed, game) = position(board, moves)?;
    let kind = match route {
        Route::Info | Route::Status => unreachable!("answered above"),
        Route::Analyze => Kind::Analyze { weak },
        Route::Solve => Kind::Solve { weak },
        Route::Review => Kind::Review { weak },
        Route::Move => {
            let Some(level) = level else {
                let message = "parameter 'level' is missing: 0 (beginner) to 4 (perfect)";
                return Err(Refusal::bad("level", "", message.to_owned()));
            };
            if game.is_game_over() {
                let message = "the game is over: there is no move to play";
                return Err(Refusal::bad("moves", moves, message.to_owned()));
            }
            Kind::Move {
                level,
                seed: seed.unwrap_or_else(fresh_seed),
            }
        }
    };
    Ok(Request::Query(Query {
        board,
        moves: trimmed.to_owned(),
        game,
        kind,
    }))
}

/// A whole number parameter.
fn number(name: &str, value: &str) -> Result<u64, Refusal> {
    value.parse::<u64>().map_err(|_| {
        let message = format!("parameter '{name}': '{value}' is not a whole number");
        Refusal::bad(name, value, message)
    })
}

/// A yes/no parameter: 1, true or yes; 0, false or no (or empty: yes).
fn flag(name: &str, value: &str) -> Result<bool, Refusal> {
    match value.to_ascii_lowercase().as_str() {
        "" | "1" | "true" | "yes" => Ok(true),
        "0" | "false" | "no" => Ok(false),
        _ => {
            let message = format!("parameter '{name}': '{value}' is not 1 or 0");
            Err(Refusal::bad(name, value, message))
        }
    }
}

/// The board `width` x `height`, or the refusal blaming the side at fault.
fn board(width: u64, height: u64) -> Result<BoardSize, Refusal> {
    BoardSize::new(width as usize, height as usize).map_err(|e| {
        let (name, input) = crate::report::refused_board_parameter(width, height);
        Refusal::bad(name, &input, e.to_string())
    })
}

/// The position of the move string `moves` on `board` (see
/// [`crate::input`]): the error names the character and the reason.
fn position(board: BoardSize, moves: &str) -> Result<(&str, Game), Refusal> {
    parse_moves(board, moves.as_bytes()).map_err(|e| Refusal {
        character: Some(e.index() + 1),
        ..Refusal::bad("moves", moves, e.to_string())
    })
}

/// What a back end reports of its limits in `/api/info` (`None`: it has no
/// such limit, written `null`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// The most nodes one request may search.
    pub max_nodes: Option<u64>,
    /// The most seconds one request may search.
    pub max_seconds: Option<f64>,
    /// The solvers at work.
    pub workers: usize,
    /// The requests that may wait for one.
    pub queue_capacity: usize,
    /// The connections open at once.
    pub max_connections: Option<usize>,
    /// Seconds a request's header may take to come.
    pub header_timeout: Option<f64>,
    /// Seconds a connection may stay idle.
    pub idle_timeout: Option<f64>,
}

/// The object of `/api/info`: `boards` (each with whether an opening book
/// answers its first positions at once), every level, and `limits`.
pub fn info(boards: impl IntoIterator<Item = (BoardSize, bool)>, limits: &Limits) -> Value {
    let boards: Vec<Value> = boards
        .into_iter()
        .map(|(b, book)| json!({ "width": b.width(), "height": b.height(), "book": book }))
        .collect();
    let levels: Vec<Value> = Level::all()
        .map(|l| json!({ "level": l.number(), "name": l.name(), "description": l.description() }))
        .collect();
    json!({
        "version": env!("CARGO_PKG_VERSION"),
        "boards": boards,
        "levels": levels,
        "max_nodes": limits.max_nodes,
        "max_seconds": limits.max_seconds,
        "workers": limits.workers,
        "queue_capacity": limits.queue_capacity,
        "max_connections": limits.max_connections,
        "header_timeout": limits.header_timeout,
        "idle_timeout": limits.idle_timeout,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_pairs(route: Route, pairs: &[(&str, &str)]) -> Result<Request, Refusal> {
        read(route, pairs.iter().copied(), || 7)
    }

    #[test]
    fn every_route_has_its_path() {
        for route in Route::ALL {
            assert_eq!(Route::from_path(route.path()), Some(route));
        }
        assert_eq!(Route::from_path("/api/nothing"), None);
    }

    #[test]
    fn a_query_is_read_with_its_defaults() {
        let Ok(Request::Query(q)) = read_pairs(Route::Move, &[("moves", " 4453 "), ("level", "2")])
        else {
            panic!("read");
        };
        assert_eq!(q.board, BoardSize::STANDARD);
        assert_eq!(q.moves, "4453");
        assert_eq!(q.game.moves_played(), 4);
        assert_eq!(
            q.kind,
            Kind::Move {
                level: Level::new(2).unwrap(),
                seed: 7
            }
        );
    }

    #[test]
    fn refusals_name_the_parameter_and_the_character() {
        let e = read_pairs(Route::Analyze, &[("moves", "44x")]).unwrap_err();
        assert_eq!(e.status, 400);
        assert_eq!(e.parameter, Some(("moves".into(), "44x".into())));
        assert_eq!(e.character, Some(3));
        let e = read_pairs(Route::Analyze, &[("moves", "4"), ("moves", "5")]).unwrap_err();
        assert!(e.message.contains("given twice"), "{e:?}");
        let e = read_pairs(Route::Info, &[("x", "1")]).unwrap_err();
        assert_eq!(e.to_json()["parameter"], "x");
        assert_eq!(
            e.message,
            "unknown parameter 'x' (this route takes no parameters)"
        );
        let e = read_pairs(Route::Solve, &[("x", "1")]).unwrap_err();
        assert!(
            e.message
                .ends_with("(this route takes moves, width, height, weak)")
        );
        // The moves are a move string alone: no score may follow them.
        for (moves, message) in [
            ("44 53", "character 3 (a space) is not a column (1-7)"),
            ("44\t53", "character 3 (a tab) is not a column (1-7)"),
            ("44 5", "character 3 (a space) is not a column (1-7)"),
        ] {
            let e = read_pairs(Route::Solve, &[("moves", moves)]).unwrap_err();
            assert_eq!((e.status, e.character), (400, Some(3)), "{moves:?}");
            assert_eq!(e.message, message);
        }
        let e = read_pairs(Route::Move, &[("moves", "1212121"), ("level", "0")]).unwrap_err();
        assert!(e.message.contains("the game is over"), "{e:?}");
        let e = read_pairs(Route::Analyze, &[("width", "11"), ("height", "11")]).unwrap_err();
        assert_eq!(e.parameter, Some(("board".into(), "11x11".into())));
    }
}
