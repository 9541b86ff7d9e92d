//! Every tunable of the solver in one place, each with the reason for its value.

/// Default transposition table size in bytes (64 MiB: 4M buckets, 8M
/// entries). Large enough that the standard test sets rarely evict a useful
/// entry, small enough that one table per thread fits anywhere; the empty
/// board wants more (`--tt-size 1G`).
pub const DEFAULT_TABLE_BYTES: usize = 64 << 20;

/// Enhanced transposition cutoffs are tried at nodes with at least this many
/// empty cells. Near the end of the game subtrees are so small that the extra
/// table probes cost more than the nodes they save. Measured on Middle-Medium:
/// thresholds 4, 8 and 12 save 27%, 23% and 14% of the nodes, and 8 was the
/// fastest (15% less time than no ETC).
pub const ETC_MIN_EMPTY: i32 = 8;

/// A solver with several threads searches a position in parallel only if it
/// has at least this many empty cells: below that the search takes less time
/// than starting the threads (tens of microseconds), so it runs on one.
pub const PARALLEL_MIN_EMPTY: usize = 20;

/// Positions with fewer stones than this are stored under a key shared with
/// their mirror image.
pub const SYMMETRY_MAX_MOVES: usize = 16;

/// A weak solve of a position with fewer stones than this first probes for a
/// big win and a big loss (see `weak_score` in `src/solver/mod.rs`): early
/// positions often have large scores, later ones rarely.
pub const WEAK_PROBES_MAX_MOVES: usize = 16;
