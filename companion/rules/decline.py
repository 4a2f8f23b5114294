"""Going into decline, and declined races leaving the board.

When a player puts their active race in decline, its banner flips and its badge is
discarded (unless the power stays in effect: Spirit). On the board one token is flipped
in each of its regions (Ghouls keep them all); heroes, the dragon, holes and encampments
leave. Any race the player already had in decline leaves the board and its banner goes
to the bottom of the banner stack, except a Spirit race, which never counts toward the
one-declined-race limit; and when the race going into decline is itself the Spirit race,
the earlier declined race stays. A declined race whose last region is conquered leaves
the same way.

When decline is allowed is decided by `game` (it is a matter of the turn's phase); this
module only says what decline does to the player, the market and the board.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.board import BoardState, cleared, flipped
from companion.rules.errors import IllegalAction
from companion.rules.market import Market
from companion.rules.names import GHOULS, SPIRIT
from companion.rules.players import DeclinedRace, Player
from companion.rules.said import said


def go_into_decline(
    player: Player, market: Market, regions: BoardState, turn: int
) -> tuple[Player, Market, BoardState]:
    """The player, market and board after the player's active race goes into decline."""
    active = player.active
    if active is None:
        raise IllegalAction(said("{player} has no active race to put in decline",
                                 player=player.name))
    spirit = active.power == SPIRIT
    staying: list[DeclinedRace] = []
    for old in player.declined:
        if spirit or old.kept_power:
            staying.append(old)
        else:
            player, market, regions = _vanish(player, market, regions, old)
    if not spirit:
        market = market.discard_badge(active.power)
    for rid in regions.held_by(player.seat, active.race, in_decline=False):
        regions = regions.with_region(rid, flipped(regions[rid], active.race == GHOULS))
    newly = DeclinedRace(active.race, active.power, declined_turn=turn, kept_power=spirit)
    return replace(player, active=None, declined=(*staying, newly)), market, regions


def vanish_if_gone(
    player: Player, market: Market, regions: BoardState, race: str
) -> tuple[Player, Market, BoardState]:
    """A declined race with no region left leaves: its banner returns to the stack."""
    for old in player.declined:
        if old.race == race and not regions.held_by(player.seat, race, in_decline=True):
            return _vanish(player, market, regions, old)
    return player, market, regions


def _vanish(
    player: Player, market: Market, regions: BoardState, old: DeclinedRace
) -> tuple[Player, Market, BoardState]:
    for rid in regions.held_by(player.seat, old.race, in_decline=True):
        regions = regions.with_region(rid, cleared(regions[rid]))
    market = market.return_banner(old.race)
    if old.kept_power:
        market = market.discard_badge(old.power)
    declined = tuple(d for d in player.declined if d is not old)
    return replace(player, declined=declined), market, regions
