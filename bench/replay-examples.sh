#!/bin/bash
# Replay's target (issue 21): each examples/*.strata experiment recorded by `strata --record`
# and replayed by `strata-ctl replay`, N times in a row (default 20); prints "FILE: k/N match"
# per example, and for a divergence the replay's first report line. Uses the built binaries
# (BUILD=.build/debug by default; BUILD=.build/release for the release build).
#
#   bench/replay-examples.sh [N] [EXAMPLE...]
#
# Optional load beside it: LOAD=1 runs `swift test --skip-build --filter StrataServerTests`
# in a loop while it replays (the whole suite's load, roughly).
set -u
cd "$(dirname "$0")/.."
runs=${1:-20}
shift || true
build=${BUILD:-.build/debug}
for tool in strata strata-ctl strata-color-client; do
    [ -x "$build/$tool" ] || { echo "replay-examples: $build/$tool is missing (swift build first)" >&2; exit 2; }
done
examples=("$@")
[ ${#examples[@]} -gt 0 ] || examples=(examples/*.strata)
work=$(mktemp -d /tmp/strata-replay-bench-XXXXXX)
export XDG_RUNTIME_DIR=$work/runtime
mkdir -m 700 "$XDG_RUNTIME_DIR"
export PATH="$PWD/$build:$PATH"
unset WAYLAND_DISPLAY WAYLAND_SOCKET DISPLAY STRATA_SOCKET
load=
if [ "${LOAD:-0}" = 1 ]; then
    ( while :; do swift test --skip-build --filter StrataServerTests >/dev/null 2>&1; done ) &
    load=$!
fi
trap '[ -n "$load" ] && { pkill -P "$load"; kill "$load"; } 2>/dev/null; rm -rf "$work"' EXIT
status=0
for example in "${examples[@]}"; do
    name=$(basename "$example")
    matched=0
    for run in $(seq 1 "$runs"); do
        trace=$work/$name.$run.trace
        if ! strata --backend headless --size 1280x720 --record "$trace" -- strata-ctl run "$example" >"$work/record.out" 2>&1; then
            echo "$name run $run: the recording failed: $(tail -1 "$work/record.out")"
            continue
        fi
        if strata-ctl replay "$trace" >"$work/replay.out" 2>&1; then
            matched=$((matched + 1))
        else
            echo "$name run $run: $(head -1 "$work/replay.out")"
        fi
        rm -f "$trace" "$trace".replay*
    done
    echo "$name: $matched/$runs match"
    [ "$matched" = "$runs" ] || status=1
done
exit $status
