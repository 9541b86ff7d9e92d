//! The negamax alpha-beta search.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::book::Book;
use crate::position::{Position, row_mask};
use crate::settings::{
    DEFER_MIN_EMPTY, ETC_MIN_EMPTY, LIVE_WINDOW_WEIGHT, LIVE_WINDOWS_MIN_EMPTY, SYMMETRY_MAX_MOVES,
    THREAT_SCORE_WEIGHT,
};
use crate::solver::ordering::{MoveSorter, center_first_order};
use crate::solver::table::{Bound, Entry, Table};

/// One search's state: the shared table, this search's node counter, and
/// what it needs to run beside other threads.
pub(crate) struct Searcher<'t, const W: usize, const H: usize> {
    /// Bounds learnt so far, shared with other searches of the same solver.
    tables: Tables<'t>,
    /// Nodes visited (calls of [`Searcher::negamax`]).
    pub nodes: u64,
    /// Set by another thread when the answer is known and this search can
    /// stop; polled every [`STOP_POLL_NODES`] nodes.
    stop: Option<&'t AtomicBool>,
    /// Whether this search saw `stop` and unwound: its results are void.
    /// Also set while it unwinds to a settled node of its path (see
    /// [`Searcher::watching_path`]), until that node is reached.
    pub aborted: bool,
    /// Whether the CPU has the POPCNT instruction (see [`Searcher::count`]).
    popcnt: bool,
    /// The search stops (as if told to) once it has visited this many
    /// nodes, give or take [`STOP_POLL_NODES`].
    node_limit: u64,
    /// An opening book whose exact scores end the search of its positions.
    book: Option<&'t Book<W, H>>,
    /// Nodes with fewer stones than this look in `book` (0 without a book,
    /// so that the check costs one comparison per node).
    book_below: i32,
    /// Shared among the threads of a parallel search: the keys of the big
    /// nodes some thread is searching now (see [`Busy`]).
    busy: Option<&'t Busy>,
    /// The big nodes this search is inside, if it watches for their being
    /// settled by another thread (see [`Searcher::watching_path`]).
    path: Option<Vec<PathNode>>,
    /// While unwinding to a big node that the table settled: its level on
    /// `path` and the score it returns.
    settled: Option<(usize, i32)>,
}

/// A big node on a parallel search's path: what its table entry must say
/// to settle it (see [`Searcher::watching_path`]).
#[derive(Clone, Copy)]
struct PathNode {
    /// Its table key.
    key: u64,
    /// Its stone count (which table it is stored in).
    stones: usize,
    /// Its window when its moves began to be searched.
    alpha: i32,
    beta: i32,
}

/// The nodes that the threads of one parallel search are in the middle of
/// searching, by key, for nodes with at least [`DEFER_MIN_EMPTY`] empty
/// cells: one slot per hash of the key, the last thread to enter a node
/// owning its slot (a lost mark only means less deferring).
///
/// Why: Lazy SMP threads share results through the table but walk the tree
/// in nearly the same order, so two threads often search the same big
/// subtree at the same moment. A node whose moves must all be searched (it
/// fails low) searches its first move, then defers the moves another
/// thread is already searching to the end, when their results are likely
/// in the table (the idea of ABDADA, Weill 1996). A node's first move is
/// never deferred, so a node expected to cut off behaves as before. The
/// order of moves changes, never the set searched: scores are unchanged.
pub(crate) struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    /// An empty set of `1 << bits` slots.
    pub fn new(bits: u32) -> Self {
        Busy {
            slots: (0..1usize << bits).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &AtomicU64 {
        // Keys are position encodings, not hashes: mix before indexing.
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.slots[(h >> 40) as usize & (self.slots.len() - 1)]
    }

    /// Marks `key` as being searched.
    #[inline(always)]
    fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Unmarks `key`, unless another node took its slot since.
    #[inline(always)]
    fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Whether some thread is searching `key`.
    #[inline(always)]
    fn contains(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }
}

/// The two tables a search stores its bounds in: nodes with few stones,
/// whose subtrees are big and few, in the large table; the many nodes near
/// the leaves in a small one that stays in cache.
///
/// Why: a probe lands at a random place, so a search over a large table
/// waits on DRAM at almost every node, while nearly all nodes are deep ones
/// whose results are cheap to recompute. Keeping those in a small table
/// makes most probes cache hits, and the large table still holds the
/// expensive results near the root. Each position always goes to the same
/// table (the choice depends on its stone count only), and both hold only
/// true bounds, so the split changes speed, never a score.
#[derive(Clone, Copy)]
pub(crate) struct Tables<'t> {
    /// Table of the nodes with fewer than `large_below` stones.
    pub large: &'t Table,
    /// Table of the other nodes.
    pub small: &'t Table,
    /// Stone count from which nodes use `small`.
    pub large_below: usize,
}

