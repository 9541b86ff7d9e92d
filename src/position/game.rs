//! [`Game`]: a position on a board chosen at run time.
//!
//! The search runs on [`Position<W, H, B>`](crate::Position), whose board is
//! a set of constants, so the compiler builds it once per board size. The
//! code around the search (parsing, drawing, the commands, the server, the
//! Python module) has no use for that speed, and built once per size it
//! made most of the build time: it works on a `Game` instead, compiled once.
//! A `Game` holds the same two bitboards widened to `u128`, and every rule
//! of play (fours, threats, symmetry) is asked of the fixed-size position
//! it stands for, so the rules are written once, in [`crate::position`].
//! The other way round, replaying a move string, drawing the board,
//! decoding a key and finding a line of moves to a position are written
//! once, here, and the fixed-size position asks its game (the `impl
//! Position` blocks at the end): none of them is worth compiling once per
//! size. So this file imports the position, and the position does not
//! import it.
//!
//! ```
//! use c4::{BoardSize, Game};
//! let game = Game::parse(BoardSize::STANDARD, "4453").unwrap();
//! assert_eq!(game.moves_played(), 4);
//! assert!(game.can_play(3));
//! ```

use std::collections::HashSet;
use std::fmt;

use super::{ParseError, Player, Position, Score, column_char, column_from_char};
use crate::Bitboard;
use crate::board::{BoardSize, for_board};

/// A position on a board whose size is known only at run time.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Game {
    /// The board.
    board: BoardSize,
    /// Stones of the side to move, in [`Position`]'s bit layout.
    current: u128,
    /// Every occupied cell, in the same layout.
    mask: u128,
    /// Number of stones on the board.
    moves: u32,
}

