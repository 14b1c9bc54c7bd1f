#!/usr/bin/env bash
# Builds and runs the tests under ThreadSanitizer in a separate scratch path (.build-tsan), with the
# known false positives of scripts/tsan-suppressions.txt suppressed (see the comments there).
# Any other TSan report fails the run with exit 66, even if every test passed; otherwise the exit
# code is swift test's.
#
# Usage: scripts/test-tsan.sh [swift test options]   (default: --skip InBoundedMemory --skip YardTests)
#   e.g. scripts/test-tsan.sh --filter SwitchyardCurlTests
# Extra TSan options can be given in TSAN_OPTIONS; the log is kept in .build-tsan/tsan-test.log.
set -uo pipefail
cd "$(dirname "$0")/.."

scratch=.build-tsan
suppressions="$PWD/scripts/tsan-suppressions.txt"
log="$scratch/tsan-test.log"
if [ "$#" -eq 0 ]; then
    # The resident-memory tests measure RSS, which TSan's shadow memory makes meaningless. The yard
    # tests run yard in child processes, built with TSan too: their reports are not collected here and
    # TSan's exit code 66 replaces the status those tests check.
    set -- --skip InBoundedMemory --skip YardTests
fi

swift build --build-tests --sanitize=thread --scratch-path "$scratch" || exit $?

export TSAN_OPTIONS="suppressions=$suppressions halt_on_error=0 exitcode=66 print_suppressions=1 ${TSAN_OPTIONS:-}"
swift test --skip-build --sanitize=thread --scratch-path "$scratch" "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}

# TSan prints only reports that no suppression matched. swift test turns the test process's exit
# code 66 into a plain 1, so count the reports in the log to tell them from test failures.
reports=$(grep -c '^WARNING: ThreadSanitizer' "$log")
if [ "$reports" -gt 0 ]; then
    echo >&2
    echo "test-tsan: $reports unsuppressed ThreadSanitizer report(s) (full log: $log):" >&2
    grep '^SUMMARY: ThreadSanitizer' "$log" | sort | uniq -c >&2
    rc=66
fi
exit "$rc"
