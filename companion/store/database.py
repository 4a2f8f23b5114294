"""The SQLite file: one connection set up for durability, write transactions, checks.

Concept: the saved games live in one SQLite file. Every connection to it is opened in
autocommit mode at the driver level (``isolation_level=None``), so that the store, not the
driver, decides where a transaction begins and ends, and is configured at once with:

- ``journal_mode=WAL``: a commit appends to the write-ahead log; readers never block the
  writer, and a crash at any moment leaves either the whole transaction or none of it;
- ``synchronous=FULL``: the log is flushed to the card (fsync) at every commit, so a
  transaction whose commit has returned survives a pulled plug. SQLite forgets this
  setting when a connection closes, so it is set again on every connection;
- ``foreign_keys=ON`` (also per connection) and a short busy timeout.

Invariants:
- every write goes through `write_transaction`: ``BEGIN IMMEDIATE`` ... ``COMMIT``, and on
  any error a ``ROLLBACK`` before a `StoreWriteError` with a plain message is raised, so a
  failed write leaves the file exactly as it was;
- SQLite's "corrupt" and "not a database" answers, a file cut short, any other read
  error that is not about the file's surroundings, and a failing ``quick_check`` count as
  damage (see `is_damage`); a locked, missing, full or read-only file, and an I/O error
  (a card's passing fault: `may_pass`), are never damage, and never move a file aside;
- a SQLite error while reading reaches the screens as `StoreReadError` (`read_error`),
  never as a bare ``sqlite3`` exception.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path

from companion.paths import on_read_only_file_system
from companion.sentence import N_, Sentence, Value
from companion.store.errors import (
    StoreError,
    StoreOpenError,
    StoreReadError,
    StoreWriteError,
)
from companion.store.private import create_file, sync_folder

DEFAULT_TIMEOUT = 2.0
"""Seconds a write waits for another program's lock before giving up."""

# SQLite's primary result codes (the low byte of an extended code).
SQLITE_PERM = 3
SQLITE_BUSY = 5
SQLITE_LOCKED = 6
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_CONSTRAINT = 19

SQLITE_NOMEM = 7
SQLITE_IOERR_SHORT_READ = SQLITE_IOERR | 2 << 8
"""A read past the end of the file: a file cut short, which is damage, not a fault that
passes."""

_MAY_PASS = frozenset({SQLITE_BUSY, SQLITE_LOCKED, SQLITE_NOMEM, SQLITE_IOERR, SQLITE_CANTOPEN})
"""Answers that may not come again a moment later: another program holds the file, memory
ran short, the card failed one read or write, the file could not be opened just then."""

_NOT_DAMAGE = _MAY_PASS | {SQLITE_PERM, SQLITE_READONLY, SQLITE_FULL}
"""Answers about the file's surroundings (busy, unwritable, missing, full) or a passing
fault, not its contents: a file refused for one of these is left untouched."""


def primary_code(error: sqlite3.Error) -> int | None:
    """SQLite's primary result code behind `error`, when the driver reports one."""
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def is_damage(error: sqlite3.Error) -> bool:
    """Whether the file itself is damaged (as opposed to busy, unwritable or missing, or a
    passing fault of the card).

    SQLite's "corrupt" and "not a database" answers are damage, and so are a file cut
    short and any other database error while reading (a broken schema, a page that fails
    to read) except the answers in `_NOT_DAMAGE`.
    """
    if not isinstance(error, sqlite3.DatabaseError):
        return False
    if getattr(error, "sqlite_errorcode", None) == SQLITE_IOERR_SHORT_READ:
        return True
    return primary_code(error) not in _NOT_DAMAGE


def may_pass(error: sqlite3.Error) -> bool:
    """Whether trying again a moment later may succeed (busy, locked, no memory, an I/O
    fault, a file that could not be opened just then): never damage."""
    return primary_code(error) in _MAY_PASS and not is_damage(error)


