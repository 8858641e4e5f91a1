"""The control socket's wire: line-delimited JSON requests and replies (docs/control.md)."""

from __future__ import annotations

import itertools
import json
import select
import socket
import time
from typing import Any, Dict, Iterator, Optional


# Every command of the control protocol (docs/control.md): `Strata.command(name, **arguments)`
# sends any of them, and `Strata`'s methods wrap the common ones. The Swift table
# (`ControlCommand.all`) is the source; StrataCommandLineTests checks this list against it.
COMMANDS = (
    "hello", "step", "sync", "settle", "wait-image", "events", "exec", "record", "record-video", "policy",
    "placement", "stats", "delegate", "decide",
    "windows", "make-key", "raise", "lower", "set-level", "hide", "show", "move", "convert", "close", "maximize",
    "fullscreen", "restore", "resize",
    "screens", "screen-add", "screen-remove", "screen-mode", "screen-brightness", "screen-transform", "screen-scale",
    "screen-mirror", "screen-overscan", "screenshot", "compare-screenshot",
    "pointer-move", "pointer-button", "pointer-click", "pointer-scroll", "key", "type", "touch", "gesture", "tablet",
)

class StrataError(Exception):
    """An error reply of the control socket: `code` is the server's error code
    (``unknown_window``, ``invalid_argument``, …), `message` its explanation."""

    def __init__(self, command: str, code: str, message: str):
        super().__init__(f"{command}: {code}: {message}")
        self.command = command
        self.code = code
        self.message = message


class _LineReader:
    """Reads whole lines from a socket with a deadline (the socket stays blocking-free)."""

    def __init__(self, sock: socket.socket):
        self._sock = sock
        self._buffer = b""

    def readline(self, deadline: Optional[float]) -> Optional[bytes]:
        """The next line without its newline; None when the deadline passed first.
        Raises ConnectionError when the server closed the connection."""
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                line, self._buffer = self._buffer[:newline], self._buffer[newline + 1:]
                return line.rstrip(b"\r")
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self._sock], [], [], timeout)
            if not ready:
                return None
            chunk = self._sock.recv(65536)
            if not chunk:
                raise ConnectionError("the control socket was closed by Strata")
            self._buffer += chunk


class ControlConnection:
    """One connection to Strata's control socket. `request` sends a command and returns its
    reply's fields (without ``id`` and ``ok``), or raises `StrataError`."""

    def __init__(self, path: str, timeout: float = 30.0):
        self.path = path
        self.timeout = timeout
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.connect(path)
        self._reader = _LineReader(self._sock)
        self._ids = itertools.count(1)

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> "ControlConnection":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def request(self, command: str, **arguments: Any) -> Dict[str, Any]:
        request_id = next(self._ids)
        line = json.dumps({"id": request_id, "command": command, **arguments}, separators=(",", ":"))
        self._sock.sendall(line.encode() + b"\n")
        deadline = time.monotonic() + self.timeout
        while True:
            raw = self._reader.readline(deadline)
            if raw is None:
                raise TimeoutError(f"{command}: no reply from Strata within {self.timeout} s")
            if not raw:
                continue
            reply = json.loads(raw)
            if "ok" not in reply or reply.get("id") != request_id:
                continue  # an event line, or a reply to someone else's id
            if not reply["ok"]:
                error = reply.get("error") or {}
                raise StrataError(command, error.get("code", "unknown"), error.get("message", ""))
            reply.pop("id", None)
            reply.pop("ok", None)
            return reply


class EventStream:
    """A connection subscribed to the window model's events (`events` with ``follow``): every
    notification after `since`, in order, each once. Iterate with `next_event(timeout)`."""

    def __init__(self, path: str, since: Optional[int] = None):
        self._connection = ControlConnection(path)
        arguments: Dict[str, Any] = {"follow": True}
        if since is not None:
            arguments["since"] = since
        reply = self._connection.request("events", **arguments)
        self.sequence: int = reply.get("sequence", 0)

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> "EventStream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def next_event(self, timeout: float) -> Optional[Dict[str, Any]]:
        """The next event, or None when none came within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            raw = self._connection._reader.readline(deadline)
            if raw is None:
                return None
            if not raw:
                continue
            event = json.loads(raw)
            if "ok" in event:
                continue
            self.sequence = max(self.sequence, event.get("sequence", self.sequence))
            return event

    def events(self, timeout: float) -> Iterator[Dict[str, Any]]:
        """Events until `timeout` seconds pass without one."""
        while True:
            event = self.next_event(timeout)
            if event is None:
                return
            yield event
