"""A copy of the saved games on a USB stick: finding the stick, copying, reading it back.

Concept: a stick is a partition (or a whole disk without partitions) of a block device
the kernel calls removable (``/sys/block/<disk>/removable`` is ``1``) or that sits on
the USB bus; where it is mounted comes from the mounts table (``/proc/self/mounts``).
Both are passed in as paths, so tests give a made-up tree and table. `save_copy` writes
a backup file into ``<mount>/smallworld-companion/`` under a temporary name, flushes it
to the stick, renames it, then reads it back from the stick (the page cache dropped
first where the system allows) and checks it: SQLite's ``integrity_check`` and the same
number of games and events as the backup it came from.

Invariants:
- nothing here mounts or unmounts anything (`companion.udisks` does, for the settings);
- a disk holding the system (mounted at ``/``, ``/boot`` or ``/boot/firmware``) or the
  saved games themselves (a path given in `keep_off`) is never offered as a stick;
- a copy on the stick under its final name has been read back and checked; a copy that
  fails the check, and any partial file, is removed before `CopyFailed` is raised;
- every `CopyFailed` says in plain words what went wrong and what to do; its `reason`
  is one of "read-only", "full", "verify", "io".
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.sentence import N_, Sentence, SentenceError
from companion.store.database import fsync_dir

SYS_BLOCK = Path("/sys/block")
MOUNTS = Path("/proc/self/mounts")
FOLDER = "smallworld-companion"
"""The folder on the stick the copies go into."""
SYSTEM_MOUNTS = frozenset({"/", "/boot", "/boot/firmware"})
_PARTIAL = ".partial"
_CHUNK = 1 << 20


@dataclass(frozen=True)
class Mount:
    point: Path
    read_only: bool


@dataclass(frozen=True)
class Stick:
    """One filesystem on a removable drive."""

    device: str
    """Its block device, e.g. ``/dev/sda1``."""
    disk: str
    """The whole drive's device, e.g. ``/dev/sda`` (what is powered off)."""
    name: str
    """What a player calls it: the folder it is mounted on (its label) or its model."""
    mount: Mount | None
    """Where it is mounted now (None: not mounted)."""


