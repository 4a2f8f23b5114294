"""Purses: never negative, change in real coins, corrections."""

from __future__ import annotations

import pytest
from factories import session

from companion.rules.errors import IllegalAction
from companion.rules.purse import change_for, pay


def test_a_payment_larger_than_the_purse_is_refused() -> None:
    with pytest.raises(IllegalAction, match="Ann cannot afford the Hill Orcs"):
        pay(2, 3, who="Ann", what="the Hill Orcs")


def test_paying_leaves_the_rest() -> None:
    assert pay(5, 3, who="Ann", what="x") == 2


@pytest.mark.parametrize(
    ("amount", "pieces"),
    [(0, {}), (1, {1: 1}), (4, {3: 1, 1: 1}), (6, {5: 1, 1: 1}), (8, {5: 1, 3: 1}),
     (13, {10: 1, 3: 1}), (19, {10: 1, 5: 1, 3: 1, 1: 1}), (30, {10: 3})],
)
def test_change_uses_the_fewest_coins(amount: int, pieces: dict[int, int]) -> None:
    result = change_for(amount, (10, 5, 3, 1))
    assert sum(v * n for v, n in result.items()) == amount
    assert sum(result.values()) == sum(pieces.values())


def test_change_is_optimal_where_greedy_would_not_be() -> None:
    # With coins 4, 3 and 1, greedy makes 6 as 4+1+1; the fewest is 3+3.
    assert change_for(6, (4, 3, 1)) == {3: 2}


def test_change_for_a_negative_amount_is_refused() -> None:
    with pytest.raises(IllegalAction, match="cannot be negative"):
        change_for(-1, (10, 5, 3, 1))


def test_income_goes_into_the_purse_and_comes_from_the_stash() -> None:
    s = session()
    s.pick(0)
    s.finish_conquests()
    s.finish_redeployment()
    s.score(7)
    assert s.state.players[0].coins == 12
    assert s.state.coins_issued == 15 + 7


def test_negative_income_is_refused() -> None:
    s = session()
    s.pick(0)
    s.finish_conquests()
    s.finish_redeployment()
    with pytest.raises(IllegalAction, match="cannot be negative"):
        s.score(-1)


def test_a_correction_cannot_make_a_purse_negative() -> None:
    s = session()
    before = s.state
    with pytest.raises(IllegalAction, match="purse is never negative"):
        s.adjust_coins(1, -6, "Bob paid too much")
    assert s.state == before


def test_a_correction_needs_a_reason() -> None:
    s = session()
    with pytest.raises(IllegalAction, match="say why"):
        s.adjust_coins(1, 2, "  ")
