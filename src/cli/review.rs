//! `c4 review`: games given as arguments or read one per line from stdin,
//! each judged move by move against perfect play, in input order.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;

use clap::Args;
use serde::Serialize;

use c4::input::MAX_LINE_BYTES;
use c4::memory::{Need, solver_bytes};
use c4::parallel::{PipelineError, run_ordered};
use c4::review::{Outcome, PlayerSummary, Review, ReviewError, review};
use c4::{BoardSize, Engine, Game, Player, Score, strategy};

use super::input::{Origin, RawInput, source};
use super::options::{
    BoardArgs, BookChoice, EXIT_BAD_INPUT, EXIT_OK, TableArgs, parse_threads, resolve_threads,
    solver_pool,
};
use super::output::{after_write_error, warn};

/// The examples closing both `-h` and `--help` of `c4 review`.
macro_rules! examples {
    () => {
        "\
Examples:
  c4 review 4455443                one game: a table of its moves, then a summary
  c4 review --json 4455443 3       two games, one JSON object each
  c4 review --weak < games.txt     one game per line, judged by win/draw/loss only
  c4 review --threads 4 < games.txt  4 games at a time, output in input order"
    };
}

/// Examples shown after `c4 review -h`.
const EXAMPLES: &str = examples!();

/// What `c4 review --help` adds after the options: formats, exit status and
/// the examples.
const LONG_HELP: &str = concat!(
    "\
A game is the columns played from the empty board, 1-based, e.g. 4455443.
Stdin is read when no game is given or the only one is `-`, one game per
line; empty lines and lines starting with `#` are skipped.

Every move is judged from the position before it, whose columns are all
scored as `c4 analyze` scores them: the best score is the highest, the
played score the played column's, both for the side that moved (positive: it
wins, 22 minus the number of its stones when it wins on 7x6; 0: a draw;
negative: it loses). The verdict:
  best     the played score is the best score
  slower   the same result, but won later or lost sooner
  mistake  a win becomes a draw, or a draw a loss
  blunder  a win becomes a loss
With --weak the scores are only -1, 0 and 1 (who wins), and `slower` never
appears. The summary per player gives its share of best moves, the count of
each verdict and its first move that changed the result; the last lines say
who wins with perfect play from the start and after the last move, and the
turning point: the last move that changed the result.

--json prints one object per game on one line: line (the input's number),
board_size, game (the moves), weak, moves (one object per move: number,
player (1 or 2), column, best_score, played_score, best_columns, verdict),
players (two summaries: player, moves, best, slower, mistakes, blunders,
share_best, result_changed), start and end (`first`, `draw` or `second`:
who wins with perfect play), finished and turning_point; for a game that
cannot be reviewed {\"line\", \"input\", \"error\", \"move\"}.

A game that does not replay (a character that is no column, a full column,
a move after the game is won) is reported on stderr as `line N: move M:
...` (or `argument N: ...`) and the batch goes on.

Memory: about N x (tt-size + 1 MiB) + 8.4 MiB with N threads: each thread's
tables, and the built-in book while it loads. c4 adds this up before it
allocates anything and refuses a run that does not fit in the memory
available.

Exit status: 0 if every game was reviewed; 1 if any was invalid, or stdin or
stdout failed; 2 for a bad command line, or a run that does not fit in
memory.

",
    examples!()
);

/// Arguments of `c4 review`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = LONG_HELP)]
pub struct ReviewArgs {
    /// Games to review, e.g. 4455443; none, or a single `-`, reads them
    /// from stdin, one per line.
    #[arg(value_name = "GAME")]
    pub games: Vec<OsString>,
    /// Judge only who wins (win, draw or loss); faster.
    #[arg(long)]
    pub weak: bool,
    /// Write one JSON object per game, one per line, instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Review N games at a time, each on its own solver and tables; output
    /// stays in input order. 0 uses every core.
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

/// Games each worker may have read ahead of the output.
const IN_FLIGHT_PER_WORKER: usize = 16;

/// The result of one input.
enum Judged {
    /// A game reviewed.
    Reviewed(Origin, Box<Review>),
    /// An input that is no game: the message, and the move it names.
    Invalid {
        /// Which input.
        origin: Origin,
        /// The input as given, trimmed.
        input: String,
        /// What is wrong.
        error: String,
        /// The 1-based move the error is about.
        number: Option<usize>,
    },
    /// An empty or comment line.
    Skipped,
}

/// The JSON object of a reviewed game.
#[derive(Serialize)]
struct JsonReview<'a> {
    /// The input's number.
    line: usize,
    /// The review.
    #[serde(flatten)]
    review: &'a Review,
}

/// The JSON object of an input that is no game.
#[derive(Serialize)]
struct JsonInvalid<'a> {
    line: usize,
    input: &'a str,
    error: &'a str,
    #[serde(rename = "move")]
    number: Option<usize>,
}

