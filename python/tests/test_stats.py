"""`Strata.stats()`: the focus metrics of a run (docs/control.md, "Focus metrics"), against the
real binary and its colour client."""

import pytest

from strata_testing import StrataError


def show(strata, color_client, app_id, colour):
    strata.exec([color_client, "--app-id", app_id, "--color", colour, "--size", "160x120", "--seconds", "60"])
    return strata.wait_for_window(app_id)


@pytest.mark.strata(clock="manual")
def test_stats_counts_key_switches_and_keystrokes_per_app(strata, color_client):
    first = show(strata, color_client, "example.first", "ff0000")
    show(strata, color_client, "example.second", "0000ff")
    strata.wait_until(lambda: strata.window("example.second").key)
    strata.move("example.second", 1, 600, 400)
    strata.click(first.frame["x"] + 5, first.frame["y"] + 5)
    strata.assert_key("example.first")
    strata.type("ab")  # the virtual clock stands still: both within 500 ms of the click
    stats = strata.stats()
    assert set(stats) == {"run", "apps"}
    run = stats["run"]
    assert run["key_switches"]["total"] == 3  # two maps and the click
    assert run["key_switches"]["by_cause"] == {"map": 2, "click": 1}
    assert run["keystrokes_after_key"] == {"window_ms": 500, "count": 2, "by_window": {str(first.id): 2}}
    assert stats["apps"]["example.first"]["key_switches"]["total"] == 2
    assert stats["apps"]["example.second"]["keystrokes_after_key"]["count"] == 0
    assert set(run["focus_requests"]) == {"made", "granted", "refused"}
    assert set(run["request_to_key"]) == {"count", "mean_ms", "max_ms", "mean_frames", "max_frames"}
    assert strata.stats(window_ms=1)["run"]["keystrokes_after_key"]["window_ms"] == 1
    with pytest.raises(StrataError) as error:
        strata.stats(window_ms=0)
    assert error.value.code == "invalid_argument"
