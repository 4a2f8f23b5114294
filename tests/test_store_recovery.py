"""Backups with VACUUM INTO, and a damaged file set aside with the newest backup restored.

Damage is real: random bytes are written over the file's pages, as a failing card would.
"""

from __future__ import annotations

import hashlib
import random
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from factories import play_turn, session

from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store, StoreOpenError, StoreWriteError

CATALOG = load_catalog()
PAGE = 4096


@dataclass
class Clock:
    now: datetime = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def sync(store: Store, game_id: int | None, s: Session) -> int:
    assert s.history is not None
    if game_id is None:
        game_id = store.new_game(s.history.log[0])
    for step in s.history.log[store.steps(game_id):]:
        store.append_step(game_id, step)
    return game_id


def damage(path: Path, *, first_page: int, seed: int = 0) -> bytes:
    """Write random bytes over every page from `first_page` (1 = the header) to the end."""
    rng = random.Random(seed)
    data = bytearray(path.read_bytes())
    start = (first_page - 1) * PAGE
    data[start:] = rng.randbytes(len(data) - start)
    path.write_bytes(bytes(data))
    return bytes(data)


def game_with_backup(db: Path, backups: Path) -> tuple[int, list[tuple[object, ...]], Session]:
    """A game with a backup taken at the end of turn 1, then more played after it.

    Returns the game id, the log as it was at the backup, and the session.
    """
    s = session(3)
    with Store.open(db, backups=backups, catalog=CATALOG, clock=Clock()) as store:
        game_id = sync(store, None, s)
        play_turn(s, row=1, coins=4)
        play_turn(s, row=0, coins=3)
        sync(store, game_id, s)
        assert store.backup() is not None  # the end of a turn: Bob's
        at_backup = store.load_log(game_id)
        play_turn(s, row=2, coins=2)
        s.finish_conquests()  # Ann, turn 2
        sync(store, game_id, s)
    return game_id, list(at_backup), s


@pytest.mark.parametrize("first_page", [2, 1], ids=["pages", "header"])
def test_a_damaged_file_is_set_aside_and_the_newest_backup_restored(
    tmp_path: Path, first_page: int
) -> None:
    db, backups = tmp_path / "companion.sqlite3", tmp_path / "backups"
    game_id, at_backup, _ = game_with_backup(db, backups)
    damaged_bytes = damage(db, first_page=first_page)

    with Store.open(db, backups=backups, catalog=CATALOG) as store:
        report = store.recovery
        assert report is not None
        assert store.quick_check() == []
        assert store.load_log(game_id) == at_backup
        assert report.game_id == game_id == store.unfinished_game()
        assert report.backup == store.backups()[-1]
        assert report.backup_taken is not None
        # Play goes on from the restored state.
        s = Session(CATALOG)
        s.history = store.load_history(game_id)
        s.pick(0)
        assert store.append_step(game_id, s.history.log[-1]) == len(at_backup) + 1

    assert report.damaged.parent == tmp_path
    assert report.damaged.name.startswith("companion.sqlite3.damaged-")
    assert report.damaged.read_bytes() == damaged_bytes  # set aside untouched, not deleted
    assert report.game == (
        "the game of Ann, Bob and Cy is back at turn 1 of 10, Cy's turn (pick a combo)"
    )
    message = report.message
    assert message.startswith(
        "The saved games could not be read: the file was damaged. It was set aside as "
        f"{report.damaged.name} (not deleted). The newest good backup taken on "
    )
    assert message.endswith(
        "was restored. The game of Ann, Bob and Cy is back at turn 1 of 10, Cy's turn "
        "(pick a combo). Anything played after that backup is lost: play it again from there."
    )


