"""Purses: each player's Victory coins.

A purse is a whole number of coins that is never negative. Totals are secret at the table:
nothing in `views.public` carries one. Coins come from the stash (the bank, unlimited in
play) as starting coins and income, move between a purse and the market rows when a combo
is picked, and may go back to the stash through a correction. For tables that also keep
the cardboard coins, `change_for` says which pieces make an amount with the fewest pieces.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules.errors import IllegalAction


def pay(coins: int, amount: int, *, who: str, what: str) -> int:
    """Coins left after paying `amount`; refuses to go below zero."""
    if amount < 0:
        raise IllegalAction(f"{what}: a payment cannot be negative (got {amount})")
    if amount > coins:
        raise IllegalAction(
            f"{who} cannot afford {what}: it costs {amount} "
            f"coin{'s' if amount != 1 else ''} and they have fewer"
        )
    return coins - amount


def change_for(amount: int, coin_values: Sequence[int]) -> dict[int, int]:
    """The fewest coins of the given values that add up to `amount`.

    Returns {value: count} with only the values used, largest first. With the game's
    coins (10, 5, 3, 1) every amount can be made.
    """
    if amount < 0:
        raise IllegalAction(f"an amount of coins cannot be negative (got {amount})")
    values = sorted(set(coin_values), reverse=True)
    if not values or min(values) < 1:
        raise IllegalAction(f"coin values must be positive whole numbers (got {list(coin_values)})")
    # fewest[a] = fewest pieces making a; last[a] = the value added last on that path.
    fewest = [0] + [amount + 1] * amount
    last = [0] * (amount + 1)
    for a in range(1, amount + 1):
        for v in values:
            if v <= a and fewest[a - v] + 1 < fewest[a]:
                fewest[a] = fewest[a - v] + 1
                last[a] = v
    if amount and fewest[amount] > amount:
        raise IllegalAction(f"{amount} cannot be made from coins of {values}")
    pieces: dict[int, int] = {}
    a = amount
    while a:
        pieces[last[a]] = pieces.get(last[a], 0) + 1
        a -= last[a]
    return {v: pieces[v] for v in values if v in pieces}
