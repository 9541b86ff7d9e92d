//! `c4 serve`: a local web server with one page that shows the board, every
//! column's score and the perfect-play line, plays against `c4` and reviews
//! a game, over the JSON API of [`c4::page_api`], which answers as
//! `c4 analyze --json` and `c4 solve --json --pv`.

mod accept;
mod api;
mod app;
mod assets;
mod compute;
mod connections;
mod pool;
mod request_log;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::watch;

use c4::memory::{Bytes, min_table_bytes};
use c4::{AnyBook, BoardSize, engine};

use super::options::{
    BookChoice, EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE, TableArgs, load_book, parse_count, parse_port,
    parse_positive_u64, parse_u64,
};
use super::output::warn;
use app::App;
use connections::{
    Connections, DEFAULT_MAX_CONNECTIONS, RESERVED_FILES, Timeouts, allowed_connections,
    open_file_limit,
};
use pool::{Pool, SolverConfig};

/// The examples closing both `-h` and `--help` of `c4 serve`.
macro_rules! examples {
    () => {
        "\
Examples:
  c4 serve                        http://127.0.0.1:8080/ on this machine only
  c4 serve --port 0               any free port (the URL printed says which)
  c4 serve --workers 1 --tt-size 16M   one solver of 16 MiB: about 17 MiB of tables
  c4 serve --log 2>requests.log   one line per request in requests.log"
    };
}

/// Examples shown after `c4 serve -h`.
const EXAMPLES: &str = examples!();

