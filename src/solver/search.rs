//! A search's state (`Searcher`): its tables, node counter, stop flags and
//! progress sink; the node itself is in `node`. The search is a search on
//! one thread that a stop flag can end: how the threads of a parallel
//! search work together is a part of its own (`cooperation`), which the
//! pool in `parallel` hands it from outside.

mod bounds;
mod cooperation;
mod node;

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::Bitboard;
use crate::book::Book;
use crate::position::Position;
use crate::settings::{NEWER_CPU_COPY_SIZES, PROGRESS_POLL_NODES};
use crate::solver::busy::Busy;
use crate::solver::control::Progress;
use crate::solver::ordering::{cpu_has_newer_features, cpu_has_popcnt};
use crate::solver::table::Tables;

use cooperation::{Cooperation, Turn};

/// Whether the board `w`x`h` has the search's copy for newer CPUs
/// ([`NEWER_CPU_COPY_SIZES`]).
const fn has_newer_cpu_copy(w: usize, h: usize) -> bool {
    let mut i = 0;
    while i < NEWER_CPU_COPY_SIZES.len() {
        if NEWER_CPU_COPY_SIZES[i].0 == w && NEWER_CPU_COPY_SIZES[i].1 == h {
            return true;
        }
        i += 1;
    }
    false
}

/// One search's state: the tables, this search's node counter, and what it
/// needs to stop early or to run beside other threads.
pub(crate) struct Searcher<'t, const W: usize, const H: usize, B: Bitboard> {
    /// Bounds learnt so far, shared with other searches of the same solver.
    tables: Tables<'t, B>,
    /// Nodes visited: positions with a choice of safe moves, or settled by
    /// the node's tests ([`Searcher::negamax`]). A position with a single
    /// safe move is played through in place and not counted (see
    /// `Searcher::search_child`).
    pub nodes: u64,
    /// Set by another thread when the answer is known and this search can
    /// stop; polled every [`STOP_POLL_NODES`](crate::settings::STOP_POLL_NODES) nodes.
    stop: Option<&'t AtomicBool>,
    /// The caller's stop flag; polled every [`PROGRESS_POLL_NODES`] nodes.
    caller_stop: Option<&'t AtomicBool>,
    /// Where the nodes are reported, every [`PROGRESS_POLL_NODES`] nodes
    /// and by [`Searcher::publish`].
    progress: Option<&'t Progress>,
    /// Nodes already reported to `progress`.
    published: u64,
    /// Whether this search was stopped and unwound: its results are void.
    /// Also set while it unwinds to a settled node of its path (see
    /// [`Cooperation::watching_path`]), until that node is reached.
    pub aborted: bool,
    /// Whether the CPU has the POPCNT instruction (see `ordering::count`).
    popcnt: bool,
    /// Whether this CPU runs the search's copy for newer CPUs, on the
    /// board sizes that have one (see `node::node_newer_cpu`).
    newer_cpu: bool,
    /// The search stops (as if told to) once it has visited this many
    /// nodes, give or take [`STOP_POLL_NODES`](crate::settings::STOP_POLL_NODES).
    node_limit: u64,
    /// An opening book whose exact scores end the search of its positions.
    book: Option<&'t Book<W, H, B>>,
    /// Nodes with fewer stones than this look in `book` (0 without a book,
    /// so that the check costs one comparison per node).
    book_below: i32,
    /// This thread's part in a parallel search, inert for a search alone.
    team: Cooperation<'t, B>,
    /// The key and the best move (zero for none) of the last result this
    /// search stored: a child's own, just after its search, when it stored
    /// one (see [`Searcher::refutation_square`]).
    last_record: Cell<(B, B)>,
}

impl<'t, const W: usize, const H: usize, B: Bitboard> Searcher<'t, W, H, B> {
    /// A search over `tables` with a node count of zero.
    pub fn new(tables: Tables<'t, B>) -> Self {
        Searcher {
            tables,
            nodes: 0,
            stop: None,
            caller_stop: None,
            progress: None,
            published: 0,
            aborted: false,
            popcnt: cpu_has_popcnt(),
            newer_cpu: cpu_has_newer_features(),
            node_limit: u64::MAX,
            book: None,
            book_below: 0,
            team: Cooperation::alone(),
            last_record: Cell::new((B::ZERO, B::ZERO)),
        }
    }

