"""The mini-expansions' races and powers inside a game: what the app keeps the books of, so
their coins are worked out from the game's events instead of typed in.

- Leprechauns: during redeployment their active race puts a Pot of Gold (a marker, see
  `companion.rules.markers`) in regions it holds, one per region. When the Leprechauns'
  owner's next turn begins, every Pot still in one of their Leprechaun regions is
  collected (`MiniState.pots_collected`) and paid with that turn's score, also on the turn
  they go into decline. A player who conquers a region holding another player's Pot takes
  it at once: 1 coin from the stash. A Pot leaves the board with its region's race (when
  the region is abandoned, or the Leprechauns go into decline).
- Priestesses: going into decline (`IvoryTower`, the region chosen, an option of the
  decline) they keep one region, the Ivory Tower, holding one token for each region they
  held; every other region is abandoned. `MiniState.towers` keeps that number of tokens, paid
  every turn instead of the usual coin per region, until the Tower is conquered (then the
  race leaves the board, like any declined race with no region).
- Historian: when the combo is picked, the races in decline on the board are counted
  (`MiniState.declined_when_picked`, every player's, the picker's own included); while the
  Historians are active each other race that goes into decline adds one to their owner's
  `MiniState.declines_seen`, paid at that player's next scoring (also the one of the turn the
  Historians themselves decline) and then set back to 0.
- Gypsies: a region they abandoned this turn (`ThisTurn.abandoned_regions`, where their
  coin lies) cannot be conquered again by them before their next turn
  (`MiniExpansions.refuse_conquest`).
- Pygmies: each time an active Pygmy region is conquered the Pygmies lose a token; the
  session rolls the reinforcement die for it (`PygmiesRecovered`), and as many new Pygmies
  as the pips come from the box (no more than the box holds, when the catalog knows it).
  `ActiveRace.tokens` follows them: the token lost goes back to the box, the new ones join
  the race. The table deploys them at the end of the current turn
  (`MiniState.pygmies_back`); the rolls a conquest owes them are
  `MiniState.pygmy_rolls_owed`, paid by the rolls in the same step.

Invariants: coins taken with a Pot come from the stash (`coins_issued` grows by as many);
a Pot is collected once; a Tower stands in one region that the Priestesses held; the
books of the turn (`pots_collected`, `pygmies_back`, `pygmy_rolls_owed`) are cleared when
the turn passes (`MiniExpansions.turn_passed`), as the shared `ThisTurn` is; refused
input changes nothing. `companion.rules.game.apply` hands the moments here; this module
reads and replaces a state only through `companion.rules.state`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

import companion.rules.troops as ledger
from companion.rules.board import Piece, RegionState, cleared
from companion.rules.catalog import Catalog
from companion.rules.conquest import Attacker
from companion.rules.errors import IllegalAction
from companion.rules.events import (
    ComboPicked,
    Event,
    GameCreated,
    MarkerPlaced,
    RaceDeclined,
    RegionConquered,
    TroopsRedeployed,
    TurnScored,
)
from companion.rules.expansion import Expansion
from companion.rules.maps import Board
from companion.rules.names import (
    BARBARIANS,
    GYPSIES,
    HISTORIAN,
    LEPRECHAUNS,
    PIXIES,
    PRIESTESSES,
    PYGMIES,
)
from companion.rules.said import N_, Name, Said, listed, said, said_n
from companion.rules.scoring import (
    Bonus,
    InsteadOfRegions,
    RaceTurn,
    ScoredRace,
    ScoringInput,
    ScoringInputError,
    Stage,
    only_for,
    whole_count,
)
from companion.rules.state import PHASE_WORDS, GameState, from_stash, with_player
from companion.rules.turns import Phase

# --- Barbarians --------------------------------------------------------------------------


def refuse_barbarians_redeploying(state: GameState, event: TroopsRedeployed) -> None:
    """Active Barbarians do not redeploy at the end of their turn: their tokens stay where
    they conquered (a defender putting back the tokens a conquest sent to their hand is
    not this redeployment). Emptying a region into the hand is let through: a region the
    rules make them leave (a river) cannot otherwise be left."""
    player = state.players[event.seat] if 0 <= event.seat < len(state.players) else None
    if (player is None or player.active is None or player.active.race != BARBARIANS
            or event.race != BARBARIANS or event.seat != state.track.seat
            or state.track.phase is not Phase.REDEPLOY):
        return
    moved = [rid for rid, tokens in event.regions
             if tokens and (here := state.regions.regions.get(rid)) is not None
             and (here.occupant is None or here.occupant.tokens != tokens)]
    if not moved:
        return
    raise IllegalAction(said("Barbarians never redeploy at the end of the turn: their tokens "
                             "stay where they conquered, and those in hand wait off the "
                             "board until the next turn"))


def barbarians_kept_off(state: GameState, seat: int, race: str) -> int | None:
    """Active Barbarians keep the whole hand off the board when their redeployment
    finishes (until the next Ready your Troops); None for any other race."""
    active = state.player(seat).active
    if race != BARBARIANS or active is None or active.race != BARBARIANS \
            or state.troops is None:
        return None
    entry = state.troops.get(seat, race)
    return 0 if entry is None else entry.hand


# --- Pixies ------------------------------------------------------------------------------


def pixies_off_the_board(state: GameState, seat: int) -> GameState:
    """Redeployment over, active Pixies keep a single token in each region; the others are
    set aside until the next Ready your Troops brings them back to the hand (as Amazons'
    four are). Nothing changes in a game that does not count its tokens."""
    active = state.player(seat).active
    if state.troops is None or active is None or active.race != PIXIES:
        return state
    regions = state.regions
    lifted = 0
    for rid in sorted(regions.held_by(seat, PIXIES, in_decline=False)):
        count = regions[rid].occupant.tokens or 1  # type: ignore[union-attr]
        if count > 1:
            lifted += count - 1
            regions = ledger.with_tokens(regions, rid, 1)
    if not lifted:
        return state
    entry = state.troops.of(seat, PIXIES)
    troops = state.troops.put(replace(entry, aside=entry.aside + lifted))
    return replace(state, regions=regions, troops=troops)


# --- its events --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PygmiesRecovered:
    """Pygmies of `seat` were lost in a conquest: one die roll per token lost (the faces
    drawn outside the rules); as many new Pygmies as the pips come from the box."""

    TYPE: ClassVar[str] = "pygmies_recovered"
    BARRIER: ClassVar[bool] = True  # a roll of the die: undo stops here
    seat: int
    rolls: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class IvoryTower:
    """Its part of a decline (`RaceDeclined.options`): for Priestesses holding regions,
    the region where they stack their Ivory Tower (in the record: `ivory_tower`, null for
    any other race, as it always was)."""

    ivory_tower: int | None = None


POT_OF_GOLD = "pot_of_gold"
POT = Piece(POT_OF_GOLD, placed=True, after="dragon", words=N_("pot of gold"),
            a_words=N_("a Pot of Gold"))
"""The Leprechauns' Pot of Gold among a region's markers: placed by its race, listed
after the dragon, as a refusal names it."""
POT_COINS = 1

HISTORIAN_LAST_COIN = 1


# --- their facts of a race's turn, and how they score ---------------------------------------


@dataclass(frozen=True, slots=True)
class HistorianEvents:
    """What a Historian race earns its coins for, counted since the player's last turn.

    `in_decline_when_picked`: the races in decline on the board when the Historian combo
    was picked (only on the turn it was picked); `others_declined`: the other races that
    went into decline while the Historians were active (the player's own decline is not
    one of them: that last coin comes from `DeclinedHoldings.this_turn`).
    """

    in_decline_when_picked: int = 0
    others_declined: int = 0


@dataclass(frozen=True, slots=True)
class MiniFacts:
    """The mini-expansions' facts of one race's turn, one of its `ActiveHoldings.facts` or
    `DeclinedHoldings.facts` (left out: all 0).

    `pots_of_gold`: the Pots of Gold still in the Leprechauns' regions at the start of the
    turn (collected by the active race, or on the turn it went into decline; none on the
    turn the combo was picked, before any could be placed); `ivory_tower` (a race in
    decline): the Priestesses in the Ivory Tower, which scores one coin each *instead of*
    the regions (their regions line shows 0); `historian` (`HistorianEvents`): the races
    in decline when the combo was picked and the other races that went into decline since
    the player's last turn (the last coin when the Historians themselves decline is read
    from `this_turn`). Checked by `MiniExpansions.check_race` before they are scored.
    """

    pots_of_gold: int = 0
    ivory_tower: int = 0
    historian: HistorianEvents = HistorianEvents()


def facts_of(turn: RaceTurn) -> MiniFacts:
    """The mini-expansions' facts of a race's turn (all 0 when not given)."""
    return turn.fact(MiniFacts) or MiniFacts()


def with_facts(facts: tuple[object, ...], fact: object) -> tuple[object, ...]:
    """`facts` with `fact` in place of the one of its type (or added)."""
    kind = type(fact)
    return (*(f for f in facts if type(f) is not kind), fact)


_ACTIVE_OR_DECLINING = frozenset({Stage.ACTIVE, Stage.DECLINING})
_IN_DECLINE_ALL = frozenset({Stage.DECLINING, Stage.IN_DECLINE})

RACE_BONUSES: Mapping[str, tuple[Bonus, ...]] = {
    LEPRECHAUNS: (
        Bonus(
            N_("Pots of Gold still in their regions at the start of the turn"),
            lambda _tally, turn: facts_of(turn).pots_of_gold,
            stages=_ACTIVE_OR_DECLINING,
        ),
    ),
    PRIESTESSES: (
        Bonus(
            N_("one per Priestess in the Ivory Tower"),
            lambda _tally, turn: facts_of(turn).ivory_tower,
            stages=_IN_DECLINE_ALL,
        ),
    ),
}
"""The mini-expansions' races that score on their own facts, and their bonuses."""

