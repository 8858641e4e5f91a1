#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind) of composited frames: Strata, the pixman floor
# and the painter's algorithm, 1/10/50 windows, full and 1 % damage. Repeatable on a loaded
# machine, unlike times. valgrind 3.19 cannot read Swift 6.3's DWARF, so a copy of the binary
# without debug info is profiled (symbols stay).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
FRAMES=${FRAMES:-10}
(cd "$HERE" && swift build -c release --product strata-bench >&2)
BIN=$(mktemp); trap 'rm -f "$BIN" "$BIN.out"' EXIT
objcopy --strip-debug "$HERE/.build/release/strata-bench" "$BIN"
count() {
    valgrind --tool=callgrind --callgrind-out-file="$BIN.out" --collect-atstart=no "$BIN" callgrind-target \
        --windows "$1" --damage "$2" --what "$3" --frames "$FRAMES" 2>&1 | awk '/Collected/ { print $4 }'
}
echo "| windows | damage | Strata instr/frame | floor instr/frame | Strata / floor | painter's instr/frame |"
echo "|---|---|---|---|---|---|"
for n in 1 10 50; do
    for d in full 1; do
        s=$(count "$n" "$d" strata); f=$(count "$n" "$d" floor); p=$(count "$n" "$d" painter)
        awk -v n="$n" -v d="$d" -v s="$s" -v f="$f" -v p="$p" -v fr="$FRAMES" 'BEGIN {
            printf "| %d | %s | %.0f | %.0f | %.2f | %.0f |\n", n, (d == "full" ? "full" : "1 %"), s / fr, f / fr, s / f, p / fr }'
    done
done
