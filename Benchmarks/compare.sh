#!/usr/bin/env bash
# Switchyard against the reference clients, in one interleaved run on loopback: raw C libcurl multi,
# AsyncHTTPClient and URLSession used directly, the least an async Swift client over libcurl does
# (curl-async-floor; all in Benchmarks/Reference), and `yard bench` for the curl
# transport bare and through the standard chain, and for the AsyncHTTPClient and URLSession
# transports bare. Prints medians (requests/s, CPU per request, p50/p99, context switches) and the
# target ratios, each with its spread over the rounds.
#
#   Benchmarks/compare.sh                                   # 40,000 requests × 5 rounds, c = 1, 16, 64
#   N=10000 ROUNDS=3 Benchmarks/compare.sh                  # quick
#   CLIENTS="C libcurl|curl bare|curl standard" LEVELS=64 Benchmarks/compare.sh
#   YARD_BEFORE=/path/to/older/yard Benchmarks/compare.sh   # an older build in the same run
#   CALLGRIND=1 CLIENTS="AsyncHTTPClient direct|ahc wrapped" LEVELS=16 Benchmarks/compare.sh
#                                                           # instructions per request, under valgrind
#
# Every client is a child process whose own rusage (user + system CPU, context switches) is read
# when it exits, warm-up included. CPU per request is the difference from a short run of the same
# client beside each cell (STARTUP_N requests), divided by the difference in requests, so a process's
# fixed cost (loading, argument parsing, making its client and threads) is not counted per request;
# the whole process's CPU divided by its requests is printed beside it. Cells run interleaved
# (round → concurrency → client); the figures are medians over rounds.
# Knobs: N (40000), N_URLSESSION (N/4), ROUNDS (5), WARM (500), MAX_S (30 per cell), LEVELS ("1 16 64"),
# STARTUP_N (200; 0 divides the whole process's CPU),
# CLIENTS (|-separated names), YARD (default: this package's release build), YARD_BEFORE, WORKDIR,
# SKIP_BUILD=1 (use existing release builds). Only 127.0.0.1:18080 is used; every cell is bounded.
#
# CALLGRIND=1 runs every client under valgrind's callgrind and compares instructions per request
# instead (same subtraction of the fixed cost): a count that repeats run after run on a busy machine,
# to tell a small change from noise; the profiles (callgrind_annotate) stay in WORKDIR/callgrind. Its
# defaults are N=3000 (URLSession too), ROUNDS=1, WARM=100, STARTUP_N=1000, MAX_S=600. The curl
# transport runs without its busy-poll window there (spinning is time, not work).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REFERENCE="$ROOT/Benchmarks/Reference"
if [[ "${CALLGRIND:-0}" == 1 ]]; then
  N="${N:-3000}"; N_URLSESSION="${N_URLSESSION:-$N}"; ROUNDS="${ROUNDS:-1}"; WARM="${WARM:-100}"
  STARTUP_N="${STARTUP_N:-1000}"; MAX_S="${MAX_S:-600}"
fi
N="${N:-40000}"; ROUNDS="${ROUNDS:-5}"; WARM="${WARM:-500}"; MAX_S="${MAX_S:-30}"; LEVELS="${LEVELS:-1 16 64}"
WORKDIR="${WORKDIR:-$(mktemp -d -t yard-compare.XXXXXX)}"
log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

