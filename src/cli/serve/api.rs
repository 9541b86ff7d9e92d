//! The routes of `c4 serve`: the page, the JSON API, and the answers to
//! everything else (400, 404, 405, 413, 414, 422, 503), each a JSON object.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::extract::{RawQuery, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use serde_json::json;
use tokio::sync::{oneshot, watch};

use c4::BoardSize;
use c4::memory::{Bytes, min_table_bytes, table_bytes};
use c4::page_api::{self, Limits, Refusal, Route};
use c4::rng::SplitMix64;

use super::app::App;
use super::assets;
use super::compute::{Reply, Task};
use super::connections::ConnectionStatus;
use super::pool::{Halt, Outcome, Status, SubmitError, Submitted};

/// The longest URL (path and query) accepted: a position has at most 124
/// moves (4x31), so 2 KiB leaves room for any encoding of every parameter.
pub const MAX_URI_BYTES: usize = 2048;

/// The seconds a client told 503 is asked to wait.
const RETRY_AFTER_SECONDS: u32 = 1;

/// How long a search under way may go on once the server is stopping: one
/// that ends within it is answered, any other is stopped and answered 503.
pub const SEARCH_GRACE: Duration = Duration::from_millis(500);

/// How long a request whose time is up waits for its worker to stop (it
/// stops at its solver's next poll of the flag, within milliseconds); past
/// it the request is answered all the same.
const STOP_WAIT: Duration = Duration::from_secs(1);

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
        .route("/api/review", get(review))
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

/// A refusal of the page's API as the server's response.
fn refused(refusal: &Refusal) -> Response {
    let status = StatusCode::from_u16(refusal.status).unwrap_or(StatusCode::BAD_REQUEST);
    json_response(status, refusal.to_json().to_string() + "\n")
}

/// Reads the query string of a request to `route` with the page's API.
fn read_query(route: Route, query: Option<&str>) -> Result<page_api::Request, Refusal> {
    let pairs: Vec<_> = form_urlencoded::parse(query.unwrap_or("").as_bytes()).collect();
    page_api::read(
        route,
        pairs.iter().map(|(n, v)| (n.as_ref(), v.as_ref())),
        fresh_seed,
    )
}

/// Cancels a request's job when its handler is dropped before the answer
/// came: the client has gone (hyper drops the handler of a closed
/// connection).
struct CancelOnDrop {
    /// The request's halt.
    halt: Arc<Halt>,
    /// Whether the answer came.
    done: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if !self.done {
            self.halt.cancel();
        }
    }
}

/// Completes `limit` after the job's search started (never if it does not
/// start: its answer, or its end, comes first).
async fn time_limit(started: oneshot::Receiver<()>, limit: Duration) {
    if started.await.is_err() {
        std::future::pending::<()>().await;
    }
    tokio::time::sleep(limit).await;
}

/// Queues `task` and waits for its answer, stopping its search once it has
/// run for `--max-seconds`.
async fn compute(app: &App, task: Task) -> Response {
    if let Some(refusal) = table_too_small(app, task.query.board) {
        return refusal;
    }
    let halt = Halt::new();
    let mut guard = CancelOnDrop {
        halt: Arc::clone(&halt),
        done: false,
    };
    let Submitted {
        started,
        mut answer,
    } = match app.pool.submit(task, Arc::clone(&halt)) {
        Ok(submitted) => submitted,
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
        () = time_limit(started, app.max_time) => {
            halt.time_up();
            // Answered once the worker has stopped and is free for the
            // next request.
            tokio::time::timeout(STOP_WAIT, &mut answer)
                .await
                .unwrap_or(Ok(Outcome { reply: Reply::TimeLimit, nodes: 0 }))
        }
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
    let mut response = answer_response(outcome.map(|o| o.reply), app.max_time);
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

/// The response of a worker's reply (an error if the worker dropped it);
/// `max_time` is `--max-seconds`.
fn answer_response(
    reply: Result<Reply, oneshot::error::RecvError>,
    max_time: Duration,
) -> Response {
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
        Ok(Reply::TimeLimit) => {
            let seconds = max_time.as_secs_f64();
            error(
                StatusCode::UNPROCESSABLE_ENTITY,
                &format!(
                    "time limit reached: the answer needs more than the {seconds} s of search \
                     this server gives one request (c4 serve --max-seconds)"
                ),
                json!({ "limit": "time", "max_seconds": seconds }),
            )
        }
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

/// `GET /api/analyze`: the object of `c4 analyze --json`.
async fn analyze(
    State(app): State<Arc<App>>,
    method: Method,
    RawQuery(query): RawQuery,
) -> Response {
    query_task(&app, &method, Route::Analyze, query.as_deref()).await
}

/// `GET /api/solve`: the object of `c4 solve --json --pv`.
async fn solve(State(app): State<Arc<App>>, method: Method, RawQuery(query): RawQuery) -> Response {
    query_task(&app, &method, Route::Solve, query.as_deref()).await
}

/// `GET /api/move`: the move of a level.
async fn play_move(
    State(app): State<Arc<App>>,
    method: Method,
    RawQuery(query): RawQuery,
) -> Response {
    query_task(&app, &method, Route::Move, query.as_deref()).await
}

/// `GET /api/review`: every move of a game judged against perfect play.
async fn review(
    State(app): State<Arc<App>>,
    method: Method,
    RawQuery(query): RawQuery,
) -> Response {
    query_task(&app, &method, Route::Review, query.as_deref()).await
}

/// The query of a computing route, read and computed; or its refusal. A
/// HEAD request is read and checked as a GET is, and answered without a
/// search: 200 says the request is well formed, not that its answer fits
/// the limits.
async fn query_task(app: &App, method: &Method, route: Route, query: Option<&str>) -> Response {
    let query = match read_query(route, query) {
        Ok(page_api::Request::Query(query)) => query,
        Ok(_) => unreachable!("a computing route reads a query"),
        Err(refusal) => return refused(&refusal),
    };
    if *method == Method::HEAD {
        return table_too_small(app, query.board)
            .unwrap_or_else(|| json_response(StatusCode::OK, String::new()));
    }
    let task = Task {
        query,
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

/// `GET /api/info`: the boards, the levels and the limits.
async fn info(State(app): State<Arc<App>>, RawQuery(query): RawQuery) -> Response {
    if let Err(refusal) = read_query(Route::Info, query.as_deref()) {
        return refused(&refusal);
    }
    let status = app.pool.status();
    let boards = BoardSize::all()
        .filter(|&b| serves(&app, b))
        .map(|b| (b, app.books.contains(&b)));
    let limits = Limits {
        max_nodes: Some(app.max_nodes),
        max_seconds: Some(app.max_time.as_secs_f64()),
        workers: status.workers,
        queue_capacity: status.queue_capacity,
        max_connections: Some(app.connections.cap()),
        header_timeout: Some(app.timeouts.header.as_secs_f64()),
        idle_timeout: Some(app.timeouts.idle.as_secs_f64()),
    };
    let body = page_api::info(boards, &limits);
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
    if let Err(refusal) = read_query(Route::Status, query.as_deref()) {
        return refused(&refusal);
    }
    let status = ServerStatus {
        pool: app.pool.status(),
        connections: app.connections.status(),
    };
    let body = serde_json::to_string(&status).expect("plain structs serialize");
    json_response(StatusCode::OK, body + "\n")
}
