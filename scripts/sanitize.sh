#!/usr/bin/env bash
# The whole test suite under AddressSanitizer with LeakSanitizer, in its own build folder
# (.build-asan): every test, the in-process server, and the end-to-end tests' strata,
# strata-ctl and strata-color-client children (built with ASan too; a report makes them exit
# non-zero, which their tests check).
#
#   scripts/sanitize.sh [extra `swift test` arguments, e.g. --filter Hostile]
#
# Exits non-zero on any test failure or sanitizer report.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  XDG_RUNTIME_DIR=$(mktemp -d "${TMPDIR:-/tmp}/strata-runtime-XXXXXX")
  chmod 0700 "$XDG_RUNTIME_DIR"
  export XDG_RUNTIME_DIR
  trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
fi

echo "== build (AddressSanitizer, .build-asan)"
swift build --build-tests --scratch-path .build-asan --sanitize=address

# The Swift backtracer and ASan both want the crash signals: let ASan report.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"
asan="abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=0"
status=0

# 1. Every in-process test under ASan (the end-to-end tests run in step 2, on their own: run
#    in parallel with the in-process suite, real clients under ASan's slowdown on 2 cores missed
#    their readiness deadlines). In-process leak detection is off: XCTest, Swift Testing's task
#    runtime and Foundation leave unreachable allocations of their own at exit, which would bury
#    any of ours; Strata's own objects are leak-checked by the hostile tests' live counts.
echo "== tests (AddressSanitizer)"
log1=$(mktemp "${TMPDIR:-/tmp}/strata-asan-XXXXXX.log")
set +e  # the statuses of the pipelines below are read from PIPESTATUS
ASAN_OPTIONS="detect_leaks=0:$asan:${ASAN_OPTIONS:-}" \
  timeout --kill-after=30s 60m swift test --skip-build --scratch-path .build-asan --sanitize=address \
    --skip StrataEndToEndTests "$@" 2>&1 | tee "$log1" | { grep -E '✘|passed after|failed after|ERROR: AddressSanitizer' || true; }
test_status=${PIPESTATUS[0]}
[ "$test_status" = 0 ] || { echo "sanitize.sh: swift test exited with status $test_status (see $log1)" >&2; status=1; }
grep -qE 'Test run with [0-9]+ tests? .*passed' "$log1" || { echo "sanitize.sh: tests failed (see $log1)" >&2; status=1; }
grep -q 'ERROR: AddressSanitizer' "$log1" && { echo "sanitize.sh: AddressSanitizer reports (see $log1)" >&2; status=1; }

# 2. The end-to-end tests again with LeakSanitizer on for strata, strata-ctl and the clients it
#    runs (STRATA_CHILD_ASAN_OPTIONS, which the tests hand their children as ASAN_OPTIONS): they
#    exit non-zero on a leak, and every StrataRun checks its exit status and standard error for
#    a report. The test process itself runs without leak detection (the runtimes' noise above).
echo "== end-to-end children (AddressSanitizer + LeakSanitizer)"
log2=$(mktemp "${TMPDIR:-/tmp}/strata-lsan-XXXXXX.log")
ASAN_OPTIONS="detect_leaks=0:$asan:${ASAN_OPTIONS:-}" STRATA_CHILD_ASAN_OPTIONS="detect_leaks=1:$asan:${ASAN_OPTIONS:-}" \
  timeout --kill-after=30s 30m swift test --skip-build --scratch-path .build-asan --sanitize=address \
    --filter StrataEndToEndTests 2>&1 | tee "$log2" | { grep -E '✘|passed after|failed after' || true; }
test_status=${PIPESTATUS[0]}
[ "$test_status" = 0 ] || { echo "sanitize.sh: swift test exited with status $test_status (see $log2)" >&2; status=1; }
grep -qE 'Test run with [0-9]+ tests? .*passed' "$log2" || { echo "sanitize.sh: end-to-end tests failed under LSan (see $log2)" >&2; status=1; }

scripts/check-skips.sh "$log1" || status=1
scripts/check-skips.sh "$log2" || status=1
set -e
[ $status -eq 0 ] && rm -f "$log1" "$log2" && echo "== no sanitizer reports, all tests passed"
exit $status
