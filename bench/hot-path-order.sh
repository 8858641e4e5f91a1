#!/usr/bin/env bash
# Writes Sources/strata/hot-path.order: the functions of the release `strata` that its frames
# run, hottest first, one mangled symbol a line. The release link (Package.swift, hotPathOrder)
# hands the file to lld, which lays those functions out next to each other: a frame's code then
# sits on a few pages instead of dozens (docs/performance.md, "Code layout").
#
#   bench/hot-path-order.sh            (writes the file and relinks the release strata)
#
# How: the release `strata` runs headless under valgrind's callgrind with a weston-simple-shm
# (the benchmark's client: full damage every frame) and a weston-simple-damage (partial damage,
# a moving square); after 4 s of warm-up, 5 s of steady state are recorded, and every function of
# the binary that ran is listed by the instructions it ran. Start-up, teardown and rare requests
# are left out on purpose: they stay where the linker puts them.
#
# Two runs list the same functions in a slightly different order (the clients' timing): what
# matters is the set, which lld packs together. Run it again when the frame path changes a lot: a renamed function drops out of the order
# (lld skips names it does not find) and lands back among the cold code, which only costs a
# page or so. Needs valgrind and weston's demo clients (Debian: valgrind, weston).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
OUT=$ROOT/Sources/strata/hot-path.order
for tool in valgrind callgrind_control callgrind_annotate weston-simple-shm weston-simple-damage objcopy; do
    command -v "$tool" >/dev/null || { echo "hot-path-order: needs $tool (apt-get install valgrind weston binutils)" >&2; exit 1; }
done
(cd "$ROOT" && swift build -c release --product strata >&2)
BIN_DIR=$(cd "$ROOT" && swift build -c release --show-bin-path)

# shellcheck source=scratch.sh
source "$HERE/scratch.sh"

# valgrind 3.19 cannot read Swift 6.3's DWARF: profile a copy without debug info (symbols stay).
BIN=$WORK/strata
objcopy --strip-debug "$BIN_DIR/strata" "$BIN"
valgrind --tool=callgrind --demangle=no --instr-atstart=no --callgrind-out-file="$WORK/callgrind.out" \
    "$BIN" --size 1920x1080 --no-control --socket hot-path >/dev/null 2>"$WORK/valgrind.log" &
STRATA_PID=$!
PIDS+=("$STRATA_PID")
for _ in $(seq 300); do [ -S "$WORK/hot-path" ] && break; sleep 0.1; done
[ -S "$WORK/hot-path" ] || { echo "hot-path-order: strata did not start under valgrind" >&2; cat "$WORK/valgrind.log" >&2; exit 1; }
WAYLAND_DISPLAY=hot-path weston-simple-shm >/dev/null 2>&1 & PIDS+=($!)
WAYLAND_DISPLAY=hot-path weston-simple-damage >/dev/null 2>&1 & PIDS+=($!)
sleep 4
callgrind_control -i on "$STRATA_PID" >/dev/null
sleep 5
callgrind_control -i off "$STRATA_PID" >/dev/null
kill "${PIDS[@]:1}" 2>/dev/null || true
sleep 0.5
kill "$STRATA_PID"
wait "$STRATA_PID" 2>/dev/null || true

# callgrind_annotate lists "instructions (share)  file:function [object]", hottest first.
callgrind_annotate --threshold=100 "$WORK/callgrind.out" |
    sed -n "s|^ *[0-9,]* ([ 0-9.]*%)  *[^ :]*:\([^ ]*\) \[$BIN\]\$|\1|p" |
    sed "s/'[0-9]*\$//" | awk 'NF && !seen[$0]++' >"$WORK/order"
count=$(wc -l <"$WORK/order")
[ "$count" -gt 20 ] || { echo "hot-path-order: only $count functions found; is the client drawing?" >&2; exit 1; }
# The start's part (bench/start-order.sh), after the frame's, is kept.
MARK="# start (bench/start-order.sh): the functions a start and its first client run"
if grep -qxF "$MARK" "$OUT"; then
    { echo "$MARK"; awk -v mark="$MARK" 'found { print } $0 == mark { found = 1 }' "$OUT" | grep -vxF -f "$WORK/order"; } >>"$WORK/order"
fi
mv "$WORK/order" "$OUT"
echo "hot-path-order: $count functions in ${OUT#"$ROOT"/}"
# The build does not see the file as an input of the link: relink by removing the binary.
rm -f "$BIN_DIR/strata"
(cd "$ROOT" && swift build -c release --product strata >&2)
