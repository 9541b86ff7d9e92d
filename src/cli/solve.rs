//! `c4 solve`: solve positions given as arguments or read line by line from
//! stdin, one result line per input, in input order, as each is found.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{self, BufReader, IsTerminal, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use c4::position::moves_to_string;
use c4::{BoardSize, ForBoard, Solver};

use super::input::{
    LineError, LineReader, Origin, RawInput, parse_comment, parse_input, raw_from_arg,
};
use super::output::{after_write_error, warn};
use super::{BoardArgs, EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE, TableArgs};

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
empty argument ('') or an empty line. A line may carry a second field, an
integer, which is ignored: the lines of a test set (`moves score`) can be fed
as they are, and the output diffs against the file. Stdin is read when no
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

Exit status: 0 if every input was solved; 1 if any input was invalid, or stdin
or stdout failed; 2 for a bad command line. If stdout is closed early (e.g.
piped into `head`), c4 stops quietly with the status it had so far.

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
    /// Use N threads; 0 uses every core. Lines are solved in parallel, each
    /// worker with its own table (memory: N times --tt-size), and output
    /// stays in input order. With fewer positions given as arguments than
    /// threads, the spare threads search each position together, sharing
    /// its table (a single position uses all N threads).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Opening book options.
    #[command(flatten)]
    pub book: super::book::BookChoice,
    /// Transposition table options.
    #[command(flatten)]
    pub table: TableArgs,
    /// Board size.
    #[command(flatten)]
    pub board: BoardArgs,
}

/// What to compute and print for each input.
#[derive(Debug, Clone, Copy)]
struct Options {
    /// Sign of the score only.
    weak: bool,
    /// Nodes and microseconds.
    stats: bool,
    /// Principal variation.
    pv: bool,
    /// JSON lines instead of text.
    json: bool,
    /// The board, named in JSON lines.
    board: BoardSize,
}

/// The result of one input.
#[derive(Debug)]
enum Outcome {
    /// The position and its score.
    Solved {
        /// Which input.
        origin: Origin,
        /// The moves as given, trimmed.
        moves: String,
        /// Exact or weak score.
        score: i32,
        /// Nodes the score's search took.
        nodes: u64,
        /// Microseconds the score's search took.
        micros: u64,
        /// Principal variation (0-based columns), if asked for.
        pv: Option<Vec<usize>>,
    },
    /// The input is not a position.
    Invalid {
        /// Which input.
        origin: Origin,
        /// The input as given, trimmed.
        input: String,
        /// What is wrong with it.
        error: LineError,
    },
    /// A comment line (`# ...`, e.g. a test set's board header): echoed as
    /// it is in text, so that the output still diffs against the set, and
    /// left out of JSON output.
    Comment {
        /// The line, without trailing whitespace.
        text: String,
    },
    /// The solver failed (a bug): reported like an invalid input so that the
    /// output stays aligned.
    Failed {
        /// Which input.
        origin: Origin,
        /// The input as given, trimmed.
        input: String,
    },
}

/// A JSON result line.
#[derive(Serialize)]
struct JsonSolved<'a> {
    line: usize,
    /// The board's size, `WxH`.
    board_size: String,
    moves: &'a str,
    score: i32,
    weak: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    micros: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pv: Option<String>,
    /// Outer `None`: not asked for; inner `None` (null): the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    best_move: Option<Option<usize>>,
}

/// A JSON line for an input that is not a position.
#[derive(Serialize)]
struct JsonInvalid<'a> {
    line: usize,
    input: &'a str,
    error: String,
    /// 1-based character the error is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    character: Option<usize>,
}

impl Outcome {
    /// Whether the input failed (makes the exit status 1).
    fn failed(&self) -> bool {
        !matches!(self, Outcome::Solved { .. } | Outcome::Comment { .. })
    }

