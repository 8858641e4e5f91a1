"""A delegate for a test's `Strata` (`Strata.delegate`): on a thread, or a policy file in a child
process; either is ready once Strata's `policy` reply names the delegate."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any, List, Optional

from .policy import as_delegate
from .session import DelegateSession


def start_delegate(strata: Any, policy: Any, deadline_ms: Optional[int], timeout: float, verbose: bool) -> Any:
    if isinstance(policy, (str, os.PathLike)):
        return _start_process(strata, os.fspath(policy), deadline_ms, timeout, verbose)
    session = as_delegate(policy).start(strata.control_socket, deadline_ms, timeout, verbose)
    strata._delegates.append(session)
    _wait_for_policy(strata, timeout, lambda: None if session.running else "its thread ended")
    return session


def _start_process(strata: Any, path: str, deadline_ms: Optional[int], timeout: float,
                   verbose: bool) -> subprocess.Popen:
    source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    environment = strata.environment
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [source, environment.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "strata_testing.delegate", os.path.abspath(path),
               "--socket", strata.control_socket]
    if deadline_ms is not None:
        command += ["--deadline-ms", str(deadline_ms)]
    if verbose:
        command.append("--verbose")
    log_path = os.path.join(strata.workdir, f"delegate-{len(strata._delegates) + 1}.log")
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, env=environment, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    process.log_path = log_path  # type: ignore[attr-defined]
    strata._delegates.append(process)

    def ended() -> Optional[str]:
        if process.poll() is None:
            return None
        with open(log_path, errors="replace") as file:
            return f"it exited with status {process.returncode}:\n{file.read()[-4000:]}"

    _wait_for_policy(strata, timeout, ended)
    return process


def _wait_for_policy(strata: Any, timeout: float, ended: Any) -> None:
    """Polls `policy` (every 20 ms, up to `timeout`) until its reply has a ``delegate``: Strata
    posts no event for a registration."""
    deadline = time.monotonic() + timeout
    while True:
        if "delegate" in strata.command("policy"):
            return
        reason = ended()
        if reason is not None:
            raise RuntimeError(f"the policy delegate did not register: {reason}")
        if time.monotonic() >= deadline:
            raise TimeoutError(f"Strata's policy reply named no delegate within {timeout} s")
        time.sleep(0.02)


def finish_delegates(delegates: List[Any], timeout: float = 5.0) -> None:
    """After Strata stopped: each delegate's connection has ended; waits for the threads and
    processes (a process still running after `timeout` is killed)."""
    for delegate in delegates:
        if isinstance(delegate, DelegateSession):
            delegate.stop(timeout)
        else:
            try:
                delegate.wait(timeout)
            except subprocess.TimeoutExpired:
                delegate.kill()
                delegate.wait()
    delegates.clear()
