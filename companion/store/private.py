"""The saved games are private: files 0600 (the user who runs the companion only) in a
folder 0700.

Concept: the log holds every hidden purse and the players' PINs (hashed, but a 4-digit PIN
is found offline in minutes), so no other account on the machine may read it. The store
makes its files private itself, whatever the umask:

- the database is created empty with mode 0600 before SQLite first opens it; SQLite
  creates the ``-wal`` and ``-shm`` files with the database file's mode, so they are
  private too. Backups and restored copies (``VACUUM INTO``) are written into a file
  created 0600 the same way, and the lock file is created 0600;
- a folder the store creates (the database's folder with any missing parents, the
  ``backups`` folder) is created 0700;
- files left readable by an older release are tightened to 0600 at open: the database,
  its ``-wal``/``-shm``, lock file and set-aside copies (every file of the folder whose
  name starts with the database's name) and the backups;
- an existing folder is tightened to 0700 only inside the companion's own data folder
  (named ``smallworld-companion``, as `companion.paths.user_data_dir` and the installer
  name it): that folder and its ``backups``. A folder the user chose for the database
  (``storage.database = "/srv/games/x.sqlite3"``) may be shared with other programs: it
  and the folders in it are never chmod-ed (a ``backups`` folder the companion makes there
  is made 0700); the companion's files in it (the names starting with the database's)
  are still tightened to 0600.

Invariants:
- nothing here ever makes a mode wider; a mode that cannot be changed (a file of another
  user, a read-only card) is left as it is, silently: privacy is tightened where it can
  be, and never stops the companion from starting;
- nothing here deletes, renames or writes the contents of a file;
- a folder made here is durable when `make_folder` returns: its parent is flushed
  (`sync_folder`), as a file's folder is after the file is made or renamed.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from companion.paths import APP_DIR_NAME

FILE_MODE = 0o600
FOLDER_MODE = 0o700


def is_own_folder(folder: Path) -> bool:
    """Whether `folder` is the companion's own data folder (named ``smallworld-companion``,
    as `companion.paths.user_data_dir` and the installer name it), which it may tighten."""
    return folder.name == APP_DIR_NAME


def make_folder(folder: Path, *, tighten_existing: bool = False) -> None:
    """Create `folder` and any missing parents, each 0700; with `tighten_existing`, a
    folder that exists already is tightened to 0700 too.

    Raises OSError (or ValueError, for a path with a NUL byte) when a missing folder
    cannot be created.
    """
    missing: list[Path] = []
    where = folder
    while not where.exists() and where != where.parent:
        missing.append(where)
        where = where.parent
    for made in reversed(missing):
        try:
            os.mkdir(made, FOLDER_MODE)
        except FileExistsError:
            continue  # made by another process meanwhile: not ours to chmod
        _chmod(made, FOLDER_MODE)  # the umask may have taken bits off: set exactly 0700
        sync_folder(made.parent)  # the new folder's name survives a power cut
    if not missing and tighten_existing:
        tighten(folder, FOLDER_MODE)


def create_file(path: Path) -> bool:
    """Create `path` empty with mode 0600 when it does not exist; whether it was created.

    Raises OSError when it cannot be created (and does not exist).
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, FILE_MODE)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def tighten(path: Path, mode: int = FILE_MODE) -> None:
    """Take away from `path` every permission bit not in `mode` (never adds any)."""
    try:
        now = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return
    if now & ~mode:
        _chmod(path, now & mode)


def tighten_files(folder: Path, prefix: str) -> None:
    """Tighten to 0600 every file in `folder` whose name starts with `prefix`."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if entry.name.startswith(prefix) and entry.is_file(follow_symlinks=False):
                tighten(Path(entry.path))


def sync_folder(folder: Path) -> None:
    """Flush `folder`'s entries to the card, so that a folder made in it survives a power
    cut (a new folder's name is only durable once its parent is flushed: without it, the
    first backups, flushed into a ``backups`` folder whose own name was not, went with
    the power in the power-loss drill). Silent where a folder cannot be flushed."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _chmod(path: Path, mode: int) -> None:
    with contextlib.suppress(OSError):
        os.chmod(path, mode)
