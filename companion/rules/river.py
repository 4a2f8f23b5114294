"""River World: rivers, harbors, pirate ships, the Caravel, the Temple of the Seer, events;
its model and its part of the board format, and the expansion inside a game.

This module is the whole expansion, in two parts, in this order:

- **the model and the board part**: the event line (`RiverEvent`, `RiverState`, the
  markers in the box), River World's part of the board format (`RIVER_BOARD`, `RIVER`,
  `Site`, `is_river`, `is_river_world`, `with_site`, `sites`, `has_pirate_symbol`), the pure
  functions of a board and who holds its regions (the cost line of a river, pirate ships
  set out and arriving, rivers emptied, the holders of a site) and `RiverView`, what
  everyone may see; these take and give boards and regions, never a `GameState`;
- **the game**: River World inside a game: its events (`CaravelPlaced`, `PirateShipSet`)
  and its part of a new game (`RiverSetup`), its set-up, the event revealed as each game
  turn starts, frozen rivers, its facts of a conquest (`RiverFacts`), rivers emptied at
  redeployment, the Caravel, the table's pirate-ship corrections, what the screens read of
  a game (`event_in_force`, `seer_refusal`, `seer_peek`, `public_river`), its facts of the
  regions held (a Harbor, a pirate ship beside) in the scoring input (a score scenario's
  are read by `companion.score_parts`), and how they score, its words in the rule book, the
  `RiverWorld` expansion whose one instance `RIVER_WORLD` the registry
  (`companion.rules.expansions`) holds, and `RiverIntents`. `companion.rules.game.apply`
  hands River World's events and moments to that expansion, which keeps its `RiverState`
  among the state's parts (`GameState.part`).

**The model and the board part.** The board says where the River World regions are, in
River World's part of the board format (`RIVER_BOARD`, a `maps.BoardPart` the registry
hands to `maps`), declared here: the terrain "river" (`RIVER`, land for the board's rules,
not water), the sites harbor, shipyard and temple (`Site`, written in a region's
`features`), the `pirate` symbol (a region field) and their checks (a pirate symbol marks
a river; a site stands on land, never on a river, a sea or a lake). The rules of the
expansion that are not conquest costs (`conquest`) or scoring (`scoring`):

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
  (`seer_peek`, a private view like a purse peek; nothing is recorded);
- what everyone may see (`RiverView`, made by `public_river`): the event in
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

**The game: its facts of the regions held.** Its facts of a region held are one of
`HeldRegion.facts` (`RiverRegionFacts`), counted one of `QuickCount.facts`
(`RiverCounts`), found by type; left out, a region has neither. They score as the rules
say:

- Harbors: the player's Harbors, active and declined races together, score 1 + 2 + 3 ...;
  each already earns 1 as a region held, so one line after all the player's races,
  "Harbors: N held score 1 + 2 + ...", adds the rest (none for one Harbor; beyond four
  the series is shortened to "1 + 2 + ... + N", so the line never grows with the count);
- pirate ships: a region next to one scores one coin less, region by region, and a region
  that earns nothing loses nothing (the rules take a coin off what the region scores,
  never below 0). The only regions that earn nothing are an active Aquatic race's inland
  ones (1, less 1: `RiverCounts.inland_next_to_pirates` says how many of the counted ones
  border a ship) and a race's whose regions an expansion's rule scores instead of them,
  when that earns nothing (Priestesses in decline with no Ivory Tower). One line per race,
  after its bonuses. An active Aquatic race's regions next to a ship that are not inland
  are coastal (more is refused); the inland count not said is the fewest the other
  counts allow (`inland_beside_pirates`), so no accepted count makes a total negative.
- where a site stands: a Harbor (or the Shipyard, the Temple) on land that is not a river
  (`holds_sites`, `site_refusal`: the one rule the board format, a scenario's regions and
  counts and the scoring checks all ask).

Invariants: the Caravel is on at most one river and leaves when the turn ends; a pirate
ship is only ever in an empty river, and never more ships than the box holds; the events'
names and fields are those of the saved games (`TYPE` and the dataclass fields), so old
saved games replay unchanged.

Pure: no randomness (the session shuffles the line), no clock, no file. The model reads
no `GameState`; the game reads and makes states only through `companion.rules.state`,
never `companion.rules.game`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import ClassVar

from companion.rules.board import BoardState, Markers, Piece, RegionState, cleared
from companion.rules.catalog import Catalog
from companion.rules.conquest import Attacker, CostLine, Reach
from companion.rules.errors import IllegalAction, MalformedInput, UnknownName
from companion.rules.events import Event, GameCreated, RaceDeclined
from companion.rules.expansion import (
    Deal,
    Expansion,
    Intents,
)
from companion.rules.maps import Board, BoardPart, Region, Terrain
from companion.rules.names import AQUATIC, FLYING, SEAFARING, TRITONS
from companion.rules.rule_entry import PIECE, RuleEntry
from companion.rules.said import N_, Name, Said, listed, said, said_n
from companion.rules.scoring import (
    HeldRegion,
    QuickCount,
    Regions,
    ScoredRace,
    ScoreLine,
    ScoringInput,
    ScoringInputError,
    Tally,
    true_or_false,
    whole_count,
    with_fact,
)
from companion.rules.state import GameState, acting, expect
from companion.rules.turns import Phase


class RiverEvent(StrEnum):
    """An Event marker of River World."""

    STORM = "Storm"
    QUIET_WATERS = "Quiet waters"
    HARSH_WINTER = "Harsh Winter"
    PIRATES = "Pirates"


ADVISED_LEFT_OUT: tuple[str, ...] = (FLYING,)
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

SEA_ABILITIES: frozenset[str] = frozenset({SEAFARING.casefold(), TRITONS.casefold()})
"""Races and powers (case-folded) whose tokens may stay in a river."""


# --- the model: the event line -----------------------------------------------------------


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


# --- the model: the board, and River World's part of its format --------------------------

RIVER = Terrain("river", is_water=False)
"""River World's terrain, printed on its boards: land for the board's rules (not water),
declared by its part of the format (`RIVER_BOARD`); what a river costs and when it is
emptied are the rules below."""


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
    return region.terrain is RIVER


def sites(region: Region) -> frozenset[Site]:
    """The River World sites printed in the region."""
    return sites_among(region.symbols)


def sites_among(symbols: Collection[str]) -> frozenset[Site]:
    """The River World sites among a region's symbols (the others are not River World's)."""
    return frozenset(site for site in Site if site.value in symbols)


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
    """River World's part of the board format: the river, its sites, the pirate symbol,
    their checks."""

    terrains = (RIVER,)
    symbols = tuple(site.value for site in Site)
    flags = (PIRATE_SYMBOL,)

    def refuse(self, region: Region) -> Said | None:
        if has_pirate_symbol(region) and not is_river(region):
            return said("{field} is true but the region is a {terrain}; pirate symbols mark "
                        "rivers only", field=PIRATE_SYMBOL, terrain=region.terrain.value)
        return site_refusal(region.terrain, sites(region))


def holds_sites(terrain: Terrain) -> bool:
    """Whether a River World site (a Harbor, the Shipyard, the Temple) may stand on a region
    of this terrain: land that is not a river. The one place that says so: the board
    format (`RiverBoard.refuse`), a scenario's region objects and quick counts, and the
    scoring checks all ask it."""
    return not terrain.is_water and terrain is not RIVER


def site_refusal(terrain: Terrain, found: Collection[Site]) -> Said | None:
    """Why sites `found` cannot stand on a region of this terrain (None: they may, or none
    is found)."""
    if not found or holds_sites(terrain):
        return None
    return said("a {terrain} cannot have a harbor, shipyard or temple (found {found})",
                terrain=terrain.value, found=listed(sorted(s.value for s in found)))


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


# --- the model: what a screen may show ---------------------------------------------------


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


# --- the game: its events ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CaravelPlaced:
    """River World: the player holding the Shipyard places the Caravel on a river, a new
    entry point for them until the end of their turn (once per turn)."""

    TYPE: ClassVar[str] = "caravel_placed"
    IN_TURN: ClassVar[bool] = True
    seat: int
    region: int


@dataclass(frozen=True, slots=True)
class PirateShipSet:
    """River World, a correction at the table: a pirate ship is (or is not) in a river."""

    TYPE: ClassVar[str] = "pirate_ship_set"
    region: int
    present: bool


@dataclass(frozen=True, slots=True)
class RiverSetup:
    """River World's part of a new game (one of `GameCreated.options`): the line of Event
    markers, one per turn, in the order they are revealed (shuffled outside the rules)."""

    river_events: tuple[str, ...] = ()


# --- the game: set-up --------------------------------------------------------------------


def event_line(created: GameCreated) -> tuple[str, ...]:
    """The game's line of Event markers (empty: River World is not played)."""
    option = created.option(RiverSetup)
    return () if option is None else option.river_events


