"""Errors the rules core raises.

Every error carries a message that names what was wrong and, where it helps, what is
allowed: `str(error)` is its English sentence; `error.said` is the same sentence as a
`companion.rules.said.Said`, which a screen words in the table's language (an error raised
with plain text says it as it is). Raising one never leaves a half-changed state behind,
because the rules core only ever builds new values.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.rules.said import Said, as_said, said


class RulesError(Exception):
    """Base of every error raised by `companion.rules`: raised with a `Said` or plain text."""

    def __init__(self, message: str | Said = "") -> None:
        super().__init__(str(message))
        self.said = as_said(message)

    @property
    def reason(self) -> str:
        return str(self)


class IllegalAction(RulesError):
    """An intent the rules do not allow now; the game state is unchanged.

    The intent itself is well formed (a legal-looking move); a value of the wrong kind is
    `MalformedInput` instead."""


class MalformedInput(RulesError):
    """Bad data: a value that is not of the kind its field takes (a number given as text,
    a board document that is not JSON text, an event record of unknown shape), whatever
    the game's position. Carries the `field` and what is `allowed`; apart from
    `IllegalAction`, so a caller can tell a broken caller from a refused move (catching
    `RulesError` catches both)."""

    def __init__(self, message: str | Said, *, field: str = "", allowed: str = "") -> None:
        super().__init__(message)
        self.field = field
        self.allowed = allowed


class UnknownName(RulesError, LookupError):
    """A race, power, board, region or other name that does not exist.

    `kind` is the English word for what was looked up ("race", "region"), marked where it
    is written (``N_("race")``) so that the table's language words it with the rest of the
    sentence; the name asked for and the allowed ones are values, shown as they are."""

    def __init__(self, kind: str, name: object, allowed: Iterable[object] = ()) -> None:
        choices = ", ".join(str(a) for a in allowed)
        if choices:
            message = said("unknown {kind} {name}; allowed: {allowed}", kind=as_said(kind),
                           name=repr(name), allowed=choices)
        else:
            message = said("unknown {kind} {name}", kind=as_said(kind), name=repr(name))
        super().__init__(message)
        self.kind = kind
        self.name = name


class DataError(RulesError):
    """A packaged or user-written data file is broken; names the file and the entry.

    `entry` and `problem` may be `Said` sentences, worded in the table's language with
    the rest of the message (the file's name is shown as it is): the whole sentence is
    `error.said`; `error.entry` and `error.problem` are their English text, as `str()`."""

    def __init__(self, source: str, entry: str | Said, problem: str | Said) -> None:
        super().__init__(said("{source}: {entry}: {problem}", source=source,
                              entry=as_said(entry), problem=as_said(problem)))
        self.source = source
        self.entry = str(entry)
        self.problem = str(problem)

