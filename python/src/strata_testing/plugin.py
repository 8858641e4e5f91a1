"""pytest glue: a fresh headless Strata per test (the `strata` fixture), configured by the
`strata` marker, whose trace, report and log are attached to a test that fails.

    import pytest

    @pytest.mark.strata(policy="click-to-focus", size="800x600")
    def test_a_click_makes_key(strata):
        strata.exec(["strata-color-client", "--app-id", "a"])
        strata.wait_for_window("a")
        ...
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess
from typing import Any, Iterator, Optional

import pytest

from .compositor import Strata

def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("strata")
    group.addoption("--strata-binary", default=os.environ.get("STRATA_BINARY", "strata"),
                    help="the strata executable (default: $STRATA_BINARY, else strata on PATH)")
    group.addoption("--strata-ctl", default=os.environ.get("STRATA_CTL", "strata-ctl"),
                    help="the strata-ctl executable, for reports of failing tests")
    group.addoption("--strata-artifacts", default=os.environ.get("STRATA_ARTIFACTS"),
                    help="a directory where each failing test's trace, report, log and screenshots are kept "
                         "(default: pytest's temporary directory)")
    group.addoption("--strata-update-baselines", action="store_true", default=False,
                    help="assert_screenshot writes (or overwrites) its baseline from the current picture and passes")


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "strata(**options): options of the test's Strata "
                                       "(size, screens, policy, placement, clock, keyboard_layout, "
                                       "keyboard_variant, keyboard_options, arguments, record)")


@pytest.fixture
def strata(request: Any) -> Iterator[Strata]:
    """A fresh headless Strata, started for the test and stopped after it. The test fails if
    Strata did not exit with status 0."""
    marker = request.node.get_closest_marker("strata")
    options = dict(marker.kwargs) if marker else {}
    if "screens" in options:
        options["screen_count"] = options.pop("screens")
    instance = Strata(binary=request.config.getoption("--strata-binary"), **options)
    instance.baselines = baseline_directory(request.node)
    instance.update_baselines = request.config.getoption("--strata-update-baselines")
    instance.failure_folder = lambda: _artifact_directory(request.node, instance)
    instance.start()
    request.node._strata_instance = instance
    try:
        yield instance
    finally:
        status = instance.stop()
        log = instance.log_tail()
        instance.cleanup()  # a failing test's trace, report and log were copied out first
        if status != 0:
            pytest.fail(f"strata exited with status {status}; its log:\n{log}", pytrace=False)
        if _crashed(log):
            pytest.fail(f"strata reported a crash or sanitizer error; its log:\n{log}", pytrace=False)


def baseline_directory(item: Any) -> str:
    """Where a test's `assert_screenshot` baselines live: ``<test dir>/__screenshots__/<test file
    stem>/`` (one folder per test file, like Playwright's ``<file>-snapshots``)."""
    path = str(getattr(item, "path", None) or item.fspath)
    stem = os.path.splitext(os.path.basename(path))[0]
    return os.path.join(os.path.dirname(path), "__screenshots__", stem)


def _crashed(log: str) -> bool:
    return bool(re.search(r"Fatal error|ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:", log))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    instance: Optional[Strata] = getattr(item, "_strata_instance", None)
    if instance is None or report.when != "call" or not report.failed:
        return
    kept = _keep_artifacts(item, instance)
    for failure in instance.screenshot_failures:
        for kind, path in failure.paths().items():
            kept[f"{failure.name}-{kind}"] = path
    item._strata_kept = kept
    lines = [f"{name}: {path}" for name, path in kept.items()]
    report.sections.append(("strata", "\n".join(lines)))
    for name, path in kept.items():
        report.user_properties.append((f"strata_{name}", path))
    _attach_to_html_report(item, report, instance)


def _attach_to_html_report(item: Any, report: Any, instance: Strata) -> None:
    """With pytest-html (not a dependency), a failed `assert_screenshot`'s pictures become extras of
    the test's row: embedded images, expected, actual and diff."""
    if not instance.screenshot_failures or not item.config.pluginmanager.hasplugin("html"):
        return
    try:
        from pytest_html import extras as html_extras
    except ImportError:
        return
    attached = list(getattr(report, "extras", None) or getattr(report, "extra", None) or [])
    for failure in instance.screenshot_failures:
        for kind, path in failure.paths().items():
            with open(path, "rb") as file:
                content = base64.b64encode(file.read()).decode("ascii")
            attached.append(html_extras.image(content, name=f"{failure.name}: {kind}"))
    report.extras = attached  # pytest-html 4
    report.extra = attached   # pytest-html 3


def _artifact_directory(item: Any, instance: Strata) -> str:
    """The test's artifact folder, made once: ``--strata-artifacts DIR`` (or $STRATA_ARTIFACTS)
    /<test id>, else a new ``strata-failure<N>`` folder in pytest's temporary directory."""
    directory = getattr(item, "_strata_artifact_directory", None)
    if directory is None:
        root = item.config.getoption("--strata-artifacts")
        if root:
            directory = os.path.join(root, re.sub(r"[^A-Za-z0-9_.-]+", "_", item.nodeid))
        else:
            directory = str(item.config._tmp_path_factory.mktemp("strata-failure", numbered=True)) \
                if hasattr(item.config, "_tmp_path_factory") else instance.workdir + "-failure"
        item._strata_artifact_directory = directory
    os.makedirs(directory, exist_ok=True)
    return directory


def _keep_artifacts(item: Any, instance: Strata) -> dict:
    """Copies what explains the failure out of the instance's directory (which goes at teardown):
    the trace so far, an HTML report of it when strata-ctl can make one, the log, the screenshots."""
    directory = _artifact_directory(item, instance)
    kept = {}
    if instance.process is not None and instance.process.poll() is None:
        try:
            instance.sync()  # what the trace has is everything the test asked for so far
        except Exception:  # noqa: BLE001 — a dead control socket must not hide the test's failure
            pass
    if instance.trace_path and os.path.exists(instance.trace_path):
        trace = os.path.join(directory, "trace.jsonl")
        shutil.copyfile(instance.trace_path, trace)
        kept["trace"] = trace
        report = os.path.join(directory, "report.html")
        ctl = item.config.getoption("--strata-ctl")
        if shutil.which(ctl):
            result = subprocess.run([ctl, "report", trace, "-o", report], capture_output=True, timeout=60)
            if result.returncode == 0 and os.path.exists(report):
                kept["report"] = report
    tree = _accessibility_trees(instance)
    if tree:
        path = os.path.join(directory, "accessibility.txt")
        with open(path, "w", encoding="utf-8") as file:
            file.write(tree)
        kept["accessibility"] = path
    log = os.path.join(directory, "strata.log")
    if os.path.exists(instance.log_path):
        shutil.copyfile(instance.log_path, log)
        kept["log"] = log
    for name in sorted(os.listdir(instance.workdir)):
        if name.endswith(".png"):
            shutil.copyfile(os.path.join(instance.workdir, name), os.path.join(directory, name))
            kept[name] = os.path.join(directory, name)
    return kept


def _accessibility_trees(instance: Strata) -> str:
    """Each shown window's accessible objects at the failure (`Strata.accessibility_tree`), when
    Strata runs with an accessibility bus; "" otherwise or when they cannot be read."""
    if instance.process is None or instance.process.poll() is not None:
        return ""
    if "DBUS_SESSION_BUS_ADDRESS" not in instance.announced:
        return ""
    parts = []
    try:
        for window in instance.windows():
            if window.hidden:
                continue
            parts.append(f"# window {window.describe()}\n" + instance.accessibility_tree(str(window.id)))
    except Exception as error:  # noqa: BLE001 — the tree must not hide the test's own failure
        parts.append(f"# the accessibility tree could not be read: {error}\n")
    return "\n".join(parts)
