//! The solver of the npm package (`npm/`): a [`Solver`] of one board with
//! its table and the built-in book, whose methods take move strings and
//! throw JavaScript `Error`s with the messages the command line prints.
//! `npm/src/` wraps it in the package's functions and classes.
//!
//! A new call is one method here and one line in each of `npm/src/`'s
//! wrappers (the `Solver` class, the module functions, the worker's table
//! of methods and its types).

use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::{JsError, wasm_bindgen};

use c4::input::parse_moves;
use c4::memory::parse_size;
use c4::{AnyBook, BoardSize, Engine, Game, Score};

/// The most a table may take: a WebAssembly module addresses 4 GiB in all.
pub const MAX_TABLE_BYTES: usize = 1 << 30;

/// A solver of one board size (exported to JavaScript as `RawSolver`; the
/// package's `Solver` class holds one).
#[wasm_bindgen(js_name = RawSolver)]
pub struct Solver {
    /// The engine of the board, with the book when asked for.
    engine: Box<dyn Engine>,
    /// Whether the engine has a book.
    book: bool,
}

#[wasm_bindgen(js_class = RawSolver)]
impl Solver {
    /// A solver of `width` x `height` whose table takes `table` (bytes, or
    /// text such as `64M`; empty for the default: 32 MiB, or the least the
    /// board needs when that is more), with the built-in book when `book`
    /// and the board has one (7x6).
    #[wasm_bindgen(constructor)]
    pub fn new(width: usize, height: usize, table: &str, book: bool) -> Result<Solver, JsError> {
        let board = BoardSize::new(width, height).map_err(|e| JsError::new(&e.to_string()))?;
        let table_bytes = if table.trim().is_empty() {
            crate::solver_table_bytes(board)
        } else {
            parse_size(table).map_err(|e| JsError::new(&format!("table: {e}")))?
        };
        if table_bytes > MAX_TABLE_BYTES {
            return Err(JsError::new(&format!(
                "table: {table_bytes} bytes is more than the {MAX_TABLE_BYTES} bytes a table may take \
                 in WebAssembly (4 GiB addressed in all)"
            )));
        }
        let mut engine =
            c4::engine::new(board, table_bytes).map_err(|e| JsError::new(&e.to_string()))?;
        let mut has_book = false;
        if book && let Some(found) = AnyBook::builtin(board) {
            let found =
                found.map_err(|e| JsError::new(&format!("the built-in book is broken: {e}")))?;
            engine
                .set_book(Some(found))
                .map_err(|e| JsError::new(&e.to_string()))?;
            has_book = true;
        }
        Ok(Solver {
            engine,
            book: has_book,
        })
    }

    /// Columns of the board.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> usize {
        self.engine.board().width()
    }

    /// Rows of the board.
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> usize {
        self.engine.board().height()
    }

    /// Bytes of the table (the size asked for, rounded down to a power of two).
    #[wasm_bindgen(getter = tableBytes)]
    pub fn table_bytes(&self) -> usize {
        self.engine.table_bytes()
    }

    /// Whether the solver answers from the built-in book.
    #[wasm_bindgen(getter = hasBook)]
    pub fn has_book(&self) -> bool {
        self.book
    }

    /// Nodes searched since the solver was made or the count was reset.
    #[wasm_bindgen(getter = nodeCount)]
    pub fn node_count(&self) -> f64 {
        // Exact up to 2^53 nodes, years of searching.
        self.engine.node_count() as f64
    }

    /// Sets the node count back to zero.
    #[wasm_bindgen(js_name = resetNodeCount)]
    pub fn reset_node_count(&mut self) {
        self.engine.reset_node_count();
    }

    /// Forgets what the table learnt.
    pub fn clear(&mut self) {
        self.engine.clear();
    }

    /// The score of `moves` for the side to move; with `weak` only its
    /// sign (1 win, 0 draw, -1 loss).
    pub fn solve(&mut self, moves: &str, weak: bool) -> Result<Score, JsError> {
        let game = self.game(moves)?;
        Ok(if weak {
            self.engine.solve_weak(&game)
        } else {
            self.engine.solve(&game)
        })
    }

    /// Each column's score for the side to move, column 1 first: a number,
    /// or `null` for a full column (every column once the game is over).
    pub fn analyze(&mut self, moves: &str) -> Result<Vec<JsValue>, JsError> {
        let game = self.game(moves)?;
        Ok(self
            .engine
            .analyze(&game)
            .into_iter()
            .map(|score| score.map_or(JsValue::NULL, JsValue::from))
            .collect())
    }

    /// A best move (1-based column), the centre-most among equals;
    /// `undefined` once the game is over.
    #[wasm_bindgen(js_name = bestMove)]
    pub fn best_move(&mut self, moves: &str) -> Result<Option<usize>, JsError> {
        let game = self.game(moves)?;
        Ok(self.engine.best_move(&game).map(|(col, _)| col + 1))
    }

    /// A perfect-play line to the end of the game (1-based columns), both
    /// sides playing [`best_move`](Self::best_move); empty once the game is
    /// over.
    pub fn pv(&mut self, moves: &str) -> Result<Vec<usize>, JsError> {
        let game = self.game(moves)?;
        Ok(self
            .engine
            .principal_variation(&game)
            .into_iter()
            .map(|col| col + 1)
            .collect())
    }

    /// The review of the game `game` (columns played from the empty board,
    /// e.g. `4455443`): every move judged against perfect play, as JSON
    /// (the library's [`c4::review::Review`], which `npm/src/core.mjs`
    /// parses); with `weak` only the scores' signs. An illegal game is an
    /// error naming the move (`move 3: '8' is not a column (1-7)`).
    pub fn review(&mut self, game: &str, weak: bool) -> Result<String, JsError> {
        let board = self.engine.board();
        let review = c4::review::review(self.engine.as_mut(), board, game, weak)
            .map_err(|e| JsError::new(&e.to_string()))?;
        Ok(serde_json::to_string(&review).expect("a review is JSON"))
    }
}

impl Solver {
    /// The position the move string `moves` reaches on the solver's board,
    /// read as the command line reads a position argument (columns only,
    /// blanks around them ignored); the error is the command line's message.
    fn game(&self, moves: &str) -> Result<Game, JsError> {
        parse_moves(self.engine.board(), moves.as_bytes())
            .map(|(_, game)| game)
            .map_err(|e| JsError::new(&e.to_string()))
    }
}