def test_without_a_backup_the_companion_starts_empty_and_says_so(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    with Store.open(db, catalog=CATALOG) as store:
        sync(store, None, session(2))
    damage(db, first_page=2)
    with Store.open(db, catalog=CATALOG) as store:
        assert store.recovery is not None
        assert store.recovery.backup is None
        assert store.games() == [] and store.unfinished_game() is None
        assert "No backup could be restored because there was no backup" in store.recovery.message
        assert "starts with no saved games" in store.recovery.message


def test_a_damaged_backup_is_passed_over_for_an_older_sound_one(tmp_path: Path) -> None:
    db, backups = tmp_path / "companion.sqlite3", tmp_path / "backups"
    s = session(2)
    with Store.open(db, backups=backups, catalog=CATALOG, clock=Clock()) as store:
        game_id = sync(store, None, s)
        play_turn(s, coins=1)
        sync(store, game_id, s)
        older = store.backup()
        at_older = store.load_log(game_id)
        play_turn(s, coins=2)
        sync(store, game_id, s)
        newer = store.backup()
    assert older is not None and newer is not None and older < newer
    damage(newer, first_page=2, seed=1)
    damage(db, first_page=2, seed=2)
    with Store.open(db, backups=backups, catalog=CATALOG) as store:
        assert store.recovery is not None and store.recovery.backup == older
        assert store.load_log(game_id) == at_older
    assert newer.exists()  # a damaged backup is passed over, not deleted


def test_without_recovery_a_damaged_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    db, backups = tmp_path / "companion.sqlite3", tmp_path / "backups"
    game_with_backup(db, backups)
    damaged_bytes = damage(db, first_page=2)
    with pytest.raises(StoreOpenError, match=r"is damaged .* Nothing was changed"):
        Store.open(db, backups=backups, catalog=CATALOG, recover=False)
    assert db.read_bytes() == damaged_bytes
    assert sorted(p.name for p in tmp_path.iterdir() if "damaged" in p.name) == []


def test_a_file_locked_by_another_program_is_never_taken_for_damage(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    with Store.open(db, catalog=CATALOG) as store:
        sync(store, None, session(2))
    before = db.read_bytes()
    other = sqlite3.connect(db, isolation_level=None)
    try:
        other.execute("PRAGMA locking_mode = EXCLUSIVE")
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(StoreOpenError, match="in use by another program"):
            Store.open(db, catalog=CATALOG, timeout=0.05)
    finally:
        other.close()
    assert db.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if "damaged" in p.name] == []


def test_a_file_from_a_newer_release_is_refused_and_left_alone(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    with Store.open(db, catalog=CATALOG) as store:
        store.conn.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
            "VALUES ('smallworld-companion', 'm999_from_the_future', '2030-01-01')"
        )
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    with pytest.raises(StoreOpenError, match=r"written by a newer release .*update the companion"):
        Store.open(db, catalog=CATALOG)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


# -- backups -------------------------------------------------------------------------------


def test_a_backup_is_a_consistent_copy_made_by_vacuum_into(tmp_path: Path) -> None:
    db, backups = tmp_path / "companion.sqlite3", tmp_path / "backups"
    s = session(3)
    with Store.open(db, backups=backups, catalog=CATALOG) as store:
        game_id = sync(store, None, s)
        play_turn(s, coins=2)
        sync(store, game_id, s)  # these steps are still only in the write-ahead log
        path = store.backup()
        assert path is not None
        log = store.load_log(game_id)
    assert path.parent == backups and path.name.startswith("companion-")
    header = path.read_bytes()[:20]
    assert header[18:20] == b"\x01\x01"  # written by VACUUM INTO: not a copy of a WAL file
    copy = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        assert copy.execute("PRAGMA quick_check").fetchall() == [("ok",)]
        (steps,) = copy.execute("SELECT steps FROM games WHERE id = ?", (game_id,)).fetchone()
    finally:
        copy.close()
    assert steps == len(log)


def test_only_the_last_few_backups_are_kept(tmp_path: Path) -> None:
    db, backups = tmp_path / "companion.sqlite3", tmp_path / "backups"
    with Store.open(db, backups=backups, keep_backups=3, catalog=CATALOG, clock=Clock()) as store:
        made = [store.backup() for _ in range(5)]
        assert store.backups() == made[-3:]
    assert sorted(backups.iterdir()) == made[-3:]


def test_no_backup_is_taken_while_a_write_is_open(tmp_path: Path) -> None:
    db, backups = tmp_path / "companion.sqlite3", tmp_path / "backups"
    with Store.open(db, backups=backups, catalog=CATALOG) as store:
        store.conn.execute("BEGIN IMMEDIATE")
        assert store.backup() is None
        store.conn.execute("ROLLBACK")
        assert store.backups() == []


def test_an_interrupted_backup_leaves_no_backup_and_is_cleaned_up(tmp_path: Path) -> None:
    db, backups = tmp_path / "companion.sqlite3", tmp_path / "backups"
    backups.mkdir()
    leftover = backups / "companion-20250301T190000000000Z.sqlite3.partial"
    leftover.write_bytes(b"half a backup")
    journal = backups / "companion-20250301T190000000000Z.sqlite3.partial-journal"
    journal.write_bytes(b"its journal")
    unrelated = backups / "notes.txt"
    unrelated.write_text("mine")
    with Store.open(db, backups=backups, catalog=CATALOG) as store:
        assert store.backups() == []  # a partial file is never taken for a backup
        made = store.backup()
    assert made is not None
    assert sorted(backups.iterdir()) == sorted([made, unrelated])


def test_a_backup_that_cannot_be_written_says_so_and_the_game_is_unaffected(
    tmp_path: Path,
) -> None:
    db, backups = tmp_path / "companion.sqlite3", tmp_path / "backups"
    backups.write_text("a file where the backups folder should be")
    s = session(2)
    with Store.open(db, backups=backups, catalog=CATALOG) as store:
        game_id = sync(store, None, s)
        with pytest.raises(StoreWriteError, match=r"backup was not made: .* itself is saved"):
            store.backup()
        s.pick(0)
        assert store.append_step(game_id, s.history.log[-1]) == 2  # type: ignore[union-attr]


def test_an_emptied_file_is_set_aside_and_the_backup_restored(tmp_path: Path) -> None:
    from factories import created, play_turn

    from companion.session import Session

    path = tmp_path / "games.sqlite3"
    session = Session(store=Store.open(path))
    session.begin(created(2))
    play_turn(session)  # a backup is taken at the end of the turn
    assert session.store is not None
    session.store.close()
    path.write_bytes(b"")  # the card lost the file's contents
    store = Store.open(path)
    assert store.recovery is not None and "empty" in " ".join(store.recovery.problems)
    assert store.unfinished_game() is not None
    store.close()
