//! A node-limited exact search, to tell cheaply whether a position is too
//! hard to be worth solving.
//!
//! [`Solver::solve`](crate::Solver::solve) cannot be stopped: a random
//! position a few moves into the game may need billions of nodes, and a
//! generator that meets one waits for hours. This search is the same as the
//! solver's (the same null-window loop, pruning, move ordering and table
//! policy, built from the public [`Table`], [`MoveSorter`] and [`Position`]),
//! with a node budget: past it, it gives up. Its node counts are the
//! solver's today; were the solver's search to change, they would only be
//! an estimate, which is all a filter needs (the generator grades with the
//! real solver's count).
//!
//! The solver could offer this itself (a `solve` with a node limit); until
//! it does, this module fills the gap.

use crate::position::Position;
use crate::solver::Score;
use crate::solver::ordering::{MoveSorter, center_first_order};
use crate::solver::table::{Bound, Entry, Table, TableError};

/// An exact search that stops after a given number of nodes.
pub struct BudgetSearch<const W: usize = 7, const H: usize = 6> {
    /// Bounds learnt by the current solve.
    table: Table,
    /// Nodes visited by the current solve.
    nodes: u64,
    /// The most nodes the current solve may visit.
    budget: u64,
}

/// The search ran out of nodes.
struct OverBudget;

impl<const W: usize, const H: usize> BudgetSearch<W, H> {
    /// Columns from the centre outwards, the solver's tie order.
    const ORDER: [usize; W] = center_first_order::<W>();
    /// Cells of the board, as a score.
    const CELLS: i32 = (W * H) as i32;

    /// A search with a table of at most `table_bytes` bytes.
    pub fn new(table_bytes: usize) -> Result<Self, TableError> {
        Ok(BudgetSearch {
            table: Table::new(table_bytes, Position::<W, H>::KEY_BITS as u32)?,
            nodes: 0,
            budget: 0,
        })
    }

    /// The exact score of `pos` and the nodes it took, if it takes at most
    /// `budget` nodes; `None` otherwise. Starts from a cleared table.
    /// Precondition: the game is not over and the side to move cannot win
    /// at once (other positions need no search).
    pub fn solve(&mut self, pos: &Position<W, H>, budget: u64) -> Option<(Score, u64)> {
        debug_assert!(!pos.is_game_over() && !pos.can_win_next());
        self.table.new_generation();
        self.nodes = 0;
        self.budget = budget;
        let moves = pos.moves_played() as i32;
        let mut min = -(Self::CELLS - moves) / 2;
        let mut max = (Self::CELLS + 1 - moves) / 2;
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(pos, med, med + 1).ok()?;
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        Some((min, self.nodes))
    }

    /// The solver's negamax (see `solver::search`), failing once the budget
    /// is spent.
    fn negamax(
        &mut self,
        pos: &Position<W, H>,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<i32, OverBudget> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(OverBudget);
        }
        let nodes_before = self.nodes;
        let moves = pos.moves_played() as i32;
        let candidates = pos.non_losing_moves();
        if candidates == 0 {
            return Ok(-(Self::CELLS - moves) / 2);
        }
        if moves >= Self::CELLS - 2 {
            return Ok(0);
        }
        let min = -(Self::CELLS - 2 - moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return Ok(alpha);
            }
        }
        let max = (Self::CELLS - 1 - moves) / 2;
        if beta > max {
            beta = max;
            if alpha >= beta {
                return Ok(beta);
            }
        }
        let key = pos.key();
        let mut table_move = None;
        if let Some(entry) = self.table.probe(key) {
            match entry.bound {
                Bound::Exact => return Ok(entry.score),
                Bound::Lower if entry.score > alpha => {
                    alpha = entry.score;
                    if alpha >= beta {
                        return Ok(alpha);
                    }
                }
                Bound::Upper if entry.score < beta => {
                    beta = entry.score;
                    if alpha >= beta {
                        return Ok(beta);
                    }
                }
                _ => {}
            }
            table_move = entry.best;
        }
        let mut sorter = MoveSorter::<W>::new();
        for &col in Self::ORDER.iter().rev() {
            let cell = candidates & Position::<W, H>::column_mask(col);
            if cell != 0 {
                let score = if Some(col) == table_move {
                    i32::MAX
                } else {
                    pos.threats_after(cell) as i32
                };
                sorter.add(cell, score);
            }
        }
        let mut best = None;
        for cell in sorter {
            let mut child = *pos;
            child.play(cell);
            let score = -self.negamax(&child, -beta, -alpha)?;
            if score >= beta {
                self.record(key, Bound::Lower, score, Some(cell), nodes_before);
                return Ok(score);
            }
            if score > alpha {
                alpha = score;
                best = Some(cell);
            }
        }
        match best {
            Some(cell) => self.record(key, Bound::Exact, alpha, Some(cell), nodes_before),
            None => {
                let best = table_move.map(Position::<W, H>::column_mask);
                self.record(key, Bound::Upper, alpha, best, nodes_before)
            }
        }
        Ok(alpha)
    }

    /// Stores a result with its work, as the solver does.
    fn record(&self, key: u64, bound: Bound, score: i32, cell: Option<u64>, nodes_before: u64) {
        let nodes = self.nodes - nodes_before + 1;
        self.table.store(
            key,
            Entry {
                bound,
                score,
                best: cell.map(Position::<W, H>::column_of),
                work: 64 - nodes.leading_zeros(),
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Solver;

    #[test]
    fn gives_the_solver_score_within_budget_and_none_beyond() {
        let mut budget = BudgetSearch::<7, 6>::new(1 << 22).unwrap();
        let mut solver = Solver::<7, 6>::with_table_bytes(1 << 22).unwrap();
        for (moves, score) in [
            ("3721265411744151174", -2),
            ("1174242555457412", -5),
            ("1714317652756423", 0),
            ("616425514112667745333334", -1),
        ] {
            let pos = Position::parse(moves).unwrap();
            solver.clear();
            solver.reset_node_count();
            assert_eq!(solver.solve(&pos), score);
            let nodes = solver.node_count();
            assert_eq!(budget.solve(&pos, u64::MAX), Some((score, nodes)));
            assert_eq!(budget.solve(&pos, nodes), Some((score, nodes)));
            assert_eq!(budget.solve(&pos, nodes - 1), None);
        }
    }
}