def _set_up(
    event: GameCreated, board: Board, catalog: Catalog
) -> tuple[RiverState | None, BoardState]:
    """River World's set-up: the event line, the ships on pirate symbols, the first event."""
    regions = BoardState.setup(board)
    line = event_line(event)
    if not line:
        if is_river_world(board):
            raise IllegalAction(said("the {board} board is a River World board: the game "
                                     "needs its line of Event markers", board=event.board))
        return None, regions
    river = RiverState(check_event_line(line, event.turns, catalog))
    regions = setup_pirates(board, regions, pirate_ships_in_box(catalog))
    return river, _reveal(river, 1, board, regions, catalog)


def _reveal(
    river: RiverState, turn: int, board: Board, regions: BoardState, catalog: Catalog
) -> BoardState:
    """The board once the event of `turn` is turned face up (Pirates: ships sail in)."""
    if river.event(turn) is RiverEvent.PIRATES:
        return pirates_arrive(board, regions, pirate_ships_in_box(catalog))
    return regions


# --- the game: the turn (frozen rivers, a conquest's facts, rivers emptied, the Caravel) -


def _is_frozen(state: GameState, region: int) -> bool:
    """Harsh Winter: a river must keep its token this turn."""
    return event_in_force(state) is RiverEvent.HARSH_WINTER and is_river(state.map.region(region))


