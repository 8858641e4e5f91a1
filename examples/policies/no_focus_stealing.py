"""A focus policy against focus stealing: a new window becomes key only if the user has not typed
for 2 seconds; so does a client's request to make its window key.

A window that maps while the user types is shown behind nothing, but the key window keeps the
keyboard: the keystrokes go where the user was typing. Everything else is left to Strata's
built-in policy.

When the user typed last is the question's ``state.last_key_ns`` (the time of the last key press
on Strata's clock; under ``--clock manual`` the stepped one), and "now" is when the window asked
(its cause's ``requested_ns``, on the same clock). A Strata whose questions do not carry them is
left to decide alone (logged once).

    python -m strata_testing.delegate examples/policies/no_focus_stealing.py

Experiment: examples/no-focus-stealing.strata (docs/experiments.md, "Policies in Python").
"""

import logging

import strata_testing as strata

QUIET_NS = 2_000_000_000


class NoFocusStealing(strata.Delegate):
    warned = False

    def typing(self, q):
        """Whether the user typed within the last 2 s (None: the question does not say)."""
        typed, now = q.state.get("last_key_ns"), q.get("time_ns") or q.cause.requested_ns
        if typed is None or now is None:
            if not self.warned:
                logging.getLogger(__name__).warning("the questions carry no state.last_key_ns (or no time): "
                                                    "the built-in policy decides")
                self.warned = True
            return None
        return typed > 0 and now - typed < QUIET_NS

    def map(self, q):
        if q.state.key is not None and self.typing(q):
            return False
        return None

    def focus_request(self, q):
        if q.state.key not in (None, q.window) and self.typing(q):
            return False
        return None
