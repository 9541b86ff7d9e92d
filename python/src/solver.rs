//! `c4.Solver`: an engine of one board size with its table, opening book
//! and worker engines, solving positions given as move strings or
//! `c4.Position`s, with the GIL released and Ctrl-C heard.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

use c4::book::format::{Kind, read_header};
use c4::engine::{self, AnyBook, Engine};
use c4::input::{InputError, Line, ScoreKind, parse_line, parse_moves};
use c4::memory::{Need, book_bytes, solver_bytes};
use c4::parallel::WorkerPool;
use c4::solver::Interrupted;
use c4::{BoardSize, Game, Score};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::interrupt::{Stopped, run_stoppable};
use crate::position::{Position, board_size};
use crate::resources::{check_memory, table_size, thread_count};

/// The most bytes a book file may have (4 GiB), as for `c4 --book`: far
/// above any book `c4` builds.
const MAX_BOOK_FILE_BYTES: u64 = 1 << 32;

/// The most nodes `Solver.solve` searches on the caller's thread before it
/// hands the search to a thread it can interrupt: about a millisecond, the
/// longest a Ctrl-C then waits for.
const QUICK_SOLVE_NODES: u64 = 20_000;

/// The engines of a solver: its own, and the workers of `solve_many` on
/// several threads, kept between calls as its own table is.
pub(crate) struct Engines {
    /// The solver's engine.
    pub(crate) main: Box<dyn Engine>,
    /// One engine per thread of the last `solve_many(threads=N)`, N > 1.
    pool: Option<WorkerPool<Box<dyn Engine>>>,
}

/// A Connect Four solver for one board size.
///
/// It keeps its transposition table between calls (so related positions
/// solve faster one after the other) and uses c4's built-in opening book
/// by default. Positions are move strings (``"4453"``, 1-based columns,
/// blanks around them ignored, nothing inside but columns) or
/// :class:`Position` objects of the solver's board; ``solve_many`` also
/// takes test-set lines (``"4453 -2"``).
///
/// Scores are for the side to move: positive when it wins (the stones it
/// has left when it connects four, plus one), negative when it loses
/// (minus the opponent's), 0 for a draw.
///
/// Searches run with the GIL released, so other Python threads run, and
/// Ctrl-C (``KeyboardInterrupt``) stops them within a fraction of a
/// second. A solver serves one call at a time: use one solver per thread
/// (a call while another runs raises ``RuntimeError``).
///
/// Args:
///     width: columns (4 and up).
///     height: rows (4 and up); ``width * (height + 1) <= 128``.
///     table: transposition table size, bytes or text such as ``"64M"``,
///         ``"1G"`` (rounded down to a power of two).
///     book: ``"builtin"`` (c4's book, where it has one for the board),
///         ``None`` (no book), or the path of a book file.
///     threads: threads searching each position together (0: every core).
///
/// Raises ``MemoryError`` before allocating anything when the table does
/// not fit in the memory available, ``ValueError`` for an unsupported
/// board, a table too small for it, or a book that is not one.
#[pyclass(frozen, module = "c4", name = "Solver")]
pub struct Solver {
    /// The board.
    board: BoardSize,
    /// The table size asked for, in bytes.
    table_bytes: usize,
    /// The opening book, if any.
    book: Option<AnyBook>,
    /// How the book was named, for `repr`.
    book_name: String,
    /// The flag that stops every engine's interruptible searches.
    stop: Arc<AtomicBool>,
    /// The engines, one call at a time.
    engines: Mutex<Engines>,
}

/// What a solve asks for: the exact score, or only its sign.
#[derive(Clone, Copy)]
enum Depth {
    /// The exact score.
    Exact,
    /// Win (1), draw (0) or loss (-1).
    Weak,
}

impl Depth {
    /// `weak` as a depth.
    fn of(weak: bool) -> Depth {
        if weak { Depth::Weak } else { Depth::Exact }
    }

    /// The score of `game` on `engine`, unless the stop flag is raised.
    fn solve(self, engine: &mut dyn Engine, game: &Game) -> Result<Score, Interrupted> {
        match self {
            Depth::Exact => engine.try_solve(game),
            Depth::Weak => engine.try_solve_weak(game),
        }
    }
}

