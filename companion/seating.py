"""Who the screen faces: the players sit around a screen lying flat on the table.

Concept: with ``[display] seating = "around"`` every seat says on which side of the screen
it sits (`Side`: near, the side the screen's picture is upright for, or far, across the
table). The table, the die screen and the private peek turn to face the player whose turn
it is; a private peek faces its owner (the one peeking), not the current player. Every
other screen (new game, map, market, scoring, settings...) stays upright for the near side.
With ``seating = "one side"`` (the default, a screen standing up) nothing ever turns.

Only near and far: 180 degrees turns the picture without changing its size, so no screen
is laid out again. Left and right (90 and 270 degrees) would hand the screens a 480x800
window that the 800x480 layouts do not fit.

Pure: no Kivy, no rules, no store. The app asks `rotation` with what is on show and applies
the answer (`Window.rotation`) in one place (`companion.ui.app.TableApp`). A seat's side is
kept with the game as a setting of the saved records (`sides_key`), not in the game's
events: the saved game's schema does not change, and undo and redo never move a player.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum


class Seating(StrEnum):
    """``display.seating``: how the players sit around the screen."""

    ONE_SIDE = "one side"
    """The screen stands (or lies) facing everybody from one side: it never turns."""
    AROUND = "around"
    """The screen lies in the middle: it turns to face whose turn it is."""


class Side(StrEnum):
    """Which side of the screen a seat sits on."""

    NEAR = "near"
    FAR = "far"

    @property
    def other(self) -> Side:
        """The side across the screen."""
        return Side.FAR if self is Side.NEAR else Side.NEAR


SEATINGS = tuple(s.value for s in Seating)
"""The values ``display.seating`` allows."""

DEGREES: dict[Side, int] = {Side.NEAR: 0, Side.FAR: 180}
"""How far the picture turns, over the display's own rotation, to face each side."""

TURNING_SCREENS = frozenset({"table", "die"})
"""The screens that face the current player (the peek shows over the table)."""


def side_of(sides: Sequence[Side], seat: int | None) -> Side:
    """The side `seat` sits on; near for no seat or a seat with no side given."""
    if seat is None or not 0 <= seat < len(sides):
        return Side.NEAR
    return sides[seat]


def facing(seating: Seating, sides: Sequence[Side], screen: str,
           current_seat: int | None, peek_seat: int | None = None) -> Side:
    """The side the screen faces now: the peek's owner while a private peek shows, else
    the current seat on the table and the die screen, else near (and always near when
    the players sit on one side)."""
    if seating is not Seating.AROUND or screen not in TURNING_SCREENS:
        return Side.NEAR
    if peek_seat is not None and screen == "table":
        return side_of(sides, peek_seat)
    return side_of(sides, current_seat)


def rotation(base: int, seating: Seating, sides: Sequence[Side], screen: str,
             current_seat: int | None, peek_seat: int | None = None) -> int:
    """The window's rotation in degrees: the display's fixed `base` rotation plus the turn
    that faces the side the screen faces now (`facing`)."""
    side = facing(seating, sides, screen, current_seat, peek_seat)
    return (base + DEGREES[side]) % 360


def flipped(sides: Sequence[Side], seat: int, seats: int) -> tuple[Side, ...]:
    """`sides` for `seats` seats with `seat`'s side changed to the other one."""
    out = list(padded(sides, seats))
    if 0 <= seat < seats:
        out[seat] = out[seat].other
    return tuple(out)


def padded(sides: Sequence[Side], seats: int) -> tuple[Side, ...]:
    """Exactly `seats` sides: those given, cut or filled up with near."""
    return tuple(sides[:seats]) + (Side.NEAR,) * max(0, seats - len(sides))


def default_sides(seats: int) -> tuple[Side, ...]:
    """A first guess for a new game: the seats alternate near and far, round the table."""
    return tuple(Side.NEAR if i % 2 == 0 else Side.FAR for i in range(seats))


def sides_key(game_id: int) -> str:
    """The records' setting that keeps a saved game's sides."""
    return f"seating.sides.{game_id}"


def to_setting(sides: Sequence[Side]) -> list[str]:
    """`sides` as the records keep them (a JSON list of words)."""
    return [side.value for side in sides]


def from_setting(value: object) -> tuple[Side, ...]:
    """The sides a setting holds; anything unreadable is near (never an error)."""
    if not isinstance(value, list | tuple):
        return ()
    return tuple(_side(item) for item in value)


def _side(item: object) -> Side:
    try:
        return Side(str(item))
    except ValueError:
        return Side.NEAR


def describe(sides: Iterable[Side]) -> str:
    """The sides in words, seat by seat ("near, far, near")."""
    return ", ".join(side.value for side in sides)
