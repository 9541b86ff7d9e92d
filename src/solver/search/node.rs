//! The node: [`Searcher::negamax`] as a sequence of named steps (terminal
//! checks, bound tightening, table probe, enhanced transposition cutoffs,
//! the children loop with its move order, the store), each an
//! `#[inline(always)]` helper that settles the node or narrows its window.
//! The steps that need only the position are in `bounds`.

mod forced;

use std::ops::ControlFlow::{self, Break, Continue};

use crate::Bitboard;
use crate::position::Position;
use crate::settings::{
    DEFER_MIN_EMPTY, ETC_MIN_EMPTY, NEWER_CPU_COPY_SIZES, STOP_POLL_NODES, SYMMETRY_MAX_MOVES,
};
use crate::solver::busy::Busy;
use crate::solver::ordering::{MoveSorter, leaves_no_safe_reply, order_moves, prefer_among_equals};
use crate::solver::table::{Bound, Entry, Table};

use super::bounds::Window;
use super::{PathNode, Searcher};

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

/// Returns from the node with the value of a step that settled it, or goes
/// on with what the step found.
macro_rules! settle {
    ($step:expr) => {
        match $step {
            Break(value) => return value,
            Continue(found) => found,
        }
    };
}

/// Where a node's result goes: its table, its stored key (and whether that
/// is its mirror image's), and the node count when it was entered.
#[derive(Clone, Copy)]
struct Slot<'t, B: Bitboard> {
    table: &'t Table<B>,
    key: B,
    mirrored: bool,
    nodes_before: u64,
}

/// How the loop over a node's moves ended when no move cut it off.
struct Searched<B: Bitboard> {
    /// The move that raised alpha last, if any did.
    best: Option<B>,
    /// The window's alpha at the end: the exact score if `best` is set.
    alpha: i32,
    /// The highest value a searched move returned.
    value: i32,
    /// The moves searched.
    cells: B,
    /// An upper bound on the value of every move not searched, besides its
    /// cap (`i32::MAX` if none is known).
    rest_bound: i32,
}

impl<'t, const W: usize, const H: usize, B: Bitboard> Searcher<'t, W, H, B> {
    /// Cells of the board, as a score-sized integer.
    pub(super) const CELLS: i32 = (W * H) as i32;
    /// Enters a big node of a parallel search (`busy` is set only for
    /// those): marks its key, and puts it on the watched path if there is
    /// one. Returns its level on the path.
    #[inline(always)]
    fn enter_big_node(
        &mut self,
        busy: Option<&Busy>,
        slot: &Slot<'_, B>,
        stones: usize,
        w: Window,
    ) -> Option<usize> {
        let busy = busy?;
        busy.enter(slot.key);
        let path = self.path.as_mut()?;
        path.push(PathNode {
            key: slot.key,
            stones,
            alpha: w.alpha,
            beta: w.beta,
        });
        Some(path.len() - 1)
    }

    /// [`Searcher::negamax`] with the opponent's completing cells
    /// ([`Position::opponent_winning_cells`]) already at hand: the parent
    /// computed them when it scored this move for ordering (they are the
    /// threats the move leaves its player), so the child does not compute
    /// them again (-6.0% instructions on the first 30 Middle-Medium lines,
    /// callgrind).
    ///
    /// Each step either settles the node (returns a value with the meaning
    /// of [`Searcher::negamax`]) or narrows its window with a true bound.
    #[inline(always)]
    pub(super) fn search(
        &mut self,
        pos: &Position<W, H, B>,
        alpha: i32,
        beta: i32,
        opponent_threats: B,
    ) -> i32 {
        let safe = pos.non_losing_moves_given(opponent_threats);
        if const { has_newer_cpu_copy(W, H) } && self.newer_cpu {
            self.search_node_at::<true>(pos, alpha, beta, opponent_threats, safe)
        } else {
            self.search_node(pos, alpha, beta, opponent_threats, safe)
        }
    }

