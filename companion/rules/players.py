"""A player at the table: seat, name, colour, purse, active combo and declined races.

A player has at most one active race. Declined races stay on the board until a later
decline sweeps them away; normally at most one declined race remains, but a race that went
into decline with the Spirit power keeps its place beside another (it does not count
toward the limit). `coins` is the purse: never negative, and secret until the end.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ActiveRace:
    """The combo a player is playing now."""

    race: str
    power: str
    tokens: int
    picked_turn: int
    first_regions: tuple[int, ...] = ()
    """The first 2 regions the race conquered, in order, where its Holes-in-the-Ground may
    go (kept for Halflings only: no other race has a use for them)."""


@dataclass(frozen=True, slots=True)
class DeclinedRace:
    """A race of this player in decline; `kept_power` is a badge still in effect (Spirit)."""

    race: str
    power: str
    declined_turn: int
    kept_power: bool = False


@dataclass(frozen=True, slots=True)
class Player:
    seat: int
    name: str
    colour: str
    coins: int
    active: ActiveRace | None = None
    declined: tuple[DeclinedRace, ...] = ()
