//! `c4 bench` (placeholder until written).

use clap::Args;

/// Arguments of `c4 bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {}

/// Runs `c4 bench`; returns the exit status.
pub fn run(_args: &BenchArgs) -> u8 {
    eprintln!("c4 bench: not written yet");
    super::EXIT_USAGE
}
