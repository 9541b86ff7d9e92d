//! The probe policy: which null-window searches find a score (strong, weak,
//! or walking up from a known bound), in which order, and which probe each
//! thread of a parallel search makes.

use crate::Bitboard;
use crate::position::Position;
use crate::rules::Score;
use crate::settings::{
    MIDDLE_GAME_BET_SIDE_PROBE_FRACTION, MIDDLE_GAME_BIG_PROBE_FRACTION, WEAK_PROBE_FRACTION,
};
use crate::solver::search::Searcher;
use crate::solver::stage::Stage;

/// A search from one root, as the probe policy sees it. A trait object, so
/// that the policy (this module) is compiled once, not once per board size:
/// one indirect call per probe, nothing beside the probe's search.
pub(super) trait RootSearch {
    /// The fail-soft value of the root in the window `(alpha, beta)` (see
    /// [`Searcher::negamax`]); `None` if the search was stopped.
    fn window(&mut self, alpha: Score, beta: Score) -> Option<Score>;
    /// Reports to the progress sink the bound a probe of `med` that
    /// returned `r` proved (see [`Searcher::proved`]).
    fn proved(&self, r: Score, med: Score);
    /// Reports to the progress sink the exact score found.
    fn proved_exact(&self, score: Score);
}

/// A searcher and the root it searches from: the [`RootSearch`] of a board
/// size.
pub(super) struct FromRoot<'s, 't, const W: usize, const H: usize, B: Bitboard> {
    /// The search's state.
    pub searcher: &'s mut Searcher<'t, W, H, B>,
    /// The root.
    pub pos: &'s Position<W, H, B>,
}

impl<const W: usize, const H: usize, B: Bitboard> RootSearch for FromRoot<'_, '_, W, H, B> {
    fn window(&mut self, alpha: Score, beta: Score) -> Option<Score> {
        let r = self.searcher.negamax(self.pos, alpha, beta);
        (!self.searcher.aborted).then_some(r)
    }
    fn proved(&self, r: Score, med: Score) {
        self.searcher.proved(r, med);
    }
    fn proved_exact(&self, score: Score) {
        self.searcher.proved_exact(score);
    }
}

/// What the probe policy needs to know of a root position.
#[derive(Clone, Copy, Debug)]
pub(super) struct Root {
    /// Stones on the board.
    pub moves: usize,
    /// Empty cells.
    pub empty: usize,
    /// The range `(min, max)` holding its score (see
    /// [`Position::score_range`]).
    pub range: (Score, Score),
    /// Its sign probe (see [`sign_probe`]).
    pub sign: Score,
    /// Its stage of the game, which the probes, the tables and the threads
    /// ask.
    pub stage: Stage,
}

impl Root {
    /// The facts of `pos`.
    pub fn of<const W: usize, const H: usize, B: Bitboard>(pos: &Position<W, H, B>) -> Root {
        let stage = Stage::of(pos);
        Root {
            moves: pos.moves_played(),
            empty: pos.empty_cells(),
            range: pos.score_range(),
            sign: sign_probe(pos, stage),
            stage,
        }
    }
}

/// How a strong solve orders its probes from a root (see
/// [`sequential_probe`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ProbePlan {
    /// Whether the sign is probed right after the big win and the big loss
    /// (see [`probes_sign_first`]).
    pub sign_first: bool,
    /// The sign probe (see [`sign_probe`]).
    pub sign: Score,
    /// The big-win probe asks whether the score lies beyond this fraction
    /// (numerator, denominator) of the best win: one half, but in the
    /// middle game (see [`Stage::middle`])
    /// [`MIDDLE_GAME_BIG_PROBE_FRACTION`], or
    /// [`MIDDLE_GAME_BET_SIDE_PROBE_FRACTION`] when the sign probe bets on
    /// a win and the board has more than four rows.
    pub big_win: (Score, Score),
    /// The same for the big-loss probe and the worst loss, the bet side
    /// being a loss.
    pub big_loss: (Score, Score),
    /// Where the walks in from the extremes of a root that does not probe
    /// the sign first end: half the worst loss and half the best win of
    /// the root's range, rounded away from zero (see [`sequential_probe`]).
    pub walk_ends: (Score, Score),
}

