#!/usr/bin/env bash
# Requests/s of every transport through the Switchyard client, at concurrency 1 and 64,
# against one embedded loopback server (`yard serve`), all in one run.
#
#   Benchmarks/transports.sh [path] [rounds]     e.g. Benchmarks/transports.sh /small 3
#
# Prints the anchors' RESULT lines and a median table. Release build; bounded loops only.
set -euo pipefail
cd "$(dirname "$0")/.."
path="${1:-/small}"
rounds="${2:-3}"

swift build -c release --enable-all-traits --product yard >/dev/null
yard="$(swift build -c release --show-bin-path)/yard"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$yard" serve --port "$port" --threads 2 >/dev/null &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -s "http://127.0.0.1:$port/small" >/dev/null 2>&1 && break; sleep 0.1; done

results=$(mktemp)
for round in $(seq "$rounds"); do
  for transport in curl urlsession ahc; do
    for c in 1 64; do
      line=$("$yard" bench --url "http://127.0.0.1:$port$path" --transport "$transport" --concurrency "$c" \
               --requests 20000 --max-seconds 5 --warmup 500 --result-line)
      echo "$line"
      echo "$transport $c $line" >> "$results"
    done
  done
done

python3 - "$results" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    transport, c, rest = line.split(" ", 2)
    m = re.search(r"rps=([0-9.]+)", rest)
    if m: rows.setdefault((transport, int(c)), []).append(float(m.group(1)))
print("\n| transport | c=1 req/s | c=64 req/s |\n|---|---:|---:|")
for transport in ["curl", "urlsession", "ahc"]:
    cells = [f"{statistics.median(rows[(transport, c)]):,.0f}" if (transport, c) in rows else "–" for c in (1, 64)]
    print(f"| {transport} | {cells[0]} | {cells[1]} |")
PY
rm -f "$results"
