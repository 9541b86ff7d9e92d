//! The solver's public API: exact and weak scores, per-column analysis, best
//! move and the principal variation, over transposition tables it owns.
//!
//! # Scores
//! For the side to move: positive if it wins, `(W * H + 1 - n) / 2` (rounded
//! down) when it wins by playing move `n + 1` of the game (on 7x6: 22 minus
//! the number of stones it has played when it wins); 0 for a draw; the
//! opposite of the opponent's winning score if it loses. Weak scores are the
//! sign only.
//!
//! # Modules
//! `search` is the alpha-beta search, `ordering` its move order, `table`
//! the transposition table and `placement` which table a node uses;
//! `stage` tells the stage of the game a root is at, `probes` decides which
//! null-window searches find a score, `parallel` runs them on several
//! threads, and `control` is what a caller sees of a solve in progress.

mod busy;
pub mod control;
#[doc(hidden)]
pub mod ordering;
mod parallel;
mod placement;
mod probes;
pub(crate) mod search;
mod stage;
#[doc(hidden)]
pub mod table;
#[cfg(test)]
mod tests;

use crate::Bitboard;
use crate::book::Book;
use crate::position::Position;
use crate::rules::Score;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub use control::{Interrupted, Progress};

/// Bounds given to [`Solver::seed`] that contradict each other (after
/// clipping to the position's score range).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a lower bound {lower} above the upper bound {upper}")]
pub struct InvalidSeed {
    /// The lower bound, clipped.
    pub lower: Score,
    /// The upper bound, clipped.
    pub upper: Score,
}

use crate::settings::DEFAULT_TABLE_BYTES;
use ordering::center_first_order;
use placement::TableSet;
use probes::{FromRoot, Root, exact_score, walk_up, weak_score};
use search::Searcher;
use table::{TableError, Tables};

/// Solves positions of a `W` x `H` board; holds the transposition tables, so
/// keep one solver per thread and reuse it.
pub struct Solver<const W: usize = 7, const H: usize = 6, B: Bitboard = u64> {
    /// The transposition tables (see [`TableSet`]).
    table_set: TableSet<B>,
    /// Nodes searched since the last [`Solver::reset_node_count`].
    nodes: u64,
    /// Threads searching one position together (see
    /// [`Solver::set_threads`]); 1 by default.
    threads: usize,
    /// Exact scores of the opening, used at the root and inside searches.
    book: Option<Arc<Book<W, H, B>>>,
    /// The caller's flag that stops the interruptible solves.
    stop_flag: Option<Arc<AtomicBool>>,
    /// Where the solver reports its nodes and the interval proved so far.
    progress: Option<Arc<Progress>>,
}

impl<const W: usize, const H: usize, B: Bitboard> Solver<W, H, B> {
    /// A solver with the default table size
    /// ([`crate::settings::DEFAULT_TABLE_BYTES`]).
    pub fn new() -> Self {
        Self::with_table_bytes(DEFAULT_TABLE_BYTES)
            .expect("the default table size fits every board")
    }

    /// A solver whose table takes at most `bytes` bytes (rounded down to a
    /// power of two).
    pub fn with_table_bytes(bytes: usize) -> Result<Self, TableError> {
        Ok(Solver {
            table_set: TableSet::new(bytes, Position::<W, H, B>::KEY_BITS as u32)?,
            nodes: 0,
            threads: 1,
            book: None,
            stop_flag: None,
            progress: None,
        })
    }

