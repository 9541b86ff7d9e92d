//! The by-play check of a strategy: the strategy's answers played against
//! every move of the opponent to the end of the game, on the [`Naive`]
//! board, sharing no code with the rules that found the strategy (only its
//! answer function, [`c4::strategy::Strategy::reply`], is asked).
//!
//! A search over the opponent's moves only, each position after an answer
//! visited once (transpositions by cells). It fails if an answer is not a
//! legal move, if the opponent ever completes a four, or, for a strategy
//! that claims a win, if a game ends in a draw.

use std::collections::HashSet;

use c4::strategy::{Cell, Strategy};

use super::Naive;

/// What a check found: positions visited (after each answer).
#[derive(Debug, Default, Clone, Copy)]
pub struct Played {
    /// Positions visited with the opponent to move.
    pub positions: usize,
    /// Games that ended with the controller's four.
    pub won: usize,
    /// Games that ended on a full board.
    pub drawn: usize,
}

/// Plays `strategy` (for the player not to move in `start`) against every
/// line of the opponent's; `Err` names the first failure and its moves.
pub fn check_by_play<const W: usize, const H: usize>(
    start: &Naive<W, H>,
    strategy: &Strategy,
) -> Result<Played, String> {
    let mut seen = HashSet::new();
    let mut played = Played::default();
    let mut line = Vec::new();
    walk(start, strategy, &mut seen, &mut played, &mut line)?;
    Ok(played)
}

fn walk<const W: usize, const H: usize>(
    b: &Naive<W, H>,
    strategy: &Strategy,
    seen: &mut HashSet<[[u8; H]; W]>,
    played: &mut Played,
    line: &mut Vec<usize>,
) -> Result<(), String> {
    if !seen.insert(b.cells) {
        return Ok(());
    }
    played.positions += 1;
    let fail = |what: &str, line: &[usize]| Err(format!("{what} after opponent line {line:?}"));
    if b.is_full() {
        played.drawn += 1;
        return if strategy.wins {
            fail("a draw, claimed won,", line)
        } else {
            Ok(())
        };
    }
    for col in (0..W).filter(|&c| b.can_play(c)) {
        let mut child = *b;
        let row = child.heights[col];
        line.push(col);
        if child.play(col) {
            return fail("the opponent completed a four", line);
        }
        if child.is_full() {
            played.drawn += 1;
            if strategy.wins {
                return fail("a draw, claimed won,", line);
            }
            line.pop();
            continue;
        }
        let Some(answer) = strategy.reply(Cell { col, row }, &child.heights) else {
            return fail("no answer", line);
        };
        if !child.can_play(answer.col) || child.heights[answer.col] != answer.row {
            return fail(&format!("an illegal answer {}", answer.name()), line);
        }
        if child.play(answer.col) {
            played.won += 1;
        } else {
            walk(&child, strategy, seen, played, line)?;
        }
        line.pop();
    }
    Ok(())
}
