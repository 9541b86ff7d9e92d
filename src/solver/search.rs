//! The negamax alpha-beta search.

use crate::position::Position;
use crate::solver::ordering::{MoveSorter, center_first_order};
use crate::solver::table::{Bound, Entry, Table};

/// One search's state: the shared table and this search's node counter.
pub(crate) struct Searcher<'t, const W: usize, const H: usize> {
    /// Bounds learnt so far, shared with other searches of the same solver.
    table: &'t Table,
    /// Nodes visited (calls of [`Searcher::negamax`]).
    pub nodes: u64,
}

impl<'t, const W: usize, const H: usize> Searcher<'t, W, H> {
    /// Columns from the centre outwards: a central stone takes part in more
    /// possible alignments, so central moves are more often the best.
    const ORDER: [usize; W] = center_first_order::<W>();
    /// Cells of the board, as a score-sized integer.
    const CELLS: i32 = (W * H) as i32;

    /// A search over `table` with a node count of zero.
    pub fn new(table: &'t Table) -> Self {
        Searcher { table, nodes: 0 }
    }

    /// The score of `pos` within the window `(alpha, beta)`.
    ///
    /// Contract: `alpha < beta`; the game is not over and the side to move
    /// cannot win with its next stone (the caller checks both, so that a win
    /// in one is scored without a search).
    ///
    /// Returns `v` with the usual alpha-beta meaning: if `alpha < v < beta`,
    /// `v` is the exact score; if `v <= alpha`, the exact score is at most `v`;
    /// if `v >= beta`, it is at least `v`.
    pub fn negamax(&mut self, pos: &Position<W, H>, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        debug_assert!(!pos.can_win_next());
        self.nodes += 1;
        let nodes_before = self.nodes;
        let moves = pos.moves_played() as i32;

        // Only moves that do not let the opponent win at once are worth a
        // look; if there are none, the opponent wins with its next stone.
        let candidates = pos.non_losing_moves();
        if candidates == 0 {
            return -(Self::CELLS - moves) / 2;
        }
        // With two cells left and a safe move, nobody can win any more.
        if moves >= Self::CELLS - 2 {
            return 0;
        }

        // Score-bound tightening. The opponent cannot win with its next stone
        // (we have a safe move), so the worst case is losing to its second
        // stone from now; we cannot win with this stone, so the best case is
        // winning with our second. Narrowing the window to what is reachable
        // closes it at once when the caller asks for more than that.
        let min = -(Self::CELLS - 2 - moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let max = (Self::CELLS - 1 - moves) / 2;
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }

        // Whatever an earlier search proved about this position narrows the
        // window the same way, and may settle it without a search.
        let key = pos.key();
        let mut table_move = None;
        if let Some(entry) = self.table.probe(key) {
            match entry.bound {
                Bound::Exact => return entry.score,
                Bound::Lower => {
                    if entry.score > alpha {
                        alpha = entry.score;
                        if alpha >= beta {
                            return alpha;
                        }
                    }
                }
                Bound::Upper => {
                    if entry.score < beta {
                        beta = entry.score;
                        if alpha >= beta {
                            return beta;
                        }
                    }
                }
            }
            table_move = entry.best;
        }

        // Order: the move that was best last time first, then the moves that
        // create the most threats, centre first on ties.
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
            let score = -self.negamax(&child, -beta, -alpha);
            if score >= beta {
                self.record(key, Bound::Lower, score, Some(cell), nodes_before);
                return score;
            }
            if score > alpha {
                alpha = score;
                best = Some(cell);
            }
        }
        // A child inside the window gave its exact score; every other one is
        // at most alpha: alpha is exact. Otherwise it is only an upper bound.
        match best {
            Some(cell) => self.record(key, Bound::Exact, alpha, Some(cell), nodes_before),
            None => {
                let best = table_move.map(|col| Position::<W, H>::column_mask(col));
                self.record(key, Bound::Upper, alpha, best, nodes_before)
            }
        }
        alpha
    }

    /// Stores a search result, with the work it took (log2 of its nodes).
    #[inline(always)]
    fn record(&self, key: u64, bound: Bound, score: i32, cell: Option<u64>, nodes_before: u64) {
        let nodes = self.nodes - nodes_before + 1;
        self.table.store(
            key,
            Entry {
                bound,
                score,
                best: cell.map(|c| Position::<W, H>::column_of(c)),
                work: 64 - nodes.leading_zeros(),
            },
        );
    }
}
