"""A focus policy: the most recently clicked window is key, except that alerts always win.

While an alert-level window is shown, it keeps key status: a click elsewhere orders the clicked
window front (inside its level) without making it key, a new normal window does not take key, and
a client's focus request is refused. When the key window goes, the successor is the frontmost
shown alert, else the most recently clicked window still shown. Everything else is left to
Strata's built-in policy.

    python -m strata_testing.delegate examples/policies/alerts_win.py

Experiment: examples/alerts-win.strata (docs/experiments.md, "Policies in Python").
"""

import strata_testing as strata


class AlertsWin(strata.Delegate):
    def __init__(self):
        self.clicked = []  # window ids, the most recent last

    @staticmethod
    def shown_alert(q, besides=None):
        """The frontmost shown alert window other than `besides`, or None."""
        return next((window for window in q.visible("alert") if window.id != besides), None)

    def map(self, q):
        if q.level_of(q.window) == "alert":
            return True
        if self.shown_alert(q, besides=q.window) is not None:
            return False
        return None  # the built-in: a new window is key when it asks to be

    def click(self, q):
        self.clicked = [window for window in self.clicked if window != q.window] + [q.window]
        alert = self.shown_alert(q)
        if alert is not None and alert.id != q.window:
            return {"key": False, "order_front": True}
        return {"key": True, "order_front": True}

    def successor(self, q):
        alert = self.shown_alert(q, besides=q.lost)
        if alert is not None:
            return alert.id
        shown = {window.id for window in q.visible() if window.id != q.lost}
        recent = [window for window in self.clicked if window in shown]
        return recent[-1] if recent else None

    def focus_request(self, q):
        alert = self.shown_alert(q)
        if alert is not None and alert.id != q.window:
            return False
        return None
