"""Errors the rules core raises.

Every error carries a message a screen can show as it is: it names what was wrong and,
where it helps, what is allowed. Raising one never leaves a half-changed state behind,
because the rules core only ever builds new values.
"""

from __future__ import annotations

from collections.abc import Iterable


class RulesError(Exception):
    """Base of every error raised by `companion.rules`."""

    @property
    def reason(self) -> str:
        return str(self)


class IllegalAction(RulesError):
    """An intent the rules do not allow now; the game state is unchanged."""


class UnknownName(RulesError, LookupError):
    """A race, power, board, region or other name that does not exist."""

    def __init__(self, kind: str, name: object, allowed: Iterable[object] = ()) -> None:
        choices = ", ".join(str(a) for a in allowed)
        message = f"unknown {kind} {name!r}"
        if choices:
            message += f"; allowed: {choices}"
        super().__init__(message)
        self.kind = kind
        self.name = name


class DataError(RulesError):
    """A packaged or user-written data file is broken; names the file and the entry."""

    def __init__(self, source: str, entry: str, problem: str) -> None:
        super().__init__(f"{source}: {entry}: {problem}")
        self.source = source
        self.entry = entry
        self.problem = problem
