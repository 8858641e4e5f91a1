"""A question Strata asks its policy delegate, read by attribute, and the answer shorthands."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

from ..compositor import Window

# Which decision each question kind belongs to (docs/control.md, "Policy delegate").
KINDS: Dict[str, str] = {
    "map": "key",
    "click": "key",
    "pointer-enter": "key",
    "successor": "key",
    "focus-request": "key",
    "level": "stacking",
    "placement": "placement",
}
KEY_KINDS = tuple(kind for kind, decision in KINDS.items() if decision == "key")
DECISIONS = ("key", "placement", "stacking")

BUILTIN = "builtin"
"""What a policy may return (as None) for "the built-in policy decides"."""


class Fields:
    """A JSON object read by attribute: ``q.cause.request``, ``q.builtin.key``. A missing field is
    None (``q.cause.requester`` of a question without one); `get` and ``in`` work as on a dict,
    `raw` is the object itself."""

    def __init__(self, raw: Dict[str, Any]):
        object.__setattr__(self, "raw", raw)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return wrap(self.raw.get(name))

    def __getitem__(self, name: str) -> Any:
        return wrap(self.raw[name])

    def __contains__(self, name: str) -> bool:
        return name in self.raw

    def get(self, name: str, default: Any = None) -> Any:
        return wrap(self.raw.get(name, default))

    def __eq__(self, other: Any) -> bool:
        return self.raw == (other.raw if isinstance(other, Fields) else other)

    def __repr__(self) -> str:
        return f"Fields({self.raw!r})"


def wrap(value: Any) -> Any:
    if isinstance(value, dict):
        return Fields(value)
    if isinstance(value, list):
        return [wrap(item) for item in value]
    return value


class State(Fields):
    """A question's `state`: `key` (the key window's id, or None), `locked`, and `windows`: every
    window, front to back, as `Window`s (the `windows` command's entries)."""

    @property
    def windows(self) -> List[Window]:
        return [Window.from_json(value) for value in self.raw.get("windows") or []]

    @property
    def key(self) -> Optional[int]:
        return self.raw.get("key")

    @property
    def locked(self) -> bool:
        return bool(self.raw.get("locked"))


class Question(Fields):
    """One question Strata asks (docs/control.md, "Policy delegate"). Its fields by attribute:
    `id` (the ``question`` number), `kind` (``map``, ``click``, ``pointer-enter``, ``successor``,
    ``focus-request``, ``level``, ``placement``), `window`, `cause` (``q.cause.cause``,
    ``.request``, ``.requester``), `builtin` (what the built-in policy would answer), `state`
    (`State`), `deadline_ms`, and each kind's own (``requested``, ``input``, ``lost``, ``rule``,
    ``size``, ``requested_origin``, ``screen``)."""

    @property
    def id(self) -> int:
        return self.raw["question"]

    @property
    def decision(self) -> str:
        """``key``, ``placement`` or ``stacking``."""
        return KINDS.get(self.kind, "")

    @property
    def state(self) -> State:
        return State(self.raw.get("state") or {})

    @property
    def windows_front_to_back(self) -> List[Window]:
        return self.state.windows

    def window_named(self, window: Union[int, str, Window, None]) -> Optional[Window]:
        """The `Window` of the state that is `window` (an id, a name as the control socket
        names windows, or a `Window`), or None."""
        if window is None:
            return None
        if isinstance(window, Window):
            window = window.id
        return next((info for info in self.state.windows if info.named(window)), None)

    @property
    def window_info(self) -> Optional[Window]:
        """The `Window` the question is about (`window`), or None."""
        return self.window_named(self.raw.get("window"))

    def level_of(self, window: Union[int, str, Window, None]) -> Optional[str]:
        """The level (a name such as ``normal``/``alert``, or a number as a string) of a window of
        the state, or None when there is no such window."""
        info = self.window_named(window)
        return info.level if info is not None else None

    def visible(self, level: Optional[str] = None) -> List[Window]:
        """The shown windows, front to back (of that level, when given)."""
        return [info for info in self.state.windows if not info.hidden and (level is None or info.level == level)]

    def __repr__(self) -> str:
        return f"Question({self.raw!r})"


def normalize(question: Question, result: Any) -> Union[str, Dict[str, Any]]:
    """A policy's result as a `decide` answer: ``"builtin"`` or the answer's fields.

    Shorthands: None or ``"builtin"`` → the built-in decides; a bool → ``key`` (map,
    pointer-enter; click: ``key`` with the built-in's ``order_front``), ``grant``
    (focus-request; level: False refuses); an int → the successor's ``window``; a str or int →
    the ``level``; an ``(x, y)`` pair → the placement's ``origin``. Anything else raises
    TypeError (logged; the built-in decides)."""
    kind = question.kind
    if result is None or result == BUILTIN:
        return BUILTIN
    if isinstance(result, Fields):
        result = result.raw
    if isinstance(result, dict):
        return result
    if isinstance(result, bool):
        if kind in ("map", "pointer-enter"):
            return {"key": result}
        if kind == "click":
            return {"key": result, "order_front": bool((question.raw.get("builtin") or {}).get("order_front", result))}
        if kind == "focus-request":
            return {"grant": result}
        if kind == "level" and result is False:
            return {"grant": False}
    elif kind == "successor" and isinstance(result, (int, Window)):
        return {"window": result.id if isinstance(result, Window) else result}
    elif kind == "level" and isinstance(result, (str, int)):
        return {"level": result}
    elif kind == "placement" and isinstance(result, (tuple, list)) and len(result) == 2:
        return {"origin": {"x": result[0], "y": result[1]}}
    raise TypeError(f"a {kind} policy returned {result!r}: return a dict of the answer's fields, "
                    f"None for the built-in, or a shorthand (see strata_testing.delegate.normalize)")


