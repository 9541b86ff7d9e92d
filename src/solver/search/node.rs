//! The node: [`Searcher::negamax`] as a sequence of named steps (terminal
//! checks, bound tightening, table probe, enhanced transposition cutoffs,
//! the children loop with its move order, the store), each an
//! `#[inline(always)]` helper that settles the node or narrows its window.
//! The steps that need only the position are in `bounds`; what a node of a
//! parallel search shares with the other threads goes through its
//! [`Turn`] (see `cooperation`).

mod forced;
mod store;

use std::ops::ControlFlow::{self, Break, Continue};

use crate::Bitboard;
use crate::position::Position;
use crate::settings::{DEFER_MIN_EMPTY, ETC_MIN_EMPTY, STOP_POLL_NODES};
use crate::solver::ordering::{MoveSorter, leaves_no_safe_reply, order_moves, prefer_among_equals};
use crate::solver::table::{Bound, Table};

use super::Searcher;
use super::bounds::Window;
use super::cooperation::Turn;

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

/// What a node knows of its moves when its children loop starts.
struct Moves<'a, const W: usize, B: Bitboard> {
    /// The safe moves (at least two).
    candidates: B,
    /// The column of the table's best move, if any.
    table_move: Option<usize>,
    /// The most that searching each column can give (`i32::MAX` if no
    /// child's bound is known; see [`Searcher::transposition_cutoff`]).
    child_cap: &'a [i32; W],
    /// The children's stored keys by column, if `etc`.
    keys: &'a [B; W],
    /// The opponent's completing cells (see [`Searcher::node`]).
    opponent_threats: B,
    /// Whether the node has the children's keys: at least
    /// [`ETC_MIN_EMPTY`] empty cells.
    etc: bool,
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

/// The order in which the children loop takes a node's moves (see
/// [`Searcher::search_moves`]): the table's move, then the others sorted,
/// then the deferred ones.
struct MoveOrder<const W: usize, B: Bitboard> {
    /// The table's move, until it is taken.
    first: Option<B>,
    /// The moves to sort once the table's move is taken.
    remaining: B,
    /// The sorted moves, once sorted.
    sorter: Option<MoveSorter<W, B>>,
    /// The threats each sorted move leaves us, by column (the child's
    /// opponent threats), filled in when the moves are scored.
    child_threats: [B; W],
    /// An upper bound on the moves the loop leaves unsearched (besides
    /// their caps): lowered when no sorted move wins with our next stone.
    rest_bound: i32,
    /// The refutation square of the table's move, if it failed low before
    /// the others were sorted.
    refuted: B,
}

/// The next move of a node's children loop.
enum Next<B> {
    /// A move to search, and the threats it leaves us.
    Search(B, B),
    /// A sorted move that wins with our next stone: the node cuts off.
    Wins(B),
    /// No move left, or none that could raise alpha.
    Done,
}

impl<const W: usize, B: Bitboard> MoveOrder<W, B> {
    /// The order of the moves of `moves`, the table's move first.
    #[inline(always)]
    fn new<const H: usize>(moves: &Moves<'_, W, B>) -> Self {
        let first = moves
            .table_move
            .map(|col| moves.candidates & Position::<W, H, B>::column_mask(col))
            .filter(|&cell| cell != B::ZERO);
        MoveOrder {
            first,
            remaining: moves.candidates & !first.unwrap_or(B::ZERO),
            sorter: None,
            child_threats: [B::ZERO; W],
            rest_bound: i32::MAX,
            refuted: B::ZERO,
        }
    }

    /// Prefers `square`, the refutation square of a move that failed low,
    /// among the sorted moves of the best score left (see
    /// [`prefer_among_equals`]); before they are sorted, once they are.
    #[inline(always)]
    fn prefer(&mut self, square: B) {
        match &mut self.sorter {
            Some(sorter) => prefer_among_equals(sorter, square),
            None => self.refuted = square,
        }
    }
}

impl<'t, const W: usize, const H: usize, B: Bitboard> Searcher<'t, W, H, B> {
    /// Cells of the board, as a score-sized integer.
    pub(super) const CELLS: i32 = (W * H) as i32;