/// What `c4 serve --help` adds after the options.
const LONG_HELP: &str = concat!(
    "\
The server prints its URL on stdout (`http://127.0.0.1:8080/`) and serves
until it is stopped (Ctrl-C or SIGTERM). The page and its scripts are built
into c4: it needs no network.

Only this machine can connect unless --listen names another address: with
--listen 0.0.0.0 (or ::) every machine that can reach this one can use the
server, which has no password and no encryption, and can make it search.

Memory is bounded: each worker keeps one solver, whose table takes --tt-size
(rounded down to a power of two) plus a 1 MiB table of its own, and the 7x6
opening book (about 3 MiB) is shared: with 2 workers and the default table,
about 2 x 65 MiB + 3 MiB. Requests wait in a queue of --queue places; past it
the server answers 503 with Retry-After. A request may search at most
--max-nodes nodes in all, and search for at most --max-seconds seconds (5)
from when a worker takes it; past either it is stopped and answered 422
with {\"error\": \"node limit reached ...\", \"limit\": \"nodes\"} or
{\"error\": \"time limit reached ...\", \"limit\": \"time\"}, never with a
score, and its worker takes the next request. A request whose client has
gone is dropped if it has not started, and stopped within milliseconds if
it has. A HEAD request to the API is checked as a GET is (400 for a bad
parameter) and answered 200 without a search.

Clients must keep up. A connection is closed without an answer when its
first request's whole header has not come --header-timeout seconds (5)
after it opened, when a later request's header has not come
--header-timeout seconds after its first byte, or when it has sent nothing
for --idle-timeout seconds (10) since its last answer; these never cut a
request being answered (its search is bounded by --max-seconds). At most
--max-connections connections are open at once: by default 1024, or fewer
if the open-file limit (ulimit -n, read at start) is lower: that limit less
32 files kept for the server itself (with ulimit -n 256: 224). A larger
value is lowered to what the limit allows, with a warning. At the cap, a
new connection takes the place of the one that has waited longest without
a request under way, which is closed; if every one is answering a request,
the new one is closed at once. Requests under way are never cut short.
/api/status counts the connections open, timed out, evicted and refused.

With --log, each request answered is one line on stderr:
  TIME METHOD TARGET STATUS MS ms NODES nodes
  2030-01-02T03:04:05.678Z GET /api/solve?moves=4453 200 142.6 ms 1428353 nodes
TIME in UTC when the request came, TARGET the path and query as sent (cut
at 2048 bytes), MS the milliseconds until its answer was ready, NODES the
nodes its searches took (0 for none). A connection closed before a whole
request came has no line.

API (GET; errors are JSON objects with an \"error\" field):
  /api/analyze?moves=4453&width=7&height=6[&weak=1]
      the object of `c4 analyze --json` (moves: 1-based columns, '' or none
      for the empty board; width and height default to 7 and 6)
  /api/solve?moves=4453[&weak=1]    the object of `c4 solve --json --pv`
  /api/move?moves=4453&level=L[&seed=S]
      {\"move\": the 1-based column level L plays, \"level\", \"level_name\",
      \"seed\", \"mistake\", ...}; levels 0 (beginner) to 4 (perfect), see
      `c4 play --help`
  /api/review?moves=4453[&weak=1]
      every move of the game judged against perfect play (best, slower,
      mistake, blunder) with the scores, and a summary per player
  /api/info     board sizes, levels and limits
  /api/status   workers busy, jobs queued, answered, cancelled, rejected,
                limited (nodes), timed_out (time); connections open, timed
                out, evicted, refused
Status: 200 answered; 400 a bad parameter (the error names it, and the
character for a bad position); 404 no such page; 405 not GET; 413 a request
with a body; 414 a URL over 2 KiB; 422 the node or time limit reached, or a board
whose keys need a bigger table than --tt-size (7x8 needs 32M, the largest
boards 64M, the default; /api/info lists only the boards served); 503 the
queue is full (retry after the seconds of Retry-After), or the server is
stopping.

Exit status: 0 once stopped by SIGTERM or Ctrl-C (SIGINT): it stops
accepting, answers what is under way, lets a search end within 0.5 s and
stops any longer one (answered 503 \"the server is stopping\"), closes the
connections and exits within about a second; 1 if it cannot listen; 2 for a
bad command line.

",
    examples!()
);

/// Arguments of `c4 serve`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = LONG_HELP)]
pub struct ServeArgs {
    /// The port to listen on; 0 picks a free one.
    #[arg(long, value_name = "P", default_value_t = 8080, value_parser = parse_port)]
    pub port: u16,
    /// The address to listen on. The default, 127.0.0.1, lets only this
    /// machine connect; another address (0.0.0.0 for every interface)
    /// exposes the server to the network: see --help.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub listen: IpAddr,
    /// Solver threads, each with its own table (memory: N x --tt-size); 0
    /// uses one per core.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_count)]
    pub workers: usize,
    /// Requests that may wait for a worker; past them the server answers 503.
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = parse_count)]
    pub queue: usize,
    /// The most nodes one request may search (all its searches together);
    /// past it the answer is 422 "node limit reached" (`c4 solve --stats`
    /// shows how many nodes a position takes, and how long).
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000, value_parser = parse_u64)]
    pub max_nodes: u64,
    /// The most seconds one request may search (fractions allowed), counted
    /// from when a worker starts it; past them its search is stopped, the
    /// worker is free within milliseconds, and the answer is 422 "time
    /// limit reached".
    #[arg(long, value_name = "S", default_value = "5", value_parser = parse_seconds)]
    pub max_seconds: Duration,
    /// Use no opening book (by default the built-in 7x6 book answers the
    /// earliest positions of that board at once).
    #[arg(long)]
    pub no_book: bool,
    /// Seconds a client has to send a whole request header (counted from
    /// its connection for its first request, from the request's first byte
    /// for a later one); past them the connection is closed.
    #[arg(long, value_name = "S", default_value = "5", value_parser = parse_seconds)]
    pub header_timeout: Duration,
    /// Seconds a connection may wait, after an answer, for its next
    /// request's first byte; past them it is closed.
    #[arg(long, value_name = "S", default_value = "10", value_parser = parse_seconds)]
    pub idle_timeout: Duration,
    /// The most connections open at once [default: 1024, or the open-file
    /// limit (ulimit -n) less 32 if that is lower]; a larger value is
    /// lowered to what the limit allows. See --help.
    #[arg(long, value_name = "N", value_parser = parse_positive_u64)]
    pub max_connections: Option<u64>,
    /// Log each request on stderr: time (UTC), method, path and query,
    /// status, milliseconds and nodes searched. See --help.
    #[arg(long)]
    pub log: bool,
    /// Transposition table options.
    #[command(flatten)]
    pub table: TableArgs,
}

/// The most seconds a timeout may take: a day.
const MAX_TIMEOUT_SECONDS: f64 = 86_400.0;

/// A timeout in seconds: a number above 0 (fractions allowed), at most a
/// day.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MAX_TIMEOUT_SECONDS => Ok(Duration::from_secs_f64(s)),
        Ok(_) => Err(format!(
            "'{text}' is out of range: give seconds above 0 and at most {MAX_TIMEOUT_SECONDS}"
        )),
        Err(_) => Err(format!("'{text}' is not a number of seconds")),
    }
}

/// The cap on open connections: `--max-connections` (or its default),
/// lowered, with a warning, to what the open-file limit allows.
fn connection_cap(requested: Option<u64>) -> usize {
    let file_limit = open_file_limit();
    let allowed = allowed_connections(file_limit);
    match requested {
        None => DEFAULT_MAX_CONNECTIONS.min(allowed),
        Some(n) => {
            let n = usize::try_from(n).unwrap_or(usize::MAX);
            if n > allowed {
                warn(format_args!(
                    "c4 serve: warning: --max-connections {n} is more than the open-file limit \
                     ({} files, ulimit -n) allows: at most {allowed} connections ({RESERVED_FILES} \
                     files are kept for the server itself)",
                    file_limit.unwrap_or(0)
                ));
            }
            n.min(allowed)
        }
    }
}

