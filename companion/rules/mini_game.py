"""The mini-expansions' races and powers inside a game: what the app keeps the books of, so
their coins are worked out from the game's events instead of typed in.

- Leprechauns: during redeployment their active race puts a Pot of Gold (a marker, see
  `companion.rules.markers`) in regions it holds, one per region. When the Leprechauns'
  owner's next turn begins, every Pot still in one of their Leprechaun regions is
  collected (`ThisTurn.pots_of_gold`) and paid with that turn's score, also on the turn
  they go into decline. A player who conquers a region holding another player's Pot takes
  it at once: 1 coin from the stash. A Pot leaves the board with its region's race (when
  the region is abandoned, or the Leprechauns go into decline).
- Priestesses: going into decline (`RaceDeclined.ivory_tower`, the region chosen) they
  keep one region, the Ivory Tower, holding one token for each region they held; every
  other region is abandoned. `DeclinedRace.ivory_tower` is that number of tokens, paid
  every turn instead of the usual coin per region, until the Tower is conquered (then the
  race leaves the board, like any declined race with no region).
- Historian: when the combo is picked, the races in decline on the board are counted
  (`ActiveRace.declined_when_picked`, every player's, the picker's own included); while the
  Historians are active each other race that goes into decline adds one to their owner's
  `Player.declines_seen`, paid at that player's next scoring (also the one of the turn the
  Historians themselves decline) and then set back to 0.
- Pygmies: each time an active Pygmy region is conquered the Pygmies lose a token; the
  session rolls the reinforcement die for it (`PygmiesRecovered`), and as many new Pygmies
  as the pips come from the box (no more than the box holds, when the catalog knows it).
  `ActiveRace.tokens` follows them: the token lost goes back to the box, the new ones join
  the race. The table deploys them at the end of the current turn
  (`ThisTurn.pygmies_back`).

Invariants: coins taken with a Pot come from the stash (`coins_issued` grows by as many);
a Pot is collected once; a Tower stands in one region that the Priestesses held; refused
input changes nothing. `companion.rules.game.apply` hands the moments here; this module
reads and replaces a state only through `companion.rules.state`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import companion.rules.troops as ledger
from companion.rules.board import RegionState, cleared
from companion.rules.errors import IllegalAction
from companion.rules.events import (
    Event,
    GameCreated,
    MarkerPlaced,
    RaceDeclined,
    RegionConquered,
)
from companion.rules.expansion import DocField, Expansion, ScenarioReader
from companion.rules.names import HISTORIAN, LEPRECHAUNS, PYGMIES

# re-exported for the modules that import them from here
from companion.rules.names import PRIESTESSES as PRIESTESSES
from companion.rules.said import Name, Said, listed, said, said_n
from companion.rules.scoring import (
    GYPSIES,
    ActiveHoldings,
    DeclinedHoldings,
    HistorianEvents,
    ScoringInput,
)
from companion.rules.state import GameState, with_player
from companion.rules.turns import Phase

# --- its events --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PygmiesRecovered:
    """Pygmies of `seat` were lost in a conquest: one die roll per token lost (the faces
    drawn outside the rules); as many new Pygmies as the pips come from the box."""

    TYPE: ClassVar[str] = "pygmies_recovered"
    BARRIER: ClassVar[bool] = True  # a roll of the die: undo stops here
    seat: int
    rolls: tuple[int, ...]


POT_OF_GOLD = "pot_of_gold"
POT_COINS = 1


# --- Leprechauns --------------------------------------------------------------------------


def _without_pot(here: RegionState) -> RegionState:
    return replace(here, markers=replace(here.markers, pot_of_gold=False))


def turn_began(state: GameState) -> GameState:
    """As a player's turn begins: the Pots of Gold in their Leprechaun regions are theirs."""
    if state.is_over:
        return state
    seat = state.track.seat
    regions = state.regions
    found = [
        rid for rid, here in regions.regions.items()
        if here.markers.pot_of_gold and here.occupant is not None
        and here.occupant.seat == seat and here.occupant.race == LEPRECHAUNS
    ]
    if not found:
        return state
    for rid in found:
        regions = regions.with_region(rid, _without_pot(regions[rid]))
    this_turn = replace(state.track.this_turn, pots_of_gold=len(found))
    return replace(state, regions=regions, track=replace(state.track, this_turn=this_turn))


