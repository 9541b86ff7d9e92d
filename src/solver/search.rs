//! A search's state (`Searcher`): its tables, node counter, stop flags,
//! progress sink and the path it watches; the node itself is in `node`. The
//! search knows nothing of how it is scheduled (see `parallel`).

mod bounds;
mod node;

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::Bitboard;
use crate::book::Book;
use crate::position::Position;
use crate::settings::PROGRESS_POLL_NODES;
use crate::solver::busy::Busy;
use crate::solver::control::Progress;
use crate::solver::ordering::{cpu_has_newer_features, cpu_has_popcnt};
use crate::solver::table::{Bound, Tables};

/// One search's state: the tables, this search's node counter, and what it
/// needs to stop early or to run beside other threads.
pub(crate) struct Searcher<'t, const W: usize, const H: usize, B: Bitboard> {
    /// Bounds learnt so far, shared with other searches of the same solver.
    tables: Tables<'t, B>,
    /// Nodes visited: positions with a choice of safe moves, or settled by
    /// the node's tests ([`Searcher::search`]). A position with a single
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
    /// [`Searcher::watching_path`]), until that node is reached.
    pub aborted: bool,
    /// Whether the CPU has the POPCNT instruction (see `ordering::count`).
    popcnt: bool,
    /// Whether this CPU runs the search's copy for newer CPUs, on the
    /// board sizes that have one (see `node::search_node_newer_cpu`).
    newer_cpu: bool,
    /// The search stops (as if told to) once it has visited this many
    /// nodes, give or take [`STOP_POLL_NODES`](crate::settings::STOP_POLL_NODES).
    node_limit: u64,
    /// An opening book whose exact scores end the search of its positions.
    book: Option<&'t Book<W, H, B>>,
    /// Nodes with fewer stones than this look in `book` (0 without a book,
    /// so that the check costs one comparison per node).
    book_below: i32,
    /// Shared among the threads of a parallel search: the keys of the big
    /// nodes some thread is searching now (see [`Busy`]).
    busy: Option<&'t Busy>,
    /// The big nodes this search is inside, if it watches for their being
    /// settled by another thread (see [`Searcher::watching_path`]).
    path: Option<Vec<PathNode<B>>>,
    /// While unwinding to a big node that the table settled: its level on
    /// `path` and the score it returns.
    settled: Option<(usize, i32)>,
    /// The moves a node counts as searched before its first, by the parity
    /// of its stone count: none, or a mark off the board at the nodes this
    /// search expects to fail low, which may then defer even their first
    /// move (see [`Searcher::expecting_fail_low`]).
    searched_before_first: [B; 2],
    /// How many deferred moves a node's list starts with, by the parity of
    /// its stone count: none, or a full list (`W`) at the nodes that defer
    /// nothing, those a search expecting fail-lows expects to cut off (see
    /// [`Searcher::expecting_fail_low`]).
    deferred_before_first: [usize; 2],
    /// The key and the best move (zero for none) of the last result this
    /// search stored: a child's own, just after its search, when it stored
    /// one (see [`Searcher::refutation_square`]).
    last_record: Cell<(B, B)>,
}

/// A big node on a parallel search's path: what its table entry must say
/// to settle it (see [`Searcher::watching_path`]).
#[derive(Clone, Copy)]
struct PathNode<B: Bitboard> {
    /// Its table key.
    key: B,
    /// Its stone count (which table it is stored in).
    stones: usize,
    /// Its window when its moves began to be searched.
    alpha: i32,
    beta: i32,
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
            busy: None,
            path: None,
            settled: None,
            searched_before_first: [B::ZERO; 2],
            deferred_before_first: [0; 2],
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
    /// are searching (see [`Busy`]).
    pub fn with_busy(mut self, busy: &'t Busy) -> Self {
        self.busy = Some(busy);
        self
    }

    /// This search, consulting `book` (see [`Book::get`]).
    pub fn with_book(mut self, book: Option<&'t Book<W, H, B>>) -> Self {
        self.book = book;
        self.book_below = book.map_or(0, |b| b.depth() as i32 + 1);
        self
    }

    /// This search, abandoning the work under a big node on its path as soon
    /// as the table settles that node (needs [`Searcher::with_busy`]).
    ///
    /// Why: deferring busy moves sends a second thread to a node's next
    /// move while the first one searches the move before. If that move cuts
    /// the node off, the second thread's move was never needed. So between
    /// the moves of every big node a thread looks up the table entries of
    /// the big nodes on its path; if one now gives a bound that settles that
    /// node's window, it drops everything below that node, storing nothing,
    /// and the node returns the table's bound. Every entry is a true bound,
    /// so a score cannot change. On `535512` the sign probe took 21.8M nodes
    /// on two threads, as on one (21.9M), against 32.2M without the watch.
    /// From the earliest roots it was slower, so only later roots watch
    /// (see `later_root`).
    pub fn watching_path(mut self) -> Self {
        self.path = Some(Vec::new());
        self
    }

