//! `App`: what the request handlers of `c4 serve` share (the solver pool,
//! the limits, the connections, the stop signal). In a file of its own so
//! that the accept loop and the API, which the server starts, take it
//! without importing the module that starts them.

use std::sync::Arc;
use std::time::Duration;

use c4::BoardSize;
use tokio::sync::watch;

use super::connections::{Connections, Timeouts};
use super::pool::Pool;

/// What the request handlers share.
pub struct App {
    /// The solver workers.
    pub(super) pool: Pool,
    /// `--max-nodes`.
    pub(super) max_nodes: u64,
    /// `--max-seconds`: how long one request may search.
    pub(super) max_time: Duration,
    /// The boards with a book.
    pub(super) books: Vec<BoardSize>,
    /// Bytes of each worker's table: `--tt-size` rounded down to a power of
    /// two. Boards whose keys need more are refused (422) and left out of
    /// `/api/info`.
    pub(super) table_bytes: usize,
    /// The open connections and their cap.
    pub(super) connections: Arc<Connections>,
    /// `--header-timeout` and `--idle-timeout`.
    pub(super) timeouts: Timeouts,
    /// Set once the server stops (SIGTERM, SIGINT).
    pub(super) stopping: watch::Sender<bool>,
}