impl ProbePlan {
    /// The plan for `root`.
    pub fn of(root: Root) -> ProbePlan {
        let (big_win, big_loss) = if !root.stage.middle() {
            ((1, 2), (1, 2))
        } else if root.stage.four_rows() {
            (
                MIDDLE_GAME_BIG_PROBE_FRACTION,
                MIDDLE_GAME_BIG_PROBE_FRACTION,
            )
        } else if root.sign < 0 {
            (
                MIDDLE_GAME_BIG_PROBE_FRACTION,
                MIDDLE_GAME_BET_SIDE_PROBE_FRACTION,
            )
        } else {
            (
                MIDDLE_GAME_BET_SIDE_PROBE_FRACTION,
                MIDDLE_GAME_BIG_PROBE_FRACTION,
            )
        };
        let (min, max) = root.range;
        ProbePlan {
            sign_first: probes_sign_first(root),
            sign: root.sign,
            big_win,
            big_loss,
            walk_ends: (min - min / 2, max - max / 2),
        }
    }
}

/// One null-window probe: "is the score of the root above `med`?". Returns
/// the fail-soft value `r` (the score is at most `r` if `r <= med`, at least
/// `r` otherwise) and reports that bound to the search's progress sink;
/// `None` if the search was stopped.
pub(super) fn probe(search: &mut dyn RootSearch, med: Score) -> Option<Score> {
    let r = search.window(med, med + 1)?;
    search.proved(r, med);
    Some(r)
}

/// The exact score of `root` (not terminal), known to lie in `[min, max]`,
/// by a sequence of null-window probes, each of which narrows the range by
/// its fail-soft value; `None` if the search was stopped.
///
/// In the late game ([`Stage::late`]) the whole tree is
/// small and each probe walks most of it again: one search with the window
/// of the whole range costs less, and its value is exact since the score
/// lies strictly inside the window. Not for a range of three values or
/// fewer (the weak solve's [-1, 1]), where two null windows stay cheaper
/// (End-Easy 17.0 nodes against 20.9 with a window).
pub(super) fn exact_score(
    search: &mut dyn RootSearch,
    root: Root,
    (mut min, mut max): (Score, Score),
) -> Option<Score> {
    if max - min > 2 && root.stage.late() {
        let score = search.window(min - 1, max + 1)?;
        search.proved_exact(score);
        return Some(score);
    }
    let plan = ProbePlan::of(root);
    let mut done = 0;
    while min < max {
        let med = sequential_probe(done, min, max, plan);
        done += 1;
        let r = probe(search, med)?;
        if r <= med {
            max = r;
        } else {
            min = r;
        }
    }
    Some(min)
}

/// The exact score of the root (not terminal), known to lie in `[min, max]`
/// with `min` a proved lower bound, by walking up from it (see
/// [`Solver::solve_in`](super::Solver::solve_in)): "is it above `min`?",
/// and while a probe says yes, `min` rises to the fail-soft value it
/// returned. `None` if the search was stopped. ([`sequential_probe`]
/// makes the same walk after the sign probe, one probe at a time so that
/// the threads of a parallel search can share it.)
pub(super) fn walk_up(search: &mut dyn RootSearch, mut min: Score, max: Score) -> Option<Score> {
    while min < max {
        let r = probe(search, min)?;
        if r <= min {
            break;
        }
        min = r;
    }
    Some(min)
}

/// The big-win (or big-loss) probe for the best score `bound` (or the
/// worst): the score `fraction` (numerator, denominator) of the way from
/// zero to it, rounded towards zero.
fn big_probe(bound: Score, (num, den): (i32, i32)) -> Score {
    bound * num / den
}

