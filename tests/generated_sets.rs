//! Checks of the sets in `testsets/` that do not take the solver's word for
//! their scores (`c4 bench` re-solves them with it; see testsets/README.md).
//!
//! - every line is well formed, replays legally, has the move count of its
//!   set, is not won and cannot be won at once, and no position repeats in
//!   a set, mirror images included;
//! - one-ply consistency: the score is the best of the moves' scores, each
//!   move's position searched from a cleared table (a wrong score would
//!   have to be wrong the same way in every child to slip through);
//! - end-game (and, ignored, middle-easy) scores are recomputed by an
//!   independent naive solver written here: an array board with its own
//!   four-in-a-row test and a plain alpha-beta, sharing no code with the
//!   library.
//!
//! - the mid-game sets of other boards (`mid-WxH.txt`) are well formed the
//!   same way; their scores are checked against Steininger's solver by
//!   `scripts/measure/other-boards.sh`, not here.
//!
//! The slow checks (begin-hard one ply, the naive solver on middle-easy)
//! are ignored tests: `cargo test --release --test generated_sets -- --ignored`.

mod common;

use std::collections::HashSet;
use std::fs;
use std::path::PathBuf;

use c4::testset::{TestCase, parse_set};
use c4::{BoardSize, Position, Solver};
use common::minimax::reference_score_of;

/// The cases of `testsets/NAME.txt`, every line asserted valid.
fn load(name: &str) -> Vec<TestCase> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testsets")
        .join(format!("{name}.txt"));
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        text.lines().next(),
        Some("# board 7x6"),
        "{name}: the set records its board"
    );
    parse_set(BoardSize::STANDARD, &text)
        .map(|line| {
            line.result
                .unwrap_or_else(|e| panic!("{name} line {}: {e}", line.number))
        })
        .collect()
}

/// The move range of each phase, as generated (see testsets/README.md).
fn move_range(name: &str) -> std::ops::RangeInclusive<usize> {
    match name.split('-').next().unwrap() {
        "end" => 29..=41,
        "middle" => 15..=28,
        "begin" => 4..=14,
        other => panic!("unknown phase {other}"),
    }
}

/// The six sets and the least number of lines each has.
const SETS: [(&str, usize); 6] = [
    ("end-easy", 1000),
    ("middle-easy", 1000),
    ("middle-medium", 500),
    ("begin-easy", 1000),
    ("begin-medium", 200),
    ("begin-hard", 100),
];

#[test]
fn sets_are_well_formed_legal_in_range_and_unique() {
    for (name, lines) in SETS {
        let cases = load(name);
        assert!(cases.len() >= lines, "{name}: {} lines", cases.len());
        let mut keys = HashSet::new();
        for case in &cases {
            let pos = &case.position;
            assert!(
                move_range(name).contains(&pos.moves_played()),
                "{name}: {case}"
            );
            assert!(!pos.is_game_over() && !pos.can_win_next(), "{name}: {case}");
            assert!(
                keys.insert(pos.symmetric_key().0),
                "{name}: repeated {case}"
            );
            // Written exactly as the standard format writes it.
            assert_eq!(case.to_string(), format!("{} {}", case.moves, case.score));
        }
    }
}

/// The mid-game sets of other boards that `scripts/measure/other-boards.sh` times
/// c4 on beside Steininger's solver (which checks their scores there): each
/// records the board of its name, has its 60 lines of 6 to 22 moves, legal,
/// neither won nor winnable at once, no position twice (mirror images
/// included), each score within the range its position allows.
#[test]
fn other_board_sets_are_well_formed_legal_in_range_and_unique() {
    for size in ["9x4", "10x4", "11x4", "8x5", "7x7"] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("testsets")
            .join(format!("mid-{size}.txt"));
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let header = format!("# board {size}");
        assert_eq!(text.lines().next(), Some(header.as_str()), "mid-{size}");
        let board: BoardSize = size.parse().unwrap();
        let cases: Vec<TestCase> = parse_set(board, &text)
            .map(|line| {
                line.result
                    .unwrap_or_else(|e| panic!("mid-{size} line {}: {e}", line.number))
            })
            .collect();
        assert_eq!(cases.len(), 60, "mid-{size}");
        let mut keys = HashSet::new();
        for case in &cases {
            let pos = &case.position;
            assert!((6..=22).contains(&pos.moves_played()), "mid-{size}: {case}");
            assert!(
                !pos.is_game_over() && !pos.can_win_next(),
                "mid-{size}: {case}"
            );
            assert!(
                keys.insert(pos.symmetric_key().0),
                "mid-{size}: repeated {case}"
            );
            let (min, max) = pos.score_range();
            assert!((min..=max).contains(&case.score), "mid-{size}: {case}");
        }
    }
}

