#!/usr/bin/env bash
# Runs the Wayland Conformance Test Suite (Debian's `wlcs`) against Strata.
#
#   scripts/wlcs.sh [--gate] [--release] [--gtest_filter=PATTERN] [other wlcs/gtest options…]
#
# Builds the integration module (libStrataWLCS.so, debug unless --release), runs the WLCS
# runner on it with a time bound ($STRATA_WLCS_TIMEOUT seconds, default 600) and a private
# XDG_RUNTIME_DIR, then prints passed / failed / skipped per test suite, the failed tests, and
# last the line `N passed, M failed`. The runner's whole output is kept in .build/wlcs/wlcs.log.
#
#   --gate     also check .ci/wlcs-must-pass.txt: every test listed there must have run and
#              passed, and the runner must have ended as gtest does (status 0, or 1 with failed
#              tests, after its closing summary), or the script fails (CI). Without --gate the
#              exit status is the runner's.
#   --release  build and test the release module (slower to build, same results).
#
# Needs the `wlcs` package (scripts/install-deps.sh --build installs it).
set -euo pipefail
cd "$(dirname "$0")/.."

gate=0
config=debug
wlcs_args=()
for arg in "$@"; do
  case "$arg" in
    --gate) gate=1 ;;
    --release) config=release ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) wlcs_args+=("$arg") ;;
  esac
done

# STRATA_WLCS_RUNNER names another runner (a wrapper, to check that the gate sees it fail).
runner=${STRATA_WLCS_RUNNER:-$(pkg-config --variable=test_runner wlcs 2>/dev/null || true)}
[ -x "$runner" ] || runner=/usr/lib/x86_64-linux-gnu/wlcs/wlcs
if [ ! -x "$runner" ]; then
  echo "wlcs: the WLCS runner is missing: apt-get install wlcs (scripts/install-deps.sh installs it)" >&2
  exit 1
fi

echo "wlcs: building libStrataWLCS.so ($config)"
swift build -c "$config" --product StrataWLCS
module="$(swift build -c "$config" --show-bin-path)/libStrataWLCS.so"

outdir=.build/wlcs
mkdir -p "$outdir"
log=$outdir/wlcs.log
runtime=$(mktemp -d "${TMPDIR:-/tmp}/strata-wlcs-XXXXXX")
chmod 0700 "$runtime"
trap 'rm -rf "$runtime"' EXIT

seconds=${STRATA_WLCS_TIMEOUT:-600}
echo "wlcs: running $runner (at most ${seconds}s; output in $log)"
status=0
start=$SECONDS
XDG_RUNTIME_DIR=$runtime WAYLAND_DISPLAY= DISPLAY= \
  timeout --kill-after=10s "$seconds" "$runner" "$module" ${wlcs_args[@]+"${wlcs_args[@]}"} >"$log" 2>&1 || status=$?
elapsed=$((SECONDS - start))
if [ "$status" = 124 ] || [ "$status" = 137 ]; then
  echo "wlcs: the runner did not finish within ${seconds}s (killed); counts below are partial" >&2
elif [ "$status" -gt 128 ]; then
  echo "wlcs: the runner died of signal $((status - 128)); counts below are partial" >&2
fi

# One line per finished test: "<result> <suite> <name>" (gtest's "[  FAILED  ] A/B.c/3, where
# GetParam() = … (12 ms)" lines included; the summary lines at the end have no "(N ms)").
results=$outdir/results.txt
# WLCS prints a skipped test as "[     SKIP ] A.b (9ms)".
sed -nE 's/^\[ *(OK|FAILED|SKIP|SKIPPED) *\] ([^ ,]+)(, where .*)? \([0-9]+ ?ms\)$/\1 \2/p' "$log" | sed 's/^SKIP /SKIPPED /' |
  awk '{ dot = index($2, "."); print $1, substr($2, 1, dot - 1), substr($2, dot + 1) }' >"$results"

# Per suite (mawk has no asorti: sort the rows instead).
printf "%-58s %7s %7s %7s\n" suite passed failed skipped
awk '
  { suite[$2] = 1; count[$2, $1]++ }
  END { for (s in suite) printf "%-58s %7d %7d %7d\n", s, count[s, "OK"], count[s, "FAILED"], count[s, "SKIPPED"] }
' "$results" | sort
awk '{ total[$1]++ } END { printf "%-58s %7d %7d %7d\n", "total", total["OK"], total["FAILED"], total["SKIPPED"] }' "$results"

failed_tests=$(awk '$1 == "FAILED" { print $2 "." $3 }' "$results")
if [ -n "$failed_tests" ]; then
  echo
  echo "failed:"
  echo "$failed_tests" | sed 's/^/  /'
fi

gate_status=0
if [ "$gate" = 1 ]; then
  # The runner itself must have ended as gtest ends: status 0, or 1 with failed tests (WLCS as a
  # whole has known failures), after its closing "[==========] N tests from M test cases run."
  # line. A crash, a time-out, an abort or a hang after the listed tests passed is red, whatever
  # they counted.
  if [ "$status" != 0 ] && { [ "$status" != 1 ] || ! grep -q '^\[  FAILED  \] ' "$log"; }; then
    echo "gate: the WLCS runner exited with status $status (not gtest's 0, or 1 with failed tests)" >&2
    gate_status=1
  fi
  if ! grep -qE '^\[==========\] [0-9]+ tests? from [0-9]+ test (suites?|cases?) (ran|run)\.' "$log"; then
    echo "gate: the WLCS runner never printed its closing summary (it crashed or was killed)" >&2
    gate_status=1
  fi
  list=.ci/wlcs-must-pass.txt
  missing=$(grep -vE '^[[:space:]]*(#|$)' "$list" | sed 's/[[:space:]]*$//' | sort -u |
    comm -23 - <(awk '$1 == "OK" { print $2 "." $3 }' "$results" | sort -u))
  if [ "$(grep -cvE '^[[:space:]]*(#|$)' "$list")" -eq 0 ]; then
    echo "gate: $list lists no test" >&2
    gate_status=1
  elif [ -n "$missing" ]; then
    echo
    echo "gate: $(echo "$missing" | wc -l) of the tests in $list did not pass:"
    echo "$missing" | sed 's/^/  /'
    gate_status=1
  else
    echo
    echo "gate: all $(grep -cvE '^[[:space:]]*(#|$)' "$list") tests in $list passed (${elapsed}s)"
  fi
fi

passed=$(awk '$1 == "OK"' "$results" | wc -l)
failed=$(awk '$1 == "FAILED"' "$results" | wc -l)
echo
if [ "$gate" = 1 ]; then
  # In CI the gate decides; its own count is the closing line (the whole suite's is above).
  listed=$(grep -cvE '^[[:space:]]*(#|$)' .ci/wlcs-must-pass.txt)
  missing_count=0
  [ -z "${missing:-}" ] || missing_count=$(echo "$missing" | wc -l)
  echo "WLCS as a whole: $passed tests passed and $failed failed"
  if [ "$gate_status" = 0 ]; then
    echo "wlcs-gate: $((listed - missing_count)) passed, $missing_count failed"
  else
    # The runner's own failure counts against the gate too.
    echo "wlcs-gate: $((listed - missing_count)) passed, $((missing_count > 0 ? missing_count : 1)) failed"
  fi
  exit "$gate_status"
fi
echo "$passed passed, $failed failed"
[ "$status" = 0 ] || exit 1