/// The weak score (-1, 0 or 1) of `root` (not terminal); `None` if the
/// search was stopped.
///
/// Positions where big scores are common ([`Stage::big_scores_common`]) first probe
/// for a big win and a big loss (beyond [`WEAK_PROBE_FRACTION`] of the best
/// and the worst score): early scores are often large, and a window around
/// zero gives the search no reason to prefer the quick wins that settle
/// them (the saving: `BIG_SCORES_END_STONES` in `settings.rs`). Then the
/// strong solve's probes in [-1, 1]: "above 0?" settles a win, and a
/// fail-soft answer below 0 a loss; if neither, "above -1?" tells a draw
/// from a loss. One search with the window [-1, 1] makes every node tell a
/// draw from both a win and a loss, where a null window asks one question:
/// Begin-Hard (first 20 lines) 7.95M -> 6.49M nodes.
pub(super) fn weak_score(search: &mut dyn RootSearch, root: Root) -> Option<Score> {
    if root.stage.big_scores_common() {
        let (min, max) = root.range;
        for med in [
            big_probe(max, WEAK_PROBE_FRACTION),
            big_probe(min, WEAK_PROBE_FRACTION),
        ] {
            let r = probe(search, med)?;
            if r > med && r >= 1 {
                return Some(1);
            }
            if r <= med && r <= -1 {
                return Some(-1);
            }
        }
    }
    // The value found may lie beyond [-1, 1], on the right side of it.
    exact_score(search, root, (-1, 1)).map(Score::signum)
}

/// Whether a strong solve of `root` probes the sign of its score right after
/// the probes for a big win and a big loss, then walks away from zero (see
/// [`sequential_probe`]): everywhere but at the opening's end
/// ([`Stage::openings_end`]), in the opening and the middle game, whose
/// costly scores lie near zero; at the opening's end positions mostly score
/// far from zero and walk in from the extremes instead.
///
/// On boards of four rows every position does: the second player's edge
/// keeps the scores near zero there at every stage (a weak solve then makes
/// the sign bet of [`sign_probe`] too). Nodes, the mid-game sets
/// `testsets/mid-WxH.txt` (one thread, no book): 9x4 -2.4%, 10x4 -9.6%,
/// 11x4 -17.8%; weak -6.2%, -10.9%, -12.0%. Elsewhere it lost: Begin-Medium
/// (first 200) +8.6%, 7x7 +0.6% (8x5 -3.5%).
pub(super) fn probes_sign_first(root: Root) -> bool {
    root.stage.four_rows() || !root.stage.openings_end()
}

/// The sign probe of `pos`: the null window that tells a win from the
/// rest when it is `0` ("is the score above 0?"), a loss from the rest when
/// it is `-1` ("is it at least 0?"). The score `s` needs the proofs of
/// probes `s - 1` and `s`, so the sign probe is a bet: `0` saves a probe
/// when the side to move wins, `-1` when it loses, and a draw needs both.
/// The bet is `-1` when the first player is to move on a board of four
/// rows ([`Stage::four_rows`]), where the second player does not lose, and
/// when, past the opening ([`Stage::opening`]), the opponent has more
/// threats than the side to move
/// (empty cells that would complete a four, playable or not); `0`
/// elsewhere.
///
/// The threats are a guess, right often enough to pay: the side with more
/// of them is the likelier winner, and the count costs nothing beside a
/// probe. Nodes, one thread, no book, against the bet `0`: Middle-Medium
/// weak -2.7%, strong -1.0%; Middle-Easy weak -5.4%; the other sets and
/// the mid-game sets of other boards within 0.05%. In the opening the
/// threats are few and the guess lost (Begin-Hard, first 20,
/// weak +0.8%). A bet that knew the sign would save weak Middle-Medium
/// 7.8%.
pub(super) fn sign_probe<const W: usize, const H: usize, B: Bitboard>(
    pos: &Position<W, H, B>,
    stage: Stage,
) -> Score {
    let first_player_on_four_rows = stage.four_rows() && pos.moves_played().is_multiple_of(2);
    let outnumbered = !stage.opening()
        && pos.opponent_winning_cells().count_ones() > pos.winning_cells().count_ones();
    if first_player_on_four_rows || outnumbered {
        -1
    } else {
        0
    }
}

