#!/usr/bin/env bash
# The game's value on every board size c4 solves from the empty board within
# a time limit: outcome, strong score, the move on which perfect play ends
# the game, nodes and time. Prints a markdown table (docs/board-sizes.md's).
#
# Usage: scripts/measure/board-sizes.sh [SECONDS] [RESULTS]
#   SECONDS  the limit a size (default 1800: half an hour)
#   RESULTS  the file the rows are kept in (default board-sizes.rows): the
#            script is resumable. A size whose row is there is not run
#            again, unless it ran out of a shorter limit than this one; each
#            new row is appended as soon as it is measured.
# Environment: C4_THREADS (default 2), C4_TT (table size, default 1G),
#              C4_SIZES (only these sizes, e.g. "4x4 5x4"; default all).
#
# Sizes go from the fewest cells up. A size that runs out of time is listed
# as such, and every size at least as wide and as high is skipped: it has
# the same game inside it plus more, and is not expected to be quicker.
set -euo pipefail

limit=${1:-1800}
results=${2:-board-sizes.rows}
touch "$results"
threads=${C4_THREADS:-2}
tt=${C4_TT:-1G}
# shellcheck source=scripts/lib/c4-binary.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/c4-binary.sh"
private_c4 sizes

# Every supported size (width, height >= 4, width * (height + 1) <= 128),
# as "cells width height", fewest cells first.
sizes=()
for w in $(seq 4 25); do
    for h in $(seq 4 31); do
        (( w * (h + 1) <= 128 )) && sizes+=("$((w * h)) $w $h")
    done
done
mapfile -t sizes < <(printf '%s\n' "${sizes[@]}" | sort -n -k1,1 -k2,2)
if [[ -n "${C4_SIZES:-}" ]]; then
    wanted=" ${C4_SIZES} "
    filtered=()
    for s in "${sizes[@]}"; do
        read -r _ w h <<<"$s"
        [[ "$wanted" == *" ${w}x${h} "* ]] && filtered+=("$s")
    done
    sizes=("${filtered[@]}")
fi

echo "c4 $("$c4" --version | cut -d' ' -f2), $(nproc) cores, --threads $threads --tt-size $tt, limit ${limit} s a size"
echo
echo "| board | outcome | score | game ends on move | nodes | time |"
echo "|---|---|---:|---:|---:|---:|"
timed_out=()
for s in "${sizes[@]}"; do
    read -r cells w h <<<"$s"
    skip=""
    for t in "${timed_out[@]+"${timed_out[@]}"}"; do
        read -r tw th <<<"$t"
        if (( w >= tw && h >= th )); then skip="${tw}x${th}"; fi
    done
    if [[ -n "$skip" ]]; then
        echo "| ${w}x${h} | not tried (${skip} ran out of time) | | | | |"
        continue
    fi
    # A row kept from an earlier run: a solve, or a time-out at this limit
    # or a longer one.
    kept=$(grep -F "| ${w}x${h} |" "$results" | tail -n 1 || true)
    if [[ -n "$kept" ]]; then
        earlier=$(sed -n 's/.*not solved within \([0-9]*\) s.*/\1/p' <<<"$kept")
        if [[ -z "$earlier" ]]; then
            echo "$kept"
            continue
        elif (( earlier >= limit )); then
            echo "$kept"
            timed_out+=("$w $h")
            continue
        fi
    fi
    start=$(date +%s.%N)
    if out=$(timeout "$limit" "$c4" solve --no-book --stats --threads "$threads" --tt-size "$tt" \
                 --width "$w" --height "$h" ''); then
        read -r score nodes micros <<<"$out"
        if (( score > 0 )); then
            outcome="first player wins"
            parity=1
        elif (( score < 0 )); then
            outcome="second player wins"
            parity=0
        else
            outcome="draw"
        fi
        if (( score == 0 )); then
            end=$cells
        else
            # A win on move m scores (cells + 2 - m) / 2 rounded down; the
            # winner plays the odd moves (first player) or the even ones.
            a=${score#-}
            end=$(( cells + 2 - 2 * a ))
            (( end % 2 == parity )) || end=$(( cells + 1 - 2 * a ))
        fi
        secs=$(awk -v us="$micros" 'BEGIN { printf "%.2f s", us / 1e6 }')
        printf '| %sx%s | %s | %s | %s | %s | %s |\n' "$w" "$h" "$outcome" "$score" "$end" \
            "$(sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$nodes")" "$secs" | tee -a "$results"
    else
        status=$?
        if (( status == 124 )); then
            echo "| ${w}x${h} | not solved within ${limit} s | | | | |" | tee -a "$results"
            timed_out+=("$w $h")
        else
            echo "| ${w}x${h} | c4 failed (status $status) | | | | |"
        fi
    fi
done
