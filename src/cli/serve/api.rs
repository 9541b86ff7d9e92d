//! The routes of `c4 serve`: the page, the JSON API, and the answers to
//! everything else (400, 404, 405, 413, 414, 422, 503), each a JSON object.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::extract::{RawQuery, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use serde_json::json;
use tokio::sync::{oneshot, watch};

use c4::BoardSize;
use c4::level::Level;
use c4::memory::{Bytes, min_table_bytes, table_bytes};
use c4::rng::SplitMix64;

use super::App;
use super::assets;
use super::compute::{Kind, Reply, Task};
use super::connections::ConnectionStatus;
use super::pool::{Status, SubmitError};
use c4::input::parse_position;

/// The longest URL (path and query) accepted: a position has at most 124
/// moves (4x31), so 2 KiB leaves room for any encoding of every parameter.
pub const MAX_URI_BYTES: usize = 2048;

/// The seconds a client told 503 is asked to wait.
const RETRY_AFTER_SECONDS: u32 = 1;

/// How long a search under way may go on once the server is stopping: one
/// that ends within it is answered, any other is stopped and answered 503.
pub const SEARCH_GRACE: Duration = Duration::from_millis(500);

/// The nodes a request's searches took, attached to its response for the
/// request log (`--log`).
#[derive(Debug, Clone, Copy)]
pub struct NodesSearched(pub u64);

/// The application's routes.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/favicon.svg", get(assets::favicon))
        .route("/api/analyze", get(analyze))
        .route("/api/solve", get(solve))
        .route("/api/move", get(play_move))
        .route("/api/info", get(info))
        .route("/api/status", get(status))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn(limit_request_size))
        .with_state(app)
}

