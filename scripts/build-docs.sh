#!/usr/bin/env bash
# Builds the DocC catalog of every public product and fails on any warning (a broken symbol link,
# an unresolved article reference, a documentation comment DocC cannot parse).
#   scripts/build-docs.sh [Target ...]     # default: every public product
# Output: .build/plugins/Swift-DocC/outputs/<Target>.doccarchive; the log of each target in
# .build/docs-logs/<Target>.log. Times each target and prints the total.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(SwitchyardCore Switchyard SwitchyardCurl SwitchyardURLSession SwitchyardAsyncHTTPClient SwitchyardAPI
             SwitchyardTransfers SwitchyardObservability SwitchyardTraffic SwitchyardCache SwitchyardCompression
             SwitchyardCookies SwitchyardCookieStorage SwitchyardStreams SwitchyardWebSocket SwitchyardAuth SwitchyardSigning
             SwitchyardExperiments SwitchyardQuota SwitchyardTesting SwitchyardConformance SwitchyardTestServer
             SwitchyardOpenAPI SwitchyardTracing SwitchyardServiceLifecycle)
fi

mkdir -p .build/docs-logs
failed=0
start=$(date +%s)
for target in "${targets[@]}"; do
    log=".build/docs-logs/$target.log"
    t0=$(date +%s)
    if ! swift package --disable-sandbox --enable-all-traits generate-documentation --target "$target" >"$log" 2>&1; then
        echo "FAIL $target: generate-documentation failed (see $log)"
        tail -20 "$log"
        failed=1
        continue
    fi
    # DocC's own diagnostics ("warning: …" with a file, or a bare "warning:"); compiler warnings of
    # dependencies built on the way are not ours to fix, so only lines naming this package count.
    warnings=$(grep -E "warning:" "$log" | grep -vE "/\.build/checkouts/|unhandled; explicitly declare" || true)
    if [ -n "$warnings" ]; then
        echo "FAIL $target: $(echo "$warnings" | wc -l) warning(s)"
        echo "$warnings"
        failed=1
    else
        echo "ok   $target ($(( $(date +%s) - t0 )) s)"
    fi
done
echo "docs: ${#targets[@]} target(s) in $(( $(date +%s) - start )) s"
exit $failed
