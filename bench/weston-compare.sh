#!/usr/bin/env bash
# Strata and Debian's Weston side by side, on the same real clients, in one run.
#
#   bench/weston-compare.sh [seconds]      (default 10 s of measurement per run)
#   COUNTS="1" bench/weston-compare.sh 20  (only some of the client counts)
#   REPEAT=5 bench/weston-compare.sh 10    (Weston then Strata, five times per client count, and
#                                           the median of the five ratios: this VM's CPU time per
#                                           frame drifts by ±30 % between runs minutes apart)
#
# For 1, 4 and 16 `weston-simple-shm` clients (250×250 XRGB, full damage every frame, paced by
# frame callbacks) it starts each compositor headless at 1920×1080 with the pixman renderer
# (Weston: --backend=headless-backend.so --use-pixman; Strata always uses pixman), lets the
# clients run 2 s, then measures for the same time:
#   - the compositor's CPU time: utime + stime from /proc/PID/stat, before and after;
#   - composited frames: the frame callbacks the first client receives (its WAYLAND_DEBUG log,
#     `wl_callback@N.done`). Each client redraws on every callback and both compositors send
#     callbacks once per output repaint, so one client's callbacks count the repaints that
#     composited the clients' damage; the same count for both compositors. Strata's own count
#     (STRATA_STATS=1: frames painted on the screen, whole run) is printed as a cross-check.
# and prints CPU time per composited frame and the ratio Strata / Weston.
#
# Needs: weston, weston-simple-shm (Debian: weston), and Strata built in release
# (`swift build -c release --product strata` in bench/, done here when missing).
set -euo pipefail
DURATION=${1:-10}
REPEAT=${REPEAT:-1}
WARMUP=2
HERE=$(cd "$(dirname "$0")" && pwd)
STRATA=${STRATA:-$HERE/.build/release/strata}
if [ ! -x "$STRATA" ]; then (cd "$HERE" && swift build -c release --product strata >&2); fi
command -v weston >/dev/null && command -v weston-simple-shm >/dev/null || { echo "needs weston and weston-simple-shm (apt-get install weston)" >&2; exit 1; }

WORK=$(mktemp -d)
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$WORK/runtime}
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
TICKS=$(getconf CLK_TCK)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

cpu_ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
callbacks() { grep -c 'wl_callback@[0-9]*\.done' "$1" || true; }

# run NAME CLIENTS → prints "cpu_ms frames"
run() {
    local name=$1 clients=$2 socket="perf-$1-$2-$$" pid
    case $name in
    weston)
        weston --backend=headless-backend.so --use-pixman --width=1920 --height=1080 --socket="$socket" \
            --idle-time=0 --log="$WORK/weston.log" &
        pid=$! ;;
    strata)
        STRATA_STATS=1 "$STRATA" --size 1920x1080 --no-control --socket "$socket" >/dev/null 2>"$WORK/strata.log" &
        pid=$! ;;
    esac
    PIDS+=("$pid")
    for _ in $(seq 100); do [ -S "$XDG_RUNTIME_DIR/$socket" ] && break; sleep 0.05; done
    sleep 0.5
    local clientPids=()
    WAYLAND_DISPLAY=$socket WAYLAND_DEBUG=1 weston-simple-shm 2>"$WORK/client.log" >/dev/null &
    clientPids+=($!)
    for _ in $(seq 2 "$clients"); do
        WAYLAND_DISPLAY=$socket weston-simple-shm >/dev/null 2>&1 &
        clientPids+=($!)
    done
    PIDS+=("${clientPids[@]}")
    sleep "$WARMUP"
    local f0 t0 f1 t1
    f0=$(callbacks "$WORK/client.log"); t0=$(cpu_ticks "$pid")
    sleep "$DURATION"
    f1=$(callbacks "$WORK/client.log"); t1=$(cpu_ticks "$pid")
    kill "${clientPids[@]}" 2>/dev/null || true
    kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
    wait "${clientPids[@]}" 2>/dev/null || true
    echo "$(( (t1 - t0) * 1000 / TICKS )) $(( f1 - f0 ))"
}

echo "# Weston $(weston --version 2>&1 | awk '{print $2}') (headless, pixman) vs Strata, 1920x1080, ${DURATION} s per run, $(nproc) cores"
echo
echo "| clients | Weston CPU ms | Weston frames | Weston µs/frame | Strata CPU ms | Strata frames | Strata µs/frame | Strata / Weston |"
echo "|---|---|---|---|---|---|---|---|"
RATIOS="$WORK/ratios"
for n in ${COUNTS:-1 4 16}; do
    for _ in $(seq "$REPEAT"); do
        read -r wcpu wframes < <(run weston "$n")
        read -r scpu sframes < <(run strata "$n")
        stats=$(grep 'strata: stats' "$WORK/strata.log" | sed 's/^strata: stats: //' || true)
        awk -v n="$n" -v wc="$wcpu" -v wf="$wframes" -v sc="$scpu" -v sf="$sframes" -v out="$RATIOS" 'BEGIN {
            wp = wf > 0 ? wc * 1000 / wf : 0; sp = sf > 0 ? sc * 1000 / sf : 0
            printf "| %d | %d | %d | %.0f | %d | %d | %.0f | %s |\n", n, wc, wf, wp, sc, sf, sp, (wp > 0 ? sprintf("%.2f", sp / wp) : "n/a")
            if (wp > 0) printf "%d %.4f\n", n, sp / wp >> out }'
        echo "  (Strata's own count, whole run: $stats)" >&2
    done
done
echo
if [ "$REPEAT" -gt 1 ] && [ -s "$RATIOS" ]; then
    echo "Median Strata / Weston over $REPEAT paired runs:"
    for n in ${COUNTS:-1 4 16}; do
        awk -v n="$n" '$1 == n { print $2 }' "$RATIOS" | sort -n | awk -v n="$n" '{ v[NR] = $1 }
            END { if (NR) printf "  %d client(s): %.2f (runs: %.2f … %.2f)\n", n, (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR] }'
    done
    echo
fi
echo "CPU: utime+stime from /proc/PID/stat (1/$TICKS s ticks); frames: frame callbacks of the first client."
