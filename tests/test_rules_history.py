"""Undo and replay: the log of steps, barriers, replay equals the live state."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from factories import play_turn, session

from bench.scripted import ScriptedPlayer, seats
from companion.rules import history as history_module
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


def test_a_log_grown_by_undo_and_redo_replays_by_applying_only_the_steps_in_force(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each undone step left nothing in the state: replay finds the steps in force from
    the undo steps and applies those alone, and gives the history `record` built."""
    s = session(players=3, seed=5)
    s.pick(0)
    for _ in range(30):  # a table that cannot make up its mind
        s.undo()
        s.redo()
    s.finish_conquests() if s.state.track.phase is Phase.CONQUER else None
    assert s.history is not None
    applied: list[object] = []
    real = history_module._apply_all

    def counting(state: object, events: object) -> object:
        applied.append(events)
        return real(state, events)  # type: ignore[arg-type]

    monkeypatch.setattr(history_module, "_apply_all", counting)
    again = replay(s.history.log, s.catalog)
    assert again == s.history
    assert len(s.history.log) > 60
    first, *rest = s.history.in_force  # the first's reveals are applied by `begin`
    assert applied == [first[1:], *rest]


def test_replay_refuses_an_undo_past_a_barrier_even_when_the_log_says_it() -> None:
    s = session(races=("Ratmen",), powers=("Berserk",))
    s.pick(0)
    s.roll_for_berserk()
    assert s.history is not None
    with pytest.raises(IllegalAction):
        replay((*s.history.log, (StepUndone(),)), s.catalog)
