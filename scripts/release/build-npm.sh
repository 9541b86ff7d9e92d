#!/usr/bin/env bash
# Builds the npm package c4-solver (npm/) into OUT_DIR (default:
# target/npm), ready for `npm pack`: the wasm crate (wasm/, the static
# site's, with the built-in 7x6 book inside the .wasm) through
# wasm-bindgen's `web` target, one .wasm and its ES module glue that Node
# (index.mjs, and index.cjs through it) and the browser's worker
# (worker.mjs) share; npm/src/'s sources; and package.json at the
# workspace's version (the root Cargo.toml's [workspace.package]).
#   scripts/release/build-npm.sh [OUT_DIR]
#   (cd target/npm && npm pack)          # c4-solver-VERSION.tgz
# Needs what scripts/build-site.sh needs: the wasm32-unknown-unknown target
# and wasm-bindgen-cli of the version Cargo.lock pins.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-$repo/target/npm}"
target_dir="${CARGO_TARGET_DIR:-$repo/target}"

# shellcheck source=scripts/lib/wasm-bindgen.sh
source "$repo/scripts/lib/wasm-bindgen.sh" build-npm.sh
package_version=$(cargo metadata --no-deps --format-version 1 --manifest-path "$repo/Cargo.toml" |
    python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "c4-wasm"))')

cargo build --release --quiet --locked --manifest-path "$repo/Cargo.toml" -p c4-wasm \
    --target wasm32-unknown-unknown
rm -rf "$out"
mkdir -p "$out/wasm"
"$bindgen" --target web --no-typescript --out-dir "$out/wasm" \
    "$target_dir/wasm32-unknown-unknown/release/c4_wasm.wasm"
cp "$repo"/npm/src/*.mjs "$repo"/npm/src/*.cjs "$repo"/npm/src/*.d.ts "$repo/npm/README.md" "$repo/LICENSE" "$out/"
# The types of `require("c4-solver")`: the same declarations.
cp "$out/index.d.ts" "$out/index.d.cts"
# package.json at the workspace's version.
python3 - "$repo/npm/package.json" "$out/package.json" "$package_version" <<'PY'
import json
import sys

source, target, version = sys.argv[1:]
with open(source) as f:
    package = json.load(f)
package["version"] = version
with open(target, "w") as f:
    json.dump(package, f, indent=2)
    f.write("\n")
PY
echo "npm package c4-solver $package_version in $out:"
ls -l "$out" "$out/wasm" | grep -v '^total'
