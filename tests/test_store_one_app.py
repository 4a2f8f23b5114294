"""One app per saved-games file: a lock beside the database, and a step saved only as the
next one of the game on disk.

Real processes on one real SQLite file: the lock is the operating system's, so it is
tested across processes (and released when a process is killed).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from factories import created, play_turn

from companion.commands.run import EX_TEMPFAIL
from companion.rules.catalog import load_catalog
from companion.rules.history import replay
from companion.session import Session
from companion.store import Store, StoreWriteError
from companion.store.errors import DatabaseInUse, StepConflict
from companion.store.lock import holder, lock_path

CATALOG = load_catalog()

HOLDER = """
import sys
from pathlib import Path
from companion.store import Store
store = Store.open(Path(sys.argv[1]))
print("LOCKED", flush=True)
sys.stdin.read()  # held until the test closes our input (or kills us)
store.close()
"""


def hold_in_another_process(db: Path) -> subprocess.Popen[str]:
    child = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "LOCKED"
    return child


def saved_game(db: Path) -> int:
    with Store.open(db, catalog=CATALOG) as store:
        s = Session(CATALOG, rng=random.Random(2), store=store)
        s.begin(created(3))
        play_turn(s, coins=2)
        assert s.game_id is not None
        return s.game_id


def test_a_second_app_on_the_same_file_is_refused_naming_the_process_that_holds_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "companion.sqlite3"
    saved_game(db)
    child = hold_in_another_process(db)
    try:
        with pytest.raises(DatabaseInUse) as refused:
            Store.open(db, catalog=CATALOG)
        assert refused.value.pid == child.pid
        assert f"process {child.pid}" in str(refused.value)
        assert "\n" not in str(refused.value)
        assert holder(db) == child.pid
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(timeout=60)
    with Store.open(db, catalog=CATALOG) as store:  # free again once the first one closed
        assert store.unfinished_game() is not None
        assert holder(db) == os.getpid()


def test_the_lock_dies_with_a_killed_app_and_its_file_is_kept(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    child = hold_in_another_process(db)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=60)
    assert lock_path(db).exists()
    with Store.open(db, catalog=CATALOG) as store:
        assert store.quick_check() == []
    assert lock_path(db).exists()  # never deleted: only its pid is cleared


def test_two_stores_in_one_process_are_refused_too(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    with Store.open(db, catalog=CATALOG), pytest.raises(DatabaseInUse):
        Store.open(db, catalog=CATALOG)


def test_a_reading_tool_opens_the_file_while_the_app_holds_it(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id = saved_game(db)
    with Store.open(db, catalog=CATALOG) as app_store, \
            Store.open(db, recover=False, exclusive=False, catalog=CATALOG) as tool:
        assert tool.steps(game_id) == app_store.steps(game_id)


def test_a_second_companion_run_exits_75_with_one_line_naming_the_holder(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    saved_game(db)
    child = hold_in_another_process(db)
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
           "KIVY_HOME": str(tmp_path / "kivy"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    try:
        run = subprocess.run([sys.executable, "-m", "companion", "run", "--db", str(db)],
                             capture_output=True, text=True, timeout=120, env=env)
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(timeout=60)
    assert run.returncode == EX_TEMPFAIL == 75  # "try again later", not a failure
    lines = [line for line in run.stderr.splitlines() if line.startswith("companion:")]
    assert "[Window" not in run.stderr  # refused before any window opened
    assert len(lines) == 1, run.stderr[-2000:]
    assert f"in use by another companion app (process {child.pid})" in lines[0]
    assert "Traceback" not in run.stderr


def test_two_sessions_on_one_file_never_both_save_a_step(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id = saved_game(db)
    first = Store.open(db, catalog=CATALOG, exclusive=False)
    second = Store.open(db, catalog=CATALOG, exclusive=False)
    try:
        ann = Session(CATALOG, rng=random.Random(3), store=first)
        bob = Session(CATALOG, rng=random.Random(4), store=second)
        assert ann.resume() is not None and bob.resume() is not None
        steps = first.steps(game_id)
        play_turn(ann, coins=1)  # saved: the game on disk moves on
        saved = first.load_log(game_id)
        assert len(saved) > steps
        assert bob.history is not None
        before = bob.history
        with pytest.raises(StepConflict) as refused:
            play_turn(bob, coins=5)  # from its stale view of the game
        assert isinstance(refused.value, StoreWriteError)
        assert refused.value.reason == "conflict"
        assert "another companion app saved to the same file" in str(refused.value)
        assert bob.history is before  # the refused step is not shown as played
        assert second.load_log(game_id) == saved  # nothing of it reached the file
        replay(second.load_log(game_id), CATALOG)  # and the log still replays
    finally:
        first.close()
        second.close()


def test_a_step_with_the_wrong_number_is_refused_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id = saved_game(db)
    with Store.open(db, catalog=CATALOG) as store:
        log = store.load_log(game_id)
        steps = store.steps(game_id)
        with pytest.raises(StepConflict):
            store.append_step(game_id, log[-1], number=steps)  # already taken
        with pytest.raises(StepConflict):
            store.append_step(game_id, log[-1], number=steps + 2)  # a gap
        assert store.steps(game_id) == steps and store.load_log(game_id) == log
