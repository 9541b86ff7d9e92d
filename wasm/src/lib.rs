//! The `c4` solver for the browser: the answers of `c4 serve`'s API
//! (`/api/info`, `/api/analyze`, `/api/solve`, `/api/move`) computed in the
//! page's Web Worker (`web/worker.js`), as the same JSON objects, so that the
//! page runs unchanged from static files.
//!
//! Everything here runs on the worker's one thread: one solver at a time,
//! for the board last asked about, with a table of [`TABLE_BYTES`] (more
//! only for the boards whose keys need it). A search cannot be interrupted
//! from JavaScript: the page stops one by ending the worker.

mod answers;
pub mod npm;

use std::cell::RefCell;

use wasm_bindgen::prelude::wasm_bindgen;

pub use answers::{Answer, Params, answer};

/// The table of the worker's solver: 32 MiB, a fraction of what a tab may
/// take, enough for the page's positions. A board whose keys need a bigger
/// table gets the least it needs (64 MiB for the largest).
pub const TABLE_BYTES: usize = 32 << 20;

thread_local! {
    /// The worker's solver and its book, made for the board last asked about.
    static SOLVERS: RefCell<answers::Solvers> = RefCell::new(answers::Solvers::default());
}

/// Answers `path` (`/api/analyze`, ...) with `params`, a JSON object of
/// strings (the page's query parameters), as `c4 serve` would: a JSON
/// object `{"status": HTTP status, "body": the server's object}`.
#[wasm_bindgen]
pub fn api(path: &str, params: &str) -> String {
    let answer = match serde_json::from_str::<Params>(params) {
        Ok(params) => SOLVERS.with_borrow_mut(|solvers| answer(solvers, path, &params)),
        Err(e) => Answer::error(
            400,
            &format!("the parameters are not a JSON object of strings: {e}"),
        ),
    };
    answer.to_json()
}

/// Solves every line of `lines` (`MOVES SCORE` per line, a standard test
/// set's format) on `width` x `height` as `c4 bench --no-book` does: one
/// thread, no book, the table cleared before each position. Gives
/// `{"positions", "nodes", "mismatches"}` as JSON; the caller times it.
#[wasm_bindgen]
pub fn bench(width: usize, height: usize, lines: &str) -> String {
    answers::bench(width, height, lines, TABLE_BYTES).to_string()
}
