#!/usr/bin/env bash
# What recording a trace costs (docs/experiments.md, "Figures"): Strata's CPU time for SECONDS
# (default 10) of four weston-simple-shm clients (each redrawing 250x250 every frame), without and
# with --record, alternated ROUNDS times (default 4), and the size of the trace; then, with valgrind,
# the instructions per frame of each (INSTRUCTIONS=0 skips them). Release build.
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

# Instructions (valgrind's callgrind: deterministic, unlike CPU time on a loaded machine), one run
# of each mode, INSTR_SECONDS (default 12) long: the whole run (start, the clients' windows
# opening, the end) per painted frame, and the steady state: the instructions from second 4 to
# second 10 per frame repainted in them (Scene.repaint's calls). valgrind 3.19 cannot read Swift
# 6.3's DWARF: a copy without debug information is run (symbols stay).
if command -v valgrind >/dev/null && command -v callgrind_control >/dev/null && [ "${INSTRUCTIONS:-1}" = 1 ]; then
    INSTR_SECONDS=${INSTR_SECONDS:-12}
    objcopy --strip-debug "$BIN/strata" "$WORK/strata-nd"
    sed -i "s/timeout [0-9]* weston-simple-shm/timeout $INSTR_SECONDS weston-simple-shm/" "$WORK/clients.sh"
    for mode in plain record; do
        extra=(); [ "$mode" = record ] && extra=(--record "$WORK/trace-instr")
        # The whole run.
        STRATA_STATS=1 valgrind --tool=callgrind --callgrind-out-file="$WORK/whole.out" "$WORK/strata-nd" --backend headless \
            --size 1280x720 --no-control "${extra[@]}" -- "$WORK/clients.sh" >/dev/null 2>"$WORK/whole.log"
        whole=$(awk '/Collected/ { print $4 }' "$WORK/whole.log")
        frames=$(awk '/strata: stats/ { print $6 }' "$WORK/whole.log")
        # The steady state: collection switched on and off while the clients draw.
        rm -f "$WORK/trace-instr"
        valgrind --tool=callgrind --instr-atstart=no --compress-strings=no --demangle=no --callgrind-out-file="$WORK/steady.out" \
            "$WORK/strata-nd" --backend headless --size 1280x720 --no-control "${extra[@]}" -- "$WORK/clients.sh" \
            >/dev/null 2>"$WORK/steady.log" &
        pid=$!
        sleep 4; callgrind_control -i on "$pid" >/dev/null
        sleep 6; callgrind_control -i off "$pid" >/dev/null
        wait "$pid" || true
        steady=$(awk '/Collected/ { print $4 }' "$WORK/steady.log")
        repaints=$(awk '/^cfn=/ { hit = ($0 ~ /5SceneC7repaint.*9fromClockyAA12ScreenOutputC_SbtF$/) } /^calls=/ && hit { split($1, c, "="); n += c[2]; hit = 0 } END { print n + 0 }' "$WORK/steady.out")
        echo "$mode instructions whole $whole frames $frames steady $steady repaints $repaints"
    done | tee "$WORK/instr"
    awk '{ w[$1] = $4 / $6; s[$1] = ($10 > 0 ? $8 / $10 : 0) }
         END { printf "instructions per frame: whole run %.0f -> %.0f (%+.1f %%), steady state %.0f -> %.0f (%+.1f %%)\n",
               w["plain"], w["record"], 100 * (w["record"] / w["plain"] - 1), s["plain"], s["record"], 100 * (s["record"] / s["plain"] - 1) }' "$WORK/instr"
fi
