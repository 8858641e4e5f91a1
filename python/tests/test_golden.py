"""Golden screenshots: `assert_screenshot` against baselines, `--strata-update-baselines`, the
pictures of a failure, and the worked example of docs/experiments.md, with the real binaries."""

import os
import pathlib
import re
import shutil

import pytest

from strata_testing import read_png
from strata_testing.golden import baseline_path, mask_arguments

ROOT = pathlib.Path(__file__).resolve().parents[2]


def show(strata, color_client, app_id, colour, size="160x120", *extra):
    strata.exec([color_client, "--app-id", app_id, "--color", colour, "--size", size, "--seconds", "60", *extra])
    window = strata.wait_for_window(app_id)
    strata.settle()
    return window


def test_baselines_are_named_files_and_masks_become_the_commands_fields():
    assert baseline_path("/b", "swatch") == "/b/swatch.png" == baseline_path("/b", "swatch.png")
    for bad in ("../up", "a/b", "", ".hidden"):
        with pytest.raises(ValueError, match="a screenshot's name"):
            baseline_path("/b", bad)
    assert mask_arguments([(1, 2, 3, 4), {"x": 5, "y": 6, "width": 7, "height": 8}, "clock", 3, "level:alert"]) == {
        "masks": [{"x": 1, "y": 2, "width": 3, "height": 4}, {"x": 5, "y": 6, "width": 7, "height": 8}],
        "mask_windows": ["clock", 3], "mask_levels": ["alert"]}
    with pytest.raises(TypeError, match="a mask is"):
        mask_arguments([(1, 2)])


def test_a_baseline_is_written_matched_and_a_changed_window_fails_with_its_pictures(strata, color_client, tmp_path):
    strata.baselines = str(tmp_path / "baselines")
    strata.artifacts = str(tmp_path / "artifacts")
    golden = show(strata, color_client, "golden", "ff0000", "160x120", "--inner", "00ff00")
    show(strata, color_client, "cover", "0000ff", "100x100")
    strata.move("cover", 1, golden.frame["x"], golden.frame["y"])  # covers the golden window on screen
    assert strata.screenshot().rgb(golden.frame["x"] + 5, golden.frame["y"] + 5) == 0x0000FF
    own = strata.screenshot(window=golden)
    assert (own.width, own.height, own.rgb(5, 5), own.rgb(80, 60)) == (160, 120, 0xFF0000, 0x00FF00)

    with pytest.raises(AssertionError, match=r"has no baseline: .*--strata-update-baselines") as missing:
        strata.assert_screenshot("golden", window=golden)
    assert "golden-actual.png" in str(missing.value)
    assert read_png(str(tmp_path / "artifacts" / "golden-actual.png")).rgb(5, 5) == 0xFF0000

    strata.update_baselines = True
    assert strata.assert_screenshot("golden", window="golden")["updated"]
    image = read_png(str(tmp_path / "baselines" / "golden.png"))
    assert (image.width, image.height, image.rgb(5, 5), image.rgb(80, 60)) == (160, 120, 0xFF0000, 0x00FF00)
    strata.update_baselines = False
    assert strata.assert_screenshot("golden", window=golden)["match"]  # unchanged: passes
    strata.move("cover", 1, 0, 0)
    assert strata.assert_screenshot("golden", window=golden)["match"]  # whatever covers it

    strata.close("golden")
    strata.wait_until(lambda: strata.window("golden") is None)
    golden = show(strata, color_client, "golden", "ff0000", "160x120", "--inner", "ffff00")
    with pytest.raises(AssertionError) as failed:
        strata.assert_screenshot("golden", window=golden)
    message = str(failed.value)
    assert re.search(r"screenshot 'golden' of window \d+ differs from its baseline .*golden.png: 4800 of 19200 pixels "
                     r"differ \(25.00%\), within 40,30,80x60 \(tolerated: none; threshold 0\)", message), message
    for kind in ("expected", "actual", "diff"):
        path = tmp_path / "artifacts" / f"golden-{kind}.png"
        assert f"{kind}: {path}" in message
        assert path.exists()
    assert read_png(str(tmp_path / "artifacts" / "golden-diff.png")).rgb(80, 60) == 0xFF0000
    assert read_png(str(tmp_path / "artifacts" / "golden-actual.png")).rgb(80, 60) == 0xFFFF00
    assert [f.name for f in strata.screenshot_failures] == ["golden", "golden"]

    # Masks and tolerances make it pass.
    assert strata.assert_screenshot("golden", window=golden, masks=[(40, 30, 80, 60)])["match"]
    assert strata.assert_screenshot("golden", window=golden, max_diff_pixels=4800)["match"]
    assert strata.assert_screenshot("golden", window=golden, max_diff_ratio=0.25)["match"]
    with pytest.raises(AssertionError, match="tolerated: 4799 pixels"):
        strata.assert_screenshot("golden", window=golden, max_diff_pixels=4799)
    # A window mask: the golden window's own frame covers its whole image.
    assert strata.assert_screenshot("golden", window=golden, masks=["golden"])["compared"] == 0
    assert strata.assert_screenshot("golden", window=golden, masks=["level:normal"])["match"]