impl Solver {
    /// The engines, or a `RuntimeError` if another thread is using them.
    pub(crate) fn engines(&self) -> PyResult<MutexGuard<'_, Engines>> {
        match self.engines.try_lock() {
            Ok(guard) => Ok(guard),
            // A panic never happens while the lock is held (they are caught
            // inside), but a poisoned lock still guards valid engines.
            Err(TryLockError::Poisoned(poisoned)) => Ok(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(
                "this Solver is busy with a call from another thread; use one Solver per thread",
            )),
        }
    }

    /// The position `obj` names on this solver's board: a `Position`, or a
    /// str or bytes read as `c4` reads a position argument (a move string
    /// alone), or with `line` as it reads a line of stdin (`MOVES [SCORE]`,
    /// a score of that kind).
    pub(crate) fn game_of(
        &self,
        obj: &Bound<'_, PyAny>,
        line: Option<ScoreKind>,
    ) -> PyResult<Game> {
        if let Ok(position) = obj.cast::<Position>() {
            let game = position.get().game();
            if game.board() != self.board {
                return Err(PyValueError::new_err(format!(
                    "a position of the {} board given to a solver of the {} board",
                    game.board(),
                    self.board
                )));
            }
            return Ok(game);
        }
        let read = |bytes: &[u8]| -> PyResult<Game> {
            let error = |e: InputError| PyValueError::new_err(e.to_string());
            match line {
                None => parse_moves(self.board, bytes)
                    .map(|(_, game)| game)
                    .map_err(error),
                Some(kind) => match parse_line(self.board, kind, bytes).map_err(error)? {
                    Line::Position { position, .. } => Ok(position),
                    Line::Comment(_) => Err(PyValueError::new_err(
                        "a comment line (it starts with '#') is no position",
                    )),
                },
            }
        };
        if let Ok(text) = obj.cast::<PyString>() {
            read(text.to_cow()?.as_bytes())
        } else if let Ok(bytes) = obj.cast::<PyBytes>() {
            read(bytes.as_bytes())
        } else {
            Err(PyTypeError::new_err(format!(
                "a position is a move string or a c4.Position, not {}",
                obj.get_type().name()?
            )))
        }
    }

    /// Runs `job` on the engines off this thread (see [`run_stoppable`]).
    /// A job stopped by Ctrl-C raises `KeyboardInterrupt`; a job that
    /// panicked leaves the engines reset and raises `RuntimeError`.
    pub(crate) fn run<T: Send>(
        &self,
        py: Python<'_>,
        engines: &mut Engines,
        job: impl FnOnce(&mut Engines) -> Result<T, Interrupted> + Send,
    ) -> PyResult<T> {
        match run_stoppable(py, &self.stop, || job(engines)) {
            Ok(Ok(value)) => Ok(value),
            // Only a signal raises the flag, and then run_stoppable says so.
            Ok(Err(Interrupted)) => Err(PyKeyboardInterrupt::new_err(())),
            Err(Stopped::Panic(e)) => {
                engines.main.clear();
                engines.pool = None;
                Err(e)
            }
            Err(stopped @ Stopped::Signal(_)) => Err(stopped.into()),
        }
    }

    /// A pool of `threads` engines of one search thread each, for
    /// `solve_many`, after checking that their tables fit.
    fn make_pool(&self, threads: usize) -> PyResult<WorkerPool<Box<dyn Engine>>> {
        let need = Need {
            solvers: threads,
            per_solver: solver_bytes(self.table_bytes, self.board.key_bits(), 1),
            ..Need::default()
        };
        check_memory(&need, "lower threads or the table size")?;
        let pool = WorkerPool::new(threads, || {
            let mut engine = engine::new(self.board, self.table_bytes)?;
            engine
                .set_book(self.book.clone())
                .expect("the book is of the solver's board");
            engine.set_stop_flag(Some(Arc::clone(&self.stop)));
            Ok(engine)
        })
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(pool)
    }
}

