"""A passing fault at open is not damage: an I/O error, a busy or locked file, a file not
opened just then are tried again, and when they persist the table plays without saving,
told why; the sound file is never set aside, and no backup goes back in time over it."""

from __future__ import annotations

import logging
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from app_probe import run_probe
from factories import created, play_turn

from companion.session import Session
from companion.store import Store, recovery
from companion.store.errors import StoreOpenError

FAULTS = {  # what SQLite answers, with its primary or extended result code
    "I/O": ("disk I/O error", 10),
    "I/O while reading": ("disk I/O error", 10 | 1 << 8),  # SQLITE_IOERR_READ
    "busy": ("database is locked", 5),
    "locked": ("database table is locked", 6),
    "cannot open": ("unable to open database file", 14),
}
TOLD = {"busy": "in use by another program", "locked": "in use by another program"}
"""What the table is told when the fault persists: SQLite's own words, but for a file
another program holds."""


def fault(name: str) -> sqlite3.OperationalError:
    words, code = FAULTS[name]
    error = sqlite3.OperationalError(words)
    error.sqlite_errorcode = code  # type: ignore[attr-defined]
    return error


def saved(tmp_path: Path) -> tuple[Path, int]:
    """A game with a backup (its first turn's end) and one more step: the steps saved."""
    db = tmp_path / "games.sqlite3"
    s = Session(rng=random.Random(4), store=Store.open(db))
    s.begin(created(3))
    play_turn(s)
    s.pick(0)
    assert s.store is not None and len(s.store.backups()) == 1
    steps = s.store.steps(s.game_id or 0)
    s.store.close()
    return db, steps


def failing(times: int, error: Callable[[], Exception],
            real: Callable[..., Any]) -> Callable[..., Any]:
    """`real`, raising `error()` the first `times` calls (every call: times < 0)."""
    calls = [0]

    def call(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if times < 0 or calls[0] <= times:
            raise error()
        return real(*args, **kwargs)

    return call


def set_aside(db: Path) -> list[str]:
    return sorted(p.name for p in db.parent.iterdir() if ".damaged-" in p.name
                  or ".short-" in p.name)


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recovery, "RETRY_WAITS", (0.0, 0.0, 0.0))


@pytest.mark.parametrize("name", FAULTS)
@pytest.mark.parametrize("where", ["connect", "quick_check"])
def test_a_fault_that_passes_at_open_keeps_the_file_and_every_step(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, where: str) -> None:
    db, steps = saved(tmp_path)
    monkeypatch.setattr(recovery, where,
                        failing(2, lambda: fault(name), getattr(recovery, where)))
    with Store.open(db) as store:
        assert store.recovery is None
        assert store.steps(store.unfinished_game() or 0) == steps  # not the backup's
    assert set_aside(db) == []


@pytest.mark.parametrize("name", FAULTS)
def test_a_fault_that_persists_leaves_the_file_as_it_is_and_says_sqlites_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        name: str) -> None:
    db, steps = saved(tmp_path)
    before = db.read_bytes()
    tries: list[int] = []
    real = recovery.connect

    def connect(*args: Any, **kwargs: Any) -> Any:
        tries.append(1)
        raise fault(name)

    monkeypatch.setattr(recovery, "connect", connect)
    caplog.set_level(logging.WARNING, logger="companion.store.recovery")
    with pytest.raises(StoreOpenError, match=TOLD.get(name, FAULTS[name][0])):
        Store.open(db)
    assert len(tries) == len(recovery.RETRY_WAITS) + 1
    assert f"{FAULTS[name][0]} (SQLite code {FAULTS[name][1]}); trying again" in caplog.text
    assert set_aside(db) == [] and db.read_bytes() == before
    monkeypatch.setattr(recovery, "connect", real)  # the card is well again
    with Store.open(db) as store:
        assert store.steps(store.unfinished_game() or 0) == steps


def test_damage_seen_once_and_not_again_on_a_fresh_connection_is_not_damage(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db, steps = saved(tmp_path)
    answers = [["*** in database main ***\nPage 3: btreeInitPage() returns error code 11"]]
    real = recovery.quick_check
    monkeypatch.setattr(recovery, "quick_check",
                        lambda conn: answers.pop() if answers else real(conn))
    with Store.open(db) as store:
        assert store.recovery is None
        assert store.steps(store.unfinished_game() or 0) == steps
    assert set_aside(db) == []


def test_damage_found_twice_still_restores_the_newest_backup(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db, steps = saved(tmp_path)
    answers = [["Page 3: wrong"], ["Page 3: wrong"]]  # the file's two checks; then real
    real = recovery.quick_check
    monkeypatch.setattr(recovery, "quick_check",
                        lambda conn: answers.pop() if answers else real(conn))
    opened = failing(1, lambda: fault("I/O"), recovery.connect)  # and a fault on the way
    monkeypatch.setattr(recovery, "connect", opened)
    with Store.open(db) as store:
        assert store.recovery is not None and store.recovery.backup is not None
        assert store.steps(store.unfinished_game() or 0) == steps - 1  # the backup's
    assert len(set_aside(db)) == 1


def test_a_file_cut_short_is_damage_not_a_passing_fault(tmp_path: Path) -> None:
    db, _steps = saved(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    size = db.stat().st_size
    with db.open("r+b") as file:
        file.truncate(size - 4096 - 100)  # the last page and a bit: a read past the end
    with Store.open(db) as store:
        assert store.recovery is not None and store.recovery.backup is not None
    assert len(set_aside(db)) == 1


SCRIPT = """
import sqlite3, sys
from pathlib import Path
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
import companion.app as start
from companion.store import recovery

def connect(*args, **kwargs):
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode = 10
    raise error

recovery.connect = connect
recovery.RETRY_WAITS = (0.0, 0.0, 0.0)

class Probe(start.TableApp):
    def on_start(self):
        super().on_start()
        def look(_dt):
            for view in Window.children:
                if isinstance(view, ModalView):
                    for label in view.walk():
                        if isinstance(label, Label) and label.text:
                            print("TOLD", label.text.replace(chr(10), " "))
            print("SAVING", self.session.store is not None)
            self.stop()
        self.fbind("ready", lambda *_: Clock.schedule_once(look, 0.3))

start.TableApp = Probe
start.run_app(Path(sys.argv[1]))
"""


def test_the_table_is_told_and_plays_without_saving_when_the_fault_persists(
        tmp_path: Path) -> None:
    db, _steps = saved(tmp_path)
    before = db.read_bytes()
    lines = run_probe(tmp_path, SCRIPT, db)
    told = " ".join(line for line in lines if line.startswith("TOLD"))
    assert "cannot be opened (disk I/O error)" in told and "Nothing was changed" in told
    assert "SAVING False" in lines
    assert set_aside(db) == [] and db.read_bytes() == before


def test_a_missing_file_is_replaced_by_the_newest_backup_and_nothing_is_set_aside(
        tmp_path: Path) -> None:
    """A cut inside a restore (the damaged file set aside, the backup not yet in place), or
    a card that lost the file: the next open restores the newest backup where the file was,
    and sets nothing aside (the empty file it would have made is not the table's)."""
    db, steps = saved(tmp_path)
    for suffix in ("", "-wal", "-shm"):
        db.with_name(db.name + suffix).unlink(missing_ok=True)
    with Store.open(db) as store:
        restored = store.recovery
        assert restored is not None and restored.backup is not None
        assert restored.damaged is None and not restored.kept
        assert store.steps(store.unfinished_game() or 0) == steps - 1  # the backup's
        told = str(restored.said)
    assert "the saved-games file was not there any more" in told
    assert set_aside(db) == []