POWER_BONUSES: Mapping[str, tuple[Bonus, ...]] = {
    HISTORIAN: (
        Bonus(
            N_("one per race in decline when the combo was picked"),
            lambda _tally, turn: facts_of(turn).historian.in_decline_when_picked,
        ),
        Bonus(
            N_("one per other race that went into decline"),
            lambda _tally, turn: facts_of(turn).historian.others_declined,
            stages=_ACTIVE_OR_DECLINING,
        ),
        Bonus(
            N_("a last coin on going into decline"),
            lambda _tally, _turn: HISTORIAN_LAST_COIN,
            stages=frozenset({Stage.DECLINING}),
        ),
    ),
}
"""The mini-expansions' powers that score on their own facts, and their bonuses."""


def _historian(field_name: str, value: object) -> HistorianEvents:
    if not isinstance(value, HistorianEvents):
        raise ScoringInputError(field_name, value,
                                said("{value} is not a count of declines", value=repr(value)))
    return HistorianEvents(
        whole_count(f"{field_name}.in_decline_when_picked", value.in_decline_when_picked),
        whole_count(f"{field_name}.others_declined", value.others_declined),
    )


def check_active(where: str, race: ScoredRace) -> None:
    """Refuse the facts of an active race that the rules cannot produce."""
    facts = facts_of(race.turn)
    first_turn = race.turn.first_turn
    pots = whole_count(f"{where}.pots_of_gold", facts.pots_of_gold)
    only_for(f"{where}.pots_of_gold", pots, LEPRECHAUNS, race.race,
             said("only Leprechauns place Pots of Gold, not {race}",
                  race=Name("race", race.race)))
    if pots and first_turn:
        raise ScoringInputError(
            f"{where}.pots_of_gold",
            pots,
            said("the Leprechauns were picked this turn (first_turn is true): they place "
                 "their first Pots of Gold at this turn's redeployment, so none can be in "
                 "their regions at its start; 0 is the only count possible"),
        )
    tower = whole_count(f"{where}.ivory_tower", facts.ivory_tower)
    if tower:
        raise ScoringInputError(f"{where}.ivory_tower", tower,
                                said("only Priestesses in decline build an Ivory Tower"))
    events = _historian(f"{where}.historian", facts.historian)
    for name, count in (
        ("in_decline_when_picked", events.in_decline_when_picked),
        ("others_declined", events.others_declined),
    ):
        only_for(f"{where}.historian.{name}", count, HISTORIAN, race.power,
                 said("only Historian counts declines, not {power}",
                      power=Name("power", race.power)))
    if events.in_decline_when_picked and not first_turn:
        raise ScoringInputError(
            f"{where}.historian.in_decline_when_picked",
            events.in_decline_when_picked,
            said("counted only on the turn the combo was picked (first_turn is false)"),
        )


