//! The node's results in the table: the key a position is stored under,
//! the record of a result with its best move and work, the store of a node
//! that no move cut off, and the refutation square a child's record gives
//! its parent's move order.

use crate::Bitboard;
use crate::position::Position;
use crate::settings::SYMMETRY_MAX_MOVES;
use crate::solver::table::{Bound, Entry};

use super::super::Searcher;
use super::{Moves, Searched, Slot};

impl<const W: usize, const H: usize, B: Bitboard> Searcher<'_, W, H, B> {
    /// The refutation square of a move searched without a cutoff at a node
    /// with the children's keys ([`ETC_MIN_EMPTY`](crate::settings::ETC_MIN_EMPTY)), `child_key` being its
    /// child's: our move in the cell the child stored as its best move, the
    /// reply that refuted ours, if the child stored a result and that cell
    /// is one of `candidates` (a reply on top of our move is not); else
    /// none (zero).
    ///
    /// Taking the square the opponent's refutation wanted is often what
    /// stops it, so [`Searcher::search_moves`] hands that move out next
    /// among the moves of the best score left (see
    /// [`prefer_among_equals`]). Nodes, one thread, no book: Middle-Medium
    /// -5.9%, Begin-Medium (first 200) -6.3%, Begin-Hard (first 20) -10.3%;
    /// weak -8.4%, -12.4%, -13.0%.
    ///
    /// The move comes from the searcher's last stored result, not from a
    /// table probe: the child's own store is the last one of its subtree.
    /// A child that stored nothing (settled before its moves, or a forced
    /// move played in place) leaves another position's record, which the
    /// key comparison rejects. The square is only an order hint, never a
    /// bound, so a record of the mirror image under the same stored key
    /// costs at most a worse order. Against probing the child's entry,
    /// nodes within 0.01% and instructions on Middle-Medium (first 30)
    /// 270.3M -> 262.9M.
    #[inline(always)]
    pub(super) fn refutation_square(&self, child_key: B, candidates: B) -> B {
        let (key, reply) = self.last_record.get();
        if key == child_key {
            candidates & reply
        } else {
            B::ZERO
        }
    }

    /// The store, when no move cut the node off. If a move raised alpha,
    /// alpha is exact (that move gave its exact score, every other one at
    /// most alpha): stored and returned with the move. Otherwise every move
    /// is at most `value`, the highest of the searched moves' values and of
    /// the skipped moves' caps (all at most alpha): returned and stored as
    /// an upper bound (fail-soft; it can be below alpha, which narrows the
    /// root's range faster and tightens stored bounds: Middle-Medium, first
    /// 300 lines, -3.5% nodes against returning alpha).
    #[inline(always)]
    pub(super) fn store(
        &self,
        slot: &Slot<'_, B>,
        searched: Searched<B>,
        moves: &Moves<'_, W, B>,
    ) -> i32 {
        if let Some(cell) = searched.best {
            self.record(slot, Bound::Exact, searched.alpha, Some(cell));
            return searched.alpha;
        }
        let mut value = searched.value;
        let mut rest = moves.candidates & !searched.cells;
        while rest != B::ZERO {
            let cell = rest & rest.wrapping_neg();
            rest ^= cell;
            value = value.max(
                moves.child_cap[Position::<W, H, B>::column_of(cell)].min(searched.rest_bound),
            );
        }
        debug_assert!(value <= searched.alpha);
        let best = moves.table_move.map(Position::<W, H, B>::column_mask);
        self.record(slot, Bound::Upper, value, best);
        value
    }

    /// The key a position is stored under, and whether it is the mirror
    /// image's, from its plain key and its number of stones. Early in the
    /// game a position and its mirror image are often both reached, so they
    /// share an entry; later this almost never happens and computing the
    /// mirror (an eighth of the time per node) is not worth it.
    #[inline(always)]
    pub(crate) fn stored_key(key: B, moves: usize) -> (B, bool) {
        if moves < SYMMETRY_MAX_MOVES {
            let mirrored = Position::<W, H, B>::mirror(key);
            if mirrored < key {
                return (mirrored, true);
            }
        }
        (key, false)
    }

    /// Stores a search result for the node of `slot`, with its best move
    /// `cell` (if any) and the work it took (log2 of its nodes).
    #[inline(always)]
    pub(super) fn record(&self, slot: &Slot<'_, B>, bound: Bound, score: i32, cell: Option<B>) {
        let nodes = self.nodes - slot.nodes_before + 1;
        self.last_record.set((slot.key, cell.unwrap_or(B::ZERO)));
        slot.table.store(
            slot.key,
            Entry {
                bound,
                score,
                best: cell.map(|c| {
                    let col = Position::<W, H, B>::column_of(c);
                    if slot.mirrored { W - 1 - col } else { col }
                }),
                work: 64 - nodes.leading_zeros(),
            },
        );
    }
}