def test_the_screen_is_compared_when_no_window_is_named(strata, color_client, tmp_path):
    strata.baselines = str(tmp_path)
    show(strata, color_client, "one", "336699")
    strata.update_baselines = True
    strata.assert_screenshot("screen")
    strata.update_baselines = False
    assert strata.assert_screenshot("screen")["match"]
    show(strata, color_client, "two", "996633")
    with pytest.raises(AssertionError, match="of the main screen differs"):
        strata.assert_screenshot("screen")
    assert strata.assert_screenshot("screen", masks=["two"])["match"]


def test_the_plugin_writes_baselines_next_to_the_test_then_fails_with_pictures_in_the_report(pytester, color_client):
    pytester.makepyfile(test_inner=f"""
        import os
        def test_swatch(strata):
            strata.exec([{color_client!r}, "--app-id", "swatch", "--color", os.environ["SWATCH"], "--size", "120x90", "--seconds", "60"])
            swatch = strata.wait_for_window("swatch")
            strata.settle()
            strata.assert_screenshot("swatch", window=swatch)
    """)
    # A stand-in for pytest-html (not a dependency): its plugin name and `extras.image`.
    fake = pytester.mkpydir("pytest_html")
    (fake / "extras.py").write_text("def image(content, name='Image'):\n    return {'format_type': 'image', 'content': content, 'name': name}\n")
    pytester.makeconftest("""
        import pytest
        def pytest_configure(config):
            config.pluginmanager.register(object(), "html")
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(item, call):
            outcome = yield
            report = outcome.get_result()
            if report.when == "call" and report.failed:
                print("EXTRAS", [extra["name"] for extra in getattr(report, "extras", [])])
    """)
    baseline = pytester.path / "__screenshots__" / "test_inner" / "swatch.png"
    artifacts = pytester.path / "artifacts"
    os.environ["SWATCH"] = "3080c0"
    try:
        result = pytester.runpytest_subprocess("-p", "strata_testing.plugin", "-s")
        result.assert_outcomes(failed=1)
        result.stdout.fnmatch_lines(["*has no baseline*--strata-update-baselines*"])
        result = pytester.runpytest_subprocess("-p", "strata_testing.plugin", "--strata-update-baselines")
        result.assert_outcomes(passed=1)
        assert read_png(str(baseline)).rgb(1, 1) == 0x3080C0
        result = pytester.runpytest_subprocess("-p", "strata_testing.plugin")
        result.assert_outcomes(passed=1)
        os.environ["SWATCH"] = "c08030"
        result = pytester.runpytest_subprocess("-p", "strata_testing.plugin", f"--strata-artifacts={artifacts}", "-s")
        result.assert_outcomes(failed=1)
    finally:
        del os.environ["SWATCH"]
    result.stdout.fnmatch_lines(["*screenshot 'swatch' of window * differs from its baseline*: 10800 of 10800 pixels differ*"])
    assert "EXTRAS ['swatch: expected', 'swatch: actual', 'swatch: diff']" in result.stdout.str()
    [kept] = list(artifacts.iterdir())
    names = sorted(path.name for path in kept.iterdir())
    assert {"swatch-expected.png", "swatch-actual.png", "swatch-diff.png", "strata.log"} <= set(names), names
    result.stdout.fnmatch_lines(["swatch-diff: *swatch-diff.png"])
    assert read_png(str(kept / "swatch-actual.png")).rgb(1, 1) == 0xC08030
    assert read_png(str(kept / "swatch-expected.png")).rgb(1, 1) == 0x3080C0


def test_the_worked_example_in_the_docs_is_the_example_file_and_passes(pytester):
    example = ROOT / "examples" / "test_golden_screenshot.py"
    doc = (ROOT / "docs" / "experiments.md").read_text()
    shown = re.search(r"```python\n# examples/test_golden_screenshot.py\n(.*?)```", doc, re.S)
    assert shown, "docs/experiments.md shows examples/test_golden_screenshot.py"
    assert shown.group(1) == example.read_text()
    # Against the committed baselines, as `pytest examples/test_golden_screenshot.py` runs it.
    pytester.copy_example(str(example))
    shutil.copytree(ROOT / "examples" / "__screenshots__", pytester.path / "__screenshots__")
    result = pytester.runpytest_subprocess("-p", "strata_testing.plugin", "test_golden_screenshot.py")
    result.assert_outcomes(passed=1)
