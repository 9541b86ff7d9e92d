//! Fours: the cells that complete four in a row, the moves that win or do
//! not lose at once, threats, live windows of four and whether stones hold
//! a four.

use super::Rules;
use crate::Bitboard;

impl<const W: usize, const H: usize, B: Bitboard> Rules<W, H, B> {
    /// The step between neighbouring cells of a line, in bits, for each of
    /// the four directions: vertical, horizontal and the two diagonals.
    pub const DIRECTIONS: [u32; 4] = [1, H as u32 + 1, H as u32, H as u32 + 2];

    /// The empty cells that would complete four in a row for the stones
    /// `stones`, given the occupied cells `mask`.
    #[inline(always)]
    pub fn completing_cells(stones: B, mask: B) -> B {
        let p = stones;
        // Vertical: three stones directly below.
        let mut r = (p << 1usize) & (p << 2usize) & (p << 3usize);
        // The three other directions, each by its bit shift between neighbours:
        // horizontal (H + 1), one diagonal (H) and the other (H + 2). For each,
        // a cell completes four when it extends a run of three on one side, or
        // fills a gap in runs of 1+2 or 2+1. `two` marks each stone with a
        // stone one step below it in the direction; shifted up one step it
        // gives the cells with two stones just below them, shifted down two
        // the cells with two just above: the four shifts of `p` that built
        // those two pairs become two shifts of one. The move ordering
        // computes this for every move it scores: -1.2% to -1.6% of the
        // search's instructions on 7x6, -0.8% on 9x4 (callgrind, nodes
        // identical).
        //
        // Where the word has a step to spare above the board's last bit,
        // fewer shifts still. `above_pair` marks the cells with two stones
        // just below (`two << s`), and the cells one step beyond either end
        // of a window, `c + 2s` and `c - 2s` seen from its middle, are both
        // in `ends = p | p << 4s`. A cell `c` completes four below a pair
        // when `c + s` or `c - 3s` holds a stone (`ends >> s`), and above a
        // pair (the pair at `c + s` and `c + 2s`, which `above_pair` marks
        // at `c + 3s`) when `c - s` or `c + 3s` does (`ends` there, the
        // whole shifted down `3s`). Every bit these shifts drop above the
        // word lies beyond the board when the board's last bit plus one
        // step fits in the word. Callgrind, nodes identical: -2.9% to -4.2%
        // of the instructions on the 7x6 sets, -2.8% on 9x4, -2.7% on 8x5.
        macro_rules! direction {
            ($s:expr) => {{
                let s = $s;
                if const { W * (H + 1) + H + 1 < B::BITS } {
                    let above_pair = (p & (p << s)) << s;
                    let ends = p | (p << (4 * s));
                    r |= (above_pair & (ends >> s)) | ((above_pair & ends) >> (3 * s));
                } else {
                    let up = p << s;
                    let two = p & up;
                    r |= (two << s) & ((p << (3 * s)) | (p >> s));
                    r |= (two >> (2 * s)) & (up | (p >> (3 * s)));
                }
            }};
        }
        direction!(H + 1);
        direction!(H);
        direction!(H + 2);
        r & (Self::board() ^ mask)
    }

    /// The playable cells where the side to move (stones `current`,
    /// occupied cells `mask`) connects four.
    #[inline(always)]
    pub fn winning_moves(current: B, mask: B) -> B {
        Self::completing_cells(current, mask) & Self::possible(mask)
    }

    /// The playable cells (with the occupied cells `mask`) that do not hand
    /// the opponent an immediate win, given the cells that complete its
    /// fours, `opponent_wins`.
    ///
    /// If the opponent threatens to win in one place, the only candidate is
    /// to block it; if it threatens two, every move loses and this is 0. A
    /// move directly below an opponent's winning cell is excluded too, since
    /// it lets the opponent play there. Precondition: the side to move
    /// cannot win at once.
    #[inline(always)]
    pub fn non_losing_moves(mask: B, opponent_wins: B) -> B {
        let mut possible = Self::possible(mask);
        let forced = possible & opponent_wins;
        if forced != B::ZERO {
            if forced & (forced - B::ONE) != B::ZERO {
                return B::ZERO;
            }
            possible = forced;
        }
        possible & !(opponent_wins >> 1usize)
    }

    /// Number of the side to move's threats (completing cells, empty and
    /// not yet playable included) after it plays `cell`, its stones being
    /// `current` and the occupied cells `mask` before.
    #[inline(always)]
    pub fn threats_after(current: B, mask: B, cell: B) -> u32 {
        Self::completing_cells(current | cell, mask | cell).count_ones()
    }