/// The book `book` names for `board`, and its name for `repr`.
fn load_book(board: BoardSize, book: Option<&BookArg>) -> PyResult<(Option<AnyBook>, String)> {
    let path = match book {
        None => return Ok((None, "None".to_owned())),
        Some(BookArg::Builtin) => {
            return match AnyBook::builtin(board) {
                None => Ok((None, "'builtin'".to_owned())),
                Some(Ok(book)) => Ok((Some(book), "'builtin'".to_owned())),
                Some(Err(e)) => Err(PyRuntimeError::new_err(format!(
                    "the built-in book is broken: {e}"
                ))),
            };
        }
        Some(BookArg::File(path)) => path,
    };
    let name = path.display().to_string();
    let cannot = |e: std::io::Error| PyValueError::new_err(format!("cannot read {name}: {e}"));
    let size = std::fs::metadata(path).map_err(cannot)?.len();
    if size > MAX_BOOK_FILE_BYTES {
        return Err(PyValueError::new_err(format!(
            "{name}: {size} bytes, more than a book file may have ({MAX_BOOK_FILE_BYTES})"
        )));
    }
    let need = Need {
        book: book_bytes(size as usize, None, board.word_bytes()),
        ..Need::default()
    };
    check_memory(&need, "this book is too big for this machine")?;
    let bytes = std::fs::read(path).map_err(cannot)?;
    let book = AnyBook::decode(board, &bytes)
        .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
    if let Kind::Part { index, count } = book.kind() {
        return Err(PyValueError::new_err(format!(
            "{name} is part {index} of {count} of a sharded book; join the parts with `c4 book merge`"
        )));
    }
    Ok((Some(book), format!("{name:?}")))
}

/// The memory the built-in book of `board` takes while it loads (0 if it
/// has none), as `c4` counts it.
fn builtin_book_bytes(board: BoardSize) -> usize {
    if board != BoardSize::STANDARD {
        return 0;
    }
    let bytes = c4::book::builtin::BOOK_7X6;
    let entries = read_header(bytes).map_or(bytes.len() / 2, |h| h.entries as usize);
    book_bytes(0, Some(entries), board.word_bytes())
}

