//! Helpers shared by the integration tests.
//!
//! - [`Naive`]: a deliberately simple model of the game (an array of cells and
//!   a four-in-a-row check that walks the board), written independently of
//!   the library's bitboards so that the tests can cross-check them.
//! - [`Rng`] and [`random_game`]: reproducible random positions.
//! - [`predicted_end_move`] and [`check_line_ends_as_predicted`]: what a score
//!   says about how a perfect game ends, and a check of a played-out line.
//! - [`minimax`]: the reference scores, by plain minimax over [`Naive`].
//! - [`verdict`]: a reviewed move's verdict, by the review's rules.
//! - [`sets`]: the standard test sets (found at run time, or declared
//!   absent), the repository's own sets, and the standard-set lines tests
//!   cite as witnesses.
//!
//! Each test file uses only part of this module, hence the `allow`.
#![allow(dead_code)]

pub mod minimax;
pub mod sets;
pub mod strategy_play;

use c4::{Game, Position, Score};

/// The board as a plain array: `cells[col][row]`, row 0 at the bottom, with
/// 0 for an empty cell, 1 for the first player's stone, 2 for the second's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Naive<const W: usize, const H: usize> {
    /// The cells, column by column.
    pub cells: [[u8; H]; W],
    /// Stones in each column.
    pub heights: [usize; W],
    /// Stones on the board.
    pub moves: usize,
    /// Whether some move made four in a row (the last one, if moves are only
    /// played while this is false).
    pub won: bool,
}

/// A four-in-a-row: its direction (column step, row step) and its cells,
/// (column, row) from the first to the last.
pub type Four = ((isize, isize), [(usize, usize); 4]);

/// The four directions of a line: up, right, up-right, down-right.
pub const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

impl<const W: usize, const H: usize> Default for Naive<W, H> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize, const H: usize> Naive<W, H> {
    /// The empty board.
    pub fn new() -> Self {
        Naive {
            cells: [[0; H]; W],
            heights: [0; W],
            moves: 0,
            won: false,
        }
    }

    /// Replays 0-based columns; panics on an illegal move.
    pub fn from_moves(moves: &[usize]) -> Self {
        let mut b = Self::new();
        for &c in moves {
            assert!(b.can_play(c), "illegal move {c} in {moves:?}");
            b.play(c);
        }
        b
    }

    /// 1 or 2: the player to move.
    pub fn player_to_move(&self) -> u8 {
        if self.moves.is_multiple_of(2) { 1 } else { 2 }
    }

    /// Whether 0-based column `col` has room.
    pub fn can_play(&self, col: usize) -> bool {
        col < W && self.heights[col] < H
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.moves == W * H
    }

    /// The stone at a cell given with signed coordinates, 0 outside the board.
    fn at(&self, col: isize, row: isize) -> u8 {
        if col < 0 || row < 0 || col >= W as isize || row >= H as isize {
            0
        } else {
            self.cells[col as usize][row as usize]
        }
    }

    /// Whether a stone of `player` at (`col`, `row`) would be part of four in
    /// a row, counting the stones already there (the cell itself is taken to
    /// hold `player`, whatever it holds).
    pub fn makes_four(&self, col: usize, row: usize, player: u8) -> bool {
        DIRECTIONS.iter().any(|&(dc, dr)| {
            let mut count = 1;
            for sign in [1isize, -1] {
                let (mut c, mut r) = (col as isize, row as isize);
                loop {
                    c += sign * dc;
                    r += sign * dr;
                    if self.at(c, r) != player {
                        break;
                    }
                    count += 1;
                }
            }
            count >= 4
        })
    }

    /// Whether the side to move would make four by playing `col` (which must
    /// have room).
    pub fn is_winning_move(&self, col: usize) -> bool {
        self.makes_four(col, self.heights[col], self.player_to_move())
    }

    /// Plays 0-based column `col` (which must have room) and returns whether
    /// the move made four in a row.
    pub fn play(&mut self, col: usize) -> bool {
        let row = self.heights[col];
        let player = self.player_to_move();
        let wins = self.makes_four(col, row, player);
        self.cells[col][row] = player;
        self.heights[col] += 1;
        self.moves += 1;
        self.won |= wins;
        wins
    }

