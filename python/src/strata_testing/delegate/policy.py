"""Policies: the `Delegate` class and the decorators that make one of plain functions."""

from __future__ import annotations

import importlib.util
import logging
import os
import sys
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union

from .question import BUILTIN, DECISIONS, KEY_KINDS, KINDS, Question, normalize
from .session import DelegateSession, connect

log = logging.getLogger("strata_testing.delegate")


class Delegate:
    """A policy delegate: override the methods of the questions you answer; each returns the
    answer (a dict of its fields, or a shorthand: `normalize`) or None for the built-in policy.

    `decisions` (default: inferred from the methods overridden: map, click, pointer_enter,
    successor and focus_request → ``key``; level → ``stacking``; placement → ``placement``) is
    what the delegate registers for. Strata asks nothing else."""

    decisions: Optional[Sequence[str]] = None

    def map(self, q: Question) -> Any:
        return None

    def click(self, q: Question) -> Any:
        return None

    def pointer_enter(self, q: Question) -> Any:
        return None

    def successor(self, q: Question) -> Any:
        return None

    def focus_request(self, q: Question) -> Any:
        return None

    def level(self, q: Question) -> Any:
        return None

    def placement(self, q: Question) -> Any:
        return None

    def answer(self, q: Question) -> Any:
        """The policy's result for any question (by default: the method named after its kind)."""
        method = getattr(self, q.kind.replace("-", "_"), None) if isinstance(q.kind, str) else None
        return method(q) if method is not None and q.kind in KINDS else None

    def registered_decisions(self) -> List[str]:
        if self.decisions is not None:
            return [decision for decision in DECISIONS if decision in self.decisions]
        overridden = {kind for kind in KINDS
                      if getattr(type(self), kind.replace("-", "_")) is not getattr(Delegate, kind.replace("-", "_"))}
        return [decision for decision in DECISIONS if any(KINDS[kind] == decision for kind in overridden)]

    def decide(self, q: Question) -> Union[str, Dict[str, Any]]:
        """The `decide` answer for `q`: the policy's, or ``"builtin"`` when it raised or returned
        something that is no answer (logged)."""
        try:
            return normalize(q, self.answer(q))
        except Exception:  # noqa: BLE001 — a broken policy must not end the delegate
            log.exception("question %s (%s, window %s): the policy raised; the built-in decides",
                          q.raw.get("question"), q.kind, q.raw.get("window"))
            return BUILTIN

    def run(self, path: Optional[str] = None, deadline_ms: Optional[int] = None, verbose: bool = False) -> None:
        """Connects to Strata (`path`, default $STRATA_SOCKET), registers and answers every
        question until Strata closes the connection."""
        session = DelegateSession(self, connect(path), deadline_ms=deadline_ms, verbose=verbose)
        session.run()

    def start(self, path: Optional[str] = None, deadline_ms: Optional[int] = None, timeout: float = 10.0,
              verbose: bool = False) -> "DelegateSession":
        """Runs the delegate on a thread of this process; returns once Strata accepted it (the
        `delegate` reply), or raises what went wrong (`StrataError`, TimeoutError)."""
        session = DelegateSession(self, connect(path), deadline_ms=deadline_ms, verbose=verbose)
        session.start(timeout)
        return session


# MARK: Decorators

Policy = Callable[[Question], Any]


def decide(*kinds: str) -> Callable[[Policy], Policy]:
    """``@strata.decide("click", "map")``: the function answers these kinds of question. The
    function is returned unchanged (marked); `FunctionDelegate` and the standalone runner find it."""
    unknown = [kind for kind in kinds if kind not in KINDS]
    if not kinds or unknown:
        raise ValueError(f"decide: name question kinds ({', '.join(KINDS)}); not {', '.join(unknown) or 'none'}")

    def mark(function: Policy) -> Policy:
        function._strata_kinds = tuple(getattr(function, "_strata_kinds", ())) + kinds  # type: ignore[attr-defined]
        return function

    return mark


def key_policy(function: Policy) -> Policy:
    """``@strata.key_policy``: the function answers every key question (map, click,
    pointer-enter, successor, focus-request; ``q.kind`` tells which)."""
    return decide(*KEY_KINDS)(function)


def placement_policy(function: Policy) -> Policy:
    """``@strata.placement_policy``: the function answers placement questions (an ``(x, y)``)."""
    return decide("placement")(function)


def stacking_policy(function: Policy) -> Policy:
    """``@strata.stacking_policy``: the function answers level requests (a level, or False)."""
    return decide("level")(function)


class FunctionDelegate(Delegate):
    """A delegate made of decorated functions (one function per kind; a later one for the same
    kind replaces an earlier one)."""

    def __init__(self, functions: Iterable[Policy]):
        self.handlers: Dict[str, Policy] = {}
        for function in functions:
            kinds = getattr(function, "_strata_kinds", None)
            if not kinds:
                raise ValueError(f"{getattr(function, '__name__', function)!r} is not a policy: decorate it with "
                                 f"@strata.key_policy, @strata.placement_policy, @strata.stacking_policy or @strata.decide")
            for kind in kinds:
                self.handlers[kind] = function
        self.decisions = [decision for decision in DECISIONS
                          if any(KINDS[kind] == decision for kind in self.handlers)]

    def answer(self, q: Question) -> Any:
        handler = self.handlers.get(q.kind)
        return handler(q) if handler is not None else None


def as_delegate(policy: Union[Delegate, Policy, Sequence[Policy]]) -> Delegate:
    """A `Delegate` from a delegate, a decorated function or a list of them."""
    if isinstance(policy, Delegate):
        return policy
    if isinstance(policy, type) and issubclass(policy, Delegate):
        return policy()
    if callable(policy):
        return FunctionDelegate([policy])
    return FunctionDelegate(list(policy))


def load(path: str) -> Delegate:
    """The delegate a policy file defines: its ``delegate`` (a `Delegate`), else the one
    `Delegate` subclass defined in it (made without arguments), else its decorated functions."""
    name = "strata_policy_" + "".join(c if c.isalnum() else "_" for c in os.path.splitext(os.path.basename(path))[0])
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path} is not a python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    instance = getattr(module, "delegate", None)
    if isinstance(instance, Delegate):
        return instance
    classes = [value for value in vars(module).values()
               if isinstance(value, type) and issubclass(value, Delegate) and value.__module__ == name]
    if len(classes) > 1:
        raise ValueError(f"{path} defines {len(classes)} Delegate classes "
                         f"({', '.join(c.__name__ for c in classes)}): set `delegate = OneOfThem()`")
    if classes:
        return classes[0]()
    functions = [value for value in vars(module).values() if callable(value) and getattr(value, "_strata_kinds", None)]
    if functions:
        return FunctionDelegate(functions)
    raise ValueError(f"{path} defines no policy: a Delegate subclass, `delegate = …`, or functions decorated "
                     f"with @strata.key_policy, @strata.placement_policy, @strata.stacking_policy or @strata.decide")


