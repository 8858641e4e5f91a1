"""`Window`'s fields and the waits (`wait_for_window` by title, pid and app id; `wait_until`),
against the real binary and real clients (foot, weston-stacking, xterm under Xwayland)."""

import shutil

import pytest

from strata_testing import StrataError, Window

needs_foot = pytest.mark.skipif(shutil.which("foot") is None, reason="foot is not installed (apt-get install foot)")


def foot(strata, *arguments):
    """A foot terminal that stays open (a child of the test: the public socket)."""
    return strata.spawn(["foot", *arguments, "sh", "-c", "exec sleep 60"])


def test_a_window_keeps_every_field_of_the_reply_and_fields_it_does_not_know():
    window = Window.from_json({
        "id": 3, "app_id": "Gtk3-demo", "title": "Dialogs", "pid": 42, "level": "normal", "order": 1,
        "key": False, "hidden": False, "screen": 1, "frame": {"x": 1, "y": 2, "width": 3, "height": 4},
        "kind": "x11", "modal": True, "parent": 2, "a_future_field": {"any": "thing"}})
    assert (window.kind, window.modal, window.parent, window.title, window.pid) == ("x11", True, 2, "Dialogs", 42)
    assert window.extra == {"a_future_field": {"any": "thing"}}
    oldest = Window.from_json({"id": 1})  # what an older Strata leaves out takes its default
    assert (oldest.kind, oldest.modal, oldest.parent, oldest.app_id) == ("wayland", False, None, "")


def test_windows_are_named_by_id_title_pid_and_app_id_in_any_case():
    window = Window.from_json({"id": 7, "app_id": "XTerm", "title": "make check (in ~/src)", "pid": 99})
    assert window.named(7) and window.named("xterm") and window.named("XTERM")
    assert window.named("title:make check (in ~/src)") and window.named("title:make*") and window.named("title:*src)")
    assert not window.named("title:make") and not window.named("title:Make*")  # exact, and in its case
    assert window.named("pid:99") and not window.named("pid:98")
    assert window.matches(title="*check*", pid=99, app_id="xterm") and not window.matches(title="*check*", pid=1)


@needs_foot
def test_a_wayland_window_has_its_title_pid_and_kind(strata):
    terminal = foot(strata, "--app-id", "Example.Foot", "--title", "python fields")
    window = strata.wait_for_window(app_id="example.foot")  # any case
    assert (window.title, window.pid, window.kind) == ("python fields", terminal.pid, "wayland")
    assert (window.parent, window.modal) == (None, False)


@needs_foot
def test_waiting_by_title_pid_and_app_id_finds_the_window_that_has_them_all(strata):
    first = foot(strata, "--app-id", "example.term", "--title", "build: running")
    second = foot(strata, "--app-id", "example.term", "--title", "tests: running")
    by_title = strata.wait_for_window(title="tests: *")
    assert by_title.pid == second.pid
    by_pid = strata.wait_for_window(pid=first.pid)
    assert by_pid.title == "build: running"
    both = strata.wait_for_window(title="*: running", pid=second.pid, app_id="EXAMPLE.TERM")
    assert both.id == by_title.id
    assert strata.wait_for_window("title:build*").id == by_pid.id  # a name as the control socket takes it
    with pytest.raises(TimeoutError) as error:
        strata.wait_for_window(title="build: *", pid=second.pid, timeout=0.3)
    message = str(error.value)
    assert message.startswith(f"waited 0.3 s for a visible window with title 'build: *' and pid {second.pid}; ")
    # The open windows are listed with what tells them apart.
    assert f"title 'build: running', pid {first.pid}" in message and f"title 'tests: running', pid {second.pid}" in message


@pytest.mark.skipif(shutil.which("weston-stacking") is None, reason="weston-stacking is not installed (apt-get install weston)")
def test_a_transient_window_names_its_parent(strata):
    stacking = strata.spawn(["weston-stacking"])
    parent = strata.wait_for_window(pid=stacking.pid)
    strata.wait_until(lambda: getattr(strata.key_window(), "id", None) == parent.id, description="the stacking window is key")
    strata.key("t")  # weston-stacking opens a transient window of the key window
    child = strata.wait_until(lambda: next((w for w in strata.windows() if w.parent == parent.id), None),
                              description="a window whose parent is the stacking window")
    assert child.pid == stacking.pid and child.kind == "wayland" and not child.modal
    assert strata.window(parent.id).parent is None