/// Runs `$body` on the fixed-size position `$pos` that `$game` stands for,
/// giving a value of type `$out` (see [`for_board!`]).
macro_rules! on_fixed {
    ($game:expr, $out:ty, |$pos:ident| $body:expr) => {
        on_fixed!($game, $out, with (), |$pos| $body)
    };
    ($game:expr, $out:ty, with ($($name:ident: $ty:ty = $value:expr),*), |$pos:ident| $body:expr) => {{
        let game: &Game = $game;
        for_board!(game.board, $out, with (game: &'b Game = game $(, $name: $ty = $value)*),
            <W, H, B> {
                let $pos = game.fixed::<W, H, B>();
                $body
            })
    }};
}

impl Game {
    /// The empty board of `board`, first player to move.
    pub fn new(board: BoardSize) -> Game {
        Game {
            board,
            current: 0,
            mask: 0,
            moves: 0,
        }
    }

    /// Replays a move string (see [`Position::parse`]) on `board`.
    pub fn parse(board: BoardSize, moves: &str) -> Result<Game, ParseError> {
        let mut game = Game::new(board);
        game.play_str(moves)?;
        Ok(game)
    }

    /// Plays a move string from this position (see [`Position::parse`]);
    /// on error the position is left as it was before the offending
    /// character, which the error names.
    pub fn play_str(&mut self, moves: &str) -> Result<(), ParseError> {
        let start = moves.len() - moves.trim_start().len();
        let body = moves.trim();
        for (offset, ch) in body.char_indices() {
            let index = moves[..start + offset].chars().count();
            let col = column_from_char(ch, self.width()).ok_or(ParseError::InvalidColumn {
                index,
                ch,
                width: self.width(),
            })?;
            if self.is_won() {
                return Err(ParseError::GameOver { index });
            }
            if self.is_full() {
                return Err(ParseError::TooManyMoves { index });
            }
            if !self.can_play(col) {
                return Err(ParseError::ColumnFull {
                    index,
                    column: col + 1,
                });
            }
            self.play_col(col);
        }
        Ok(())
    }

    /// The game of a fixed-size position.
    pub fn of<const W: usize, const H: usize, B: Bitboard>(pos: &Position<W, H, B>) -> Game {
        Game::from(*pos)
    }

    /// The fixed-size position this game stands for. Panics if `W` x `H`
    /// is not this game's board (a bug in the caller, which dispatched on
    /// the wrong size).
    pub fn fixed<const W: usize, const H: usize, B: Bitboard>(&self) -> Position<W, H, B> {
        assert_eq!(
            self.board,
            BoardSize::of::<W, H>(),
            "a game used on another board size"
        );
        Position::from_bits(
            B::from_u128(self.current),
            B::from_u128(self.mask),
            self.moves,
        )
    }

    /// The board this game is played on.
    pub fn board(&self) -> BoardSize {
        self.board
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.board.width()
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.board.height()
    }

    /// Number of stones on the board.
    pub fn moves_played(&self) -> usize {
        self.moves as usize
    }

    /// Number of empty cells.
    pub fn empty_cells(&self) -> usize {
        self.board.cells() - self.moves as usize
    }

    /// The player whose turn it is.
    pub fn side_to_move(&self) -> Player {
        if self.moves.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    /// The bit of the cell at 0-based `col` and `row` (0 = bottom).
    fn cell_bit(&self, col: usize, row: usize) -> u128 {
        1u128 << (col * (self.height() + 1) + row)
    }

    /// The owner of the cell at 0-based `col` and `row` (0 = bottom), if
    /// any. Panics outside the board.
    pub fn stone_at(&self, col: usize, row: usize) -> Option<Player> {
        assert!(
            col < self.width() && row < self.height(),
            "cell outside the board"
        );
        let bit = self.cell_bit(col, row);
        if self.mask & bit == 0 {
            None
        } else if self.current & bit != 0 {
            Some(self.side_to_move())
        } else {
            Some(self.side_to_move().other())
        }
    }

    /// Number of stones in 0-based column `col`. Panics outside the board.
    pub fn column_height(&self, col: usize) -> usize {
        assert!(col < self.width(), "column outside the board");
        let column = ((1u128 << self.height()) - 1) << (col * (self.height() + 1));
        (self.mask & column).count_ones() as usize
    }

    /// Whether 0-based column `col` exists and still has room.
    pub fn can_play(&self, col: usize) -> bool {
        col < self.width() && self.column_height(col) < self.height()
    }

    /// Plays in 0-based column `col`. Panics if the column is full or does
    /// not exist.
    pub fn play_col(&mut self, col: usize) {
        assert!(self.can_play(col), "column {col} cannot be played");
        let cell = self.cell_bit(col, self.column_height(col));
        self.current ^= self.mask;
        self.mask |= cell;
        self.moves += 1;
    }

    /// This position after 0-based column `col` is played.
    pub fn after(&self, col: usize) -> Game {
        let mut child = *self;
        child.play_col(col);
        child
    }

    /// Whether playing 0-based column `col` connects four for the side to
    /// move. Precondition: `can_play(col)`.
    pub fn is_winning_move(&self, col: usize) -> bool {
        on_fixed!(self, bool, with (col: usize = col), |pos| pos.is_winning_move(col))
    }

    /// Whether the side to move can connect four with its next move.
    pub fn can_win_next(&self) -> bool {
        on_fixed!(self, bool, |pos| pos.can_win_next())
    }

    /// Whether the last move connected four (the side to move has lost).
    pub fn is_won(&self) -> bool {
        on_fixed!(self, bool, |pos| pos.is_won())
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.moves as usize == self.board.cells()
    }

    /// Whether the game is over: the last move won, or the board is full.
    pub fn is_game_over(&self) -> bool {
        self.is_full() || self.is_won()
    }

    /// The range `(min, max)` holding the score (see
    /// [`Position::score_range`]).
    pub fn score_range(&self) -> (Score, Score) {
        let cells = self.board.cells() as i32;
        let moves = self.moves as i32;
        (-(cells - moves) / 2, (cells + 1 - moves) / 2)
    }

    /// The score of a win by the side to move with its next stone.
    pub fn win_next_score(&self) -> Score {
        (self.board.cells() as i32 + 1 - self.moves as i32) / 2
    }

    /// The score of a position whose last move won, for the side to move.
    pub fn lost_score(&self) -> Score {
        -((self.board.cells() as i32 + 2 - self.moves as i32) / 2)
    }

    /// The position's key (see [`Position::key`]).
    pub fn key(&self) -> u128 {
        self.current.wrapping_add(self.mask)
    }

    /// The key shared with the mirror image, and whether it is the mirror's
    /// (see [`Position::symmetric_key`]).
    pub fn symmetric_key(&self) -> (u128, bool) {
        on_fixed!(self, (u128, bool), |pos| {
            let (key, mirrored) = pos.symmetric_key();
            (key.to_u128(), mirrored)
        })
    }

    /// This position with the columns reversed.
    pub fn mirrored(&self) -> Game {
        on_fixed!(self, Game, |pos| Game::from(pos.mirrored()))
    }

    /// A sequence of moves (0-based columns) that reaches this position from the empty
    /// board, or `None` if none does (a position that cannot arise in a game).
    ///
    /// Books store positions, not games; this finds a game by taking stones off
    /// the top of the columns, the last mover's first, never passing through a
    /// finished position: a depth-first search that remembers the positions it
    /// found no way back from, so that it visits each at most once (an
    /// unreachable position in an untrusted file cannot make it run for long).
    pub fn line(&self) -> Option<Vec<usize>> {
        fn back(game: &Game, line: &mut Vec<usize>, dead: &mut HashSet<u128>) -> bool {
            if game.moves_played() == 0 {
                return true;
            }
            if dead.contains(&game.key()) {
                return false;
            }
            for col in 0..game.width() {
                // Before the last mover's stone on top of `col`, the last mover
                // was to move, holding its stones but that one.
                let Some(before) = game
                    .parent(col)
                    .and_then(|parent| Game::from_key(game.board(), parent.key()))
                else {
                    continue;
                };
                if before.is_won() {
                    continue;
                }
                line.push(col);
                if back(&before, line, dead) {
                    return true;
                }
                line.pop();
            }
            dead.insert(game.key());
            false
        }
        let mut line = Vec::new();
        back(self, &mut line, &mut HashSet::new()).then(|| {
            line.reverse();
            line
        })
    }

    /// The position of `board` whose key is `key`, if there is one (see
    /// [`Position::from_key`], which asks this).
    ///
    /// Within a column of height `h`, the key holds `stones + 2^h - 1` (the
    /// side to move's stones plus the full mask below the column's top);
    /// these values fill `[2^h - 1, 2^(h+1) - 2]`, disjoint for every `h`, so
    /// the height is the bit length of `value + 1` minus one.
    pub fn from_key(board: BoardSize, key: u128) -> Option<Game> {
        if key.checked_shr(board.key_bits()).unwrap_or(0) != 0 {
            return None;
        }
        let column_bits = board.height() + 1;
        let column = (1u128 << column_bits) - 1;
        let (mut current, mut mask) = (0u128, 0u128);
        for col in 0..board.width() {
            let value = (key >> (col * column_bits)) & column;
            let height = 127 - (value + 1).leading_zeros() as usize;
            if height > board.height() {
                return None;
            }
            let below = (1u128 << height) - 1;
            current |= (value - below) << (col * column_bits);
            mask |= below << (col * column_bits);
        }
        let moves = mask.count_ones();
        let game = Game {
            board,
            current,
            mask,
            moves,
        };
        (current.count_ones() == moves / 2 && !game.side_to_move_has_four()).then_some(game)
    }

    /// Whether the side to move's stones hold four in a row (which no game
    /// reaches: the game ended before its turn).
    fn side_to_move_has_four(&self) -> bool {
        for_board!(self.board, bool, with (stones: u128 = self.current), <W, H, B> {
            Position::<W, H, B>::has_four(B::from_u128(stones))
        })
    }

    /// The position before the last mover played in 0-based column `col`:
    /// `None` if the column is empty or its top stone is not the last
    /// mover's. Whether that position can arise in a game is not checked
    /// (see [`Position::parents`]).
    pub fn parent(&self, col: usize) -> Option<Game> {
        let height = self.column_height(col);
        let top = self.cell_bit(col, height.checked_sub(1)?);
        let last_mover = self.mask ^ self.current;
        (last_mover & top != 0).then_some(Game {
            board: self.board,
            current: last_mover ^ top,
            mask: self.mask ^ top,
            moves: self.moves - 1,
        })
    }
}

impl<const W: usize, const H: usize, B: Bitboard> From<Position<W, H, B>> for Game {
    fn from(pos: Position<W, H, B>) -> Game {
        Game {
            board: BoardSize::of::<W, H>(),
            current: pos.current().to_u128(),
            mask: pos.mask().to_u128(),
            moves: pos.moves_played() as u32,
        }
    }
}

impl fmt::Display for Game {
    /// Draws the board top row first, with column labels below and a line
    /// saying whose turn it is (or how the game ended). [`Position`] is
    /// drawn as its game.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.height()).rev() {
            for col in 0..self.width() {
                let ch = self.stone_at(col, row).map_or('.', Player::symbol);
                write!(f, "{}{ch}", if col == 0 { "" } else { " " })?;
            }
            writeln!(f)?;
        }
        for col in 0..self.width() {
            write!(f, "{}{}", if col == 0 { "" } else { " " }, column_char(col))?;
        }
        writeln!(f)?;
        if self.is_won() {
            write!(
                f,
                "{} has won on move {}",
                self.side_to_move().other().symbol(),
                self.moves
            )
        } else if self.is_full() {
            write!(f, "the board is full: draw")
        } else {
            write!(
                f,
                "{} to move (move {})",
                self.side_to_move().symbol(),
                self.moves + 1
            )
        }
    }
}

