#!/usr/bin/env bash
# What recording a trace costs (docs/experiments.md, "Figures"): Strata's CPU time for SECONDS
# (default 10) of four weston-simple-shm clients (each redrawing 250x250 every frame), without and
# with --record, alternated ROUNDS times (default 4), and the size of the trace. Release build.
set -euo pipefail
SECONDS_RUN=${1:-10}
ROUNDS=${ROUNDS:-4}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BIN=${BIN:-$ROOT/.build/release}
[ -x "$BIN/strata" ] || (cd "$ROOT" && swift build -c release --product strata >&2)
command -v weston-simple-shm >/dev/null || { echo "record-cost: weston-simple-shm (package weston) is needed" >&2; exit 1; }
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$WORK}
cat > "$WORK/clients.sh" <<SCRIPT
#!/bin/sh
for i in 1 2 3 4; do env -u WAYLAND_SOCKET timeout $SECONDS_RUN weston-simple-shm >/dev/null 2>&1 & done
wait
SCRIPT
chmod +x "$WORK/clients.sh"
for round in $(seq 1 "$ROUNDS"); do
    for mode in plain record; do
        extra=(); [ "$mode" = record ] && extra=(--record "$WORK/trace")
        STRATA_STATS=1 "$BIN/strata" --backend headless --size 1280x720 "${extra[@]}" -- "$WORK/clients.sh" 2>&1 >/dev/null \
            | awk -v m="$mode" '/strata: stats/ { print m, "frames", $6, "cpu", $10 }'
    done
done
echo "trace of ${SECONDS_RUN} s: $(stat -c %s "$WORK/trace") bytes, $(grep -c '"type":"frame"' "$WORK/trace") frame lines"
