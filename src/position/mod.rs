//! The board: a bitboard `Position`, its moves, wins and scores, the rules
//! of play the search and [`Game`] both stand on. Move notation is in
//! `notation`, keys and symmetry in `key`; the run-time [`Game`], and what
//! the position asks of it (replaying, drawing, decoding keys, finding a
//! line), in `game`.
//!
//! # Bit layout
//! Column `c` (0-based, left to right) owns the `H + 1` bits starting at
//! `c * (H + 1)`; row `r` (0 = bottom) of that column is bit `c * (H + 1) + r`.
//! The extra bit on top of each column (row `H`) is never set: it stops the
//! diagonal and horizontal shifts used by the alignment tests from wrapping from
//! one column into the next, and it makes `current + mask` a unique key.
//!
//! A position is two words: `current`, the stones of the side to move, and
//! `mask`, every occupied cell. Playing a move swaps the point of view with one
//! XOR, so the same code serves both players (negamax).

pub mod game;
mod key;
mod notation;

pub use crate::bitboard::Bitboard;

pub use game::Game;
pub use notation::{ParseError, column_char, column_from_char, column_range, moves_to_string};

/// A position's score for the side to move: positive if it wins,
/// `(W * H + 1 - n) / 2` (rounded down) when it wins by playing move `n + 1`
/// of the game (on 7x6: 22 minus the number of stones it has played when it
/// wins); 0 for a draw; the opposite of the opponent's winning score if it
/// loses. A weak score is the sign only.
pub type Score = i32;

/// The player who moved first or second in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who plays moves 1, 3, 5, ... (drawn as `X`).
    First,
    /// The player who plays moves 2, 4, 6, ... (drawn as `O`).
    Second,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// The character this player's stones are drawn with.
    pub fn symbol(self) -> char {
        match self {
            Player::First => 'X',
            Player::Second => 'O',
        }
    }
}

/// A Connect Four position on a board `W` columns wide and `H` rows high.
///
/// `W * (H + 1)` must fit in the word `B` (`u64`, or `u128` for boards past
/// 64 bits; [`crate::BoardSize::dispatch`] picks it). The default is the
/// standard 7x6 board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position<const W: usize = 7, const H: usize = 6, B: Bitboard = u64> {
    /// Stones of the side to move.
    current: B,
    /// Every occupied cell.
    mask: B,
    /// Number of stones on the board.
    moves: u32,
}

/// A bitboard with the bottom cell of every column set.
const fn bottom_row(width: usize, height: usize) -> u128 {
    let mut mask = 0u128;
    let mut col = 0;
    while col < width {
        mask |= 1u128 << (col * (height + 1));
        col += 1;
    }
    mask
}

/// A bitboard with every cell of row `row` (0 = bottom) set.
pub(crate) const fn row_mask(width: usize, height: usize, row: usize) -> u128 {
    bottom_row(width, height) << row
}

impl<const W: usize, const H: usize, B: Bitboard> Default for Position<W, H, B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize, const H: usize, B: Bitboard> Position<W, H, B> {
    /// Number of columns.
    pub const WIDTH: usize = W;
    /// Number of rows.
    pub const HEIGHT: usize = H;
    /// Number of cells, the most moves a game can last.
    pub const CELLS: usize = W * H;
    /// Bits a column occupies, its cells plus the sentinel bit on top.
    pub const COLUMN_BITS: usize = H + 1;
    /// Bits of the whole bitboard (the key is below `2^KEY_BITS`).
    pub const KEY_BITS: usize = W * (H + 1);
    /// The bottom cell of every column, as a `u128` (see [`Self::bottom`]).
    pub const BOTTOM_BITS: u128 = {
        assert!(
            W >= 1 && H >= 1 && W * (H + 1) <= B::BITS,
            "board does not fit in its word"
        );
        assert!(
            W <= 35,
            "at most 35 columns can be written in a move string"
        );
        bottom_row(W, H)
    };
    /// Every playable cell (sentinel bits excluded), as a `u128` (see
    /// [`Self::board`]).
    pub const BOARD_BITS: u128 = Self::BOTTOM_BITS * ((1u128 << H) - 1);
    /// The lowest score a position can have: losing to the opponent's first move.
    pub const MIN_SCORE: i32 = -((W * H) as i32) / 2 + 3;
    /// The highest score a position can have: winning with one's first stone.
    pub const MAX_SCORE: i32 = ((W * H) as i32 + 1) / 2 - 3;