/// The probe (testing "score > med") that a single-thread strong solve makes
/// after `done` probes, with the score known to lie in `[min, max]`
/// (`min < max`).
///
/// Without `plan.sign_first` (the opening's end, [`Stage::openings_end`]:
/// positions of 8 to 14 stones on 7x6, whose scores mostly lie far from
/// zero), the probes walk in from each extreme
/// one value at a time: down from the best win to half of it
/// (`plan.walk_ends.1`) while each probe fails, then up from the worst
/// loss to half of it (`plan.walk_ends.0`) while each passes; then they
/// bisect ([`next_probe`]). A probe beyond the score asks whether a side
/// wins sooner than it can, a search cut short by the few stones left to
/// it; a probe that asks for a win short of the score, as the big-win
/// probe alone did for most big scores, is passed by slower wins too and
/// proves one of them with a larger tree. A big score is thus proved by the
/// probes on either side of it, each small. Against the big-win probe
/// then bisection, one thread, no book: Begin-Easy 727.9 -> 344.9 nodes
/// a line (-52.6%), Begin-Medium (first 200) +1.4%, Begin-Hard (first 20)
/// -0.1%, the mid-game sets of 8x5 +0.4% and 7x7 -1.2%.
///
/// With `plan.sign_first` the first probe asks "is it a big win?" (above
/// the fraction `plan.big_win` of the best score, see [`ProbePlan`]): cheap
/// either way; in a weak solve's range [-1, 1] it is the sign probe. It is
/// followed by a big-loss probe (`plan.big_loss`), then by the sign probe
/// `plan.sign` (see [`sign_probe`]), then the probes walk away from zero
/// from the bound it returned, one value at a time (`0`, `1`, `2`, ... if
/// the score is not negative; `-1`, `-2`, ... if it is at most 0) until one
/// fails: scores near zero, the common case there, are settled by the two
/// proofs they need, without the costly probes near zero that bisecting
/// adds. Walking rather than bisecting after the sign: Begin-Hard (first 20
/// lines) -3.7% nodes.
pub(super) fn sequential_probe(done: usize, min: Score, max: Score, plan: ProbePlan) -> Score {
    if !plan.sign_first {
        let (bottom, top) = plan.walk_ends;
        if max > top {
            // Known to score at most `max`: is it `max`?
            return max - 1;
        }
        if min <= bottom {
            // Known to score at least `min`: is it more?
            return min;
        }
        return next_probe(min, max);
    }
    if done == 0 {
        // In a weak solve's [-1, 1] the big-win probe is the sign probe of
        // the bet 0; the bet -1 asks its own.
        return if (min, max) == (-1, 1) {
            plan.sign
        } else {
            big_probe(max, plan.big_win)
        };
    }
    let valid = |m: Score| min <= m && m < max;
    let big_loss = big_probe(min, plan.big_loss);
    if done <= 1 && big_loss < 0 && valid(big_loss) {
        return big_loss;
    }
    if done <= 2 && valid(plan.sign) {
        return plan.sign;
    }
    // After the sign, walk away from zero one value at a time.
    if min >= 0 {
        // Known not to lose: is it more than the least score proved?
        return min;
    }
    if max <= 0 {
        // Known not to win: is it at least the best outcome proved?
        return max - 1;
    }
    next_probe(min, max)
}

