#!/usr/bin/env bash
# Builds c4 in release mode and runs `c4 bench` on the six standard test sets
# (read from ../shared/testsets beside the repository), printing the table.
# Begin-Medium and Begin-Hard are cut to their first 200 and 20 lines so the
# run ends in minutes. Extra arguments go to every `c4 bench` call, e.g.
#   scripts/bench.sh --weak
#   scripts/bench.sh --threads 2 --tt-size 256M
# Works from any directory. Exit status: that of `c4 bench` (1 on a mismatch).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sets="${C4_TESTSETS:-$repo/../shared/testsets}"

if [[ ! -d "$sets" ]]; then
    echo "bench.sh: no standard test sets in $sets (set C4_TESTSETS to their directory)" >&2
    exit 2
fi

cargo build --release --quiet --manifest-path "$repo/Cargo.toml" --bin c4
c4="${CARGO_TARGET_DIR:-$repo/target}/release/c4"

status=0
"$c4" bench "$@" "$sets/Test_L3_R1" "$sets/Test_L2_R1" "$sets/Test_L2_R2" "$sets/Test_L1_R1" || status=$?
# The same table goes on: drop the header of the limited runs (JSON rows,
# with --json, pass through untouched).
for limited in "Test_L1_R2 200" "Test_L1_R3 20"; do
    read -r file limit <<<"$limited"
    "$c4" bench "$@" --limit "$limit" "$sets/$file" \
        | sed -e '/^| set |/d' -e '/^|---|/d' || status=$?
done
exit "$status"
