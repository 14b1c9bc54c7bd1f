#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (instrumented, in Fuzz/.build) and fuzzes one of them for a
# while, starting from its seed corpus in Fuzz/Corpus/TARGET; new interesting inputs go to a scratch
# corpus, never into the repository. A crash leaves its input as Fuzz/crash-*: turn it into a seed
# (Fuzz/Corpus/TARGET/) so FuzzCorpusTests replays it in every test run.
#
# Usage: scripts/fuzz.sh TARGET [SECONDS]   TARGET: curl-head, retry-after, cache-control, location, recording
#        scripts/fuzz.sh all [SECONDS]      each target in turn
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"
target=${1:?usage: scripts/fuzz.sh TARGET [SECONDS]}
seconds=${2:-600}

mkdir -p .build
if ! swift build -c debug --sanitize=fuzzer --sanitize=address > .build/fuzz-build.log 2>&1; then
    grep -E "error" .build/fuzz-build.log | sort -u | head -20 >&2
    echo "the fuzzer did not build (log: Fuzz/.build/fuzz-build.log)" >&2
    exit 1
fi
binary=.build/debug/SwitchyardFuzz

run() {
    local name=$1
    local scratch=.build/corpus/$name
    mkdir -p "$scratch"
    echo "== $name: $seconds s" >&2
    FUZZ_TARGET=$name "$binary" "$scratch" "Corpus/$name" -max_total_time="$seconds" -max_len=8192 \
        -artifact_prefix="crash-$name-" -print_final_stats=1 2>&1 | grep -E "^#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss|ERROR|crash-|Fatal" || true
}

if [ "$target" = all ]; then
    for name in curl-head retry-after cache-control location recording; do run "$name"; done
else
    run "$target"
fi
ls crash-* >/dev/null 2>&1 && { echo "crashes found: $(ls crash-*)" >&2; exit 1; }
exit 0
