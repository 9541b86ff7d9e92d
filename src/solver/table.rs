//! The transposition table: bounds on positions already searched.
//!
//! Many move orders reach the same position; the table remembers what a search
//! learnt about each position so that it is not searched again.
//!
//! # Layout
//! A power-of-two number of 16-byte buckets of two 64-bit entries (four
//! buckets to a cache line). The first entry of a bucket keeps the result of
//! the biggest search (by nodes) that mapped there, the second the most recent
//! one: deep results are the costly ones to lose, recent ones the most likely
//! to be asked for again.
//!
//! # Exact keys, no false hits
//! A position key below `2^K` is scrambled by a bijection of `K`-bit numbers
//! (multiplication by an odd constant modulo `2^K`). The top `n` bits of the
//! result pick one of `2^n` buckets and the remaining `K - n` bits are stored
//! in the entry. Since the bijection can be inverted, bucket plus stored bits
//! determine the key exactly: a hit is never another position's entry. (Pons
//! gets the same guarantee from the Chinese remainder theorem with a prime
//! table size; a power of two avoids the division.)
//!
//! # Boards past 64 bits
//! Keys of up to 128 bits leave more bits to store than one word holds, so
//! a table of `u128` keys gives each entry two words: the first as above
//! (its key bits being the stored bits above the low 64), the second the
//! low 64 stored bits XOR the first word. A reader checks both; a read torn
//! by another thread's write between the two words fails the check (but for
//! a 2^-64 chance), so it is a miss, never another position's entry. Buckets
//! are then 32 bytes.
//!
//! # Entry
//! From the low bits: bound type (2 bits, 0 = empty), score + 64 (7), best
//! column + 1 (4, 0 = none), work (5, log2 of the nodes the search took),
//! generation (up to 16), then the key bits. Each entry is one atomic word,
//! read and written with relaxed ordering (a plain `mov` on x86-64), so
//! threads can share a table without locks: a reader sees either a whole old
//! entry or a whole new one, and the stored key bits tell if it is its own.
//!
//! # Clearing by generation
//! Entries carry the generation that wrote them and count as empty in any
//! other. [`Table::new_generation`] makes the table empty in O(1); only when
//! the generation counter wraps is the memory actually zeroed.

mod memory;

use std::sync::atomic::{AtomicU64, Ordering};

use memory::TableMemory;
use thiserror::Error;

use crate::Bitboard;

/// What a stored score says about the true score of its position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one.
    Upper,
    /// The true score is at least the stored one.
    Lower,
    /// The stored score is the true score.
    Exact,
}

/// One position's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// How `score` bounds the true score.
    pub bound: Bound,
    /// The stored score.
    pub score: i32,
    /// The best column found (0-based), if the search found one.
    pub best: Option<usize>,
    /// log2 of the number of nodes the search of this position took.
    pub work: u32,
}

/// Why a table could not be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TableError {
    /// The size asked for is below what this board's keys need.
    #[error(
        "a transposition table of {asked} bytes is too small for this board: it needs at least {needed} bytes"
    )]
    TooSmall {
        /// Bytes asked for.
        asked: usize,
        /// The least number of bytes that works.
        needed: usize,
    },
    /// The allocation failed.
    #[error("cannot allocate a transposition table of {0} bytes")]
    OutOfMemory(usize),
}

/// Bytes of one bucket of a table of keys of at most 64 bits.
pub const BUCKET_BYTES: usize = 16;

/// The layout of a table for keys of `key_bits` bits: bytes of a bucket, and
/// the most key bits an entry stores (fields and a few generation bits
/// take the rest). Keys past 64 bits take two words an entry.
pub const fn layout(key_bits: u32) -> (usize, u32) {
    let words = if key_bits > 64 { 2 } else { 1 };
    (
        BUCKET_BYTES * words,
        64 * words as u32 - FIELD_BITS - min_generation_bits(words),
    )
}

/// Fewer generation bits than this would zero the table too often. With two
/// words an entry, one bit fewer lets the default 64 MiB table hold 128-bit
/// keys (107 stored bits); the table is then zeroed every 7 generations, at
/// that size only.
const fn min_generation_bits(words: usize) -> u32 {
    if words == 1 { 4 } else { 3 }
}

