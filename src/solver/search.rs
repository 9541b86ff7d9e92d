//! The negamax alpha-beta search.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::position::{Position, row_mask};
use crate::settings::ETC_MIN_EMPTY;
use crate::solver::ordering::{MoveSorter, center_first_order};
use crate::solver::table::{Bound, Entry, Table};

/// One search's state: the shared table, this search's node counter, and
/// what it needs to run beside other threads.
pub(crate) struct Searcher<'t, const W: usize, const H: usize> {
    /// Bounds learnt so far, shared with other searches of the same solver.
    table: &'t Table,
    /// Nodes visited (calls of [`Searcher::negamax`]).
    pub nodes: u64,
    /// Set by another thread when the answer is known and this search can
    /// stop; polled every [`STOP_POLL_NODES`] nodes.
    stop: Option<&'t AtomicBool>,
    /// Whether this search saw `stop` and unwound: its results are void.
    pub aborted: bool,
    /// State of a xorshift generator perturbing move order, or 0 for the
    /// deterministic order. Lazy SMP helpers each get their own seed so that
    /// they explore the tree in different orders and fill the shared table
    /// with results the other threads have not reached yet.
    noise: u64,
}

/// How often (in nodes, a power of two) a search polls its stop flag: rare
/// enough to cost nothing, often enough to stop within microseconds.
const STOP_POLL_NODES: u64 = 1 << 10;

impl<'t, const W: usize, const H: usize> Searcher<'t, W, H> {
    /// Columns from the centre outwards: a central stone takes part in more
    /// possible alignments, so central moves are more often the best.
    const ORDER: [usize; W] = center_first_order::<W>();
    /// Cells of the board, as a score-sized integer.
    const CELLS: i32 = (W * H) as i32;
    /// Rows (0-based) whose index has the parity of `H`: with an even number
    /// of empty cells in every column, the next stone of each column lands on
    /// such a row.
    const SAME_PARITY_ROWS: u64 = {
        let mut rows = 0;
        let mut r = 0;
        while r < H {
            if r % 2 == H % 2 {
                rows |= row_mask(W, H, r);
            }
            r += 1;
        }
        rows
    };
    /// The other rows: a column's lowest empty cell lies on one of these iff
    /// the column has an odd number of empty cells.
    const OTHER_PARITY_ROWS: u64 = Position::<W, H>::BOARD & !Self::SAME_PARITY_ROWS;

    /// A search over `table` with a node count of zero.
    pub fn new(table: &'t Table) -> Self {
        Searcher {
            table,
            nodes: 0,
            stop: None,
            aborted: false,
            noise: 0,
        }
    }

    /// A search that stops when `stop` is set and, for a non-zero `seed`,
    /// perturbs its move order (a Lazy SMP helper).
    pub fn parallel(table: &'t Table, stop: &'t AtomicBool, seed: u64) -> Self {
        Searcher {
            table,
            nodes: 0,
            stop: Some(stop),
            aborted: false,
            noise: seed,
        }
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
        if self.nodes & (STOP_POLL_NODES - 1) == 0
            && let Some(stop) = self.stop
            && stop.load(Ordering::Relaxed)
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let nodes_before = self.nodes;
        let moves = pos.moves_played() as i32;

        // Only moves that do not let the opponent win at once are worth a
        // look; if there are none, the opponent wins with its next stone.
        let opponent_threats = pos.opponent_winning_cells();
        let candidates = pos.non_losing_moves_given(opponent_threats);
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

        // Dead positions: if even every empty cell could not give a side four
        // in a row, that side cannot win any more.
        let empty = Position::<W, H>::BOARD & !pos.mask();
        if beta > 0 && !Position::<W, H>::has_four(pos.current() | empty) {
            beta = 0;
            if alpha >= beta {
                return beta;
            }
        }
        if alpha < 0 && !Position::<W, H>::has_four(pos.opponent() | empty) {
            alpha = 0;
            if alpha >= beta {
                return alpha;
            }
        }

        // Claimeven. If every column has an even number of empty cells, the
        // opponent can answer each of our moves by playing on top of it, in
        // the same column, until the board is full. We then get exactly the
        // empty cells on rows of the parity of H (the first of every column
        // from now), the opponent the others. If our stones plus all those
        // cells hold no four in a row, we cannot win against that strategy:
        // our score is at most 0. The follow-up may hand the opponent a win,
        // so this says nothing about a lower bound.
        if beta > 0 && (pos.mask() + Position::<W, H>::BOTTOM) & Self::OTHER_PARITY_ROWS == 0 {
            let ours = pos.current() | (!pos.mask() & Self::SAME_PARITY_ROWS);
            if !Position::<W, H>::has_four(ours) {
                beta = 0;
                if alpha >= beta {
                    return beta;
                }
            }
        }

        // Whatever an earlier search proved about this position narrows the
        // window the same way, and may settle it without a search.
        let (key, mirrored) = pos.symmetric_key();
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
            table_move = entry
                .best
                .map(|col| if mirrored { W - 1 - col } else { col });
        }

