"""The game aggregate: `GameState` and the pure `apply(state, event) -> state`.

`start(GameCreated, catalog)` makes the first state; every later change is `apply`. Both
check the event against the rules and raise `IllegalAction` with a reason a screen can
show; since states are immutable, a refused event changes nothing. Replaying the same
events always gives the same state: nothing here reads a clock or draws a random number.

Invariants kept by every event:
- purses are never negative, and coins are conserved: the purses plus the coins lying on
  the market rows always equal the coins the stash has issued (`coins_issued`);
- only the player whose turn it is acts, in the order of the turn's phases (`turns`);
- at most one combo is picked per turn, and a race goes into decline at most once.

A game on a board a group wrote carries the board document in `GameCreated.board_doc`
(and `GameState.board_doc`), so `GameState.map` never reads a file. The markers and the
table's corrections are in `companion.rules.markers`; the state itself and the checks every
module shares are in `companion.rules.state`. The Catapult's shot
(`RegionConquered.catapult`, once a turn from its piece: `catapult_ready`) is checked here.

Expansions are not named here: `companion.rules.expansions` says which a game plays, and
this module asks them, in the registry's order, through the hooks of
`companion.rules.expansion.Expansion`: the board size, the badges and their part of the
set-up in `start`; refusals before every event and their own events (dispatched through
the registry's table) in `apply`; a seat an expansion plays itself (its conquests,
abandons, redeployment and score); what follows a pick, a conquest, a decline, a finished
redeployment, a score and the turn's end; and what an attacker reads (`attacker`).
Every roll of the reinforcement die (its purpose, once, only where the rules give one) is
`companion.rules.die`'s.
A game plays the packaged catalog with the group's corrections it recorded
(`GameCreated.corrections`, `companion.rules.corrections`).
"""

from __future__ import annotations

from dataclasses import replace

import companion.rules.corrections as corrections
import companion.rules.die as die
import companion.rules.events as events
import companion.rules.expansions as expansions
import companion.rules.markers as markers
import companion.rules.troops_game as troops_game
from companion.rules.board import BoardState, Occupant, cleared, taken
from companion.rules.catalog import Catalog
from companion.rules.conquest import Attacker, immunity, minimum_cost, reach
from companion.rules.decline import go_into_decline, vanish_if_gone
from companion.rules.errors import DataError, IllegalAction, MalformedInput
from companion.rules.expansion import Expansion
from companion.rules.maps import Board, load_board, parse_board_text
from companion.rules.market import Combo, Market
from companion.rules.names import (
    BERSERK,
    CATAPULT,
    CORRUPT,
    DRAGON_MASTER,
    GHOULS,
    MERCENARY,
    RANSACKING,
    SORCERERS,
    STOUT,
)
from companion.rules.players import ActiveRace, Player
from companion.rules.purse import pay
from companion.rules.said import N_, Name, Said, listed, said, said_n
from companion.rules.said import Combo as ComboName
from companion.rules.state import (
    GameState,
    acting,
    coin_changes_hands,
    expect,
    from_stash,
    region_state,
    saved_board_source,
    scored,
    to_phase,
    with_player,
)
from companion.rules.troops import Troops
from companion.rules.turns import Phase, TurnTrack

__all__ = ["GameState", "apply", "attacker", "catapult_ready", "follow_ups", "refusal",
           "start"]

MIN_PLAYERS = 2
BANNER_DECK = N_("the banner deck must hold each banner of the chosen expansions once")
BADGE_DECK = N_("the badge deck must hold each badge of the chosen expansions once")
STOUT_DECLINE = N_("a race goes into decline at the start of a turn, instead of conquering "
                   "(Stout: or at the end of the turn, after scoring)")
DECLINE_AT_START = N_("a race goes into decline at the start of a turn, instead of conquering")
MAX_PLAYERS = 5
DEALING_MODES = ("app", "table")


def _board_of(event: events.GameCreated) -> Board:
    if event.board_doc is None:
        return load_board(event.board)
    if not isinstance(event.board_doc, str):
        raise MalformedInput(said("board_doc must be the board document as JSON text"),
                             field="board_doc", allowed="JSON text, or none")
    try:
        board = parse_board_text(event.board_doc, source=saved_board_source(event.board))
    except DataError as error:
        raise IllegalAction(said("the board cannot be used: {error}", error=str(error))) from error
    if board.name != event.board:
        raise IllegalAction(said("the board document is named {named}, but the game says {game}",
                                 named=repr(board.name), game=repr(event.board)))
    return board


