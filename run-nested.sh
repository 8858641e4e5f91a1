#!/usr/bin/env bash
# Runs Strata "nested" in your desktop session with a demo client: foot if installed, else
# weston-terminal, else weston-simple-shm.
#
#   ./run-nested.sh [--build] [strata options…] [-- client command…]
#
# The Strata it runs is the `strata` on PATH, else this checkout's .build/release/strata; only
# when there is neither (or with --build) does it install the missing packages and build one in
# release mode (scripts/demo.sh). It says which one it runs.
#
# Inside a Wayland session Strata's screen is an xdg_toplevel of your compositor; inside an X11
# session an X window (docs/nested.md). Without a session it runs headless for a few seconds
# and writes a screenshot instead (scripts/demo.sh), and says so.
set -euo pipefail
cd "$(dirname "$0")"

build=0
arguments=()
client=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then client=(given); arguments+=("$@"); break; fi
  if [ "$1" = "--build" ]; then build=1; else arguments+=("$1"); fi
  shift
done
set -- ${arguments[@]+"${arguments[@]}"}

if [ "$build" = 0 ] && [ -z "${STRATA_DEMO_BINARY:-}" ]; then
  if found=$(command -v strata); then
    STRATA_DEMO_BINARY=$found
  elif [ -x .build/release/strata ]; then
    STRATA_DEMO_BINARY=$(pwd)/.build/release/strata
  fi
fi
if [ "$build" = 1 ]; then
  unset STRATA_DEMO_BINARY
elif [ -n "${STRATA_DEMO_BINARY:-}" ]; then
  export STRATA_DEMO_BINARY
  echo "run-nested: running $STRATA_DEMO_BINARY (./run-nested.sh --build builds this checkout instead)"
else
  echo "run-nested: no strata on PATH or in .build/release: installing what is missing and building one"
fi

if [ ${#client[@]} -eq 0 ]; then
  for candidate in foot weston-terminal weston-simple-shm; do
    if command -v "$candidate" >/dev/null; then client=("$candidate"); break; fi
  done
  if [ ${#client[@]} -eq 0 ]; then
    if [ -n "${STRATA_DEMO_BINARY:-}" ]; then
      echo "run-nested: no foot, weston-terminal or weston-simple-shm: name a client after --, or install foot" >&2
      exit 2
    fi
    client=(weston-simple-shm)  # demo.sh installs weston before it builds
  fi
  set -- "$@" -- "${client[@]}"
fi

if [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${DISPLAY:-}" ]; then
  echo "run-nested: no desktop session (neither WAYLAND_DISPLAY nor DISPLAY): running headless with a screenshot"
fi
exec scripts/demo.sh "$@"
