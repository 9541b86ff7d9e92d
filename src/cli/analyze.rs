//! `c4 analyze` (placeholder until written).

use clap::Args;

/// Arguments of `c4 analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {}

/// Runs `c4 analyze`; returns the exit status.
pub fn run(_args: &AnalyzeArgs) -> u8 {
    eprintln!("c4 analyze: not written yet");
    super::EXIT_USAGE
}
