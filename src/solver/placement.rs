//! Which table each node of a search stores its bounds in: the solver's
//! full table, a small one that stays in cache, a table the threads share,
//! chosen by the root, the thread and the node's stone count.

use std::sync::atomic::Ordering;

use crate::Bitboard;
use crate::position::Position;
use crate::settings::{
    PARALLEL_SPLIT_MAX_EMPTY, SHARED_SMALL_MAX_ROOT_EMPTY, SMALL_TABLE_MAX_EMPTY,
    SMALL_TABLE_MIN_STONES, SPLIT_SMALL_MAX_EMPTY,
};
use crate::solver::Solver;
use crate::solver::table::Table;

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
pub(crate) struct Tables<'t, B: Bitboard> {
    /// Table of the nodes with fewer than `large_below` stones.
    pub large: &'t Table<B>,
    /// Table of the other nodes.
    pub small: &'t Table<B>,
    /// Stone count from which nodes use `small`.
    pub large_below: usize,
}

impl<'t, B: Bitboard> Tables<'t, B> {
    /// One table for every node.
    pub fn single(table: &'t Table<B>) -> Self {
        Tables {
            large: table,
            small: table,
            large_below: 0,
        }
    }

    /// The table of nodes with `stones` stones.
    #[inline(always)]
    pub fn of(&self, stones: usize) -> &'t Table<B> {
        if stones < self.large_below {
            self.large
        } else {
            self.small
        }
    }
}

/// Whether `pos` is a later root: one with at least
/// [`SMALL_TABLE_MIN_STONES`] stones (and at most [`SMALL_TABLE_MAX_EMPTY`]
/// empty cells). Searches from such roots are small enough for the small
/// table (see [`Solver::tables`]), and their parallel searches share the
/// sign probe and watch their paths (see `probes::choose_probe` and
/// `Searcher::watching_path`); the earliest roots, such as the empty board,
/// keep the full table and the speculative probes.
pub(super) fn later_root<const W: usize, const H: usize, B: Bitboard>(
    pos: &Position<W, H, B>,
) -> bool {
    pos.moves_played() >= SMALL_TABLE_MIN_STONES && pos.empty_cells() <= SMALL_TABLE_MAX_EMPTY
}

impl<const W: usize, const H: usize, B: Bitboard> Solver<W, H, B> {
    /// The tables a search from `pos` stores its bounds in (see
    /// [`Tables`]). From most positions, the small table alone: it stays in
    /// cache (see `SMALL_TABLE_MIN_STONES`). From the earliest ones, whose
    /// searches outgrow it, nodes with more than `SPLIT_SMALL_MAX_EMPTY`
    /// empty cells use the full table and the others the small one. Both
    /// hold only true bounds, so the choice changes a search's speed, never
    /// its result.
    ///
    /// `thread` numbers the threads of a `parallel` search (0 otherwise). A
    /// parallel search splits its nodes from any root with more than
    /// `SHARED_SMALL_MAX_ROOT_EMPTY` empty cells, each thread keeping the deep
    /// ones in a small table of its own: sharing one, two threads evict each
    /// other's deep results (first 10 Begin-Hard lines each solved alone, 2
    /// threads: 9.4 s on the shared small table, 7.2 s split; 1 thread
    /// 11.3 s). Roots with fewer empty cells keep the shared small table:
    /// the large table would hold none of their nodes. From later roots
    /// (see [`later_root`]) the big nodes go to the solver's shared table
    /// (`SHARED_TABLE_BYTES`) rather than the full one, and "big" means
    /// more than `PARALLEL_SPLIT_MAX_EMPTY` empty cells.
    pub(super) fn tables(
        &self,
        pos: &Position<W, H, B>,
        thread: usize,
        parallel: bool,
    ) -> Tables<'_, B> {
        let later = later_root(pos);
        match &self.small {
            Some(small)
                if later && !(parallel && pos.empty_cells() > SHARED_SMALL_MAX_ROOT_EMPTY) =>
            {
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
    fn full_table(&self) -> &Table<B> {
        if !self.table_touched.swap(true, Ordering::Relaxed) {
            self.table.touch();
        }
        &self.table
    }
}
