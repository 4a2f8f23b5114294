"""A write the file refuses (read-only, full, locked) says so plainly and changes nothing.

The failures are real ones: a file the process may not write, a database that may not
grow (``max_page_count``, which makes SQLite answer exactly as on a full card), and a lock
held by another connection.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from factories import play_turn, session

from companion.rules.catalog import load_catalog
from companion.rules.events import StepUndone, TurnScored
from companion.session import Session
from companion.store import Store, StoreWriteError

CATALOG = load_catalog()


def saved_game(db: Path) -> tuple[int, Session]:
    s = session(3)
    play_turn(s, row=1, coins=4)
    s.pick(0)
    assert s.history is not None
    with Store.open(db, catalog=CATALOG) as store:
        game_id = store.new_game(s.history.log[0])
        for step in s.history.log[1:]:
            store.append_step(game_id, step)
        store.add_profile("Ann", "blue")
    return game_id, s


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Make `path` unwritable for this process, even when it runs as root."""
    os.chmod(path, 0o444)
    immutable = False
    try:
        if os.access(path, os.W_OK):  # root ignores file modes: mark the file immutable
            chattr = shutil.which("chattr")
            done = chattr and subprocess.run([chattr, "+i", str(path)], capture_output=True)
            if not done or done.returncode != 0:
                pytest.skip("running as root, and this file system cannot make a file immutable")
            immutable = True
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        os.chmod(path, 0o644)


def test_a_read_only_file_gives_a_plain_message_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id, s = saved_game(db)
    assert s.history is not None
    with read_only(db), Store.open(db, catalog=CATALOG) as store:
        assert store.load_log(game_id) == list(s.history.log)  # it can still be read
        s.finish_conquests()
        with pytest.raises(StoreWriteError) as refused:
            store.append_step(game_id, s.history.log[-1])
        assert refused.value.reason == "read-only"
        message = str(refused.value)
        assert message.startswith("The last action was not saved: the saved-games file")
        assert "cannot be written" in message and "Nothing was changed" in message
        assert "never run it as root" in message
        with pytest.raises(StoreWriteError, match="The new game was not saved"):
            store.new_game(s.history.log[0])
        with pytest.raises(StoreWriteError, match="The new player was not saved"):
            store.add_profile("Bob", "orange")
        assert not store.conn.in_transaction
        assert store.load_log(game_id) == list(s.history.log[:-1])
    with Store.open(db, catalog=CATALOG) as store:
        assert store.quick_check() == []
        assert store.load_log(game_id) == list(s.history.log[:-1])
        assert [g.id for g in store.games()] == [game_id]
        assert [p.name for p in store.profiles()] == ["Ann"]


def test_a_full_card_gives_a_plain_message_and_writes_no_part_of_the_step(
    tmp_path: Path,
) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id, s = saved_game(db)
    assert s.history is not None
    big = tuple(TurnScored(0, 1, lines=((f"line {i} " + "x" * 400, 1),)) for i in range(60))
    with Store.open(db, catalog=CATALOG) as store:
        steps = store.steps(game_id)
        (pages,) = store.conn.execute("PRAGMA page_count").fetchone()
        store.conn.execute(f"PRAGMA max_page_count = {pages}")  # the card is full
        with pytest.raises(StoreWriteError) as refused:
            store.append_step(game_id, big)
        assert refused.value.reason == "full"
        assert str(refused.value) == (
            "The last action was not saved: the memory card is full. Nothing was changed. "
            "Free some space on the card (old exports or copies of the saved games can go) "
            "and try again."
        )
        # The step counter was bumped before the rows failed: the rollback undid it too.
        assert store.steps(game_id) == steps
        assert store.load_log(game_id) == list(s.history.log)
        store.conn.execute(f"PRAGMA max_page_count = {pages * 100}")  # space freed
        s.finish_conquests()
        assert store.append_step(game_id, s.history.log[-1]) == steps + 1


def test_a_file_locked_by_another_program_gives_a_plain_message(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    game_id, s = saved_game(db)
    assert s.history is not None
    other = sqlite3.connect(db, isolation_level=None)
    try:
        with Store.open(db, catalog=CATALOG, timeout=0.05) as store:
            other.execute("BEGIN IMMEDIATE")
            with pytest.raises(StoreWriteError) as refused:
                store.append_step(game_id, (StepUndone(),))
            assert refused.value.reason == "locked"
            assert "another program is using the saved-games file" in str(refused.value)
            other.execute("ROLLBACK")
            s.finish_conquests()
            assert store.append_step(game_id, s.history.log[-1]) == len(s.history.log)
            assert store.load_log(game_id) == list(s.history.log)
    finally:
        other.close()
