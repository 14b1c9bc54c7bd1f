#!/usr/bin/env bash
# Builds and runs the test suite under a sanitizer, in a scratch path of its own (.build-tsan or
# .build-asan), so the regular build is left alone.
#
#   thread:  ThreadSanitizer, with the known false positives of scripts/tsan-suppressions.txt
#            suppressed (see the comments there). Any other report fails the run with exit 66, even
#            if every test passed (swift test turns the process's 66 into 1, so the log is counted).
#   address: AddressSanitizer (heap/stack overflows, use after free, double free). A report aborts
#            the test process, which fails the run. Leak detection is off: the process-wide caches
#            of Foundation and the Swift runtime are reported as leaks at exit; leaks of our own are
#            measured by the memory tests and the soak instead.
#
# Usage: scripts/test-sanitizer.sh thread|address [swift test options]
#   default options: --skip InBoundedMemory (resident memory is meaningless under shadow memory);
#   thread also skips YardTests: yard runs in child processes built with TSan, whose reports are
#   not collected here and whose exit code 66 replaces the status those tests check. Both run the
#   tests one at a time (--no-parallel): a sanitizer makes code 2-15 times slower, and two CPU-bound
#   tests on the two threads of a 2-core machine's task pool starved every other test past its
#   time limit.
#   e.g. scripts/test-sanitizer.sh address --filter SwitchyardCurlTests
# Extra options can be given in TSAN_OPTIONS / ASAN_OPTIONS; the log is kept in the scratch path.
set -uo pipefail
cd "$(dirname "$0")/.."

sanitizer=${1:-}
shift || true
case "$sanitizer" in
    thread)
        scratch=.build-tsan
        default_options=(--skip InBoundedMemory --skip YardTests --no-parallel)
        export TSAN_OPTIONS="suppressions=$PWD/scripts/tsan-suppressions.txt halt_on_error=0 exitcode=66 print_suppressions=1 ${TSAN_OPTIONS:-}"
        report_pattern='^WARNING: ThreadSanitizer'
        ;;
    address)
        scratch=.build-asan
        default_options=(--skip InBoundedMemory --no-parallel)
        export ASAN_OPTIONS="detect_leaks=0 ${ASAN_OPTIONS:-}"
        report_pattern='^==[0-9]+==ERROR: AddressSanitizer'
        ;;
    *)
        echo "usage: $0 thread|address [swift test options]" >&2
        exit 64
        ;;
esac
[ "$#" -eq 0 ] && set -- "${default_options[@]}"
log="$scratch/$sanitizer-test.log"

swift build --enable-all-traits --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" || exit $?

swift test --enable-all-traits --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}

reports=$(grep -cE "$report_pattern" "$log")
if [ "$reports" -gt 0 ]; then
    echo >&2
    echo "test-sanitizer: $reports $sanitizer sanitizer report(s) (full log: $log):" >&2
    grep -E '^SUMMARY: (Thread|Address)Sanitizer' "$log" | sort | uniq -c >&2
    [ "$rc" -eq 0 ] && rc=66
fi
exit "$rc"
