# Sourced by the scripts (through c4-binary.sh and common.sh): sets `repo` (the repository) and `sets` (where the
# standard test sets are looked for: $C4_STANDARD_SETS, else ../shared/testsets
# beside the repository; `require_sets` checks that they are there).
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
sets="${C4_STANDARD_SETS:-$repo/../shared/testsets}"

# require_sets NAME: exits with status 2, naming the script NAME, if the
# standard sets are not in `sets`.
require_sets() {
    if [[ ! -d "$sets" ]]; then
        echo "$1: no standard test sets in $sets (set C4_STANDARD_SETS to their directory)" >&2
        exit 2
    fi
}