def start(event: events.GameCreated, catalog: Catalog) -> GameState:
    """The state of a new game, before any combo is revealed (on the packaged catalog with
    the game's own corrections, whatever corrections `catalog` carries)."""
    catalog = corrections.corrected(catalog, event.corrections)
    seats = event.seats
    for expansion in expansions.registered():
        expansion.check_created(event)
    played = expansions.played_in(event)
    together = expansions.apart(x.key for x in played)
    if together is not None:
        raise IllegalAction(said(together[1]))
    playing = expansions.fold_board_players(len(seats), played)
    if not MIN_PLAYERS <= playing <= MAX_PLAYERS:
        raise IllegalAction(said("a game needs {least} to {most} players, not {n}",
                                 least=MIN_PLAYERS, most=MAX_PLAYERS, n=len(seats)))
    names = [s.name.strip() for s in seats]
    if any(not n for n in names):
        raise IllegalAction(said("every player needs a name"))
    if len({n.casefold() for n in names}) != len(names):
        raise IllegalAction(said("two players have the same name; give each a different one"))
    if len({s.colour for s in seats}) != len(seats) or any(not s.colour for s in seats):
        raise IllegalAction(said("every player needs a colour of their own"))
    if not 0 <= event.first_seat < len(seats):
        raise IllegalAction(said("the first player must be seat 0 to {last}", last=len(seats) - 1))
    board = _board_of(event)
    if board.players != playing and not any(x.own_board(event, board) for x in played):
        raise IllegalAction(said("the {board} board is for {players} players; {n} players use "
                                 "the {playing}p board", board=event.board,
                                 players=board.players, n=len(seats), playing=playing))
    if event.turns != board.turns:
        raise IllegalAction(said("the {board} board plays {turns} turns, not {given}",
                                 board=event.board, turns=board.turns, given=event.turns))
    if "base" not in event.expansions:
        raise IllegalAction(said("the base game's banners and badges are always in the decks"))
    if event.dealing not in DEALING_MODES:
        raise IllegalAction(said("dealing must be one of {modes}", modes=listed(DEALING_MODES)))
    races = [r.name for r in catalog.races_in(event.expansions)]
    powers = [p.name for p in catalog.powers_in(event.expansions)]
    for name in event.left_out:
        if (name not in races and name not in powers) or event.left_out.count(name) > 1:
            raise IllegalAction(said("{name} cannot be left out: name each race or power of "
                                     "the chosen sets once", name=repr(name)))
    races = [r for r in races if r not in event.left_out]
    powers = [p for p in powers if p not in event.left_out]
    _check_deck("banner", event.races, races)
    badges = (*event.powers, *(b for x in played for b in x.badges(event)))
    _check_deck("badge", badges, powers)
    players = tuple(
        Player(seat=i, name=n, colour=s.colour, coins=catalog.starting_coins)
        for i, (n, s) in enumerate(zip(names, seats, strict=True))
    )
    state = GameState(
        board=event.board,
        expansions=event.expansions,
        dealing=event.dealing,
        players=players,
        market=Market(rows=(), race_stack=event.races, power_stack=event.powers,
                      ordered=event.dealing == "app"),
        track=TurnTrack(turn=1, turns=event.turns, players=len(seats),
                        first_seat=event.first_seat, seat=event.first_seat,
                        phase=Phase.PICK_COMBO),
        coins_issued=catalog.starting_coins * len(seats),
        regions=BoardState.setup(board),
        board_doc=event.board_doc,
        troops=Troops() if event.troops_counted else None,
        catalog=catalog,
    )
    for expansion in expansions.registered():  # each refuses a game that needs it
        state = expansion.set_up(event, board, state, catalog)
    return state


