//! The follow-up rules of the search (claimeven, its pairings of odd
//! columns and the bounds they give, `Searcher::claimeven`) restated on the
//! naive board model and checked against the plain minimax of
//! `common::minimax`, on random positions of small boards (four-row boards
//! up to 7x4 among them) and of 7x6 near the end.
//!
//! Rows are 0-based. A column is odd when it has an odd number of empty
//! cells; its lowest empty cell, a "low", lies on a row of the other parity
//! than `H`. When a player moves first in a position whose columns are all
//! even and the other answers every move on top of it ("follows up"), the
//! first player gets exactly the empty cells on rows of `H`'s parity (the
//! follow-up cells) and the follower gets the rest. The cells the follower
//! gets whatever happens to the lows ("sure" cells) are the empty cells on
//! the other rows, the lows aside. From that, for the side to move:
//!
//! - no odd column, and the side to move gets no four from its stones and
//!   the follow-up cells: its score is at most 0;
//! - one odd column: the side to move plays the low and then follows up,
//!   so it gets every cell on the other rows, and if the opponent gets no
//!   four from the follow-up cells: at least 0;
//! - two odd columns, and the side to move gets no four from the follow-up
//!   cells plus either low: at most 0 (the opponent answers one low with
//!   the other);
//! - three odd columns, the opponent has no four in the follow-up cells and
//!   for two of the lows it has none with that low added: at least 0 (the
//!   side to move plays the third low, whose two others are safe, and
//!   answers one of them with the other);
//! - four odd columns, and the opponent can pair the lows so that the side
//!   to move gets no four from the follow-up cells plus one cell of each
//!   pair, whichever: at most 0;
//! - five or more, an odd number: the side to move plays a low and then
//!   pairs the others as it likes, so the opponent gets at most the
//!   follow-up cells and all the lows; if they hold no four: at least 0;
//! - six or more, an even number: the opponent pairs the lows, the side to
//!   move gets at most the follow-up cells and all the lows; if they hold
//!   no four: at most 0.
//!
//! Where the rules ask whether a side gets no four, the one-odd and the
//! many-odd cases and the case of no odd column let a four of that side
//! pass when it lies right above a four of the other side's cells (the four
//! cells below its four cells, in the same direction, all the other's): the
//! cell under a cell is filled first, so the four below is complete before
//! the one above, and the game is over by then. A four in a column has no
//! such four below it and always counts.
//!
//! The follower wins when its own cells hold a four: it never has to leave
//! the strategy to block (the other side gets no four, or none before its
//! own), so it completes its four by the time the board is full, at the
//! latest on the last cell, which is the follower's. That is a score of 1
//! for a follower who is the side to move (one or three odd columns, or an
//! odd number from five up) and -1 for the side to move otherwise: the
//! strengthened claims "at least 1" and "at most -1". With three odd
//! columns the side to move gets the sure cells plus the low it plays: any
//! low when all three are safe, the unsafe one when two are.
//!
//! Each rule, and each strengthened claim where a board allows it, must
//! also fire on a fair share of the sample, and so must the rules that let
//! a four lying right above another pass, so that the test cannot pass on
//! rules that never apply.

mod common;

use std::collections::HashMap;

use c4::Score;
use common::minimax::minimax_memo;
use common::{DIRECTIONS, Four, Naive, Rng, moves_string, random_game_with};

/// What the rules conclude about a position's score, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(
    clippy::enum_variant_names,
    reason = "the names read as the bounds they claim"
)]
enum Claim {
    /// The side to move does not win: a score of at most 0.
    AtMostZero,
    /// The side to move loses, at the latest with the opponent's stone on
    /// the last cell.
    AtMostMinusOne,
    /// The side to move does not lose.
    AtLeastZero,
    /// The side to move wins, at the latest on the last cell.
    AtLeastOne,
}

