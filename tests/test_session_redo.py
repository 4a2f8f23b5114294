"""Redo: the step undo took back, put back exactly (the same events, the same die faces),
saved like any step, possible only while nothing else happened since the undo."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from factories import created, final_target, play_turn, session
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rules_properties import legal_moves

from companion.rules.catalog import load_catalog
from companion.rules.errors import IllegalAction
from companion.rules.events import DieRolled, StepUndone
from companion.rules.game import GameState, attacker
from companion.rules.history import replay
from companion.session import Session
from companion.store import Store
from companion.store.errors import StoreWriteError


class NoDraws(random.Random):
    """A generator that fails the test if anything is drawn from it (redo draws nothing)."""

    armed = False

    def random(self) -> float:
        assert not self.armed, "redo drew something at random"
        return super().random()

    def getrandbits(self, k: int) -> int:
        assert not self.armed, "redo drew something at random"
        return super().getrandbits(k)


def held(s: Session, region: int) -> bool:
    """Whether Ann (seat 0) holds `region`."""
    occupant = s.state.regions[region].occupant
    return occupant is not None and occupant.seat == 0


def berserk_game(path: Path) -> tuple[Session, NoDraws]:
    """Ann's Berserk Ratmen have rolled the die and taken a region with its face."""
    rng = NoDraws(3)
    s = Session(load_catalog(), rng=rng, store=Store.open(path))
    s.begin(created(2, races=("Ratmen",), powers=("Berserk",)))
    s.pick(0)
    return s, rng


def test_undo_then_redo_is_the_state_before_the_undo_saved_and_replayed(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    s, rng = berserk_game(path)
    face = s.roll_for_berserk()
    region, _ = final_target(s)
    s.conquer(region)
    assert s.history is not None and s.store is not None and s.game_id is not None
    before, conquest = s.state, s.history.last_step
    coins = [p.coins for p in before.players]

    rng.armed = True
    s.undo()
    assert not held(s, region)
    assert attacker(s.state).berserk_roll == face  # the roll stays, waiting for a conquest
    assert s.redo_steps == (conquest,)
    s.redo()
    rng.armed = False

    assert s.state == before
    assert [p.coins for p in s.state.players] == coins
    assert held(s, region)
    log = s.history.log
    assert log[-2:] == ((StepUndone(),), conquest)  # the same events, a step of their own
    assert sum(isinstance(e, DieRolled) for step in log for e in step) == 1  # never re-rolled
    assert s.redo_steps == ()

    saved = s.store.load_log(s.game_id)
    assert tuple(saved) == log
    assert replay(saved, s.catalog) == s.history
    s.store.close()
    again = Session(load_catalog(), store=Store.open(path))
    assert again.resume() == before
    assert again.history == s.history
    assert again.redo_steps == ()  # the offer is gone after a restart; nothing is wrong
    assert again.store is not None
    again.store.close()


def test_undos_in_a_row_stack_and_redo_goes_forward_in_order(tmp_path: Path) -> None:
    s = Session(load_catalog(), rng=random.Random(0), store=Store.open(tmp_path / "g.sqlite3"))
    s.begin(created(3))
    play_turn(s, row=2, coins=3)
    s.pick(1)
    s.finish_conquests()
    assert s.history is not None
    states = [s.state]
    s.undo()  # the end of the conquests
    states.append(s.state)
    s.undo()  # the pick
    assert len(s.redo_steps) == 2
    s.redo()
    assert s.state == states[1]
    assert len(s.redo_steps) == 1
    s.redo()
    assert s.state == states[0]
    with pytest.raises(IllegalAction, match="nothing to redo"):
        s.redo()
    assert s.store is not None
    assert replay(s.store.load_log(s.game_id or 0), s.catalog) == s.history
    s.store.close()


def test_any_new_step_after_an_undo_ends_the_redo_offer() -> None:
    s = Session(load_catalog(), rng=random.Random(0))
    s.begin(created(3))
    s.pick(0)
    s.undo()
    assert s.redo_steps
    s.pick(1)
    assert s.redo_steps == ()
    history = s.history
    with pytest.raises(IllegalAction, match="nothing to redo"):
        s.redo()
    assert s.history is history  # refused: nothing changed


def test_a_refused_undo_keeps_its_reason_and_offers_no_redo() -> None:
    s = Session(load_catalog(), rng=random.Random(0))
    s.begin(created(2, races=("Ratmen",), powers=("Berserk",)))
    s.pick(0)
    s.roll_for_berserk()
    with pytest.raises(IllegalAction, match="cannot be undone: a die roll"):
        s.undo()
    assert s.redo_steps == ()


def test_listeners_see_the_redo_offer_with_the_state_published() -> None:
    s = Session(load_catalog(), rng=random.Random(0))
    s.begin(created(3))
    s.pick(0)
    seen: list[int] = []
    s.subscribe(lambda _state: seen.append(len(s.redo_steps)))
    s.undo()
    s.redo()
    assert seen == [1, 0]


def test_a_redo_not_saved_changes_nothing_and_can_be_tried_again(tmp_path: Path) -> None:
    s = Session(load_catalog(), rng=random.Random(0), store=Store.open(tmp_path / "g.sqlite3"))
    s.begin(created(3))
    s.pick(0)
    s.undo()
    assert s.store is not None
    history, steps = s.history, s.redo_steps
    s.store.conn.execute("PRAGMA query_only=ON")  # the database refuses every write
    with pytest.raises(StoreWriteError):
        s.redo()
    assert s.history is history and s.redo_steps == steps
    s.store.conn.execute("PRAGMA query_only=OFF")
    s.redo()
    assert s.redo_steps == ()
    s.store.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**16), data=st.data())
def test_random_play_with_undo_and_redo_puts_back_exactly_and_replays(
    players: int, seed: int, data: st.DataObject
) -> None:
    s = session(players=players, seed=seed, first_seat=seed % players)
    undone: list[GameState] = []  # the state before each undo the redo offer holds
    for _ in range(data.draw(st.integers(1, 120), label="steps")):
        if s.state.is_over:
            break
        moves = legal_moves(s, data)
        if s.redo_steps:
            moves += [("redo", s.redo)] * 3
        name, move = data.draw(st.sampled_from(moves), label="move")
        before = s.state
        move()
        if name == "undo":
            undone.append(before)
        elif name == "redo":
            assert s.state == undone.pop()
        elif s.history is not None and len(s.history.log) > 1 and s.state is not before:
            undone.clear()
        assert len(s.redo_steps) == len(undone)
    assert s.history is not None
    assert replay(s.history.log, s.catalog) == s.history


def test_a_new_game_or_a_resume_ends_the_redo_offer(tmp_path: Path) -> None:
    s = Session(load_catalog(), rng=random.Random(0), store=Store.open(tmp_path / "g.sqlite3"))
    s.begin(created(3))
    s.pick(0)
    s.undo()
    assert s.redo_steps
    s.resume()  # the same game read back from the file: the offer does not survive it
    assert s.redo_steps == ()
    s.pick(0)
    s.undo()
    s.begin(created(3))
    s.pick(0)
    s.undo()
    s.begin(created(3))
    assert s.redo_steps == ()
    assert s.store is not None
    s.store.close()