def check_declined(where: str, race: ScoredRace, catalog: Catalog) -> None:
    """Refuse the facts of a race in decline that the rules cannot produce."""
    facts = facts_of(race.turn)
    pots = whole_count(f"{where}.pots_of_gold", facts.pots_of_gold)
    only_for(f"{where}.pots_of_gold", pots, LEPRECHAUNS, race.race,
             said("only Leprechauns place Pots of Gold, not {race}",
                  race=Name("race", race.race)))
    if pots and not race.this_turn:
        raise ScoringInputError(
            f"{where}.pots_of_gold",
            pots,
            said("Leprechauns in decline since an earlier turn have no Pots of Gold left to "
                 "collect"),
        )
    _check_tower(where, race, facts, catalog)
    events = _historian(f"{where}.historian", facts.historian)
    if events.in_decline_when_picked:
        raise ScoringInputError(
            f"{where}.historian.in_decline_when_picked",
            events.in_decline_when_picked,
            said("counted only by an active race, on the turn its combo was picked"),
        )
    only_for(
        f"{where}.historian.others_declined",
        events.others_declined,
        HISTORIAN,
        race.power,
        said("only Historian counts declines, not {power}", power=Name("power", race.power)),
    )
    if events.others_declined and not race.this_turn:
        raise ScoringInputError(
            f"{where}.historian.others_declined",
            events.others_declined,
            said("Historians in decline since an earlier turn earn nothing for other "
                 "declines"),
        )


