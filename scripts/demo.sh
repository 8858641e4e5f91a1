#!/usr/bin/env bash
# THE "build and run with a real client" command.
#
#   scripts/demo.sh [strata options…] [-- client command…]
#
# Installs the missing Debian packages (scripts/install-deps.sh --test), builds Strata in release
# mode, and runs the client (default: weston-simple-shm) under Strata; with STRATA_DEMO_BINARY
# set (run-nested.sh sets it to an installed or already built strata), runs that one and
# neither installs nor builds anything:
#
# - inside a desktop session (WAYLAND_DISPLAY or DISPLAY set), nested: Strata's screen is a
#   window of your desktop; it runs until you close that window or the client ends.
# - otherwise headless, for $STRATA_DEMO_SECONDS seconds (default 3); then Strata is stopped
#   with SIGTERM, which writes one PNG per screen into screenshots/ while the client is still
#   shown, and the PNGs' paths are printed.
set -euo pipefail
cd "$(dirname "$0")/.."

strata_args=()
client=(weston-simple-shm)
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; client=("$@"); break; fi
  strata_args+=("$1"); shift
done
[ ${#client[@]} -gt 0 ] || { echo "demo: no client command after --" >&2; exit 2; }
seconds=${STRATA_DEMO_SECONDS:-3}

if [ -n "${STRATA_DEMO_BINARY:-}" ]; then
  strata=$STRATA_DEMO_BINARY
else
  scripts/install-deps.sh --test
  echo "demo: building Strata (release)"
  swift build -c release --product strata
  strata=$(swift build -c release --show-bin-path)/strata
fi

if [ -n "${WAYLAND_DISPLAY:-}" ] || [ -n "${DISPLAY:-}" ]; then
  echo "demo: desktop session found: running '${client[*]}' in Strata nested in it; close Strata's window to end"
  exec "$strata" "${strata_args[@]}" -- "${client[@]}"
fi
echo "demo: no desktop session (neither WAYLAND_DISPLAY nor DISPLAY): running headless with a screenshot"

if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  XDG_RUNTIME_DIR=$(mktemp -d "${TMPDIR:-/tmp}/strata-runtime-XXXXXX")
  export XDG_RUNTIME_DIR
  trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
fi

shots=screenshots
mkdir -p "$shots"
rm -f "$shots"/*.png
echo "demo: running '${client[*]}' under Strata for ${seconds}s"
"$strata" --backend headless "${strata_args[@]}" --screenshot "$shots" -- "${client[@]}" &
pid=$!
deadline=$((SECONDS + seconds))
while [ $SECONDS -lt $deadline ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
early=0
if kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; else early=1; fi
status=0
wait "$pid" || status=$?

if [ "$early" = 1 ]; then
  echo "demo: '${client[*]}' ended before the screenshot (exit status $status); its messages are above."
fi
pngs=("$shots"/*.png)
if [ -e "${pngs[0]}" ]; then
  for png in "${pngs[@]}"; do echo "demo: screenshot: $(pwd)/$png"; done
else
  echo "demo: no screenshot was written" >&2
  [ "$status" != 0 ] || status=1
fi
exit "$status"
