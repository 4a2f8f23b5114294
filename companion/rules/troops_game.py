"""The troops inside a game: when the token ledger (`companion.rules.troops`) moves.

A game created with `GameCreated.troops_counted` keeps `GameState.troops`; every function
here does nothing on a game saved before the ledger existed (`troops` is None), so such a
game replays exactly as it was played. In a counted game, as the rules move the troops:

- a combo picked: its tokens (banner + badge, Amazons' four that only attack, and the two
  Hordes tokens of Hordes of) come from the tray into the hand;
- Ready your Troops, as the player's turn begins: one token stays in each region of the
  active race, the others (and any set aside) come back to the hand;
- abandoning a region: its tokens go back to the hand;
- a conquest: the tokens it puts in the region leave the hand (`RegionConquered.tokens`,
  or the cost when not given); it needs at least the cost, and never more than the hand
  holds, except the final conquest with the die, which deploys the whole hand;
- the defender's losses: one token back to the tray (active Elves lose none), the others
  into the defender's hand, to be put in their other regions (`TroopsRedeployed`) before the
  attacker's turn ends; with no region left they stay in hand for the next turn;
- the end of conquests: new Skeletons from the tray, 1 for every 2 non-empty regions taken;
- redeployment: tokens move freely between the race's regions, at least one in each; the
  hand must be empty before redeployment finishes, but Amazons then set 4 aside (leaving
  one in each region) and the regions an expansion empties as the player redeploys must be
  left (`Expansion.redeployment_leaves`);
- decline: one token stays per region (Ghouls keep all), the rest go back to the tray; a
  race that leaves the board gives everything back;
- Trolls: a region they conquer gets its Troll's Lair at once;
- new tokens an expansion's race gets come from the tray into the hand (its own module
  moves them); reinforcements stop when the tray is out;
- a correction of a region: tokens added come from the hand first, then the tray; tokens
  taken away go back to the tray.

`companion.rules.game` calls these at the moments above; this module reads and replaces a
state only through `companion.rules.state`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import companion.rules.expansions as expansions
import companion.rules.troops as ledger
from companion.rules.board import RegionState, with_marker
from companion.rules.conquest import HORDES_TOKENS, Attacker, conquest_cost, minimum_cost
from companion.rules.errors import IllegalAction
from companion.rules.events import RegionConquered, RegionSet, TroopsRedeployed
from companion.rules.names import (
    AMAZONS,
    BEHEMOTH,
    DRAGON_MASTER,
    ELVES,
    FIREBALL,
    GHOULS,
    HORDES_OF,
    SKELETONS,
    TROLLS,
)
from companion.rules.said import Name, Said, said, said_n
from companion.rules.state import PHASE_WORDS, GameState, acting
from companion.rules.turns import Phase

AMAZONS_ASIDE = 4
SKELETON_REGIONS = 2  # one new Skeleton for every two non-empty regions conquered
# Discounts the table applies that no conquest event carries: the conquest needs only
# the race's fewest tokens, and the table's count is taken as given. (The Dragon's conquest
# is an event of its own, `RegionConquered.dragon`; a record from before it had one is
# read as this was.)
UNRECORDED_DISCOUNTS = frozenset({BEHEMOTH, FIREBALL})


@dataclass(frozen=True, slots=True)
class RaceCount:
    """Where one race's tokens are now, as the screens show them."""

    on_board: int
    hand: int
    aside: int
    tray: int

    @property
    def in_play(self) -> int:
        return self.on_board + self.hand + self.aside


def race_count(state: GameState, seat: int, race: str) -> RaceCount | None:
    """The race's tokens on the board, in hand, aside and back in the tray (None when the
    game does not count them)."""
    entry = None if state.troops is None else state.troops.get(seat, race)
    if entry is None:
        return None
    return RaceCount(ledger.on_board(state.regions, seat, race), entry.hand, entry.aside,
                     entry.tray)


def waiting_hands(state: GameState) -> tuple[tuple[int, str, int], ...]:
    """(seat, race, tokens in hand) of every defender who must put tokens back on the
    board before the turn ends."""
    if state.troops is None:
        return ()
    return tuple((t.seat, t.race, t.hand) for t in state.troops.races
                 if t.seat != state.track.seat and t.hand
                 and state.regions.held_by(t.seat, t.race))


