#!/usr/bin/env bash
# The relocatable install, end to end: scripts/install.sh into a fresh temporary prefix, then the
# installed binaries run from a clean directory with an empty environment (`env -i`), a PATH of
# the prefix and /usr/bin:/bin only, and no LD_LIBRARY_PATH; when this user may make a mount
# namespace (root in CI), /opt/swift is also hidden behind an empty folder for that run.
#
#   scripts/install-test.sh
#
# Checks: no installed binary needs a library from the toolchain (ldd) or has Foundation
# linked in (nm); `strata --help` and
# `strata-ctl --help` run; `strata --backend headless -- wayland-info` starts, answers the client
# (wayland-info lists wl_compositor and xdg_wm_base) and exits 0; `strata-ctl` started by that
# strata lists the screens over the control socket; `strata-run` runs a command under a
# 640x480 screen and passes its status through; the man pages and completions exist.
# Exits non-zero on the first failure.
#
# Cost: one release build (scripts/install.sh: about 3 minutes on two cores from a clean
# checkout; 8 s in all when .build/release is current).
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "install-test: FAIL: $*" >&2; exit 1; }
command -v wayland-info >/dev/null || fail "needs wayland-info (apt-get install wayland-utils)"

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-install-test-XXXXXX")
trap 'rm -rf "$work"' EXIT
scripts/install.sh --prefix "$work/prefix"
prefix=$work/prefix

for f in bin/strata bin/strata-ctl bin/strata-run share/man/man1/strata.1 share/man/man1/strata-ctl.1 \
         share/bash-completion/completions/strata share/bash-completion/completions/strata-ctl \
         share/zsh/site-functions/_strata-ctl share/fish/vendor_completions.d/strata-ctl.fish; do
  [ -s "$prefix/$f" ] || fail "$f was not installed"
done
if ldd "$prefix/bin/strata" "$prefix/bin/strata-ctl" | grep -E '/opt/swift|libswift|libFoundation|not found'; then
  fail "an installed binary needs a library the install does not provide"
fi
# Foundation proper (and its ICU data) linked in statically would show as symbols of the module
# `Foundation` (mangled `10Foundation`): code that uses it again (FileHandle, String(format:),
# NSString…; an `import Foundation` alone links nothing more than FoundationEssentials) slows
# every start (docs/performance.md, "Start-up").
for name in strata strata-ctl; do
  count=$(nm "$prefix/bin/$name" 2>/dev/null | grep -c 's10Foundation' || true)
  [ "$count" = 0 ] || fail "$name links Foundation ($count symbols): a module of it uses Foundation, not FoundationEssentials"
done

mkdir -m 0700 "$work/runtime" && mkdir "$work/home" "$work/clean" "$work/empty"
# run COMMAND...: in the clean folder, with nothing of this shell's environment.
run() {
  (cd "$work/clean" && env -i PATH="$prefix/bin:/usr/bin:/bin" HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" "$@")
}
hide_toolchain=()
if [ -d /opt/swift ] && unshare -m true 2>/dev/null; then
  hide_toolchain=(unshare -m sh -c 'mount --bind "$0" /opt/swift && exec "$@"' "$work/empty")
  echo "install-test: /opt/swift hidden for the runs"
fi

out=$(run "${hide_toolchain[@]}" strata --help 2>&1) || fail "strata --help exited non-zero: $out"
grep -q 'USAGE: strata' <<<"$out" || fail "strata --help printed no usage: $out"
out=$(run "${hide_toolchain[@]}" strata-ctl --help 2>&1) || fail "strata-ctl --help exited non-zero: $out"
grep -q 'USAGE: strata-ctl' <<<"$out" || fail "strata-ctl --help printed no usage: $out"
out=$(run "${hide_toolchain[@]}" timeout 20 strata --backend headless -- wayland-info 2>&1) \
  || fail "strata -- wayland-info exited non-zero: $out"
grep -q "interface: 'wl_compositor'" <<<"$out" || fail "wayland-info got no wl_compositor: $out"
grep -q "interface: 'xdg_wm_base'" <<<"$out" || fail "wayland-info got no xdg_wm_base: $out"
out=$(run "${hide_toolchain[@]}" timeout 20 strata --backend headless -- strata-ctl screens 2>&1) \
  || fail "strata -- strata-ctl screens exited non-zero: $out"
# strata-run finds the strata beside it, and passes the command's status through.
set +e
out=$(run "${hide_toolchain[@]}" timeout 20 strata-run -s '-screen 0 640x480x24' sh -c 'strata-ctl screens; exit 3' 2>&1)
status=$?
set -e
[ "$status" = 3 ] || fail "strata-run exited $status, not the command's 3: $out"
grep -q '640x480' <<<"$out" || fail "strata-run's screen is not 640x480: $out"
echo "install-test: ok (installed binaries ran from $work/clean with env -i)"
