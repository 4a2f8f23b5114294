"""Snapshots: the state saved with each end of turn shortens the replay of a game in
progress, gives the very history the whole replay gives, and is used only when it belongs
to the log on disk and to these rules."""

from __future__ import annotations

import logging
import pickle
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
import team_support
from factories import created, play_turn
from river_support import end_turns, river_session
from test_necromancer_game import game as necromancer_game
from test_necromancer_game import ghosts_hold_21_and_22, his_turn, to_his_turn

from bench.scripted import ScriptedPlayer, seats
from companion.rules.catalog import load_catalog
from companion.rules.events import StepUndone, TurnEnded
from companion.rules.history import Step, replay
from companion.session import Session
from companion.store import Store, snapshots


def scripted_5p() -> Session:
    s = Session(load_catalog(), rng=random.Random(17))
    s.new_game(seats(5), first_seat=0)
    player = ScriptedPlayer(s, random.Random(18), undo_rate=0.2)
    while not s.state.is_over:
        player.intent()
    return s


def river_world() -> Session:
    s = river_session()
    end_turns(s, 7)
    return s


def team_play() -> Session:
    s = team_support.session()
    team_support.play_to_the_end(s, {seat: 9 - seat for seat in range(len(s.state.players))})
    return s


def necromancer() -> Session:
    s = necromancer_game()
    to_his_turn(s)
    ghosts_hold_21_and_22(s)
    for _ in range(2):
        to_his_turn(s)
        his_turn(s)
    return s


def turn_ends(log: tuple[Step, ...]) -> list[int]:
    return [n for n, step in enumerate(log, start=1)
            if any(isinstance(event, TurnEnded) for event in step)]


def places_in_force(log: tuple[Step, ...]) -> dict[int, int]:
    """For each step of the log: where it stands among the steps in force when recorded
    (an undo step takes back the latest)."""
    places, standing = {}, 0
    for n, step in enumerate(log, start=1):
        if step == (StepUndone(),):
            standing -= 1
        else:
            places[n], standing = standing, standing + 1
    return places


@pytest.mark.parametrize("play", [scripted_5p, river_world, team_play, necromancer],
                         ids=lambda f: f.__name__)
def test_every_end_of_turns_snapshot_replays_to_the_same_history(
        play: Callable[[], Session]) -> None:
    """For every turn's end of whole games (the base game with undo, River World, teams,
    the Necromancer), the state saved before it, read back, starts a replay that gives
    the states of the whole replay: those it holds at once and (every fifth end) those
    made when asked."""
    s = play()
    assert s.history is not None
    log, catalog = s.history.log, s.catalog
    whole = replay(log, catalog)
    ends, places = turn_ends(log), places_in_force(log)
    assert len(ends) >= 7
    for n in ends:
        before = whole.states[places[n] - 1]  # a turn's end is never undone
        saved = snapshots.decode(snapshots.encode(before), catalog)
        assert saved == before and saved.catalog is catalog
        again = replay(log, catalog, snapshot=(n, saved))
        first = again.states.first
        assert first == places[n] - 1 and first > 0
        assert tuple(again.states[first:]) == tuple(whole.states[first:])  # held
        assert again.log == whole.log and again.in_force == whole.in_force
    for n in ends[::5]:  # the states before a snapshot, made when asked for
        again = replay(log, catalog, snapshot=(n, whole.states[places[n] - 1]))
        assert again.states.first and again == whole


def test_a_snapshot_of_a_step_not_in_force_is_not_used() -> None:
    s = Session(load_catalog(), rng=random.Random(3))
    s.begin(created(3))
    play_turn(s)
    s.pick(0)
    s.undo()
    assert s.history is not None
    log = s.history.log
    undone = len(log) - 1  # the pick: taken back by the undo after it
    again = replay(log, s.catalog, snapshot=(undone, s.history.state))
    assert again.states.first == 0 and again == s.history


def open_session(path: Path, later: Callable[[Callable[[], None]], None] | None = None,
                 ) -> Session:
    return Session(rng=random.Random(1), store=Store.open(path), later=later)


def played(path: Path, turns: int = 4) -> Session:
    s = open_session(path)
    s.begin(created(3))
    for turn in range(turns):
        play_turn(s, coins=turn % 2)
    if s.state.current.active is None:  # a step after the last end of turn
        s.pick(0)
    s.finish_conquests()
    assert s.store is not None
    s.store.close()
    return s