    /// A search that stops when `stop` is set: one thread of a parallel
    /// search. Every thread searches in the same order; what keeps two
    /// threads on one probe from duplicating each other is the deferring of
    /// busy moves (see [`Busy`]), not a perturbed order: a wrong first move
    /// at a node that must prove a win costs a whole refutation. Empty
    /// board, 2 threads, the weak probe: 11.4 s in one order against 23.3 s
    /// perturbed (Lazy SMP's usual recipe).
    pub fn parallel(tables: Tables<'t, B>, stop: &'t AtomicBool) -> Self {
        Searcher {
            stop: Some(stop),
            ..Self::new(tables)
        }
    }

    /// This search, giving up (setting `aborted`) after about `limit` nodes.
    pub fn with_node_limit(mut self, limit: u64) -> Self {
        self.node_limit = limit;
        self
    }

    /// This search, stopping when the caller raises `stop` and reporting
    /// its nodes to `progress`, both checked every [`PROGRESS_POLL_NODES`]
    /// nodes.
    pub fn with_control(
        mut self,
        stop: Option<&'t AtomicBool>,
        progress: Option<&'t Progress>,
    ) -> Self {
        self.caller_stop = stop;
        self.progress = progress;
        self
    }

    /// This search, deferring the moves that other threads sharing `busy`
    /// are searching (see [`Cooperation::with_busy`]).
    pub fn with_busy(mut self, busy: &'t Busy) -> Self {
        self.team = self.team.with_busy(busy);
        self
    }

    /// This search, consulting `book` (see [`Book::get`]).
    pub fn with_book(mut self, book: Option<&'t Book<W, H, B>>) -> Self {
        self.book = book;
        self.book_below = book.map_or(0, |b| b.depth() as i32 + 1);
        self
    }

    /// This search, abandoning the work under a big node on its path as soon
    /// as the table settles that node (see [`Cooperation::watching_path`]).
    pub fn watching_path(mut self) -> Self {
        self.team = self.team.watching_path();
        self
    }

    /// This search, deferring even the first move of the big nodes whose
    /// stone count has the parity `parity` (see
    /// [`Cooperation::expecting_fail_low`]).
    pub fn expecting_fail_low(mut self, parity: usize) -> Self {
        self.team = self.team.expecting_fail_low::<W, H>(parity);
        self
    }

