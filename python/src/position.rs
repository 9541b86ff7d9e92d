//! `c4.Position`: a position of any supported board, made from a move
//! string (c4's and Pons's 1-based columns, or BitBully's 0-based ones) or
//! from a grid of cells, and turned back into moves, a grid or a drawing.

use std::hash::{Hash, Hasher};

use c4::position::{column_from_char, moves_to_string};
use c4::{BoardSize, Game, ParseError, Player};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

/// The board `width` x `height`, or a `ValueError` saying why it is not
/// supported.
pub fn board_size(width: usize, height: usize) -> PyResult<BoardSize> {
    BoardSize::new(width, height).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The value a grid gives the cells of `player` (0 is an empty cell).
fn player_value(player: Player) -> u32 {
    match player {
        Player::First => 1,
        Player::Second => 2,
    }
}

/// A Connect Four position on a board of any supported size.
///
/// Columns are numbered from 1 (leftmost) everywhere in this module, as in
/// move strings: ``Position("4453")`` is the position after the first player
/// played column 4, the second column 4, the first column 5 and the second
/// column 3. Columns past 9 are written ``a``, ``b``, ... in move strings.
///
/// Positions are immutable and hashable; two positions are equal when they
/// have the same stones, however they were reached. ``str(position)`` draws
/// the board (top row first, ``X`` the first player, ``O`` the second).
///
/// Grids (:meth:`rows`, :meth:`to_numpy`, :meth:`from_rows`,
/// :meth:`from_numpy`) are rows by columns, **top row first** (as the board
/// is drawn, and as BitBully's row-major arrays): 0 an empty cell, 1 a stone
/// of the first player, 2 a stone of the second.
#[pyclass(frozen, eq, hash, module = "c4", name = "Position")]
#[derive(Clone)]
pub struct Position {
    /// The stones.
    game: Game,
    /// The moves that reached it, 0-based columns (a line found for a
    /// position made from a grid).
    history: Vec<usize>,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.game == other.game
    }
}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.game.hash(state);
    }
}

impl Position {
    /// The position on `board` after `moves` (c4's move string), or a
    /// `ValueError` with the message `c4` prints (it names the character).
    pub fn parse(board: BoardSize, moves: &str) -> PyResult<Position> {
        let game = Game::parse(board, moves).map_err(value_error)?;
        let history = moves
            .trim()
            .chars()
            .filter_map(|ch| column_from_char(ch, board.width()))
            .collect();
        Ok(Position { game, history })
    }

    /// The position of a game (its moves found by taking stones back).
    pub fn of_game(game: Game) -> PyResult<Position> {
        let Some(history) = game.line() else {
            return Err(PyValueError::new_err(
                "no game reaches this position (the stones cannot have been played in turn \
                 without the game ending first)",
            ));
        };
        Ok(Position { game, history })
    }

    /// The moves that reached the position, 0-based columns.
    pub fn history(&self) -> &[usize] {
        &self.history
    }

    /// The stones.
    pub fn game(&self) -> Game {
        self.game
    }

    /// The 0-based column of 1-based `column`, if it is on the board; else
    /// a `ValueError`.
    fn column(&self, column: i64) -> PyResult<usize> {
        let width = self.game.width();
        match usize::try_from(column) {
            Ok(col @ 1..) if col <= width => Ok(col - 1),
            _ => Err(PyValueError::new_err(format!(
                "{column} is not a column (1-{width})"
            ))),
        }
    }

    /// This position after 0-based `col`, or a `ValueError` saying why it
    /// cannot be played (as the move-string errors say it).
    fn after(&self, col: usize) -> PyResult<Position> {
        let game = &self.game;
        if game.is_won() {
            return Err(PyValueError::new_err(
                "the game was already won by the previous move",
            ));
        }
        if game.is_full() {
            return Err(PyValueError::new_err(
                "more moves than cells, the board is already full",
            ));
        }
        if !game.can_play(col) {
            return Err(PyValueError::new_err(format!(
                "column {} is already full",
                col + 1
            )));
        }
        let mut history = self.history.clone();
        history.push(col);
        Ok(Position {
            game: game.after(col),
            history,
        })
    }

