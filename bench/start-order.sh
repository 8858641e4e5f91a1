#!/usr/bin/env bash
# Appends to Sources/strata/hot-path.order the functions of the release `strata` that a start runs
# (exec, the compositor and its sockets, a first client answered, the exit), after the frame's
# (bench/hot-path-order.sh writes those, and keeps this part). lld lays the listed functions out
# together, so a start touches a few hundred KB of the 31 MB binary instead of pages all over it;
# the kernel maps 64 KB around each page a start touches, so that is resident memory as well as
# page faults (docs/performance.md, "Start-up").
#
#   bench/start-order.sh            (writes the file and relinks the release strata)
#
# How: `strata --backend headless -- wayland-info` under valgrind's callgrind (a copy without
# debug information: valgrind 3.19 cannot read Swift 6.3's DWARF); every function of the binary
# that ran, by the instructions it ran, that the frame's list does not already hold.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
OUT=$ROOT/Sources/strata/hot-path.order
MARK="# start (bench/start-order.sh): the functions a start and its first client run"
for tool in valgrind callgrind_annotate wayland-info objcopy; do
    command -v "$tool" >/dev/null || { echo "start-order: needs $tool (apt-get install valgrind wayland-utils binutils)" >&2; exit 1; }
done
(cd "$ROOT" && swift build -c release --product strata >&2)
BIN_DIR=$(cd "$ROOT" && swift build -c release --show-bin-path)
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
export XDG_RUNTIME_DIR=$WORK
objcopy --strip-debug "$BIN_DIR/strata" "$WORK/strata"
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$WORK/callgrind.out" \
    "$WORK/strata" --backend headless -- wayland-info >/dev/null 2>"$WORK/valgrind.log"
callgrind_annotate --threshold=100 "$WORK/callgrind.out" |
    sed -n "s|^ *[0-9,]* ([ 0-9.]*%)  *[^ :]*:\([^ ]*\) \[$WORK/strata\]\$|\1|p" |
    sed "s/'[0-9]*\$//" | awk 'NF && !seen[$0]++' >"$WORK/start"
# The frame's part: everything before the mark.
awk -v mark="$MARK" '$0 == mark { exit } { print }' "$OUT" >"$WORK/frame"
{ cat "$WORK/frame"; echo "$MARK"; grep -vxF -f "$WORK/frame" "$WORK/start"; } >"$WORK/order"
count=$(grep -cvxF -f "$WORK/frame" "$WORK/start" || true)
[ "$count" -gt 100 ] || { echo "start-order: only $count functions found" >&2; exit 1; }
mv "$WORK/order" "$OUT"
echo "start-order: $count start functions after the frame's in ${OUT#"$ROOT"/}"
# The build does not see the file as an input of the link: relink by removing the binary.
rm -f "$BIN_DIR/strata"
(cd "$ROOT" && swift build -c release --product strata >&2)
