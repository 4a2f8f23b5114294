"""Going into decline.

When a player puts their active race in decline, its banner flips and its badge is
discarded (unless the power stays in effect: Spirit). Any race they already had in
decline leaves the board and its banner goes to the bottom of the banner stack, except a
Spirit race, which never counts toward the one-declined-race limit; and when the race
going into decline is itself the Spirit race, the earlier declined race stays.

When decline is allowed is decided by `game` (it is a matter of the turn's phase); this
module only says what decline does to the player and the market.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.errors import IllegalAction
from companion.rules.market import Market
from companion.rules.players import SPIRIT, DeclinedRace, Player


def go_into_decline(player: Player, market: Market, turn: int) -> tuple[Player, Market]:
    """The player and the market after the player's active race goes into decline."""
    active = player.active
    if active is None:
        raise IllegalAction(f"{player.name} has no active race to put in decline")
    spirit = active.power == SPIRIT
    staying: list[DeclinedRace] = []
    for old in player.declined:
        if spirit or old.kept_power:
            staying.append(old)
        else:
            market = market.return_banner(old.race)
    if not spirit:
        market = market.discard_badge(active.power)
    newly = DeclinedRace(active.race, active.power, declined_turn=turn, kept_power=spirit)
    return replace(player, active=None, declined=(*staying, newly)), market
