#!/usr/bin/env bash
# Builds every artifact of a release into target/dist/, with SHA256SUMS, at
# the one version number of the workspace (the root Cargo.toml's
# [workspace.package] version):
#   c4-VERSION-TARGET.tar.gz   the c4 binary, README.md, LICENSE,
#                              CHANGELOG.md, completions/ (bash, zsh, fish,
#                              PowerShell) and man/ (c4.1, c4-solve.1, ...)
#   c4_solver-VERSION-*.whl    the Python wheel (abi3, manylinux)
#   c4-solver-VERSION.tgz      the npm package
#   c4-solver-VERSION.crate    the crate package
#
#   scripts/release.sh [PART...]     PART: binary wheel npm crate (default: all)
#
# Needs: Rust; maturin (on the PATH, or MATURIN=path) for the wheel; the
# wasm32-unknown-unknown target, wasm-bindgen-cli and npm for the npm
# package (scripts/build-npm.sh). Settings, for CI:
#   C4_WHEEL_FEATURES=same-features-as-tests   build the wheel on the c4
#       library `cargo test --release` compiled (python/Cargo.toml says why)
#   C4_CRATE_NO_VERIFY=1   `cargo package --no-verify`: skip building the
#       packaged crate from scratch (minutes)
# A part's artifact replaces the one of the same kind already in target/dist/.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
target_dir="${CARGO_TARGET_DIR:-$repo/target}"
dist="$target_dir/dist"

parts=("$@")
((${#parts[@]})) || parts=(binary wheel npm crate)
for part in "${parts[@]}"; do
    case "$part" in
    binary | wheel | npm | crate) ;;
    *)
        echo "release.sh: unknown part '$part' (binary, wheel, npm, crate)" >&2
        exit 2
        ;;
    esac
done

version=$(cargo metadata --no-deps --format-version 1 --manifest-path "$repo/Cargo.toml" |
    python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "c4-solver"))')
host=$(rustc -vV | sed -n 's/^host: //p')
echo "release $version for $host into $dist"
mkdir -p "$dist"

step() { printf '\n--- %s\n' "$*"; }

binary() {
    step "the c4 binary"
    cargo build --release --locked --bin c4
    local name="c4-$version-$host"
    local stage="$target_dir/release-stage/$name"
    rm -rf "$stage"
    mkdir -p "$stage/completions" "$stage/man"
    cp "$target_dir/release/c4" README.md LICENSE CHANGELOG.md "$stage/"
    "$stage/c4" completions bash >"$stage/completions/c4.bash"
    "$stage/c4" completions zsh >"$stage/completions/_c4"
    "$stage/c4" completions fish >"$stage/completions/c4.fish"
    "$stage/c4" completions powershell >"$stage/completions/_c4.ps1"
    "$stage/c4" man --out-dir "$stage/man"
    rm -f "$dist"/c4-*-"$host".tar.gz
    # Reproducible: fixed owner, order and times.
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='1970-01-01 00:00:00Z' \
        -C "$(dirname "$stage")" -cf - "$name" | gzip -9n >"$dist/$name.tar.gz"
}

wheel() {
    step "the Python wheel"
    local maturin="${MATURIN:-maturin}"
    local features=()
    if [[ -n "${C4_WHEEL_FEATURES:-}" ]]; then features=(--features "$C4_WHEEL_FEATURES"); fi
    rm -f "$dist"/c4_solver-*.whl
    (cd python && "$maturin" build --release --locked "${features[@]}" --out "$dist")
}

npm_package() {
    step "the npm package"
    local out="$target_dir/npm"
    scripts/build-npm.sh "$out"
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
    wheel) wheel ;;
    npm) npm_package ;;
    crate) crate ;;
    esac
done

step "SHA256SUMS"
(cd "$dist" && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%f\n' | sort |
    xargs sha256sum >SHA256SUMS)
cat "$dist/SHA256SUMS"
ls -l "$dist"
