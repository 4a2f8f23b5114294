"""A sentence for people, light to make: an English template with named values, worded in
the table's language only when it is shown.

Code that runs before the first frame, or must not import the rules (the saved games'
errors, the USB stick's copy, the system's actions), says its messages as a `Sentence`:
``Sentence(N_("The stick is full: the copy needs {mb} MB."), mb=3)``. `str()` is the
English (logs, tests, the command line's JSON); `said` is the same sentence as the rules'
`companion.rules.said.Said`, which `companion.ui.wording.say` words in the table's
language. An error that carries one exposes it as ``error.said``.

Invariants: `str(sentence)` is exactly the template filled in with the values' English; a
template is marked `N_` where it is written, so ``make locale`` extracts it; a template
without values is plain text (its braces, if any, kept); making one checks that every
field has its value. This module imports neither the rules nor gettext: `said` imports
the rules' `Said` only when a screen asks for it; a `light` sentence (no `Said` among its
values) is also worded by `say` with a gettext, exactly as `said` would be, for lines
written before the first frame.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

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
    def light(self) -> bool:
        """No rules' `Said` among its values (at any depth): `say` words it without them."""
        return all(_light(value) for value in self.values.values())

    def say(self, gettext: Callable[[str], str]) -> str:
        """This `light` sentence in the language `gettext` speaks, without importing the
        rules, as `companion.ui.wording.say` words its `said` (a template the catalogue
        lacks, or a broken translation: the English). For start-up's lines before the
        first frame."""
        if not self.light:
            raise TypeError(f"{self!r} holds a rules' Said: word it through its said")
        if not self.values and _fields(self.template):  # plain text with braces in it
            return self.template
        shown = {key: _worded(value, gettext) for key, value in self.values.items()}
        try:
            return gettext(self.template).format(**shown)
        except (KeyError, IndexError, ValueError):  # a broken translation: say it in English
            return self.template.format(**shown)

    @property
    def said(self) -> Said:
        """This sentence for `companion.ui.wording.say` (imports the rules' `Said`)."""
        from companion.rules.said import Said, said

        if not self.values and _fields(self.template):  # plain text with braces in it
            return said("{message}", message=self.template)
        shown = {key: _said(value) for key, value in self.values.items()}
        return Said(self.template, tuple(sorted(shown.items(), key=lambda item: item[0])))


class SentenceError(Exception):
    """An error whose message is a `Sentence`: `str()` is its English, `said` the same
    message for the table's language (`companion.ui.wording.say` reads it)."""

    def __init__(self, sentence: Sentence) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence

    @property
    def said(self) -> Said:
        return self.sentence.said


def _english(value: Value) -> str:
    if isinstance(value, tuple):
        return ", ".join(_english(item) for item in value)
    return str(value)


def _light(value: Value) -> bool:
    if isinstance(value, Sentence):
        return value.light
    if isinstance(value, tuple):
        return all(_light(item) for item in value)
    return isinstance(value, (int, str))


def _worded(value: Value, gettext: Callable[[str], str]) -> str:
    if isinstance(value, Sentence):
        return value.say(gettext)
    if isinstance(value, tuple):
        return ", ".join(_worded(item, gettext) for item in value)
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
