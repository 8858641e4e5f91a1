"""A Strata process of its own: started headless in a private runtime directory, driven through its
control socket, stopped with its exit status checked."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, TypeVar, Union

from . import accessibility, golden
from .control import ControlConnection, EventStream, StrataError
from .golden import Mask, ScreenshotFailure
from .png import Image, read_png

T = TypeVar("T")

WindowName = Union[int, str]
"""A window named as the control socket names it: its id (an int), ``title:TEXT`` (the exact
title, or a glob with ``*``), ``pid:N``, or its app id (any case)."""


def title_matches(pattern: str, title: str) -> bool:
    """Whether `title` is `pattern`: exactly, or with each ``*`` standing for any text."""
    if "*" not in pattern:
        return title == pattern
    return re.fullmatch(".*".join(re.escape(part) for part in pattern.split("*")), title, re.DOTALL) is not None


class StrataStartError(RuntimeError):
    """Strata did not start: the binary is missing, or it exited or hung before its sockets."""


@dataclass(frozen=True)
class Window:
    """One entry of the `windows` command (front to back): every field the control socket gives.
    Fields a newer Strata adds are kept in `extra` (by their JSON names)."""

    id: int
    app_id: str
    title: str
    pid: int
    level: str
    order: int
    key: bool
    hidden: bool
    screen: Optional[int]
    frame: Dict[str, int]
    kind: str = "wayland"
    """``wayland``, or ``x11`` for an X window through Xwayland."""
    modal: bool = False
    """Whether the window is modal for its parent."""
    parent: Optional[int] = None
    """The id of the window's parent window, None for none."""
    extra: Dict[str, Any] = field(default_factory=dict, compare=False)

    _FIELDS = ("id", "app_id", "title", "pid", "level", "order", "key", "hidden", "screen", "frame", "kind",
               "modal", "parent")

    @staticmethod
    def from_json(value: Dict[str, Any]) -> "Window":
        return Window(
            id=value["id"], app_id=value.get("app_id") or "", title=value.get("title") or "",
            pid=value.get("pid") or 0, level=str(value.get("level", "")), order=value.get("order", 0),
            key=bool(value.get("key")), hidden=bool(value.get("hidden")), screen=value.get("screen"),
            frame=dict(value.get("frame") or {}), kind=value.get("kind") or "wayland",
            modal=bool(value.get("modal")), parent=value.get("parent"),
            extra={name: item for name, item in value.items() if name not in Window._FIELDS})

    def matches(self, title: Optional[str] = None, pid: Optional[int] = None, app_id: Optional[str] = None) -> bool:
        """Whether the window has all the given properties: `title` exactly or as a glob with
        ``*``, `pid`, `app_id` in any case."""
        return ((title is None or title_matches(title, self.title))
                and (pid is None or self.pid == pid)
                and (app_id is None or self.app_id.casefold() == app_id.casefold()))

    def named(self, name: WindowName) -> bool:
        if isinstance(name, int):
            return self.id == name
        if name.startswith("title:"):
            return self.matches(title=name[len("title:"):])
        if name.startswith("pid:") and name[len("pid:"):].isdigit():
            return self.pid == int(name[len("pid:"):])
        return self.matches(app_id=name)

    def describe(self) -> str:
        """One line with what tells windows apart, for messages."""
        states = [self.kind] + [state for state, on in (("key", self.key), ("hidden", self.hidden),
                                                       ("modal", self.modal)) if on]
        parent = f", parent {self.parent}" if self.parent is not None else ""
        return (f"{self.id}: app_id {self.app_id!r}, title {self.title!r}, pid {self.pid}, "
                f"{' '.join(states)}{parent}")

    def __str__(self) -> str:
        return f"window {self.id} ({self.app_id or 'no app id'})"


@dataclass(frozen=True)
class Screen:
    """One entry of the `screens` command (the main screen first)."""

    id: int
    name: str
    main: bool
    bounds: Dict[str, int]
    scale: float
    brightness: float
    transform: str
    current: str

    @staticmethod
    def from_json(value: Dict[str, Any]) -> "Screen":
        return Screen(
            id=value["id"], name=value.get("name", ""), main=bool(value.get("main")),
            bounds=dict(value.get("bounds") or {}), scale=float(value.get("scale", 1)),
            brightness=float(value.get("brightness", 1)), transform=value.get("transform", "normal"),
            current=value.get("current", ""))


