#!/usr/bin/env bash
# Strata and Debian's Weston side by side, on the same real clients, in one run.
#
#   bench/weston-compare.sh [seconds]      (default 10 s of measurement per run)
#   COUNTS="1" bench/weston-compare.sh 20  (only some of the client counts)
#   REPEAT=7 bench/weston-compare.sh 10    (seven runs per client count, and the median ratio)
#   MODE=sequential bench/weston-compare.sh (Weston's run, then Strata's)
#
# For 1, 4 and 16 `weston-simple-shm` clients (250×250 XRGB, full damage every frame, paced by
# frame callbacks) it starts each compositor headless at 1920×1080 with the pixman renderer
# (Weston: --backend=headless-backend.so --use-pixman; Strata always uses pixman), lets the
# clients run 2 s, then measures for the same time:
#   - the compositor's CPU time: the run time the kernel counts for its threads
#     (/proc/PID/task/*/schedstat, in nanoseconds), before and after;
#   - composited frames: the frame callbacks the first client receives (its WAYLAND_DEBUG log,
#     `wl_callback@N.done`). Each client redraws on every callback and both compositors send
#     callbacks once per output repaint, so one client's callbacks count the repaints that
#     composited the clients' damage; the same count for both compositors. Strata's own count
#     (STRATA_STATS=1: frames painted on the screen, whole run) is printed as a cross-check.
# and prints CPU time per composited frame and the ratio Strata / Weston.
#
# MODE=concurrent (the default) runs the two compositors, each with its own clients, at the
# same time, so both are measured over the same seconds: a virtual machine's CPU time per frame
# drifts by ±30 % between runs minutes apart (its host's load), which a run of one and then the
# other turns into noise in the ratio; run together, both see the same host. Each repeat swaps
# which compositor starts first. MODE=sequential measures one after the other, alone.
#
# Needs: weston, weston-simple-shm (Debian: weston), and Strata built in release
# (`swift build -c release --product strata` in bench/, done here when missing).
set -euo pipefail
DURATION=${1:-10}
REPEAT=${REPEAT:-1}
MODE=${MODE:-concurrent}
WARMUP=2
HERE=$(cd "$(dirname "$0")" && pwd)
STRATA=${STRATA:-$HERE/.build/release/strata}
case $MODE in concurrent|sequential) ;; *) echo "MODE must be concurrent or sequential, not '$MODE'" >&2; exit 2 ;; esac
if [ ! -x "$STRATA" ]; then (cd "$HERE" && swift build -c release --product strata >&2); fi
command -v weston >/dev/null && command -v weston-simple-shm >/dev/null || { echo "needs weston and weston-simple-shm (apt-get install weston)" >&2; exit 1; }

WORK=$(mktemp -d)
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$WORK/runtime}
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

# The CPU time of a process's threads so far, in nanoseconds.
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ t += $1 } END { printf "%d", t }'; }
callbacks() { grep -c 'wl_callback@[0-9]*\.done' "$1" || true; }

# start NAME SOCKET → the compositor's pid in $STARTED
start() {
    case $1 in
    weston)
        weston --backend=headless-backend.so --use-pixman --width=1920 --height=1080 --socket="$2" \
            --idle-time=0 --log="$WORK/weston.log" &
        STARTED=$! ;;
    strata)
        STRATA_STATS=1 "$STRATA" --size 1920x1080 --no-control --socket "$2" >/dev/null 2>"$WORK/strata.log" &
        STARTED=$! ;;
    esac
    PIDS+=("$STARTED")
    for _ in $(seq 100); do [ -S "$XDG_RUNTIME_DIR/$2" ] && break; sleep 0.05; done
}

# clients SOCKET COUNT LOG: the first client logs its protocol to LOG
clients() {
    WAYLAND_DISPLAY=$1 WAYLAND_DEBUG=1 weston-simple-shm 2>"$3" >/dev/null &
    CLIENTS+=($!)
    for _ in $(seq 2 "$2"); do
        WAYLAND_DISPLAY=$1 weston-simple-shm >/dev/null 2>&1 &
        CLIENTS+=($!)
    done
}

