"""The rules' sentences in the table's language.

The rules core says its refusals, reasons and reminders as `Said` values (English
templates with named values, `companion.rules.said`); this module words them for a screen:
the template through the catalogue (`companion.i18n`), each name through the edition's names
(`companion.ui.names`), in the language in use when it is called.

Invariants: `say` never fails (a template the catalogue lacks, or text that is no `Said`,
is shown as it is); it reads the language at each call, so a text worded again after a
language switch follows it. No Kivy.
"""

from __future__ import annotations

from companion.i18n import _, ngettext
from companion.rules import Combo, Name, Said
from companion.ui import names


class _TableWords:
    """`companion.rules.said.Words` for the table's language."""

    def gettext(self, template: str) -> str:
        return _(template)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return ngettext(singular, plural, count)

    def name(self, name: Name) -> str:
        if name.kind == "terrain":
            return names.terrain(name.id)
        if name.kind == "feature":
            return names.feature(name.id)
        if name.kind == "expansion":
            return names.expansion(name.id)
        return names.of_kind(name.kind, name.id)

    def combo(self, combo: Combo) -> str:
        return names.combo(combo.power, combo.race)


TABLE = _TableWords()


def say(what: Said | Name | Exception | str) -> str:
    """`what` in the table's language: a `Said`, a name, the sentence of an error that
    carries one (a rules error, a saved games' error: `error.said`); any other error's or
    plain text as it is."""
    if isinstance(what, Exception):
        sentence = getattr(what, "said", None)
        return sentence.say(TABLE) if isinstance(sentence, Said) else str(what)
    if isinstance(what, Said):
        return what.say(TABLE)
    if isinstance(what, Name):
        return TABLE.name(what)
    return str(what)
