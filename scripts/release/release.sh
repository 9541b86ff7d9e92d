#!/usr/bin/env bash
# Builds every artifact of a release into target/dist/, with SHA256SUMS, at
# the one version number of the workspace (the root Cargo.toml's
# [workspace.package] version):
#   c4-VERSION-TARGET.tar.gz   the c4 binary, README.md, LICENSE,
#                              CHANGELOG.md, completions/ (bash, zsh, fish,
#                              PowerShell) and man/ (c4.1, c4-solve.1, ...),
#                              for three targets: x86_64-unknown-linux-gnu
#                              (this machine's glibc), x86_64-unknown-linux-musl
#                              (static: any x86-64 Linux) and
#                              aarch64-unknown-linux-gnu (glibc 2.17 on)
#   c4_solver-VERSION-cp39-abi3-*.whl   the Python wheels (abi3): x86-64
#                              and aarch64 at manylinux2014 (glibc 2.17),
#                              x86-64 at musllinux_1_2 (Alpine)
#   c4-solver-VERSION.tgz      the npm package
#   c4-solver-VERSION.crate    the crate package
#
#   scripts/release/release.sh [PART...]     PART: binary binary-musl binary-aarch64
#                                    wheel wheel-aarch64 wheel-musl npm crate
#                                    (default: all)
#
# Needs: Rust, with the targets x86_64-unknown-linux-musl and
# aarch64-unknown-linux-gnu for those parts (rustup target add ...);
# maturin (on the PATH, or MATURIN=path) with PyPI's ziglang installed
# beside it (the same Python environment) for the wheels and the aarch64
# binary: every artifact but the host's binary and the static one is linked
# by zig through `maturin zig cc`, against glibc 2.17's symbol versions or
# musl; the wasm32-unknown-unknown target, wasm-bindgen-cli and npm for the
# npm package (scripts/release/build-npm.sh). The linker is given to the final crate
# alone (`cargo rustc -- -C linker=...`): the libraries it links are compiled
# as for any other build of that target, so the x86-64 and aarch64 wheels
# link on those of their target's binary (see C4_WHEEL_FEATURES; the musl
# wheel's are compiled apart, see wheel_musl). Settings, for CI:
#   C4_WHEEL_FEATURES=same-features-as-tests   build the wheels on the c4
#       library `cargo test --release` and the binaries compiled
#       (python/Cargo.toml says why)
#   C4_CRATE_NO_VERIFY=1   `cargo package --no-verify`: skip building the
#       packaged crate from scratch (minutes)
# A part's artifact replaces the one of the same kind already in target/dist/.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
target_dir="${CARGO_TARGET_DIR:-$repo/target}"
dist="$target_dir/dist"

