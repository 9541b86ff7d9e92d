//! [`Game`]: a position on a board chosen at run time.
//!
//! The search runs on [`Position<W, H, B>`](crate::Position), whose board is
//! a set of constants, so the compiler builds it once per board size. The
//! code around the search (parsing, drawing, the commands, the server, the
//! Python module) has no use for that speed, and built once per size it
//! made most of the build time: it works on a `Game` instead, compiled once.
//! A `Game` holds the same two bitboards widened to `u128`, and asks the
//! rules of play in [`crate::rules`] for everything: replaying, drawing,
//! decoding keys and finding lines are written there for a run-time size;
//! fours, threats and symmetry are the fixed-size rules, run on the
//! `Game`'s board by `for_board!`. A `Game` turns into the fixed-size
//! position it stands for and back ([`Game::fixed`], [`Game::of`]); the
//! position knows nothing of it.
//!
//! ```
//! use c4::{BoardSize, Game};
//! let game = Game::parse(BoardSize::STANDARD, "4453").unwrap();
//! assert_eq!(game.moves_played(), 4);
//! assert!(game.can_play(3));
//! ```

use std::fmt;

use crate::Bitboard;
use crate::board::{BoardSize, for_board};
use crate::position::Position;
use crate::rules::{self, ParseError, Player, Rules, Score, Stones, moves_to_string};

/// A position on a board whose size is known only at run time.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Game {
    /// The stones, in [`Position`]'s bit layout widened to `u128`.
    stones: Stones,
}

impl Game {
    /// The empty board of `board`, first player to move.
    pub fn new(board: BoardSize) -> Game {
        Game {
            stones: Stones::new(board),
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
        self.stones.play_str(moves)
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
            self.board(),
            BoardSize::of::<W, H>(),
            "a game used on another board size"
        );
        let (current, mask) = self.words::<B>();
        Position::from_bits(current, mask, self.stones.moves())
    }

    /// The stones of the side to move and every stone, in the word `B`.
    fn words<B: Bitboard>(&self) -> (B, B) {
        (
            B::from_u128(self.stones.current()),
            B::from_u128(self.stones.mask()),
        )
    }

    /// The board this game is played on.
    pub fn board(&self) -> BoardSize {
        self.stones.board()
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.board().width()
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.board().height()
    }

    /// Number of stones on the board.
    pub fn moves_played(&self) -> usize {
        self.stones.moves() as usize
    }

    /// Number of empty cells.
    pub fn empty_cells(&self) -> usize {
        self.board().cells() - self.moves_played()
    }

    /// The player whose turn it is.
    pub fn side_to_move(&self) -> Player {
        self.stones.side_to_move()
    }

    /// The owner of the cell at 0-based `col` and `row` (0 = bottom), if
    /// any. Panics outside the board.
    pub fn stone_at(&self, col: usize, row: usize) -> Option<Player> {
        self.stones.stone_at(col, row)
    }

    /// Number of stones in 0-based column `col`. Panics outside the board.
    pub fn column_height(&self, col: usize) -> usize {
        self.stones.column_height(col)
    }

    /// Whether 0-based column `col` exists and still has room.
    pub fn can_play(&self, col: usize) -> bool {
        self.stones.can_play(col)
    }

    /// Plays in 0-based column `col`. Panics if the column is full or does
    /// not exist.
    pub fn play_col(&mut self, col: usize) {
        self.stones.play_col(col);
    }

    /// This position after 0-based column `col` is played.
    pub fn after(&self, col: usize) -> Game {
        let mut child = *self;
        child.play_col(col);
        child
    }

    /// The playable cells where the side to move connects four (see
    /// [`Rules::winning_moves`]).
    fn winning_moves(&self) -> u128 {
        for_board!(self.board(), u128, with (game: &'b Game = self), <W, H, B> {
            let (current, mask) = game.words::<B>();
            Rules::<W, H, B>::winning_moves(current, mask).to_u128()
        })
    }

    /// Whether playing 0-based column `col` connects four for the side to
    /// move. Precondition: `can_play(col)`.
    pub fn is_winning_move(&self, col: usize) -> bool {
        col < self.width() && self.winning_moves() & self.stones.column_mask(col) != 0
    }

    /// Whether the side to move can connect four with its next move.
    pub fn can_win_next(&self) -> bool {
        self.winning_moves() != 0
    }

    /// Whether the last move connected four (the side to move has lost).
    pub fn is_won(&self) -> bool {
        self.stones.is_won()
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.stones.is_full()
    }

    /// Whether the game is over: the last move won, or the board is full.
    pub fn is_game_over(&self) -> bool {
        self.is_full() || self.is_won()
    }

    /// The range `(min, max)` holding the score (see
    /// [`Position::score_range`]).
    pub fn score_range(&self) -> (Score, Score) {
        rules::score_range(self.board().cells(), self.moves_played())
    }

