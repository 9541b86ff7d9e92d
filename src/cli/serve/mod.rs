//! `c4 serve`: a local web server with one page that shows the board, every
//! column's score and the perfect-play line, and plays against `c4`, over a
//! JSON API that answers as `c4 analyze --json` and `c4 solve --json --pv`.

mod api;
mod assets;
mod compute;
mod pool;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use clap::Args;

use c4::memory::{Bytes, min_table_bytes};
use c4::{AnyBook, BoardSize, engine};

use super::options::{BookChoice, EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE, TableArgs, load_book};
use super::output::warn;
use pool::{Pool, SolverConfig};

/// The examples closing both `-h` and `--help` of `c4 serve`.
macro_rules! examples {
    () => {
        "\
Examples:
  c4 serve                        http://127.0.0.1:8080/ on this machine only
  c4 serve --port 0               any free port (the URL printed says which)
  c4 serve --workers 1 --tt-size 16M   one solver of 16 MiB: about 17 MiB of tables"
    };
}

/// Examples shown after `c4 serve -h`.
const EXAMPLES: &str = examples!();

/// What `c4 serve --help` adds after the options.
const LONG_HELP: &str = concat!(
    "\
The server prints its URL on stdout (`http://127.0.0.1:8080/`) and serves
until it is stopped (Ctrl-C). The page and its scripts are built into c4: it
needs no network.

Only this machine can connect unless --listen names another address: with
--listen 0.0.0.0 (or ::) every machine that can reach this one can use the
server, which has no password and no encryption, and can make it search.

Memory is bounded: each worker keeps one solver, whose table takes --tt-size
(rounded down to a power of two) plus a 1 MiB table of its own, and the 7x6
opening book (about 3 MiB) is shared: with 2 workers and the default table,
about 2 x 65 MiB + 3 MiB. Requests wait in a queue of --queue places; past it
the server answers 503 with Retry-After. A request may search at most
--max-nodes nodes in all; past them it is answered 422 with
{\"error\": \"node limit reached ...\"}, never with a score. A request whose
client has gone is dropped if it has not started, and stopped before its
next search if it has.

API (GET; errors are JSON objects with an \"error\" field):
  /api/analyze?moves=4453&width=7&height=6[&weak=1]
      the object of `c4 analyze --json` (moves: 1-based columns, '' or none
      for the empty board; width and height default to 7 and 6)
  /api/solve?moves=4453[&weak=1]    the object of `c4 solve --json --pv`
  /api/move?moves=4453&level=L[&seed=S]
      {\"move\": the 1-based column level L plays, \"level\", \"level_name\",
      \"seed\", \"mistake\", ...}; levels 0 (beginner) to 4 (perfect), see
      `c4 play --help`
  /api/info     board sizes, levels and limits
  /api/status   workers busy, jobs queued, answered, cancelled, rejected
Status: 200 answered; 400 a bad parameter (the error names it, and the
character for a bad position); 404 no such page; 405 not GET; 413 a request
with a body; 414 a URL over 2 KiB; 422 the node limit reached, or a board
whose keys need a bigger table than --tt-size (7x8 needs 32M, the largest
boards 64M, the default; /api/info lists only the boards served); 503 the
queue is full (retry after the seconds of Retry-After).

Exit status: 0 never (it serves until stopped); 1 if it cannot listen; 2 for
a bad command line.

",
    examples!()
);

/// Arguments of `c4 serve`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = LONG_HELP)]
pub struct ServeArgs {
    /// The port to listen on; 0 picks a free one.
    #[arg(long, value_name = "P", default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on. The default, 127.0.0.1, lets only this
    /// machine connect; another address (0.0.0.0 for every interface)
    /// exposes the server to the network: see --help.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub listen: IpAddr,
    /// Solver threads, each with its own table (memory: N x --tt-size); 0
    /// uses one per core.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub workers: usize,
    /// Requests that may wait for a worker; past them the server answers 503.
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub queue: usize,
    /// The most nodes one request may search (all its searches together);
    /// past it the answer is 422 "node limit reached" (`c4 solve --stats`
    /// shows how many nodes a position takes, and how long).
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000)]
    pub max_nodes: u64,
    /// Use no opening book (by default the built-in 7x6 book answers the
    /// earliest positions of that board at once).
    #[arg(long)]
    pub no_book: bool,
    /// Transposition table options.
    #[command(flatten)]
    pub table: TableArgs,
}

/// What the request handlers share.
pub struct App {
    /// The solver workers.
    pool: Pool,
    /// `--max-nodes`.
    max_nodes: u64,
    /// The boards with a book.
    books: Vec<BoardSize>,
    /// Bytes of each worker's table: `--tt-size` rounded down to a power of
    /// two. Boards whose keys need more are refused (422) and left out of
    /// `/api/info`.
    table_bytes: usize,
}

/// Runs `c4 serve`; returns the exit status (only on failure: it serves
/// until stopped).
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
        table_bytes: 1 << args.table.tt_size.ilog2(),
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
        .enable_io()
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
            "c4 serve: {workers} worker(s) of {} MiB tables, queue {}, at most {} nodes a \
             request; Ctrl-C stops",
            app_table_mib(args.table.tt_size),
            args.queue,
            args.max_nodes
        ));
        match axum::serve(listener, api::router(app)).await {
            Ok(()) => EXIT_OK,
            Err(e) => {
                warn(format_args!("c4 serve: {e}"));
                EXIT_BAD_INPUT
            }
        }
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
