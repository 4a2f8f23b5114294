"""The board: who holds each region and what lies there.

A `BoardState` maps every region id of the board to a `RegionState`: the occupant (one
player's race, active or in decline, with its token count when the table gives it), a
Lost Tribe, and markers. A region is *non-empty* when it holds a Lost Tribe or any race
token; a mountain alone does not make it non-empty. Values here are immutable; the
functions below say what a conquest, an abandonment or a decline leaves in a region, and
`game` applies them as events arrive.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from companion.rules.maps import Board, Terrain


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
    pirate_ship: bool = False  # River World: defends like one token; gone when conquered
    pot_of_gold: bool = False  # Leprechauns: a coin for its holder at their next turn
    catapult: bool = False  # the Catapult power's piece: its region is immune to others

    def shown(self) -> tuple[str, ...]:
        """The pieces lying here by name, in the order a printed state lists them: the
        markers players place (`MARKERS`; encampments once, however many), then the pieces
        the rules set themselves (`SET_BY_RULES`); never the mountain, part of the board."""
        return tuple(name for name in (*MARKERS, *SET_BY_RULES)
                     if (self.encampments if name == "encampment" else getattr(self, name)))


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

    @property
    def defended(self) -> bool:
        """Whether taking it counts as conquering a non-empty region: a race token, a Lost
        Tribe, or a River World pirate ship (a ship defends too)."""
        return self.non_empty or self.markers.pirate_ship


MARKERS = ("fortress", "troll_lair", "encampment", "hole_in_the_ground", "hero", "dragon",
           "pot_of_gold", "catapult")
"""The markers players place (mountains are part of the board and never move)."""

SET_BY_RULES = ("pirate_ship",)
"""The pieces the rules put in a region, not a player (River World's ships)."""


@dataclass(frozen=True, slots=True)
class BoardState:
    """Every region of the board and what lies in it (ids as on the printed board)."""

    regions: Mapping[int, RegionState]

    def __post_init__(self) -> None:
        object.__setattr__(self, "regions", MappingProxyType(dict(self.regions)))

    @classmethod
    def setup(cls, board: Board) -> BoardState:
        """The board at the start: a Lost Tribe and a mountain where the map shows them."""
        return cls({
            r.id: RegionState(lost_tribe=r.lost_tribe,
                              markers=Markers(mountain=r.terrain is Terrain.MOUNTAIN))
            for r in board.regions.values()
        })

    def __getitem__(self, region_id: int) -> RegionState:
        return self.regions[region_id]

    def with_region(self, region_id: int, state: RegionState) -> BoardState:
        regions = dict(self.regions)
        regions[region_id] = state
        return BoardState(regions)

    def held_by(self, seat: int, race: str | None = None, *,
                in_decline: bool | None = None) -> tuple[int, ...]:
        """Ids of the regions `seat` holds (optionally: with `race`, active or declined)."""
        return tuple(
            rid for rid, rs in self.regions.items()
            if rs.occupant is not None and rs.occupant.seat == seat
            and (race is None or rs.occupant.race == race)
            and (in_decline is None or rs.occupant.in_decline == in_decline)
        )

    def count_markers(self, name: str) -> int:
        return sum(marker_count(rs.markers, name) for rs in self.regions.values())

    def catapults(self) -> frozenset[int]:
        """The regions where a Catapult stands (immune to all but its owner)."""
        return frozenset(rid for rid, rs in self.regions.items() if rs.markers.catapult)


def marker_count(markers: Markers, name: str) -> int:
    value = getattr(markers, name if name != "encampment" else "encampments")
    return int(value)


def with_marker(markers: Markers, name: str, delta: int) -> Markers:
    """Markers with one `name` marker added (delta 1) or taken away (delta -1)."""
    if name == "encampment":
        return replace(markers, encampments=markers.encampments + delta)
    return replace(markers, **{name: delta > 0})


def cleared(state: RegionState) -> RegionState:
    """A region its holder left: the race's own markers go with it; mountains stay."""
    return RegionState(markers=Markers(mountain=state.markers.mountain))


def taken(state: RegionState, occupant: Occupant) -> RegionState:
    """A region after a conquest: defenders, Lost Tribe, fortress, lair and camps are gone."""
    return RegionState(occupant=occupant, markers=Markers(mountain=state.markers.mountain))


def flipped(state: RegionState, keep_all_tokens: bool) -> RegionState:
    """A region of a race going into decline: one token flipped (all for Ghouls); heroes,
    the dragon, holes, encampments and the Catapult leave; a fortress or a troll's lair
    stays."""
    occupant = state.occupant
    assert occupant is not None
    tokens = occupant.tokens if keep_all_tokens else 1
    return RegionState(
        occupant=replace(occupant, in_decline=True, tokens=tokens),
        markers=Markers(mountain=state.markers.mountain, fortress=state.markers.fortress,
                        troll_lair=state.markers.troll_lair),
    )
