//! Move ordering: the score that puts a node's most promising moves first.
//!
//! Alpha-beta prunes most when the best move is searched first. Each
//! candidate gets a score (higher = search earlier), and a [`MoveSorter`]
//! hands the moves out best first.

mod sorter;

pub use sorter::MoveSorter;
use sorter::WIN_NEXT_KEY;

use crate::Bitboard;
use crate::position::Position;
use crate::settings::{
    FOUR_ROW_LIVE_WINDOWS_MIN_EMPTY, LIVE_WINDOW_WEIGHT, LIVE_WINDOWS_MIN_EMPTY,
    MOVES_BY_BITS_MIN_WIDTH, THREAT_SCORE_WEIGHT,
};
use crate::solver::stage::is_four_row_board;

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
/// Begin-Easy, first 300 lines, -8.0%), and the moves not scored yet are
/// left out, since the node cuts off on it. The others by
/// [`move_order_score`]; from [`LIVE_WINDOWS_MIN_EMPTY`] empty cells on
/// ([`FOUR_ROW_LIVE_WINDOWS_MIN_EMPTY`] on four rows), weighed with the
/// live windows through the move's cell, since few moves make threats near
/// the root. Ties go to the centre: on boards of fewer than
/// [`MOVES_BY_BITS_MIN_WIDTH`] columns the moves are added from the edges
/// inwards, on wider ones one set bit at a time with each column's rank
/// towards the centre in its key ([`centrality_ranks`]). Both give the same
/// order.
///
/// `NEWER_CPU`: the caller is the search's copy for newer CPUs (AVX2), on a
/// board of at most [`MAX_LANES`] columns in 64 bits. There the threats of
/// every column's move are computed at once, four columns to an AVX2
/// instruction ([`threats_by_column`]), before any move is scored, rather
/// than one move at a time as it is scored. More moves' threats are
/// computed (every column, and past a move that cuts off), in far fewer
/// instructions. Callgrind, nodes identical: 7x6 -3.6% to -7.5% of the
/// instructions, 9x4 -1.6%.
#[inline(always)]
pub(crate) fn order_moves<const W: usize, const H: usize, B: Bitboard, const NEWER_CPU: bool>(
    popcnt: bool,
    pos: &Position<W, H, B>,
    moves: B,
    child_cap: &[i32; W],
    alpha: i32,
    opponent_threats: B,
    child_threats: &mut [B; W],
) -> MoveSorter<W, B> {
    let args = (popcnt, pos, moves, child_cap, alpha, opponent_threats);
    // The lanes of `threats_by_column`: eight up to eight columns, twelve
    // up to `MAX_LANES` (the lane counts measured best); none (0) where
    // each move's threats are computed as it is scored.
    let all_at_once = NEWER_CPU && B::BITS == 64;
    if takes_moves_by_bits::<W>() {
        if all_at_once && W <= 8 {
            order_moves_taken::<W, H, B, true, 8>(args, child_threats)
        } else if all_at_once && W <= MAX_LANES {
            order_moves_taken::<W, H, B, true, MAX_LANES>(args, child_threats)
        } else {
            order_moves_taken::<W, H, B, true, 0>(args, child_threats)
        }
    } else if all_at_once {
        order_moves_taken::<W, H, B, false, 8>(args, child_threats)
    } else {
        order_moves_taken::<W, H, B, false, 0>(args, child_threats)
    }
}

/// Hands out the move `cell` (the refutation square of a move searched
/// before, see `Searcher::search_moves`) before the other remaining moves
/// of the best score: a tie-break ahead of the centre, which leaves every
/// move of a better score first. The keys are those [`order_moves`] made,
/// whose score lies above their [`tie_bits`].
#[inline(always)]
pub(crate) fn prefer_among_equals<const W: usize, B: Bitboard>(
    sorter: &mut MoveSorter<W, B>,
    cell: B,
) {
    sorter.prefer_if_tied(cell, const { tie_bits::<W>(takes_moves_by_bits::<W>()) });
}