@dataclass(frozen=True, slots=True)
class RiverFacts:
    """River World's part of a conquest (`conquest.ConquestFacts`): a river costs 1 instead
    of 2 ("A river region"), 3 in a Storm and 2 under a Harsh Winter (`event`, the event in
    force); a pirate ship in a region defends like one token ("Pirate ship", +1); and the
    Caravel (`caravel`, the river where the player's Caravel stands) makes that river and
    every region bordering it reachable, as an entry point and a place to conquer on from."""

    event: RiverEvent | None = None
    caravel: int | None = None

    def base(self, region: Region) -> CostLine | None:
        if not is_river(region):
            return None
        label, tokens = conquest_base(self.event)
        return CostLine(str(label), tokens, label)

    def entry(self, board: Board, region_id: int) -> Reach | None:
        if self.caravel is None:
            return None
        caravel = board.region(self.caravel)
        if not is_river(caravel):
            raise IllegalAction(said("caravel: the Caravel sails on a river, not region "
                                     "{region}", region=caravel.id))
        if region_id != caravel.id and region_id not in caravel.adjacent:
            return None
        return Reach(True, said("the Caravel stands in it: a new entry point")
                     if region_id == caravel.id else
                     said("the Caravel stands in river {river}: a new entry point",
                          river=caravel.id))

    def defence(self, region_id: int, here: RegionState) -> tuple[CostLine, ...]:
        if not here.markers.has(PIRATE_SHIP):
            return ()
        ship = said("Pirate ship")
        return (CostLine(str(ship), 1, ship),)

    def guard(self, here: RegionState, attacker: Attacker) -> Said | None:
        return None


def _with_river(state: GameState, who: Attacker) -> Attacker:
    """The River World facts an attacker's conquest reads: the event, the Caravel."""
    river = state.part(RiverState)
    if river is None:
        return who
    facts = RiverFacts(river.event(state.track.turn), river.caravel)
    return replace(who, facts=(*who.facts, facts))


def _leave_rivers(state: GameState, seat: int) -> GameState:
    """Rivers are emptied when `seat` redeploys, unless frozen or held by a sea race."""
    if state.part(RiverState) is None or event_in_force(state) is RiverEvent.HARSH_WINTER:
        return state
    player = state.players[seat]
    races = [(d.race, d.power) for d in player.declined]
    if player.active is not None:
        races.append((player.active.race, player.active.power))
    staying = {race for race, power in races if stays_in_rivers(race, power)}
    return replace(state, regions=empty_rivers(state.map, state.regions, seat, staying))


def _turn_passed(before: GameState, ended: GameState) -> GameState:
    """After a turn ends: the Caravel leaves; a new game turn reveals its event."""
    river = ended.part(RiverState)
    if river is None:
        return ended
    river = replace(river, caravel=None)
    regions = ended.regions
    if not ended.is_over and ended.track.turn != before.track.turn:
        regions = _reveal(river, ended.track.turn, ended.map, regions, ended.catalog)
    return replace(ended, regions=regions).with_part(river)


