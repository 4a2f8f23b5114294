"""What each viewer may see: no purse total on the shared screen."""

from __future__ import annotations

import dataclasses

import pytest
from factories import play_turn, session

from companion.rules.errors import IllegalAction
from companion.rules.views import final_totals, own_coins, pick_refusal, public


def _field_names(value: object) -> set[str]:
    names: set[str] = set()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            names.add(f.name)
            names |= _field_names(getattr(value, f.name))
    elif isinstance(value, tuple):
        for v in value:
            names |= _field_names(v)
    return names


def test_the_public_view_carries_no_purse_total() -> None:
    s = session(players=3)
    play_turn(s, row=2, coins=4)
    view = public(s.state)
    names = _field_names(view)
    assert "players" in names and "market" in names
    assert not {"coins_issued", "purse", "total"} & names
    # the only "coins" are those lying on market rows, which all can see
    assert all(not hasattr(p, "coins") for p in view.players)


def test_the_public_view_shows_whose_turn_and_the_market_costs() -> None:
    s = session(players=3, first_seat=1)
    view = public(s.state)
    assert view.current_seat == 1 and view.players[1].is_current
    assert [r.cost for r in view.market] == [0, 1, 2, 3, 4, 5]
    assert view.phase.value == "pick a combo" and not view.may_decline


def test_may_decline_is_true_only_at_the_start_of_a_turn_with_an_active_race() -> None:
    s = session(players=2)
    play_turn(s)
    play_turn(s)
    assert public(s.state).may_decline
    s.finish_conquests()
    assert not public(s.state).may_decline


def test_a_player_peeks_at_their_own_total() -> None:
    s = session(players=2)
    play_turn(s, row=3, coins=2)
    assert own_coins(s.state, 0) == 5 - 3 + 2


def test_totals_are_revealed_only_when_the_game_is_over() -> None:
    s = session(players=2)
    with pytest.raises(IllegalAction, match="only at the end"):
        final_totals(s.state)
    for _ in range(20):
        play_turn(s, coins=1)
    assert final_totals(s.state) == (("Ann", 5 + 10), ("Bob", 5 + 10))


def test_pick_refusal_says_why_a_row_cannot_be_taken() -> None:
    s = session(players=2)
    s.adjust_coins(0, -3, "test")
    assert pick_refusal(s.state, 2) is None
    refusal = pick_refusal(s.state, 3)
    assert refusal is not None and "cannot afford" in str(refusal)
