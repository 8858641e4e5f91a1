#!/usr/bin/env bash
# Builds Strata (release) and runs it "nested" in your desktop session with a demo client:
# foot if installed, else weston-terminal, else weston-simple-shm.
#
#   ./run-nested.sh [strata options…] [-- client command…]
#
# Inside a Wayland session Strata's screen is an xdg_toplevel of your compositor; inside an X11
# session an X window (docs/nested.md). Without a session it runs headless for a few seconds
# and writes a screenshot instead (scripts/demo.sh), and says so.
set -euo pipefail
cd "$(dirname "$0")"

client=()
for argument in "$@"; do
  if [ "$argument" = "--" ]; then client=(given); break; fi
done
if [ ${#client[@]} -eq 0 ]; then
  for candidate in foot weston-terminal weston-simple-shm; do
    if command -v "$candidate" >/dev/null; then client=("$candidate"); break; fi
  done
  [ ${#client[@]} -gt 0 ] || client=(weston-simple-shm)  # demo.sh installs weston
  set -- "$@" -- "${client[@]}"
fi

if [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${DISPLAY:-}" ]; then
  echo "run-nested: no desktop session (neither WAYLAND_DISPLAY nor DISPLAY): running headless with a screenshot"
fi
exec scripts/demo.sh "$@"
