"""The reinforcement die: when the rules give a roll, what it is for, and what it leaves.

Every roll of the die is a `DieRolled` event with its `purpose` (the face drawn outside the
rules), or an expansion's own event for a roll it keeps the books of. The rules give a roll
only here:

- the final conquest (`DiePurpose.FINAL_CONQUEST`): once a turn, in the conquest phase,
  for a region chosen before the roll (`DieRolled.region`, a region the race could attack).
  After it the turn's conquests are over: the one conquest still allowed is of that region
  by the active race (if the die covered the cost), then the conquests are finished;
- Berserk (`DiePurpose.BERSERK`): in the conquest phase, before each conquest of a Berserk
  race (or of a seat an expansion plays itself, when its attacker uses Berserk). The face
  comes off the next conquest's cost and is used up by it (`GameState.last_roll`); a second
  roll before that conquest is refused. A Berserk race has no separate final roll: the roll
  before its last conquest is its final attempt;
- an expansion's own rolls: a conquest may owe rolls an expansion keeps the books of,
  rolled in the step of that conquest; `owed_rolls` asks the game's expansions for them
  (`Expansion.rolls_owed`), and each expansion refuses a roll nobody owes and keeps the
  count itself.

`DiePurpose.UNRECORDED` is a roll saved before purposes were kept (schema 1): it replays
as that release read it (the face is the last roll, nothing else), so old games replay to
the same state; nothing offers it now.

`die_roll_allowed(state)` says which roll the moment allows (or None, with a one-line
reason a screen can show); the session, the table's die button and the hardware button all
ask it. `apply` calls `refuse` before every event; the `DieRolled` case is `roll`. No
expansion is named here: what one changes (a roll refused while its set-up lasts, who may
attack a region, whose seat has no race of its own, rolls it owes) is asked of the game's
expansions (`companion.rules.expansions.played`) through their hooks.
A roll is a barrier for undo (`events.is_barrier`): it is never taken back.

Invariants: at most one final-conquest roll per turn; at most one Berserk roll waiting for
a conquest; a refused roll changes nothing (an expansion's own rolls: see its module).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum

import companion.rules.expansions as expansions
import companion.rules.troops_game as troops_game
from companion.rules.conquest import Attacker, TokenCountUnknown, conquest_cost, immunity, reach
from companion.rules.errors import IllegalAction
from companion.rules.events import DieRolled, Event, RegionConquered
from companion.rules.names import BERSERK
from companion.rules.said import Said, listed, said, said_n
from companion.rules.state import PHASE_WORDS, GameState, expect, region_state
from companion.rules.turns import Phase


class DiePurpose(StrEnum):
    """What a roll of the reinforcement die is for (`DieRolled.purpose`)."""

    FINAL_CONQUEST = "final_conquest"
    BERSERK = "berserk"
    UNRECORDED = "unrecorded"  # saved before purposes were kept (schema 1)


@dataclass(frozen=True, slots=True)
class DieChance:
    """The roll the moment allows (`purpose`), or None; `reason` says it in one line (a
    `Said`; plain text from an expansion not yet converted is shown as it is)."""

    purpose: DiePurpose | None
    reason: Said

    @property
    def allowed(self) -> bool:
        return self.purpose is not None


def is_berserk(state: GameState) -> bool:
    """Whether the current player conquers with Berserk (for a seat an expansion plays
    itself, among the powers its attacker uses)."""
    seat_player = expansions.seat_player(state, state.track.seat)
    if seat_player is not None:
        who = seat_player.seat_attacker(state)
        return who.power == BERSERK or BERSERK in who.more_powers
    active = state.current.active
    return active is not None and active.power == BERSERK


def die_roll_allowed(state: GameState) -> DieChance:
    """The roll of the reinforcement die the rules give now, or None and why not."""
    if state.is_over:
        return DieChance(None, said("The game is over: no more rolls."))
    for expansion in expansions.played(state):
        refused = expansion.refuse_roll(state)
        if refused is not None:
            return DieChance(None, refused)
    player = state.current
    phase = state.track.phase
    if phase is not Phase.CONQUER:
        return DieChance(None, said("No roll now: the die is rolled while conquering, and "
                                    "{player}'s turn is at: {phase}.", player=player.name,
                                    phase=said(PHASE_WORDS.get(phase, phase.value))))
    if player.active is None and expansions.seat_player(state, player.seat) is None:
        return DieChance(None, said("No roll now: {player} has no active race to roll for.",
                                    player=player.name))
    final = state.track.this_turn.final_roll
    if final is not None:
        return DieChance(None, said("No roll now: {player} rolled for the final conquest of "
                                    "region {region}; conquests are over this turn.",
                                    player=player.name, region=final[0]))
    active = player.active
    in_hand = None if active is None else troops_game.hand(state, player.seat, active.race)
    if in_hand == 0:
        return DieChance(None, said("No roll now: {player} has no token left in hand, and a "
                                    "conquest needs at least one.", player=player.name))
    if is_berserk(state):
        if state.last_roll is not None:
            return DieChance(None, said("No roll now: {player}'s Berserk roll ({face}) waits "
                                        "for the next conquest.", player=player.name,
                                        face=state.last_roll))
        return DieChance(DiePurpose.BERSERK,
                         said("Berserk: {player} rolls before the next conquest.",
                              player=player.name))
    return DieChance(DiePurpose.FINAL_CONQUEST,
                     said("Final conquest: {player} chooses the region, then rolls once.",
                          player=player.name))


def roll(state: GameState, event: DieRolled,
         attacker_of: Callable[[GameState], Attacker]) -> GameState:
    """The state after the roll `event`; refused (changing nothing) where the rules give
    no such roll. `attacker_of` is `game.attacker` (the race about to conquer)."""
    purpose = _purpose(event.purpose)
    expect(state, event.seat, Phase.CONQUER, said("roll the reinforcement die"))
    faces = state.catalog.die_faces
    if event.face not in faces:
        raise IllegalAction(said("the reinforcement die has no face {face}; its faces are "
                                 "{faces}", face=event.face, faces=str(sorted(set(faces)))))
    if purpose is not DiePurpose.FINAL_CONQUEST and event.region is not None:
        raise IllegalAction(said("only the final conquest's roll names a region, not a "
                                 "{purpose} roll (region {region})", purpose=purpose.value,
                                 region=event.region))
    if purpose is DiePurpose.UNRECORDED:
        return replace(state, last_roll=event.face)  # as schema 1 read it
    chance = die_roll_allowed(state)
    if chance.purpose is None:
        raise IllegalAction(chance.reason)
    name = state.current.name
    if purpose is DiePurpose.BERSERK and chance.purpose is not DiePurpose.BERSERK:
        raise IllegalAction(said("only a Berserk race rolls before a conquest, and {player}'s "
                                 "is not Berserk: the die is for the final conquest",
                                 player=name))
    if purpose is DiePurpose.FINAL_CONQUEST and chance.purpose is not purpose:
        raise IllegalAction(said("Berserk rolls before each conquest instead of a final roll: "
                                 "with too few tokens after it, that conquest is the last"))
    if purpose is DiePurpose.BERSERK:
        return replace(state, last_roll=event.face)
    region = event.region
    if region is None:
        raise IllegalAction(said("the final conquest's region is chosen before the roll: "
                                 "name it"))
    region_state(state, region)  # an unknown region is refused, naming the board's
    refused = _target_refusal(state, attacker_of(state), region)
    if refused is not None:
        raise IllegalAction(said("region {region} cannot be the final conquest: {reason}",
                                 region=region, reason=refused))
    this_turn = replace(state.track.this_turn, final_roll=(region, event.face))
    return replace(state, last_roll=event.face,
                   track=replace(state.track, this_turn=this_turn))


def _purpose(value: str) -> DiePurpose:
    try:
        return DiePurpose(value)
    except ValueError:
        raise IllegalAction(said("a die roll's purpose is one of {known}, not {value}",
                                 known=listed(p.value for p in DiePurpose),
                                 value=repr(value))) from None


def _target_refusal(state: GameState, who: Attacker, region: int) -> str | Said | None:
    """Why `who` could not attack `region` at all, or None (the first of the game's
    expansions that decides it has its say; else immunity and reach)."""
    verdict = next((found for x in expansions.played(state)
                    if (found := x.may_attack(state, who, region)) is not None), None)
    if verdict:
        return None
    board = state.map
    way = reach(board, region, who)
    return (immunity(board, region, state.regions.regions, who,
                     catapults=state.regions.catapults())
            or (None if way.reachable else way.reason)
            or (None if verdict is None else said("it is out of reach")))


def refuse(state: GameState, event: Event,
           attacker_of: Callable[[GameState], Attacker]) -> None:
    """Refuse an event the rolls made so far this turn do not allow. `attacker_of` is
    `game.attacker`."""
    this_turn = state.track.this_turn
    if isinstance(event, RegionConquered) and this_turn.final_roll is not None:
        region, face = this_turn.final_roll
        if event.declined_ghouls:
            raise IllegalAction(said("after the final conquest's roll no other conquest is "
                                     "made this turn, not even by Ghouls in decline"))
        if event.region != region:
            raise IllegalAction(said("after the final conquest's roll only region {region}, "
                                     "chosen before the roll, may be conquered; conquests are "
                                     "over for this turn", region=region))
        _refuse_short(state, event, face, attacker_of)


def _refuse_short(state: GameState, event: RegionConquered, face: int,
                  attacker_of: Callable[[GameState], Attacker]) -> None:
    """The final conquest is won only when the tokens left and the face cover the cost
    (Mercenary: with its coin, which may be spent after the roll). Not checked when the
    tokens or a defender's count are not recorded, or with the Catapult."""
    if event.tokens is None or event.catapult:
        return
    who = attacker_of(state)
    if event.mercenary_coin:
        who = replace(who, mercenary_coins=1)
    try:
        cost = conquest_cost(state.map, event.region, state.regions.regions, who,
                             catapults=state.regions.catapults()).total
    except TokenCountUnknown:
        return
    if event.tokens + face < cost:
        raise IllegalAction(said_n(
            "the final conquest of region {region} falls short: {n} token + {face} on the die "
            "= {sum}, and it costs {cost}; the tokens go back to a region already held",
            "the final conquest of region {region} falls short: {n} tokens + {face} on the "
            "die = {sum}, and it costs {cost}; the tokens go back to a region already held",
            event.tokens, region=event.region, face=face, sum=event.tokens + face, cost=cost))


def owed_rolls(state: GameState, event: Event, draw: Callable[[], int]) -> tuple[Event, ...]:
    """The expansions' own rolls that `event` owes at `state` (before it is applied), each
    face drawn with `draw`: the session records them in the same step as `event`."""
    return tuple(roll for x in expansions.played(state)
                 for roll in x.rolls_owed(state, event, draw))
