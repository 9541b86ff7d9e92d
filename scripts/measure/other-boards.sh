#!/usr/bin/env bash
# Times c4 side by side with Christophe Steininger's solver on mid-game
# positions of boards other than 7x6, strong and weak, and prints a table:
# mean time and mean nodes per position, and c4's time over Steininger's.
# A benchmark report, not a test: CI does not run it.
#
#   C4_STEIN_BENCH_DIR=DIR scripts/measure/other-boards.sh [WxH...]
#
# DIR holds `stein-bench-WxH`, Steininger's per-position timer built for each
# board outside the repository (../shared/anchors: build.sh, then
# `ANCHORS_OUT=OUT stein-bench-sizes.sh 9x4 10x4 11x4 8x5 7x7`); it prints
# `positions N mismatches M mean_us X mean_nodes Y` for `BENCH FILE [-w]`.
# The sizes default to 9x4 10x4 11x4 8x5 7x7.
#
# The positions are testsets/mid-WxH.txt: 60 random games of 6 to 22 moves
# made by `c4 generate` with a fixed seed (generated here if missing; the
# seed is in the script, so a missing set comes back the same). Candidates
# over `c4 generate`'s default node budget (20M) are left out of a set.
#
# Settings, the same for both solvers: one thread, no opening book, the
# table cleared before each position (not timed). C4_ROUNDS rounds (default
# 2), the solvers alternated within each round; a time is the range over
# the rounds, the ratio the median of the per-round ratios. Each solver
# counts nodes its own way. Exit status: 0, or 1 if a solver disagrees with
# a set (strong: the score; weak: its sign).
set -euo pipefail

# shellcheck source=scripts/lib/c4-binary.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/c4-binary.sh"
stein_dir="${C4_STEIN_BENCH_DIR:?set C4_STEIN_BENCH_DIR to the directory of stein-bench-WxH}"
rounds="${C4_ROUNDS:-2}"
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(9x4 10x4 11x4 8x5 7x7)

# The seed of each board's set: the set is reproducible from it.
seed_of() {
    case $1 in
        9x4) echo 91 ;; 10x4) echo 101 ;; 11x4) echo 111 ;; 8x5) echo 85 ;; 7x7) echo 77 ;;
        *) echo $((${1%x*} * 10 + ${1#*x})) ;;
    esac
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

for size in "${sizes[@]}"; do
    set_file="$repo/testsets/mid-$size.txt"
    if [[ ! -f $set_file ]]; then
        echo "generating $set_file" >&2
        "$c4" generate --width "${size%x*}" --height "${size#*x}" --count 60 \
            --min-moves 6 --max-moves 22 --seed "$(seed_of "$size")" --threads 2 \
            --out "$set_file"
    fi
    # Steininger's timer reads `moves score` lines only.
    grep -v '^#' "$set_file" >"$work/$size.txt"
    [[ -x $stein_dir/stein-bench-$size ]] || {
        echo "other-boards.sh: no $stein_dir/stein-bench-$size" >&2
        exit 2
    }
done

results="$work/results"
for ((round = 1; round <= rounds; round++)); do
    for size in "${sizes[@]}"; do
        for weak in "" weak; do
            echo "round $round: $size ${weak:-strong}" >&2
            c4_weak=() stein_weak=()
            [[ -n $weak ]] && c4_weak=(--weak) stein_weak=(-w)
            c4_line=$("$c4" bench --no-book --threads 1 --json "${c4_weak[@]}" \
                "$repo/testsets/mid-$size.txt" |
                sed -E 's/.*"mismatches":([0-9]+).*"mean_time_us":([0-9.]+),"mean_nodes":([0-9.]+).*/\2 \3 \1/')
            stein_line=$("$stein_dir/stein-bench-$size" "$work/$size.txt" "${stein_weak[@]}" |
                awk '/^positions/ { print $6, $8, $4 }')
            for solver in c4 stein; do
                if [[ $solver == c4 ]]; then line=$c4_line; else line=$stein_line; fi
                read -r us nodes mismatches <<<"$line"
                if [[ -z ${mismatches:-} || $mismatches != 0 ]]; then
                    echo "other-boards.sh: $solver: ${mismatches:-no result} mismatches on $size ${weak:-strong}" >&2
                    status=1
                fi
                printf '%s %s|%s|%s|%s|%s\n' "$size" "${weak:-strong}" "$solver" "$round" "$us" "$nodes" >>"$results"
            done
        done
    done
done

measured_by other-boards.sh "$rounds"
echo "| board, search | positions | c4 | Steininger | c4 / Steininger | c4 nodes | Steininger nodes |"
echo "|---|---:|---:|---:|---:|---:|---:|"
table_functions=$(cat "$repo/scripts/lib/solver-table.awk")
for size in "${sizes[@]}"; do
    count=$(grep -vc '^#' "$repo/testsets/mid-$size.txt")
    for weak in strong weak; do
        awk -F'|' -v name="$size $weak" -v rounds="$rounds" -v count="$count" "$table_functions"'
            $1 == name { t[$2, $3] = $4; n[$2, $3] = $5 }
            END {
                for (r = 1; r <= rounds; r++) ratio[r] = t["c4", r] / t["stein", r]
                printf "| %s | %d | %s | %s | %s | %s | %s |\n", name, count, range("c4"),
                    range("stein"), median(ratio, rounds), nodes("c4"), nodes("stein")
            }' "$results"
    done
done
exit "$status"