def placement_with(state: GameState, seat: int, race: str, region: int,
                   delta: int) -> dict[int, int]:
    """The race's redeployment with `delta` tokens more (or fewer) in `region`."""
    placement = ledger.counts(state.regions, seat, race)
    placement[region] = placement.get(region, 0) + delta
    return placement


def hand(state: GameState, seat: int, race: str) -> int | None:
    """Tokens of `race` in `seat`'s hand, or None when the game does not count them."""
    if state.troops is None:
        return None
    entry = state.troops.get(seat, race)
    return 0 if entry is None else entry.hand


def picked(state: GameState, seat: int) -> GameState:
    """A combo was picked: its tokens come into the hand."""
    active = state.players[seat].active
    if state.troops is None or active is None:
        return state
    tokens = active.tokens + state.catalog.race(active.race).conquest_only_tokens
    if active.power == HORDES_OF:  # its Hordes tokens fight and hold like the race's
        tokens += HORDES_TOKENS  # their own pieces, not from the race's tray; gone on decline
    return replace(state, troops=ledger.picked(state.troops, seat, active.race, tokens))


def own_races(state: GameState, seat: int) -> tuple[str, ...]:
    """The races `seat` moves in their turn: the active race, and Ghouls in decline (who
    still conquer)."""
    player = state.players[seat]
    races = [d.race for d in player.declined if d.race == GHOULS]
    if player.active is not None:
        races.insert(0, player.active.race)
    return tuple(races)


def turn_began(state: GameState) -> GameState:
    """Ready your Troops for the player whose turn begins (active race, Ghouls in decline)."""
    if state.troops is None or state.is_over:
        return state
    troops, regions = state.troops, state.regions
    readied: list[tuple[int, int]] = []
    for race in own_races(state, state.current.seat):
        troops, regions, taken = ledger.ready(troops, regions, state.current.seat, race)
        readied += taken
    track = replace(state.track, this_turn=replace(state.track.this_turn,
                                                   readied=tuple(readied)))
    return replace(state, troops=troops, regions=regions, track=track)


def unready(state: GameState, seat: int, race: str) -> GameState:
    """A race going into decline at the start of the turn did not ready its troops: the
    tokens taken in hand as the turn began go back where they stood (before flipping)."""
    if state.troops is None or state.troops.get(seat, race) is None:
        return state
    troops, regions = ledger.unready(state.troops, state.regions, seat, race,
                                     state.track.this_turn.readied)
    return replace(state, troops=troops, regions=regions)


def abandoned(state: GameState, region: int) -> GameState:
    """The tokens of an abandoned region go back to the hand (call before clearing it)."""
    occupant = state.regions[region].occupant
    if state.troops is None or occupant is None:
        return state
    return replace(state, troops=ledger.to_hand(state.troops, occupant.seat, occupant.race,
                                                occupant.tokens or 1))


def conquest_tokens(state: GameState, event: RegionConquered, who: Attacker) -> int | None:
    """The tokens a conquest puts in its region: those given, or the cost when not given;
    refused with the numbers when the hand cannot pay them (uncounted games: as given)."""
    if event.sorcery:  # one token from the tray, not the hand
        return 1
    if event.dragon:
        return _dragon_tokens(state, event, who)
    if state.troops is None:
        return event.tokens
    entry = state.troops.get(who.seat, who.race)
    in_hand = 0 if entry is None else entry.hand
    cost = conquest_cost(state.map, event.region, state.regions.regions, who,
                         catapults=state.regions.catapults()).total
    die = _final_die(state, event.region)
    if die is not None:  # the final conquest deploys every token left in hand
        if in_hand < 1:
            raise IllegalAction(said("the final conquest needs at least one token in hand"))
        if in_hand + die < cost:
            raise IllegalAction(said("region {region} costs {cost}: {hand} in hand and the die's "
                                     "{die} are not enough", region=event.region, cost=cost,
                                     hand=in_hand, die=die))
        if event.tokens is not None and event.tokens != in_hand:
            raise IllegalAction(said("the final conquest deploys the {hand} tokens left in hand, "
                                     "not {tokens}", hand=in_hand, tokens=event.tokens))
        return in_hand
    least = fewest_tokens(who, cost)
    if event.dragon is None and DRAGON_MASTER in (who.power, *who.more_powers):
        least = minimum_cost(who)  # as a release before schema 3 took it: as given
    tokens = cost if event.tokens is None else event.tokens
    if tokens < least:
        raise IllegalAction(said_n("region {region} costs {n} token; {tokens} are not enough",
                                   "region {region} costs {n} tokens; {tokens} are not enough",
                                   cost, region=event.region, tokens=tokens))
    if tokens > in_hand:
        refused = said_n("conquering region {region} needs {n} token, but only {hand}",
                         "conquering region {region} needs {n} tokens, but only {hand}", tokens,
                         region=event.region, hand=ledger.in_hand(in_hand))
        if in_hand >= 1 and die is None and in_hand + max(state.catalog.die_faces) >= cost:
            refused = said("{sentence}; roll the die for a final conquest", sentence=refused)
        raise IllegalAction(refused)
    return tokens


