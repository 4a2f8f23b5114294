"""River World inside a game: its set-up, the event revealed as each game turn starts,
rivers emptied at redeployment, the Caravel, the table's pirate-ship corrections, and its
facts of the regions held (a Harbor, a pirate ship beside) in the scoring input and in a
score scenario's regions and counts, and how they score.

Its facts of a region held are one of `HeldRegion.facts` (`RiverRegionFacts`), counted
one of `QuickCount.facts` (`RiverCounts`), found by type; left out, a region has neither.
They score as the rules say:

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
  after its bonuses.

`companion.rules.game.apply` hands River World's events and moments here. The pure facts
of the river (the event line, costs, harbors, ships) live in `companion.rules.river`.
Invariants: the Caravel is on at most one river and leaves when the turn ends; a pirate
ship is only ever in an empty river, and never more ships than the box holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, ClassVar

from companion.json_fields import a_list, fail, flag, text
from companion.rules.board import BoardState, Markers, RegionState
from companion.rules.catalog import Catalog
from companion.rules.conquest import Attacker, CostLine, Reach
from companion.rules.errors import IllegalAction, MalformedInput
from companion.rules.events import Event, GameCreated, RaceDeclined
from companion.rules.expansion import (
    Deal,
    DocField,
    DocSetup,
    DocVerb,
    Expansion,
    Intents,
    ScenarioReader,
)
from companion.rules.maps import Board, Region
from companion.rules.names import AQUATIC
from companion.rules.river import (
    EFFECTS,
    HARSH_WINTER_COST,
    PIRATE_SHIP,
    PIRATE_SHIPS,
    RIVER_BOARD,
    RIVER_COST,
    SHIP,
    STORM_COST,
    RiverEvent,
    RiverState,
    RiverView,
    Site,
    check_event_line,
    conquest_base,
    empty_rivers,
    holders,
    is_river,
    is_river_world,
    markers_in_box,
    next_to_pirates,
    pirate_ships,
    pirate_ships_in_box,
    pirates_arrive,
    setup_pirates,
    sites,
    stays_in_rivers,
)
from companion.rules.rule_entry import PIECE, RuleEntry
from companion.rules.said import N_, Name, Said, listed, said, said_n
from companion.rules.scoring import (
    LAND_COUNTED,
    HeldRegion,
    QuickCount,
    Regions,
    ScoredRace,
    ScoreLine,
    ScoringInput,
    Tally,
    true_or_false,
    whole_count,
    with_fact,
)
from companion.rules.state import GameState, acting, expect
from companion.rules.turns import Phase

# --- its events --------------------------------------------------------------------------


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


def event_line(created: GameCreated) -> tuple[str, ...]:
    """The game's line of Event markers (empty: River World is not played)."""
    option = created.option(RiverSetup)
    return () if option is None else option.river_events


