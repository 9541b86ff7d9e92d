//! What a run may take of the machine: the most threads `--threads` may ask
//! for, and the memory check every solving command makes before it
//! allocates (the library adds the memory up, see [`c4::memory`]; this
//! reads what the machine has left).

use std::fs;

use c4::memory::{Bytes, Need};
use c4::parallel::available_cores;

use super::output::{EXIT_USAGE, warn};

/// `--threads` may ask for this many threads per core: enough to
/// oversubscribe the cores a little, far from the thousands that only
/// exhaust the memory (each worker has tables of its own).
const THREADS_PER_CORE: usize = 8;

/// The cap of `--threads` is never below this, so that a machine of few
/// cores may still run many workers.
const MIN_THREAD_CAP: usize = 64;

/// The most threads `--threads` may ask for on this machine.
pub fn max_threads() -> usize {
    available_cores()
        .saturating_mul(THREADS_PER_CORE)
        .max(MIN_THREAD_CAP)
}

/// Bytes of memory this process may still take, if the system says:
/// `MemAvailable` of `/proc/meminfo`, and no more than a cgroup (v2) limit
/// leaves (`memory.max` less `memory.current`).
pub fn available_memory() -> Option<usize> {
    let meminfo = fs::read_to_string("/proc/meminfo").ok();
    let available = meminfo.as_deref().and_then(mem_available);
    let cgroup = cgroup_room(
        fs::read_to_string("/sys/fs/cgroup/memory.max")
            .ok()
            .as_deref(),
        fs::read_to_string("/sys/fs/cgroup/memory.current")
            .ok()
            .as_deref(),
    );
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

/// Checks that `need` fits in the memory available (skipped when the
/// system does not say how much that is); if not, says how much the run
/// would take, how much there is and what to change (`hint`, e.g. "lower
/// --threads or --tt-size"), and gives the usage exit status. Called before
/// any table is allocated: a run that does not fit is refused rather than
/// killed halfway by the kernel.
pub fn check_memory(command: &str, need: &Need, hint: &str) -> Result<(), u8> {
    match available_memory() {
        Some(available) if need.total() > available => {
            warn(format_args!(
                "c4 {command}: not enough memory: this run needs {} ({need}) but {} is available; {hint}",
                Bytes(need.total()),
                Bytes(available)
            ));
            Err(EXIT_USAGE)
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_cap_lets_small_machines_oversubscribe() {
        assert!(max_threads() >= MIN_THREAD_CAP);
        assert!(max_threads() >= THREADS_PER_CORE * available_cores());
    }
}
