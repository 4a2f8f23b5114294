"""Typed intents: a tap's string key turned into an action its presenter knows.

Buttons name what they ask for with a string key ("roll", "row3", "place:Troll Lair"):
the kv files, the action lists the presenters build and the tests all speak in keys. Each
presenter module declares its screen's actions beside it, as an `Action` StrEnum whose
values are the keys and, for a key carrying a parameter, a small frozen dataclass (e.g.
`PickRow(row)` for "row3"), and one `parse(key)` turning a key into one of them.
`Presenter.act(key)` parses, then `do(action)` dispatches with `match` on the typed action.

A key its screen does not know is a mistake in the code, never something a player can do:
`parse` raises `UnknownAction` (a `ValueError`) naming the screen, the key and the keys
allowed, rather than doing nothing as the old string ladders did. In the running kiosk
nothing catches it: raised from a kv `on_release` it would stop the app (and the table's
game with it, until the service restarts it). So a wrong key is kept out of the code
instead of being handled: `tests/test_intents.py` parses every literal key of `kv/*.kv`,
of `companion/ui/screens/*.py` and of the presenters' action lists for the screen that
receives it, and the UI tests press the buttons the presenters build.

This module is light on purpose (the stdlib only): the home screen's presenter uses it
before the first frame, which must not wait for the rules or the session.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

E = TypeVar("E", bound=StrEnum)


class UnknownAction(ValueError):
    """A key the screen's presenter has no action for (a mistake in the code)."""

    def __init__(self, screen: str, key: str, allowed: tuple[str, ...]) -> None:
        self.screen, self.key, self.allowed = screen, key, allowed
        super().__init__(f"the {screen} screen has no action {key!r}; "
                         f"the keys allowed: {', '.join(allowed)}")


def member(actions: type[E], key: str) -> E | None:
    """The action of `actions` whose value is `key` (None: not one of them)."""
    try:
        return actions(key)
    except ValueError:
        return None


def known(screen: str, key: str, actions: type[E], *patterns: str) -> E:
    """The action of `actions` whose value is `key`; else `UnknownAction` naming `screen`,
    the values of `actions` and the `patterns` of the keys that carry a parameter."""
    action = member(actions, key)
    if action is None:
        raise UnknownAction(screen, key, allowed(actions, *patterns))
    return action


def argument(key: str, prefix: str) -> str | None:
    """What follows `prefix` in `key` (None: `key` does not start with it, or nothing
    follows)."""
    if key.startswith(prefix) and len(key) > len(prefix):
        return key[len(prefix):]
    return None


def number(text: str | None) -> int | None:
    """`text` as a whole number of digits (None: it is not one)."""
    return int(text) if text is not None and text.isdigit() else None


def allowed(*forms: type[StrEnum] | str) -> tuple[str, ...]:
    """The keys allowed, for `UnknownAction`: every value of the enums given, and the
    patterns given as text (e.g. "row<number>")."""
    out: list[str] = []
    for form in forms:
        out.extend([form] if isinstance(form, str) else [action.value for action in form])
    return tuple(out)