def _place_caravel(state: GameState, event: CaravelPlaced) -> GameState:
    player = acting(state, event.seat)
    river = state.part(RiverState)
    if river is None:
        raise IllegalAction(said("the Caravel is part of River World, which this game does "
                                 "not play"))
    expect(state, event.seat, Phase.CONQUER, "place the Caravel")
    board = state.map
    region = board.region(event.region)
    if event.seat not in holders(board, state.regions, Site.SHIPYARD):
        raise IllegalAction(said("only the player holding the Shipyard places the Caravel, "
                                 "and {player} does not", player=player.name))
    if river.caravel is not None:
        raise IllegalAction(said("the Caravel is already placed this turn (river {river})",
                                 river=river.caravel))
    if not is_river(region):
        raise IllegalAction(said("the Caravel goes on a river; region {region} is a "
                                 "{terrain}", region=region.id,
                                 terrain=Name("terrain", region.terrain.value)))
    return state.with_part(replace(river, caravel=region.id))


# --- the game: the table's pirate-ship corrections ---------------------------------------


def _set_pirate_ship(state: GameState, event: PirateShipSet) -> GameState:
    if state.part(RiverState) is None:
        raise IllegalAction(said("pirate ships are part of River World, which this game does "
                                 "not play"))
    if not isinstance(event.present, bool):
        raise MalformedInput(said("present must be true or false, not {value}",
                                  value=repr(event.present)),
                             field="present", allowed="true or false")
    region = state.map.region(event.region)
    here = state.regions[event.region]
    if not is_river(region):
        raise IllegalAction(said("pirate ships sail on rivers; region {region} is a "
                                 "{terrain}", region=region.id,
                                 terrain=Name("terrain", region.terrain.value)))
    if here.markers.has(PIRATE_SHIP) == event.present:
        raise IllegalAction(said("river {river} already has a pirate ship", river=region.id)
                            if event.present else
                            said("river {river} has no pirate ship", river=region.id))
    if event.present:
        if here.non_empty:
            raise IllegalAction(said("river {river} is not empty; a pirate ship sails into "
                                     "an empty river", river=region.id))
        supply = pirate_ships_in_box(state.catalog)
        if len(pirate_ships(state.regions)) >= supply:
            raise IllegalAction(said("all {n} pirate ships are on the board", n=supply))
    markers = here.markers.with_piece(PIRATE_SHIP, event.present)
    return replace(state, regions=state.regions.with_region(
        event.region, replace(here, markers=markers)))


# --- the game: what a screen may show ----------------------------------------------------


def event_in_force(state: GameState) -> RiverEvent | None:
    """This turn's event (None when the game does not play River World)."""
    river = state.part(RiverState)
    return None if river is None else river.event(state.track.turn)


def seer_refusal(state: GameState, seat: int) -> Said | None:
    """Why `seat` may not look at the next event now, or None if they may."""
    river = state.part(RiverState)
    if river is None:
        return said("this game does not play River World")
    player = state.player(seat)
    if state.is_over or state.track.seat != seat:
        return said("only during their own turn may {player} look at the next event",
                    player=player.name)
    if seat not in holders(state.map, state.regions, Site.TEMPLE):
        return said("{player} does not hold the Temple of the Seer", player=player.name)
    return None


def seer_peek(state: GameState, seat: int) -> RiverEvent | None:
    """The next event, for the Temple of the Seer's holder only, during their turn (None on
    the last turn, when no marker is left). Like a purse peek: shown to that player alone,
    never part of the public view, and nothing is recorded. `IllegalAction` otherwise."""
    refused = seer_refusal(state, seat)
    if refused is not None:
        raise IllegalAction(refused)
    river = state.part(RiverState)
    assert river is not None
    return river.next_event(state.track.turn)


def public_river(state: GameState) -> RiverView | None:
    """The River World part of the shared screen; None when the game does not play it."""
    river = state.part(RiverState)
    if river is None:
        return None
    board, turn = state.map, state.track.turn
    event = river.event(turn)
    return RiverView(
        turn=turn,
        event=event,
        effect=EFFECTS[event],
        revealed=river.events[:turn],
        face_down=len(river.events) - turn,
        river_cost=conquest_base(event)[1],
        rivers=tuple(r.id for r in board.regions.values() if is_river(r)),
        pirate_ships=pirate_ships(state.regions),
        caravel=river.caravel,
        shipyard_seats=holders(board, state.regions, Site.SHIPYARD),
        temple_seats=holders(board, state.regions, Site.TEMPLE),
    )