def connect(path: Path, *, timeout: float = DEFAULT_TIMEOUT) -> sqlite3.Connection:
    """A configured connection to the database file at `path` (created when missing, with
    mode 0600: see `companion.store.private`)."""
    with suppress(OSError):  # SQLite then says itself why the file cannot be opened
        create_file(path)
    conn = sqlite3.connect(str(path), timeout=timeout, isolation_level=None)
    try:
        configure(conn, timeout=timeout)
    except BaseException:
        conn.close()
        raise
    return conn


def configure(conn: sqlite3.Connection, *, timeout: float = DEFAULT_TIMEOUT) -> None:
    """Set the per-connection pragmas the store relies on (see the module docstring).

    A file that cannot be written stays in whatever journal mode it has; writes to it fail
    anyway, with a plain message, while it can still be read.
    """
    conn.execute(f"PRAGMA busy_timeout = {max(0, int(timeout * 1000))}")
    conn.execute("PRAGMA journal_mode = WAL").fetchall()
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")


def quick_check(conn: sqlite3.Connection) -> list[str]:
    """The problems ``PRAGMA quick_check`` finds; an empty list when the file is sound."""
    rows = [str(row[0]) for row in conn.execute("PRAGMA quick_check").fetchall()]
    return [] if rows == ["ok"] else rows


@contextmanager
def write_transaction(
    conn: sqlite3.Connection, *, doing: str, path: Path
) -> Iterator[sqlite3.Connection]:
    """One transaction: all of the block's writes are committed, or none of them.

    `doing` names what is being saved, for the message ("the last action", "the new
    game"...). A SQLite error anywhere, the commit included, rolls everything back and
    raises `StoreWriteError`; any other exception rolls back and propagates unchanged.
    """
    if conn.in_transaction:
        raise StoreError(f"cannot save {doing}: another write is still open")
    try:
        conn.execute("BEGIN IMMEDIATE")
        yield conn
        conn.execute("COMMIT")
    except sqlite3.Error as error:
        _rollback(conn)
        raise write_error(error, doing=doing, path=path) from error
    except BaseException:
        _rollback(conn)
        raise


def _rollback(conn: sqlite3.Connection) -> None:
    try:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    except sqlite3.Error:
        pass  # the connection is unusable; the transaction dies with it, uncommitted


WAS_NOT_SAVED = {
    "the new game": N_("The new game was not saved"),
    "the last action": N_("The last action was not saved"),
    "the finished game": N_("The finished game was not saved"),
    "the new player": N_("The new player was not saved"),
    "the player's change": N_("The player's change was not saved"),
    "the PIN": N_("The PIN was not saved"),
    "the removal of the player": N_("The removal of the player was not saved"),
    "the setting": N_("The setting was not saved"),
}
"""The first words of a failed write's message, by what was being saved (`doing`): each a
sentence of its own, so that a language words it whole."""


def was_not_saved(doing: str) -> Value:
    """"<What> was not saved" for `doing` (a sentence of `WAS_NOT_SAVED`, or the English
    made from another `doing` as it is)."""
    if doing in WAS_NOT_SAVED:
        return Sentence(WAS_NOT_SAVED[doing])
    return f"{doing[:1].upper()}{doing[1:]} was not saved"


def write_error(error: sqlite3.Error, *, doing: str, path: Path) -> StoreWriteError:
    """A plain message for a failed write: what failed, that nothing changed, what to do."""
    code = primary_code(error)
    head = was_not_saved(doing)
    if code == SQLITE_FULL:
        return StoreWriteError(N_(
            "{head}: the memory card is full. Nothing was changed. Free some space on the "
            "card (old exports or copies of the saved games can go) and try again."),
            "full", head=head)
    if code in (SQLITE_READONLY, SQLITE_PERM):
        return StoreWriteError(N_(
            "{head}: the saved-games file {path} cannot be written (the file or the memory "
            "card is read-only). Nothing was changed. Check that the card is not locked or "
            "failing and that the file belongs to the user who runs the companion (never run "
            "it as root), then restart the companion."),
            "read-only", head=head, path=str(path))
    if code in (SQLITE_BUSY, SQLITE_LOCKED):
        return StoreWriteError(N_(
            "{head}: another program is using the saved-games file {path}. Nothing was "
            "changed. Close the other program (a second companion, or a database tool) and "
            "try again."),
            "locked", head=head, path=str(path))
    if code == SQLITE_IOERR:
        return StoreWriteError(N_(
            "{head}: the memory card failed to write ({error}). Nothing was changed. Try "
            "again; if it keeps failing, the card may be wearing out: copy the saved games "
            "off it and replace it."),
            "io", head=head, error=str(error))
    return StoreWriteError(N_("{head}: {error}. Nothing was changed; try again."), "other",
                           head=head, error=str(error))