all_parts=(binary binary-musl binary-aarch64 wheel wheel-aarch64 wheel-musl npm crate)
parts=("$@")
((${#parts[@]})) || parts=("${all_parts[@]}")
for part in "${parts[@]}"; do
    if [[ " ${all_parts[*]} " != *" $part "* ]]; then
        echo "release.sh: unknown part '$part' (${all_parts[*]})" >&2
        exit 2
    fi
done

version=$(cargo metadata --no-deps --format-version 1 --manifest-path "$repo/Cargo.toml" |
    python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "c4-solver"))')
host=$(rustc -vV | sed -n 's/^host: //p')
echo "release $version for $host into $dist"
mkdir -p "$dist"

step() { printf '\n--- %s\n' "$*"; }

maturin="${MATURIN:-maturin}"
features=()
if [[ -n "${C4_WHEEL_FEATURES:-}" ]]; then features=(--features "$C4_WHEEL_FEATURES"); fi

# Fails with the command to run when a Rust target is not installed.
need_target() {
    if [[ ! -d "$(rustc --print sysroot)/lib/rustlib/$1/lib" ]]; then
        echo "release.sh: the Rust target $1 is not installed: rustup target add $1" >&2
        exit 1
    fi
}

# Writes (when changed) and prints the path of a linker for zig's target $1
# (as `zig cc -target` names it: aarch64-linux-gnu.2.17, x86_64-linux-musl):
# `maturin zig cc`, which adapts rustc's linker arguments to zig, with the
# directory of maturin's Python first on the PATH, where maturin finds
# PyPI's ziglang. The path stays the same from build to build.
zig_cc() {
    local zig_target=$1 bin wrapper
    bin=$(dirname "$(command -v "$maturin")")
    if ! PATH="$bin:$PATH" python3 -m ziglang version >/dev/null 2>&1; then
        echo "release.sh: zig is missing: pip install ziglang into maturin's environment ($bin)" >&2
        exit 1
    fi
    wrapper="$target_dir/zig/cc-$zig_target"
    mkdir -p "$target_dir/zig"
    printf '#!/bin/sh\nPATH=%q:"$PATH" exec %q zig cc -- -fno-sanitize=all -target %s "$@"\n' \
        "$bin" "$bin/$(basename "$maturin")" "$zig_target" >"$wrapper.new"
    chmod +x "$wrapper.new"
    if cmp -s "$wrapper.new" "$wrapper"; then rm "$wrapper.new"; else mv "$wrapper.new" "$wrapper"; fi
    echo "$wrapper"
}

# A c4 that runs here, of these sources, to write the completions and man
# pages, which are the same for every target: $1 itself if it runs here,
# else the host's (built when missing or stale).
runnable_c4() {
    if "$1" --version >/dev/null 2>&1; then
        echo "$1"
    else
        cargo build --release --locked --bin c4 >&2
        echo "$target_dir/release/c4"
    fi
}

# Archives the binary $2 as c4-VERSION-$1.tar.gz with the documents, the
# completions and the man pages.
archive() {
    local target=$1 exe=$2 c4
    local name="c4-$version-$target"
    local stage="$target_dir/release-stage/$name"
    c4=$(runnable_c4 "$exe")
    rm -rf "$stage"
    mkdir -p "$stage/completions" "$stage/man"
    cp "$exe" README.md LICENSE CHANGELOG.md "$stage/"
    "$c4" completions bash >"$stage/completions/c4.bash"
    "$c4" completions zsh >"$stage/completions/_c4"
    "$c4" completions fish >"$stage/completions/c4.fish"
    "$c4" completions powershell >"$stage/completions/_c4.ps1"
    "$c4" man --out-dir "$stage/man"
    rm -f "$dist"/c4-*-"$target".tar.gz
    # Reproducible: fixed owner, order and times.
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='1970-01-01 00:00:00Z' \
        -C "$(dirname "$stage")" -cf - "$name" | gzip -9n >"$dist/$name.tar.gz"
}

binary() {
    step "the c4 binary, $host"
    cargo build --release --locked --bin c4
    archive "$host" "$target_dir/release/c4"
}

# Static: Rust's own copy of musl, linked by the system's cc. The binary
# loads no library at all, so it runs on any x86-64 Linux.
binary_musl() {
    local target=x86_64-unknown-linux-musl
    step "the c4 binary, $target (static)"
    need_target "$target"
    cargo build --release --locked --bin c4 --target "$target"
    archive "$target" "$target_dir/$target/release/c4"
}

# Linked by zig against glibc 2.17's symbol versions (the oldest glibc Rust
# supports): any aarch64 Linux with glibc.
binary_aarch64() {
    local target=aarch64-unknown-linux-gnu linker
    step "the c4 binary, $target (glibc 2.17 on)"
    need_target "$target"
    linker=$(zig_cc aarch64-linux-gnu.2.17)
    cargo rustc --release --locked --bin c4 --target "$target" -- -C linker="$linker"
    archive "$target" "$target_dir/$target/release/c4"
}

# One abi3 wheel: $1 the Rust target (empty: the host's), $2 the wheel's
# policy, which maturin's audit checks the module against (it fails if the
# module needs newer symbol versions or other libraries), $3 zig's target,
# then more rustc flags for the module. The linker is given to the module
# alone (maturin passes the flags after `--` to `cargo rustc`): the
# libraries it links are compiled as for any build of that target, so the
# wheel reuses those the binary of its target compiled (with
# C4_WHEEL_FEATURES=same-features-as-tests, whose features are the
# binary's: resolver 1), but for musl (wheel_musl).
wheel_for() {
    local target=$1 policy=$2 zig_target=$3
    shift 3
    local linker target_args=() env_args=()
    linker=$(zig_cc "$zig_target")
    if [[ -n "$target" ]]; then
        need_target "$target"
        target_args=(--target "$target")
        # Build scripts that compile C for the target (criterion's, with
        # C4_WHEEL_FEATURES) use zig too.
        env_args=("CC_${target//-/_}=$linker")
    fi
    (cd python && env "${env_args[@]}" "$maturin" build --release --locked "${features[@]}" \
        "${target_args[@]}" --compatibility "$policy" --out "$dist" -- -C linker="$linker" "$@")
}

wheel() {
    step "the Python wheel, x86-64 manylinux2014"
    if [[ "$host" != x86_64-unknown-linux-gnu ]]; then
        echo "release.sh: the x86-64 wheel builds on x86-64 Linux (glibc)" >&2
        exit 1
    fi
    rm -f "$dist"/c4_solver-*-manylinux*_x86_64.whl
    wheel_for "" manylinux2014 x86_64-linux-gnu.2.17
}

wheel_aarch64() {
    step "the Python wheel, aarch64 manylinux2014"
    rm -f "$dist"/c4_solver-*-manylinux*_aarch64.whl
    wheel_for aarch64-unknown-linux-gnu manylinux2014 aarch64-linux-gnu.2.17
}

# An extension module is loaded into the interpreter's process, so it links
# musl dynamically: maturin builds every crate of a musl wheel with -C
# target-feature=-crt-static, so their libraries are not the static
# binary's and compile again.
wheel_musl() {
    step "the Python wheel, x86-64 musllinux_1_2"
    rm -f "$dist"/c4_solver-*-musllinux*_x86_64.whl
    wheel_for x86_64-unknown-linux-musl musllinux_1_2 x86_64-linux-musl
}

npm_package() {
    step "the npm package"
    local out="$target_dir/npm"
    scripts/release/build-npm.sh "$out"
    rm -f "$dist"/c4-solver-*.tgz
    (cd "$out" && npm pack --silent --pack-destination "$dist" >/dev/null)
}

crate() {
    step "the crate package"
    local verify=()
    if [[ -n "${C4_CRATE_NO_VERIFY:-}" ]]; then verify=(--no-verify); fi
    cargo package --locked -p c4-solver "${verify[@]}"
    rm -f "$dist"/c4-solver-*.crate
    cp "$target_dir/package/c4-solver-$version.crate" "$dist/"
}

for part in "${parts[@]}"; do
    case "$part" in
    binary) binary ;;
    binary-musl) binary_musl ;;
    binary-aarch64) binary_aarch64 ;;
    wheel) wheel ;;
    wheel-aarch64) wheel_aarch64 ;;
    wheel-musl) wheel_musl ;;
    npm) npm_package ;;
    crate) crate ;;
    esac
done

step "SHA256SUMS"
(cd "$dist" && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%f\n' | sort |
    xargs sha256sum >SHA256SUMS)
cat "$dist/SHA256SUMS"
ls -l "$dist"