/// The probe the single-thread search makes in the range `[min, max]`
/// (`min < max`) when it bisects: halfway, but halfway towards the extreme
/// on the side of zero that the range leans to. A window near the extremes
/// is settled fast by the bound tightening; against plain bisection,
/// probing 0 first (5x the nodes on Begin-Easy) and one full-window search
/// (+50% on Begin-Hard), this order searched the fewest nodes.
pub(super) fn next_probe(min: Score, max: Score) -> Score {
    let med = min + (max - min) / 2;
    if med <= 0 && min / 2 < med {
        min / 2
    } else if med >= 0 && max / 2 > med {
        max / 2
    } else {
        med
    }
}

/// The null-window probe `med` (testing "score > med", `a <= med < b`) a
/// thread of a parallel solve makes next, given the probes `busy` the
/// others are making; it may be one of those (it then helps that probe).
///
/// Thread 0 makes `preferred`, the probe the single-thread search would
/// make, if no other thread is making it; the others (and thread 0 when it
/// is taken) take the free value nearest to the sign probe `sign` (see
/// [`sign_probe`]), on the side of its bet first between two equally near
/// (above 0 for the bet `0`, below -1 for the bet `-1`). The score `s` needs the proofs of probes
/// `s - 1` and `s`, so while another thread probes the sign (0), probe 1 is
/// needed if `s` is 1 or 2 and probe -1 if `s` is -1 or 0; among the Begin
/// sets' lines of fewer than 8 stones, 187 score 1 or 2 and 148 -1 or 0.
/// Against thread 0 bisecting: first 10 Begin-Hard lines each solved alone
/// on 2 threads, median 6.65 s against 7.51 s.
///
/// Every thread helps the sign probe `sign` when another is making it and either
/// the side of zero it bets on holds one value, since the probe then
/// settles the score alone (for the bet 0, the score is known to be at most
/// 1: after probe 1 failed, or in a weak solve; for the bet -1, at least
/// -1), or
/// the root is past the earliest positions (`past_earliest`, see
/// [`Stage::earliest`]), where the probe beside the sign was a guess that
/// went to waste on the lines scoring 0 (`527376`: 9.5M of 30.7M nodes on
/// two threads, against 23.7M on one). From the earliest roots the sign
/// probe is long enough for the threads to share it anyway, and helping it
/// there was slower.
pub(super) fn choose_probe(
    thread: usize,
    preferred: Score,
    (a, b): (Score, Score),
    busy: &[Score],
    past_earliest: bool,
    sign: Score,
) -> Score {
    // The sign probe settles the score alone when the side of zero it bets
    // on holds one value: a win known to be at most 1 for the bet 0, a loss
    // known to be at least -1 for the bet -1.
    let settles_alone = if sign < 0 { a >= sign } else { b <= sign + 1 };
    if (settles_alone || past_earliest) && (a..b).contains(&sign) && busy.contains(&sign) {
        return sign;
    }
    // (`sequential_probe` may fall outside a range the others narrowed.)
    let preferred = if (a..b).contains(&preferred) {
        preferred
    } else {
        next_probe(a, b)
    };
    if thread == 0 && !busy.contains(&preferred) {
        return preferred;
    }
    let mut candidates: Vec<Score> = (a..b).filter(|m| !busy.contains(m)).collect();
    // The bet's side first: above 0 for the bet 0, below -1 for the bet -1.
    candidates.sort_by_key(|&m| ((m - sign).abs(), if sign < 0 { m } else { -m }));
    candidates.first().copied().unwrap_or(preferred)
}

#[cfg(test)]
mod tests {
    use super::{ProbePlan, Root, choose_probe, next_probe, probes_sign_first, sequential_probe};
    use crate::position::Position;

