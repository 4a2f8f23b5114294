"""The turn track and the order of a player's turn."""

from __future__ import annotations

import pytest
from factories import created, play_turn, session
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.catalog import load_catalog
from companion.rules.errors import IllegalAction
from companion.rules.events import Seat
from companion.rules.game import start
from companion.rules.turns import Phase, TurnTrack


def test_the_game_starts_on_turn_one_with_the_first_player_picking_a_combo() -> None:
    s = session(players=3, first_seat=1)
    track = s.state.track
    assert (track.turn, track.turns, track.seat, track.phase) == (1, 10, 1, Phase.PICK_COMBO)


@pytest.mark.parametrize(("players", "turns"), [(2, 10), (3, 10), (4, 9), (5, 8)])
def test_the_number_of_turns_follows_the_board(players: int, turns: int) -> None:
    assert session(players=players).state.track.turns == turns


def test_play_passes_clockwise_and_a_new_game_turn_starts_with_the_first_player() -> None:
    s = session(players=3, first_seat=2)
    seen = []
    for _ in range(4):
        seen.append((s.state.track.turn, s.state.track.seat))
        play_turn(s)
    assert seen == [(1, 2), (1, 0), (1, 1), (2, 2)]


def test_a_player_with_an_active_race_starts_their_turn_conquering() -> None:
    s = session(players=2)
    play_turn(s)
    play_turn(s)
    assert s.state.track.phase is Phase.CONQUER


def test_the_final_turn_is_flagged_and_the_game_ends_after_the_last_seat() -> None:
    s = session(players=2, first_seat=1)
    for _ in range(9 * 2):
        play_turn(s)
    assert s.state.track.turn == 10 and s.state.track.is_final_turn
    play_turn(s)
    assert not s.state.is_over
    play_turn(s)
    assert s.state.is_over and s.state.track.phase is Phase.GAME_OVER
    with pytest.raises(IllegalAction, match="the game is over"):
        s.finish_conquests()


def test_acting_out_of_turn_is_refused_and_changes_nothing() -> None:
    s = session(players=3)
    from companion.rules.events import ComboPicked

    before = s.state
    combo = before.market.rows[0].combo
    with pytest.raises(IllegalAction, match="it is Ann's turn, not Bob's"):
        s._act(ComboPicked(1, 0, combo.race, combo.power))
    assert s.state == before


def test_picking_twice_in_a_turn_is_refused() -> None:
    s = session()
    s.pick(0)
    with pytest.raises(IllegalAction, match="already picked a combo this turn"):
        s.pick(0)


def test_a_player_without_a_race_must_pick_before_conquering() -> None:
    s = session()
    with pytest.raises(IllegalAction, match="cannot finish conquering now; the turn is at: pick"):
        s.finish_conquests()


def test_a_turn_runs_conquer_redeploy_score_then_end() -> None:
    s = session()
    s.pick(0)
    with pytest.raises(IllegalAction, match="cannot score now"):
        s.score(3)
    s.finish_conquests()
    assert s.state.track.phase is Phase.REDEPLOY
    s.finish_redeployment()
    with pytest.raises(IllegalAction, match="cannot end the turn now"):
        s.end_turn()
    s.score(3)
    assert s.state.track.phase is Phase.FINISHED
    s.end_turn()
    assert s.state.track.seat == 1


@pytest.mark.parametrize("players", [1, 6])
def test_a_game_has_two_to_five_players(players: int) -> None:
    event = created(3)
    seats = tuple(Seat(f"P{i}", f"c{i}") for i in range(players))
    from dataclasses import replace

    with pytest.raises(IllegalAction, match="2 to 5 players"):
        start(replace(event, seats=seats), load_catalog())


def test_players_need_distinct_names_and_colours() -> None:
    from dataclasses import replace

    event = created(2)
    with pytest.raises(IllegalAction, match="same name"):
        start(replace(event, seats=(Seat("Ann", "red"), Seat("ann", "blue"))), load_catalog())
    with pytest.raises(IllegalAction, match="colour of their own"):
        start(replace(event, seats=(Seat("Ann", "red"), Seat("Bob", "red"))), load_catalog())


def test_the_board_must_match_the_player_count() -> None:
    from dataclasses import replace

    with pytest.raises(IllegalAction, match="the 3p board is for 3 players"):
        start(replace(created(2), board="3p"), load_catalog())


def test_the_decks_must_hold_the_chosen_expansions_banners_once() -> None:
    from dataclasses import replace

    event = created(2)
    with pytest.raises(IllegalAction, match="missing: Amazons"):
        start(replace(event, races=tuple(r for r in event.races if r != "Amazons")),
              load_catalog())


def test_each_player_starts_with_five_coins() -> None:
    s = session(players=4)
    assert [p.coins for p in s.state.players] == [5, 5, 5, 5]


def test_a_banner_listed_twice_in_the_deck_is_named() -> None:
    from dataclasses import replace

    event = created(2)
    races = (event.races[1], *event.races[1:])
    with pytest.raises(IllegalAction, match=f"more than once: {event.races[1]}"):
        start(replace(event, races=races), load_catalog())


@given(players=st.integers(2, 5), turns=st.integers(1, 10), data=st.data())
def test_turns_ended_at_once_move_the_track_as_each_end_of_turn_does(
    players: int, turns: int, data: st.DataObject
) -> None:
    first = data.draw(st.integers(0, players - 1), label="first seat")
    track = TurnTrack(turn=data.draw(st.integers(1, turns), label="turn"), turns=turns,
                      players=players, first_seat=first,
                      seat=data.draw(st.integers(0, players - 1), label="seat"),
                      phase=data.draw(st.sampled_from(Phase), label="phase"))
    ended = data.draw(st.integers(0, players * turns + 3), label="turns ended")
    one_by_one = track
    for _ in range(ended):
        if one_by_one.is_over:
            break
        one_by_one = one_by_one.passed(Phase.PICK_COMBO)
    assert track.after_turns(ended) == one_by_one
