//! The `c4` solver for the browser: the page's API ([`c4::page_api`], the
//! code `c4 serve` answers with) called from the page's Web Worker
//! (`web/worker.js`), so that the page runs unchanged from static files.
//!
//! Everything here runs on the worker's one thread: one solver at a time,
//! for the board last asked about, with a table of [`TABLE_BYTES`] (more
//! only for the boards whose keys need it). A search cannot be interrupted
//! from JavaScript: the page stops one by ending the worker.

mod bench;
pub mod npm;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use serde_json::{Value, json};
use wasm_bindgen::prelude::wasm_bindgen;

use c4::memory::{min_table_bytes, table_bytes};
use c4::page_api::{self, Limits, Refusal, Request, Route, Stop};
use c4::rng::SplitMix64;
use c4::{AnyBook, BoardSize, Engine};

/// The table of the worker's solver: 32 MiB, a fraction of what a tab may
/// take, enough for the page's positions. A board whose keys need a bigger
/// table gets the least it needs (64 MiB for the largest).
pub const TABLE_BYTES: usize = 32 << 20;

/// What the worker reports of its limits: one solver, no queue, no node
/// or time limit (the page ends a search that takes too long: it ends the
/// worker), no connections.
const LIMITS: Limits = Limits {
    max_nodes: None,
    max_seconds: None,
    workers: 1,
    queue_capacity: 0,
    max_connections: None,
    header_timeout: None,
    idle_timeout: None,
};

thread_local! {
    /// The worker's solver and its book, made for the board last asked about.
    static SOLVERS: RefCell<Solvers> = RefCell::new(Solvers::default());
}

/// Answers `path` (`/api/analyze`, ...) with `params`, a JSON object of
/// strings (the page's query parameters), as `c4 serve` would: a JSON
/// object `{"status": HTTP status, "body": the server's object}`.
#[wasm_bindgen]
pub fn api(path: &str, params: &str) -> String {
    let (status, body) = match serde_json::from_str::<BTreeMap<String, String>>(params) {
        Ok(params) => SOLVERS.with_borrow_mut(|solvers| answer(solvers, path, &params)),
        Err(e) => {
            let message = format!("the parameters are not a JSON object of strings: {e}");
            (400, json!({ "error": message }))
        }
    };
    json!({ "status": status, "body": body }).to_string()
}

/// The status and object of `path` asked with `params`.
pub fn answer(
    solvers: &mut Solvers,
    path: &str,
    params: &BTreeMap<String, String>,
) -> (u16, Value) {
    let refused = |r: Refusal| (r.status, r.to_json());
    // `/api/status` is the server's alone: the worker has no such page.
    let Some(route) = Route::from_path(path).filter(|&r| r != Route::Status) else {
        return refused(Refusal::not_found(path));
    };
    let pairs = params.iter().map(|(n, v)| (n.as_str(), v.as_str()));
    let query = match page_api::read(route, pairs, fresh_seed) {
        Err(refusal) => return refused(refusal),
        Ok(Request::Info | Request::Status) => {
            let boards =
                BoardSize::all().map(|b| (b, AnyBook::builtin(b).is_some_and(|book| book.is_ok())));
            return (200, page_api::info(boards, &LIMITS));
        }
        Ok(Request::Query(query)) => query,
    };
    let solver = solvers.for_board(query.board);
    match query.answer(solver, u64::MAX, &AtomicBool::new(false)) {
        Ok(json) => (
            200,
            serde_json::from_str(&json).expect("the library writes JSON"),
        ),
        // No limit and no cancel flag: only a solver bug stops an answer.
        Err(Stop::Inconsistent | Stop::NodeLimit | Stop::Cancelled) => {
            (500, json!({ "error": "internal error: the solver failed" }))
        }
    }
}

/// Solves every line of `lines` (`MOVES SCORE` per line, a standard test
/// set's format) on `width` x `height` as `c4 bench --no-book` does: one
/// thread, no book, the table cleared before each position. Gives
/// `{"positions", "nodes", "mismatches"}` as JSON; the caller times it.
#[wasm_bindgen]
pub fn bench(width: usize, height: usize, lines: &str) -> String {
    bench::bench(width, height, lines, TABLE_BYTES).to_string()
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

/// The table of the solver of `board`: [`TABLE_BYTES`], or the least the
/// board's keys need when that is more.
pub fn solver_table_bytes(board: BoardSize) -> usize {
    if table_bytes(TABLE_BYTES, board.key_bits()).is_some() {
        TABLE_BYTES
    } else {
        min_table_bytes(board.key_bits())
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