def pot_taken(state: GameState, before: RegionState, conqueror: int) -> GameState:
    """After a conquest: the conqueror takes another player's Pot of Gold (1 coin)."""
    holder = before.occupant
    if not before.markers.pot_of_gold or holder is None or holder.seat == conqueror:
        return state
    player = state.players[conqueror]
    return replace(
        state,
        players=with_player(state.players, replace(player, coins=player.coins + POT_COINS)),
        coins_issued=state.coins_issued + POT_COINS,
    )


def pots_collected(state: GameState) -> int:
    """The Pots of Gold the current player collected as this turn began."""
    return state.track.this_turn.pots_of_gold


# --- Historian ----------------------------------------------------------------------------


def races_in_decline(state: GameState) -> int:
    """The races in decline on the board, every player's."""
    return sum(len(player.declined) for player in state.players)


def picked(state: GameState) -> GameState:
    """After a pick: a Historian combo counts the races in decline on the board."""
    player = state.current
    active = player.active
    if active is None or active.power != HISTORIAN:
        return state
    active = replace(active, declined_when_picked=races_in_decline(state))
    return replace(state, players=with_player(state.players, replace(player, active=active)))


def scored(state: GameState, seat: int) -> GameState:
    """After `seat` scores: the declines their Historians saw are paid."""
    player = state.players[seat]
    if not player.declines_seen:
        return state
    return replace(state, players=with_player(state.players, replace(player, declines_seen=0)))


# --- going into decline: the Ivory Tower, and the Historians watching ---------------------


def race_declined(before: GameState, after: GameState, seat: int,
                  tower: int | None) -> GameState:
    """After `seat`'s race went into decline: the Priestesses build their Ivory Tower in
    region `tower`; every other player's active Historians see one more decline."""
    after = _ivory_tower(before, after, seat, tower)
    players = after.players
    for player in players:
        active = player.active
        if player.seat != seat and active is not None and active.power == HISTORIAN:
            players = with_player(players, replace(player, declines_seen=player.declines_seen + 1))
    return replace(after, players=players)


def _ivory_tower(before: GameState, after: GameState, seat: int, tower: int | None) -> GameState:
    active = before.players[seat].active
    assert active is not None  # the decline itself refuses a player with no active race
    if active.race != PRIESTESSES:
        if tower is not None:
            raise IllegalAction(said("only Priestesses build an Ivory Tower when they go into "
                                     "decline, not {race}; leave the Tower out",
                                     race=Name("race", active.race)))
        return after
    held = before.regions.held_by(seat, PRIESTESSES, in_decline=False)
    if not held:
        if tower is not None:
            raise IllegalAction(said("the Priestesses hold no region, so no Ivory Tower is "
                                     "built; leave the Tower out"))
        return after
    if tower is None:
        raise IllegalAction(said("Priestesses going into decline stack their Ivory Tower in "
                                 "one of their regions: choose one of {regions}",
                                 regions=listed(held)))
    if tower not in held:
        raise IllegalAction(said("the Ivory Tower goes in a region the Priestesses hold "
                                 "({regions}), not in region {tower}",
                                 regions=listed(held), tower=tower))
    regions = after.regions
    for rid in held:
        if rid != tower:
            regions = regions.with_region(rid, cleared(regions[rid]))
    here = regions[tower]
    assert here.occupant is not None
    regions = regions.with_region(tower, replace(
        here, occupant=replace(here.occupant, tokens=len(held))))
    player = after.players[seat]
    declined = tuple(
        replace(d, ivory_tower=len(held)) if d.race == PRIESTESSES else d
        for d in player.declined
    )
    return replace(after, regions=regions,
                   players=with_player(after.players, replace(player, declined=declined)))


# --- Pygmies ------------------------------------------------------------------------------


def pygmies_hit(state: GameState, region: int, conqueror: int) -> int | None:
    """The seat whose active Pygmies lose a token if `conqueror` takes `region` now."""
    occupant = state.regions[region].occupant if region in state.regions.regions else None
    if (occupant is None or occupant.race != PYGMIES or occupant.in_decline
            or occupant.seat == conqueror):
        return None
    return occupant.seat


