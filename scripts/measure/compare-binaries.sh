#!/usr/bin/env bash
# Compares two c4 binaries on what does not drift: the score and node count
# of every position, and the instructions the search executes. For a change
# that must not alter the search (a refactor, a new build profile), every
# node count must be identical and the instructions close.
#
#   scripts/measure/compare-binaries.sh [--instructions] OLD_C4 NEW_C4
#
# With --instructions only part 3 runs (the positions of part 2 are still
# drawn): for a change of build profile, which cannot move a node count.
#
# 1. Node counts, one thread, no book, each line from a cleared table
#    (`c4 solve --no-book --stats`): the first 200 lines of the six standard
#    sets, strong and weak, and the empty 7x6 and 9x4 boards. Every `moves score
#    nodes` line must be the same; a difference is printed and fails.
# 2. The same on other boards: positions `c4 generate` draws (a fixed seed,
#    by the old binary) on 6x7, 7x7, 8x5, 9x4, 10x4 and 8x8 (a 128-bit
#    board), late enough to solve in about a second a board.
# 3. Instructions (valgrind's callgrind, which counts them exactly whatever
#    the machine is doing): `c4 bench --no-book` on the first 30
#    Middle-Medium lines and the first 3 Begin-Hard lines, and on each
#    board's generated positions; old, new and the ratio.
#
# The standard sets are read from ../shared/testsets beside the repository
# (or $C4_STANDARD_SETS). Takes about 25 minutes on 2 cores. Exit status: 0 if
# every node count matches, 1 if one differs, 2 for bad arguments.
set -euo pipefail

only_instructions=false
if [[ ${1:-} == --instructions ]]; then
    only_instructions=true
    shift
fi
if [[ $# -ne 2 || ! -x "$1" || ! -x "$2" ]]; then
    echo "usage: $0 [--instructions] OLD_C4 NEW_C4 (two c4 binaries)" >&2
    exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
# shellcheck source=scripts/lib/paths.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/paths.sh"
require_sets compare-binaries.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# nodes BINARY FILE [OPTIONS...]: `moves score nodes` of every line of FILE.
nodes() {
    local bin=$1 file=$2
    shift 2
    "$bin" solve --no-book --stats --threads 1 "$@" <"$file" | cut -d' ' -f1-3
}

# same LABEL FILE [OPTIONS...]: compares the node counts of both binaries
# (nothing with --instructions).
same() {
    local label=$1 file=$2
    shift 2
    if $only_instructions; then
        return
    fi
    nodes "$old" "$file" "$@" >"$work/old"
    nodes "$new" "$file" "$@" >"$work/new"
    local total
    total=$(cut -d' ' -f3 "$work/old" | awk '{ n += $1 } END { printf "%.0f", n }')
    if cmp -s "$work/old" "$work/new"; then
        printf '%-34s identical (%d lines, %d nodes)\n' "$label" "$(wc -l <"$work/old")" "$total"
    else
        printf '%-34s DIFFERENT\n' "$label"
        diff "$work/old" "$work/new" | head -n 6
        status=1
    fi
}

# instructions BINARY ARGS...: instructions callgrind counts for a run.
instructions() {
    local bin=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 >/dev/null |
        awk '/Collected :/ { print $4 }'
}

# compare_instructions LABEL ARGS...: old, new and the ratio.
compare_instructions() {
    local label=$1 a b
    shift
    a=$(instructions "$old" "$@")
    b=$(instructions "$new" "$@")
    awk -v l="$label" -v a="$a" -v b="$b" \
        'BEGIN { printf "%-34s %15s %15s  %+.3f%%\n", l, a, b, (b / a - 1) * 100 }'
}

$only_instructions || echo "== node counts: first 200 lines of each standard set, one thread, no book"
for set in Test_L3_R1 Test_L2_R1 Test_L2_R2 Test_L1_R1 Test_L1_R2 Test_L1_R3; do
    head -n 200 "$sets/$set" >"$work/$set"
    same "$set strong" "$work/$set"
    same "$set weak" "$work/$set" --weak
done
echo '' >"$work/empty"
same "7x6 empty board" "$work/empty"
same "9x4 empty board" "$work/empty" --width 9 --height 4

# Other boards: W H MIN_MOVES MAX_MOVES, late enough that the 20 positions
# take about a second in all (`c4 generate` keeps only positions within its
# node budget).
boards=(
    "6 7 12 18"
    "7 7 16 22"
    "8 5 10 16"
    "9 4 8 14"
    "10 4 10 16"
    "8 8 22 30"
)
$only_instructions || echo "== node counts: generated positions on other boards"
for board in "${boards[@]}"; do
    read -r w h lo hi <<<"$board"
    file="$work/${w}x${h}"
    "$old" generate --width "$w" --height "$h" --count 20 --min-moves "$lo" --max-moves "$hi" \
        --seed 7 --out "$file" 2>/dev/null
    grep -v '^#' "$file" >"$file.lines"
    same "${w}x${h} ($lo-$hi stones)" "$file.lines" --width "$w" --height "$h"
done

echo "== instructions (callgrind, c4 bench --no-book)"
printf '%-34s %15s %15s  %s\n' "" old new change
head -n 30 "$sets/Test_L2_R2" >"$work/mm30"
head -n 3 "$sets/Test_L1_R3" >"$work/bh3"
compare_instructions "Middle-Medium, first 30" bench --no-book "$work/mm30"
compare_instructions "Begin-Hard, first 3" bench --no-book "$work/bh3"
for board in "${boards[@]}"; do
    read -r w h _ _ <<<"$board"
    compare_instructions "${w}x${h}" bench --no-book --width "$w" --height "$h" "$work/${w}x${h}"
done
exit "$status"