/// Whether [`order_moves`] takes the moves of a board of `W` columns by set
/// bit (see [`MOVES_BY_BITS_MIN_WIDTH`]) rather than column by column.
const fn takes_moves_by_bits<const W: usize>() -> bool {
    W >= MOVES_BY_BITS_MIN_WIDTH
}

/// The low bits of a sort key, below the move's score: the column's rank
/// towards the centre ([`rank_bits`]) when the moves are taken by set bit
/// (`by_bits`), none otherwise. A key is `(score << tie_bits) | rank`.
const fn tie_bits<const W: usize>(by_bits: bool) -> u32 {
    if by_bits { rank_bits::<W>() } else { 0 }
}

/// The most columns [`threats_by_column`] computes at once: three AVX2
/// words of four lanes, for the boards of up to 12 columns that have the
/// search's copy for newer CPUs.
const MAX_LANES: usize = 12;

/// [`order_moves`], taking the moves by set bit (`BY_BITS`) or by column
/// from the edges inwards, with the threats of every column computed at
/// once on `LANES` words ([`threats_by_column`]) or, if `LANES` is 0, each
/// move's as it is scored.
#[inline(always)]
fn order_moves_taken<
    const W: usize,
    const H: usize,
    B: Bitboard,
    const BY_BITS: bool,
    const LANES: usize,
>(
    (popcnt, pos, moves, child_cap, alpha, opponent_threats): (
        bool,
        &Position<W, H, B>,
        B,
        &[i32; W],
        i32,
        B,
    ),
    child_threats: &mut [B; W],
) -> MoveSorter<W, B> {
    let mut sorter = MoveSorter::<W, B>::new();
    let live_min = if is_four_row_board(H) {
        FOUR_ROW_LIVE_WINDOWS_MIN_EMPTY
    } else {
        LIVE_WINDOWS_MIN_EMPTY
    };
    let live = (pos.empty_cells() >= live_min).then(|| live_window_starts(pos));
    let by_column = if LANES > 0 {
        threats_by_column::<W, H, B, LANES>(pos, moves)
    } else {
        [B::ZERO; LANES]
    };
    let scoring = Scoring {
        popcnt,
        pos,
        child_cap,
        alpha,
        opponent_threats,
        live,
        by_column,
    };
    if BY_BITS {
        let mut rest = moves;
        while rest != B::ZERO {
            let cell = rest & rest.wrapping_neg();
            rest ^= cell;
            let col = Position::<W, H, B>::column_of(cell);
            if scoring.add::<BY_BITS>(&mut sorter, child_threats, cell, col) {
                break;
            }
        }
    } else {
        for &col in const { center_first_order::<W>() }.iter().rev() {
            let cell = moves & Position::<W, H, B>::column_mask(col);
            if cell != B::ZERO && scoring.add::<BY_BITS>(&mut sorter, child_threats, cell, col) {
                break;
            }
        }
    }
    sorter
}

/// What scoring a move for [`order_moves`] needs of its node.
struct Scoring<'a, const W: usize, const H: usize, B: Bitboard, const LANES: usize> {
    popcnt: bool,
    pos: &'a Position<W, H, B>,
    child_cap: &'a [i32; W],
    alpha: i32,
    opponent_threats: B,
    /// The live windows, at nodes with enough empty cells.
    live: Option<[B; 4]>,
    /// The threats each column's move leaves us, when computed for every
    /// column at once ([`threats_by_column`], `LANES` > 0).
    by_column: [B; LANES],
}