/// A JSON response.
fn json_response(status: StatusCode, body: String) -> Response {
    let mut response = (status, body).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A JSON error `{"error": message, ...extra}`.
fn error(status: StatusCode, message: &str, extra: serde_json::Value) -> Response {
    let mut body = json!({ "error": message });
    if let (Some(body), serde_json::Value::Object(extra)) = (body.as_object_mut(), extra) {
        body.extend(extra);
    }
    json_response(status, body.to_string() + "\n")
}

/// Turns away requests with a body (the API only reads its URL) and URLs
/// over [`MAX_URI_BYTES`], before any routing.
async fn limit_request_size(request: Request, next: Next) -> Response {
    let uri_len = request
        .uri()
        .path_and_query()
        .map_or(0, |pq| pq.as_str().len());
    if uri_len > MAX_URI_BYTES {
        return error(
            StatusCode::URI_TOO_LONG,
            &format!("the URL is {uri_len} bytes long: at most {MAX_URI_BYTES} are accepted"),
            json!({}),
        );
    }
    let headers = request.headers();
    let has_body = headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .is_some_and(|len| len.as_bytes() != b"0");
    if has_body {
        return error(
            StatusCode::PAYLOAD_TOO_LARGE,
            "this server takes no request body: the parameters go in the URL",
            json!({}),
        );
    }
    next.run(request).await
}

/// 404 for every unknown path.
async fn not_found(request: Request) -> Response {
    error(
        StatusCode::NOT_FOUND,
        &format!("no such page: {}", request.uri().path()),
        json!({}),
    )
}

/// 405 for a method other than GET (or HEAD) on a known path.
async fn method_not_allowed(request: Request) -> Response {
    let mut response = error(
        StatusCode::METHOD_NOT_ALLOWED,
        &format!(
            "{} is not allowed on {}: use GET",
            request.method(),
            request.uri().path()
        ),
        json!({}),
    );
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
    response
}

/// A parameter that is wrong: 400 with the parameter's name, what was given
/// and why it is wrong (and the 1-based character for a position).
#[derive(Debug)]
struct BadParameter {
    /// The parameter.
    name: String,
    /// Its value as given.
    input: String,
    /// What is wrong.
    message: String,
    /// The 1-based character of `input` the error is about.
    character: Option<usize>,
}

impl IntoResponse for BadParameter {
    fn into_response(self) -> Response {
        let mut extra = json!({ "parameter": self.name, "input": self.input });
        if let Some(character) = self.character {
            extra["character"] = json!(character);
        }
        error(StatusCode::BAD_REQUEST, &self.message, extra)
    }
}

impl BadParameter {
    /// An error about parameter `name` given as `input`.
    fn new(name: &str, input: &str, message: String) -> Self {
        BadParameter {
            name: name.to_owned(),
            input: input.to_owned(),
            message,
            character: None,
        }
    }
}

/// The parameters of an API request.
#[derive(Debug, Default)]
struct Params {
    /// The moves (empty for the empty board).
    moves: String,
    /// The board.
    board: Option<BoardSize>,
    /// Signs only.
    weak: bool,
    /// The level of `/api/move`.
    level: Option<Level>,
    /// The seed of `/api/move`.
    seed: Option<u64>,
}

/// Reads the query string, accepting only the parameters in `allowed`,
/// each at most once.
fn parse_params(query: Option<&str>, allowed: &[&str]) -> Result<Params, BadParameter> {
    let mut params = Params::default();
    let mut seen: Vec<String> = Vec::new();
    let (mut width, mut height) = (None, None);
    for (name, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        let (name, value) = (name.as_ref(), value.as_ref());
        if !allowed.contains(&name) {
            return Err(BadParameter::new(
                name,
                value,
                format!(
                    "unknown parameter '{name}' (this route takes {})",
                    allowed.join(", ")
                ),
            ));
        }
        if seen.iter().any(|s| s == name) {
            return Err(BadParameter::new(
                name,
                value,
                format!("parameter '{name}' is given twice"),
            ));
        }
        seen.push(name.to_owned());
        match name {
            "moves" => params.moves = value.to_owned(),
            "width" => width = Some(number(name, value)?),
            "height" => height = Some(number(name, value)?),
            "weak" => params.weak = flag(name, value)?,
            "level" => {
                let n = number(name, value)?;
                params.level =
                    Some(Level::new(n).map_err(|e| BadParameter::new(name, value, e.to_string()))?);
            }
            "seed" => params.seed = Some(number(name, value)?),
            _ => unreachable!("every allowed parameter is read"),
        }
    }
    let (width, height) = (width.unwrap_or(7), height.unwrap_or(6));
    let board = BoardSize::new(width as usize, height as usize).map_err(|e| {
        let (name, input) = c4::report::refused_board_parameter(width, height);
        BadParameter::new(name, &input, e.to_string())
    })?;
    params.board = Some(board);
    Ok(params)
}

/// A whole number parameter.
fn number(name: &str, value: &str) -> Result<u64, BadParameter> {
    value.parse::<u64>().map_err(|_| {
        BadParameter::new(
            name,
            value,
            format!("parameter '{name}': '{value}' is not a whole number"),
        )
    })
}

/// A yes/no parameter: 1, true or yes; 0, false or no (or empty: yes).
fn flag(name: &str, value: &str) -> Result<bool, BadParameter> {
    match value.to_ascii_lowercase().as_str() {
        "" | "1" | "true" | "yes" => Ok(true),
        "0" | "false" | "no" => Ok(false),
        _ => Err(BadParameter::new(
            name,
            value,
            format!("parameter '{name}': '{value}' is not 1 or 0"),
        )),
    }
}

/// Checks the position `moves` on `board`, as `c4 analyze` does: the error
/// names the character and the reason. Gives whether its game is over.
fn check_moves(board: BoardSize, moves: &str) -> Result<bool, BadParameter> {
    match parse_position(board, moves.as_bytes()) {
        Ok((_, position)) => Ok(position.is_game_over()),
        Err(e) => Err(BadParameter {
            name: "moves".to_owned(),
            input: moves.to_owned(),
            message: e.to_string(),
            character: Some(e.index() + 1),
        }),
    }
}

/// Sets the cancel flag of a request when its handler is dropped before the
/// answer came: the client has gone (hyper drops the handler of a closed
/// connection).
struct CancelOnDrop {
    /// The request's flag.
    flag: Arc<AtomicBool>,
    /// Whether the answer came.
    done: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if !self.done {
            self.flag.store(true, Ordering::Relaxed);
        }
    }
}