@pytest.mark.skipif(shutil.which("xterm") is None, reason="xterm is not installed (apt-get install xterm)")
def test_an_x11_window_says_so(strata):
    terminal = strata.spawn(["xterm", "-T", "python xterm", "-e", "sleep 60"])
    window = strata.wait_for_window(title="python xterm", app_id="xterm")  # WM_CLASS XTerm, in any case
    assert window.kind == "x11"
    assert window.pid == terminal.pid


def test_wait_until_evaluates_the_predicate_on_events_not_by_polling(strata, color_client):
    calls = []

    def two_windows():
        calls.append(len(calls))
        if len(calls) == 1:  # the first evaluation starts what it waits for
            for app_id in ("example.one", "example.two"):
                strata.exec([color_client, "--app-id", app_id, "--seconds", "60"])
        return len([window for window in strata.windows() if not window.hidden]) == 2

    assert strata.wait_until(two_windows) is True
    assert 2 <= len(calls) <= 20  # once, then once per batch of events (two windows: a handful)

    idle = []
    with pytest.raises(TimeoutError) as error:
        strata.wait_until(lambda: idle.append(1), timeout=0.5, description="nothing")
    assert len(idle) == 1  # no event came: never evaluated again
    assert str(error.value).startswith("waited 0.5 s for nothing; open windows, front to back:")
    assert "app_id 'example.one'" in str(error.value) and "app_id 'example.two'" in str(error.value)


def test_wait_until_returns_what_the_predicate_returned(strata, color_client):
    strata.exec([color_client, "--app-id", "example.value", "--seconds", "60"])
    key = strata.wait_until(strata.key_window)
    assert isinstance(key, Window) and key.app_id == "example.value"


def test_a_wait_for_nothing_is_refused(strata):
    with pytest.raises(ValueError, match="give a name, title, pid or app_id"):
        strata.wait_for_window()


@needs_foot
@pytest.mark.skipif(shutil.which("xterm") is None, reason="xterm is not installed (apt-get install xterm)")
def test_the_readmes_example_of_real_clients_runs(strata):
    foot = strata.spawn(["foot", "--title", "build: running", "sh", "-c", "exec sleep 60"])
    xterm = strata.spawn(["xterm", "-T", "logs", "-e", "sleep 60"])
    terminal = strata.wait_for_window(title="build: *", pid=foot.pid)
    logs = strata.wait_for_window(app_id="xterm")
    assert (terminal.kind, logs.kind) == ("wayland", "x11")
    assert logs.pid == xterm.pid
    strata.make_key(logs.id)
    strata.wait_until(lambda: strata.window(logs.id).key)


@needs_foot
def test_a_wait_for_a_title_sees_the_title_change_after_the_window_shows(strata):
    script = r"""read line; printf '\033]2;after %s\007' "$line"; exec sleep 60"""
    terminal = strata.spawn(["foot", "--title", "before", "sh", "-c", script])
    before = strata.wait_for_window(title="before", pid=terminal.pid)
    strata.wait_until(lambda: strata.window(before.id).key)
    strata.type("go")
    strata.key("Return")
    after = strata.wait_for_window(title="after *", timeout=5)  # windowDidChangeTitle wakes it
    assert (after.id, after.title) == (before.id, "after go")


@needs_foot
def test_settle_returns_once_foot_has_drawn(strata):
    foot(strata, "--app-id", "settling")
    strata.wait_for_window("settling")
    assert strata.settle(frames=3, timeout=20)["frames"] == 3


@pytest.mark.skipif(shutil.which("weston-simple-shm") is None, reason="weston-simple-shm is not installed (apt-get install weston)")
def test_settle_names_a_window_that_never_stops_drawing(strata):
    strata.spawn(["weston-simple-shm"])
    strata.wait_for_window("org.freedesktop.weston.simple-shm")
    with pytest.raises(StrataError) as error:
        strata.settle(timeout=1)
    assert error.value.code == "failed"
    assert "org.freedesktop.weston.simple-shm" in error.value.message