def fewest_tokens(who: Attacker, cost: int) -> int:
    """The fewest tokens an ordinary conquest costing `cost` may put in its region: the
    cost, or the race's fewest when a discount the table applies goes unrecorded (Behemoth,
    Fireball). The map's stepper starts no lower."""
    if any(p in UNRECORDED_DISCOUNTS for p in (who.power, *who.more_powers)):
        return minimum_cost(who)
    return cost


def _dragon_tokens(state: GameState, event: RegionConquered, who: Attacker) -> int:
    """The Dragon's conquest puts the race's fewest tokens (1; Kobolds 2) from the hand in
    the region, whatever it would cost; refused with the numbers for another count or a
    hand that has too few."""
    fewest = minimum_cost(who)
    if event.tokens is not None and event.tokens != fewest:
        raise IllegalAction(said_n("the Dragon conquers with {n} token, not {tokens}",
                                   "the Dragon conquers with {n} tokens, not {tokens}", fewest,
                                   tokens=event.tokens))
    in_hand = hand(state, who.seat, who.race)
    if in_hand is not None and in_hand < fewest:
        raise IllegalAction(said_n("conquering region {region} needs {n} token, but only {hand}",
                                   "conquering region {region} needs {n} tokens, but only {hand}",
                                   fewest, region=event.region,
                                   hand=ledger.in_hand(in_hand)))
    return fewest


def _final_die(state: GameState, region: int) -> int | None:
    """The face of this turn's final-conquest roll, when it was made for `region`."""
    final = state.track.this_turn.final_roll
    return final[1] if final is not None and final[0] == region else None


def tray_has(state: GameState, race: str) -> bool:
    """Whether a token of `race` is left in the tray (always, in an uncounted game or when
    the box's count is not known)."""
    box = state.catalog.race(race).max_tokens
    if state.troops is None or box is None:
        return True
    return ledger.in_play(state.troops, state.regions, race) < box


def conquered(state: GameState, who: Attacker, tokens: int, region: int,
              before: RegionState, *, sorcery: bool = False) -> GameState:
    """After a conquest: the attacker's tokens left the hand (a Sorcerer's replacement: one
    came from the tray); the defender's came off the board (one to the tray, active Elves
    none, the rest into their hand; a token replaced by a Sorcerer goes to the tray);
    Trolls' Lair."""
    if state.troops is None:
        return state
    if sorcery:
        entry = state.troops.of(who.seat, who.race)
        troops = state.troops.put(replace(entry, received=entry.received + 1))
        loser = before.occupant
        assert loser is not None
        troops = ledger.lost(troops, loser.seat, loser.race, 1)
        return replace(state, troops=troops)
    troops = ledger.deploy(state.troops, who.seat, who.race, tokens,
                           why=said("conquering region {region}", region=region))
    state = defeated(replace(state, troops=troops), before)
    regions = state.regions
    if who.race == TROLLS and not regions[region].markers.troll_lair:
        here = regions[region]
        regions = regions.with_region(region, replace(
            here, markers=with_marker(here.markers, "troll_lair", 1)))
    return replace(state, regions=regions)


def defeated(state: GameState, before: RegionState) -> GameState:
    """The defender of a conquered region (as it was `before`): one token to the tray
    (active Elves none), the others into their hand."""
    loser = before.occupant
    if state.troops is None or loser is None:
        return state
    elves = loser.race == ELVES and not loser.in_decline
    return replace(state, troops=ledger.lost(state.troops, loser.seat, loser.race,
                                             loser.tokens or 1, losses=0 if elves else 1))


def conquests_finished(state: GameState, seat: int) -> GameState:
    """Skeletons: 1 new token from the tray for every 2 non-empty regions conquered."""
    active = state.players[seat].active
    if state.troops is None or active is None or active.race != SKELETONS:
        return state
    new = state.track.this_turn.conquered_non_empty // SKELETON_REGIONS
    troops, _ = ledger.from_tray(state.troops, state.regions, seat, SKELETONS, new,
                                 state.catalog.race(SKELETONS).max_tokens)
    return replace(state, troops=troops)