"$ROOT/scripts/install-deps.sh"
need=()
command -v nginx >/dev/null || need+=(nginx)
command -v gcc >/dev/null || need+=(gcc)
[[ "${CALLGRIND:-0}" != 1 ]] || command -v valgrind >/dev/null || need+=(valgrind)
if ((${#need[@]})); then
  log "installing ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  [[ -n "${YARD:-}" ]] || swift build -c release --enable-all-traits --product yard --package-path "$ROOT" >&2
  swift build -c release --package-path "$REFERENCE" >&2
fi
YARD="${YARD:-$(swift build -c release --package-path "$ROOT" --show-bin-path)/yard}"
REFERENCE_BIN="$(swift build -c release --package-path "$REFERENCE" --show-bin-path)"

mkdir -p "$WORKDIR"/{www,logs,run,tmp,bin}
cd "$WORKDIR"
cp "$REFERENCE/nginx.conf" .
head -c 65536 /dev/zero > www/64k
head -c 1048576 /dev/zero > www/1m
gcc -O2 -Wall -o bin/curl_multi_load "$REFERENCE/curl_multi_load.c" -lcurl
callgrind=()
if [[ "${CALLGRIND:-0}" == 1 ]]; then
  # valgrind 3.19 stops on libdispatch's dispatch_main (an async main's end); preload a run-loop one.
  swift_lib="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib/swift/linux"
  gcc -O2 -Wall -shared -fPIC -o bin/dispatch-main-loop.so "$ROOT/Benchmarks/Instructions/dispatch-main-loop.c" \
    -L"$swift_lib" -ldispatch -Wl,-rpath,"$swift_lib"
  # valgrind 3.19 cannot read the DWARF 5 the Swift compiler writes: measure copies without it (the
  # symbol table stays, so profiles still name every function).
  for tool in curl-async-floor ahc-load urlsession-load; do
    objcopy --strip-debug "$REFERENCE_BIN/$tool" "bin/$tool"
  done
  REFERENCE_BIN="$WORKDIR/bin"
  objcopy --strip-debug "$YARD" bin/yard && YARD="$WORKDIR/bin/yard"
  if [[ -n "${YARD_BEFORE:-}" ]]; then objcopy --strip-debug "$YARD_BEFORE" bin/yard-before && YARD_BEFORE="$WORKDIR/bin/yard-before"; fi
  mkdir -p callgrind
  callgrind=(--callgrind "$WORKDIR/callgrind" --preload "$WORKDIR/bin/dispatch-main-loop.so")
fi

if (exec 3<>/dev/tcp/127.0.0.1/18080) 2>/dev/null; then
  echo "something already listens on 127.0.0.1:18080; refusing to start" >&2; exit 1
fi
nginx -p "$WORKDIR/" -c nginx.conf -e logs/error.log > logs/nginx.stdout 2>&1 &
NGINX_PID=$!
stop_nginx() {
  if kill -0 "$NGINX_PID" 2>/dev/null; then
    kill -QUIT "$NGINX_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$NGINX_PID" 2>/dev/null || break; sleep 0.1; done
    kill -TERM "$NGINX_PID" 2>/dev/null || true
    wait "$NGINX_PID" 2>/dev/null || true
  fi
}
trap stop_nginx EXIT
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:18080/small" && break; sleep 0.1; done
[[ "$(curl -s http://127.0.0.1:18080/small)" == "hello, world" ]] || { echo "nginx did not come up" >&2; exit 1; }

clients=()
if [[ -n "${CLIENTS:-}" ]]; then IFS='|' read -r -a names <<< "$CLIENTS"; clients=(--clients "${names[@]}"); fi
log "load: $(cut -d' ' -f1-3 /proc/loadavg); workdir $WORKDIR"
python3 "$ROOT/Benchmarks/compare.py" --c-client "$WORKDIR/bin/curl_multi_load" \
  --floor-client "$REFERENCE_BIN/curl-async-floor" \
  --ahc-client "$REFERENCE_BIN/ahc-load" --urlsession-client "$REFERENCE_BIN/urlsession-load" --yard "$YARD" \
  ${YARD_BEFORE:+--yard-before "$YARD_BEFORE"} ${N_URLSESSION:+--urlsession-requests "$N_URLSESSION"} "${clients[@]}" \
  ${STARTUP_N:+--startup-requests "$STARTUP_N"} \
  --requests "$N" --rounds "$ROUNDS" --warmup "$WARM" --max-seconds "$MAX_S" --levels $LEVELS \
  "${callgrind[@]}" --raw "$WORKDIR/raw.jsonl" | tee "$WORKDIR/summary.md"
log "load after: $(cut -d' ' -f1-3 /proc/loadavg); results in $WORKDIR"