    /// The empty board, first player to move.
    pub const fn new() -> Self {
        Position {
            current: B::ZERO,
            mask: B::ZERO,
            moves: 0,
        }
    }

    /// The position of the stones `current` (the side to move's) and `mask`
    /// (all of them), `moves` stones in all, as [`Position::current`],
    /// [`Position::mask`] and [`Position::moves_played`] give them back.
    /// Nothing is checked: for a [`crate::Game`] turned back into the
    /// position it was made from.
    pub(crate) fn from_bits(current: B, mask: B, moves: u32) -> Self {
        Position {
            current,
            mask,
            moves,
        }
    }

    /// The bottom cell of every column.
    #[inline(always)]
    pub fn bottom() -> B {
        B::from_u128(Self::BOTTOM_BITS)
    }

    /// Every playable cell (sentinel bits excluded).
    #[inline(always)]
    pub fn board() -> B {
        B::from_u128(Self::BOARD_BITS)
    }

    /// Stones of the side to move, as a bitboard.
    #[inline(always)]
    pub fn current(&self) -> B {
        self.current
    }

    /// Every occupied cell, as a bitboard.
    #[inline(always)]
    pub fn mask(&self) -> B {
        self.mask
    }

    /// Stones of the side that just moved (not to move), as a bitboard.
    #[inline(always)]
    pub fn opponent(&self) -> B {
        self.current ^ self.mask
    }

    /// Number of stones on the board.
    #[inline(always)]
    pub fn moves_played(&self) -> usize {
        self.moves as usize
    }

    /// Number of empty cells: how far the position is from the end of the
    /// game, which the solver's thresholds are expressed in.
    #[inline(always)]
    pub fn empty_cells(&self) -> usize {
        Self::CELLS - self.moves as usize
    }

    /// The player whose turn it is.
    pub fn side_to_move(&self) -> Player {
        if self.moves.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    /// The owner of the cell at 0-based `col` and `row` (0 = bottom), if any.
    pub fn stone_at(&self, col: usize, row: usize) -> Option<Player> {
        assert!(col < W && row < H, "cell outside the board");
        let bit = B::ONE << (col * (H + 1) + row);
        if self.mask & bit == B::ZERO {
            None
        } else if self.current & bit != B::ZERO {
            Some(self.side_to_move())
        } else {
            Some(self.side_to_move().other())
        }
    }

    /// Number of stones in 0-based column `col`.
    pub fn column_height(&self, col: usize) -> usize {
        (self.mask & Self::column_mask(col)).count_ones() as usize
    }

    /// The cells of 0-based column `col`.
    #[inline(always)]
    pub fn column_mask(col: usize) -> B {
        // The constant is narrowed first, so the shift by a run-time amount
        // is one of the word's (a 128-bit shift on a 64-bit board would cost
        // the search, which masks a column per move).
        B::from_u128((1u128 << H) - 1) << (col * (H + 1))
    }

    /// The top cell of 0-based column `col`.
    #[inline(always)]
    fn top_cell(col: usize) -> B {
        B::ONE << (H - 1 + col * (H + 1))
    }

    /// The bottom cell of 0-based column `col`.
    #[inline(always)]
    fn bottom_cell(col: usize) -> B {
        B::ONE << (col * (H + 1))
    }

    /// Whether 0-based column `col` exists and still has room.
    #[inline(always)]
    pub fn can_play(&self, col: usize) -> bool {
        col < W && self.mask & Self::top_cell(col) == B::ZERO
    }

    /// Plays the stone given as a one-bit bitboard (an element of
    /// [`Position::possible`]). Precondition: the cell is playable.
    #[inline(always)]
    pub fn play(&mut self, cell: B) {
        self.current ^= self.mask;
        self.mask |= cell;
        self.moves += 1;
    }

    /// Plays in 0-based column `col`. Precondition: `can_play(col)`.
    #[inline(always)]
    pub fn play_col(&mut self, col: usize) {
        debug_assert!(self.can_play(col));
        self.play((self.mask + Self::bottom_cell(col)) & Self::column_mask(col));
    }

    /// The playable cell of 0-based column `col` as a one-bit bitboard, or 0
    /// if the column is full.
    #[inline(always)]
    pub fn move_in_column(&self, col: usize) -> B {
        self.possible() & Self::column_mask(col)
    }

    /// The 0-based column of a one-bit move bitboard.
    #[inline(always)]
    pub fn column_of(cell: B) -> usize {
        cell.trailing_zeros() as usize / (H + 1)
    }

    /// Whether playing 0-based column `col` makes four in a row for the side to
    /// move. Precondition: `can_play(col)`.
    pub fn is_winning_move(&self, col: usize) -> bool {
        self.winning_cells() & self.possible() & Self::column_mask(col) != B::ZERO
    }

    /// Whether the side to move can connect four with its next move.
    #[inline(always)]
    pub fn can_win_next(&self) -> bool {
        self.winning_cells() & self.possible() != B::ZERO
    }

    /// The cells playable now: the lowest empty cell of every column that has one.
    #[inline(always)]
    pub fn possible(&self) -> B {
        (self.mask + Self::bottom()) & Self::board()
    }

    /// Empty cells (anywhere, not only playable) that would complete four in a
    /// row for the side to move.
    #[inline(always)]
    pub fn winning_cells(&self) -> B {
        Self::completing_cells(self.current, self.mask)
    }

    /// Empty cells that would complete four in a row for the side that just moved.
    #[inline(always)]
    pub fn opponent_winning_cells(&self) -> B {
        Self::completing_cells(self.current ^ self.mask, self.mask)
    }

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
        // fills a gap in runs of 1+2 or 2+1.
        macro_rules! direction {
            ($s:expr) => {{
                let s = $s;
                let pair = (p << s) & (p << (2 * s));
                r |= pair & (p << (3 * s));
                r |= pair & (p >> s);
                let pair = (p >> s) & (p >> (2 * s));
                r |= pair & (p << s);
                r |= pair & (p >> (3 * s));
            }};
        }
        direction!(H + 1);
        direction!(H);
        direction!(H + 2);
        r & (Self::board() ^ mask)
    }

