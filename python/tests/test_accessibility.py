"""Accessible objects found by role and name and acted on (`Strata.find`, `wait_for_element`,
`Element.press/type/children`), against the real binary, a real GTK client (zenity) on the
fixture's private accessibility bus, checked by what zenity prints."""

import os
import shutil
import time

import pytest

from strata_testing.accessibility import AccessibilityError, Element, Rect

needs_zenity = pytest.mark.skipif(shutil.which("zenity") is None, reason="zenity is not installed (apt-get install zenity)")


def test_an_element_reads_strata_ctls_json_and_has_a_centre():
    element = Element.from_json({
        "role": "push button", "name": "OK", "states": ["enabled", "showing"], "actions": ["click"],
        "rect": {"x": 10, "y": 20, "width": 30, "height": 40}, "screen": 1, "window": 2, "application": "zenity",
        "pid": 7, "toplevel": "Form", "path": "0.0.1", "depth": 2}, strata=None)
    assert element.rect == Rect(10, 20, 30, 40) and element.rect.center == (25, 40)
    assert str(element) == "push button 'OK' at 10,20,30x40 in window 2 [enabled showing]"
    assert Element.from_json({"role": "label", "name": "x"}, strata=None).rect is None


@needs_zenity
def test_a_form_is_filled_and_submitted_by_name(strata, tmp_path):
    output = tmp_path / "zenity.out"
    with open(output, "w") as out:
        strata.spawn(["zenity", "--entry", "--title", "Form", "--text", "Your name"], stdout=out,
                     env={**os.environ, "GDK_BACKEND": "wayland"})
    entry = strata.wait_for_element(window="title:Form", role="entry", timeout=20)
    assert entry.rect is not None and "editable" in entry.states
    dialog = strata.find_one(window="title:Form", role="dialog")
    children = dialog.children()
    assert children and all(child.depth == dialog.depth + 1 for child in children)
    assert [e.name for e in strata.find(window="title:Form", role="button")] == ["Cancel", "OK"]
    assert "then typed" in entry.type("hello python")
    assert "accessible action" in strata.find_one(window="title:Form", role="button", name="OK").press()
    deadline = time.monotonic() + 20
    while output.read_text() == "" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert output.read_text() == "hello python\n"
    with pytest.raises(AccessibilityError, match="nothing matches"):
        strata.find_one(name="No Such Button")


@needs_zenity
def test_a_failing_test_keeps_each_windows_accessibility_tree(pytester):
    pytester.makepyfile("""
        import os

        def test_fails(strata):
            strata.spawn(["zenity", "--entry", "--title", "Form", "--text", "Your name"],
                         env={**os.environ, "GDK_BACKEND": "wayland"})
            strata.wait_for_element(window="title:Form", role="button", name="OK", timeout=20)
            assert False, "the test's own failure"
    """)
    artifacts = pytester.path / "artifacts"
    result = pytester.runpytest_subprocess(f"--strata-artifacts={artifacts}", "-p", "strata_testing.plugin")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["accessibility: *accessibility.txt"])
    [kept] = list(artifacts.iterdir())
    tree = (kept / "accessibility.txt").read_text()
    assert "# window " in tree and "push button 'OK' at " in tree and "  push button" in tree


@pytest.mark.skipif(shutil.which("gtk3-demo") is None, reason="gtk3-demo is not installed (apt-get install gtk-3-examples)")
def test_the_readmes_example_presses_gtk3_demos_run_button(strata):
    # README.md, "Pressing a button by its name", as it is written there.
    strata.spawn(["gtk3-demo"])
    strata.wait_for_element(window="gtk3-demo", role="button", name="Run").press()
    strata.wait_for_window("gtk3-demo-application")


def test_the_fixtures_strata_has_the_bus_unless_asked_not_to():
    from strata_testing import Strata
    assert "--accessibility" in Strata().command_line()
    assert "--accessibility" not in Strata(accessibility=False).command_line()
