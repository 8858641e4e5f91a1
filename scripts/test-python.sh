#!/usr/bin/env bash
# Runs the python/ package's tests (pytest) against the built binaries in .build/debug.
#
#   scripts/test-python.sh [pytest arguments]
#
# Uses the first python3 that has pytest and Pillow (PATH's, else Debian's /usr/bin/python3
# with python3-pytest and python3-pil, which scripts/install-deps.sh --test installs). Under
# CI=true a skipped test fails the run, as for the Swift suites (scripts/check-skips.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

python=
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import pytest, PIL' 2>/dev/null; then
    python=$candidate
    break
  fi
done
if [ -z "$python" ]; then
  echo "test-python: no python3 with pytest and Pillow (scripts/install-deps.sh --test installs python3-pytest and python3-pil)" >&2
  exit 1
fi
for binary in strata strata-ctl strata-color-client; do
  [ -x ".build/debug/$binary" ] || { echo "test-python: .build/debug/$binary is missing: build first" >&2; exit 1; }
done

report=$(mktemp "${TMPDIR:-/tmp}/strata-pytest-XXXXXX.xml")
trap 'rm -f "$report"' EXIT
set +e
PATH="$PWD/.build/debug:$PATH" PYTHONPATH="$PWD/python/src${PYTHONPATH:+:$PYTHONPATH}" \
  timeout --kill-after=30s 15m "$python" -m pytest -p no:cacheprovider -rs --junitxml="$report" python/tests "$@"
status=$?
set -e
if [ "$status" != 0 ]; then
  echo "test-python: pytest exited with status $status" >&2
  exit "$status"
fi
skipped=$("$python" -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(sum(int(s.get("skipped", 0)) for s in r.iter("testsuite")))' "$report")
if [ "$skipped" != 0 ] && [ "${CI:-}" = true ]; then
  echo "test-python: $skipped skipped test(s): under CI=true nothing may be skipped" >&2
  exit 1
fi
echo "test-python: passed ($skipped skipped)"
