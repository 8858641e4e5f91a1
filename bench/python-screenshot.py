#!/usr/bin/env python3
"""What decoding one screenshot costs the python package (strata_testing.read_png).

    bench/python-screenshot.py [--runs N] [--size WxH] [--strata PATH] [--png FILE]

Takes a screenshot of a headless Strata (default 1280x720, .build/debug/strata of this checkout,
else `strata` on PATH) showing a foot terminal full of text over two strata-color-client windows
(the colour clients alone when foot is missing), then decodes that PNG N times (default 20) with
the package's `read_png` and prints the median and the fastest decode, in milliseconds. `--png`
decodes a file given instead (no Strata is started).

The target is at most 30 ms at 1280x720 (issue 29). The package is imported from python/src of
this checkout unless PYTHONPATH names another copy (to measure another version of it).
"""
import argparse
import os
import shutil
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, os.path.join(ROOT, "python", "src"))

from strata_testing import Strata, read_png  # noqa: E402


def take_screenshot(binary: str, size: str, directory: str) -> str:
    """A screenshot of a populated screen, copied into `directory`."""
    build = os.path.join(ROOT, ".build", "debug")
    color_client = shutil.which("strata-color-client", path=build) or shutil.which("strata-color-client")
    with Strata(binary=binary, size=size, record=False) as strata:
        if color_client:
            for app_id, colour, inner, x, y in (("bench.a", "3080c0", "c08030", 40, 40),
                                                ("bench.b", "c03080", "30c080", 700, 300)):
                strata.exec([color_client, "--app-id", app_id, "--color", colour, "--inner", inner,
                             "--size", "480x320", "--seconds", "120"])
                strata.wait_for_window(app_id)
                strata.move(app_id, 1, x, y)
        if shutil.which("foot"):
            text = "/usr/share/common-licenses/GPL-3"
            strata.exec(["foot", "--app-id", "bench.foot", "sh", "-c",
                         f"cat {text} 2>/dev/null || seq 1 5000; exec sleep 120"])
            strata.wait_for_window("bench.foot")
            strata.move("bench.foot", 1, 200, 100)
            time.sleep(1.0)  # a benchmark, not a test: lets foot draw its text
        path = os.path.join(directory, "screenshot.png")
        image = strata.screenshot(path=path)
        assert (image.width, image.height) == tuple(int(part) for part in size.split("x"))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--strata", default=None)
    parser.add_argument("--png", default=None)
    options = parser.parse_args()
    directory = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"strata-bench-png-{os.getpid()}")
    os.makedirs(directory, exist_ok=True)
    try:
        path = options.png
        if path is None:
            binary = options.strata or (os.path.join(ROOT, ".build", "debug", "strata")
                                        if os.path.exists(os.path.join(ROOT, ".build", "debug", "strata")) else "strata")
            path = take_screenshot(binary, options.size, directory)
        times = []
        for _ in range(options.runs):
            start = time.perf_counter()
            image = read_png(path)
            times.append((time.perf_counter() - start) * 1000)
        print(f"python-screenshot: {image.width}x{image.height} PNG of {os.path.getsize(path) / 1024:.0f} KiB, "
              f"{options.runs} decodes with {read_png.__module__}.read_png: "
              f"median {statistics.median(times):.1f} ms, fastest {min(times):.1f} ms")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
