"""The board: who holds each region and what lies there.

A `BoardState` maps every region id of the board to a `RegionState`: the occupant (one
player's race, active or in decline, with its token count when the table gives it), a
Lost Tribe, and markers. A region is *non-empty* when it holds a Lost Tribe or any race
token; a mountain alone does not make it non-empty. Values here are immutable; the
functions below say what a conquest, an abandonment or a decline leaves in a region, and
`game` applies them as events arrive.

The base game's pieces are fields of `Markers`; an expansion's own pieces lie among its
`pieces`, a set of piece ids, each declared by its expansion as a `Piece` (whether a
player places it or the rules set it, whether it defends its region, where it is listed).
This module names no expansion's piece: it asks the pieces the registry of expansions
hands over once, at import (`use_pieces`).

Invariants: a region holds at most one of each expansion piece; `shown()` and
`placed_markers()` list the pieces in one fixed order (the base game's, each expansion
piece after the one its `Piece.after` names); a conquest, an abandonment or a decline
leaves no expansion piece behind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any

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
    catapult: bool = False  # the Catapult power's piece: its region is immune to others
    pieces: frozenset[str] = frozenset()  # the expansions' own pieces here, by id (`Piece`)

    def shown(self) -> tuple[str, ...]:
        """The pieces lying here by name, in the order a printed state lists them: the
        markers players place (`placed_markers()`; encampments once, however many), then
        the pieces the rules set themselves (`set_by_rules()`); never the mountain, part of
        the board."""
        known = (*placed_markers(), *set_by_rules())
        unknown = sorted(self.pieces.difference(known))  # a piece no longer registered
        return tuple(name for name in (*known, *unknown) if marker_count(self, name))

    def has(self, piece: str) -> bool:
        """Whether the expansion piece `piece` (its id) lies here."""
        return piece in self.pieces

    def with_piece(self, piece: str, present: bool = True) -> Markers:
        """These markers with the expansion piece `piece` put here (or taken away)."""
        pieces = self.pieces | {piece} if present else self.pieces - {piece}
        return self if pieces == self.pieces else replace(self, pieces=pieces)


@dataclass(frozen=True, slots=True)
class Piece:
    """An expansion's own piece that may lie in a region, as the base game sees it
    (declared by its `Expansion.pieces`).

    `placed`: a player places it (a marker of `MarkerPlaced`, owned by a race or power the
    expansion names in `Expansion.marker_owner`); False: the rules set it. `defends`:
    taking its region counts as conquering a non-empty one. `after`: the base marker it is
    listed after (None: after the base game's markers). `words`: how a refusal names it, a
    template marked for translation (None: its id with spaces); `a_words`: one of it with
    its article ("a Pot of Gold"; None: "a" and its words)."""

    id: str
    placed: bool
    defends: bool = False
    after: str | None = None
    words: str | None = None
    a_words: str | None = None


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
        Tribe, or an expansion piece that defends (`Piece.defends`)."""
        if self.non_empty:
            return True
        return bool(self.markers.pieces) and any(
            piece.defends and piece.id in self.markers.pieces for piece in _pieces_of())


BASE_MARKERS = ("fortress", "troll_lair", "encampment", "hole_in_the_ground", "hero",
                "dragon", "catapult")
"""The base game's markers players place (mountains are part of the board and never
move)."""

_BASE_FIELDS = frozenset(f.name for f in fields(Markers)) - {"pieces"}


def _no_pieces() -> Sequence[Piece]:
    return ()


_pieces_of: Callable[[], Sequence[Piece]] = _no_pieces
"""Where the expansions' pieces come from (`use_pieces`)."""
_cached: tuple[tuple[Piece, ...], tuple[str, ...], tuple[str, ...]] | None = None
"""The pieces last asked, the markers players place and the pieces the rules set."""


def use_pieces(registered: Callable[[], Sequence[Piece]]) -> None:
    """Know the expansions' pieces `registered()` gives, asked each time (so a piece of an
    expansion registered for a while is known too); called once, by the registry."""
    global _pieces_of, _cached
    _pieces_of, _cached = registered, None


def _orders() -> tuple[tuple[str, ...], tuple[str, ...]]:
    global _cached
    pieces = tuple(_pieces_of())
    if _cached is not None and _cached[0] == pieces:
        return _cached[1], _cached[2]
    placed = list(BASE_MARKERS)
    for piece in pieces:
        if piece.placed:
            at = placed.index(piece.after) + 1 if piece.after in placed else len(placed)
            placed.insert(at, piece.id)
    by_rules = tuple(piece.id for piece in pieces if not piece.placed)
    _cached = (pieces, tuple(placed), by_rules)
    return _cached[1], _cached[2]


def placed_markers() -> tuple[str, ...]:
    """The markers players place: the base game's and the registered expansions' own."""
    return _orders()[0]


def set_by_rules() -> tuple[str, ...]:
    """The registered expansions' pieces the rules put in a region, not a player."""
    return _orders()[1]


def expansion_piece(piece_id: str) -> Piece | None:
    """The registered expansion piece with this id (None: none is)."""
    return next((p for p in _pieces_of() if p.id == piece_id), None)


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
    """How many `name` markers lie here (a base marker or an expansion piece, by id)."""
    if name == "encampment":
        return markers.encampments
    if name in _BASE_FIELDS:
        return int(getattr(markers, name))
    return int(name in markers.pieces)


def with_marker(markers: Markers, name: str, delta: int) -> Markers:
    """Markers with one `name` marker added (delta 1) or taken away (delta -1)."""
    if name == "encampment":
        return replace(markers, encampments=markers.encampments + delta)
    if name in _BASE_FIELDS:
        changed: dict[str, Any] = {name: delta > 0}  # a base marker's flag, by its name
        return replace(markers, **changed)
    return markers.with_piece(name, delta > 0)


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
