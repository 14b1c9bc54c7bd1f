#!/usr/bin/env bash
# Puts yard's transports, bare and through the default chain, in the same run as the reference
# clients of ../shared/anchors (nginx on 127.0.0.1:18080, wrk, raw C libcurl multi, URLSession and
# AsyncHTTPClient used directly), and prints the anchors' table followed by the ratios the
# timing-harness targets are stated in.
#
#   Benchmarks/compare.sh                          # everything, 3 interleaved rounds
#   ONLY='^(curl|yardcurl)_' REPS=1 Benchmarks/compare.sh
#
# Knobs are the anchors' own (REPS, N_SMALL, N_1M, MAX_S, ONLY, WORKDIR). Loopback only, bounded.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ANCHORS="${ANCHORS:-$ROOT/../shared/anchors}"
"$ROOT/scripts/install-deps.sh"
swift build -c release --enable-all-traits --product yard --package-path "$ROOT" >&2
YARD="$(swift build -c release --package-path "$ROOT" --show-bin-path)/yard"

extra="$(mktemp -t yard-extra.XXXXXX)"
trap 'rm -f "$extra"' EXIT
# URLSession and AsyncHTTPClient run with --task-per-request, the loop of the anchors' Swift clients
# that use those libraries directly, so their ratios compare like with like; curl runs with yard's
# long-lived workers, the closest Swift shape to the single-threaded C client.
bench() { # name transport chain payload-path concurrency requests warmup
  local shape=""; [[ $2 != curl ]] && shape=" --task-per-request"
  echo "$1|$YARD bench --url \$BASE$4 --transport $2 --chain $3 --concurrency $5 --requests $6 --max-seconds \$MAX_S --warmup $7$shape --result-line" >> "$extra"
}
for transport in curl urlsession ahc; do
  for chain in bare default; do
    client="yard$transport"; [[ $chain == default ]] && client="yard${transport}default"
    for c in 1 16 64; do bench "${client}_small_c$c" "$transport" "$chain" /small "$c" "\$N_SMALL" "\$WARM_SMALL"; done
    bench "${client}_1m_c1" "$transport" "$chain" /1m 1 "\$N_1M" "\$WARM_1M"
  done
done

export N_SMALL="${N_SMALL:-50000}" N_1M="${N_1M:-2000}" MAX_S="${MAX_S:-10}" WARM_SMALL="${WARM_SMALL:-500}" WARM_1M="${WARM_1M:-20}"
export WORKDIR="${WORKDIR:-$(mktemp -d -t anchors.XXXXXX)}"
mkdir -p "$WORKDIR"
ONLY="${ONLY:-.}" EXTRA="$extra" "$ANCHORS/run-anchors.sh" | tee "$WORKDIR/table.txt"
python3 "$ROOT/Benchmarks/ratios.py" "$WORKDIR"
