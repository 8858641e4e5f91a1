"""The `strata` fixture and its helpers, against the real `strata` binary and real clients."""

import os

import pytest

from strata_testing import Strata, StrataError, read_png


def show(strata, color_client, app_id, colour="ff0000", size="160x120", *extra):
    strata.exec([color_client, "--app-id", app_id, "--color", colour, "--size", size, "--seconds", "60", *extra])
    return strata.wait_for_window(app_id)


def test_each_test_gets_a_fresh_strata_of_its_own(strata):
    hello = strata.hello()
    assert hello["server"] == "strata"
    assert hello["wayland_display"] == strata.wayland_display
    assert strata.windows() == []
    assert os.path.exists(os.path.join(strata.runtime_dir, strata.wayland_display))
    [screen] = strata.screens()
    assert (screen.main, screen.bounds["width"], screen.bounds["height"]) == (True, 1280, 720)


@pytest.mark.strata(size="800x600", screens=2)
def test_the_marker_sets_the_command_line(strata):
    screens = strata.screens()
    assert [(s.bounds["width"], s.bounds["height"]) for s in screens] == [(800, 600), (800, 600)]


def test_a_client_started_through_strata_becomes_the_key_window(strata, color_client):
    window = show(strata, color_client, "example.first")
    assert window.key and not window.hidden and window.level == "normal"
    strata.assert_key("example.first")
    strata.assert_key(window.id)
    started = strata.exec([color_client, "--app-id", "example.pid", "--seconds", "60"])
    assert strata.wait_for_window("example.pid").pid == started  # the client's, not Strata's


def test_levels_order_windows_over_the_order_inside_a_level(strata, color_client):
    show(strata, color_client, "example.first")
    show(strata, color_client, "example.second", "00ff00")
    strata.assert_stacking("example.second", "example.first")
    strata.set_level("example.first", "alert")
    strata.assert_stacking("example.first", "example.second")
    strata.raise_window("example.second")  # in front of its level only
    strata.assert_stacking("example.first", "example.second")
    strata.assert_key("example.second")  # a level change does not move key
    with pytest.raises(AssertionError, match="front to back"):
        strata.assert_stacking("example.second", "example.first")


@pytest.mark.strata(policy="click-to-focus", placement=None)
def test_a_click_on_a_window_makes_it_key_under_click_to_focus(strata, color_client):
    first = show(strata, color_client, "example.first", "ff0000", "200x150")
    show(strata, color_client, "example.second", "0000ff", "200x150")
    strata.move("example.second", 1, 400, 300)
    frame = first.frame
    reply = strata.click(frame["x"] + 10, frame["y"] + 10)
    assert reply["window"] == first.id
    strata.assert_key("example.first")


def test_a_screenshot_shows_the_windows_colours_exactly(strata, color_client):
    window = show(strata, color_client, "example.red", "ff0000", "160x120")
    strata.move("example.red", 1, 100, 50)
    image = strata.screenshot()
    assert (image.width, image.height) == (1280, 720)
    assert image.rgb(100, 50) == 0xFF0000
    assert image.rgb(259, 169) == 0xFF0000
    background = image.rgb(99, 50)
    assert background != 0xFF0000 and image.rgb(260, 50) == background
    assert window.frame["width"] == 160


def test_an_error_reply_raises_with_the_servers_code(strata):
    with pytest.raises(StrataError) as error:
        strata.make_key(4242)
    assert error.value.code == "unknown_window"
    with pytest.raises(StrataError) as error:
        strata.command("no-such-command")
    assert error.value.code == "unknown_command"
    with pytest.raises(StrataError) as error:
        strata.command("screen-brightness", screen=1, value="bright")
    assert error.value.code == "invalid_argument"
    assert strata.hello()["server"] == "strata"  # the connection stays usable


def test_waiting_for_a_window_that_never_comes_times_out_with_what_is_open(strata, color_client):
    show(strata, color_client, "example.present")
    with pytest.raises(TimeoutError, match="example.present"):
        strata.wait_for_window("example.absent", timeout=0.5)


def test_events_arrive_in_the_models_order(strata, color_client):
    since = strata.sync()
    show(strata, color_client, "example.events")
    with strata.events(since=since) as stream:
        names = [event["name"] for event in stream.events(timeout=0.5)]
    assert names.index("windowDidOpen") < names.index("windowDidBecomeVisible") < names.index("windowDidBecomeKey")


