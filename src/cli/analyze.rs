//! `c4 analyze`: positions in detail, given as arguments or read one per
//! line from stdin: the board, every column's score, the best move and what
//! the score means, in input order.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;

use clap::Args;
use serde::Serialize;

use c4::input::{InputError, Line, MAX_LINE_BYTES, ScoreKind};
use c4::memory::{Need, solver_bytes};
use c4::parallel::{PipelineError, run_ordered};
use c4::{BoardSize, Engine, Game, Score};

use super::input::{Origin, RawInput, raw_from_arg, source};
use super::options::{
    BoardArgs, BookChoice, EXIT_BAD_INPUT, EXIT_OK, TableArgs, parse_threads, resolve_threads,
    solver_pool,
};
use super::output::{after_write_error, warn};
use super::status::{Mode, Shape, Status};
use c4::report::{Analysis, summarize};

/// The examples closing both `-h` and `--help` of `c4 analyze`.
macro_rules! examples {
    () => {
        "\
Examples:
  c4 analyze 335662333565      the board, each column's score, the best move
  c4 analyze --json 335662333565  the same as one JSON object
  c4 analyze --weak 2416615552  who wins with each move, not when
  c4 analyze 4453 44 ''          several positions, in input order
  c4 analyze --threads 2 < positions.txt  one position per line of stdin"
    };
}

/// Examples shown after `c4 analyze -h`.
const EXAMPLES: &str = examples!();

/// What `c4 analyze --help` adds after the options: formats, exit status and
/// the examples.
const LONG_HELP: &str = concat!(
    "\
A position is the columns played, 1-based, e.g. 4453 ('' is the empty board:
instant with the built-in book, long to solve without it). Stdin is read when
no position is given or the only one is `-`: one per line, read as `c4 solve`
reads its lines (a score may follow the moves; `#` lines are skipped); the
reports come in input order, separated by a blank line. A column's score is the score of the position for
the side to move if it plays there: positive if it then wins (22 minus the
number of stones it has played when it wins, on 7x6), 0 for a draw, negative
if it loses; `-` marks a full column. The best move is the highest-scoring
column, the most central one among equals, and its score is the position's
score.

