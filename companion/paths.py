"""Where the companion finds its files: the ones it ships and the ones it keeps.

Shipped files (the Kivy layouts from the top-level ``kv/`` directory, installed as the package
``companion.kv``, and the game data in ``companion.data``) are found in the folder the
package is imported from, so the same call works from a source checkout installed in
editable mode and from an installed wheel, whatever the current directory (without
:mod:`importlib.resources`, which costs the start-up some 10 ms of imports).

Kept files (the SQLite database) live in the user's data directory, as the XDG Base
Directory specification places it: ``$XDG_DATA_HOME/smallworld-companion``, by default
``~/.local/share/smallworld-companion``.

This module only computes paths; it creates no directory and opens no file. The store
creates the data directory itself, 0700, with its files 0600 (`companion.store.private`).
"""

from __future__ import annotations

import os
from importlib import import_module
from pathlib import Path

APP_DIR_NAME = "smallworld-companion"
"""The name of the companion's directory inside the user's data directory."""

DB_FILE_NAME = "companion.sqlite3"
"""The name of the SQLite database file inside :func:`user_data_dir`."""


def _package_dir(package: str) -> Path:
    """The directory of an installed package, as a real filesystem path.

    Kivy and SQLite need real paths, so a package that is not a plain directory
    (a zipped install) is refused rather than silently extracted.
    """
    folders = list(getattr(import_module(package), "__path__", ()))
    root = Path(folders[0]) if len(folders) == 1 else None
    if root is None or not root.is_dir():
        raise RuntimeError(f"package {package!r} is not installed as a directory: {folders}")
    return root


def _file_in(package: str, relative: str) -> Path:
    """A file shipped in ``package``; :class:`FileNotFoundError` names it when it is missing."""
    path = _package_dir(package).joinpath(*relative.split("/"))
    if not path.is_file():
        raise FileNotFoundError(f"{relative!r} is not shipped in {package} ({path})")
    return path


def kv_dir() -> Path:
    """The directory holding the Kivy layout (``.kv``) files."""
    return _package_dir("companion.kv")


def kv_file(name: str) -> Path:
    """The shipped Kivy layout file ``name``, e.g. ``kv_file("table.kv")``."""
    return _file_in("companion.kv", name)


def data_dir() -> Path:
    """The directory holding the packaged game data (races, powers, maps...)."""
    return _package_dir("companion.data")


def data_file(relative: str) -> Path:
    """The packaged data file at ``relative`` (``/``-separated) inside :func:`data_dir`."""
    return _file_in("companion.data", relative)


def user_data_dir() -> Path:
    """The companion's directory for the files it keeps, following XDG.

    ``$XDG_DATA_HOME`` counts only when it is an absolute path, as the specification says;
    otherwise ``~/.local/share`` is used.
    """
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / APP_DIR_NAME


def default_db_path() -> Path:
    """The SQLite database the companion uses when none is given on the command line."""
    return user_data_dir() / DB_FILE_NAME


def on_read_only_file_system(path: Path) -> bool:
    """Whether ``path`` (or, when it does not exist, its nearest existing folder) lies on a
    file system mounted read-only, as a memory card remounted read-only after an error is.

    False when that cannot be told (the path cannot be examined).
    """
    where = path
    try:
        while not where.exists() and where != where.parent:
            where = where.parent
        return bool(os.statvfs(where).f_flag & os.ST_RDONLY)
    except (OSError, ValueError):
        return False


READ_ONLY_ADVICE = (
    "the file system it is on is mounted read-only (a memory card the system found faulty "
    "is remounted read-only; copy the saved games off it and check or replace it)"
)
"""What to say when a file cannot be written because its file system is read-only."""