    /// The step between neighbouring cells of a line, in bits, for each of
    /// the four directions: vertical, horizontal and the two diagonals.
    pub const DIRECTIONS: [u32; 4] = [1, H as u32 + 1, H as u32, H as u32 + 2];

    /// The windows of four cells in a line that are still *live*: they do
    /// not hold stones of both sides, so one side may yet complete them.
    /// One bitboard per direction of [`Self::DIRECTIONS`], holding the first
    /// (lowest) cell of each such window; [`Self::window_starts_through`]
    /// picks out the windows through one cell.
    #[inline(always)]
    pub fn live_window_starts(&self) -> [B; 4] {
        // A window is live if all four of its cells are free of one side's
        // stones (the board mask keeps off-board cells out).
        Self::DIRECTIONS.map(|s| {
            Self::four_starts(Self::board() & !self.current, s)
                | Self::four_starts(Self::board() & !self.opponent(), s)
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
    #[inline(always)]
    pub fn has_four(stones: B) -> bool {
        Self::DIRECTIONS
            .iter()
            .any(|&s| Self::four_starts(stones, s) != B::ZERO)
    }

    /// Whether `first` holds a four that does not lie directly above a four
    /// of `second`: a four in a column, or one in another direction whose
    /// four cells below are not all in `second`. The cell under each cell of
    /// a four is filled before it, so when `first` and `second` are the
    /// cells two players will get, a four of `first` right above a four of
    /// `second` is completed only after that one: the game is over by then.
    #[inline(always)]
    pub fn has_four_not_above(first: B, second: B) -> bool {
        Self::DIRECTIONS.iter().any(|&s| {
            let starts = Self::four_starts(first, s);
            starts != B::ZERO
                && (s == 1 || starts & !(Self::four_starts(second, s) << 1usize) != B::ZERO)
        })
    }

    /// Whether the last move connected four (the side to move has lost).
    pub fn is_won(&self) -> bool {
        Self::has_four(self.opponent())
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.moves as usize == Self::CELLS
    }

    /// Whether the game is over: the last move won, or the board is full.
    pub fn is_game_over(&self) -> bool {
        self.is_won() || self.is_full()
    }

    /// The playable cells that do not hand the opponent an immediate win.
    ///
    /// If the opponent threatens to win in one place, the only candidate is to
    /// block it; if it threatens two, every move loses and this is 0. A move
    /// directly below an opponent's winning cell is excluded too, since it
    /// lets the opponent play there.
    /// Precondition: the side to move cannot win at once.
    #[inline(always)]
    pub fn non_losing_moves(&self) -> B {
        self.non_losing_moves_given(self.opponent_winning_cells())
    }

    /// [`Position::non_losing_moves`] with the opponent's completing cells
    /// ([`Position::opponent_winning_cells`]) already at hand.
    #[inline(always)]
    pub fn non_losing_moves_given(&self, opponent_wins: B) -> B {
        let mut possible = self.possible();
        let forced = possible & opponent_wins;
        if forced != B::ZERO {
            if forced & (forced - B::ONE) != B::ZERO {
                return B::ZERO;
            }
            possible = forced;
        }
        possible & !(opponent_wins >> 1usize)
    }

    /// Number of the side to move's threats (completing cells, empty and not
    /// yet playable included) after it plays `cell`. Used to order moves:
    /// a move that makes more threats tends to be stronger.
    #[inline(always)]
    pub fn threats_after(&self, cell: B) -> u32 {
        Self::completing_cells(self.current | cell, self.mask | cell).count_ones()
    }

    /// The range `(min, max)` holding the score of this position (one the
    /// game is not over in): losing to the opponent's next stone at worst,
    /// winning with its own next stone at best.
    #[inline]
    pub fn score_range(&self) -> (i32, i32) {
        let cells = Self::CELLS as i32;
        let moves = self.moves as i32;
        (-(cells - moves) / 2, (cells + 1 - moves) / 2)
    }

    /// The score of a position whose last move won, for the side to move
    /// (which lost): minus the winner's score before that move.
    #[inline]
    pub fn lost_score(&self) -> i32 {
        -((Self::CELLS as i32 + 2 - self.moves as i32) / 2)
    }

    /// The score of a win by the side to move with its next stone: the number
    /// of its stones still in hand after that stone, plus one.
    #[inline(always)]
    pub fn win_next_score(&self) -> i32 {
        (Self::CELLS as i32 + 1 - self.moves as i32) / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type P = Position<7, 6>;

    #[test]
    fn layout_constants() {
        assert_eq!(P::bottom().count_ones(), 7);
        assert_eq!(P::board().count_ones(), 42);
        assert_eq!(P::MIN_SCORE, -18);
        assert_eq!(P::MAX_SCORE, 18);
    }

    /// Live windows through `cell`, summed over the four directions.
    fn live_windows_through(p: &P, cell: u64) -> u32 {
        let live = p.live_window_starts();
        (0..4)
            .map(|d| (P::window_starts_through(cell, P::DIRECTIONS[d]) & live[d]).count_ones())
            .sum()
    }

    /// Live windows of `p`, all directions together.
    fn live_windows(p: &P) -> u32 {
        p.live_window_starts().iter().map(|w| w.count_ones()).sum()
    }

    #[test]
    fn live_windows_on_the_empty_board_are_all_69_windows() {
        let empty = P::new();
        assert_eq!(live_windows(&empty), 69);
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
                let cell = 1u64 << (col * 7 + row);
                assert_eq!(
                    live_windows_through(&empty, cell),
                    count,
                    "col {col} row {row}"
                );
            }
        }
    }

    #[test]
    fn a_window_holding_both_colours_is_dead() {
        // First player in column 1, second in column 2, both on the bottom
        // row: only the horizontal window of columns 1-4 holds both.
        let p = P::parse("12").unwrap();
        assert_eq!(live_windows(&p), 68);
        // Column 3's bottom cell lies in 5 windows, that one among them.
        assert_eq!(live_windows_through(&p, 1 << 14), 4);
        // A window holding stones of one side only stays live.
        assert_eq!(live_windows(&P::parse("1").unwrap()), 69);
    }

    #[test]
    fn parse_trims_whitespace_and_cr() {
        let p = P::parse("  4453\r").unwrap();
        assert_eq!(p.moves_played(), 4);
        assert_eq!(p, P::parse("4453").unwrap());
    }

    #[test]
    fn error_indexes_count_leading_whitespace() {
        assert_eq!(
            P::parse("  48").unwrap_err(),
            ParseError::InvalidColumn {
                index: 3,
                ch: '8',
                width: 7
            }
        );
    }

    #[test]
    fn wide_boards_name_columns_with_letters() {
        assert_eq!(column_range(7), "1-7");
        assert_eq!(column_range(10), "1-9, a");
        assert_eq!(column_range(12), "1-9, a-c");
        let p = Position::<12, 4>::parse("9aAbc").unwrap();
        assert_eq!(p.column_height(9), 2);
        assert_eq!(p.column_height(11), 1);
        assert_eq!(
            Position::<12, 4>::parse("9abd").unwrap_err().to_string(),
            "character 4 ('d') is not a column (1-9, a-c)"
        );
    }
}