/// The most work an entry records (its field has 5 bits): log2 of the
/// nodes, so a subtree of 2^31 nodes or more.
pub const MAX_WORK: u32 = 31;

/// Bits of an entry below the generation: bound 2, score 7, move 4, work 5.
const FIELD_BITS: u32 = 18;
/// The most generation bits an entry keeps.
const MAX_GENERATION_BITS: u32 = 16;
/// Odd multiplier of the key bijection (the golden ratio in 64-bit fixed
/// point: its bits look random, so nearby keys land in distant buckets).
/// Past 64 bits, the same in 128-bit fixed point (its low 64 bits are the
/// 64-bit one's, so a `u64` key is scrambled as before).
const MULTIPLIER: u128 = 0xF39C_C060_5CED_C835_9E37_79B9_7F4A_7C15;

/// A transposition table for keys of the word `K` (`u64`, or `u128` for
/// boards past 64 bits), shared by reference; all methods take `&self`
/// except those that reset it.
pub struct Table<K: Bitboard = u64> {
    /// `2 * 2^index_bits` entries of `WORDS` words each.
    entries: TableMemory,
    /// Mask of the low `key_bits` bits.
    key_mask: K,
    /// Bits of the scrambled key kept in an entry: `key_bits - index_bits`.
    stored_bits: u32,
    /// Mask of the low `stored_bits` bits.
    low_mask: K,
    /// Bits below the stored key bits of the first word (fields and
    /// generation).
    payload_bits: u32,
    /// Mask of the bits that say whose entry a word is and when it was
    /// written: the stored key bits (above the payload) and the generation
    /// field.
    tag_mask: u64,
    /// Mask of the generation field, once shifted down.
    generation_mask: u64,
    /// The generation whose entries are live.
    generation: u64,
    /// `generation`, shifted into its field.
    live_generation: u64,
}

impl<K: Bitboard> Table<K> {
    /// Words an entry takes: two when keys can pass 64 bits.
    const WORDS: usize = if K::BITS > 64 { 2 } else { 1 };

    /// A table of at most `bytes` bytes (rounded down to a power of two) for
    /// positions whose keys are below `2^key_bits`, every page of it touched
    /// once so that searches do not pay the page faults.
    pub fn new(bytes: usize, key_bits: u32) -> Result<Self, TableError> {
        let table = Self::new_untouched(bytes, key_bits)?;
        table.entries.touch();
        Ok(table)
    }

    /// Touches every page of the table once (see [`Table::new`]); the
    /// entries are unchanged.
    pub fn touch(&self) {
        self.entries.touch();
    }

    /// [`Table::new`] without touching the pages: a table that may never be
    /// used costs no page faults (nor memory), and one that is used pays
    /// them when it is used (or calls [`Table::touch`] first). For the
    /// solver's full table, which most searches never use when there is a
    /// small table. `c4 bench --threads 2` on Middle-Medium: system time
    /// 0.19-0.32 s with each worker's 64 MiB table touched at start-up,
    /// 0.00-0.01 s untouched.
    pub fn new_untouched(bytes: usize, key_bits: u32) -> Result<Self, TableError> {
        assert!(key_bits >= 1 && key_bits as usize <= K::BITS);
        // The stored key bits and the fields must fit in the entry's words
        // with at least a few generation bits.
        let word_bits = 64 * Self::WORDS as u32;
        let min_index_bits =
            key_bits.saturating_sub(word_bits - FIELD_BITS - min_generation_bits(Self::WORDS));
        let bucket_bytes = BUCKET_BYTES * Self::WORDS;
        let needed = bucket_bytes << min_index_bits;
        let buckets = bytes / bucket_bytes;
        if buckets == 0 || buckets.ilog2() < min_index_bits {
            return Err(TableError::TooSmall {
                asked: bytes,
                needed,
            });
        }
        // More buckets than keys would be wasted.
        let index_bits = buckets.ilog2().min(key_bits);
        let words = (2 * Self::WORDS) << index_bits;
        let entries = TableMemory::zeroed(words).ok_or(TableError::OutOfMemory(words * 8))?;
        let stored_bits = key_bits - index_bits;
        // The first word stores what the second (if any) does not hold.
        let first_word_key_bits = stored_bits.saturating_sub(word_bits - 64);
        let payload_bits = 64 - first_word_key_bits;
        let generation_bits = (payload_bits - FIELD_BITS).min(MAX_GENERATION_BITS);
        Ok(Table {
            entries,
            key_mask: K::from_u128(u128::MAX >> (128 - key_bits)),
            stored_bits,
            low_mask: K::from_u128((1u128 << stored_bits) - 1),
            payload_bits,
            tag_mask: u64::MAX.checked_shl(payload_bits).unwrap_or(0)
                | ((1u64 << generation_bits) - 1) << FIELD_BITS,
            generation_mask: (1u64 << generation_bits) - 1,
            generation: 1,
            live_generation: 1 << FIELD_BITS,
        })
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * 8
    }