def _check_deck(kind: str, given: tuple[str, ...], expected: list[str]) -> None:
    if sorted(given) != sorted(expected):
        missing = sorted(set(expected) - set(given))
        extra = sorted(set(given) - set(expected))
        twice = sorted({name for name in given if given.count(name) > 1})
        named = "race" if kind == "banner" else "power"
        deck = BANNER_DECK if named == "race" else BADGE_DECK
        refused = said(deck)
        if missing:
            refused = said("{sentence}; missing: {names}", sentence=refused,
                           names=listed(Name(named, n) for n in missing))
        if extra:
            refused = said("{sentence}; not in these expansions: {names}", sentence=refused,
                           names=listed(Name(named, n) for n in extra))
        if twice:
            refused = said("{sentence}; more than once: {names}", sentence=refused,
                           names=listed(Name(named, n) for n in twice))
        raise IllegalAction(refused)


def apply(state: GameState, event: events.Event) -> GameState:
    """The state after `event`; raises IllegalAction (and changes nothing) if not allowed."""
    for expansion in expansions.registered():  # e.g. a turn's event before the set-up ends
        expansion.refuse(state, event)
    die.refuse(state, event, attacker)  # after a final roll
    applied = _apply(state, event)
    for expansion in expansions.played(state):
        applied = expansion.settled(state, event, applied)
    return troops_game.settled(applied)


def _seat_player(state: GameState, event: events.Event) -> Expansion | None:
    """The expansion that plays the event's seat itself, if any."""
    seat = getattr(event, "seat", None)
    return expansions.seat_player(state, seat) if isinstance(seat, int) else None


def _apply(state: GameState, event: events.Event) -> GameState:
    if isinstance(event, events.GameCreated | events.StepUndone):
        raise IllegalAction(said("{event} is not applied to a running game", event=event.TYPE))
    if state.is_over and not isinstance(event, events.CoinsAdjusted):
        raise IllegalAction(said("the game is over"))
    own = expansions.handlers().get(type(event))
    if own is not None:
        return own.apply(state, event)
    played = expansions.played(state)
    seat_player = _seat_player(state, event)
    match event:
        case events.ComboRevealed(race=race, power=power):
            return replace(state, market=state.market.reveal(Combo(race, power)))
        case events.BadgesReshuffled(order=order):
            return replace(state, market=state.market.reshuffle_badges(order))
        case events.ComboPicked():
            return troops_game.picked(_pick(state, event), event.seat)
        case events.ConquestsFinished(seat=seat):
            expect(state, seat, Phase.CONQUER, said("finish conquering"))
            return troops_game.conquests_finished(to_phase(state, Phase.REDEPLOY), seat)
        case (events.RedeploymentFinished() | events.TurnScored()
              | events.RegionAbandoned()) if seat_player is not None:
            return seat_player.apply(state, event)  # the base game's event of its seat
        case events.RedeploymentFinished(seat=seat):
            expect(state, seat, Phase.REDEPLOY, said("finish redeploying"))
            state = troops_game.finish_redeployment(state, seat)
            for expansion in played:
                state = expansion.redeployment_finished(state, seat)
            return to_phase(state, Phase.SCORE)
        case events.RaceDeclined(seat=seat):
            declined = _decline(state, seat)
            # played or not: each refuses its own choice a decline carries (see the hook)
            for expansion in expansions.registered():
                declined = expansion.race_declined(state, declined, event)
            return declined
        case events.TurnScored(seat=seat, coins=coins):
            return scored(state, seat, coins)
        case events.CoinsAdjusted(seat=seat, delta=delta, reason=reason):
            if not reason.strip():
                raise IllegalAction(said("say why the coins are adjusted"))
            player = state.player(seat)
            if player.coins + delta < 0:
                raise IllegalAction(said("{player} cannot give back {coins} coins: a purse is "
                                         "never negative", player=player.name, coins=-delta))
            return from_stash(state, seat, delta)
        case events.DieRolled():
            return die.roll(state, event, attacker)  # only where the rules give one, once
        case events.RegionConquered(region=region) if seat_player is not None:
            before = region_state(state, region)
            conquered = seat_player.apply(state, event)
            for expansion in played:  # the others' after-a-conquest rules (a Pot of Gold)
                if expansion is not seat_player:
                    conquered = expansion.conquered(conquered, region, before, event.seat)
            return troops_game.defeated(conquered, before)
        case events.RegionConquered():
            return _conquer(state, event)
        case events.RegionAbandoned(seat=seat, region=region):
            expect(state, seat, Phase.CONQUER, said("abandon a region"))
            here = region_state(state, region)
            occupant = here.occupant
            if occupant is None or occupant.seat != seat or occupant.in_decline:
                raise IllegalAction(said("region {region} is not held by {player}'s active race",
                                         region=region, player=state.current.name))
            if any(rid == region for rid, _ in state.track.this_turn.conquered):
                raise IllegalAction(said(
                    "region {region} was conquered this turn; regions are abandoned before "
                    "conquering, when the troops are readied", region=region))
            for expansion in played:
                expansion.refuse_abandon(state, region)
            this_turn = state.track.this_turn
            left = (*this_turn.abandoned_regions, region)
            track = replace(state.track, this_turn=replace(this_turn, abandoned_regions=left))
            state = troops_game.abandoned(state, region)
            return replace(state, regions=state.regions.with_region(region, cleared(here)),
                           track=track)
        case events.TroopsRedeployed():
            return troops_game.redeploy(state, event)
        case events.MarkerPlaced() | events.MarkerRemoved():
            return markers.place_or_remove(state, event)
        case events.RegionSet():
            return troops_game.corrected(state, markers.set_region(state, event), event)
        case events.TurnEnded(seat=seat):
            expect(state, seat, Phase.FINISHED, said("end the turn"))
            troops_game.refuse_turn_end(state)
            nxt = state.players[state.track.next_seat]
            phase = Phase.CONQUER if nxt.active is not None else Phase.PICK_COMBO
            ended = replace(state, track=state.track.passed(phase), last_roll=None)
            for expansion in played:
                ended = expansion.turn_passed(state, ended)
            return troops_game.turn_began(ended)
    raise IllegalAction(said("unknown event {event}", event=repr(event)))


