//! `c4 play`: a game in the terminal against c4 at a chosen level. Moves and
//! commands are read as whitespace-separated words from stdin, so a game can
//! be typed or piped (`echo 4 4 3 | c4 play --as first`).

use std::convert::Infallible;
use std::io::{self, BufRead, IsTerminal, Write};

use clap::{Args, ValueEnum};

use c4::level::Level;
use c4::memory::{Need, solver_bytes};
use c4::rng::SplitMix64;
use c4::rules::{column_char, column_from_char, column_range};
use c4::{BoardSize, Engine, Game, Player, Score, engine};

use super::limits::check_memory;
use super::options::{
    BoardArgs, BookChoice, EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE, TableArgs, load_book,
    parse_threads, resolve_threads,
};
use super::output::{after_write_error, warn};
use c4::report::{Outcome, outcome};

/// Which side the human plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// X, who moves first.
    First,
    /// O, who moves second.
    Second,
}

/// Arguments of `c4 play`.
#[derive(Args, Debug)]
#[command(after_help = "\
At the prompt type a column (1-7 on 7x6; a, b, c for columns 10 and up),
`hint` (every column's score and what it means), `undo` (take back your last move and c4's reply) or `quit`. The game
also ends at the end of the input. The board is drawn after every move.

Levels (--level): 0 beginner (a random move that does not lose at once,
and one move in four any move at all), 1 novice, 2 intermediate (half, then
four in five, of their moves keep the perfect-play outcome, the others are a
beginner's), 3 strong (never gives away the perfect-play outcome), 4 perfect
(the default: the best score, the most central column among equals).

Memory: about tt-size + 1 MiB on one thread (a table of --tt-size, whose
pages only searches from the earliest positions take, and a 1 MiB table);
with N threads, 1 MiB per thread and 4 MiB they share more; and 8.4 MiB
while the built-in book loads. c4 adds this up before it allocates anything
and refuses a run that does not fit in the memory available.

Exit status: 0 when the game ended, was quit or the input ended; 1 for an
invalid --from position or book; 2 for a bad command line, or a run that
does not fit in memory.

Examples:
  c4 play                          you are asked who starts
  c4 play --as second              c4 opens
  echo 4 4 3 hint | c4 play --as first
  c4 play --from 4453 --as first   continue from a position
  c4 play --level 0                against a beginner")]
pub struct PlayArgs {
    /// Your side: first (X, moves first) or second (O); asked if not given.
    #[arg(long = "as", value_enum, value_name = "SIDE")]
    pub side: Option<Side>,
    /// Start from this position (columns played, e.g. 4453) instead of the
    /// empty board.
    #[arg(long, value_name = "MOVES", default_value = "")]
    pub from: String,
    /// Search each position c4 solves with N threads; 0 uses every core.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_threads)]
    pub threads: usize,
    /// c4's level: 0 (beginner) to 4 (perfect); see below.
    #[arg(long, value_name = "L", default_value_t = 4, value_parser = clap::value_parser!(u8).range(0..=4))]
    pub level: u8,
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

/// Runs `c4 play`; returns the exit status.
pub fn run(args: &PlayArgs) -> u8 {
    match args.board.board("play") {
        Ok(board) => run_play(board, args),
        Err(code) => code,
    }
}

/// Words read from stdin, with a prompt before each.
struct Words<R> {
    /// The input.
    input: R,
    /// Words of the current line not used yet, in order.
    pending: std::collections::VecDeque<String>,
    /// Whether to echo each word after its prompt (input that is not a
    /// terminal, so that the transcript reads as if typed).
    echo: bool,
}

impl<R: BufRead> Words<R> {
    /// The next word, after printing `prompt`; `None` at the end of input.
    fn next(&mut self, out: &mut impl Write, prompt: &str) -> io::Result<Option<String>> {
        write!(out, "{prompt}")?;
        out.flush()?;
        while self.pending.is_empty() {
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return Ok(None);
            }
            self.pending
                .extend(line.split_whitespace().map(str::to_owned));
        }
        let word = self.pending.pop_front().expect("not empty");
        if self.echo {
            writeln!(out, "{word}")?;
        }
        Ok(Some(word))
    }
}

/// What a word typed at the move prompt asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Request {
    /// Play this 0-based column.
    Column(usize),
    /// Show every column's score.
    Hint,
    /// Take back the last own move and the reply.
    Undo,
    /// End the game.
    Quit,
}

