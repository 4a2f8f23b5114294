"""Undo and replay: the log of steps, barriers, replay equals the live state."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from factories import play_turn, session

from bench.scripted import ScriptedPlayer, seats
from companion.rules.catalog import load_catalog
from companion.rules.errors import IllegalAction
from companion.rules.events import BadgesReshuffled, ComboRevealed, StepUndone, is_barrier
from companion.rules.history import replay
from companion.rules.turns import Phase
from companion.session import Session


def test_undo_takes_back_the_last_step_whole() -> None:
    s = session()
    before = s.state
    s.pick(3)  # the pick and the reveal that followed it are one step
    s.undo()
    assert s.state == before


def test_undo_is_recorded_not_erased() -> None:
    s = session()
    s.pick(0)
    s.undo()
    assert s.history is not None
    assert s.history.log[-1] == (StepUndone(),)
    assert len(s.history.log) == 3 and len(s.history.in_force) == 1


def test_undo_stops_at_a_die_roll() -> None:
    s = session(races=("Ratmen",), powers=("Berserk",))
    s.pick(0)
    s.roll_for_berserk()
    with pytest.raises(IllegalAction, match="cannot be undone: a die roll"):
        s.undo()


def test_undo_stops_at_the_end_of_another_players_turn() -> None:
    s = session()
    play_turn(s)
    before = s.state
    with pytest.raises(IllegalAction, match="the end of a turn"):
        s.undo()
    assert s.state == before


def test_undo_goes_back_step_by_step_within_a_turn() -> None:
    s = session()
    s.pick(0)
    s.finish_conquests()
    s.finish_redeployment()
    s.undo()
    assert s.state.track.phase is Phase.REDEPLOY
    s.undo()
    s.undo()
    assert s.state.track.phase is Phase.PICK_COMBO
    with pytest.raises(IllegalAction, match="nothing to undo"):
        s.undo()


def test_the_session_reshuffles_the_discards_when_a_reveal_finds_no_badge() -> None:
    s = session(players=2)
    state = s.state
    market = replace(state.market, rows=state.market.rows[:5], race_stack=("Orcs",),
                     power_stack=(), discarded_powers=("Hill", "Forest", "Swamp"))
    step, after = s._market_follow_ups(replace(state, market=market))
    assert isinstance(step[0], BadgesReshuffled)
    assert sorted(step[0].order) == ["Forest", "Hill", "Swamp"]
    assert step[1] == ComboRevealed("Orcs", step[0].order[0])
    assert is_barrier(step)
    assert (after.market.rows[5].combo.race, after.market.rows[5].combo.power) == (
        "Orcs", step[0].order[0])


def test_replaying_the_log_gives_the_live_state() -> None:
    s = session(players=4, seed=3)
    for turn in range(6):
        play_turn(s, row=turn % 3, coins=turn)
    s.pick(0) if s.state.current.active is None else s.finish_conquests()
    s.undo()
    assert s.history is not None
    again = replay(s.history.log, s.catalog)
    assert again.state == s.state
    assert again == s.history


def test_a_whole_game_replays_to_every_live_state() -> None:
    """The session applies each step once, while working out the reveals it owes, and
    records that state (`History.record(after=...)`): every state it kept must be the one
    the rules give by applying the step again."""
    live = Session(load_catalog(), rng=random.Random(17))
    live.new_game(seats(5), first_seat=0)
    player = ScriptedPlayer(live, random.Random(18))
    while not live.state.is_over:
        player.intent()
    assert live.history is not None
    again = replay(live.history.log, live.catalog)
    assert again.states == live.history.states
    assert len(live.history.log) > 200
