"""The python delegate against a fake Strata: the other end of a socket pair (or a listening
socket) that speaks the delegate wire of docs/control.md ("Policy delegate"): it reads the
`delegate` registration, sends question lines and reads the `decide` answers."""

import json
import logging
import os
import socket
import subprocess
import sys
import textwrap

import pytest

import strata_testing as strata
from strata_testing import StrataError
from strata_testing.delegate import BUILTIN, DelegateSession, FunctionDelegate, Question, as_delegate, load, normalize

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "policies")


def window(id, level="normal", key=False, hidden=False, app_id=None, order=0):
    return {"id": id, "app_id": app_id or f"app{id}", "title": "", "pid": 100 + id, "level": level, "order": order,
            "key": key, "hidden": hidden, "screen": 1, "frame": {"x": 0, "y": 0, "width": 100, "height": 100}}


def question(number, kind, window_id=None, windows=(), key=None, **extra):
    line = {"question": number, "kind": kind, "cause": {"cause": kind, "request": "pointer-button 272",
                                                         "requester": "user"},
            "builtin": {"key": True, "order_front": False}, "deadline_ms": 50,
            "state": {"key": key, "locked": False, "windows": list(windows)}, **extra}
    if window_id is not None:
        line["window"] = window_id
    return line


class FakeStrata:
    """The server's end of the delegate's connection."""

    def __init__(self, sock):
        self.sock = sock
        self.sock.settimeout(10)
        self.buffer = b""

    def read(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the delegate hung up")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def send(self, message):
        self.sock.sendall(json.dumps(message).encode() + b"\n")

    def accept_registration(self, clock="realtime"):
        request = self.read()
        assert request["command"] == "delegate"
        self.send({"id": request["id"], "ok": True, "decisions": request["decisions"],
                   "deadline_ms": request.get("deadline_ms", 50), "clock": clock})
        return request

    def ask(self, line, reply=None):
        """Sends a question; returns the answer of its `decide` (replied ok, applied)."""
        self.send(line)
        request = self.read()
        assert request["command"] == "decide" and request["question"] == line["question"], request
        self.send(reply(request) if reply else {"id": request["id"], "ok": True, "applied": True})
        return request["answer"]


@pytest.fixture
def connect():
    """connect(policy, **session options) → (FakeStrata, running DelegateSession)."""
    sessions = []

    def start(policy, accept=True, **options):
        server_end, delegate_end = socket.socketpair()
        server = FakeStrata(server_end)
        session = DelegateSession(as_delegate(policy), delegate_end, **options)
        sessions.append((server, session))
        import threading
        registered = {}

        def register():
            registered["request"] = server.accept_registration()

        if accept:
            helper = threading.Thread(target=register)
            helper.start()
            session.start(timeout=10)
            helper.join()
            server.registration = registered["request"]
        return server, session

    yield start
    for server, session in sessions:
        server.sock.close()
        session.stop()
        assert not session.running


class Clicks(strata.Delegate):
    def click(self, q):
        return {"key": True, "order_front": q.window == 2}


def test_a_delegate_registers_for_the_decisions_of_the_methods_it_overrides(connect):
    server, session = connect(Clicks(), deadline_ms=80)
    assert server.registration["decisions"] == ["key"]
    assert server.registration["deadline_ms"] == 80
    assert session.registration == {"decisions": ["key"], "deadline_ms": 80, "clock": "realtime"}

    class Everything(strata.Delegate):
        def placement(self, q):
            return (10, 20)

        def level(self, q):
            return "alert"

        def successor(self, q):
            return None

    assert Everything().registered_decisions() == ["key", "placement", "stacking"]

    class Chosen(Everything):
        decisions = ("placement",)

    assert Chosen().registered_decisions() == ["placement"]


def test_each_question_is_answered_with_decide_in_order(connect):
    server, session = connect(Clicks())
    assert server.ask(question(1, "click", 2)) == {"key": True, "order_front": True}
    assert server.ask(question(2, "click", 3)) == {"key": True, "order_front": False}
    # A kind the delegate does not override: the built-in decides.
    assert server.ask(question(3, "map", 3, requested=True)) == BUILTIN
    assert session.answered == 3


def test_an_event_line_or_garbage_between_questions_is_skipped(connect):
    server, session = connect(Clicks())
    server.send({"name": "windowDidOpen", "sequence": 4, "window": 2})
    server.send({"name": "policyDidFallBack", "sequence": 5, "question": 9, "kind": "map", "reason": "deadline"})
    server.sock.sendall(b"not json\n\n")
    assert server.ask(question(1, "click", 2)) == {"key": True, "order_front": True}


def test_a_policy_that_raises_is_logged_and_answered_builtin_and_the_delegate_goes_on(connect, caplog):
    class Broken(strata.Delegate):
        def map(self, q):
            if q.window == 1:
                raise KeyError("no such thing")
            return {"key": False}

        def pointer_enter(self, q):
            return object()  # no answer

    server, session = connect(Broken())
    with caplog.at_level(logging.ERROR, logger="strata_testing.delegate"):
        assert server.ask(question(1, "map", 1)) == BUILTIN
        assert server.ask(question(2, "pointer-enter", 1)) == BUILTIN
    assert "question 1 (map, window 1): the policy raised" in caplog.text
    assert "KeyError" in caplog.text
    assert "a pointer-enter policy returned" in caplog.text
    assert server.ask(question(3, "map", 2)) == {"key": False}
    assert session.running


def test_a_refused_or_unapplied_answer_is_logged_and_kept(connect, caplog):
    server, session = connect(Clicks())
    with caplog.at_level(logging.WARNING, logger="strata_testing.delegate"):
        server.ask(question(1, "click", 2), lambda r: {"id": r["id"], "ok": True, "applied": False})
        server.ask(question(2, "click", 2), lambda r: {"id": r["id"], "ok": False, "error": {
            "code": "failed", "message": "question 2 was already decided by the fallback after 50 ms"}})
        server.ask(question(3, "click", 2))  # the next reply is read only after the next question
    assert [reply.get("applied", reply.get("error", {}).get("code")) for reply in session.refused] == [False, "failed"]
    assert "question 1: the answer was not applied" in caplog.text
    assert "already decided by the fallback after 50 ms" in caplog.text


def test_the_delegate_ends_when_strata_hangs_up(connect):
    server, session = connect(Clicks())
    server.sock.shutdown(socket.SHUT_RDWR)
    session._thread.join(5)
    assert not session.running
    assert session.error is None


def test_a_refused_registration_raises_the_servers_error():
    server_end, delegate_end = socket.socketpair()
    server = FakeStrata(server_end)
    session = DelegateSession(Clicks(), delegate_end)
    import threading

    def refuse():
        request = server.read()
        server.send({"id": request["id"], "ok": False, "error": {
            "code": "failed", "message": "the key decision is already delegated to connection 3"}})

    helper = threading.Thread(target=refuse)
    helper.start()
    with pytest.raises(StrataError, match="already delegated to connection 3") as error:
        session.start(timeout=10)
    helper.join()
    assert error.value.code == "failed"
    server_end.close()


def test_decorated_functions_make_a_delegate(connect):
    seen = []

    @strata.key_policy
    def key(q):
        seen.append(q.kind)
        return q.kind != "map"

    @strata.placement_policy
    def place(q):
        return (q.size.width, 7)

    @strata.decide("level")
    def level(q):
        return False

    delegate = FunctionDelegate([key, place, level])
    assert delegate.registered_decisions() == ["key", "placement", "stacking"]
    server, session = connect(delegate)
    assert server.ask(question(1, "map", 1)) == {"key": False}
    assert server.ask(question(2, "pointer-enter", 1)) == {"key": True}
    assert server.ask(question(3, "focus-request", 1, rule="latestInput")) == {"grant": True}
    assert server.ask(question(4, "placement", 1, size={"width": 300, "height": 200})) == {"origin": {"x": 300, "y": 7}}
    assert server.ask(question(5, "level", 1, requested="alert")) == {"grant": False}
    assert seen == ["map", "pointer-enter", "focus-request"]
    assert as_delegate(key).registered_decisions() == ["key"]
    with pytest.raises(ValueError, match="question kinds"):
        strata.decide("keyboard")
    with pytest.raises(ValueError, match="is not a policy"):
        FunctionDelegate([lambda q: None])


def test_a_question_reads_by_attribute_with_helpers():
    q = Question(question(7, "successor", None, [window(3, "alert"), window(2, key=True), window(1, hidden=True)],
                          key=2, lost=2))
    assert (q.id, q.kind, q.decision, q.deadline_ms, q.lost) == (7, "successor", "key", 50, 2)
    assert (q.cause.cause, q.cause.request, q.cause.requester) == ("successor", "pointer-button 272", "user")
    assert q.cause.requested_ns is None and q.window is None and q.window_info is None
    assert q.builtin.key is True and "key" in q.builtin
    assert q.state.key == 2 and q.state.locked is False
    assert [w.id for w in q.windows_front_to_back] == [3, 2, 1]
    assert [w.id for w in q.visible()] == [3, 2] and [w.id for w in q.visible("alert")] == [3]
    assert q.level_of(3) == "alert" and q.level_of("app2") == "normal" and q.level_of(9) is None
    assert Question(question(1, "map", 3, [window(3, "alert")])).window_info.app_id == "app3"


def test_shorthands_become_answers():
    click = Question(question(1, "click", 2))
    assert normalize(click, False) == {"key": False, "order_front": False}  # the built-in's order_front
    assert normalize(click, None) == normalize(click, "builtin") == BUILTIN
    assert normalize(Question(question(1, "successor", None)), 4) == {"window": 4}
    assert normalize(Question(question(1, "successor", None)), {"window": None}) == {"window": None}
    assert normalize(Question(question(1, "level", 2)), 500) == {"level": 500}
    with pytest.raises(TypeError):
        normalize(Question(question(1, "map", 2)), 3)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


def test_a_policy_file_defines_a_class_an_instance_or_functions(tmp_path):
    assert type(load(write(tmp_path, "a.py", """
        import strata_testing as strata
        class Mine(strata.Delegate):
            def map(self, q):
                return True
        """))).__name__ == "Mine"
    made = load(write(tmp_path, "b.py", """
        import strata_testing as strata
        class Mine(strata.Delegate):
            def __init__(self, seconds):
                self.seconds = seconds
        class Other(Mine):
            pass
        delegate = Other(3)
        """))
    assert made.seconds == 3
    functions = load(write(tmp_path, "c.py", """
        import strata_testing as strata
        @strata.decide("click")
        def click(q):
            return True
        """))
    assert functions.registered_decisions() == ["key"] and list(functions.handlers) == ["click"]
    with pytest.raises(ValueError, match="defines no policy"):
        load(write(tmp_path, "d.py", "x = 1\n"))
    with pytest.raises(ValueError, match="2 Delegate classes"):
        load(write(tmp_path, "e.py", """
            import strata_testing as strata
            class A(strata.Delegate): pass
            class B(strata.Delegate): pass
            """))


def python_environment():
    source = os.path.abspath(os.path.join(os.path.dirname(strata.__file__), ".."))
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [source, os.environ.get("PYTHONPATH")]))}


