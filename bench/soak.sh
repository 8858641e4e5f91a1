#!/usr/bin/env bash
# The soak test (run by hand, minutes): clients connect, map windows, build subsurface trees,
# commit frames, set selections and die at random, with the fuzzer's hostile programs among them,
# and X programs (strata-x11-color-client, xlogo, xclock, xeyes, xterm) start, have their windows
# hidden, shown, moved, made key and closed, and die under Xwayland, against one in-process
# compositor; the compositor's RSS, open fds and live objects, and Xwayland's RSS and fds, at the
# end must match the start (fds exactly, objects exactly or, with X programs, within Xwayland's
# slack of 64, RSS within max(8 MiB, 10 %)).
#
#   bench/soak.sh [--minutes M] [--clients N] [--seed S] [--no-x]
#                                          (default: 5 minutes, 16 clients, seed 1, X programs on)
#
# Release build of the bench package (bench/.build); exits non-zero if the soak fails.
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product strata-bench 2>&1 | tail -1
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
color=()
for built in ../.build/release/strata-x11-color-client ../.build/debug/strata-x11-color-client; do
    if [ -x "$built" ]; then color=(--x11-color-client "$(cd "$(dirname "$built")" && pwd)/strata-x11-color-client"); break; fi
done
exec .build/release/strata-bench soak "${color[@]}" "$@"
