"""Income: what the player whose turn it is earns now, worked out from the board.

Builds the scoring input from the game state (the regions each of the player's races
holds, with their terrain and symbols from the map, the non-empty regions conquered this
turn, the fortresses, whether the combo was picked this turn and which race declined this
turn; River World: the harbors and the regions next to a pirate ship; the mini-expansions:
the Leprechauns' Pots of Gold collected as the turn began, the Priestesses' Ivory Tower,
the declines the Historians counted, see `companion.rules.mini_game`), so nobody types in
twice what the game already says, then scores it; the game's expansions then add their own
lines (`Expansion.income_lines`). Invariant: `income(state).total` is the sum of its lines.
"""

from __future__ import annotations

from companion.rules import expansions
from companion.rules.game import GameState
from companion.rules.maps import Site
from companion.rules.mini_game import pots_collected
from companion.rules.names import GYPSIES, HISTORIAN, LEPRECHAUNS
from companion.rules.river import next_to_pirates
from companion.rules.scoring import (
    ActiveHoldings,
    DeclinedHoldings,
    HeldRegion,
    HistorianEvents,
    ScoringInput,
    TurnScore,
    score_turn,
)


def held_regions(
    state: GameState, seat: int, race: str, in_decline: bool
) -> tuple[HeldRegion, ...]:
    """The regions `race` of `seat` holds, as scoring sees them (River World: harbors, and
    the regions next to a pirate ship)."""
    board = state.map
    ids = state.regions.held_by(seat, race, in_decline=in_decline)
    regions = (board.region(rid) for rid in ids)
    return tuple(
        HeldRegion(r.terrain, r.features, r.coastal, r.id, harbor=Site.HARBOR in r.sites,
                   next_to_pirates=next_to_pirates(board, state.regions, r.id))
        for r in regions
    )


def scoring_input(state: GameState) -> ScoringInput:
    """The current player's scoring input, read off the board and this turn's events."""
    player = state.current
    track = state.track
    active = None
    pots = pots_collected(state)
    if player.active is not None:
        race = player.active.race
        ids = state.regions.held_by(player.seat, race, in_decline=False)
        first_turn = player.active.picked_turn == track.turn
        historian = HistorianEvents()
        if player.active.power == HISTORIAN:
            when_picked = player.active.declined_when_picked if first_turn else 0
            historian = HistorianEvents(when_picked, player.declines_seen)
        active = ActiveHoldings(
            race=race,
            power=player.active.power,
            regions=held_regions(state, player.seat, race, False),
            first_turn=first_turn,
            conquered_non_empty=track.this_turn.conquered_non_empty,
            fortresses=sum(1 for rid in ids if state.regions[rid].markers.fortress),
            abandoned=track.this_turn.abandoned if race == GYPSIES else 0,
            attacked_active_race=track.this_turn.attacked_active_race,
            pots_of_gold=pots if race == LEPRECHAUNS else 0,
            historian=historian,
        )
    declined = []
    for d in player.declined:
        this_turn = d.declined_turn == track.turn
        declined.append(DeclinedHoldings(
            d.race, d.power, held_regions(state, player.seat, d.race, True),
            this_turn=this_turn,
            ivory_tower=d.ivory_tower,
            pots_of_gold=pots if this_turn and d.race == LEPRECHAUNS else 0,
            historian=HistorianEvents(others_declined=player.declines_seen)
            if this_turn and d.power == HISTORIAN else HistorianEvents(),
        ))
    return ScoringInput(turn=track.turn, active=active, declined=tuple(declined))


def income(state: GameState) -> TurnScore:
    """The current player's coins for this turn, itemised: the base game's lines, then the
    lines each expansion the game plays adds (in the registry's order)."""
    score = score_turn(scoring_input(state), state.catalog)
    more = tuple(line for x in expansions.played(state) for line in x.income_lines(state))
    return TurnScore((*score.lines, *more)) if more else score
