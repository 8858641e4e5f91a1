#!/usr/bin/env bash
# The request-path fuzzer: builds fuzz/strata-fuzz with libFuzzer and AddressSanitizer
# (swiftc -sanitize=fuzzer,address, release with Swift's overflow and bounds checks kept) in
# .build-fuzz, and runs it on a copy of the seed corpus for a bounded time.
#
#   scripts/fuzz.sh [--seconds N] [--jobs N] [--keep] [extra libFuzzer options…]
#
# --seconds N  run for N seconds (default 120: the CI budget); longer by hand, e.g. --seconds 3600
# --jobs N     N fuzzing processes in parallel (default 1)
# --keep       keep the grown corpus in fuzz/corpus-local (ignored by git) for the next run
# --scale S    every screen at scale S between inputs (1.5, 2: the scaled placement and drawing
#              paths from the first request; inputs also change scales as they go)
#
# A crash, a Swift trap, an ASan report or a leak (the server not back at its baseline of live
# objects, or the process not back at its baseline of open descriptors, after the fuzzed client
# left; STRATA_FUZZ_DESCRIPTORS=0 skips the descriptors) stops the run and saves the input as
# fuzz/findings/crash-…; the script exits
# non-zero. Minimise it (`.build-fuzz/release/strata-fuzz -minimize_crash=1 -runs=10000 FILE`),
# fix the bug, and add the input to fuzz/regressions/ under a name that says what it found:
# FuzzRegressionTests replays every file there.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=120
jobs=1
keep=0
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --scale) export STRATA_FUZZ_SCALE="$2"; shift 2 ;;
    *) extra+=("$1"); shift ;;
  esac
done

echo "== building strata-fuzz (.build-fuzz)"
# (set +e around pipelines whose first command's status is read from PIPESTATUS.)
set +e
STRATA_FUZZ=1 swift build -c release --product strata-fuzz --scratch-path .build-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address \
  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld 2>&1 | { grep -v "Cannot export local symbol" || true; }
build_status=${PIPESTATUS[0]}
set -e
binary=.build-fuzz/release/strata-fuzz
# A failed build may leave an older binary behind: the build's own status decides.
[ "$build_status" = 0 ] && [ -x "$binary" ] || { echo "fuzz.sh: the build failed (status $build_status)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-fuzz-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/runtime" fuzz/findings
chmod 0700 "$work/runtime"
cp fuzz/corpus/* fuzz/regressions/* "$work/corpus/" 2>/dev/null || true
[ "$keep" = 1 ] && [ -d fuzz/corpus-local ] && cp fuzz/corpus-local/* "$work/corpus/" 2>/dev/null || true

echo "== fuzzing for ${seconds}s with $jobs job(s), screens at scale ${STRATA_FUZZ_SCALE:-1}"
status=0
parallel=()
# -jobs writes one fuzz-N.log per job into the current folder: keep those in the work folder.
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs") && cp /dev/null "$work/log"
# The Swift backtracer would symbolicate every crash for a minute; libFuzzer reports them itself.
set +e
SWIFT_BACKTRACE=enable=no XDG_RUNTIME_DIR="$work/runtime" \
ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:${ASAN_OPTIONS:-}" \
  "$binary" -max_total_time="$seconds" -max_len=4096 -timeout=20 -rss_limit_mb=4096 \
    "${parallel[@]}" -print_final_stats=1 \
    -artifact_prefix="$PWD/fuzz/findings/" ${extra[@]+"${extra[@]}"} "$work/corpus" 2>&1 | tee "$work/log" | { grep -vE '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)' || true; }
fuzzer_status=${PIPESTATUS[0]}
set -e
if [ "$jobs" -gt 1 ]; then cat fuzz-*.log >> "$work/log" 2>/dev/null || true; rm -f fuzz-*.log; fi
# libFuzzer exits non-zero on a finding (and on anything else that stops it early).
if grep -qE 'ERROR: (libFuzzer|AddressSanitizer)|strata-fuzz: leak|Fatal error|SUMMARY: ' "$work/log"; then
  status=1
  echo "fuzz.sh: a finding was saved in fuzz/findings/" >&2
elif [ "$fuzzer_status" != 0 ]; then
  status=1
  echo "fuzz.sh: the fuzzer exited with status $fuzzer_status" >&2
fi
# A fuzzer that could not start, or barely ran, has tested nothing: at least this many inputs
# (CI's two minutes run tens of thousands; STRATA_FUZZ_MIN_RUNS lowers it for short runs).
min_runs=${STRATA_FUZZ_MIN_RUNS:-$((seconds * 20))}
runs=$({ grep -hoE 'stat::number_of_executed_units: *[0-9]+' "$work/log" || true; } | { grep -oE '[0-9]+$' || true; } |
  awk '{ n += $1 } END { print n + 0 }')
echo "fuzz.sh: $runs inputs executed (at least $min_runs required)"
if [ "$runs" -lt "$min_runs" ]; then
  status=1
  echo "fuzz.sh: the fuzzer executed $runs inputs, fewer than $min_runs" >&2
fi
if [ "$keep" = 1 ]; then
  mkdir -p fuzz/corpus-local
  cp "$work/corpus"/* fuzz/corpus-local/ 2>/dev/null || true
fi
exit $status