def keep_in_hand(state: GameState, seat: int, race: str) -> int:
    """Tokens that stay off the map after redeployment (Amazons' four, leaving one in
    each region; or as many as a played expansion says), else 0."""
    if state.troops is None:
        return 0
    for expansion in expansions.played(state):
        kept = expansion.kept_off_the_board(state, seat, race)
        if kept is not None:
            return kept
    if race != AMAZONS:
        return 0
    entry = state.troops.of(seat, race)
    regions = len(state.regions.held_by(seat, race))
    total = ledger.on_board(state.regions, seat, race) + entry.hand
    return max(0, min(AMAZONS_ASIDE, total - regions))


def regions_to_leave(state: GameState, seat: int) -> frozenset[int]:
    """The regions of `seat` their redeployment leaves, as the game's expansions say."""
    return frozenset().union(*(x.redeployment_leaves(state, seat)
                               for x in expansions.played(state)))


def suggested(state: GameState, seat: int, race: str) -> dict[int, int] | None:
    """The one-tap redeployment: the hand (and, for the player redeploying, the tokens in
    regions they must leave) spread over the race's regions, fewest first; Amazons
    redeploying keep their four aside. None when there is nothing to move."""
    if state.troops is None or (entry := state.troops.get(seat, race)) is None:
        return None
    own = seat == state.track.seat and state.track.phase is Phase.REDEPLOY
    leaving = regions_to_leave(state, seat) if own else frozenset()
    regions = state.regions
    freed = 0
    for rid in sorted(leaving):
        occupant = regions[rid].occupant
        if occupant is not None and (occupant.seat, occupant.race) == (seat, race):
            freed += occupant.tokens or 1
            regions = regions.with_region(rid, replace(regions[rid], occupant=None))
    tokens = entry.hand + freed - (keep_in_hand(state, seat, race) if own else 0)
    placement = ledger.spread(regions, seat, race, tokens)
    if not placement or (tokens == 0 and not freed):
        return None
    placement.update({rid: 0 for rid in leaving if rid in state.regions.held_by(seat, race)})
    return placement


def redeploy(state: GameState, event: TroopsRedeployed) -> GameState:
    """Troop redeployment of the current player's active race, or a defender putting the
    tokens in their hand into their regions before the attacker's turn ends (the regions
    the player must leave may be emptied: `regions_to_leave`)."""
    if state.troops is None:
        raise IllegalAction(said("this game was saved before token counts were kept; correct "
                                 "regions one by one instead"))
    placement = dict(event.regions)
    if len(placement) != len(event.regions):
        raise IllegalAction(said("a redeployment names each region once"))
    player = state.player(event.seat)
    entry = state.troops.get(event.seat, event.race)
    if entry is None:
        raise IllegalAction(said("{player} has no {race} tokens in play", player=player.name,
                                 race=Name("race", event.race)))
    if event.seat == state.track.seat:
        acting(state, event.seat)
        if event.race not in own_races(state, event.seat) or (
                state.track.phase is not Phase.REDEPLOY):
            at = state.track.phase
            raise IllegalAction(said(
                "{player} redeploys their active race in the redeployment phase; the turn is "
                "at: {phase}", player=player.name, phase=said(PHASE_WORDS.get(at, at.value))))
        troops, regions = ledger.redeployed(state.troops, state.regions, event.seat, event.race,
                                            placement,
                                            may_empty=regions_to_leave(state, event.seat))
        return replace(state, troops=troops, regions=regions)
    if entry.hand == 0:
        raise IllegalAction(said("{player}'s {race} have no tokens in hand to put back on the "
                                 "board; only the player whose turn it is redeploys",
                                 player=player.name, race=Name("race", event.race)))
    for rid, count in placement.items():
        now = state.regions[rid].occupant if rid in state.regions.regions else None
        before = now.tokens or 1 if now is not None else 0
        if count < before:
            raise IllegalAction(said("{player}'s tokens in hand go into their regions; region "
                                     "{region} keeps its {before} and may only gain",
                                     player=player.name, region=rid, before=before))
    troops, regions = ledger.redeployed(state.troops, state.regions, event.seat, event.race,
                                        placement)
    return replace(state, troops=troops, regions=regions)


