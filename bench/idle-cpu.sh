#!/usr/bin/env bash
# Strata's CPU time over 10 s (or $1) idle with a mapped window: strata-color-client draws one
# frame and then stays; nothing changes, so the compositor should not wake at all.
set -euo pipefail
DURATION=${1:-10}
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$HERE/.build/release}
[ -x "$BIN/strata" ] && [ -x "$BIN/strata-color-client" ] || (cd "$HERE" && swift build -c release --product strata >&2 && swift build -c release --product strata-color-client >&2)
WORK=$(mktemp -d); trap 'kill $pid 2>/dev/null || true; rm -rf "$WORK"' EXIT
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$WORK}
STRATA_STATS=1 "$BIN/strata" --size 1920x1080 --no-control -- "$BIN/strata-color-client" --size 800x600 --frames 1 --seconds $((DURATION + 5)) >/dev/null 2>"$WORK/log" &
pid=$!
sleep 2
t0=$(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' /proc/$pid/stat)
sleep "$DURATION"
t1=$(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' /proc/$pid/stat)
kill -TERM $pid; wait $pid 2>/dev/null || true
echo "Strata idle with one mapped 800x600 window: $(( (t1 - t0) * 1000 / $(getconf CLK_TCK) )) ms CPU in ${DURATION} s"
grep 'strata: stats' "$WORK/log" || true