    /// The message for stderr, if the input failed.
    fn error_message(&self) -> Option<String> {
        match self {
            Outcome::Solved { .. } | Outcome::Comment { .. } => None,
            Outcome::Invalid { origin, error, .. } => Some(format!("{origin}: {error}")),
            Outcome::Failed { origin, .. } => {
                Some(format!("{origin}: internal error: the solver failed"))
            }
        }
    }

    /// The stdout line, without its newline; `None` for none.
    fn render(&self, opts: &Options) -> Option<String> {
        let line = match self {
            Outcome::Solved {
                origin,
                moves,
                score,
                nodes,
                micros,
                pv,
            } => {
                if opts.json {
                    json_solved(
                        origin.number(),
                        opts.board,
                        moves,
                        *score,
                        opts.weak,
                        opts.stats.then_some((*nodes, *micros)),
                        pv.as_deref(),
                    )
                } else {
                    let pv_text = pv.as_deref().map(moves_to_string);
                    let mut line = format!("{moves} {score}");
                    if opts.stats {
                        line.push_str(&format!(" {nodes} {micros}"));
                    }
                    if let Some(pv) = pv_text {
                        line.push(' ');
                        line.push_str(&pv);
                    }
                    line
                }
            }
            Outcome::Invalid {
                origin,
                input,
                error,
            } => {
                if opts.json {
                    to_json(&JsonInvalid {
                        line: origin.number(),
                        input,
                        error: error.to_string(),
                        character: Some(error.index() + 1),
                    })
                } else {
                    format!("{input} invalid")
                }
            }
            Outcome::Failed { origin, input } => {
                if opts.json {
                    to_json(&JsonInvalid {
                        line: origin.number(),
                        input,
                        error: "internal error: the solver failed".to_owned(),
                        character: None,
                    })
                } else {
                    format!("{input} invalid")
                }
            }
            Outcome::Comment { text } => {
                if opts.json {
                    return None;
                }
                text.clone()
            }
        };
        Some(line)
    }
}

/// The JSON line of a solved input (see `LONG_HELP`), without its newline:
/// `stats` is the nodes and microseconds, `pv` the principal variation
/// (0-based columns), each written only when given.
pub(super) fn json_solved(
    line: usize,
    board: BoardSize,
    moves: &str,
    score: i32,
    weak: bool,
    stats: Option<(u64, u64)>,
    pv: Option<&[usize]>,
) -> String {
    to_json(&JsonSolved {
        line,
        board_size: board.to_string(),
        moves,
        score,
        weak,
        nodes: stats.map(|(nodes, _)| nodes),
        micros: stats.map(|(_, micros)| micros),
        best_move: pv.map(|pv| pv.first().map(|&c| c + 1)),
        pv: pv.map(moves_to_string),
    })
}

/// Serializes a value that cannot fail to serialize (plain structs).
fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("plain structs serialize")
}

/// Solves one input with a cleared table, so that results do not depend on
/// what was solved before.
fn evaluate<const W: usize, const H: usize>(
    solver: &mut Solver<W, H>,
    raw: &RawInput,
    opts: &Options,
) -> Outcome {
    match parse_comment::<W, H>(raw) {
        None => {}
        Some(Ok(text)) => return Outcome::Comment { text },
        Some(Err(error)) => {
            return Outcome::Invalid {
                origin: raw.origin,
                input: raw.display_text(),
                error,
            };
        }
    }
    let parsed = match parse_input::<W, H>(raw) {
        Ok(parsed) => parsed,
        Err(error) => {
            return Outcome::Invalid {
                origin: raw.origin,
                input: raw.display_text(),
                error,
            };
        }
    };
    let pos = parsed.position;
    solver.clear();
    solver.reset_node_count();
    let start = Instant::now();
    let score = if opts.weak {
        solver.solve_weak(&pos)
    } else {
        solver.solve(&pos)
    };
    let micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
    let nodes = solver.node_count();
    let pv = opts.pv.then(|| solver.principal_variation(&pos));
    Outcome::Solved {
        origin: raw.origin,
        moves: parsed.moves,
        score,
        nodes,
        micros,
        pv,
    }
}