    #[test]
    fn middle_game_big_probes_look_further_out_but_on_the_side_of_the_bet() {
        // 15 stones and 27 empty cells: the middle game. Its range is
        // [-13, 14]. The sign probe bets on a win, so the big-win probe
        // asks beyond half the best win, the big-loss probe beyond two
        // thirds of the worst loss; then the sign comes.
        let mid = Position::<7, 6, u64>::parse("274552224131661").unwrap();
        let plan = ProbePlan::of(Root::of(&mid));
        assert_eq!(mid.score_range(), (-13, 14));
        assert!(plan.sign_first);
        assert_eq!(plan.sign, 0);
        assert_eq!((plan.big_win, plan.big_loss), ((1, 2), (2, 3)));
        assert_eq!(sequential_probe(0, -13, 14, plan), 7);
        assert_eq!(sequential_probe(1, -13, 7, plan), -8);
        assert_eq!(sequential_probe(2, -8, 7, plan), plan.sign);
        // A weak solve's [-1, 1] asks the sign first in the middle game.
        assert_eq!(sequential_probe(0, -1, 1, plan), plan.sign);
        // Two stones on, the side to move has fewer threats than its
        // opponent: the bet is a loss, and the two fractions swap sides.
        let mid = Position::<7, 6, u64>::parse("27455222413166143").unwrap();
        let plan = ProbePlan::of(Root::of(&mid));
        assert_eq!(mid.score_range(), (-12, 13));
        assert_eq!(plan.sign, -1);
        assert_eq!((plan.big_win, plan.big_loss), ((2, 3), (1, 2)));
        assert_eq!(sequential_probe(0, -12, 13, plan), 8);
        assert_eq!(sequential_probe(1, -12, 8, plan), -6);
        // Four rows keep two thirds on both sides.
        let four_rows = Position::<9, 4, u64>::parse("1575779344715").unwrap();
        let plan = ProbePlan::of(Root::of(&four_rows));
        assert!(Root::of(&four_rows).stage.middle());
        assert_eq!((plan.big_win, plan.big_loss), ((2, 3), (2, 3)));
        // The earliest positions ask beyond half the best score first (then
        // the big loss and the sign).
        let earliest = Position::<7, 6, u64>::parse("4455").unwrap();
        let plan = ProbePlan::of(Root::of(&earliest));
        assert_eq!(
            (plan.big_win, plan.big_loss, plan.sign_first),
            ((1, 2), (1, 2), true)
        );
        let (min, max) = earliest.score_range();
        assert_eq!(sequential_probe(0, min, max, plan), max / 2);
    }

    #[test]
    fn positions_between_the_opening_and_the_middle_game_walk_in_from_both_ends() {
        // 12 stones and 30 empty cells: the range is [-15, 15], and the
        // walks end at half of each end, rounded away from zero.
        let pos = Position::<7, 6, u64>::parse("444444123333").unwrap();
        let plan = ProbePlan::of(Root::of(&pos));
        assert!(!plan.sign_first);
        assert_eq!(pos.score_range(), (-15, 15));
        assert_eq!(plan.walk_ends, (-8, 8));
        // Down from the best win while the probes fail...
        assert_eq!(sequential_probe(0, -15, 15, plan), 14);
        assert_eq!(sequential_probe(1, -15, 14, plan), 13);
        // ...the fail-soft value skipping ahead, to the bar itself.
        assert_eq!(sequential_probe(2, -15, 9, plan), 8);
        // A pass there settles the score; a fail turns to the worst loss.
        assert_eq!(sequential_probe(3, -15, 8, plan), -15);
        assert_eq!(sequential_probe(4, -10, 8, plan), -10);
        assert_eq!(sequential_probe(5, -8, 8, plan), -8);
        // Past both bars, bisection.
        assert_eq!(sequential_probe(6, -7, 8, plan), next_probe(-7, 8));
        // A weak solve's [-1, 1] lies inside both bars: "above 0?" first.
        assert_eq!(sequential_probe(0, -1, 1, plan), 0);
    }