/// Reads a word typed at the move prompt on a board `width` columns wide,
/// or says what is wrong with it.
fn parse_request(word: &str, width: usize) -> Result<Request, String> {
    match word.to_ascii_lowercase().as_str() {
        "hint" | "h" | "?" => return Ok(Request::Hint),
        "undo" | "u" => return Ok(Request::Undo),
        "quit" | "q" | "exit" => return Ok(Request::Quit),
        _ => {}
    }
    let mut chars = word.chars();
    if let (Some(ch), None) = (chars.next(), chars.next())
        && let Some(col) = column_from_char(ch, width)
    {
        return Ok(Request::Column(col));
    }
    Err(format!(
        "'{word}' is not a column ({}) or a command (hint, undo, quit)",
        column_range(width)
    ))
}

/// What the score of a move means for the player making it: "wins on move
/// 31", "loses on move 30" or "draw".
fn meaning(pos: &Game, score: Score) -> String {
    match outcome(pos, score) {
        Outcome::Draw => "draw".to_owned(),
        Outcome::Win {
            winner, on_move, ..
        } => {
            if winner == pos.side_to_move() {
                format!("wins on move {on_move}")
            } else {
                format!("loses on move {on_move}")
            }
        }
    }
}

/// The hint: every column's score for the side to move and its meaning.
fn hint(solver: &mut dyn Engine, pos: &Game) -> String {
    let scores = solver.analyze(pos);
    let best = scores.iter().flatten().max().copied();
    let mut text = String::new();
    for (col, score) in scores.iter().enumerate() {
        let line = match score {
            None => format!("  column {}: full\n", column_char(col)),
            Some(s) => format!(
                "  column {}: {:>3}  {}{}\n",
                column_char(col),
                if *s > 0 {
                    format!("+{s}")
                } else {
                    s.to_string()
                },
                meaning(pos, *s),
                if Some(*s) == best { "  (best)" } else { "" }
            ),
        };
        text.push_str(&line);
    }
    text
}

/// A game in progress: the moves played on its board.
struct GameRecord {
    /// The board.
    board: BoardSize,
    /// Moves from the empty board, 0-based columns.
    moves: Vec<usize>,
    /// How many of `moves` were given with --from (not to be undone).
    start: usize,
    /// The human's side.
    human: Player,
}

impl GameRecord {
    /// The current position.
    fn position(&self) -> Game {
        let mut pos = Game::new(self.board);
        for &col in &self.moves {
            pos.play_col(col);
        }
        pos
    }

