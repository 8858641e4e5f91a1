"""The python delegate against the real `strata` binary and real clients: the example policies
(examples/policies) run on a thread of the test and as `python -m strata_testing.delegate`."""

import os

import pytest

from strata_testing import Delegate, Strata
from strata_testing.delegate import load

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "policies")


@pytest.fixture(autouse=True)
def needs_the_delegate_commands(strata):
    """Only a Strata with the `delegate` command can run these (docs/control.md, "Policy delegate")."""
    if "delegate" not in strata.hello().get("commands", []):
        pytest.skip("this strata has no `delegate` control command (the policy delegate is not built in)")


def show(strata, color_client, app_id, *extra, at=None):
    strata.exec([color_client, "--app-id", app_id, "--size", "300x200", "--seconds", "60", *extra])
    window = strata.wait_for_window(app_id)
    if at is not None:
        window = strata.move(app_id, 1, *at)
    return window


def test_alerts_win_on_a_thread_of_the_test(strata, color_client):
    session = strata.delegate(load(os.path.join(EXAMPLES, "alerts_win.py")), deadline_ms=2000)
    assert session.registration["decisions"] == ["key"]
    assert strata.command("policy")["delegate"]["decisions"] == ["key"]
    show(strata, color_client, "left", at=(100, 100))
    show(strata, color_client, "right", at=(600, 100))
    strata.assert_key("right")
    strata.click(150, 150)  # the built-in (uikit) would not make a clicked window key
    strata.assert_key("left")
    show(strata, color_client, "alert", "--level", "alert", at=(500, 400))
    strata.wait_until(lambda: strata.window("alert").key, description="the alert to be key")
    strata.click(650, 150)
    strata.assert_key("alert")
    strata.assert_stacking("alert", "right", "left")
    strata.raise_window("left")
    since = strata.sync()
    strata.close("alert")
    strata.wait_for_event("windowDidBecomeKey", strata.window("right").id, since=since)
    strata.assert_key("right")  # the most recently clicked, not the frontmost
    assert session.refused == [] and session.answered >= 4


def test_a_policy_file_as_a_child_process(strata, color_client):
    process = strata.delegate(os.path.join(EXAMPLES, "alerts_win.py"), deadline_ms=2000)
    assert process.poll() is None
    show(strata, color_client, "left", at=(100, 100))
    show(strata, color_client, "right", at=(600, 100))
    strata.click(150, 150)
    strata.wait_until(lambda: strata.window("left").key, description="the clicked window to be key")


class Raises(Delegate):
    def map(self, q):
        raise RuntimeError("a broken policy")

    def click(self, q):
        return {"key": True, "order_front": True}


def test_a_policy_that_raises_leaves_the_decision_to_the_builtin_and_goes_on(strata, color_client, caplog):
    session = strata.delegate(Raises(), deadline_ms=2000)
    show(strata, color_client, "first", at=(100, 100))
    strata.assert_key("first")  # the built-in: a new window is key
    show(strata, color_client, "second", at=(600, 100))
    strata.click(150, 150)
    strata.wait_until(lambda: strata.window("first").key, description="the clicked window to be key")
    assert "a broken policy" in caplog.text
    assert session.running


@pytest.mark.strata(clock="manual")
def test_no_focus_stealing_under_the_manual_clock(strata, color_client):
    strata.delegate(load(os.path.join(EXAMPLES, "no_focus_stealing.py")))
    show(strata, color_client, "editor")
    strata.assert_key("editor")
    strata.type("hello")
    show(strata, color_client, "popup")
    strata.assert_key("editor")
    strata.assert_stacking("popup", "editor")
    strata.step(130)  # 2.17 s of the virtual clock at 60 Hz
    show(strata, color_client, "later")
    strata.assert_key("later")
