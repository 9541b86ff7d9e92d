//! The memory a run takes, added up before any of it is allocated: the
//! transposition tables of its solvers (nearly all of it), the input held in
//! flight and the opening book being loaded. Pure arithmetic: the caller
//! compares the sum with what the machine has and refuses a run that does
//! not fit, rather than being killed halfway through it. Also the sizes a
//! user writes (`64M`), and what the system's memory files say is left
//! (the caller reads them: [`available_memory`] takes their text).
//!
//! ```
//! use c4::memory::{Need, solver_bytes};
//! // Two solvers of the default 64 MiB table, one search thread each: each
//! // also has a 1 MiB table that stays in cache.
//! let per_solver = solver_bytes(64 << 20, 49, 1);
//! assert_eq!(per_solver, (64 << 20) + (1 << 20));
//! let need = Need { solvers: 2, per_solver, ..Need::default() };
//! assert_eq!(need.total(), 130 << 20);
//! ```

use std::fmt;

use crate::settings::{SHARED_TABLE_BYTES, SMALL_TABLE_BYTES};
use crate::solver::table::layout;

/// Bytes of the table that `Table::new(asked, key_bits)` makes: `asked`
/// rounded down to a power of two, and no more buckets than keys. `None`
/// when `asked` is too small for keys of `key_bits` bits (making it fails).
///
/// A bucket takes 16 bytes and an entry stores at most 42 key bits (64 less
/// 18 of fields and 4 of generation, see `solver::table`), so a table needs
/// at least `2^(key_bits - 42)` buckets; past 64 key bits, 32 bytes and 107.
/// Checked against the tables themselves by the tests below.
pub fn table_bytes(asked: usize, key_bits: u32) -> Option<usize> {
    let (bucket_bytes, max_stored_bits) = layout(key_bits);
    let buckets = asked / bucket_bytes;
    if buckets == 0 || buckets.ilog2() < key_bits.saturating_sub(max_stored_bits) {
        return None;
    }
    Some(bucket_bytes << buckets.ilog2().min(key_bits))
}

/// The least `asked` that [`table_bytes`] accepts for keys of `key_bits`
/// bits: the smallest table those keys fit in.
pub fn min_table_bytes(key_bits: u32) -> usize {
    let (bucket_bytes, max_stored_bits) = layout(key_bits);
    bucket_bytes << key_bits.saturating_sub(max_stored_bits)
}

/// Bytes of the tables of one solver made with
/// `Solver::with_table_bytes(asked)` and `set_threads(threads)`, for keys of
/// `key_bits` bits (`Position::KEY_BITS`): the full table; when it is bigger
/// than the small one, a small table per thread; with several threads, the
/// table they share near the root. 0 when the full table cannot be made.
pub fn solver_bytes(asked: usize, key_bits: u32, threads: usize) -> usize {
    let Some(full) = table_bytes(asked, key_bits) else {
        return 0;
    };
    let small = match table_bytes(SMALL_TABLE_BYTES, key_bits) {
        Some(small) if full > SMALL_TABLE_BYTES => small,
        _ => return full,
    };
    let threads = threads.max(1);
    let shared = match table_bytes(SHARED_TABLE_BYTES, key_bits) {
        Some(shared) if threads > 1 && full > SHARED_TABLE_BYTES => shared,
        _ => 0,
    };
    full.saturating_add(small.saturating_mul(threads))
        .saturating_add(shared)
}

/// The most memory loading a book file of `file_bytes` bytes takes: the
/// file, then its entries decoded as (key, score) pairs of a 128-bit key
/// (32 bytes each) and split into the book's keys of `key_bytes` bytes and
/// scores of one. A file holds at most one entry per two bytes of it;
/// `entries` is the exact count when known (the built-in book, whose bytes
/// are part of the program and take no more).
pub fn book_bytes(file_bytes: usize, entries: Option<usize>, key_bytes: usize) -> usize {
    let entries = entries.unwrap_or(file_bytes / 2);
    let decoded = std::mem::size_of::<(u128, crate::Score)>();
    file_bytes.saturating_add(entries.saturating_mul(decoded + key_bytes + 1))
}

/// What a run will take, by item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Need {
    /// Solvers (one per worker thread).
    pub solvers: usize,
    /// Bytes of the tables of each solver ([`solver_bytes`]).
    pub per_solver: usize,
    /// Bytes of the positions held at once: input lines in flight, a test
    /// set and its results, a generated set.
    pub positions: usize,
    /// Bytes of the opening book while it loads ([`book_bytes`]).
    pub book: usize,
}

impl Need {
    /// Every byte of it.
    pub fn total(&self) -> usize {
        self.solvers
            .saturating_mul(self.per_solver)
            .saturating_add(self.positions)
            .saturating_add(self.book)
    }
}