# --- the game: its facts of the regions held, and how they score -------------------------


@dataclass(frozen=True, slots=True)
class RiverRegionFacts:
    """River World's facts of one region held (one of `HeldRegion.facts`): `harbor`, a
    Harbor is printed in it; `next_to_pirates`, it borders a pirate ship."""

    harbor: bool = False
    next_to_pirates: bool = False


@dataclass(frozen=True, slots=True)
class RiverCounts:
    """River World's counts of one race's regions (one of `QuickCount.facts`): `harbors`
    how many hold a Harbor (land regions that are not rivers, `holds_sites`),
    `next_to_pirates` how many border a pirate ship, and `inland_next_to_pirates` how many
    of those are inland land regions (read by an active Aquatic race only: they earn
    nothing, so lose nothing; None when not said, and then the fewest the other counts
    allow, `inland_beside_pirates`)."""

    harbors: int = 0
    next_to_pirates: int = 0
    inland_next_to_pirates: int | None = None


def region_facts(region: HeldRegion) -> RiverRegionFacts:
    """River World's facts of a region held (neither, when not given)."""
    return region.fact(RiverRegionFacts) or RiverRegionFacts()


def counts_of(count: QuickCount) -> RiverCounts:
    """River World's counts of a race's regions (all 0, when not given)."""
    return count.fact(RiverCounts) or RiverCounts()


def with_region_facts(region: HeldRegion, facts: RiverRegionFacts) -> HeldRegion:
    """`region` with River World's facts `facts` (none kept when it has neither)."""
    return replace(region, facts=_given(region.facts, facts))


def with_counts(count: QuickCount, counts: RiverCounts) -> QuickCount:
    """`count` with River World's counts `counts` (none kept when all are 0)."""
    return replace(count, facts=_given(count.facts, counts))


def _given(facts: tuple[object, ...], fact: object) -> tuple[object, ...]:
    """`facts` with `fact` in place of its type's, left out when it is its type's default."""
    return with_fact(facts, fact) if fact != type(fact)() else tuple(
        f for f in facts if type(f) is not type(fact))


def recounted(count: QuickCount, *, harbors: int, next_to_pirates: int) -> QuickCount:
    """`count` with its Harbors and its regions next to a pirate ship counted again (the
    scoring screen's steppers). The inland ones among those next to a ship, which no
    stepper asks, stay as counted while the new counts allow them: no more than the
    regions next to a ship or the inland regions, no fewer than those beyond the coastal
    ones, so a count the screen allows is never refused for a number it does not show."""
    inland = counts_of(count).inland_next_to_pirates
    if inland is not None:
        inland = max(0, min(max(inland, next_to_pirates - count.coastal), next_to_pirates,
                            count.inland))
    return with_counts(count, RiverCounts(harbors, next_to_pirates, inland))


def _count_facts(regions: Sequence[HeldRegion]) -> RiverCounts | None:
    """River World's counts of the regions listed (None: none has a fact of it): Harbors
    on land regions that are not rivers only (`holds_sites`); a region next to a pirate
    ship whatever it is, and once more among the inland ones when it is an inland land
    region."""
    harbors = pirates = inland_pirates = 0
    for region in regions:
        facts = region_facts(region)
        pirates += facts.next_to_pirates
        harbors += facts.harbor and holds_sites(region.terrain)
        if not region.terrain.is_water:
            inland_pirates += facts.next_to_pirates and not region.coastal
    if not harbors and not pirates:
        return None
    return RiverCounts(harbors, pirates, inland_pirates)


def sites_refused(terrain: Terrain, found: Collection[Site]) -> Said | None:
    """What is wrong with sites `found` said to stand on a region of this terrain held at
    scoring (None: nothing): the board format's rule (`site_refusal`) and where they may
    stand."""
    refusal = site_refusal(terrain, found)
    if refusal is None:
        return None
    return said("{refusal}; harbors, shipyards and temples stand on land regions that are "
                "not rivers", refusal=refusal)


def _check_region(field: str, region: HeldRegion) -> None:
    """Refuse a region's River World facts that are not true or false, and a Harbor on
    water or on a river (the board format's rule, `site_refusal`)."""
    facts = region_facts(region)
    harbor = true_or_false(f"{field}.harbor", facts.harbor)
    true_or_false(f"{field}.next_to_pirates", facts.next_to_pirates)
    problem = sites_refused(region.terrain, (Site.HARBOR,)) if harbor else None
    if problem is not None:
        raise ScoringInputError(f"{field}.harbor", harbor, problem)