    /// The node of `pos` for the window `(alpha, beta)`, with the meaning
    /// of [`Searcher::negamax`], in its copy for newer CPUs if `NEWER_CPU`
    /// ([`Searcher::node_newer_cpu`]), else in the portable one
    /// ([`Searcher::node_portable`]): the one entry of both, from the root
    /// and from the children alike.
    ///
    /// The opponent's completing cells (`opponent_threats`,
    /// [`Position::opponent_winning_cells`]) and the safe moves (`safe`,
    /// [`Position::non_losing_moves_given`] of them) come at hand: the
    /// parent computed the threats when it scored this move for ordering
    /// (they are the threats the move leaves its player), and the safe
    /// moves when it looked for a forced move ([`Searcher::search_child`]),
    /// so the child does not compute them again (-6.0% instructions on the
    /// first 30 Middle-Medium lines, callgrind).
    #[inline(always)]
    pub(in crate::solver::search) fn node<const NEWER_CPU: bool>(
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
            return unsafe { self.node_newer_cpu(pos, alpha, beta, opponent_threats, safe) };
        }
        self.node_portable(pos, alpha, beta, opponent_threats, safe)
    }

    /// The node compiled for x86-64-v3 (AVX2, BMI1/2, LZCNT, POPCNT, FMA,
    /// MOVBE: x86-64 CPUs since about 2013), for the board sizes of
    /// [`NEWER_CPU_COPY_SIZES`](crate::settings::NEWER_CPU_COPY_SIZES).
    /// Must be `#[inline(never)]` like [`Searcher::node_portable`]: inlined
    /// into its callers, the node's body would be compiled once more at the
    /// root.
    #[cfg(target_arch = "x86_64")]
    #[inline(never)]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,fma,movbe")]
    fn node_newer_cpu(
        &mut self,
        pos: &Position<W, H, B>,
        alpha: i32,
        beta: i32,
        opponent_threats: B,
        safe: B,
    ) -> i32 {
        self.node_body::<true>(pos, alpha, beta, opponent_threats, safe)
    }

    /// The node as every CPU runs it. `#[inline(never)]`: the body is
    /// inlined into it, and the compiler would otherwise inline this small
    /// wrapper, body and all, into the root too (+5.7% instructions on
    /// Middle-Medium, +8.8% on 9x4, callgrind).
    #[inline(never)]
    fn node_portable(
        &mut self,
        pos: &Position<W, H, B>,
        alpha: i32,
        beta: i32,
        opponent_threats: B,
        safe: B,
    ) -> i32 {
        self.node_body::<false>(pos, alpha, beta, opponent_threats, safe)
    }

    /// The node's steps (see [`Searcher::node`]): each either settles the
    /// node (returns a value with the meaning of [`Searcher::negamax`]) or
    /// narrows its window with a true bound.
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
        let moves = Moves {
            candidates,
            table_move,
            child_cap: &child_cap,
            keys: &keys,
            opponent_threats,
            etc,
        };
        let searched = settle!(self.search_moves::<NEWER_CPU>(pos, &slot, w, &moves));
        self.store(&slot, searched, &moves)
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

    /// The children loop: searches the moves of `moves` within the window
    /// `w`, skipping those whose cap cannot raise alpha. Assumes the node is
    /// not settled (`w` open).
    ///
    /// The order: the table's move first, before the others are even scored
    /// (it usually still cuts off, and scoring is the costliest part of a
    /// node); then the others sorted by [`order_moves`] with the alpha of
    /// that moment; then those deferred because another thread was
    /// searching them ([`Searcher::next_move`]). In a parallel search, a
    /// node with at least [`DEFER_MIN_EMPTY`] empty cells (and so the ETC
    /// keys) marks itself and defers, after its first move, the moves
    /// another thread is searching, and it unwinds when the table settles a
    /// node on its path: its [`Turn`] tells it (see `cooperation`). The set
    /// of moves searched is unchanged.
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
    #[inline(always)]
    fn search_moves<const NEWER_CPU: bool>(
        &mut self,
        pos: &Position<W, H, B>,
        slot: &Slot<'_, B>,
        mut w: Window,
        moves: &Moves<'_, W, B>,
    ) -> ControlFlow<i32, Searched<B>> {
        let stones = pos.moves_played();
        let mut order = MoveOrder::new::<H>(moves);
        let mut best = None;
        // Fail-soft low: the highest value any searched move returned.
        let mut value = i32::MIN;
        // Empty, or the mark of a node expected to fail low.
        let mut searched = self.team.searched_before_first(stones);
        let big = Self::CELLS - stones as i32 >= DEFER_MIN_EMPTY as i32 && moves.etc;
        let mut turn = self
            .team
            .enter::<W>(big, slot.key, stones, (w.alpha, w.beta));
        loop {
            let next = self.next_move::<NEWER_CPU>(pos, moves, &mut order, &mut w, &mut turn);
            let (cell, threats) = match next {
                Next::Search(cell, threats) => (cell, threats),
                Next::Wins(cell) => {
                    // The best score reachable (beta is at most that): a
                    // cutoff judged here, without a call to the lost child.
                    let score = Self::no_quick_win(pos) + 1;
                    self.team.leave(&turn);
                    self.record(slot, Bound::Lower, score, Some(cell));
                    return Break(score);
                }
                Next::Done => break,
            };
            let col = Position::<W, H, B>::column_of(cell);
            if moves.child_cap[col] <= w.alpha {
                continue;
            }
            if turn.defers(cell, moves.keys[col], searched) {
                // The table's move (deferred first only where a fail-low
                // is expected) was not scored with the others: its
                // threats come back with it.
                order.child_threats[col] = threats;
                continue;
            }
            if self.team.path_settled(&turn, searched, &self.tables) {
                self.aborted = true;
                return Break(self.unwind(&turn));
            }
            let mut child = *pos;
            child.play(cell);
            searched |= cell;
            let score = -self.search_child::<NEWER_CPU>(&child, -w.beta, -w.alpha, threats);
            if self.aborted {
                return Break(self.unwind(&turn));
            }
            value = value.max(score);
            if score >= w.beta {
                self.team.leave(&turn);
                self.record(slot, Bound::Lower, score, Some(cell));
                return Break(score);
            }
            if score > w.alpha {
                w.alpha = score;
                best = Some(cell);
            }
            if moves.etc {
                let square = self.refutation_square(moves.keys[col], moves.candidates);
                if square != B::ZERO {
                    order.prefer(square);
                }
            }
        }
        self.team.leave(&turn);
        Continue(Searched {
            best,
            alpha: w.alpha,
            value,
            cells: searched,
            rest_bound: order.rest_bound,
        })
    }

    /// The next move of the children loop in `order` (see
    /// [`Searcher::search_moves`]), and the threats it leaves us.
    ///
    /// The table's move comes first, its threats computed here. The others
    /// are sorted when first asked for: if one wins with our next stone it
    /// is `Next::Wins`; else no unsearched move can do better than a win
    /// with our third stone, which lowers beta to that bound and may close
    /// the window (`Next::Done`). Once the sorted moves run out come the
    /// moves `turn` deferred.
    #[inline(always)]
    fn next_move<const NEWER_CPU: bool>(
        &self,
        pos: &Position<W, H, B>,
        moves: &Moves<'_, W, B>,
        order: &mut MoveOrder<W, B>,
        w: &mut Window,
        turn: &mut Turn<'_, W, B>,
    ) -> Next<B> {
        if let Some(cell) = order.first.take() {
            let threats =
                Position::<W, H, B>::completing_cells(pos.current() | cell, pos.mask() | cell);
            return Next::Search(cell, threats);
        }
        let sorter = match &mut order.sorter {
            Some(sorter) => sorter,
            None => {
                // The copy for newer CPUs has POPCNT for sure: a constant
                // flag takes the branch out of every count.
                let sorted = order.sorter.insert(order_moves::<W, H, B, NEWER_CPU>(
                    NEWER_CPU || self.popcnt,
                    pos,
                    order.remaining,
                    moves.child_cap,
                    w.alpha,
                    moves.opponent_threats,
                    &mut order.child_threats,
                ));
                if sorted.has_win()
                    && let Some(cell) = sorted.next()
                {
                    return Next::Wins(cell);
                }
                order.rest_bound = Self::no_quick_win(pos);
                if order.rest_bound < w.beta {
                    w.beta = order.rest_bound;
                    if w.alpha >= w.beta {
                        return Next::Done;
                    }
                }
                if order.refuted != B::ZERO {
                    prefer_among_equals(sorted, order.refuted);
                }
                sorted
            }
        };
        match sorter.next().or_else(|| turn.next_deferred()) {
            Some(cell) => Next::Search(
                cell,
                order.child_threats[Position::<W, H, B>::column_of(cell)],
            ),
            None => Next::Done,
        }
    }
}
