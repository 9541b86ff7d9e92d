//! Writing results: stderr messages that never panic, and how write errors
//! end a command (a closed pipe quietly).

use std::io::{self, Write};

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
        super::EXIT_BAD_INPUT
    }
}
