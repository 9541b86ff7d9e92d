#!/usr/bin/env bash
# Builds the static site: the page of `c4 serve` (web/) answering from c4
# compiled to WebAssembly in a Web Worker, with the built-in 7x6 book inside
# the .wasm. Any static file host serves the folder as it is:
#   scripts/build-site.sh [OUT_DIR]       (default: target/site)
#   python3 -m http.server -d target/site 8000   # then http://127.0.0.1:8000/
# (a page opened from file:// cannot start a worker: serve it over HTTP).
#
# Needs the wasm32-unknown-unknown target (rustup target add
# wasm32-unknown-unknown) and wasm-bindgen-cli of the version Cargo.lock pins
# for wasm-bindgen (cargo install wasm-bindgen-cli --version V --locked), on
# the PATH or in $CARGO_INSTALL_ROOT/bin. The wasm is built in release
# (opt-level 3). Prints the files and the download's size, raw, gzip -9 and
# brotli (when installed), as a host would serve it compressed.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$repo/target/site}"
target_dir="${CARGO_TARGET_DIR:-$repo/target}"

# shellcheck source=scripts/lib/wasm-bindgen.sh
source "$repo/scripts/lib/wasm-bindgen.sh" build-site.sh

cargo build --release --quiet --manifest-path "$repo/Cargo.toml" -p c4-wasm \
    --target wasm32-unknown-unknown
mkdir -p "$out"
"$bindgen" --target no-modules --no-typescript --out-dir "$out" \
    "$target_dir/wasm32-unknown-unknown/release/c4_wasm.wasm"
cp "$repo/web/app.js" "$repo/web/worker.js" "$repo/web/style.css" "$repo/web/favicon.svg" "$out/"
# The flag that makes the page use the worker instead of `c4 serve`.
sed 's|^<html lang="en">$|<html lang="en" data-backend="worker">|' "$repo/web/index.html" >"$out/index.html"
grep -q 'data-backend="worker"' "$out/index.html"

wasm="$out/c4_wasm_bg.wasm"
size() { awk -v b="$1" 'BEGIN { printf "%.2f MB", b / 1000000 }'; }
echo "site in $out:"
ls -l "$out" | tail -n +2
echo "download (the .wasm with the 7x6 book): $(size "$(stat -c %s "$wasm")") raw," \
    "$(size "$(gzip -9 -c "$wasm" | wc -c)") gzip -9" \
    "$(command -v brotli >/dev/null && echo ", $(size "$(brotli -c -q 11 "$wasm" | wc -c)") brotli -q 11")"
