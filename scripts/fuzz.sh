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
#
# A crash, a Swift trap, an ASan report or a leak (the server not back at its baseline after the
# fuzzed client left) stops the run and saves the input as fuzz/findings/crash-…; the script exits
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
    *) extra+=("$1"); shift ;;
  esac
done

echo "== building strata-fuzz (.build-fuzz)"
STRATA_FUZZ=1 swift build -c release --product strata-fuzz --scratch-path .build-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address \
  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld 2>&1 | grep -v "Cannot export local symbol" || true
binary=.build-fuzz/release/strata-fuzz
[ -x "$binary" ] || { echo "fuzz.sh: the build failed" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-fuzz-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/runtime" fuzz/findings
chmod 0700 "$work/runtime"
cp fuzz/corpus/* fuzz/regressions/* "$work/corpus/" 2>/dev/null || true
[ "$keep" = 1 ] && [ -d fuzz/corpus-local ] && cp fuzz/corpus-local/* "$work/corpus/" 2>/dev/null || true

echo "== fuzzing for ${seconds}s with $jobs job(s)"
status=0
parallel=()
# -jobs writes one fuzz-N.log per job into the current folder: keep those in the work folder.
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs") && cp /dev/null "$work/log"
# The Swift backtracer would symbolicate every crash for a minute; libFuzzer reports them itself.
SWIFT_BACKTRACE=enable=no XDG_RUNTIME_DIR="$work/runtime" \
ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:${ASAN_OPTIONS:-}" \
  "$binary" -max_total_time="$seconds" -max_len=4096 -timeout=20 -rss_limit_mb=4096 \
    "${parallel[@]}" -print_final_stats=1 \
    -artifact_prefix="$PWD/fuzz/findings/" "${extra[@]}" "$work/corpus" 2>&1 | tee "$work/log" | grep -vE '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)' || true
[ "$jobs" -gt 1 ] && cat fuzz-*.log >> "$work/log" 2>/dev/null && rm -f fuzz-*.log
# libFuzzer exits non-zero on a finding; with tee in between, look at the log.
if grep -qE 'ERROR: (libFuzzer|AddressSanitizer)|strata-fuzz: leak|Fatal error|SUMMARY: ' "$work/log"; then
  status=1
  echo "fuzz.sh: a finding was saved in fuzz/findings/" >&2
fi
grep -E 'stat::number_of_executed_units|Done [0-9]+ runs' "$work/log" | tail -2 || true
if [ "$keep" = 1 ]; then
  mkdir -p fuzz/corpus-local
  cp "$work/corpus"/* fuzz/corpus-local/ 2>/dev/null || true
fi
exit $status
