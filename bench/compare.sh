#!/usr/bin/env bash
# What `strata-ctl compare` costs on two 1920x1080 pictures (docs/performance.md, "Comparing
# pictures"): the whole command, process start, both PNG decodes, the comparison and (with -o)
# the diff picture, timed ROUNDS times, and the split (`--json` gives decode_ms and compare_ms) (default 20); prints the median and the slowest in ms.
# The pictures are made here: a desktop-like picture (gradient background, flat windows, a noisy
# one) and the same with a 300x200 rectangle changed. Release build.
set -euo pipefail
ROUNDS=${ROUNDS:-20}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BIN=${BIN:-$ROOT/.build/release}
[ -x "$BIN/strata-ctl" ] || (cd "$ROOT" && swift build -c release --product strata-ctl >&2)
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
python3 - "$WORK" <<'PY'
import random, struct, sys, zlib
def png(path, w, h, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    raw = b"".join(b"\0" + row for row in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))
W, H = 1920, 1080
random.seed(1)
noise = bytes(random.getrandbits(8) for _ in range(600 * 3))
def rows(changed):
    for y in range(H):
        g = y * 255 // H
        row = bytearray(bytes((20, g // 2, 40 + g // 3)) * W)
        if 100 <= y < 700: row[200 * 3:1000 * 3] = bytes((230, 230, 230)) * 800
        if 300 <= y < 900: row[1100 * 3:1700 * 3] = noise[(y % 7) * 3:] + noise[:(y % 7) * 3]
        if changed and 400 <= y < 600: row[500 * 3:800 * 3] = bytes((200, 40, 40)) * 300
        yield bytes(row)
png(sys.argv[1] + "/a.png", W, H, rows(False))
png(sys.argv[1] + "/b.png", W, H, rows(True))
PY
run() {
    local times=()
    for _ in $(seq 1 "$ROUNDS"); do
        local start end
        start=$(date +%s%N)
        "$BIN/strata-ctl" compare "$WORK/a.png" "$WORK/b.png" "$@" >/dev/null || [ $? -eq 1 ]
        end=$(date +%s%N)
        times+=($(( (end - start) / 1000 )))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk -v label="$*" '{ t[NR] = $1 } END {
        printf "compare 1920x1080 %-22s median %.1f ms, slowest %.1f ms (%d runs)\n", label, t[int((NR + 1) / 2)] / 1000, t[NR] / 1000, NR }'
}
# The split, from --json: decoding both PNGs, and the comparison itself.
for _ in $(seq 1 "$ROUNDS"); do "$BIN/strata-ctl" compare "$WORK/a.png" "$WORK/b.png" --json || true; done \
    | sed -E 's/.*"decode_ms":([0-9.]+),"compare_ms":([0-9.]+).*/\1 \2/' | sort -n -k2 \
    | awk '{ d[NR] = $1; c[NR] = $2 } END { printf "comparison alone: median %.1f ms; decoding both PNGs: about %.0f ms\n", c[int((NR + 1) / 2)], d[int((NR + 1) / 2)] }'
run
run --threshold 8 --mask 0,0,100x100
run -o "$WORK/diff.png"
