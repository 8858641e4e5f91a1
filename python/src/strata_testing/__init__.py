"""Drive Strata from Python: a fresh headless compositor, its control socket, and pytest glue.

    from strata_testing import Strata

    with Strata() as strata:
        strata.exec(["strata-color-client", "--app-id", "demo"])
        window = strata.wait_for_window("demo")
        strata.assert_key("demo")

With pytest, the `strata` fixture (``strata_testing.plugin``) gives each test such an instance.

A policy delegate (``strata_testing.delegate``): subclass `Delegate`, or decorate functions with
`key_policy`, `placement_policy`, `stacking_policy` or `decide`; run it with
``python -m strata_testing.delegate policy.py`` or ``strata.delegate(policy)``.
"""

from .control import COMMANDS, ControlConnection, EventStream, StrataError
from .compositor import Strata, StrataStartError, Window, Screen
from .delegate import Delegate, Question, decide, key_policy, placement_policy, stacking_policy
from .golden import ScreenshotFailure
from .png import Image, read_png

__all__ = [
    "COMMANDS",
    "ControlConnection",
    "Delegate",
    "EventStream",
    "Image",
    "Question",
    "Screen",
    "ScreenshotFailure",
    "Strata",
    "StrataError",
    "StrataStartError",
    "Window",
    "decide",
    "key_policy",
    "placement_policy",
    "read_png",
    "stacking_policy",
]
