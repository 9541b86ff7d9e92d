//! `c4 generate`: make a graded test set of random positions.
//!
//! Output: a board header line (`# board 7x6`) then `moves score` lines,
//! the standard test-set format, on stdout or in
//! the `--out` file (written only once the whole set is found, so a failed
//! run leaves no partial file). A summary goes to stderr: the seed, the
//! candidates tried, the classes and node counts. Exit status 0 on success;
//! 1 if not enough positions were found within `--max-tries` or the output
//! cannot be written; 2 for usage errors (an impossible move range, a table
//! size that cannot work, a run that does not fit in memory).

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use c4::BoardSize;
use c4::memory::{Need, solver_bytes};
use c4::testset::generate::DEFAULT_MAX_NODES;
use c4::testset::{
    Difficulty, GenerateConfig, GenerateError, GenerateProgress, GeneratedCase, Grading,
    board_header, generate,
};

use super::limits::check_memory;
use super::options::{
    BoardArgs, EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE, TableArgs, human_duration, parse_count,
    parse_threads, parse_u64, resolve_threads,
};
use super::output::{after_write_error, warn};

/// Arguments of `c4 generate`.
#[derive(Args, Debug)]
#[command(after_help = "\
Positions are random games in which neither side wins or hands the other an
immediate win; none is already won or won in one move, none repeats (mirror
images included). Each is solved exactly from a cleared table and graded by
its node count: easy below 2,000 nodes, medium below 200,000, hard from
there on (see testsets/README.md). Candidates that would need more than
--max-nodes are skipped, so that no single solve takes hours.

Memory: about N x (tt-size + 1 MiB) with N threads (each worker's table of
--tt-size, whose pages only searches from the earliest positions take, and
its 1 MiB table), up to 120 bytes and twice --max-moves per position wanted,
and 40 bytes per candidate drawn (--max-tries at most). c4 adds this up
before it allocates anything and refuses a run that does not fit in the
memory available (exit status 2).

Examples:
  c4 generate --count 5 --min-moves 29 --max-moves 41 --seed 1
  c4 generate --count 500 --min-moves 15 --max-moves 28 --difficulty medium \\
      --seed 3 --threads 2 --out testsets/middle-medium.txt")]
pub struct GenerateArgs {
    /// Number of positions to generate.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = parse_count)]
    pub count: usize,

    /// The fewest moves played in a position (at least 1).
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = parse_count)]
    pub min_moves: usize,

    /// The most moves played in a position (at most one less than the
    /// board's cells).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_MOVES, value_parser = parse_count)]
    pub max_moves: usize,

    /// Keep only positions of this class [default: any].
    #[arg(long, value_name = "CLASS", value_parser = ["easy", "medium", "hard"])]
    pub difficulty: Option<String>,

    /// Seed of the random generator [default: from the clock; the summary
    /// on stderr says which, to run it again].
    #[arg(long, value_name = "N", value_parser = parse_u64)]
    pub seed: Option<u64>,

    /// Write the set to FILE instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Worker threads solving candidates, each with its own tables (see
    /// Memory below); 0 uses every core.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_threads)]
    pub threads: usize,

    /// Give up after drawing this many candidates [default: 1000 per
    /// position wanted].
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub max_tries: Option<usize>,

    /// Skip candidates that need more nodes than this (0: no limit, which
    /// may take hours on positions of few moves).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES)]
    pub max_nodes: u64,

    /// Transposition table options.
    #[command(flatten)]
    pub table: TableArgs,

    /// Board size; the set's first line records it (`# board WxH`).
    #[command(flatten)]
    pub board: BoardArgs,
}

/// The default of --max-moves, named when a --min-moves above it is refused.
const DEFAULT_MAX_MOVES: usize = 14;

/// Checks --min-moves and --max-moves on `board`, or says in words which is
/// wrong and what would do.
fn check_move_range(args: &GenerateArgs, board: BoardSize) -> Result<(), String> {
    let last = board.cells() - 1;
    let (min, max) = (args.min_moves, args.max_moves);
    if min == 0 {
        return Err("--min-moves 0: a position has at least 1 move".to_owned());
    }
    for (flag, n) in [("--min-moves", min), ("--max-moves", max)] {
        if n > last {
            return Err(format!(
                "{flag} {n}: a position on {board} has at most {last} moves"
            ));
        }
    }
    if min > max {
        let default = if max == DEFAULT_MAX_MOVES {
            " (the default)"
        } else {
            ""
        };
        return Err(format!(
            "--min-moves {min} is more than --max-moves {max}{default}: give --max-moves \
             {min} or more"
        ));
    }
    Ok(())
}

