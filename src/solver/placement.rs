//! Which table each node of a search stores its bounds in: the solver's
//! full table, a small one that stays in cache, a table the threads share,
//! chosen by the root's stage, the thread and the node's stone count.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::Bitboard;
use crate::settings::{
    PARALLEL_SPLIT_MAX_EMPTY, SHARED_SMALL_MAX_ROOT_EMPTY, SPLIT_SMALL_MAX_EMPTY,
};
use crate::settings::{SHARED_TABLE_BYTES, SMALL_TABLE_BYTES};
use crate::solver::probes::Root;
use crate::solver::table::{Entry, Table, TableError, Tables};

/// The tables a solver owns. Generic over the word only, so compiled once
/// for each word rather than once per board size.
pub(super) struct TableSet<B: Bitboard> {
    /// Bounds learnt by earlier searches from early positions.
    table: Table<B>,
    /// Bounds learnt by earlier searches from the other positions: a table
    /// small enough to stay in cache (see `SMALL_TABLE_BYTES`); `None` when
    /// the full table is no bigger.
    small: Option<Table<B>>,
    /// One more small table for each thread past the first: in a parallel
    /// search that splits its nodes between a large table and a small one
    /// (see [`TableSet::for_search`]), each thread keeps its deep nodes in a
    /// small table of its own. Shared, the one small table filled twice as
    /// fast: the empty board on 2 threads searched 551M nodes against 377M
    /// on one.
    helper_small: Vec<Table<B>>,
    /// With several threads, the table they share for the big nodes of a
    /// parallel search from a position that is not one of the earliest
    /// (see [`TableSet::for_search`] and `SHARED_TABLE_BYTES`).
    shared: Option<Table<B>>,
    /// Whether the pages of `table` have been touched (see
    /// [`TableSet::full_table`]).
    table_touched: AtomicBool,
}

impl<B: Bitboard> TableSet<B> {
    /// The tables of a solver whose full table takes at most `bytes` bytes
    /// (rounded down to a power of two), for keys of `key_bits` bits.
    pub fn new(bytes: usize, key_bits: u32) -> Result<Self, TableError> {
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
        Ok(TableSet {
            table,
            small,
            helper_small: Vec::new(),
            shared: None,
            table_touched: AtomicBool::new(false),
        })
    }

    /// Makes the tables a search on `threads` threads uses (see
    /// [`Solver::set_threads`](crate::solver::Solver::set_threads)).
    pub fn set_threads(&mut self, threads: usize, key_bits: u32) {
        if let Some(small) = &self.small {
            while self.helper_small.len() + 1 < threads {
                // A helper without a table of its own shares the first one
                // (see `for_search`): slower, never wrong.
                match Table::new(small.bytes(), key_bits) {
                    Ok(table) => self.helper_small.push(table),
                    Err(_) => break,
                }
            }
            if threads > 1 && self.shared.is_none() && self.table.bytes() > SHARED_TABLE_BYTES {
                // Without it, the threads share the full table: slower, never
                // wrong. Its pages are faulted in by the first search that
                // uses it, so a solver that never searches in parallel from
                // a big enough position does not pay for them.
                self.shared = Table::new_untouched(SHARED_TABLE_BYTES, key_bits).ok();
            }
        }
    }

    /// Size of the full table in bytes.
    pub fn bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Forgets everything the tables learnt (O(1): a new generation).
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

    /// Stores `entry` under `key` in every table a search may look for it
    /// in: which one a search uses depends on its root and thread (see
    /// [`TableSet::for_search`]). The shared table exists only once
    /// [`TableSet::set_threads`] asked for several threads.
    pub fn seed(&self, key: B, entry: Entry) {
        self.full_table().store(key, entry);
        let others = self
            .small
            .iter()
            .chain(&self.helper_small)
            .chain(&self.shared);
        for table in others {
            table.store(key, entry);
        }
    }

    /// The tables a search from `root` stores its bounds in (see
    /// [`Tables`]). From most positions, the small table alone: it stays in
    /// cache. From the earliest ones (see `Stage::earliest`), whose
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
    /// the large table would hold none of their nodes. From roots past the
    /// earliest the big nodes go to the solver's shared table
    /// (`SHARED_TABLE_BYTES`) rather than the full one, and "big" means
    /// more than `PARALLEL_SPLIT_MAX_EMPTY` empty cells.
    pub fn for_search(&self, root: Root, thread: usize, parallel: bool) -> Tables<'_, B> {
        let later = !root.stage.earliest();
        match &self.small {
            Some(small) if later && !(parallel && root.empty > SHARED_SMALL_MAX_ROOT_EMPTY) => {
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
                large_below: (root.moves + root.empty).saturating_sub(if later {
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
