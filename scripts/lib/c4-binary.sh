# Sourced by the benchmark scripts: sets `repo` and `sets` (see paths.sh)
# and `c4` (the binary they time): $C4_BIN if set, else c4 built here in
# release mode. Also defines `measured_by`, the line that names the machine
# under a report.
# shellcheck source=scripts/lib/paths.sh
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
if [[ -z "${C4_BIN:-}" ]]; then
    cargo build --release --quiet --manifest-path "$repo/Cargo.toml" --bin c4
fi
c4="${C4_BIN:-${CARGO_TARGET_DIR:-$repo/target}/release/c4}"

# private_c4 NAME: points `c4` at a private copy of the binary, removed on
# exit, so that rebuilding during a long run changes nothing. Sets the EXIT
# trap: call it before any trap of the caller's own.
private_c4() {
    local copy
    copy=$(mktemp "${TMPDIR:-/tmp}/c4-$1.XXXXXX")
    cp "$c4" "$copy"
    chmod +x "$copy"
    c4=$copy
    trap 'rm -f "$c4"' EXIT
}

# measured_by SCRIPT ROUNDS: "Measured by scripts/measure/SCRIPT (ROUNDS rounds) on
# CPU, N cores." and a blank line; the CPU is lscpu's model name.
measured_by() {
    local cpu
    cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
    echo "Measured by scripts/measure/$1 ($2 rounds) on ${cpu:-an unnamed CPU}, $(nproc) cores."
    echo
}
