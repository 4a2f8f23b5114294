"""Opening the saved-games file, and recovering from a damaged one.

Concept: at start the file is opened and checked with ``PRAGMA quick_check``, then by the
store's own check (its schema is brought up to date and the game in progress must replay:
see `open_or_recover`'s `verify`). A sound file is used as it is. A damaged one (SQLite
answers "corrupt" or "not a database" or fails to read it, the check finds problems, or
the game in progress cannot be read back or replayed) is moved aside, renamed with the
time (``<name>.damaged-<UTC time>``, its ``-wal`` and ``-shm`` companions alongside),
never deleted; then the newest backup that itself passes both checks is written in its
place (see `companion.store.backup.restore_into`). With no usable backup the companion starts on an
empty file. The caller is told what happened (`Restored`), to tell the players in words
which game state they got back.

Loss is looked for too: a sound file is compared with the newest sound backup
(`find_loss`; steps are counted in each file's log). When the backup holds more steps of
a game than the file (a deleted or
lost ``-wal`` file takes every step since the last checkpoint with it), and holds all of
the file (its log for every game of the file starts with the file's), the file is set
aside as ``<name>.short-<UTC time>`` and the backup restored; when the file also holds
something the backup lacks, both are kept and the caller is told. Either way `Restored`
lists the games that lost steps (`Lost`), never silently.

Invariants:
- a file is only moved aside for damage found twice in a row on fresh connections, or
  for loss that the backup fully covers: a file that is locked, unreadable for lack of
  permission, written by a newer release, or refused with an I/O error that persists
  through a few tries (a card's fault, not the file's) raises `StoreOpenError` and stays
  untouched (the app then plays without saving, and says why);
- the original file is never deleted or overwritten: the restored copy goes to a new file
  under the original name only after the damaged one was renamed away.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from companion.sentence import N_
from companion.store.backup import check_backup, list_backups, restore_into, taken_at
from companion.store.database import (
    connect,
    fsync_dir,
    is_damage,
    may_pass,
    open_error,
    quick_check,
    stamp,
)
from companion.store.errors import StoreOpenError
from companion.store.private import make_folder

SIDECARS = ("-wal", "-shm", "-journal")

_logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Lost:
    """A game the newest backup holds more of than the file: steps were lost."""

    game_id: int
    in_file: int  # the game's steps in the file (0: the game is not there at all)
    in_backup: int


@dataclass(frozen=True, slots=True)
class Restored:
    """What recovery did with a damaged file, or with a file that lost steps."""

    damaged: Path | None  # where the set-aside file is now (None: nothing was set aside)
    problems: tuple[str, ...]  # what SQLite or the checks found wrong with it
    backup: Path | None  # the backup written in its place, if one was usable
    backup_taken: datetime | None
    skipped: tuple[Path, ...]  # newer backups passed over because they were damaged too
    lost: tuple[Lost, ...] = ()  # games the newest backup held more of (loss found)
    kept: bool = False  # loss found, but the file also held what the backup lacks: kept


def move_aside(path: Path, when: datetime, label: str = "damaged") -> Path:
    """Rename the database at `path` (and its -wal/-shm files) out of the way; return it.

    The new name is ``<name>.<label>-<UTC time>`` (``damaged``, or ``short`` for a file
    that lost steps the newest backup still holds).
    """
    base = f"{path.name}.{label}-{stamp(when)}"
    aside = path.with_name(base)
    n = 1
    while any(aside.with_name(aside.name + s).exists() for s in ("", *SIDECARS)):
        n += 1
        aside = path.with_name(f"{base}-{n}")
    os.replace(path, aside)
    for suffix in SIDECARS:
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            os.replace(companion, aside.with_name(aside.name + suffix))
    fsync_dir(path.parent)
    return aside


def _emptied(path: Path, backups: Path) -> bool:
    """The file exists but holds nothing, while backups of it do."""
    try:
        empty = path.stat().st_size == 0
    except OSError:
        return False
    return empty and bool(list_backups(backups, path.stem))


Verify = Callable[[sqlite3.Connection], list[str]]
"""A check of an opened, sound file beyond ``quick_check`` (the store's: the schema is
brought up to date and the game in progress replays); the problems it finds, or []."""


RETRY_WAITS = (0.02, 0.1, 0.25)
"""Seconds waited before each new try of a file refused with an answer that may pass."""


def _problems(
    path: Path, timeout: float, verify: Verify | None
) -> tuple[sqlite3.Connection | None, list[str]]:
    """A connection and no problems, or no connection and what is wrong with the file.

    A file is damaged only when two checks in a row on fresh connections find it so: an
    answer that may pass (`may_pass`: an I/O fault, busy, locked, not opened just then)
    is tried again after each of `RETRY_WAITS`, and a damage found once is looked for
    again. Raises StoreOpenError when an answer that is not damage persists (or comes at
    once, for one that will not pass: permission, read-only, full), with SQLite's own
    words; the file is left as it is.
    """
    damage: list[str] = []
    for attempt in range(len(RETRY_WAITS) + 1):
        try:
            conn, problems = _check(path, timeout, verify)
        except sqlite3.Error as error:
            if not may_pass(error) or attempt == len(RETRY_WAITS):
                raise open_error(error, path) from error
            _logger.warning("saved games %s: %s (SQLite code %s); trying again", path,
                            error, getattr(error, "sqlite_errorcode", None))
            time.sleep(RETRY_WAITS[attempt])
            continue
        if conn is not None:
            return conn, []
        if damage:  # found twice in a row: damage
            return None, damage
        damage = problems
        _logger.warning("saved games %s: %s; checking again", path, "; ".join(problems))
    # found damaged once, then only answers that may pass: not known to be damage
    raise open_error(sqlite3.DatabaseError("; ".join(damage)), path)


def _check(
    path: Path, timeout: float, verify: Verify | None
) -> tuple[sqlite3.Connection | None, list[str]]:
    """One try on a fresh connection: a connection and no problems, or no connection and
    the damage found; an answer that is not damage is raised."""
    try:
        conn = connect(path, timeout=timeout)
    except sqlite3.Error as error:
        if is_damage(error):
            return None, [str(error)]
        raise
    try:
        problems = quick_check(conn)
        if not problems and verify is not None:
            problems = verify(conn)
    except sqlite3.Error as error:
        conn.close()
        if is_damage(error):
            return None, [str(error)]
        raise
    except BaseException:
        conn.close()
        raise
    if problems:
        conn.close()
        return None, problems
    return conn, []


def _discard_copy(path: Path) -> None:
    """Remove a restored copy that failed its check (the backup it came from stays)."""
    for suffix in ("", *SIDECARS):
        with contextlib.suppress(OSError):
            path.with_name(path.name + suffix).unlink()


_LOG = "SELECT step, seq, type, v, payload FROM events WHERE game_id = ? AND step <= ? " \
    "ORDER BY step, seq"
_STEPS = "SELECT g.id, (SELECT coalesce(max(e.step), 0) FROM events e WHERE e.game_id = g.id) " \
    "FROM games g"
"""Each game's steps, counted in its log (the games row is only written once a turn, so
its ``steps`` may be behind after a power cut; this reads the same in every release's
schema)."""


def find_loss(conn: sqlite3.Connection, backup: Path) -> tuple[list[Lost], bool]:
    """The games `backup` holds more steps of than the file on `conn`, and whether the
    backup holds all of the file (every game of the file is there with at least as many
    steps, the file's log being the start of the backup's, so restoring the backup loses
    nothing the file has).

    A backup that cannot be read finds no loss.
    """
    try:
        other = sqlite3.connect(backup.resolve().as_uri() + "?mode=ro", uri=True)
    except sqlite3.Error:
        return [], False
    try:
        theirs = dict(other.execute(_STEPS).fetchall())
        ours = dict(conn.execute(_STEPS).fetchall())
        lost = [Lost(int(game), int(ours.get(game, 0)), int(steps))
                for game, steps in sorted(theirs.items()) if steps > ours.get(game, 0)]
        if not lost:
            return [], False
        covers = all(game in theirs and theirs[game] >= steps for game, steps in ours.items())
        for game, steps in ours.items():
            if not covers:
                break
            mine = conn.execute(_LOG, (game, steps)).fetchall()
            covers = mine == other.execute(_LOG, (game, steps)).fetchall()
        return lost, covers
    except sqlite3.Error:
        return [], False
    finally:
        other.close()


def _newest_sound_backup(backups: Path, stem: str) -> Path | None:
    for candidate in reversed(list_backups(backups, stem)):
        if not check_backup(candidate):
            return candidate
    return None


def _recover_loss(
    conn: sqlite3.Connection,
    path: Path,
    backups: Path,
    *,
    timeout: float,
    when: datetime,
    verify: Verify | None,
    made: bool = False,
) -> tuple[sqlite3.Connection, Restored | None]:
    """Compare the sound file on `conn` with the newest backup; restore the backup when it
    holds more of a game and all of the file (the file is set aside as ``short``; one this
    open `made`, where there was none, holds nothing of the table's and is removed)."""
    backup = _newest_sound_backup(backups, path.stem)
    if backup is None:
        return conn, None
    lost, covers = find_loss(conn, backup)
    if not lost:
        return conn, None
    taken = taken_at(backup, path.stem)
    problems = tuple(
        f"game {loss.game_id}: {loss.in_file} steps in the file, {loss.in_backup} in the "
        "newest backup" for loss in lost
    )
    if not covers:
        return conn, Restored(None, problems, backup, taken, (), tuple(lost), kept=True)
    longer = path.with_name(path.name + ".longer")
    _discard_copy(longer)
    try:
        restore_into(backup, longer)
        checked, _wrong = _problems(longer, timeout, verify)
    except (sqlite3.Error, OSError, StoreOpenError):
        checked = None
    if checked is None:
        _discard_copy(longer)
        return conn, Restored(None, problems, backup, taken, (), tuple(lost), kept=True)
    checked.close()
    conn.close()
    try:
        short: Path | None = None
        if made:
            _discard_copy(path)
        else:
            short = move_aside(path, when, label="short")
        os.replace(longer, path)
        fsync_dir(path.parent)
    except OSError as error:
        raise StoreOpenError(N_(
            "Steps are missing from the saved-games file {path} and the newest backup "
            "holds them, but it could not be put in place ({error}). Check that its "
            "folder can be written, then start the companion again."),
            path=str(path), error=str(error)) from error
    try:
        conn = connect(path, timeout=timeout)
    except sqlite3.Error as error:
        raise open_error(error, path) from error
    return conn, Restored(short, problems, backup, taken, (), tuple(lost))


def open_or_recover(
    path: Path,
    backups: Path,
    *,
    timeout: float,
    recover: bool,
    when: datetime,
    verify: Verify | None = None,
) -> tuple[sqlite3.Connection, Restored | None]:
    """A checked, configured connection to `path`, recovering from damage if allowed.

    `verify` (only used with `recover`) is run on the file once it passes
    ``quick_check``, and on every backup restored in its place: a file it finds problems
    in is damaged like any other, and a restored copy it refuses is removed again (its
    backup stays) and the next older backup tried.
    """
    if not recover:
        verify = None
    try:
        make_folder(path.parent)
    except OSError as error:
        raise open_error(error, path) from error
    existed = path.exists()  # none: a cut inside a restore, or a card that lost it
    if _emptied(path, backups):
        # An empty file where games were saved (a card that lost its data): opening it
        # would quietly start a new database and lose the games the backups still hold.
        conn, problems = None, ["the file is empty"]
    else:
        conn, problems = _problems(path, timeout, verify)
    if conn is not None:
        if not recover:
            return conn, None
        return _recover_loss(conn, path, backups, timeout=timeout, when=when, verify=verify,
                             made=not existed)
    if not recover:
        raise StoreOpenError(N_(
            "The saved-games file {path} is damaged ({problem}). Nothing was changed; "
            "start the companion app, which sets the damaged file aside and restores the "
            "newest backup."), path=str(path), problem=problems[0])
    try:
        damaged = move_aside(path, when)
    except OSError as error:
        raise StoreOpenError(N_(
            "The saved-games file {path} is damaged ({problem}) and could not be set "
            "aside ({error}). Nothing was changed; check that its folder can be written."),
            path=str(path), problem=problems[0], error=str(error)) from error
    skipped: list[Path] = []
    restored: Path | None = None
    for candidate in reversed(list_backups(backups, path.stem)):
        if check_backup(candidate):
            skipped.append(candidate)
            continue
        try:
            restore_into(candidate, path)
        except (sqlite3.Error, OSError):
            skipped.append(candidate)
            continue
        conn, _wrong = _problems(path, timeout, verify)
        if conn is None:
            _discard_copy(path)
            skipped.append(candidate)
            continue
        restored = candidate
        break
    if conn is None:
        try:
            conn = connect(path, timeout=timeout)
        except sqlite3.Error as error:
            raise open_error(error, path) from error
    taken = None if restored is None else taken_at(restored, path.stem)
    return conn, Restored(damaged, tuple(problems), restored, taken, tuple(skipped))