def follow_ups(state: GameState) -> tuple[events.Event, ...]:
    """Events the rules owe without a choice: the app's reveals after a pick.

    Stops where the app cannot go on alone: when the table deals, and when the badge
    stack must be reshuffled (a shuffle is drawn outside the rules).
    """
    out: list[events.Event] = []
    while (combo := state.market.next_reveal()) is not None:
        event = events.ComboRevealed(combo.race, combo.power)
        state = apply(state, event)
        out.append(event)
    return tuple(out)


def _pick(state: GameState, event: events.ComboPicked) -> GameState:
    player = acting(state, event.seat)
    if state.track.this_turn.picked_combo:
        raise IllegalAction(said("{player} has already picked a combo this turn",
                                 player=player.name))
    if player.active is not None:
        raise IllegalAction(said(
            "{player} still plays the {combo}; put them in decline first (a new combo comes "
            "the turn after)", player=player.name,
            combo=ComboName(player.active.power, player.active.race)))
    if state.track.this_turn.declined:
        raise IllegalAction(said("{player} went into decline this turn; pick next turn",
                                 player=player.name))
    expect(state, event.seat, Phase.PICK_COMBO, said("pick a combo"))
    market = state.market
    cost = market.cost(event.row)
    combo = market.rows[event.row].combo
    if (combo.race, combo.power) != (event.race, event.power):
        raise IllegalAction(said("row {row} holds {combo}, not {given}", row=event.row + 1,
                                 combo=ComboName(combo.power, combo.race),
                                 given=ComboName(event.power, event.race)))
    what = said("the {combo} in row {row}", combo=ComboName(combo.power, combo.race),
                row=event.row + 1)
    coins = pay(player.coins, cost, who=player.name, what=what)
    market, taken = market.pick(event.row)
    tokens = state.catalog.combo_tokens(combo.race, combo.power) + taken.extra_tokens
    max_tokens = state.catalog.race(combo.race).max_tokens
    active = ActiveRace(combo.race, combo.power,
                        tokens=tokens if max_tokens is None else min(tokens, max_tokens),
                        picked_turn=state.track.turn)
    player = replace(player, coins=coins + taken.coins, active=active)
    track = replace(state.track, phase=Phase.CONQUER,
                    this_turn=replace(state.track.this_turn, picked_combo=True))
    return replace(state, players=with_player(state.players, player), market=market, track=track)


