//! The bounds a node learns from its position alone, before it looks at
//! a child or the table: the scores still reachable, dead positions,
//! claimeven and its follow-up, and the win with the next stone; and the
//! [`Window`] those bounds narrow.

use std::ops::ControlFlow::{self, Break, Continue};

use crate::Bitboard;
use crate::position::Position;
use crate::rules::row_mask;
use crate::solver::ordering::leaves_no_safe_reply;

use super::Searcher;

/// The window `(alpha, beta)` of a node, narrowed by its steps with true
/// bounds on its score (so a value found inside it is still exact).
#[derive(Clone, Copy)]
pub(super) struct Window {
    pub alpha: i32,
    pub beta: i32,
}

impl Window {
    /// The score is at least `lower`: alpha rises to it if below. `Break`
    /// with the new alpha if the window closes (the node fails high).
    #[inline(always)]
    pub fn raise(&mut self, lower: i32) -> ControlFlow<i32> {
        if lower > self.alpha {
            self.alpha = lower;
            if self.alpha >= self.beta {
                return Break(self.alpha);
            }
        }
        Continue(())
    }

    /// The score is at most `upper`: beta falls to it if above. `Break`
    /// with the new beta if the window closes (the node fails low).
    #[inline(always)]
    pub fn lower(&mut self, upper: i32) -> ControlFlow<i32> {
        if upper < self.beta {
            self.beta = upper;
            if self.alpha >= self.beta {
                return Break(self.beta);
            }
        }
        Continue(())
    }
}