impl Claim {
    /// Whether `score` satisfies the claim.
    fn holds(self, score: Score) -> bool {
        match self {
            Claim::AtMostZero => score <= 0,
            Claim::AtMostMinusOne => score <= -1,
            Claim::AtLeastZero => score >= 0,
            Claim::AtLeastOne => score >= 1,
        }
    }

    /// Whether this is a strengthened claim (a win or a loss, not just a
    /// bound at 0).
    fn is_strong(self) -> bool {
        matches!(self, Claim::AtMostMinusOne | Claim::AtLeastOne)
    }
}

/// The number of cases the rules distinguish: 0 to 4 odd columns, an odd
/// number from 5 up, an even number from 6 up.
const CASES: usize = 7;

/// The names of the cases, by index (see [`case_of`]).
const CASE_NAMES: [&str; CASES] = [
    "no odd column",
    "one odd column",
    "two odd columns",
    "three odd columns",
    "four odd columns",
    "an odd number of odd columns from five up",
    "an even number of odd columns from six up",
];

/// The case index of `odd_columns` odd columns.
fn case_of(odd_columns: usize) -> usize {
    match odd_columns {
        0..=4 => odd_columns,
        _ if odd_columns % 2 == 1 => 5,
        _ => 6,
    }
}

/// A set of cells of a `W`x`H` board, `[col][row]`, row 0 at the bottom.
type Cells<const W: usize, const H: usize> = [[bool; H]; W];

/// The set of the cells of `list`.
fn cells_of<const W: usize, const H: usize>(list: &[(usize, usize)]) -> Cells<W, H> {
    let mut cells = [[false; H]; W];
    for &(col, row) in list {
        cells[col][row] = true;
    }
    cells
}

/// The union of `a` and `b`.
fn union<const W: usize, const H: usize>(a: &Cells<W, H>, b: &Cells<W, H>) -> Cells<W, H> {
    let mut cells = *a;
    for (col, column) in cells.iter_mut().enumerate() {
        for (row, cell) in column.iter_mut().enumerate() {
            *cell |= b[col][row];
        }
    }
    cells
}

/// Every four in a row of `cells`: its direction (column step, row step)
/// and its four cells, by walking every start and direction.
fn fours<const W: usize, const H: usize>(cells: &Cells<W, H>) -> Vec<Four> {
    let inside = |col: isize, row: isize| {
        (0..W as isize).contains(&col)
            && (0..H as isize).contains(&row)
            && cells[col as usize][row as usize]
    };
    let mut found = Vec::new();
    for col in 0..W as isize {
        for row in 0..H as isize {
            for &(dc, dr) in &DIRECTIONS {
                if (0..4).all(|i| inside(col + i * dc, row + i * dr)) {
                    let four =
                        [0, 1, 2, 3].map(|i| ((col + i * dc) as usize, (row + i * dr) as usize));
                    found.push(((dc, dr), four));
                }
            }
        }
    }
    found
}

/// Whether `cells` hold four in a row.
fn has_four<const W: usize, const H: usize>(cells: &Cells<W, H>) -> bool {
    !fours(cells).is_empty()
}

/// Whether `first` holds a four that does not lie right above a four of
/// `second`: a four in a column, or one in another direction such that not
/// all four cells directly below its cells are in `second` (a cell on row 0
/// has none below it).
fn has_four_not_above<const W: usize, const H: usize>(
    first: &Cells<W, H>,
    second: &Cells<W, H>,
) -> bool {
    fours(first).iter().any(|&(direction, four)| {
        direction == (0, 1)
            || !four
                .iter()
                .all(|&(col, row)| row > 0 && second[col][row - 1])
    })
}

/// What the rules conclude about a position.
#[derive(Debug)]
struct Verdict {
    /// The number of odd columns.
    odd_columns: usize,
    /// The strongest claim the rules make.
    claim: Claim,
    /// Whether the rule let a four of the side it checks pass because that
    /// four lies right above a four of the other side.
    preempted: bool,
}