def site_regions(tally: Tally) -> int:
    """The regions counted where a site may stand (land that is not a river)."""
    return sum(n for terrain, n in tally.terrains.items() if holds_sites(terrain))


def _check_counts(field: str, count: QuickCount, tally: Tally) -> None:
    """Refuse River World's counts the rules cannot produce: more Harbors than land
    regions that are not rivers, more regions next to a ship than regions, more inland
    ones than either."""
    counts = counts_of(count)
    whole_count(f"{field}.harbors", counts.harbors, at_most=site_regions(tally),
                limit=said("(the land regions counted that are not rivers)"))
    pirates = whole_count(
        f"{field}.next_to_pirates",
        counts.next_to_pirates,
        at_most=tally.regions,
        limit=said("(the regions counted)"),
    )
    if counts.inland_next_to_pirates is not None:
        whole_count(
            f"{field}.inland_next_to_pirates",
            counts.inland_next_to_pirates,
            at_most=min(pirates, tally.inland),
            limit=said("(the inland regions counted next to a pirate ship)"),
        )


def _check_race(where: str, race: ScoredRace, catalog: Catalog) -> None:
    """Refuse an active Aquatic race's regions next to a pirate ship that are neither
    coastal nor among the inland ones said (`inland_next_to_pirates`): those beyond the
    inland ones are coastal, so no more than the coastal regions counted. Only there does
    the split matter; another race's counts are not read for it."""
    counts = counts_of(race.tally)
    inland = counts.inland_next_to_pirates
    if race.declined or race.power != AQUATIC or inland is None:
        return
    whole_count(f"{where}.regions.next_to_pirates", counts.next_to_pirates,
                at_most=race.tally.coastal + inland,
                limit=said("(for an active Aquatic race: the coastal regions counted, plus "
                           "the inland ones next to a pirate ship)"))


def inland_beside_pirates(counts: RiverCounts, tally: Tally) -> int:
    """How many of the regions next to a pirate ship are inland: as said, or when not said
    the fewest the other counts allow (those beyond the coastal regions; the others are
    taken as coastal, and lose their coin)."""
    if counts.inland_next_to_pirates is not None:
        return counts.inland_next_to_pirates
    return min(max(0, counts.next_to_pirates - tally.coastal), tally.inland)


def _regions_losing_to_pirates(race: ScoredRace) -> int:
    """The race's regions next to a pirate ship that lose a coin: all of them, but for a
    region that earns nothing (an active Aquatic race's inland region, a region of
    Priestesses in decline without a Tower), which has no coin to lose."""
    counts = counts_of(race.tally)
    if race.instead is not None:
        return counts.next_to_pirates if race.instead.scores else 0
    if not race.declined and race.power == AQUATIC:
        return counts.next_to_pirates - inland_beside_pirates(counts, race.tally)
    return counts.next_to_pirates


def _pirate_lines(race: ScoredRace) -> tuple[ScoreLine, ...]:
    """The race's line for its regions next to a pirate ship (none when no region loses)."""
    pirates = _regions_losing_to_pirates(race)
    if not pirates:
        return ()
    who = Name("race", race.race)
    words = said_n(
        "Pirate ships next to {n} region of {race} (in decline): one coin less each",
        "Pirate ships next to {n} regions of {race} (in decline): one coin less each",
        pirates, race=who) if race.declined else said_n(
        "Pirate ships next to {n} region of {race}: one coin less each",
        "Pirate ships next to {n} regions of {race}: one coin less each", pirates, race=who)
    return (ScoreLine.saying(words, -pirates),)


def harbor_coins(harbors: int) -> int:
    """What `harbors` Harbors earn beyond 1 each as regions: 1 + 2 + ... + n, less n."""
    return harbors * (harbors - 1) // 2


HARBOR_SERIES_SPELLED_OUT = 4
"""Up to this many Harbors the line spells out every term; beyond, ``1 + 2 + ... + n``."""


def harbor_series(harbors: int) -> str:
    """The series `harbors` Harbors score, as the line shows it; never longer for more.

    ``1 + 2 + 3`` for three; ``1 + 2 + ... + 12`` for twelve, so the line's length does not
    grow with the count.
    """
    if harbors <= HARBOR_SERIES_SPELLED_OUT:
        return " + ".join(str(n) for n in range(1, harbors + 1))
    return f"1 + 2 + ... + {harbors}"


