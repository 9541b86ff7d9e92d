//! The board the search plays on: [`Position<W, H, B>`](Position), a
//! fixed-size bitboard position, its moves, wins and scores, each asked of
//! the rules of play in [`crate::rules`]. Keys and symmetry are in `key`;
//! replaying a move string, drawing, decoding a key and finding a line,
//! which the rules write once for every size, in `replay`.
//!
//! The bit layout is the rules' (see [`crate::rules`]): a position is two
//! words, `current`, the stones of the side to move, and `mask`, every
//! occupied cell.

mod key;
mod replay;

pub use crate::bitboard::Bitboard;
use crate::rules::{self, Rules};
pub use crate::rules::{
    ParseError, Player, Score, column_char, column_from_char, column_range, moves_to_string,
};

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
    pub const CELLS: usize = Rules::<W, H, B>::CELLS;
    /// Bits a column occupies, its cells plus the sentinel bit on top.
    pub const COLUMN_BITS: usize = Rules::<W, H, B>::COLUMN_BITS;
    /// Bits of the whole bitboard (the key is below `2^KEY_BITS`).
    pub const KEY_BITS: usize = Rules::<W, H, B>::KEY_BITS;
    /// The bottom cell of every column, as a `u128` (see [`Self::bottom`]).
    pub const BOTTOM_BITS: u128 = Rules::<W, H, B>::BOTTOM_BITS;
    /// Every playable cell (sentinel bits excluded), as a `u128` (see
    /// [`Self::board`]).
    pub const BOARD_BITS: u128 = Rules::<W, H, B>::BOARD_BITS;
    /// The lowest score a position can have: losing to the opponent's first move.
    pub const MIN_SCORE: i32 = Rules::<W, H, B>::MIN_SCORE;
    /// The highest score a position can have: winning with one's first stone.
    pub const MAX_SCORE: i32 = Rules::<W, H, B>::MAX_SCORE;
    /// The step between neighbouring cells of a line, in bits, for each of
    /// the four directions: vertical, horizontal and the two diagonals.
    pub const DIRECTIONS: [u32; 4] = Rules::<W, H, B>::DIRECTIONS;

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
    /// Nothing is checked: for the bits of a position turned back into it.
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
        Rules::<W, H, B>::bottom()
    }

    /// Every playable cell (sentinel bits excluded).
    #[inline(always)]
    pub fn board() -> B {
        Rules::<W, H, B>::board()
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
        Player::to_move_after(self.moves as usize)
    }

    /// The owner of the cell at 0-based `col` and `row` (0 = bottom), if any.
    pub fn stone_at(&self, col: usize, row: usize) -> Option<Player> {
        assert!(col < W && row < H, "cell outside the board");
        let bit = Rules::<W, H, B>::cell(col, row);
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
        Rules::<W, H, B>::column_mask(col)
    }

    /// Whether 0-based column `col` exists and still has room.
    #[inline(always)]
    pub fn can_play(&self, col: usize) -> bool {
        col < W && self.mask & Rules::<W, H, B>::top_cell(col) == B::ZERO
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
        self.play(Rules::<W, H, B>::landing_cell(self.mask, col));
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
        Rules::<W, H, B>::column_of(cell)
    }

    /// Whether playing 0-based column `col` makes four in a row for the side to
    /// move. Precondition: `can_play(col)`.
    pub fn is_winning_move(&self, col: usize) -> bool {
        Rules::<W, H, B>::winning_moves(self.current, self.mask) & Self::column_mask(col) != B::ZERO
    }

    /// Whether the side to move can connect four with its next move.
    #[inline(always)]
    pub fn can_win_next(&self) -> bool {
        Rules::<W, H, B>::winning_moves(self.current, self.mask) != B::ZERO
    }

    /// The cells playable now: the lowest empty cell of every column that has one.
    #[inline(always)]
    pub fn possible(&self) -> B {
        Rules::<W, H, B>::possible(self.mask)
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
        Rules::<W, H, B>::completing_cells(stones, mask)
    }

    /// The windows of four cells in a line that are still *live*: they do
    /// not hold stones of both sides, so one side may yet complete them.
    /// One bitboard per direction of [`Self::DIRECTIONS`], holding the first
    /// (lowest) cell of each such window; [`Self::window_starts_through`]
    /// picks out the windows through one cell.
    #[inline(always)]
    pub fn live_window_starts(&self) -> [B; 4] {
        Rules::<W, H, B>::live_window_starts(self.current, self.mask)
    }

    /// The cells that start a window of four, in the direction of step
    /// `step`, containing the cell `cell`: the cell itself and the three
    /// before it along the line (cells off the board included; intersect
    /// with the starts of real windows, such as [`Self::live_window_starts`]).
    #[inline(always)]
    pub fn window_starts_through(cell: B, step: u32) -> B {
        Rules::<W, H, B>::window_starts_through(cell, step)
    }

    /// Whether `stones` contain four in a row.
    #[inline(always)]
    pub fn has_four(stones: B) -> bool {
        Rules::<W, H, B>::has_four(stones)
    }

    /// Whether `first` holds a four that does not lie directly above a four
    /// of `second` (see [`Rules::has_four_not_above`]).
    #[inline(always)]
    pub fn has_four_not_above(first: B, second: B) -> bool {
        Rules::<W, H, B>::has_four_not_above(first, second)
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
        Rules::<W, H, B>::non_losing_moves(self.mask, opponent_wins)
    }

    /// Number of the side to move's threats (completing cells, empty and not
    /// yet playable included) after it plays `cell`. Used to order moves:
    /// a move that makes more threats tends to be stronger.
    #[inline(always)]
    pub fn threats_after(&self, cell: B) -> u32 {
        Rules::<W, H, B>::threats_after(self.current, self.mask, cell)
    }

    /// The range `(min, max)` holding the score of this position (one the
    /// game is not over in): losing to the opponent's next stone at worst,
    /// winning with its own next stone at best.
    #[inline]
    pub fn score_range(&self) -> (i32, i32) {
        rules::score_range(Self::CELLS, self.moves as usize)
    }

    /// The score of a position whose last move won, for the side to move
    /// (which lost): minus the winner's score before that move.
    #[inline]
    pub fn lost_score(&self) -> i32 {
        rules::lost_score(Self::CELLS, self.moves as usize)
    }

    /// The score of a win by the side to move with its next stone: the number
    /// of its stones still in hand after that stone, plus one.
    #[inline(always)]
    pub fn win_next_score(&self) -> i32 {
        rules::win_next_score(Self::CELLS, self.moves as usize)
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

    /// Live windows of `p`, all directions together.
    fn live_windows(p: &P) -> u32 {
        p.live_window_starts().iter().map(|w| w.count_ones()).sum()
    }

    #[test]
    fn live_windows_follow_the_stones_played() {
        assert_eq!(live_windows(&P::new()), 69);
        // Stones of both sides on the bottom row of columns 1 and 2: only
        // the horizontal window of columns 1-4 holds both.
        assert_eq!(live_windows(&P::parse("12").unwrap()), 68);
        assert_eq!(live_windows(&P::parse("1").unwrap()), 69);
    }

    #[test]
    fn wins_scores_and_moves_as_the_rules_say() {
        let p = P::parse("121212").unwrap();
        assert!(p.is_winning_move(0) && p.can_win_next());
        assert!(!p.is_winning_move(2));
        let mut won = p;
        won.play_col(0);
        assert!(won.is_won() && won.is_game_over());
        // The winner played its fourth stone: 22 - 4.
        assert_eq!(won.lost_score(), -18);
        assert_eq!(p.win_next_score(), 18);
        assert_eq!(p.score_range(), (-18, 18));
        assert_eq!(P::column_of(p.move_in_column(4)), 4);
        assert_eq!(p.stone_at(1, 2), Some(Player::Second));
    }
}