    /// Who played move `i` (0-based).
    fn mover(i: usize) -> Player {
        if i.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    /// Takes back the human's last move and everything after it; false if
    /// the human has no move to take back.
    fn undo(&mut self) -> bool {
        let Some(last) = (self.start..self.moves.len())
            .rev()
            .find(|&i| Self::mover(i) == self.human)
        else {
            return false;
        };
        self.moves.truncate(last);
        true
    }
}

/// `c4 play` on `board`.
fn run_play(board: BoardSize, args: &PlayArgs) -> u8 {
    let start = match Game::parse(board, &args.from) {
        Ok(pos) => pos,
        Err(e) => {
            warn(format_args!("c4 play: --from {}: {e}", args.from.trim()));
            return EXIT_BAD_INPUT;
        }
    };
    let threads = resolve_threads(args.threads);
    let need = Need {
        solvers: 1,
        per_solver: solver_bytes(args.table.tt_size, board.key_bits(), threads),
        positions: 0,
        book: args.book.memory(board),
    };
    if let Err(code) = check_memory("play", &need, "lower --threads or --tt-size") {
        return code;
    }
    let mut solver = match engine::new(board, args.table.tt_size) {
        Ok(s) => s,
        Err(e) => {
            warn(format_args!("c4 play: --tt-size: {e}"));
            return EXIT_USAGE;
        }
    };
    solver.set_threads(threads);
    match load_book(&args.book, "play", board) {
        Ok(book) => solver
            .set_book(book)
            .expect("the book was loaded for this board"),
        Err(code) => return code,
    }
    let stdin = io::stdin();
    let echo = !stdin.is_terminal();
    let mut words = Words {
        input: stdin.lock(),
        pending: Default::default(),
        echo,
    };
    let mut out = io::stdout().lock();
    match play(solver.as_mut(), &mut words, &mut out, args, start) {
        Ok(()) => EXIT_OK,
        Err(e) => after_write_error("play", &e, EXIT_OK),
    }
}

/// The game loop; returns when the game ends, is quit or the input ends.
fn play<R: BufRead>(
    solver: &mut dyn Engine,
    words: &mut Words<R>,
    out: &mut impl Write,
    args: &PlayArgs,
    start: Game,
) -> io::Result<()> {
    let width = start.width();
    let human = match args.side {
        Some(Side::First) => Player::First,
        Some(Side::Second) => Player::Second,
        None => loop {
            let Some(word) = words.next(out, "Do you want to move first? (y/n) ")? else {
                return Ok(());
            };
            match word.to_ascii_lowercase().as_str() {
                "y" | "yes" | "first" => break Player::First,
                "n" | "no" | "second" => break Player::Second,
                _ => writeln!(
                    out,
                    "Please answer y (you move first) or n (c4 moves first)."
                )?,
            }
        },
    };
    let moves: Vec<usize> = args
        .from
        .trim()
        .chars()
        .filter_map(|ch| column_from_char(ch, width))
        .collect();
    let mut game = GameRecord {
        board: start.board(),
        start: moves.len(),
        moves,
        human,
    };
    debug_assert_eq!(game.position(), start);
    let level = Level::new(args.level.into()).expect("clap checks the range");
    // A new game each time: the levels below perfect draw from the clock.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut rng = SplitMix64::new(seed);
    writeln!(
        out,
        "You play {} ({}). Type a column ({}), hint, undo or quit.\n",
        human.symbol(),
        if human == Player::First {
            "first"
        } else {
            "second"
        },
        column_range(width)
    )?;
    writeln!(out, "{}\n", game.position())?;
    loop {
        let pos = game.position();
        if pos.is_game_over() {
            let result = if pos.is_full() && !pos.is_won() {
                "Draw.".to_owned()
            } else if pos.side_to_move().other() == human {
                "You win!".to_owned()
            } else {
                "c4 wins.".to_owned()
            };
            writeln!(out, "Game over: {result}")?;
            return Ok(());
        }
        if pos.side_to_move() != human {
            if level != Level::PERFECT {
                let choice = level
                    .choose(&pos, &mut rng, || Ok::<_, Infallible>(solver.analyze(&pos)))
                    .unwrap_or_else(|never| match never {});
                game.moves.push(choice.column);
                let after = game.position();
                writeln!(out, "c4 plays {}\n\n{after}\n", column_char(choice.column))?;
                continue;
            }
            let (col, score) = solver
                .best_move(&pos)
                .expect("the game is not over, so there is a move");
            game.moves.push(col);
            let after = game.position();
            writeln!(
                out,
                "c4 plays {} (c4 {})\n\n{after}\n",
                column_char(col),
                meaning(&pos, score)
            )?;
            continue;
        }
        let Some(word) = words.next(out, "your move> ")? else {
            return Ok(());
        };
        match parse_request(&word, width) {
            Err(message) => writeln!(out, "{message}")?,
            Ok(Request::Quit) => {
                writeln!(out, "Bye.")?;
                return Ok(());
            }
            Ok(Request::Hint) => write!(out, "{}", hint(solver, &pos))?,
            Ok(Request::Undo) => {
                if game.undo() {
                    writeln!(out, "Taken back.\n\n{}\n", game.position())?;
                } else {
                    writeln!(out, "Nothing to undo.")?;
                }
            }
            Ok(Request::Column(col)) => {
                if !pos.can_play(col) {
                    writeln!(out, "Column {} is full; choose another.", column_char(col))?;
                } else {
                    game.moves.push(col);
                    writeln!(out, "\n{}\n", game.position())?;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests() {
        assert_eq!(parse_request("4", 7), Ok(Request::Column(3)));
        assert_eq!(parse_request("HINT", 7), Ok(Request::Hint));
        assert_eq!(parse_request("u", 7), Ok(Request::Undo));
        assert_eq!(parse_request("quit", 7), Ok(Request::Quit));
        for bad in ["8", "0", "44", "x", "-1"] {
            let e = parse_request(bad, 7).unwrap_err();
            assert!(e.contains("is not a column (1-7)"), "{e}");
        }
    }

    #[test]
    fn meanings() {
        let empty = Game::new(BoardSize::STANDARD);
        assert_eq!(meaning(&empty, 1), "wins on move 41");
        assert_eq!(meaning(&empty, 0), "draw");
        assert_eq!(meaning(&empty, -1), "loses on move 42");
    }

    #[test]
    fn undo_takes_back_the_reply_too() {
        let mut g = GameRecord {
            board: BoardSize::STANDARD,
            moves: vec![3, 3, 2],
            start: 0,
            human: Player::Second,
        };
        assert!(g.undo());
        assert_eq!(g.moves, vec![3]);
        assert!(!g.undo());
        let mut g = GameRecord {
            board: BoardSize::STANDARD,
            moves: vec![3, 3, 2, 4],
            start: 2,
            human: Player::First,
        };
        assert!(g.undo());
        assert_eq!(g.moves, vec![3, 3]);
        assert!(!g.undo());
    }
}