#[pymethods]
impl Solver {
    /// A solver; the arguments are the class documentation's.
    #[new]
    #[pyo3(
        signature = (width = 7, height = 6, *, table = None, book = Some(BookArg::Builtin), threads = 1),
        text_signature = "(width=7, height=6, *, table='64M', book='builtin', threads=1)"
    )]
    fn new(
        width: usize,
        height: usize,
        table: Option<&Bound<'_, PyAny>>,
        book: Option<BookArg>,
        threads: usize,
    ) -> PyResult<Solver> {
        let board = board_size(width, height)?;
        let table_bytes = match table {
            Some(table) => table_size(table)?,
            None => c4::settings::DEFAULT_TABLE_BYTES,
        };
        let threads = thread_count(threads)?;
        let per_solver = solver_bytes(table_bytes, board.key_bits(), threads);
        if per_solver == 0 {
            // Too small for this board: the engine says by how much.
            let e = engine::new(board, table_bytes).err();
            return Err(PyValueError::new_err(e.map_or_else(
                || "the table is too small for this board".to_owned(),
                |e| e.to_string(),
            )));
        }
        let need = Need {
            solvers: 1,
            per_solver,
            book: match book {
                Some(BookArg::Builtin) => builtin_book_bytes(board),
                _ => 0,
            },
            ..Need::default()
        };
        check_memory(&need, "lower the table size or threads")?;
        let (book, book_name) = load_book(board, book.as_ref())?;
        let mut main =
            engine::new(board, table_bytes).map_err(|e| PyValueError::new_err(e.to_string()))?;
        main.set_threads(threads);
        main.set_book(book.clone())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let stop = Arc::new(AtomicBool::new(false));
        main.set_stop_flag(Some(Arc::clone(&stop)));
        Ok(Solver {
            board,
            table_bytes,
            book,
            book_name,
            stop,
            engines: Mutex::new(Engines { main, pool: None }),
        })
    }

    /// Number of columns.
    #[getter]
    fn width(&self) -> usize {
        self.board.width()
    }

    /// Number of rows.
    #[getter]
    fn height(&self) -> usize {
        self.board.height()
    }

    /// Bytes of the transposition table (the size asked, rounded down).
    #[getter]
    fn table_bytes(&self) -> PyResult<usize> {
        Ok(self.engines()?.main.table_bytes())
    }

    /// Threads searching each position together.
    #[getter]
    fn threads(&self) -> PyResult<usize> {
        Ok(self.engines()?.main.threads())
    }

    /// Whether the solver has an opening book (the built-in book exists for
    /// some boards only).
    #[getter]
    fn has_book(&self) -> bool {
        self.book.is_some()
    }

    /// Nodes searched since the solver was made or :meth:`reset_node_count`,
    /// by its own engine and the workers of :meth:`solve_many`.
    #[getter]
    fn node_count(&self) -> PyResult<u64> {
        let mut engines = self.engines()?;
        let mut nodes = engines.main.node_count();
        if let Some(pool) = engines.pool.take() {
            let states = pool.into_states();
            nodes += states.iter().map(|e| e.node_count()).sum::<u64>();
            engines.pool = Some(rebuild_pool(states)?);
        }
        Ok(nodes)
    }

    /// Sets the node count back to zero.
    fn reset_node_count(&self) -> PyResult<()> {
        let mut engines = self.engines()?;
        engines.main.reset_node_count();
        if let Some(pool) = engines.pool.take() {
            let mut states = pool.into_states();
            states.iter_mut().for_each(|e| e.reset_node_count());
            engines.pool = Some(rebuild_pool(states)?);
        }
        Ok(())
    }

    /// Forgets everything the tables learnt (instant), so that the next
    /// search does not depend on the ones before.
    fn clear(&self) -> PyResult<()> {
        let mut engines = self.engines()?;
        engines.main.clear();
        if let Some(pool) = engines.pool.take() {
            let mut states = pool.into_states();
            states.iter_mut().for_each(|e| e.clear());
            engines.pool = Some(rebuild_pool(states)?);
        }
        Ok(())
    }

    /// The score of ``position`` for the side to move (see the class
    /// documentation); with ``weak=True`` only its sign: 1 win, 0 draw,
    /// -1 loss (faster).
    #[pyo3(signature = (position, *, weak = false))]
    fn solve(&self, py: Python<'_>, position: &Bound<'_, PyAny>, weak: bool) -> PyResult<Score> {
        let game = self.game_of(position, None)?;
        let depth = Depth::of(weak);
        let mut engines = self.engines()?;
        if let Depth::Exact = depth {
            // Most positions of a game's middle and end take a few thousand
            // nodes: solved here, they cost no hand-over to the search
            // thread (milliseconds on a loaded machine). Of a position
            // that needs more, the subtrees searched to the end keep their
            // bounds in the table for the search that follows.
            let main = engines.main.as_mut();
            if let Some(score) = py.detach(|| main.solve_within(&game, QUICK_SOLVE_NODES)) {
                return Ok(score);
            }
        }
        self.run(py, &mut engines, |engines| {
            depth.solve(engines.main.as_mut(), &game)
        })
    }

    /// The score of each column for the side to move, column 1 first:
    /// the score of the position after that move, from the mover's side;
    /// ``None`` for a full column (every column once the game is over).
    /// The best of them is the position's score.
    fn analyze(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<Vec<Option<Score>>> {
        let game = self.game_of(position, None)?;
        let mut engines = self.engines()?;
        self.run(py, &mut engines, |engines| {
            let engine = engines.main.as_mut();
            (0..game.width())
                .map(|col| column_score(engine, &game, col))
                .collect()
        })
    }

    /// A best move (1-based column) for the side to move, the centre-most
    /// among equals; ``None`` once the game is over.
    fn best_move(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        let game = self.game_of(position, None)?;
        let mut engines = self.engines()?;
        self.run(py, &mut engines, |engines| {
            Ok(best_move(engines.main.as_mut(), &game)?.map(|col| col + 1))
        })
    }

    /// The principal variation: a perfect-play line from ``position`` to
    /// the end of the game, as 1-based columns (``"".join`` of
    /// ``str`` them is a move string on boards up to 9 wide). Both sides
    /// play :meth:`best_move`; the game ends on the move the score
    /// predicts. Empty once the game is over.
    fn pv(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        let mut game = self.game_of(position, None)?;
        let mut engines = self.engines()?;
        self.run(py, &mut engines, |engines| {
            let mut line = Vec::new();
            while let Some(col) = best_move(engines.main.as_mut(), &game)? {
                line.push(col + 1);
                game.play_col(col);
            }
            Ok(line)
        })
    }

    /// The scores of ``positions`` (any iterable of move strings or
    /// :class:`Position` objects; lines of a test set, ``"4453 -2"``, are
    /// read as ``c4 solve`` reads its stdin: the score must be one the
    /// position can have, then it is ignored), in input order. Every position is read before
    /// any is solved: a bad one raises ``ValueError`` naming it as
    /// ``line N`` (1-based) and the character at fault.
    ///
    /// Args:
    ///     weak: only the sign of each score.
    ///     threads: positions solved at once, each thread on an engine of
    ///         its own (with a table of the solver's size, kept for the
    ///         next call); 1 solves them one after the other on this
    ///         solver, with its own search threads; 0 uses every core.
    ///     clear: forget the table before each position, so that each
    ///         score costs what it costs alone (as ``c4 bench`` does).
    #[pyo3(signature = (positions, *, weak = false, threads = 1, clear = false))]
    fn solve_many(
        &self,
        py: Python<'_>,
        positions: &Bound<'_, PyAny>,
        weak: bool,
        threads: usize,
        clear: bool,
    ) -> PyResult<Vec<Score>> {
        let mut games = Vec::new();
        for (index, item) in positions.try_iter()?.enumerate() {
            let kind = if weak {
                ScoreKind::Weak
            } else {
                ScoreKind::Exact
            };
            let game = self.game_of(&item?, Some(kind)).map_err(|e| {
                let kind = e.get_type(py);
                PyErr::from_type(kind, format!("line {}: {}", index + 1, e.value(py)))
            })?;
            games.push(game);
        }
        let threads = thread_count(threads)?;
        let depth = Depth::of(weak);
        let mut engines = self.engines()?;
        if threads == 1 {
            return self.run(py, &mut engines, |engines| {
                let engine = engines.main.as_mut();
                games
                    .iter()
                    .map(|game| {
                        if clear {
                            engine.clear();
                        }
                        depth.solve(engine, game)
                    })
                    .collect()
            });
        }
        if engines
            .pool
            .as_ref()
            .is_none_or(|pool| pool.threads() != threads)
        {
            engines.pool = None;
            engines.pool = Some(self.make_pool(threads)?);
        }
        self.run(py, &mut engines, |engines| {
            let pool = engines.pool.as_ref().expect("the pool was made above");
            pool.map(&games, |engine, game| {
                if clear {
                    engine.clear();
                }
                depth.solve(engine.as_mut(), game)
            })
            .into_iter()
            .collect()
        })
    }

    /// The review of ``game`` move by move against perfect play (see
    /// :class:`Review`): a move string, a :class:`Position` (the moves that
    /// reached it) or a sequence of 1-based columns, from the empty board.
    /// With ``weak=True`` only win, draw or loss are judged (faster). A game
    /// that does not replay raises ``ValueError`` naming the move.
    #[pyo3(signature = (game, *, weak = false))]
    fn review(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        weak: bool,
    ) -> PyResult<crate::review::Review> {
        let line = crate::review::game_line(self.board, game)?;
        let board = self.board;
        let mut engines = self.engines()?;
        let judged = self.run(py, &mut engines, |engines| {
            review_on(engines.main.as_mut(), board, &line, weak)
        })?;
        crate::review::to_python(py, board, &judged)
    }

    /// The reviews of ``games`` (any iterable of what :meth:`review`
    /// takes), in input order. Every game is read before any is reviewed:
    /// one that does not replay raises ``ValueError`` naming it as ``game
    /// N`` (1-based) and the move at fault. ``threads`` games are reviewed
    /// at once, each on an engine of its own (kept for the next call, as
    /// :meth:`solve_many` keeps them); 0 uses every core.
    #[pyo3(signature = (games, *, weak = false, threads = 1))]
    fn review_many(
        &self,
        py: Python<'_>,
        games: &Bound<'_, PyAny>,
        weak: bool,
        threads: usize,
    ) -> PyResult<Vec<crate::review::Review>> {
        let mut lines = Vec::new();
        for (index, item) in games.try_iter()?.enumerate() {
            let line = crate::review::game_line(self.board, &item?).map_err(|e| {
                let kind = e.get_type(py);
                PyErr::from_type(kind, format!("game {}: {}", index + 1, e.value(py)))
            })?;
            lines.push(line);
        }
        let threads = thread_count(threads)?;
        let board = self.board;
        let mut engines = self.engines()?;
        let judged = if threads == 1 {
            self.run(py, &mut engines, |engines| {
                let engine = engines.main.as_mut();
                lines
                    .iter()
                    .map(|line| review_on(engine, board, line, weak))
                    .collect::<Result<Vec<_>, _>>()
            })?
        } else {
            if engines
                .pool
                .as_ref()
                .is_none_or(|pool| pool.threads() != threads)
            {
                engines.pool = None;
                engines.pool = Some(self.make_pool(threads)?);
            }
            self.run(py, &mut engines, |engines| {
                let pool = engines.pool.as_ref().expect("the pool was made above");
                pool.map(&lines, |engine, line| {
                    review_on(engine.as_mut(), board, line, weak)
                })
                .into_iter()
                .collect::<Result<Vec<_>, _>>()
            })?
        };
        judged
            .iter()
            .map(|r| crate::review::to_python(py, board, r))
            .collect()
    }

    /// `Solver(width=7, height=6, table=67108864, book='builtin')`.
    fn __repr__(&self) -> String {
        format!(
            "Solver(width={}, height={}, table={}, book={})",
            self.board.width(),
            self.board.height(),
            self.table_bytes,
            self.book_name
        )
    }
}