/// Runs `c4 review` on the board `args` asks for; returns the exit status.
pub fn run(args: &ReviewArgs) -> u8 {
    let board = match args.board.board("review") {
        Ok(board) => board,
        Err(code) => return code,
    };
    let from_stdin = args.games.is_empty() || (args.games.len() == 1 && args.games[0] == "-");
    let threads = resolve_threads(args.threads);
    let workers = if from_stdin {
        threads
    } else {
        threads.min(args.games.len()).max(1)
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
        "review",
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
    let weak = args.weak;
    let json = args.json;
    let mut out = io::stdout().lock();
    let mut code = EXIT_OK;
    let mut written = 0usize;
    let sink = |raw: RawInput, outcome: Result<Judged, _>| {
        let outcome = outcome.unwrap_or_else(|_| Judged::Invalid {
            origin: raw.origin,
            input: raw.display_text(),
            error: "internal error: the review failed".to_owned(),
            number: None,
        });
        let text = match &outcome {
            Judged::Skipped => return ControlFlow::Continue(()),
            Judged::Reviewed(origin, review) => {
                if json {
                    c4::report::to_json(&JsonReview {
                        line: origin.number(),
                        review,
                    }) + "\n"
                } else {
                    let gap = if written == 0 { "" } else { "\n" };
                    format!("{gap}{}", render_table(*origin, review))
                }
            }
            Judged::Invalid {
                origin,
                input,
                error,
                number,
            } => {
                code = EXIT_BAD_INPUT;
                warn(format_args!("{origin}: {error}"));
                if !json {
                    return ControlFlow::Continue(());
                }
                c4::report::to_json(&JsonInvalid {
                    line: origin.number(),
                    input,
                    error,
                    number: *number,
                }) + "\n"
            }
        };
        written += 1;
        match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                code = after_write_error("review", &e, code);
                ControlFlow::Break(())
            }
        }
    };
    let work = |solver: &mut Box<dyn Engine>, raw: &RawInput| judge(solver.as_mut(), raw, weak);
    if from_stdin && io::stdin().is_terminal() {
        warn(format_args!(
            "c4 review: reading games from stdin, one per line (e.g. 4455443); Ctrl-D to end"
        ));
    }
    let result = run_ordered(
        &pool,
        window,
        source("review", &args.games, from_stdin),
        work,
        sink,
    );
    match result {
        Ok(()) => code,
        Err(PipelineError::Source(e)) => {
            warn(format_args!("c4 review: cannot read the input: {e}"));
            EXIT_BAD_INPUT
        }
        Err(e) => {
            warn(format_args!("c4 review: {e}"));
            EXIT_BAD_INPUT
        }
    }
}

/// Reviews one input on `solver`.
fn judge(solver: &mut dyn Engine, raw: &RawInput, weak: bool) -> Judged {
    let invalid = |error: String, number| Judged::Invalid {
        origin: raw.origin,
        input: raw.display_text(),
        error,
        number,
    };
    if raw.bytes.len() > MAX_LINE_BYTES {
        return invalid(
            format!("the line is longer than {MAX_LINE_BYTES} bytes, which no game needs"),
            None,
        );
    }
    let Ok(text) = std::str::from_utf8(&raw.bytes) else {
        return invalid("not valid UTF-8".to_owned(), None);
    };
    let text = text.trim();
    if matches!(raw.origin, Origin::Line(_)) && (text.is_empty() || text.starts_with('#')) {
        return Judged::Skipped;
    }
    let board = solver.board();
    match review(solver, board, text, weak) {
        Ok(review) => Judged::Reviewed(raw.origin, Box::new(review)),
        Err(e @ ReviewError::Interrupted) => invalid(e.to_string(), None),
        Err(e) => invalid(e.to_string(), e.number()),
    }
}

/// A score with its sign, `+3`, `0`, `-2`.
fn signed(score: Score) -> String {
    if score > 0 {
        format!("+{score}")
    } else {
        score.to_string()
    }
}

/// Who wins, in words.
fn outcome_words(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::First => "X wins",
        Outcome::Draw => "a draw",
        Outcome::Second => "O wins",
    }
}

