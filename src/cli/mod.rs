//! The command-line interface: the clap definition of `c4` and the dispatch
//! to the subcommands. Each subcommand lives in its own module with its
//! arguments and a `run` function; what they share lives in `options`,
//! `limits`, `input`, `output` and `status`, and no subcommand
//! imports another.

pub mod analyze;
pub mod bench;
pub mod book;
pub mod completions;
pub mod explain;
pub mod generate;
pub mod input;
pub mod limits;
pub mod options;
pub mod output;
pub mod play;
pub mod review;
pub mod serve;
pub mod solve;
pub mod status;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// c4: the exact, perfect-play score of any Connect Four position.
#[derive(Parser, Debug)]
#[command(
    name = "c4",
    version,
    about = "Connect Four perfect-play solver",
    after_help = "Examples:\n  c4 solve 4453              score of the position after moves 4,4,5,3\n  c4 solve < positions.txt   one result line per input line\n  c4 solve --pv 4453         the score and a perfect-play line\n  c4 analyze 4453            every column's score and the best move\n  c4 review 4455443          every move of a game judged against perfect play\n  c4 bench                   run the test sets in testsets/\n  c4 play                    a game against perfect play\n  c4 book info builtin       the opening book built into c4\n\nEach solving command's --help says how much memory a run takes: c4 adds it up\nbefore it allocates and refuses a run that does not fit."
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
    /// Show positions, every column's score and the best move.
    Analyze(analyze::AnalyzeArgs),
    /// Benchmark test-set files of `moves score` lines.
    Bench(bench::BenchArgs),
    /// Generate a graded test set of random positions.
    Generate(generate::GenerateArgs),
    /// Generate, merge, describe and verify opening books.
    Book(book::BookArgs),
    /// Play a game against perfect play in the terminal.
    Play(play::PlayArgs),
    /// Judge games move by move against perfect play.
    Review(review::ReviewArgs),
    /// Say why: the result and the strategy of Allis's rules behind it.
    Explain(explain::ExplainArgs),
    /// Serve a web page that shows the board and scores, and plays.
    Serve(serve::ServeArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell).
    Completions(completions::CompletionsArgs),
    /// Print the man page (roff), or write every page into a directory.
    #[command(hide = true)]
    Man(completions::ManArgs),
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
        Command::Review(args) => review::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Completions(args) => completions::run(args, Cli::command()),
        Command::Man(args) => completions::run_man(args, Cli::command()),
    };
    ExitCode::from(code)
}
