#!/usr/bin/env bash
# Two builds of strata compared on one weston-simple-shm: which costs less CPU a frame.
#
#   bench/ab-compare.sh OLD-STRATA NEW-STRATA [pairs] [seconds]    (default 8 pairs of 5 s)
#
# Each build runs alone (one compositor, one client, nothing else of ours), one after the other,
# alternating A B, B A, A B … so that each pair is measured within about 15 s of the host's time;
# a pair's NEW/OLD ratio is printed, then the median of the pairs. A ratio below 1 means NEW
# costs less.
#
# Why not both at once, as bench/weston-compare.sh runs Strata and Weston: two compositors with
# 60 Hz clocks run at a phase to each other that a run picks at random and keeps, and which one
# finds its caches cold after the other depends on it; on this 2-core VM that moved one build's
# ratio by ±15 % from run to run, more than the changes being measured. Runs minutes apart drift
# by ±30 % (the host's load); runs seconds apart, alternated, spread by about ±5 %.
#
# CPU: the compositor's threads' run time (/proc/PID/task/*/schedstat); frames: the client's
# frame callbacks (its WAYLAND_DEBUG log), after 1.5 s of warm-up.
set -euo pipefail
OLD=${1:?usage: ab-compare.sh OLD-STRATA NEW-STRATA [pairs] [seconds]}
NEW=${2:?usage: ab-compare.sh OLD-STRATA NEW-STRATA [pairs] [seconds]}
PAIRS=${3:-8}
SECONDS_EACH=${4:-5}
for binary in "$OLD" "$NEW"; do [ -x "$binary" ] || { echo "ab-compare: $binary is not an executable" >&2; exit 2; }; done
command -v weston-simple-shm >/dev/null || { echo "ab-compare: needs weston-simple-shm (apt-get install weston)" >&2; exit 1; }

# shellcheck source=scratch.sh
source "$(dirname "$0")/scratch.sh"

cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ t += $1 } END { printf "%d", t }'; }
frames() { grep -c 'wl_callback@[0-9]*\.done' "$1" || true; }

# µs of CPU per frame of one run of $1.
run() {
    local socket=ab-$RANDOM log=$WORK/client.log
    "$1" --size 1920x1080 --no-control --socket "$socket" >/dev/null 2>&1 &
    local server=$!
    PIDS=("$server")
    for _ in $(seq 100); do [ -S "$WORK/$socket" ] && break; sleep 0.05; done
    WAYLAND_DISPLAY=$socket WAYLAND_DEBUG=1 weston-simple-shm 2>"$log" >/dev/null &
    local client=$!
    PIDS+=("$client")
    sleep 1.5
    local t0 f0 t1 f1
    t0=$(cpu_ns "$server"); f0=$(frames "$log")
    sleep "$SECONDS_EACH"
    t1=$(cpu_ns "$server"); f1=$(frames "$log")
    kill "$client" "$server" 2>/dev/null || true
    wait "$client" "$server" 2>/dev/null || true
    PIDS=()
    awk -v t=$((t1 - t0)) -v f=$((f1 - f0)) 'BEGIN { if (f > 0) printf "%.1f", t / 1000 / f; else print "nan" }'
}

echo "| pair | old µs/frame | new µs/frame | new / old |"
echo "|---|---|---|---|"
ratios=()
for pair in $(seq "$PAIRS"); do
    if [ $((pair % 2)) = 1 ]; then a=$(run "$OLD"); b=$(run "$NEW"); else b=$(run "$NEW"); a=$(run "$OLD"); fi
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
    ratios+=("$ratio")
    echo "| $pair | $a | $b | $ratio |"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "\nnew / old, median of %d pairs: %.3f (%s … %s)\n", NR, m, v[1], v[NR] }'
