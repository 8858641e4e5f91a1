#!/usr/bin/env python3
"""What a golden-screenshot check costs end to end (docs/performance.md, "Golden screenshots").

    bench/golden.py [--runs N] [--size WxH] [--bin DIR]

Starts a headless Strata (default 1920x1080, the release build in .build/release, else
.build/debug) showing a foot terminal full of text over two strata-color-client windows and a
screen-sized colour window, writes baselines with `compare-screenshot update` (Strata's PNGs:
unfiltered, zlib level 3), then times N runs (default 20) of each way to check a picture against
its baseline, and prints the median and the slowest in milliseconds:

- `compare-screenshot` of the screen through an open control connection (what python's
  `assert_screenshot` sends), and Strata's own split of it (capture, decode, compare);
- the same with masks and a threshold; of a 1920x1080 window's own image; a failing one (the
  actual picture and the diff written);
- python's `assert_screenshot` (passing);
- `strata-ctl compare-screenshot` (a process per check), and `strata-ctl sync` for its start;
- the way before it: `strata-ctl screenshot` then `strata-ctl compare` (an encode and two decodes),
  and `strata-ctl compare` of a baseline written by libpng's defaults (adaptive filters, level 6).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, os.path.join(ROOT, "python", "src"))

from strata_testing import Strata  # noqa: E402


def timed(runs, body):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        body()
        times.append((time.perf_counter() - start) * 1000)
    return times


def line(label, times):
    print(f"{label:<58} median {statistics.median(times):6.1f} ms, slowest {max(times):6.1f} ms ({len(times)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--bin", default=None)
    options = parser.parse_args()
    build = options.bin or next((os.path.join(ROOT, ".build", kind) for kind in ("release", "debug")
                                 if os.path.exists(os.path.join(ROOT, ".build", kind, "strata"))), None)
    if build is None:
        sys.exit("golden: build strata first (swift build -c release)")
    ctl = os.path.join(build, "strata-ctl")
    color_client = shutil.which("strata-color-client", path=os.path.join(ROOT, ".build", "debug")) \
        or shutil.which("strata-color-client", path=build) or shutil.which("strata-color-client")
    width, height = (int(part) for part in options.size.split("x"))
    work = tempfile.mkdtemp(prefix="strata-bench-golden-")
    try:
        with Strata(binary=os.path.join(build, "strata"), size=options.size, record=False) as strata:
            strata.exec([color_client, "--app-id", "bench.full", "--color", "203040", "--size", f"{width}x{height}",
                         "--seconds", "600"])
            strata.wait_for_window("bench.full")
            strata.move("bench.full", 1, 0, 0)
            for app_id, colour, inner, x, y in (("bench.a", "3080c0", "c08030", 40, 40),
                                                ("bench.b", "c03080", "30c080", 700, 300)):
                strata.exec([color_client, "--app-id", app_id, "--color", colour, "--inner", inner,
                             "--size", "480x320", "--seconds", "600"])
                strata.wait_for_window(app_id)
                strata.move(app_id, 1, x, y)
            if shutil.which("foot"):
                strata.exec(["foot", "--app-id", "bench.foot", "sh", "-c",
                             "cat /usr/share/common-licenses/GPL-3 2>/dev/null || seq 1 5000; exec sleep 600"])
                strata.wait_for_window("bench.foot")
                strata.move("bench.foot", 1, 200, 100)
            strata.settle(frames=5)
            screen, window = os.path.join(work, "screen.png"), os.path.join(work, "window.png")
            strata.command("compare-screenshot", baseline=screen, update=True)
            strata.command("compare-screenshot", baseline=window, window="bench.full", update=True)
            print(f"golden: {width}x{height} screen of text and colour windows; baseline {os.path.getsize(screen) / 1024:.0f} KiB "
                  f"(Strata's PNG), build {build}")

            replies = []
            line("compare-screenshot, screen (open connection)",
                 timed(options.runs, lambda: replies.append(strata.command("compare-screenshot", baseline=screen))))
            assert all(reply["match"] for reply in replies)
            for part in ("capture_ms", "decode_ms", "compare_ms", "total_ms", "cpu_ms"):
                print(f"  inside Strata: {part:<42} median {statistics.median(r[part] for r in replies):6.1f} ms")
            strata.baselines = work
            line("python strata.assert_screenshot('screen') (passing)",
                 timed(options.runs, lambda: strata.assert_screenshot("screen")))
            line("  with 2 masks (a window, a rectangle) and threshold 8",
                 timed(options.runs, lambda: strata.command("compare-screenshot", baseline=screen, threshold=8,
                                                            masks=["0,0,200x30"], mask_windows=["bench.a"])))
            line("compare-screenshot, a 1920x1080 window's own image",
                 timed(options.runs, lambda: strata.command("compare-screenshot", baseline=window, window="bench.full")))
            strata.move("bench.b", 1, 720, 320)
            strata.settle()
            actual, diff = os.path.join(work, "actual.png"), os.path.join(work, "diff.png")
            line("compare-screenshot failing (actual.png and diff.png written)",
                 timed(options.runs, lambda: strata.command("compare-screenshot", baseline=screen, actual=actual, diff=diff)))
            strata.move("bench.b", 1, 700, 300)
            strata.settle()
            environment = dict(os.environ, STRATA_SOCKET=strata.control_socket)

            def run(*arguments):
                status = subprocess.run([ctl, *arguments], env=environment, stdout=subprocess.DEVNULL).returncode
                assert status in (0, 1), arguments

            line("strata-ctl compare-screenshot (a process per check)",
                 timed(options.runs, lambda: run("compare-screenshot", screen)))
            line("  for scale: strata-ctl sync (process start, one round trip)", timed(options.runs, lambda: run("sync")))
            current = os.path.join(work, "current.png")
            line("before: strata-ctl screenshot + strata-ctl compare",
                 timed(options.runs, lambda: (run("screenshot", "-o", current), run("compare", screen, current))))
            default = os.path.join(work, "default.png")
            try:
                from PIL import Image
                Image.open(screen).save(default, optimize=False, compress_level=6)
            except ImportError:
                default = None
            if default:
                line("  strata-ctl compare of two PNGs at Pillow's level 6",
                     timed(options.runs, lambda: run("compare", default, default)))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