    /// [`Searcher::search_node`], or its copy for newer CPUs if `NEWER_CPU`
    /// (chosen at the root; every node below stays in the root's copy).
    #[inline(always)]
    pub(in crate::solver::search) fn search_node_at<const NEWER_CPU: bool>(
        &mut self,
        pos: &Position<W, H, B>,
        alpha: i32,
        beta: i32,
        opponent_threats: B,
        safe: B,
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if NEWER_CPU {
            // SAFETY: the copy for newer CPUs is entered only where
            // `newer_cpu` is set, which `cpu_has_newer_features` set after
            // checking every feature of `NEWER_CPU_FEATURES` on this CPU.
            return unsafe { self.search_node_newer_cpu(pos, alpha, beta, opponent_threats, safe) };
        }
        self.search_node(pos, alpha, beta, opponent_threats, safe)
    }

    /// The node compiled for x86-64-v3 (AVX2, BMI1/2, LZCNT, POPCNT, FMA,
    /// MOVBE: x86-64 CPUs since about 2013), for the board sizes of
    /// [`NEWER_CPU_COPY_SIZES`]. Must be `#[inline(never)]` like
    /// [`Searcher::search_node`]: inlined into its callers, the node's body
    /// would be compiled once more at the root.
    #[cfg(target_arch = "x86_64")]
    #[inline(never)]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,fma,movbe")]
    fn search_node_newer_cpu(
        &mut self,
        pos: &Position<W, H, B>,
        alpha: i32,
        beta: i32,
        opponent_threats: B,
        safe: B,
    ) -> i32 {
        self.node_body::<true>(pos, alpha, beta, opponent_threats, safe)
    }

    /// The node as every x86-64 CPU runs it. `#[inline(never)]`: the body
    /// is inlined into it, and the compiler would otherwise inline this
    /// small wrapper, body and all, into the root too (+5.7% instructions
    /// on Middle-Medium, +8.8% on 9x4, callgrind).
    #[inline(never)]
    fn search_node(
        &mut self,
        pos: &Position<W, H, B>,
        alpha: i32,
        beta: i32,
        opponent_threats: B,
        safe: B,
    ) -> i32 {
        self.node_body::<false>(pos, alpha, beta, opponent_threats, safe)
    }

    /// [`Searcher::search`] with the safe moves too at hand
    /// ([`Position::non_losing_moves_given`] of `opponent_threats`): the
    /// caller that looked for a forced move computed them
    /// ([`Searcher::search_child`]).
    #[inline(always)]
    fn node_body<const NEWER_CPU: bool>(
        &mut self,
        pos: &Position<W, H, B>,
        alpha: i32,
        beta: i32,
        opponent_threats: B,
        safe: B,
    ) -> i32 {
        debug_assert!(alpha < beta);
        debug_assert!(!pos.can_win_next());
        debug_assert_eq!(opponent_threats, pos.opponent_winning_cells());
        debug_assert_eq!(safe, pos.non_losing_moves_given(opponent_threats));
        if self.count_node() {
            return 0;
        }
        let nodes_before = self.nodes;
        let mut w = Window { alpha, beta };

        let candidates = settle!(Self::terminal(pos, safe));
        settle!(Self::reachable_scores(pos, &mut w));
        settle!(Self::dead_positions(pos, &mut w));
        settle!(Self::claimeven(pos, &mut w));
        settle!(Self::win_with_next_stone(pos, candidates, &w));
        if candidates & (candidates - B::ONE) == B::ZERO {
            return self.only_move::<NEWER_CPU>(pos, candidates, w);
        }
        if let Some(score) = self.book_score(pos) {
            return score;
        }

        let stones = pos.moves_played();
        let etc = Self::CELLS - stones as i32 >= ETC_MIN_EMPTY;
        let child_table = self.tables.of(stones + 1);
        let mut keys = [B::ZERO; W];
        if etc {
            Self::prefetch_children(pos, candidates, child_table, &mut keys);
        }
        let (key, mirrored) = Self::stored_key(pos.key(), stones);
        let slot = Slot {
            table: self.tables.of(stones),
            key,
            mirrored,
            nodes_before,
        };
        let table_move = settle!(Self::probe_table(&slot, &mut w));
        let mut child_cap = [i32::MAX; W];
        if etc {
            settle!(self.transposition_cutoff(
                &slot,
                candidates,
                &keys,
                child_table,
                w.beta,
                &mut child_cap
            ));
        }
        let searched = settle!(self.search_moves::<NEWER_CPU>(
            pos,
            &slot,
            w,
            candidates,
            table_move,
            &child_cap,
            &keys,
            opponent_threats,
            etc,
        ));
        self.store(&slot, searched, candidates, &child_cap, table_move)
    }

