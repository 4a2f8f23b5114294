"""River World inside a game: its set-up, the event revealed as each game turn starts,
rivers emptied at redeployment, the Caravel, the table's pirate-ship corrections, and its
facts of the regions held (a Harbor, a pirate ship beside) in the scoring input and in a
score scenario's regions and counts.

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
from companion.rules.maps import Board, Region, Site
from companion.rules.names import AQUATIC
from companion.rules.river import (
    EFFECTS,
    HARSH_WINTER_COST,
    PIRATE_SHIP,
    PIRATE_SHIPS,
    RIVER_COST,
    SHIP,
    STORM_COST,
    RiverEvent,
    RiverState,
    RiverView,
    check_event_line,
    conquest_base,
    empty_rivers,
    holders,
    markers_in_box,
    next_to_pirates,
    pirate_ships,
    pirate_ships_in_box,
    pirates_arrive,
    setup_pirates,
    stays_in_rivers,
)
from companion.rules.rule_entry import PIECE, RuleEntry
from companion.rules.said import N_, Said, said
from companion.rules.scoring import HeldRegion, QuickCount, Regions, ScoringInput
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
        if board.is_river_world:
            raise IllegalAction(
                f"the {event.board} board is a River World board: the game needs its line of "
                "Event markers"
            )
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
    return event_now(state) is RiverEvent.HARSH_WINTER and state.map.region(region).is_river


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
        if not region.is_river:
            return None
        label, tokens = conquest_base(self.event)
        return CostLine(label, tokens)

    def entry(self, board: Board, region_id: int) -> Reach | None:
        if self.caravel is None:
            return None
        caravel = board.region(self.caravel)
        if not caravel.is_river:
            raise IllegalAction(f"caravel: the Caravel sails on a river, not region {caravel.id}")
        if region_id != caravel.id and region_id not in caravel.adjacent:
            return None
        where = "stands in it" if region_id == caravel.id else f"stands in river {caravel.id}"
        return Reach(True, f"the Caravel {where}: a new entry point")

    def defence(self, region_id: int, here: RegionState) -> tuple[CostLine, ...]:
        del region_id
        return (CostLine("Pirate ship", 1),) if here.markers.has(PIRATE_SHIP) else ()

    def guard(self, here: RegionState, attacker: Attacker) -> str | None:
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
        raise IllegalAction("the Caravel is part of River World, which this game does not play")
    expect(state, event.seat, Phase.CONQUER, "place the Caravel")
    board = state.map
    region = board.region(event.region)
    if event.seat not in holders(board, state.regions, Site.SHIPYARD):
        raise IllegalAction(f"only the player holding the Shipyard places the Caravel, "
                            f"and {player.name} does not")
    if river.caravel is not None:
        raise IllegalAction(f"the Caravel is already placed this turn (river {river.caravel})")
    if not region.is_river:
        raise IllegalAction(f"the Caravel goes on a river; region {region.id} is a "
                            f"{region.terrain.value}")
    return state.with_part(replace(river, caravel=region.id))


def set_pirate_ship(state: GameState, event: PirateShipSet) -> GameState:
    if state.part(RiverState) is None:
        raise IllegalAction("pirate ships are part of River World, which this game does not play")
    if not isinstance(event.present, bool):
        raise MalformedInput(f"present must be true or false, not {event.present!r}",
                             field="present", allowed="true or false")
    region = state.map.region(event.region)
    here = state.regions[event.region]
    if not region.is_river:
        raise IllegalAction(f"pirate ships sail on rivers; region {region.id} is a "
                            f"{region.terrain.value}")
    if here.markers.has(PIRATE_SHIP) == event.present:
        has = "already has a" if event.present else "has no"
        raise IllegalAction(f"river {region.id} {has} pirate ship")
    if event.present:
        if here.non_empty:
            raise IllegalAction(f"river {region.id} is not empty; a pirate ship sails into an "
                                "empty river")
        supply = pirate_ships_in_box(state.catalog)
        if len(pirate_ships(state.regions)) >= supply:
            raise IllegalAction(f"all {supply} pirate ships are on the board")
    markers = here.markers.with_piece(PIRATE_SHIP, event.present)
    return replace(state, regions=state.regions.with_region(
        event.region, replace(here, markers=markers)))


# Which active power or race places each marker, and how many the box holds.


# --- what a screen may show ----------------------------------------------------------


def event_in_force(state: GameState) -> RiverEvent | None:
    """This turn's event (None when the game does not play River World)."""
    river = state.part(RiverState)
    return None if river is None else river.event(state.track.turn)