    /// Whether the search must stop: called every [`STOP_POLL_NODES`](crate::settings::STOP_POLL_NODES)
    /// nodes (rarely enough to cost nothing, often enough for the threads
    /// of a parallel search to drop a useless probe within microseconds).
    /// Every [`PROGRESS_POLL_NODES`] nodes it also reports the nodes and
    /// reads the caller's stop flag.
    #[cold]
    #[inline(never)]
    fn poll(&mut self) -> bool {
        if self.nodes & (PROGRESS_POLL_NODES - 1) == 0 {
            self.publish();
            if self
                .caller_stop
                .is_some_and(|stop| stop.load(Ordering::Relaxed))
            {
                return true;
            }
        }
        self.nodes >= self.node_limit || self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed))
    }

    /// Reports the nodes not yet reported to the progress sink, if any.
    pub fn publish(&mut self) {
        if let Some(progress) = self.progress {
            progress.add_nodes(self.nodes - self.published);
            self.published = self.nodes;
        }
    }

    /// Reports to the progress sink what a probe "is the score above
    /// `med`?" that returned `r` proved: at most `r` if `r <= med`, else at
    /// least `r`.
    pub fn proved(&self, r: i32, med: i32) {
        if let Some(progress) = self.progress {
            if r <= med {
                progress.narrow(i32::MIN, r);
            } else {
                progress.narrow(r, i32::MAX);
            }
        }
    }

    /// Reports to the progress sink that the score is `score`.
    pub fn proved_exact(&self, score: i32) {
        if let Some(progress) = self.progress {
            progress.narrow(score, score);
        }
    }

    /// Leaves `turn`'s node while unwinding (`aborted`: the search was
    /// stopped, or a node on the watched path was settled): the node's
    /// results are void and are not stored. If this node is the settled
    /// one, the unwinding ends here and the node returns the table's bound;
    /// else 0, which the callers ignore since they unwind too. (A stop that
    /// came meanwhile is seen again at the next poll: the stop flags stay
    /// set.)
    #[cold]
    #[inline(never)]
    fn unwind(&mut self, turn: &Turn<'_, W, B>) -> i32 {
        match self.team.unwind_to(turn) {
            Some(score) => {
                self.aborted = false;
                score
            }
            None => 0,
        }
    }

    /// The score of `pos` within the window `(alpha, beta)`.
    ///
    /// Contract: `alpha < beta`; the game is not over and the side to move
    /// cannot win with its next stone (the caller checks both, so that a win
    /// in one is scored without a search).
    ///
    /// Returns `v` with the usual alpha-beta meaning: if `alpha < v < beta`,
    /// `v` is the exact score; if `v <= alpha`, the exact score is at most `v`;
    /// if `v >= beta`, it is at least `v`. If the search was stopped
    /// (`aborted` is then set) the value means nothing.
    ///
    /// The root chooses the node's copy: the one compiled for newer CPUs
    /// where this CPU runs it (see [`Searcher::node`]); every node below
    /// stays in the root's copy.
    pub fn negamax(&mut self, pos: &Position<W, H, B>, alpha: i32, beta: i32) -> i32 {
        let threats = pos.opponent_winning_cells();
        let safe = pos.non_losing_moves_given(threats);
        if const { has_newer_cpu_copy(W, H) } && self.newer_cpu {
            self.node::<true>(pos, alpha, beta, threats, safe)
        } else {
            self.node::<false>(pos, alpha, beta, threats, safe)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Searcher;
    use crate::position::Position;
    use crate::solver::control::Progress;
    use crate::solver::table::{Table, Tables};
    use std::sync::atomic::AtomicBool;

    type P = Position<7, 6>;

    #[test]
    fn a_raised_caller_flag_stops_the_search_and_the_nodes_are_reported() {
        // Begin-Hard's fourth line: millions of nodes, far more than a poll
        // interval.
        let pos = P::parse("751321").unwrap();
        let table = Table::new(1 << 20, P::KEY_BITS as u32).unwrap();
        let (stop, progress) = (AtomicBool::new(true), Progress::new());
        let mut searcher = Searcher::<7, 6, u64>::new(Tables::single(&table))
            .with_control(Some(&stop), Some(&progress));
        searcher.negamax(&pos, 0, 1);
        assert!(searcher.aborted);
        assert_eq!(searcher.nodes, crate::settings::PROGRESS_POLL_NODES);
        assert_eq!(progress.nodes(), searcher.nodes);
        let (root_key, _) = Searcher::<7, 6, u64>::stored_key(pos.key(), pos.moves_played());
        assert!(table.probe(root_key).is_none(), "the root stored nothing");
    }

    /// Asserts that `negamax` on `moves` gives the same value after the
    /// same nodes in the search's copy for newer CPUs as in the portable
    /// one, for each window (a fresh 1 MiB table each time), and that each
    /// search is a real one.
    fn assert_copies_agree<const W: usize, const H: usize>(
        moves: &str,
        windows: &[(i32, i32)],
        line: &str,
    ) {
        let pos = Position::<W, H, u64>::parse(moves).unwrap();
        for &(alpha, beta) in windows {
            let run = |newer_cpu: bool| {
                let table = Table::new(1 << 20, Position::<W, H, u64>::KEY_BITS as u32).unwrap();
                let mut searcher = Searcher::<W, H, u64>::new(Tables::single(&table));
                searcher.newer_cpu = newer_cpu;
                (searcher.negamax(&pos, alpha, beta), searcher.nodes)
            };
            let fast = run(true);
            assert_eq!(fast, run(false), "{line}, window ({alpha}, {beta})");
            assert!(fast.1 > 1000, "{line}: a real search");
        }
    }

    #[test]
    fn the_copy_for_newer_cpus_searches_as_the_portable_one() {
        // Witness: the portable search (every other board runs it). The
        // two copies are one source compiled twice, so every probe must
        // return the same bound after the same nodes, window by window.
        if !crate::solver::ordering::cpu_has_newer_features() {
            println!("skipped: this CPU lacks x86-64-v3, so the search has one copy");
            return;
        }
        for (moves, score, line) in crate::solver::tests::LINES {
            let windows = [(score - 1, score), (score, score + 1), (-1, 1), (-21, 21)];
            assert_copies_agree::<7, 6>(moves, &windows, line);
        }
        // A 9x4 line of `testsets/mid-9x4.txt` (score 2, 94,039 nodes to
        // solve): the four-row rules and the moves taken by set bit.
        assert_copies_agree::<9, 4>(
            "275143999978",
            &[(1, 2), (2, 3), (-1, 1)],
            "9x4 275143999978",
        );
    }
}
