//! `c4 explain`: the solver's result and, where Allis's strategic rules
//! find one, the strategy behind it in words and drawn on the board; else
//! the principal variation and the threats that decide the game.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};

use clap::Args;
use serde_json::{Value, json};

use c4::input::{Line, ScoreKind};
use c4::report::describe as describe_score;
use c4::strategy::{self, Cell, Strategy};
use c4::{Engine, Game, Player};

use super::input::{RawInput, source};
use super::options::{BoardArgs, BookChoice, EXIT_BAD_INPUT, EXIT_OK, TableArgs, solver_pool};
use super::output::{after_write_error, warn};
use c4::memory::{Need, solver_bytes};

/// The examples closing both `-h` and `--help` of `c4 explain`.
macro_rules! examples {
    () => {
        "\
Examples:
  c4 explain 4444             the result and the strategy behind it
  c4 explain --json 1         the same as one JSON object per position
  c4 explain < positions.txt  one explanation per input line"
    };
}

/// Examples shown after `c4 explain -h`.
const EXAMPLES: &str = examples!();

/// What `c4 explain --help` adds after the options.
const LONG_HELP: &str = concat!(
    "\
Each position is solved, and Victor Allis's strategic rules (claimeven,
vertical, baseinverse, inverse, highinverse, aftereven; see docs/explain.md)
look for a strategy of the side that does not lose: a pairing of every
empty cell in which it answers each move of the opponent on the partner
cell, and which leaves the opponent no four. For the side not to move it is
the position's own; for the side to move, the strategy after a move. Cells
are in board notation: column letter and row from 1 at the bottom (d2),
groups by their ends (a1-d4). The board marks the controller's sure cells
in its lower-case letter (o or x), cross pairs with *, highinverses with
+, and the empty cells of a winning aftereven group with #. When the rules find none, the output
says so and gives the principal variation and the threats on the board.

--json prints one object per position: moves, board_size, score, result,
side_to_move, strategies (each: player, after_move (1-based, or null),
wins, applications (rule, cells, claimed, group, refutes)), and, when none
is found, pv and threats (player, cell).

Input: positions as arguments, or one per line from stdin (a test set's
lines `moves score` as they are; # comments skipped). A bad line is named
on stderr and the others go on; the exit status is then 1.

",
    examples!()
);

/// Arguments of `c4 explain`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = LONG_HELP)]
pub struct ExplainArgs {
    /// Positions, e.g. 4453 ('' is the empty board); none, or a single `-`,
    /// reads them from stdin, one per line.
    #[arg(value_name = "POSITION")]
    pub positions: Vec<OsString>,
    /// Print one JSON object per position instead of text.
    #[arg(long)]
    pub json: bool,
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

/// A strategy found for one side: the move first (for the side to move).
struct Found {
    after_move: Option<usize>,
    strategy: Strategy,
}

/// Runs `c4 explain`; returns the exit status.
pub fn run(args: &ExplainArgs) -> u8 {
    let board = match args.board.board("explain") {
        Ok(board) => board,
        Err(code) => return code,
    };
    let need = Need {
        solvers: 1,
        per_solver: solver_bytes(args.table.tt_size, board.key_bits(), 1),
        positions: 0,
        book: args.book.memory(board),
    };
    let pool = match solver_pool(
        "explain",
        board,
        &need,
        &args.book,
        args.table.tt_size,
        1,
        1,
    ) {
        Ok(pool) => pool,
        Err(code) => return code,
    };
    let Some(mut solver) = pool.into_states().into_iter().next() else {
        return EXIT_BAD_INPUT;
    };
    let from_stdin =
        args.positions.is_empty() || (args.positions.len() == 1 && args.positions[0] == "-");
    if from_stdin && io::stdin().is_terminal() {
        warn(format_args!(
            "c4 explain: reading positions from stdin, one per line (e.g. 4453); Ctrl-D to end"
        ));
    }
    let mut next = source("explain", &args.positions, from_stdin);
    let mut out = io::stdout().lock();
    let mut code = EXIT_OK;
    loop {
        let raw: RawInput = match next() {
            Ok(Some(raw)) => raw,
            Ok(None) => break,
            Err(e) => {
                warn(format_args!("c4 explain: cannot read the input: {e}"));
                return EXIT_BAD_INPUT;
            }
        };
        let (moves, game) = match raw.parse(board, ScoreKind::Exact) {
            Ok(Line::Position {
                moves, position, ..
            }) => (moves.to_owned(), position),
            Ok(Line::Comment(_)) => continue,
            Err(e) => {
                warn(format_args!(
                    "c4 explain: {}: invalid position '{}': {e}",
                    raw.origin,
                    raw.display_text()
                ));
                code = EXIT_BAD_INPUT;
                continue;
            }
        };
        let text = explain(solver.as_mut(), &moves, &game, args.json);
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            return after_write_error("explain", &e, code);
        }
    }
    code
}