    /// This search, deferring even the first move of the big nodes whose
    /// stone count has the parity `parity`: the nodes it expects to fail
    /// low, all of whose moves must be searched anyway; the nodes between
    /// them, expected to cut off, defer none.
    ///
    /// Why: a node defers the moves other threads are searching only after
    /// its first move, since a node that cuts off usually does so on its
    /// first move, and a second thread sent to the next move would search
    /// it in vain. So two threads that meet on the path of a proof follow
    /// each other down it, into the same first moves, until one reaches a
    /// node whose first move the other has finished. Where a node fails
    /// low no move is searched in vain, and the second thread can start on
    /// another move at once.
    ///
    /// The nodes expected to cut off keep to the move another thread is
    /// searching: when their first move fails, the next one usually cuts
    /// off, and a thread sent past it to a third move works in vain, while
    /// on the same move it takes other moves of the fail-low nodes below.
    /// On 10x4 the second player's reply at one of the first player's
    /// opening moves was such a node: its first move failed (378M nodes on
    /// one thread), its second cut off (214M), and a thread deferring the
    /// second searched a third for 179M nodes in vain.
    ///
    /// Marks in the node's starting state (a searched move off the board,
    /// a full list of deferred moves) rather than a test in its children
    /// loop: the test made the loop of a search on one thread, which never
    /// defers, run 0.4% to 1.6% more instructions (callgrind, the first 30
    /// Middle-Medium lines); the marks cost none.
    pub fn expecting_fail_low(mut self, parity: usize) -> Self {
        // The top bit of the first column: never a cell.
        const { assert!(Position::<W, H, B>::BOARD_BITS & (1 << H) == 0) };
        self.searched_before_first[parity] = B::from_u128(1 << H);
        self.deferred_before_first[1 - parity] = W;
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

    /// Whether the table now settles a big node on this search's path. If
    /// so, the search unwinds to the first such node (from the root down),
    /// which returns the table's bound: `settled` says which and
    /// `aborted` is set until it is reached (see [`Searcher::unwind`]).
    fn settle_path(&mut self) -> bool {
        let Some(path) = self.path.as_ref() else {
            return false;
        };
        self.settled = path.iter().enumerate().find_map(|(level, node)| {
            let entry = self.tables.of(node.stones).probe(node.key)?;
            let settles = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => entry.score >= node.beta,
                Bound::Upper => entry.score <= node.alpha,
            };
            settles.then_some((level, entry.score))
        });
        self.aborted = self.settled.is_some();
        self.aborted
    }

    /// Leaves a big node of a parallel search: unmarks its `key` and takes
    /// it (at `level`, if it is on the watched path) and the nodes below it
    /// off the path.
    #[inline(always)]
    fn leave_node(&mut self, busy: Option<&Busy>, key: B, level: Option<usize>) {
        if let Some(busy) = busy {
            busy.leave(key);
            if let (Some(level), Some(path)) = (level, &mut self.path) {
                path.truncate(level);
            }
        }
    }

