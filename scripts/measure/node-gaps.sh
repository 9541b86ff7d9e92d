#!/usr/bin/env bash
# Where c4 searches more nodes than Steininger's solver: both solvers' node
# counts line by line on one test set, summed by the number of stones played
# and by score, with the lines where c4's excess is largest. A report for
# choosing what to change in the search, not a test: CI does not run it.
#
#   C4_STEIN_BENCH=PATH scripts/measure/node-gaps.sh [--weak] SET [LIMIT] [TOP]
#
# SET is a test-set file of `moves score` lines (a standard set's name, such
# as Test_L2_R2, is looked for in ../shared/testsets); LIMIT its first lines
# (all by default); TOP how many lines to list (10). PATH is Steininger's
# per-position timer (`BENCH FILE [-w] [LIMIT]`, printing `... mean_nodes
# N`), built outside the repository by the anchors' build script in
# ../shared/anchors for the set's board (`stein-bench-WxH` for a set with a
# `# board WxH` header). Both solvers run with one thread,
# no opening book and the table cleared before each line; each counts nodes
# its own way (see docs/benchmarks.md). Node counts do not drift, so
# the report is the same on any machine. About as long as the two solvers
# take on the set, plus one start of Steininger's timer a line.
# Exit status: 0, 1 if a solver disagrees with the set, 2 on bad usage.
set -euo pipefail
weak=()
if [[ "${1:-}" == --weak ]]; then
    weak=(--weak)
    shift
fi
if [[ $# -lt 1 || -z "${C4_STEIN_BENCH:-}" ]]; then
    echo "usage: C4_STEIN_BENCH=PATH $0 [--weak] SET [LIMIT] [TOP]" >&2
    exit 2
fi
# shellcheck source=scripts/lib/c4-binary.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/c4-binary.sh"
set_file=$1
[[ -f "$set_file" ]] || set_file="$sets/$1"
if [[ ! -f "$set_file" ]]; then
    echo "node-gaps.sh: no set $1 (a file, or a standard set's name in ../shared/testsets)" >&2
    exit 2
fi
limit=${2:-1000000}
top=${3:-10}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk -v limit="$limit" '!/^#/ && ++n <= limit' "$set_file" > "$work/lines"
# The board header, read by c4 from the options below (Steininger's timer is
# built for one board and reads bare `moves score` lines).
header=$(grep -m1 '^# board' "$set_file" || true)

# c4: one process, one JSON object a line, the table cleared between lines.
board=()
if [[ -n "$header" ]]; then
    size=${header#\# board }
    board=(--width "${size%x*}" --height "${size#*x}")
fi
cut -d' ' -f1 "$work/lines" |
    "$c4" solve --no-book --stats --json "${weak[@]}" "${board[@]}" |
    sed -E 's/.*"score":(-?[0-9]+).*"nodes":([0-9]+).*/\1 \2/' > "$work/c4"

# Steininger's solver: one line a run, so that each count is one line's.
: > "$work/stein"
flag=()
[[ ${#weak[@]} -gt 0 ]] && flag=(-w)
while IFS= read -r line; do
    echo "$line" > "$work/one"
    "$C4_STEIN_BENCH" "$work/one" "${flag[@]}" |
        awk '{ for (i = 1; i < NF; i++) if ($i == "mismatches") m = $(i + 1); else if ($i == "mean_nodes") n = $(i + 1) } END { print m, n }' >> "$work/stein"
done < "$work/lines"

paste -d' ' "$work/lines" "$work/c4" "$work/stein" | awk -v top="$top" -v weak="${#weak[@]}" '
    function sign(x) { return x > 0 ? 1 : (x < 0 ? -1 : 0) }
    {
        moves = $1; expected = $2; got = $3; c = $4; miss = $5; s = $6
        want = weak ? sign(expected) : expected
        if (got != want || miss != 0) { bad++; print "disagrees: " moves " " expected > "/dev/stderr" }
        stones = length(moves)
        by_stones_c[stones] += c; by_stones_s[stones] += s; by_stones_n[stones]++
        score = weak ? sign(expected) : expected
        by_score_c[score] += c; by_score_s[score] += s; by_score_n[score]++
        tc += c; ts += s; n++
        line[n] = moves " " expected; excess[n] = c - s; cn[n] = c; sn[n] = s
    }
    function table(title, keys_c, keys_s, keys_n,    k, i, m, order) {
        printf "\n| %s | lines | c4 nodes | Steininger nodes | c4 / Steininger |\n|---:|---:|---:|---:|---:|\n", title
        m = 0
        for (k in keys_n) order[++m] = k + 0
        for (i = 2; i <= m; i++) { k = order[i]; j = i - 1; while (j > 0 && order[j] > k) { order[j + 1] = order[j]; j-- } order[j + 1] = k }
        for (i = 1; i <= m; i++) {
            k = order[i]
            printf "| %d | %d | %d | %d | %.2f |\n", k, keys_n[k], keys_c[k], keys_s[k], keys_s[k] ? keys_c[k] / keys_s[k] : 0
        }
    }
    END {
        printf "%d lines, c4 %d nodes, Steininger %d nodes: c4 / Steininger %.3f\n", n, tc, ts, ts ? tc / ts : 0
        table("stones", by_stones_c, by_stones_s, by_stones_n)
        table("score", by_score_c, by_score_s, by_score_n)
        printf "\nThe %d lines where c4 searches the most nodes beyond Steininger'"'"'s:\n\n| line | moves score | c4 nodes | Steininger nodes |\n|---:|---|---:|---:|\n", top
        for (t = 1; t <= top && t <= n; t++) {
            best = 0
            for (i = 1; i <= n; i++) if (!(i in shown) && (best == 0 || excess[i] > excess[best])) best = i
            shown[best] = 1
            printf "| %d | %s | %d | %d |\n", best, line[best], cn[best], sn[best]
        }
        exit bad ? 1 : 0
    }'