--json prints one object per position (with \"line\", the input's number,
when there may be several): moves, board_size (e.g. \"7x6\"), board (rows top first, `X`, `O`, `.`),
side_to_move, moves_played, game_over, winner (null unless someone has
connected four), weak, scores (one per column, null if full), best_move
(1-based, null once the game is over), score, win_on_move (the game's move
that wins, null for a draw or with --weak) and result (the score in words);
for an invalid input {\"line\", \"input\", \"error\", \"character\"}.

Progress: on a terminal, columns that take longer than a second to score
show a status line on stderr: time, nodes, nodes per second, and each
column under way with the interval its score is proved to lie in (`column
4: score in [-1, 3]`), cleared when the analysis is printed. Nothing
appears on a pipe; --progress prints one plain line each time an interval
narrows.

Memory: about N x (tt-size + 1 MiB) with N threads, up to one solver per
column for one position (a table of --tt-size, whose pages only searches
from the earliest positions take, and a 1 MiB table each; threads that
search one column together take 1 MiB each and share 4 MiB more), one per
position at a time for several, and 8.4 MiB while the built-in book loads. c4 adds this up before it allocates anything and
refuses a run that does not fit in the memory available.

Exit status: 0 when every position was analysed (a finished game included), 1
for an invalid position (the message names the input and the character; the
others are still analysed), 2 for a bad command line, or a run that does not
fit in memory.

",
    examples!()
);

/// Arguments of `c4 analyze`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = LONG_HELP)]
pub struct AnalyzeArgs {
    /// Positions to analyze, e.g. 4453 ('' is the empty board); none, or a
    /// single `-`, reads them from stdin, one per line.
    #[arg(value_name = "POSITION")]
    pub positions: Vec<OsString>,
    /// Score each column only by who wins (-1, 0, 1); faster.
    #[arg(long)]
    pub weak: bool,
    /// Print one JSON object per position instead of text.
    #[arg(long)]
    pub json: bool,
    /// Score the columns on N threads: for one position, one solver per
    /// column up to N, each with its own tables (see Memory in --help), the
    /// spare threads searching each column together; for several, N
    /// positions at a time, output in input order; 0 uses every core.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_threads)]
    pub threads: usize,
    /// Print a line on stderr each time the interval a column's score is
    /// proved to lie in narrows, e.g. `column 4: 0.512 s  1234567 nodes
    /// score in [-1, 3]`; for logs, even when stderr is not a terminal (on a
    /// terminal a live status line shows the columns under way anyway).
    #[arg(long)]
    pub progress: bool,
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

/// Positions each worker of a batch may have read ahead of the output.
const IN_FLIGHT_PER_WORKER: usize = 16;

/// Runs `c4 analyze` on the board `args` asks for; returns the exit status.
pub fn run(args: &AnalyzeArgs) -> u8 {
    let board = match args.board.board("analyze") {
        Ok(board) => board,
        Err(code) => return code,
    };
    let from_stdin =
        args.positions.is_empty() || (args.positions.len() == 1 && args.positions[0] == "-");
    if from_stdin || args.positions.len() > 1 {
        return run_batch(args, board, from_stdin);
    }
    let raw = raw_from_arg(1, &args.positions[0]);
    let (moves, pos) = match read_input(&raw, board, args.weak) {
        Ok(Some(parsed)) => parsed,
        Ok(None) => unreachable!("an argument is never a comment"),
        Err(error) => {
            let invalid = Analyzed::Invalid {
                origin: raw.origin,
                input: raw.display_text(),
                error: error.to_string(),
                character: Some(error.index() + 1),
            };
            return write_out(&mut io::stdout().lock(), &invalid, args.json, false, 0).map_or_else(
                |e| after_write_error("analyze", &e, EXIT_BAD_INPUT),
                |_| EXIT_BAD_INPUT,
            );
        }
    };
    // One solver per column, up to the threads asked for; spare threads
    // search each column together, as `c4 solve` shares them between the
    // positions it is given. Against one solver with every thread on each
    // column in turn, two threads on a 2-core x86-64 VM, alternated runs:
    // level on openings (five of 3 to 5 stones without the book, 300 s
    // against 306 s), faster on 20 positions of 12 to 14 stones with it
    // (2.4-3.4 s against 3.5-4.2 s).
    let threads = resolve_threads(args.threads);
    let playable = (0..board.width()).filter(|&col| pos.can_play(col)).count();
    let solvers = threads.min(playable).max(1);
    let search_threads = threads / solvers;
    let need = Need {
        solvers,
        per_solver: solver_bytes(args.table.tt_size, board.key_bits(), search_threads),
        positions: 0,
        book: args.book.memory(board),
    };
    let pool = match solver_pool(
        "analyze",
        board,
        &need,
        &args.book,
        args.table.tt_size,
        solvers,
        search_threads,
    ) {
        Ok(pool) => pool,
        Err(code) => return code,
    };
    let columns: Vec<usize> = (0..board.width()).collect();
    let status = Status::start(Mode::detect(args.progress), Shape::Named);
    let scores = pool.map(&columns, |solver, &col| {
        if pos.is_game_over() || !pos.can_play(col) {
            return None;
        }
        let job = status.job(format_args!("column {}", c4::rules::column_char(col)), true);
        solver.set_progress(job.progress());
        let score = column_score(solver.as_mut(), &pos, col, args.weak);
        if let Some(score) = score {
            job.scored(score);
        }
        solver.set_progress(None);
        score
    });
    status.finish();
    let mut solver = pool.into_states().swap_remove(0);
    let analysis = summarize(solver.as_mut(), moves, &pos, args.weak, scores);
    let done = Analyzed::Done {
        origin: raw.origin,
        analysis: Box::new(analysis),
        position: pos,
    };
    match write_out(&mut io::stdout().lock(), &done, args.json, false, 0) {
        Ok(_) => EXIT_OK,
        Err(e) => after_write_error("analyze", &e, EXIT_OK),
    }
}

/// `c4 analyze` on several positions, arguments or lines of stdin
/// (`from_stdin`): each on one solver, as many at a time as there are
/// threads, written in input order as each is done.
fn run_batch(args: &AnalyzeArgs, board: BoardSize, from_stdin: bool) -> u8 {
    let threads = resolve_threads(args.threads);
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
        positions: window * 2 * (MAX_LINE_BYTES + 1),
        book: args.book.memory(board),
    };
    let pool = match solver_pool(
        "analyze",
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
    let total = (!from_stdin).then_some(args.positions.len());
    let status = Status::start(Mode::detect(args.progress), Shape::Batch { total });
    let mut out = io::stdout().lock();
    let mut code = EXIT_OK;
    let mut written = 0usize;
    let sink = |raw: RawInput, outcome: Result<Analyzed, _>| {
        let outcome = outcome.unwrap_or_else(|_| Analyzed::Invalid {
            origin: raw.origin,
            input: raw.display_text(),
            error: "internal error: the analysis failed".to_owned(),
            character: None,
        });
        if matches!(outcome, Analyzed::Invalid { .. }) {
            code = EXIT_BAD_INPUT;
        }
        match status.print(|| write_out(&mut out, &outcome, args.json, true, written)) {
            Ok(wrote) => {
                written += usize::from(wrote);
                ControlFlow::Continue(())
            }
            Err(e) => {
                code = after_write_error("analyze", &e, code);
                ControlFlow::Break(())
            }
        }
    };
    let work = |solver: &mut Box<dyn Engine>, raw: &RawInput| {
        analyze_one(solver.as_mut(), raw, args.weak, &status)
    };
    if from_stdin && io::stdin().is_terminal() {
        warn(format_args!(
            "c4 analyze: reading positions from stdin, one per line (e.g. 4453); Ctrl-D to end"
        ));
    }
    let result = run_ordered(
        &pool,
        window,
        source("analyze", &args.positions, from_stdin),
        work,
        sink,
    );
    status.finish();
    match result {
        Ok(()) => code,
        Err(PipelineError::Source(e)) => {
            warn(format_args!("c4 analyze: cannot read the input: {e}"));
            EXIT_BAD_INPUT
        }
        Err(e) => {
            warn(format_args!("c4 analyze: {e}"));
            EXIT_BAD_INPUT
        }
    }
}

/// What became of one input.
enum Analyzed {
    /// The position analysed.
    Done {
        /// Which input.
        origin: Origin,
        /// The analysis.
        analysis: Box<Analysis>,
        /// The position, to draw.
        position: Game,
    },
    /// An input that is no position.
    Invalid {
        /// Which input.
        origin: Origin,
        /// The input as given, trimmed.
        input: String,
        /// What is wrong.
        error: String,
        /// The 1-based character the error is about.
        character: Option<usize>,
    },
    /// A comment line.
    Skipped,
}

/// The JSON object of an analysis in a batch: the input's number, then
/// the object of a single analysis.
#[derive(Serialize)]
struct JsonAnalysis<'a> {
    /// The input's number.
    line: usize,
    /// The analysis.
    #[serde(flatten)]
    analysis: &'a Analysis,
}

/// The JSON object of an input that is no position (as `c4 solve` writes it).
#[derive(Serialize)]
struct JsonInvalid<'a> {
    line: usize,
    input: &'a str,
    error: &'a str,
    /// 1-based character the error is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    character: Option<usize>,
}

