//! `c4 play`: a game in the terminal against c4 at a chosen level. Moves and
//! commands are read as whitespace-separated words from stdin, so a game can
//! be typed or piped (`echo 4 4 3 | c4 play --as first`). When a game ends
//! its moves are printed (to hand to `c4 review` or the page), and it can be
//! taken back or played again.

mod board;

use std::convert::Infallible;
use std::io::{self, BufRead, IsTerminal, Write};

use anstream::{AutoStream, ColorChoice};
use clap::{Args, ValueEnum};

use c4::level::Level;
use c4::memory::{Need, solver_bytes};
use c4::rng::SplitMix64;
use c4::rules::{column_char, column_from_char, column_range, moves_to_string};
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
`hint` (every column's score and what it means), `undo` (take back your
last move and c4's reply) or `quit`; an empty line asks again. The board is
drawn once a turn, with the last stone played in [brackets]; on a terminal
X is red and O yellow (no colour when stdout is not a terminal or NO_COLOR
is set; CLICOLOR_FORCE=1 forces it).

When a game ends, at `quit` and at the end of the input, c4 prints the
game's moves as `c4 review` and the page of `c4 serve` take them:
`c4 review 4453...` and http://127.0.0.1:8080/?review#4453... At the end of
a game type `undo` (take back your last move), `new` (a rematch, with the
sides swapped) or `quit`.

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
  c4 play --level 0                against a beginner
  NO_COLOR=1 c4 play --level 2     an intermediate player, without colour")]
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
    #[arg(long, value_name = "L", default_value_t = 4, value_parser = parse_level)]
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

/// Parses `--level`: a number from 0 to 4, or says in words what levels
/// there are.
fn parse_level(text: &str) -> Result<u8, String> {
    let n: u64 = text.trim().parse().map_err(|_| {
        format!("'{text}' is not a level: levels run from 0 (beginner) to 4 (perfect)")
    })?;
    Level::new(n).map(Level::number).map_err(|e| e.to_string())
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
            if self.pending.is_empty() {
                // An empty line: the prompt again, on a line of its own (a
                // terminal has moved to the next line already).
                if self.echo {
                    writeln!(out)?;
                }
                write!(out, "{prompt}")?;
                out.flush()?;
            }
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

    /// The game's moves from the empty board, and how to look at them
    /// again: with `c4 review` and on the page of `c4 serve`, both in the
    /// notation they read.
    fn moves_text(&self) -> String {
        if self.moves.is_empty() {
            return "No moves were played.\n".to_owned();
        }
        let moves = moves_to_string(&self.moves);
        let (w, h) = (self.board.width(), self.board.height());
        let (options, hash) = if self.board == BoardSize::STANDARD {
            (String::new(), moves.clone())
        } else {
            (
                format!("--width {w} --height {h} "),
                format!("{w}x{h}:{moves}"),
            )
        };
        format!(
            "The game's moves: {moves}\n  review them:  c4 review {options}{moves}\n  \
             on the page:  http://127.0.0.1:8080/?review#{hash}  (while c4 serve runs)\n"
        )
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
    let stdout = io::stdout();
    let colour = matches!(
        AutoStream::choice(&stdout),
        ColorChoice::Always | ColorChoice::AlwaysAnsi
    );
    let level = Level::new(args.level.into()).expect("--level was checked");
    // A new game each time: the levels below perfect draw from the clock.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // The moves given: Game::parse took each character as a column.
    let from: Vec<usize> = args
        .from
        .trim()
        .chars()
        .filter_map(|ch| column_from_char(ch, board.width()))
        .collect();
    let mut out = stdout.lock();
    let mut games = Games {
        solver: solver.as_mut(),
        words: &mut words,
        out: &mut out,
        level,
        rng: SplitMix64::new(seed),
        colour,
    };
    match games.run(args.side, from, &start) {
        Ok(()) => EXIT_OK,
        Err(e) => after_write_error("play", &e, EXIT_OK),
    }
}

/// How a game ended, and what comes after it.
enum Ending {
    /// Play again, the sides swapped.
    Rematch,
    /// The player quit, or the input ended.
    Leave,
}

/// What a word typed after a game asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AfterGame {
    /// Take back the human's last move.
    Undo,
    /// Play again.
    Rematch,
    /// Stop playing.
    Quit,
}

/// Reads a word typed after a game, or says what may be typed.
fn parse_after_game(word: &str) -> Result<AfterGame, String> {
    match word.to_ascii_lowercase().as_str() {
        "undo" | "u" => Ok(AfterGame::Undo),
        "new" | "rematch" | "again" | "r" => Ok(AfterGame::Rematch),
        "quit" | "q" | "exit" => Ok(AfterGame::Quit),
        _ => Err(format!(
            "'{word}': type undo (take back your last move), new (a rematch) or quit"
        )),
    }
}

/// The games of one `c4 play` run: games against c4 on one solver, one after the
/// other.
struct Games<'a, R, W> {
    /// The solver c4 plays and hints with.
    solver: &'a mut dyn Engine,
    /// The player's words.
    words: &'a mut Words<R>,
    /// Where everything is written.
    out: &'a mut W,
    /// c4's level.
    level: Level,
    /// The random draws of the levels below perfect.
    rng: SplitMix64,
    /// Whether the board is drawn in colour.
    colour: bool,
}

