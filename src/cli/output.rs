//! Writing results: the exit statuses, stderr messages that never panic,
//! and how write errors end a command (a closed pipe quietly).

use std::io::{self, Write};

/// Exit status: everything went well.
pub const EXIT_OK: u8 = 0;
/// Exit status: some input line was invalid, or a benchmark found a mismatch.
pub const EXIT_BAD_INPUT: u8 = 1;
/// Exit status: the command line itself was wrong (clap uses 2 too), or the
/// run would not fit in memory.
pub const EXIT_USAGE: u8 = 2;

/// Writes one message line on stderr. Errors are ignored: there is nowhere
/// left to report them, and `eprintln!` would panic.
pub fn warn(message: std::fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(message);
    let _ = err.write_all(b"\n");
}

/// The exit status after writing stdout failed with `error`, for a command
/// whose status so far was `code`.
///
/// A closed pipe (`c4 solve < many.txt | head -1`) is how a reader says it has
/// seen enough: the command stops quietly with the status it had so far. Any
/// other write error is reported and the status is 1.
pub fn after_write_error(command: &str, error: &io::Error, code: u8) -> u8 {
    if error.kind() == io::ErrorKind::BrokenPipe {
        code
    } else {
        warn(format_args!(
            "c4 {command}: cannot write the output: {error}"
        ));
        EXIT_BAD_INPUT
    }
}
