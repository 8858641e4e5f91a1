"""What the fixture gives clients (`environment`, `spawn`: WAYLAND_DISPLAY, DISPLAY,
STRATA_SOCKET) and what it keeps from Strata (the host's XKB_DEFAULT_*), and the keyboard options
of the marker."""

import re
import subprocess

import pytest

from strata_testing import Strata
from strata_testing.compositor import _help_text

KEY_Z, KEY_Y = 44, 21  # evdev codes: `key` answers with the code of the key that types the keysym


def printed_environment(strata, **spawn):
    """The variables a client started by `spawn` sees, as the client prints them."""
    script = 'echo "$WAYLAND_DISPLAY|${DISPLAY-unset}|$STRATA_SOCKET|${WAYLAND_SOCKET-unset}|$XDG_RUNTIME_DIR"'
    client = strata.spawn(["sh", "-c", script], stdout=subprocess.PIPE, text=True, **spawn)
    output, _ = client.communicate(timeout=30)
    return output.strip().split("|")


def test_spawned_clients_get_the_wayland_and_x_displays_strata_printed(strata):
    assert re.fullmatch(r":\d+", strata.display or ""), strata.announced
    assert strata.announced["DISPLAY"] == strata.display
    assert strata.announced["WAYLAND_DISPLAY"] == strata.wayland_display
    assert strata.environment["DISPLAY"] == strata.display
    assert printed_environment(strata) == [strata.wayland_display, strata.display, strata.control_socket, "unset",
                                           strata.runtime_dir]
    # With an environment of the test's own, Strata's variables still win.
    assert printed_environment(strata, env={"PATH": "/usr/bin:/bin", "DISPLAY": ":4242"})[:2] == \
        [strata.wayland_display, strata.display]


def test_the_hosts_displays_do_not_reach_clients(monkeypatch):
    monkeypatch.setenv("DISPLAY", ":4242")
    monkeypatch.setenv("WAYLAND_SOCKET", "3")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-host")
    with Strata(arguments=["--xwayland", "off"]) as strata:
        assert strata.display is None and "DISPLAY" not in strata.environment
        assert printed_environment(strata)[:4] == [strata.wayland_display, "unset", strata.control_socket, "unset"]


def test_the_hosts_xkb_defaults_do_not_reach_strata(monkeypatch):
    monkeypatch.setenv("XKB_DEFAULT_LAYOUT", "de")  # z and y trade places
    with Strata() as strata:
        assert strata.key("z")["keycode"] == KEY_Z  # the us keymap


def test_the_keyboard_options_become_strata_options():
    command = Strata(keyboard_layout="de", keyboard_variant="nodeadkeys", keyboard_options="compose:ralt").command_line()
    start = command.index("--keyboard-layout")
    assert command[start:start + 6] == ["--keyboard-layout", "de", "--keyboard-variant", "nodeadkeys",
                                        "--keyboard-options", "compose:ralt"]
    assert not any(word.startswith("--keyboard") for word in Strata().command_line())


@pytest.mark.strata(keyboard_layout="de", keyboard_variant="nodeadkeys")
def test_the_marker_sets_the_keymap(request):
    if "--keyboard-layout" not in _help_text(request.config.getoption("--strata-binary")):
        pytest.skip("this strata has no --keyboard-layout")
    strata = request.getfixturevalue("strata")
    assert strata.key("z")["keycode"] == KEY_Y
    assert strata.key("y")["keycode"] == KEY_Z
