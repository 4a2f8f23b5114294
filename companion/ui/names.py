"""The names of the game's pieces as the table's language prints them.

A race, a special power, a Relic, a Place, a River World event, a piece, a terrain, a
feature or an expansion is shown by its name on the French or German edition
(`companion/locale/names.toml`, filled into the catalogues by ``make locale`` under a
context: ``race``, ``power``...); a combo is a translatable format, so a language may put
the race first ("Orcs Montés").

Invariants:
- Only what is shown goes through here: saved games, exports, logs and the rules core keep
  the English names and ids (`companion.rules` never imports this module).
- Every function returns the English name when the catalogue has no translation (an
  unknown name, an expansion's name not in names.toml, English itself); none fails.
- No Kivy: presenters and tests call it alike.
- A terrain, a feature and an expansion are known by their id: names.toml maps each id to
  its English name, the msgid the catalogues hold it under; the file is read once, the first
  time one is shown, and never changed.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Any

from companion.i18n import LOCALE_DIR, _, pgettext


def race(name: str) -> str:
    """A race (banner), e.g. "Ghouls": "Zombies" in French."""
    return pgettext("race", name) if name else name


def power(name: str) -> str:
    """A special power (badge), e.g. "Mounted": "Montés" in French."""
    return pgettext("power", name) if name else name


def combo(power_name: str, race_name: str) -> str:
    """A combo, power and race in the language's order ("Mounted Orcs", "Orcs Montés"); a
    badge printed as a prefix is joined to the race ("Were-Trolls")."""
    # TRANSLATORS: a combo, a special power's name and a race's name; put them in your
    # edition's order (French: "{race} {power}", as in « Mi-portions et leur Dragon »).
    shown = in_combo(power_name)
    if shown.endswith("-"):  # a badge printed as a prefix ("Were-"): one word with the race
        return shown + race(race_name)
    return pgettext("combo", "{power} {race}").format(power=shown, race=race(race_name))


def in_combo(power_name: str) -> str:
    """A special power's word in a combo: German adjectives take an -e before the plural
    race ("Fliegende Skelette"), a badge shown alone does not ("Fliegend")."""
    return pgettext("power-in-combo", power_name) if power_name else power_name


def summary(text: str) -> str:
    """A race's or power's summary (the catalog's English, marked with the context
    "summary" by `make locale`, tools/locale_names.py) in the language spoken."""
    return pgettext("summary", text) if text else text


def described(shown: str, text: str) -> str:
    """A name as shown and its summary (the catalog's English), as one line."""
    # TRANSLATORS: a race's or a special power's name, then what it does.
    return _("{name}: {summary}").format(name=shown, summary=summary(text))


def event(name: str) -> str:
    """A River World event."""
    return pgettext("event", name)


def piece(name: str) -> str:
    """A piece or an expansion rule of the rule book ("Lost Tribe", "Fortress")."""
    return pgettext("piece", name)


@cache
def english_by_id(kind: str) -> dict[str, str]:
    """names.toml's ``terrains``, ``features`` or ``expansions``: id -> English name."""
    return {ident: str(entry["en"]) for ident, entry in _names_toml()[kind].items()}


@cache
def _names_toml() -> dict[str, Any]:
    """names.toml, read once (a map tap's first region title asks for two of its kinds)."""
    import tomllib  # here: the first frame shows no name read from it

    with (LOCALE_DIR / "names.toml").open("rb") as stream:
        return tomllib.load(stream)


def _by_id(context: str, english: str | None, ident: str) -> str:
    """A name kept by its id: its translation, else the id in title case, as the screens
    have always shown it in English ("magic": "Magic")."""
    shown = pgettext(context, english) if english else english
    return shown if shown and shown != english else ident.title()


def terrain(terrain_id: str) -> str:
    """A terrain by its board id ("farmland"): "Champs" in French, "Farmland" in English."""
    return _by_id("terrain", english_by_id("terrains").get(terrain_id), terrain_id)


def feature(feature_id: str) -> str:
    """A region feature by its board id ("mine", "magic", "cavern")."""
    return _by_id("feature", english_by_id("features").get(feature_id), feature_id)


def expansion(expansion_id: str, english: str = "") -> str:
    """An expansion by its catalog id, `english` its catalog name: its printed name when
    the language has one, else `english` (else the id), as the screens say it in English."""
    known = english_by_id("expansions").get(expansion_id)
    shown = pgettext("expansion", known) if known else known
    return shown if shown and shown != known else (english or known or expansion_id)


def of_kind(kind: str, name: str) -> str:
    """A piece of the game or a rule book entry's title by its kind, whoever's kind it is
    (the base game's race, power or piece, an expansion's Relic, Place or event):
    `name` translated in the context named like the kind, as names.toml's sections are
    (a kind names.toml has no section for, a turn step say, shows it as it is)."""
    return pgettext(kind, name) if kind and name else name


def folded(text: str) -> str:
    """`text` as names are compared, as the rule book compares them: accents dropped, case
    folded, apostrophes dropped, hyphens read as spaces, runs of spaces made one
    ("Géants" and "geants" match, "Mi-portions" and "mi portions")."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    bare = bare.replace("'", "").replace("\u2019", "").replace("-", " ")
    return " ".join(bare.casefold().split())
