"""Necromancer Island inside a game: his seat at the table, his turn, and the Well of Souls
fed by everybody's conquests.

`companion.rules.game.apply` hands the Necromancer's events and the moments that touch him
here; his books themselves (where every Ghost is, prices, spawning, scoring, the win) are
the pure model in `companion.rules.necromancer`, kept among the state's parts (`GameState.part`).

How his seat plays:
- he is a player like the others (a purse, a name, a colour) seated to the right of the
  first player, so he moves last in every game turn; he never picks a combo;
- his turn opens at the track's CONQUER phase with the model at ACQUIRE: he may buy Ghosts
  and powers (`GhostBought`, `NecromancerPowerBought`, coins back to the stash), then
  conquers with `RegionConquered` (his Attacker holds every power in use; his reach is the
  Lake's shore and his own regions), finishes conquering, places his Ghosts
  (`GhostsRedeployed`; a plain `RedeploymentFinished` leaves them where they stand and puts
  the free ones on the Island), and scores (`TurnScored`: a coin per region plus his
  powers' bonuses; the Well gets a soul per region and spawns). If every Ghost is then in
  play he wins and the game is over at once.

Invariants kept here:
- the board shows exactly the model's Ghost regions, as a race in decline of his seat with
  every Ghost counted (`necromancer.board_occupant`), so the conquest rules cost them like
  any declined race and other players see them that way;
- every token lost in a conquest (a Lost Tribe, one token of an active race, all of a race
  in decline, a Ghost) falls into the Well; Elves lose none there, but the Elves they
  discard when going into decline fall into it too;
- his conquests settle with the loser like anyone's: Ransacking, Corrupt, a Pot of Gold,
  and a race in decline with no region left leaving;
- nobody but him conquers the Lake, where his Island lies;
- a turn ends only once the Ghosts in his hand are back (`GhostsReturned`, or onto the
  Island when he holds no region), and the Well spawns at every turn's end.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import companion.rules.necromancer as model
from companion.json_fields import a_list, fail, flag, whole
from companion.rules.board import RegionState, cleared, taken
from companion.rules.catalog import Catalog
from companion.rules.conquest import Assessment, Attacker, Reach, assess, immunity, reach
from companion.rules.decline import vanish_if_gone
from companion.rules.errors import IllegalAction, MalformedInput, UnknownName
from companion.rules.events import (
    Event,
    GameCreated,
    RaceDeclined,
    RegionAbandoned,
    RegionConquered,
    TurnScored,
)
from companion.rules.expansion import (
    Deal,
    DocField,
    DocSetup,
    DocVerb,
    Expansion,
    Intents,
    ScenarioReader,
)
from companion.rules.maps import Board, Terrain
from companion.rules.names import BERSERK, CORRUPT, ELVES, RANSACKING
from companion.rules.necromancer import (
    BARRED_POWERS,
    GHOSTS,
    POWERS_DRAWN,
    NecromancerState,
    PublicNecromancer,
    Step,
)
from companion.rules.rule_entry import PIECE, RuleEntry
from companion.rules.said import N_, Name, Said, listed, said
from companion.rules.scoring import (
    AQUATIC,
    FORTIFIED,
    MAX_FORTRESSES,
    PEACE_LOVING,
    SEAFARING,
    HeldRegion,
    QuickCount,
    Regions,
    ScoringInputError,
    regions_held,
)
from companion.rules.standings import Standings, needs_token_count
from companion.rules.state import (
    GameState,
    coin_changes_hands,
    expect,
    region_state,
    to_phase,
    with_player,
)
from companion.rules.turns import Phase

# --- its events --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WellPowerChosen:
    """Necromancer Island, set-up: of his six powers, the one the Necromancer places with
    the Well of Souls (in use from the start); he may choose until his first turn begins."""

    TYPE: ClassVar[str] = "well_power_chosen"
    seat: int
    power: str


@dataclass(frozen=True, slots=True)
class GhostBought:
    """Necromancer Island: before his first move, the Necromancer buys a Ghost (from his
    reserve onto the Island) at the price of the moment."""

    TYPE: ClassVar[str] = "ghost_bought"
    seat: int


@dataclass(frozen=True, slots=True)
class NecromancerPowerBought:
    """Necromancer Island: the Necromancer buys one of his powers in reserve; it adds to
    the powers he uses."""

    TYPE: ClassVar[str] = "necromancer_power_bought"
    seat: int
    power: str


@dataclass(frozen=True, slots=True)
class GhostsRedeployed:
    """Necromancer Island: where his Ghosts end his turn: (region, Ghosts) for every
    region he holds, and the Ghosts on the Island."""

    TYPE: ClassVar[str] = "ghosts_redeployed"
    seat: int
    regions: tuple[tuple[int, int], ...]
    island: int = 0


@dataclass(frozen=True, slots=True)
class GhostsReturned:
    """Necromancer Island: in another player's turn, the Ghosts in his hand (survivors of a
    region he lost) go back onto his regions: (region, Ghosts added)."""

    TYPE: ClassVar[str] = "ghosts_returned"
    regions: tuple[tuple[int, int], ...]


REGIONS_LINE = model.REGIONS_LINE
"""The label of his first scoring line (as the model writes it)."""
HAND_COUNTED = "powers (counted by hand)"
DOC_PLAYERS = (3, 6)
"""Three to six at the table, he among them."""


# --- set-up ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NecromancerSetup:
    """Necromancer Island's part of a new game (one of `GameCreated.options`): the six
    badges drawn for him, the one he places with the Well of Souls first (they are not in
    the market's `powers`), and the Ghosts taken out of his reserve to make his game easier
    (`ghosts_removed`, 0 to 2)."""

    necromancer_powers: tuple[str, ...] = ()
    ghosts_removed: int = 0


NOT_PLAYED = NecromancerSetup()
"""The set-up of a game without him."""


def his_setup(created: GameCreated) -> NecromancerSetup:
    """His part of the game's set-up (`NOT_PLAYED` when the game does not play him)."""
    return created.option(NecromancerSetup) or NOT_PLAYED


def badges(event: GameCreated) -> tuple[str, ...]:
    """Every badge of the game: the market's stack and the Necromancer's six."""
    return (*event.powers, *his_setup(event).necromancer_powers)


def setup(event: GameCreated, board: Board, catalog: Catalog) -> NecromancerState | None:
    """The Necromancer at the start (None when the game does not play Necromancer Island):
    the first of his six powers goes with the Well, the Island in the board's Lake."""
    his = his_setup(event)
    powers, removed = his.necromancer_powers, his.ghosts_removed
    if not powers:
        return None
    if isinstance(removed, bool) or not isinstance(removed, int):
        raise MalformedInput(said("ghosts_removed must be 0, 1 or 2, not {value}",
                                  value=repr(removed)),
                             field="ghosts_removed", allowed="0, 1 or 2")
    seat = model.seat_for(event.first_seat, len(event.seats))
    known = {p.name for p in catalog.powers_in(event.expansions)}
    return model.set_up(seat, model.central_lake(board), powers, powers[0],
                        ghosts_removed=removed, known_powers=known)


def choose_well_power(state: GameState, event: WellPowerChosen) -> GameState:
    """The power he places with the Well: any of his six, until his first turn begins
    (the first drawn stands if he never chooses)."""
    necro = _his(state, event.seat, said("choose the power placed with the Well"))
    if state.track.turn != 1 or state.track.seat == necro.seat or necro.step is not Step.WAITING:
        raise IllegalAction(said("the power beside the Well is chosen before the "
                                 "Necromancer's first turn"))
    six = (*necro.powers_in_use, *necro.powers_in_reserve)
    if len(necro.powers_in_use) != 1 or event.power not in six:
        raise IllegalAction(said("the power beside the Well is one of his six: {powers}",
                                 powers=listed(Name("power", p) for p in six)))
    rest = tuple(p for p in six if p != event.power)
    return state.with_part(replace(necro, powers_in_use=(event.power,),
                                              powers_in_reserve=rest))


# --- who he is ---------------------------------------------------------------------------


def is_his(state: GameState, seat: int) -> bool:
    """Whether `seat` is the Necromancer's."""
    him = state.part(NecromancerState)
    return him is not None and him.seat == seat


def _his(state: GameState, seat: int, what: Said) -> NecromancerState:
    necro = state.part(NecromancerState)
    if necro is None:
        raise IllegalAction(said("this game does not play Necromancer Island: nobody can "
                                 "{what}", what=what))
    if seat != necro.seat:
        raise IllegalAction(said("only the Necromancer ({player}) can {what}",
                                 player=state.player(necro.seat).name, what=what))
    return necro


def attacker(state: GameState) -> Attacker:
    """The Necromancer's Ghosts as the conquest rules see them: every power in use (the
    other expansions' facts are added by `game.attacker`, as for anyone)."""
    necro = _his(state, state.track.seat, said("conquer with Ghosts"))
    powers = necro.powers_in_use
    return Attacker(
        necro.seat, GHOSTS, powers[0] if powers else None, frozenset(necro.regions),
        turn=state.track.turn, more_powers=powers[1:],
        berserk_roll=state.last_roll if BERSERK in powers else None)


def ghosts_free(state: GameState) -> int:
    """Ghosts he may still conquer with this turn (before his first move: those on the
    Island and all but one in each region)."""
    necro = state.part(NecromancerState)
    if necro is None:
        return 0
    if necro.step is Step.ACQUIRE:
        return necro.island + sum(n - 1 for n in necro.regions.values())
    return necro.hand if necro.step is Step.CONQUER else 0


# --- where anyone may attack -------------------------------------------------------------


def _island_refusal(state: GameState, seat: int, region: int) -> Said | None:
    necro = state.part(NecromancerState)
    return None if necro is None else model.island_refusal(necro, region, seat)


def attackable(state: GameState, who: Attacker, region: int) -> bool:
    """Whether `who` may attack `region` now, by position and protection alone."""
    board, held = state.map, state.regions.regions
    if immunity(board, region, held, who, catapults=state.regions.catapults()) is not None:
        return False
    necro = state.part(NecromancerState)
    if necro is not None and who.seat == necro.seat:
        return model.reach_refusal(necro, board, region) is None
    if _island_refusal(state, who.seat, region) is not None:
        return False
    return reach(board, region, who).reachable


def assess_region(state: GameState, who: Attacker, region: int) -> Assessment:
    """`conquest.assess` with Necromancer Island's changes: his own reach, and the Island
    closed to everybody else."""
    found = assess(state.map, region, state.regions.regions, who,
                   catapults=state.regions.catapults())
    necro = state.part(NecromancerState)
    if necro is None or found.immune is not None:
        return found
    if who.seat != necro.seat:
        shut = _island_refusal(state, who.seat, region)
        return found if shut is None else Assessment(region, shut, found.reach, None)
    refused = model.reach_refusal(necro, state.map, region)
    why = refused or said("region {region} borders the Lake or a region of his Ghosts",
                          region=region)
    return replace(found, reach=Reach(refused is None, why))


def refuse_island(state: GameState, seat: int, region: int) -> None:
    """Refuse another player's conquest of the Island."""
    refused = _island_refusal(state, seat, region)
    if refused is not None:
        raise IllegalAction(refused)


# --- the board kept in step with his books ----------------------------------------------


def _synced(state: GameState, necro: NecromancerState) -> GameState:
    """`state` with `necro` as his books, and the board showing exactly his Ghost regions."""
    regions = state.regions
    for rid, here in state.regions.regions.items():
        occupant = here.occupant
        if occupant is not None and occupant.seat == necro.seat and rid not in necro.regions:
            regions = regions.with_region(rid, cleared(here))
    for rid in necro.regions:
        here = regions[rid]
        ghosts = model.board_occupant(necro, rid)
        assert ghosts is not None
        if here.occupant != ghosts:
            ours = here.occupant is not None and here.occupant.seat == necro.seat
            regions = regions.with_region(
                rid, replace(here, occupant=ghosts) if ours else taken(here, ghosts))
    return replace(state, regions=regions).with_part(necro)


def _fed(necro: NecromancerState, region: int, before: RegionState) -> NecromancerState:
    """The Well after `region` (as it stood `before`) was conquered."""
    if before.lost_tribe:
        necro = model.souls_lost(necro, 1)
    occupant = before.occupant
    if occupant is None:
        return necro
    if occupant.seat == necro.seat and occupant.race == GHOSTS:
        return model.region_lost(necro, region)
    if occupant.in_decline:
        return model.souls_lost(necro, occupant.tokens or 1)  # a race in decline: all
    return model.souls_lost(necro, 0 if occupant.race == ELVES else 1)  # Elves lose none


def conquest_fed(state: GameState, region: int, before: RegionState) -> GameState:
    """After another player's conquest: what fell there goes into the Well (a Ghost region
    sends one Ghost to the Well and the others to his hand)."""
    necro = state.part(NecromancerState)
    if necro is None:
        return state
    return _synced(state, _fed(necro, region, before))


def race_declined(before: GameState, after: GameState, seat: int) -> GameState:
    """A race went into decline: its discarded tokens go back to the tray, except the
    Elves', which fall into the Well (all but the one left in each region)."""
    necro = after.part(NecromancerState)
    active = before.players[seat].active
    if necro is None or active is None or active.race != ELVES:
        return after
    kept = len(after.regions.held_by(seat, ELVES, in_decline=True))
    return _synced(after, model.souls_lost(necro, max(0, active.tokens - kept)))


# --- his turn ----------------------------------------------------------------------------


def _paid(state: GameState, bought: model.Purchase) -> GameState:
    player = state.current
    state = replace(state, players=with_player(state.players, replace(player, coins=bought.coins)),
                    coins_issued=state.coins_issued - bought.cost)
    return _synced(state, bought.state)


def buy_ghost(state: GameState, event: GhostBought) -> GameState:
    necro = _his(state, event.seat, said("buy a Ghost"))
    expect(state, event.seat, Phase.CONQUER, "buy a Ghost")
    return _paid(state, model.buy_ghost(necro, state.current.coins))


def buy_power(state: GameState, event: NecromancerPowerBought) -> GameState:
    necro = _his(state, event.seat, said("buy {power}", power=Name("power", event.power)))
    expect(state, event.seat, Phase.CONQUER, f"buy {event.power}")
    return _paid(state, model.buy_power(necro, event.power, state.current.coins))


def conquer(state: GameState, event: RegionConquered) -> GameState:
    """His Ghosts take a region: the model checks his reach and his free Ghosts, the
    conquest rules the region's protections; what falls there goes into the Well."""
    necro = _his(state, event.seat, said("conquer with Ghosts"))
    expect(state, event.seat, Phase.CONQUER, "conquer")
    if event.declined_ghouls or event.mercenary_coin:
        raise IllegalAction(said("the Necromancer conquers with his Ghosts, nothing else"))
    if event.tokens is None:
        raise IllegalAction(said("say how many Ghosts take the region"))
    before = region_state(state, event.region)
    refused = model.reach_refusal(necro, state.map, event.region) or immunity(
        state.map, event.region, state.regions.regions, attacker(state),
        catapults=state.regions.catapults())
    if refused is not None:
        raise IllegalAction(refused)
    necro = model.conquer(necro, state.map, event.region, event.tokens)
    necro = _fed(necro, event.region, before)
    occupant = model.board_occupant(necro, event.region)
    assert occupant is not None
    loser = before.occupant
    this_turn = state.track.this_turn
    attacked = loser is not None and not loser.in_decline
    this_turn = replace(
        this_turn,
        conquered=(*this_turn.conquered, (event.region, before.defended)),
        attacked_active_race=this_turn.attacked_active_race or attacked)
    last_roll = None if BERSERK in necro.powers_in_use else state.last_roll  # used up
    state = replace(state, regions=state.regions.with_region(event.region,
                                                             taken(before, occupant)),
                    track=replace(state.track, this_turn=this_turn), last_roll=last_roll)
    state = _settled(state, necro, before)
    return _synced(state, necro)  # the other expansions' rules follow (game.apply)


def _settled(state: GameState, necro: NecromancerState, before: RegionState) -> GameState:
    """What his conquest settles with the loser, as anyone's would: a race in decline left
    with no region leaves; an active race pays him a coin if he uses Ransacking, and takes
    one from him if it is Corrupt (nothing from an empty purse)."""
    loser = before.occupant
    if loser is None:
        return state
    players, market, regions = state.players, state.market, state.regions
    if loser.in_decline:
        victim, market, regions = vanish_if_gone(players[loser.seat], market, regions,
                                                 loser.race)
        return replace(state, players=with_player(players, victim), market=market,
                       regions=regions)
    rival = players[loser.seat].active
    if RANSACKING in necro.powers_in_use:
        players = coin_changes_hands(players, loser.seat, necro.seat)
    if rival is not None and rival.power == CORRUPT:
        players = coin_changes_hands(players, necro.seat, loser.seat)
    return replace(state, players=players)


def abandon(state: GameState, event: RegionAbandoned) -> GameState:
    necro = _his(state, event.seat, said("abandon a Ghost region"))
    expect(state, event.seat, Phase.CONQUER, "abandon a region")
    return _synced(state, model.abandon(necro, event.region))


def redeploy(state: GameState, event: GhostsRedeployed) -> GameState:
    """His Ghosts placed for the end of his turn; scoring comes next."""
    necro = _his(state, event.seat, said("redeploy Ghosts"))
    expect(state, event.seat, Phase.REDEPLOY, "redeploy his Ghosts")
    placed = dict(event.regions)
    if len(placed) != len(event.regions):
        raise IllegalAction(said("each region is named once in a redeployment"))
    return to_phase(_synced(state, model.redeploy(necro, placed, event.island)), Phase.SCORE)


def leave_as_they_stand(state: GameState, seat: int) -> GameState:
    """A plain end of his redeployment: Ghosts stay where they stand, free ones go onto the
    Island."""
    necro = _his(state, seat, said("redeploy Ghosts"))
    expect(state, seat, Phase.REDEPLOY, "finish redeploying")
    island = necro.island if necro.step is Step.ACQUIRE else necro.hand
    event = GhostsRedeployed(seat, tuple(sorted(necro.regions.items())), island)
    return redeploy(state, event)


def income_lines(state: GameState) -> tuple[tuple[str, int], ...]:
    """What his turn earns now: a coin per region he holds, then his powers' bonuses."""
    necro = _his(state, state.track.seat, said("score as the Necromancer"))
    board = state.map
    held = [board.region(rid) for rid in sorted(necro.regions)]
    regions = tuple(HeldRegion(r.terrain, r.features, r.coastal, r.id) for r in held)
    this_turn = state.track.this_turn
    return model.income_lines(regions, necro.powers_in_use,
                              conquered_non_empty=this_turn.conquered_non_empty,
                              attacked_active_race=this_turn.attacked_active_race)


def score(state: GameState, event: TurnScored) -> GameState:
    """His end of turn: coins, a soul per region into the Well, spawning, and the win,
    which ends the game at once."""
    necro = _his(state, event.seat, said("score as the Necromancer"))
    expect(state, event.seat, Phase.SCORE, "score")
    if event.coins < 0:
        raise IllegalAction(said("a turn's income cannot be negative (got {coins})",
                                 coins=event.coins))
    bonus = tuple((label, coins) for label, coins in event.lines if label != REGIONS_LINE)
    held = necro.regions_held
    if not event.lines and event.coins != held:
        bonus = ((HAND_COUNTED, event.coins - held),)
    result = model.score(necro, bonus)
    if result.coins != event.coins:
        raise IllegalAction(said("the Necromancer's lines add up to {total} coins, not {coins}",
                                 total=result.coins, coins=event.coins))
    player = state.current
    state = replace(
        to_phase(state, Phase.FINISHED, scored=True),
        players=with_player(state.players, replace(player, coins=player.coins + event.coins)),
        coins_issued=state.coins_issued + event.coins)
    state = _synced(state, result.state)
    if result.won:
        state = replace(state, track=replace(state.track, phase=Phase.GAME_OVER))
    return state


# --- other players' turns, and every turn's end ------------------------------------------


def return_ghosts(state: GameState, event: GhostsReturned) -> GameState:
    """The Ghosts in his hand go back onto regions he holds."""
    necro = state.part(NecromancerState)
    if necro is None:
        raise IllegalAction(said("this game does not play Necromancer Island: there are no "
                                 "Ghosts"))
    placed = dict(event.regions)
    if len(placed) != len(event.regions):
        raise IllegalAction(said("each region is named once when Ghosts go back"))
    return _synced(state, model.return_ghosts(necro, placed))


def turn_passed(before: GameState, ended: GameState) -> GameState:
    """A turn ended: Ghosts in hand with no region to go to go to the Island, the Well
    spawns, and if he plays next his turn opens with buying."""
    del before
    necro = ended.part(NecromancerState)
    if necro is None:
        return ended
    necro = model.turn_ended(necro).state
    if not ended.is_over and ended.track.seat == necro.seat:
        necro = model.start_turn(necro)
        ended = replace(ended, track=replace(ended.track, phase=Phase.CONQUER))
    return _synced(ended, necro)


# --- what everyone sees, and the end ----------------------------------------------------


def public(state: GameState) -> PublicNecromancer | None:
    """His public side (Ghosts, Well, badges, price; never his coins), or None."""
    him = state.part(NecromancerState)
    return None if him is None else model.public(him)


def contenders(state: GameState) -> dict[int, int]:
    """The coins of the players who can win on coins (everybody but the Necromancer)."""
    necro = state.part(NecromancerState)
    return {p.seat: p.coins for p in state.players if necro is None or p.seat != necro.seat}


def standings(state: GameState, tokens: Mapping[int, int] | None,
              names: Mapping[int, str]) -> Standings:
    """The outcome: his instant win, or the others by coins with him after them."""
    necro = state.part(NecromancerState)
    if necro is None:
        raise IllegalAction(said("this game does not play Necromancer Island"))
    coins = {p.seat: p.coins for p in state.players}
    return model.standings(necro, coins, tokens, names)


# --- the expansion, as the game asks it -------------------------------------------------


# --- his part of a score scenario (`companion score`, docs/score-format.md) -------------

_SCENARIO_FIELDS = frozenset(
    {"powers", "regions", "counts", "conquered_non_empty", "attacked_active_race", "fortresses"}
)
SCENARIO_REGIONS_LABEL = "Regions held by the Necromancer's Ghosts"


def _scenario_powers(field: str, value: object, catalog: Catalog,
                     read: ScenarioReader) -> tuple[str, ...]:
    items = a_list(field, value)
    if not 1 <= len(items) <= POWERS_DRAWN:
        fail(field, said("{n} powers; the Necromancer has 1 to {most} in use (the one placed "
                         "with the Well of Souls, then those he bought)", n=len(items),
                         most=POWERS_DRAWN))
    powers: list[str] = []
    for index, item in enumerate(items):
        where = f"{field}[{index}]"
        try:
            name = catalog.power(read.text(where, item)).name
        except UnknownName as error:
            fail(where, error.said)
        if name in BARRED_POWERS:
            fail(where, said("the Necromancer never holds {power} ({barred} are drawn again "
                             "when he draws them)", power=Name("power", name),
                             barred=listed(Name("power", barred) for barred in BARRED_POWERS)))
        if name in powers:
            fail(where, said("{power} is listed twice; he holds each badge once",
                             power=Name("power", name)))
        try:
            model.income_lines((), (name,))
        except ScoringInputError as error:
            fail(where, said("scoring the power '{power}' is not supported: {problem}",
                             power=Name("power", name), problem=error.problem_said))
        powers.append(name)
    return tuple(powers)


def _scenario_regions(field: str, regions: Regions, powers: tuple[str, ...],
                      read: ScenarioReader) -> None:
    """No Island among his regions; seas only with Seafaring; no expansion's facts of the
    regions (River World's harbors and pirate ships: `read.expansion_facts`)."""
    island = said("the Lake holds Necromancer Island, which is not a region: it pays him "
                  "nothing and nobody holds it; leave it out")
    sea = said("a sea only with Seafaring among his powers")
    if isinstance(regions, QuickCount):
        if regions.terrains.get(Terrain.LAKE):
            fail(f"{field}.counts.lake", island)
        if regions.terrains.get(Terrain.SEA) and SEAFARING not in powers:
            fail(f"{field}.counts.sea", sea)
        for name, words in read.expansion_facts(regions):
            fail(f"{field}.counts.{name}", _not_scored(words))
        return
    for index, region in enumerate(regions):
        where = f"{field}.regions[{index}]"
        if region.terrain is Terrain.LAKE:
            fail(where, island)
        if region.terrain is Terrain.SEA and SEAFARING not in powers:
            fail(where, sea)
        for _name, words in read.expansion_facts(region):
            fail(where, _not_scored(words))


def _not_scored(words: str) -> Said:
    """Why an expansion's facts of the regions (`words`, a template marked where it is
    written) are refused on his."""
    return said("{words} are not scored for the Necromancer, here as in the app",
                words=Said(words))


def _scenario_field(field: str) -> str:
    counted = re.match(r"regions\.(?:terrains\.)?(.+)", field)
    if counted:
        return f"player.necromancer.counts.{counted.group(1)}"
    return f"player.necromancer.{field}"


# --- his words in the rule book ------------------------------------------------------------

_PIECE_WORDS: tuple[tuple[str, str | Said], ...] = (
    ("Necromancer",
     said("One player plays no races: he commands Ghosts from his Island in the central lake, "
          "with a reserve of Ghosts, the Well of Souls and {powers} special "
          "powers drawn at the start, one of them in use. Each turn he may spend coins on new "
          "Ghosts and powers (each costs as many coins as he has powers in use plus Ghosts on "
          "the map and the Island), conquers with his Ghosts, then scores one coin per region. "
          "He wins at once when every Ghost is in play, none left in his reserve or the Well; "
          "otherwise the others play for the win as usual.", powers=model.POWERS_DRAWN)),
    ("Ghosts",
     said("The Necromancer's {ghosts} tokens. Other players treat them as a "
          "race in decline. Taking a Ghost region sends one Ghost into the Well of Souls; the "
          "rest go back to the Necromancer, who sets them on his regions when that turn ends.",
          ghosts=model.GHOST_TOKENS)),
    ("Well of Souls",
     said("Every token lost in a conquest falls in here instead of going back to the tray, "
          "Ghosts kept on top, and the Necromancer adds one soul for each region he scores. "
          "After every turn each full set of {souls} tokens in the Well "
          "turns into a new Ghost on the Island; what is left over waits for the next set.",
          souls=model.SOULS_PER_GHOST)),
    ("Necromancer Island",
     N_("It lies on the central lake and holds the Ghosts waiting to set out; the "
        "Necromancer's first conquests start from there. Nobody else can attack it, not even "
        "by sea, and it earns him neither coins nor souls.")),
)
"""(name, words) of Necromancer Island's pieces and rules."""


class NecromancerIsland(Expansion):
    """Necromancer Island: the board for one fewer player, his six badges, his seat played
    by this module, the Well fed by every conquest and decline, the turn's end."""

    name = "Necromancer Island"
    key = "necromancer"
    events = (WellPowerChosen, GhostBought, NecromancerPowerBought, GhostsRedeployed,
              GhostsReturned)
    setup_type = NecromancerSetup
    setup_keywords = ("ghosts_removed",)
    doc_fields = ("necromancer", "ghosts_removed")
    doc_printed = True
    score_own = "necromancer"
    doc_verbs = (
        DocVerb("choose_well_power", "Necromancer Island: the power he places with the Well, "
                "before his first turn", (DocField("power", "text"),)),
        DocVerb("buy_ghost", "Necromancer Island: he buys a Ghost onto the Island"),
        DocVerb("buy_power", "Necromancer Island: he buys one of his powers in reserve",
                (DocField("power", "text"),)),
        DocVerb("redeploy_ghosts", "Necromancer Island: his Ghosts at the end of his turn, "
                "per region he holds and on the Island", (
                    DocField("regions", "counts"),
                    DocField("island", "whole", required=False, default=0),
                )),
        DocVerb("return_ghosts", "Necromancer Island: the Ghosts in his hand go back onto "
                "his regions", (DocField("regions", "counts"),)),
    )

    def plays(self, created: GameCreated) -> bool:
        return bool(his_setup(created).necromancer_powers)

    def doc_asked(self, doc: Mapping[str, Any]) -> bool | None:
        return flag("necromancer", doc.get("necromancer", False))

    def doc_players(self, asked: bool | None) -> tuple[int, int, str] | None:
        """Three to six at the table, he among them."""
        return (*DOC_PLAYERS, N_("a Necromancer Island game")) if asked else None

    def doc_setup(self, doc: Mapping[str, Any], setup: DocSetup) -> DocSetup:
        """His six, the first he may have from the top of the badge deck; the Ghosts taken
        out of his reserve (`ghosts_removed`, 0 to 2)."""
        asked = setup.asked.get(self.key)
        powers = setup.powers
        drawn: tuple[str, ...] = ()
        if asked:
            try:
                drawn, powers = model.draw_powers(powers)
            except IllegalAction as refused:
                fail("powers", refused.said)
        removed = 0
        if "ghosts_removed" in doc:
            if not asked:
                fail("ghosts_removed", said('Ghosts are taken out only in a Necromancer '
                                            'Island game ("necromancer": true)'))
            removed = whole("ghosts_removed", doc["ghosts_removed"])
            if removed > 2:
                fail("ghosts_removed", said("{n}; 0, 1 or 2 Ghosts may be taken out",
                                            n=removed))
        if not asked:
            return setup
        return replace(setup, powers=powers,
                       options=(*setup.options, NecromancerSetup(drawn, removed)))

    def score_refusal(self, race: str) -> Said | None:
        if race.strip().casefold() != GHOSTS.casefold():
            return None
        return said("Ghosts are the Necromancer's tokens, not a race banner; score his turn "
                    "with {field} ({example})", field="player.necromancer",
                    example='{"powers": [...], "regions": [...]}')

    def score_turn(self, player: Mapping[str, Any], board: Board | None, catalog: Catalog,
                   read: ScenarioReader) -> list[tuple[str, int]]:
        """The coins of the Necromancer's turn (`player.necromancer`), by the game's own
        rule (`necromancer.income_lines`): a coin per region his Ghosts hold, then his
        powers' bonuses. The Island pays nothing and is refused as a region."""
        field = "player.necromancer"
        others = [key for key in ("active", "declined") if key in player]
        others += sorted(key for key in player if key not in ("active", "declined", self.key))
        for other in others:
                fail(f"player.{other}", said("the Necromancer plays no race banner and holds "
                                             "nothing another expansion scores; leave it out "
                                             "beside player.necromancer"))
        doc = read.fields_of(field, player["necromancer"], _SCENARIO_FIELDS)
        powers = _scenario_powers(f"{field}.powers", read.required(field, doc, "powers"),
                                  catalog, read)
        regions = read.regions(field, doc, board)
        _scenario_regions(field, regions, powers, read)
        held = regions_held(regions)
        conquered = read.whole(f"{field}.conquered_non_empty", doc.get("conquered_non_empty", 0))
        if conquered > held:
            fail(f"{field}.conquered_non_empty", said(
                "{n} is more than the {held} regions his Ghosts hold", n=conquered, held=held))
        attacked = read.optional_flag(f"{field}.attacked_active_race",
                                      doc.get("attacked_active_race"))
        if attacked is None and PEACE_LOVING in powers:
            fail(f"{field}.attacked_active_race", said(
                "not said: Peace-Loving earns 3 coins only if no other active race was "
                "attacked this turn; say true or false"))
        fortresses = read.whole(f"{field}.fortresses", doc.get("fortresses", 0))
        if fortresses and FORTIFIED not in powers:
            fail(f"{field}.fortresses", said("only with Fortified among his powers"))
        in_box = catalog.pieces.get("fortresses", MAX_FORTRESSES)
        if fortresses > min(held, in_box):
            fail(f"{field}.fortresses",
                 said("{n} is more than the {held} regions his Ghosts hold", n=fortresses,
                      held=held) if held <= in_box else
                 said("{n} is more than the {most} fortresses in the box", n=fortresses,
                      most=in_box))
        try:
            lines = model.income_lines(
                regions,
                powers,
                conquered_non_empty=conquered,
                attacked_active_race=bool(attacked),
                fortresses=fortresses,
            )
        except ScoringInputError as error:
            fail(_scenario_field(error.field), error.problem_said)
        return [
            (SCENARIO_REGIONS_LABEL if label == model.REGIONS_LINE else label, coins)
            for label, coins in lines
        ]

    def score_notes(self, player: Mapping[str, Any], catalog: Catalog,
                    read: ScenarioReader) -> list[str]:
        necro = player["necromancer"]
        powers = {catalog.power(name).name for name in necro["powers"]}
        notes = read.held_notes("player.necromancer", necro)
        if "Pillaging" in powers and "conquered_non_empty" not in necro:
            notes.append(read.left_out("player.necromancer.conquered_non_empty", "0",
                                       "Pillaging earns nothing"))
        if FORTIFIED in powers and "fortresses" not in necro:
            notes.append(read.left_out("player.necromancer.fortresses", "0",
                                       "Fortified earns nothing"))
        for power in sorted(powers & {AQUATIC}):
            notes += read.region_notes("player.necromancer", necro, GHOSTS, power,
                                       active=True)
        return notes

    def doc_state(self, state: GameState) -> dict[str, Any] | None:
        """Necromancer Island as the table sees him (every Ghost and badge; never his
        coins)."""
        view = public(state)
        if view is None:
            return None
        return {"seat": view.seat, "step": view.step.name.lower(), "island": view.island,
                "regions": [{"region": region, "ghosts": ghosts}
                            for region, ghosts in view.regions],
                "in_hand": view.in_hand, "reserve": view.reserve,
                "well_ghosts": view.well_ghosts, "well_souls": view.well_souls,
                "removed": view.removed, "powers_in_use": list(view.powers_in_use),
                "powers_in_reserve": list(view.powers_in_reserve), "price": view.price,
                "souls_to_next_ghost": view.souls_to_next_ghost, "won": view.won}

    def in_play(self, state: GameState) -> bool:
        return state.part(NecromancerState) is not None

    def check_created(self, created: GameCreated) -> None:
        his = his_setup(created)
        if his.necromancer_powers:
            model.board_for(len(created.seats))  # refuses a table too small or too large
        elif his.ghosts_removed:
            raise IllegalAction(said("Ghosts are taken out only in a Necromancer Island game"))

    def board_players(self, seats: int, usual: int) -> int:
        del usual
        return model.board_players(seats)

    def check_table(self, seats: int, asked: bool | None) -> None:
        if asked:
            model.board_for(seats)  # refuses a table he cannot play at

    def deal(self, deal: Deal, shuffle: Callable[[list[str]], None]) -> Deal:
        """His six powers, drawn from the badge stack (shuffled here when the table deals
        the market's stack by hand), and the Ghosts the table takes out of his reserve
        (`ghosts_removed`, refused by `check_created` in a game without him)."""
        removed = deal.asked.get("ghosts_removed") or 0
        if not deal.asked.get(self.key):
            return deal if not removed else replace(
                deal, options=(*deal.options, NecromancerSetup((), removed)))
        stack = list(deal.powers)
        if deal.dealing != "app":
            shuffle(stack)
        drawn, _ = model.draw_powers(stack)
        return replace(deal, powers=tuple(p for p in deal.powers if p not in drawn),
                       options=(*deal.options, NecromancerSetup(drawn, removed)))

    def badges(self, created: GameCreated) -> tuple[str, ...]:
        return his_setup(created).necromancer_powers  # his six, apart from the market's stack

    def set_up(self, created: GameCreated, board: Board, state: GameState,
               catalog: Catalog) -> GameState:
        necro = setup(created, board, catalog)
        return state if necro is None else state.with_part(necro)

    def apply(self, state: GameState, event: Event) -> GameState:
        match event:
            case WellPowerChosen():
                return choose_well_power(state, event)
            case GhostBought():
                return buy_ghost(state, event)
            case NecromancerPowerBought():
                return buy_power(state, event)
            case GhostsRedeployed():
                return redeploy(state, event)
            case GhostsReturned():
                return return_ghosts(state, event)
        return super().apply(state, event)

    def plays_seat(self, state: GameState, seat: int) -> bool:
        return is_his(state, seat)

    def seat_attacker(self, state: GameState) -> Attacker:
        return attacker(state)

    def seat_conquer(self, state: GameState, event: RegionConquered) -> GameState:
        if event.catapult:
            raise IllegalAction(said("the Necromancer has no Catapult to conquer with"))
        region_state(state, event.region)  # an unknown region is refused before the rest
        return conquer(state, event)

    def seat_abandon(self, state: GameState, event: RegionAbandoned) -> GameState:
        return abandon(state, event)

    def seat_redeployment_finished(self, state: GameState, seat: int) -> GameState:
        return leave_as_they_stand(state, seat)

    def seat_score(self, state: GameState, event: TurnScored) -> GameState:
        return score(state, event)

    def seat_income(self, state: GameState) -> tuple[tuple[str, int], ...]:
        return income_lines(state)

    def refuse_conquest(self, state: GameState, who: Attacker, region: int) -> None:
        refuse_island(state, who.seat, region)

    def public_part(self, state: GameState) -> PublicNecromancer | None:
        return public(state)

    def may_attack(self, state: GameState, who: Attacker, region: int) -> bool | None:
        """His own reach for him; the Island shut to the others (else the base rules)."""
        if is_his(state, who.seat) or _island_refusal(state, who.seat, region) is not None:
            return attackable(state, who, region)
        return None

    def conquered(self, state: GameState, region: int, before: RegionState,
                  seat: int) -> GameState:
        del seat
        return conquest_fed(state, region, before)

    def race_declined(self, before: GameState, after: GameState,
                      event: RaceDeclined) -> GameState:
        return race_declined(before, after, event.seat)

    def turn_passed(self, before: GameState, ended: GameState) -> GameState:
        return turn_passed(before, ended)

    def tied_for_first(self, state: GameState,
                       coins: Mapping[int, int]) -> frozenset[int] | None:
        necro = state.part(NecromancerState)
        assert necro is not None
        return needs_token_count({s: c for s, c in coins.items() if s != necro.seat})

    def standings(self, state: GameState, tokens: Mapping[int, int] | None,
                  names: Mapping[int, str]) -> Standings | None:
        return standings(state, tokens, names)

    def rule_entries(self, catalog: Catalog) -> tuple[RuleEntry, ...]:
        del catalog
        return tuple(RuleEntry(PIECE, name, words, self.name) for name, words in _PIECE_WORDS)


NECROMANCER_ISLAND = NecromancerIsland()


class NecromancerIntents(Intents):
    """The Necromancer's intents at the table (mixed into the session)."""

    def choose_well_power(self, power: str) -> GameState:
        """The Necromancer places `power`, one of his six, with the Well (before his first
        turn)."""
        necro = self.state.part(NecromancerState)
        seat = necro.seat if necro is not None else self.state.track.seat
        return self.play(WellPowerChosen(seat, power))

    def buy_ghost(self) -> GameState:
        """The Necromancer buys a Ghost onto the Island, at the price of the moment."""
        return self.play(GhostBought(self.state.track.seat))

    def buy_power(self, power: str) -> GameState:
        """The Necromancer buys one of his powers in reserve."""
        return self.play(NecromancerPowerBought(self.state.track.seat, power))

    def redeploy_ghosts(self, regions: Mapping[int, int], island: int = 0) -> GameState:
        """The Necromancer's Ghosts for the end of his turn: per region he holds, and on
        the Island."""
        return self.play(GhostsRedeployed(self.state.track.seat,
                                          tuple(sorted(regions.items())), island))

    def return_ghosts(self, regions: Mapping[int, int]) -> GameState:
        """The Ghosts in the Necromancer's hand go back onto his regions (Ghosts added)."""
        return self.play(GhostsReturned(tuple(sorted(regions.items()))))