def setup(
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


def event_now(state: GameState) -> RiverEvent | None:
    river = state.part(RiverState)
    return None if river is None else river.event(state.track.turn)


def is_frozen(state: GameState, region: int) -> bool:
    """Harsh Winter: a river must keep its token this turn."""
    return event_now(state) is RiverEvent.HARSH_WINTER and is_river(state.map.region(region))


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
        del region_id
        if not here.markers.has(PIRATE_SHIP):
            return ()
        ship = said("Pirate ship")
        return (CostLine(str(ship), 1, ship),)

    def guard(self, here: RegionState, attacker: Attacker) -> Said | None:
        del here, attacker
        return None


def with_river(state: GameState, who: Attacker) -> Attacker:
    """The River World facts an attacker's conquest reads: the event, the Caravel."""
    river = state.part(RiverState)
    if river is None:
        return who
    facts = RiverFacts(river.event(state.track.turn), river.caravel)
    return replace(who, facts=(*who.facts, facts))


def leave_rivers(state: GameState, seat: int) -> GameState:
    """Rivers are emptied when `seat` redeploys, unless frozen or held by a sea race."""
    if state.part(RiverState) is None or event_now(state) is RiverEvent.HARSH_WINTER:
        return state
    player = state.players[seat]
    races = [(d.race, d.power) for d in player.declined]
    if player.active is not None:
        races.append((player.active.race, player.active.power))
    staying = {race for race, power in races if stays_in_rivers(race, power)}
    return replace(state, regions=empty_rivers(state.map, state.regions, seat, staying))


def turn_passed(before: GameState, after: GameState) -> GameState:
    """After a turn ends: the Caravel leaves; a new game turn reveals its event."""
    river = after.part(RiverState)
    if river is None:
        return after
    river = replace(river, caravel=None)
    regions = after.regions
    if not after.is_over and after.track.turn != before.track.turn:
        regions = _reveal(river, after.track.turn, after.map, regions, after.catalog)
    return replace(after, regions=regions).with_part(river)


def place_caravel(state: GameState, event: CaravelPlaced) -> GameState:
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


def set_pirate_ship(state: GameState, event: PirateShipSet) -> GameState:
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


# Which active power or race places each marker, and how many the box holds.


# --- what a screen may show ----------------------------------------------------------


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


# --- its facts of the regions held, and how they score ---------------------------------


@dataclass(frozen=True, slots=True)
class RiverRegionFacts:
    """River World's facts of one region held (one of `HeldRegion.facts`): `harbor`, a
    Harbor is printed in it; `next_to_pirates`, it borders a pirate ship."""

    harbor: bool = False
    next_to_pirates: bool = False


@dataclass(frozen=True, slots=True)
class RiverCounts:
    """River World's counts of one race's regions (one of `QuickCount.facts`): `harbors`
    how many hold a Harbor (land regions only), `next_to_pirates` how many border a pirate
    ship, and `inland_next_to_pirates` how many of those are inland land regions (read by
    Aquatic only: they earn nothing, so lose nothing)."""

    harbors: int = 0
    next_to_pirates: int = 0
    inland_next_to_pirates: int = 0


def region_facts(region: HeldRegion) -> RiverRegionFacts:
    """River World's facts of a region held (neither, when not given)."""
    return region.fact(RiverRegionFacts) or RiverRegionFacts()


def counts_of(count: QuickCount | Tally) -> RiverCounts:
    """River World's counts of a race's regions (all 0, when not given)."""
    return count.fact(RiverCounts) or RiverCounts()


def with_region_facts(region: HeldRegion, facts: RiverRegionFacts) -> HeldRegion:
    """`region` with River World's facts `facts` (none kept when it has neither)."""
    kept = tuple(f for f in region.facts if type(f) is not RiverRegionFacts)
    given = facts != RiverRegionFacts()
    return replace(region, facts=with_fact(kept, facts) if given else kept)


def with_counts(count: QuickCount, counts: RiverCounts) -> QuickCount:
    """`count` with River World's counts `counts` (none kept when all are 0)."""
    kept = tuple(f for f in count.facts if type(f) is not RiverCounts)
    given = counts != RiverCounts()
    return replace(count, facts=with_fact(kept, counts) if given else kept)


def count_facts(regions: Sequence[HeldRegion]) -> RiverCounts | None:
    """River World's counts of the regions listed (None: none has a fact of it): Harbors
    on land regions only; a region next to a pirate ship whatever it is, and once more
    among the inland ones when it is an inland land region."""
    harbors = pirates = inland_pirates = 0
    for region in regions:
        facts = region_facts(region)
        pirates += facts.next_to_pirates
        if not region.terrain.is_water:
            harbors += facts.harbor
            inland_pirates += facts.next_to_pirates and not region.coastal
    counts = RiverCounts(harbors, pirates, inland_pirates)
    return None if counts == RiverCounts() else counts


def check_region(field: str, region: HeldRegion) -> None:
    """Refuse a region's River World facts that are not true or false."""
    facts = region_facts(region)
    true_or_false(f"{field}.harbor", facts.harbor)
    true_or_false(f"{field}.next_to_pirates", facts.next_to_pirates)


def check_counts(field: str, count: QuickCount, tally: Tally) -> None:
    """Refuse River World's counts the rules cannot produce: more Harbors than land
    regions, more regions next to a ship than regions, more inland ones than either."""
    counts = counts_of(count)
    limit = Said(LAND_COUNTED)
    whole_count(f"{field}.harbors", counts.harbors, at_most=tally.land, limit=limit)
    pirates = whole_count(
        f"{field}.next_to_pirates",
        counts.next_to_pirates,
        at_most=tally.regions,
        limit=said("(the regions counted)"),
    )
    whole_count(
        f"{field}.inland_next_to_pirates",
        counts.inland_next_to_pirates,
        at_most=min(pirates, tally.inland),
        limit=said("(the inland regions counted next to a pirate ship)"),
    )


def regions_losing_to_pirates(race: ScoredRace) -> int:
    """The race's regions next to a pirate ship that lose a coin: all of them, but for a
    region that earns nothing (an active Aquatic race's inland region, a region of
    Priestesses in decline without a Tower), which has no coin to lose."""
    counts = counts_of(race.tally)
    if race.instead is not None:
        return counts.next_to_pirates if race.instead.scores else 0
    if not race.declined and race.power == AQUATIC:
        return counts.next_to_pirates - counts.inland_next_to_pirates
    return counts.next_to_pirates


def pirate_lines(race: ScoredRace) -> tuple[ScoreLine, ...]:
    """The race's line for its regions next to a pirate ship (none when no region loses)."""
    pirates = regions_losing_to_pirates(race)
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


def harbor_lines(races: Sequence[ScoredRace]) -> tuple[ScoreLine, ...]:
    """The player's Harbors line, every race's Harbors together (none for one or none)."""
    harbors = sum(counts_of(race.tally).harbors for race in races)
    coins = harbor_coins(harbors)
    if not coins:
        return ()
    words = said("Harbors: {harbors} held score {series} (1 each already counted as a "
                 "region)", harbors=harbors, series=harbor_series(harbors))
    return (ScoreLine.saying(words, coins),)


# --- its words in the rule book ------------------------------------------------------------

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
    doc_fields = ("river_events",)
    score_region_fields = ("next_to_pirates",)
    score_count_fields = ("harbors", "next_to_pirates", "inland_next_to_pirates")
    score_facts_words = N_("River World's harbors and pirate ships")
    has_boards = True
    board_part = RIVER_BOARD
    doc_printed = True
    doc_verbs = (
        DocVerb("place_caravel", "River World: the Shipyard's holder puts the Caravel on a "
                "river", (DocField("region", "region"),)),
        DocVerb("set_pirate_ship", "River World: correct whether a pirate ship lies in a "
                "river", (DocField("region", "region"), DocField("present", "flag"))),
    )

    def plays(self, created: GameCreated) -> bool:
        return bool(event_line(created))

    def doc_setup(self, doc: Mapping[str, Any], setup: DocSetup) -> DocSetup:
        """River World's line of Event markers, one per turn: as given, or the markers in
        the box shuffled with the seed (the first `turns` of them); none off a River World
        board."""
        board = setup.board
        if not is_river_world(board):
            if "river_events" in doc:
                fail("river_events", f"the {board.name} board has no rivers; River World's "
                                      "events are played on a River World board")
            return setup
        if "river_events" not in doc:
            if setup.seed is None:
                fail("river_events", f"missing: the {board.name} board is a River World "
                                      "board; give its Event markers in order (one per turn), "
                                      'or a "seed" to shuffle them')
            line = [event.value for event in markers_in_box(setup.catalog)]
            setup.shuffle(line)
            return _with_field(setup, tuple(line[:board.turns]))
        names = [text(f"river_events[{i}]", name)
                 for i, name in enumerate(a_list("river_events", doc["river_events"]))]
        try:
            line = [e.value for e in check_event_line(names, board.turns, setup.catalog)]
        except IllegalAction as refused:
            fail("river_events", refused.reason)
        return _with_field(setup, tuple(line))

    def doc_state(self, state: GameState) -> dict[str, Any] | None:
        """River World as the table sees it (never the events still face down)."""
        view = public_river(state)
        if view is None:
            return None
        return {"event": view.event.value, "revealed": [e.value for e in view.revealed],
                "face_down": view.face_down, "river_cost": view.river_cost,
                "pirate_ships": list(view.pirate_ships), "caravel": view.caravel}

    def in_play(self, state: GameState) -> bool:
        return state.part(RiverState) is not None

    def board_made_for(self, board: Board) -> bool:
        """A board with rivers."""
        return is_river_world(board)

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
        river, regions = setup(created, board, catalog)
        return state if river is None else replace(state, regions=regions).with_part(river)

    def apply(self, state: GameState, event: Event) -> GameState:
        match event:
            case CaravelPlaced():
                return place_caravel(state, event)
            case PirateShipSet():
                return set_pirate_ship(state, event)
        return super().apply(state, event)

    def refuse_abandon(self, state: GameState, region: int) -> None:
        if is_frozen(state, region):
            raise IllegalAction(said("Harsh Winter: river {river} is frozen and must keep one "
                                     "token", river=region))

    def race_declined(self, before: GameState, after: GameState,
                      event: RaceDeclined) -> GameState:
        del before
        if after.track.phase is Phase.SCORE:  # instead of conquering: nothing to redeploy
            return leave_rivers(after, event.seat)
        return after

    def redeployment_finished(self, state: GameState, seat: int) -> GameState:
        return leave_rivers(state, seat)

    def turn_passed(self, before: GameState, ended: GameState) -> GameState:
        return turn_passed(before, ended)

    def with_facts(self, state: GameState, who: Attacker) -> Attacker:
        return with_river(state, who)

    def public_part(self, state: GameState) -> RiverView | None:
        return public_river(state)

    def redeployment_leaves(self, state: GameState, seat: int) -> frozenset[int]:
        """The rivers `seat` must leave as they redeploy (unless frozen, or held by a sea
        race)."""
        after = leave_rivers(state, seat).regions
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
        del state
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

    def score_region(self, field: str, doc: Mapping[str, Any], symbols: Sequence[str],
                     region: HeldRegion, read: ScenarioReader) -> HeldRegion:
        """A region object's Harbor (among its "features") and "next_to_pirates"."""
        del read
        pirates = flag(f"{field}.next_to_pirates", doc.get("next_to_pirates", False))
        return with_region_facts(region, RiverRegionFacts(harbor=Site.HARBOR in symbols,
                                                          next_to_pirates=pirates))

    def score_counts(self, counts: Mapping[str, int], count: QuickCount) -> QuickCount:
        return with_counts(count, RiverCounts(
            harbors=counts.get("harbors", 0),
            next_to_pirates=counts.get("next_to_pirates", 0),
            inland_next_to_pirates=counts.get("inland_next_to_pirates", 0)))

    def score_count_notes(self, doc: Mapping[str, Any], race: str, power: str, *,
                          active: bool, read: ScenarioReader) -> list[tuple[str, str]]:
        """An Aquatic race counting regions next to pirate ships: which of them are inland
        (they earn nothing, so lose nothing)."""
        del race
        if active and power == AQUATIC and read.counted(doc, "next_to_pirates"):
            return [("inland_next_to_pirates",
                     "every region next to a pirate ship loses a coin, inland or not")]
        return []

    def score_facts(self, held: HeldRegion | QuickCount) -> tuple[str, ...]:
        if isinstance(held, QuickCount):
            counts = counts_of(held)
            return tuple(name for name, given in (
                ("harbors", counts.harbors), ("next_to_pirates", counts.next_to_pirates),
                ("inland_next_to_pirates", counts.inland_next_to_pirates)) if given)
        facts = region_facts(held)
        return tuple(name for name, given in (("harbor", facts.harbor),
                                              ("next_to_pirates", facts.next_to_pirates))
                     if given)

    def check_region(self, field: str, region: HeldRegion) -> None:
        check_region(field, region)

    def region_counts(self, regions: Sequence[HeldRegion]) -> RiverCounts | None:
        return count_facts(regions)

    def check_count(self, field: str, count: QuickCount, tally: Tally) -> None:
        check_counts(field, count, tally)

    def race_lines(self, race: ScoredRace) -> tuple[ScoreLine, ...]:
        """A race's regions next to a pirate ship, one coin less each."""
        return pirate_lines(race)

    def player_lines(self, races: Sequence[ScoredRace]) -> tuple[ScoreLine, ...]:
        """The player's Harbors, 1 + 2 + 3 ..."""
        return harbor_lines(races)

    def rule_entries(self, catalog: Catalog) -> tuple[RuleEntry, ...]:
        del catalog
        return (*(RuleEntry(RULE_EVENT, event.value, words, self.name)
                  for event, words in _EVENT_WORDS.items()),
                *(RuleEntry(PIECE, name, words, self.name) for name, words in _PIECE_WORDS))


RIVER_WORLD = RiverWorld()


def _with_field(setup: DocSetup, line: tuple[str, ...]) -> DocSetup:
    return replace(setup, options=(*setup.options, RiverSetup(line)))


class RiverIntents(Intents):
    """River World's intents at the table (mixed into the session)."""

    def place_caravel(self, region: int) -> GameState:
        """The Shipyard's holder puts the Caravel on a river (once a turn)."""
        return self.play(CaravelPlaced(self.state.track.seat, region))

    def set_pirate_ship(self, region: int, present: bool) -> GameState:
        """Correct whether a pirate ship lies in a river."""
        return self.play(PirateShipSet(region, present))
