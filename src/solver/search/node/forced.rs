//! Forced moves played in place: a child with a single safe move is not
//! searched as a node of its own, its move is played and the search goes
//! on from the first position that has a choice.

use crate::Bitboard;
use crate::position::Position;
use crate::solver::ordering::leaves_no_safe_reply;

use super::super::Searcher;

impl<const W: usize, const H: usize, B: Bitboard> Searcher<'_, W, H, B> {
    /// The value of `child` for the window `(alpha, beta)`, with the meaning
    /// of [`Searcher::negamax`]; `threats` are its opponent's completing
    /// cells, as [`Searcher::node`] takes them.
    ///
    /// While the position has exactly one safe move (a forced block, or the
    /// one cell not under a threat) and at least three empty cells, its score
    /// is its child's, so the move is played here, the window turned over,
    /// and no node is counted for it. Before playing it: if the move leaves
    /// the opponent no safe reply, the side to move wins with its next stone
    /// (exact, the best score it can reach); else it cannot do better than
    /// a win with its third stone, which settles a window that asks only
    /// for more (a fail low). Those are the tests the node would make
    /// ([`Searcher::node`]: `terminal`, `reachable_scores`,
    /// `win_with_next_stone`, `only_move`); the forced position skips the
    /// dead-position and claimeven bounds, which the position after the
    /// move tests again.
    ///
    /// Invariant: the position after a forced move satisfies the node's
    /// contract. The side that was forced had at most one playable cell
    /// under the opponent's threats (else no move was safe), the move takes
    /// it, and a safe move is not under a threat of the opponent: the
    /// opponent cannot win at once. With the won children judged in the
    /// parent (`search_moves`), nodes, one thread: Middle-Medium -39%,
    /// Begin-Hard (first 20) -43%, weak Middle-Medium -44%; instructions
    /// (callgrind) Middle-Medium (first 30) -2.4%, Begin-Hard (first 3)
    /// -3.0%: the forced nodes were cheap ones.
    #[inline(always)]
    pub(in crate::solver::search) fn search_child<const NEWER_CPU: bool>(
        &mut self,
        child: &Position<W, H, B>,
        alpha: i32,
        beta: i32,
        threats: B,
    ) -> i32 {
        let mut pos = *child;
        let (mut alpha, mut beta, mut threats) = (alpha, beta, threats);
        // +1 while `pos` is `child`'s side to move, -1 after an odd number
        // of forced moves.
        let mut sign = 1;
        loop {
            let safe = pos.non_losing_moves_given(threats);
            if safe == B::ZERO
                || safe & (safe - B::ONE) != B::ZERO
                || pos.moves_played() as i32 >= Self::CELLS - 2
            {
                return sign * self.node::<NEWER_CPU>(&pos, alpha, beta, threats, safe);
            }
            let mask = pos.mask() | safe;
            let ours = Position::<W, H, B>::completing_cells(pos.current() | safe, mask);
            let quick_win = Self::no_quick_win(&pos);
            if leaves_no_safe_reply::<W, H, B>(mask, ours) {
                return sign * (quick_win + 1);
            }
            if alpha >= quick_win {
                return sign * quick_win;
            }
            pos.play(safe);
            threats = ours;
            (alpha, beta) = (-beta, -alpha);
            sign = -sign;
        }
    }
}
