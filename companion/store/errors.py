"""What can go wrong with the saved games, in words a player at the table can act on.

Every error here carries a message meant for the screen as it is: what failed and what to
do. None of them means that something was half-written: a write that raises
`StoreWriteError` was rolled back whole, so the file still holds exactly what it held
before, and the screen should keep showing that.

A message is an English template with named values (``StoreOpenError(N_("The file {path}
..."), path=str(path))``): `str(error)` is the English sentence, and `error.said` the
same sentence as the rules' `companion.rules.said.Said`, which a screen words in the
table's language (`companion.ui.wording.say`) and the command line under ``--lang``.
Values are numbers, paths and texts quoted as they are (a file name, SQLite's own words),
or another sentence (a `companion.sentence.Sentence`, a `Said`) worded the same way.

Invariants: `str(error)` is exactly the English message (the template filled in); a
template is marked `N_` where it is written, so ``make locale`` extracts it; a message
given as plain text (no values) is its own template. This module imports neither the
rules nor gettext (the app's first frame imports it): `said` imports the rules' `Said`
only when a screen asks for it.
"""

from __future__ import annotations

from companion.records import RecordsError
from companion.sentence import Sentence, SentenceError, Value


class StoreError(SentenceError, RecordsError):
    """Something about the saved games went wrong; `str(error)` is the plain message (the
    screens know it as the records' `RecordsError`, `companion.records`); `sentence` and
    `said` are the same message for the table's language."""

    def __init__(self, message: str, /, **values: Value) -> None:
        super().__init__(Sentence(message, **values))


class StoreWriteError(StoreError):
    """A write was refused and rolled back: nothing of it reached the file.

    `reason` says which kind of failure it was, for code that wants to react to it:
    "full" (disk or card full), "read-only" (file or card cannot be written),
    "locked" (another program holds the file), "io" (the card failed to read or write),
    "conflict" (the step is not the next one on disk: see `StepConflict`) or "other".
    """

    def __init__(self, message: str, reason: str, /, **values: Value) -> None:
        super().__init__(message, **values)
        self.reason = reason


class StoreOpenError(StoreError):
    """The saved-games file cannot be opened and nothing was changed on disk."""


class DatabaseInUse(StoreOpenError):
    """Another companion app holds the saved-games file; `pid` is its process, if known.

    Only one app may use a file at a time (see `companion.store.lock`): two apps each
    saving steps from their own view of a game would leave a log that no longer replays.
    """

    def __init__(self, message: str, pid: int | None, /, **values: Value) -> None:
        super().__init__(message, **values)
        self.pid = pid


class StoreReadError(StoreError):
    """The saved games could not be read (SQLite refused: a damaged page, a failing card,
    another program holding the file). Nothing was changed."""


class StepConflict(StoreWriteError):
    """A step was refused because it is not the next one of the game on disk: another
    session saved steps this one has not seen. Nothing was written."""

    def __init__(self, message: str, /, **values: Value) -> None:
        super().__init__(message, "conflict", **values)


class UnknownGame(StoreError):
    """There is no game with that number in the saved games."""


class UnreadableGame(StoreError):
    """A saved game's events cannot be read back or replayed (a damaged record, a gap in
    the steps, a record of a newer release, or steps the rules refuse)."""


class GameAlreadyFinished(StoreError):
    """The game is finished; its history is closed."""


class ProfileError(StoreError):
    """A player profile cannot be added or changed as asked (name taken, bad PIN...)."""