/// The strategies for the side that does not lose, given the score for the
/// side to move.
fn strategies(game: &Game, score: c4::Score) -> Vec<Found> {
    let mut found = Vec::new();
    if game.is_game_over() {
        return found;
    }
    if score >= 0
        && let Some((col, strategy)) = strategy::find_after_move(game)
    {
        found.push(Found {
            after_move: Some(col),
            strategy,
        });
    }
    if score <= 0
        && let Some(strategy) = strategy::find(game)
    {
        found.push(Found {
            after_move: None,
            strategy,
        });
    }
    found
}

fn cell_names(cells: &[Cell]) -> Vec<String> {
    cells.iter().map(Cell::name).collect()
}

fn player_name(p: Player) -> String {
    p.symbol().to_string()
}

/// One position's explanation, text or a JSON line.
fn explain(solver: &mut dyn Engine, moves: &str, game: &Game, json: bool) -> String {
    let score = if game.is_game_over() {
        if game.is_won() { game.lost_score() } else { 0 }
    } else {
        solver.solve(game)
    };
    let found = strategies(game, score);
    let (pv, threats) = if found.is_empty() && !game.is_game_over() {
        (solver.principal_variation(game), strategy::threats(game))
    } else {
        (Vec::new(), Vec::new())
    };
    if json {
        let strategies: Vec<Value> = found
            .iter()
            .map(|f| {
                let apps: Vec<Value> = f
                    .strategy
                    .applications
                    .iter()
                    .map(|a| {
                        json!({
                            "rule": a.rule.name(),
                            "cells": cell_names(&a.cells),
                            "claimed": cell_names(&a.claimed),
                            "group": a.group.as_ref().map(strategy::group_name),
                            "refutes": a.solved.iter().map(strategy::group_name).collect::<Vec<_>>(),
                        })
                    })
                    .collect();
                json!({
                    "player": player_name(f.strategy.controller),
                    "after_move": f.after_move.map(|c| c + 1),
                    "wins": f.strategy.wins,
                    "applications": apps,
                })
            })
            .collect();
        let value = json!({
            "moves": moves,
            "board_size": game.board().to_string(),
            "score": score,
            "result": describe_score(game, score, false),
            "side_to_move": player_name(game.side_to_move()),
            "strategies": strategies,
            "pv": if found.is_empty() && !game.is_game_over() {
                Value::String(pv.iter().map(|&c| c4::rules::column_char(c)).collect())
            } else { Value::Null },
            "threats": threats.iter().map(|(p, c)| json!({"player": player_name(*p), "cell": c.name()})).collect::<Vec<_>>(),
        });
        return value.to_string() + "\n";
    }
    let mut text = format!(
        "position '{moves}' ({}): score {score}: {}\n",
        game.board(),
        describe_score(game, score, false)
    );
    if game.is_game_over() {
        return text + "\n";
    }
    for f in &found {
        let s = &f.strategy;
        let me = s.controller.symbol();
        let what = if s.wins { "wins" } else { "at least draws" };
        match f.after_move {
            Some(col) => text.push_str(&format!(
                "{me} {what} by playing {}, then by these rules:\n",
                c4::rules::column_char(col)
            )),
            None => text.push_str(&format!("{me} {what} by these rules:\n")),
        }
        for line in strategy::describe(s) {
            text.push_str(&format!("  - {line}\n"));
        }
        let shown = match f.after_move {
            Some(col) => game.after(col),
            None => *game,
        };
        for line in strategy::draw(&shown, s).lines() {
            text.push_str(&format!("    {line}\n"));
        }
    }
    if found.is_empty() {
        text.push_str("no strategy found by the rules; perfect play instead:\n");
        let line: String = pv.iter().map(|&c| c4::rules::column_char(c)).collect();
        text.push_str(&format!("  principal variation: {line}\n"));
        let threats: Vec<String> = threats
            .iter()
            .map(|(p, c)| {
                let parity = if (c.row + 1) % 2 == 1 { "odd" } else { "even" };
                format!("{} {} ({parity})", p.symbol(), c.name())
            })
            .collect();
        if threats.is_empty() {
            text.push_str("  threats: none\n");
        } else {
            text.push_str(&format!("  threats: {}\n", threats.join(", ")));
        }
    }
    text + "\n"
}
