"""The board: who holds each region and what lies there.

A `BoardState` maps region ids to `RegionState`. A region is *non-empty* when it holds a
Lost Tribe or any race token (active or in decline); a mountain alone does not make it
non-empty. Values here are immutable; changes come from events applied by `game`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Markers:
    """The pieces other than race tokens that may lie in a region."""

    mountain: bool = False
    fortress: bool = False
    troll_lair: bool = False
    encampments: int = 0
    hole_in_the_ground: bool = False
    hero: bool = False
    dragon: bool = False


@dataclass(frozen=True, slots=True)
class Occupant:
    """The race tokens of one player in a region."""

    seat: int
    race: str
    in_decline: bool
    tokens: int | None = None  # None: the table did not say how many


@dataclass(frozen=True, slots=True)
class RegionState:
    """What lies in one region now."""

    occupant: Occupant | None = None
    lost_tribe: bool = False
    markers: Markers = Markers()

    @property
    def non_empty(self) -> bool:
        return self.occupant is not None or self.lost_tribe