    /// The score of a win by the side to move with its next stone.
    pub fn win_next_score(&self) -> Score {
        rules::win_next_score(self.board().cells(), self.moves_played())
    }

    /// The score of a position whose last move won, for the side to move.
    pub fn lost_score(&self) -> Score {
        rules::lost_score(self.board().cells(), self.moves_played())
    }

    /// The position's key (see [`Position::key`]).
    pub fn key(&self) -> u128 {
        self.stones.key()
    }

    /// The key shared with the mirror image, and whether it is the mirror's
    /// (see [`Position::symmetric_key`]).
    pub fn symmetric_key(&self) -> (u128, bool) {
        for_board!(self.board(), (u128, bool), with (key: u128 = self.key()), <W, H, B> {
            let (key, mirrored) = Rules::<W, H, B>::symmetric_key(B::from_u128(key));
            (key.to_u128(), mirrored)
        })
    }

    /// This position with the columns reversed.
    pub fn mirrored(&self) -> Game {
        let (current, mask) = for_board!(self.board(), (u128, u128), with (game: &'b Game = self),
        <W, H, B> {
            let (current, mask) = game.words::<B>();
            (
                Rules::<W, H, B>::mirror(current).to_u128(),
                Rules::<W, H, B>::mirror(mask).to_u128(),
            )
        });
        Game {
            stones: Stones::from_bits(self.board(), current, mask, self.stones.moves()),
        }
    }

    /// A sequence of moves (0-based columns) that reaches this position from the empty
    /// board, or `None` if none does (a position that cannot arise in a game).
    ///
    /// Books store positions, not games; this finds a game by taking stones off
    /// the top of the columns, the last mover's first, never passing through a
    /// finished position, visiting each position at most once (an
    /// unreachable position in an untrusted file cannot make it run for long).
    pub fn line(&self) -> Option<Vec<usize>> {
        self.stones.line()
    }

    /// The position of `board` whose key is `key`, if there is one (see
    /// [`Position::from_key`]).
    pub fn from_key(board: BoardSize, key: u128) -> Option<Game> {
        Stones::from_key(board, key).map(|stones| Game { stones })
    }

    /// The position before the last mover played in 0-based column `col`:
    /// `None` if the column is empty or its top stone is not the last
    /// mover's. Whether that position can arise in a game is not checked
    /// (see [`Position::parents`]).
    pub fn parent(&self, col: usize) -> Option<Game> {
        self.stones.parent(col).map(|stones| Game { stones })
    }
}

impl<const W: usize, const H: usize, B: Bitboard> From<Position<W, H, B>> for Game {
    fn from(pos: Position<W, H, B>) -> Game {
        Game {
            stones: Stones::of::<W, H, B>(pos.current(), pos.mask(), pos.moves_played() as u32),
        }
    }
}

impl fmt::Display for Game {
    /// Draws the board top row first, with column labels below and a line
    /// saying whose turn it is (or how the game ended), as a [`Position`]
    /// is drawn.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.stones, f)
    }
}

/// A readable name for a position in messages: a line reaching it
/// (1-based columns, quoted), or its key if no game reaches it.
pub fn position_name(game: &Game) -> String {
    match game.line() {
        Some(line) => format!("'{}'", moves_to_string(&line)),
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
            assert_ne!(game.mirrored(), game);
            let (key, _) = game.symmetric_key();
            assert_eq!(key, game.key().min(game.mirrored().key()));
            assert_eq!(game.mirrored().symmetric_key().0, key);
        }
        let fixed = Position::<7, 6>::parse("4453").unwrap();
        let game = Game::of(&fixed);
        assert_eq!(game.to_string(), fixed.to_string());
        assert_eq!(game.symmetric_key().0, fixed.symmetric_key().0 as u128);
        assert_eq!(game.mirrored(), Game::of(&fixed.mirrored()));
        assert_eq!(game.fixed::<7, 6, u64>(), fixed);
    }

    #[test]
    fn wins_and_errors_as_the_fixed_position_says() {
        let board = BoardSize::STANDARD;
        let game = Game::parse(board, "121212").unwrap();
        assert!(game.is_winning_move(0) && game.can_win_next());
        assert!(!game.is_winning_move(1) && !game.is_winning_move(7));
        let won = game.after(0);
        assert!(won.is_won() && won.is_game_over());
        let fixed = Position::<7, 6>::parse("1212121").unwrap();
        assert_eq!(won.lost_score(), fixed.lost_score());
        assert_eq!(
            game.win_next_score(),
            game.fixed::<7, 6, u64>().win_next_score()
        );
        assert_eq!(game.score_range(), game.fixed::<7, 6, u64>().score_range());
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
        assert_eq!(position_name(&partial), "'444'");
    }
}
