//! The open connections of `c4 serve`: how many the file limit allows, what
//! each one is doing (waiting for a request, answering one), when a slow or
//! idle one is closed, and which one makes room for a newcomer at the cap.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::Notify;

/// Files the server keeps open besides its connections: stdin, stdout and
/// stderr, the listening socket, the runtime's pollers, waker and signal
/// sockets (about a dozen in all, 12 on Linux), with room for a connection
/// accepted only to be closed and for connections closing at the same
/// time.
pub const RESERVED_FILES: u64 = 32;

/// The cap when the file limit allows more: far more than one page and its
/// API need (the work itself waits in a queue of `--queue` places), and at
/// most 64 MiB of connection buffers (64 KiB each, see `accept.rs`).
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;

/// The soft limit on open files of this process (`RLIMIT_NOFILE`), or
/// `None` if it is unlimited or cannot be read.
pub fn open_file_limit() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    (read && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

/// The most connections a file limit allows: the limit less
/// [`RESERVED_FILES`], at least one.
pub fn allowed_connections(file_limit: Option<u64>) -> usize {
    file_limit.map_or(usize::MAX, |limit| {
        usize::try_from(limit.saturating_sub(RESERVED_FILES).max(1)).unwrap_or(usize::MAX)
    })
}

/// How long a connection may take before it is closed.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// From its opening to its first request's whole header, and from the
    /// first byte of a later request to its whole header.
    pub header: Duration,
    /// From an answer to the first byte of the next request.
    pub idle: Duration,
}

/// What a connection is doing, and when it is closed if nothing changes.
#[derive(Debug)]
struct State {
    /// When it closes: `None` while a request is answered.
    deadline: Option<Instant>,
    /// Waiting for the first byte of a request after an answer (a first
    /// byte then starts the header's clock).
    idle: bool,
    /// Since when it has waited without a request under way: its opening or
    /// its last answer. The one that waited longest makes room first.
    waiting_since: Instant,
    /// To be closed to make room for a newcomer.
    evicted: bool,
}

/// Why a connection was closed by the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expiry {
    /// Its header or its next request did not come in time.
    TimedOut,
    /// It waited longest when a newcomer needed its place.
    Evicted,
}

/// One open connection.
#[derive(Debug)]
pub struct Connection {
    /// What it is doing.
    state: Mutex<State>,
    /// Woken when its deadline changes or it is evicted.
    changed: Notify,
    /// Its timeouts.
    timeouts: Timeouts,
}

impl Connection {
    /// A connection opened now: its first request's header is due within
    /// the header timeout.
    fn new(timeouts: Timeouts) -> Connection {
        let now = Instant::now();
        Connection {
            state: Mutex::new(State {
                deadline: Some(now + timeouts.header),
                idle: false,
                waiting_since: now,
                evicted: false,
            }),
            changed: Notify::new(),
            timeouts,
        }
    }

    /// The state, even if a thread panicked holding it (it stays valid).
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Bytes came from the client: after an answer, the first of them starts
    /// the header's clock.
    pub fn bytes_read(&self) {
        let mut state = self.state();
        if state.idle {
            state.idle = false;
            state.deadline = Some(Instant::now() + self.timeouts.header);
            drop(state);
            self.changed.notify_one();
        }
    }

    /// A whole request header came: no deadline until it is answered. The
    /// answer's end is marked when the returned guard is dropped.
    pub fn begin_request(self: &Arc<Self>) -> Answering {
        let mut state = self.state();
        state.deadline = None;
        state.idle = false;
        drop(state);
        self.changed.notify_one();
        Answering(Arc::clone(self))
    }

    /// Completes when the connection is to be closed: its deadline passed,
    /// or it was evicted.
    pub async fn expired(&self) -> Expiry {
        loop {
            let changed = self.changed.notified();
            let (deadline, evicted) = {
                let state = self.state();
                (state.deadline, state.evicted)
            };
            if evicted {
                return Expiry::Evicted;
            }
            match deadline {
                Some(deadline) if deadline <= Instant::now() => return Expiry::TimedOut,
                Some(deadline) => {
                    tokio::select! {
                        () = tokio::time::sleep_until(deadline.into()) => {}
                        () = changed => {}
                    }
                }
                None => changed.await,
            }
        }
    }
}

/// A request being answered; dropped when its answer is ready (or the
/// connection is gone), which starts the idle timeout.
pub struct Answering(Arc<Connection>);

impl Drop for Answering {
    fn drop(&mut self) {
        let now = Instant::now();
        let mut state = self.0.state();
        state.deadline = Some(now + self.0.timeouts.idle);
        state.idle = true;
        state.waiting_since = now;
        drop(state);
        self.0.changed.notify_one();
    }
}

