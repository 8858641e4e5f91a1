#!/usr/bin/env bash
# An X client floods the XWM (3,000 _NET_WM_STATE toggles, then 20,000 ConfigureWindow) while a
# Wayland client times its round trips: the slowest round trip, and whether Xwayland lived
# (docs/xwayland.md, "When Xwayland is slow"). Needs gcc, libxcb and libwayland-client headers.
#
#   bench/xwm-flood.sh [STRATA]     (default: .build/debug/strata)
set -euo pipefail
cd "$(dirname "$0")/.."
STRATA=${1:-.build/debug/strata}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -o "$work/flood" bench/xwm-flood/flood.c -lxcb
gcc -O2 -o "$work/ping" bench/xwm-flood/ping.c -lwayland-client
for mode in state configure; do
    echo "## $mode flood"
    export XDG_RUNTIME_DIR="$work/run-$mode"
    mkdir -m 700 "$XDG_RUNTIME_DIR"
    env -u DISPLAY -u WAYLAND_DISPLAY "$STRATA" --xwayland eager -- \
        sh -c "'$work/flood' $mode & sleep 1; '$work/ping'; wait" 2>&1 | grep -E "^ping|slow round|^flood|Xwayland on|can.t send" || true
done