/// What a fixed-size position asks of its game: replaying a move string,
/// drawing the board, decoding a key and finding a line, none of them worth
/// compiling once per board size.
impl<const W: usize, const H: usize, B: Bitboard> Position<W, H, B> {
    /// Replays a move string (columns `1`-`9`, then `a`... for wider boards)
    /// from the empty board. Leading and trailing whitespace, including a
    /// trailing `\r`, is ignored.
    pub fn parse(moves: &str) -> Result<Self, ParseError> {
        let mut pos = Self::new();
        pos.play_str(moves)?;
        Ok(pos)
    }

    /// Plays a move string from this position; see [`Position::parse`]. On
    /// error the position is left as it was before the offending character.
    /// (Replayed by [`Game::play_str`], compiled once for every size.)
    pub fn play_str(&mut self, moves: &str) -> Result<(), ParseError> {
        let mut game = Game::from(*self);
        let result = game.play_str(moves);
        *self = game.fixed();
        result
    }
}

impl<const W: usize, const H: usize, B: Bitboard> fmt::Display for Position<W, H, B> {
    /// Draws the board top row first, with column labels below and a line
    /// saying whose turn it is (or how the game ended): the drawing of its
    /// [`Game`], compiled once for every size.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Game::from(*self), f)
    }
}