def _check_tower(where: str, race: ScoredRace, facts: MiniFacts, catalog: Catalog) -> None:
    """The Priestesses in the Ivory Tower: the one region declined Priestesses keep."""
    priestesses = race.race == PRIESTESSES
    in_box = catalog.race(PRIESTESSES).max_tokens if priestesses else None
    limit = said("(the Priestess tokens in the box)")
    tower = whole_count(f"{where}.ivory_tower", facts.ivory_tower, at_most=in_box, limit=limit)
    only_for(f"{where}.ivory_tower", tower, PRIESTESSES, race.race,
             said("only Priestesses build an Ivory Tower, not {race}",
                  race=Name("race", race.race)))
    if not priestesses:
        return
    regions = race.tally.regions
    if regions > 1:
        raise ScoringInputError(
            f"{where}.regions",
            regions,
            said("Priestesses in decline keep only the Ivory Tower's region, not {n}",
                 n=regions),
        )
    if tower and not regions:
        raise ScoringInputError(
            f"{where}.ivory_tower",
            tower,
            said("the Priestesses hold no region, so no Ivory Tower stands (it was "
                 "conquered)"),
        )


# --- their books in a game -----------------------------------------------------------------


Counts = tuple[tuple[int, int], ...]
"""(seat, count) pairs, in seat order, none with a count of 0."""

BySeat = tuple[tuple[int, int], ...]
"""(seat, count) pairs, in seat order; a count may be 0 (a roll with no pips)."""


def _count_of(counts: Counts, seat: int) -> int:
    return dict(counts).get(seat, 0)


def _with_count(counts: Counts, seat: int, count: int) -> Counts:
    table = dict(counts)
    table[seat] = count
    return tuple(sorted((s, n) for s, n in table.items() if n))


