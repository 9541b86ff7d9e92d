#!/usr/bin/env bash
# Loads a local `c4 serve` on loopback: REQUESTS analyze requests (default
# 500) from CLIENTS concurrent clients (default 50), positions taken in turn
# from the repository's Middle-Easy and Middle-Medium sets. Only 127.0.0.1
# is ever targeted: the script starts its own server there.
#
# Each client honours the documented 503: it waits the Retry-After seconds
# and asks again, so every request ends with an answer. Prints the answers
# by status, the 503s met on the way, the latency of the answered attempt
# and of the request from its first attempt (p50, p99, max), whether any
# request was lost, and the server's peak resident memory (VmHWM).
#
# --slow N opens N slow clients before the load and holds them while it
# runs: half open a connection and send nothing, half send half a request
# header and nothing more. Prints how many of them the server closed, how
# long after their opening (p50, max), and how many it still held at the
# end. --nofile L starts the server under an open-file limit of L
# (ulimit -n), the clients keeping theirs.
#
# Usage: scripts/measure/load.sh [--slow N] [--nofile L] [REQUESTS] [CLIENTS] [c4 serve options...]
#   e.g. scripts/measure/load.sh 500 50 --workers 2 --queue 16
#        scripts/measure/load.sh --slow 2000 --nofile 256 500 50
set -euo pipefail

slow=0
nofile=
while [[ $# -gt 0 ]]; do
    case $1 in
        --slow) slow=$2; shift 2 ;;
        --nofile) nofile=$2; shift 2 ;;
        *) break ;;
    esac
done
requests=${1:-500}
clients=${2:-50}
shift 2 || shift $#
for tool in curl xargs awk; do
    command -v "$tool" >/dev/null || { echo "load.sh: needs $tool" >&2; exit 2; }
done
if [[ $slow -gt 0 ]]; then
    command -v python3 >/dev/null || { echo "load.sh: --slow needs python3" >&2; exit 2; }
fi
# shellcheck source=scripts/lib/c4-binary.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/c4-binary.sh"

tmp=$(mktemp -d)
if [[ -n $nofile ]]; then
    sh -c 'ulimit -n "$1" && shift && exec "$@"' _ "$nofile" \
        "$c4" serve --listen 127.0.0.1 --port 0 "$@" >"$tmp/url" 2>"$tmp/server.err" &
else
    "$c4" serve --listen 127.0.0.1 --port 0 "$@" >"$tmp/url" 2>"$tmp/server.err" &
fi
server=$!
slow_pid=
trap 'kill "$server" ${slow_pid:+"$slow_pid"} 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do
    grep -q '^http://127\.0\.0\.1:[0-9]*/' "$tmp/url" 2>/dev/null && break
    sleep 0.05
done
base=$(grep -o '^http://127\.0\.0\.1:[0-9]*' "$tmp/url" | head -n 1)
[[ -n $base ]] || { echo "load.sh: the server did not start" >&2; cat "$tmp/server.err" >&2; exit 1; }