    /// Every four-in-a-row of `player`'s stones, as four (col, row) cells
    /// starting from the lowest-left one, with its direction.
    pub fn fours(&self, player: u8) -> Vec<Four> {
        let mut out = Vec::new();
        for col in 0..W as isize {
            for row in 0..H as isize {
                for &(dc, dr) in &DIRECTIONS {
                    if (0..4).all(|i| self.at(col + i * dc, row + i * dr) == player) {
                        let cells = [0, 1, 2, 3]
                            .map(|i| ((col + i * dc) as usize, (row + i * dr) as usize));
                        out.push(((dc, dr), cells));
                    }
                }
            }
        }
        out
    }
}

/// Converts 0-based columns to a move string: `1`-`9`, then `a`, `b`, ...
/// for columns 10 and up (the notation of wide boards).
pub fn moves_string(moves: &[usize]) -> String {
    const NAMES: &[u8] = b"123456789abcdefghijklmnopqrstuvwxyz";
    moves.iter().map(|&c| NAMES[c] as char).collect()
}

/// Converts a move string of digits to 0-based columns.
pub fn moves_from_string(s: &str) -> Vec<usize> {
    s.chars()
        .map(|ch| ch.to_digit(10).expect("a digit") as usize - 1)
        .collect()
}

/// Replays 0-based columns on a library position; panics on an illegal move.
pub fn position_from_moves<const W: usize, const H: usize>(moves: &[usize]) -> Position<W, H> {
    let mut pos = Position::<W, H>::new();
    for &c in moves {
        assert!(pos.can_play(c), "illegal move {c} in {moves:?}");
        pos.play_col(c);
    }
    pos
}

/// A small, reproducible random number generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A random game of exactly `n` moves in which nobody has connected four:
/// each move is drawn among the moves that do not win. Retries from the empty
/// board when a game gets stuck (every move would win); `None` if that keeps
/// happening. The side to move may be able to win at once.
pub fn random_game<const W: usize, const H: usize>(rng: &mut Rng, n: usize) -> Option<Vec<usize>> {
    random_game_with::<W, H>(rng, n, false)
}

/// Like [`random_game`]; if `careful`, each move is also one that does not
/// let the opponent win at once, so that the side to move of the result
/// cannot win at once either (positions that need a real search: on random
/// games that are not careful, the side to move can usually win at once).
pub fn random_game_with<const W: usize, const H: usize>(
    rng: &mut Rng,
    n: usize,
    careful: bool,
) -> Option<Vec<usize>> {
    assert!(n <= W * H);
    'attempt: for _ in 0..1000 {
        let mut b = Naive::<W, H>::new();
        let mut moves = Vec::with_capacity(n);
        while moves.len() < n {
            let quiet: Vec<usize> = (0..W)
                .filter(|&c| b.can_play(c) && !b.is_winning_move(c))
                .filter(|&c| {
                    !careful || {
                        let mut after = b;
                        after.play(c);
                        !(0..W).any(|d| after.can_play(d) && after.is_winning_move(d))
                    }
                })
                .collect();
            if quiet.is_empty() {
                continue 'attempt;
            }
            let c = quiet[rng.below(quiet.len())];
            b.play(c);
            moves.push(c);
        }
        return Some(moves);
    }
    None
}

/// A random game played to its end (a win or a full board): every move is
/// drawn among all legal moves, so most games end in a win.
pub fn random_finished_game<const W: usize, const H: usize>(rng: &mut Rng) -> Vec<usize> {
    let mut b = Naive::<W, H>::new();
    let mut moves = Vec::new();
    while !b.won && !b.is_full() {
        let legal: Vec<usize> = (0..W).filter(|&c| b.can_play(c)).collect();
        let c = legal[rng.below(legal.len())];
        b.play(c);
        moves.push(c);
    }
    moves
}

/// The score, by the project's convention, of winning with move number
/// `move_number` (1-based, counted from the start of the game) on a board of
/// `cells` cells: `(cells + 1 - n) / 2` rounded down, where `n = move_number -
/// 1` is the number of stones on the board before that move.
pub fn win_score(cells: usize, move_number: usize) -> Score {
    ((cells + 2 - move_number) / 2) as Score
}

