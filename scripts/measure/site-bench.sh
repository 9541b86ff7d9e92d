#!/usr/bin/env bash
# Speed of the static site's solver (c4 in WebAssembly, in headless
# Chromium's Web Worker) against the native binary, on the same positions:
# one thread, no book, a 32 MiB table cleared before each position (`c4
# bench --no-book`'s way). Middle-Medium (first 100 lines of Test_L2_R2)
# and Begin-Hard (first 5 lines of Test_L1_R3); prints seconds, nodes and
# the ratio wasm/native per set. First, the time from opening the link
# `#4453` to the first scores shown (a fresh worker, the book in the wasm).
#   scripts/build-site.sh && scripts/measure/site-bench.sh [SITE_DIR]
# Needs chromium, chromedriver and python3 (its http.server serves the site
# on loopback). The browser is driven with Selenium, installed on first use
# into a virtual environment under target/ (SELENIUM below).
set -euo pipefail

# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh" site-bench.sh
site="${1:-$repo/target/site}"
[[ -f "$site/c4_wasm_bg.wasm" ]] || { echo "site-bench.sh: no site in $site (scripts/build-site.sh)" >&2; exit 2; }
chromium=$(command -v chromium || command -v chromium-browser) || { echo "site-bench.sh: needs chromium" >&2; exit 2; }
chromedriver=$(command -v chromedriver) || { echo "site-bench.sh: needs chromedriver" >&2; exit 2; }

SELENIUM=selenium==4.51.0
venv="${CARGO_TARGET_DIR:-$repo/target}/site-bench-venv"
if ! "$venv/bin/python" -c 'import selenium' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "$SELENIUM"
fi

http_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
scratch=$(mktemp -d)
python3 -m http.server --bind 127.0.0.1 --directory "$site" "$http_port" >/dev/null 2>&1 &
http_pid=$!
trap 'kill "$http_pid" 2>/dev/null; rm -rf "$scratch"' EXIT
for _ in $(seq 100); do
    curl -s "http://127.0.0.1:$http_port/" >/dev/null && break
    sleep 0.1
done

# The native runs, each set's lines and its `c4 bench --json` in scratch.
runs=("Middle-Medium Test_L2_R2 100" "Begin-Hard Test_L1_R3 5")
for run in "${runs[@]}"; do
    read -r _ file count <<<"$run"
    head -n "$count" "$sets/$file" >"$scratch/$file"
    "$c4" bench --no-book --threads 1 --tt-size 32M --json "$scratch/$file" >"$scratch/$file.native.json"
done

"$venv/bin/python" - "http://127.0.0.1:$http_port/" "$scratch" "$chromium" "$chromedriver" "${runs[@]}" <<'PY'
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

page, scratch, chromium, chromedriver, *runs = sys.argv[1:]
options = webdriver.ChromeOptions()
options.binary_location = chromium
for arg in ("--headless=new", "--no-sandbox", "--disable-gpu",
            "--disable-dev-shm-usage", f"--user-data-dir={scratch}/profile"):
    options.add_argument(arg)
driver = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
try:
    driver.set_script_timeout(3600)
    driver.set_page_load_timeout(60)

    # Time to the first scores: open the link, wait for the score texts.
    driver.get(page + "#4453")
    first = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (function poll() {
            if (document.querySelectorAll("#board text.score-text").length > 0) done(performance.now());
            else setTimeout(poll, 5);
        })();""")
    print(f"first scores of #4453 shown {first:.0f} ms after the link was opened")

    print(f"{'set':<14} {'lines':>5} {'wasm s':>9} {'wasm nodes':>14} {'native s':>9} {'native nodes':>14} {'ratio':>7}")
    for run in runs:
        name, file, count = run.split()
        with open(f"{scratch}/{file}") as f:
            lines = f.read()
        with open(f"{scratch}/{file}.native.json") as f:
            native = json.load(f)
        wasm = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            window.c4Bench(7, 6, arguments[0]).then(done, (e) => done({error: String(e)}));""", lines)
        if "error" in wasm:
            sys.exit(f"{name}: the page's bench failed: {wasm['error']}")
        bench = wasm["bench"]
        if bench.get("mismatches") or native["mismatches"]:
            sys.exit(f"{name}: wrong scores: {wasm} {native}")
        ws, ns = wasm["millis"] / 1000, native["wall_time_s"]
        print(f"{name:<14} {count:>5} {ws:9.3f} {bench['nodes']:14,} {ns:9.3f} {native['total_nodes']:14,} {ws / ns:6.2f}x")
finally:
    driver.quit()
PY