def finish_redeployment(state: GameState, seat: int) -> GameState:
    """Refused while tokens are still in hand (or in regions the player must leave, as
    an expansion says); Amazons then set their four aside."""
    if state.troops is None:
        return state
    leaving_by = [(x, x.redeployment_leaves(state, seat)) for x in expansions.played(state)]
    races = own_races(state, seat)
    for race in races:
        for expansion, leaving in leaving_by:
            in_them = sorted(rid for rid in leaving if (o := state.regions[rid].occupant)
                             is not None and (o.seat, o.race) == (seat, race))
            if in_them and not state.regions[in_them[0]].occupant.in_decline:  # type: ignore[union-attr]
                raise IllegalAction(expansion.leaving_refusal(race, tuple(in_them)))
        keep = keep_in_hand(state, seat, race)
        entry = state.troops.get(seat, race)
        if entry is None or not state.regions.held_by(seat, race):
            continue
        if entry.hand < keep:
            raise IllegalAction(said("the Amazons take {keep} tokens off the map as they "
                                     "finish redeploying: leave {keep} in hand, not {hand}",
                                     keep=keep, hand=entry.hand))
        if entry.hand > keep:
            refused: Said = said_n(
                "{n} {race} token is still in hand: put it in your regions first",
                "{n} {race} tokens are still in hand: put them in your regions first",
                entry.hand - keep, race=Name("race", race))
            if keep:
                refused = said("{sentence} (Amazons keep {keep} aside)", sentence=refused,
                               keep=keep)
            raise IllegalAction(refused)
    troops = state.troops
    for race in races:
        if keep := keep_in_hand(state, seat, race):
            troops = ledger.set_aside(troops, seat, race, keep)
    return replace(state, troops=troops)


def refuse_turn_end(state: GameState) -> None:
    """The attacker's turn ends only when every defender has put the tokens in their hand
    into their remaining regions."""
    for seat, race, tokens in waiting_hands(state):
        raise IllegalAction(said_n(
            "{player}'s {race} have {n} token in hand: put it in their regions before the turn "
            "ends",
            "{player}'s {race} have {n} tokens in hand: put them in their regions before the "
            "turn ends", tokens, player=state.players[seat].name, race=Name("race", race)))


def declined(state: GameState, seat: int, race: str) -> GameState:
    """A race gone into decline: everything not left on the board goes back to the tray."""
    if state.troops is None:
        return state
    return replace(state, troops=ledger.returned(state.troops, state.regions, seat, race))


def settled(state: GameState) -> GameState:
    """After any event: a race no longer on its player's banners gives everything back to
    the tray, and tokens that left the board other than through the ledger (regions left
    or swept as an expansion says) go back to the tray too."""
    if state.troops is None:
        return state
    troops = state.troops
    counts = ledger.board_counts(state.regions)
    for entry in troops.races:
        player = state.players[entry.seat]
        races = {d.race for d in player.declined}
        if player.active is not None:
            races.add(player.active.race)
        board = counts.get(entry.key, 0)
        if entry.race not in races and (entry.hand or entry.aside):
            troops = ledger.returned(troops, state.regions, entry.seat, entry.race)
            continue
        missing = entry.received - (board + entry.hand + entry.aside + entry.tray)
        if missing > 0:
            troops = troops.put(replace(entry, tray=entry.tray + missing))
    return replace(state, troops=troops)


def corrected(before: GameState, state: GameState, event: RegionSet) -> GameState:
    """A correction of a region: the tokens added come from the hand first, then the tray;
    those taken away go back to the tray."""
    if state.troops is None:
        return state
    troops = state.troops
    new = state.regions[event.region].occupant
    if new is not None and new.tokens is None:
        raise IllegalAction(said("say how many {race} tokens stand in region {region}",
                                 race=Name("race", new.race), region=event.region))
    if new is not None:
        entry = troops.get(new.seat, new.race)
        if entry is None:
            entry = ledger.RaceTroops(new.seat, new.race, received=0)
        board_before = ledger.on_board(before.regions, new.seat, new.race)
        board_after = ledger.on_board(state.regions, new.seat, new.race)
        added = board_after - board_before
        if added > 0:
            from_hand = min(added, entry.hand)
            entry = replace(entry, hand=entry.hand - from_hand,
                            received=entry.received + added - from_hand)
        troops = troops.put(entry)
    return replace(state, troops=troops)  # tokens taken away: `settled` puts them in the tray
