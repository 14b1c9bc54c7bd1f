#!/usr/bin/env bash
# Puts yard's transports in the same run as the reference clients of ../shared/anchors
# (nginx on 127.0.0.1:18080, wrk, raw C libcurl multi, URLSession, AsyncHTTPClient) and prints
# the anchors' table, whose ratio columns compare every client measured in that one run.
#
#   Benchmarks/compare.sh                       # yard (curl) + C libcurl, 3 interleaved rounds
#   ONLY='curl|yard' REPS=1 Benchmarks/compare.sh
#
# Knobs are the anchors' own (REPS, N_SMALL, N_1M, MAX_S, ONLY, WORKDIR). Loopback only, bounded.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ANCHORS="${ANCHORS:-$ROOT/../shared/anchors}"
"$ROOT/scripts/install-deps.sh"
swift build -c release --product yard --package-path "$ROOT" >&2
YARD="$(swift build -c release --package-path "$ROOT" --show-bin-path)/yard"

extra="$(mktemp -t yard-extra.XXXXXX)"
trap 'rm -f "$extra"' EXIT
for c in 1 16 64; do
  echo "yardcurl_small_c$c|$YARD bench --url \$BASE/small --transport curl --concurrency $c --requests \$N_SMALL --max-seconds \$MAX_S --warmup \$WARM_SMALL --result-line" >> "$extra"
done
echo "yardcurl_1m_c1|$YARD bench --url \$BASE/1m --transport curl --concurrency 1 --requests \$N_1M --max-seconds \$MAX_S --warmup \$WARM_1M --result-line" >> "$extra"

export N_SMALL="${N_SMALL:-50000}" N_1M="${N_1M:-2000}" MAX_S="${MAX_S:-10}" WARM_SMALL="${WARM_SMALL:-500}" WARM_1M="${WARM_1M:-20}"
ONLY="${ONLY:-^(curl|yardcurl)_}" EXTRA="$extra" "$ANCHORS/run-anchors.sh"