impl<const W: usize, const H: usize, B: Bitboard> Position<W, H, B> {
    /// The position whose [`Position::key`] is `key`, if `key` describes a
    /// possible position: every column's stones packed from the bottom, the
    /// side to move having played as many stones as its turn says (half the
    /// stones, rounded down) and no four of its own. (Not every such position
    /// is reachable in a game: [`Position::line`] finds a game.)
    /// Opening books store keys and rebuild positions with this. Decoded by
    /// [`Game::from_key`], compiled once for every size.
    pub fn from_key(key: B) -> Option<Self> {
        Game::from_key(BoardSize::of::<W, H>(), key.to_u128()).map(|game| game.fixed())
    }

    /// A sequence of moves (0-based columns) that reaches this position
    /// from the empty board, or `None` if none does (a position that cannot
    /// arise in a game): the [`Game::line`] of its game.
    pub fn line(&self) -> Option<Vec<usize>> {
        Game::from(*self).line()
    }
}

/// A readable name for a position in messages: a line reaching it
/// (1-based columns, quoted), or its key if no game reaches it.
pub fn position_name(game: &Game) -> String {
    match game.line() {
        Some(line) => format!("'{}'", super::moves_to_string(&line)),
        None => format!("with key {:#x}", game.key()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_follows_its_fixed_position() {
        for board in [BoardSize::STANDARD, BoardSize::new(8, 8).unwrap()] {
            let game = Game::parse(board, "4453").unwrap();
            assert_eq!(game.moves_played(), 4);
            assert_eq!(game.column_height(3), 2);
            assert_eq!(game.stone_at(3, 0), Some(Player::First));
            assert_eq!(game.stone_at(3, 1), Some(Player::Second));
            assert_eq!(game.stone_at(4, 0), Some(Player::First));
            assert_eq!(game.stone_at(2, 0), Some(Player::Second));
            assert_eq!(game.side_to_move(), Player::First);
            let back = Game::from_key(board, game.key()).unwrap();
            assert_eq!(back, game);
            assert_eq!(game.mirrored().mirrored(), game);
        }
        let fixed = Position::<7, 6>::parse("4453").unwrap();
        let game = Game::of(&fixed);
        assert_eq!(game.to_string(), fixed.to_string());
        assert_eq!(game.symmetric_key().0, fixed.symmetric_key().0 as u128);
        assert_eq!(game.fixed::<7, 6, u64>(), fixed);
    }

    #[test]
    fn wins_and_errors_as_the_fixed_position_says() {
        let board = BoardSize::STANDARD;
        let game = Game::parse(board, "121212").unwrap();
        assert!(game.is_winning_move(0) && game.can_win_next());
        let won = game.after(0);
        assert!(won.is_won() && won.is_game_over());
        assert_eq!(
            won.lost_score(),
            Position::<7, 6>::parse("1212121").unwrap().lost_score()
        );
        assert_eq!(
            Game::parse(board, "  48"),
            Err(ParseError::InvalidColumn {
                index: 3,
                ch: '8',
                width: 7
            })
        );
        let mut partial = Game::parse(board, "44").unwrap();
        assert!(partial.play_str("4x").is_err());
        assert_eq!(partial.moves_played(), 3);
        assert_eq!(Game::from_key(board, 1u128 << 60), None);
    }
}