    /// Sets how many threads search each position (at least 1). They share
    /// one lock-free table (every entry one atomic word) for the nodes near
    /// the root, each keeps the deep nodes in a small table of its own that
    /// stays in its core's cache, and they run different null-window probes
    /// of the score side by side (see `parallel`). Every entry is a true
    /// bound, so scores do not depend on the thread count or timing.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.table_set
            .set_threads(self.threads, Position::<W, H, B>::KEY_BITS as u32);
    }

    /// Sets the opening book (none by default). A position in the book is
    /// answered at once, and searches stop at the book's positions; a book
    /// must hold true scores, or the answers built on them are wrong. A book
    /// whose scores contradict each other never makes the solver panic:
    /// where a best move or a principal variation finds the contradiction,
    /// it searches on without the book (see [`Solver::best_move`]).
    pub fn set_book(&mut self, book: Option<Arc<Book<W, H, B>>>) {
        self.book = book;
    }

    /// The opening book, if any.
    pub fn book(&self) -> Option<&Arc<Book<W, H, B>>> {
        self.book.as_ref()
    }

    /// Sets the flag that stops [`Solver::try_solve`] and
    /// [`Solver::try_solve_weak`] (none by default). The search reads it
    /// every [`PROGRESS_POLL_NODES`](crate::settings::PROGRESS_POLL_NODES)
    /// nodes; once it is set they return [`Interrupted`] (at once if it is
    /// set when they are called), never a wrong score, until the caller
    /// clears it. A stopped search stores nothing, so the solver stays
    /// usable. The other methods always finish and ignore the flag.
    pub fn set_stop_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop_flag = flag;
    }

    /// Sets where the solver reports its progress (nowhere by default): the
    /// nodes it searches, every
    /// [`PROGRESS_POLL_NODES`](crate::settings::PROGRESS_POLL_NODES) nodes
    /// and at the end of each probe, and the score interval each solve
    /// proves as its probes end (see [`Progress::interval`]).
    pub fn set_progress(&mut self, progress: Option<Arc<Progress>>) {
        self.progress = progress;
    }

    /// The caller's stop flag if a search may be stopped (`stoppable`), and
    /// the progress sink.
    fn control(&self, stoppable: bool) -> (Option<&AtomicBool>, Option<&Progress>) {
        (
            self.stop_flag.as_deref().filter(|_| stoppable),
            self.progress.as_deref(),
        )
    }

    /// The tables a search from `pos` stores its bounds in (see
    /// [`TableSet::for_search`]).
    fn tables(&self, pos: &Position<W, H, B>, thread: usize, parallel: bool) -> Tables<'_, B> {
        self.table_set.for_search(Root::of(pos), thread, parallel)
    }

    /// Whether the caller has raised the stop flag.
    fn stop_requested(&self) -> bool {
        self.stop_flag
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// A new solve, of a score known to lie in `[min, max]`, for the
    /// progress sink.
    fn begin(&self, min: Score, max: Score) {
        if let Some(progress) = &self.progress {
            progress.begin(min, max);
        }
    }

    /// The score of `pos` if it needs no search: the game is over, the side
    /// to move wins at once, or the book has it.
    fn known_score(&self, pos: &Position<W, H, B>) -> Option<Score> {
        terminal_score(pos).or_else(|| self.book.as_ref().and_then(|book| book.get(pos)))
    }

    /// A lower bound on the score of `pos` when it has one stone more than
    /// the book's depth: minus the best score of its parents in the book
    /// (see [`solve_in`](Self::solve_in)). Used where it answers without a
    /// search: `solve_weak` when it proves a win, `score_at_least` when it
    /// proves the bound asked (`best_move` asks this of every child).
    fn lower_bound_from_book(&self, pos: &Position<W, H, B>) -> Option<Score> {
        let book = self.book.as_deref()?;
        if pos.moves_played() != book.depth() + 1 {
            return None;
        }
        book.lower_bound_from_parents(pos)
    }

    /// How many threads search each position.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Size of the (full) transposition table in bytes; searches from all but
    /// the earliest positions use a small table of their own besides it
    /// ([`crate::settings::SMALL_TABLE_BYTES`]).
    pub fn table_bytes(&self) -> usize {
        self.table_set.bytes()
    }

    /// Forgets everything the table learnt (O(1): a new table generation), so
    /// that the next search is independent of the previous ones.
    pub fn clear(&mut self) {
        self.table_set.clear();
    }

    /// Seeds the tables with bounds on the score of `pos` proved elsewhere
    /// (by a distributed solve's store, say): `lower <= score <= upper`.
    /// Later searches use them as they use their own results, so a search
    /// whose tree passes through `pos` may skip it. **A wrong bound gives a
    /// wrong score.** A lower bound below the position's score range and an
    /// upper bound above it are clipped to it; a bound that says nothing,
    /// and a finished game, store nothing.
    ///
    /// One entry holds one bound: the exact score if `lower == upper`, else
    /// the lower bound if it says something, else the upper one. A seed
    /// takes the most work an entry can record, so the table's replacement
    /// keeps it over the searches' own results; [`Solver::clear`] forgets it
    /// with everything else. Seed after [`Solver::set_threads`]: a parallel
    /// search's shared table is made there.
    ///
    /// Returns `Err(InvalidSeed)` if `lower > upper` once clipped (a lower
    /// bound above the range included), which no true pair of bounds gives.
    pub fn seed(
        &mut self,
        pos: &Position<W, H, B>,
        lower: Score,
        upper: Score,
    ) -> Result<(), InvalidSeed> {
        let (min, max) = pos.score_range();
        let (lower, upper) = (lower.max(min), upper.min(max));
        if lower > upper {
            return Err(InvalidSeed { lower, upper });
        }
        if pos.is_game_over() {
            return Ok(());
        }
        let (bound, score) = if lower == upper {
            (table::Bound::Exact, lower)
        } else if lower > min {
            (table::Bound::Lower, lower)
        } else if upper < max {
            (table::Bound::Upper, upper)
        } else {
            return Ok(());
        };
        let (key, _) = Searcher::<W, H, B>::stored_key(pos.key(), pos.moves_played());
        let entry = table::Entry {
            bound,
            score,
            best: None,
            work: table::MAX_WORK,
        };
        self.table_set.seed(key, entry);
        Ok(())
    }

    /// Nodes searched since the solver was made or the count was reset.
    pub fn node_count(&self) -> u64 {
        self.nodes
    }

    /// Sets the node count back to zero.
    pub fn reset_node_count(&mut self) {
        self.nodes = 0;
    }

    /// The exact score of `pos` (see the module documentation).
    ///
    /// The parents' bound one stone past the book (see
    /// [`Solver::solve_in`]) is not used here: with the depth-9 book it
    /// costs nodes (the 126 lines of 10 stones of `tests/testsets.rs`:
    /// 195,042 nodes a line without it, 202,493 walking up from it).
    pub fn solve(&mut self, pos: &Position<W, H, B>) -> Score {
        finished(self.strong(pos, None, false))
    }

    /// [`Solver::solve`], stopped by the flag of [`Solver::set_stop_flag`]:
    /// `Err(Interrupted)` if it was raised before the score was found.
    pub fn try_solve(&mut self, pos: &Position<W, H, B>) -> Result<Score, Interrupted> {
        self.strong(pos, None, true).ok_or(Interrupted)
    }

    /// The exact score of `pos`, known to lie in `[min, max]` (bounds beyond
    /// the position's score range are clipped to it): the probes the bounds
    /// answer are skipped. **A wrong bound gives a wrong score.** The book
    /// generator uses it with lower bounds from the parents' scores.
    ///
    /// With a lower bound, the probes walk up from it: "is the score above
    /// `min`?", and if so `min` rises to the (fail-soft) value returned,
    /// until a probe says no. A bound from the parents is often the score
    /// itself, and the others are mostly just above it: the first 300
    /// positions of a depth-9 book, one thread, 502.0M nodes with `solve`,
    /// 345.8M walking up (-31%).
    pub fn solve_in(&mut self, pos: &Position<W, H, B>, min: Score, max: Score) -> Score {
        finished(self.strong(pos, Some((min, max)), false))
    }

    /// The exact score of `pos`, known to lie in `bounds` if given (see
    /// [`Solver::solve_in`]); `None` if `stoppable` and the caller's flag
    /// was raised first.
    fn strong(
        &mut self,
        pos: &Position<W, H, B>,
        bounds: Option<(Score, Score)>,
        stoppable: bool,
    ) -> Option<Score> {
        if stoppable && self.stop_requested() {
            return None;
        }
        let score = match self.known_score(pos) {
            Some(score) => score,
            None => {
                let (lowest, highest) = pos.score_range();
                let (min, max) = bounds.map_or((lowest, highest), |(min, max)| {
                    (min.clamp(lowest, highest), max.clamp(lowest, highest))
                });
                self.begin(min, max);
                self.search_range(pos, min, max, stoppable)?
            }
        };
        self.begin(score, score);
        Some(score)
    }

    /// The exact score of `pos` (not terminal, no book entry), known to lie
    /// in `[min, max]` within its score range: a walk up when `min` is a
    /// bound above the lowest possible score, else the usual probes. `None`
    /// if `stoppable` and the caller's flag was raised first.
    fn search_range(
        &mut self,
        pos: &Position<W, H, B>,
        min: Score,
        max: Score,
        stoppable: bool,
    ) -> Option<Score> {
        if min >= max {
            return Some(min);
        }
        if self.parallel(pos) {
            return self.parallel_probes(pos, min, max, stoppable);
        }
        if min > pos.score_range().0 {
            self.run(pos, stoppable, &|search| walk_up(search, min, max))
        } else {
            let root = Root::of(pos);
            self.run(pos, stoppable, &|search| {
                exact_score(search, root, (min, max))
            })
        }
    }

    /// The exact score of `pos` if one thread finds it within about
    /// `max_nodes` nodes (checked every thousand or so); `None` if not, or if
    /// the flag of [`Solver::set_stop_flag`] was raised first. The nodes
    /// spent count either way. For callers that must not wait for a hard
    /// position, such as a test-set generator or a server's request.
    pub fn solve_within(&mut self, pos: &Position<W, H, B>, max_nodes: u64) -> Option<Score> {
        if let Some(score) = self.known_score(pos) {
            self.begin(score, score);
            return Some(score);
        }
        if self.stop_requested() {
            return None;
        }
        self.begin(pos.score_range().0, pos.score_range().1);
        let (stop, progress) = self.control(true);
        let mut searcher = Searcher::new(self.tables(pos, 0, false))
            .with_node_limit(max_nodes)
            .with_book(self.book.as_deref())
            .with_control(stop, progress);
        let root = Root::of(pos);
        let score = exact_score(
            &mut FromRoot {
                searcher: &mut searcher,
                pos,
            },
            root,
            root.range,
        );
        searcher.publish();
        let nodes = searcher.nodes;
        self.nodes += nodes;
        score
    }

    /// The weak score of `pos`: 1 if the side to move wins, 0 for a draw, -1
    /// if it loses; null-window searches (see `probes::weak_score`).
    pub fn solve_weak(&mut self, pos: &Position<W, H, B>) -> Score {
        finished(self.weak(pos, false))
    }

    /// [`Solver::solve_weak`], stopped by the flag of
    /// [`Solver::set_stop_flag`]: `Err(Interrupted)` if it was raised before
    /// the score was found.
    pub fn try_solve_weak(&mut self, pos: &Position<W, H, B>) -> Result<Score, Interrupted> {
        self.weak(pos, true).ok_or(Interrupted)
    }

    /// The weak score of `pos`; `None` if `stoppable` and the caller's flag
    /// was raised first.
    fn weak(&mut self, pos: &Position<W, H, B>, stoppable: bool) -> Option<Score> {
        if stoppable && self.stop_requested() {
            return None;
        }
        let score = if let Some(score) = self.known_score(pos) {
            score.signum()
        } else if self
            .lower_bound_from_book(pos)
            .is_some_and(|lower| lower > 0)
        {
            // One stone past the book, a parent that loses proves a win.
            1
        } else {
            self.begin(-1, 1);
            if self.parallel(pos) {
                self.parallel_probes(pos, -1, 1, stoppable)?
            } else {
                let root = Root::of(pos);
                self.run(pos, stoppable, &|search| weak_score(search, root))?
            }
        };
        self.begin(score, score);
        Some(score)
    }

    /// Whether the exact score of `pos` is at least `bound`: one null-window
    /// search.
    pub fn score_at_least(&mut self, pos: &Position<W, H, B>, bound: Score) -> bool {
        if let Some(score) = self.known_score(pos) {
            return score >= bound;
        }
        // One stone past the book, the parents may prove it (`best_move` of
        // a book position asks this of every child it passes over).
        if self
            .lower_bound_from_book(pos)
            .is_some_and(|lower| lower >= bound)
        {
            return true;
        }
        let r = finished(self.run(pos, false, &|search| search.window(bound - 1, bound)));
        r >= bound
    }

    /// The score, for the side to move in `pos`, of playing 0-based column
    /// `col`; `None` if the column is full or the game is over.
    pub fn column_score(&mut self, pos: &Position<W, H, B>, col: usize) -> Option<Score> {
        if pos.is_game_over() || !pos.can_play(col) {
            return None;
        }
        if pos.is_winning_move(col) {
            return Some(pos.win_next_score());
        }
        let mut child = *pos;
        child.play_col(col);
        Some(-self.solve(&child))
    }

    /// The score of every column for the side to move (`None` for a full
    /// column, or every column once the game is over). The best of them is
    /// the score of `pos`.
    pub fn analyze(&mut self, pos: &Position<W, H, B>) -> Vec<Option<Score>> {
        (0..W).map(|col| self.column_score(pos, col)).collect()
    }

    /// A best column (0-based) for the side to move, centre-most among equals,
    /// with the position's score; `None` when the game is over.
    ///
    /// If no move keeps the score solved (the book's scores contradict each
    /// other), the book is set aside for this call and the answer searched
    /// without it, from cleared tables.
    pub fn best_move(&mut self, pos: &Position<W, H, B>) -> Option<(usize, Score)> {
        let mut set_aside = None;
        let found = self.checked_best_move(pos, &mut set_aside);
        if set_aside.is_some() {
            self.book = set_aside;
        }
        found
    }

    /// The principal variation: a perfect-play line from `pos` to the end of
    /// the game, as 0-based columns. Both sides play a best move, centre-most
    /// among equals; the game ends on the move the score predicts.
    ///
    /// If the book's scores are found to contradict each other on the way
    /// (see [`Solver::best_move`]), the rest of the line is searched without
    /// the book.
    pub fn principal_variation(&mut self, pos: &Position<W, H, B>) -> Vec<usize> {
        let mut line = Vec::new();
        let mut pos = *pos;
        let mut set_aside = None;
        while let Some((col, _)) = self.checked_best_move(&pos, &mut set_aside) {
            line.push(col);
            pos.play_col(col);
        }
        if set_aside.is_some() {
            self.book = set_aside;
        }
        line
    }

    /// A best move of `pos` and its score (`None` when the game is over):
    /// the centre-most move that keeps the solved score. If none does, the
    /// book lied (the search alone cannot contradict itself): it is moved
    /// to `set_aside` and the tables are cleared, since they may hold bounds
    /// built on its scores, and the move is searched again without it. Were
    /// the search itself ever to contradict itself, the best of the
    /// columns' scores is taken.
    fn checked_best_move(
        &mut self,
        pos: &Position<W, H, B>,
        set_aside: &mut Option<Arc<Book<W, H, B>>>,
    ) -> Option<(usize, Score)> {
        if pos.is_game_over() {
            return None;
        }
        let score = self.solve(pos);
        if let Some(col) = self.move_keeping_score(pos, score) {
            return Some((col, score));
        }
        if self.book.is_some() {
            *set_aside = self.book.take();
            self.clear();
            let score = self.solve(pos);
            if let Some(col) = self.move_keeping_score(pos, score) {
                return Some((col, score));
            }
        }
        // The first of the best in centre-first order.
        let mut best: Option<(usize, Score)> = None;
        for col in center_first_order::<W>() {
            if let Some(score) = self.column_score(pos, col)
                && best.is_none_or(|(_, best)| score > best)
            {
                best = Some((col, score));
            }
        }
        best
    }

    /// A column whose move has the score `score`, said to be the exact
    /// score of `pos` (a game not over); `None` if no move has it, which
    /// only a book with false scores can cause. Tried centre first; each
    /// test is one null-window search, cheap with the table warm from
    /// solving `pos`.
    fn move_keeping_score(&mut self, pos: &Position<W, H, B>, score: Score) -> Option<usize> {
        let order = center_first_order::<W>();
        for &col in &order {
            if !pos.can_play(col) {
                continue;
            }
            if pos.is_winning_move(col) {
                if pos.win_next_score() == score {
                    return Some(col);
                }
                continue;
            }
            let mut child = *pos;
            child.play_col(col);
            // The move keeps the score iff the child's score is at most -score
            // (it cannot be lower: `score` is the best over all moves).
            if !self.score_at_least(&child, -score + 1) {
                return Some(col);
            }
        }
        None
    }
}

impl<const W: usize, const H: usize, B: Bitboard> Default for Solver<W, H, B> {
    fn default() -> Self {
        Self::new()
    }
}

/// The score of a search that the caller's flag cannot stop (it was not
/// given one): such a search always ends with a score.
fn finished(score: Option<Score>) -> Score {
    score.expect("a search without a stop flag finishes")
}

/// The score of a position that needs no search: the game is over, or the
/// side to move wins with its next stone.
fn terminal_score<const W: usize, const H: usize, B: Bitboard>(
    pos: &Position<W, H, B>,
) -> Option<Score> {
    if pos.is_won() {
        // The opponent won with the last stone: its score before that move,
        // negated (the same value negamax gives the parent).
        Some(pos.lost_score())
    } else if pos.is_full() {
        Some(0)
    } else if pos.can_win_next() {
        Some(pos.win_next_score())
    } else {
        None
    }
}
