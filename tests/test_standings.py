"""End of the game: the most coins wins; a tie for first goes to the most tokens on the board."""

from __future__ import annotations

import pytest

from companion.rules.board import Occupant, RegionState
from companion.rules.errors import IllegalAction
from companion.rules.standings import Placing, final_standings, needs_token_count, tokens_on_board

NAMES = {0: "Ann", 1: "Bo", 2: "Cy", 3: "Di"}


def test_the_player_with_the_most_coins_wins() -> None:
    result = final_standings({0: 40, 1: 52, 2: 31}, names=NAMES)
    assert result.winners == {1}
    assert [p.seat for p in result.placings] == [1, 0, 2]
    assert [p.rank for p in result.placings] == [1, 2, 3]
    assert str(result.reason) == "Bo wins with 52 coins"


def test_without_a_tie_for_first_nobody_is_asked_to_count_tokens() -> None:
    assert needs_token_count({0: 40, 1: 52, 2: 40}) == frozenset()
    result = final_standings({0: 40, 1: 52, 2: 40})
    assert all(p.tokens is None for p in result.placings)


def test_a_tie_for_first_asks_only_the_tied_players_for_their_tokens() -> None:
    assert needs_token_count({0: 52, 1: 52, 2: 31}) == {0, 1}


def test_a_tie_for_first_goes_to_the_most_race_tokens_on_the_board() -> None:
    result = final_standings({0: 52, 1: 52, 2: 31}, tokens={0: 9, 1: 12}, names=NAMES)
    assert result.winners == {1}
    assert result.placings[0] == Placing(1, 1, 52, 12)
    assert result.placings[1] == Placing(2, 0, 52, 9)
    assert "Bo wins with 12 race tokens" in str(result.reason)
    assert "Ann: 9" in str(result.reason)


def test_a_tie_on_coins_and_tokens_is_a_shared_win() -> None:
    result = final_standings({0: 52, 1: 52, 2: 52}, tokens={0: 9, 1: 12, 2: 12}, names=NAMES)
    assert result.winners == {1, 2}
    assert result.shared
    assert [p.rank for p in result.placings] == [1, 1, 3]
    assert "share the win" in str(result.reason)


def test_a_tie_for_first_cannot_be_decided_without_the_token_counts() -> None:
    with pytest.raises(IllegalAction, match="Bo"):
        final_standings({0: 52, 1: 52}, tokens={0: 9}, names=NAMES)


def test_token_counts_nobody_needed_are_ignored() -> None:
    result = final_standings({0: 52, 1: 40}, tokens={1: 30})
    assert result.winners == {0}
    assert result.placings[1].tokens is None


def test_a_tie_below_first_place_is_a_shared_place() -> None:
    result = final_standings({0: 52, 1: 40, 2: 40, 3: 12})
    assert [(p.seat, p.rank) for p in result.placings] == [(0, 1), (1, 2), (2, 2), (3, 4)]


def test_negative_coins_or_tokens_are_refused() -> None:
    with pytest.raises(IllegalAction):
        final_standings({0: -1, 1: 3})
    with pytest.raises(IllegalAction):
        final_standings({0: 3, 1: 3}, tokens={0: -2, 1: 1})


def test_a_token_count_for_a_seat_not_playing_is_refused() -> None:
    with pytest.raises(IllegalAction, match="seat 7"):
        final_standings({0: 3, 1: 3}, tokens={0: 1, 1: 1, 7: 4})


def test_tokens_on_board_adds_active_and_declined_tokens() -> None:
    state = {
        1: RegionState(occupant=Occupant(0, "Orcs", False, 3)),
        2: RegionState(occupant=Occupant(0, "Humans", True, None)),
        3: RegionState(occupant=Occupant(1, "Elves", False, 5)),
        4: RegionState(lost_tribe=True),
    }
    assert tokens_on_board(state, 0) == 4
    assert tokens_on_board(state, 1) == 5
    assert tokens_on_board(state, 2) == 0


def test_tokens_on_board_is_unknown_when_an_active_count_is_missing() -> None:
    state = {1: RegionState(occupant=Occupant(0, "Orcs", False, None))}
    assert tokens_on_board(state, 0) is None
