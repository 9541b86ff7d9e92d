//! Move ordering: the score that puts a node's most promising moves first,
//! and the tiny insertion-sorted list that hands them out.
//!
//! Alpha-beta prunes most when the best move is searched first. The search
//! adds each candidate with a score (higher = search earlier); the sorter
//! keeps them sorted as they arrive, which is the cheapest sort for at most a
//! dozen moves, and hands them out best first.

use crate::Bitboard;
use crate::position::Position;
use crate::settings::{
    FOUR_ROW_LIVE_WINDOWS_MIN_EMPTY, LIVE_WINDOW_WEIGHT, LIVE_WINDOWS_MIN_EMPTY,
    SECOND_PLAYER_BOARD_HEIGHT, THREAT_SCORE_WEIGHT,
};

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

    /// Whether a move not handed out yet wins with its player's next stone
    /// (it was added with the score `i32::MAX`, see `order_moves`).
    #[inline(always)]
    pub fn has_win(&self) -> bool {
        self.len > 0 && self.scores[self.len - 1] == i32::MAX
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

/// The columns of a `W`-wide board from the centre outwards, alternating left
/// and right: 3, 2, 4, 1, 5, 0, 6 (0-based) on 7 columns, 3, 2, 4, 1, 5, 0 on 6.
pub const fn center_first_order<const W: usize>() -> [usize; W] {
    let mut order = [0; W];
    let mut i = 0;
    while i < W {
        order[i] = center_first_column(W, i);
        i += 1;
    }
    order
}

/// [`center_first_order`] of a board `width` columns wide known only at run
/// time.
pub fn center_first_columns(width: usize) -> impl Iterator<Item = usize> {
    (0..width).map(move |i| center_first_column(width, i))
}

/// The `i`-th column (0-based) of a `width`-wide board from the centre
/// outwards: i = 0, 1, 2, 3, ... maps to centre, centre-1, centre+1,
/// centre-2, ...
const fn center_first_column(width: usize, i: usize) -> usize {
    let offset = (i as isize + 1) / 2;
    let sign = if i % 2 == 1 { -1 } else { 1 };
    ((width / 2) as isize + sign * offset) as usize
}

/// The moves of `moves` (cells of `pos`) sorted for search, leaving out
/// those whose table-proved cap (`child_cap`, by column) cannot raise
/// `alpha`; `child_threats[col]` receives the threats each scored move
/// leaves the side to move (the child's `opponent_threats`). `popcnt`: the
/// CPU has the instruction (see [`count`]).
///
/// A move that leaves the opponent no safe reply (two immediate threats, one
/// under another of ours, or every playable cell under one of ours) wins
/// with our next stone: the best score there is, so it goes first (nodes:
/// Begin-Easy, first 300 lines, -8.0%). The others by
/// [`move_order_score`]; from [`LIVE_WINDOWS_MIN_EMPTY`] empty cells on
/// ([`FOUR_ROW_LIVE_WINDOWS_MIN_EMPTY`] on four rows), weighed with the
/// live windows through the move's cell, since few moves make threats near
/// the root. Columns are added from the edges inwards, so
/// ties go to the centre.
#[inline(always)]
pub(crate) fn order_moves<const W: usize, const H: usize, B: Bitboard>(
    popcnt: bool,
    pos: &Position<W, H, B>,
    moves: B,
    child_cap: &[i32; W],
    alpha: i32,
    opponent_threats: B,
    child_threats: &mut [B; W],
) -> MoveSorter<W, B> {
    let mut sorter = MoveSorter::<W, B>::new();
    let live_min = if H == SECOND_PLAYER_BOARD_HEIGHT {
        FOUR_ROW_LIVE_WINDOWS_MIN_EMPTY
    } else {
        LIVE_WINDOWS_MIN_EMPTY
    };
    let live = (pos.empty_cells() >= live_min).then(|| live_window_starts(pos));
    for &col in const { center_first_order::<W>() }.iter().rev() {
        let cell = moves & Position::<W, H, B>::column_mask(col);
        if cell != B::ZERO && child_cap[col] > alpha {
            let mask = pos.mask() | cell;
            let ours = Position::<W, H, B>::completing_cells(pos.current() | cell, mask);
            child_threats[col] = ours;
            let score = if leaves_no_safe_reply::<W, H, B>(mask, ours) {
                i32::MAX
            } else {
                let threats = move_order_score::<W, H, B>(popcnt, mask, ours, opponent_threats);
                match &live {
                    Some(live) => {
                        THREAT_SCORE_WEIGHT * threats
                            + LIVE_WINDOW_WEIGHT
                                * live_windows_through::<W, H, B>(popcnt, cell, live)
                    }
                    None => threats,
                }
            };
            sorter.add(cell, score);
        }
    }
    sorter
}

/// [`Position::live_window_starts`] of `pos`, kept out of line. Inlined,
/// the compiler computed it (74 instructions on 7x6) at every node that
/// reaches the children loop, before knowing whether the moves would be
/// scored at all or whether the node has the empty cells that use it;
/// a call it cannot hoist. Callgrind, nodes identical: -3.8% instructions
/// on the first 30 Middle-Medium lines, -3.9% on the first 2 Begin-Hard.
#[inline(never)]
fn live_window_starts<const W: usize, const H: usize, B: Bitboard>(
    pos: &Position<W, H, B>,
) -> [B; 4] {
    pos.live_window_starts()
}

/// Whether a move that leaves the occupied cells `mask` and the threats
/// `ours` to its player leaves the opponent no safe reply: two playable
/// threats, a playable one under another, or every playable cell under a
/// threat. For a move that does not hand the opponent a win at once (a
/// candidate), that is exactly a win with its player's next stone.
#[inline(always)]
pub(crate) fn leaves_no_safe_reply<const W: usize, const H: usize, B: Bitboard>(
    mask: B,
    ours: B,
) -> bool {
    let playable = (mask + Position::<W, H, B>::bottom()) & Position::<W, H, B>::board();
    let forced = playable & ours;
    if forced != B::ZERO {
        forced & (forced - B::ONE) != B::ZERO || forced & (ours >> 1usize) != B::ZERO
    } else {
        playable & !(ours >> 1usize) == B::ZERO
    }
}

/// How promising a move looks, for move ordering (higher first), from
/// `mask`, the occupied cells after it, and `ours`, the threats it leaves
/// us.
///
/// Counts the threats the move leaves us (empty cells that would complete
/// four), leaving out those directly above an opponent's threat (the
/// opponent wins below before we can use them). Two kinds count extra: a
/// threat right above a playable cell (the opponent can never play under
/// it, which restricts its moves) and an immediate threat (the opponent
/// must block it now). Weights 4/2/1, against the plain threat count:
/// Middle-Medium (first 300 lines) -21% nodes.
#[inline(always)]
fn move_order_score<const W: usize, const H: usize, B: Bitboard>(
    popcnt: bool,
    mask: B,
    ours: B,
    opponent_threats: B,
) -> i32 {
    let useful = ours & !(opponent_threats << 1usize);
    let playable = (mask + Position::<W, H, B>::bottom()) & Position::<W, H, B>::board();
    4 * count(popcnt, useful)
        + 2 * count(popcnt, useful & (playable << 1usize))
        + count(popcnt, useful & playable)
}

/// How many of the live windows `live` (from
/// [`Position::live_window_starts`]) contain the cell `cell`.
#[inline(always)]
fn live_windows_through<const W: usize, const H: usize, B: Bitboard>(
    popcnt: bool,
    cell: B,
    live: &[B; 4],
) -> i32 {
    let mut n = 0;
    for (&step, &starts) in Position::<W, H, B>::DIRECTIONS.iter().zip(live) {
        n += count(
            popcnt,
            Position::<W, H, B>::window_starts_through(cell, step) & starts,
        );
    }
    n
}

/// Whether this CPU has the POPCNT instruction (see [`count`]).
pub(crate) fn cpu_has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Number of set bits of `x`; `popcnt` says whether the CPU has the
/// instruction ([`cpu_has_popcnt`], checked once per search).
///
/// The default x86-64 target has no popcount instruction, and the portable
/// count was 13% of all instructions executed (the move ordering counts bits
/// three times per move), so the instruction is used through inline
/// assembly when present; the branch on the flag is always predicted.
/// A `u128` word is counted as its two halves.
#[inline(always)]
fn count<B: Bitboard>(popcnt: bool, x: B) -> i32 {
    let x = x.to_u128();
    if B::BITS > 64 {
        count_u64(popcnt, x as u64) + count_u64(popcnt, (x >> 64) as u64)
    } else {
        count_u64(popcnt, x as u64)
    }
}

/// [`count`] of one 64-bit word.
#[inline(always)]
fn count_u64(popcnt: bool, x: u64) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if popcnt {
        let n: u64;
        // The count overwrites its own input register. On Intel cores from
        // Sandy Bridge through the Skylake family (Cascade Lake servers
        // among them), `popcnt` waits for the old value of
        // its destination register (a false dependency), so a destination
        // chosen freely can chain unrelated counts through whatever last
        // wrote that register; a compiler breaks the chain only when it
        // emits the instruction itself. The input is a true dependency
        // anyway. Before, 1,453 of the binary's 1,904 `popcnt`s wrote
        // another register (`objdump -d`); callgrind: +0.2% instructions on
        // 30 Middle-Medium lines (a copy where `x` is still needed).
        //
        // SAFETY: `popcnt` is only reached when the CPU reports the POPCNT
        // feature; it reads a register and writes one, touching no memory
        // or stack.
        unsafe {
            std::arch::asm!(
                "popcnt {x}, {x}",
                x = inout(reg) x => n,
                options(pure, nomem, nostack)
            );
        }
        return n as i32;
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = popcnt;
    x.count_ones() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`leaves_no_safe_reply`] after a candidate move holds exactly when
    /// every reply of the opponent lets the mover win at once, the claim
    /// the no-quick-win rule of the search rests on. Checked move by move
    /// along random games of three board sizes.
    #[test]
    fn no_safe_reply_is_exactly_every_reply_losing_at_once() {
        fn check<const W: usize, const H: usize>(seed: u64) -> (usize, usize) {
            let mut rng = crate::rng::SplitMix64::new(seed);
            let (mut checked, mut wins) = (0, 0);
            for _ in 0..200 {
                let mut pos = Position::<W, H>::new();
                while !pos.can_win_next() && pos.moves_played() + 2 < W * H {
                    let candidates = pos.non_losing_moves();
                    if candidates == 0 {
                        break;
                    }
                    let mut moves = Vec::new();
                    let mut rest = candidates;
                    while rest != 0 {
                        let cell = rest & rest.wrapping_neg();
                        rest ^= cell;
                        moves.push(cell);
                        let mask = pos.mask() | cell;
                        let ours = Position::<W, H>::completing_cells(pos.current() | cell, mask);
                        let mut child = pos;
                        child.play(cell);
                        let mut every_reply_loses = true;
                        let mut replies = child.possible();
                        while replies != 0 {
                            let reply = replies & replies.wrapping_neg();
                            replies ^= reply;
                            let mut after = child;
                            after.play(reply);
                            every_reply_loses &= after.can_win_next();
                        }
                        assert_eq!(
                            leaves_no_safe_reply::<W, H, u64>(mask, ours),
                            every_reply_loses,
                            "{W}x{H}, after {} stones, the move at bit {}",
                            pos.moves_played(),
                            cell.trailing_zeros()
                        );
                        checked += 1;
                        wins += usize::from(every_reply_loses);
                    }
                    pos.play(moves[rng.below(moves.len())]);
                }
            }
            (checked, wins)
        }
        for (checked, wins) in [check::<7, 6>(1), check::<9, 4>(2), check::<5, 5>(3)] {
            // The games reach both answers many times.
            assert!(checked > 2000 && wins > 50, "{checked} moves, {wins} wins");
        }
    }

    #[test]
    fn centre_first_on_seven_and_even_widths() {
        assert_eq!(center_first_order::<7>(), [3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(center_first_order::<6>(), [3, 2, 4, 1, 5, 0]);
        assert_eq!(center_first_order::<4>(), [2, 1, 3, 0]);
    }

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
}
