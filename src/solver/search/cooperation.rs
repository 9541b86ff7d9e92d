//! How one thread of a parallel search works with the others, as its
//! search sees it: the busy marks it sets and reads, the path of big nodes
//! it watches, and the nodes it expects to fail low. A search alone has an
//! inert [`Cooperation`]; the threads are started, and given theirs, in
//! `parallel`.
//!
//! The node asks it through one [`Turn`] per node, entered before the
//! node's first move and left when the node returns: whether to defer a
//! move ([`Turn::defers`]), which deferred move comes next
//! ([`Turn::next_deferred`]), whether a node on the path was settled
//! ([`Cooperation::path_settled`]), and what leaving or unwinding undoes
//! ([`Cooperation::leave`], [`Cooperation::unwind_to`]).

use crate::Bitboard;
use crate::position::Position;
use crate::solver::busy::Busy;
use crate::solver::table::{Bound, Tables};

/// One thread's part in a parallel search; inert (no marks, no path, no
/// expected fail-lows) for a search alone.
pub(super) struct Cooperation<'t, B: Bitboard> {
    /// Shared among the threads of a parallel search: the keys of the big
    /// nodes some thread is searching now (see [`Busy`]).
    busy: Option<&'t Busy>,
    /// The big nodes this search is inside, if it watches for their being
    /// settled by another thread (see [`Cooperation::watching_path`]).
    path: Option<Vec<PathNode<B>>>,
    /// While unwinding to a big node that the table settled: its level on
    /// `path` and the score it returns.
    settled: Option<(usize, i32)>,
    /// The moves a node counts as searched before its first, by the parity
    /// of its stone count: none, or a mark off the board at the nodes this
    /// search expects to fail low, which may then defer even their first
    /// move (see [`Cooperation::expecting_fail_low`]).
    searched_before_first: [B; 2],
    /// How many deferred moves a node's list starts with, by the parity of
    /// its stone count: none, or a full list (`W`) at the nodes that defer
    /// nothing, those a search expecting fail-lows expects to cut off (see
    /// [`Cooperation::expecting_fail_low`]).
    deferred_before_first: [usize; 2],
}

/// A big node on a parallel search's path: what its table entry must say
/// to settle it (see [`Cooperation::watching_path`]).
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

/// A node's part in the cooperation, from its first move to its return:
/// its busy mark and place on the path if it is a big node of a parallel
/// search, and the moves it deferred.
pub(super) struct Turn<'t, const W: usize, B: Bitboard> {
    /// The busy marks, if the node marks itself and defers (a big node of
    /// a parallel search).
    busy: Option<&'t Busy>,
    /// The node's stored key.
    key: B,
    /// Its level on the watched path, if it is on one.
    level: Option<usize>,
    /// Deferred moves: `deferred[next..len]` are still to be searched, once
    /// the others have been. A node that defers nothing starts with a full
    /// list and nothing left in it (see [`Cooperation::expecting_fail_low`]).
    deferred: [B; W],
    len: usize,
    next: usize,
}

impl<'t, B: Bitboard> Cooperation<'t, B> {
    /// The part of a search alone: nothing shared, nothing watched.
    pub fn alone() -> Self {
        Cooperation {
            busy: None,
            path: None,
            settled: None,
            searched_before_first: [B::ZERO; 2],
            deferred_before_first: [0; 2],
        }
    }

    /// This part, marking its big nodes in `busy` and deferring the moves
    /// that other threads sharing it are searching (see [`Busy`]).
    pub fn with_busy(mut self, busy: &'t Busy) -> Self {
        self.busy = Some(busy);
        self
    }

    /// This part, abandoning the work under a big node on its path as soon
    /// as the table settles that node (needs [`Cooperation::with_busy`]).
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
    /// From the earliest roots it was slower, so only roots past them watch
    /// (see `Stage::earliest`).
    pub fn watching_path(mut self) -> Self {
        self.path = Some(Vec::new());
        self
    }

    /// This part, deferring even the first move of the big nodes whose
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
    pub fn expecting_fail_low<const W: usize, const H: usize>(mut self, parity: usize) -> Self {
        // The top bit of the first column: never a cell.
        const { assert!(Position::<W, H, B>::BOARD_BITS & (1 << H) == 0) };
        self.searched_before_first[parity] = B::from_u128(1 << H);
        self.deferred_before_first[1 - parity] = W;
        self
    }

    /// The moves a node of `stones` stones counts as searched before its
    /// first: none, or the mark of a node expected to fail low.
    #[inline(always)]
    pub fn searched_before_first(&self, stones: usize) -> B {
        self.searched_before_first[stones % 2]
    }