/// Asserts that each case's score is the best of its moves' scores: no
/// move does better, one move does as well. Two null-window searches per
/// move, each from a cleared table.
fn check_one_ply(name: &str) {
    let mut solver = Solver::<7, 6>::new();
    for case in load(name) {
        let pos = case.position.fixed::<7, 6, u64>();
        let mut reached = false;
        for col in (0..7).filter(|&c| pos.can_play(c)) {
            // A move's score is minus its child's; the side to move cannot
            // win at once, so every move leads to a searched child.
            let mut child = pos;
            child.play_col(col);
            solver.clear();
            assert!(
                solver.score_at_least(&child, -case.score),
                "{name}: {case}: column {} scores more",
                col + 1
            );
            solver.clear();
            reached |= !solver.score_at_least(&child, -case.score + 1);
        }
        assert!(reached, "{name}: {case}: no move reaches the score");
    }
}

#[test]
fn end_and_middle_easy_scores_are_the_best_move_scores() {
    check_one_ply("end-easy");
    check_one_ply("middle-easy");
}

#[test]
fn medium_and_begin_scores_are_the_best_move_scores() {
    for name in ["middle-medium", "begin-easy", "begin-medium"] {
        check_one_ply(name);
    }
}

#[test]
#[ignore = "minutes: every move of a hard position is searched"]
fn begin_hard_scores_are_the_best_move_scores() {
    check_one_ply("begin-hard");
}

/// A naive Connect Four board, independent of the library's bitboards.
struct NaiveBoard {
    /// `cells[col][row]`: 0 empty, 1 first player, 2 second player.
    cells: [[u8; 6]; 7],
    /// Stones in each column.
    heights: [usize; 7],
    /// Stones on the board.
    moves: usize,
}

impl NaiveBoard {
    /// Replays a move string of digits 1-7.
    fn new(moves: &str) -> Self {
        let mut board = NaiveBoard {
            cells: [[0; 6]; 7],
            heights: [0; 7],
            moves: 0,
        };
        for ch in moves.chars() {
            board.play(ch.to_digit(10).unwrap() as usize - 1);
        }
        board
    }

    /// The player to move: 1 or 2.
    fn player(&self) -> u8 {
        1 + (self.moves % 2) as u8
    }

    fn play(&mut self, col: usize) {
        self.cells[col][self.heights[col]] = self.player();
        self.heights[col] += 1;
        self.moves += 1;
    }

    fn undo(&mut self, col: usize) {
        self.heights[col] -= 1;
        self.cells[col][self.heights[col]] = 0;
        self.moves -= 1;
    }

    /// Whether the player to move connects four by playing `col`.
    fn wins_with(&self, col: usize) -> bool {
        let (me, row) = (self.player(), self.heights[col] as i32);
        let mine = |c: i32, r: i32| {
            (0..7).contains(&c) && (0..6).contains(&r) && self.cells[c as usize][r as usize] == me
        };
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |sign: i32| {
                (1..4)
                    .take_while(|&k| mine(col as i32 + sign * k * dc, row + sign * k * dr))
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        })
    }

    /// The exact score for the player to move, by plain alpha-beta.
    fn negamax(&mut self, mut alpha: i32, beta: i32) -> i32 {
        if self.moves == 42 {
            return 0;
        }
        let playable: Vec<usize> = [3, 2, 4, 1, 5, 0, 6]
            .into_iter()
            .filter(|&c| self.heights[c] < 6)
            .collect();
        if playable.iter().any(|&c| self.wins_with(c)) {
            return (43 - self.moves as i32) / 2;
        }
        for col in playable {
            self.play(col);
            let score = -self.negamax(-beta, -alpha);
            self.undo(col);
            if score >= beta {
                return score;
            }
            alpha = alpha.max(score);
        }
        alpha
    }
}

#[test]
fn the_naive_solver_agrees_with_the_library_on_basics() {
    // Won in one: (42 + 1 - 6) / 2 = 18 for the first player's 4th stone
    // (witness: the minimax).
    assert_eq!(reference_score_of::<7, 6>("121212"), 18);
    let mut board = NaiveBoard::new("121212");
    assert_eq!(board.negamax(-100, 100), 18);
    let pos = Position::<7, 6>::parse("121212").unwrap();
    assert_eq!(pos.win_next_score(), 18);
}

#[test]
fn end_easy_scores_agree_with_an_independent_naive_solver() {
    for case in load("end-easy") {
        let mut board = NaiveBoard::new(&case.moves);
        assert_eq!(board.negamax(-100, 100), case.score, "{case}");
    }
}

#[test]
#[ignore = "minutes: the naive solver has no table"]
fn middle_easy_scores_agree_with_an_independent_naive_solver() {
    for case in load("middle-easy") {
        let mut board = NaiveBoard::new(&case.moves);
        assert_eq!(board.negamax(-100, 100), case.score, "{case}");
    }
}