def _harbor_lines(races: Sequence[ScoredRace]) -> tuple[ScoreLine, ...]:
    """The player's Harbors line, every race's Harbors together (none for one or none)."""
    harbors = sum(counts_of(race.tally).harbors for race in races)
    coins = harbor_coins(harbors)
    if not coins:
        return ()
    words = said("Harbors: {harbors} held score {series} (1 each already counted as a "
                 "region)", harbors=harbors, series=harbor_series(harbors))
    return (ScoreLine.saying(words, coins),)


# --- the game: its words in the rule book, and the expansion -----------------------------

RULE_EVENT = "event"
"""The rule book's kind of entry for an event marker."""

_EVENT_WORDS: Mapping[RiverEvent, str | Said] = MappingProxyType({
    RiverEvent.STORM: said(
        "While the storm lasts, taking a river region costs {storm} tokens "
        "instead of {river}; every other conquest rule stays as it is.",
        storm=STORM_COST, river=RIVER_COST,
    ),
    RiverEvent.QUIET_WATERS: N_("A calm turn: this marker changes nothing at all."),
    RiverEvent.HARSH_WINTER: said(
        "The rivers freeze and play like ordinary land: taking one costs "
        "{winter} tokens, and whoever takes or holds a river must leave a "
        "token on it when redeploying, so it scores like any region. Once the winter is over "
        "(unless another one follows) those tokens have to leave the river.",
        winter=HARSH_WINTER_COST,
    ),
    RiverEvent.PIRATES: N_(
        "A pirate ship sails onto every river that has no token on it. While a ship stays, "
        "every region touching it scores one coin less. Ships belong to nobody, defend like "
        "one token, and stay through storms and winters until someone conquers their river."
    ),
})
"""What each event marker does, in the app's own words."""

_PIECE_WORDS: tuple[tuple[str, str | Said], ...] = (
    ("River",
     said("Taking a river region costs only {river} token, but your troops must "
          "leave every river when they redeploy, so rivers cannot be held. Seafaring and the "
          "Tritons are the exception: their tokens may stay on the water.", river=RIVER_COST)),
    ("Harbor",
     N_("Harbors pay more the more of them you hold: your first scores 1 coin like any "
        "region, the second 2, the third 3 and so on, counting your active race and your race "
        "in decline together.")),
    ("Shipyard and Caravel",
     N_("Once a turn, whoever holds the Shipyard may put the Caravel on any river, even one "
        "with tokens on it. Until the end of that turn they may start conquests from it, as "
        "if it were a region on the edge of their lands; then the Caravel leaves the board.")),
    ("Temple of the Seer",
     N_("During their turn, whoever holds the Temple may secretly look at the next event "
        "marker, and may tell the others what it is or keep it to themselves.")),
    ("Pirate ship",
     said("Ships start on the rivers marked with a pirate symbol and arrive on empty rivers "
          "when Pirates come. A ship is neither active nor in decline: it defends like one "
          "token, sinks when its river is conquered, and costs every region beside it one coin "
          "when scoring. The box holds {ships}.", ships=PIRATE_SHIPS)),
)
"""(name, words) of River World's pieces and rules."""


