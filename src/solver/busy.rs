//! The busy marks of a parallel search: the big nodes its threads are in
//! the middle of searching. The search reads and writes them; the threads
//! that share them are started elsewhere (`parallel`).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::Bitboard;

/// The nodes that the threads of one parallel search are in the middle of
/// searching, by key, for nodes with at least
/// [`DEFER_MIN_EMPTY`](crate::settings::DEFER_MIN_EMPTY) empty cells: one
/// slot per hash of the key, the last thread to enter a node owning its slot
/// (a lost mark only means less deferring).
///
/// Why: threads that share results through the table walk the tree in
/// nearly the same order, so two threads often search the same big subtree
/// at the same moment. A node whose moves must all be searched (it fails
/// low) searches its first move, then defers the moves another thread is
/// already searching to the end, when their results are likely in the
/// table (the idea of ABDADA, Weill 1996). A node's first move is never
/// deferred, so a node expected to cut off behaves as before. The order of
/// moves changes, never the set searched: scores are unchanged. Where it
/// starts and what it saves: `DEFER_MIN_EMPTY` in `settings.rs`.
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
        // (Keys past 64 bits come folded: two positions may then share a
        // mark, which only changes the order of moves.)
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.slots[(h >> 40) as usize & (self.slots.len() - 1)]
    }

    /// Marks `key` as being searched.
    #[inline(always)]
    pub fn enter<B: Bitboard>(&self, key: B) {
        let key = key.fold64();
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Unmarks `key`, unless another node took its slot since.
    #[inline(always)]
    pub fn leave<B: Bitboard>(&self, key: B) {
        let key = key.fold64();
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Whether some thread is searching `key`.
    #[inline(always)]
    pub fn contains<B: Bitboard>(&self, key: B) -> bool {
        let key = key.fold64();
        self.slot(key).load(Ordering::Relaxed) == key
    }
}
