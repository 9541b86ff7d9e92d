# Sourced by the scripts: sets `repo` (the repository) and `sets` (where the
# standard test sets are looked for: $C4_STANDARD_SETS, else ../shared/testsets
# beside the repository; whether they are there is the caller's to check).
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sets="${C4_STANDARD_SETS:-$repo/../shared/testsets}"
