//! `c4`: a Connect Four perfect-play solver.
//!
//! The library has no I/O: it parses positions and input lines, solves
//! positions, reads and writes test-set lines, runs batches on threads and
//! adds up the memory they take; the `c4` binary is a thin CLI over it.
//!
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

pub mod bench;
pub mod bitboard;
pub mod board;
pub mod book;
pub mod book_builder;
pub mod engine;
pub mod game;
pub mod input;
pub mod level;
pub mod memory;
pub mod page_api;
pub mod parallel;
pub mod position;
pub mod report;
pub mod review;
pub mod rng;
pub mod settings;
pub mod solver;
pub mod testset;

pub use bitboard::Bitboard;
pub use board::{BoardError, BoardSize, ForBoard};
pub use book::Book;
pub use engine::{AnyBook, Engine};
pub use game::Game;
pub use position::{ParseError, Player, Position, Score};
pub use solver::Solver;
pub use solver::table::TableError;
pub use testset::TestCase;
