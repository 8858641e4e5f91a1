"""Golden screenshots: a window's (or screen's) current picture against a baseline PNG, compared by
Strata itself (the control command `compare-screenshot`: the current picture is not encoded, only
the baseline is decoded). `Strata.assert_screenshot` is the entry point; the pytest plugin sets
where baselines live and where a failure's pictures go."""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Union

if TYPE_CHECKING:
    from .compositor import Strata, Window

Mask = Union[tuple, list, dict, int, str, "Window"]
"""A rectangle of the picture, ``(x, y, width, height)`` or ``{"x":, "y":, "width":, "height":}``;
a window (a `Window`, an id, or a name as the control socket takes it: ``title:TEXT``, ``pid:N``,
an app id), left out by its frame; or ``"level:NAME"``, every shown window of that level."""

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class ScreenshotFailure:
    """The pictures of a failed `assert_screenshot`, kept in the test's artifact folder."""

    name: str
    expected: Optional[str]
    actual: Optional[str]
    diff: Optional[str]

    def paths(self) -> Dict[str, str]:
        kinds = {"expected": self.expected, "actual": self.actual, "diff": self.diff}
        return {kind: path for kind, path in kinds.items() if path}


def baseline_path(directory: str, name: str) -> str:
    """`directory`/`name`.png; `name` is a file name without folders (letters, digits, ``_.-``)."""
    stem = name[:-4] if name.endswith(".png") else name
    if not _NAME.match(stem):
        raise ValueError(f"a screenshot's name is letters, digits, '_', '.' and '-' (it names a file), not {name!r}")
    return os.path.join(directory, stem + ".png")


def mask_arguments(masks: Iterable[Mask]) -> Dict[str, Any]:
    """The `masks`, `mask_windows` and `mask_levels` fields of `compare-screenshot` for `masks`."""
    from .compositor import Window

    rectangles: List[Dict[str, int]] = []
    windows: List[Union[int, str]] = []
    levels: List[str] = []
    for mask in masks:
        if isinstance(mask, Window):
            windows.append(mask.id)
        elif isinstance(mask, bool):
            raise TypeError(f"a mask is a rectangle, a window or 'level:NAME', not {mask!r}")
        elif isinstance(mask, int):
            windows.append(mask)
        elif isinstance(mask, str):
            if mask.startswith("level:"):
                levels.append(mask[len("level:"):])
            else:
                windows.append(mask)
        elif isinstance(mask, dict):
            rectangles.append({key: int(mask[key]) for key in ("x", "y", "width", "height")})
        elif isinstance(mask, (tuple, list)) and len(mask) == 4 and all(isinstance(v, int) for v in mask):
            x, y, width, height = mask
            rectangles.append({"x": x, "y": y, "width": width, "height": height})
        else:
            raise TypeError("a mask is a rectangle (x, y, width, height), a window (a Window, an id or a name) "
                            f"or 'level:NAME', not {mask!r}")
    arguments: Dict[str, Any] = {}
    if rectangles:
        arguments["masks"] = rectangles
    if windows:
        arguments["mask_windows"] = windows
    if levels:
        arguments["mask_levels"] = levels
    return arguments


def assert_screenshot(strata: "Strata", name: str, window: Optional[Union["Window", int, str]] = None,
                      screen: Optional[Union[int, str]] = None, threshold: int = 0,
                      max_diff_pixels: Optional[int] = None, max_diff_ratio: Optional[float] = None,
                      masks: Iterable[Mask] = ()) -> Dict[str, Any]:
    """See `Strata.assert_screenshot`."""
    from .compositor import Window

    directory = strata.baselines or os.path.join(os.getcwd(), "__screenshots__")
    baseline = os.path.abspath(baseline_path(directory, name))
    stem = os.path.basename(baseline)[:-4]
    target: Dict[str, Any] = {}
    if window is not None:
        if screen is not None:
            raise ValueError("assert_screenshot takes a window or a screen, not both")
        target["window"] = window.id if isinstance(window, Window) else window
    elif screen is not None:
        target["screen"] = screen
    what = f"window {target['window']!r}" if "window" in target else f"screen {screen!r}" if screen is not None else "the main screen"
    arguments: Dict[str, Any] = {"baseline": baseline, **target, **mask_arguments(masks)}
    if threshold:
        arguments["threshold"] = threshold
    if max_diff_pixels is not None:
        arguments["max_diff"] = max_diff_pixels
    if max_diff_ratio is not None:
        arguments["max_diff_ratio"] = max_diff_ratio

    if strata.update_baselines:
        os.makedirs(os.path.dirname(baseline), exist_ok=True)
        return strata.command("compare-screenshot", update=True, **arguments)

    if not os.path.exists(baseline):
        folder = strata.failure_directory()
        actual = os.path.join(folder, f"{stem}-actual.png")
        strata.command("screenshot", path=actual, **target)
        strata.screenshot_failures.append(ScreenshotFailure(stem, None, actual, None))
        raise AssertionError(f"screenshot {stem!r} has no baseline: {baseline} does not exist. Run pytest with "
                             f"--strata-update-baselines to write it from the current picture of {what} "
                             f"(kept as {actual}).")

    scratch = os.path.join(strata.workdir, "golden")
    os.makedirs(scratch, exist_ok=True)
    scratch_actual, scratch_diff = os.path.join(scratch, f"{stem}-actual.png"), os.path.join(scratch, f"{stem}-diff.png")
    reply = strata.command("compare-screenshot", actual=scratch_actual, diff=scratch_diff, **arguments)
    if reply.get("match"):
        return reply

    folder = strata.failure_directory()
    expected = os.path.join(folder, f"{stem}-expected.png")
    shutil.copyfile(baseline, expected)
    kept: Dict[str, Optional[str]] = {"actual": None, "diff": None}
    for kind in kept:
        written = reply.get(kind)
        if written and os.path.exists(written):
            kept[kind] = os.path.join(folder, f"{stem}-{kind}.png")
            shutil.move(written, kept[kind])
    failure = ScreenshotFailure(stem, expected, kept["actual"], kept["diff"])
    strata.screenshot_failures.append(failure)
    if reply.get("reason"):
        verdict = reply["reason"]
    else:
        share = reply.get("share", 0) * 100
        verdict = f"{reply.get('differing')} of {reply.get('compared')} pixels differ ({share:.2f}%)"
        bounds = reply.get("bounds")
        if bounds:
            verdict += f", within {bounds['x']},{bounds['y']},{bounds['width']}x{bounds['height']}"
        tolerated = []
        if max_diff_pixels is not None:
            tolerated.append(f"{max_diff_pixels} pixels")
        if max_diff_ratio is not None:
            tolerated.append(f"{max_diff_ratio * 100:g}%")
        verdict += f" (tolerated: {' and '.join(tolerated) or 'none'}; threshold {threshold})"
    lines = [f"screenshot {stem!r} of {what} differs from its baseline {baseline}: {verdict}"]
    lines += [f"  {kind}: {path}" for kind, path in failure.paths().items()]
    raise AssertionError("\n".join(lines))
