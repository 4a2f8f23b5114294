"""A saved game in progress is replayed once at start: `Store.open` replays it to check it,
and `load_history` (what `Session.resume` asks for) hands that history back while the log
is the one replayed (the same game, the same number of steps). Any other game, or a log
with a step more, is replayed as before.

Real SQLite files in the test's folder; replays are counted by wrapping the `replay` the
store module calls.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from factories import created, play_turn

from companion.rules.catalog import load_catalog
from companion.rules.history import History, Step
from companion.rules.history import replay as rules_replay
from companion.session import Session
from companion.store import Store
from companion.store import store as store_module

CATALOG = load_catalog()


class Replays:
    """Every replay the store module asks for: the number of steps of each log."""

    def __init__(self) -> None:
        self.logs: list[int] = []

    def __call__(self, log: Iterable[Step], catalog: object, **snapshot: Any) -> History:
        steps = list(log)
        self.logs.append(len(steps))
        return rules_replay(steps, catalog, **snapshot)  # type: ignore[arg-type]


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Replays:
    counted = Replays()
    monkeypatch.setattr(store_module, "replay", counted)
    return counted


def saved_game(
    db: Path, *, turns: int = 2, players: int = 3, seed: int = 1, coins: int = 2
) -> Session:
    """A game of `players` with `turns` turns played (each scoring `coins`), saved step by
    step in `db`, then mid-turn (a combo picked); the store is closed. Returns the session
    that played it."""
    with Store.open(db, catalog=CATALOG) as store:
        s = Session(CATALOG, rng=random.Random(seed), store=store)
        s.begin(created(players))
        for _ in range(turns):
            play_turn(s, coins=coins)
        s.pick(0)
    return s


def fresh_replay(db: Path, game_id: int) -> History:
    with Store.open(db, catalog=CATALOG, recover=False, exclusive=False) as store:
        return rules_replay(store.load_log(game_id), CATALOG)


def test_opening_and_resuming_a_saved_game_replays_it_once(
    tmp_path: Path, replays: Replays
) -> None:
    db = tmp_path / "games.sqlite3"
    played = saved_game(db)
    with Store.open(db, catalog=CATALOG) as store:
        resumed = Session(CATALOG, rng=random.Random(2), store=store)
        state = resumed.resume()
    assert played.history is not None
    assert replays.logs == [len(played.history.log)]  # the open check's, and only it
    assert state == played.state
    assert resumed.history == played.history  # undo history included


def test_the_history_replayed_at_open_is_handed_back_while_the_log_is_unchanged(
    tmp_path: Path, replays: Replays
) -> None:
    db = tmp_path / "games.sqlite3"
    saved_game(db)
    with Store.open(db, catalog=CATALOG) as store:
        game_id = store.unfinished_game()
        assert game_id is not None
        first = store.load_history(game_id)
        assert store.load_history(game_id) is first  # the Resume offer, then Resume
    assert len(replays.logs) == 1
    assert first == fresh_replay(db, game_id)


def test_a_step_saved_after_open_means_replaying_again(
    tmp_path: Path, replays: Replays
) -> None:
    db = tmp_path / "games.sqlite3"
    saved_game(db)
    with Store.open(db, catalog=CATALOG) as store:
        s = Session(CATALOG, rng=random.Random(3), store=store)
        s.resume()
        s.finish_conquests()  # one more step, saved
        assert s.game_id is not None
        reloaded = store.load_history(s.game_id)
        assert len(replays.logs) == 2
        assert replays.logs[1] == replays.logs[0] + 1
        assert reloaded == s.history
    assert reloaded == fresh_replay(db, s.game_id)


def test_a_step_another_store_saved_since_open_is_never_missed(
    tmp_path: Path, replays: Replays
) -> None:
    db = tmp_path / "games.sqlite3"
    saved_game(db)
    with Store.open(db, catalog=CATALOG) as store:
        game_id = store.unfinished_game()
        assert game_id is not None
        kept = store.load_history(game_id)
        with Store.open(db, catalog=CATALOG, exclusive=False) as other:
            writer = Session(CATALOG, rng=random.Random(4), store=other)
            writer.resume()
            writer.finish_conquests()  # saved by the other store: the first one never saw it
        replays.logs.clear()
        reloaded = store.load_history(game_id)
    assert replays.logs == [len(kept.log) + 1]
    assert reloaded != kept
    assert reloaded == writer.history == fresh_replay(db, game_id)


def test_the_history_kept_is_never_handed_out_for_another_game(
    tmp_path: Path, replays: Replays
) -> None:
    db = tmp_path / "games.sqlite3"
    older = saved_game(db, coins=1)
    newer = saved_game(db, coins=4)  # the one resumed at start
    assert older.game_id is not None and newer.game_id is not None
    assert older.history is not None and newer.history is not None
    # as long as each other: only the game id tells their logs apart
    assert len(older.history.log) == len(newer.history.log)
    replays.logs.clear()
    with Store.open(db, catalog=CATALOG) as store:
        assert store.unfinished_game() == newer.game_id
        other = store.load_history(older.game_id)
        mine = store.load_history(newer.game_id)
    assert replays.logs == [len(mine.log), len(other.log)]  # the older game replayed
    assert other == older.history and mine == newer.history
    assert other.state != mine.state


def test_a_new_game_lets_the_kept_history_go(
    tmp_path: Path, replays: Replays
) -> None:
    db = tmp_path / "games.sqlite3"
    played = saved_game(db)
    assert played.game_id is not None
    with Store.open(db, catalog=CATALOG) as store:
        s = Session(CATALOG, rng=random.Random(8), store=store)
        s.begin(created(2))  # a new game instead of Resume
        again = store.load_history(played.game_id)
    assert len(replays.logs) == 2  # the old game is replayed when asked for after all
    assert again == played.history


def test_a_game_in_progress_that_does_not_replay_still_restores_the_backup_once(
    tmp_path: Path, replays: Replays
) -> None:
    db, backups = tmp_path / "games.sqlite3", tmp_path / "backups"
    with Store.open(db, backups=backups, catalog=CATALOG) as store:
        s = Session(CATALOG, rng=random.Random(9), store=store)
        s.begin(created(3))
        play_turn(s, coins=2)  # a backup at the end of the turn
        at_backup = s.history
        s.pick(0)
        game_id = s.game_id
    assert game_id is not None and at_backup is not None
    assert len(list(backups.iterdir())) == 1
    conn = sqlite3.connect(db)
    with conn:  # the last step is saved twice over: the log no longer replays
        conn.execute("INSERT INTO events (game_id, step, seq, type, v, payload, at) "
                     "SELECT game_id, step + 1, seq, type, v, payload, at FROM events "
                     "WHERE game_id = ? AND step = (SELECT max(step) FROM events "
                     "WHERE game_id = ?)", (game_id, game_id))
    conn.close()
    replays.logs.clear()
    with Store.open(db, backups=backups, catalog=CATALOG) as store:
        assert store.recovery is not None and store.recovery.damaged is not None
        assert store.unfinished_game() == game_id
        resumed = Session(CATALOG, rng=random.Random(10), store=store)
        resumed.resume()
    # the damaged log (refused twice, on fresh connections: damage is found twice before
    # a file is set aside), then the backup restored (kept): nothing more
    assert replays.logs == [len(at_backup.log) + 2] * 2 + [len(at_backup.log)]
    assert resumed.history == at_backup


def test_a_file_found_short_resumes_the_backup_restored_not_the_short_file(
    tmp_path: Path,
) -> None:
    db, backups = tmp_path / "games.sqlite3", tmp_path / "backups"
    with Store.open(db, backups=backups, catalog=CATALOG) as store:
        s = Session(CATALOG, rng=random.Random(11), store=store)
        s.begin(created(3))
        play_turn(s, coins=2)
    short = tmp_path / "short.sqlite3"
    shutil.copyfile(db, short)  # the store closed: everything is in the file itself
    with Store.open(db, backups=backups, catalog=CATALOG) as store:
        s.store = store
        play_turn(s, coins=3)  # the end of the turn: a newer backup holding all of it
    assert s.history is not None and s.game_id is not None
    shutil.copyfile(short, db)  # the steps since lost, as with a lost -wal file
    with Store.open(db, backups=backups, catalog=CATALOG) as store:
        assert store.recovery is not None and store.recovery.lost
        resumed = Session(CATALOG, rng=random.Random(12), store=store)
        resumed.resume()
    assert resumed.history == s.history