/// The position of `raw` on `board` (see [`RawInput::parse`]), `None` for a
/// comment line.
fn read_input(
    raw: &RawInput,
    board: BoardSize,
    weak: bool,
) -> Result<Option<(String, Game)>, InputError> {
    let kind = if weak {
        ScoreKind::Weak
    } else {
        ScoreKind::Exact
    };
    Ok(match raw.parse(board, kind)? {
        Line::Position {
            moves, position, ..
        } => Some((moves.to_owned(), position)),
        Line::Comment(_) => None,
    })
}

/// Analyses one input of a batch on `solver`, its columns one after the
/// other, each from a cleared table.
fn analyze_one(solver: &mut dyn Engine, raw: &RawInput, weak: bool, status: &Status) -> Analyzed {
    let (moves, pos) = match read_input(raw, solver.board(), weak) {
        Ok(Some(parsed)) => parsed,
        Ok(None) => return Analyzed::Skipped,
        Err(error) => {
            return Analyzed::Invalid {
                origin: raw.origin,
                input: raw.display_text(),
                error: error.to_string(),
                character: Some(error.index() + 1),
            };
        }
    };
    solver.clear();
    let scores = (0..pos.width())
        .map(|col| {
            if pos.is_game_over() || !pos.can_play(col) {
                return None;
            }
            let label = format_args!("{} column {}", raw.origin, c4::rules::column_char(col));
            let job = status.job(label, true);
            solver.set_progress(job.progress());
            let score = column_score(solver, &pos, col, weak);
            if let Some(score) = score {
                job.scored(score);
            }
            solver.set_progress(None);
            score
        })
        .collect();
    let analysis = summarize(solver, moves, &pos, weak, scores);
    Analyzed::Done {
        origin: raw.origin,
        analysis: Box::new(analysis),
        position: pos,
    }
}