    /// The position of a grid, rows top first (see [`Position::from_rows`]).
    fn of_rows(rows: &[Vec<i64>]) -> PyResult<Position> {
        let height = rows.len();
        let width = rows.first().map_or(0, Vec::len);
        if let Some((r, row)) = rows.iter().enumerate().find(|(_, row)| row.len() != width) {
            return Err(PyValueError::new_err(format!(
                "row {} has {} cells but row 1 has {width}: a grid is rows of equal length",
                r + 1,
                row.len()
            )));
        }
        let board = board_size(width, height)?;
        // The cells by column, bottom first, as 0 / 1 / 2.
        let mut first = Vec::with_capacity(width);
        let mut second = Vec::with_capacity(width);
        for col in 0..width {
            let mut stones = (0u128, 0u128);
            let mut column_height = 0;
            for (row, cells) in rows.iter().rev().enumerate() {
                let top_index = height - 1 - row;
                let value = cells[col];
                let at = format!("row {}, column {}", top_index + 1, col + 1);
                match value {
                    0 => {}
                    1 | 2 if column_height < row => {
                        return Err(PyValueError::new_err(format!(
                            "{at}: a stone above an empty cell (row 1 is the top row)"
                        )));
                    }
                    1 => stones.0 |= 1 << row,
                    2 => stones.1 |= 1 << row,
                    _ => {
                        return Err(PyValueError::new_err(format!(
                            "{at}: {value} is not a cell (0 empty, 1 first player, 2 second player)"
                        )));
                    }
                }
                if value != 0 {
                    column_height = row + 1;
                }
            }
            first.push(stones.0);
            second.push(stones.1);
        }
        let count = |cols: &[u128]| cols.iter().map(|c| c.count_ones()).sum::<u32>();
        let (ones, twos) = (count(&first), count(&second));
        if ones != twos && ones != twos + 1 {
            return Err(PyValueError::new_err(format!(
                "{ones} stones of the first player and {twos} of the second: the first player \
                 has as many stones as the second, or one more"
            )));
        }
        let to_move = if ones == twos { &first } else { &second };
        // The key: the side to move's stones plus the mask, per column
        // (`Position::key`'s layout, one spare bit above each column).
        let mut key = 0u128;
        for (col, (stones, mover)) in first.iter().zip(second.iter()).zip(to_move).enumerate() {
            let column_height = 128 - (stones.0 | stones.1).leading_zeros() as usize;
            let mask = (1u128 << column_height) - 1;
            key += (mover + mask) << (col * (height + 1));
        }
        let game = Game::from_key(board, key).ok_or_else(|| {
            PyValueError::new_err(
                "the player to move has four in a row already: no game reaches this position",
            )
        })?;
        Position::of_game(game)
    }
}

