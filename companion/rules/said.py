"""A sentence the rules say, kept apart from the words a table reads.

The rules core speaks English, but it never glues a sentence together: every refusal,
reason, reminder or line label it hands a screen can be a `Said`, an English template with
named placeholders and the values that fill them. `str(said)` is the English sentence (what
logs, tests and the command line's JSON see); a screen words it in the table's language
with `said.say(words)`, where `words` translates the template and shows each value.

Making one: ``said("the {race} hold no region", race=Name("race", "Trolls"))``, or with a
count that picks the plural form, ``said_n("{n} token", "{n} tokens", n)``. `said` and
`said_n` are the keywords ``make locale`` extracts the templates by, so a template is a
string literal at the call, or a constant marked with `N_`.

Values are of a few kinds, so that a screen can word each:
- a number, or text the players typed (a player's name), goes in as it is;
- a name from the catalog or the rule book (a race, a power, a Relic...) as
  `Name(kind, id)`: the id stays English, the screen shows the edition's name;
- a combo as `Combo(power, race)` (a language may put the race first);
- another `Said` (a reason inside a refusal), worded the same way;
- `Listed(values)`: several values, shown joined by commas.

Invariants: a `Said` is immutable and hashable; `str()` and `say()` never fail on a
well-made one (every placeholder has its value: checked when it is made); `say` with
`ENGLISH` words is `str()`. The rules core imports no gettext: this module only marks.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, TypeAlias


@dataclass(frozen=True)
class Name:
    """A name from the catalog or the rule book, by its English id: `kind` is one of
    race, power, relic, place, event, piece, terrain, feature, expansion."""

    kind: str
    id: str

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True)
class Combo:
    """A combo: a special power and a race, by their English names."""

    power: str
    race: str

    def __str__(self) -> str:
        return f"{self.power} {self.race}"


@dataclass(frozen=True)
class Listed:
    """Several values shown as one, joined by commas."""

    items: tuple[Value, ...]

    def __str__(self) -> str:
        return ", ".join(str(item) for item in self.items)


Value: TypeAlias = "int | str | Name | Combo | Listed | Said"


class Words(Protocol):
    """How a table words a `Said`: its translations and its names."""

    def gettext(self, template: str) -> str: ...

    def ngettext(self, singular: str, plural: str, count: int) -> str: ...

    def name(self, name: Name) -> str: ...

    def combo(self, combo: Combo) -> str: ...


class _English:
    """The rules' own words: templates as written, names as their ids."""

    def gettext(self, template: str) -> str:
        return template

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return singular if count == 1 else plural

    def name(self, name: Name) -> str:
        return name.id

    def combo(self, combo: Combo) -> str:
        return str(combo)


ENGLISH: Words = _English()


@dataclass(frozen=True)
class Said:
    """An English `template` (and its `plural`, picked by `count`) with its `values`."""

    template: str
    values: tuple[tuple[str, Value], ...] = ()
    plural: str | None = None
    count: int = 0

    def __post_init__(self) -> None:
        wanted = _fields(self.template) | (_fields(self.plural) if self.plural else set())
        given = {key for key, _ in self.values}
        if not wanted <= given:
            missing = ", ".join(sorted(wanted - given))
            raise ValueError(f"{self.template!r} has no value for {missing}")

    def __str__(self) -> str:
        return self.say(ENGLISH)

    def say(self, words: Words) -> str:
        """The sentence in `words`' language, every value worded by `words` too."""
        if self.plural is None:
            template = words.gettext(self.template)
        else:
            template = words.ngettext(self.template, self.plural, self.count)
        shown = {key: _word(value, words) for key, value in self.values}
        try:
            return template.format(**shown)
        except (KeyError, IndexError, ValueError):  # a broken translation: say it in English
            english = self.template if self.plural is None or self.count == 1 else self.plural
            return english.format(**shown)


def N_(template: str) -> str:
    """Marks a template kept in a constant for extraction (gettext's name); returns it."""
    return template


def said(template: str, **values: Value) -> Said:
    """A sentence with named values (see the module)."""
    return Said(template, tuple(sorted(values.items())))


def said_n(singular: str, plural: str, count: int, **values: Value) -> Said:
    """A sentence whose form follows `count`; `count` is also the value ``{n}``."""
    return Said(singular, tuple(sorted({"n": count, **values}.items())), plural, count)


def as_said(text: str | Said) -> Said:
    """`text` as a sentence: a `Said` as it is, plain text said as it is (its braces kept,
    nothing to translate unless the text is itself a marked template)."""
    return text if isinstance(text, Said) else Said(text.replace("{", "{{").replace("}", "}}"))


def listed(items: Iterable[Value]) -> Listed:
    return Listed(tuple(items))


def _word(value: Value, words: Words) -> str:
    if isinstance(value, Said):
        return value.say(words)
    if isinstance(value, Name):
        return words.name(value)
    if isinstance(value, Combo):
        return words.combo(value)
    if isinstance(value, Listed):
        return ", ".join(_word(item, words) for item in value.items)
    return str(value)


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}