def refuse_recovery(state: GameState, event: PygmiesRecovered) -> None:
    """Refuse more Pygmies rolls than the tokens lost to conquests this turn owe (no active
    Pygmies at all: `recover_pygmies` says so)."""
    owed = dict(state.track.this_turn.pygmy_rolls_owed).get(event.seat, 0)
    player = state.player(event.seat)
    pygmies = player.active is not None and player.active.race == PYGMIES
    if pygmies and len(event.rolls) > owed:
        raise IllegalAction(said_n("the die is rolled once per Pygmy token lost to a "
                                   "conquest; {player} is owed {n} roll now, not {given}",
                                   "the die is rolled once per Pygmy token lost to a "
                                   "conquest; {player} is owed {n} rolls now, not {given}",
                                   owed, player=player.name, given=len(event.rolls)))


def rolls_settled(before: GameState, event: Event, after: GameState) -> GameState:
    """The Pygmies' rolls owed after `event`: a Pygmy token lost owes one; a roll pays it."""
    if isinstance(event, RegionConquered):
        seat = pygmies_hit(before, event.region, event.seat)
        if seat is not None:
            return _owed(after, seat, 1)
    if isinstance(event, PygmiesRecovered):
        return _owed(after, event.seat, -len(event.rolls))
    return after


def _owed(state: GameState, seat: int, change: int) -> GameState:
    this_turn = state.track.this_turn
    owed = dict(this_turn.pygmy_rolls_owed)
    owed[seat] = owed.get(seat, 0) + change
    rolls = tuple(sorted((s, n) for s, n in owed.items() if n > 0))
    this_turn = replace(this_turn, pygmy_rolls_owed=rolls)
    return replace(state, track=replace(state.track, this_turn=this_turn))


def reinforced(state: GameState, seat: int, tokens: int) -> GameState:
    """New Pygmies from the tray into the hand, as many as the tray still has (in a game
    that counts its tokens: `companion.rules.troops`)."""
    if state.troops is None:
        return state
    troops, _ = ledger.from_tray(state.troops, state.regions, seat, PYGMIES, tokens,
                                 state.catalog.race(PYGMIES).max_tokens)
    return replace(state, troops=troops)


def recover_pygmies(state: GameState, event: PygmiesRecovered) -> GameState:
    """New Pygmies from the box: as many as the pips rolled, no more than the box holds."""
    player = state.player(event.seat)
    active = player.active
    if active is None or active.race != PYGMIES:
        raise IllegalAction(said("{player} has no active Pygmies to lose or recover",
                                 player=player.name))
    if not event.rolls:
        raise IllegalAction(said("the Pygmies roll the die once per token lost; no roll was "
                                 "given"))
    faces = state.catalog.die_faces
    for face in event.rolls:
        if face not in faces:
            raise IllegalAction(said("the reinforcement die has no face {face}; its faces are "
                                     "{faces}", face=face, faces=str(sorted(set(faces)))))
    in_play = max(0, active.tokens - len(event.rolls))  # the lost tokens go back in the box
    pips = sum(event.rolls)
    in_box = state.catalog.race(PYGMIES).max_tokens
    back = pips if in_box is None else min(pips, max(0, in_box - in_play))
    active = replace(active, tokens=in_play + back)
    players = with_player(state.players, replace(player, active=active))
    this_turn = state.track.this_turn
    owed = dict(this_turn.pygmies_back)
    owed[event.seat] = owed.get(event.seat, 0) + back
    this_turn = replace(this_turn, pygmies_back=tuple(sorted(owed.items())))
    return replace(state, players=players, track=replace(state.track, this_turn=this_turn))


# --- reminders ----------------------------------------------------------------------------


def race_reminder(state: GameState, name: str) -> str | None:
    """The Leprechauns' Pots of Gold, while redeploying (in English)."""
    reminder = race_reminder_said(state, name)
    return None if reminder is None else str(reminder)


def race_reminder_said(state: GameState, name: str) -> Said | None:
    """`race_reminder` as a sentence a screen words in the table's language."""
    if name == LEPRECHAUNS and state.track.phase is Phase.REDEPLOY:
        return said("Leprechauns: you may leave a Pot of Gold in each of your regions (tap "
                    "the region on the map).")
    return None


def reminders(state: GameState) -> tuple[str, ...]:
    """Pots of Gold collected as the turn began; new Pygmies owed at the end of the turn
    (in English)."""
    return tuple(str(line) for line in reminders_said(state))


