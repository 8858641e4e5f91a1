"""The accessible objects of a Strata's clients, found by role and name and acted on.

A Strata started with ``--accessibility`` (the pytest fixture's default) gives its clients a
private accessibility bus; ``strata-ctl find`` reads their trees there and places each object on
screen. These are the python forms::

    ok = strata.wait_for_element(window="zenity", role="button", name="OK")
    ok.press()
    strata.find_one(role="entry").type("hello")

Every call runs ``strata-ctl`` (the one next to the ``strata`` binary, else PATH's) against the
test's Strata; a failure raises `AccessibilityError` with strata-ctl's words (an ambiguous match
lists the candidates).
"""

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence


class AccessibilityError(Exception):
    """A locator found nothing, found several things, or strata-ctl could not run."""


@dataclass(frozen=True)
class Rect:
    """A rectangle in a screen's coordinates."""

    x: float
    y: float
    width: int
    height: int

    @property
    def center(self) -> "tuple[float, float]":
        return (self.x + self.width / 2, self.y + self.height / 2)


@dataclass
class Element:
    """One accessible object as ``strata-ctl find --json`` reported it."""

    role: str
    name: str
    states: List[str]
    actions: List[str]
    rect: Optional[Rect]
    screen: Optional[int]
    window: Optional[int]
    application: str
    pid: int
    toplevel: str
    path: str
    depth: int
    strata: Any = field(default=None, repr=False, compare=False)

    @staticmethod
    def from_json(value: Dict[str, Any], strata: Any) -> "Element":
        rect = value.get("rect")
        return Element(
            role=str(value.get("role", "")), name=str(value.get("name", "")),
            states=[str(s) for s in value.get("states", [])], actions=[str(a) for a in value.get("actions", [])],
            rect=Rect(rect["x"], rect["y"], rect["width"], rect["height"]) if isinstance(rect, dict) else None,
            screen=value.get("screen"), window=value.get("window"), application=str(value.get("application", "")),
            pid=int(value.get("pid", 0)), toplevel=str(value.get("toplevel", "")), path=str(value.get("path", "")),
            depth=int(value.get("depth", 0)), strata=strata)

    def _locator(self) -> List[str]:
        if self.window is None:
            raise AccessibilityError(f"{self.role} {self.name!r} is in no shown window of Strata's")
        return ["--window", str(self.window), "--path", self.path]

    def press(self) -> str:
        """Its accessible action (click, press, activate) where it has one, else a click; how."""
        return _act(self.strata, "press", self._locator())

    def click(self) -> str:
        """A pointer click at its centre, its window ordered front first; how."""
        return _act(self.strata, "click", self._locator())

    def focus(self) -> str:
        """Its window made key, then the toolkit's focus (else a click); how."""
        return _act(self.strata, "focus", self._locator())

    def type(self, text: str) -> str:
        """Focus it, then type `text`; how."""
        return _act(self.strata, "type-into", self._locator() + ["--", text])

    def children(self) -> List["Element"]:
        """Its children, read now, in the toolkit's order."""
        if self.window is None:
            return []
        prefix = self.path + "."
        return [e for e in find(self.strata, window=str(self.window))
                if e.path.startswith(prefix) and e.depth == self.depth + 1]

    def __str__(self) -> str:
        place = f" at {self.rect.x:g},{self.rect.y:g},{self.rect.width}x{self.rect.height}" if self.rect else ""
        return f"{self.role} {self.name!r}{place} in window {self.window} [{' '.join(self.states)}]"


def ctl_path(strata: Any) -> str:
    """The strata-ctl next to `strata`'s binary, else PATH's."""
    binary = shutil.which(getattr(strata, "binary", "strata") or "strata")
    if binary:
        sibling = os.path.join(os.path.dirname(binary), "strata-ctl")
        if os.access(sibling, os.X_OK):
            return sibling
    return "strata-ctl"


def _run(strata: Any, arguments: Sequence[str], timeout: float) -> str:
    environment = dict(os.environ)
    environment["STRATA_SOCKET"] = strata.control_socket
    try:
        result = subprocess.run([ctl_path(strata)] + list(arguments), capture_output=True, text=True,
                                env=environment, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise AccessibilityError(f"strata-ctl {' '.join(arguments)}: {error}") from None
    if result.returncode != 0:
        message = result.stderr.strip().removeprefix("strata-ctl: error: ")
        raise AccessibilityError(message or f"strata-ctl {arguments[0]} exited with status {result.returncode}")
    return result.stdout


def _locator(window: Optional[str], role: Optional[str], name: Optional[str], name_glob: Optional[str],
             text: Optional[str]) -> List[str]:
    arguments: List[str] = []
    for option, value in (("--window", window), ("--role", role), ("--name", name), ("--name-glob", name_glob),
                          ("--text", text)):
        if value is not None:
            arguments += [option, str(value)]
    return arguments


def _act(strata: Any, command: str, arguments: List[str]) -> str:
    output = _run(strata, [command, "--json"] + arguments, timeout=60)
    return str(json.loads(output).get("how", ""))


def find(strata: Any, window: Optional[str] = None, role: Optional[str] = None, name: Optional[str] = None,
         name_glob: Optional[str] = None, text: Optional[str] = None, wait: Optional[float] = None) -> List[Element]:
    """Every accessible object that matches (an empty list when none does). `wait`: up to that many
    seconds for one to appear, searched again each time a toolkit says its tree changed."""
    arguments = ["find", "--json"] + _locator(window, role, name, name_glob, text)
    if wait is not None:
        arguments += ["--wait", str(wait)]
    try:
        output = _run(strata, arguments, timeout=(wait or 0) + 60)
    except AccessibilityError as error:
        if str(error).startswith("nothing matches"):
            return []
        raise
    return [Element.from_json(e, strata) for e in json.loads(output).get("elements", [])]


def find_one(strata: Any, window: Optional[str] = None, role: Optional[str] = None, name: Optional[str] = None,
             name_glob: Optional[str] = None, text: Optional[str] = None, wait: Optional[float] = None) -> Element:
    """The one object that matches (of several, the one on screen); AccessibilityError otherwise,
    listing the candidates."""
    found = find(strata, window, role, name, name_glob, text, wait)
    shown = [e for e in found if e.rect is not None]
    if len(found) == 1:
        return found[0]
    if len(shown) == 1:
        return shown[0]
    words = " ".join(_locator(window, role, name, name_glob, text)) or "any element"
    if not found:
        raise AccessibilityError(f"nothing matches {words}")
    listed = "\n".join(f"  {e}" for e in (shown or found)[:20])
    raise AccessibilityError(f"{len(shown or found)} elements match {words}; name one:\n{listed}")


def wait_for_element(strata: Any, timeout: float = 10.0, window: Optional[str] = None, role: Optional[str] = None,
                     name: Optional[str] = None, name_glob: Optional[str] = None,
                     text: Optional[str] = None) -> Element:
    """`find_one`, waiting up to `timeout` seconds for the object to appear (driven by the
    toolkits' tree-change events)."""
    return find_one(strata, window, role, name, name_glob, text, wait=timeout)


def tree(strata: Any, window: Optional[str] = None) -> str:
    """Every accessible object of one window (or of every window), indented by depth: what a
    failing test's artifacts keep."""
    lines = []
    for element in find(strata, window=window):
        lines.append("  " * element.depth + str(element))
    return "\n".join(lines) + ("\n" if lines else "")
