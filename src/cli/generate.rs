//! `c4 generate` (placeholder until written).

use clap::Args;

/// Arguments of `c4 generate`.
#[derive(Args, Debug)]
pub struct GenerateArgs {}

/// Runs `c4 generate`; returns the exit status.
pub fn run(_args: &GenerateArgs) -> u8 {
    eprintln!("c4 generate: not written yet");
    super::EXIT_USAGE
}
