//! [`Engine`]: a solver for a board size chosen at run time.
//!
//! [`Solver<W, H, B>`](crate::Solver) is compiled once per board size, and
//! that is all that needs to be: an `Engine` is that solver behind a trait
//! object, taking [`Game`]s, so the code that drives it (the commands, the
//! server, the Python module) is compiled once for every size. A call
//! through the trait costs a few nanoseconds, nothing beside a search.
//!
//! ```
//! use c4::{BoardSize, Game, engine};
//! let board = BoardSize::STANDARD;
//! let mut solver = engine::new(board, 1 << 20).unwrap();
//! let game = Game::parse(board, "4453").unwrap();
//! assert_eq!(solver.solve(&game), -2);
//! assert_eq!(solver.solve_weak(&game), -1);
//! ```

use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use thiserror::Error;

use crate::Bitboard;
use crate::board::{BoardSize, for_board};
use crate::book::Book;
use crate::book::builtin;
use crate::book::format::{self, FormatError, Kind, RawBook};
use crate::game::Game;
use crate::rules::Score;
use crate::solver::table::TableError;
use crate::solver::{Interrupted, InvalidSeed, Progress, Solver};

/// A solver of one board size; every method is [`Solver`]'s of the same
/// name, on the fixed-size position a [`Game`] stands for. A game of
/// another board size is a bug in the caller and panics.
pub trait Engine: Send {
    /// The board this engine solves.
    fn board(&self) -> BoardSize;
    /// See [`Solver::solve`].
    fn solve(&mut self, game: &Game) -> Score;
    /// See [`Solver::try_solve`].
    fn try_solve(&mut self, game: &Game) -> Result<Score, Interrupted>;
    /// See [`Solver::solve_weak`].
    fn solve_weak(&mut self, game: &Game) -> Score;
    /// See [`Solver::try_solve_weak`].
    fn try_solve_weak(&mut self, game: &Game) -> Result<Score, Interrupted>;
    /// See [`Solver::solve_in`]: **a wrong bound gives a wrong score.**
    fn solve_in(&mut self, game: &Game, min: Score, max: Score) -> Score;
    /// See [`Solver::seed`]: **a wrong bound gives a wrong score.**
    fn seed(&mut self, game: &Game, lower: Score, upper: Score) -> Result<(), InvalidSeed>;
    /// See [`Solver::solve_within`].
    fn solve_within(&mut self, game: &Game, max_nodes: u64) -> Option<Score>;
    /// See [`Solver::score_at_least`].
    fn score_at_least(&mut self, game: &Game, bound: Score) -> bool;
    /// See [`Solver::column_score`].
    fn column_score(&mut self, game: &Game, col: usize) -> Option<Score>;
    /// See [`Solver::analyze`].
    fn analyze(&mut self, game: &Game) -> Vec<Option<Score>>;
    /// See [`Solver::best_move`].
    fn best_move(&mut self, game: &Game) -> Option<(usize, Score)>;
    /// See [`Solver::principal_variation`].
    fn principal_variation(&mut self, game: &Game) -> Vec<usize>;
    /// See [`Solver::set_threads`].
    fn set_threads(&mut self, threads: usize);
    /// See [`Solver::threads`].
    fn threads(&self) -> usize;
    /// See [`Solver::set_book`]. A book of another board size is refused.
    fn set_book(&mut self, book: Option<AnyBook>) -> Result<(), WrongBoard>;
    /// See [`Solver::set_stop_flag`].
    fn set_stop_flag(&mut self, flag: Option<Arc<AtomicBool>>);
    /// See [`Solver::set_progress`].
    fn set_progress(&mut self, progress: Option<Arc<Progress>>);
    /// See [`Solver::clear`].
    fn clear(&mut self);
    /// See [`Solver::node_count`].
    fn node_count(&self) -> u64;
    /// See [`Solver::reset_node_count`].
    fn reset_node_count(&mut self);
    /// See [`Solver::table_bytes`].
    fn table_bytes(&self) -> usize;
}

/// A solver for `board` whose table takes at most `table_bytes` bytes (see
/// [`Solver::with_table_bytes`]).
pub fn new(board: BoardSize, table_bytes: usize) -> Result<Box<dyn Engine>, TableError> {
    for_board!(board, Result<Box<dyn Engine>, TableError>, with (bytes: usize = table_bytes),
        <W, H, B> Ok(Box::new(Solver::<W, H, B>::with_table_bytes(bytes)?)))
}

/// A book handed to an engine of another board size.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("a book of the {book} board cannot serve a {engine} solver")]
pub struct WrongBoard {
    /// The book's board.
    pub book: BoardSize,
    /// The engine's board.
    pub engine: BoardSize,
}

