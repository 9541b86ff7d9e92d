//! [`MoveSorter`]: the tiny insertion-sorted list that hands out a node's
//! moves best first.
//!
//! Alpha-beta prunes most when the best move is searched first. The search
//! adds each candidate with a score (higher = search earlier); the sorter
//! keeps them sorted as they arrive, which is the cheapest sort for at most a
//! dozen moves, and hands them out best first.

use crate::Bitboard;

/// The sort key of a move that wins with our next stone, above every other.
pub(super) const WIN_NEXT_KEY: i32 = i32::MAX;

/// Candidate moves of one node, handed out in decreasing score order.
///
/// Among equal scores, the move added *last* comes out first: the search
/// adds columns from the edges towards the centre so that, all else equal,
/// central columns (which take part in more alignments) are tried first.
pub struct MoveSorter<const W: usize, B: Bitboard> {
    /// The moves as one-bit bitboards, sorted by increasing score.
    moves: [B; W],
    /// The score of each move, parallel to `moves`.
    scores: [i32; W],
    /// How many entries are in use.
    len: usize,
}

impl<const W: usize, B: Bitboard> Default for MoveSorter<W, B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize, B: Bitboard> MoveSorter<W, B> {
    /// An empty sorter.
    #[inline(always)]
    pub fn new() -> Self {
        MoveSorter {
            moves: [B::ZERO; W],
            scores: [0; W],
            len: 0,
        }
    }

    /// Adds a move with its ordering score. At most `W` moves may be added.
    #[inline(always)]
    pub fn add(&mut self, cell: B, score: i32) {
        let mut pos = self.len;
        self.len += 1;
        while pos > 0 && self.scores[pos - 1] > score {
            self.moves[pos] = self.moves[pos - 1];
            self.scores[pos] = self.scores[pos - 1];
            pos -= 1;
        }
        self.moves[pos] = cell;
        self.scores[pos] = score;
    }

    /// Hands out `cell` next, if it is not handed out yet and its key
    /// equals the best remaining key once the low `tie_bits` bits (the
    /// centre tie-break, see `order_moves`) are set aside: a tie-break among
    /// the moves of the best score, which leaves every better move first.
    /// Only once every move is added: the keys are out of order after it.
    ///
    /// Out of line: it runs after a fail-low, not at every node, and
    /// inlined into the search it cost registers there (callgrind, nodes
    /// identical: Middle-Medium, first 30 lines, 262.9M -> 258.9M
    /// instructions; Begin-Medium, first 5, 585.8M -> 577.2M).
    #[inline(never)]
    pub fn prefer_if_tied(&mut self, cell: B, tie_bits: u32) {
        let Some(i) = self.moves[..self.len].iter().position(|&m| m == cell) else {
            return;
        };
        let key = self.scores[i];
        if key >> tie_bits != self.scores[self.len - 1] >> tie_bits {
            return;
        }
        self.moves.copy_within(i + 1..self.len, i);
        self.scores.copy_within(i + 1..self.len, i);
        self.moves[self.len - 1] = cell;
        self.scores[self.len - 1] = key;
    }

    /// Whether a move not handed out yet wins with its player's next stone
    /// (it was added with the key `WIN_NEXT_KEY`, see `order_moves`).
    #[inline(always)]
    pub fn has_win(&self) -> bool {
        self.len > 0 && self.scores[self.len - 1] == WIN_NEXT_KEY
    }

    /// Number of moves not handed out yet.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether every move has been handed out.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<const W: usize, B: Bitboard> Iterator for MoveSorter<W, B> {
    type Item = B;

    /// The best remaining move.
    #[inline(always)]
    fn next(&mut self) -> Option<B> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(self.moves[self.len])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_out_best_first_and_last_added_on_ties() {
        let mut s = MoveSorter::<7, u64>::new();
        s.add(1, 2);
        s.add(2, 5);
        s.add(4, 2);
        s.add(8, 0);
        assert_eq!(s.len(), 4);
        assert_eq!(s.collect::<Vec<_>>(), vec![2, 4, 1, 8]);
    }

    #[test]
    fn a_preferred_move_jumps_only_its_equals() {
        // Keys with two tie bits: 1 and 2 share the score 5 with 16 (key
        // 23); 8 (score 7) is better than all of them.
        let sorter = || {
            let mut s = MoveSorter::<7, u64>::new();
            s.add(1, 5 << 2);
            s.add(2, (5 << 2) | 1);
            s.add(16, (5 << 2) | 3);
            s.add(8, 7 << 2);
            s.add(4, 3 << 2);
            s
        };
        let mut s = sorter();
        s.prefer_if_tied(1, 2);
        assert_eq!(s.collect::<Vec<_>>(), vec![8, 16, 2, 1, 4]);
        let mut s = sorter();
        assert_eq!(s.next(), Some(8));
        s.prefer_if_tied(1, 2);
        assert_eq!(s.collect::<Vec<_>>(), vec![1, 16, 2, 4]);
        // A worse score, a move already handed out, or no tie bits: no change.
        let mut s = sorter();
        assert_eq!(s.next(), Some(8));
        s.prefer_if_tied(4, 2);
        s.prefer_if_tied(8, 2);
        s.prefer_if_tied(2, 0);
        assert_eq!(s.collect::<Vec<_>>(), vec![16, 2, 1, 4]);
    }
}
