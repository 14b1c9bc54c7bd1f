#!/usr/bin/env bash
# CPU per request, throughput, latency and context switches of raw C libcurl and of yard's curl
# transport (bare and through the default chain), in one interleaved run against the anchors' nginx.
#
#   Benchmarks/cpu-compare.sh                              # full run: 40,000 requests × 5 rounds
#   N=10000 ROUNDS=3 Benchmarks/cpu-compare.sh             # quick run
#   YARD_BEFORE=/path/to/old/yard Benchmarks/cpu-compare.sh  # adds an older build to the same run
#
# Every client is a child process whose own rusage (user + system CPU, voluntary and involuntary
# context switches) is read with os.wait4 when it exits, warm-up and start-up included, and divided
# by the requests it made. Cells run interleaved (round → concurrency → client), medians over rounds.
# Knobs: N (requests per cell, 40000), ROUNDS (5), WARM (500), MAX_S (bound per cell, 30),
# LEVELS ("1 16 64"), YARD (default: this package's release build), YARD_BEFORE (optional),
# WORKDIR (default: a fresh temporary directory), SKIP_BUILD=1.
# Only 127.0.0.1:18080 is targeted; every cell is bounded by count, MAX_S and `timeout`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ANCHORS="${ANCHORS:-$ROOT/../shared/anchors}"
[[ -f "$ANCHORS/curl_multi_bench.c" ]] || ANCHORS="/work/shared/anchors"
N="${N:-40000}"; ROUNDS="${ROUNDS:-5}"; WARM="${WARM:-500}"; MAX_S="${MAX_S:-30}"; LEVELS="${LEVELS:-1 16 64}"
WORKDIR="${WORKDIR:-$(mktemp -d -t yard-cpu-compare.XXXXXX)}"
log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

"$ROOT/scripts/install-deps.sh"
need=()
command -v nginx >/dev/null || need+=(nginx)
command -v gcc >/dev/null || need+=(gcc)
if ((${#need[@]})); then
  log "installing ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi

if [[ -z "${YARD:-}" ]]; then
  [[ "${SKIP_BUILD:-0}" == 1 ]] || swift build -c release --enable-all-traits --product yard --package-path "$ROOT" >&2
  YARD="$(swift build -c release --package-path "$ROOT" --show-bin-path)/yard"
fi

mkdir -p "$WORKDIR"/{www,logs,run,tmp,bin}
cd "$WORKDIR"
cp "$ANCHORS/nginx.conf" .
gcc -O2 -Wall -o bin/curl_multi_bench "$ANCHORS/curl_multi_bench.c" -lcurl

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

log "load: $(cut -d' ' -f1-3 /proc/loadavg); workdir $WORKDIR"
python3 "$ROOT/Benchmarks/cpu_compare.py" --c-client "$WORKDIR/bin/curl_multi_bench" --yard "$YARD" \
  ${YARD_BEFORE:+--yard-before "$YARD_BEFORE"} --requests "$N" --rounds "$ROUNDS" --warmup "$WARM" \
  --max-seconds "$MAX_S" --levels $LEVELS --raw "$WORKDIR/raw.jsonl" | tee "$WORKDIR/summary.md"
log "load after: $(cut -d' ' -f1-3 /proc/loadavg); results in $WORKDIR"