# measure CLIENTS NAME... → "cpu_ns frames" per compositor, in the order given, on one line
measure() {
    local n=$1; shift
    local names=("$@") pids=() logs=() k
    CLIENTS=()
    for k in "${!names[@]}"; do start "${names[$k]}" "perf-${names[$k]}-$n-$$"; pids+=("$STARTED"); done
    sleep 0.5
    for k in "${!names[@]}"; do logs+=("$WORK/client-${names[$k]}.log"); clients "perf-${names[$k]}-$n-$$" "$n" "${logs[$k]}"; done
    PIDS+=("${CLIENTS[@]}")
    sleep "$WARMUP"
    local f0=() t0=() out=""
    for k in "${!names[@]}"; do f0+=("$(callbacks "${logs[$k]}")"); t0+=("$(cpu_ns "${pids[$k]}")"); done
    sleep "$DURATION"
    for k in "${!names[@]}"; do
        out="$out $(( $(cpu_ns "${pids[$k]}") - t0[k] )) $(( $(callbacks "${logs[$k]}") - f0[k] ))"
    done
    kill "${CLIENTS[@]}" 2>/dev/null || true
    for k in "${!names[@]}"; do kill -TERM "${pids[$k]}" 2>/dev/null || true; wait "${pids[$k]}" 2>/dev/null || true; done
    wait "${CLIENTS[@]}" 2>/dev/null || true
    echo "$out"
}

echo "# Weston $(weston --version 2>&1 | awk '{print $2}') (headless, pixman) vs Strata, 1920x1080, ${DURATION} s per run, $MODE, $(nproc) cores"
echo
echo "| clients | Weston CPU ms | Weston frames | Weston µs/frame | Strata CPU ms | Strata frames | Strata µs/frame | Strata / Weston |"
echo "|---|---|---|---|---|---|---|---|"
RATIOS="$WORK/ratios"
for n in ${COUNTS:-1 4 16}; do
    for r in $(seq "$REPEAT"); do
        if [ "$MODE" = sequential ]; then
            read -r wcpu wframes < <(measure "$n" weston)
            read -r scpu sframes < <(measure "$n" strata)
        elif [ $((r % 2)) = 1 ]; then
            read -r wcpu wframes scpu sframes < <(measure "$n" weston strata)
        else
            read -r scpu sframes wcpu wframes < <(measure "$n" strata weston)
        fi
        stats=$(grep 'strata: stats' "$WORK/strata.log" | sed 's/^strata: stats: //' || true)
        awk -v n="$n" -v wc="$wcpu" -v wf="$wframes" -v sc="$scpu" -v sf="$sframes" -v out="$RATIOS" 'BEGIN {
            wp = wf > 0 ? wc / 1000 / wf : 0; sp = sf > 0 ? sc / 1000 / sf : 0
            printf "| %d | %.0f | %d | %.0f | %.0f | %d | %.0f | %s |\n", n, wc / 1e6, wf, wp, sc / 1e6, sf, sp, (wp > 0 ? sprintf("%.2f", sp / wp) : "n/a")
            if (wp > 0) printf "%d %.4f\n", n, sp / wp >> out }'
        echo "  (Strata's own count, whole run: $stats)" >&2
    done
done
echo
if [ "$REPEAT" -gt 1 ] && [ -s "$RATIOS" ]; then
    echo "Median Strata / Weston over $REPEAT runs:"
    for n in ${COUNTS:-1 4 16}; do
        awk -v n="$n" '$1 == n { print $2 }' "$RATIOS" | sort -n | awk -v n="$n" '{ v[NR] = $1 }
            END { if (NR) printf "  %d client(s): %.2f (runs: %.2f … %.2f)\n", n, (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR] }'
    done
    echo
fi
echo "CPU: the compositor's threads' run time (/proc/PID/task/*/schedstat); frames: frame callbacks of the first client."