    /// Counts a node, polling the stop flags every [`STOP_POLL_NODES`]
    /// nodes. Returns whether the search is unwinding (`aborted`): the node
    /// must then return at once, its value meaning nothing.
    #[inline(always)]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & (STOP_POLL_NODES - 1) == 0 && self.poll() {
            self.aborted = true;
        }
        self.aborted
    }

    /// Terminal checks. Assumes the side to move cannot win at once and
    /// `candidates` are its safe moves (those that do not let the opponent
    /// win with its next stone). Returns
    /// `Break` with the exact score when the node needs no search: every
    /// move lets the opponent win with its next stone, or two cells are
    /// left and a move is safe (nobody can win any more). Else `Continue`
    /// with the safe moves (at least one).
    #[inline(always)]
    fn terminal(pos: &Position<W, H, B>, candidates: B) -> ControlFlow<i32, B> {
        let moves = pos.moves_played() as i32;
        if candidates == B::ZERO {
            return Break(-(Self::CELLS - moves) / 2);
        }
        if moves >= Self::CELLS - 2 {
            return Break(0);
        }
        Continue(candidates)
    }

    /// A node with a single safe move `cell` (most often a forced block):
    /// its child's score is the node's. The table is not touched, which
    /// saves two memory accesses per forced move and loses nothing, since
    /// the child's own entry holds the same information. A move that leaves
    /// the opponent no safe reply wins with our next stone (exact); else the
    /// child is searched past its own forced moves
    /// ([`Searcher::search_child`]). Returns with the meaning of
    /// [`Searcher::negamax`] for the window `w`.
    #[inline(always)]
    fn only_move<const NEWER_CPU: bool>(
        &mut self,
        pos: &Position<W, H, B>,
        cell: B,
        w: Window,
    ) -> i32 {
        let mask = pos.mask() | cell;
        let ours = Position::<W, H, B>::completing_cells(pos.current() | cell, mask);
        if leaves_no_safe_reply::<W, H, B>(mask, ours) {
            return Self::no_quick_win(pos) + 1;
        }
        let mut child = *pos;
        child.play(cell);
        -self.search_child::<NEWER_CPU>(&child, -w.beta, -w.alpha, ours)
    }

    /// The book's exact score of `pos`, a valid answer to any window, if the
    /// position has few enough stones for the book and is in it.
    #[inline(always)]
    fn book_score(&self, pos: &Position<W, H, B>) -> Option<i32> {
        if (pos.moves_played() as i32) < self.book_below {
            self.book.and_then(|book| book.get(pos))
        } else {
            None
        }
    }

    /// Writes the stored keys of the children reached by `candidates` into
    /// `keys`, by column, with their buckets in `child_table` asked for at
    /// once, so that the
    /// loads overlap the node's own probe (same instructions, 3-4% less CPU
    /// time on Middle-Medium). A child's key is `opponent + mask + cell`
    /// (the child's side to move owns our opponent's stones): no need to
    /// play the move.
    #[inline(always)]
    fn prefetch_children(
        pos: &Position<W, H, B>,
        candidates: B,
        child_table: &Table<B>,
        keys: &mut [B; W],
    ) {
        let base = pos.opponent() + pos.mask();
        let child_stones = pos.moves_played() + 1;
        let mut rest = candidates;
        while rest != B::ZERO {
            let cell = rest & rest.wrapping_neg();
            rest ^= cell;
            let key = Self::stored_key(base + cell, child_stones).0;
            keys[Position::<W, H, B>::column_of(cell)] = key;
            child_table.prefetch(key);
        }
    }

    /// Table probe: whatever an earlier search proved about this position
    /// narrows the window the same way. `Break` with the stored score if it
    /// is exact or closes the window; else `Continue` with the stored best
    /// column (for this position, not its mirror), if any.
    #[inline(always)]
    fn probe_table(slot: &Slot<'_, B>, w: &mut Window) -> ControlFlow<i32, Option<usize>> {
        let Some(entry) = slot.table.probe(slot.key) else {
            return Continue(None);
        };
        match entry.bound {
            Bound::Exact => return Break(entry.score),
            Bound::Lower => w.raise(entry.score)?,
            Bound::Upper => w.lower(entry.score)?,
        }
        Continue(
            entry
                .best
                .map(|col| if slot.mirrored { W - 1 - col } else { col }),
        )
    }

    /// Enhanced transposition cutoff, at nodes with at least
    /// [`ETC_MIN_EMPTY`] empty cells: a child whose stored upper bound `u`
    /// has `-u >= beta` proves this node fails high without searching
    /// anything (`Break` with `-u`, stored as a lower bound). Else each
    /// column's cap in `child_cap` (all `i32::MAX` on entry) becomes the most
    /// that searching it can give (minus a child's stored lower bound), so
    /// that a move that cannot raise alpha is skipped.
    /// Middle-Medium (first 300 lines): -23% nodes, -15% time.
    #[inline(always)]
    fn transposition_cutoff(
        &self,
        slot: &Slot<'_, B>,
        candidates: B,
        keys: &[B; W],
        child_table: &Table<B>,
        beta: i32,
        child_cap: &mut [i32; W],
    ) -> ControlFlow<i32> {
        let mut rest = candidates;
        while rest != B::ZERO {
            let cell = rest & rest.wrapping_neg();
            rest ^= cell;
            let col = Position::<W, H, B>::column_of(cell);
            if let Some(entry) = child_table.probe(keys[col]) {
                if entry.bound != Bound::Lower && -entry.score >= beta {
                    self.record(slot, Bound::Lower, -entry.score, Some(cell));
                    return Break(-entry.score);
                }
                if entry.bound != Bound::Upper {
                    child_cap[col] = -entry.score;
                }
            }
        }
        Continue(())
    }

    /// The children loop: searches the moves of `candidates` within the
    /// window `w`, skipping those whose cap cannot raise alpha. Assumes the
    /// node is not settled (`w` open).
    ///
    /// The order: the table's move first, before the others are even scored
    /// (it usually still cuts off, and scoring is the costliest part of a
    /// node); then the others sorted by [`order_moves`] with the alpha of
    /// that moment; then those deferred because another thread was
    /// searching them. In a parallel search (`busy`), a node with at least
    /// [`DEFER_MIN_EMPTY`] empty cells (and so the ETC keys) marks itself
    /// and defers, after its first move, the moves another thread is
    /// searching (see [`Busy`]); where a probe expects fail-lows, a node
    /// expected to fail low defers its first move too, and one expected to
    /// cut off defers none (see [`Searcher::expecting_fail_low`]). The set of
    /// moves searched is unchanged.
    ///
    /// Children judged here without a call: a sorted move that leaves the
    /// opponent no safe reply wins with our next stone, the best score the
    /// node can reach, so it cuts off at once (stored as a lower bound with
    /// the move); each other child is searched past its forced moves
    /// ([`Searcher::search_child`]).
    ///
    /// `Break` with the node's value when a move cuts it off (`value >=
    /// beta`, stored as a lower bound with the move) or when the search
    /// unwinds (see [`Searcher::unwind`]). Else `Continue` with what the
    /// moves gave, for [`Searcher::store`].
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_moves<const NEWER_CPU: bool>(
        &mut self,
        pos: &Position<W, H, B>,
        slot: &Slot<'_, B>,
        mut w: Window,
        candidates: B,
        table_move: Option<usize>,
        child_cap: &[i32; W],
        keys: &[B; W],
        opponent_threats: B,
        etc: bool,
    ) -> ControlFlow<i32, Searched<B>> {
        let mut first = table_move
            .map(|col| candidates & Position::<W, H, B>::column_mask(col))
            .filter(|&cell| cell != B::ZERO);
        let remaining = candidates & !first.unwrap_or(B::ZERO);
        let mut sorter: Option<MoveSorter<W, B>> = None;
        // The threats each sorted move leaves us, by column (the child's
        // opponent threats), filled in when the moves are scored.
        let mut child_threats = [B::ZERO; W];
        let mut best = None;
        // Fail-soft low: the highest value any searched move returned.
        let mut value = i32::MIN;
        // Empty, or with a mark off the board where a fail-low is expected
        // so that even the first move may be deferred (see
        // `Searcher::expecting_fail_low`).
        let mut searched = self.searched_before_first[pos.moves_played() % 2];
        let busy = self
            .busy
            .filter(|_| Self::CELLS - pos.moves_played() as i32 >= DEFER_MIN_EMPTY as i32 && etc);
        let level = self.enter_big_node(busy, slot, pos.moves_played(), w);
        // Deferred moves: `deferred[deferred_next..deferred_len]` are still
        // to be searched, once the others have been. A node that defers
        // nothing starts with a full list and nothing left in it (see
        // `Searcher::expecting_fail_low`).
        let mut deferred = [B::ZERO; W];
        let start = self.deferred_before_first[pos.moves_played() % 2];
        let (mut deferred_len, mut deferred_next) = (start, start);
        // An upper bound on the moves the loop leaves unsearched (besides
        // their caps): lowered when no sorted move wins with our next stone.
        let mut rest_bound = i32::MAX;
        // The refutation square of the table's move, if it failed low
        // before the others were sorted.
        let mut refuted = B::ZERO;
        loop {
            let (cell, threats) = match first.take() {
                Some(cell) => (
                    cell,
                    Position::<W, H, B>::completing_cells(pos.current() | cell, pos.mask() | cell),
                ),
                None => {
                    let sorter = match &mut sorter {
                        Some(sorter) => sorter,
                        None => {
                            // The copy for newer CPUs has POPCNT for
                            // sure: a constant flag takes the branch out
                            // of every count.
                            let sorted = sorter.insert(order_moves::<W, H, B, NEWER_CPU>(
                                NEWER_CPU || self.popcnt,
                                pos,
                                remaining,
                                child_cap,
                                w.alpha,
                                opponent_threats,
                                &mut child_threats,
                            ));
                            if sorted.has_win()
                                && let Some(cell) = sorted.next()
                            {
                                // The move wins with our next stone, the
                                // best score reachable (beta is at most
                                // that): a cutoff judged here, without a
                                // call to the lost child.
                                let score = Self::no_quick_win(pos) + 1;
                                self.leave_node(busy, slot.key, level);
                                self.record(slot, Bound::Lower, score, Some(cell));
                                return Break(score);
                            }
                            rest_bound = Self::no_quick_win(pos);
                            if rest_bound < w.beta {
                                w.beta = rest_bound;
                                if w.alpha >= w.beta {
                                    break;
                                }
                            }
                            if refuted != B::ZERO {
                                prefer_among_equals(sorted, refuted);
                            }
                            sorted
                        }
                    };
                    match sorter.next() {
                        Some(cell) => (cell, child_threats[Position::<W, H, B>::column_of(cell)]),
                        None if deferred_next < deferred_len => {
                            let cell = deferred[deferred_next];
                            deferred_next += 1;
                            (cell, child_threats[Position::<W, H, B>::column_of(cell)])
                        }
                        None => break,
                    }
                }
            };
            let col = Position::<W, H, B>::column_of(cell);
            if child_cap[col] <= w.alpha {
                continue;
            }
            if let Some(busy) = busy
                && deferred_len < W
                && deferred_next == 0
                && searched != B::ZERO
                && busy.contains(keys[col])
            {
                deferred[deferred_len] = cell;
                deferred_len += 1;
                // The table's move (deferred first only where a fail-low
                // is expected) was not scored with the others: its
                // threats come back with it.
                child_threats[col] = threats;
                continue;
            }
            if level.is_some() && searched != B::ZERO && self.settle_path() {
                return Break(self.unwind(busy, slot.key, level));
            }
            let mut child = *pos;
            child.play(cell);
            searched |= cell;
            let score = -self.search_child::<NEWER_CPU>(&child, -w.beta, -w.alpha, threats);
            if self.aborted {
                return Break(self.unwind(busy, slot.key, level));
            }
            value = value.max(score);
            if score >= w.beta {
                self.leave_node(busy, slot.key, level);
                self.record(slot, Bound::Lower, score, Some(cell));
                return Break(score);
            }
            if score > w.alpha {
                w.alpha = score;
                best = Some(cell);
            }
            if etc {
                let square = self.refutation_square(keys[col], candidates);
                if square != B::ZERO {
                    match &mut sorter {
                        Some(sorter) => prefer_among_equals(sorter, square),
                        None => refuted = square,
                    }
                }
            }
        }
        self.leave_node(busy, slot.key, level);
        Continue(Searched {
            best,
            alpha: w.alpha,
            value,
            cells: searched,
            rest_bound,
        })
    }

    /// The refutation square of a move searched without a cutoff at a node
    /// with the children's keys ([`ETC_MIN_EMPTY`]), `child_key` being its
    /// child's: our move in the cell the child stored as its best move, the
    /// reply that refuted ours, if the child stored a result and that cell
    /// is one of `candidates` (a reply on top of our move is not); else
    /// none (zero).
    ///
    /// Taking the square the opponent's refutation wanted is often what
    /// stops it, so [`Searcher::search_moves`] hands that move out next
    /// among the moves of the best score left (see
    /// [`prefer_among_equals`]). Nodes, one thread, no book: Middle-Medium
    /// -5.9%, Begin-Medium (first 200) -6.3%, Begin-Hard (first 20) -10.3%;
    /// weak -8.4%, -12.4%, -13.0%.
    ///
    /// The move comes from the searcher's last stored result, not from a
    /// table probe: the child's own store is the last one of its subtree.
    /// A child that stored nothing (settled before its moves, or a forced
    /// move played in place) leaves another position's record, which the
    /// key comparison rejects. The square is only an order hint, never a
    /// bound, so a record of the mirror image under the same stored key
    /// costs at most a worse order. Against probing the child's entry,
    /// nodes within 0.01% and instructions on Middle-Medium (first 30)
    /// 270.3M -> 262.9M.
    #[inline(always)]
    fn refutation_square(&self, child_key: B, candidates: B) -> B {
        let (key, reply) = self.last_record.get();
        if key == child_key {
            candidates & reply
        } else {
            B::ZERO
        }
    }

    /// The store, when no move cut the node off. If a move raised alpha,
    /// alpha is exact (that move gave its exact score, every other one at
    /// most alpha): stored and returned with the move. Otherwise every move
    /// is at most `value`, the highest of the searched moves' values and of
    /// the skipped moves' caps (all at most alpha): returned and stored as
    /// an upper bound (fail-soft; it can be below alpha, which narrows the
    /// root's range faster and tightens stored bounds: Middle-Medium, first
    /// 300 lines, -3.5% nodes against returning alpha).
    #[inline(always)]
    fn store(
        &self,
        slot: &Slot<'_, B>,
        searched: Searched<B>,
        candidates: B,
        child_cap: &[i32; W],
        table_move: Option<usize>,
    ) -> i32 {
        if let Some(cell) = searched.best {
            self.record(slot, Bound::Exact, searched.alpha, Some(cell));
            return searched.alpha;
        }
        let mut value = searched.value;
        let mut rest = candidates & !searched.cells;
        while rest != B::ZERO {
            let cell = rest & rest.wrapping_neg();
            rest ^= cell;
            value =
                value.max(child_cap[Position::<W, H, B>::column_of(cell)].min(searched.rest_bound));
        }
        debug_assert!(value <= searched.alpha);
        let best = table_move.map(Position::<W, H, B>::column_mask);
        self.record(slot, Bound::Upper, value, best);
        value
    }

    /// The key a position is stored under, and whether it is the mirror
    /// image's, from its plain key and its number of stones. Early in the
    /// game a position and its mirror image are often both reached, so they
    /// share an entry; later this almost never happens and computing the
    /// mirror (an eighth of the time per node) is not worth it.
    #[inline(always)]
    pub(super) fn stored_key(key: B, moves: usize) -> (B, bool) {
        if moves < SYMMETRY_MAX_MOVES {
            let mirrored = Position::<W, H, B>::mirror(key);
            if mirrored < key {
                return (mirrored, true);
            }
        }
        (key, false)
    }

    /// Stores a search result for the node of `slot`, with its best move
    /// `cell` (if any) and the work it took (log2 of its nodes).
    #[inline(always)]
    fn record(&self, slot: &Slot<'_, B>, bound: Bound, score: i32, cell: Option<B>) {
        let nodes = self.nodes - slot.nodes_before + 1;
        self.last_record.set((slot.key, cell.unwrap_or(B::ZERO)));
        slot.table.store(
            slot.key,
            Entry {
                bound,
                score,
                best: cell.map(|c| {
                    let col = Position::<W, H, B>::column_of(c);
                    if slot.mirrored { W - 1 - col } else { col }
                }),
                work: 64 - nodes.leading_zeros(),
            },
        );
    }
}