def seer_refusal(state: GameState, seat: int) -> str | None:
    """Why `seat` may not look at the next event now, or None if they may."""
    river = state.part(RiverState)
    if river is None:
        return "this game does not play River World"
    player = state.player(seat)
    if state.is_over or state.track.seat != seat:
        return f"only during their own turn may {player.name} look at the next event"
    if seat not in holders(state.map, state.regions, Site.TEMPLE):
        return f"{player.name} does not hold the Temple of the Seer"
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
        rivers=tuple(r.id for r in board.regions.values() if r.is_river),
        pirate_ships=pirate_ships(state.regions),
        caravel=river.caravel,
        shipyard_seats=holders(board, state.regions, Site.SHIPYARD),
        temple_seats=holders(board, state.regions, Site.TEMPLE),
    )


# --- the expansion, as the game asks it -------------------------------------------------


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
    score_facts_words = "River World's harbors and pirate ships"
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
        if not board.is_river_world:
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

    def deal(self, deal: Deal, shuffle: Callable[[list[str]], None]) -> Deal:
        """The line of Event markers, one per turn, drawn from the markers in the box (by
        default when the board is a River World board)."""
        asked = deal.asked.get(self.key)
        board = deal.board
        if not (board.is_river_world if asked is None else asked):
            return deal
        events = [e.value for e in markers_in_box(deal.catalog)]
        if board.turns > len(events):
            raise IllegalAction(
                f"River World has {len(events)} Event markers, one per turn: the "
                f"{board.name} board's {board.turns} turns are too many"
            )
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
            raise IllegalAction(f"Harsh Winter: river {region} is frozen and must keep one token")

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

    def leaving_refusal(self, race: str, regions: tuple[int, ...]) -> str:
        return (f"River World: the {race} leave the rivers as they redeploy; move the tokens "
                f"out of river{'s' if len(regions) > 1 else ''} "
                f"{', '.join(map(str, regions))} first")

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
            return tuple(r if r.region_id is None else replace(
                r, harbor=Site.HARBOR in board.region(r.region_id).sites,
                next_to_pirates=next_to_pirates(board, regions, r.region_id)) for r in held)

        active = inp.active
        return replace(
            inp, active=None if active is None else replace(active, regions=marked(active.regions)),
            declined=tuple(replace(d, regions=marked(d.regions)) for d in inp.declined))

    def score_region(self, field: str, doc: Mapping[str, Any], symbols: Sequence[str],
                     region: HeldRegion, read: ScenarioReader) -> HeldRegion:
        """A region object's Harbor (among its "features") and "next_to_pirates"."""
        del read
        pirates = flag(f"{field}.next_to_pirates", doc.get("next_to_pirates", False))
        return replace(region, harbor=Site.HARBOR in symbols, next_to_pirates=pirates)

    def score_counts(self, counts: Mapping[str, int], count: QuickCount) -> QuickCount:
        return replace(count, harbors=counts.get("harbors", 0),
                       next_to_pirates=counts.get("next_to_pirates", 0),
                       inland_next_to_pirates=counts.get("inland_next_to_pirates", 0))

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
            return tuple(name for name in self.score_count_fields if getattr(held, name))
        return tuple(name for name, given in (("harbor", held.harbor),
                                              ("next_to_pirates", held.next_to_pirates))
                     if given)

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