@dataclass(frozen=True, slots=True)
class MiniState:
    """The mini-expansions' books in a game, one of `GameState.parts` (set up when the
    game plays their sets).

    `pots_collected`: the Pots of Gold the current player collected as this turn began
    (0 again when the turn passes); `declines_seen`: by seat, the other races that went
    into decline while that player's Historians were active, since they last scored;
    `declined_when_picked`: by seat, the races in decline on the board when their active
    Historian combo was picked; `towers`: by seat, the Priestess tokens in that player's
    Ivory Tower (their Priestesses in decline); `pygmies_back`: by seat, the new Pygmies
    the rolls of this turn brought (0 too: a roll with no pips), placed when the turn
    ends; `pygmy_rolls_owed`: by seat, the die rolls the Pygmy tokens lost to conquests
    this turn still owe. `pots_collected`, `pygmies_back` and `pygmy_rolls_owed` are facts
    of the current turn, cleared when it passes.
    """

    pots_collected: int = 0
    declines_seen: Counts = ()
    declined_when_picked: Counts = ()
    towers: Counts = ()
    pygmies_back: BySeat = ()
    pygmy_rolls_owed: Counts = ()


def books(state: GameState) -> MiniState:
    """The mini-expansions' books of `state` (empty ones when the game has none)."""
    return state.part(MiniState) or MiniState()


def _kept(state: GameState, kept: MiniState) -> GameState:
    return state if kept == books(state) else state.with_part(kept)


def turn_passed(state: GameState) -> GameState:
    """The books with this turn's facts cleared (the track has just passed)."""
    kept = replace(books(state), pots_collected=0, pygmies_back=(), pygmy_rolls_owed=())
    return _kept(state, kept)


def declines_seen(state: GameState, seat: int) -> int:
    """The other races gone into decline that `seat`'s Historians saw since they scored."""
    return _count_of(books(state).declines_seen, seat)


def declined_when_picked(state: GameState, seat: int) -> int:
    """The races in decline on the board when `seat`'s active Historians were picked."""
    return _count_of(books(state).declined_when_picked, seat)


def ivory_tower(state: GameState, seat: int) -> int:
    """The Priestess tokens in `seat`'s Ivory Tower (0: none stands)."""
    return _count_of(books(state).towers, seat)


# --- Leprechauns --------------------------------------------------------------------------


def _without_pot(here: RegionState) -> RegionState:
    return replace(here, markers=here.markers.with_piece(POT_OF_GOLD, False))


def turn_began(state: GameState) -> GameState:
    """As a player's turn begins: the Pots of Gold in their Leprechaun regions are theirs."""
    if state.is_over:
        return state
    seat = state.track.seat
    regions = state.regions
    found = [
        rid for rid, here in regions.regions.items()
        if here.markers.has(POT_OF_GOLD) and here.occupant is not None
        and here.occupant.seat == seat and here.occupant.race == LEPRECHAUNS
    ]
    if not found:
        return state
    for rid in found:
        regions = regions.with_region(rid, _without_pot(regions[rid]))
    kept = replace(books(state), pots_collected=len(found))
    return replace(state, regions=regions).with_part(kept)


def pot_taken(state: GameState, region: int, before: RegionState, seat: int) -> GameState:
    """After `seat` conquered `region`: they take another player's Pot of Gold (1 coin)."""
    holder = before.occupant
    if not before.markers.has(POT_OF_GOLD) or holder is None or holder.seat == seat:
        return state
    return from_stash(state, seat, POT_COINS)


def pots_collected(state: GameState) -> int:
    """The Pots of Gold the current player collected as this turn began."""
    return books(state).pots_collected


# --- Historian ----------------------------------------------------------------------------


def races_in_decline(state: GameState) -> int:
    """The races in decline on the board, every player's."""
    return sum(len(player.declined) for player in state.players)


def picked(state: GameState) -> GameState:
    """After a pick: a Historian combo counts the races in decline on the board."""
    player = state.current
    active = player.active
    counted = races_in_decline(state) if active is not None and active.power == HISTORIAN else 0
    kept = books(state)
    when_picked = _with_count(kept.declined_when_picked, player.seat, counted)
    return _kept(state, replace(kept, declined_when_picked=when_picked))


def scored(state: GameState, seat: int) -> GameState:
    """After `seat` scores: the declines their Historians saw are paid."""
    kept = books(state)
    return _kept(state, replace(kept, declines_seen=_with_count(kept.declines_seen, seat, 0)))


# --- going into decline: the Ivory Tower, and the Historians watching ---------------------