/// Runs `c4 generate`; returns the exit status.
pub fn run(args: &GenerateArgs) -> u8 {
    let board = match args.board.board("generate") {
        Ok(board) => board,
        Err(code) => return code,
    };
    let difficulty = args.difficulty.as_deref().map(|d| {
        d.parse::<Difficulty>()
            .expect("clap only lets the class names through")
    });
    if let Err(message) = check_move_range(args, board) {
        warn(format_args!("c4 generate: {message}"));
        return EXIT_USAGE;
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    let config = GenerateConfig {
        count: args.count,
        min_moves: args.min_moves,
        max_moves: args.max_moves,
        difficulty,
        grading: Grading::STANDARD,
        seed,
        threads: resolve_threads(args.threads),
        table_bytes: args.table.tt_size,
        max_tries: args
            .max_tries
            .unwrap_or_else(|| args.count.saturating_mul(1000).max(1000)),
        max_nodes: (args.max_nodes > 0).then_some(args.max_nodes),
    };
    let need = Need {
        solvers: config.threads,
        per_solver: solver_bytes(config.table_bytes, board.key_bits(), 1),
        // The set, then its text: a line per position, moves and score.
        positions: config.set_bytes().saturating_add(
            config
                .count
                .saturating_mul(config.max_moves.saturating_add(8)),
        ),
        book: 0,
    };
    if let Err(code) = check_memory(
        "generate",
        &need,
        "lower --threads, --tt-size, --count or --max-tries",
    ) {
        return code;
    }

    let start = Instant::now();
    let bar = progress_bar(args.count);
    let last = std::cell::Cell::new(None);
    let result = generate(board, &config, |p: GenerateProgress| {
        last.set(Some(p));
        if let Some(bar) = &bar {
            bar.set_position(p.found as u64);
            bar.set_message(format!(
                "{} tried, {} searched, {} over budget",
                p.tried, p.searched, p.over_budget
            ));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let cases = match result {
        Ok(cases) => cases,
        Err(e) => {
            warn(format_args!("c4 generate: {e}"));
            return match e {
                GenerateError::GaveUp { .. } => EXIT_BAD_INPUT,
                GenerateError::InvalidRange { .. } | GenerateError::Pool(_) => EXIT_USAGE,
            };
        }
    };

    let mut text = board_header(board) + "\n";
    text.extend(cases.iter().map(|g| format!("{}\n", g.case)));
    match &args.out {
        None => {
            let mut out = io::stdout().lock();
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                return after_write_error("generate", &e, EXIT_OK);
            }
        }
        Some(path) => {
            if let Err(e) = fs::write(path, &text) {
                warn(format_args!(
                    "c4 generate: cannot write {}: {e}",
                    path.display()
                ));
                return EXIT_BAD_INPUT;
            }
        }
    }
    let (tried, searched, over_budget) = last
        .get()
        .map_or((0, 0, 0), |p| (p.tried, p.searched, p.over_budget));
    warn(format_args!(
        "c4 generate: {} positions, seed {seed}, in {}; {tried} candidates drawn, \
         {searched} searched, {over_budget} over the node budget; {}",
        cases.len(),
        human_duration(start.elapsed()),
        class_summary(&cases)
    ));
    EXIT_OK
}

/// A progress bar of positions found, on stderr if it is a terminal.
fn progress_bar(count: usize) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(count as u64);
    bar.set_style(
        ProgressStyle::with_template("generating [{bar:40}] {pos}/{len} found, {msg} {elapsed}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    Some(bar)
}

/// How many positions of each class, and the range of node counts.
fn class_summary(cases: &[GeneratedCase]) -> String {
    let counts: Vec<String> = Difficulty::ALL
        .iter()
        .map(|&d| {
            let n = cases.iter().filter(|g| g.difficulty == d).count();
            format!("{d} {n}")
        })
        .collect();
    let min = cases.iter().map(|g| g.nodes).min().unwrap_or(0);
    let max = cases.iter().map(|g| g.nodes).max().unwrap_or(0);
    let total: u64 = cases.iter().map(|g| g.nodes).sum();
    let mean = if cases.is_empty() {
        0
    } else {
        total / cases.len() as u64
    };
    format!(
        "{}; nodes min {min}, mean {mean}, max {max}",
        counts.join(", ")
    )
}

/// A seed from the clock, for runs that give none.
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_states_the_thresholds_in_force() {
        // The help text above spells these numbers out.
        assert_eq!(
            (Grading::STANDARD.medium_from, Grading::STANDARD.hard_from),
            (2_000, 200_000)
        );
    }
}
