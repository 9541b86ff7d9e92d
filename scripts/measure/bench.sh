#!/usr/bin/env bash
# Builds c4 in release mode and runs `c4 bench` on the six standard test sets
# (read from ../shared/testsets beside the repository), printing the table.
# Begin-Medium and Begin-Hard are cut to their first 200 and 20 lines so the
# run ends in minutes. The search alone is measured: no opening book (the
# built-in book answers the early Begin positions without a search; `c4 bench
# --compare-book` shows both). Extra arguments go to every `c4 bench` call, e.g.
#   scripts/measure/bench.sh --weak
#   scripts/measure/bench.sh --threads 2 --tt-size 256M
#
# With C4_BENCH_FULL=1 it also solves the empty board (strong and weak with 2
# threads, strong with 1) and measures thread scaling on one position at a
# time (the first 20 lines of Begin-Hard, each solved alone with --threads 1
# and --threads 2). The empty board uses the default 64 MiB table: a search
# from it puts only the nodes with more than 22 empty cells in that table
# (the rest go to small in-cache tables), and 64 MiB gives the same node
# count as 1 GiB (237,615,120 against 237,605,084 nodes on one thread)
# (`--tt-size 1G` works as well: 6.3 s against 6.2 s on 2 threads).
# Works from any directory. Exit status: that of `c4 bench` (1 on a mismatch).
set -euo pipefail

# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh" bench.sh

status=0
"$c4" bench --no-book "$@" "$sets/Test_L3_R1" "$sets/Test_L2_R1" "$sets/Test_L2_R2" "$sets/Test_L1_R1" || status=$?
# The same table goes on: drop the header of the limited runs (JSON rows,
# with --json, pass through untouched).
for limited in "Test_L1_R2 200" "Test_L1_R3 20"; do
    read -r file limit <<<"$limited"
    "$c4" bench --no-book "$@" --limit "$limit" "$sets/$file" \
        | sed -e '/^| set |/d' -e '/^|---|/d' || status=$?
done
if [[ "${C4_BENCH_FULL:-0}" == 1 ]]; then
    echo
    for args in "--threads 2" "--weak --threads 2" "--threads 1"; do
        echo "empty board (c4 solve --no-book --stats $args ''): moves score nodes us"
        # shellcheck disable=SC2086 # $args holds several options
        "$c4" solve --no-book --stats $args ''
    done
    echo
    echo "one position, several threads (first 20 lines of Test_L1_R3, each solved alone):"
    for threads in 1 2; do
        seconds=$(begin_hard_alone "$threads") || status=1
        echo "  --threads $threads: ${seconds:-?} s"
    done
fi
exit "$status"