def test_the_standalone_runner_registers_answers_and_exits_when_strata_goes(tmp_path):
    path = str(tmp_path / "control.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)
    listener.settimeout(20)
    process = subprocess.Popen([sys.executable, "-m", "strata_testing.delegate",
                                os.path.join(EXAMPLES, "alerts_win.py"), "--deadline-ms", "200", "--verbose"],
                               env={**python_environment(), "STRATA_SOCKET": path},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        connection, _ = listener.accept()
        server = FakeStrata(connection)
        assert server.accept_registration()["decisions"] == ["key"]
        assert server.ask(question(1, "click", 1, [window(2, "alert"), window(1, key=True)])) == {
            "key": False, "order_front": True}
        connection.close()
        _, errors = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
        listener.close()
    assert process.returncode == 0, errors
    assert "registered as Strata's delegate for key (deadline 200 ms, realtime clock)" in errors
    assert "question 1: click window 1" in errors


def test_the_standalone_runner_says_what_is_wrong_with_a_policy_file(tmp_path):
    result = subprocess.run([sys.executable, "-m", "strata_testing.delegate", write(tmp_path, "p.py", "x = (\n")],
                            env={**python_environment(), "STRATA_SOCKET": str(tmp_path / "none")},
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "cannot load" in result.stderr and "Traceback" not in result.stderr
    result = subprocess.run([sys.executable, "-m", "strata_testing.delegate", os.path.join(EXAMPLES, "alerts_win.py"),
                             "--socket", str(tmp_path / "none")],
                            env=python_environment(), capture_output=True, text=True, timeout=30)
    assert result.returncode == 1 and "No such file" in result.stderr and "Traceback" not in result.stderr


# MARK: The example policies' rules, question by question

def policy(name):
    return load(os.path.join(EXAMPLES, name))


def test_alerts_win_keeps_key_on_a_shown_alert():
    alerts = policy("alerts_win.py")
    document, other, alert = window(1, key=True), window(2), window(3, "alert")
    # No alert: a click makes key and orders front; a new window is the built-in's.
    assert alerts.decide(Question(question(1, "click", 2, [other, document], key=1))) == {"key": True, "order_front": True}
    assert alerts.decide(Question(question(2, "map", 2, [other, document], key=1))) == BUILTIN
    # An alert maps: it is key; another window then does not take key, by map, click or request.
    assert alerts.decide(Question(question(3, "map", 3, [alert, other, document], key=2))) == {"key": True}
    assert alerts.decide(Question(question(4, "map", 4, [alert, window(4), other], key=3))) == {"key": False}
    assert alerts.decide(Question(question(5, "click", 1, [alert, other, document], key=3))) == {
        "key": False, "order_front": True}
    assert alerts.decide(Question(question(6, "focus-request", 2, [alert, other, document], key=3))) == {"grant": False}
    assert alerts.decide(Question(question(7, "click", 3, [alert, other, document], key=3))) == {
        "key": True, "order_front": True}
    # The alert closes: the most recently clicked window still shown succeeds it (1, not 2).
    closed = dict(alert, hidden=True)
    assert alerts.decide(Question(question(8, "successor", None, [closed, document, other], lost=3))) == {"window": 1}


def test_no_focus_stealing_refuses_key_to_a_new_window_while_the_user_types():
    quiet = policy("no_focus_stealing.py")
    windows = [window(2), window(1, key=True)]
    typing = {"time_ns": 5_000_000_000}
    q = question(1, "map", 2, windows, key=1, **typing)
    q["state"]["last_key_ns"] = 4_000_000_000
    assert quiet.decide(Question(q)) == {"key": False}
    q["state"]["last_key_ns"] = 2_900_000_000
    assert quiet.decide(Question(q)) == BUILTIN
    q["state"]["last_key_ns"] = 0  # never typed
    assert quiet.decide(Question(q)) == BUILTIN
    request = question(2, "focus-request", 2, windows, key=1, rule="latestInput", **typing)
    request["state"]["last_key_ns"] = 4_500_000_000
    assert quiet.decide(Question(request)) == {"grant": False}
    assert quiet.decide(Question(question(3, "map", 2, windows, key=1))) == BUILTIN  # no clock: the built-in
    # "Now" is the cause's time when the question has no time_ns of its own.
    caused = question(4, "map", 2, windows, key=1)
    caused["cause"]["requested_ns"] = 9_000_000_000
    caused["state"]["last_key_ns"] = 8_000_000_000
    assert quiet.decide(Question(caused)) == {"key": False}
