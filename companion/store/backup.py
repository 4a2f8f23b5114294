"""Backups: consistent copies of the saved games, made with ``VACUUM INTO``.

Concept: at the end of every game turn the session asks for a backup. SQLite writes a
consistent snapshot of the whole database into a new file (``VACUUM INTO``; never a file
copy, which could catch the database half-way through a write). The copy is written under
a temporary name, flushed to the card, and only then renamed to its final name
``<db stem>-<UTC time>.sqlite3``, so a backup that exists under its final name is always
complete. The newest few are kept; older ones and leftovers of interrupted backups are
deleted.

Restoring works the same way in reverse: the backup is opened read-only, checked, and
written with ``VACUUM INTO`` beside the database under a temporary name, flushed, then
renamed into place.

Invariants:
- no backup is taken while a write transaction is open on the connection;
- a file named like a backup is a complete, checked copy (names sort by time);
- nothing here ever deletes the database itself or a file that is not a backup;
- backups, and copies restored from them, are created 0600 in a 0700 folder
  (`companion.store.private`).
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.store.database import fsync_dir, fsync_file, quick_check
from companion.store.errors import N_, StoreWriteError
from companion.store.private import create_file, make_folder

DEFAULT_KEEP = 5
_PARTIAL = ".partial"


def _pattern(stem: str) -> re.Pattern[str]:
    return re.compile(re.escape(stem) + r"-(\d{8}T\d{6}\d{6})Z\.sqlite3")


def backup_name(stem: str, when: datetime) -> str:
    """The file name of a backup taken at `when` (sorts by time)."""
    return f"{stem}-{when.astimezone(UTC):%Y%m%dT%H%M%S%f}Z.sqlite3"


def taken_at(path: Path, stem: str) -> datetime | None:
    """When the backup at `path` was taken, read from its name (None if not a backup)."""
    match = _pattern(stem).fullmatch(path.name)
    if match is None:
        return None
    return datetime.strptime(match.group(1), "%Y%m%dT%H%M%S%f").replace(tzinfo=UTC)


def list_backups(directory: Path, stem: str) -> list[Path]:
    """The complete backups of database `stem` in `directory`, oldest first."""
    if not directory.is_dir():
        return []
    pattern = _pattern(stem)
    return sorted(p for p in directory.iterdir() if pattern.fullmatch(p.name) and p.is_file())


def make_backup(
    conn: sqlite3.Connection, directory: Path, stem: str, *, keep: int, when: datetime
) -> Path | None:
    """Write a backup of `conn`'s database into `directory`; keep the newest `keep`.

    Returns the new backup, or None when a write transaction is open (nothing is done
    then). Raises StoreWriteError, in plain words, when the backup cannot be written; the
    database itself is untouched either way.
    """
    if conn.in_transaction:
        return None
    partial: Path | None = None
    try:
        make_folder(directory)
        target = directory / backup_name(stem, when)
        while target.exists():
            when += timedelta(microseconds=1)
            target = directory / backup_name(stem, when)
        partial = target.with_name(target.name + _PARTIAL)
        partial.unlink(missing_ok=True)
        partial.with_name(partial.name + "-journal").unlink(missing_ok=True)
        create_file(partial)  # 0600: VACUUM INTO would create it readable by all
        conn.execute("VACUUM INTO ?", (str(partial),))
        fsync_file(partial)
        os.replace(partial, target)
        fsync_dir(directory)
    except (sqlite3.Error, OSError) as error:
        if partial is not None:
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
        full = "full" in str(error).lower() or getattr(error, "errno", None) == 28
        if full:
            raise StoreWriteError(N_(
                "The backup was not made: {error}. The game itself is saved. Free some space "
                "on the memory card; the next backup is taken at the end of the next turn."),
                "full", error=str(error)) from error
        raise StoreWriteError(N_(
            "The backup was not made: {error}. The game itself is saved. the next backup is "
            "taken at the end of the next turn."), "io", error=str(error)) from error
    prune(directory, stem, keep=keep)
    return target


def prune(directory: Path, stem: str, *, keep: int) -> list[Path]:
    """Delete all but the newest `keep` backups and any interrupted ones; return them."""
    removed: list[Path] = []
    backups = list_backups(directory, stem)
    old = backups[: max(0, len(backups) - max(1, keep))]
    leftovers = [p for p in directory.iterdir() if _is_leftover(p.name, stem)]
    for path in (*old, *leftovers):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            removed.append(path)
    return removed


def _is_leftover(name: str, stem: str) -> bool:
    """Whether `name` is what an interrupted backup left: the partial file or its journal."""
    base = name
    for suffix in ("-journal", "-wal", "-shm"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
            break
    if not base.endswith(_PARTIAL):
        return False
    return _pattern(stem).fullmatch(base[: -len(_PARTIAL)]) is not None


def check_backup(path: Path) -> list[str]:
    """The problems `quick_check` finds in a backup (opened read-only), or why it cannot
    be opened; an empty list for a sound backup."""
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    except sqlite3.Error as error:
        return [str(error)]
    try:
        return quick_check(conn)
    except sqlite3.Error as error:
        return [str(error)]
    finally:
        conn.close()


def restore_into(backup: Path, target: Path) -> None:
    """Write the database in `backup` to `target` (which must not exist) with VACUUM INTO.

    Raises sqlite3.Error or OSError when the backup cannot be read or written; then
    `target` does not exist.
    """
    partial = target.with_name(target.name + ".restoring")
    journal = partial.with_name(partial.name + "-journal")
    partial.unlink(missing_ok=True)
    journal.unlink(missing_ok=True)
    conn = sqlite3.connect(backup.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        create_file(partial)  # 0600, as every file of the store
        conn.execute("VACUUM INTO ?", (str(partial),))
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        conn.close()
    try:
        fsync_file(partial)
        os.replace(partial, target)
        fsync_dir(target.parent)
    except OSError:
        partial.unlink(missing_ok=True)
        raise
