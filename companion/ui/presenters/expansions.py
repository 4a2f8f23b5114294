"""The registry of expansion views: which expansion each shows, and which a game's screens ask.

`registered()` is the ordered tuple of every `ExpansionView` (Necromancer Island, team
play, River World, the mini-expansions); a shared screen asks the views in that order, so
it is the order of what they show: the Necromancer's hint before team play's, the
Necromancer's books before the teams' and the rivers'. `played(state)` is the views of the
expansions the game plays (`companion.rules.expansions.played`), in the same order.
On each screen the views add buttons to (`Screen`: the table, the map and the new game
form, whose hooks are asked of every registered view, no game being played yet),
`intent(screen, key)` parses a key into one of the views' actions and
`owner(screen, action)` finds the view that declared it.

Invariants: the registry is a tuple (its order never depends on a set's history); a key
belongs to at most one view's table intents, one view's map intents and one view's
set-up intents; `extended(...)`
restores the registry as it was, also when the block raises.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import Literal

from companion.rules import GameState, expansions
from companion.ui.presenters.expansion import ExpansionView
from companion.ui.presenters.intents import member
from companion.ui.presenters.mini import MiniExpansionsView
from companion.ui.presenters.necromancer import NecromancerView
from companion.ui.presenters.river import RiverView
from companion.ui.presenters.teams import TeamView

__all__ = ["Screen", "extended", "intent", "intents", "owner", "played", "registered"]

Screen = Literal["table", "map", "setup"]
"""A screen the views add buttons to: each view's `<screen>_intents` declares them."""

_REGISTRY: tuple[ExpansionView, ...] = (NecromancerView(), TeamView(), RiverView(),
                                        MiniExpansionsView())


def registered() -> tuple[ExpansionView, ...]:
    """Every expansion view, in the order the shared screens ask them."""
    return _REGISTRY


def played(state: GameState) -> tuple[ExpansionView, ...]:
    """The views of the expansions `state`'s game plays, in the registry's order."""
    names = {expansion.name for expansion in expansions.played(state)}
    return tuple(view for view in _REGISTRY if view.expansion in names)


def _declared(view: ExpansionView, screen: Screen) -> Iterable[type[StrEnum]]:
    enums: Iterable[type[StrEnum]] = getattr(view, screen + "_intents")
    return enums


def _check(views: tuple[ExpansionView, ...]) -> None:
    """Refuse a key two views would both take on one screen."""
    for screen in ("table", "map", "setup"):
        seen: dict[str, str] = {}
        for view in views:
            for enum in _declared(view, screen):
                for action in enum:
                    if action.value in seen:
                        raise ValueError(f"the key {action.value!r} is both "
                                         f"{seen[action.value]}'s and {view.expansion}'s")
                    seen[action.value] = view.expansion


_check(_REGISTRY)


@contextmanager
def extended(*more: ExpansionView) -> Iterator[tuple[ExpansionView, ...]]:
    """The registry with `more` after the known views, inside the block only."""
    global _REGISTRY
    before = _REGISTRY
    _check((*before, *more))
    _REGISTRY = (*before, *more)
    try:
        yield _REGISTRY
    finally:
        _REGISTRY = before


def intents(screen: Screen) -> tuple[type[StrEnum], ...]:
    """Every view's buttons on `screen` (for the screen's list of keys allowed)."""
    return tuple(enum for view in _REGISTRY for enum in _declared(view, screen))


def intent(screen: Screen, key: str) -> StrEnum | None:
    """The view's action on `screen` whose key is `key` (None: no view's)."""
    return next((found for enum in intents(screen) if (found := member(enum, key))), None)


def owner(screen: Screen, action: StrEnum) -> ExpansionView | None:
    """The view that declared the button `action` on `screen`."""
    return next((view for view in _REGISTRY if type(action) in _declared(view, screen)), None)
