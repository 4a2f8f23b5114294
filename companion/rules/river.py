"""River World: rivers, harbors, pirate ships, the Caravel, the Temple of the Seer, events.

The board says where the River World regions are: terrain "river" (`maps.Terrain.RIVER`),
and River World's part of the board format (`RIVER_BOARD`, a `maps.BoardPart` the registry
hands to `maps`), declared here: the sites harbor, shipyard and temple (`Site`, written in
a region's `features`), the `pirate` symbol (a region field) and their checks (a pirate
symbol marks a river; a site stands on land, never on a river, a sea or a lake). This
module holds the rules of the expansion that are not conquest costs (`conquest`) or
scoring (`scoring`):

- the event line: as many markers as the game has turns, drawn from the box (Storm x2,
  Quiet waters x3, Harsh Winter x2, Pirates x4; the counts are catalogue data,
  `river_world_pieces`) and shuffled by the session; the event of turn n is the n-th
  marker (`RiverState.event`), revealed when the turn starts;
- pirate ships: one on every river with a pirate symbol at set-up, and one on every empty
  river when Pirates is revealed (`pirates_arrive`); a ship is a marker of its region
  (`PIRATE_SHIP` among `Markers.pieces`), defends like one token and sinks when its region
  is conquered;
- rivers are emptied when a player's troops redeploy (`empty_rivers`), except under a
  Harsh Winter (the holder must leave a token) and for a race with a sea ability;
- the Caravel (`RiverState.caravel`): placed once per turn by the player holding the
  Shipyard on any river, an entry point for that player until the end of the turn;
- the Temple of the Seer: its holder may look at the next event during their turn
  (`river_game.seer_peek`, a private view like a purse peek; nothing is recorded);
- what everyone may see (`RiverView`, made by `river_game.public_river`): the event in
  force, the markers revealed so far, the ships, the Caravel and who holds the Shipyard
  and the Temple, never the next event;
- corrections at the table: `PirateShipSet` puts a ship in an empty river or takes one
  away; a `RegionSet` that puts a race in a river sinks the ship there.

Readings of the rulebook made here (docs/board-format.md says them for players):

- "Sea-related race abilities or special powers allow you to remain in the river
  (Seafaring, etc.)": the Seafaring power and the Tritons race (the base game's sea
  race), active or in decline (`SEA_ABILITIES`). A river they hold is never emptied.
- Rivers are emptied at the end of the player's redeployment, every river any race of
  that player holds, declined races included (a race that froze there under an earlier
  Harsh Winter "must leave" once the winter is over); a player who goes into decline
  instead of conquering leaves them when declining ("at the beginning of the turn").
- Under a Harsh Winter a river held must keep its token: it cannot be abandoned.
- Pirates place a ship on every river with no race token, Lost Tribe or ship in it, in
  the order of the region ids while the 12 ships of the box last.
- A region taken from a pirate ship counts as a non-empty region conquered (Orcs,
  Pillaging): the ship defends like a race token.
- The player "occupying the Shipyard" (or the Temple) holds it with any race of theirs,
  active or in decline. The Caravel's river and every region bordering it may be
  attacked by that player (the race enters there as on an entry region, or conquers on
  from it); the Caravel stays where it was placed until the end of the turn.

Pure: no randomness (the session shuffles the line), no clock, no file.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from companion.rules.board import BoardState, Piece, RegionState, cleared
from companion.rules.catalog import Catalog
from companion.rules.errors import IllegalAction, UnknownName
from companion.rules.maps import Board, BoardPart, Region, Terrain
from companion.rules.said import N_, Name, Said, listed, said


class RiverEvent(StrEnum):
    """An Event marker of River World."""

    STORM = "Storm"
    QUIET_WATERS = "Quiet waters"
    HARSH_WINTER = "Harsh Winter"
    PIRATES = "Pirates"


ADVISED_LEFT_OUT: tuple[str, ...] = ("Flying",)
"""The powers River World advises leaving out of the decks (Flying skips every river)."""

EFFECTS: Mapping[RiverEvent, str] = MappingProxyType(
    {
        RiverEvent.STORM: N_("River regions cost 3 tokens to conquer instead of 1."),
        RiverEvent.QUIET_WATERS: N_("No effect this turn: the rivers play as usual."),
        RiverEvent.HARSH_WINTER: N_(
            "Rivers are frozen: they cost 2 tokens to conquer, and a river conquered or "
            "held keeps one token when redeploying (it is worth 1 coin)."
        ),
        RiverEvent.PIRATES: N_(
            "A pirate ship sails into every empty river; regions next to a ship score one "
            "coin less."
        ),
    }
)
"""What each event does, in words a screen shows."""

_BOX_KEYS: Mapping[RiverEvent, tuple[str, int]] = MappingProxyType(
    {
        RiverEvent.STORM: ("storm_events", 2),
        RiverEvent.QUIET_WATERS: ("quiet_waters_events", 3),
        RiverEvent.HARSH_WINTER: ("harsh_winter_events", 2),
        RiverEvent.PIRATES: ("pirates_events", 4),
    }
)
"""The catalogue key (`river_world_pieces`) of each marker's count, and the rulebook's."""

PIRATE_SHIPS = 12
"""Pirate ships in the box, unless the catalogue says otherwise."""

PIRATE_SHIP = "pirate_ship"
"""A pirate ship's id among a region's markers."""
SHIP = Piece(PIRATE_SHIP, placed=False, defends=True)
"""A pirate ship as the base game sees it: the rules set it (at set-up, when Pirates
arrive, by the table's correction), and it defends its river like one token."""

RIVER_COST = 1
STORM_COST = 3
HARSH_WINTER_COST = 2

SEA_ABILITIES: frozenset[str] = frozenset({"seafaring", "tritons"})
"""Races and powers (case-folded) whose tokens may stay in a river."""


# --- the event line ------------------------------------------------------------------


def event_counts(catalog: Catalog) -> Mapping[RiverEvent, int]:
    """How many markers of each event the box holds."""
    pieces = catalog.river_world_pieces
    return MappingProxyType({e: pieces.get(key, n) for e, (key, n) in _BOX_KEYS.items()})


def markers_in_box(catalog: Catalog) -> tuple[RiverEvent, ...]:
    """Every Event marker of the box, in a fixed order; the session shuffles them and lays
    the first `turns` in a line."""
    return tuple(e for e, n in event_counts(catalog).items() for _ in range(n))


def pirate_ships_in_box(catalog: Catalog) -> int:
    return catalog.river_world_pieces.get("pirate_ships", PIRATE_SHIPS)


def event_named(name: object) -> RiverEvent:
    """The event of that name, ignoring case; `UnknownName` listing the events otherwise."""
    if isinstance(name, str):
        for event in RiverEvent:
            if event.value.casefold() == name.strip().casefold():
                return event
    error = UnknownName("River World event", name, [e.value for e in RiverEvent])
    error.said = said("unknown River World event {name}; allowed: {events}", name=repr(name),
                      events=listed(Name("event", e.value) for e in RiverEvent))
    raise error


def check_event_line(line: Sequence[str], turns: int, catalog: Catalog) -> tuple[RiverEvent, ...]:
    """The line of markers of a new game, checked: one per turn, no more of each than the
    box holds. `IllegalAction` says what is wrong."""
    if len(line) != turns:
        raise IllegalAction(said("the River World event line holds one marker per turn: "
                                 "{turns}, not {given}", turns=turns, given=len(line)))
    try:
        events = tuple(event_named(name) for name in line)
    except UnknownName as error:
        raise IllegalAction(error.said) from error
    for event, most in event_counts(catalog).items():
        count = events.count(event)
        if count > most:
            raise IllegalAction(said("the event line holds {count} {event} markers; the box "
                                     "has {most}", count=count,
                                     event=Name("event", event.value), most=most))
    return events


@dataclass(frozen=True, slots=True)
class RiverState:
    """River World in a running game: the event line and where the Caravel stands."""

    events: tuple[RiverEvent, ...]
    caravel: int | None = None  # the river region where the Caravel stands this turn

    def event(self, turn: int) -> RiverEvent:
        """The event of game turn `turn` (1-based)."""
        return self.events[turn - 1]

    def next_event(self, turn: int) -> RiverEvent | None:
        """The marker after turn `turn`'s, or None on the last turn."""
        return self.events[turn] if turn < len(self.events) else None


# --- the board -----------------------------------------------------------------------


class Site(StrEnum):
    """A River World symbol printed in a land region (written in `features` in a file)."""

    HARBOR = "harbor"
    SHIPYARD = "shipyard"
    TEMPLE = "temple"
    """The Temple of the Seer."""


PIRATE_SYMBOL = "pirate"
"""The region field saying a pirate symbol is printed there (a pirate ship starts there)."""


def is_river(region: Region) -> bool:
    """Whether the region is a river (1 token to conquer, emptied at redeployment)."""
    return region.terrain is Terrain.RIVER


def sites(region: Region) -> frozenset[Site]:
    """The River World sites printed in the region."""
    return frozenset(Site(s) for s in region.symbols if s in Site._value2member_map_)


def has_pirate_symbol(region: Region) -> bool:
    """Whether a pirate symbol is printed in the region (a ship starts there)."""
    return PIRATE_SYMBOL in region.flags


def is_river_world(board: Board) -> bool:
    """Whether the board has River World regions: a river, a pirate symbol or a site."""
    return any(is_river(r) or has_pirate_symbol(r) or sites(r) for r in board.regions.values())


def with_site(board: Board, site: Site) -> tuple[int, ...]:
    """Ids of the regions carrying this River World site."""
    return tuple(r.id for r in board.regions.values() if site in sites(r))


class RiverBoard(BoardPart):
    """River World's part of the board format: its sites, the pirate symbol, their checks."""

    symbols = tuple(site.value for site in Site)
    flags = (PIRATE_SYMBOL,)

    def refuse(self, region: Region) -> Said | None:
        kind = region.terrain.value
        if has_pirate_symbol(region) and not is_river(region):
            return said("{field} is true but the region is a {terrain}; pirate symbols mark "
                        "rivers only", field=PIRATE_SYMBOL, terrain=kind)
        found = sites(region)
        if found and (region.is_water or is_river(region)):
            return said("a {terrain} cannot have a harbor, shipyard or temple (found {found})",
                        terrain=kind, found=listed(sorted(s.value for s in found)))
        return None


RIVER_BOARD = RiverBoard()


def conquest_base(event: RiverEvent | None) -> tuple[Said, int]:
    """The cost line that replaces "Any conquest" for a river, under this event."""
    if event is RiverEvent.STORM:
        return said("A river in a Storm"), STORM_COST
    if event is RiverEvent.HARSH_WINTER:
        return said("A frozen river (Harsh Winter)"), HARSH_WINTER_COST
    return said("A river region"), RIVER_COST


def pirate_ships(regions: BoardState) -> tuple[int, ...]:
    """The regions where a pirate ship lies."""
    return tuple(rid for rid, rs in regions.regions.items() if rs.markers.has(PIRATE_SHIP))


def next_to_pirates(board: Board, regions: BoardState, region_id: int) -> bool:
    """Whether the region borders a region with a pirate ship (it scores one less)."""
    return any(
        other in regions.regions and regions[other].markers.has(PIRATE_SHIP)
        for other in board.region(region_id).adjacent
    )


def _with_ship(state: RegionState) -> RegionState:
    return replace(state, markers=state.markers.with_piece(PIRATE_SHIP))


def _launch(regions: BoardState, targets: Iterable[int], supply: int) -> BoardState:
    left = supply - len(pirate_ships(regions))
    for rid in sorted(targets):
        if left <= 0:
            break
        regions = regions.with_region(rid, _with_ship(regions[rid]))
        left -= 1
    return regions


def setup_pirates(board: Board, regions: BoardState, supply: int) -> BoardState:
    """A pirate ship on each river marked with a pirate symbol (set-up)."""
    return _launch(regions, (r.id for r in board.regions.values() if has_pirate_symbol(r)),
                   supply)


def pirates_arrive(board: Board, regions: BoardState, supply: int) -> BoardState:
    """Pirates: a ship on every empty river (no race token, Lost Tribe or ship)."""
    empty = (
        r.id
        for r in board.regions.values()
        if is_river(r)
        and not regions[r.id].non_empty
        and not regions[r.id].markers.has(PIRATE_SHIP)
    )
    return _launch(regions, empty, supply)


def stays_in_rivers(race: str, power: str | None) -> bool:
    """Whether a race with this banner and badge may stay in a river (a sea ability)."""
    return race.casefold() in SEA_ABILITIES or (
        power is not None and power.casefold() in SEA_ABILITIES
    )


def empty_rivers(
    board: Board, regions: BoardState, seat: int, staying: Collection[str]
) -> BoardState:
    """The board after `seat` empties every river their races hold, but those of the races
    named in `staying` (the ones with a sea ability)."""
    for region in board.regions.values():
        occupant = regions[region.id].occupant
        if (
            is_river(region)
            and occupant is not None
            and occupant.seat == seat
            and occupant.race not in staying
        ):
            regions = regions.with_region(region.id, cleared(regions[region.id]))
    return regions


def holders(board: Board, regions: BoardState, site: Site) -> tuple[int, ...]:
    """The seats holding a region with this site (any race, active or in decline)."""
    seats = {
        occupant.seat
        for rid in with_site(board, site)
        if (occupant := regions[rid].occupant) is not None
    }
    return tuple(sorted(seats))


# --- what a screen may show ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RiverView:
    """River World as everyone at the table may see it (never the next event)."""

    turn: int
    event: RiverEvent  # in force this turn
    effect: str  # what the event does, in words
    revealed: tuple[RiverEvent, ...]  # the markers turned face up, turn 1 first
    face_down: int  # markers still face down in the line
    river_cost: int  # what a river costs to conquer this turn (before defenders)
    rivers: tuple[int, ...]
    pirate_ships: tuple[int, ...]
    caravel: int | None
    shipyard_seats: tuple[int, ...]  # who may place the Caravel (on their turn)
    temple_seats: tuple[int, ...]  # who may look at the next event (on their turn)
