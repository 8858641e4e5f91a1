#!/usr/bin/env bash
# Installs the Debian 12 packages Strata needs, only those missing.
#
#   scripts/install-deps.sh [--build|--test|--demo]
#
#   --build  what `swift build` needs: libwayland, pixman, xkbcommon, libpng, wayland-scanner,
#            pkg-config, xcb and xkbcommon-x11 (the X11 backend), the WLCS headers (the
#            integration library includes them), libatspi (strata-ctl's accessibility
#            locators), and git to fetch swift-argument-parser
#   --test   --build plus the real clients the end-to-end tests run: weston's demo clients
#            (weston-simple-shm …), wayland-info, foot (and a font), gtk3-demo, gtk4-demo and
#            gtk-layer-demo (with dbus-run-session), Xvfb (the X11 backend's tests), grim, wlr-randr, wtype and
#            wayvnc (the standard tool protocols), wl-clipboard (data control), swayidle (idle
#            notifications) and swaylock (the session lock), an Xcursor theme (Adwaita), the WLCS
#            runner (the default), python3 with pytest and Pillow (python/'s tests), chromium
#            (headless: the trace report's test), ffmpeg (record-video's encoder; ffprobe checks its
#            videos), zenity (a GTK entry for the typing tests), and Xwayland with xterm, x11-apps,
#            x11-utils, xclip and xdotool (the X11 clients' tests, docs/xwayland.md),
#            at-spi2-core (the accessibility bus of --accessibility, docs/accessibility.md), and
#            firefox-esr (a page's link clicked by name, on Wayland and under Xwayland)
#   --demo   --test (foot is the terminal scripts/demo.sh and run-nested.sh prefer)
#
# Swift itself is not installed here (see swift.org/install). Runs `apt-get update` only when
# something is missing. Not root: prints the exact command to run and exits 1.
set -euo pipefail

build=(libwayland-dev libwayland-bin wayland-protocols libpixman-1-dev libxkbcommon-dev xkb-data
       libpng-dev pkg-config git ca-certificates wlcs libxcb1-dev libxcb-shm0-dev libxcb-xfixes0-dev libxcb-xkb-dev libxkbcommon-x11-dev
       libxcursor-dev libatspi2.0-dev)
test=(weston wayland-utils foot fonts-dejavu-core gtk-3-examples gtk-layer-shell-examples dbus xvfb
      grim wlr-randr wtype wayvnc wl-clipboard swayidle swaylock adwaita-icon-theme gtk-4-examples python3 python3-pytest python3-pil chromium ffmpeg
      xwayland xterm x11-apps x11-utils xclip zenity xdotool wmctrl at-spi2-core firefox-esr
      qtbase5-examples qtwayland5 designer-qt6 qt6-wayland)
demo=()

case "${1:---test}" in
  --build) wanted=("${build[@]}") ;;
  --test) wanted=("${build[@]}" "${test[@]}") ;;
  --demo) wanted=("${build[@]}" "${test[@]}" "${demo[@]}") ;;
  -h|--help) sed -n '2,/^# Swift itself/p' "$0" | sed '$d' | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "usage: $0 [--build|--test|--demo]" >&2; exit 2 ;;
esac

missing=()
for package in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#wanted[@]} packages are installed"
  exit 0
fi

command="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run as root:  apt-get update && $command" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