def test_a_game_in_progress_is_resumed_from_its_last_turns_snapshot(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    s = played(path)
    assert s.history is not None
    again = open_session(path)
    assert again.resume() == s.state
    assert again.history == s.history  # undo history and every state, as played
    assert again.history is not None and again.history.states.first > 0
    ends = turn_ends(s.history.log)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT step FROM snapshots").fetchall() == [(ends[-1],)]
    assert again.store is not None
    assert again.store.load_history(again.game_id or 0).states.first > 0  # resumed again
    again.store.close()


def test_the_snapshot_waits_for_the_frame_after_and_goes_into_the_backup(
        tmp_path: Path) -> None:
    waiting: list[Callable[[], None]] = []
    path = tmp_path / "games.sqlite3"
    s = open_session(path, later=waiting.append)
    s.begin(created(2))
    play_turn(s)
    assert s.store is not None and len(waiting) == 1
    count = "SELECT count(*) FROM snapshots"
    assert s.store.conn.execute(count).fetchone() == (0,)
    waiting.pop()()
    assert s.store.conn.execute(count).fetchone() == (1,)
    (backup,) = s.store.backups()
    with sqlite3.connect(backup) as conn:
        assert conn.execute(count).fetchone() == (1,)
    s.store.close()


def spoil(column: str, value: object) -> Callable[[sqlite3.Connection], None]:
    def spoiling(conn: sqlite3.Connection) -> None:
        conn.execute(f"UPDATE snapshots SET {column} = ?", (value,))
    return spoiling


class _Opens:
    """A pickle that opens (creates) a file when it is read: what a crafted file does."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return open, (str(self.path), "w")


@pytest.mark.parametrize(("spoiled", "why"), [
    (spoil("rules", "0" * 64), "saved by other rules"),
    (spoil("events", 3), "holds other events"),
    (spoil("last", "0" * 64), "recorded otherwise"),
    (spoil("step", 10_000), "is not in the log"),
    (spoil("state", b"\x80\x05not a pickle"), "not a saved state"),
    (spoil("state", pickle.dumps([1, 2])), "not a saved state"),
], ids=["other rules", "other events", "other last step", "step past the log",
        "damaged", "not a state"])
def test_a_snapshot_that_is_not_this_logs_is_not_used_and_the_game_is_replayed(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        spoiled: Callable[[sqlite3.Connection], None], why: str) -> None:
    path = tmp_path / "games.sqlite3"
    s = played(path)
    with sqlite3.connect(path) as conn:
        spoiled(conn)
    caplog.set_level(logging.INFO, logger="companion.store.snapshots")
    again = open_session(path)
    assert again.resume() == s.state and again.history == s.history
    assert again.history is not None and again.history.states.first == 0
    assert why in caplog.text
    assert again.store is not None
    again.store.close()


def test_a_crafted_snapshot_builds_nothing_but_the_rules_classes(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "games.sqlite3"
    s = played(path)
    opened = tmp_path / "opened-by-the-snapshot"
    with sqlite3.connect(path) as conn:
        spoil("state", pickle.dumps(_Opens(opened)))(conn)
    caplog.set_level(logging.INFO, logger="companion.store.snapshots")
    again = open_session(path)
    assert again.resume() == s.state
    assert not opened.exists()
    assert "io.open is not one of the rules' classes" in caplog.text
    assert again.store is not None
    again.store.close()


def test_a_finished_game_keeps_no_snapshot(tmp_path: Path) -> None:
    s = open_session(tmp_path / "games.sqlite3")
    s.begin(created(2))
    for turn in range(20):
        play_turn(s, coins=turn % 3)
    assert s.store is not None
    assert s.store.conn.execute("SELECT count(*) FROM snapshots").fetchone() == (1,)
    s.finish()
    assert s.store.conn.execute("SELECT count(*) FROM snapshots").fetchone() == (0,)
    assert s.game_id is not None
    s.store.save_snapshot(s.game_id, 2, s.state)  # too late: the game is closed
    assert s.store.conn.execute("SELECT count(*) FROM snapshots").fetchone() == (0,)
    s.store.close()