impl<const W: usize, const H: usize, B: Bitboard, const LANES: usize> Scoring<'_, W, H, B, LANES> {
    /// Scores the move `cell` of column `col` into `sorter`, and its
    /// threats into `child_threats`; skips it if its cap cannot raise
    /// alpha. Returns whether it wins with our next stone (the moves left
    /// need no score). A function rather than a closure so that it can be
    /// forced inline: in the search's copy for newer CPUs the compiler
    /// left a closure out of line (+3% instructions).
    #[inline(always)]
    fn add<const BY_BITS: bool>(
        &self,
        sorter: &mut MoveSorter<W, B>,
        child_threats: &mut [B; W],
        cell: B,
        col: usize,
    ) -> bool {
        if self.child_cap[col] <= self.alpha {
            return false;
        }
        let mask = self.pos.mask() | cell;
        let ours = if LANES > 0 {
            self.by_column[col]
        } else {
            Position::<W, H, B>::completing_cells(self.pos.current() | cell, mask)
        };
        child_threats[col] = ours;
        // Taken by set bit, the moves carry their rank towards the centre
        // in their keys to send ties there; taken from the edges inwards,
        // their order of arrival does it (the sorter hands out the last
        // added of equal keys first).
        let ranks = const { centrality_ranks::<W>() };
        let rank = if BY_BITS { ranks[col] } else { 0 };
        if leaves_no_safe_reply::<W, H, B>(mask, ours) {
            // The node cuts off on this move without searching any, so the
            // moves left are not scored: callgrind, nodes identical, -0.8%
            // to -1.5% of the instructions on the 7x6 sets, -1.9% on 8x5
            // and 7x7; +0.3% on 9x4 and +1.2% on 10x4.
            sorter.add(cell, WIN_NEXT_KEY);
            return true;
        }
        let threats = move_order_score::<W, H, B>(self.popcnt, mask, ours, self.opponent_threats);
        let score = match &self.live {
            Some(live) => {
                THREAT_SCORE_WEIGHT * threats
                    + LIVE_WINDOW_WEIGHT * live_windows_through::<W, H, B>(self.popcnt, cell, live)
            }
            None => threats,
        };
        let key = (score << const { tie_bits::<W>(BY_BITS) }) | rank;
        sorter.add(cell, key);
        false
    }
}

/// The threats the move in each column of `moves` (at most one cell a
/// column) would leave the side to move of `pos`, by column: the same
/// shifts on `LANES` words (a multiple of four, at least `W`), which the
/// compiler turns into AVX2 instructions on four words at a time in the
/// copy for newer CPUs. A column with no move (or past the board) gets the
/// threats of the position as it is.
#[inline(always)]
fn threats_by_column<const W: usize, const H: usize, B: Bitboard, const LANES: usize>(
    pos: &Position<W, H, B>,
    moves: B,
) -> [B; LANES] {
    debug_assert!(W <= LANES && LANES.is_multiple_of(4));
    let mut threats = [B::ZERO; LANES];
    for (col, threat) in threats.iter_mut().enumerate() {
        let cell = if col < W {
            moves & Position::<W, H, B>::column_mask(col)
        } else {
            B::ZERO
        };
        *threat = Position::<W, H, B>::completing_cells(pos.current() | cell, pos.mask() | cell);
    }
    threats
}

/// The bits a column's rank takes in a sort key.
const fn rank_bits<const W: usize>() -> u32 {
    usize::BITS - (W - 1).leading_zeros()
}

/// Each column's rank from the edges towards the centre: 0 for the last
/// column of [`center_first_order`], `W - 1` for the centre. Taking the
/// moves by set bit, [`order_moves`] keys each move `(score << rank_bits) |
/// rank`, so that among equal scores the more central column comes out
/// first, whatever order the moves were added in.
const fn centrality_ranks<const W: usize>() -> [i32; W] {
    let order = center_first_order::<W>();
    let mut ranks = [0; W];
    let mut i = 0;
    while i < W {
        ranks[order[i]] = (W - 1 - i) as i32;
        i += 1;
    }
    ranks
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
    let under_ours = ours >> 1usize;
    // One test without branches (see `Rules::has_four`): with a forced
    // cell, every playable cell under a threat implies that the forced one
    // is; with none, the first two terms are empty.
    let two_forced = forced ^ (forced & forced.wrapping_neg());
    ((two_forced | (forced & under_ours)) != B::ZERO) | (playable & !under_ours == B::ZERO)
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

/// Whether this CPU has every feature the search's copy for newer CPUs is
/// compiled with (x86-64-v3's, see `Searcher::node`).
pub(crate) fn cpu_has_newer_features() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("fma")
            && std::arch::is_x86_feature_detected!("movbe")
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
    count_portably(x)
}