/// The pool of `states` again, after reading or resetting them.
fn rebuild_pool(states: Vec<Box<dyn Engine>>) -> PyResult<WorkerPool<Box<dyn Engine>>> {
    let threads = states.len();
    let mut states = states.into_iter();
    WorkerPool::new(threads, || Ok(states.next().expect("one state per thread")))
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// The score of playing 0-based `col` in `game`, for the side to move, as
/// `Engine::column_score` gives it, but stopped by the stop flag: `None`
/// for a full column or a finished game.
fn column_score(
    engine: &mut dyn Engine,
    game: &Game,
    col: usize,
) -> Result<Option<Score>, Interrupted> {
    if game.is_game_over() || !game.can_play(col) {
        return Ok(None);
    }
    if game.is_winning_move(col) {
        return Ok(Some(game.win_next_score()));
    }
    Ok(Some(-engine.try_solve(&game.after(col))?))
}

/// The review of `line` (checked to replay) on `engine`, stopped by the
/// stop flag.
fn review_on(
    engine: &mut dyn Engine,
    board: BoardSize,
    line: &str,
    weak: bool,
) -> Result<c4::review::Review, Interrupted> {
    c4::review::try_review(engine, board, line, weak).map_err(|e| match e {
        c4::review::ReviewError::Interrupted => Interrupted,
        e => unreachable!("a game checked to replay does not: {e}"),
    })
}

/// A best move of `game` (0-based), `None` once it is over: the score is
/// solved first with the stop flag heard (the bulk of the work), then
/// `Engine::best_move` picks the move from what the table learnt.
fn best_move(engine: &mut dyn Engine, game: &Game) -> Result<Option<usize>, Interrupted> {
    if game.is_game_over() {
        return Ok(None);
    }
    engine.try_solve(game)?;
    Ok(engine.best_move(game).map(|(col, _)| col))
}

/// The `book` argument of `Solver()`: `"builtin"` (the default) or the
/// path of a book file (`None`, no book, is the `Option` around it).
pub enum BookArg {
    /// c4's built-in book for the board, if it has one.
    Builtin,
    /// A book file.
    File(PathBuf),
}

impl<'py> FromPyObject<'_, 'py> for BookArg {
    type Error = PyErr;
    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(text) = obj.cast::<PyString>()
            && text.to_cow()? == "builtin"
        {
            return Ok(BookArg::Builtin);
        }
        obj.extract::<PathBuf>().map(BookArg::File).map_err(|_| {
            PyTypeError::new_err("book must be None, \"builtin\" or the path of a book file")
        })
    }
}