def _decline(state: GameState, seat: int) -> GameState:
    player = acting(state, seat)
    this_turn = state.track.this_turn
    if player.active is None:
        raise IllegalAction(said("{player} has no active race to put in decline",
                                 player=player.name))
    if this_turn.declined:
        raise IllegalAction(said("{player} has already gone into decline this turn",
                                 player=player.name))
    phase = state.track.phase
    stout_at_end = phase is Phase.FINISHED and player.active.power == STOUT
    at_start = phase is Phase.CONQUER and not this_turn.picked_combo and this_turn.conquests == 0
    if not (at_start or stout_at_end):
        raise IllegalAction(said(STOUT_DECLINE if player.active.power == STOUT
                                 else DECLINE_AT_START))
    race = player.active.race
    if at_start:  # instead of conquering: the troops were never readied
        state = troops_game.unready(state, seat, race)
    player, market, regions = go_into_decline(player, state.market, state.regions,
                                              state.track.turn)
    track = replace(state.track, phase=Phase.SCORE if at_start else Phase.FINISHED,
                    this_turn=replace(this_turn, declined=True))
    declined = replace(state, players=with_player(state.players, player), market=market,
                       track=track, regions=regions)
    return troops_game.declined(declined, seat, race)


def attacker(state: GameState) -> Attacker:
    """The current player's active race, as the conquest rules see it."""
    player = state.current
    seat_player = expansions.seat_player(state, player.seat)
    if seat_player is not None:
        return _with_facts(state, seat_player.seat_attacker(state))
    if player.active is None:
        raise IllegalAction(said("{player} has no active race; pick a combo first",
                                 player=player.name))
    held = state.regions.held_by(player.seat, player.active.race, in_decline=False)
    berserk_roll = state.last_roll if player.active.power == BERSERK else None
    return _with_facts(state, Attacker(
        player.seat, player.active.race, player.active.power, frozenset(held),
        turn=state.track.turn, berserk_roll=berserk_roll))


def _with_facts(state: GameState, who: Attacker) -> Attacker:
    """`who` with what the game's expansions give a conquest to read."""
    for expansion in expansions.played(state):
        who = expansion.with_facts(state, who)
    return who


def _conquer(state: GameState, event: events.RegionConquered) -> GameState:
    if event.catapult and event.declined_ghouls:
        raise IllegalAction(said("Ghouls in decline have no Catapult: it belongs to the "
                                 "active race"))
    who = _ghouls(state, event.seat) if event.declined_ghouls else None
    if who is None:
        expect(state, event.seat, Phase.CONQUER, said("conquer"))
        who = attacker(state)
    if event.catapult:
        who = _with_catapult(state, who)
    if event.mercenary_coin:
        if who.power != MERCENARY:
            raise IllegalAction(said("only Mercenary races spend a coin to conquer with "
                                     "fewer tokens"))
        who = replace(who, mercenary_coins=1)  # the coin's 2 tokens come off the cost
    before = region_state(state, event.region)
    least = minimum_cost(who)
    if event.tokens is not None and event.tokens < least:
        raise IllegalAction(said_n("a region conquered by {race} holds at least {n} token, "
                                   "not {given}",
                                   "a region conquered by {race} holds at least {n} tokens, "
                                   "not {given}", least, race=Name("race", who.race),
                                   given=event.tokens))
    _refuse_sorcery(state, who, event)
    _refuse_dragon(state, who, event)
    refused = attack_refusal(state, who, event.region)
    if refused is not None:
        raise IllegalAction(refused)
    tokens = troops_game.conquest_tokens(state, event, who)
    occupant = Occupant(who.seat, who.race, event.declined_ghouls, tokens)
    regions = state.regions.with_region(event.region, taken(before, occupant))
    if event.dragon:
        regions = _dragon_moved(regions, event.region)
    players, market = state.players, state.market
    coins_issued = state.coins_issued
    if event.mercenary_coin:
        payer = players[who.seat]
        players = with_player(players, replace(payer, coins=pay(
            payer.coins, 1, who=payer.name, what=said("the Mercenary coin"))))
        coins_issued -= 1
    loser = before.occupant
    if loser is not None and loser.in_decline:
        victim, market, regions = vanish_if_gone(players[loser.seat], market, regions,
                                                 loser.race)
        players = with_player(players, victim)
    elif loser is not None and loser.seat != who.seat:
        players = _conquest_coins(players, who.seat, loser.seat,
                                  ransack=not event.declined_ghouls)
    this_turn = state.track.this_turn
    if event.declined_ghouls:
        this_turn = replace(this_turn, ghoul_conquests=this_turn.ghoul_conquests + 1)
    else:
        attacked = loser is not None and not loser.in_decline and loser.seat != who.seat
        defended = before.defended
        players = markers.first_regions_noted(players, who.seat, event.region)
        this_turn = replace(
            this_turn, conquered=(*this_turn.conquered, (event.region, defended)),
            attacked_active_race=this_turn.attacked_active_race or attacked,
            catapult_used=this_turn.catapult_used or event.catapult,
            dragon_took=event.region if event.dragon else this_turn.dragon_took,
            sorcery_on=(*this_turn.sorcery_on, *((loser.seat,) if event.sorcery and loser
                                                 else ())))
    track = replace(state.track, this_turn=this_turn)
    last_roll = None if who.power == BERSERK else state.last_roll  # Berserk: used up
    taken_state = replace(state, regions=regions, players=players, market=market, track=track,
                          coins_issued=coins_issued, last_roll=last_roll)
    if tokens is not None:
        taken_state = troops_game.conquered(taken_state, who, tokens, event.region, before,
                                            sorcery=event.sorcery)
    for expansion in expansions.played(state):
        taken_state = expansion.conquered(taken_state, event.region, before, who.seat)
    return taken_state