def reminders_said(state: GameState) -> tuple[Said, ...]:
    """`reminders` as sentences a screen words in the table's language."""
    this_turn = state.track.this_turn
    out: list[Said] = []
    pots = this_turn.pots_of_gold
    if pots and state.track.phase is not Phase.FINISHED:
        out.append(said_n("Leprechauns: {n} Pot of Gold was still there as the turn began; "
                          "paid with this turn's score.",
                          "Leprechauns: {n} Pots of Gold were still there as the turn began; "
                          "paid with this turn's score.", pots))
    for seat, back in this_turn.pygmies_back:
        name = state.players[seat].name
        if back:
            out.append(said_n("Pygmies: {player} gets {n} new Pygmy from the box, placed when "
                              "this turn ends.",
                              "Pygmies: {player} gets {n} new Pygmies from the box, placed "
                              "when this turn ends.", back, player=name))
        else:
            out.append(said("Pygmies: {player} rolled no pips, so no new Pygmy.",
                            player=name))
    return tuple(out)


# --- the expansions, as the game asks them ------------------------------------------------


_SCENARIO_HISTORIAN = frozenset({"in_decline_when_picked", "others_declined"})


def _scenario_historian(field: str, doc: Mapping[str, Any],
                        read: ScenarioReader) -> HistorianEvents:
    """A scenario race's `historian` field: the declines its coins count."""
    if "historian" not in doc:
        return HistorianEvents()
    counts = read.fields_of(f"{field}.historian", doc["historian"], _SCENARIO_HISTORIAN)
    return HistorianEvents(
        in_decline_when_picked=read.whole(
            f"{field}.historian.in_decline_when_picked", counts.get("in_decline_when_picked", 0)
        ),
        others_declined=read.whole(
            f"{field}.historian.others_declined", counts.get("others_declined", 0)
        ),
    )


