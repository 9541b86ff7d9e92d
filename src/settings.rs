//! Every tunable of the solver in one place, each with the reason for its value.

/// Default transposition table size in bytes (64 MiB: 4M buckets, 8M
/// entries). Large enough that the standard test sets rarely evict a useful
/// entry, small enough that one table per thread fits anywhere; the empty
/// board wants more (`--tt-size 1G`).
pub const DEFAULT_TABLE_BYTES: usize = 64 << 20;
