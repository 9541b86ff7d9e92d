//! `c4 analyze`: one position in detail: the board, every column's score, the
//! best move and what the score means.

use std::ffi::OsString;
use std::io::{self, Write};

use clap::Args;

use c4::input::parse_moves;
use c4::memory::{Need, solver_bytes};
use c4::{Engine, Game, Score};

use super::input::raw_from_arg;
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
  c4 analyze --weak 2416615552  who wins with each move, not when"
    };
}

/// Examples shown after `c4 analyze -h`.
const EXAMPLES: &str = examples!();

/// What `c4 analyze --help` adds after the options: formats, exit status and
/// the examples.
const LONG_HELP: &str = concat!(
    "\
The position is the columns played, 1-based, e.g. 4453 ('' is the empty board:
instant with the built-in book, long to solve without it). A column's score is the score of the position for
the side to move if it plays there: positive if it then wins (22 minus the
number of stones it has played when it wins, on 7x6), 0 for a draw, negative
if it loses; `-` marks a full column. The best move is the highest-scoring
column, the most central one among equals, and its score is the position's
score.

--json prints one object: moves, board_size (e.g. \"7x6\"), board (rows top first, `X`, `O`, `.`),
side_to_move, moves_played, game_over, winner (null unless someone has
connected four), weak, scores (one per column, null if full), best_move
(1-based, null once the game is over), score, win_on_move (the game's move
that wins, null for a draw or with --weak) and result (the score in words).

Progress: on a terminal, columns that take longer than a second to score
show a status line on stderr: time, nodes, nodes per second, and each
column under way with the interval its score is proved to lie in (`column
4: score in [-1, 3]`), cleared when the analysis is printed. Nothing
appears on a pipe; --progress prints one plain line each time an interval
narrows.

Memory: about N x (tt-size + 1 MiB) with N threads, up to one solver per
column (a table of --tt-size, whose pages only searches from the earliest
positions take, and a 1 MiB table each; threads that search one column
together take 1 MiB each and share 4 MiB more), and 8.4 MiB while the
built-in book loads. c4 adds this up before it allocates anything and
refuses a run that does not fit in the memory available.

Exit status: 0 when the position was analysed (a finished game included), 1
for an invalid position (the message names the character), 2 for a bad command
line, or a run that does not fit in memory.

",
    examples!()
);

/// Arguments of `c4 analyze`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = LONG_HELP)]
pub struct AnalyzeArgs {
    /// The position: the columns played, e.g. 4453 ('' is the empty board).
    #[arg(value_name = "POSITION")]
    pub position: OsString,
    /// Score each column only by who wins (-1, 0, 1); faster.
    #[arg(long)]
    pub weak: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Score the columns on N threads: one solver per column up to N, each
    /// with its own tables (see Memory in --help), the spare threads searching
    /// each column together; 0 uses every core.
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

/// Runs `c4 analyze` on the board `args` asks for; returns the exit status.
pub fn run(args: &AnalyzeArgs) -> u8 {
    let board = match args.board.board("analyze") {
        Ok(board) => board,
        Err(code) => return code,
    };
    let raw = raw_from_arg(1, &args.position);
    let (moves, pos) = match parse_moves(board, &raw.bytes) {
        Ok(parsed) => parsed,
        Err(e) => {
            warn(format_args!(
                "c4 analyze: invalid position '{}': {e}",
                raw.display_text()
            ));
            return EXIT_BAD_INPUT;
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
    let analysis = summarize(solver.as_mut(), moves.to_owned(), &pos, args.weak, scores);
    let text = if args.json {
        serde_json::to_string(&analysis).expect("plain structs serialize") + "\n"
    } else {
        render_text(&analysis, &pos)
    };
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => EXIT_OK,
        Err(e) => after_write_error("analyze", &e, EXIT_OK),
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
