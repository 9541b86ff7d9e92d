//! The solver: exact and weak scores, per-column analysis, best move and the
//! principal variation, over a transposition table it owns.
//!
//! # Scores
//! For the side to move: positive if it wins, `(W * H + 1 - n) / 2` (rounded
//! down) when it wins by playing move `n + 1` of the game (on 7x6: 22 minus
//! the number of stones it has played when it wins); 0 for a draw; the
//! opposite of the opponent's winning score if it loses. Weak scores are the
//! sign only.

pub mod ordering;
pub(crate) mod search;
pub mod table;

use crate::book::Book;
use crate::position::{Position, Score};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use crate::settings::{
    BUSY_SLOTS_BITS, DEFAULT_TABLE_BYTES, FULL_WINDOW_MAX_EMPTY, PARALLEL_MIN_EMPTY,
    PARALLEL_SPLIT_MAX_EMPTY, SHARED_TABLE_BYTES, SIGN_FIRST_MAX_EMPTY, SIGN_FIRST_MAX_MOVES,
    SMALL_TABLE_BYTES, SMALL_TABLE_MAX_EMPTY, SMALL_TABLE_MIN_STONES, SPLIT_SMALL_MAX_EMPTY,
    WEAK_PROBES_MAX_MOVES,
};
use search::{Busy, Searcher, Tables};
use table::{Table, TableError};

/// Solves positions of a `W` x `H` board; holds the transposition table, so
/// keep one solver per thread and reuse it.
pub struct Solver<const W: usize = 7, const H: usize = 6> {
    /// Bounds learnt by earlier searches from early positions.
    table: Table,
    /// Bounds learnt by earlier searches from the other positions: a table
    /// small enough to stay in cache (see `SMALL_TABLE_BYTES`); `None` when
    /// the full table is no bigger.
    small: Option<Table>,
    /// One more small table for each thread past the first: in a parallel
    /// search from one of the earliest positions, where the nodes are split
    /// between the full table and a small one (see [`Solver::tables`]),
    /// each thread keeps its deep nodes in a small table of its own. Shared,
    /// the one small table filled twice as fast: the empty board with 2
    /// threads searched 551M nodes against 377M for one thread.
    helper_small: Vec<Table>,
    /// With several threads, the table they share for the big nodes of a
    /// parallel search from a position that is not one of the earliest
    /// (see [`Solver::tables`] and `SHARED_TABLE_BYTES`).
    shared: Option<Table>,
    /// Nodes searched since the last [`Solver::reset_node_count`].
    nodes: u64,
    /// Threads searching one position together (see
    /// [`Solver::set_threads`]); 1 by default.
    threads: usize,
    /// Exact scores of the opening, used at the root and inside searches.
    book: Option<Arc<Book<W, H>>>,
    /// Whether the pages of `table` have been touched (see
    /// [`Solver::tables`]).
    table_touched: AtomicBool,
}

impl<const W: usize, const H: usize> Solver<W, H> {
    /// A solver with the default table size
    /// ([`DEFAULT_TABLE_BYTES`](crate::settings::DEFAULT_TABLE_BYTES)).
    pub fn new() -> Self {
        Self::with_table_bytes(DEFAULT_TABLE_BYTES)
            .expect("the default table size fits every board")
    }

    /// A solver whose table takes at most `bytes` bytes (rounded down to a
    /// power of two).
    pub fn with_table_bytes(bytes: usize) -> Result<Self, TableError> {
        let key_bits = Position::<W, H>::KEY_BITS as u32;
        // Most searches never use the full table when there is a small one:
        // its pages are touched only before the first search that does (see
        // `full_table`).
        let table = Table::new_untouched(bytes, key_bits)?;
        // Boards with long keys need more than SMALL_TABLE_BYTES: they then
        // use the full table for everything.
        let small = if table.bytes() > SMALL_TABLE_BYTES {
            Table::new(SMALL_TABLE_BYTES, key_bits).ok()
        } else {
            None
        };
        Ok(Solver {
            table,
            small,
            helper_small: Vec::new(),
            shared: None,
            table_touched: AtomicBool::new(false),
            nodes: 0,
            threads: 1,
            book: None,
        })
    }

