#!/usr/bin/env bash
# Streams in one interleaved run on loopback: server-sent events per second through SwitchyardStreams
# (`yard bench events`, for the curl, URLSession and AsyncHTTPClient transports) beside AsyncHTTPClient
# used directly (ahc-sse-load: the body streamed, events counted by blank lines), and small WebSocket
# messages per second round trip through SwitchyardWebSocket (`yard bench ws`) beside NIOWebSocket
# used directly (nio-ws-load, from a task through NIOAsyncChannel and as a handler on the event loop),
# all against one `yard serve` process (/events/{key}; /ws/echo?deflate=off, plain frames for every
# client). Prints medians over rounds of events/s or messages/s and CPU µs per event or message, and
# the ratios Switchyard ÷ raw. Events/s runs from the first event to the last (the server builds the
# whole stream before its first byte); messages/s over the measured round trips after the warm-up.
#
#   Benchmarks/streams.sh                              # defaults below
#   EVENTS=200000 MESSAGES=5000 ROUNDS=3 Benchmarks/streams.sh  # quick
#
# Every client is a child process whose own rusage (user + system CPU) is read when it exits and
# divided by the events or messages it handled (WebSocket warm-up included); each also reports the
# CPU of its measured stretch alone. Cells run interleaved (round → stream kind → client, the first
# client rotating); the figures are medians over rounds.
# Knobs: EVENTS (2000000 per SSE cell), MESSAGES (40000 per WebSocket cell), SIZE (16 bytes),
# WINDOWS ("1 16": messages in flight at most), WARM (1000 WebSocket warm-up round trips),
# TRANSPORTS ("curl urlsession ahc"), ROUNDS (5), MAX_S (60: a cell still running is killed),
# PORT (18090), SCRATCH (yard's build folder, default .build), YARD (a yard executable instead),
# SKIP_BUILD=1 (use existing release builds), WORKDIR. Only 127.0.0.1:PORT is used.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REFERENCE="$ROOT/Benchmarks/Reference"
EVENTS="${EVENTS:-2000000}"; MESSAGES="${MESSAGES:-40000}"; SIZE="${SIZE:-16}"; WINDOWS="${WINDOWS:-1 16}"
WARM="${WARM:-1000}"; TRANSPORTS="${TRANSPORTS:-curl urlsession ahc}"; ROUNDS="${ROUNDS:-5}"; MAX_S="${MAX_S:-60}"
PORT="${PORT:-18090}"; SCRATCH="${SCRATCH:-$ROOT/.build}"
WORKDIR="${WORKDIR:-$(mktemp -d -t yard-streams.XXXXXX)}"
log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  [[ -n "${YARD:-}" ]] || swift build -c release --enable-all-traits --product yard --package-path "$ROOT" --scratch-path "$SCRATCH" >&2
  swift build -c release --package-path "$REFERENCE" >&2
fi
YARD="${YARD:-$(swift build -c release --package-path "$ROOT" --scratch-path "$SCRATCH" --show-bin-path)/yard}"
REFERENCE_BIN="$(swift build -c release --package-path "$REFERENCE" --show-bin-path)"

mkdir -p "$WORKDIR"
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  echo "something already listens on 127.0.0.1:$PORT; refusing to start" >&2; exit 1
fi
"$YARD" serve --port "$PORT" > "$WORKDIR/serve.log" 2>&1 &
SERVER_PID=$!
stop_server() { kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; }
trap stop_server EXIT
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/small" && break; sleep 0.1; done
curl -sf -o /dev/null "http://127.0.0.1:$PORT/events/probe?total=1" || { echo "yard serve did not come up" >&2; exit 1; }

log "load: $(cut -d' ' -f1-3 /proc/loadavg); workdir $WORKDIR"
python3 "$ROOT/Benchmarks/streams.py" --base "http://127.0.0.1:$PORT" --yard "$YARD" \
  --sse-client "$REFERENCE_BIN/ahc-sse-load" --ws-client "$REFERENCE_BIN/nio-ws-load" \
  --events "$EVENTS" --messages "$MESSAGES" --size "$SIZE" --windows $WINDOWS --warmup "$WARM" \
  --transports $TRANSPORTS --rounds "$ROUNDS" --max-seconds "$MAX_S" \
  --raw "$WORKDIR/raw.jsonl" | tee "$WORKDIR/summary.md"
log "load after: $(cut -d' ' -f1-3 /proc/loadavg); results in $WORKDIR (python3 Benchmarks/streams.py --replay $WORKDIR/raw.jsonl)"