impl<'t> Tables<'t> {
    /// One table for every node.
    pub fn single(table: &'t Table) -> Self {
        Tables {
            large: table,
            small: table,
            large_below: 0,
        }
    }

    /// The table of nodes with `stones` stones.
    #[inline(always)]
    fn of(&self, stones: usize) -> &'t Table {
        if stones < self.large_below {
            self.large
        } else {
            self.small
        }
    }
}

/// Whether this CPU has the POPCNT instruction.
fn cpu_has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// How often (in nodes, a power of two) a search polls its stop flag: rare
/// enough to cost nothing, often enough to stop within microseconds.
const STOP_POLL_NODES: u64 = 1 << 10;

impl<'t, const W: usize, const H: usize> Searcher<'t, W, H> {
    /// Columns from the centre outwards: a central stone takes part in more
    /// possible alignments, so central moves are more often the best.
    const ORDER: [usize; W] = center_first_order::<W>();
    /// Cells of the board, as a score-sized integer.
    const CELLS: i32 = (W * H) as i32;
    /// Rows (0-based) whose index has the parity of `H`: with an even number
    /// of empty cells in every column, the next stone of each column lands on
    /// such a row.
    const SAME_PARITY_ROWS: u64 = {
        let mut rows = 0;
        let mut r = 0;
        while r < H {
            if r % 2 == H % 2 {
                rows |= row_mask(W, H, r);
            }
            r += 1;
        }
        rows
    };
    /// The other rows: a column's lowest empty cell lies on one of these iff
    /// the column has an odd number of empty cells.
    const OTHER_PARITY_ROWS: u64 = Position::<W, H>::BOARD & !Self::SAME_PARITY_ROWS;

    /// A search over `tables` with a node count of zero.
    pub fn new(tables: Tables<'t>) -> Self {
        Searcher {
            tables,
            nodes: 0,
            stop: None,
            aborted: false,
            popcnt: cpu_has_popcnt(),
            node_limit: u64::MAX,
            book: None,
            book_below: 0,
            busy: None,
            path: None,
            settled: None,
        }
    }

    /// A search that stops when `stop` is set: one thread of a parallel
    /// search.
    ///
    /// Every thread searches in the same order; what keeps two threads
    /// searching one probe from duplicating each other is the deferring of
    /// busy moves (see [`Busy`]), not a perturbed order. Until 2026-11-24
    /// the helpers perturbed their move order at random (Lazy SMP's usual
    /// recipe). Empty board, 2 threads, one weak probe ("is it above 0?")
    /// on both threads: 23.3 s and 584M nodes perturbed, 11.4 s and 322M in
    /// the same order (one thread: 21 s, 312M). The strong solve, median of
    /// three alternated runs: 18.8 s against 22.3 s; first 20 Begin-Hard
    /// lines each solved alone, no worse (0.56-0.70 s against 0.58-0.75 s).
    /// A wrong first move at a node of the side that must prove a win costs
    /// a whole refutation, so a perturbed order wastes most of a helper's
    /// work.
    pub fn parallel(tables: Tables<'t>, stop: &'t AtomicBool) -> Self {
        Searcher {
            stop: Some(stop),
            ..Self::new(tables)
        }
    }

    /// A search that gives up (sets `aborted`) after about `limit` nodes.
    pub fn limited(tables: Tables<'t>, limit: u64) -> Self {
        Searcher {
            node_limit: limit,
            ..Self::new(tables)
        }
    }