/// Counters of the connections, as `GET /api/status` reports them.
#[derive(Debug, Serialize)]
pub struct ConnectionStatus {
    /// Connections open now.
    pub connections: usize,
    /// The cap on open connections.
    pub max_connections: usize,
    /// Connections accepted since the server started.
    pub connections_accepted: u64,
    /// Connections closed because a header or a next request was late.
    pub connections_timed_out: u64,
    /// Waiting connections closed to make room for a newcomer at the cap.
    pub connections_evicted: u64,
    /// Newcomers closed at once: the cap reached, every connection
    /// answering a request.
    pub connections_refused: u64,
}

/// The open connections and their cap.
#[derive(Debug)]
pub struct Connections {
    /// The most connections open at once.
    cap: usize,
    /// The timeouts of each connection.
    timeouts: Timeouts,
    /// The open connections by number.
    open: Mutex<HashMap<u64, Arc<Connection>>>,
    /// The next connection's number.
    next: AtomicU64,
    /// Woken when a connection closes.
    closed: Notify,
    /// Connections accepted.
    accepted: AtomicU64,
    /// Connections timed out.
    timed_out: AtomicU64,
    /// Connections evicted.
    evicted: AtomicU64,
    /// Connections refused.
    refused: AtomicU64,
}

/// What became of a new connection.
pub enum Admission {
    /// It is served.
    Admitted {
        /// Its place among the open connections.
        place: Place,
        /// Whether a waiting connection was evicted to make room.
        evicted: bool,
    },
    /// The cap is reached and every connection is answering: close it.
    Refused,
}

impl Connections {
    /// No connection yet; at most `cap` at once.
    pub fn new(cap: usize, timeouts: Timeouts) -> Connections {
        Connections {
            cap: cap.max(1),
            timeouts,
            open: Mutex::new(HashMap::new()),
            next: AtomicU64::new(0),
            closed: Notify::new(),
            accepted: AtomicU64::new(0),
            timed_out: AtomicU64::new(0),
            evicted: AtomicU64::new(0),
            refused: AtomicU64::new(0),
        }
    }

    /// The open connections, even if a thread panicked holding them.
    fn open(&self) -> MutexGuard<'_, HashMap<u64, Arc<Connection>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Admits a connection just accepted. At the cap, the connection that
    /// has waited longest without a request under way is evicted to make
    /// room (a request being answered is never cut short); if every one is
    /// answering, the newcomer is refused.
    pub fn admit(self: &Arc<Self>) -> Admission {
        let mut open = self.open();
        let mut evicted = false;
        if open.len() >= self.cap {
            let victim = open
                .values()
                .filter_map(|c| {
                    let state = c.state();
                    (state.deadline.is_some() && !state.evicted).then_some((state.waiting_since, c))
                })
                .min_by_key(|&(since, _)| since)
                .map(|(_, c)| Arc::clone(c));
            let Some(victim) = victim else {
                self.refused.fetch_add(1, Ordering::Relaxed);
                return Admission::Refused;
            };
            victim.state().evicted = true;
            victim.changed.notify_one();
            evicted = true;
        }
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        let connection = Arc::new(Connection::new(self.timeouts));
        open.insert(number, Arc::clone(&connection));
        self.accepted.fetch_add(1, Ordering::Relaxed);
        Admission::Admitted {
            place: Place {
                connections: Arc::clone(self),
                number,
                connection,
                expiry: None,
            },
            evicted,
        }
    }

    /// The counters now.
    pub fn status(&self) -> ConnectionStatus {
        ConnectionStatus {
            connections: self.open().len(),
            max_connections: self.cap,
            connections_accepted: self.accepted.load(Ordering::Relaxed),
            connections_timed_out: self.timed_out.load(Ordering::Relaxed),
            connections_evicted: self.evicted.load(Ordering::Relaxed),
            connections_refused: self.refused.load(Ordering::Relaxed),
        }
    }

    /// The cap.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Completes once no connection is open.
    pub async fn all_closed(&self) {
        loop {
            let closed = self.closed.notified();
            if self.open().is_empty() {
                return;
            }
            closed.await;
        }
    }
}

/// A connection's place among the open ones, given up when dropped (after
/// its socket is closed).
pub struct Place {
    /// Where it is counted.
    connections: Arc<Connections>,
    /// Its number.
    number: u64,
    /// Its state.
    connection: Arc<Connection>,
    /// Why the server closed it, if it did.
    expiry: Option<Expiry>,
}

impl Place {
    /// The connection.
    pub fn connection(&self) -> &Arc<Connection> {
        &self.connection
    }

    /// Notes why the server closed it, for the counters.
    pub fn closed_for(&mut self, expiry: Expiry) {
        self.expiry = Some(expiry);
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let counter = match self.expiry {
            Some(Expiry::TimedOut) => Some(&self.connections.timed_out),
            Some(Expiry::Evicted) => Some(&self.connections.evicted),
            None => None,
        };
        if let Some(counter) = counter {
            counter.fetch_add(1, Ordering::Relaxed);
        }
        self.connections.open().remove(&self.number);
        self.connections.closed.notify_waiters();
    }
}