/// Writes one outcome on `out` and flushes: JSON lines with `json` (each
/// with its input's number in a `batch`), else text, a blank line between
/// two reports (`written` is how many were written before). An invalid
/// input's message goes to stderr. Whether anything was written on `out`.
fn write_out(
    out: &mut impl Write,
    outcome: &Analyzed,
    json: bool,
    batch: bool,
    written: usize,
) -> io::Result<bool> {
    let text = match outcome {
        Analyzed::Skipped => return Ok(false),
        Analyzed::Done {
            origin,
            analysis,
            position,
        } if json => json_line(analysis, batch.then(|| origin.number())),
        Analyzed::Done {
            analysis, position, ..
        } => {
            let gap = if batch && written > 0 { "\n" } else { "" };
            format!("{gap}{}", render_text(analysis, position))
        }
        Analyzed::Invalid {
            origin,
            input,
            error,
            character,
        } => {
            warn(format_args!("{origin}: {error}"));
            if !json {
                return Ok(false);
            }
            c4::report::to_json(&JsonInvalid {
                line: origin.number(),
                input,
                error,
                character: *character,
            }) + "\n"
        }
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(true)
}

/// The JSON line of an analysis: alone, the object `/api/analyze` answers;
/// with `line`, its number in a batch first.
fn json_line(analysis: &Analysis, line: Option<usize>) -> String {
    match line {
        None => c4::report::to_json(analysis) + "\n",
        Some(line) => c4::report::to_json(&JsonAnalysis { line, analysis }) + "\n",
    }
}

/// The score of playing 0-based `col` ([`Engine::column_score`]), or with
/// `weak` its sign only; `None` if the column is full or the game is over.
fn column_score(solver: &mut dyn Engine, pos: &Game, col: usize, weak: bool) -> Option<Score> {
    if !weak {
        return solver.column_score(pos, col);
    }
    if pos.is_game_over() || !pos.can_play(col) {
        return None;
    }
    if pos.is_winning_move(col) {
        return Some(1);
    }
    Some(-solver.solve_weak(&pos.after(col)))
}

/// The text report.
fn render_text(a: &Analysis, pos: &Game) -> String {
    let mut s = String::new();
    let moves = if a.moves.is_empty() {
        "(none)"
    } else {
        &a.moves
    };
    s.push_str(&format!(
        "board: {}, moves: {moves}\n{pos}\n\n",
        a.board_size
    ));
    if a.game_over {
        // The board's last line already says how the game ended.
        s.push_str("game over: no move left to analyze\n");
        return s;
    }
    let mut columns = String::from("column");
    let mut scores = String::from("score ");
    for (col, score) in a.scores.iter().enumerate() {
        columns.push_str(&format!("{:>4}", c4::rules::column_char(col)));
        let cell = match score {
            None => "-".to_owned(),
            Some(s) if *s > 0 => format!("+{s}"),
            Some(s) => s.to_string(),
        };
        scores.push_str(&format!("{cell:>4}"));
    }
    s.push_str(&format!("{columns}\n{scores}\n"));
    if let Some(best) = a.best_move {
        s.push_str(&format!("best move: {best}\n"));
    }
    let kind = if a.weak { "weak score" } else { "score" };
    s.push_str(&format!("{kind}: {}: {}\n", a.score, a.result));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use c4::BoardSize;

    /// Every column scored on `solver`, then the analysis.
    fn analyze_on(solver: &mut dyn Engine, pos: &Game, weak: bool) -> Analysis {
        let scores = (0..7)
            .map(|col| column_score(solver, pos, col, weak))
            .collect();
        summarize(solver, "x".into(), pos, weak, scores)
    }

    #[test]
    fn immediate_win_and_full_column() {
        // Column 1 is full; X to move wins at once in column 2.
        let pos = Game::parse(BoardSize::STANDARD, "111111232323").unwrap();
        assert!(!pos.can_play(0));
        let mut solver = c4::engine::new(BoardSize::STANDARD, 1 << 20).unwrap();
        let a = analyze_on(solver.as_mut(), &pos, false);
        assert_eq!(a.scores[0], None);
        assert_eq!(a.best_move, Some(2));
        assert_eq!(a.score, pos.win_next_score());
        assert_eq!(a.win_on_move, Some(13));
        let weak = analyze_on(solver.as_mut(), &pos, true);
        assert_eq!(weak.score, 1);
        assert_eq!(weak.best_move, Some(2));
        for (s, w) in a.scores.iter().zip(&weak.scores) {
            assert_eq!(s.map(i32::signum), *w);
        }
    }

    #[test]
    fn finished_game() {
        let pos = Game::parse(BoardSize::STANDARD, "1212121").unwrap();
        let mut solver = c4::engine::new(BoardSize::STANDARD, 1 << 20).unwrap();
        let a = analyze_on(solver.as_mut(), &pos, false);
        assert!(a.game_over);
        assert_eq!(a.winner.as_deref(), Some("X"));
        assert_eq!(a.best_move, None);
        assert!(a.scores.iter().all(Option::is_none));
        let text = render_text(&a, &pos);
        assert!(text.contains("X has won on move 7\n"), "{text}");
        assert!(text.contains("game over"), "{text}");
        assert_eq!(a.result, "X has won on move 7");
    }
}