def attack_refusal(state: GameState, who: Attacker, region: int) -> Said | None:
    """Why `who` may not attack `region` now, or None: the game's expansions' refusals, the
    region's immunity, then the attacker's reach. A conquest is refused for this reason,
    and the map lights exactly the regions it has none for."""
    try:
        for expansion in expansions.played(state):
            expansion.refuse_conquest(state, who, region)
    except IllegalAction as refused:
        return refused.said
    found = immunity(state.map, region, state.regions.regions, who,
                     catapults=state.regions.catapults())
    if found is None:
        route = reach(state.map, region, who)
        found = None if route.reachable else route.reason
    return found


def catapult_ready(state: GameState) -> int | None:
    """The region of the current player's Catapult when it may conquer now (in the conquest
    phase, their active race has the power, its piece stands in one of their regions, and
    it has not been used this turn), else None."""
    if state.is_over or state.track.phase is not Phase.CONQUER:
        return None
    try:
        return _ready_catapult(state, attacker(state))
    except IllegalAction:
        return None


def _with_catapult(state: GameState, who: Attacker) -> Attacker:
    return replace(who, use_catapult=True, catapult_at=_ready_catapult(state, who))


def _ready_catapult(state: GameState, who: Attacker) -> int:
    """Where the attacker's Catapult stands, if it may conquer now; refused otherwise."""
    if who.power != CATAPULT:
        combo: Name | ComboName = (Name("race", who.race) if who.power is None
                                   else ComboName(who.power, who.race))
        raise IllegalAction(said("only a Catapult race conquers with the Catapult, not {combo}",
                                 combo=combo))
    if state.track.this_turn.catapult_used:
        raise IllegalAction(said("the Catapult has already been used this turn (once per turn)"))
    where = next((rid for rid in sorted(who.held) if state.regions[rid].markers.catapult),
                 None)
    if where is None:
        raise IllegalAction(said("the Catapult is not on the board: place it in one of your "
                                 "regions first"))
    return where


def _ghouls(state: GameState, seat: int) -> Attacker:
    """The player's Ghouls in decline, who conquer before the active race does."""
    player = acting(state, seat)
    this_turn = state.track.this_turn
    if not any(d.race == GHOULS for d in player.declined):
        raise IllegalAction(said("{player} has no Ghouls in decline to conquer with",
                                 player=player.name))
    if this_turn.declined:
        raise IllegalAction(said("no conquest in the turn a race goes into decline"))
    if state.track.phase not in (Phase.PICK_COMBO, Phase.CONQUER) or this_turn.conquests:
        raise IllegalAction(said(
            "declined Ghouls conquer at the start of the turn, before the active race does"))
    held = state.regions.held_by(seat, GHOULS, in_decline=True)
    return _with_facts(state, Attacker(seat, GHOULS, None, frozenset(held),
                                       turn=state.track.turn))