    /// Number of entries (two per bucket).
    pub fn capacity(&self) -> usize {
        self.entries.len() / Self::WORDS
    }

    /// The bucket's first word index, the tag of `key`'s entry in this
    /// generation (its stored key bits and the generation, in place) and,
    /// with two words an entry, the key bits the second word holds.
    #[inline(always)]
    fn locate(&self, key: K) -> (usize, u64, u64) {
        let hash = key.wrapping_mul(K::from_u128(MULTIPLIER)) & self.key_mask;
        let bucket = (hash >> self.stored_bits as usize).to_u128() as usize;
        let low = hash & self.low_mask;
        if Self::WORDS == 1 {
            // `hash` modulo 2^stored_bits, shifted into place above the
            // payload; `wrapping_shl` keeps 0 when nothing is stored
            // (payload_bits = 64).
            let low = low.to_u128() as u64;
            (
                bucket * 2,
                low.wrapping_shl(self.payload_bits) | self.live_generation,
                0,
            )
        } else {
            let low = low.to_u128();
            let high = (low >> 64) as u64;
            (
                bucket * 4,
                high.wrapping_shl(self.payload_bits) | self.live_generation,
                low as u64,
            )
        }
    }

    /// The `2 * WORDS` words of the bucket whose first word is `index`, as
    /// [`Table::locate`] found it. Not bounds-checked against the whole
    /// table: every node probes and prefetches each child's bucket, and
    /// without the checks the search takes 2.3-2.4% fewer instructions
    /// (callgrind, nodes identical, the first 30 Middle-Medium lines, the
    /// first 5 Begin-Medium and 2 Begin-Hard ones).
    #[inline(always)]
    fn bucket(&self, index: usize) -> &[AtomicU64] {
        debug_assert!(index + 2 * Self::WORDS <= self.entries.len());
        // SAFETY: `locate` takes the bucket from the top `index_bits` of a
        // key scrambled to `key_bits` bits (`stored_bits = key_bits -
        // index_bits` below them), so `bucket < 2^index_bits`, and returns
        // `index = bucket * 2 * WORDS`; the table holds `2 * WORDS <<
        // index_bits` words (`new_untouched`), so the range is in bounds.
        unsafe { self.entries.get_unchecked(index..index + 2 * Self::WORDS) }
    }

    /// Whether `word` is the live entry whose tag is `tag` (see
    /// [`Table::locate`]). One mask and one comparison: the generation is
    /// never 0, so an empty (all-zero) word never matches, and every entry
    /// written has a non-zero bound. A node probes up to eight buckets:
    /// against checking the key bits, the bound and the generation one by
    /// one, Begin-Easy 0.101 ms against 0.119 ms a position (`c4 bench`,
    /// one thread, alternated runs).
    #[inline(always)]
    fn matches(&self, word: u64, tag: u64) -> bool {
        word & self.tag_mask == tag
    }

