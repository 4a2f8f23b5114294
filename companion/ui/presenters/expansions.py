"""The registry of expansion views: which expansion each shows, and which a game's screens ask.

`registered()` is the ordered tuple of every `ExpansionView` (Necromancer Island, team
play, River World, the mini-expansions); a shared screen asks the views in that order, so
it is the order of what they show: the Necromancer's hint before team play's, the
Necromancer's books before the teams' and the rivers'. `played(state)` is the views of the
expansions the game plays (`companion.rules.expansions.played`), in the same order.
`table_owner(action)` and `map_owner(action)` find the view that declared a button;
`table_intent(key)` and `map_intent(key)` parse a key into one of the views' actions;
`setup_intent(key)` and `setup_owner(action)` do the same for the new game form, whose
hooks are asked of every registered view (no game is played yet).

Invariants: the registry is a tuple (its order never depends on a set's history); a key
belongs to at most one view's table intents, one view's map intents and one view's
set-up intents; `extended(...)`
restores the registry as it was, also when the block raises.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from enum import StrEnum

from companion.rules import GameState, expansions
from companion.ui.presenters.expansion import ExpansionView
from companion.ui.presenters.intents import member
from companion.ui.presenters.mini import MiniExpansionsView
from companion.ui.presenters.necromancer import NecromancerView
from companion.ui.presenters.river import RiverView
from companion.ui.presenters.teams import TeamView

__all__ = ["extended", "map_intent", "map_intents", "map_owner", "played", "registered",
           "setup_intent", "setup_intents", "setup_owner", "table_intent", "table_intents",
           "table_owner"]

_REGISTRY: tuple[ExpansionView, ...] = (NecromancerView(), TeamView(), RiverView(),
                                        MiniExpansionsView())


def registered() -> tuple[ExpansionView, ...]:
    """Every expansion view, in the order the shared screens ask them."""
    return _REGISTRY


def played(state: GameState) -> tuple[ExpansionView, ...]:
    """The views of the expansions `state`'s game plays, in the registry's order."""
    names = {expansion.name for expansion in expansions.played(state)}
    return tuple(view for view in _REGISTRY if view.expansion in names)


def _check(views: tuple[ExpansionView, ...]) -> None:
    """Refuse a key two views would both take, on the table or on the map."""
    for screen in ("table_intents", "map_intents", "setup_intents"):
        seen: dict[str, str] = {}
        for view in views:
            enums: Iterable[type[StrEnum]] = getattr(view, screen)
            for enum in enums:
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


def table_intents() -> tuple[type[StrEnum], ...]:
    """Every view's table buttons (for the table's list of keys allowed)."""
    return tuple(enum for view in _REGISTRY for enum in view.table_intents)


def map_intents() -> tuple[type[StrEnum], ...]:
    """Every view's region buttons (for the map's list of keys allowed)."""
    return tuple(enum for view in _REGISTRY for enum in view.map_intents)


def table_intent(key: str) -> StrEnum | None:
    """The view's table action whose key is `key` (None: no view's)."""
    return next((found for enum in table_intents() if (found := member(enum, key))), None)


def map_intent(key: str) -> StrEnum | None:
    """The view's region action whose key is `key` (None: no view's)."""
    return next((found for enum in map_intents() if (found := member(enum, key))), None)


def table_owner(action: StrEnum) -> ExpansionView | None:
    """The view that declared the table button `action`."""
    return next((view for view in _REGISTRY if type(action) in view.table_intents), None)


def map_owner(action: StrEnum) -> ExpansionView | None:
    """The view that declared the region button `action`."""
    return next((view for view in _REGISTRY if type(action) in view.map_intents), None)


def setup_intents() -> tuple[type[StrEnum], ...]:
    """Every view's buttons on the new game form."""
    return tuple(enum for view in _REGISTRY for enum in view.setup_intents)


def setup_intent(key: str) -> StrEnum | None:
    """The view's new game action whose key is `key` (None: no view's)."""
    return next((found for enum in setup_intents() if (found := member(enum, key))), None)


def setup_owner(action: StrEnum) -> ExpansionView | None:
    """The view that declared the new game button `action`."""
    return next((view for view in _REGISTRY if type(action) in view.setup_intents), None)
