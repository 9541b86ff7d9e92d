#!/usr/bin/env bash
# Builds an opening book on a Slurm cluster: a job array with one task per
# shard of `c4 book generate --shard K/N`, then a merge job that starts when
# every task has succeeded. The merged book has the same bytes as one run.
#
# Usage:
#   scripts/book-slurm.sh submit DEPTH SHARDS OUT [c4 book generate options...]
#       submits both jobs (run it on the login node, in a directory every
#       node can read and write) and prints their ids
#   scripts/book-slurm.sh shard DEPTH SHARDS OUT [options...]
#       one array task: shard $SLURM_ARRAY_TASK_ID of SHARDS (sbatch runs this)
#   scripts/book-slurm.sh merge DEPTH SHARDS OUT [options...]
#       joins the parts into OUT (sbatch runs this after the array)
#
# Environment:
#   C4           the c4 binary (default: `c4` on the PATH); every node needs it
#   C4_THREADS   threads of each task and cores asked for it (default 1)
#   C4_PARTS     directory of the part files (default OUT.parts)
#   SBATCH_ARGS  extra sbatch options, split on spaces (partition, account,
#                time limit, e.g. "--partition=long --time=2-00:00:00")
#
# A task that is killed (time limit, preemption) keeps its checkpoint
# (PART.partial); resubmitting the same command runs every shard again, and
# finished shards (a part file that `c4 book info` reads) return at once while the others go on from their
# checkpoints.
set -euo pipefail

if (($# < 4)); then
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
fi
mode=$1 depth=$2 shards=$3 out=$4
shift 4
C4=${C4:-c4}
threads=${C4_THREADS:-1}
parts=${C4_PARTS:-$out.parts}

board=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case ${args[i]} in
        --width | --height) board+=("${args[i]}" "${args[i + 1]:-}") ;;
        --width=* | --height=*) board+=("${args[i]}") ;;
    esac
done

case $mode in
    submit)
        mkdir -p "$parts"
        read -r -a extra <<<"${SBATCH_ARGS:-}"
        self=$(realpath "$0")
        array=$(sbatch --parsable "${extra[@]}" --job-name=c4-book \
            --array="1-$shards" --cpus-per-task="$threads" \
            --output="$parts/slurm-%A_%a.out" \
            --export="ALL,C4=$C4,C4_THREADS=$threads,C4_PARTS=$parts" \
            "$self" shard "$depth" "$shards" "$out" "$@")
        array=${array%%;*}
        merge=$(sbatch --parsable "${extra[@]}" --job-name=c4-book-merge \
            --dependency="afterok:$array" --cpus-per-task=1 \
            --output="$parts/slurm-merge-%j.out" \
            --export="ALL,C4=$C4,C4_PARTS=$parts" \
            "$self" merge "$depth" "$shards" "$out" "$@")
        echo "submitted array job $array ($shards shards) and merge job ${merge%%;*}"
        ;;
    shard)
        k=${SLURM_ARRAY_TASK_ID:?shard mode runs as a Slurm array task}
        mkdir -p "$parts"
        part="$parts/part$k.c4book"
        if [[ -f $part && ! -f $part.partial ]] && "$C4" book info "${board[@]}" "$part" >/dev/null 2>&1; then
            echo "$part is already complete"
            exit 0
        fi
        exec "$C4" book generate --depth "$depth" --shard "$k/$shards" \
            --threads "$threads" "$@" --out "$part"
        ;;
    merge)
        files=()
        for k in $(seq 1 "$shards"); do files+=("$parts/part$k.c4book"); done
        exec "$C4" book merge "${board[@]}" --out "$out" "${files[@]}"
        ;;
    *)
        echo "book-slurm.sh: unknown mode '$mode' (submit, shard or merge)" >&2
        exit 2
        ;;
esac