/// The claim the rules make about `b` (not over), if any.
fn claim<const W: usize, const H: usize>(b: &Naive<W, H>) -> Option<Verdict> {
    let mover = b.player_to_move();
    let opponent = 3 - mover;
    let stones = |player: u8| b.cells.map(|column| column.map(|cell| cell == player));
    let (mover, opponent) = (stones(mover), stones(opponent));
    let empty: Vec<(usize, usize)> = (0..W)
        .flat_map(|col| (b.heights[col]..H).map(move |row| (col, row)))
        .collect();
    let lows: Vec<(usize, usize)> = (0..W)
        .filter(|&col| (H - b.heights[col]) % 2 == 1)
        .map(|col| (col, b.heights[col]))
        .collect();
    let same_row = |&(_, row): &(usize, usize)| row % 2 == H % 2;
    let follow_up: Vec<(usize, usize)> = empty.iter().copied().filter(same_row).collect();
    let other_rows: Vec<(usize, usize)> = empty.iter().copied().filter(|c| !same_row(c)).collect();
    let sure: Vec<(usize, usize)> = other_rows
        .iter()
        .copied()
        .filter(|cell| !lows.contains(cell))
        .collect();
    let with = |side: &Cells<W, H>, cells: &[(usize, usize)], chosen: &[(usize, usize)]| {
        union(&union(side, &cells_of(cells)), &cells_of(chosen))
    };
    let odd_columns = lows.len();
    // The side to move is held to at most 0 when the opponent follows up,
    // and to at most -1 if the opponent's sure cells hold a four.
    let theirs_sure = with(&opponent, &sure, &[]);
    let held = |preempted: bool| Verdict {
        odd_columns,
        claim: if has_four(&theirs_sure) {
            Claim::AtMostMinusOne
        } else {
            Claim::AtMostZero
        },
        preempted,
    };
    // The side to move is held to at least 0 when it follows up, and to at
    // least 1 if `ours` (the cells it surely gets) hold a four.
    let holds = |ours: &Cells<W, H>, preempted: bool| Verdict {
        odd_columns,
        claim: if has_four(ours) {
            Claim::AtLeastOne
        } else {
            Claim::AtLeastZero
        },
        preempted,
    };
    match odd_columns {
        0 => {
            let checked = with(&mover, &follow_up, &[]);
            (!has_four_not_above(&checked, &theirs_sure)).then(|| held(has_four(&checked)))
        }
        1 => {
            let ours = with(&mover, &other_rows, &[]);
            let checked = with(&opponent, &follow_up, &[]);
            (!has_four_not_above(&checked, &ours)).then(|| holds(&ours, has_four(&checked)))
        }
        2 => lows
            .iter()
            .all(|&low| !has_four(&with(&mover, &follow_up, &[low])))
            .then(|| held(false)),
        3 => {
            if has_four(&with(&opponent, &follow_up, &[])) {
                return None;
            }
            let safe: Vec<bool> = lows
                .iter()
                .map(|&low| !has_four(&with(&opponent, &follow_up, &[low])))
                .collect();
            let safe_count = safe.iter().filter(|&&s| s).count();
            (safe_count >= 2).then(|| {
                // The low the side to move plays: any when all three are
                // safe, the unsafe one when two are.
                let wins = lows.iter().zip(&safe).any(|(&low, &low_safe)| {
                    (safe_count == 3 || !low_safe) && has_four(&with(&mover, &sure, &[low]))
                });
                Verdict {
                    odd_columns,
                    claim: if wins {
                        Claim::AtLeastOne
                    } else {
                        Claim::AtLeastZero
                    },
                    preempted: false,
                }
            })
        }
        // The three ways to pair four cells: lows[0] with lows[1], [2] or
        // [3], the other two together. The mover gets one cell of each pair.
        4 => [[1, 2, 3], [2, 1, 3], [3, 1, 2]]
            .iter()
            .any(|&[p, q, r]| {
                [lows[0], lows[p]].iter().all(|&x| {
                    [lows[q], lows[r]]
                        .iter()
                        .all(|&y| !has_four(&with(&mover, &follow_up, &[x, y])))
                })
            })
            .then(|| held(false)),
        _ if odd_columns % 2 == 1 => {
            let ours = with(&mover, &sure, &[]);
            let checked = with(&opponent, &follow_up, &lows);
            (!has_four_not_above(&checked, &ours)).then(|| holds(&ours, has_four(&checked)))
        }
        _ => {
            let checked = with(&mover, &follow_up, &lows);
            (!has_four_not_above(&checked, &theirs_sure)).then(|| held(has_four(&checked)))
        }
    }
}

