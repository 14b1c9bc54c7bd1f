#!/usr/bin/env bash
# What each shared store of SwitchyardPostgres costs a request, against the same feature with its
# in-process store: `yard burst` (release build) against `yard serve` on loopback, CPU per request
# (user + system of the burst process) and mean time per request, rounds interleaved.
#
#   SKIP_BUILD=1 N=4000 ROUNDS=3 LEVELS="1 64" Benchmarks/shared-stores.sh
#
# Uses SWITCHYARD_POSTGRES_URL, or starts a throwaway server (scripts/test-postgres.sh) on port 54359.
set -euo pipefail
cd "$(dirname "$0")/.."
N="${N:-4000}"
ROUNDS="${ROUNDS:-3}"
LEVELS="${LEVELS:-1 64}"
PORT="${PORT:-18556}"
YARD=.build/release/yard
[[ -n "${SKIP_BUILD:-}" ]] || swift build -c release --enable-all-traits --product yard >&2
if [[ -z "${SWITCHYARD_POSTGRES_URL:-}" ]]; then
  eval "$(SWITCHYARD_POSTGRES_PORT=54359 scripts/test-postgres.sh start)"
  trap 'SWITCHYARD_POSTGRES_PORT=54359 scripts/test-postgres.sh stop; kill $SERVER 2>/dev/null || true' EXIT
else
  trap 'kill $SERVER 2>/dev/null || true' EXIT
fi
DB="$SWITCHYARD_POSTGRES_URL"
"$YARD" serve --port "$PORT" >/dev/null 2>&1 &
SERVER=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/small" && break; sleep 0.1; done

# name | URL path | flags (the shared variant adds --shared-state)
configs=(
  "none|/small|"
  "rate limit|/small|--rate-limit 1000000"
  "breaker|/small|--breaker-failures 5"
  "cache (hits)|/cache/bench?max_age=600|--cache"
)
run() {  # level, path, flags… → "cpu_us_per_request mean_us_per_request"
  local level="$1" path="$2"; shift 2
  local out
  out=$( { /usr/bin/time -f "%U %S %e" "$YARD" burst "http://127.0.0.1:$PORT$path" --count "$N" --concurrency "$level" "$@" --json >/dev/null; } 2>&1 | tail -1)
  awk -v n="$N" '{ printf "%.1f %.1f\n", ($1 + $2) * 1e6 / n, $3 * 1e6 / n }' <<<"$out"
}
echo "| store | c | in-process CPU µs/req | shared CPU µs/req | CPU ratio | in-process µs/req (wall) | shared µs/req (wall) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for level in $LEVELS; do
  for config in "${configs[@]}"; do
    IFS='|' read -r name path flags <<<"$config"
    local_cpu=(); shared_cpu=(); local_wall=(); shared_wall=()
    for _ in $(seq "$ROUNDS"); do
      # shellcheck disable=SC2086
      read -r cpu wall < <(run "$level" "$path" $flags)
      local_cpu+=("$cpu"); local_wall+=("$wall")
      if [[ -n "$flags" ]]; then
        # shellcheck disable=SC2086
        read -r cpu wall < <(run "$level" "$path" $flags --shared-state "$DB" --shared-state-timeout 30)
      fi
      shared_cpu+=("$cpu"); shared_wall+=("$wall")
    done
    median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
    lc=$(median "${local_cpu[@]}"); sc=$(median "${shared_cpu[@]}")
    lw=$(median "${local_wall[@]}"); sw=$(median "${shared_wall[@]}")
    ratio=$(awk -v a="$sc" -v b="$lc" 'BEGIN { printf "%.2f", a / b }')
    echo "| $name | $level | $lc | $sc | $ratio | $lw | $sw |"
  done
done
