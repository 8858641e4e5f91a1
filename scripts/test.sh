#!/usr/bin/env bash
# THE test command: everything from a fresh Debian 12 machine with Swift to a finished test run.
#
#   scripts/test.sh [extra `swift test` arguments, e.g. --filter StrataEndToEndTests]
#
# 1. installs the missing Debian packages (scripts/install-deps.sh --test; needs root if any are
#    missing), 2. checks that every Swift file is formatted (scripts/format.sh --check), 3. builds
#    everything including the tests, 4. runs every test (the Swift suites, then python/'s pytest,
#    then the installed release), 5. fuzzes the request path for two minutes, 6. runs every test
#    again under AddressSanitizer (+ LeakSanitizer for the binaries the end-to-end tests start),
#    7. runs the WLCS conformance gate. XDG_RUNTIME_DIR is set to a fresh
#    private folder if it is not set (CI runs as root without a session). Exits non-zero on any
#    failure, and with CI=true on any skipped test (CI installs every client the tests use).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "dependencies"
scripts/install-deps.sh --test

if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  XDG_RUNTIME_DIR=$(mktemp -d "${TMPDIR:-/tmp}/strata-runtime-XXXXXX")
  chmod 0700 "$XDG_RUNTIME_DIR"
  export XDG_RUNTIME_DIR
  trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
fi

# At most 12 test cases at once (Swift Testing's own bound is none on this toolchain): unbounded,
# the end-to-end suite started 131 Strata, their clients and Xwaylands together on 2 cores, and
# real clients missed their deadlines; 12 at once takes the same wall time. Read by sanitize.sh's
# runs too.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-12}

step "format (swift format, .swift-format)"
scripts/format.sh --check

# One build with the tests (a plain `swift build` followed by `swift test` would compile the
# modules twice: tests build them with testing enabled).
step "build"
swift build --build-tests

step "tests"
# The end-to-end tests kill what they start at their own deadlines; this bounds everything else.
# The log is kept to count skipped tests: under CI=true a skip fails the run (scripts/check-skips.sh).
test_log=$(mktemp "${TMPDIR:-/tmp}/strata-tests-XXXXXX.log")
set +e
timeout --kill-after=30s 45m swift test --skip-build "$@" 2>&1 | tee "$test_log"
test_status=${PIPESTATUS[0]}
set -e
if [ "$test_status" != 0 ]; then
  echo "test.sh: swift test exited with status $test_status" >&2
  exit "$test_status"
fi
scripts/check-skips.sh "$test_log"
rm -f "$test_log"

# The python/ package (pytest), against the binaries just built; then the relocatable release
# (one release build: scripts/install.sh into a temporary prefix, run without the toolchain).
if [ $# -eq 0 ]; then
  step "the python package (pytest)"
  scripts/test-python.sh

  step "the relocatable release (install into a prefix, run without the Swift toolchain)"
  scripts/install-test.sh
fi

# The rest runs only for the whole suite (no filter): the fuzzer for two minutes, the suite under
# AddressSanitizer (its own build in .build-asan), and WLCS, where every test on
# .ci/wlcs-must-pass.txt must pass. The WLCS gate goes last: its count is the closing line.
if [ $# -eq 0 ]; then
  step "fuzzing the request path (2 minutes: a minute at scale 1, a minute on 1.5-scaled screens)"
  scripts/fuzz.sh --seconds 60
  scripts/fuzz.sh --seconds 60 --scale 1.5

  step "the suite under AddressSanitizer and LeakSanitizer"
  scripts/sanitize.sh

  step "wlcs conformance gate"
  scripts/wlcs.sh --gate
fi

step "all tests passed"