def read_only_error(path: Path) -> StoreOpenError:
    """The message for a saved-games file on a card or folder mounted read-only."""
    return StoreOpenError(N_(
        "The saved-games file {path} cannot be written: the memory card (or the folder) it "
        "is on is mounted read-only. Games cannot be saved until it can be written again; "
        "until then the companion plays without saving. A card the system found faulty is "
        "remounted read-only: copy the saved games off it and check or replace it."),
        path=str(path))


def open_error(error: BaseException, path: Path) -> StoreOpenError:
    """A plain message for a file that cannot be opened (and was left untouched)."""
    code = primary_code(error) if isinstance(error, sqlite3.Error) else None
    cannot_write = code in (SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR)
    if (cannot_write or isinstance(error, OSError)) and on_read_only_file_system(path):
        return read_only_error(path)
    if code in (SQLITE_BUSY, SQLITE_LOCKED):
        return StoreOpenError(N_(
            "The saved-games file {path} is in use by another program. Close it (a second "
            "companion, or a database tool) and start the companion again."), path=str(path))
    if code in (SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY) or isinstance(error, OSError):
        return StoreOpenError(N_(
            "The saved-games file {path} cannot be opened ({error}). Check that its folder "
            "exists and belongs to the user who runs the companion, then start it again."),
            path=str(path), error=str(error))
    return StoreOpenError(N_(
        "The saved-games file {path} cannot be opened ({error}). Nothing was changed; "
        "start the companion again, and if this repeats, copy the file off the card."),
        path=str(path), error=str(error))


def read_error(error: sqlite3.Error, path: Path) -> StoreReadError:
    """A plain message for a failed read: what failed, that nothing changed, what to do."""
    code = primary_code(error)
    if code in (SQLITE_BUSY, SQLITE_LOCKED):
        return StoreReadError(N_(
            "The saved games could not be read: another program is using the file {path}. "
            "Nothing was changed. Close the other program (a database tool) and try again."),
            path=str(path))
    return StoreReadError(N_(
        "The saved games could not be read ({error}): part of the file may be damaged. "
        "Nothing was changed. Restart the companion: at start it checks the file and the "
        "game in progress, and sets a damaged file aside (without deleting it) to restore "
        "the newest good backup. A damaged older game that this check does not find stays "
        "unreadable; the other games can still be played."), error=str(error))


def fsync_file(path: Path) -> None:
    """Flush a file's contents to the storage device."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(path: Path) -> None:
    """Flush a directory, so that a file created or renamed in it survives a power cut
    (`companion.store.private.sync_folder`: silent where a folder cannot be flushed)."""
    sync_folder(path)


def utc_now() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


def to_text(when: datetime) -> str:
    """How times are stored: ISO 8601 in UTC, to the millisecond."""
    if when.tzinfo is None:
        raise ValueError("the store only keeps timezone-aware times")
    return when.astimezone(UTC).isoformat(timespec="milliseconds")


def from_text(text: str) -> datetime:
    """A stored time back as an aware datetime in UTC."""
    return datetime.fromisoformat(text).astimezone(UTC)


def stamp(when: datetime) -> str:
    """A compact, sortable UTC time for file names: 20250102T030405Z."""
    return when.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