class RiverWorld(Expansion):
    """River World: the event line and pirate ships at set-up, the event of each game turn,
    frozen rivers, rivers emptied when a player finishes redeploying, the Caravel."""

    name = "River World"
    key = "river"
    rule_kinds = ((RULE_EVENT, N_("River World event")),)
    option = "river_world"
    events = (CaravelPlaced, PirateShipSet)
    pieces = (SHIP,)
    setup_type = RiverSetup
    has_boards = True
    board_part = RIVER_BOARD
    def plays(self, created: GameCreated) -> bool:
        return bool(event_line(created))

    def in_play(self, state: GameState) -> bool:
        return state.part(RiverState) is not None

    board_made_for = staticmethod(is_river_world)
    """A board with rivers."""

    def deal(self, deal: Deal, shuffle: Callable[[list[str]], None]) -> Deal:
        """The line of Event markers, one per turn, drawn from the markers in the box (by
        default when the board is a River World board)."""
        asked = deal.asked.get(self.key)
        board = deal.board
        if not (is_river_world(board) if asked is None else asked):
            return deal
        events = [e.value for e in markers_in_box(deal.catalog)]
        if board.turns > len(events):
            raise IllegalAction(said("River World has {n} Event markers, one per turn: the "
                                     "{board} board's {turns} turns are too many",
                                     n=len(events), board=board.name, turns=board.turns))
        shuffle(events)
        return replace(deal, options=(*deal.options, RiverSetup(tuple(events[:board.turns]))))

    def set_up(self, created: GameCreated, board: Board, state: GameState,
               catalog: Catalog) -> GameState:
        river, regions = _set_up(created, board, catalog)
        return state if river is None else replace(state, regions=regions).with_part(river)

    def apply(self, state: GameState, event: Event) -> GameState:
        match event:
            case CaravelPlaced():
                return _place_caravel(state, event)
            case PirateShipSet():
                return _set_pirate_ship(state, event)
        return super().apply(state, event)

    def refuse_abandon(self, state: GameState, region: int) -> None:
        if _is_frozen(state, region):
            raise IllegalAction(said("Harsh Winter: river {river} is frozen and must keep one "
                                     "token", river=region))

    def race_declined(self, before: GameState, after: GameState,
                      event: RaceDeclined) -> GameState:
        if after.track.phase is Phase.SCORE:  # instead of conquering: nothing to redeploy
            return _leave_rivers(after, event.seat)
        return after

    redeployment_finished = staticmethod(_leave_rivers)
    turn_passed = staticmethod(_turn_passed)
    with_facts = staticmethod(_with_river)
    public_part = staticmethod(public_river)

    def redeployment_leaves(self, state: GameState, seat: int) -> frozenset[int]:
        """The rivers `seat` must leave as they redeploy (unless frozen, or held by a sea
        race)."""
        after = _leave_rivers(state, seat).regions
        return frozenset(rid for rid in state.regions.held_by(seat)
                         if after[rid].occupant is None)

    def leaving_refusal(self, race: str, regions: tuple[int, ...]) -> Said:
        return said_n("River World: the {race} leave the rivers as they redeploy; move the "
                      "tokens out of river {regions} first",
                      "River World: the {race} leave the rivers as they redeploy; move the "
                      "tokens out of rivers {regions} first", len(regions),
                      race=Name("race", race), regions=listed(regions))

    def region_set(self, state: GameState, markers: Markers) -> Markers:
        """A ship never shares its river with a race."""
        return markers.with_piece(PIRATE_SHIP, False)

    def scoring_input(self, state: GameState, inp: ScoringInput) -> ScoringInput:
        """Every region held marked when a Harbor is printed in it and when it borders a
        pirate ship."""
        board, regions = state.map, state.regions

        def marked(held: Regions) -> Regions:
            if not isinstance(held, tuple):  # a quick count: nothing to mark
                return held
            return tuple(r if r.region_id is None else with_region_facts(r, RiverRegionFacts(
                harbor=Site.HARBOR in sites(board.region(r.region_id)),
                next_to_pirates=next_to_pirates(board, regions, r.region_id))) for r in held)

        active = inp.active
        return replace(
            inp, active=None if active is None else replace(active, regions=marked(active.regions)),
            declined=tuple(replace(d, regions=marked(d.regions)) for d in inp.declined))

    check_race = staticmethod(_check_race)
    check_region = staticmethod(_check_region)
    region_counts = staticmethod(_count_facts)
    check_count = staticmethod(_check_counts)
    race_lines = staticmethod(_pirate_lines)
    """A race's regions next to a pirate ship, one coin less each."""

    player_lines = staticmethod(_harbor_lines)
    """The player's Harbors, 1 + 2 + 3 ..."""

    def rule_entries(self, catalog: Catalog) -> tuple[RuleEntry, ...]:
        return (*(RuleEntry(RULE_EVENT, event.value, words, self.name)
                  for event, words in _EVENT_WORDS.items()),
                *(RuleEntry(PIECE, name, words, self.name) for name, words in _PIECE_WORDS))


RIVER_WORLD = RiverWorld()


class RiverIntents(Intents):
    """River World's intents at the table (mixed into the session)."""

    def place_caravel(self, region: int) -> GameState:
        """The Shipyard's holder puts the Caravel on a river (once a turn)."""
        return self.play(CaravelPlaced(self.state.track.seat, region))

    def set_pirate_ship(self, region: int, present: bool) -> GameState:
        """Correct whether a pirate ship lies in a river."""
        return self.play(PirateShipSet(region, present))
