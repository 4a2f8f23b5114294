"""Reading the project's JSON data files with errors that name the file and the entry.

Every data file (the catalog's three files, the boards, later a group's own board) is
checked field by field when it is loaded. `Where` names the place being read; each check
either returns the value with its proper type or raises `DataError(file, entry, problem)`
with a message a player can act on (``boards/2p.json: region 7: terrain ...``).

Each problem is a `Said` (`companion.rules.said`): its English is the message as it always
read, and a screen words it in the table's language. What is quoted from the file (a value
as `show` prints it, a field's name, a label such as ``regions``) is a value of the
sentence, shown as it is in every language; a label may itself be a `Said` when it is
words rather than a field's name ("each face").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from companion.rules.errors import DataError
from companion.rules.said import Said, said

SCHEMA = 1
"""The one version of the data files' format this release reads."""


def show(value: object) -> str:
    """A value as it looks in the file, cut short for an error message."""
    try:
        shown = json.dumps(value)
    except (TypeError, ValueError):
        shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


@dataclass(frozen=True, slots=True)
class Where:
    """The file and entry being read, to name them in an error."""

    source: str
    entry: str | Said

    def fail(self, problem: str | Said) -> NoReturn:
        raise DataError(self.source, self.entry, problem)

    def at(self, entry: str | Said) -> Where:
        return Where(self.source, entry)

    def fields(
        self, doc: object, required: Iterable[str], optional: Iterable[str] = ()
    ) -> Mapping[str, Any]:
        """`doc` as an object holding every required field and nothing unknown."""
        if not isinstance(doc, Mapping):
            self.fail(said("expected a JSON object, got {value}", value=show(doc)))
        needed, allowed = set(required), set(required) | set(optional)
        missing = sorted(needed - doc.keys())
        if missing:
            self.fail(said("missing field {field}", field=repr(missing[0])))
        unknown = sorted(str(k) for k in doc.keys() - allowed)
        if unknown:
            self.fail(said("unknown field {field}; allowed: {allowed}", field=repr(unknown[0]),
                           allowed=", ".join(sorted(allowed))))
        return doc

    def header(
        self, doc: object, required: Iterable[str], optional: Iterable[str] = ()
    ) -> Mapping[str, Any]:
        """The top of a file: schema 1, optional notes, and the file's own fields."""
        fields = self.fields(doc, ("schema", *required), ("notes", *optional))
        if fields["schema"] != SCHEMA:
            self.fail(said("schema {schema} is not supported (this version reads {version})",
                           schema=show(fields["schema"]), version=SCHEMA))
        notes = fields.get("notes", [])
        if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
            self.fail(said("{field} must be a list of strings, got {value}", field="notes",
                           value=show(notes)))
        return fields

    def integer(self, value: object, label: str | Said, minimum: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(said("{label} must be a whole number, got {value}", label=label,
                           value=show(value)))
        if value < minimum:
            self.fail(said("{label} must be at least {minimum}, got {value}", label=label,
                           minimum=minimum, value=value))
        return value

    def boolean(self, value: object, label: str | Said) -> bool:
        if not isinstance(value, bool):
            self.fail(said("{label} must be true or false, got {value}", label=label,
                           value=show(value)))
        return value

    def text(self, value: object, label: str | Said) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(said("{label} must be a non-empty string, got {value}", label=label,
                           value=show(value)))
        return value

    def array(
        self, value: object, label: str | Said, *, non_empty: bool = False
    ) -> Sequence[Any]:
        if not isinstance(value, list) or (non_empty and not value):
            if non_empty:
                self.fail(said("{label} must be a non-empty list, got {value}", label=label,
                               value=show(value)))
            self.fail(said("{label} must be a list, got {value}", label=label,
                           value=show(value)))
        return value
