"""Kivy's kv rules evaluated without their trace lines: a rule's work, and nothing else.

Concept: when a property a kv rule reads changes, Kivy runs the rule again
(`kivy.lang.builder.call_fn`): it evaluates the rule's expression and sets the widget's
property to the value. Kivy's own function also formats two trace lines for its log each
time (the widget, the rule's text, the value's ``repr``: a whole list of actions or
players for some rules) and hands them to a logger that drops them, as the app never logs
at Kivy's trace level. On a tap that changes a screen, some fifty to a hundred rules run
again, and the lines cost more than evaluating the rules' expressions. `install` gives
Kivy the same function without the lines.

Invariants:

- a rule run through the quiet function sets the same property to the same value as
  Kivy's own, and counts its runs the same way (``rule.count``);
- the quiet function is used by every rule bound after `install` (Kivy binds the function
  it finds at that moment) and by the canvas rules Kivy runs before a frame
  (`Builder.sync`), whenever they were bound;
- `install` is idempotent; `uninstall` gives Kivy its own function back (tests).
"""

from __future__ import annotations

from typing import Any

import kivy.lang.builder as builder

_KIVYS: list[Any] = []
"""Kivy's own `call_fn`, while the quiet one is installed."""


def call_fn(args: Any, _instance: Any, _value: Any) -> None:
    """Kivy's `call_fn` less its trace lines: the rule's value set on its widget."""
    element, key, value, rule, idmap = args
    rule.count += 1
    setattr(element, key, eval(value, idmap))  # a kv rule's compiled code, as in Kivy's own


def install() -> None:
    """The rules bound from now on, and every canvas rule, run without trace lines."""
    if not _KIVYS:
        _KIVYS.append(builder.call_fn)
        builder.call_fn = call_fn


def uninstall() -> None:
    """Kivy's own function again, for the rules bound from now on."""
    if _KIVYS:
        builder.call_fn = _KIVYS.pop()