impl<R: BufRead, W: Write> Games<'_, R, W> {
    /// Asks who starts unless `side` says, then plays games from `start`,
    /// the position after `from` (0-based columns), until the player quits
    /// or the input ends.
    fn run(&mut self, side: Option<Side>, from: Vec<usize>, start: &Game) -> io::Result<()> {
        let human = match side {
            Some(Side::First) => Player::First,
            Some(Side::Second) => Player::Second,
            None => loop {
                let prompt = "Do you want to move first? (y/n) ";
                let Some(word) = self.words.next(self.out, prompt)? else {
                    return Ok(());
                };
                match word.to_ascii_lowercase().as_str() {
                    "y" | "yes" | "first" => break Player::First,
                    "n" | "no" | "second" => break Player::Second,
                    _ => writeln!(
                        self.out,
                        "Please answer y (you move first) or n (c4 moves first)."
                    )?,
                }
            },
        };
        let mut game = GameRecord {
            board: start.board(),
            start: from.len(),
            moves: from,
            human,
        };
        debug_assert_eq!(&game.position(), start);
        let mut greeting = "You play";
        loop {
            writeln!(
                self.out,
                "{greeting} {} ({}); c4 plays at level {}. Type a column ({}), hint, undo or \
                 quit.",
                game.human.symbol(),
                if game.human == Player::First {
                    "first"
                } else {
                    "second"
                },
                self.level,
                column_range(start.width())
            )?;
            match self.game(&mut game)? {
                Ending::Leave => return Ok(()),
                Ending::Rematch => {
                    game.moves.truncate(game.start);
                    game.human = game.human.other();
                    greeting = "Rematch: you play";
                }
            }
        }
    }

    /// Plays `game` until it is over and the player leaves or asks for a
    /// rematch; an undo at the end goes on with the game.
    fn game(&mut self, game: &mut GameRecord) -> io::Result<Ending> {
        let width = game.board.width();
        // Whether the position changed since the board was last drawn.
        let mut changed = true;
        loop {
            let pos = game.position();
            if pos.is_game_over() {
                self.draw(game)?;
                let result = if pos.is_full() && !pos.is_won() {
                    "Draw."
                } else if pos.side_to_move().other() == game.human {
                    "You win!"
                } else {
                    "c4 wins."
                };
                writeln!(self.out, "Game over: {result}\n\n{}", game.moves_text())?;
                match self.after_game(game)? {
                    Some(ending) => return Ok(ending),
                    None => {
                        changed = true;
                        continue;
                    }
                }
            }
            if pos.side_to_move() != game.human {
                let line = self.c4_move(&pos, game)?;
                writeln!(self.out, "{line}")?;
                changed = true;
                continue;
            }
            if changed {
                self.draw(game)?;
                changed = false;
            }
            let Some(word) = self.words.next(self.out, "your move> ")? else {
                write!(self.out, "{}", game.moves_text())?;
                return Ok(Ending::Leave);
            };
            match parse_request(&word, width) {
                Err(message) => writeln!(self.out, "{message}")?,
                Ok(Request::Quit) => {
                    writeln!(self.out, "{}Bye.", game.moves_text())?;
                    return Ok(Ending::Leave);
                }
                Ok(Request::Hint) => write!(self.out, "{}", hint(self.solver, &pos))?,
                Ok(Request::Undo) => {
                    if game.undo() {
                        writeln!(self.out, "Taken back.")?;
                        changed = true;
                    } else {
                        writeln!(self.out, "Nothing to undo.")?;
                    }
                }
                Ok(Request::Column(col)) => {
                    if pos.can_play(col) {
                        game.moves.push(col);
                        changed = true;
                    } else {
                        writeln!(
                            self.out,
                            "Column {} is full; choose another.",
                            column_char(col)
                        )?;
                    }
                }
            }
        }
    }

    /// Draws the board of `game` with its last move marked, and a blank
    /// line after it.
    fn draw(&mut self, game: &GameRecord) -> io::Result<()> {
        let drawing = board::draw(&game.position(), game.moves.last().copied(), self.colour);
        writeln!(self.out, "\n{drawing}\n")
    }

    /// Plays c4's move in `pos`, the position of `game`, and says which it
    /// was (and, at the perfect level, how the game ends).
    fn c4_move(&mut self, pos: &Game, game: &mut GameRecord) -> io::Result<String> {
        if self.level != Level::PERFECT {
            let solver = &mut *self.solver;
            let choice = self
                .level
                .choose(pos, &mut self.rng, || {
                    Ok::<_, Infallible>(solver.analyze(pos))
                })
                .unwrap_or_else(|never| match never {});
            game.moves.push(choice.column);
            return Ok(format!("c4 plays {}", column_char(choice.column)));
        }
        let (col, score) = self
            .solver
            .best_move(pos)
            .expect("the game is not over, so there is a move");
        game.moves.push(col);
        Ok(format!(
            "c4 plays {} (c4 {})",
            column_char(col),
            meaning(pos, score)
        ))
    }

    /// Asks what to do once `game` is over: `None` after an undo (the game
    /// goes on), else how the games go on.
    fn after_game(&mut self, game: &mut GameRecord) -> io::Result<Option<Ending>> {
        writeln!(
            self.out,
            "Type undo (take back your last move), new (a rematch) or quit."
        )?;
        loop {
            let Some(word) = self.words.next(self.out, "after the game> ")? else {
                return Ok(Some(Ending::Leave));
            };
            match parse_after_game(&word) {
                Err(message) => writeln!(self.out, "{message}")?,
                Ok(AfterGame::Quit) => {
                    writeln!(self.out, "Bye.")?;
                    return Ok(Some(Ending::Leave));
                }
                Ok(AfterGame::Rematch) => {
                    writeln!(self.out)?;
                    return Ok(Some(Ending::Rematch));
                }
                Ok(AfterGame::Undo) => {
                    if game.undo() {
                        writeln!(self.out, "Taken back.")?;
                        return Ok(None);
                    }
                    writeln!(self.out, "Nothing to undo: you have not moved.")?;
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
    fn after_a_game_and_levels() {
        assert_eq!(parse_after_game("UNDO"), Ok(AfterGame::Undo));
        assert_eq!(parse_after_game("new"), Ok(AfterGame::Rematch));
        assert_eq!(parse_after_game("q"), Ok(AfterGame::Quit));
        let e = parse_after_game("4").unwrap_err();
        assert!(e.contains("type undo"), "{e}");
        assert_eq!(parse_level("2"), Ok(2));
        for bad in ["5", "x", "-1"] {
            let e = parse_level(bad).unwrap_err();
            assert!(
                e.contains("levels run from 0 (beginner) to 4 (perfect)"),
                "{e}"
            );
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