/// Queues `task` and waits for its answer.
async fn compute(app: &App, task: Task) -> Response {
    if let Some(refusal) = table_too_small(app, task.board) {
        return refusal;
    }
    let flag = Arc::new(AtomicBool::new(false));
    let mut guard = CancelOnDrop {
        flag: Arc::clone(&flag),
        done: false,
    };
    let mut answer = match app.pool.submit(task, flag) {
        Ok(answer) => answer,
        Err(SubmitError::Full) => {
            guard.done = true;
            let mut response = error(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy: every solver is at work and the queue is full; try again shortly",
                json!({}),
            );
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECONDS));
            return response;
        }
        Err(SubmitError::Closed) => {
            guard.done = true;
            return failed();
        }
    };
    let outcome = tokio::select! {
        outcome = &mut answer => outcome,
        () = grace_over(app.stopping.subscribe()) => {
            // The guard, dropped unanswered, stops the search.
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is stopping: the search was stopped before its answer",
                json!({}),
            );
        }
    };
    guard.done = true;
    let nodes = outcome.as_ref().map_or(0, |o| o.nodes);
    let mut response = answer_response(outcome.map(|o| o.reply));
    response.extensions_mut().insert(NodesSearched(nodes));
    response
}

/// Completes [`SEARCH_GRACE`] after the server starts stopping (never if it
/// does not).
async fn grace_over(mut stopping: watch::Receiver<bool>) {
    if stopping.wait_for(|stop| *stop).await.is_err() {
        std::future::pending::<()>().await;
    }
    tokio::time::sleep(SEARCH_GRACE).await;
}

/// The response of a worker's reply (an error if the worker dropped it).
fn answer_response(reply: Result<Reply, oneshot::error::RecvError>) -> Response {
    match reply {
        Ok(Reply::Json(body)) => json_response(StatusCode::OK, body),
        Ok(Reply::NodeLimit { max_nodes }) => error(
            StatusCode::UNPROCESSABLE_ENTITY,
            &format!(
                "node limit reached: the answer needs more than the {max_nodes} nodes this \
                 server searches for one request (c4 serve --max-nodes)"
            ),
            json!({ "limit": "nodes", "max_nodes": max_nodes }),
        ),
        Ok(Reply::Cancelled | Reply::Failed) | Err(_) => failed(),
    }
}

/// 422 when the server's table (`--tt-size`) is too small for the keys of
/// `board`: its solver could not be made. `None` when it fits.
fn table_too_small(app: &App, board: BoardSize) -> Option<Response> {
    if serves(app, board) {
        return None;
    }
    let needed = min_table_bytes(board.key_bits());
    Some(error(
        StatusCode::UNPROCESSABLE_ENTITY,
        &format!(
            "table too small: the {board} board needs a table of at least {}, and this \
             server's is {} (c4 serve --tt-size)",
            Bytes(needed),
            Bytes(app.table_bytes)
        ),
        json!({ "limit": "table", "needed_bytes": needed, "table_bytes": app.table_bytes }),
    ))
}

/// Whether the server's table fits the keys of `board`.
pub fn serves(app: &App, board: BoardSize) -> bool {
    table_bytes(app.table_bytes, board.key_bits()).is_some()
}

/// 500: the solver failed.
fn failed() -> Response {
    error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal error: the solver failed",
        json!({}),
    )
}

/// Reads and checks the parameters of a computing route: the board, the
/// moves, and whether the game is over.
fn task_params(
    query: Option<&str>,
    allowed: &[&str],
) -> Result<(Params, BoardSize, bool), BadParameter> {
    let params = parse_params(query, allowed)?;
    let board = params.board.expect("parse_params sets the board");
    let over = check_moves(board, &params.moves)?;
    Ok((params, board, over))
}

/// `GET /api/analyze`: the object of `c4 analyze --json`.
async fn analyze(State(app): State<Arc<App>>, RawQuery(query): RawQuery) -> Response {
    position_task(&app, query.as_deref(), |weak| Kind::Analyze { weak }).await
}

/// `GET /api/solve`: the object of `c4 solve --json --pv`.
async fn solve(State(app): State<Arc<App>>, RawQuery(query): RawQuery) -> Response {
    position_task(&app, query.as_deref(), |weak| Kind::Solve { weak }).await
}