class MiniExpansions(Expansion):
    """The mini-expansions whose books the app keeps (Be Not Afraid...: Leprechauns,
    Pygmies; Grand Dames: Priestesses, Historian), played when the decks hold their sets.
    Every hook is guarded by its race or power, so it does nothing for other combos."""

    name = "the mini-expansions"
    key = "mini"
    events = (PygmiesRecovered,)
    doc_verb_fields = (("decline", DocField("ivory_tower", "region", required=False,
                                            nullable=True)),)
    """The region of the Priestesses' Ivory Tower, given when they go into decline."""
    sets: ClassVar[tuple[str, ...]] = ("be-not-afraid", "grand-dames")
    score_active_fields = ("abandoned", "attacked_active_race", "pots_of_gold", "historian")
    score_declined_fields = ("ivory_tower", "pots_of_gold", "historian")

    def score_active(self, field: str, doc: Mapping[str, Any], holdings: ActiveHoldings,
                     read: ScenarioReader) -> ActiveHoldings:
        return replace(
            holdings,
            abandoned=read.whole(f"{field}.abandoned", doc.get("abandoned", 0)),
            attacked_active_race=read.optional_flag(
                f"{field}.attacked_active_race", doc.get("attacked_active_race")
            ),
            pots_of_gold=read.whole(f"{field}.pots_of_gold", doc.get("pots_of_gold", 0)),
            historian=_scenario_historian(field, doc, read),
        )

    def score_declined(self, field: str, doc: Mapping[str, Any], holdings: DeclinedHoldings,
                       read: ScenarioReader) -> DeclinedHoldings:
        return replace(
            holdings,
            ivory_tower=read.whole(f"{field}.ivory_tower", doc.get("ivory_tower", 0)),
            pots_of_gold=read.whole(f"{field}.pots_of_gold", doc.get("pots_of_gold", 0)),
            historian=_scenario_historian(field, doc, read),
        )

    def score_checks(self, doc: Mapping[str, Any], race: str, power: str, *, active: bool,
                     read: ScenarioReader) -> list[tuple[str, str, str]]:
        checks: list[tuple[str, str, str]] = []
        first_turn = doc.get("first_turn") is True
        this_turn = doc.get("this_turn") is True
        if active:
            if race == GYPSIES:
                checks.append(("abandoned", "0", "no coin from regions abandoned this turn"))
            if race == LEPRECHAUNS and not first_turn:
                checks.append(("pots_of_gold", "0", "no Pot of Gold is collected"))
            if power == HISTORIAN:
                checks.append(("historian.others_declined", "0", "no coin for other declines"))
                if first_turn:
                    checks.append(("historian.in_decline_when_picked", "0",
                                   "no coin for the races in decline when it was picked"))
            return checks
        if power == HISTORIAN:
            checks.append(("this_turn", "false", "the Historians' last coin, paid on going "
                                                 "into decline, is not paid"))
        if race == LEPRECHAUNS:
            checks.append(("this_turn", "false", "no Pot of Gold can be collected"))
        if this_turn and race == LEPRECHAUNS:
            checks.append(("pots_of_gold", "0", "no Pot of Gold is collected"))
        if this_turn and power == HISTORIAN:
            checks.append(("historian.others_declined", "0", "no coin for other declines"))
        if race == PRIESTESSES and read.holds_a_region(doc):
            checks.append(("ivory_tower", "0", "the Ivory Tower scores nothing"))
        return checks

    _sets: ClassVar[frozenset[str]] = frozenset(sets)

    def plays(self, created: GameCreated) -> bool:
        return any(s in created.expansions for s in self.sets)

    def in_play(self, state: GameState) -> bool:
        return not self._sets.isdisjoint(state.expansions)

    def apply(self, state: GameState, event: Event) -> GameState:
        if isinstance(event, PygmiesRecovered):
            recovered = recover_pygmies(state, event)
            return reinforced(recovered, event.seat, sum(event.rolls))
        return super().apply(state, event)

    def picked(self, state: GameState) -> GameState:
        return picked(state)

    def race_reminder(self, state: GameState, name: str) -> str | None:
        return race_reminder(state, name)

    def marker_owner(self, state: GameState, marker: str) -> tuple[str, int | None] | None:
        """The Leprechauns' Pots of Gold (in the box: `pieces["pots_of_gold"]`, if known)."""
        if marker != POT_OF_GOLD:
            return None
        return LEPRECHAUNS, state.catalog.pieces.get("pots_of_gold")

    def refuse_marker(self, state: GameState, event: MarkerPlaced) -> None:
        if event.marker == POT_OF_GOLD and state.track.phase is not Phase.REDEPLOY:
            raise IllegalAction(said("Pots of Gold are placed while redeploying; the turn is "
                                     "at: {phase}", phase=Said(state.track.phase.value)))

    def reminders(self, state: GameState) -> tuple[str, ...]:
        return reminders(state)

    def refuse(self, state: GameState, event: Event) -> None:
        if isinstance(event, PygmiesRecovered):
            refuse_recovery(state, event)

    def settled(self, before: GameState, event: Event, after: GameState) -> GameState:
        return rolls_settled(before, event, after)

    def rolls_owed(self, state: GameState, event: Event,
                   draw: Callable[[], int]) -> tuple[Event, ...]:
        """A conquest of an active Pygmy region: its owner rolls for new Pygmies."""
        if not isinstance(event, RegionConquered):
            return ()
        seat = pygmies_hit(state, event.region, event.seat)
        return () if seat is None else (PygmiesRecovered(seat, (draw(),)),)

    def scoring_input(self, state: GameState, inp: ScoringInput) -> ScoringInput:
        """The Pots of Gold collected as the turn began (Leprechauns, active or declined
        this turn), the Priestesses in the Ivory Tower, and the declines the Historians
        counted (`inp.declined` follows the player's races in decline, in order)."""
        player = state.current
        pots = pots_collected(state)
        active = inp.active
        if active is not None and player.active is not None:
            historian = HistorianEvents()
            if player.active.power == HISTORIAN:
                when_picked = player.active.declined_when_picked if active.first_turn else 0
                historian = HistorianEvents(when_picked, player.declines_seen)
            active = replace(active, pots_of_gold=pots if active.race == LEPRECHAUNS else 0,
                             historian=historian)
        declined = tuple(
            replace(d, pots_of_gold=pots if d.this_turn and d.race == LEPRECHAUNS else 0,
                    ivory_tower=race.ivory_tower,
                    historian=HistorianEvents(others_declined=player.declines_seen)
                    if d.this_turn and d.power == HISTORIAN else HistorianEvents())
            for d, race in zip(inp.declined, player.declined, strict=True))
        return replace(inp, active=active, declined=declined)

    def conquered(self, state: GameState, region: int, before: RegionState,
                  seat: int) -> GameState:
        del region
        return pot_taken(state, before, seat)

    def race_declined(self, before: GameState, after: GameState,
                      event: RaceDeclined) -> GameState:
        return race_declined(before, after, event.seat, event.ivory_tower)

    def scored(self, state: GameState, seat: int) -> GameState:
        return scored(state, seat)

    def turn_passed(self, before: GameState, ended: GameState) -> GameState:
        del before
        return turn_began(ended)


MINI_EXPANSIONS = MiniExpansions()