def race_declined(before: GameState, after: GameState, seat: int,
                  tower: int | None) -> GameState:
    """After `seat`'s race went into decline: the Priestesses build their Ivory Tower in
    region `tower`; every other player's active Historians see one more decline."""
    after = _ivory_tower(before, after, seat, tower)
    kept = books(after)
    seen = kept.declines_seen
    for player in after.players:
        active = player.active
        if player.seat != seat and active is not None and active.power == HISTORIAN:
            seen = _with_count(seen, player.seat, _count_of(seen, player.seat) + 1)
    return _kept(after, replace(kept, declines_seen=seen))


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
        return _tower(after, seat, 0)
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
    return _tower(replace(after, regions=regions), seat, len(held))


def _tower(state: GameState, seat: int, tokens: int) -> GameState:
    """`seat`'s Priestesses, just gone into decline, have `tokens` in their Ivory Tower."""
    kept = books(state)
    return _kept(state, replace(kept, towers=_with_count(kept.towers, seat, tokens)))


# --- Gypsies ------------------------------------------------------------------------------


def refuse_gypsies_return(state: GameState, who: Attacker, region: int) -> None:
    """Gypsies may not conquer again, this turn, a region they abandoned this turn (their
    Ghouls in decline attack as Ghouls, so they may)."""
    if who.race != GYPSIES:
        return
    if region in state.track.this_turn.abandoned_regions:
        raise IllegalAction(said("the Gypsies abandoned region {region} this turn (its coin "
                                 "lies there); they cannot conquer it again before next turn",
                                 region=region))


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
    owed = _count_of(pygmy_rolls_owed(state), event.seat)
    player = state.player(event.seat)
    pygmies = player.active is not None and player.active.race == PYGMIES
    if pygmies and len(event.rolls) > owed:
        raise IllegalAction(said_n("the die is rolled once per Pygmy token lost to a "
                                   "conquest; {player} is owed {n} roll now, not {given}",
                                   "the die is rolled once per Pygmy token lost to a "
                                   "conquest; {player} is owed {n} rolls now, not {given}",
                                   owed, player=player.name, given=len(event.rolls)))


def settled(before: GameState, event: Event, after: GameState) -> GameState:
    """The books after `event`: a pick's Historian count (`picked`), a score's declines
    paid (`scored`), the Pygmies' rolls owed (`rolls_settled`)."""
    match event:
        case ComboPicked():
            return picked(after)
        case TurnScored(seat=seat):
            return scored(after, seat)
    return rolls_settled(before, event, after)


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
    kept = books(state)
    owed = max(0, _count_of(kept.pygmy_rolls_owed, seat) + change)
    return _kept(state, replace(kept, pygmy_rolls_owed=_with_count(kept.pygmy_rolls_owed,
                                                                    seat, owed)))


def pygmy_rolls_owed(state: GameState) -> Counts:
    """By seat, the die rolls owed this turn for Pygmy tokens lost to conquests."""
    return books(state).pygmy_rolls_owed


def pygmies_back(state: GameState) -> BySeat:
    """By seat, the new Pygmies this turn's rolls brought, placed when the turn ends."""
    return books(state).pygmies_back


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
    kept = books(state)
    owed = dict(kept.pygmies_back)
    owed[event.seat] = owed.get(event.seat, 0) + back
    kept = replace(kept, pygmies_back=tuple(sorted(owed.items())))
    return _kept(replace(state, players=players), kept)


# --- reminders ----------------------------------------------------------------------------


def race_reminder(state: GameState, name: str) -> Said | None:
    """The Leprechauns' Pots of Gold, while redeploying."""
    if name == LEPRECHAUNS and state.track.phase is Phase.REDEPLOY:
        return said("Leprechauns: you may leave a Pot of Gold in each of your regions (tap "
                    "the region on the map).")
    return None


def reminders(state: GameState) -> tuple[Said, ...]:
    """Pots of Gold collected as the turn began; new Pygmies owed at the end of the turn."""
    out: list[Said] = []
    pots = pots_collected(state)
    if pots and state.track.phase is not Phase.FINISHED:
        out.append(said_n("Leprechauns: {n} Pot of Gold was still there as the turn began; "
                          "paid with this turn's score.",
                          "Leprechauns: {n} Pots of Gold were still there as the turn began; "
                          "paid with this turn's score.", pots))
    for seat, back in pygmies_back(state):
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


