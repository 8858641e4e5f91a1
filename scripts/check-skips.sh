#!/usr/bin/env bash
# Fails when a `swift test` log shows a skipped test or suite and CI=true.
#
#   scripts/check-skips.sh LOG
#
# Real-client tests are `.enabled(if:)` on installed programs so that a developer without them
# can still run the rest; CI installs every package, so a skip there means a client binary was
# renamed or dropped and its tests stopped testing: that must be red, not a quiet green.
set -euo pipefail
log=$1
# Swift Testing: "➜ Test name() skipped: …" / "Suite Name skipped" (the symbol varies by terminal).
skips=$(grep -E '(Test|Suite) .+ skipped' "$log" || true)
count=0
[ -z "$skips" ] || count=$(printf '%s\n' "$skips" | wc -l)
if [ "$count" -gt 0 ]; then
  echo "check-skips: $count skipped:" >&2
  printf '%s\n' "$skips" | sed 's/^/  /' >&2
  if [ "${CI:-}" = true ]; then
    echo "check-skips: CI installs every client the tests need, so no test may be skipped (CI=true)" >&2
    exit 1
  fi
else
  echo "check-skips: no test skipped"
fi
