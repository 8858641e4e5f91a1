#!/bin/sh
# Records foot (a command typed at its prompt), gtk3-demo (a menu opened by a click) and xterm under
# Xwayland (typed text), each under the realtime and the manual clock, and replays each recording
# ROUNDS times (default 10): RealClientReplayEndToEndTests with STRATA_REPLAY_ROUNDS. Prints how
# many replays of each matched. Needs a debug build with tests (swift build --build-tests).
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-10}
runtime=$(mktemp -d)
chmod 700 "$runtime"
XDG_RUNTIME_DIR=$runtime STRATA_REPLAY_ROUNDS=$rounds swift test --skip-build --filter RealClientReplayEndToEndTests 2>&1 \
    | grep -E 'replays matched|skipped|✘|Test run'
rm -rf "$runtime"
