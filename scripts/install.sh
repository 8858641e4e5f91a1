#!/usr/bin/env bash
# Builds Strata in release and installs it into a prefix: a relocatable install that runs
# without the Swift toolchain (the Swift standard library and FoundationEssentials are linked
# statically; what is left are Debian 12's own libraries, see the list printed at the end).
#
#   scripts/install.sh [--prefix DIR]      (default: /usr/local)
#
# Installs
#   DIR/bin/strata, DIR/bin/strata-ctl, DIR/bin/strata-run (xvfb-run's options, scripts/strata-run)
#   DIR/share/man/man1/strata.1, strata-ctl.1 and one page per strata-ctl subcommand
#   DIR/share/bash-completion/completions/{strata,strata-ctl}
#   DIR/share/zsh/site-functions/{_strata,_strata-ctl}
#   DIR/share/fish/vendor_completions.d/{strata,strata-ctl}.fish
# The man pages come from swift-argument-parser's generate-manual tool (a debug build of that
# tool alone), the completions from the binaries' own --generate-completion-script.
# At run time the binaries need only Debian 12 libraries: libwayland-server0, libpixman-1-0,
# libpng16-16, libxkbcommon0 (and xkb-data), libxcursor1, libxcb1, libxcb-shm0, libxcb-xfixes0,
# libxkbcommon-x11-0, libwayland-client0, libstdc++6 (the list is printed at the end).
#
# Cost: one release build of the two products, about 3 minutes from a clean checkout on two
# cores, plus a debug build of the generate-manual tool (under a minute); seconds when current.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=/usr/local
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) [ $# -ge 2 ] || { echo "install: --prefix needs a directory" >&2; exit 2; }; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install: unknown argument '$1' (usage: scripts/install.sh [--prefix DIR])" >&2; exit 2 ;;
  esac
done
[ -n "$prefix" ] || { echo "install: --prefix needs a directory" >&2; exit 2; }
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)

echo "install: building strata and strata-ctl (release: the Swift standard library linked in, Package.swift)"
swift build -c release --product strata
swift build -c release --product strata-ctl
bin=$(swift build -c release --show-bin-path)

echo "install: building generate-manual (swift-argument-parser's man page tool)"
swift build --product generate-manual >/dev/null
tool=$(swift build --show-bin-path)/generate-manual

install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 0755 "$bin/strata" "$bin/strata-ctl" scripts/strata-run "$prefix/bin/"

pages=$(mktemp -d)
trap 'rm -rf "$pages"' EXIT
for name in strata strata-ctl; do
  "$tool" "$prefix/bin/$name" --multi-page --output-directory "$pages" >/dev/null
  "$prefix/bin/$name" --generate-completion-script bash >"$prefix/share/bash-completion/completions/$name"
  "$prefix/bin/$name" --generate-completion-script zsh >"$prefix/share/zsh/site-functions/_$name"
  "$prefix/bin/$name" --generate-completion-script fish >"$prefix/share/fish/vendor_completions.d/$name.fish"
done
install -m 0644 "$pages"/*.1 "$prefix/share/man/man1/"

if ldd "$prefix/bin/strata" "$prefix/bin/strata-ctl" | grep -q '/opt/swift\|libswift\|libFoundation'; then
  echo "install: error: the installed binaries still need the Swift toolchain's libraries:" >&2
  ldd "$prefix/bin/strata" "$prefix/bin/strata-ctl" >&2
  exit 1
fi
echo "install: installed into $prefix:"
(cd "$prefix" && find bin share -type f \( -name 'strata*' -o -name '_strata*' \) | sort | sed 's/^/  /')
echo "install: the binaries need these libraries:"
ldd "$prefix/bin/strata" "$prefix/bin/strata-ctl" | awk '/=>/ { print $1 }' | sort -u | tr '\n' ' '
echo
# Not linked, opened at their first use (CDeferredLibraries): the nested backends and Xwayland's
# window manager need them then.
echo "install: and, for --backend wayland|x11 and X clients: libwayland-client.so.0 libxcb.so.1 libxcb-shm.so.0 libxcb-xkb.so.1 libxcb-xfixes.so.0 libxkbcommon-x11.so.0"