/// How often the rules fired, by case (see [`case_of`]).
#[derive(Debug, Default)]
struct Fired {
    /// Positions checked, by case.
    seen: [usize; CASES],
    /// Every firing, by case.
    any: [usize; CASES],
    /// Firings with a strengthened claim (at most -1, at least 1).
    strong: [usize; CASES],
    /// Firings that let pass a four lying right above the other side's.
    preempted: [usize; CASES],
}

/// Checks the rules on `positions` random positions of `W`x`H` with
/// `min_moves..=max_moves` stones and at least `min_odd_columns` odd
/// columns (others are drawn and passed over); returns how often each rule
/// fired.
fn check_board<const W: usize, const H: usize>(
    seed: u64,
    positions: usize,
    (min_moves, max_moves): (usize, usize),
    min_odd_columns: usize,
) -> Fired {
    let mut rng = Rng(seed);
    let mut fired = Fired::default();
    // Exact scores are exact for every position: one memo for the board,
    // dropped when it grows large.
    let mut memo = HashMap::new();
    let mut checked = 0;
    while checked < positions {
        let n = min_moves + rng.below(max_moves - min_moves + 1);
        let Some(moves) = random_game_with::<W, H>(&mut rng, n, false) else {
            continue;
        };
        let b = Naive::<W, H>::from_moves(&moves);
        let odd_columns = (0..W).filter(|&col| (H - b.heights[col]) % 2 == 1).count();
        if b.won || b.is_full() || odd_columns < min_odd_columns {
            continue;
        }
        checked += 1;
        fired.seen[case_of(odd_columns)] += 1;
        let Some(verdict) = claim(&b) else {
            continue;
        };
        if memo.len() > 2_000_000 {
            memo.clear();
        }
        let score: Score = minimax_memo(&b, &mut memo);
        assert!(
            verdict.claim.holds(score),
            "{W}x{H} {}: {verdict:?} but the score is {score}",
            moves_string(&moves)
        );
        let case = case_of(verdict.odd_columns);
        fired.any[case] += 1;
        fired.strong[case] += usize::from(verdict.claim.is_strong());
        fired.preempted[case] += usize::from(verdict.preempted);
    }
    fired
}

/// Every count of `fired` on `board` reaches its minimum, by case: `any`
/// for the firings of any claim, `strong` for the strengthened claims,
/// `preempted` for the firings that let a four lying right above the other
/// side's pass. The counts go to stderr (shown with `--nocapture`).
fn assert_fired(
    board: &str,
    fired: &Fired,
    any: [usize; CASES],
    strong: [usize; CASES],
    preempted: [usize; CASES],
) {
    eprintln!("{board}: {fired:?}");
    let kinds = [
        ("fired", &fired.any, any),
        ("fired strengthened", &fired.strong, strong),
        ("let a four above another pass", &fired.preempted, preempted),
    ];
    for (kind, counts, mins) in kinds {
        for case in 0..CASES {
            assert!(
                counts[case] >= mins[case],
                "{board}: the rule for {} {kind} {} times, expected at least {}; all: {fired:?}",
                CASE_NAMES[case],
                counts[case],
                mins[case]
            );
        }
    }
}

