#!/usr/bin/env bash
# Times c4 against Christophe Steininger's solver on the empty boards where
# c4's lead was thinnest (four rows), side by side in one run: a ratio of
# wall times taken minutes apart on the same machine does not drift the way
# the times themselves do. A benchmark report, not a test: CI does not run
# it. scripts/measure/targets.sh runs it as its section 5 when anchors are given.
#
#   C4_STEININGER_9X4=PATH C4_STEININGER_10X4=PATH [C4_STEININGER_7X6=PATH] \
#       scripts/measure/wide-boards.sh
#
# Each PATH is Steininger's executable built for that board; it is AGPL and
# never part of this repository: scripts/measure/build-steininger.sh DIR builds
# them outside it and prints these assignments. A size without a path is
# skipped with one line.
#
# Each round solves the empty board strongly with c4 (`c4 solve --no-book
# --stats --threads 2`, the default 64 MiB table) and then with Steininger's
# (its defaults: every core, a 1 GB table, no book), wall time of each
# process; C4_WIDE_ROUNDS rounds (default 2), c4 and the anchor alternated.
# The ratio is c4's time over the anchor's, per round, and the median is
# judged. Targets: at most 1/3 on 9x4 and 10x4; 7x6 is reported (it drifts
# from 0.26 to 0.37 in single runs). Takes about 15 minutes with 10x4.
# Exit status: 0 if every target given holds, 1 if one is missed or the two
# solvers disagree, 2 if no anchor was given.
set -euo pipefail

# shellcheck source=scripts/lib/c4-binary.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/c4-binary.sh"
rounds="${C4_WIDE_ROUNDS:-2}"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { printf "%.2f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo '?')"
echo "c4: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo
echo "| board | c4 (nodes) | Steininger | c4 / Steininger, each round | median | target | |"
echo "|---|---:|---:|---:|---:|---:|---|"
missed=0
given=0
for spec in "9 4 0.334" "10 4 0.334" "7 6 -"; do
    read -r width height target <<<"$spec"
    var="C4_STEININGER_${width}X${height}"
    anchor="${!var:-}"
    if [[ -z "$anchor" ]]; then
        echo "${width}x${height}: skipped (set $var to Steininger's solver built for it)"
        continue
    fi
    if [[ ! -x "$anchor" ]]; then
        echo "$var=$anchor: not an executable" >&2
        exit 2
    fi
    given=$((given + 1))
    times_c4=() times_anchor=() ratios=() nodes=()
    for ((round = 1; round <= rounds; round++)); do
        start=$(now)
        out=$("$c4" solve --no-book --stats --threads 2 --width "$width" --height "$height" '')
        middle=$(now)
        # The anchor waits for a key at the end; its score line is checked.
        anchor_out=$(echo | "$anchor")
        end=$(now)
        read -r score node_count _ <<<"$out"
        anchor_score=$(sed -n 's/^Final strong score is \(-\{0,1\}[0-9]*\).*/\1/p' <<<"$anchor_out")
        if [[ "$score" != "$anchor_score" ]]; then
            echo "${width}x${height}: c4 says $score, Steininger's solver ${anchor_score:-nothing}" >&2
            missed=$((missed + 1))
        fi
        times_c4+=("$(elapsed "$start" "$middle")")
        times_anchor+=("$(elapsed "$middle" "$end")")
        nodes+=("$node_count")
        ratios+=("$(awk -v a="${times_c4[-1]}" -v b="${times_anchor[-1]}" 'BEGIN { printf "%.2f", a / b }')")
    done
    ratio=$(printf '%s\n' "${ratios[@]}" | median)
    verdict=reported
    if [[ $target != - ]]; then
        verdict=ok
        awk -v v="$ratio" -v t="$target" 'BEGIN { exit !(v <= t) }' || { verdict=MISSED; missed=$((missed + 1)); }
    fi
    printf '| %sx%s | %s s (%s) | %s s | %s | %s | %s | %s |\n' "$width" "$height" \
        "${times_c4[*]}" "${nodes[*]}" "${times_anchor[*]}" "${ratios[*]}" "$ratio" \
        "$([[ $target == - ]] && echo - || echo '<= 1/3')" "$verdict"
done

echo
if ((given == 0)); then
    echo "no anchor given: set C4_STEININGER_9X4 and C4_STEININGER_10X4 (scripts/measure/build-steininger.sh)" >&2
    exit 2
fi
if ((missed == 0)); then
    echo "every wide-board target holds"
else
    echo "$missed wide-board target(s) missed or score(s) disagreeing"
    exit 1
fi
