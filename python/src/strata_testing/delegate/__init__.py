"""Strata's policy delegate in Python (docs/control.md, "Policy delegate").

A delegate is a process that Strata asks at each decision point (a window maps, a click, the key
window goes and a successor is needed, a focus request, a level request, a new window's place)
and whose answers Strata applies. Write one as a class:

    import strata_testing as strata

    class AlertsWin(strata.Delegate):
        def click(self, q):
            return {"key": True, "order_front": True}

or as decorated functions (``@strata.key_policy`` gets every key question,
``@strata.decide("click", "map")`` the kinds it names):

    @strata.key_policy
    def key(q):
        if q.kind == "map":
            return q.window_info.level == "alert"
        return None                      # the built-in policy decides

A policy returns the answer's fields (a dict), a shorthand (below), or None for "the built-in
policy decides". A policy that raises is logged and answered "builtin": the delegate keeps going.

Run one standalone (it connects to $STRATA_SOCKET and runs until Strata goes):

    python -m strata_testing.delegate mypolicy.py [--socket PATH] [--deadline-ms N] [--verbose]

or from a test: ``strata.delegate(MyPolicy())`` (the fixture's `Strata`).
"""

from .policy import Delegate, FunctionDelegate, as_delegate, decide, key_policy, load, placement_policy, stacking_policy
from .question import BUILTIN, DECISIONS, KEY_KINDS, KINDS, Fields, Question, State, normalize
from .session import DelegateSession, connect

__all__ = [
    "BUILTIN", "DECISIONS", "KEY_KINDS", "KINDS", "Delegate", "DelegateSession", "Fields", "FunctionDelegate",
    "Question", "State", "as_delegate", "connect", "decide", "key_policy", "load", "normalize",
    "placement_policy", "stacking_policy",
]