def test_closing_the_key_window_passes_key_on(strata, color_client):
    show(strata, color_client, "example.first")
    second = show(strata, color_client, "example.second", "00ff00")
    since = strata.sync()
    strata.close("example.second")
    strata.wait_for_event("windowDidClose", second.id, since=since)
    strata.assert_key("example.first")


def test_typed_text_and_keys_are_accepted_for_the_key_window(strata, color_client):
    show(strata, color_client, "example.typing")
    assert strata.type("hello")["typed"] == 5
    assert strata.key("Return")["keycode"] > 0
    with pytest.raises(StrataError) as error:
        strata.key("NoSuchKeysym")
    assert error.value.code == "invalid_argument"


def test_a_strata_that_cannot_start_says_why(tmp_path):
    with pytest.raises(Exception, match="no strata binary"):
        Strata(binary=str(tmp_path / "missing-strata")).start()
    instance = Strata(arguments=["--size", "0x0"])
    with pytest.raises(Exception, match="exited with status"):
        instance.start()
    instance.cleanup()


def test_stopping_strata_reports_its_exit_status(color_client):
    with Strata() as instance:
        show(instance, color_client, "example.stop")
        assert instance.stop() == 0
        assert instance.stop() == 0  # idempotent


def test_a_failing_test_gets_its_trace_report_log_and_screenshots_attached(pytester, color_client):
    pytester.makepyfile(f"""
        def test_fails(strata):
            strata.exec([{color_client!r}, "--app-id", "inner", "--seconds", "60"])
            strata.wait_for_window("inner")
            strata.screenshot()
            assert strata.key_window().app_id == "someone else"
    """)
    artifacts = pytester.path / "artifacts"
    result = pytester.runpytest_subprocess(f"--strata-artifacts={artifacts}", "-p", "strata_testing.plugin")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*strata*", "log: *strata.log"])
    [kept] = list(artifacts.iterdir())
    names = sorted(path.name for path in kept.iterdir())
    assert "strata.log" in names and "screenshot-1.png" in names
    image = read_png(str(kept / "screenshot-1.png"))
    assert (image.width, image.height) == (1280, 720)
    # The trace of the run up to the failure, and its report (strata-ctl report).
    assert "trace.jsonl" in names and "report.html" in names
    trace = (kept / "trace.jsonl").read_text().splitlines()
    assert '"type":"header"' in trace[0].replace(" ", "")
    assert any('"inner"' in line for line in trace)
    result.stdout.fnmatch_lines(["trace: *trace.jsonl", "report: *report.html"])


def manual_run(color_client):
    """A client drawn under the manual clock: five frames stepped, then the screen's pixels."""
    with Strata(clock="manual", size="320x240") as instance:
        assert instance.hello()["clock"] == "manual"
        instance.exec([color_client, "--app-id", "example.manual", "--color", "3080c0", "--inner", "c08030",
                       "--size", "120x90", "--frames", "4", "--seconds", "60"])
        instance.wait_for_window("example.manual")
        times = [instance.step()["time_ns"] for _ in range(5)]
        image = instance.screenshot()
        assert instance.stop() == 0
        with open(instance.trace_path) as trace:
            header = trace.readline()
    return times, image, header


def test_two_manual_clock_runs_give_identical_pictures(color_client):
    first_times, first, header = manual_run(color_client)
    second_times, second, _ = manual_run(color_client)
    assert '"clock":"manual"' in header.replace(" ", "")
    # Each step moves the virtual clock forward; by how much depends on whether a frame was due
    # (when the client's commits landed between the steps), so the times are not compared.
    for times in (first_times, second_times):
        assert times == sorted(set(times)) and times[0] > 0
    assert first.rgba == second.rgba
    assert first.rgb(10, 10) == 0x3080C0


def test_stepping_the_realtime_clock_is_refused(strata):
    with pytest.raises(StrataError) as error:
        strata.step()
    assert error.value.code == "unsupported"


def test_stepping_with_settle_under_the_manual_clock(color_client):
    with Strata(clock="manual", size="320x240") as instance:
        instance.exec([color_client, "--app-id", "example.settle", "--color", "3080c0", "--size", "120x90",
                       "--frames", "4", "--seconds", "60"])
        instance.wait_for_window("example.settle")
        assert instance.step(5, settle=True)["frames"] == 5
        assert instance.stop() == 0