    /// The windows of four cells in a line that are still *live* with the
    /// stones `current` of one side and `mask` of both: they do not hold
    /// stones of both sides, so one side may yet complete them. One
    /// bitboard per direction of [`Self::DIRECTIONS`], holding the first
    /// (lowest) cell of each such window; [`Self::window_starts_through`]
    /// picks out the windows through one cell.
    #[inline(always)]
    pub fn live_window_starts(current: B, mask: B) -> [B; 4] {
        // A window is live if all four of its cells are free of one side's
        // stones (the board mask keeps off-board cells out).
        let opponent = current ^ mask;
        Self::DIRECTIONS.map(|s| {
            Self::four_starts(Self::board() & !current, s)
                | Self::four_starts(Self::board() & !opponent, s)
        })
    }

    /// The first (lowest) cells of the lines of four cells, in the direction
    /// of step `step`, whose cells all lie in `cells`. A line leaving the
    /// board meets a sentinel bit or runs past bit 63, which `cells` never
    /// holds when it lies within [`Self::board()`].
    #[inline(always)]
    fn four_starts(cells: B, step: u32) -> B {
        let step = step as usize;
        let pairs = cells & (cells >> step);
        pairs & (pairs >> (2 * step))
    }

    /// The cells that start a window of four, in the direction of step
    /// `step`, containing the cell `cell`: the cell itself and the three
    /// before it along the line (cells off the board included; intersect
    /// with the starts of real windows, such as [`Self::live_window_starts`]).
    #[inline(always)]
    pub fn window_starts_through(cell: B, step: u32) -> B {
        let step = step as usize;
        cell | (cell >> step) | (cell >> (2 * step)) | (cell >> (3 * step))
    }

    /// Whether `stones` contain four in a row.
    ///
    /// All four directions are computed and tested once, with no early
    /// exit: the search asks this at most nodes (dead positions, claimeven),
    /// and an exit per direction was a branch the CPU could not predict.
    /// With [`Self::has_four_not_above`] and `leaves_no_safe_reply` written
    /// the same way, cachegrind (nodes identical): instructions -0.6% on the
    /// first 30 Middle-Medium lines, +0.3% on the first 2 Begin-Hard lines;
    /// simulated mispredicted branches -9.3% and -8.8%.
    #[inline(always)]
    pub fn has_four(stones: B) -> bool {
        let mut starts = B::ZERO;
        for s in Self::DIRECTIONS {
            starts |= Self::four_starts(stones, s);
        }
        starts != B::ZERO
    }

