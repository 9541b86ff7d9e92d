//! `c4`: a Connect Four perfect-play solver.
//!
//! The library has no I/O: it parses positions and input lines, solves
//! positions, reads and writes test-set lines, runs batches on threads and
//! adds up the memory they take; the `c4` binary is a thin CLI over it.
//!
//! # Using it
//! The crate is `c4-solver` on crates.io (`c4` there is another project);
//! its library is `c4`:
//!
//! ```toml
//! [dependencies]
//! c4-solver = "0.1"
//! ```
//!
//! ```
//! // The score of the position after the moves 4, 4, 5, 3 (1-based columns)
//! // for the side to move: -2, a loss with its second-last stone.
//! let board = c4::BoardSize::STANDARD; // 7x6; BoardSize::new(w, h) for others
//! let game = c4::Game::parse(board, "4453").unwrap();
//! let mut solver = c4::engine::new(board, 64 << 20).unwrap(); // a 64 MiB table
//! // The built-in 7x6 opening book answers the first moves without a search.
//! let book = c4::AnyBook::builtin(board).transpose().unwrap();
//! solver.set_book(book).unwrap();
//! assert_eq!(solver.solve(&game), -2);
//! assert_eq!(solver.best_move(&c4::Game::parse(board, "44533").unwrap()), Some((3, 2)));
//! ```
//!
//! Positions that cannot be read are errors naming the move at fault
//! ([`ParseError`]); [`Engine`] has the other questions (every column's
//! score, a best move, a perfect-play line).
//!
//! # The public API
//! What a program that solves, analyses or explains positions needs:
//!
//! | item | what it is |
//! |---|---|
//! | [`BoardSize`], [`BoardError`] | a board's width and height, checked (157 sizes) |
//! | [`Game`], [`ParseError`] | a position on a board read at run time; parse errors name the move |
//! | [`Engine`], [`engine::new`], [`AnyBook`] | the solver for a run-time board: score, every column's score, best move, perfect-play line |
//! | [`Position`], [`Solver`], [`Bitboard`] | the same at compile-time sizes, for the fastest loops |
//! | [`Book`], [`book`] | opening books: lookup, the file format, the built-in 7x6 book |
//! | [`Player`], [`Score`], [`rules`] | the rules of play, scores and move notation |
//! | [`strategy`] | Allis's strategic rules: why a side at least draws, in words and cells |
//! | [`review`] | a game judged move by move against perfect play |
//! | [`TestCase`], [`testset`] | `moves score` lines of test sets |
//! | [`solver::control`], [`TableError`] | stopping a search, its progress, table sizes |
//!
//! The other modules exist for the `c4` binary, its server and page, and the
//! Python and npm bindings (batches, benchmarks, book building, play levels,
//! memory budgets, tuning constants). They stay public so that those front
//! ends, which are crates of their own, can use them, but they are hidden
//! from the published documentation and may change in any release.
//! `docs/architecture.md` gives every module, its layer and what it may
//! import.
//!
//! # Layout
//! The search runs on [`Position<W, H, B>`](Position) and
//! [`Solver<W, H, B>`](Solver), whose board is a set of constants, so it is
//! compiled once per board size; everything around it works on a [`Game`]
//! and an [`Engine`] for a board chosen at run time, compiled once.
//!
//! ```
//! use c4::{Position, Solver};
//! let pos: Position = Position::parse("4453").unwrap();
//! let mut solver = Solver::<7, 6>::with_table_bytes(1 << 20).unwrap();
//! assert_eq!(solver.solve_weak(&pos), solver.solve(&pos).signum());
//!
//! // The same on a board read at run time.
//! let board: c4::BoardSize = "7x6".parse().unwrap();
//! let game = c4::Game::parse(board, "4453").unwrap();
//! let mut engine = c4::engine::new(board, 1 << 20).unwrap();
//! assert_eq!(engine.solve(&game), solver.solve(&pos));
//! ```

#[doc(hidden)]
pub mod bench;
pub mod bitboard;
pub mod board;
pub mod book;
#[doc(hidden)]
pub mod book_builder;
pub mod engine;
pub mod game;
#[doc(hidden)]
pub mod input;
#[doc(hidden)]
pub mod level;
#[doc(hidden)]
pub mod memory;
#[doc(hidden)]
pub mod page_api;
#[doc(hidden)]
pub mod parallel;
pub mod position;
#[doc(hidden)]
pub mod report;
pub mod review;
#[doc(hidden)]
pub mod rng;
pub mod rules;
#[doc(hidden)]
pub mod settings;
pub mod solver;
pub mod strategy;
pub mod testset;

pub use bitboard::Bitboard;
pub use board::{BoardError, BoardSize, ForBoard};
pub use book::Book;
pub use engine::{AnyBook, Engine};
pub use game::Game;
pub use position::Position;
pub use rules::{ParseError, Player, Score};
pub use solver::Solver;
pub use solver::table::TableError;
pub use testset::TestCase;