# The slow clients: N connections opened before the load, half silent, half
# with half a header; each one's closing by the server is timed from its
# opening. On SIGTERM (the load done) they report and exit.
if [[ $slow -gt 0 ]]; then
    port=${base##*:}
    python3 - "$slow" "$port" "$tmp/slow.ready" >"$tmp/slow.out" <<'PY' &
import selectors, signal, socket, sys, time

count, port, ready = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
selector = selectors.DefaultSelector()
opened, closed, failed, stop = {}, [], 0, False


def on_term(*_):
    global stop
    stop = True


def drain(timeout):
    for key, _ in selector.select(timeout):
        sock = key.fileobj
        try:
            data = sock.recv(4096)
        except (ConnectionResetError, BlockingIOError):
            data = b""
        if not data:
            closed.append(time.monotonic() - opened.pop(sock))
            selector.unregister(sock)
            sock.close()


signal.signal(signal.SIGTERM, on_term)
for i in range(count):
    sock = socket.socket()
    sock.settimeout(2)
    try:
        sock.connect(("127.0.0.1", port))
        if i % 2:
            sock.send(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    except OSError:
        failed += 1
        sock.close()
        continue
    sock.setblocking(False)
    opened[sock] = time.monotonic()
    selector.register(sock, selectors.EVENT_READ)
    if i % 64 == 0:
        drain(0)
open(ready, "w").close()
while not stop:
    drain(0.1)
closed.sort()
pct = lambda q: closed[min(len(closed) - 1, int(q * (len(closed) - 1) + 0.5))] if closed else 0
print(f"slow clients: {count - failed} opened ({failed} failed to connect), "
      f"{len(closed)} closed by the server (after p50 {pct(0.5):.2f} s, max {pct(1.0):.2f} s "
      f"of their opening), {len(opened)} still open at the end of the load")
PY
    slow_pid=$!
    for _ in $(seq 600); do
        [[ -e $tmp/slow.ready ]] && break
        sleep 0.1
    done
fi

# The request list: moves of the two middle sets, in turn, REQUESTS of them.
grep -hv '^#' "$repo/testsets/middle-easy.txt" "$repo/testsets/middle-medium.txt" |
    awk '{print $1}' | awk -v n="$requests" '{a[NR]=$0} END {for (i = 0; i < n; i++) print a[i % NR + 1]}' \
    >"$tmp/moves"

# One request: prints `status micros_of_answer micros_from_first_attempt 503s`.
one() {
    local url=$1 first start end code headers wait n503=0
    first=$(date +%s%N)
    while :; do
        start=$(date +%s%N)
        headers=$(curl -s -o /dev/null -D - -w 'STATUS %{http_code}\n' "$url") || headers="STATUS 000"
        end=$(date +%s%N)
        code=$(awk '/^STATUS/ {print $2}' <<<"$headers")
        if [[ $code == 503 ]]; then
            n503=$((n503 + 1))
            wait=$(awk 'tolower($1) == "retry-after:" {print $2 + 0}' <<<"$headers" | tr -d '\r')
            sleep "${wait:-1}"
            continue
        fi
        break
    done
    echo "$code $(((end - start) / 1000)) $(((end - first) / 1000)) $n503"
}
export -f one

start=$(date +%s%N)
sed "s|^|$base/api/analyze?moves=|" "$tmp/moves" |
    xargs -P "$clients" -n 1 bash -c 'one "$1"' _ >"$tmp/results"
end=$(date +%s%N)
hwm=$(awk '/^VmHWM/ {print $2, $3}' "/proc/$server/status")
status=$(curl -s "$base/api/status" || true)
if [[ -n $slow_pid ]]; then
    kill -TERM "$slow_pid"
    wait "$slow_pid" || true
    slow_pid=
fi

# pct COLUMN: p50, p99 and max of a column of the results, in ms.
pct() {
    cut -d' ' -f"$1" "$tmp/results" | sort -n | awk '
        { v[NR] = $1 }
        END {
            p50 = v[int((NR - 1) * 0.50 + 0.5) + 1]; p99 = v[int((NR - 1) * 0.99 + 0.5) + 1]
            printf "p50 %.1f  p99 %.1f  max %.1f\n", p50 / 1000, p99 / 1000, v[NR] / 1000
        }'
}
echo "requests $requests from $clients clients in $(awk -v n="$(((end - start) / 1000000))" 'BEGIN {printf "%.2f", n / 1000}') s"
cut -d' ' -f1 "$tmp/results" | sort | uniq -c | awk '{printf "  status %s: %d\n", $2, $1}'
echo "  503 met and retried after Retry-After: $(awk '{n += $4} END {print n + 0}' "$tmp/results")"
echo "  lost (no result): $((requests - $(wc -l <"$tmp/results")))"
echo "latency of the answered attempt (ms): $(pct 2)"
echo "latency from the first attempt (ms):  $(pct 3)"
echo "server peak memory (VmHWM): $hwm"
[[ -n $nofile ]] && echo "server open-file limit (ulimit -n): $nofile"
[[ -s $tmp/slow.out ]] && cat "$tmp/slow.out"
echo "server connections: $(tr -d '{}"' <<<"$status" | tr ',' '\n' | grep '^connections\|^max_conn' | tr '\n' ' ')"
bad=$(awk '$1 != 200' "$tmp/results" | wc -l)
lines=$(wc -l <"$tmp/results")
[[ $bad -eq 0 && $lines -eq $requests ]]
