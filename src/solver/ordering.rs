//! Move ordering: a tiny insertion-sorted list of candidate moves.
//!
//! Alpha-beta prunes most when the best move is searched first. The search
//! adds each candidate with a score (higher = search earlier); this sorter
//! keeps them sorted as they arrive, which is the cheapest sort for at most a
//! dozen moves, and hands them out best first.

/// Candidate moves of one node, handed out in decreasing score order.
///
/// Among equal scores, the move added *last* comes out first: the search
/// adds columns from the edges towards the centre so that, all else equal,
/// central columns (which take part in more alignments) are tried first.
pub struct MoveSorter<const W: usize> {
    /// The moves as one-bit bitboards, sorted by increasing score.
    moves: [u64; W],
    /// The score of each move, parallel to `moves`.
    scores: [i32; W],
    /// How many entries are in use.
    len: usize,
}

impl<const W: usize> Default for MoveSorter<W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize> MoveSorter<W> {
    /// An empty sorter.
    #[inline(always)]
    pub fn new() -> Self {
        MoveSorter {
            moves: [0; W],
            scores: [0; W],
            len: 0,
        }
    }

    /// Adds a move with its ordering score. At most `W` moves may be added.
    #[inline(always)]
    pub fn add(&mut self, cell: u64, score: i32) {
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

impl<const W: usize> Iterator for MoveSorter<W> {
    type Item = u64;

    /// The best remaining move.
    #[inline(always)]
    fn next(&mut self) -> Option<u64> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(self.moves[self.len])
        }
    }
}

/// The columns of a `W`-wide board from the centre outwards, alternating left
/// and right: 3, 2, 4, 1, 5, 0, 6 (0-based) on 7 columns, 3, 2, 4, 1, 5, 0 on 6.
pub const fn center_first_order<const W: usize>() -> [usize; W] {
    let mut order = [0; W];
    let mut i = 0;
    while i < W {
        // i = 0, 1, 2, 3, ... maps to centre, centre-1, centre+1, centre-2, ...
        let offset = (i as isize + 1) / 2;
        let sign = if i % 2 == 1 { -1 } else { 1 };
        order[i] = ((W / 2) as isize + sign * offset) as usize;
        i += 1;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_first_on_seven_and_even_widths() {
        assert_eq!(center_first_order::<7>(), [3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(center_first_order::<6>(), [3, 2, 4, 1, 5, 0]);
        assert_eq!(center_first_order::<4>(), [2, 1, 3, 0]);
    }

    #[test]
    fn hands_out_best_first_and_last_added_on_ties() {
        let mut s = MoveSorter::<7>::new();
        s.add(1, 2);
        s.add(2, 5);
        s.add(4, 2);
        s.add(8, 0);
        assert_eq!(s.len(), 4);
        assert_eq!(s.collect::<Vec<_>>(), vec![2, 4, 1, 8]);
    }
}
