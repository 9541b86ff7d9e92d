#!/usr/bin/env bash
# Builds the book compiled into c4 (books/7x6.c4book): every position with at
# most DEPTH stones, searched from scratch by `c4 book generate`, and installs
# it only if it passes `c4 book verify` and is at least as deep as the book it
# replaces. A refused book leaves the installed one untouched (exit 1).
#
# Usage: scripts/build-book.sh [DEPTH]
#   DEPTH defaults to $C4_BOOK_DEPTH, else to the depth of the installed book
#   (read with `c4 book info`): a plain run rebuilds the book that ships.
# Environment:
#   C4_BOOK_TARGET  the book to replace (default books/WxH.c4book)
#   C4_WIDTH, C4_HEIGHT  the board (default 7 and 6)
#   C4_THREADS      worker threads (default 0: every core)
#   C4_TT           table of each thread, for generation and verification
#                   (default 1G; only searches from positions of fewer than
#                   3 stones use it, so it matters for DEPTH 0-2 only)
#   C4_BOUNDS       a book whose parent scores bound the searches (`c4 book
#                   generate --bounds-from`); default: the installed book when
#                   DEPTH is deeper than it, none otherwise, so that a rebuild
#                   of the shipped depth stays independent of the book it
#                   replaces; set it empty for none
#   C4_VERIFY_SAMPLE  entries `c4 book verify` re-solves (default 100; `all`)
#   C4_BIN          a c4 binary to use instead of building one
#
# Resumable: the generator keeps its checkpoint in wip/ beside the target
# (the finished positions, 16 bytes each). Kill the script at any moment, or
# press Ctrl-C, and run it again with the same DEPTH: it goes on where it
# stopped. The checkpoint can be committed, so a build that outlasts one
# machine goes on from another clone. When every position is solved the book
# is cross-checked (every score the best of its children's), written to wip/,
# verified, compared with the installed book's depth, and only then renamed
# over it; then `cargo build --release` embeds it and `cargo test --release
# --test book` checks it.
set -euo pipefail

say() { echo "build-book: $*" >&2; }
refuse() {
    say "refused: $*; $target is unchanged"
    exit 1
}

# shellcheck source=scripts/lib/c4-binary.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/c4-binary.sh"
private_c4 book
width=${C4_WIDTH:-7}
height=${C4_HEIGHT:-6}
board=(--width "$width" --height "$height")
target=${C4_BOOK_TARGET:-$repo/books/${width}x${height}.c4book}
threads=${C4_THREADS:-0}
tt=${C4_TT:-1G}
sample=${C4_VERIFY_SAMPLE:-100}

# The depth a book file's header states (empty if it is no readable book).
book_depth() {
    { "$c4" book info "${board[@]}" "$1" 2>/dev/null || true; } | sed -n 's/^depth: //p'
}

installed=
if [[ -e $target ]]; then
    installed=$(book_depth "$target")
    [[ -n $installed ]] || refuse "$target exists but is no readable book"
fi
depth=${1:-${C4_BOOK_DEPTH:-$installed}}
[[ -n $depth ]] || { say "no DEPTH given and no book at $target to take it from"; exit 2; }
[[ $depth =~ ^[0-9]+$ ]] || { say "DEPTH '$depth' is not a number"; exit 2; }
if [[ -n $installed ]] && ((depth < installed)); then
    refuse "depth $depth is shallower than the installed book's ($installed)"
fi

if [[ -z ${C4_BOUNDS+set} ]]; then
    if [[ -n $installed ]] && ((depth > installed)); then C4_BOUNDS=$target; else C4_BOUNDS=; fi
fi
bounds=()
if [[ -n $C4_BOUNDS ]]; then bounds=(--bounds-from "$C4_BOUNDS"); fi
samples=(--sample "$sample")
if [[ $sample == all ]]; then samples=(); fi

wip="$(dirname "$target")/wip"
mkdir -p "$wip"
work="$wip/${width}x${height}-d${depth}.c4book"
start=$SECONDS
# A finished run leaves the book in wip/ (and no checkpoint): then only the
# checks and the installation below are left.
if [[ -f "$work" && ! -f "$work.partial" ]]; then
    say "$work is already generated: checking and installing it"
else
    "$c4" book generate "${board[@]}" --depth "$depth" --threads "$threads" --tt-size "$tt" \
        "${bounds[@]}" --out "$work"
    say "generated in $((SECONDS - start)) s of wall time (this run; earlier runs not counted)"
fi
"$c4" book verify "${board[@]}" "${samples[@]}" --tt-size "$tt" "$work" ||
    refuse "$work fails c4 book verify"
built=$(book_depth "$work")
[[ -n $built ]] || refuse "$work is no readable book"
((built == depth)) || refuse "$work has depth $built, not $depth"
if [[ -n $installed ]] && ((built < installed)); then
    refuse "$work (depth $built) is shallower than the installed book (depth $installed)"
fi
"$c4" book info "${board[@]}" "$work"
# The same file system: the rename is atomic, the old book or the new one.
mv "$work" "$target"
# mv keeps the old modification time, older than the last build: cargo would
# not notice the new book and would go on embedding the previous one.
touch "$target"
say "installed $target (depth $built); now: cargo build --release && cargo test --release --test book"
