#!/usr/bin/env bash
# Times c4 side by side with Pascal Pons's and Christophe Steininger's
# solvers on the six standard test sets, and prints the table of the
# side-by-side runs in docs/benchmarks.md: mean time and mean nodes per
# position, and c4's time over the best other solver's, with the CPU
# named. A benchmark report, not a test: CI does not run it.
#
#   C4_PONS_BENCH=PATH C4_STEIN_BENCH=PATH scripts/measure/compare-solvers.sh
#
# Each PATH is a per-position timer of the other solver, built outside the
# repository from its public source (the anchors' build script in
# ../shared/anchors builds `pons-bench` and `stein-bench`); both print
# `positions N mismatches M mean_us X mean_nodes Y` for `BENCH FILE [-w]
# [LIMIT]`. A solver without a path is left out of the table.
#
# Settings, the same for every solver: one thread, no opening book, the table
# cleared before each position (not timed). Begin-Medium and Begin-Hard are
# cut to their first 200 and 20 lines; Pons's solver is not run on those two
# (it takes minutes on them). C4_ROUNDS rounds (default 2), the solvers
# alternated within each round, each round starting with the next solver;
# a time is the range over the rounds, the ratio the median of the
# per-round ratios. The rows that take seconds a round get more rounds
# (five times as many for End-Easy and Middle-Easy, three times for
# Middle-Medium, strong and weak): their solves last microseconds, the
# machine's speed drifts over tenths of a second, and one round's ratio
# can be off by a third. Node counts do not drift; each solver counts nodes
# its own way. About 11 minutes with two rounds.
#
# C4_ROWS=REGEX keeps only the rows whose name matches the extended regular
# expression (for example 'Middle' for the three rows of Middle-Easy and
# Middle-Medium), to time with more rounds the rows a change touches.
# C4_BIN=PATH times that binary instead of building c4 here.
#
# The standard sets come from ../shared/testsets (or $C4_STANDARD_SETS).
# Exit status: 0, or 1 if a solver disagrees with a set.
set -euo pipefail

# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh" compare-solvers.sh

rounds=${C4_ROUNDS:-2}
pons=${C4_PONS_BENCH:-}
stein=${C4_STEIN_BENCH:-}
for anchor in "$pons" "$stein"; do
    if [[ -n "$anchor" && ! -x "$anchor" ]]; then
        echo "compare-solvers.sh: $anchor is not an executable" >&2
        exit 2
    fi
done

# name file limit weak pons? rounds-multiplier
rows=(
    "End-Easy (1000)|Test_L3_R1|1000||pons|5"
    "Middle-Easy (1000)|Test_L2_R1|1000||pons|5"
    "Middle-Medium (1000)|Test_L2_R2|1000||pons|3"
    "Begin-Easy (1000)|Test_L1_R1|1000||pons|1"
    "Begin-Medium (first 200)|Test_L1_R2|200|||1"
    "Begin-Hard (first 20)|Test_L1_R3|20|||1"
    "weak: Middle-Medium (1000)|Test_L2_R2|1000|weak|pons|3"
    "weak: Begin-Medium (first 200)|Test_L1_R2|200|weak||1"
    "weak: Begin-Hard (first 20)|Test_L1_R3|20|weak||1"
)
if [[ -n ${C4_ROWS:-} ]]; then
    kept=()
    for row in "${rows[@]}"; do
        if [[ ${row%%|*} =~ $C4_ROWS ]]; then kept+=("$row"); fi
    done
    if ((${#kept[@]} == 0)); then
        echo "compare-solvers.sh: no row's name matches C4_ROWS='$C4_ROWS'" >&2
        exit 2
    fi
    rows=("${kept[@]}")
fi
# The rounds of the row that runs most often.
most_rounds=0
for row in "${rows[@]}"; do
    times=${row##*|}
    if ((rounds * times > most_rounds)); then most_rounds=$((rounds * times)); fi
done

results=$(mktemp)
trap 'rm -f "$results"' EXIT
status=0

# run_c4 FILE LIMIT WEAK: prints "mean_us mean_nodes mismatches".
run_c4() {
    local weak=()
    [[ -n $3 ]] && weak=(--weak)
    "$c4" bench --no-book --threads 1 --json --limit "$2" "${weak[@]}" "$sets/$1" |
        sed -E 's/.*"mismatches":([0-9]+).*"mean_time_us":([0-9.]+),"mean_nodes":([0-9.]+).*/\2 \3 \1/'
}

# run_anchor BENCH FILE LIMIT WEAK: the same from another solver's timer.
run_anchor() {
    local weak=()
    [[ -n $4 ]] && weak=(-w)
    "$1" "$sets/$2" "${weak[@]}" "$3" |
        awk '/^positions/ { print $6, $8, $4 }'
}

solvers=(c4 stein pons)
for ((round = 1; round <= most_rounds; round++)); do
    for row in "${rows[@]}"; do
        IFS='|' read -r name file limit weak with_pons times <<<"$row"
        ((round <= rounds * times)) || continue
        echo "round $round: $name" >&2
        for ((k = 0; k < ${#solvers[@]}; k++)); do
            solver=${solvers[(k + round - 1) % ${#solvers[@]}]}
            case $solver in
                c4) line=$(run_c4 "$file" "$limit" "$weak") ;;
                stein)
                    [[ -n $stein ]] || continue
                    line=$(run_anchor "$stein" "$file" "$limit" "$weak")
                    ;;
                pons)
                    [[ -n $pons && -n $with_pons ]] || continue
                    line=$(run_anchor "$pons" "$file" "$limit" "$weak")
                    ;;
            esac
            read -r us nodes mismatches <<<"$line"
            if [[ -z $mismatches || $mismatches != 0 ]]; then
                echo "compare-solvers.sh: $solver: ${mismatches:-no result} mismatches on $name" >&2
                status=1
            fi
            printf '%s|%s|%s|%s|%s\n' "$name" "$solver" "$round" "$us" "$nodes" >>"$results"
        done
    done
done

measured_by compare-solvers.sh "$rounds-$most_rounds"
echo "| set (lines used) | c4 | Steininger | Pons | c4 / best other | c4 nodes | Steininger nodes |"
echo "|---|---:|---:|---:|---:|---:|---:|"
table_functions=$(cat "$repo/scripts/lib/solver-table.awk")
for row in "${rows[@]}"; do
    IFS='|' read -r name _ _ _ _ times <<<"$row"
    awk -F'|' -v name="$name" -v rounds="$((rounds * times))" "$table_functions"'
        $1 == name { t[$2, $3] = $4; n[$2, $3] = $5 }
        END {
            # The ratio per round against the faster other solver of that round.
            count = 0
            for (r = 1; r <= rounds; r++) {
                best = -1
                if (("stein", r) in t) best = t["stein", r]
                if (("pons", r) in t && (best < 0 || t["pons", r] < best)) best = t["pons", r]
                if (best > 0) ratio[++count] = t["c4", r] / best
            }
            median_ratio = median(ratio, count)
            printf "| %s | %s | %s | %s | %s | %s | %s |\n", name, range("c4"), range("stein"),
                range("pons"), median_ratio, nodes("c4"), nodes("stein")
        }' "$results"
done
exit "$status"