    /// The first word of entry `slot` (0 or 1) of the bucket at `index` if
    /// it is the live entry of the key with `tag` and `check` (see
    /// [`Table::locate`]).
    #[inline(always)]
    fn load_if_matches(&self, index: usize, slot: usize, tag: u64, check: u64) -> Option<u64> {
        let entry = &self.bucket(index)[slot * Self::WORDS..];
        let word = entry[0].load(Ordering::Relaxed);
        if !self.matches(word, tag) {
            return None;
        }
        if Self::WORDS == 2 && entry[1].load(Ordering::Relaxed) ^ word != check {
            return None;
        }
        Some(word)
    }

    /// Writes `word` (and the second word, with `check`) into entry `slot`.
    #[inline(always)]
    fn write(&self, index: usize, slot: usize, word: u64, check: u64) {
        let entry = &self.bucket(index)[slot * Self::WORDS..];
        entry[0].store(word, Ordering::Relaxed);
        if Self::WORDS == 2 {
            entry[1].store(check ^ word, Ordering::Relaxed);
        }
    }

    /// Asks the CPU to start loading the bucket of `key` into cache, so that a
    /// probe shortly after does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: K) {
        #[cfg(target_arch = "x86_64")]
        {
            let (index, _, _) = self.locate(key);
            let ptr = self.bucket(index).as_ptr() as *const i8;
            // SAFETY: `ptr` points into `entries` (see `Table::bucket`); a
            // prefetch never faults and has no effect on memory contents.
            unsafe {
                std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key` in this generation, if any.
    #[inline(always)]
    pub fn probe(&self, key: K) -> Option<Entry> {
        let (index, tag, check) = self.locate(key);
        if Self::WORDS == 1 {
            // Both words of the bucket (one cache line) read and matched,
            // then one branch on a hit: a branch per entry was taken or
            // not by the table's contents. Cachegrind, nodes identical:
            // -0.9% instructions and -1.1% simulated mispredicted branches
            // on the first 30 Middle-Medium lines, -1.0% and -1.0% on the
            // first 2 Begin-Hard lines.
            let bucket = self.bucket(index);
            let first = bucket[0].load(Ordering::Relaxed);
            let second = bucket[1].load(Ordering::Relaxed);
            let in_first = self.matches(first, tag);
            if in_first | self.matches(second, tag) {
                return Some(decode(if in_first { first } else { second }));
            }
            return None;
        }
        (0..2)
            .find_map(|slot| self.load_if_matches(index, slot, tag, check))
            .map(decode)
    }

    /// Records `entry` for `key`, replacing the same position's entry if
    /// present; otherwise the new entry takes the first slot if it took at
    /// least as much work as the one there (which moves to the second slot),
    /// else the second slot.
    #[inline(always)]
    pub fn store(&self, key: K, entry: Entry) {
        let (index, tag, check) = self.locate(key);
        let word = tag | encode(entry);
        let bucket = self.bucket(index);
        let old_first = bucket[0].load(Ordering::Relaxed);
        // The first entry's second word, decoded (0 with one word an entry).
        let first_check = if Self::WORDS == 2 {
            bucket[1].load(Ordering::Relaxed) ^ old_first
        } else {
            0
        };
        if self.matches(old_first, tag) && first_check == check {
            self.write(index, 0, word, check);
            return;
        }
        if self.load_if_matches(index, 1, tag, check).is_some() {
            // The same position, better informed now; promote it if it earned
            // the first slot.
            if self.is_stale(old_first) || entry.work >= work_of(old_first) {
                self.write(index, 1, old_first, first_check);
                self.write(index, 0, word, check);
            } else {
                self.write(index, 1, word, check);
            }
            return;
        }
        if self.is_stale(old_first) || entry.work >= work_of(old_first) {
            if !self.is_stale(old_first) {
                self.write(index, 1, old_first, first_check);
            }
            self.write(index, 0, word, check);
        } else {
            self.write(index, 1, word, check);
        }
    }

    /// Whether `word` is empty or from another generation (an empty word
    /// has generation 0, which is never live).
    #[inline(always)]
    fn is_stale(&self, word: u64) -> bool {
        word & (self.generation_mask << FIELD_BITS) != self.live_generation
    }

    /// Makes every entry count as empty, in O(1) except when the generation
    /// counter wraps (once every 2^16 calls on 7x6), when memory is zeroed.
    pub fn new_generation(&mut self) {
        self.generation = (self.generation + 1) & self.generation_mask;
        if self.generation == 0 {
            self.zero();
            self.generation = 1;
        }
        self.live_generation = self.generation << FIELD_BITS;
    }

    /// Zeroes the whole table.
    pub fn zero(&mut self) {
        for word in self.entries.iter_mut() {
            *word.get_mut() = 0;
        }
    }

    /// Number of live entries (a full scan, for the tests).
    #[cfg(test)]
    pub fn occupancy(&self) -> usize {
        self.entries
            .iter()
            .step_by(Self::WORDS)
            .filter(|w| !self.is_stale(w.load(Ordering::Relaxed)))
            .count()
    }
}

/// The fields of an entry, in its low 18 bits.
#[inline(always)]
fn encode(entry: Entry) -> u64 {
    let bound = match entry.bound {
        Bound::Upper => 1,
        Bound::Lower => 2,
        Bound::Exact => 3,
    };
    let score = (entry.score + 64) as u64 & 0x7f;
    let best = match entry.best {
        Some(col) if col < 15 => col as u64 + 1,
        _ => 0,
    };
    let work = entry.work.min(MAX_WORK) as u64;
    bound | score << 2 | best << 9 | work << 13
}

/// The fields of a live entry.
#[inline(always)]
fn decode(word: u64) -> Entry {
    let bound = match word & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    let best = (word >> 9) & 0xf;
    Entry {
        bound,
        score: ((word >> 2) & 0x7f) as i32 - 64,
        best: if best == 0 {
            None
        } else {
            Some(best as usize - 1)
        },
        work: work_of(word),
    }
}

/// The work field of an entry.
#[inline(always)]
fn work_of(word: u64) -> u32 {
    ((word >> 13) & 0x1f) as u32
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

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(score: i32, work: u32) -> Entry {
        Entry {
            bound: Bound::Lower,
            score,
            best: Some(3),
            work,
        }
    }

    #[test]
    fn round_trips_fields() {
        let t = Table::<u64>::new(1 << 16, 49).unwrap();
        for (i, bound) in [Bound::Upper, Bound::Lower, Bound::Exact]
            .into_iter()
            .enumerate()
        {
            let e = Entry {
                bound,
                score: -18 + i as i32 * 11,
                best: [None, Some(0), Some(6)][i],
                work: [0, 7, 31][i],
            };
            t.store(12345 + i as u64, e);
            assert_eq!(t.probe(12345 + i as u64), Some(e));
        }
    }

    #[test]
    fn never_answers_for_another_key() {
        // A tiny table: many keys share buckets, none may see another's entry.
        let t = Table::<u64>::new(BUCKET_BYTES * 16, 20).unwrap();
        for key in 0..(1u64 << 12) {
            t.store(key, entry((key % 37) as i32 - 18, 1));
        }
        for key in 0..(1u64 << 12) {
            if let Some(e) = t.probe(key) {
                assert_eq!(e.score, (key % 37) as i32 - 18);
            }
        }
    }

    #[test]
    fn wide_keys_never_answer_for_another_key() {
        // 112-bit keys in 32 buckets (107 bits stored, the most there is
        // room for): the stored bits span both words, and keys that differ
        // only in their high bits share buckets.
        let t = Table::<u128>::new(BUCKET_BYTES * 2 * 32, 112).unwrap();
        assert_eq!(t.capacity(), 64);
        assert!(Table::<u128>::new(BUCKET_BYTES * 2 * 32, 113).is_err());
        let keys: Vec<u128> = (0..1u128 << 11)
            .map(|k| (k << 101) | (k * 0x9E37_79B9) | 1)
            .collect();
        for (i, &key) in keys.iter().enumerate() {
            t.store(key, entry((i % 37) as i32 - 18, (i % 5) as u32));
        }
        let mut hits = 0;
        for (i, &key) in keys.iter().enumerate() {
            if let Some(e) = t.probe(key) {
                assert_eq!(e.score, (i % 37) as i32 - 18, "key {key:#x}");
                hits += 1;
            }
        }
        assert!(hits >= 32, "{hits} hits");
        // Keys below 2^64 in a table of 128-bit keys are kept whole too.
        let small = Table::<u128>::new(BUCKET_BYTES * 2 * 16, 100).unwrap();
        small.store(5, entry(3, 1));
        small.store(5 | 1 << 99, entry(-3, 1));
        assert_eq!(small.probe(5).map(|e| e.score), Some(3));
        assert_eq!(small.probe(5 | 1 << 99).map(|e| e.score), Some(-3));
        assert_eq!(small.probe(6), None);
    }

    #[test]
    fn the_default_size_holds_128_bit_keys() {
        assert!(Table::<u128>::new_untouched(crate::settings::DEFAULT_TABLE_BYTES, 128).is_ok());
        assert!(
            Table::<u128>::new_untouched(crate::settings::DEFAULT_TABLE_BYTES / 2, 128).is_err()
        );
    }

    #[test]
    fn new_generation_empties_and_wraps() {
        let mut t = Table::<u64>::new(1 << 12, 49).unwrap();
        t.store(99, entry(5, 3));
        assert!(t.probe(99).is_some());
        t.new_generation();
        assert_eq!(t.probe(99), None);
        assert_eq!(t.occupancy(), 0);
        for _ in 0..(1 << 16) {
            t.new_generation();
        }
        t.store(7, entry(1, 1));
        assert_eq!(t.probe(7).map(|e| e.score), Some(1));
    }

    #[test]
    fn keeps_the_deeper_entry() {
        // Two buckets only: three keys must share them.
        let t = Table::<u64>::new(BUCKET_BYTES * 2, 8).unwrap();
        let keys: Vec<u64> = (0..256u64)
            .filter(|&k| t.locate(k).0 == 0)
            .take(3)
            .collect();
        t.store(keys[0], entry(1, 20));
        t.store(keys[1], entry(2, 1));
        t.store(keys[2], entry(3, 2));
        assert_eq!(t.probe(keys[0]).map(|e| e.score), Some(1));
        assert_eq!(t.probe(keys[1]), None);
        assert_eq!(t.probe(keys[2]).map(|e| e.score), Some(3));
    }

    /// Minor page faults of the calling thread so far.
    #[cfg(target_os = "linux")]
    fn page_faults() -> i64 {
        // SAFETY: getrusage only writes the struct it is given.
        unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            libc::getrusage(libc::RUSAGE_THREAD, &mut usage);
            usage.ru_minflt
        }
    }

    /// Stores an entry in every page of `t` and returns the page faults
    /// that took.
    #[cfg(target_os = "linux")]
    fn faults_writing_every_page(t: &Table<u64>) -> i64 {
        // One key per page, found before counting (the set allocates).
        let mut pages = std::collections::HashSet::new();
        let keys: Vec<u64> = (0u64..)
            .filter(|&key| pages.insert(t.locate(key).0 * 8 / 4096))
            .take(t.bytes() / 4096)
            .collect();
        let before = page_faults();
        for key in keys {
            t.store(key, entry(1, 1));
        }
        page_faults() - before
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn touched_tables_take_no_page_faults() {
        // 1 MiB, the small table's size: less than a huge page, so its
        // pages are 4 KiB ones. Untouched, every page faults when the
        // search first writes it (the check that the test sees faults).
        let bytes = 1 << 20;
        let untouched = Table::<u64>::new_untouched(bytes, 49).unwrap();
        assert!(faults_writing_every_page(&untouched) >= 256 / 2);
        // Touched by the kernel (MADV_POPULATE_WRITE), or page by page.
        let touched = Table::<u64>::new(bytes, 49).unwrap();
        assert!(faults_writing_every_page(&touched) <= 2);
        let by_writes = Table::<u64>::new_untouched(bytes, 49).unwrap();
        by_writes.entries.touch_by_writes();
        assert!(faults_writing_every_page(&by_writes) <= 2);
    }

    #[test]
    fn rejects_too_small_tables_for_wide_keys() {
        assert!(matches!(
            Table::<u64>::new(1 << 10, 64),
            Err(TableError::TooSmall { .. })
        ));
        assert!(Table::<u64>::new(64 << 20, 64).is_ok());
    }
}