#[test]
fn follow_up_rules_bound_the_minimax_score_on_small_boards() {
    assert_fired(
        "4x4",
        &check_board::<4, 4>(1, 3000, (2, 13), 0),
        [30, 200, 150, 100, 20, 0, 0],
        [15, 80, 15, 40, 1, 0, 0],
        [2, 10, 0, 0, 0, 0, 0],
    );
    assert_fired(
        "5x4",
        &check_board::<5, 4>(2, 2000, (6, 17), 0),
        [20, 100, 100, 80, 25, 1, 0],
        [8, 50, 20, 35, 5, 0, 0],
        [1, 3, 0, 0, 0, 0, 0],
    );
    assert_fired(
        "4x5",
        &check_board::<4, 5>(3, 4000, (6, 17), 0),
        [70, 240, 160, 100, 10, 0, 0],
        [30, 100, 15, 30, 1, 0, 0],
        [12, 35, 0, 0, 0, 0, 0],
    );
    assert_fired(
        "5x5",
        &check_board::<5, 5>(4, 2000, (12, 22), 0),
        [20, 100, 50, 45, 8, 0, 0],
        [8, 45, 12, 20, 2, 0, 0],
        [2, 12, 0, 0, 0, 0, 0],
    );
}

/// Four-row boards of six and seven columns: where the strengthened claims
/// matter most (the second player wins with its last stone on most sizes)
/// and where five odd columns or more occur. Positions with five odd
/// columns or more are rare in a plain sample, so a second sample keeps
/// only those.
#[test]
fn follow_up_rules_bound_the_minimax_score_on_wide_four_row_boards() {
    assert_fired(
        "6x4",
        &check_board::<6, 4>(6, 2000, (10, 20), 0),
        [12, 50, 70, 80, 30, 2, 0],
        [5, 35, 18, 45, 6, 0, 0],
        [1, 0, 0, 0, 0, 0, 0],
    );
    assert_fired(
        "7x4",
        &check_board::<7, 4>(7, 2000, (12, 24), 0),
        [12, 35, 45, 60, 18, 3, 1],
        [4, 20, 15, 40, 6, 1, 0],
        [1, 1, 0, 0, 0, 0, 0],
    );
    assert_fired(
        "6x4, five odd columns or more",
        &check_board::<6, 4>(8, 5000, (8, 20), 5),
        [0, 0, 0, 0, 0, 60, 10],
        [0, 0, 0, 0, 0, 10, 2],
        [0, 0, 0, 0, 0, 0, 0],
    );
    assert_fired(
        "7x4, five odd columns or more",
        &check_board::<7, 4>(9, 5000, (10, 24), 5),
        [0, 0, 0, 0, 0, 30, 10],
        [0, 0, 0, 0, 0, 5, 2],
        [0, 0, 0, 0, 0, 0, 0],
    );
}

/// 7x6 near the end, and a second sample of positions with five odd
/// columns or more. A four let pass because it lies right above another is
/// rare with five odd columns or more (the side checked holds all the lows
/// too): once in this sample of 7x6, never in the samples of 6x4 and 7x4
/// above, and never with an even number of odd columns from six up, in
/// twice these samples either; too rare for a bounded test to ask for it
/// there.
#[test]
fn follow_up_rules_bound_the_minimax_score_near_the_end_of_7x6() {
    assert_fired(
        "7x6",
        &check_board::<7, 6>(5, 4000, (30, 38), 0),
        [20, 60, 50, 55, 6, 0, 0],
        [10, 45, 12, 40, 3, 0, 0],
        [1, 15, 0, 0, 0, 0, 0],
    );
    assert_fired(
        "7x6, five odd columns or more",
        &check_board::<7, 6>(10, 4000, (28, 38), 5),
        [0, 0, 0, 0, 0, 8, 1],
        [0, 0, 0, 0, 0, 2, 1],
        [0, 0, 0, 0, 0, 1, 0],
    );
}