    /// Enters a node of `stones` stones with the stored key `key` and the
    /// window `(alpha, beta)`, before its first move. A `big` node of a
    /// parallel search marks its key busy and goes on the watched path if
    /// there is one.
    #[inline(always)]
    pub fn enter<const W: usize>(
        &mut self,
        big: bool,
        key: B,
        stones: usize,
        (alpha, beta): (i32, i32),
    ) -> Turn<'t, W, B> {
        let start = self.deferred_before_first[stones % 2];
        let mut turn = Turn {
            busy: self.busy.filter(|_| big),
            key,
            level: None,
            deferred: [B::ZERO; W],
            len: start,
            next: start,
        };
        if let Some(busy) = turn.busy {
            busy.enter(key);
            if let Some(path) = self.path.as_mut() {
                path.push(PathNode {
                    key,
                    stones,
                    alpha,
                    beta,
                });
                turn.level = Some(path.len() - 1);
            }
        }
        turn
    }

    /// Whether, before the next move of `turn`'s node (`searched` its moves
    /// searched so far), the table now settles a big node on the path. If
    /// so, the search unwinds to the first such node (from the root down),
    /// which returns the table's bound (see [`Cooperation::unwind_to`]).
    #[inline(always)]
    pub fn path_settled<const W: usize>(
        &mut self,
        turn: &Turn<'_, W, B>,
        searched: B,
        tables: &Tables<'_, B>,
    ) -> bool {
        turn.level.is_some() && searched != B::ZERO && self.settle_path(tables)
    }

    /// Whether the table now settles a big node on the path; if so,
    /// `settled` says which.
    fn settle_path(&mut self, tables: &Tables<'_, B>) -> bool {
        let Some(path) = self.path.as_ref() else {
            return false;
        };
        self.settled = path.iter().enumerate().find_map(|(level, node)| {
            let entry = tables.of(node.stones).probe(node.key)?;
            let settles = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => entry.score >= node.beta,
                Bound::Upper => entry.score <= node.alpha,
            };
            settles.then_some((level, entry.score))
        });
        self.settled.is_some()
    }

    /// Leaves `turn`'s node: unmarks its key and takes it and the nodes
    /// below it off the path.
    #[inline(always)]
    pub fn leave<const W: usize>(&mut self, turn: &Turn<'_, W, B>) {
        if let Some(busy) = turn.busy {
            busy.leave(turn.key);
            if let (Some(level), Some(path)) = (turn.level, &mut self.path) {
                path.truncate(level);
            }
        }
    }

    /// Leaves `turn`'s node while the search unwinds. Returns the table's
    /// bound if this node is the settled one, where the unwinding ends
    /// (see [`Cooperation::path_settled`]); `None` if it goes on.
    pub fn unwind_to<const W: usize>(&mut self, turn: &Turn<'_, W, B>) -> Option<i32> {
        self.leave(turn);
        match self.settled {
            Some((to, score)) if turn.level == Some(to) => {
                self.settled = None;
                Some(score)
            }
            _ => None,
        }
    }
}

impl<const W: usize, B: Bitboard> Turn<'_, W, B> {
    /// Whether the node defers `cell`, whose child's stored key is
    /// `child_key`, to the end of its list: a big node of a parallel search
    /// defers, after its first move (`searched` its moves searched so far,
    /// or the mark of a node expected to fail low), the moves another
    /// thread is searching, until it takes its deferred moves up.
    #[inline(always)]
    pub fn defers(&mut self, cell: B, child_key: B, searched: B) -> bool {
        let Some(busy) = self.busy else {
            return false;
        };
        if self.len < W && self.next == 0 && searched != B::ZERO && busy.contains(child_key) {
            self.deferred[self.len] = cell;
            self.len += 1;
            return true;
        }
        false
    }

    /// The next deferred move, once the node's other moves are searched.
    #[inline(always)]
    pub fn next_deferred(&mut self) -> Option<B> {
        if self.next < self.len {
            let cell = self.deferred[self.next];
            self.next += 1;
            Some(cell)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{PathNode, Turn};
    use crate::position::Position;
    use crate::solver::busy::Busy;
    use crate::solver::search::Searcher;
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
        searcher.team.path.as_mut().unwrap().push(above);
        // "Is it above 15?" fails low on every move, so the root's search
        // goes on to a second move, where it must notice.
        searcher.negamax(&pos, 15, 16);
        assert!(searcher.aborted, "unwinding until the settled node");
        assert_eq!(searcher.team.settled, Some((0, 5)));
        let (root_key, _) = Searcher::<7, 6, u64>::stored_key(pos.key(), pos.moves_played());
        assert!(table.probe(root_key).is_none(), "the root stored nothing");
        assert_eq!(
            searcher.team.path.as_ref().unwrap().len(),
            1,
            "the root left the path"
        );
        // The settled node itself returns the table's bound and the search
        // goes on.
        let turn = Turn::<7, u64> {
            busy: Some(&busy),
            key: ancestor,
            level: Some(0),
            deferred: [0; 7],
            len: 0,
            next: 0,
        };
        assert_eq!(searcher.unwind(&turn), 5);
        assert!(!searcher.aborted && searcher.team.settled.is_none());
        assert!(searcher.team.path.as_ref().unwrap().is_empty());

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
}
