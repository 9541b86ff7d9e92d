//! What a run may take of the machine: the memory check every solving
//! command makes before it allocates (the library adds the memory up, see
//! [`c4::memory`]; this reads what the machine has left).

use std::fs;

use c4::memory::{Bytes, MEMORY_FILES, Need};

use super::output::{EXIT_USAGE, warn};

/// Bytes of memory this process may still take, if the system says (see
/// [`c4::memory::available_memory`]).
pub fn available_memory() -> Option<usize> {
    let [meminfo, max, current] = MEMORY_FILES.map(|path| fs::read_to_string(path).ok());
    c4::memory::available_memory(meminfo.as_deref(), max.as_deref(), current.as_deref())
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