impl fmt::Display for Need {
    /// Its items, e.g. `2 solvers x 65 MiB of tables + 9.3 MiB of book`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.solvers == 1 { "" } else { "s" };
        write!(
            f,
            "{} solver{plural} x {} of tables",
            self.solvers,
            Bytes(self.per_solver)
        )?;
        if self.positions > 0 {
            write!(f, " + {} of positions", Bytes(self.positions))?;
        }
        if self.book > 0 {
            write!(f, " + {} of opening book", Bytes(self.book))?;
        }
        Ok(())
    }
}

/// A byte count in the binary unit that fits it: `512 B`, `64 KiB`,
/// `1.5 MiB`, `24 GiB` (at most one decimal, none when whole).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bytes(pub usize);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
        let mut value = self.0 as f64;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        let tenths = (value * 10.0).round() / 10.0;
        if tenths.fract() == 0.0 {
            write!(f, "{tenths:.0} {}", UNITS[unit])
        } else {
            write!(f, "{tenths:.1} {}", UNITS[unit])
        }
    }
}

/// Parses a byte size: a number with an optional K, M, G or T suffix (powers
/// of 1024), with or without a trailing `B` / `iB`, as `--tt-size` takes it.
pub fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let upper = t.to_ascii_uppercase();
    let body = upper
        .strip_suffix("IB")
        .or_else(|| upper.strip_suffix('B'))
        .unwrap_or(&upper);
    let (digits, shift) = match body.chars().last() {
        Some('K') => (&body[..body.len() - 1], 10),
        Some('M') => (&body[..body.len() - 1], 20),
        Some('G') => (&body[..body.len() - 1], 30),
        Some('T') => (&body[..body.len() - 1], 40),
        _ => (body, 0),
    };
    let n: usize = digits
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a size (examples: 64M, 1G, 512K)"))?;
    n.checked_mul(1usize << shift)
        .filter(|&b| b > 0)
        .ok_or_else(|| format!("'{text}' is not a usable size"))
}

/// The files whose text [`available_memory`] reads, on Linux: the kernel's
/// memory summary, and the cgroup (v2) limit and use.
pub const MEMORY_FILES: [&str; 3] = [
    "/proc/meminfo",
    "/sys/fs/cgroup/memory.max",
    "/sys/fs/cgroup/memory.current",
];

/// Bytes of memory a process may still take, from the text of the three
/// [`MEMORY_FILES`] (`None` for a file that could not be read):
/// `MemAvailable` of the memory summary, and no more than the cgroup's
/// `memory.max` leaves above its `memory.current`. `None` when neither
/// says.
pub fn available_memory(
    meminfo: Option<&str>,
    cgroup_max: Option<&str>,
    cgroup_current: Option<&str>,
) -> Option<usize> {
    let available = meminfo.and_then(mem_available);
    let cgroup = cgroup_room(cgroup_max, cgroup_current);
    match (available, cgroup) {
        (Some(a), Some(c)) => Some(a.min(c)),
        (a, c) => a.or(c),
    }
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn mem_available(meminfo: &str) -> Option<usize> {
    let line = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))?;
    let kib: usize = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// What a cgroup's `memory.max` (a number, or `max` for none) leaves above
