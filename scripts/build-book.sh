#!/usr/bin/env bash
# Builds the book compiled into c4 (books/7x6.c4book): every 7x6 position
# with at most DEPTH stones, searched from scratch by `c4 book generate`.
#
# Usage: scripts/build-book.sh [DEPTH]   (default 8, the depth the binary ships)
# Environment: C4_THREADS (default 0: every core), C4_TT (full table of each
#              thread, default 1G; only searches from positions of fewer
#              than 3 stones use it, so it matters for DEPTH 0-2 only),
#              C4_BOUNDS (a book whose parent scores bound the searches,
#              `c4 book generate --bounds-from`; default: the built-in book
#              when DEPTH is deeper than it, none otherwise, so that
#              rebuilding the shipped depth stays independent of the book
#              it replaces; set it empty for none).
#
# Resumable: the generator keeps its checkpoint in books/wip/ (the finished
# positions, 16 bytes each, synced as they come). Kill the script at any
# moment and run it again with the same DEPTH: it goes on where it stopped,
# losing only the positions that were in flight. The checkpoint can be
# committed, so a build that outlasts one machine's session goes on from
# another clone.
#
# When every position is solved the book is cross-checked (every score the
# best of its children's), written, re-verified on a random sample of its
# entries, and installed as books/7x6.c4book; then `cargo build --release`
# embeds it and `cargo test --release --test book` checks it.
set -euo pipefail

depth=${1:-8}
threads=${C4_THREADS:-0}
tt=${C4_TT:-1G}
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

cargo build --release --quiet --manifest-path "$repo/Cargo.toml" --bin c4
# A private copy, so that rebuilding during a long run changes nothing.
c4=$(mktemp "${TMPDIR:-/tmp}/c4-book.XXXXXX")
trap 'rm -f "$c4"' EXIT
cp "${CARGO_TARGET_DIR:-$repo/target}/release/c4" "$c4"
chmod +x "$c4"

builtin_depth=$("$c4" book info builtin | sed -n 's/^depth: //p')
if [[ -z ${C4_BOUNDS+set} ]]; then
    if ((depth > builtin_depth)); then C4_BOUNDS=builtin; else C4_BOUNDS=; fi
fi
bounds=()
if [[ -n $C4_BOUNDS ]]; then bounds=(--bounds-from "$C4_BOUNDS"); fi

mkdir -p "$repo/books/wip"
work="$repo/books/wip/7x6-d${depth}.c4book"
start=$SECONDS
# A finished run leaves the book in books/wip/ (and no checkpoint): then only
# the verification and installation below are left.
if [[ -f "$work" && ! -f "$work.partial" ]]; then
    echo "$work is already generated: verifying and installing it"
else
    "$c4" book generate --depth "$depth" --threads "$threads" --tt-size "$tt" "${bounds[@]}" --out "$work"
    echo "generated in $((SECONDS - start)) s of wall time (this run; earlier runs not counted)"
fi
"$c4" book verify --sample 100 --tt-size 1G "$work"
"$c4" book info "$work"
mv "$work" "$repo/books/7x6.c4book"
# mv keeps the old modification time, older than the last build: cargo would
# not notice the new book and would go on embedding the previous one.
touch "$repo/books/7x6.c4book"
echo "installed books/7x6.c4book; now: cargo build --release && cargo test --release --test book"