    /// This search, deferring the moves that other threads sharing `busy`
    /// are searching (see [`Busy`]).
    pub fn with_busy(mut self, busy: &'t Busy) -> Self {
        self.busy = Some(busy);
        self
    }

    /// This search, abandoning the work under a big node on its path as soon
    /// as the table settles that node (needs [`Searcher::with_busy`]).
    ///
    /// Why: deferring busy moves sends a second thread to a node's next
    /// move while the first one searches the move before. If that move cuts
    /// the node off, the second thread's move was never needed, yet it used
    /// to search it to the end. Now, between the moves of every big node,
    /// a thread looks up the table entries of the big nodes on its path; if
    /// one now gives a bound that settles that node's window, it drops
    /// everything below that node, storing nothing, and the node returns
    /// the table's bound. Every entry is a true bound, so a score cannot
    /// change. The check costs a few table probes per move of a big node,
    /// and nothing to a search on one thread.
    ///
    /// Measured (2026-11-25, seventh session) with an experiment binary, 2
    /// threads, first 20 Begin-Hard lines each solved alone (sums of the 20
    /// solve times), the sign probe helped (see `choose_probe` in
    /// `src/solver/mod.rs`): four alternated rounds, 5.30-5.62 s and
    /// 217M-224M nodes watching, 5.52-5.71 s and 226M-233M not. On
    /// `535512` the sign probe took 21.8M nodes on two threads, as on one
    /// (21.9M), against 32.2M without the watch. Checking only the nodes
    /// where a move was deferred, or also every 1024 nodes below the big
    /// nodes, did no better. From the empty board, where the path is long
    /// and the big nodes' entries are in the full table, it was slower
    /// (5.9 and 6.1 s, 262M-264M nodes, against 5.5 and 5.6 s, 248M-249M),
    /// so only later roots watch (see `later_root` in `src/solver/mod.rs`).
    /// The built binaries, with the sign helped, against the previous
    /// ones, four alternated rounds: 5.34-5.43 s (218M-223M nodes) against
    /// 5.56-5.73 s (230M-239M); one thread unchanged (201.3M nodes).
    pub fn watching_path(mut self) -> Self {
        self.path = Some(Vec::new());
        self
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

    /// Leaves a big node of a parallel search (`busy` is set only for
    /// those): unmarks its `key` and takes it (at `level`, if it is on the
    /// watched path) and the nodes below it off the path.
    #[inline(always)]
    fn leave_node(&mut self, busy: Option<&Busy>, key: u64, level: Option<usize>) {
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
    /// seen again at the next poll: the stop flag stays set.)
    #[cold]
    #[inline(never)]
    fn unwind(&mut self, busy: Option<&Busy>, key: u64, level: Option<usize>) -> i32 {
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

    /// This search, consulting `book` (see [`Book::get`]).
    pub fn with_book(mut self, book: Option<&'t Book<W, H>>) -> Self {
        self.book = book;
        self.book_below = book.map_or(0, |b| b.depth() as i32 + 1);
        self
    }

    /// The score of `pos` within the window `(alpha, beta)`.
    ///
    /// Contract: `alpha < beta`; the game is not over and the side to move
    /// cannot win with its next stone (the caller checks both, so that a win
    /// in one is scored without a search).
    ///
    /// Returns `v` with the usual alpha-beta meaning: if `alpha < v < beta`,
    /// `v` is the exact score; if `v <= alpha`, the exact score is at most `v`;
    /// if `v >= beta`, it is at least `v`.
    pub fn negamax(&mut self, pos: &Position<W, H>, alpha: i32, beta: i32) -> i32 {
        self.search(pos, alpha, beta, pos.opponent_winning_cells())
    }

    /// [`Searcher::negamax`] with the opponent's completing cells
    /// ([`Position::opponent_winning_cells`]) already at hand: the parent
    /// computed them when it scored this move for ordering (they are the
    /// threats the move leaves its player), so the child does not compute
    /// them again. Callgrind, nodes unchanged: -6.0% instructions on the
    /// first 30 Middle-Medium lines, -7.3% on 100 Begin-Easy, -6.0% on 5
    /// Begin-Medium.
    fn search(
        &mut self,
        pos: &Position<W, H>,
        mut alpha: i32,
        mut beta: i32,
        opponent_threats: u64,
    ) -> i32 {
        debug_assert!(alpha < beta);
        debug_assert!(!pos.can_win_next());
        debug_assert_eq!(opponent_threats, pos.opponent_winning_cells());
        self.nodes += 1;
        if self.nodes & (STOP_POLL_NODES - 1) == 0
            && (self.nodes >= self.node_limit
                || self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed)))
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let nodes_before = self.nodes;
        let moves = pos.moves_played() as i32;

        // Only moves that do not let the opponent win at once are worth a
        // look; if there are none, the opponent wins with its next stone.
        let candidates = pos.non_losing_moves_given(opponent_threats);
        if candidates == 0 {
            return -(Self::CELLS - moves) / 2;
        }
        // With two cells left and a safe move, nobody can win any more.
        if moves >= Self::CELLS - 2 {
            return 0;
        }

        // Score-bound tightening. The opponent cannot win with its next stone
        // (we have a safe move), so the worst case is losing to its second
        // stone from now; we cannot win with this stone, so the best case is
        // winning with our second. Narrowing the window to what is reachable
        // closes it at once when the caller asks for more than that.
        let min = -(Self::CELLS - 2 - moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let max = (Self::CELLS - 1 - moves) / 2;
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }

        // Dead positions: if even every empty cell could not give a side four
        // in a row, that side cannot win any more.
        let empty = Position::<W, H>::BOARD & !pos.mask();
        if beta > 0 && !Position::<W, H>::has_four(pos.current() | empty) {
            beta = 0;
            if alpha >= beta {
                return beta;
            }
        }
        if alpha < 0 && !Position::<W, H>::has_four(pos.opponent() | empty) {
            alpha = 0;
            if alpha >= beta {
                return alpha;
            }
        }

        // Claimeven. If every column has an even number of empty cells, the
        // opponent can answer each of our moves by playing on top of it, in
        // the same column, until the board is full. We then get exactly the
        // empty cells on rows of the parity of H (the first of every column
        // from now), the opponent the others. If our stones plus all those
        // cells hold no four in a row, we cannot win against that strategy:
        // our score is at most 0. The follow-up may hand the opponent a win,
        // so this says nothing about a lower bound.
        //
        // The same strategy is ours when exactly one column has an odd
        // number of empty cells: we play there, leaving every column even,
        // then answer each move on top of it. The opponent ends with its
        // stones plus the empty cells on rows of the parity of H, we with
        // the others. If the opponent's hold no four, it can never win:
        // our score is at least 0; if ours then hold a four, we win at the
        // latest with our last stone: at least 1. Nodes: -5.8% on
        // Middle-Medium (first 300), -3.1% on Begin-Medium (first 40),
        // -0.5% on Begin-Easy; instructions (callgrind) -10.1% on the first
        // 30 Middle-Medium lines, -2% on Begin-Easy and Begin-Medium.
        // (Also lowering beta to -1 when the opponent's cells hold a four in
        // the all-even case saves nothing more: the child, with one odd
        // column, finds it.)
        let odd_columns = pos.possible() & Self::OTHER_PARITY_ROWS;
        if odd_columns == 0 {
            if beta > 0 {
                let ours = pos.current() | (empty & Self::SAME_PARITY_ROWS);
                if !Position::<W, H>::has_four(ours) {
                    beta = 0;
                    if alpha >= beta {
                        return beta;
                    }
                }
            }
        } else if alpha < 1 && odd_columns & (odd_columns - 1) == 0 {
            let theirs = pos.opponent() | (empty & Self::SAME_PARITY_ROWS);
            if !Position::<W, H>::has_four(theirs) {
                alpha = alpha.max(0);
                if alpha < 1
                    && Position::<W, H>::has_four(pos.current() | (empty & Self::OTHER_PARITY_ROWS))
                {
                    alpha = 1;
                }
                if alpha >= beta {
                    return alpha;
                }
            }
        }

        // A single safe move (most often a forced block) is the whole node:
        // its score is ours. Skipping the table here saves two memory
        // accesses per forced move without losing anything, since the
        // child's own entry holds the same information.
        if candidates & (candidates - 1) == 0 {
            let mut child = *pos;
            child.play(candidates);
            return -self.negamax(&child, -beta, -alpha);
        }

        // An opening book position's exact score is known: it is a valid
        // answer to any window.
        if moves < self.book_below
            && let Some(score) = self.book.and_then(|book| book.get(pos))
        {
            return score;
        }

        // The children's table buckets, for the enhanced transposition
        // cutoff below, are asked for before this node's own entry is
        // probed, so that their loads overlap that probe. Same instructions,
        // 3-4% less CPU time (user time, 3 runs each, Middle-Medium first
        // 300: 1.13-1.17 s -> 1.09-1.12 s; Begin-Medium first 40: 3.46-3.54 s
        // -> 3.33-3.39 s). Asking even before the bound checks saved as much
        // time but cost 5-10% more instructions (keys of nodes that return
        // early).
        let etc = Self::CELLS - moves >= ETC_MIN_EMPTY;
        let mut keys = [0u64; W];
        let table = self.tables.of(pos.moves_played());
        let child_table = self.tables.of(pos.moves_played() + 1);
        if etc {
            // A child's key is `opponent + mask + cell` (the child's side to
            // move owns our opponent's stones): no need to play the move.
            let base = pos.opponent() + pos.mask();
            let child_moves = pos.moves_played() + 1;
            let mut rest = candidates;
            while rest != 0 {
                let cell = rest & rest.wrapping_neg();
                rest ^= cell;
                let key = Self::stored_key(base + cell, child_moves).0;
                keys[Position::<W, H>::column_of(cell)] = key;
                child_table.prefetch(key);
            }
        }

        // Whatever an earlier search proved about this position narrows the
        // window the same way, and may settle it without a search.
        let (key, mirrored) = Self::stored_key(pos.key(), pos.moves_played());
        let mut table_move = None;
        if let Some(entry) = table.probe(key) {
            match entry.bound {
                Bound::Exact => return entry.score,
                Bound::Lower => {
                    if entry.score > alpha {
                        alpha = entry.score;
                        if alpha >= beta {
                            return alpha;
                        }
                    }
                }
                Bound::Upper => {
                    if entry.score < beta {
                        beta = entry.score;
                        if alpha >= beta {
                            return beta;
                        }
                    }
                }
            }
            table_move = entry
                .best
                .map(|col| if mirrored { W - 1 - col } else { col });
        }

        // Enhanced transposition cutoff: a child whose stored upper bound is
        // low enough proves this node fails high without searching anything;
        // a child whose stored lower bound is high enough cannot raise alpha
        // and is skipped below. Probing costs memory accesses, so it is done
        // only where the subtrees are big enough to be worth saving.
        // `child_cap[col]` is the most that searching column `col` can give.
        let mut child_cap = [i32::MAX; W];

        if etc {
            let mut rest = candidates;
            while rest != 0 {
                let cell = rest & rest.wrapping_neg();
                rest ^= cell;
                let col = Position::<W, H>::column_of(cell);
                if let Some(entry) = child_table.probe(keys[col]) {
                    if entry.bound != Bound::Lower && -entry.score >= beta {
                        self.record(
                            table,
                            (key, mirrored),
                            Bound::Lower,
                            -entry.score,
                            Some(cell),
                            nodes_before,
                        );
                        return -entry.score;
                    }
                    if entry.bound != Bound::Upper {
                        child_cap[col] = -entry.score;
                    }
                }
            }
        }

        // The move that was best last time goes first, before the others are
        // even scored: it usually still cuts off, and then the scoring (a
        // threat count per move, the costliest part of a node) is never paid.
        // The other moves follow, those that create the most useful threats
        // first (near the root, weighed with the live windows through the
        // move's cell), centre first on ties.
        let mut first = table_move
            .map(|col| candidates & Position::<W, H>::column_mask(col))
            .filter(|&cell| cell != 0);
        let remaining = candidates & !first.unwrap_or(0);
        let mut sorter: Option<MoveSorter<W>> = None;
        // The threats each sorted move leaves us, by column (the child's
        // opponent threats), filled in when the moves are scored.
        let mut child_threats = [0u64; W];
        let mut best = None;
        // Fail-soft low: the highest upper bound any move was shown to
        // have, and the moves searched (the others' bounds are in
        // `child_cap`). Returning and storing it when every move fails low,
        // instead of alpha, gives the root and the table tighter bounds.
        // Nodes: -3.5% on Middle-Medium (first 300), -1.2% on Begin-Medium
        // (first 40), -1.5% on Begin-Hard (first 5), +0.7% on Begin-Easy;
        // callgrind: -3.2% instructions on 30 Middle-Medium lines, +1.5% on
        // 100 Begin-Easy.
        let mut value = i32::MIN;
        let mut searched = 0u64;
        // Parallel search of a big node: mark it, and defer the moves other
        // threads are searching (see `Busy`; `keys` holds the children's
        // keys since such a node does the ETC probes).
        let busy = self
            .busy
            .filter(|_| Self::CELLS - moves >= DEFER_MIN_EMPTY as i32 && etc);
        // This node's level on the watched path, if it is on it.
        let mut level = None;
        if let Some(busy) = busy {
            busy.enter(key);
            if let Some(path) = &mut self.path {
                level = Some(path.len());
                path.push(PathNode {
                    key,
                    stones: pos.moves_played(),
                    alpha,
                    beta,
                });
            }
        }
        let mut deferred = [0u64; W];
        let (mut deferred_len, mut deferred_next) = (0, 0);
        loop {
            let (cell, threats) = match first.take() {
                Some(cell) => (
                    cell,
                    Position::<W, H>::completing_cells(pos.current() | cell, pos.mask() | cell),
                ),
                None => {
                    let sorter = sorter.get_or_insert_with(|| {
                        self.order_moves(
                            pos,
                            remaining,
                            &child_cap,
                            alpha,
                            opponent_threats,
                            &mut child_threats,
                        )
                    });
                    match sorter.next() {
                        Some(cell) => (cell, child_threats[Position::<W, H>::column_of(cell)]),
                        None if deferred_next < deferred_len => {
                            let cell = deferred[deferred_next];
                            deferred_next += 1;
                            (cell, child_threats[Position::<W, H>::column_of(cell)])
                        }
                        None => break,
                    }
                }
            };
            let col = Position::<W, H>::column_of(cell);
            if child_cap[col] <= alpha {
                continue;
            }
            if let Some(busy) = busy
                && searched != 0
                && deferred_len < W
                && deferred_next == 0
                && busy.contains(keys[col])
            {
                deferred[deferred_len] = cell;
                deferred_len += 1;
                continue;
            }
            if level.is_some() && searched != 0 && self.settle_path() {
                return self.unwind(busy, key, level);
            }
            let mut child = *pos;
            child.play(cell);
            searched |= cell;
            let score = -self.search(&child, -beta, -alpha, threats);
            if self.aborted {
                return self.unwind(busy, key, level);
            }
            value = value.max(score);
            if score >= beta {
                self.leave_node(busy, key, level);
                self.record(
                    table,
                    (key, mirrored),
                    Bound::Lower,
                    score,
                    Some(cell),
                    nodes_before,
                );
                return score;
            }
            if score > alpha {
                alpha = score;
                best = Some(cell);
            }
        }
        self.leave_node(busy, key, level);
        // A child inside the window gave its exact score; every other one is
        // at most alpha: alpha is exact. Otherwise it is only an upper bound.
        match best {
            Some(cell) => self.record(
                table,
                (key, mirrored),
                Bound::Exact,
                alpha,
                Some(cell),
                nodes_before,
            ),
            None => {
                // Every move is at most `value`: searched ones returned at
                // most that, skipped ones had a table bound at most alpha.
                let mut rest = candidates & !searched;
                while rest != 0 {
                    let cell = rest & rest.wrapping_neg();
                    rest ^= cell;
                    value = value.max(child_cap[Position::<W, H>::column_of(cell)]);
                }
                debug_assert!(value <= alpha);
                let best = table_move.map(Position::<W, H>::column_mask);
                self.record(
                    table,
                    (key, mirrored),
                    Bound::Upper,
                    value,
                    best,
                    nodes_before,
                );
                return value;
            }
        }
        alpha
    }

    /// The moves of `moves` sorted for search, leaving out those whose
    /// table-proved cap (`child_cap`, by column) cannot raise `alpha`.
    #[inline(always)]
    fn order_moves(
        &mut self,
        pos: &Position<W, H>,
        moves: u64,
        child_cap: &[i32; W],
        alpha: i32,
        opponent_threats: u64,
        child_threats: &mut [u64; W],
    ) -> MoveSorter<W> {
        let mut sorter = MoveSorter::<W>::new();
        // Near the root, the live windows through each move's cell count
        // too (see `LIVE_WINDOWS_MIN_EMPTY`): few moves make threats there.
        let live = (pos.empty_cells() >= LIVE_WINDOWS_MIN_EMPTY).then(|| pos.live_window_starts());
        for &col in Self::ORDER.iter().rev() {
            let cell = moves & Position::<W, H>::column_mask(col);
            if cell != 0 && child_cap[col] > alpha {
                let mask = pos.mask() | cell;
                let ours = Position::<W, H>::completing_cells(pos.current() | cell, mask);
                child_threats[col] = ours;
                // A move that leaves the opponent no safe reply (two
                // immediate threats, one under another of ours, or every
                // playable cell under one of ours) wins with our next stone:
                // the best score there is, so it goes first. The child would
                // see it at once, but the move's ordinary score does not
                // always put it first. Nodes: -8.0% on Begin-Easy (first
                // 300), -4.5% on Begin-Medium (first 40), -3.7% on
                // Begin-Hard (first 5), -2.9% on Middle-Medium (first 300),
                // -6.7% on Middle-Easy. (Also skipping the call of such a
                // child, scoring it in place, cost more instructions than it
                // saved.)
                let playable = (mask + Position::<W, H>::BOTTOM) & Position::<W, H>::BOARD;
                let forced = playable & ours;
                let wins = if forced != 0 {
                    forced & (forced - 1) != 0 || forced & (ours >> 1) != 0
                } else {
                    playable & !(ours >> 1) == 0
                };
                let score = if wins {
                    i32::MAX
                } else {
                    let threats = self.move_order_score(mask, ours, opponent_threats);
                    match &live {
                        Some(live) => {
                            THREAT_SCORE_WEIGHT * threats
                                + LIVE_WINDOW_WEIGHT * self.live_windows_through(cell, live)
                        }
                        None => threats,
                    }
                };
                sorter.add(cell, score);
            }
        }
        sorter
    }

    /// How promising a move looks, for move ordering (higher first), from
    /// `mask`, the occupied cells after it, and `ours`, the threats it leaves
    /// us.
    ///
    /// Counts the threats the move leaves us (empty cells that would complete
    /// four), leaving out those directly above an opponent's threat (the
    /// opponent wins below before we can use them). Two kinds count extra: a
    /// threat right above a playable cell (the opponent can never play under
    /// it, which restricts its moves) and an immediate threat (the opponent
    /// must block it now). Weights 4/2/1 were chosen by node counts: against
    /// the plain threat count they save 21% of the nodes on Middle-Medium, 26%
    /// on Begin-Medium and 15% on Begin-Easy; larger weights on immediate
    /// threats help Begin-Easy but cost more elsewhere.
    #[inline(always)]
    fn move_order_score(&self, mask: u64, ours: u64, opponent_threats: u64) -> i32 {
        let useful = ours & !(opponent_threats << 1);
        let playable = (mask + Position::<W, H>::BOTTOM) & Position::<W, H>::BOARD;
        4 * self.count(useful)
            + 2 * self.count(useful & (playable << 1))
            + self.count(useful & playable)
    }

    /// How many of the live windows `live` (from
    /// [`Position::live_window_starts`]) contain the cell `cell`.
    #[inline(always)]
    fn live_windows_through(&self, cell: u64, live: &[u64; 4]) -> i32 {
        let mut n = 0;
        for (&step, &starts) in Position::<W, H>::DIRECTIONS.iter().zip(live) {
            n += self.count(Position::<W, H>::window_starts_through(cell, step) & starts);
        }
        n
    }

    /// Number of set bits of `x`.
    ///
    /// The default x86-64 target has no popcount instruction, and the
    /// portable bit-twiddling count was 13% of all instructions executed (the
    /// move ordering counts bits three times per move). So when the CPU has
    /// the instruction (checked once per search), it is used through inline
    /// assembly; the branch on the flag is always predicted.
    #[inline(always)]
    fn count(&self, x: u64) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.popcnt {
            let n: u64;
            // SAFETY: `popcnt` is only reached when the CPU reports the
            // POPCNT feature; it reads a register and writes one, touching no
            // memory or stack.
            unsafe {
                std::arch::asm!(
                    "popcnt {n}, {x}",
                    x = in(reg) x,
                    n = lateout(reg) n,
                    options(pure, nomem, nostack)
                );
            }
            return n as i32;
        }
        x.count_ones() as i32
    }

