"""Reading a JSON document field by field, for the command-line readers (`companion score`,
`companion play`): the first fault names its field (a JSON path such as
`player.active.counts.hill`) and what is wrong, and a value is quoted short enough for one
line.

What is wrong may be a sentence of the rules (a `companion.rules.said.Said`, as a scoring
error says it, `problem_said`): `str(error)` is the English, `said` the whole message as a
sentence a command words in its ``--lang`` language (the field's name is a value, never
translated). The rules' package imports this module, so it imports theirs only when a
fault is made."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from companion.rules.said import Said, Value

SHOWN_CHARS = 60


class BadInput(Exception):
    """One fault in a document: the field (a JSON path) and what is wrong with it."""

    def __init__(self, field: str, problem: str | Said) -> None:
        # imported here: the rules' package imports this module (a cycle at the top)
        from companion.rules.said import as_said, said

        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem_said = as_said(problem)
        self.said = said("{field}: {problem}", field=field, problem=self.problem_said)


def fail(field: str, problem: str | Said) -> NoReturn:
    raise BadInput(field, problem)


def said(template: str, **values: Value) -> Said:
    """A fault's sentence (`companion.rules.said.said`, the name ``make locale`` extracts
    templates by), the rules' module imported only when a fault is made."""
    from companion.rules.said import said as sentence

    return sentence(template, **values)


def show(value: object) -> str:
    """`value` as JSON, cut to one short line."""
    shown = json.dumps(value)
    return shown if len(shown) <= SHOWN_CHARS else shown[:SHOWN_CHARS - 3] + "..."


def flag(field: str, value: object) -> bool:
    """`value` when it is true or false, else the fault."""
    if not isinstance(value, bool):
        fail(field, said("expected true or false, got {value}", value=show(value)))
    return value


def optional_flag(field: str, value: object) -> bool | None:
    """`value` when it is true, false or null (None: not said), else the fault."""
    return None if value is None else flag(field, value)


def a_list(field: str, value: object) -> list[Any]:
    """`value` when it is a JSON list, else the fault."""
    if not isinstance(value, list):
        fail(field, said("expected a list, got {value}", value=show(value)))
    return value


def whole(field: str, value: object, least: int = 0) -> int:
    """`value` when it is a whole number of at least `least`, else the fault."""
    if isinstance(value, bool) or not isinstance(value, int):
        fail(field, said("expected a whole number, got {value}", value=show(value)))
    if value < least:
        fail(field, said("{value} is too small; the least allowed is {least}", value=value,
                         least=least))
    return value


def a_string(field: str, value: object) -> str:
    """`value` when it is a JSON string (empty or not), else the fault."""
    if not isinstance(value, str):
        fail(field, said("expected a string, got {value}", value=show(value)))
    return value


def text(field: str, value: object) -> str:
    """`value` when it is a non-empty string, else the fault."""
    if not isinstance(value, str) or not value.strip():
        fail(field, said("expected a non-empty string, got {value}", value=show(value)))
    return value


def one_of(field: str, value: object, what: str | Said, choices: Sequence[str]) -> str:
    """The one of `choices` that `value` names (any case), else the fault naming `what` (a
    word as a sentence, "marker", worded with the rest; plain text is worded through the
    catalogue too, so mark it where it is written)."""
    name = text(field, value).strip().casefold()
    for choice in choices:
        if choice.casefold() == name:
            return choice
    from companion.rules.said import as_said

    kind = as_said(what)
    fail(field, said("unknown {what} {value}; allowed: {allowed}", what=kind, value=show(value),
                     allowed=", ".join(choices)))