impl<'t, const W: usize, const H: usize, B: Bitboard> Searcher<'t, W, H, B> {
    /// Rows (0-based) whose index has the parity of `H`: with an even number
    /// of empty cells in every column, the next stone of each column lands on
    /// such a row.
    const SAME_PARITY_ROWS: u128 = {
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
    const OTHER_PARITY_ROWS: u128 = Position::<W, H, B>::BOARD_BITS & !Self::SAME_PARITY_ROWS;

    /// Bound tightening by what is reachable. Assumes the terminal checks
    /// passed: the opponent cannot win with its next stone (we have a safe
    /// move), so the worst case is losing to its second stone from now; we
    /// cannot win with this stone, so the best case is winning with our
    /// second. The window is clipped to that range; `Break` with the
    /// clipped bound when the caller asks for more than is reachable.
    #[inline(always)]
    pub(super) fn reachable_scores(pos: &Position<W, H, B>, w: &mut Window) -> ControlFlow<i32> {
        let moves = pos.moves_played() as i32;
        w.raise(-(Self::CELLS - 2 - moves) / 2)?;
        w.lower((Self::CELLS - 1 - moves) / 2)
    }

    /// Dead positions: a side whose stones plus every empty cell hold no
    /// four in a row cannot win any more, so our score is at most 0 (at
    /// least 0 if it is the opponent). `Break` with the bound when the
    /// window closes. Middle-Medium (first 300 lines): -2% nodes.
    #[inline(always)]
    pub(super) fn dead_positions(pos: &Position<W, H, B>, w: &mut Window) -> ControlFlow<i32> {
        let empty = Position::<W, H, B>::board() & !pos.mask();
        if w.beta > 0 && !Position::<W, H, B>::has_four(pos.current() | empty) {
            w.lower(0)?;
        }
        if w.alpha < 0 && !Position::<W, H, B>::has_four(pos.opponent() | empty) {
            w.raise(0)?;
        }
        Continue(())
    }

    /// Claimeven. If every column has an even number of empty cells, the
    /// opponent can answer each of our moves by playing on top of it until
    /// the board is full, and we get exactly the empty cells on rows of the
    /// parity of `H`. If our stones plus those cells hold no four, our score
    /// is at most 0 (only an upper bound: the follow-up may hand the
    /// opponent a win).
    ///
    /// With exactly one column of odd empty count the strategy is ours: we
    /// play there and then follow up. If the opponent's stones plus the
    /// cells it then gets hold no four, our score is at least 0; if ours
    /// then hold a four, at least 1. Middle-Medium (first 300 lines): -5.8%
    /// nodes, -10% instructions.
    ///
    /// With two odd columns the opponent pairs their lowest empty cells: it
    /// follows up on top of our moves in the even columns, and when we take
    /// one cell of the pair it takes the other, which leaves every column
    /// even. We get the cells of the parity of `H` and one cell of the pair,
    /// our choice: if neither choice completes a four for us, our score is
    /// at most 0. With three odd columns we play one of their lowest cells
    /// and then pair the other two against the opponent. A lowest cell is
    /// safe if the opponent's stones, the cells of the parity of `H` and
    /// that cell hold no four; if two of the three are safe, we play the
    /// third and our score is at least 0. Two and three odd columns: nodes
    /// Middle-Medium -6.0%, Begin-Medium -5.4%, the 7x6 empty board -20%
    /// (one thread); instructions Middle-Medium -7.8%.
    ///
    /// With four odd columns the opponent splits their lowest cells into two
    /// pairs and answers a cell of a pair with the other: if some split
    /// leaves us no four whichever cell of each pair we take, our score is
    /// at most 0 ([`Searcher::some_pairing_blocks`]). Nodes a further
    /// Middle-Medium -1.5%, the 7x6 empty board -2.7% (one thread);
    /// instructions Middle-Medium -1.4%, the 7x6 empty board -1.5%.
    ///
    /// The bounds at most 0 also give at most -1, and the bounds at least 0
    /// at least 1, when the follower's sure cells hold a four (see
    /// [`Searcher::followed_up`]). With no odd column, one, or five and
    /// more, a four of the other side right above a four of the follower's
    /// sure cells does not defeat a rule ([`Position::has_four_not_above`]);
    /// with five and more every lowest cell counts as the other side's.
    ///
    /// `Break` with the bound when the window closes.
    #[inline(always)]
    pub(super) fn claimeven(pos: &Position<W, H, B>, w: &mut Window) -> ControlFlow<i32> {
        let empty = Position::<W, H, B>::board() & !pos.mask();
        // The empty cells a player moving first gets when the other follows
        // up in columns that all have an even number of empty cells.
        let follow_up_cells = empty & B::from_u128(Self::SAME_PARITY_ROWS);
        // The lowest empty cell of each column of odd empty count.
        let odd_lows = pos.possible() & B::from_u128(Self::OTHER_PARITY_ROWS);
        // The empty cells the side following up gets whatever happens to
        // the lows: the other parity's, the lows aside (computed where a
        // rule needs them, not at every node).
        let sure = || empty & B::from_u128(Self::OTHER_PARITY_ROWS) & !odd_lows;
        let first = odd_lows & odd_lows.wrapping_neg();
        let others = odd_lows ^ first;
        if odd_lows == B::ZERO {
            if w.beta > -1 {
                let theirs = pos.opponent() | sure();
                if !Position::<W, H, B>::has_four_not_above(pos.current() | follow_up_cells, theirs)
                {
                    Self::followed_up(pos, sure(), w)?;
                }
            }
        } else if others == B::ZERO {
            let ours = pos.current() | (empty & B::from_u128(Self::OTHER_PARITY_ROWS));
            if w.alpha < 1
                && !Position::<W, H, B>::has_four_not_above(pos.opponent() | follow_up_cells, ours)
            {
                // Both bounds are applied before the window is checked: the
                // value returned is the higher one.
                w.alpha = w.alpha.max(0);
                if w.alpha < 1 && Position::<W, H, B>::has_four(ours) {
                    w.alpha = 1;
                }
                if w.alpha >= w.beta {
                    return Break(w.alpha);
                }
            }
        } else {
            let second = others & others.wrapping_neg();
            // The odd lows after the first two, the lowest of them, and
            // what is left after three.
            let beyond = others ^ second;
            let third = beyond & beyond.wrapping_neg();
            let fourth = beyond ^ third;
            if beyond == B::ZERO {
                let ours = pos.current() | follow_up_cells;
                if w.beta > -1
                    && !Position::<W, H, B>::has_four(ours | first)
                    && !Position::<W, H, B>::has_four(ours | second)
                {
                    Self::followed_up(pos, sure(), w)?;
                }
            } else if fourth == B::ZERO {
                if w.alpha < 1 {
                    let theirs = pos.opponent() | follow_up_cells;
                    // A four in `theirs` alone makes every lowest cell
                    // unsafe: one test instead of three.
                    if !Position::<W, H, B>::has_four(theirs) {
                        let lows = [first, second, third];
                        let safe = lows.map(|low| !Position::<W, H, B>::has_four(theirs | low));
                        let safe_count = safe.iter().filter(|&&s| s).count();
                        if safe_count >= 2 {
                            w.raise(0)?;
                            // We play a low whose two others are safe (any,
                            // if all three are) and then get the cells of the
                            // other parity, the lows aside: a four there wins.
                            let ours = pos.current() | sure();
                            if lows.iter().zip(safe).any(|(&low, low_safe)| {
                                (safe_count == 3 || !low_safe)
                                    && Position::<W, H, B>::has_four(ours | low)
                            }) {
                                w.raise(1)?;
                            }
                        }
                    }
                }
            } else if fourth & (fourth - B::ONE) == B::ZERO
                && w.beta > -1
                && Self::some_pairing_blocks(
                    pos.current() | follow_up_cells,
                    [first, second, third, fourth],
                )
            {
                Self::followed_up(pos, sure(), w)?;
            } else if fourth & (fourth - B::ONE) != B::ZERO {
                // Five odd columns or more.
                if pos.empty_cells().is_multiple_of(2) {
                    // The opponent pairs the lows as it likes; we get at
                    // most all of them.
                    if w.beta > -1
                        && !Position::<W, H, B>::has_four_not_above(
                            pos.current() | follow_up_cells | odd_lows,
                            pos.opponent() | sure(),
                        )
                    {
                        Self::followed_up(pos, sure(), w)?;
                    }
                } else if w.alpha < 1 {
                    // We play any low, then pair the others; the opponent
                    // gets at most all of them.
                    let ours = pos.current() | sure();
                    if !Position::<W, H, B>::has_four_not_above(
                        pos.opponent() | follow_up_cells | odd_lows,
                        ours,
                    ) {
                        w.raise(0)?;
                        if Position::<W, H, B>::has_four(ours) {
                            w.raise(1)?;
                        }
                    }
                }
            }
        }
        Continue(())
    }

    /// The bound of a node whose opponent follows up (see
    /// [`Searcher::claimeven`]) and so keeps us from any four: our score is
    /// at most 0, and at most -1 if the cells the opponent surely gets hold
    /// a four of its own. Those are its stones and `sure`: the empty cells
    /// of the other parity than `H`'s, except the lowest cells of the odd
    /// columns, which either side may get. Following up, the opponent
    /// never has to leave the strategy to block us, so it completes that
    /// four by the time the board is full: a loss, at the latest on the
    /// last cell, which is the opponent's (an even number of empty cells),
    /// and that is the score -1. `Break` with the bound when the window
    /// closes.
    ///
    /// On boards of four rows the second player wins with its last stone
    /// on most sizes, and this bound settles at once the probe "is the
    /// score at least 0?" that proves it. 9x4 empty board, one thread: 122.2M
    /// -> 95.2M nodes; 7x6 Middle-Medium (first 200 lines) and the empty board
    /// fewer nodes too (`docs/experiments.md`, Wide boards).
    #[inline(always)]
    pub(super) fn followed_up(
        pos: &Position<W, H, B>,
        sure: B,
        w: &mut Window,
    ) -> ControlFlow<i32> {
        w.lower(0)?;
        let theirs = pos.opponent() | sure;
        if Position::<W, H, B>::has_four(theirs) {
            w.lower(-1)?;
        }
        Continue(())
    }

    /// Whether the four cells `lows` can be split into two pairs so that
    /// `side` plus one cell of each pair, whichever, holds no four (see
    /// [`Searcher::claimeven`]). The whole of `lows` first (no four there
    /// settles it), then each cell alone (a four there defeats every
    /// pairing), then the six pairs: a pairing holds when the four pairs
    /// that take a cell from each of its pairs hold no four.
    #[inline(always)]
    pub(super) fn some_pairing_blocks(side: B, lows: [B; 4]) -> bool {
        let has_four = Position::<W, H, B>::has_four;
        if !has_four(side | lows[0] | lows[1] | lows[2] | lows[3]) {
            return true;
        }
        if lows.iter().any(|&low| has_four(side | low)) {
            return false;
        }
        let blocked = |i: usize, j: usize| !has_four(side | lows[i] | lows[j]);
        let (b01, b02, b03) = (blocked(0, 1), blocked(0, 2), blocked(0, 3));
        let (b12, b13, b23) = (blocked(1, 2), blocked(1, 3), blocked(2, 3));
        // Pairing {0 1, 2 3}, then {0 2, 1 3}, then {0 3, 1 2}.
        (b02 && b03 && b12 && b13) || (b01 && b03 && b12 && b23) || (b01 && b02 && b13 && b23)
    }

    /// The highest score when no move wins with our next stone: winning
    /// with our third stone from now.
    ///
    /// Proof. The node's contract says we cannot win with this stone. We
    /// win with our next one only by a move `m` after which every reply of
    /// the opponent lets us complete four at once, that is, the opponent
    /// has no safe reply. The opponent cannot win with its reply (`m` is a
    /// candidate: it is under none of the opponent's threats and leaves
    /// none playable), so a reply is safe exactly when it is not under one
    /// of our threats and blocks every playable one, and
    /// [`order_moves`](crate::solver::ordering::order_moves) gives `m` the
    /// score `i32::MAX` exactly when no reply is: two playable threats of
    /// ours, one under another of ours, or every playable cell under one of
    /// ours. So if no scored move has that score, the earliest win left is
    /// with our third stone, at move `n + 5` for a node of `n` stones:
    /// score `(W*H + 1 - (n + 4)) / 2`.
    #[inline(always)]
    pub(super) fn no_quick_win(pos: &Position<W, H, B>) -> i32 {
        (Self::CELLS - 3 - pos.moves_played() as i32) / 2
    }

    /// A node whose window asks only whether we win with our next stone
    /// (the best score left after [`Searcher::reachable_scores`]) is settled
    /// without a search: it does iff a candidate leaves the opponent no safe
    /// reply ([`leaves_no_safe_reply`]; proof at [`Searcher::no_quick_win`]).
    /// `Break` with that win's score (exact, at least beta) or with a win
    /// with our third stone (an upper bound, at most alpha); `Continue` for
    /// any wider window.
    #[inline(always)]
    pub(super) fn win_with_next_stone(
        pos: &Position<W, H, B>,
        candidates: B,
        w: &Window,
    ) -> ControlFlow<i32> {
        let quick_win = Self::no_quick_win(pos);
        if w.alpha < quick_win {
            return Continue(());
        }
        let mut rest = candidates;
        while rest != B::ZERO {
            let cell = rest & rest.wrapping_neg();
            rest ^= cell;
            let mask = pos.mask() | cell;
            let ours = Position::<W, H, B>::completing_cells(pos.current() | cell, mask);
            if leaves_no_safe_reply::<W, H, B>(mask, ours) {
                return Break(quick_win + 1);
            }
        }
        Break(quick_win)
    }
}
