//! `c4 solve` (placeholder until written).

use clap::Args;

/// Arguments of `c4 solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {}

/// Runs `c4 solve`; returns the exit status.
pub fn run(_args: &SolveArgs) -> u8 {
    eprintln!("c4 solve: not written yet");
    super::EXIT_USAGE
}