/// Completes on the first SIGTERM or SIGINT (Ctrl-C); both are caught from
/// the start, so that neither kills the server.
fn stop_signal() -> std::io::Result<impl Future<Output = ()>> {
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = terminate.recv() => {}
            _ = interrupt.recv() => {}
        }
    })
}

/// Runs `c4 serve`; returns the exit status once stopped by a signal (0),
/// or on failure.
pub fn run(args: &ServeArgs) -> u8 {
    let workers = match args.workers {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    // Check the table size before anything starts.
    if let Err(e) = engine::new(BoardSize::STANDARD, args.table.tt_size) {
        warn(format_args!("c4 serve: --tt-size: {e}"));
        return EXIT_USAGE;
    }
    let books = if args.no_book {
        Vec::new()
    } else {
        match load_books() {
            Ok(books) => books,
            Err(code) => return code,
        }
    };
    let timeouts = Timeouts {
        header: args.header_timeout,
        idle: args.idle_timeout,
    };
    let connections = Arc::new(Connections::new(
        connection_cap(args.max_connections),
        timeouts,
    ));
    let app = Arc::new(App {
        books: books.iter().map(AnyBook::board).collect(),
        pool: Pool::start(
            workers,
            args.queue,
            Arc::new(SolverConfig {
                table_bytes: args.table.tt_size,
                books,
            }),
        ),
        max_nodes: args.max_nodes,
        max_time: args.max_seconds,
        table_bytes: 1 << args.table.tt_size.ilog2(),
        connections,
        timeouts,
        stopping: watch::Sender::new(false),
    });
    let refused = BoardSize::all().filter(|&b| !api::serves(&app, b)).count();
    if refused > 0 {
        let largest = BoardSize::all()
            .map(|b| min_table_bytes(b.key_bits()))
            .max()
            .unwrap_or(0);
        warn(format_args!(
            "c4 serve: warning: the {} table (--tt-size) is too small for {refused} of the {} \
             board sizes, which are refused; --tt-size {}M serves them all",
            Bytes(app.table_bytes),
            BoardSize::all().count(),
            largest >> 20
        ));
    }
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            warn(format_args!("c4 serve: cannot start: {e}"));
            return EXIT_BAD_INPUT;
        }
    };
    let address = SocketAddr::new(args.listen, args.port);
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(address).await {
            Ok(listener) => listener,
            Err(e) => {
                warn(format_args!("c4 serve: cannot listen on {address}: {e}"));
                return EXIT_BAD_INPUT;
            }
        };
        let stop = match stop_signal() {
            Ok(stop) => stop,
            Err(e) => {
                warn(format_args!(
                    "c4 serve: cannot catch SIGTERM and SIGINT: {e}"
                ));
                return EXIT_BAD_INPUT;
            }
        };
        let bound = listener.local_addr().unwrap_or(address);
        if !args.listen.is_loopback() {
            warn(format_args!(
                "c4 serve: listening on {bound}: any machine that can reach this one can use \
                 this server (no password, no encryption)"
            ));
        }
        {
            let mut out = std::io::stdout().lock();
            // Nobody reading stdout is no reason not to serve.
            let _ = writeln!(out, "http://{bound}/");
            let _ = out.flush();
        }
        warn(format_args!(
            "c4 serve: {workers} worker(s) of {} MiB tables, queue {}, at most {} nodes and {} s \
             a request, at most {} connections; Ctrl-C stops",
            app_table_mib(args.table.tt_size),
            args.queue,
            args.max_nodes,
            args.max_seconds.as_secs_f64(),
            app.connections.cap()
        ));
        accept::serve(app, args.log, listener, stop).await;
        warn(format_args!("c4 serve: stopped"));
        EXIT_OK
    })
}

/// The size of one worker's tables in MiB: the table rounded down to a power
/// of two, and the small one.
fn app_table_mib(bytes: usize) -> usize {
    let full = 1usize << (usize::BITS - 1 - bytes.leading_zeros());
    (full >> 20) + 1
}

/// The built-in books, decoded once and shared by every worker.
fn load_books() -> Result<Vec<AnyBook>, u8> {
    let builtin = BookChoice {
        book: None,
        no_book: false,
    };
    let mut books = Vec::new();
    for board in BoardSize::all() {
        if let Some(book) = load_book(&builtin, "serve", board)? {
            books.push(book);
        }
    }
    Ok(books)
}
