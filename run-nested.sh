#!/usr/bin/env bash
# Builds Strata (release) and runs it "nested" in your desktop session with a demo client:
# foot if installed, else weston-terminal, else weston-simple-shm.
#
#   ./run-nested.sh [strata options…] [-- client command…]
#
# Strata's nested backends (wayland, x11) are not available yet: until they land this runs
# Strata headless for a few seconds and writes a screenshot instead (scripts/demo.sh).
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

echo "run-nested: the nested backends are not available yet: running Strata headless with a screenshot"
exec scripts/demo.sh "$@"
