# Sourced by the benchmark scripts: finds the repository and the standard
# test sets (../shared/testsets beside it, or $C4_TESTSETS), builds c4 in
# release mode, and sets `repo`, `sets` and `c4` (the binary). Exits with
# status 2 if the sets are missing. $1: the calling script's name, for the
# message.
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sets="${C4_TESTSETS:-$repo/../shared/testsets}"
if [[ ! -d "$sets" ]]; then
    echo "$1: no standard test sets in $sets (set C4_TESTSETS to their directory)" >&2
    exit 2
fi
cargo build --release --quiet --manifest-path "$repo/Cargo.toml" --bin c4
c4="${CARGO_TARGET_DIR:-$repo/target}/release/c4"
