"""The session with a real SQLite store: saved before shown, resumed exactly, backed up."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from factories import created, play_turn

from companion.session import Session
from companion.store import Store
from companion.store.errors import StoreWriteError


def open_session(path: Path, seed: int = 1) -> Session:
    return Session(rng=random.Random(seed), store=Store.open(path))


def test_a_game_comes_back_exactly_where_it_was_left(tmp_path: Path) -> None:
    s = open_session(tmp_path / "games.sqlite3")
    s.begin(created(3))
    play_turn(s, row=2, coins=3)
    s.pick(1)
    s.conquer(1 if s.state.map.region(1).entry else 2)
    s.undo()
    s.finish_conquests()
    assert s.store is not None
    s.store.close()

    again = open_session(tmp_path / "games.sqlite3")
    resumed = again.resume()
    assert resumed == s.state
    assert again.history == s.history  # the undo history comes back too
    again.undo()  # and undo goes on working after the restart
    assert again.state.track.phase.value == "conquer"


def test_a_failed_save_changes_nothing_and_says_what_to_do(tmp_path: Path) -> None:
    s = open_session(tmp_path / "games.sqlite3")
    s.begin(created(3))
    before, history = s.state, s.history
    assert s.store is not None
    s.store.conn.execute("PRAGMA query_only=ON")  # the database refuses every write
    with pytest.raises(StoreWriteError, match=r"was not saved.*Nothing was changed"):
        s.pick(0)
    assert s.state == before and s.history is history
    s.store.conn.execute("PRAGMA query_only=OFF")
    s.pick(0)
    s.store.close()
    assert open_session(tmp_path / "games.sqlite3").resume() == s.state


def test_a_backup_is_taken_at_the_end_of_every_turn(tmp_path: Path) -> None:
    s = open_session(tmp_path / "games.sqlite3")
    s.begin(created(2))
    assert s.store is not None
    assert s.store.backups() == []
    play_turn(s)
    assert len(s.store.backups()) == 1


def test_a_turns_backup_waits_for_the_work_the_caller_runs_later(tmp_path: Path) -> None:
    """The app hands the backup to the frame after the one showing the new turn: the
    step is saved at once, the backup when that work runs."""
    waiting: list[Callable[[], None]] = []
    path = tmp_path / "games.sqlite3"
    s = Session(store=Store.open(path), rng=random.Random(1), later=waiting.append)
    s.begin(created(2))
    assert s.store is not None
    play_turn(s)
    assert s.store.backups() == [] and len(waiting) == 1
    assert s.store.steps(s.game_id or 0) == len(s.history.log if s.history else ())
    waiting.pop()()
    assert len(s.store.backups()) == 1


def test_nothing_to_resume_without_an_unfinished_game(tmp_path: Path) -> None:
    assert open_session(tmp_path / "games.sqlite3").resume() is None


def test_a_finished_game_goes_into_the_history_with_its_standings(tmp_path: Path) -> None:
    s = open_session(tmp_path / "games.sqlite3")
    s.begin(created(2))
    for turn in range(20):
        play_turn(s, coins=turn % 3)
    assert s.state.is_over and s.tied_for_first() == frozenset()
    standings = s.finish()
    assert s.store is not None
    summary = s.store.game_summary(s.game_id or 0)
    assert summary is not None
    # Ann scored 0,2,1,0,2,1,0,2,1,0 = 9 and Bob 1,0,2,1,0,2,1,0,2,1 = 10, on top of 5 each
    assert [p.coins for p in s.state.players] == [14, 15]
    assert set(standings.winners) == {1}
    assert s.store.unfinished_game() is None
