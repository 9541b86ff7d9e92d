# Sourced by the benchmark scripts that need the standard test sets
# (../shared/testsets beside the repository, or $C4_STANDARD_SETS): sets
# `sets`, and `repo` and `c4` through c4-binary.sh (which builds c4). Exits
# with status 2 if the sets are missing. $1: the calling script's name, for the
# message. Also defines the loop both scripts time, `begin_hard_alone`.
# shellcheck source=scripts/lib/paths.sh
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
require_sets "$1"
# shellcheck source=scripts/lib/c4-binary.sh
source "$(dirname "${BASH_SOURCE[0]}")/c4-binary.sh"

# begin_hard_alone THREADS: solves the first 20 lines of Begin-Hard, each
# alone in its own `c4 solve --no-book --threads THREADS` process, and
# prints the seconds they took (the thread-scaling sample of scripts/measure/targets.sh).
# Returns 1, after naming the line on stderr, if a score is wrong.
begin_hard_alone() {
    local threads=$1 start end moves expected got
    start=$(date +%s.%N)
    while read -r moves expected; do
        got=$("$c4" solve --no-book --threads "$threads" "$moves" | cut -d' ' -f2)
        if [[ "$got" != "$expected" ]]; then
            echo "Begin-Hard $moves: expected $expected, got $got on $threads threads" >&2
            return 1
        fi
    done < <(head -n 20 "$sets/Test_L1_R3")
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}
