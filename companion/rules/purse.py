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
from companion.rules.said import Said, said, said_n


def pay(coins: int, amount: int, *, who: str | Said, what: str | Said) -> int:
    """Coins left after paying `amount`; refuses to go below zero. `who` and `what` name
    the payer and the thing paid for in the refusal (a `Said`, or text shown as it is)."""
    if amount < 0:
        raise IllegalAction(said("{what}: a payment cannot be negative (got {amount})",
                                 what=what, amount=amount))
    if amount > coins:
        raise IllegalAction(said_n("{who} cannot afford {what}: it costs {n} coin and they "
                                   "have fewer",
                                   "{who} cannot afford {what}: it costs {n} coins and they "
                                   "have fewer", amount, who=who, what=what))
    return coins - amount


def change_for(amount: int, coin_values: Sequence[int]) -> dict[int, int]:
    """The fewest coins of the given values that add up to `amount`.

    Returns {value: count} with only the values used, largest first. With the game's
    coins (10, 5, 3, 1) every amount can be made.
    """
    if amount < 0:
        raise IllegalAction(said("an amount of coins cannot be negative (got {amount})",
                                 amount=amount))
    values = sorted(set(coin_values), reverse=True)
    if not values or min(values) < 1:
        raise IllegalAction(said("coin values must be positive whole numbers (got {values})",
                                 values=str(list(coin_values))))
    # fewest[a] = fewest pieces making a; last[a] = the value added last on that path.
    fewest = [0] + [amount + 1] * amount
    last = [0] * (amount + 1)
    for a in range(1, amount + 1):
        for v in values:
            if v <= a and fewest[a - v] + 1 < fewest[a]:
                fewest[a] = fewest[a - v] + 1
                last[a] = v
    if amount and fewest[amount] > amount:
        raise IllegalAction(said("{amount} cannot be made from coins of {values}",
                                 amount=amount, values=str(values)))
    pieces: dict[int, int] = {}
    a = amount
    while a:
        pieces[last[a]] = pieces.get(last[a], 0) + 1
        a -= last[a]
    return {v: pieces[v] for v in values if v in pieces}