    /// Leaves a node while unwinding (`aborted`: the search was stopped, or
    /// a node on the watched path was settled): the node's results are void
    /// and are not stored. If this node is the settled one, the unwinding
    /// ends here and the node returns the table's bound; else 0, which the
    /// callers ignore since they unwind too. (A stop that came meanwhile is
    /// seen again at the next poll: the stop flags stay set.)
    #[cold]
    #[inline(never)]
    fn unwind(&mut self, busy: Option<&Busy>, key: B, level: Option<usize>) -> i32 {
        self.leave_node(busy, key, level);
        match self.settled {
            Some((to, score)) if level == Some(to) => {
                self.settled = None;
                self.aborted = false;
                score
            }
            _ => 0,
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
    pub fn negamax(&mut self, pos: &Position<W, H, B>, alpha: i32, beta: i32) -> i32 {
        self.search(pos, alpha, beta, pos.opponent_winning_cells())
    }
}

#[cfg(test)]
mod tests {
    use super::{PathNode, Searcher};
    use crate::position::Position;
    use crate::solver::busy::Busy;
    use crate::solver::control::Progress;
    use crate::solver::table::{Bound, Entry, Table, Tables};
    use std::sync::atomic::AtomicBool;

    type P = Position<7, 6>;

    #[test]
    fn a_search_under_a_settled_node_unwinds_to_it_storing_nothing() {
        let pos = P::parse("4453").unwrap();
        let table = Table::new(1 << 20, P::KEY_BITS as u32).unwrap();
        let (stop, busy) = (AtomicBool::new(false), Busy::new(4));
        let mut searcher = Searcher::<7, 6, u64>::parallel(Tables::single(&table), &stop)
            .with_busy(&busy)
            .watching_path();
        // A big node above the root, as if the root were one of its moves
        // and another thread had just proved a bound settling its window.
        let ancestor = 0x1234;
        table.store(
            ancestor,
            Entry {
                bound: Bound::Lower,
                score: 5,
                best: None,
                work: 10,
            },
        );
        let above = PathNode {
            key: ancestor,
            stones: 3,
            alpha: 4,
            beta: 5,
        };
        searcher.path.as_mut().unwrap().push(above);
        // "Is it above 15?" fails low on every move, so the root's search
        // goes on to a second move, where it must notice.
        searcher.negamax(&pos, 15, 16);
        assert!(searcher.aborted, "unwinding until the settled node");
        assert_eq!(searcher.settled, Some((0, 5)));
        let (root_key, _) = Searcher::<7, 6, u64>::stored_key(pos.key(), pos.moves_played());
        assert!(table.probe(root_key).is_none(), "the root stored nothing");
        assert_eq!(
            searcher.path.as_ref().unwrap().len(),
            1,
            "the root left the path"
        );
        // The settled node itself returns the table's bound and the search
        // goes on.
        assert_eq!(searcher.unwind(Some(&busy), ancestor, Some(0)), 5);
        assert!(!searcher.aborted && searcher.settled.is_none());
        assert!(searcher.path.as_ref().unwrap().is_empty());

        // Without the settled node, the same search completes.
        let table = Table::new(1 << 20, P::KEY_BITS as u32).unwrap();
        let mut searcher = Searcher::<7, 6, u64>::parallel(Tables::single(&table), &stop)
            .with_busy(&busy)
            .watching_path();
        assert!(searcher.negamax(&pos, 15, 16) <= 15);
        assert!(!searcher.aborted);
        assert!(table.probe(root_key).is_some());
    }

    #[test]
    fn deferring_every_move_of_a_node_expected_to_fail_low_keeps_its_bounds() {
        // Witness: the standard sets' scores of these lines.
        for (moves, score, line) in crate::solver::tests::LINES {
            let pos = P::parse(moves).unwrap();
            let table = Table::new(1 << 20, P::KEY_BITS as u32).unwrap();
            // A first search leaves the root a best move in the table
            // ("above score - 2?" cuts off), which the next ones try first.
            let mut searcher = Searcher::<7, 6, u64>::new(Tables::single(&table));
            assert!(
                searcher.negamax(&pos, score - 2, score - 1) >= score - 1,
                "{line}"
            );
            // "Above score?" fails low and "above score - 1?" does not, the
            // root expecting to fail low in both, while another thread
            // seems to be searching every child: each move is deferred,
            // the table's move with the others.
            for (alpha, fails_low) in [(score, true), (score - 1, false)] {
                let (stop, busy) = (AtomicBool::new(false), Busy::new(12));
                let base = pos.opponent() + pos.mask();
                let children: Vec<u64> = (0..7)
                    .filter(|&col| pos.can_play(col))
                    .map(|col| {
                        let cell = pos.move_in_column(col);
                        Searcher::<7, 6, u64>::stored_key(base + cell, pos.moves_played() + 1).0
                    })
                    .collect();
                children.iter().for_each(|&key| busy.enter(key));
                let mut searcher = Searcher::<7, 6, u64>::parallel(Tables::single(&table), &stop)
                    .with_busy(&busy)
                    .expecting_fail_low(pos.moves_played() % 2);
                let r = searcher.negamax(&pos, alpha, alpha + 1);
                // A fail-soft bound that holds the score is the score.
                assert_eq!(
                    (r, r <= alpha),
                    (score, fails_low),
                    "{line}, above {alpha}?"
                );
            }
        }
    }

    #[test]
    fn a_node_expected_to_cut_off_defers_no_move() {
        // "Above score?" fails low at the root of each line, so every
        // root move is searched. With the children of columns 1, 3, 5 and 7
        // marked busy, a plain parallel search defers them (and so
        // searches another number of nodes), while a root expected to
        // cut off searches in its own order, node for node as with no
        // marks. The Begin lines only: the Middle-Medium line searches as
        // many nodes in either order.
        for (moves, score, line) in &crate::solver::tests::LINES[..2] {
            let (score, line) = (*score, *line);
            let pos = P::parse(moves).unwrap();
            let cut_parity = pos.moves_played() % 2;
            let run = |marked: bool, fail_low_parity: Option<usize>| {
                let table = Table::new(1 << 20, P::KEY_BITS as u32).unwrap();
                let (stop, busy) = (AtomicBool::new(false), Busy::new(12));
                for col in (0..7).step_by(2).filter(|&col| marked && pos.can_play(col)) {
                    let child = pos.opponent() + pos.mask() + pos.move_in_column(col);
                    busy.enter(Searcher::<7, 6, u64>::stored_key(child, pos.moves_played() + 1).0);
                }
                let mut searcher =
                    Searcher::<7, 6, u64>::parallel(Tables::single(&table), &stop).with_busy(&busy);
                if let Some(parity) = fail_low_parity {
                    searcher = searcher.expecting_fail_low(parity);
                }
                let r = searcher.negamax(&pos, score, score + 1);
                assert_eq!(r, score, "{line}: the fail-soft bound is the score");
                searcher.nodes
            };
            let unmarked = run(false, Some(1 - cut_parity));
            assert_eq!(run(true, Some(1 - cut_parity)), unmarked, "{line}");
            assert_ne!(
                run(true, None),
                run(false, None),
                "{line}: nothing deferred"
            );
        }
    }

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