    /// Whether `first` holds a four that does not lie directly above a four
    /// of `second`: a four in a column, or one in another direction whose
    /// four cells below are not all in `second`. The cell under each cell of
    /// a four is filled before it, so when `first` and `second` are the
    /// cells two players will get, a four of `first` right above a four of
    /// `second` is completed only after that one: the game is over by then.
    /// No early exit, as in [`Self::has_four`].
    #[inline(always)]
    pub fn has_four_not_above(first: B, second: B) -> bool {
        let [vertical, others @ ..] = Self::DIRECTIONS;
        let mut starts = Self::four_starts(first, vertical);
        for s in others {
            starts |= Self::four_starts(first, s) & !(Self::four_starts(second, s) << 1usize);
        }
        starts != B::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type R = Rules<7, 6>;

    /// Live windows through `cell`, summed over the four directions.
    fn live_windows_through(current: u64, mask: u64, cell: u64) -> u32 {
        let live = R::live_window_starts(current, mask);
        (0..4)
            .map(|d| (R::window_starts_through(cell, R::DIRECTIONS[d]) & live[d]).count_ones())
            .sum()
    }

    /// Live windows, all directions together.
    fn live_windows(current: u64, mask: u64) -> u32 {
        R::live_window_starts(current, mask)
            .iter()
            .map(|w| w.count_ones())
            .sum()
    }

    #[test]
    fn live_windows_on_the_empty_board_are_all_69_windows() {
        assert_eq!(live_windows(0, 0), 69);
        // The number of windows through each cell, bottom row first.
        let expected = [
            [3, 4, 5, 7, 5, 4, 3],
            [4, 6, 8, 10, 8, 6, 4],
            [5, 8, 11, 13, 11, 8, 5],
            [5, 8, 11, 13, 11, 8, 5],
            [4, 6, 8, 10, 8, 6, 4],
            [3, 4, 5, 7, 5, 4, 3],
        ];
        for (row, counts) in expected.iter().enumerate() {
            for (col, &count) in counts.iter().enumerate() {
                assert_eq!(
                    live_windows_through(0, 0, R::cell(col, row)),
                    count,
                    "col {col} row {row}"
                );
            }
        }
    }

    #[test]
    fn a_window_holding_both_colours_is_dead() {
        // First player in column 1, second in column 2, both on the bottom
        // row, first to move: only the horizontal window of columns 1-4
        // holds both.
        let (current, mask) = (R::cell(0, 0), R::cell(0, 0) | R::cell(1, 0));
        assert_eq!(live_windows(current, mask), 68);
        // Column 3's bottom cell lies in 5 windows, that one among them.
        assert_eq!(live_windows_through(current, mask, R::cell(2, 0)), 4);
        // A window holding stones of one side only stays live.
        assert_eq!(live_windows(0, R::cell(0, 0)), 69);
    }

    /// [`Rules::completing_cells`] against every window of four checked
    /// one by one, on random positions: boards with bits to spare above
    /// the last column (the shorter formula) and boards without (7x7, 8x7),
    /// on both words.
    #[test]
    fn completing_cells_match_every_window_checked_one_by_one() {
        fn check<const W: usize, const H: usize, B: Bitboard>(seed: u64) -> usize {
            let mut rng = crate::rng::SplitMix64::new(seed);
            let cell = |col: isize, row: isize| {
                ((0..W as isize).contains(&col) && (0..H as isize).contains(&row))
                    .then(|| Rules::<W, H, B>::cell(col as usize, row as usize))
            };
            let mut found = 0;
            for _ in 0..300 {
                let (mut stones, mut mask) = (B::ZERO, B::ZERO);
                for col in 0..W {
                    for row in 0..rng.below(H + 1) {
                        let c = Rules::<W, H, B>::cell(col, row);
                        mask |= c;
                        if rng.below(2) == 0 {
                            stones |= c;
                        }
                    }
                }
                let mut expected = B::ZERO;
                for col in 0..W as isize {
                    for row in 0..H as isize {
                        for (dc, dr) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                            let Some(window) = (0..4)
                                .map(|i| cell(col + i * dc, row + i * dr))
                                .collect::<Option<Vec<B>>>()
                            else {
                                continue;
                            };
                            let empty: Vec<B> = window
                                .iter()
                                .copied()
                                .filter(|&c| c & mask == B::ZERO)
                                .collect();
                            let ours = window.iter().filter(|&&c| c & stones != B::ZERO).count();
                            if ours == 3 && empty.len() == 1 {
                                expected |= empty[0];
                            }
                        }
                    }
                }
                assert_eq!(
                    Rules::<W, H, B>::completing_cells(stones, mask),
                    expected,
                    "{W}x{H}"
                );
                found += usize::from(expected != B::ZERO);
            }
            found
        }
        for found in [
            check::<7, 6, u64>(1),
            check::<9, 4, u64>(2),
            check::<11, 4, u64>(3),
            check::<9, 6, u64>(4),
            check::<7, 7, u64>(5),
            check::<8, 7, u64>(6),
            check::<9, 7, u128>(7),
            check::<4, 4, u64>(8),
        ] {
            assert!(found > 30, "{found} positions with a completing cell");
        }
    }

    #[test]
    fn fours_in_every_direction() {
        let line = |col: usize, row: usize, dc: isize, dr: isize| {
            (0..4isize).fold(0u64, |acc, i| {
                acc | R::cell(
                    (col as isize + i * dc) as usize,
                    (row as isize + i * dr) as usize,
                )
            })
        };
        for four in [
            line(0, 0, 0, 1),
            line(0, 0, 1, 0),
            line(0, 0, 1, 1),
            line(0, 3, 1, -1),
        ] {
            assert!(R::has_four(four));
            // Any three of the four are completed by the fourth; in a
            // column, only by the top one (the others are never empty
            // under stones).
            let vertical = four == line(0, 0, 0, 1);
            for missing in if vertical { 3..4 } else { 0..4 } {
                let cell = 1u64 << (0..64).filter(|b| four >> b & 1 == 1).nth(missing).unwrap();
                let three = four & !cell;
                assert!(!R::has_four(three));
                assert_ne!(R::completing_cells(three, three) & cell, 0);
            }
        }
        // The top three cells of a column and the bottom one of the next
        // are four bits in a row but for the sentinel bit: no four.
        assert!(!R::has_four(
            R::cell(0, 3) | R::cell(0, 4) | R::cell(0, 5) | R::cell(1, 0)
        ));
    }
}