_HELP_CACHE: Dict[str, str] = {}


def _help_text(binary: str) -> str:
    if binary not in _HELP_CACHE:
        try:
            result = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=30)
            _HELP_CACHE[binary] = result.stdout + result.stderr
        except OSError:
            _HELP_CACHE[binary] = ""
    return _HELP_CACHE[binary]


@dataclass
class Strata:
    """A fresh headless Strata.

    `binary` is the `strata` executable (a path, or a name on PATH). `size`, `screen_count` (--screens),
    `policy`, `placement`, `clock`, `keyboard_layout`, `keyboard_variant` and `keyboard_options`
    become the command-line options of the same names (``--keyboard-layout de``…; without them the
    keymap is Strata's default, ``us``: the host's ``XKB_DEFAULT_*`` are not passed on);
    `arguments` are passed as they are. `record` (None: when the binary can) writes the run's
    trace to `trace_path`, for replay and for the report attached to a failing test.
    """

    binary: str = "strata"
    size: str = "1280x720"
    screen_count: int = 1
    policy: Optional[str] = None
    placement: Optional[str] = None
    clock: Optional[str] = None
    keyboard_layout: Optional[str] = None
    keyboard_variant: Optional[str] = None
    keyboard_options: Optional[str] = None
    arguments: Sequence[str] = ()
    record: Optional[bool] = None
    accessibility: Optional[bool] = None
    """Give the clients a private accessibility bus (``--accessibility``), for `find` and
    `wait_for_element` (None: when the binary can)."""
    start_timeout: float = 20.0
    baselines: Optional[str] = None
    """The folder of `assert_screenshot`'s baselines (default: ``./__screenshots__``; the pytest
    fixture's: ``<test dir>/__screenshots__/<test file stem>``)."""
    update_baselines: bool = False
    """`assert_screenshot` writes (or overwrites) its baseline and passes."""
    artifacts: Optional[str] = None
    """Where a failed `assert_screenshot` keeps its pictures (default: a new temporary folder; the
    pytest fixture's: the failing test's artifact folder)."""

    process: Optional[subprocess.Popen] = field(default=None, init=False, repr=False)
    workdir: str = field(default="", init=False)
    runtime_dir: str = field(default="", init=False)
    wayland_display: str = field(default="", init=False)
    display: Optional[str] = field(default=None, init=False)
    """The X display (``:N``) Strata offers X clients through Xwayland; None when it offers none."""
    announced: Dict[str, str] = field(default_factory=dict, init=False)
    """What Strata printed at its start (``WAYLAND_DISPLAY``, ``DISPLAY``, ``STRATA_SOCKET``…)."""
    control_socket: str = field(default="", init=False)
    log_path: str = field(default="", init=False)
    trace_path: Optional[str] = field(default=None, init=False)
    exit_status: Optional[int] = field(default=None, init=False)
    _control: Optional[ControlConnection] = field(default=None, init=False, repr=False)
    _stdout_lines: List[str] = field(default_factory=list, init=False, repr=False)
    _screenshots: int = field(default=0, init=False, repr=False)
    screenshot_failures: List["ScreenshotFailure"] = field(default_factory=list, init=False, repr=False)
    """The pictures of each failed `assert_screenshot` (the pytest plugin attaches them)."""
    failure_folder: Optional[Callable[[], str]] = field(default=None, init=False, repr=False)
    _delegates: List[Any] = field(default_factory=list, init=False, repr=False)

    # MARK: Life

    def command_line(self) -> List[str]:
        command = [self.binary, "--backend", "headless", "--size", self.size]
        if self.screen_count != 1:
            command += ["--screens", str(self.screen_count)]
        if self.policy:
            command += ["--policy", self.policy]
        if self.placement:
            command += ["--placement", self.placement]
        if self.clock:
            command += ["--clock", self.clock]
        for option, value in (("--keyboard-layout", self.keyboard_layout), ("--keyboard-variant", self.keyboard_variant),
                              ("--keyboard-options", self.keyboard_options)):
            if value is not None:
                command += [option, value]
        if self.trace_path:
            command += ["--record", self.trace_path]
        if self.accessibility or (self.accessibility is None and "--accessibility" in _help_text(self.binary)):
            command += ["--accessibility"]
        return command + list(self.arguments)

    @property
    def can_record(self) -> bool:
        return "--record" in _help_text(self.binary)

    def start(self) -> "Strata":
        if self.process is not None:
            raise RuntimeError("this Strata was already started")
        if shutil.which(self.binary) is None:
            raise StrataStartError(f"no strata binary at {self.binary!r} (set --strata-binary or PATH)")
        self.workdir = tempfile.mkdtemp(prefix="strata-test-")
        self.runtime_dir = os.path.join(self.workdir, "run")
        os.mkdir(self.runtime_dir, 0o700)
        self.log_path = os.path.join(self.workdir, "strata.log")
        if self.record or (self.record is None and self.can_record):
            self.trace_path = os.path.join(self.workdir, "trace.jsonl")
        environment = dict(os.environ)
        environment["XDG_RUNTIME_DIR"] = self.runtime_dir
        for name in list(environment):
            # Its own sockets are printed, and its keymap is the options' (a test runs alike on
            # every desk, whatever layout the host's XKB_DEFAULT_* name).
            if name in ("WAYLAND_DISPLAY", "WAYLAND_SOCKET", "STRATA_SOCKET", "DISPLAY") or name.startswith("XKB_DEFAULT_"):
                del environment[name]
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(self.command_line(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                            stderr=log, env=environment)
        self._read_start_lines()
        self._control = ControlConnection(self.control_socket)
        return self

    def _read_start_lines(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        found: Dict[str, str] = {}
        lines: "list[str]" = []
        done = threading.Event()

        def drain() -> None:
            # Reads Strata's standard output to its end, so a chatty Strata never blocks on a
            # full pipe. Its first lines name its sockets (WAYLAND_DISPLAY=…, DISPLAY=:N when it
            # offers X, STRATA_SOCKET=… last).
            assert self.process is not None and self.process.stdout is not None
            for raw in self.process.stdout:
                line = raw.decode(errors="replace").rstrip("\n")
                lines.append(line)
                name, equals, value = line.partition("=")
                if not done.is_set() and equals and re.fullmatch(r"[A-Z][A-Z0-9_]*", name) and name not in found:
                    found[name] = value
                    if "WAYLAND_DISPLAY" in found and "STRATA_SOCKET" in found:
                        done.set()
            done.set()

        threading.Thread(target=drain, name="strata-stdout", daemon=True).start()
        self._stdout_lines = lines
        done.wait(self.start_timeout)
        if "WAYLAND_DISPLAY" not in found or "STRATA_SOCKET" not in found:
            try:  # its standard output ended: it is exiting
                status = self.process.wait(1.0)
            except subprocess.TimeoutExpired:
                status = None
            if status is None:
                self.process.kill()
                self.process.wait()
                reason = f"did not name its sockets within {self.start_timeout} s"
            else:
                reason = f"exited with status {status}"
            raise StrataStartError(f"strata {reason}; its log:\n{self.log_tail()}")
        self.announced = dict(found)
        self.wayland_display = found["WAYLAND_DISPLAY"]
        self.display = found.get("DISPLAY") or None
        self.control_socket = found["STRATA_SOCKET"]

    def stop(self, timeout: float = 15.0) -> int:
        """Asks Strata to stop (SIGTERM) and returns its exit status (128 + the signal if it had
        to be killed). Idempotent."""
        if self.exit_status is not None:
            return self.exit_status
        if self._control is not None:
            self._control.close()
            self._control = None
        if self.process is None:
            raise RuntimeError("this Strata was never started")
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        status = self.process.returncode
        self.exit_status = 128 - status if status < 0 else status
        if self._delegates:
            from .delegate.running import finish_delegates
            finish_delegates(self._delegates)  # their connections ended with Strata
        return self.exit_status

    def cleanup(self) -> None:
        """Stops Strata if needed and removes its private directory."""
        if self.process is not None and self.exit_status is None:
            self.stop()
        if self.workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> "Strata":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.cleanup()

    def log_tail(self, lines: int = 40) -> str:
        try:
            with open(self.log_path, errors="replace") as log:
                return "".join(log.readlines()[-lines:])
        except OSError:
            return ""

    @property
    def environment(self) -> Dict[str, str]:
        """What a client of this Strata needs: its runtime directory, Wayland display, X display
        (``DISPLAY``, when Strata offers one) and control socket (an ordinary client: `exec`
        starts one with the command's privileges)."""
        return self.client_environment(os.environ)

    def client_environment(self, base: Mapping[str, str]) -> Dict[str, str]:
        """`base` with what a client of this Strata needs (see `environment`)."""
        environment = dict(base)
        environment.update(XDG_RUNTIME_DIR=self.runtime_dir, WAYLAND_DISPLAY=self.wayland_display,
                           STRATA_SOCKET=self.control_socket)
        environment.pop("WAYLAND_SOCKET", None)
        environment.pop("DISPLAY", None)
        if self.display:
            environment["DISPLAY"] = self.display
        bus = self.announced.get("DBUS_SESSION_BUS_ADDRESS")
        if bus:
            # As Strata sets it for the clients it starts (docs/accessibility.md).
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus
            for name in ("AT_SPI_BUS_ADDRESS", "NO_AT_BRIDGE", "GTK_A11Y"):
                environment.pop(name, None)
            environment.update(QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", ACCESSIBILITY_ENABLED="1")
        return environment

    # MARK: Commands

    def command(self, name: str, **arguments: Any) -> Dict[str, Any]:
        """Any control-socket command (docs/control.md); raises `StrataError` on an error reply."""
        if self._control is None:
            raise RuntimeError("Strata is not running")
        return self._control.request(name, **arguments)

    def hello(self) -> Dict[str, Any]:
        return self.command("hello")

    def sync(self) -> int:
        return self.command("sync")["sequence"]

    def exec(self, argv: Sequence[str], cwd: Optional[str] = None) -> int:
        """Starts a client through Strata (a privileged connection of its own; Strata reaps and
        stops it). Returns its pid."""
        arguments: Dict[str, Any] = {"argv": list(argv)}
        if cwd:
            arguments["cwd"] = cwd
        return self.command("exec", **arguments)["pid"]

    def spawn(self, argv: Sequence[str], **popen: Any) -> subprocess.Popen:
        """Starts an ordinary client (the public socket; X clients: `display`) as a child of the
        test, with `environment` (pass ``env=`` to start from another one)."""
        base = popen.pop("env", None)
        environment = self.environment if base is None else self.client_environment(base)
        return subprocess.Popen(list(argv), env=environment, **popen)

    # MARK: Accessible objects (docs/accessibility.md)

    def find(self, window: Optional[str] = None, role: Optional[str] = None, name: Optional[str] = None,
             name_glob: Optional[str] = None, text: Optional[str] = None,
             wait: Optional[float] = None) -> List["accessibility.Element"]:
        """The clients' accessible objects that match (`accessibility.find`)."""
        return accessibility.find(self, window, role, name, name_glob, text, wait)

    def find_one(self, window: Optional[str] = None, role: Optional[str] = None, name: Optional[str] = None,
                 name_glob: Optional[str] = None, text: Optional[str] = None,
                 wait: Optional[float] = None) -> "accessibility.Element":
        """The one object that matches; `accessibility.AccessibilityError` lists the candidates."""
        return accessibility.find_one(self, window, role, name, name_glob, text, wait)

    def wait_for_element(self, timeout: float = 10.0, window: Optional[str] = None, role: Optional[str] = None,
                         name: Optional[str] = None, name_glob: Optional[str] = None,
                         text: Optional[str] = None) -> "accessibility.Element":
        """`find_one`, waiting for it up to `timeout` seconds (on the toolkits' tree events)."""
        return accessibility.wait_for_element(self, timeout, window, role, name, name_glob, text)

    def accessibility_tree(self, window: Optional[str] = None) -> str:
        """One window's accessible objects (or every window's), indented by depth."""
        return accessibility.tree(self, window)

    def stats(self, window_ms: Optional[int] = None) -> Dict[str, Any]:
        """Focus metrics since Strata started (docs/control.md, "Focus metrics"): ``run`` and
        ``apps`` (app id → metrics), each with ``focus_requests``, ``request_to_key``,
        ``keystrokes_after_key`` (within `window_ms`, default 500) and ``key_switches``."""
        arguments: Dict[str, Any] = {} if window_ms is None else {"window_ms": window_ms}
        reply = self.command("stats", **arguments)
        return {"run": reply["run"], "apps": reply["apps"]}

    def delegate(self, policy: Any, deadline_ms: Optional[int] = None, timeout: float = 10.0,
                 verbose: bool = False) -> Any:
        """Makes `policy` Strata's policy delegate (docs/control.md, "Policy delegate") and returns
        once Strata's `policy` reply names it. `policy` is a `Delegate`, a function decorated with
        `key_policy`/`decide`… (or a list of them): it runs on a thread of this process and a
        `DelegateSession` is returned; or the path of a policy file: it runs as ``python -m
        strata_testing.delegate FILE`` (a child of the test; its messages in `workdir`) and the
        `subprocess.Popen` is returned. Either ends when Strata stops."""
        from .delegate.running import start_delegate
        return start_delegate(self, policy, deadline_ms=deadline_ms, timeout=timeout, verbose=verbose)

    def windows(self) -> List[Window]:
        """Every open window, front to back."""
        return [Window.from_json(value) for value in self.command("windows")["windows"]]

    def screens(self) -> List[Screen]:
        return [Screen.from_json(value) for value in self.command("screens")["screens"]]

    def window(self, name: WindowName) -> Optional[Window]:
        matches = [window for window in self.windows() if window.named(name)]
        if len(matches) > 1:
            raise StrataError("windows", "ambiguous_window", f"{len(matches)} windows are named {name!r}")
        return matches[0] if matches else None

    def key_window(self) -> Optional[Window]:
        return next((window for window in self.windows() if window.key), None)

    def make_key(self, name: WindowName) -> Window:
        return Window.from_json(self.command("make-key", window=name)["window"])

    def raise_window(self, name: WindowName) -> Window:
        return Window.from_json(self.command("raise", window=name)["window"])

    def lower_window(self, name: WindowName) -> Window:
        return Window.from_json(self.command("lower", window=name)["window"])

    def set_level(self, name: WindowName, level: Union[str, int]) -> Window:
        return Window.from_json(self.command("set-level", window=name, level=level)["window"])

    def hide(self, name: WindowName) -> Window:
        return Window.from_json(self.command("hide", window=name)["window"])

    def show(self, name: WindowName, key: bool = False) -> Window:
        return Window.from_json(self.command("show", window=name, key=key)["window"])

    def close(self, name: WindowName) -> Dict[str, Any]:
        return self.command("close", window=name)

    def move(self, name: WindowName, screen: Union[int, str], x: Optional[int] = None,
             y: Optional[int] = None) -> Window:
        arguments: Dict[str, Any] = {"window": name, "screen": screen}
        if x is not None or y is not None:
            arguments.update(x=x, y=y)
        return Window.from_json(self.command("move", **arguments)["window"])

    # MARK: Input

    def pointer_move(self, x: float, y: float, screen: Optional[Union[int, str]] = None) -> Dict[str, Any]:
        arguments: Dict[str, Any] = {"x": x, "y": y}
        if screen is not None:
            arguments["screen"] = screen
        return self.command("pointer-move", **arguments)

    def click(self, x: Optional[float] = None, y: Optional[float] = None, button: str = "left",
              screen: Optional[Union[int, str]] = None) -> Dict[str, Any]:
        """Moves the pointer to (x, y) when given, then presses and releases `button`."""
        if x is not None and y is not None:
            self.pointer_move(x, y, screen)
        return self.command("pointer-click", button=button)

    def key(self, key: Union[str, int], state: Optional[str] = None) -> Dict[str, Any]:
        arguments: Dict[str, Any] = {"key": key}
        if state:
            arguments["state"] = state
        return self.command("key", **arguments)

    def type(self, text: str) -> Dict[str, Any]:
        return self.command("type", text=text)

    def touch(self, phase: str, touch_id: int, x: Optional[float] = None, y: Optional[float] = None) -> Dict[str, Any]:
        arguments: Dict[str, Any] = {"phase": phase, "touch_id": touch_id}
        if x is not None and y is not None:
            arguments.update(x=x, y=y)
        return self.command("touch", **arguments)

    # MARK: Screenshots and the clock

    def screenshot(self, screen: Optional[Union[int, str]] = None, path: Optional[str] = None,
                   window: Optional[Union["Window", WindowName]] = None) -> Image:
        """Repaints and returns the screen's composed image (docs/control.md, `screenshot`), or
        with `window` the window's own image (whatever covers it, wherever it is), written to
        `path` (default: a file in this Strata's directory) and decoded."""
        if path is None:
            self._screenshots += 1
            path = os.path.join(self.workdir, f"screenshot-{self._screenshots}.png")
        arguments: Dict[str, Any] = {"path": os.path.abspath(path)}
        if screen is not None:
            arguments["screen"] = screen
        if window is not None:
            arguments["window"] = window.id if isinstance(window, Window) else window
        reply = self.command("screenshot", **arguments)
        return read_png(reply["path"])

    def assert_screenshot(self, name: str, window: Optional[Union["Window", WindowName]] = None,
                          screen: Optional[Union[int, str]] = None, threshold: int = 0,
                          max_diff_pixels: Optional[int] = None, max_diff_ratio: Optional[float] = None,
                          masks: Sequence[Mask] = ()) -> Dict[str, Any]:
        """Compares the window's own image (or the screen's, default the main one) with the
        baseline `name`.png in `baselines`, inside Strata (`compare-screenshot`). Two pixels
        differ when a channel differs by more than `threshold`; it passes when at most
        `max_diff_pixels` pixels and at most `max_diff_ratio` of the compared pixels differ
        (neither given: none may). `masks` leave out rectangles, windows and ``"level:NAME"``s.
        A failure (or a missing baseline) raises AssertionError naming the expected, actual and
        diff pictures, kept in `artifacts`; with `update_baselines` the baseline is written."""
        return golden.assert_screenshot(self, name, window=window, screen=screen, threshold=threshold,
                                        max_diff_pixels=max_diff_pixels, max_diff_ratio=max_diff_ratio, masks=masks)

    def failure_directory(self) -> str:
        """Where a failed `assert_screenshot` keeps its pictures (made if needed)."""
        if self.artifacts is not None:
            folder = self.artifacts
        elif self.failure_folder is not None:
            folder = self.failure_folder()
        else:
            folder = self.artifacts = tempfile.mkdtemp(prefix="strata-screenshots-")
        os.makedirs(folder, exist_ok=True)
        return folder

    def step(self, frames: int = 1, settle: bool = False, timeout: float = 10.0) -> Dict[str, Any]:
        """Under `clock="manual"`: runs `frames` frames of the virtual clock (repaints, frame
        callbacks, presentation feedback) and returns the clock's time. With `settle`, one frame
        at a time, each followed by `settle(timeout=timeout)`: the clients answered that frame."""
        if not settle:
            return self.command("step", frames=frames)
        reply: Dict[str, Any] = {}
        for _ in range(frames):
            reply = self.command("step", frames=1)
            self.settle(timeout=timeout)
        return {**reply, "frames": frames}

    def settle(self, frames: int = 2, timeout: float = 10.0) -> Dict[str, Any]:
        """Returns once every shown window has stopped changing: no commit and (on the realtime
        clock) no frame callback outstanding for `frames` frames. Raises `StrataError` (code
        `failed`) at `timeout` seconds; its message names the windows still changing."""
        if self._control is None:
            raise RuntimeError("Strata is not running")
        usual = self._control.timeout
        self._control.timeout = max(usual, timeout + 5)
        try:
            return self.command("settle", frames=frames, timeout=timeout)
        finally:
            self._control.timeout = usual

    # MARK: Waiting and assertions

    def events(self, since: Optional[int] = None) -> EventStream:
        """A subscription to the model's events after `since` (default: from now on)."""
        return EventStream(self.control_socket, since=since)

    def wait_until(self, predicate: Callable[[], T], timeout: float = 10.0, description: Optional[str] = None) -> T:
        """Waits until `predicate()` returns something true, and returns that. The predicate is
        evaluated once at once, then again after each batch of the model's events (a
        subscription made first, so no change is missed between two evaluations; no polling).
        TimeoutError after `timeout` seconds names `description` (default: the predicate's name)
        and lists the open windows."""
        deadline = time.monotonic() + timeout
        with self.events() as stream:
            while True:
                result = predicate()
                if result:
                    return result
                remaining = deadline - time.monotonic()
                if remaining <= 0 or stream.next_event(remaining) is None:
                    break
                while stream.next_event(0) is not None:  # the rest of the batch: one evaluation for it
                    pass
        what = description or f"{getattr(predicate, '__name__', 'the predicate')}() to be true"
        raise TimeoutError(f"waited {timeout} s for {what}; {self._window_listing()}")

    def wait_for_window(self, name: Optional[WindowName] = None, timeout: float = 10.0, visible: bool = True, *,
                        title: Optional[str] = None, pid: Optional[int] = None,
                        app_id: Optional[str] = None) -> Window:
        """Waits, event by event (no polling), until a window is open (and visible, unless
        `visible` is False) that is `name` (as `window` names it) and has every property given:
        `title` (exact, or a glob with ``*``), `pid`, `app_id` (any case). Returns the frontmost
        such window; TimeoutError lists the open windows."""
        if name is None and title is None and pid is None and app_id is None:
            raise ValueError("wait_for_window: give a name, title, pid or app_id")
        wanted = [f"{key} {value!r}" for key, value in (("named", name), ("title", title), ("pid", pid),
                                                           ("app_id", app_id)) if value is not None]

        def found() -> Optional[Window]:
            return next((window for window in self.windows()
                         if (name is None or window.named(name)) and window.matches(title, pid, app_id)
                         and (not visible or not window.hidden)), None)

        return self.wait_until(found, timeout, f"a {'visible ' if visible else ''}window with {' and '.join(wanted)}")

    def _window_listing(self) -> str:
        try:
            windows = self.windows()
        except (OSError, RuntimeError, StrataError) as error:
            return f"the open windows cannot be listed ({error})"
        if not windows:
            return "no window is open"
        return "open windows, front to back:\n" + "\n".join(f"  {window.describe()}" for window in windows)

    def wait_for_event(self, name: str, subject: Optional[int] = None, since: Optional[int] = None,
                       timeout: float = 10.0) -> Dict[str, Any]:
        """Waits for an event called `name` (about window or screen `subject`, when given) after
        sequence `since` (default: from now on) and returns it."""
        with self.events(since=since) as stream:
            deadline = time.monotonic() + timeout
            while True:
                remaining = deadline - time.monotonic()
                event = stream.next_event(max(0.0, remaining)) if remaining > 0 else None
                if event is None:
                    raise TimeoutError(f"no {name} event{'' if subject is None else f' for {subject}'} "
                                       f"within {timeout} s")
                if event.get("name") != name:
                    continue
                if subject is None or subject in (event.get("window"), event.get("screen")):
                    return event

    def assert_key(self, name: Optional[WindowName]) -> None:
        """The key window is `name` (None: no window is key)."""
        __tracebackhide__ = True
        key = self.key_window()
        if name is None:
            if key is not None:
                raise AssertionError(f"expected no key window, but {key} is key")
            return
        if key is None or not key.named(name):
            raise AssertionError(f"expected {name!r} to be key, but {'no window' if key is None else key} is key")

    def assert_stacking(self, *names: WindowName) -> None:
        """These windows are in this order, front to back (others may stand between them)."""
        __tracebackhide__ = True
        windows = self.windows()
        positions = []
        for name in names:
            index = next((i for i, window in enumerate(windows) if window.named(name)), None)
            if index is None:
                raise AssertionError(f"no open window {name!r}")
            positions.append(index)
        if positions != sorted(positions):
            order = ", ".join(f"{window.id}:{window.app_id}@{window.level}" for window in windows)
            raise AssertionError(f"expected {list(names)} front to back; the stacking is {order}")
