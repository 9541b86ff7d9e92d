#!/usr/bin/env bash
# Speed of the static site's solver (c4 in WebAssembly, in headless
# Chromium's Web Worker) against the native binary, on the same positions:
# one thread, no book, a 32 MiB table cleared before each position (`c4
# bench --no-book`'s way). Middle-Medium (first 100 lines of Test_L2_R2)
# and Begin-Hard (first 5 lines of Test_L1_R3); prints seconds, nodes and
# the ratio wasm/native per set. Then the time from opening the link
# `#4453` to the first scores shown (a fresh worker, the book in the wasm).
#   scripts/build-site.sh && scripts/site-bench.sh [SITE_DIR]
# Needs chromium, chromedriver, python3 (its http.server serves the site on
# loopback) and curl; drives the browser over WebDriver.
set -euo pipefail

# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" site-bench.sh
site="${1:-$repo/target/site}"
[[ -f "$site/c4_wasm_bg.wasm" ]] || { echo "site-bench.sh: no site in $site (scripts/build-site.sh)" >&2; exit 2; }

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
http_port=$(free_port)
driver_port=$(free_port)
scratch=$(mktemp -d)
python3 -m http.server --bind 127.0.0.1 --directory "$site" "$http_port" >/dev/null 2>&1 &
http_pid=$!
chromedriver --port="$driver_port" >/dev/null 2>&1 &
driver_pid=$!
trap 'kill "$http_pid" "$driver_pid" 2>/dev/null; rm -rf "$scratch"' EXIT
for _ in $(seq 100); do
    curl -s "http://127.0.0.1:$driver_port/status" >/dev/null && curl -s "http://127.0.0.1:$http_port/" >/dev/null && break
    sleep 0.1
done

wd="http://127.0.0.1:$driver_port"
# post PATH JSON: the WebDriver answer's value.
post() { curl -s -X POST -H 'Content-Type: application/json' -d "$2" "$wd$1" | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["value"]))'; }
# The browser the driver opens is a resource of the WebDriver protocol,
# under the protocol's own path name for it; every later call goes there.
browsers=/session
browser=$(post "$browsers" "{\"capabilities\": {\"alwaysMatch\": {\"goog:chromeOptions\": {\"binary\": \"$(command -v chromium || command -v chromium-browser)\",
    \"args\": [\"--headless=new\", \"--no-sandbox\", \"--disable-gpu\", \"--disable-dev-shm-usage\", \"--user-data-dir=$scratch/profile\"]}}}}" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["sessionId"])')
# in_browser PATH JSON: a call to the open browser.
in_browser() { post "$browsers/$browser$1" "$2"; }
in_browser /timeouts '{"script": 3600000, "pageLoad": 60000}' >/dev/null
page="http://127.0.0.1:$http_port/"

# Time to the first scores: open the link, wait for the score texts.
in_browser /url "{\"url\": \"${page}#4453\"}" >/dev/null
first=$(in_browser /execute/async '{"script": "const done = arguments[0]; (function poll() { if (document.querySelectorAll(\"#board text.score-text\").length > 0) done(performance.now()); else setTimeout(poll, 5); })();", "args": []}')
printf 'first scores of #4453 shown %.0f ms after the link was opened\n' "$first"

printf '%-14s %5s %9s %14s %9s %14s %7s\n' set lines "wasm s" "wasm nodes" "native s" "native nodes" ratio
for run in "Middle-Medium Test_L2_R2 100" "Begin-Hard Test_L1_R3 5"; do
    read -r name file count <<<"$run"
    head -n "$count" "$sets/$file" >"$scratch/$file"
    native=$("$c4" bench --no-book --threads 1 --tt-size 32M --json "$scratch/$file")
    lines=$(python3 -c 'import json, sys; print(json.dumps(open(sys.argv[1]).read()))' "$scratch/$file")
    wasm=$(in_browser /execute/async "{\"script\": \"const done = arguments[1]; window.c4Bench(7, 6, arguments[0]).then(done, (e) => done({error: String(e)}));\", \"args\": [$lines]}")
    python3 - "$name" "$count" "$native" "$wasm" <<'PY'
import json, sys
name, count, native, wasm = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])
bench = wasm["bench"]
if bench.get("mismatches") or native["mismatches"]:
    sys.exit(f"{name}: wrong scores: {wasm} {native}")
ws, ns = wasm["millis"] / 1000, native["wall_time_s"]
print(f"{name:<14} {count:>5} {ws:9.3f} {bench['nodes']:14,} {ns:9.3f} {native['total_nodes']:14,} {ws / ns:6.2f}x")
PY
done
curl -s -X DELETE "$wd$browsers/$browser" >/dev/null