/// The 1-based number (counted from the start of the game) of the move that
/// ends a perfectly played game from a position with `played` stones whose
/// score for the side to move is `score`.
///
/// - `score == 0`: a draw, the game ends when the board fills, on move `cells`.
/// - `score > 0`: the side to move wins; it plays moves `played + 1`,
///   `played + 3`, ..., and winning on move `m` scores `(cells + 2 - m) / 2`
///   rounded down, so `m` is `cells + 2 - 2s` or `cells + 1 - 2s`, whichever
///   has the side to move's parity.
/// - `score < 0`: the opponent wins with score `-s`, by the same formula, on
///   a move with the opponent's parity (`played + 2`, `played + 4`, ...).
pub fn predicted_end_move(cells: usize, played: usize, score: Score) -> usize {
    if score == 0 {
        return cells;
    }
    let winner_parity = (if score > 0 { played + 1 } else { played }) % 2;
    let s = score.unsigned_abs() as usize;
    assert!(2 * s <= cells + 1, "score {score} out of range");
    let m = [cells + 2 - 2 * s, cells + 1 - 2 * s]
        .into_iter()
        .find(|m| m % 2 == winner_parity)
        .unwrap();
    debug_assert_eq!(win_score(cells, m), s as Score);
    m
}

/// Plays `line` (0-based columns) from `pos`, whose exact score is `score`,
/// and checks that the game ends exactly on the move the score predicts: by a
/// win of the right player on move [`predicted_end_move`], or by a full board
/// without a win if the score is 0. Every move must be legal and the game must
/// not end before the line does. The result cross-checks the ending against
/// the [`Naive`] model too.
///
/// `W` and `H` are the naive model's board, which must be `pos`'s.
pub fn check_line_ends_as_predicted<const W: usize, const H: usize>(
    start_moves: &[usize],
    pos: &Game,
    score: Score,
    line: &[usize],
) -> Result<(), String> {
    assert_eq!(
        (pos.width(), pos.height()),
        (W, H),
        "the naive model's board"
    );
    let played = pos.moves_played();
    let cells = W * H;
    let expected_end = predicted_end_move(cells, played, score);
    let mut p = *pos;
    let mut naive = Naive::<W, H>::from_moves(start_moves);
    let describe = || {
        format!(
            "position '{}' (score {score}), line '{}'",
            moves_string(start_moves),
            moves_string(line)
        )
    };
    for (i, &col) in line.iter().enumerate() {
        if p.is_game_over() || naive.won || naive.is_full() {
            return Err(format!(
                "{}: the game is over before move {} of the line",
                describe(),
                i + 1
            ));
        }
        if !p.can_play(col) || !naive.can_play(col) {
            return Err(format!("{}: move {} is illegal", describe(), i + 1));
        }
        p.play_col(col);
        naive.play(col);
    }
    let end = played + line.len();
    if end != expected_end {
        return Err(format!(
            "{}: the game ends on move {end}, the score predicts move {expected_end}",
            describe()
        ));
    }
    if score == 0 {
        if !(p.is_full() && !p.is_won() && !naive.won) {
            return Err(format!("{}: does not end in a draw", describe()));
        }
    } else {
        // The player who made the last move must be the predicted winner.
        let winner_moved_last = (score > 0) == ((end - played) % 2 == 1);
        if !(p.is_won() && naive.won && winner_moved_last) {
            return Err(format!(
                "{}: does not end with a win by the {}",
                describe(),
                if score > 0 {
                    "side to move"
                } else {
                    "opponent"
                }
            ));
        }
    }
    Ok(())
}

/// The verdict of a move of score `played` where `best` was available,
/// written here from the rules of the review, not from its code: *best*
/// keeps the best score, *slower* keeps its sign, *blunder* turns a win
/// into a loss, *mistake* any other loss of result.
pub fn verdict(best: i64, played: i64) -> &'static str {
    if played == best {
        "best"
    } else if played.signum() == best.signum() {
        "slower"
    } else if best > 0 && played < 0 {
        "blunder"
    } else {
        "mistake"
    }
}