def _refuse_sorcery(state: GameState, who: Attacker, event: events.RegionConquered) -> None:
    """Sorcerers, once a turn per opponent: a region next to theirs whose only race token is
    that opponent's active one (no encampment beside it) becomes theirs, one of their
    tokens from the tray taking its place."""
    if not event.sorcery:
        return
    if who.race != SORCERERS or event.declined_ghouls:
        raise IllegalAction(said("only active Sorcerers replace a lone token with one of theirs"))
    if event.catapult or event.mercenary_coin or event.tokens not in (None, 1):
        raise IllegalAction(said("a Sorcerer's replacement puts exactly one token from the "
                                 "tray in the region; no Catapult, coin or other count goes "
                                 "with it"))
    here = state.regions[event.region]
    loser = here.occupant
    if loser is None or loser.seat == who.seat or loser.in_decline:
        raise IllegalAction(said("Sorcerers replace an opponent's active token; region "
                                 "{region} holds none", region=event.region))
    if (loser.tokens or 1) != 1 or here.markers.encampments:
        raise IllegalAction(said("the Sorcerers replace a token only when it stands alone; "
                                 "region {region} holds {tokens} (or an encampment)",
                                 region=event.region, tokens=str(loser.tokens)))
    if loser.seat in state.track.this_turn.sorcery_on:
        raise IllegalAction(said("the Sorcerers have already replaced a token of {player}'s "
                                 "this turn (once per opponent)",
                                 player=state.players[loser.seat].name))
    if not state.map.region(event.region).adjacent & who.held:
        raise IllegalAction(said("region {region} does not border a Sorcerers' region",
                                 region=event.region))
    if not troops_game.tray_has(state, SORCERERS):
        raise IllegalAction(said("no Sorcerer token is left in the tray to take its place"))


def _refuse_dragon(state: GameState, who: Attacker, event: events.RegionConquered) -> None:
    """Dragon Master, once a turn: the active race takes a region it may attack with its
    fewest tokens, whatever defends it (its immunities and reach still hold)."""
    if not event.dragon:
        return
    if event.declined_ghouls or not who._has(DRAGON_MASTER):
        combo: Name | ComboName = (Name("race", who.race) if who.power is None
                                   else ComboName(who.power, who.race))
        raise IllegalAction(said("only an active Dragon Master race conquers with the Dragon, "
                                 "not {combo}", combo=combo))
    took = state.track.this_turn.dragon_took
    if took is not None:
        raise IllegalAction(said("Dragon Master: the Dragon conquers once a turn, and it took "
                                 "region {region} this turn", region=took))
    if event.catapult or event.mercenary_coin or event.sorcery:
        raise IllegalAction(said("the Dragon's conquest is one of its own: no Catapult, "
                                 "Mercenary coin or Sorcery goes with it"))


def _dragon_moved(regions: BoardState, region: int) -> BoardState:
    """The board with the Dragon taken from wherever it lay and set in `region`."""
    for rid, here in regions.regions.items():
        if here.markers.dragon and rid != region:
            regions = regions.with_region(rid, replace(here, markers=replace(
                here.markers, dragon=False)))
    here = regions[region]
    return regions.with_region(region, replace(here, markers=replace(here.markers,
                                                                     dragon=True)))


def _conquest_coins(players: tuple[Player, ...], winner: int, loser: int, *,
                    ransack: bool = True) -> tuple[Player, ...]:
    """Coins that change hands when an active region falls: Ransacking takes one from the
    loser, a Corrupt loser takes one from the conqueror (nothing from an empty purse).
    `ransack` is false for a conquest by the winner's Ghouls in decline: the power belongs
    to the active race, so only its own conquests ransack."""
    for power, payer, payee in ((RANSACKING, loser, winner), (CORRUPT, winner, loser)):
        if power == RANSACKING and not ransack:
            continue
        holder = players[winner if power == RANSACKING else loser]
        if holder.active is not None and holder.active.power == power:
            players = coin_changes_hands(players, payer, payee)
    return players


def refusal(state: GameState, event: events.Event) -> Said | None:
    """Why `event` would be refused now (English by `str()`), or None if the rules allow it."""
    try:
        apply(state, event)
    except (IllegalAction, MalformedInput) as refused:
        return refused.said
    return None
