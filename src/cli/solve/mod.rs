//! `c4 solve`: solve positions given as arguments or read line by line from
//! stdin, one result line per input, in input order, as each is found.

mod outcome;

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;

use clap::Args;

use c4::Engine;
use c4::input::MAX_LINE_BYTES;
use c4::memory::{Need, solver_bytes};
use c4::parallel::{PipelineError, run_ordered};

use super::input::{RawInput, source};
use super::options::{
    BoardArgs, BookChoice, EXIT_BAD_INPUT, EXIT_OK, TableArgs, parse_threads, resolve_threads,
    solver_pool,
};
use super::output::{after_write_error, warn};
use super::status::{Mode, Shape, Status};
use outcome::{Options, Outcome, evaluate};

/// The examples closing both `-h` and `--help` of `c4 solve`.
macro_rules! examples {
    () => {
        "\
Examples:
  c4 solve 4453                    prints `4453 -2`: X to move loses (O wins on move 40)
  c4 solve 4453 '' 44              several positions ('' is the empty board)
  c4 solve < Test_L2_R1            a test set; the output diffs against it
  c4 solve --stats --pv 4453       nodes, microseconds and a perfect-play line
  c4 solve --threads 4 --json -    stdin, 4 solvers in parallel, JSON lines"
    };
}

/// Examples shown after `c4 solve -h`.
const EXAMPLES: &str = examples!();

/// What `c4 solve --help` adds after the options: formats, exit status and
/// the examples.
const LONG_HELP: &str = concat!(
    "\
A position is the columns played, 1-based, e.g. 4453; the empty board is an
empty argument ('') or an empty line. An argument is the moves alone; a line
may carry a second field, a score, so that the lines of a test set (`moves
score`) can be fed as they are and the output diffs against the file: it must
be a score the position can have (with --weak, its sign too), else the line is
invalid; it is not compared. Stdin is read when no
position is given or the only one is `-`; each line is answered as soon as it
is solved, in input order, even with --threads.

Output, one line per input line (fields separated by one space; the moves and
the pv can be empty):
  moves score              by default (score: see below)
  moves score nodes us     with --stats (nodes searched, microseconds)
  moves score pv           with --pv (a perfect-play line to the end)
  moves score nodes us pv  with both
  INPUT invalid            for an input that is not a position
--stats counts the score's search only (not the pv's); the pv is the exact
line even with --weak. With --json, each line is instead a JSON object:
{\"line\", \"board_size\" (e.g. \"7x6\"), \"moves\", \"score\", \"weak\"} plus \"nodes\" and \"micros\" with
--stats, \"pv\" and \"best_move\" (1-based column, null once the game is over)
with --pv; for an invalid input {\"line\", \"input\", \"error\",
\"character\"}. \"line\" is the input's number: its line of stdin, or its
place among the arguments.

The score is for the side to move: positive if it wins, 22 minus the number of
stones it has played when it wins (on 7x6); 0 for a draw; negative if it
loses. With --weak, only its sign (-1, 0, 1).

An invalid input is reported on stderr as `line N: ...` (or `argument N:
...`), naming the 1-based character that is wrong, and the batch goes on.

Progress: on a terminal, a solve that runs longer than a second shows a
status line on stderr (time, nodes, nodes per second and the interval the
score is proved to lie in, e.g. `score in [-1, 3]`, narrowing as each probe
ends), cleared when the answer is printed. Nothing appears on a pipe;
--progress prints instead one plain line each time an interval narrows.

Memory: about N x (tt-size + 1.5 MiB) + 8.4 MiB with N threads on stdin:
each thread's table of --tt-size (whose pages only searches from the
earliest positions take), its 1 MiB table and up to 0.5 MiB of lines in
flight, and 8.4 MiB while the built-in book loads. Positions given as
arguments take one solver per position, up to N; the threads that search
one position together take 1 MiB each and share 4 MiB more. c4 adds this up
before it allocates anything and refuses a run that does not fit in the
memory available. An input line may be up to 1024 bytes long.

Exit status: 0 if every input was solved; 1 if any input was invalid, or stdin
or stdout failed; 2 for a bad command line, or a run that does not fit in
memory. If stdout is closed early (e.g. piped into `head`), c4 stops quietly
with the status it had so far.

",
    examples!()
);

/// Arguments of `c4 solve`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = LONG_HELP)]
pub struct SolveArgs {
    /// Positions to solve, e.g. 4453 ('' is the empty board); none, or a
    /// single `-`, reads them from stdin, one per line.
    #[arg(value_name = "POSITION")]
    pub positions: Vec<OsString>,
    /// Print only who wins: the sign of the score (-1, 0 or 1); faster.
    #[arg(long)]
    pub weak: bool,
    /// Add the nodes searched and the time in microseconds.
    #[arg(long)]
    pub stats: bool,
    /// Add the principal variation: a perfect-play line to the end of the
    /// game, as a move string.
    #[arg(long)]
    pub pv: bool,
    /// Write one JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print a line on stderr each time a search narrows the interval its
    /// score is proved to lie in, e.g. `0.512 s  1234567 nodes  score in
    /// [-1, 3]` (see Progress in --help); for logs, whether or not stderr
    /// is a terminal.
    #[arg(long)]
    pub progress: bool,
    /// Use N threads; 0 uses every core. Lines are solved in parallel, each
    /// worker with its own tables (see Memory in --help), and output stays in
    /// input order. With fewer positions given as arguments than threads,
    /// the spare threads search each position together, sharing its table
    /// (a single position uses all N threads).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_threads)]
    pub threads: usize,
    /// Opening book options.
    #[command(flatten)]
    pub book: BookChoice,
    /// Transposition table options.
    #[command(flatten)]
    pub table: TableArgs,
    /// Board size.
    #[command(flatten)]
    pub board: BoardArgs,
}