    /// The key a position is stored under, and whether it is the mirror
    /// image's, from its plain key and its number of stones. Early in the
    /// game a position and its mirror image are often both reached, so they
    /// share an entry; later this almost never happens and computing the
    /// mirror (an eighth of the time per node) is not worth it.
    #[inline(always)]
    fn stored_key(key: u64, moves: usize) -> (u64, bool) {
        if moves < SYMMETRY_MAX_MOVES {
            let mirrored = Position::<W, H>::mirror(key);
            if mirrored < key {
                return (mirrored, true);
            }
        }
        (key, false)
    }

    /// Stores a search result in `table` (the node's, see [`Tables`]), with
    /// the work it took (log2 of its nodes).
    #[inline(always)]
    fn record(
        &self,
        table: &Table,
        (key, mirrored): (u64, bool),
        bound: Bound,
        score: i32,
        cell: Option<u64>,
        nodes_before: u64,
    ) {
        let nodes = self.nodes - nodes_before + 1;
        table.store(
            key,
            Entry {
                bound,
                score,
                best: cell.map(|c| {
                    let col = Position::<W, H>::column_of(c);
                    if mirrored { W - 1 - col } else { col }
                }),
                work: 64 - nodes.leading_zeros(),
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{Busy, PathNode, Searcher, Tables};
    use crate::position::Position;
    use crate::solver::table::{Bound, Entry, Table};
    use std::sync::atomic::AtomicBool;

    type P = Position<7, 6>;

    #[test]
    fn a_search_under_a_settled_node_unwinds_to_it_storing_nothing() {
        let pos = P::parse("4453").unwrap();
        let table = Table::new(1 << 20, P::KEY_BITS as u32).unwrap();
        let (stop, busy) = (AtomicBool::new(false), Busy::new(4));
        let mut searcher = Searcher::<7, 6>::parallel(Tables::single(&table), &stop)
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
        let (root_key, _) = Searcher::<7, 6>::stored_key(pos.key(), pos.moves_played());
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
        let mut searcher = Searcher::<7, 6>::parallel(Tables::single(&table), &stop)
            .with_busy(&busy)
            .watching_path();
        assert!(searcher.negamax(&pos, 15, 16) <= 15);
        assert!(!searcher.aborted);
        assert!(table.probe(root_key).is_some());
    }

    #[test]
    fn busy_marks_and_unmarks_keys() {
        let busy = Busy::new(4);
        let (a, b) = (0x1234_5678_9abc, 0x0fed_cba9_8765);
        assert!(!busy.contains(a) && !busy.contains(b));
        busy.enter(a);
        assert!(busy.contains(a));
        busy.leave(a);
        assert!(!busy.contains(a));
        // A key that took the slot over is not unmarked by the old one.
        let c = (1..1u64 << 20)
            .find(|&k| k != a && std::ptr::eq(busy.slot(k), busy.slot(a)))
            .unwrap();
        busy.enter(a);
        busy.enter(c);
        assert!(busy.contains(c) && !busy.contains(a));
        busy.leave(a);
        assert!(busy.contains(c));
        busy.leave(c);
        assert!(!busy.contains(c));
    }
}
