"""One app per saved-games file: an exclusive lock on a file beside the database.

Concept: before the app reads the saved games it takes an exclusive ``flock`` on
``<database>.lock`` (for ``companion.sqlite3``: ``companion.sqlite3.lock``) and writes its
process id into it. The lock is held for as long as the store is open; the operating
system releases it when the process ends, however it ends (a pulled plug, SIGKILL), so a
stale lock file never blocks the next start. A second app on the same file finds the lock
taken and is refused with `DatabaseInUse`, which names the process holding it.

Invariants:
- the lock file is never deleted (deleting a locked file would let a third app lock a
  new file of the same name while the first still runs); only its contents change;
- the pid in the file is only a hint for the message: the lock itself is the ``flock``;
- the database's folder is made (0700, `companion.store.private`) when missing; a file
  that cannot be created (a folder that cannot be made, or a read-only one) raises
  `StoreOpenError`, which says so plainly when the card or folder is mounted read-only;
- the lock file is 0600 (an older one readable by all is tightened).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from companion.paths import on_read_only_file_system
from companion.store.database import read_only_error
from companion.store.errors import N_, DatabaseInUse, StoreOpenError
from companion.store.private import is_own_folder, make_folder, tighten

SUFFIX = ".lock"


def lock_path(database: Path) -> Path:
    """The lock file of the database at `database`."""
    return database.with_name(database.name + SUFFIX)


def holder(database: Path) -> int | None:
    """The process id written in the database's lock file, if one can be read."""
    try:
        text = lock_path(database).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


class DatabaseLock:
    """An exclusive lock on one database, held until `release` (or the process ends)."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, database: Path) -> DatabaseLock:
        """Lock `database` for this process; raise `DatabaseInUse` if another holds it."""
        path = lock_path(database)
        try:
            # 0700 when made here (or the app's own): the saved games are private
            make_folder(database.parent, tighten_existing=is_own_folder(database.parent))
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as error:
            if on_read_only_file_system(database):
                raise read_only_error(database) from error
            raise StoreOpenError(N_(
                "The saved-games file {database} cannot be locked for this app ({error}). "
                "Check that its folder exists and can be written by the user who runs the "
                "companion, then start it again."), database=str(database), error=str(error),
            ) from error
        tighten(path)  # a lock file of an older release may be readable by all
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            pid = holder(database)
            if pid is None:
                raise DatabaseInUse(N_(
                    "The saved-games file {database} is already in use by another companion "
                    "app (another process); close that one first, then start this one again."
                ), None, database=str(database)) from None
            raise DatabaseInUse(N_(
                "The saved-games file {database} is already in use by another companion "
                "app (process {pid}); close that one first, then start this one again."
            ), pid, database=str(database), pid=pid) from None
        except OSError as error:
            os.close(fd)
            raise StoreOpenError(N_(
                "The saved-games file {database} cannot be locked for this app ({error}); "
                "start the companion again."), database=str(database), error=str(error),
            ) from error
        with contextlib.suppress(OSError):  # the pid is only a hint for the message
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        return cls(path, fd)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Let another app use the database (closing the file drops the lock)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)


def check_free(database: Path) -> None:
    """Raise `DatabaseInUse` now if another app holds `database` (the lock is not kept).

    For a command that wants to refuse before it does anything slow or visible (opening
    a window); `Store.open` takes the lock for good afterwards.
    """
    DatabaseLock.acquire(database).release()
