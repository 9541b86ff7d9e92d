#!/usr/bin/env bash
# Fuzzes everything c4 reads from outside, each target for SECONDS seconds
# (default 60), with cargo fuzz (libFuzzer) on the nightly toolchain:
#
#   moves        the move parser, on the 7x6 and 11x4 boards
#   stdin_line   the reader of one stdin or test-set line
#   book_decode  the book file decoder (header, checksum, entries)
#   book_load    the book loader with its consistency check (4x4 and 5x4)
#   checkpoint   the checkpoint reader of book runs
#
# Seeds: a few moves strings, books made by c4 itself, and checkpoint inputs
# (fuzz/corpus/, not committed). Prints, per target, the inputs run and the
# crashes found; a crash leaves its input in fuzz/artifacts/TARGET/ and makes
# the script exit 1. Usage: scripts/check/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail

seconds=${1:-60}
shift || true
# shellcheck source=scripts/lib/paths.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/paths.sh"
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(moves stdin_line book_decode book_load checkpoint)
fi

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz.sh: needs the nightly toolchain: rustup toolchain install nightly" >&2
    exit 2
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: needs cargo-fuzz: cargo install cargo-fuzz" >&2
    exit 2
fi

# Seeds made by c4: small books on 4x4 and 5x4.
# shellcheck source=scripts/lib/c4-binary.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/c4-binary.sh"
corpus="$repo/fuzz/corpus"
mkdir -p "$corpus"/{moves,stdin_line,book_decode,book_load,checkpoint}
printf '4453' >"$corpus/moves/a"
printf '' >"$corpus/moves/empty"
printf 'abcdefgh1' >"$corpus/moves/wide"
printf '4453 -2\r' >"$corpus/stdin_line/a"
printf '# board 7x6' >"$corpus/stdin_line/comment"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$c4" book generate --width 4 --height 4 --depth 4 --threads 1 --out "$tmp/4x4.c4book" 2>/dev/null
"$c4" book generate --width 5 --height 4 --depth 5 --threads 1 --out "$tmp/5x4.c4book" 2>/dev/null
for d in book_decode book_load; do
    cp "$tmp/4x4.c4book" "$tmp/5x4.c4book" "$corpus/$d/"
done
# The checkpoint target makes its own well-formed records (see its header).
printf '\0' >"$corpus/checkpoint/raw"
printf '\1' >"$corpus/checkpoint/header"
printf '\2\0\0\1\1\0\377' >"$corpus/checkpoint/records"

status=0
printf '%-12s %12s %8s %s\n' target inputs seconds crashes
for t in "${targets[@]}"; do
    log="$tmp/$t.log"
    if (cd "$repo/fuzz" && cargo +nightly fuzz run "$t" "corpus/$t" -- \
        -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1); then
        crashes=0
    else
        crashes=1
        status=1
    fi
    # libFuzzer's count of inputs run (also printed when it stops on a crash).
    runs=$(awk '/stat::number_of_executed_units:/ {n = $2} END {print n}' "$log")
    printf '%-12s %12s %8s %s\n' "$t" "${runs:-?}" "$seconds" "$crashes"
    if [[ $crashes -ne 0 ]]; then
        tail -n 30 "$log" >&2
    fi
done
exit $status