/// [`count_u64`] without the instruction, out of line: inlined, its masks
/// were loaded into registers on the path that uses the instruction too,
/// three instructions for each move scored.
#[inline(never)]
fn count_portably(x: u64) -> i32 {
    x.count_ones() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Plays `games` random games on a `W`x`H` board, each move one the
    /// side to move does not lose by at once, and calls `visit` with each
    /// position before its move (the side to move cannot win at once and
    /// has a safe move), its safe moves and the random source.
    fn visit_random_games<const W: usize, const H: usize>(
        seed: u64,
        games: usize,
        mut visit: impl FnMut(&Position<W, H>, u64, &mut SplitMix64),
    ) {
        let mut rng = SplitMix64::new(seed);
        for _ in 0..games {
            let mut pos = Position::<W, H>::new();
            while !pos.can_win_next() && pos.moves_played() + 2 < W * H {
                let candidates = pos.non_losing_moves();
                if candidates == 0 {
                    break;
                }
                visit(&pos, candidates, &mut rng);
                let mut rest = candidates;
                for _ in 0..rng.below(candidates.count_ones() as usize) {
                    rest &= rest - 1;
                }
                pos.play(rest & rest.wrapping_neg());
            }
        }
    }

    /// [`leaves_no_safe_reply`] after a candidate move holds exactly when
    /// every reply of the opponent lets the mover win at once, the claim
    /// the no-quick-win rule of the search rests on. Checked move by move
    /// along random games of three board sizes.
    #[test]
    fn no_safe_reply_is_exactly_every_reply_losing_at_once() {
        fn check<const W: usize, const H: usize>(seed: u64) -> (usize, usize) {
            let (mut checked, mut wins) = (0, 0);
            visit_random_games::<W, H>(seed, 200, |pos, candidates, _| {
                let mut rest = candidates;
                while rest != 0 {
                    let cell = rest & rest.wrapping_neg();
                    rest ^= cell;
                    let mask = pos.mask() | cell;
                    let ours = Position::<W, H>::completing_cells(pos.current() | cell, mask);
                    let mut child = *pos;
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
            });
            (checked, wins)
        }
        for (checked, wins) in [check::<7, 6>(1), check::<9, 4>(2), check::<5, 5>(3)] {
            // The games reach both answers many times.
            assert!(checked > 2000 && wins > 50, "{checked} moves, {wins} wins");
        }
    }

    /// Taking the moves by set bit, with each column's rank in its key,
    /// hands them out in the same order as taking them from the edges
    /// inwards, and reports the same threats; where a move wins with our
    /// next stone, both put such a move first. Checked at every node along
    /// random games, with random caps leaving some moves out.
    #[test]
    fn moves_by_bits_come_out_as_by_columns() {
        fn check<const W: usize, const H: usize>(seed: u64) -> (usize, usize) {
            let (mut ties, mut wins) = (0, 0);
            visit_random_games::<W, H>(seed, 100, |pos, moves, rng| {
                let alpha = rng.below(3) as i32 - 1;
                let caps: [i32; W] = std::array::from_fn(|_| rng.below(4) as i32 - 1);
                let threats = Position::<W, H>::completing_cells(pos.opponent(), pos.mask());
                let args = (true, pos, moves, &caps, alpha, threats);
                let (mut by_bits, mut by_columns) = ([0; W], [0; W]);
                let sorter_by_bits = order_moves_taken::<W, H, u64, true, 0>(args, &mut by_bits);
                let sorter_by_columns =
                    order_moves_taken::<W, H, u64, false, 0>(args, &mut by_columns);
                let win = sorter_by_bits.has_win();
                assert_eq!(win, sorter_by_columns.has_win());
                let sorted_by_bits: Vec<u64> = sorter_by_bits.collect();
                let sorted_by_columns: Vec<u64> = sorter_by_columns.collect();
                if win {
                    // Each way stops at the first move that wins with
                    // our next stone it meets, and puts it first.
                    for (sorted, threats) in [
                        (&sorted_by_bits, &by_bits),
                        (&sorted_by_columns, &by_columns),
                    ] {
                        let cell = sorted[0];
                        let col = Position::<W, H>::column_of(cell);
                        assert!(leaves_no_safe_reply::<W, H, u64>(
                            pos.mask() | cell,
                            threats[col]
                        ));
                    }
                    wins += 1;
                } else {
                    assert_eq!(sorted_by_bits, sorted_by_columns, "{W}x{H} after {pos:?}");
                    assert_eq!(by_bits, by_columns);
                    ties += usize::from(sorted_by_bits.len() > 1);
                }
            });
            (ties, wins)
        }
        for (ties, wins) in [check::<7, 6>(4), check::<9, 4>(5), check::<5, 5>(6)] {
            assert!(ties > 300 && wins > 20, "{ties} orders, {wins} wins");
        }
    }

    /// The threats of every column computed at once, as the copy for newer
    /// CPUs computes them, are each column's move's threats; and the move
    /// order made with them is the one made a move at a time: the same
    /// moves in the same order, the same threats reported, the same win.
    /// Checked at every node along random games, on a board taken by
    /// column (7x6, eight lanes), by set bit (9x4 and 11x4, twelve lanes;
    /// 8x5, eight) and a narrow one (5x5).
    #[test]
    fn threats_of_every_column_at_once_order_as_one_at_a_time() {
        fn check<const W: usize, const H: usize, const BY_BITS: bool, const LANES: usize>(
            seed: u64,
        ) -> usize {
            let mut orders = 0;
            visit_random_games::<W, H>(seed, 60, |pos, moves, rng| {
                let by_column = threats_by_column::<W, H, u64, LANES>(pos, moves);
                for (col, &threats) in by_column.iter().enumerate().take(W) {
                    let cell = moves & Position::<W, H>::column_mask(col);
                    assert_eq!(
                        threats,
                        Position::<W, H>::completing_cells(pos.current() | cell, pos.mask() | cell),
                        "{W}x{H} after {pos:?}, column {col}"
                    );
                }
                let alpha = rng.below(3) as i32 - 1;
                let caps: [i32; W] = std::array::from_fn(|_| rng.below(4) as i32 - 1);
                let threats = Position::<W, H>::completing_cells(pos.opponent(), pos.mask());
                let args = (true, pos, moves, &caps, alpha, threats);
                let (mut at_once, mut one_by_one) = ([0; W], [0; W]);
                let sorter_at_once =
                    order_moves_taken::<W, H, u64, BY_BITS, LANES>(args, &mut at_once);
                let sorter_one_by_one =
                    order_moves_taken::<W, H, u64, BY_BITS, 0>(args, &mut one_by_one);
                assert_eq!(sorter_at_once.has_win(), sorter_one_by_one.has_win());
                let sorted: Vec<u64> = sorter_at_once.collect();
                assert_eq!(sorted, sorter_one_by_one.collect::<Vec<u64>>());
                assert_eq!(at_once, one_by_one, "{W}x{H} after {pos:?}");
                orders += usize::from(sorted.len() > 1);
            });
            orders
        }
        for orders in [
            check::<7, 6, false, 8>(7),
            check::<5, 5, false, 8>(8),
            check::<8, 5, true, 8>(9),
            check::<9, 4, true, 12>(10),
            check::<11, 4, true, 12>(11),
        ] {
            assert!(orders > 300, "{orders} orders of more than one move");
        }
    }

    #[test]
    fn centre_first_on_seven_and_even_widths() {
        assert_eq!(center_first_order::<7>(), [3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(center_first_order::<6>(), [3, 2, 4, 1, 5, 0]);
        assert_eq!(center_first_order::<4>(), [2, 1, 3, 0]);
        assert_eq!(centrality_ranks::<7>(), [1, 3, 5, 6, 4, 2, 0]);
        assert_eq!(centrality_ranks::<4>(), [0, 2, 3, 1]);
    }
}
