"""The printed French and German names, and the catalog's summaries, into the catalogues.

`companion/locale/names.toml` is the one source of the names of the game's pieces (races,
powers, Relics, Places, River World events, pieces, terrains, features, expansions), and the
catalog's data files (`companion/data/races.json`, ``powers.json``) of every race's and
power's ``summary``. Babel reads neither, so this module gives ``make locale`` two Babel
extractors, named in ``babel.cfg``'s ``[extractors]`` (``pybabel extract`` imports them as
``tools.locale_names:...``, with the repository on ``PYTHONPATH``), and one step:

- `extract_names` reads names.toml: every English name with its context (``race``,
  ``power``...), like a ``pgettext(context, name)`` in code, and every power again in the
  context ``power-in-combo`` (its word in a combo, `IN_COMBO`);
- `extract_summaries` reads a catalog data file: every ``summary`` with the context
  ``summary`` (the Rules screen shows them through ``pgettext("summary", text)``); their
  French and German are written in the catalogues like any other sentence;
- ``fill`` (after ``pybabel update``, before compiling) writes each name's French and German
  into ``companion/locale/<lang>/LC_MESSAGES/companion.po``, whatever the entry held: a name
  is changed in names.toml, never in a ``.po``.

Invariants: the catalogues' name entries follow names.toml alone and their summary entries
the catalog's data files alone (tests/test_ui_language_names.py and
tests/test_ui_rules_languages.py fail when either disagrees); ``fill`` touches nothing else
in a catalogue; running it twice changes nothing the second time; nothing under
``companion/`` is generated.
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

ROOT = Path(__file__).resolve().parents[1]
NAMES = ROOT / "companion" / "locale" / "names.toml"
SUMMARY = "summary"
"""The gettext context of a race's or power's summary."""
LANGUAGES = ("fr", "de")

CONTEXTS = {"races": "race", "powers": "power", "relics": "relic", "places": "place",
            "events": "event", "pieces": "piece", "terrains": "terrain",
            "features": "feature", "expansions": "expansion"}
"""Each kind of names.toml and its gettext context."""
BY_ID = ("terrains", "features", "expansions")
"""The kinds keyed by an id (the English name is the entry's ``en``)."""
IN_COMBO = "power-in-combo"
"""The context of a power's name as a combo shows it, before or after the race: the entry's
``<lang>_combo`` where the language changes the word there (German adjectives take an -e
before the plural race: "Fliegende Skelette"), else its name."""


def load() -> dict[str, Any]:
    with NAMES.open("rb") as stream:
        return tomllib.load(stream)


def english(kind: str, key: str, entry: dict[str, Any]) -> str:
    return str(entry["en"]) if kind in BY_ID else key


def translations(data: dict[str, Any], language: str) -> dict[tuple[str, str], str]:
    """(context, English name) -> the name in `language`, for every entry of names.toml."""
    return {(CONTEXTS[kind], english(kind, key, entry)): str(entry[language])
            for kind in CONTEXTS for key, entry in data[kind].items()}


def combo_forms(data: dict[str, Any], language: str) -> dict[tuple[str, str], str]:
    """(`IN_COMBO`, English power) -> the power's word in a combo, in `language`."""
    return {(IN_COMBO, key): str(entry.get(f"{language}_combo", entry[language]))
            for key, entry in data["powers"].items()}


Extracted = Iterator[tuple[int, str, tuple[str, str], list[str]]]
"""What a Babel extractor yields: (line, keyword, its arguments, comments); the keyword
``pgettext`` (one of Babel's own) makes the arguments a context and a msgid."""


def extract_names(fileobj: BinaryIO, keywords: object, comment_tags: object,
                  options: object) -> Extracted:
    """Babel's extractor of names.toml (``[names: companion/locale/names.toml]``): each
    kind's names in its context, then every power in `IN_COMBO`."""
    data = tomllib.load(fileobj)
    for kind, context in CONTEXTS.items():
        for key, entry in data[kind].items():
            yield 0, "pgettext", (context, english(kind, key, entry)), []
    for key in data["powers"]:
        yield 0, "pgettext", (IN_COMBO, key), []


def extract_summaries(fileobj: BinaryIO, keywords: object, comment_tags: object,
                      options: object) -> Extracted:
    """Babel's extractor of a catalog data file (``[summaries: companion/data/races.json]``):
    the ``summary`` of every item of the kind the file is named after (``races``), in the
    context `SUMMARY`."""
    kind = Path(fileobj.name).stem
    for item in json.load(fileobj)[kind]:
        yield 0, "pgettext", (SUMMARY, str(item["summary"])), []


def fill() -> None:
    from babel.messages.pofile import read_po, write_po

    data = load()
    for language in LANGUAGES:
        path = ROOT / "companion" / "locale" / language / "LC_MESSAGES" / "companion.po"
        with path.open("rb") as stream:
            catalog = read_po(stream)
        names = translations(data, language) | combo_forms(data, language)
        changed = False
        for message in catalog:
            if not message.context or not isinstance(message.id, str):
                continue
            wanted = names.get((message.context, message.id))
            if wanted is not None and (message.string != wanted or message.fuzzy):
                message.string = wanted
                message.flags.discard("fuzzy")
                changed = True
        if changed:
            with path.open("wb") as stream:
                write_po(stream, catalog, width=0,  # 0: no wrapping, as --no-wrap
                         ignore_obsolete=True, include_previous=False)


def main(argv: list[str]) -> int:
    if argv != ["fill"]:
        print("usage: tools/locale_names.py fill", file=sys.stderr)
        return 2
    fill()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