/// The `ValueError` of a move string that does not replay.
fn value_error(e: ParseError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

#[pymethods]
impl Position {
    /// The position after ``moves``, a move string of 1-based columns (c4's
    /// and Pons's notation; ``a``, ``b``, ... for columns 10 and up), on a
    /// board ``width`` columns wide and ``height`` rows high.
    ///
    /// Raises ``ValueError`` naming the character at fault (e.g. ``character
    /// 3 ('8') is not a column (1-7)``) or an unsupported board.
    #[new]
    #[pyo3(signature = (moves = "", width = 7, height = 6))]
    fn new(moves: &str, width: usize, height: usize) -> PyResult<Position> {
        Position::parse(board_size(width, height)?, moves)
    }

    /// The position after a move string in Pons's notation: 1-based
    /// columns, as c4's own (the same as ``Position(moves, width, height)``).
    #[staticmethod]
    #[pyo3(signature = (moves, width = 7, height = 6))]
    fn from_pons(moves: &str, width: usize, height: usize) -> PyResult<Position> {
        Position::parse(board_size(width, height)?, moves)
    }

    /// The position after BitBully's moves: 0-based columns, as a string of
    /// digits (``"3342"`` is c4's ``"4453"``) or a sequence of ints.
    ///
    /// Raises ``ValueError`` naming the move at fault.
    #[staticmethod]
    #[pyo3(signature = (moves, width = 7, height = 6))]
    fn from_bitbully(moves: &Bound<'_, PyAny>, width: usize, height: usize) -> PyResult<Position> {
        let board = board_size(width, height)?;
        let columns: Vec<(String, Option<usize>)> = if let Ok(text) = moves.cast::<PyString>() {
            let text = text.to_cow()?;
            text.trim()
                .chars()
                .map(|ch| {
                    let col = ch.to_digit(10).map(|d| d as usize);
                    (format!("character '{ch}'"), col.filter(|&c| c < width))
                })
                .collect()
        } else {
            let mut columns = Vec::new();
            for item in moves.try_iter()? {
                let item = item?;
                let col = item.extract::<i64>().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "moves must be a string of digits or a sequence of ints, not {}",
                        item.get_type().name().map_or("?".into(), |n| n.to_string())
                    ))
                })?;
                let on_board = usize::try_from(col).ok().filter(|&c| c < width);
                columns.push((format!("column {col}"), on_board));
            }
            columns
        };
        let mut position = Position::parse(board, "")?;
        for (index, (text, col)) in columns.into_iter().enumerate() {
            let Some(col) = col else {
                return Err(PyValueError::new_err(format!(
                    "move {}: {text} is not a column (0-{}, BitBully's 0-based columns)",
                    index + 1,
                    width - 1
                )));
            };
            position = position.after(col).map_err(|e| {
                PyValueError::new_err(format!(
                    "move {} (column {col}, 0-based): {}",
                    index + 1,
                    e.value(moves.py())
                ))
            })?;
        }
        Ok(position)
    }

    /// The position of a grid: a sequence of rows, **top row first**, each
    /// a sequence of 0 (empty), 1 (first player) or 2 (second player). The
    /// board's size is the grid's. The moves (:attr:`moves`) are a line
    /// that reaches it.
    ///
    /// Raises ``ValueError`` for an unsupported size, a bad value, a stone
    /// above an empty cell, stone counts that do not alternate, or a
    /// position no game reaches.
    #[staticmethod]
    fn from_rows(rows: Vec<Vec<i64>>) -> PyResult<Position> {
        Position::of_rows(&rows)
    }

    /// The position of a NumPy array (or anything ``numpy.asarray`` takes)
    /// of shape (rows, columns), **top row first**, 0 / 1 / 2 as in
    /// :meth:`from_rows`. Needs NumPy.
    #[staticmethod]
    fn from_numpy(array: &Bound<'_, PyAny>) -> PyResult<Position> {
        let rows = array
            .py()
            .import("c4._arrays")?
            .call_method1("rows_of", (array,))?
            .extract::<Vec<Vec<i64>>>()?;
        Position::of_rows(&rows)
    }

    /// The cells as a list of rows, **top row first**: 0 empty, 1 first
    /// player, 2 second player.
    fn rows(&self) -> Vec<Vec<u32>> {
        let game = &self.game;
        (0..game.height())
            .rev()
            .map(|row| {
                (0..game.width())
                    .map(|col| game.stone_at(col, row).map_or(0, player_value))
                    .collect()
            })
            .collect()
    }

    /// The cells as a NumPy array of ``int8``, shape (height, width), **top
    /// row first**: 0 empty, 1 first player, 2 second player. Needs NumPy.
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("c4._arrays")?
            .call_method1("to_numpy", (self.rows(),))
    }

    /// Number of columns.
    #[getter]
    fn width(&self) -> usize {
        self.game.width()
    }

    /// Number of rows.
    #[getter]
    fn height(&self) -> usize {
        self.game.height()
    }

    /// The moves that reached this position, as a move string (1-based
    /// columns). For a position made from a grid, a line that reaches it.
    #[getter]
    fn moves(&self) -> String {
        moves_to_string(&self.history)
    }

    /// The moves as a list of 1-based columns.
    #[getter]
    fn move_list(&self) -> Vec<usize> {
        self.history.iter().map(|c| c + 1).collect()
    }

    /// Number of stones on the board.
    #[getter]
    fn moves_played(&self) -> usize {
        self.game.moves_played()
    }

    /// The player to move: 1 (first player, ``X``) or 2 (second, ``O``).
    #[getter]
    fn side_to_move(&self) -> u32 {
        player_value(self.game.side_to_move())
    }

    /// Whether 1-based ``column`` is on the board and has room (the game
    /// may be over: see :meth:`legal_moves`).
    fn can_play(&self, column: i64) -> bool {
        self.column(column).is_ok_and(|col| self.game.can_play(col))
    }

    /// The 1-based columns that may be played: none once the game is over.
    fn legal_moves(&self) -> Vec<usize> {
        if self.game.is_game_over() {
            return Vec::new();
        }
        (0..self.game.width())
            .filter(|&col| self.game.can_play(col))
            .map(|col| col + 1)
            .collect()
    }

    /// The position after ``move``: a 1-based column (int), or a move string
    /// played from here. Raises ``ValueError`` if it cannot be played.
    fn play(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Position> {
        if let Ok(text) = r#move.cast::<PyString>() {
            let text = text.to_cow()?;
            let mut game = self.game;
            game.play_str(&text).map_err(value_error)?;
            let mut history = self.history.clone();
            let width = game.width();
            history.extend(
                text.trim()
                    .chars()
                    .filter_map(|ch| column_from_char(ch, width)),
            );
            return Ok(Position { game, history });
        }
        let column = r#move.extract::<i64>().map_err(|_| {
            PyTypeError::new_err("a move is a 1-based column (int) or a move string")
        })?;
        self.after(self.column(column)?)
    }

    /// Whether playing 1-based ``column`` connects four for the side to
    /// move (``False`` if it cannot be played).
    fn is_winning_move(&self, column: i64) -> bool {
        self.column(column).is_ok_and(|col| {
            !self.game.is_game_over() && self.game.can_play(col) && self.game.is_winning_move(col)
        })
    }

    /// Whether the side to move can connect four with its next move.
    fn can_win_next(&self) -> bool {
        !self.game.is_game_over() && self.game.can_win_next()
    }

    /// Whether the last move connected four.
    fn is_won(&self) -> bool {
        self.game.is_won()
    }

    /// Whether every cell is filled.
    fn is_full(&self) -> bool {
        self.game.is_full()
    }

    /// Whether the game is over: the last move connected four, or the
    /// board is full.
    fn is_game_over(&self) -> bool {
        self.game.is_game_over()
    }

    /// The player who connected four (1 or 2), or ``None``.
    fn winner(&self) -> Option<u32> {
        self.game
            .is_won()
            .then(|| player_value(self.game.side_to_move().other()))
    }

    /// This position with the columns reversed (its moves mirrored too).
    fn mirrored(&self) -> Position {
        let width = self.game.width();
        Position {
            game: self.game.mirrored(),
            history: self.history.iter().map(|c| width - 1 - c).collect(),
        }
    }

    /// The board drawn as ``c4`` draws it: top row first, column labels
    /// below, and whose turn it is.
    fn __str__(&self) -> String {
        self.game.to_string()
    }

    /// `Position('4453')`, with the board when it is not 7x6.
    fn __repr__(&self) -> String {
        let moves = self.moves();
        if self.game.board() == BoardSize::STANDARD {
            format!("Position('{moves}')")
        } else {
            format!(
                "Position('{moves}', width={}, height={})",
                self.game.width(),
                self.game.height()
            )
        }
    }

    /// Pickles as its moves and board.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let me = slf.get();
        let args = (me.moves(), me.game.width(), me.game.height());
        (slf.get_type(), args).into_pyobject(slf.py())
    }
}