/// Inputs each worker may have in flight (read but not yet written). Lines
/// are written in input order, so one slow position holds back the lines
/// after it: with a window of 4 per worker, a slow line (the first 200
/// Begin-Medium lines take 29 ms on average, the slowest 0.64 s) stopped the
/// other worker after 7 quick ones, and `c4 solve --no-book --threads 2` on
/// the first 200 Begin-Medium lines ran only 1.70-1.78x faster than one
/// thread. A line and its result take at most twice [`MAX_LINE_BYTES`], so
/// a wide window still bounds the memory of a long or endless stdin.
const IN_FLIGHT_PER_WORKER: usize = 256;

/// The most bytes one input in flight takes: its bytes (one more than
/// [`MAX_LINE_BYTES`] at most) and their echo in its outcome.
const IN_FLIGHT_INPUT_BYTES: usize = 2 * (MAX_LINE_BYTES + 1);

/// Runs `c4 solve` on the board `args` asks for; returns the exit status.
pub fn run(args: &SolveArgs) -> u8 {
    let board = match args.board.board("solve") {
        Ok(board) => board,
        Err(code) => return code,
    };
    let opts = Options {
        weak: args.weak,
        stats: args.stats,
        pv: args.pv,
        json: args.json,
        board,
    };
    let from_stdin =
        args.positions.is_empty() || (args.positions.len() == 1 && args.positions[0] == "-");
    let threads = resolve_threads(args.threads);
    // No use for more tables than there are positions given: the spare
    // threads help search each position instead.
    let workers = if from_stdin {
        threads
    } else {
        threads.min(args.positions.len()).max(1)
    };
    let search_threads = threads / workers;
    let window = workers * IN_FLIGHT_PER_WORKER;
    let need = Need {
        solvers: workers,
        per_solver: solver_bytes(args.table.tt_size, board.key_bits(), search_threads),
        positions: if !from_stdin {
            2 * args.positions.iter().map(|p| p.len()).sum::<usize>()
        } else if workers > 1 {
            window * IN_FLIGHT_INPUT_BYTES
        } else {
            IN_FLIGHT_INPUT_BYTES
        },
        book: args.book.memory(board),
    };
    let pool = match solver_pool(
        "solve",
        board,
        &need,
        &args.book,
        args.table.tt_size,
        workers,
        search_threads,
    ) {
        Ok(pool) => pool,
        Err(code) => return code,
    };
    let shape = if from_stdin {
        Shape::Batch { total: None }
    } else if args.positions.len() == 1 {
        Shape::Single
    } else {
        Shape::Batch {
            total: Some(args.positions.len()),
        }
    };
    let status = Status::start(Mode::detect(args.progress), shape);
    let mut out = io::stdout().lock();
    let mut code = EXIT_OK;
    let sink = |raw: RawInput, outcome: Result<Outcome, _>| {
        let outcome = outcome.unwrap_or_else(|_| Outcome::Failed {
            origin: raw.origin,
            input: raw.display_text(),
        });
        if outcome.failed() {
            code = EXIT_BAD_INPUT;
        }
        match status.print(|| emit(&mut out, &outcome, &opts)) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                code = after_write_error("solve", &e, code);
                ControlFlow::Break(())
            }
        }
    };
    let work = |solver: &mut Box<dyn Engine>, raw: &RawInput| {
        evaluate(solver.as_mut(), raw, &opts, &status)
    };
    if from_stdin && io::stdin().is_terminal() {
        warn(format_args!(
            "c4 solve: reading positions from stdin, one per line (e.g. 4453); Ctrl-D to end"
        ));
    }
    let result = run_ordered(
        &pool,
        window,
        source("solve", &args.positions, from_stdin),
        work,
        sink,
    );
    status.finish();
    match result {
        Ok(()) => code,
        Err(PipelineError::Source(e)) => {
            warn(format_args!("c4 solve: cannot read the input: {e}"));
            EXIT_BAD_INPUT
        }
        Err(e) => {
            warn(format_args!("c4 solve: {e}"));
            EXIT_BAD_INPUT
        }
    }
}

/// Writes one result: the stderr message first if the input failed, then the
/// stdout line, flushed at once so that each answer is seen as soon as it is
/// found, whatever stdout is (a flush per line costs far less than a solve).
fn emit(out: &mut impl Write, outcome: &Outcome, opts: &Options) -> io::Result<()> {
    if let Some(message) = outcome.error_message() {
        warn(format_args!("{message}"));
    }
    if let Some(line) = outcome.render(opts) {
        writeln!(out, "{line}")?;
    }
    out.flush()
}
