"""The delegate's connection: `delegate`, then a `decide` for each question (docs/control.md)."""

from __future__ import annotations

import itertools
import json
import logging
import os
import socket
import threading
from typing import Any, Dict, List, Optional, Tuple

from ..control import StrataError
from .question import Question

log = logging.getLogger("strata_testing.delegate")


def connect(path: Optional[str]) -> socket.socket:
    path = path or os.environ.get("STRATA_SOCKET")
    if not path:
        raise ValueError("no control socket: pass its path or set STRATA_SOCKET")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
    except OSError:
        sock.close()
        raise
    return sock


class DelegateSession:
    """One delegate's connection: sends `delegate`, then answers each question line with
    `decide`, in order, until Strata closes the connection (or `stop`)."""

    def __init__(self, delegate: Delegate, sock: socket.socket, deadline_ms: Optional[int] = None,
                 verbose: bool = False):
        self.delegate = delegate
        self.sock = sock
        self.deadline_ms = deadline_ms
        self.verbose = verbose
        self.registration: Optional[Dict[str, Any]] = None
        """The `delegate` reply (``decisions``, ``deadline_ms``, ``clock``) once Strata sent it."""
        self.error: Optional[BaseException] = None
        self.answered = 0
        self.refused: List[Dict[str, Any]] = []
        """The `decide` replies that were errors or ``applied: false`` (also logged)."""
        self._ids = itertools.count(1)
        self._pending: Dict[int, Tuple[str, Optional[int]]] = {}
        self._registered = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._buffer = b""

    # Running

    def run(self) -> None:
        """Registers, then answers questions until the connection ends. Raises `StrataError` when
        Strata refuses the registration."""
        try:
            self._register()
            while True:
                line = self._readline()
                if line is None:
                    return
                self._handle(line)
        except BaseException as error:
            self.error = error
            raise
        finally:
            self._registered.set()
            self.sock.close()

    def start(self, timeout: float = 10.0) -> None:
        """`run` on a daemon thread; returns once registered (raises what went wrong)."""
        def body() -> None:
            try:
                self.run()
            except (OSError, ValueError) as error:
                log.debug("delegate connection ended: %s", error)
            except Exception:  # noqa: BLE001 — kept in `error`; start() raises it
                pass

        self._thread = threading.Thread(target=body, name="strata-delegate", daemon=True)
        self._thread.start()
        if not self._registered.wait(timeout):
            self.stop()
            raise TimeoutError(f"Strata did not answer the delegate registration within {timeout} s")
        if self.registration is None:
            raise self.error or ConnectionError("the control socket closed before the delegate registered")

    def stop(self, timeout: float = 5.0) -> None:
        """Ends the connection (Strata's built-in policy decides again) and the thread."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # The wire

    def _send(self, command: str, **arguments: Any) -> int:
        request_id = next(self._ids)
        line = json.dumps({"id": request_id, "command": command, **arguments}, separators=(",", ":"))
        self.sock.sendall(line.encode() + b"\n")
        return request_id

    def _readline(self) -> Optional[bytes]:
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                line, self._buffer = self._buffer[:newline], self._buffer[newline + 1:]
                return line.rstrip(b"\r")
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return None
            if not chunk:
                return None
            self._buffer += chunk

    def _register(self) -> None:
        decisions = self.delegate.registered_decisions()
        arguments: Dict[str, Any] = {"decisions": decisions}
        if self.deadline_ms is not None:
            arguments["deadline_ms"] = self.deadline_ms
        request_id = self._send("delegate", **arguments)
        self._pending[request_id] = ("delegate", None)
        # Questions may come before the reply only once registered, so the reply comes first;
        # lines before it are handled as they come all the same.
        while self.registration is None:
            line = self._readline()
            if line is None:
                raise ConnectionError("the control socket closed before Strata answered `delegate`")
            self._handle(line)

    def _handle(self, raw: bytes) -> None:
        if not raw.strip():
            return
        try:
            message = json.loads(raw)
        except ValueError:
            log.warning("not JSON from Strata: %r", raw[:200])
            return
        if not isinstance(message, dict):
            return
        if "ok" in message:
            self._reply(message)
        elif "question" in message and "name" not in message:
            self._question(Question(message))
        # else: an event line (policyDidFallBack has a `question` too): nothing to do

    def _reply(self, reply: Dict[str, Any]) -> None:
        command, question = self._pending.pop(reply.get("id"), ("?", None))
        if command == "delegate":
            if not reply.get("ok"):
                error = reply.get("error") or {}
                raise StrataError("delegate", error.get("code", "unknown"), error.get("message", ""))
            self.registration = {name: value for name, value in reply.items() if name not in ("id", "ok")}
            log.info("registered as Strata's delegate for %s (deadline %s ms, %s clock)",
                     ", ".join(self.registration.get("decisions") or []) or "nothing",
                     self.registration.get("deadline_ms"), self.registration.get("clock"))
            self._registered.set()
            return
        if not reply.get("ok"):
            error = reply.get("error") or {}
            self.refused.append(reply)
            log.warning("question %s: Strata refused the answer: %s: %s", question,
                        error.get("code"), error.get("message"))
        elif reply.get("applied") is False:
            self.refused.append(reply)
            log.warning("question %s: the answer was not applied (the model's rules refuse it); "
                        "the built-in decided", question)

    def _question(self, q: Question) -> None:
        answer = self.delegate.decide(q)
        if self.verbose:
            log.info("question %s: %s window %s → %s", q.raw.get("question"), q.kind, q.raw.get("window"),
                     json.dumps(answer))
        self.answered += 1
        request_id = self._send("decide", question=q.raw.get("question"), answer=answer)
        self._pending[request_id] = ("decide", q.raw.get("question"))


