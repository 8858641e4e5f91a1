"""The package's own tests run against the real binaries: `strata` and `strata-color-client` on
PATH (scripts/test.sh puts .build/debug first) or named by --strata-binary / $STRATA_BINARY."""

import importlib.metadata
import shutil

import pytest

pytest_plugins = ["pytester"]
# Installed (`pip install ./python`), the plugin is loaded through its entry point already.
if not any(entry.name == "strata" for entry in importlib.metadata.entry_points(group="pytest11")):
    pytest_plugins.append("strata_testing.plugin")


@pytest.fixture
def color_client():
    """The path of strata-color-client, Strata's own test client (a toplevel of one colour)."""
    path = shutil.which("strata-color-client")
    if path is None:
        pytest.fail("strata-color-client is not on PATH: build Strata (swift build) and put .build/debug on PATH")
    return path
