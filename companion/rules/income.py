"""Income: what the player whose turn it is earns now, worked out from the board.

Builds the scoring input from the game state (the regions each of the player's races
holds, with their terrain and symbols from the map, the non-empty regions conquered this
turn, the fortresses, whether the combo was picked this turn and which race
declined this turn), completed by the game's expansions with what only they know
(`Expansion.scoring_input`: the facts of its own pieces and races, such as the regions
next to one of its pieces or the coins its pieces collected), so nobody types in
twice what the game already says, then scores it; the game's expansions then add their own
lines (`Expansion.income_lines`). Invariant: `income(state).total` is the sum of its lines.
"""

from __future__ import annotations

import companion.rules.expansions as expansions
from companion.rules.game import GameState
from companion.rules.names import GYPSIES
from companion.rules.scoring import (
    ActiveHoldings,
    DeclinedHoldings,
    HeldRegion,
    ScoringInput,
    TurnScore,
    score_turn,
)


def held_regions(
    state: GameState, seat: int, race: str, in_decline: bool
) -> tuple[HeldRegion, ...]:
    """The regions `race` of `seat` holds, as scoring sees them: terrain, symbols, coast and
    id (what an expansion's sites add is its `scoring_input`'s)."""
    board = state.map
    ids = state.regions.held_by(seat, race, in_decline=in_decline)
    regions = (board.region(rid) for rid in ids)
    return tuple(
        HeldRegion(r.terrain, r.features, r.coastal, r.id) for r in regions
    )


def scoring_input(state: GameState) -> ScoringInput:
    """The current player's scoring input, read off the board and this turn's events, then
    completed by the game's expansions (`Expansion.scoring_input`)."""
    player = state.current
    track = state.track
    active = None
    if player.active is not None:
        race = player.active.race
        ids = state.regions.held_by(player.seat, race, in_decline=False)
        active = ActiveHoldings(
            race=race,
            power=player.active.power,
            regions=held_regions(state, player.seat, race, False),
            first_turn=player.active.picked_turn == track.turn,
            conquered_non_empty=track.this_turn.conquered_non_empty,
            fortresses=sum(1 for rid in ids if state.regions[rid].markers.fortress),
            abandoned=track.this_turn.abandoned if race == GYPSIES else 0,
            attacked_active_race=track.this_turn.attacked_active_race,
        )
    declined = tuple(
        DeclinedHoldings(d.race, d.power, held_regions(state, player.seat, d.race, True),
                         this_turn=d.declined_turn == track.turn)
        for d in player.declined
    )
    inp = ScoringInput(turn=track.turn, active=active, declined=declined)
    for expansion in expansions.played(state):
        inp = expansion.scoring_input(state, inp)
    return inp


def income(state: GameState) -> TurnScore:
    """The current player's coins for this turn, itemised: the base game's lines, then the
    lines each expansion the game plays adds (in the registry's order)."""
    score = score_turn(scoring_input(state), state.catalog)
    more = tuple(line for x in expansions.played(state) for line in x.income_lines(state))
    return TurnScore((*score.lines, *more)) if more else score