/// The task of a route that takes a position and `weak` (analyze, solve),
/// computed; or the parameters' error.
async fn position_task(app: &App, query: Option<&str>, kind: impl Fn(bool) -> Kind) -> Response {
    let allowed = ["moves", "width", "height", "weak"];
    let (params, board, _) = match task_params(query, &allowed) {
        Ok(p) => p,
        Err(e) => return e.into_response(),
    };
    let task = Task {
        board,
        moves: params.moves,
        kind: kind(params.weak),
        max_nodes: app.max_nodes,
    };
    compute(app, task).await
}

/// A seed for a request that gives none: the clock and a counter, mixed.
fn fresh_seed() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    SplitMix64::new(nanos ^ n.rotate_left(32)).next_u64()
}

/// `GET /api/move`: the move of a level.
async fn play_move(State(app): State<Arc<App>>, RawQuery(query): RawQuery) -> Response {
    let allowed = ["moves", "width", "height", "level", "seed"];
    let (params, board, over) = match task_params(query.as_deref(), &allowed) {
        Ok(p) => p,
        Err(e) => return e.into_response(),
    };
    let Some(level) = params.level else {
        return BadParameter::new(
            "level",
            "",
            "parameter 'level' is missing: 0 (beginner) to 4 (perfect)".to_owned(),
        )
        .into_response();
    };
    if over {
        return BadParameter::new(
            "moves",
            &params.moves,
            "the game is over: there is no move to play".to_owned(),
        )
        .into_response();
    }
    let task = Task {
        board,
        moves: params.moves,
        kind: Kind::Move {
            level,
            seed: params.seed.unwrap_or_else(fresh_seed),
        },
        max_nodes: app.max_nodes,
    };
    compute(&app, task).await
}

/// One board of `/api/info`.
#[derive(Serialize)]
struct BoardInfo {
    width: usize,
    height: usize,
    /// Whether an opening book answers its earliest positions at once.
    book: bool,
}

/// One level of `/api/info`.
#[derive(Serialize)]
struct LevelInfo {
    level: u8,
    name: &'static str,
    description: &'static str,
}

/// `GET /api/info`: the boards, the levels and the limits.
async fn info(State(app): State<Arc<App>>, RawQuery(query): RawQuery) -> Response {
    if let Err(e) = parse_params(query.as_deref(), &[]) {
        return e.into_response();
    }
    let status = app.pool.status();
    let boards: Vec<BoardInfo> = BoardSize::all()
        .filter(|&b| serves(&app, b))
        .map(|b| BoardInfo {
            width: b.width(),
            height: b.height(),
            book: app.books.contains(&b),
        })
        .collect();
    let levels: Vec<LevelInfo> = Level::all()
        .map(|l| LevelInfo {
            level: l.number(),
            name: l.name(),
            description: l.description(),
        })
        .collect();
    let body = json!({
        "version": env!("CARGO_PKG_VERSION"),
        "boards": boards,
        "levels": levels,
        "max_nodes": app.max_nodes,
        "workers": status.workers,
        "queue_capacity": status.queue_capacity,
        "max_connections": app.connections.cap(),
        "header_timeout": app.timeouts.header.as_secs_f64(),
        "idle_timeout": app.timeouts.idle.as_secs_f64(),
    });
    json_response(StatusCode::OK, body.to_string() + "\n")
}

/// The object of `GET /api/status`.
#[derive(Serialize)]
struct ServerStatus {
    /// The workers and their queue.
    #[serde(flatten)]
    pool: Status,
    /// The connections.
    #[serde(flatten)]
    connections: ConnectionStatus,
}

/// `GET /api/status`: what the workers are doing, and the connections.
async fn status(State(app): State<Arc<App>>, RawQuery(query): RawQuery) -> Response {
    if let Err(e) = parse_params(query.as_deref(), &[]) {
        return e.into_response();
    }
    let status = ServerStatus {
        pool: app.pool.status(),
        connections: app.connections.status(),
    };
    let body = serde_json::to_string(&status).expect("plain structs serialize");
    json_response(StatusCode::OK, body + "\n")
}
