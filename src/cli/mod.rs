//! The command-line interface: clap definitions and dispatch. Each subcommand
//! lives in its own module with its arguments and a `run` function; this
//! module holds what they share (table size, exit codes).

pub mod analyze;
pub mod bench;
pub mod book;
pub mod generate;
pub mod input;
pub mod output;
pub mod play;
pub mod serve;
pub mod solve;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use c4::BoardSize;
use c4::board::ForBoard;

/// Exit status: everything went well.
pub const EXIT_OK: u8 = 0;
/// Exit status: some input line was invalid, or a benchmark found a mismatch.
pub const EXIT_BAD_INPUT: u8 = 1;
/// Exit status: the command line itself was wrong (clap uses 2 too).
pub const EXIT_USAGE: u8 = 2;

/// c4: the exact, perfect-play score of any Connect Four position.
#[derive(Parser, Debug)]
#[command(
    name = "c4",
    version,
    about = "Connect Four perfect-play solver",
    after_help = "Examples:\n  c4 solve 4453              score of the position after moves 4,4,5,3\n  c4 solve < positions.txt   one result line per input line\n  c4 solve --pv 4453         the score and a perfect-play line\n  c4 analyze 4453            every column's score and the best move\n  c4 bench                   run the test sets in testsets/\n  c4 play                    a game against perfect play\n  c4 book info builtin       the opening book built into c4"
)]
pub struct Cli {
    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve positions given as arguments or read one per line from stdin.
    Solve(solve::SolveArgs),
    /// Show a position, every column's score and the best move.
    Analyze(analyze::AnalyzeArgs),
    /// Benchmark test-set files of `moves score` lines.
    Bench(bench::BenchArgs),
    /// Generate a graded test set of random positions.
    Generate(generate::GenerateArgs),
    /// Generate, merge, describe and verify opening books.
    Book(book::BookArgs),
    /// Play a game against perfect play in the terminal.
    Play(play::PlayArgs),
    /// Serve a web page that shows the board and scores, and plays.
    Serve(serve::ServeArgs),
}

/// Options every solving command shares.
#[derive(Args, Debug, Clone)]
pub struct TableArgs {
    /// Transposition table size per solver, e.g. 64M, 1G, 512K (bytes;
    /// rounded down to a power of two). It serves the searches from the
    /// earliest positions (under 3 stones, or over 39 empty cells); the
    /// others use a 1 MiB table of their own, faster because it stays in
    /// cache (with several threads on one position, each thread has its own
    /// and they share a 4 MiB one for the nodes near the root). The empty
    /// board needs no more than the default: 1G searches the same nodes.
    #[arg(long = "tt-size", value_name = "SIZE", default_value = "64M", value_parser = parse_size)]
    pub tt_size: usize,
}

/// The board options every command shares.
#[derive(Args, Debug, Clone, Copy)]
pub struct BoardArgs {
    /// Columns of the board: 4 or more, with width x (height + 1) at most
    /// 64 (so up to 12 columns on a 4-row board). Columns 10 and up are
    /// written a, b, c in move strings.
    #[arg(
        long,
        value_name = "W",
        default_value_t = 7,
        global = true,
        help_heading = "Board"
    )]
    pub width: usize,
    /// Rows of the board: 4 or more (up to 15 on a 4-column board).
    #[arg(
        long,
        value_name = "H",
        default_value_t = 6,
        global = true,
        help_heading = "Board"
    )]
    pub height: usize,
}

impl BoardArgs {
    /// The board asked for, or the usage exit status after saying why it is
    /// not supported.
    pub fn board(&self, command: &str) -> Result<BoardSize, u8> {
        BoardSize::new(self.width, self.height).map_err(|e| {
            eprintln!("c4 {command}: --width/--height: {e}");
            EXIT_USAGE
        })
    }

    /// Runs `job` on the board asked for (see [`ForBoard`]); an unsupported
    /// board is a usage error.
    pub fn dispatch<J: ForBoard<Output = u8>>(&self, command: &str, job: J) -> u8 {
        match self.board(command) {
            Ok(board) => board.dispatch(job),
            Err(code) => code,
        }
    }
}

/// Parses a byte size: a number with an optional K, M, G or T suffix (powers of
/// 1024), with or without a trailing `B` / `iB`.
pub fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let upper = t.to_ascii_uppercase();
    let body = upper
        .strip_suffix("IB")
        .or_else(|| upper.strip_suffix('B'))
        .unwrap_or(&upper);
    let (digits, shift) = match body.chars().last() {
        Some('K') => (&body[..body.len() - 1], 10),
        Some('M') => (&body[..body.len() - 1], 20),
        Some('G') => (&body[..body.len() - 1], 30),
        Some('T') => (&body[..body.len() - 1], 40),
        _ => (body, 0),
    };
    let n: usize = digits
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a size (examples: 64M, 1G, 512K)"))?;
    n.checked_mul(1usize << shift)
        .filter(|&b| b > 0)
        .ok_or_else(|| format!("'{text}' is not a usable size"))
}

/// Parses the command line and runs the subcommand.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match &cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Book(args) => book::run(args),
        Command::Play(args) => play::run(args),
        Command::Serve(args) => serve::run(args),
    };
    ExitCode::from(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("1gib"), Ok(1 << 30));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("12Q").is_err());
        assert!(parse_size("0").is_err());
    }
}
