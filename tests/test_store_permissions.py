"""The saved games are private: every file the store makes is 0600, in a folder it makes
0700, whatever the umask; files and folders an older release left readable are tightened
at open, but a folder the user chose for the database is never chmod-ed.

Everything runs on real files with the usual umask of a desktop account (0022), under
which SQLite would create every file readable by all.
"""

from __future__ import annotations

import os
import random
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from factories import created, play_turn
from test_store_recovery import Clock

from companion.paths import APP_DIR_NAME
from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store
from companion.store.lock import check_free

CATALOG = load_catalog()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def open_umask() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def files_of(folder: Path) -> dict[str, int]:
    return {p.name: mode(p) for p in sorted(folder.rglob("*"))}


def played(db: Path, turns: int) -> Store:
    """An open store with a game of `turns` whole turns (a backup at each end of turn),
    and one more step in the write-ahead log."""
    store = Store.open(db, catalog=CATALOG, clock=Clock())
    s = Session(CATALOG, rng=random.Random(7), store=store)
    s.begin(created(3))
    for _ in range(turns):
        play_turn(s, coins=2)
    if s.state.current.active is None:
        s.pick(0)
    else:
        s.finish_conquests()
    return store


def test_a_new_database_its_wal_and_its_lock_are_0600_in_a_new_0700_folder(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "share" / APP_DIR_NAME
    store = played(folder / "companion.sqlite3", turns=0)
    try:
        assert mode(folder) == 0o700
        assert mode(folder.parent) == 0o700  # a missing parent is made private too
        assert files_of(folder) == {
            "companion.sqlite3": 0o600,
            "companion.sqlite3-shm": 0o600,
            "companion.sqlite3-wal": 0o600,
            "companion.sqlite3.lock": 0o600,
        }
        assert (folder / "companion.sqlite3-wal").stat().st_size > 0  # a step is in it
    finally:
        store.close()


def test_backups_are_0600_in_a_0700_folder(tmp_path: Path) -> None:
    db = tmp_path / APP_DIR_NAME / "companion.sqlite3"
    with played(db, turns=2) as store:
        backups = store.backups()
    assert len(backups) == 2
    assert mode(db.parent / "backups") == 0o700
    assert {p.name: m for p, m in ((p, mode(p)) for p in backups)} == {
        p.name: 0o600 for p in backups}
    assert set(files_of(db.parent / "backups").values()) == {0o600}


def test_a_restored_backup_and_the_damaged_file_set_aside_are_0600(tmp_path: Path) -> None:
    db = tmp_path / APP_DIR_NAME / "companion.sqlite3"
    played(db, turns=1).close()
    data = bytearray(db.read_bytes())
    data[4096:] = random.Random(0).randbytes(len(data) - 4096)  # a failing card's pages
    db.write_bytes(bytes(data))
    with Store.open(db, catalog=CATALOG) as store:
        assert store.recovery is not None and store.recovery.damaged is not None
        aside = store.recovery.damaged.name
        assert store.unfinished_game() is not None  # the backup is back
        made = files_of(db.parent)
    assert aside.startswith("companion.sqlite3.damaged-") and aside in made
    assert set(made.values()) == {0o600, 0o700} and made["backups"] == 0o700
    assert {name for name, m in made.items() if m == 0o700} == {"backups"}


def test_the_longer_backup_restored_after_a_lost_wal_and_the_short_file_are_0600(
    tmp_path: Path,
) -> None:
    db = tmp_path / APP_DIR_NAME / "companion.sqlite3"
    store = played(db, turns=3)
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    # a file that lost its last steps (as with a deleted -wal): the backup holds more
    with sqlite3.connect(db) as conn:
        game, steps = conn.execute("SELECT id, steps FROM games").fetchone()
        conn.execute("DELETE FROM events WHERE game_id = ? AND step > ?", (game, steps - 6))
        conn.execute("UPDATE games SET steps = ? WHERE id = ?", (steps - 6, game))
    conn.close()
    with Store.open(db, catalog=CATALOG) as store:
        assert store.recovery is not None and store.recovery.lost
        assert store.recovery.damaged is not None
        assert store.recovery.damaged.name.startswith("companion.sqlite3.short-")
        made = files_of(db.parent)
    assert {name for name, m in made.items() if m != 0o600} == {"backups"}


def test_files_an_older_release_left_readable_are_tightened_at_open(tmp_path: Path) -> None:
    folder = tmp_path / APP_DIR_NAME
    db = folder / "companion.sqlite3"
    played(db, turns=1).close()
    (folder / "companion.sqlite3.damaged-20250101T000000Z").write_bytes(b"old")
    for path in folder.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    folder.chmod(0o755)
    with Store.open(db, catalog=CATALOG):
        made = files_of(folder)
    assert mode(folder) == 0o700  # the companion's own data folder
    assert made == {name: 0o700 if name == "backups" else 0o600 for name in made}
    assert "companion.sqlite3.damaged-20250101T000000Z" in made


def test_a_folder_the_user_chose_is_never_chmod_ed_but_the_files_in_it_are_private(
    tmp_path: Path,
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o775)
    other = shared / "notes.txt"
    other.write_text("someone else's")
    other.chmod(0o644)
    with played(shared / "games.sqlite3", turns=1):
        pass
    assert mode(shared) == 0o775
    assert mode(other) == 0o644  # not a file of the companion
    assert mode(shared / "games.sqlite3") == 0o600
    assert mode(shared / "games.sqlite3.lock") == 0o600
    assert mode(shared / "backups") == 0o700  # made by the companion
    assert {mode(p) for p in (shared / "backups").iterdir()} == {0o600}


def test_a_folder_made_for_the_database_is_0700_even_where_the_user_chose_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games" / "2025" / "table.sqlite3"
    with Store.open(db, catalog=CATALOG):
        pass
    assert mode(tmp_path / "games") == mode(tmp_path / "games" / "2025") == 0o700


def test_checking_the_lock_before_the_window_opens_makes_the_folder_0700(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "share" / APP_DIR_NAME
    check_free(folder / "companion.sqlite3")  # what `companion run` does first
    assert mode(folder) == mode(folder.parent) == 0o700
    assert files_of(folder) == {"companion.sqlite3.lock": 0o600}


def test_a_users_own_backups_folder_is_never_chmod_ed(tmp_path: Path) -> None:
    mine = tmp_path / "backups"  # the user's own folder, that happens to be named so
    mine.mkdir()
    mine.chmod(0o775)
    (tmp_path / "x").mkdir()
    (tmp_path / "x").chmod(0o775)
    with played(mine / "games.sqlite3", turns=1):
        pass
    with played(tmp_path / "x" / "games.sqlite3", turns=1):
        pass
    (tmp_path / "x" / "backups").chmod(0o775)  # as if it were the user's
    with Store.open(tmp_path / "x" / "games.sqlite3", catalog=CATALOG):
        pass
    assert mode(mine) == mode(tmp_path / "x") == mode(tmp_path / "x" / "backups") == 0o775
    assert mode(mine / "backups") == 0o700  # made by the companion
    assert {mode(p) for p in (tmp_path / "x" / "backups").iterdir()} == {0o600}
