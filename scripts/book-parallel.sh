#!/usr/bin/env bash
# Builds an opening book in N shards run by GNU parallel, on this machine or
# across hosts, then merges the parts into one book: the same bytes as one
# `c4 book generate` run with the same depth and board.
#
# Usage: scripts/book-parallel.sh DEPTH SHARDS OUT [c4 book generate options...]
#   e.g. scripts/book-parallel.sh 10 64 7x6-d10.c4book --bounds-from builtin
#
# Environment:
#   C4            the c4 binary (default: `c4` on the PATH, else this
#                 repository's target/release/c4)
#   C4_THREADS    threads of each shard (default 1: one shard a core)
#   C4_PARTS      directory of the part files (default OUT.parts)
#   PARALLEL_ARGS extra GNU parallel options, split on spaces. Across hosts:
#                   PARALLEL_ARGS="--sshlogin 16/node1,16/node2 --workdir /scratch/c4"
#                 c4 must be on the PATH of every host (cargo install --path .);
#                 each part is written in the remote work directory and
#                 brought back (--return), then removed there (--cleanup).
#
# Resumable: each shard keeps its checkpoint (PART.partial) while it runs and
# the job log (PARTS/joblog) records the finished shards; run the script
# again with the same arguments and only the unfinished shards run again,
# each going on from its checkpoint when it runs on the same host.
set -euo pipefail

if (($# < 3)); then
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
fi
depth=$1 shards=$2 out=$3
shift 3
if ! command -v parallel >/dev/null; then
    echo "book-parallel.sh: GNU parallel is not installed (apt-get install parallel)" >&2
    exit 2
fi
if [[ -z ${C4:-} ]]; then
    if command -v c4 >/dev/null; then
        C4=c4
    else
        C4="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/release/c4"
    fi
fi
threads=${C4_THREADS:-1}
parts=${C4_PARTS:-$out.parts}
mkdir -p "$parts"

# shellcheck disable=SC2086 # PARALLEL_ARGS is a list of options
read -r -a extra <<<"${PARALLEL_ARGS:-}"
remote=false
for arg in "${extra[@]}"; do
    [[ $arg == --sshlogin* || $arg == -S* || $arg == --slf* ]] && remote=true
done

if $remote; then
    # Run in the remote work directory, bring the part back into $parts.
    (cd "$parts" && seq 1 "$shards" | parallel "${extra[@]}" \
        --joblog joblog --resume-failed --halt now,fail=1 \
        --return "part{}.c4book" --cleanup \
        "$C4" book generate --depth "$depth" --shard "{}/$shards" \
        --threads "$threads" "$@" --out "part{}.c4book")
else
    seq 1 "$shards" | parallel "${extra[@]}" \
        --jobs "$(( $(nproc) / threads > 0 ? $(nproc) / threads : 1 ))" \
        --joblog "$parts/joblog" --resume-failed --halt now,fail=1 \
        "$C4" book generate --depth "$depth" --shard "{}/$shards" \
        --threads "$threads" "$@" --out "$parts/part{}.c4book"
fi

# The board options of the run, which the merge needs too.
board=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case ${args[i]} in
        --width | --height) board+=("${args[i]}" "${args[i + 1]:-}") ;;
        --width=* | --height=*) board+=("${args[i]}") ;;
    esac
done

files=()
for k in $(seq 1 "$shards"); do files+=("$parts/part$k.c4book"); done
"$C4" book merge "${board[@]}" --out "$out" "${files[@]}"
echo "merged $shards parts into $out"