        // Enhanced transposition cutoff: a child whose stored upper bound is
        // low enough proves this node fails high without searching anything;
        // a child whose stored lower bound is high enough cannot raise alpha
        // and is skipped below. Probing costs memory accesses, so it is done
        // only where the subtrees are big enough to be worth saving.
        // `child_cap[col]` is the most that searching column `col` can give.
        let mut child_cap = [i32::MAX; W];

        if Self::CELLS - moves >= ETC_MIN_EMPTY {
            let mut rest = candidates;
            while rest != 0 {
                let cell = rest & rest.wrapping_neg();
                rest ^= cell;
                let mut child = *pos;
                child.play(cell);
                self.table.prefetch(child.symmetric_key().0);
            }
            let mut rest = candidates;
            while rest != 0 {
                let cell = rest & rest.wrapping_neg();
                rest ^= cell;
                let mut child = *pos;
                child.play(cell);
                if let Some(entry) = self.table.probe(child.symmetric_key().0) {
                    if entry.bound != Bound::Lower && -entry.score >= beta {
                        self.record(
                            key,
                            mirrored,
                            Bound::Lower,
                            -entry.score,
                            Some(cell),
                            nodes_before,
                        );
                        return -entry.score;
                    }
                    if entry.bound != Bound::Upper {
                        child_cap[Position::<W, H>::column_of(cell)] = -entry.score;
                    }
                }
            }
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
                    self.move_order_score(pos, cell, opponent_threats)
                };
                sorter.add(cell, score);
            }
        }

        let mut best = None;
        for cell in sorter {
            if child_cap[Position::<W, H>::column_of(cell)] <= alpha {
                continue;
            }
            let mut child = *pos;
            child.play(cell);
            let score = -self.negamax(&child, -beta, -alpha);
            if self.aborted {
                // Unwinding: the score is meaningless and must not be stored.
                return 0;
            }
            if score >= beta {
                self.record(key, mirrored, Bound::Lower, score, Some(cell), nodes_before);
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
            Some(cell) => self.record(key, mirrored, Bound::Exact, alpha, Some(cell), nodes_before),
            None => {
                let best = table_move.map(Position::<W, H>::column_mask);
                self.record(key, mirrored, Bound::Upper, alpha, best, nodes_before)
            }
        }
        alpha
    }

    /// How promising playing `cell` looks, for move ordering (higher first).
    ///
    /// Counts the threats the move leaves us (empty cells that would complete
    /// four), leaving out those directly above an opponent's threat (the
    /// opponent wins below before we can use them). Two kinds count extra: a
    /// threat right above a playable cell (the opponent can never play under
    /// it, which restricts its moves) and an immediate threat (the opponent
    /// must block it now). Weights 4/2/1 were chosen by node counts: against
    /// the plain threat count they save 21% of the nodes on Middle-Medium, 26%
    /// on Begin-Medium and 15% on Begin-Easy; larger weights on immediate
    /// threats help Begin-Easy but cost more elsewhere.
    #[inline(always)]
    fn move_order_score(&mut self, pos: &Position<W, H>, cell: u64, opponent_threats: u64) -> i32 {
        let mask = pos.mask() | cell;
        let ours = Position::<W, H>::completing_cells(pos.current() | cell, mask);
        let useful = ours & !(opponent_threats << 1);
        let playable = (mask + Position::<W, H>::BOTTOM) & Position::<W, H>::BOARD;
        let score = 4 * useful.count_ones()
            + 2 * (useful & (playable << 1)).count_ones()
            + (useful & playable).count_ones();
        let score = score as i32;
        if self.noise == 0 {
            score
        } else {
            // A Lazy SMP helper: break ties, and sometimes swap neighbours in
            // the order, at random.
            self.noise ^= self.noise << 13;
            self.noise ^= self.noise >> 7;
            self.noise ^= self.noise << 17;
            score * 2 + (self.noise & 1) as i32
        }
    }

    /// Stores a search result, with the work it took (log2 of its nodes).
    #[inline(always)]
    fn record(
        &self,
        key: u64,
        mirrored: bool,
        bound: Bound,
        score: i32,
        cell: Option<u64>,
        nodes_before: u64,
    ) {
        let nodes = self.nodes - nodes_before + 1;
        self.table.store(
            key,
            Entry {
                bound,
                score,
                best: cell.map(|c| {
                    let col = Position::<W, H>::column_of(c);
                    if mirrored { W - 1 - col } else { col }
                }),
                work: 64 - nodes.leading_zeros(),
            },
        );
    }
}