    #[test]
    fn four_row_boards_probe_the_sign_first_at_every_stage() {
        // Eight stones: 28 empty cells on 9x4, 34 on 7x6, where the
        // positions of the opening's end bisect.
        let wide = Root::of(&Position::<9, 4, u64>::parse("59376426").unwrap());
        assert!(wide.stage.four_rows() && probes_sign_first(wide));
        let standard = Root::of(&Position::<7, 6, u64>::parse("44444123").unwrap());
        assert!(!standard.stage.four_rows() && !probes_sign_first(standard));
        // The earliest positions and those of 27 empty cells or fewer
        // probe it on every board.
        assert!(probes_sign_first(Root::of(
            &Position::<7, 6, u64>::parse("4").unwrap()
        )));
        let late = "274552224131661";
        assert!(probes_sign_first(Root::of(
            &Position::<7, 6, u64>::parse(late).unwrap()
        )));
    }

    #[test]
    fn the_sign_bet_expects_a_loss_from_fewer_threats_or_first_on_four_rows() {
        // No threats on either side: the bet on a win, but for the first
        // player on four rows.
        assert_eq!(
            Root::of(&Position::<7, 6, u64>::parse("4").unwrap()).sign,
            0
        );
        assert_eq!(
            Root::of(&Position::<9, 4, u64>::parse("59").unwrap()).sign,
            -1
        );
        assert_eq!(
            Root::of(&Position::<9, 4, u64>::parse("5").unwrap()).sign,
            0
        );
        // The opponent (the first player) has three in a row on the
        // bottom with both ends open: two threats against none. The
        // earliest positions do not guess; later ones bet on the loss.
        let early = Position::<7, 6, u64>::parse("33445").unwrap();
        assert_eq!(early.opponent_winning_cells().count_ones(), 2);
        assert_eq!(Root::of(&early).sign, 0);
        let outnumbered = Position::<7, 6, u64>::parse("334451177").unwrap();
        assert_eq!(outnumbered.opponent_winning_cells().count_ones(), 2);
        assert_eq!(outnumbered.winning_cells(), 0);
        assert_eq!(Root::of(&outnumbered).sign, -1);
        // The side to move with the threats bets on its win.
        let ahead = Position::<7, 6, u64>::parse("3344511771").unwrap();
        assert_eq!(ahead.winning_cells().count_ones(), 2);
        assert_eq!(Root::of(&ahead).sign, 0);
    }

    #[test]
    fn thread_zero_makes_its_preferred_probe_unless_taken() {
        assert_eq!(choose_probe(0, 9, (-18, 19), &[], false, 0), 9);
        assert_eq!(choose_probe(0, 9, (-18, 19), &[], true, 0), 9);
        // Taken: the free value nearest zero, the positive one first.
        assert_eq!(choose_probe(0, 9, (-18, 19), &[9], false, 0), 0);
        assert_eq!(choose_probe(0, 9, (-18, 19), &[9, 0], false, 0), 1);
        assert_eq!(choose_probe(0, 9, (-18, 19), &[9, 0, 1], false, 0), -1);
    }

    #[test]
    fn the_sign_probe_is_helped_past_the_earliest_roots_or_when_a_win_is_all_left() {
        // The earliest roots guess the probe beside the sign...
        assert_eq!(choose_probe(1, 9, (-8, 9), &[0], false, 0), 1);
        // ...unless the score is known to be at most 1 (a weak solve).
        assert_eq!(choose_probe(1, 0, (-1, 1), &[0], false, 0), 0);
        // Later roots help it, thread 0 too.
        assert_eq!(choose_probe(1, 9, (-8, 9), &[0], true, 0), 0);
        assert_eq!(choose_probe(0, 0, (-8, 9), &[0], true, 0), 0);
        // Once the sign is settled there is nothing to help.
        assert_eq!(choose_probe(1, 1, (1, 9), &[1], true, 0), 2);
        assert_eq!(choose_probe(1, -1, (-8, 0), &[-1], true, 0), -2);
    }
}