impl<const W: usize, const H: usize, B: Bitboard> Engine for Solver<W, H, B> {
    fn board(&self) -> BoardSize {
        BoardSize::of::<W, H>()
    }
    fn solve(&mut self, game: &Game) -> Score {
        Solver::solve(self, &game.fixed())
    }
    fn try_solve(&mut self, game: &Game) -> Result<Score, Interrupted> {
        Solver::try_solve(self, &game.fixed())
    }
    fn solve_weak(&mut self, game: &Game) -> Score {
        Solver::solve_weak(self, &game.fixed())
    }
    fn try_solve_weak(&mut self, game: &Game) -> Result<Score, Interrupted> {
        Solver::try_solve_weak(self, &game.fixed())
    }
    fn solve_in(&mut self, game: &Game, min: Score, max: Score) -> Score {
        Solver::solve_in(self, &game.fixed(), min, max)
    }
    fn seed(&mut self, game: &Game, lower: Score, upper: Score) -> Result<(), InvalidSeed> {
        Solver::seed(self, &game.fixed(), lower, upper)
    }
    fn solve_within(&mut self, game: &Game, max_nodes: u64) -> Option<Score> {
        Solver::solve_within(self, &game.fixed(), max_nodes)
    }
    fn score_at_least(&mut self, game: &Game, bound: Score) -> bool {
        Solver::score_at_least(self, &game.fixed(), bound)
    }
    fn column_score(&mut self, game: &Game, col: usize) -> Option<Score> {
        Solver::column_score(self, &game.fixed(), col)
    }
    fn analyze(&mut self, game: &Game) -> Vec<Option<Score>> {
        Solver::analyze(self, &game.fixed())
    }
    fn best_move(&mut self, game: &Game) -> Option<(usize, Score)> {
        Solver::best_move(self, &game.fixed())
    }
    fn principal_variation(&mut self, game: &Game) -> Vec<usize> {
        Solver::principal_variation(self, &game.fixed())
    }
    fn set_threads(&mut self, threads: usize) {
        Solver::set_threads(self, threads)
    }
    fn threads(&self) -> usize {
        Solver::threads(self)
    }
    fn set_book(&mut self, book: Option<AnyBook>) -> Result<(), WrongBoard> {
        let book = book.map(|book| book.fixed::<W, H, B>()).transpose()?;
        Solver::set_book(self, book);
        Ok(())
    }
    fn set_stop_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        Solver::set_stop_flag(self, flag)
    }
    fn set_progress(&mut self, progress: Option<Arc<Progress>>) {
        Solver::set_progress(self, progress)
    }
    fn clear(&mut self) {
        Solver::clear(self)
    }
    fn node_count(&self) -> u64 {
        Solver::node_count(self)
    }
    fn reset_node_count(&mut self) {
        Solver::reset_node_count(self)
    }
    fn table_bytes(&self) -> usize {
        Solver::table_bytes(self)
    }
}

/// An opening book of a board chosen at run time: a [`Book<W, H, B>`]
/// behind a shared pointer, cheap to clone, handed to [`Engine::set_book`].
#[derive(Clone)]
pub struct AnyBook {
    /// The book's board.
    board: BoardSize,
    /// The most stones an entry has.
    depth: usize,
    /// Whole book, or one part of a sharded one.
    kind: Kind,
    /// Number of entries.
    len: usize,
    /// The `Arc<Book<W, H, B>>` of `board`.
    book: Arc<dyn Any + Send + Sync>,
}

impl std::fmt::Debug for AnyBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnyBook")
            .field("board", &self.board)
            .field("depth", &self.depth)
            .field("kind", &self.kind)
            .field("len", &self.len)
            .finish()
    }
}

