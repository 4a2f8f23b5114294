"""The map's canvas in layers: per-region groups repainted only when what they show changed.

Concept: a `BoardMap` draws the same board again and again while only a region or two
changes between two draws (a conquest, a token count, the selection). So its canvas is kept
in layers, each holding one slot per region in a fixed order: `RegionGroups` (one
`InstructionGroup` per region, painted from a key that says everything it shows) and
`RegionColours` (one `Color` per region, set in place; the geometry it colours is drawn
once). An update hands every layer the key each region should show now; a layer compares
it with the key it last drew and touches only the regions whose key differs.

Invariants:

- a slot's instructions are exactly what its painter makes of its current key (None:
  nothing), whatever sequence of keys came before: an incremental update draws what a
  fresh layer given the final keys draws;
- a slot whose key is unchanged (`==`) is not touched: its instruction objects stay the
  same objects;
- the slots keep the order they were made in, so the regions' z-order never depends on
  which was updated last;
- knows nothing about Small World: the widget decides what a key means and how to paint it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, Generic, TypeVar

from kivy.graphics import Color, InstructionGroup

from companion.ui import drawing

K = TypeVar("K", bound=Hashable)

Painter = Callable[[InstructionGroup, int, K], None]
"""Paints region `rid`'s slot (an empty group) from its key."""


class RegionGroups(Generic[K]):
    """One `InstructionGroup` per region inside `group`, repainted when its key changes."""

    def __init__(self, ids: Iterable[int], paint: Painter[K]) -> None:
        self.group = drawing.group()
        """Add this to the canvas (once): it holds every region's slot, in `ids` order."""
        self._paint = paint
        self._slots: dict[int, InstructionGroup] = {}
        self._keys: dict[int, K | None] = {}
        self._asked: dict[int, K | None] | None = None  # the keys of the last update
        for rid in ids:
            slot = drawing.group()
            self._slots[rid] = slot
            self._keys[rid] = None
            self.group.add(slot)

    def update(self, keys: Mapping[int, K | None]) -> tuple[set[int], int]:
        """Repaint each region whose key differs from the one it shows (absent: None, drawn
        as nothing); return those regions and how many instructions were removed or made."""
        changed: set[int] = set()
        touched = 0
        if keys == self._asked:  # the same as last time (a tap that moved the selection)
            return changed, touched
        self._asked = dict(keys)
        for rid, slot in self._slots.items():
            key = keys.get(rid)
            if key == self._keys[rid]:
                continue
            touched += len(slot.children)
            slot.clear()
            if key is not None:
                self._paint(slot, rid, key)
                touched += len(slot.children)
            self._keys[rid] = key
            changed.add(rid)
        return changed, touched

    def key(self, rid: int) -> K | None:
        """The key region `rid`'s slot was last painted from."""
        return self._keys[rid]

    def slot(self, rid: int) -> InstructionGroup:
        """Region `rid`'s group (tests look at its instructions)."""
        return self._slots[rid]


class RegionColours:
    """One `Color` per region, made by the caller where it belongs in the canvas, whose
    rgba is set in place when the region's colour changes."""

    def __init__(self) -> None:
        self._colours: dict[int, Color] = {}
        self._rgba: dict[int, tuple[float, ...]] = {}
        self._asked: Mapping[int, Iterable[float]] | None = None  # the last update's colours

    def add(self, rid: int, rgba: Iterable[float]) -> Color:
        """Make region `rid`'s `Color` (the caller adds it to a group before its shapes)."""
        value = tuple(rgba)
        colour = Color(*value)
        self._colours[rid] = colour
        self._rgba[rid] = value
        return colour

    def update(self, colours: Mapping[int, Iterable[float]]) -> set[int]:
        """Set the colour of each region whose colour changed; return those regions."""
        changed: set[int] = set()
        if colours == self._asked:
            return changed
        self._asked = dict(colours)
        for rid, rgba in colours.items():
            value = tuple(rgba)
            if rid not in self._colours or value == self._rgba[rid]:
                continue
            self._colours[rid].rgba = value
            self._rgba[rid] = value
            changed.add(rid)
        return changed

    def rgba(self, rid: int) -> tuple[float, ...]:
        """Region `rid`'s colour as last set."""
        return self._rgba[rid]

    def colour(self, rid: int) -> Any:
        """Region `rid`'s `Color` instruction (tests check it stays the same object)."""
        return self._colours[rid]