    /// Sets how many threads search each position (at least 1). They share
    /// one lock-free table (every entry one atomic word) for the nodes near
    /// the root, each keeps the deep nodes in a small table of its own that
    /// stays in its core's cache, and they run different null-window probes
    /// of the score side by side (see `parallel_probes`). Every entry is a
    /// true bound, so scores do not depend on the thread count or timing.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        if let Some(small) = &self.small {
            let key_bits = Position::<W, H>::KEY_BITS as u32;
            while self.helper_small.len() + 1 < self.threads {
                // A helper without a table of its own shares the first one
                // (see `tables`): slower, never wrong.
                match Table::new(small.bytes(), key_bits) {
                    Ok(table) => self.helper_small.push(table),
                    Err(_) => break,
                }
            }
            if self.threads > 1 && self.shared.is_none() && self.table.bytes() > SHARED_TABLE_BYTES
            {
                // Without it, the threads share the full table: slower, never
                // wrong. Its pages are faulted in by the first search that
                // uses it, so a solver that never searches in parallel from
                // a big enough position does not pay for them.
                self.shared = Table::new_untouched(SHARED_TABLE_BYTES, key_bits).ok();
            }
        }
    }

    /// Sets the opening book (none by default). A position in the book is
    /// answered at once, and searches stop at the book's positions; a book
    /// must hold true scores, or every answer built on it is wrong.
    pub fn set_book(&mut self, book: Option<Arc<Book<W, H>>>) {
        self.book = book;
    }

    /// The opening book, if any.
    pub fn book(&self) -> Option<&Arc<Book<W, H>>> {
        self.book.as_ref()
    }

    /// The score of `pos` if it needs no search: the game is over, the side
    /// to move wins at once, or the book has it.
    fn known_score(&self, pos: &Position<W, H>) -> Option<Score> {
        terminal_score(pos).or_else(|| self.book.as_ref().and_then(|book| book.get(pos)))
    }

    /// A lower bound on the score of `pos` when it has one stone more than
    /// the book's depth: minus the best score of its parents in the book
    /// (see [`solve_in`](Self::solve_in)). Used where it answers without a
    /// search: `solve_weak` when it proves a win, `score_at_least` when it
    /// proves the bound asked (`best_move` asks this of every child).
    fn lower_bound_from_book(&self, pos: &Position<W, H>) -> Option<Score> {
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
    /// ([`SMALL_TABLE_BYTES`](crate::settings::SMALL_TABLE_BYTES)).
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Forgets everything the table learnt (O(1): a new table generation), so
    /// that the next search is independent of the previous ones.
    pub fn clear(&mut self) {
        self.table.new_generation();
        if let Some(small) = &mut self.small {
            small.new_generation();
        }
        for small in &mut self.helper_small {
            small.new_generation();
        }
        if let Some(shared) = &mut self.shared {
            shared.new_generation();
        }
    }

    /// The tables a search from `pos` stores its bounds in (see
    /// [`Tables`]). From most positions, the small table alone: it stays in
    /// cache (see `SMALL_TABLE_MIN_STONES`). From the earliest ones, whose
    /// searches outgrow it, nodes with more than `SPLIT_SMALL_MAX_EMPTY`
    /// empty cells use the full table and the others the small one. Both
    /// hold only true bounds, so the choice changes a search's speed, never
    /// its result.
    ///
    /// `thread` numbers the threads of a `parallel` search (0 otherwise): in
    /// the split case each has a small table of its own. A parallel search
    /// splits its nodes from any root with more than `SPLIT_SMALL_MAX_EMPTY`
    /// empty cells: sharing one small table, two threads evict each other's
    /// deep results, while the full table shares the results near the root.
    /// First 10 Begin-Hard lines, each solved alone (`c4 solve --no-book
    /// --threads N`, three alternated runs, medians): 1 thread 11.3 s, 2
    /// threads 9.4 s on the shared small table, 7.2 s split (1.2x -> 1.57x).
    /// Roots with fewer empty cells keep the shared small table: the full
    /// table would hold none of their nodes, and the threads would share
    /// nothing. From roots that are not among the earliest, the big nodes go
    /// to the solver's shared table (`SHARED_TABLE_BYTES`) rather than the
    /// full one, and "big" means more than `PARALLEL_SPLIT_MAX_EMPTY` empty
    /// cells instead of `SPLIT_SMALL_MAX_EMPTY`.
    fn tables(&self, pos: &Position<W, H>, thread: usize, parallel: bool) -> Tables<'_> {
        let later = later_root(pos);
        match &self.small {
            Some(small) if later && !(parallel && pos.empty_cells() > SPLIT_SMALL_MAX_EMPTY) => {
                Tables::single(small)
            }
            Some(small) => Tables {
                large: match &self.shared {
                    Some(shared) if later => shared,
                    _ => self.full_table(),
                },
                small: match thread {
                    0 => small,
                    t => self.helper_small.get(t - 1).unwrap_or(small),
                },
                // Later roots share more of the tree between their threads
                // (see `PARALLEL_SPLIT_MAX_EMPTY`).
                large_below: (W * H).saturating_sub(if later {
                    PARALLEL_SPLIT_MAX_EMPTY
                } else {
                    SPLIT_SMALL_MAX_EMPTY
                }),
            },
            None => Tables::single(self.full_table()),
        }
    }

    /// The full table, for a search about to use it: its pages are touched
    /// the first time, before the search rather than page by page inside it
    /// (a fault stalls the searching thread).
    fn full_table(&self) -> &Table {
        if !self.table_touched.swap(true, Ordering::Relaxed) {
            self.table.touch();
        }
        &self.table
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
    pub fn solve(&mut self, pos: &Position<W, H>) -> Score {
        if let Some(score) = self.known_score(pos) {
            return score;
        }
        // The parents' bound one stone past the book is not used here: it
        // paid with the depth-8 book (the 94 Begin-Easy and Begin-Medium
        // lines of 9 stones, 272,658 nodes a line without it, 223,667 walking
        // up from it) but costs with the depth-9 one (the 126 lines of 10
        // stones of `tests/testsets.rs`: 195,042 without, 202,493 walking up,
        // 207,253 with the usual probes in the narrowed range). `solve_weak`
        // and `score_at_least` use it only when it answers at once.
        let (lowest, highest) = pos.score_range();
        self.search_range(pos, lowest, highest)
    }

    /// The exact score of `pos`, known to lie in `[min, max]` (bounds beyond
    /// the position's score range are clipped to it): the probes the bounds
    /// answer are skipped. **A wrong bound gives a wrong score.** The book
    /// generator uses it with lower bounds from the parents' scores.
    ///
    /// With a lower bound, the probes walk up from it: "is the score above
    /// `min`?", and if so `min` rises to the (fail-soft) value returned, until
    /// a probe says no. A bound from the parents is often the score itself
    /// (120 of the first 300 positions of a depth-9 book), and the others are
    /// mostly just above it. Those 300 positions, one thread: 502.0M nodes
    /// with `solve`; 369.2M with one probe at the bound and then the usual
    /// bisection; 350.7M walking up at most two more probes; 345.8M walking
    /// to the end (-31%).
    pub fn solve_in(&mut self, pos: &Position<W, H>, min: Score, max: Score) -> Score {
        if let Some(score) = self.known_score(pos) {
            return score;
        }
        let (lowest, highest) = pos.score_range();
        self.search_range(pos, min.clamp(lowest, highest), max.clamp(lowest, highest))
    }

    /// The exact score of `pos` (not terminal, no book entry), known to lie
    /// in `[min, max]` within its score range: a walk up when `min` is a
    /// bound above the lowest possible score, else the usual probes.
    fn search_range(&mut self, pos: &Position<W, H>, min: Score, max: Score) -> Score {
        if min >= max {
            return min;
        }
        if self.parallel(pos) {
            return self.parallel_probes(pos, min, max);
        }
        if min > pos.score_range().0 {
            self.run(pos, |searcher| walk_up(searcher, pos, min, max))
        } else {
            self.run(pos, |searcher| exact_score(searcher, pos, (min, max)))
        }
    }

    /// The exact score of `pos` if one thread finds it within about
    /// `max_nodes` nodes (checked every thousand or so); `None` if not. The
    /// nodes spent count either way. For callers that must not wait for a
    /// hard position, such as a test-set generator.
    pub fn solve_within(&mut self, pos: &Position<W, H>, max_nodes: u64) -> Option<Score> {
        if let Some(score) = self.known_score(pos) {
            return Some(score);
        }
        let mut searcher = Searcher::limited(self.tables(pos, 0, false), max_nodes)
            .with_book(self.book.as_deref());
        let score = exact_score(&mut searcher, pos, pos.score_range());
        self.nodes += searcher.nodes;
        score
    }

    /// The weak score of `pos`: 1 if the side to move wins, 0 for a draw, -1
    /// if it loses; null-window searches (see `weak_score`).
    pub fn solve_weak(&mut self, pos: &Position<W, H>) -> Score {
        if let Some(score) = self.known_score(pos) {
            return score.signum();
        }
        // One stone past the book, a parent that loses proves a win.
        if self
            .lower_bound_from_book(pos)
            .is_some_and(|lower| lower > 0)
        {
            return 1;
        }
        if self.parallel(pos) {
            return self.parallel_probes(pos, -1, 1);
        }
        self.run(pos, |searcher| weak_score(searcher, pos))
    }

    /// Whether the exact score of `pos` is at least `bound`: one null-window
    /// search.
    pub fn score_at_least(&mut self, pos: &Position<W, H>, bound: Score) -> bool {
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
        let r = self.run(pos, |searcher| {
            let r = searcher.negamax(pos, bound - 1, bound);
            (!searcher.aborted).then_some(r)
        });
        r >= bound
    }

    /// Whether a search of `pos` runs on several threads: only if the solver
    /// has them and the position has enough empty cells to be worth it.
    fn parallel(&self, pos: &Position<W, H>) -> bool {
        self.threads > 1 && pos.empty_cells() >= PARALLEL_MIN_EMPTY
    }

    /// The score of `pos` clamped to `[lo, hi]`, by null-window probes run on
    /// all threads at once.
    ///
    /// The threads share the range `[a, b]` known to hold the answer and the
    /// table. Each repeatedly probes a value in the range that no other
    /// thread is probing (thread 0 as the single-thread search would, the
    /// others nearest zero first), so that the few expensive proofs a score
    /// needs (for a score of 1: "above 0" and "not above 1") run side by side
    /// instead of one after the other. A probe that the others' results made
    /// useless is stopped. When only one useful probe is left, the idle
    /// threads help it (see [`Searcher::parallel`]).
    fn parallel_probes(&mut self, pos: &Position<W, H>, lo: Score, hi: Score) -> Score {
        let threads = self.threads;
        let sign_first = probes_sign_first(pos);
        let later = later_root(pos);
        let range = AtomicU64::new(pack(lo, hi));
        let probing: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(NOT_PROBING)).collect();
        let stops: Vec<AtomicBool> = (0..threads).map(|_| AtomicBool::new(false)).collect();
        let nodes = AtomicU64::new(0);
        let tables: Vec<Tables<'_>> = (0..self.threads)
            .map(|t| self.tables(pos, t, true))
            .collect();
        let book = self.book.as_deref();
        let in_progress = Busy::new(BUSY_SLOTS_BITS);
        std::thread::scope(|scope| {
            for thread in 0..threads {
                let (range, probing, stops, nodes, in_progress) =
                    (&range, &probing, &stops, &nodes, &in_progress);
                let tables = tables[thread];
                let body = move || {
                    let mut total = 0;
                    // Probes this thread has made: thread 0 follows the
                    // single-thread sequence (see `sequential_probe`).
                    let mut done = 0;
                    loop {
                        let (a, b) = unpack(range.load(Ordering::Acquire));
                        if a >= b {
                            break;
                        }
                        let busy: Vec<i32> = probing
                            .iter()
                            .enumerate()
                            .filter(|&(u, _)| u != thread)
                            .filter_map(|(_, p)| probe_value(p.load(Ordering::Acquire)))
                            .collect();
                        let preferred = sequential_probe(done, a, b, sign_first);
                        let med = choose_probe(thread, preferred, (a, b), &busy, later);
                        probing[thread].store(med as u32 as u64, Ordering::Release);
                        stops[thread].store(false, Ordering::Release);
                        // Re-check: the range may have moved since it was read.
                        let (a, b) = unpack(range.load(Ordering::Acquire));
                        if med < a || med >= b {
                            continue;
                        }
                        let mut searcher = Searcher::parallel(tables, &stops[thread])
                            .with_book(book)
                            .with_busy(in_progress);
                        if later {
                            // From the earliest roots it cost more than it
                            // saved (see `Searcher::watching_path`).
                            searcher = searcher.watching_path();
                        }
                        let r = searcher.negamax(pos, med, med + 1);
                        total += searcher.nodes;
                        done += 1;
                        probing[thread].store(NOT_PROBING, Ordering::Release);
                        if searcher.aborted {
                            continue;
                        }
                        // Narrow the shared range with what this probe proved.
                        let mut current = range.load(Ordering::Acquire);
                        loop {
                            let (a, b) = unpack(current);
                            let (a2, b2) = if r <= med {
                                (a, b.min(r.max(lo)))
                            } else {
                                (a.max(r.min(hi)), b)
                            };
                            match range.compare_exchange(
                                current,
                                pack(a2, b2),
                                Ordering::AcqRel,
                                Ordering::Acquire,
                            ) {
                                Ok(_) => break,
                                Err(seen) => current = seen,
                            }
                        }
                        // Stop the probes that no longer matter.
                        let (a, b) = unpack(range.load(Ordering::Acquire));
                        for (u, p) in probing.iter().enumerate() {
                            if let Some(m) = probe_value(p.load(Ordering::Acquire))
                                && (a >= b || m < a || m >= b)
                            {
                                stops[u].store(true, Ordering::Release);
                            }
                        }
                    }
                    nodes.fetch_add(total, Ordering::Relaxed);
                };
                if thread + 1 == threads {
                    body();
                } else {
                    scope.spawn(body);
                }
            }
        });
        self.nodes += nodes.into_inner();
        unpack(range.into_inner()).0
    }

    /// Runs `search` (which returns `None` only when stopped) on this
    /// solver's table: on this thread alone, or with Lazy SMP.
    ///
    /// Lazy SMP: every thread searches the same position on the shared
    /// table, in the same order, and defers the moves another thread is
    /// searching (see [`Searcher::parallel`]). They duplicate some work, but
    /// each finds results the others then read from the table instead of
    /// searching; the first thread to finish has the answer (all threads
    /// compute the same exact value, since table entries are true bounds)
    /// and stops the others. Positions with few empty cells are solved on
    /// one thread: starting threads would cost more than the search.
    fn run<F>(&mut self, pos: &Position<W, H>, search: F) -> Score
    where
        F: Fn(&mut Searcher<'_, W, H>) -> Option<Score> + Sync,
    {
        if !self.parallel(pos) {
            let mut searcher =
                Searcher::new(self.tables(pos, 0, false)).with_book(self.book.as_deref());
            let score = search(&mut searcher).expect("a search without a stop flag completes");
            self.nodes += searcher.nodes;
            return score;
        }
        let stop = AtomicBool::new(false);
        let answer = OnceLock::new();
        let nodes = AtomicU64::new(0);
        let tables: Vec<Tables<'_>> = (0..self.threads)
            .map(|t| self.tables(pos, t, true))
            .collect();
        let book = self.book.as_deref();
        let busy = Busy::new(BUSY_SLOTS_BITS);
        std::thread::scope(|scope| {
            for thread in 0..self.threads {
                let (stop, answer, nodes, search, busy) = (&stop, &answer, &nodes, &search, &busy);
                let tables = tables[thread];
                let body = move || {
                    let mut searcher = Searcher::parallel(tables, stop)
                        .with_book(book)
                        .with_busy(busy);
                    if let Some(score) = search(&mut searcher) {
                        let _ = answer.set(score);
                        stop.store(true, Ordering::Relaxed);
                    }
                    nodes.fetch_add(searcher.nodes, Ordering::Relaxed);
                };
                if thread + 1 == self.threads {
                    body();
                } else {
                    scope.spawn(body);
                }
            }
        });
        self.nodes += nodes.into_inner();
        answer
            .into_inner()
            .expect("the first thread to finish records the answer")
    }

    /// The score, for the side to move in `pos`, of playing 0-based column
    /// `col`; `None` if the column is full or the game is over.
    pub fn column_score(&mut self, pos: &Position<W, H>, col: usize) -> Option<Score> {
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
    pub fn analyze(&mut self, pos: &Position<W, H>) -> Vec<Option<Score>> {
        (0..W).map(|col| self.column_score(pos, col)).collect()
    }

    /// A best column (0-based) for the side to move, centre-most among equals,
    /// with the position's score; `None` when the game is over.
    pub fn best_move(&mut self, pos: &Position<W, H>) -> Option<(usize, Score)> {
        if pos.is_game_over() {
            return None;
        }
        let score = self.solve(pos);
        let col = self.move_keeping_score(pos, score);
        Some((col, score))
    }

    /// The principal variation: a perfect-play line from `pos` to the end of
    /// the game, as 0-based columns. Both sides play a best move, centre-most
    /// among equals; the game ends on the move the score predicts.
    pub fn principal_variation(&mut self, pos: &Position<W, H>) -> Vec<usize> {
        let mut line = Vec::new();
        let mut pos = *pos;
        while !pos.is_game_over() {
            let score = self.solve(&pos);
            let col = self.move_keeping_score(&pos, score);
            line.push(col);
            pos.play_col(col);
        }
        line
    }

    /// A column whose move has the score `score`, the exact score of `pos`
    /// (a game not over). Tried centre first; each test is one null-window
    /// search, cheap with the table warm from solving `pos`.
    fn move_keeping_score(&mut self, pos: &Position<W, H>, score: Score) -> usize {
        let order = ordering::center_first_order::<W>();
        for &col in &order {
            if !pos.can_play(col) {
                continue;
            }
            if pos.is_winning_move(col) {
                if pos.win_next_score() == score {
                    return col;
                }
                continue;
            }
            let mut child = *pos;
            child.play_col(col);
            // The move keeps the score iff the child's score is at most -score
            // (it cannot be lower: `score` is the best over all moves).
            if !self.score_at_least(&child, -score + 1) {
                return col;
            }
        }
        unreachable!("some move of a position has the position's score")
    }
}

impl<const W: usize, const H: usize> Default for Solver<W, H> {
    fn default() -> Self {
        Self::new()
    }
}

/// `probing` value of a thread that is not probing.
const NOT_PROBING: u64 = u64::MAX;

/// The probe value stored in a `probing` slot, if any.
fn probe_value(slot: u64) -> Option<Score> {
    (slot != NOT_PROBING).then_some(slot as u32 as i32)
}

/// Two scores in one atomic word.
fn pack(a: Score, b: Score) -> u64 {
    ((a as u32 as u64) << 32) | b as u32 as u64
}

/// The two scores of [`pack`].
fn unpack(word: u64) -> (Score, Score) {
    ((word >> 32) as u32 as i32, word as u32 as i32)
}

/// The null-window probe `med` (testing "score > med", `a <= med < b`) a thread
/// makes next; it may be one another thread is making (it then helps that
/// probe). Thread 0 makes `preferred`, the probe the single-thread search would
/// make, if no other thread is making it; the others (and thread 0 when it is
/// taken) take the free value nearest to zero (small scores are the common
/// case), the positive one first between two equally near. The score `s` needs
/// the proofs of probes `s - 1` and `s`, so while another thread probes the
/// sign (0), probe 1 is needed if `s` is 1 or 2 and probe -1 if `s` is -1 or 0;
/// among the Begin sets' lines of fewer than 8 stones, 187 have a score of 1 or
/// 2 and 148 a score of -1 or 0. Against thread 0 bisecting and ties going to
/// the negative value (two threads, same session, alternated runs): the first
/// 10 Begin-Hard lines, each solved alone, median of six 6.65 s against 7.51 s;
/// the empty board, median of three 23.9 s against 26.1 s. On the empty board
/// thread 0 used to spend 100M nodes on probes -4, 2 and -1 before reaching 1.
///
/// One exception: while another thread probes the sign and the score is known
/// to be at most 1 (`b <= 1`, as after probe 1 failed, or in a weak solve,
/// whose range is [-1, 1]), every thread helps the sign probe. A win is then
/// settled by that probe alone, and any other probe would matter only if it
/// fails. Two threads on one probe finish it up to 1.85x sooner (see
/// [`Searcher::parallel`]). Empty board, 2 threads: the weak solve took 11.5 s
/// (23.3 s before this rule and the helpers' one order, one thread having
/// probed -1 while the other proved the win); the strong solve spent 2-3 s on
/// probes -4 and -1 after probe 1 before helping (18.3-20.4 s against
/// 20.9-21.3 s in the same session). First 20 Begin-Hard lines each solved alone:
/// 0.52-0.59 s against 0.56-0.67 s.
///
/// From a `later_root` (see [`later_root`]) every thread helps the sign probe
/// whatever the range (2026-11-25, seventh session). There the probe beside
/// it (1, or -1 once 1 is taken) was a guess: on the Begin-Hard lines
/// scoring 0 the "above 1" proof went to waste (9.5M of `527376`'s 30.7M
/// nodes on two threads, against 23.7M on one), and with the sign helped
/// and settled sooner, the probes after it start with its proof in the
/// shared table. First 20 Begin-Hard lines each solved alone, 2 threads,
/// sums of the 20 solve times, four alternated rounds: 5.75-5.77 s (225M-230M
/// nodes) against 5.73-6.21 s (227M-238M). From the empty board it was
/// slower (6.0 and 6.4 s against 5.5 and 5.6 s, 273M-287M nodes against
/// 248M-249M): there the big-win probe thread 0 makes first settles nothing,
/// and the sign probe is long enough for the threads to share it anyway.
fn choose_probe(
    thread: usize,
    preferred: Score,
    (a, b): (Score, Score),
    busy: &[Score],
    later_root: bool,
) -> Score {
    if (b <= 1 || later_root) && (a..b).contains(&0) && busy.contains(&0) {
        return 0;
    }
    // (`sequential_probe` may fall outside a range the others narrowed.)
    let preferred = if (a..b).contains(&preferred) {
        preferred
    } else {
        next_probe(a, b)
    };
    if thread == 0 && !busy.contains(&preferred) {
        return preferred;
    }
    let mut candidates: Vec<Score> = (a..b).filter(|m| !busy.contains(m)).collect();
    candidates.sort_by_key(|&m| (m.abs(), -m));
    candidates.first().copied().unwrap_or(preferred)
}

/// Whether `pos` is a later root: one with at least
/// [`SMALL_TABLE_MIN_STONES`] stones (and at most [`SMALL_TABLE_MAX_EMPTY`]
/// empty cells). Searches from such roots are small enough for the small
/// table (see [`Solver::tables`]), and their parallel searches share the
/// sign probe and watch their paths (see [`choose_probe`] and
/// `Searcher::watching_path`); the earliest roots, such as the empty board,
/// keep the full table and the speculative probes.
fn later_root<const W: usize, const H: usize>(pos: &Position<W, H>) -> bool {
    pos.moves_played() >= SMALL_TABLE_MIN_STONES && pos.empty_cells() <= SMALL_TABLE_MAX_EMPTY
}

/// The probe the single-thread search makes in the range `[min, max]`
/// (`min < max`): bisect, but halfway towards the extreme on the side of
/// zero that the range leans to.
fn next_probe(min: Score, max: Score) -> Score {
    let med = min + (max - min) / 2;
    if med <= 0 && min / 2 < med {
        min / 2
    } else if med >= 0 && max / 2 > med {
        max / 2
    } else {
        med
    }
}

/// The exact score of `pos` (not terminal), known to lie in `[min, max]`,
/// by a sequence of null-window searches (one search with a wider window
/// near the end of the game); `None` if the searcher was stopped.
fn exact_score<const W: usize, const H: usize>(
    searcher: &mut Searcher<'_, W, H>,
    pos: &Position<W, H>,
    (mut min, mut max): (Score, Score),
) -> Option<Score> {
    // The score lies in [min, max]; each null-window search (a window of
    // width one) answers "is it above med?" cheaply, and narrows the range.
    // Near the end of the game the whole tree is small and each probe walks
    // most of it again: one search with the window of the whole range costs
    // less (see `FULL_WINDOW_MAX_EMPTY`). Its value is exact, since the
    // score lies strictly inside the window. Not for a range of three values
    // or fewer (the weak solve's [-1, 1]), where two null windows stay
    // cheaper: End-Easy 17.0 nodes with them against 20.9 with a window.
    if max - min > 2 && pos.empty_cells() <= FULL_WINDOW_MAX_EMPTY {
        let score = searcher.negamax(pos, min - 1, max + 1);
        return (!searcher.aborted).then_some(score);
    }
    let sign_first = probes_sign_first(pos);
    let mut done = 0;
    while min < max {
        let med = sequential_probe(done, min, max, sign_first);
        done += 1;
        let r = searcher.negamax(pos, med, med + 1);
        if searcher.aborted {
            return None;
        }
        if r <= med {
            max = r;
        } else {
            min = r;
        }
    }
    Some(min)
}

/// The exact score of `pos` (not terminal), known to lie in `[min, max]`
/// with `min` a proved lower bound, by walking up from it (see
/// [`Solver::solve_in`]): "is it above `min`?", and while a probe says yes,
/// `min` rises to the fail-soft value it returned. `None` if the searcher
/// was stopped. (`sequential_probe` makes the same walk after the sign
/// probe, chosen one probe at a time there so that the threads of a
/// parallel search can share it.)
fn walk_up<const W: usize, const H: usize>(
    searcher: &mut Searcher<'_, W, H>,
    pos: &Position<W, H>,
    mut min: Score,
    max: Score,
) -> Option<Score> {
    while min < max {
        let r = searcher.negamax(pos, min, min + 1);
        if searcher.aborted {
            return None;
        }
        if r <= min {
            break;
        }
        min = r;
    }
    Some(min)
}

/// Whether a strong solve of `pos` probes the sign of its score right after
/// the probes for a big win and a big loss, then walks away from zero (see
/// [`sequential_probe`]): for the earliest positions and those of the
/// middle game ([`SIGN_FIRST_MAX_MOVES`], [`SIGN_FIRST_MAX_EMPTY`]), whose
/// costly scores lie near zero; in between, positions mostly score far
/// from zero and keep bisecting.
fn probes_sign_first<const W: usize, const H: usize>(pos: &Position<W, H>) -> bool {
    pos.moves_played() < SIGN_FIRST_MAX_MOVES || pos.empty_cells() <= SIGN_FIRST_MAX_EMPTY
}

/// The probe (testing "score > med") that a single-thread strong solve makes
/// after `done` probes, with the score known to lie in `[min, max]`
/// (`min < max`).
///
/// The first probe asks "is it a big win?" (above half the best score):
/// cheap either way, and it settles early positions with large scores
/// (Begin-Easy: -14% nodes, -30% time; other sets unchanged). Then
/// [`next_probe`]: a window near the extremes is settled fast by the bound
/// tightening; measured on the test sets, that order beats plain bisection,
/// probing 0 first (5x the nodes on Begin-Easy, whose scores are large) and
/// one full-window search (+50% nodes on Begin-Hard, 20x on Begin-Easy).
///
/// With `sign_first` (the earliest and the middle-game positions, see
/// [`probes_sign_first`]),
/// the big-win probe is followed by a big-loss probe, then by the sign (0),
/// then the probes walk away from zero from the bound the sign returned,
/// one value at a time (`1`, `2`, ... if the score is positive; `-1`, `-2`,
/// ... if not) until one fails: scores near zero, the common case there,
/// are then settled by the two proofs they need, without the costly probes
/// near zero that bisecting adds. Walking on after the first step, rather
/// than bisecting what is left of the range, saves the probe far from the
/// score that bisection makes first: first 20 Begin-Hard lines 11,997,755
/// -> 11,551,633 nodes a line (-3.7%), the first 30 Begin-Hard lines of
/// fewer than 8 stones -5.4%. It costs +1.2% on the first 200 Begin-Medium
/// lines (641,561 -> 649,332), whose early positions score further from
/// zero (+8% on their first 40 lines of fewer than 8 stones). Walking only
/// up to scores of 2 or 4 and bisecting beyond was measured too: less gain
/// on Begin-Hard, no less loss on Begin-Medium.
fn sequential_probe(done: usize, min: Score, max: Score, sign_first: bool) -> Score {
    if done == 0 {
        return max / 2;
    }
    if sign_first {
        let valid = |m: Score| min <= m && m < max;
        if done <= 1 && min / 2 < 0 && valid(min / 2) {
            return min / 2;
        }
        if done <= 2 && valid(0) {
            return 0;
        }
        // After the sign, walk away from zero one value at a time.
        if min >= 1 {
            // Known to win: is it more than the least win proved?
            return min;
        }
        if max <= 0 {
            // Known not to win: is it at least the best outcome proved?
            return max - 1;
        }
    }
    next_probe(min, max)
}

/// The weak score (-1, 0 or 1) of `pos` (not terminal); `None` if the
/// searcher was stopped.
///
/// The exact score's null-window probes within [-1, 1] decide it, as
/// [`Solver::parallel_probes`] does on several threads: "is it above 0?"
/// settles a win, and a fail-soft answer below 0 a loss; if neither, "is it
/// above -1?" tells a draw from a loss. Until 2026-11-24 one search with the
/// window [-1, 1] did it: one thread, nodes by set [-1, 1] -> probes:
/// Middle-Medium 10,152 -> 9,446, Begin-Medium (first 200) 212,778 -> 195,725,
/// Begin-Hard (first 20) 7,947,099 -> 6,494,182 (0.52 -> 0.43 s), Middle-Easy
/// 226 -> 209, Begin-Easy unchanged, End-Easy 16.0 -> 17.0; the empty board
/// 358M -> 312M. The window [-1, 1] makes every node of the tree tell a draw
/// from both a win and a loss, where a null window asks one question.
///
/// Early in the game scores can be large, and a window around zero gives
/// the search no reason to prefer the quick wins that settle such
/// positions; two cheap null-window probes near the extremes first ("is it
/// a big win?", "a big loss?") settle most of them. Measured: Begin-Easy
/// 18,478 -> 1,687 nodes a position; on positions with 16 stones or more
/// the probes cost more than they save (+15% on Middle-Medium), so they
/// are skipped there.
fn weak_score<const W: usize, const H: usize>(
    searcher: &mut Searcher<'_, W, H>,
    pos: &Position<W, H>,
) -> Option<Score> {
    if pos.moves_played() < WEAK_PROBES_MAX_MOVES {
        let (min, max) = pos.score_range();
        for med in [max / 2, min / 2] {
            let r = searcher.negamax(pos, med, med + 1);
            if searcher.aborted {
                return None;
            }
            if r > med && r >= 1 {
                return Some(1);
            }
            if r <= med && r <= -1 {
                return Some(-1);
            }
        }
    }
    // The strong solve's probes in the range [-1, 1]: "above 0?", then
    // "above -1?" unless the first answer settled it (a fail-soft bound
    // below 0 is a loss). The value found may lie beyond the range, on the
    // right side of it.
    exact_score(searcher, pos, (-1, 1)).map(Score::signum)
}

/// The score of a position that needs no search: the game is over, or the
/// side to move wins with its next stone.
fn terminal_score<const W: usize, const H: usize>(pos: &Position<W, H>) -> Option<Score> {
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

#[cfg(test)]
mod tests {
    use super::choose_probe;

    #[test]
    fn thread_zero_makes_its_preferred_probe_unless_taken() {
        assert_eq!(choose_probe(0, 9, (-18, 19), &[], false), 9);
        assert_eq!(choose_probe(0, 9, (-18, 19), &[], true), 9);
        // Taken: the free value nearest zero, the positive one first.
        assert_eq!(choose_probe(0, 9, (-18, 19), &[9], false), 0);
        assert_eq!(choose_probe(0, 9, (-18, 19), &[9, 0], false), 1);
        assert_eq!(choose_probe(0, 9, (-18, 19), &[9, 0, 1], false), -1);
    }

    #[test]
    fn the_sign_probe_is_helped_from_later_roots_or_when_a_win_is_all_left() {
        // The earliest roots guess the probe beside the sign...
        assert_eq!(choose_probe(1, 9, (-8, 9), &[0], false), 1);
        // ...unless the score is known to be at most 1 (a weak solve).
        assert_eq!(choose_probe(1, 0, (-1, 1), &[0], false), 0);
        // Later roots help it, thread 0 too.
        assert_eq!(choose_probe(1, 9, (-8, 9), &[0], true), 0);
        assert_eq!(choose_probe(0, 0, (-8, 9), &[0], true), 0);
        // Once the sign is settled there is nothing to help.
        assert_eq!(choose_probe(1, 1, (1, 9), &[1], true), 2);
        assert_eq!(choose_probe(1, -1, (-8, 0), &[-1], true), -2);
    }
}