class MiniExpansions(Expansion):
    """The mini-expansions whose books the app keeps (Be Not Afraid...: Leprechauns,
    Pygmies; Grand Dames: Priestesses, Historian), played when the decks hold their sets.
    Every hook is guarded by its race or power, so it does nothing for other combos."""

    name = "the mini-expansions"
    key = "mini"
    events = (PygmiesRecovered,)
    pieces = (POT,)
    decline_type = IvoryTower
    sets: ClassVar[tuple[str, ...]] = ("be-not-afraid", "grand-dames")

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

    redeployment_finished = staticmethod(pixies_off_the_board)
    kept_off_the_board = staticmethod(barbarians_kept_off)
    race_reminder = staticmethod(race_reminder)

    def marker_owner(self, state: GameState, marker: str) -> tuple[str, int | None] | None:
        """The Leprechauns' Pots of Gold (in the box: `pieces["pots_of_gold"]`, if known)."""
        if marker != POT_OF_GOLD:
            return None
        return LEPRECHAUNS, state.catalog.pieces.get("pots_of_gold")

    def refuse_marker(self, state: GameState, event: MarkerPlaced) -> None:
        if event.marker == POT_OF_GOLD and state.track.phase is not Phase.REDEPLOY:
            raise IllegalAction(said("Pots of Gold are placed while redeploying; the turn is "
                                     "at: {phase}", phase=said(PHASE_WORDS.get(state.track.phase,
                                                                 state.track.phase.value))))

    reminders = staticmethod(reminders)

    def refuse(self, state: GameState, event: Event) -> None:
        if isinstance(event, PygmiesRecovered):
            refuse_recovery(state, event)
        if isinstance(event, TroopsRedeployed):
            refuse_barbarians_redeploying(state, event)

    settled = staticmethod(settled)

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
            seen = declines_seen(state, player.seat)
            if player.active.power == HISTORIAN:
                when_picked = declined_when_picked(state, player.seat) if active.first_turn else 0
                historian = HistorianEvents(when_picked, seen)
            facts = MiniFacts(pots_of_gold=pots if active.race == LEPRECHAUNS else 0,
                              historian=historian)
            active = replace(active, facts=with_facts(active.facts, facts))
        declined = tuple(
            replace(d, facts=with_facts(d.facts, MiniFacts(
                pots_of_gold=pots if d.this_turn and d.race == LEPRECHAUNS else 0,
                ivory_tower=ivory_tower(state, player.seat) if d.race == PRIESTESSES else 0,
                historian=HistorianEvents(others_declined=declines_seen(state, player.seat))
                if d.this_turn and d.power == HISTORIAN else HistorianEvents())))
            for d in inp.declined)
        return replace(inp, active=active, declined=declined)

    race_bonuses = RACE_BONUSES
    power_bonuses = POWER_BONUSES

    def check_race(self, where: str, race: ScoredRace, catalog: Catalog) -> None:
        if race.declined:
            check_declined(where, race, catalog)
        else:
            check_active(where, race)

    def regions_instead(self, race: ScoredRace) -> InsteadOfRegions | None:
        """Priestesses in decline: their Ivory Tower scores instead of their region."""
        if not race.declined or race.race != PRIESTESSES:
            return None
        return InsteadOfRegions("the Ivory Tower scores instead",
                                scores=bool(facts_of(race.turn).ivory_tower))

    refuse_conquest = staticmethod(refuse_gypsies_return)

    conquered = staticmethod(pot_taken)

    def race_declined(self, before: GameState, after: GameState,
                      event: RaceDeclined) -> GameState:
        tower = event.option(IvoryTower)
        return race_declined(before, after, event.seat,
                             None if tower is None else tower.ivory_tower)


    def turn_passed(self, before: GameState, ended: GameState) -> GameState:
        return turn_began(turn_passed(ended))

    def set_up(self, created: GameCreated, board: Board, state: GameState,
               catalog: Catalog) -> GameState:
        """Their books, in a game that plays their sets."""
        return state.with_part(MiniState()) if self.plays(created) else state


MINI_EXPANSIONS = MiniExpansions()