/// Runs `$body` on the typed [`Book<W, H, B>`] that `$any` holds, bound to
/// `$book`, giving a value of type `$out` (see [`for_board!`]).
macro_rules! on_typed {
    ($any:expr, $out:ty, with ($($name:ident: $ty:ty = $value:expr),*), |$book:ident| $body:expr) => {{
        let any: &AnyBook = $any;
        for_board!(any.board, $out, with (any: &'b AnyBook = any $(, $name: $ty = $value)*),
            <W, H, B> {
                let $book = any.typed::<W, H, B>();
                $body
            })
    }};
}

impl AnyBook {
    /// Decodes a book file of `board`, checking everything (see
    /// [`Book::decode`]).
    pub fn decode(board: BoardSize, bytes: &[u8]) -> Result<AnyBook, FormatError> {
        for_board!(board, Result<AnyBook, FormatError>, with (bytes: &'b [u8] = bytes),
            <W, H, B> Book::<W, H, B>::decode(bytes).map(AnyBook::from))
    }

    /// The book built into `c4` for `board`, if it has one (see
    /// [`builtin::builtin`]).
    pub fn builtin(board: BoardSize) -> Option<Result<AnyBook, FormatError>> {
        for_board!(board, Option<Result<AnyBook, FormatError>>, with (), <W, H, B> {
            builtin::builtin::<W, H, B>().map(|book| book.map(AnyBook::from))
        })
    }

    /// The board the book is for.
    pub fn board(&self) -> BoardSize {
        self.board
    }

    /// The most stones an entry has.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Whole book, or one part of a sharded one.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A book of `board` holding `entries` (symmetric keys and scores, in
    /// any order), each checked as by [`Book::new`]; whether the scores agree
    /// with each other is [`AnyBook::check_consistency`]'s business.
    pub fn from_entries(
        board: BoardSize,
        depth: usize,
        kind: Kind,
        entries: Vec<(u128, Score)>,
    ) -> Result<AnyBook, FormatError> {
        let raw = format::raw_book(board, depth, kind, entries)?;
        Ok(for_board!(board, AnyBook, with (raw: RawBook = raw),
            <W, H, B> AnyBook::from(Book::<W, H, B>::from_checked(raw))))
    }

    /// The book as a file (see [`Book::encode`]).
    pub fn encode(&self) -> Vec<u8> {
        on_typed!(self, Vec<u8>, with(), |book| book.encode())
    }

    /// The entries, (symmetric key, score), by increasing key.
    pub fn entries(&self) -> Vec<(u128, Score)> {
        on_typed!(self, Vec<(u128, Score)>, with(), |book| book
            .entries()
            .map(|(key, score)| (key.to_u128(), score))
            .collect())
    }

    /// The exact score of `game`, if the book has it (see [`Book::get`]).
    /// A game of another board is a bug in the caller and panics.
    pub fn get(&self, game: &Game) -> Option<Score> {
        on_typed!(self, Option<Score>, with (game: &'b Game = game), |book| book
            .get(&game.fixed()))
    }

    /// A lower bound on the score of `game` from the parents the book holds
    /// (see [`Book::lower_bound_from_parents`]). A game of another board is
    /// a bug in the caller and panics.
    pub fn lower_bound_from_parents(&self, game: &Game) -> Option<Score> {
        on_typed!(self, Option<Score>, with (game: &'b Game = game), |book| book
            .lower_bound_from_parents(&game.fixed()))
    }

    /// Checks that the scores agree with each other (see
    /// [`check_consistency`](crate::book::consistency::check_consistency)).
    pub fn check_consistency(&self) -> Result<(), FormatError> {
        on_typed!(self, Result<(), FormatError>, with (), |book| {
            crate::book::consistency::check_consistency(book)
        })
    }

    /// The typed book held, which is of `W` x `H`: only called through
    /// [`on_typed!`], which dispatches on the book's own board.
    fn typed<const W: usize, const H: usize, B: Bitboard>(&self) -> &Book<W, H, B> {
        self.book
            .downcast_ref::<Book<W, H, B>>()
            .expect("an AnyBook holds a book of its own board")
    }

    /// The book as the fixed-size type of its board, or [`WrongBoard`] if
    /// `W` x `H` is another board.
    pub fn fixed<const W: usize, const H: usize, B: Bitboard>(
        &self,
    ) -> Result<Arc<Book<W, H, B>>, WrongBoard> {
        let wrong = || WrongBoard {
            book: self.board,
            engine: BoardSize::of::<W, H>(),
        };
        if self.board != BoardSize::of::<W, H>() {
            return Err(wrong());
        }
        Arc::clone(&self.book)
            .downcast::<Book<W, H, B>>()
            .map_err(|_| wrong())
    }
}

impl<const W: usize, const H: usize, B: Bitboard> From<Book<W, H, B>> for AnyBook {
    fn from(book: Book<W, H, B>) -> AnyBook {
        AnyBook::from(Arc::new(book))
    }
}

impl<const W: usize, const H: usize, B: Bitboard> From<Arc<Book<W, H, B>>> for AnyBook {
    fn from(book: Arc<Book<W, H, B>>) -> AnyBook {
        AnyBook {
            board: BoardSize::of::<W, H>(),
            depth: book.depth(),
            kind: book.kind(),
            len: book.len(),
            book,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_scores_as_its_solver() {
        let board = BoardSize::new(5, 4).unwrap();
        let mut engine = new(board, 1 << 20).unwrap();
        let mut solver = Solver::<5, 4>::with_table_bytes(1 << 20).unwrap();
        for moves in ["", "3", "33", "312"] {
            let game = Game::parse(board, moves).unwrap();
            let pos = game.fixed::<5, 4, u64>();
            assert_eq!(engine.solve(&game), solver.solve(&pos), "{moves}");
            assert_eq!(engine.analyze(&game), solver.analyze(&pos), "{moves}");
            assert_eq!(
                engine.principal_variation(&game),
                solver.principal_variation(&pos),
                "{moves}"
            );
        }
        assert_eq!(engine.board(), board);
    }

    #[test]
    fn a_book_serves_only_its_own_board() {
        let book = AnyBook::builtin(BoardSize::STANDARD).unwrap().unwrap();
        assert_eq!(book.board(), BoardSize::STANDARD);
        assert!(book.depth() > 0 && !book.is_empty());
        let mut standard = new(BoardSize::STANDARD, 1 << 20).unwrap();
        assert_eq!(standard.set_book(Some(book.clone())), Ok(()));
        let other = BoardSize::new(6, 7).unwrap();
        let mut engine = new(other, 1 << 20).unwrap();
        assert_eq!(
            engine.set_book(Some(book)),
            Err(WrongBoard {
                book: BoardSize::STANDARD,
                engine: other
            })
        );
        assert!(AnyBook::builtin(other).is_none());
    }
}
