"""Event records with every event class the rules know: the base game's
(`companion.rules.events.BASE_EVENTS`) and each registered expansion's (`Expansion.events`,
in the registry's order).

`from_record` is how a saved record becomes an event again (the store, replays, the golden
games); `to_record` is `companion.rules.events.to_record`, here too so that a reader and a
writer import one module. `event_types()` is the table by `TYPE`.

Invariants: a `TYPE` names one class (two classes with the same `TYPE` are refused); the
table follows the registry (`expansions.extended` included), so a record an expansion
writes reads back the same, byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import companion.rules.expansions as expansions
from companion.rules.errors import IllegalAction
from companion.rules.events import BASE_EVENTS, Event, GameCreated, read_record, to_record
from companion.rules.said import said

__all__ = ["EVENT_TYPES", "event_types", "from_record", "option_types", "to_record"]

_table: tuple[tuple[object, ...], Mapping[str, type[Event]]] | None = None
"""The registry the last table was built for, and the table."""


def event_types() -> Mapping[str, type[Event]]:
    """Every event class the rules know, by `TYPE`: the base game's, then each registered
    expansion's."""
    global _table
    registry = expansions.registered()
    if _table is not None and _table[0] == registry:
        return _table[1]
    table: dict[str, type[Event]] = {}
    for kind in (*BASE_EVENTS, *(k for x in registry for k in x.events)):
        if table.get(kind.TYPE, kind) is not kind:
            raise IllegalAction(said("two event classes are called {kind}",
                                     kind=repr(kind.TYPE)))
        table[kind.TYPE] = kind
    _table = (registry, table)
    return table


def from_record(record: Mapping[str, Any]) -> Event:
    """Read an event record of any kind the rules know, upgrading it from an older schema
    version if needed."""
    options = option_types() if record.get("type") == GameCreated.TYPE else ()
    return read_record(record, event_types(), options)


def option_types() -> tuple[type[Any], ...]:
    """The types of the registered expansions' parts of a `GameCreated`
    (`Expansion.setup_type`), in the registry's order."""
    return tuple(x.setup_type for x in expansions.registered() if x.setup_type is not None)


EVENT_TYPES: Mapping[str, type[Event]] = event_types()
"""Every event class of the registered expansions as the rules are packaged (without any
`expansions.extended` ones), by `TYPE`."""