/// [`evaluate`], turning a panic of the solver into [`Outcome::Failed`] so
/// that one bad input cannot stall the other threads.
fn evaluate_guarded<const W: usize, const H: usize>(
    solver: &mut Solver<W, H>,
    raw: &RawInput,
    opts: &Options,
) -> Outcome {
    catch_unwind(AssertUnwindSafe(|| evaluate(solver, raw, opts))).unwrap_or_else(|_| {
        Outcome::Failed {
            origin: raw.origin,
            input: raw.display_text(),
        }
    })
}

/// Where the inputs come from.
enum Source {
    /// Command-line arguments, already read.
    Args(std::vec::IntoIter<RawInput>),
    /// Stdin, read one line at a time.
    Stdin(LineReader<BufReader<io::Stdin>>),
}

impl Source {
    /// The next input, `None` at the end.
    fn next(&mut self) -> io::Result<Option<RawInput>> {
        match self {
            Source::Args(args) => Ok(args.next()),
            Source::Stdin(reader) => reader.next_line(),
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

/// Runs `c4 solve`; returns the exit status.
pub fn run(args: &SolveArgs) -> u8 {
    args.board.dispatch("solve", SolveAll(args))
}

/// `c4 solve` on the board of the arguments.
struct SolveAll<'a>(&'a SolveArgs);

impl ForBoard for SolveAll<'_> {
    type Output = u8;
    fn run<const W: usize, const H: usize>(self) -> u8 {
        solve_all::<W, H>(self.0)
    }
}

/// `c4 solve` on a `W` x `H` board.
fn solve_all<const W: usize, const H: usize>(args: &SolveArgs) -> u8 {
    let opts = Options {
        weak: args.weak,
        stats: args.stats,
        pv: args.pv,
        json: args.json,
        board: BoardSize::of::<W, H>(),
    };
    let from_stdin =
        args.positions.is_empty() || (args.positions.len() == 1 && args.positions[0] == "-");
    let mut threads = match args.threads {
        0 => thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    // Threads that search one position together.
    let mut search_threads = 1;
    if !from_stdin {
        // No use for more tables than there are positions: the spare threads
        // help search each position instead.
        let workers = threads.min(args.positions.len()).max(1);
        search_threads = threads / workers;
        threads = workers;
    }
    let book = match super::book::load_book::<W, H>(&args.book, "solve") {
        Ok(book) => book,
        Err(code) => return code,
    };
    let mut solvers = Vec::with_capacity(threads);
    for _ in 0..threads {
        match Solver::<W, H>::with_table_bytes(args.table.tt_size) {
            Ok(mut solver) => {
                solver.set_threads(search_threads);
                solver.set_book(book.clone());
                solvers.push(solver)
            }
            Err(e) => {
                warn(format_args!("c4 solve: --tt-size: {e}"));
                return EXIT_USAGE;
            }
        }
    }
    let source = if from_stdin {
        let stdin = io::stdin();
        if stdin.is_terminal() {
            warn(format_args!(
                "c4 solve: reading positions from stdin, one per line (e.g. 4453); Ctrl-D to end"
            ));
        }
        Source::Stdin(LineReader::new(BufReader::with_capacity(1 << 16, stdin)))
    } else {
        let raws: Vec<RawInput> = args
            .positions
            .iter()
            .enumerate()
            .map(|(i, arg)| raw_from_arg(i + 1, arg))
            .collect();
        Source::Args(raws.into_iter())
    };
    if threads == 1 {
        let solver = solvers.pop().expect("one solver");
        solve_sequential(solver, source, &opts)
    } else {
        solve_parallel(solvers, source, opts)
    }
}

/// Reports a failure to read stdin; returns the exit status.
fn read_failed(error: &io::Error) -> u8 {
    warn(format_args!("c4 solve: cannot read the input: {error}"));
    EXIT_BAD_INPUT
}

/// One solver: read an input, solve it, write its line, repeat.
fn solve_sequential<const W: usize, const H: usize>(
    mut solver: Solver<W, H>,
    mut source: Source,
    opts: &Options,
) -> u8 {
    let mut out = io::stdout().lock();
    let mut code = EXIT_OK;
    loop {
        let raw = match source.next() {
            Ok(Some(raw)) => raw,
            Ok(None) => break,
            Err(e) => {
                code = read_failed(&e);
                break;
            }
        };
        let outcome = evaluate(&mut solver, &raw, opts);
        if outcome.failed() {
            code = EXIT_BAD_INPUT;
        }
        if let Err(e) = emit(&mut out, &outcome, opts) {
            return after_write_error("solve", &e, code);
        }
    }
    code
}

/// A numbered input for a worker.
type Job = (usize, RawInput);

/// Inputs each worker may have in flight (read but not yet written) in
/// [`solve_parallel`]. Lines are written in input order, so one slow
/// position holds back the lines after it: with a window of 4 per worker,
/// a slow line (the first 200 Begin-Medium lines take 29 ms on average,
/// the slowest 0.64 s) stopped the other worker after 7 quick ones, and
/// `c4 solve --no-book --threads 2` on the first 200 Begin-Medium lines
/// ran only 1.70-1.78x faster than one thread (all 1000 Middle-Medium
/// lines 1.63-1.73x, where `c4 bench --threads 2` gave 1.81-1.88x). A line
/// and its result take a few hundred bytes, so a wide window still bounds
/// the memory of a long or endless stdin.
const IN_FLIGHT_PER_WORKER: usize = 256;

/// Several solvers, each in its own thread. A reader thread hands out inputs,
/// the workers send back results, and this thread writes them in input
/// order. The reader takes a token before each input and the writer gives it
/// back once that input's line is written, so at most `window` inputs are in
/// flight: the input is never read far ahead, whatever its size.
fn solve_parallel<const W: usize, const H: usize>(
    solvers: Vec<Solver<W, H>>,
    mut source: Source,
    opts: Options,
) -> u8 {
    let window = solvers.len() * IN_FLIGHT_PER_WORKER;
    let (token_tx, token_rx) = mpsc::sync_channel::<()>(window);
    for _ in 0..window {
        token_tx
            .send(())
            .expect("the channel has room for every token");
    }
    let (job_tx, job_rx) = mpsc::channel::<Job>();
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (result_tx, result_rx) = mpsc::channel::<(usize, Outcome)>();

    let reader = thread::spawn(move || -> io::Result<()> {
        let mut seq = 0;
        // Stops early when the writer has gone (its tokens are dropped).
        while token_rx.recv().is_ok() {
            let Some(raw) = source.next()? else { break };
            if job_tx.send((seq, raw)).is_err() {
                break;
            }
            seq += 1;
        }
        Ok(())
    });
    for mut solver in solvers {
        let job_rx = Arc::clone(&job_rx);
        let result_tx = result_tx.clone();
        thread::spawn(move || {
            loop {
                let job = job_rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                let Ok((seq, raw)) = job else { break };
                let outcome = evaluate_guarded(&mut solver, &raw, &opts);
                if result_tx.send((seq, outcome)).is_err() {
                    break;
                }
            }
        });
    }
    drop(result_tx);

    let mut out = io::stdout().lock();
    let mut code = EXIT_OK;
    let mut pending = BTreeMap::new();
    let mut next = 0;
    while let Ok((seq, outcome)) = result_rx.recv() {
        pending.insert(seq, outcome);
        while let Some(outcome) = pending.remove(&next) {
            if outcome.failed() {
                code = EXIT_BAD_INPUT;
            }
            if let Err(e) = emit(&mut out, &outcome, &opts) {
                return after_write_error("solve", &e, code);
            }
            next += 1;
            // The reader may have finished and dropped its end: nothing to do.
            let _ = token_tx.send(());
        }
    }
    match reader.join() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => code = read_failed(&e),
        Err(_) => code = EXIT_BAD_INPUT,
    }
    if !pending.is_empty() {
        warn(format_args!(
            "c4 solve: internal error: some results were lost"
        ));
        code = EXIT_BAD_INPUT;
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> Options {
        Options {
            weak: false,
            stats: false,
            pv: false,
            json: false,
            board: BoardSize::STANDARD,
        }
    }

    fn raw(text: &str) -> RawInput {
        RawInput {
            origin: Origin::Line(3),
            text: Ok(text.to_owned()),
        }
    }

    #[test]
    fn text_lines() {
        let mut solver = Solver::<7, 6>::with_table_bytes(1 << 20).unwrap();
        let out = evaluate(&mut solver, &raw(" 121212 9"), &opts());
        assert_eq!(out.render(&opts()).unwrap(), "121212 18");
        assert!(out.error_message().is_none());
        let bad = evaluate(&mut solver, &raw("121212 -8x"), &opts());
        assert_eq!(bad.render(&opts()).unwrap(), "121212 -8x invalid");
        assert_eq!(
            bad.error_message().unwrap(),
            "line 3: character 8: unexpected '-8x' after the moves (only a score may follow them)"
        );
    }

    #[test]
    fn empty_board_keeps_an_empty_moves_field() {
        let solved = Outcome::Solved {
            origin: Origin::Line(1),
            moves: String::new(),
            score: 1,
            nodes: 0,
            micros: 0,
            pv: None,
        };
        assert_eq!(solved.render(&opts()).unwrap(), " 1");
    }

    #[test]
    fn json_lines() {
        let o = Options {
            json: true,
            pv: true,
            stats: true,
            ..opts()
        };
        let mut solver = Solver::<7, 6>::with_table_bytes(1 << 20).unwrap();
        let out = evaluate(&mut solver, &raw("121212"), &o)
            .render(&o)
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["line"], 3);
        assert_eq!(v["board_size"], "7x6");
        assert_eq!(v["score"], 18);
        assert_eq!(v["pv"], "1");
        assert_eq!(v["best_move"], 1);
        assert!(v["nodes"].is_u64() && v["micros"].is_u64());
        let bad = evaluate(&mut solver, &raw("1x"), &o).render(&o).unwrap();
        let v: serde_json::Value = serde_json::from_str(&bad).unwrap();
        assert_eq!(v["character"], 2);
        assert_eq!(v["input"], "1x");
    }

    #[test]
    fn comments_are_echoed_in_text_and_left_out_of_json() {
        let mut solver = Solver::<7, 6>::with_table_bytes(1 << 20).unwrap();
        let header = evaluate(&mut solver, &raw("# board 7x6"), &opts());
        assert!(!header.failed());
        assert_eq!(header.render(&opts()).unwrap(), "# board 7x6");
        let json = Options {
            json: true,
            ..opts()
        };
        assert_eq!(header.render(&json), None);
        let other = evaluate(&mut solver, &raw("# board 6x5"), &opts());
        assert!(other.failed());
        assert_eq!(other.render(&opts()).unwrap(), "# board 6x5 invalid");
    }

    #[test]
    fn other_boards_score_with_their_own_size() {
        // 4x4: the empty board is a draw; on 6x5 the JSON names the board.
        let o = Options {
            json: true,
            board: BoardSize::new(6, 5).unwrap(),
            ..opts()
        };
        let mut small = Solver::<4, 4>::with_table_bytes(1 << 20).unwrap();
        assert_eq!(
            evaluate(&mut small, &raw(""), &opts())
                .render(&opts())
                .unwrap(),
            " 0"
        );
        let mut solver = Solver::<6, 5>::with_table_bytes(1 << 20).unwrap();
        let out = evaluate(&mut solver, &raw("121212"), &o)
            .render(&o)
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["board_size"], "6x5");
        // X wins with its 4th stone on a 30-cell board: (30 + 1 - 6) / 2.
        assert_eq!(v["score"], 12);
    }
}