/// its `memory.current`.
fn cgroup_room(max: Option<&str>, current: Option<&str>) -> Option<usize> {
    let max: usize = max?.trim().parse().ok()?;
    let current: usize = current.map_or(Some(0), |c| c.trim().parse().ok())?;
    Some(max.saturating_sub(current))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_take_suffixes_and_refuse_the_rest() {
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("1gib"), Ok(1 << 30));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("12Q").is_err());
        assert!(parse_size("0").is_err());
        assert!(parse_size("99999999T").is_err());
    }

    #[test]
    fn meminfo_gives_available_bytes() {
        let text = "MemTotal:       24684092 kB\nMemFree:        15026460 kB\nMemAvailable:   23783380 kB\n";
        assert_eq!(mem_available(text), Some(23_783_380 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(mem_available("MemAvailable: lots\n"), None);
    }

    #[test]
    fn cgroups_limit_only_with_a_number() {
        assert_eq!(cgroup_room(Some("1000\n"), Some("300\n")), Some(700));
        assert_eq!(cgroup_room(Some("1000\n"), Some("3000\n")), Some(0));
        assert_eq!(cgroup_room(Some("max\n"), Some("300\n")), None);
        assert_eq!(cgroup_room(None, Some("300\n")), None);
        assert_eq!(cgroup_room(Some("1000"), None), Some(1000));
    }

    #[test]
    fn the_smaller_of_the_two_is_available() {
        let meminfo = Some("MemAvailable:   1000 kB\n");
        assert_eq!(
            available_memory(meminfo, Some("max"), None),
            Some(1_024_000)
        );
        assert_eq!(
            available_memory(meminfo, Some("2000"), Some("1000")),
            Some(1000)
        );
        assert_eq!(
            available_memory(None, Some("2000"), Some("1000")),
            Some(1000)
        );
        assert_eq!(available_memory(None, None, None), None);
    }
    use crate::solver::table::{Table, TableError};

    #[test]
    fn table_sizes_are_those_the_tables_take() {
        // Without touching the pages, a table of any size costs nothing.
        for key_bits in [20, 30, 42, 43, 49, 56, 60, 64, 65, 72, 100, 107, 108, 128] {
            for asked in [0, 8, 16, 100, 4096, 1 << 20, 3 << 20, 64 << 20, 1 << 30] {
                let made = if key_bits > 64 {
                    Table::<u128>::new_untouched(asked, key_bits).map(|t| t.bytes())
                } else {
                    Table::<u64>::new_untouched(asked, key_bits).map(|t| t.bytes())
                };
                assert_eq!(
                    table_bytes(asked, key_bits),
                    made.ok(),
                    "{asked} {key_bits}"
                );
            }
        }
    }

    #[test]
    fn the_least_table_is_the_least_the_tables_accept() {
        for key_bits in [20, 42, 43, 49, 56, 63, 64, 65, 100, 107, 108, 120, 128] {
            let least = min_table_bytes(key_bits);
            let (made, refused) = if key_bits > 64 {
                (
                    Table::<u128>::new_untouched(least, key_bits).map(|t| t.bytes()),
                    Table::<u128>::new_untouched(least - 1, key_bits).map(|t| t.bytes()),
                )
            } else {
                (
                    Table::<u64>::new_untouched(least, key_bits).map(|t| t.bytes()),
                    Table::<u64>::new_untouched(least - 1, key_bits).map(|t| t.bytes()),
                )
            };
            assert_eq!(made.ok(), Some(least), "{key_bits}");
            assert!(
                matches!(refused, Err(TableError::TooSmall { needed, .. }) if needed == least),
                "{key_bits}"
            );
        }
        // 7x6 keys fit in 2 KiB; 7x8 keys (63 bits) need 32 MiB, 128-bit
        // keys 64 MiB, the default table.
        assert_eq!(min_table_bytes(49), 2 << 10);
        assert_eq!(min_table_bytes(63), 32 << 20);
        assert_eq!(min_table_bytes(128), 64 << 20);
    }

    #[test]
    fn solvers_count_every_table_they_make() {
        let mib = 1 << 20;
        // 7x6 keys: full table + a small one per thread + the shared one.
        assert_eq!(solver_bytes(64 * mib, 49, 1), 65 * mib);
        assert_eq!(solver_bytes(64 * mib, 49, 3), (64 + 3 + 4) * mib);
        assert_eq!(solver_bytes(100 * mib, 49, 1), 65 * mib);
        // A full table no bigger than the small one is the only table.
        assert_eq!(solver_bytes(mib, 49, 4), mib);
        // A full table no bigger than the shared one is shared itself.
        assert_eq!(solver_bytes(4 * mib, 49, 2), (4 + 2) * mib);
        // Small boards have fewer keys than buckets: 4x4 keys are 20 bits,
        // so the full table stops at 2^20 buckets.
        assert_eq!(solver_bytes(64 * mib, 20, 2), (16 + 2 + 4) * mib);
        // Too small to make at all.
        assert_eq!(solver_bytes(8, 49, 1), 0);
    }

    #[test]
    fn solvers_count_what_the_solver_allocates() {
        // Cross-check with a solver, tables untouched apart from the small
        // ones (1 MiB each).
        for threads in [1, 2, 3] {
            let mut solver = crate::Solver::<7, 6>::with_table_bytes(8 << 20).unwrap();
            solver.set_threads(threads);
            assert_eq!(solver.table_bytes(), 8 << 20);
            let expected = (8 << 20) + threads * (1 << 20) + if threads > 1 { 4 << 20 } else { 0 };
            assert_eq!(solver_bytes(8 << 20, 49, threads), expected);
        }
    }

    #[test]
    fn totals_saturate_instead_of_wrapping() {
        let need = Need {
            solvers: 100_000,
            per_solver: usize::MAX / 2,
            ..Need::default()
        };
        assert_eq!(need.total(), usize::MAX);
        assert_eq!(solver_bytes(usize::MAX, 49, usize::MAX), usize::MAX);
    }

    #[test]
    fn books_take_their_file_and_their_entries() {
        assert_eq!(book_bytes(1000, None, 8), 1000 + 500 * (32 + 8 + 1));
        assert_eq!(book_bytes(0, Some(10), 16), 10 * (32 + 16 + 1));
    }

    #[test]
    fn sizes_read_in_binary_units() {
        let cases = [
            (0, "0 B"),
            (512, "512 B"),
            (64 << 10, "64 KiB"),
            (3 << 19, "1.5 MiB"),
            (65 << 20, "65 MiB"),
            (24 << 30, "24 GiB"),
            ((100_000usize * 65) << 20, "6.2 TiB"),
        ];
        for (bytes, text) in cases {
            assert_eq!(Bytes(bytes).to_string(), text);
        }
        let need = Need {
            solvers: 2,
            per_solver: 65 << 20,
            positions: 1 << 19,
            book: 0,
        };
        assert_eq!(
            need.to_string(),
            "2 solvers x 65 MiB of tables + 512 KiB of positions"
        );
    }
}
