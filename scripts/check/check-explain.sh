#!/usr/bin/env bash
# The full checks of `c4 explain`'s strategies (Allis's strategic rules, the
# library's `c4::strategy`) beyond what `cargo test --release` runs:
# 100,000 positions of random 7x6 games (C4_EXPLAIN_RANDOM=N for another
# count), each strategy's claimed bound against the solver, with the
# coverage by stones played; and, as in the tests, every line of the
# standard sets (C4_STANDARD_SETS=DIR, default ../shared/testsets) and the
# whole small boards by minimax and by play. Works from any directory.
# Exit status: that of cargo test (1 on a false claim).
set -euo pipefail
cd "$(dirname "$0")/../.."
export C4_STANDARD_SETS="${C4_STANDARD_SETS:-$PWD/../shared/testsets}"
cargo test --release --test strategy_solver -- --include-ignored --nocapture --test-threads 1
cargo test --release --test strategy -- --include-ignored --nocapture --test-threads 1
