"""Drive Strata from Python: a fresh headless compositor, its control socket, and pytest glue.

    from strata_testing import Strata

    with Strata() as strata:
        strata.exec(["strata-color-client", "--app-id", "demo"])
        window = strata.wait_for_window("demo")
        strata.assert_key("demo")

With pytest, the `strata` fixture (``strata_testing.plugin``) gives each test such an instance.
"""

from .control import COMMANDS, ControlConnection, EventStream, StrataError
from .compositor import Strata, StrataStartError, Window, Screen
from .golden import ScreenshotFailure
from .png import Image, read_png

__all__ = [
    "COMMANDS",
    "ControlConnection",
    "EventStream",
    "Image",
    "Screen",
    "ScreenshotFailure",
    "Strata",
    "StrataError",
    "StrataStartError",
    "Window",
    "read_png",
]
