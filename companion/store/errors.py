"""What can go wrong with the saved games, in words a player at the table can act on.

Every error here carries a message meant for the screen as it is: what failed and what to
do. None of them means that something was half-written: a write that raises
`StoreWriteError` was rolled back whole, so the file still holds exactly what it held
before, and the screen should keep showing that.
"""

from __future__ import annotations


class StoreError(Exception):
    """Something about the saved games went wrong; `str(error)` is the plain message."""


class StoreWriteError(StoreError):
    """A write was refused and rolled back: nothing of it reached the file.

    `reason` says which kind of failure it was, for code that wants to react to it:
    "full" (disk or card full), "read-only" (file or card cannot be written),
    "locked" (another program holds the file), "io" (the card failed to read or write)
    or "other".
    """

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class StoreOpenError(StoreError):
    """The saved-games file cannot be opened and nothing was changed on disk."""


class UnknownGame(StoreError):
    """There is no game with that number in the saved games."""


class UnreadableGame(StoreError):
    """A saved game's events cannot be read back (a record this release cannot read)."""


class GameAlreadyFinished(StoreError):
    """The game is finished; its history is closed."""


class ProfileError(StoreError):
    """A player profile cannot be added or changed as asked (name taken, bad PIN...)."""