/// `n` and a noun, the noun in the plural unless `n` is 1: `1 mistake`,
/// `0 blunders`.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// One player's line of the summary, e.g. "X played 4 moves: 2 best (50%),
/// 1 slower, 0 mistakes, 1 blunder. Its first to change the result: move
/// 3." A weak review has no `slower` to count.
fn player_summary(p: &PlayerSummary, weak: bool) -> String {
    let who = if p.player == 1 { "X" } else { "O" };
    let Some(share) = p.share_best else {
        return format!("{who} played no moves.");
    };
    let slower = if weak {
        String::new()
    } else {
        format!("{} slower, ", p.slower)
    };
    let changed = p.result_changed.map_or_else(
        || "None changed the result.".to_owned(),
        |n| format!("Its first to change the result: move {n}."),
    );
    format!(
        "{who} played {}: {} best ({:.0}%), {slower}{}, {}. {changed}",
        count(p.moves, "move"),
        p.best,
        share * 100.0,
        count(p.mistakes, "mistake"),
        count(p.blunders, "blunder"),
    )
}

/// The summary's last two lines: who wins with perfect play from the start
/// and after the last move (or how the game ended), then the turning point.
fn result_summary(r: &Review) -> String {
    let end = if r.finished {
        match r.end {
            Outcome::Draw => "The game ended in a draw.".to_owned(),
            Outcome::First => "The game is over: X won.".to_owned(),
            Outcome::Second => "The game is over: O won.".to_owned(),
        }
    } else {
        format!("After the last move: {}.", outcome_words(r.end))
    };
    let turning = r.turning_point.map_or_else(
        || "No move changed the result.".to_owned(),
        |n| format!("Turning point: move {n}, the last move that changed the result."),
    );
    format!(
        "From the start, with perfect play: {}. {end}\n{turning}",
        outcome_words(r.start)
    )
}

/// The readable review of one game: a table of its moves, a summary per
/// player, and who wins.
fn render_table(origin: Origin, r: &Review) -> String {
    let mut s = String::new();
    let game = if r.game.is_empty() { "(none)" } else { &r.game };
    let kind = if r.weak { ", weak" } else { "" };
    let _ = writeln!(s, "{origin}: {game} ({}{kind})", r.board_size);
    let _ = writeln!(
        s,
        "{:>4}  {:<6}  {:>6}  {:>4}  {:>6}  {:<12}  verdict",
        "move", "player", "column", "best", "played", "best columns"
    );
    for m in &r.moves {
        let columns: String = m
            .best_columns
            .iter()
            .map(|&c| c4::rules::column_char(c - 1).to_string())
            .collect::<Vec<_>>()
            .join(",");
        let _ = writeln!(
            s,
            "{:>4}  {:<6}  {:>6}  {:>4}  {:>6}  {:<12}  {}",
            m.number,
            if m.player == 1 { "X" } else { "O" },
            c4::rules::column_char(m.column - 1),
            signed(m.best_score),
            signed(m.played_score),
            columns,
            m.verdict.as_str()
        );
    }
    for p in &r.players {
        let _ = writeln!(s, "{}", player_summary(p, r.weak));
    }
    let _ = writeln!(s, "{}", result_summary(r));
    let _ = writeln!(s, "{}", first_strategies(r));
    s
}

/// Where a strategy of Allis's rules (`c4::strategy`, shown by `c4
/// explain`) first appears for each player: the first position of the game
/// where that player, not to move, has one.
fn first_strategies(r: &Review) -> String {
    let Ok(board) = r.board_size.parse::<BoardSize>() else {
        return String::new();
    };
    let mut game = Game::new(board);
    let mut first: [Option<usize>; 2] = [None, None];
    let mut chars = r.game.chars();
    for played in 0..=r.moves.len() {
        if played > 0 {
            let Some(ch) = chars.next() else { break };
            if game.play_str(ch.encode_utf8(&mut [0; 4])).is_err() {
                break;
            }
        }
        if game.is_game_over() {
            break;
        }
        if let Some(found) = strategy::find(&game) {
            let side = usize::from(found.controller == Player::Second);
            first[side].get_or_insert(played);
        }
    }
    let say = |side: usize| match first[side] {
        None => "in no position".to_owned(),
        Some(0) => "from the start".to_owned(),
        Some(n) => format!("after move {n}"),
    };
    format!(
        "Allis's rules (c4 explain) first find a strategy for X: {}; for O: {}.",
        say(0),
        say(1)
    )
}
