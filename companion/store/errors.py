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
or another sentence (a `Sentence`, a `Said`) worded the same way.

Invariants: `str(error)` is exactly the English message (the template filled in); a
template is marked `N_` where it is written, so ``make locale`` extracts it; a message
given as plain text (no values) is its own template. This module imports neither the
rules nor gettext (the app's first frame imports it): `said` imports the rules' `Said`
only when a screen asks for it.
"""

from __future__ import annotations

import string
from typing import TYPE_CHECKING, TypeAlias

from companion.records import RecordsError

if TYPE_CHECKING:
    from companion.rules.said import Said
    from companion.rules.said import Value as SaidValue

Value: TypeAlias = "int | str | Sentence | Said | tuple[Value, ...]"
"""A value in a message: a number, a text quoted as it is, a sentence of its own, or
several of them (shown joined by commas)."""


def N_(template: str) -> str:  # gettext's own name for it
    """Marks an English template for extraction (``make locale``); returns it unchanged."""
    return template


class Sentence:
    """An English `template` with its named `values`, light to make (no rules imported):
    `str()` is the English, `said` the rules' `Said` a screen words."""

    __slots__ = ("template", "values")

    def __init__(self, template: str, /, **values: Value) -> None:
        self.template = template
        self.values = values
        str(self)  # a template without a value for one of its fields fails here, not later

    def __str__(self) -> str:
        if not self.values:
            return self.template
        return self.template.format(**{key: _english(value) for key, value in self.values.items()})

    def __repr__(self) -> str:
        return f"Sentence({self.template!r}, **{self.values!r})"

    @property
    def said(self) -> Said:
        """This sentence for `companion.ui.wording.say` (imports the rules' `Said`)."""
        from companion.rules.said import Said, said

        if not self.values and _fields(self.template):  # plain text with braces in it
            return said("{message}", message=self.template)
        shown = {key: _said(value) for key, value in self.values.items()}
        return Said(self.template, tuple(sorted(shown.items(), key=lambda item: item[0])))


def _english(value: Value) -> str:
    if isinstance(value, tuple):
        return ", ".join(_english(item) for item in value)
    return str(value)


def _said(value: Value) -> SaidValue:
    from companion.rules.said import listed

    if isinstance(value, Sentence):
        return value.said
    if isinstance(value, tuple):
        return listed(_said(item) for item in value)
    return value


def _fields(template: str) -> set[str]:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}
    except ValueError:  # an unmatched brace: plain text
        return {"?"}


class StoreError(RecordsError):
    """Something about the saved games went wrong; `str(error)` is the plain message (the
    screens know it as the records' `RecordsError`, `companion.records`); `sentence` and
    `said` are the same message for the table's language."""

    def __init__(self, message: str, /, **values: Value) -> None:
        self.sentence = Sentence(message, **values)
        super().__init__(str(self.sentence))

    @property
    def said(self) -> Said:
        """The message as a sentence to word (`companion.ui.wording.say`); its English
        is `str(self)`."""
        return self.sentence.said


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