class CopyFailed(SentenceError):
    """The copy could not be made or did not read back the same; `reason` says which.
    `str()` is the English message, `said` the same for the table's language."""

    def __init__(self, message: Sentence, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def _unescape(field: str) -> str:
    """A mounts-table field with its octal escapes (``\\040`` for a space) undone."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def read_mounts(mounts: Path = MOUNTS) -> dict[str, Mount]:
    """Block device -> where it is mounted (the last mount of it wins), from `mounts`."""
    found: dict[str, Mount] = {}
    try:
        text = mounts.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return found
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 4 or not fields[0].startswith("/dev/"):
            continue
        options = fields[3].split(",")
        found[_unescape(fields[0])] = Mount(Path(_unescape(fields[1])), "ro" in options)
    return found


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""


def _removable(disk: Path) -> bool:
    if _read(disk / "removable") == "1":
        return True
    return "/usb" in os.path.realpath(disk)


def _model(disk: Path) -> str:
    words = " ".join(w for w in (_read(disk / "device" / "vendor"),
                                 _read(disk / "device" / "model")) if w)
    return words or disk.name


def _holds(point: Path, paths: Sequence[Path]) -> bool:
    """Whether a filesystem mounted at `point` holds any of `paths`."""
    return any(path == point or point in path.parents for path in paths)


def find_sticks(sys_block: Path = SYS_BLOCK, mounts: Path = MOUNTS,
                keep_off: Sequence[Path] = ()) -> list[Stick]:
    """The filesystems on removable drives, mounted ones first, then by device name.

    A drive with a filesystem that holds one of `keep_off` (the saved games on a USB
    drive) is left out: a copy there would not be a copy.
    """
    keep_off = [Path(os.path.abspath(path)) for path in keep_off]
    mounted = read_mounts(mounts)
    sticks: list[Stick] = []
    try:
        disks = sorted(sys_block.iterdir())
    except OSError:
        return []
    for disk in disks:
        if not _removable(disk) or _read(disk / "size") in ("", "0"):
            continue  # not removable, or a card reader with nothing in it
        parts = sorted(p.name for p in disk.iterdir()
                       if p.name.startswith(disk.name) and (p / "partition").exists())
        devices = [f"/dev/{name}" for name in parts] or [f"/dev/{disk.name}"]
        points = [mounted[d].point for d in devices if d in mounted]
        if any(p.as_posix() in SYSTEM_MOUNTS or _holds(p, keep_off) for p in points):
            continue  # the system's own drive (a Pi booted from USB), or the games' own
        for device in devices:
            mount = mounted.get(device)
            name = mount.point.name if mount is not None and mount.point.name else _model(disk)
            sticks.append(Stick(device, f"/dev/{disk.name}", name, mount))
    return sorted(sticks, key=lambda s: (s.mount is None, s.device))


def counts(database: Path) -> tuple[int, int]:
    """(games, events) in the SQLite file at `database`, opened read-only."""
    conn = sqlite3.connect(database.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
        return int(games), int(events)
    finally:
        conn.close()


def verify_copy(copy: Path, source: Path) -> list[Sentence | str]:
    """What is wrong with `copy` of `source` (empty when it reads back the same): SQLite's
    own words, or a sentence."""
    try:
        conn = sqlite3.connect(copy.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            rows = [str(row[0]) for row in conn.execute("PRAGMA integrity_check")]
        finally:
            conn.close()
        if rows != ["ok"]:
            return list(rows)
        wanted, got = counts(source), counts(copy)
    except sqlite3.Error as error:
        return [str(error)]
    if got != wanted:
        return [Sentence(N_("{games} games and {events} events instead of {wanted_games} and "
                            "{wanted_events}"), games=got[0], events=got[1],
                         wanted_games=wanted[0], wanted_events=wanted[1])]
    return []


def _failure(error: OSError, size: int) -> CopyFailed:
    if error.errno == errno.ENOSPC or error.errno == errno.EDQUOT:
        mb = max(1, -(-size // 1_000_000))
        return CopyFailed(Sentence(N_("The stick is full: the copy needs {mb} MB. Free some "
                                      "space on it, or use another stick."), mb=mb), "full")
    if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return CopyFailed(Sentence(N_("The stick cannot be written (read-only: check the lock "
                                      "switch on its side, or use another stick). Nothing "
                                      "was written.")), "read-only")
    return CopyFailed(Sentence(N_("The copy could not be written to the stick ({why}). Try "
                                  "again, or use another stick."),
                               why=str(error.strerror or error)), "io")


def _drop_cache(path: Path) -> None:
    """Ask the kernel to forget its cached pages of `path`, so reading it back reads the
    stick itself (where the system allows; harmless where not)."""
    advise = getattr(os, "posix_fadvise", None)
    if advise is None:
        return
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            advise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def save_copy(source: Path, mount: Path, *, name: str | None = None,
              _after_write: Callable[[Path], None] | None = None) -> Path:
    """Copy the backup file `source` to ``<mount>/smallworld-companion/<name>`` and check
    it by reading it back; return the copy.

    Raises `CopyFailed` (nothing left behind on the stick) when it cannot be written or
    does not read back the same. `_after_write`, for tests only, is called with the
    copy's path before it is read back (to damage it as a failing stick would).
    """
    folder = mount / FOLDER
    target = folder / (name or source.name)
    partial = target.with_name(target.name + _PARTIAL)
    try:
        size = source.stat().st_size
    except OSError as error:
        raise CopyFailed(Sentence(N_("The backup to copy cannot be read ({why})."),
                                  why=str(error)), "io") from error
    try:
        folder.mkdir(exist_ok=True)
        with open(source, "rb") as reader, open(partial, "wb") as writer:
            shutil.copyfileobj(reader, writer, _CHUNK)
            writer.flush()
            os.fsync(writer.fileno())
        os.replace(partial, target)
        fsync_dir(folder)
    except OSError as error:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise _failure(error, size) from error
    if _after_write is not None:
        _after_write(target)
    _drop_cache(target)
    problems = verify_copy(target, source)
    if problems:
        with contextlib.suppress(OSError):
            target.unlink(missing_ok=True)
        raise CopyFailed(Sentence(N_("The copy on the stick did not read back the same "
                                     "({problem}), so it was removed. Try again, or use "
                                     "another stick."), problem=problems[0]), "verify")
    return target
