"""Golden screenshots (docs/experiments.md, "Golden screenshots"): run with
`pytest -p strata_testing.plugin examples/test_golden_screenshot.py`; add
`--strata-update-baselines` to write examples/__screenshots__/test_golden_screenshot/*.png."""

import pytest


@pytest.mark.strata(size="640x480")
def test_the_swatch_looks_as_it_did(strata):
    strata.exec(["strata-color-client", "--app-id", "swatch", "--color", "3080c0", "--inner", "c08030",
                 "--size", "200x150", "--seconds", "60"])
    swatch = strata.wait_for_window("swatch")
    strata.exec(["strata-color-client", "--app-id", "cover", "--color", "ffffff", "--size", "120x100",
                 "--seconds", "60"])
    strata.wait_for_window("cover")  # it covers part of the swatch on screen
    strata.settle()
    # The window's own image, whatever covers it: exactly as in the baseline.
    strata.assert_screenshot("swatch", window=swatch)
    # The whole screen, the covering window left out, a few pixels tolerated.
    strata.assert_screenshot("desktop", masks=["cover"], threshold=2, max_diff_pixels=10)
