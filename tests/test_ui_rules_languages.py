"""The Rules screen in French and German: every entry's words, its facts line and the set it
comes from reach the screen in the table's language, written afresh, with no English left.

The rule book keeps its English (`companion.rules.rulebook`); the screen words each entry
when it shows it. These checks drive the real screen in a headless window: for every entry
of the rule book, in each language, the text shown differs from the English and none of the
English text's longer words is left in it unless it is a name (a race, a power, a piece, a
terrain, as names.toml prints them) or the same word in that language; a search by a
French and by a German name finds the entry and shows its translated words; a long entry
in German fits at 800x480. Every summary of the catalog's data is extracted for the
catalogues (`tools/locale_names.py`'s extractor).
"""

from __future__ import annotations

import importlib.util
import random
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import ui_support as ui
from factories import created

from companion import i18n
from companion.rules.catalog import load_catalog
from companion.rules.rule_entry import english
from companion.rules.rulebook import load_rulebook
from companion.session import Session

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).parents[1]
LANGUAGES = ("fr", "de")
LONG = 7
"""An English word this long or longer is a sentence's word, not a short shared one."""
SAME_WORD = {"fr": {"central", "exception"}, "de": set[str]()}
"""English words that are also that language's own, spelt alike ("le lac central")."""


def _names() -> set[str]:
    """Every word of every name in names.toml, in every language (folded)."""
    with (ROOT / "companion" / "locale" / "names.toml").open("rb") as stream:
        data = tomllib.load(stream)
    found: set[str] = set()
    for kind in data.values():
        if not isinstance(kind, dict):
            continue
        for key, entry in kind.items():
            if not isinstance(entry, dict):
                continue
            texts = [key, *(str(entry[lang]) for lang in ("en", "fr", "de") if lang in entry)]
            for text in texts:
                found |= set(_words(text))
    return found


def _words(text: str) -> list[str]:
    return [w.casefold() for w in re.findall(r"[^\W\d_]+", text)]


NAME_WORDS = _names()


@pytest.fixture
def screen() -> Iterator[Any]:
    s = Session(load_catalog(), rng=random.Random(1))
    s.begin(created(3))
    app = ui.app_for(s)
    ui.resize((800, 480))
    app.ctx.nav.go("rules")
    ui.pump()
    yield app.screens["rules"]
    ui.resize((800, 480))


def shown(screen: Any, kind: str, name: str) -> tuple[str, str, str]:
    """The entry's title, about line and words as the screen shows them."""
    screen.p.show(kind, name)
    ids = screen.ids
    return ids.title.text, ids.about.text, ids.text.text


def english_left(english_text: str, text: str, language: str) -> list[str]:
    """The English text's longer words found in `text`, names and shared words apart."""
    words = set(_words(text))
    return sorted(w for w in set(_words(english_text))
                  if len(w) >= LONG and w in words and w not in NAME_WORDS
                  and w not in SAME_WORD[language])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_shows_its_words_in_the_table_s_language(screen: Any,
                                                             language: str) -> None:
    book = load_rulebook()
    english_view = {(e.kind, e.name): shown(screen, e.kind, e.name) for e in book.entries}
    i18n.use(language)
    ui.pump()
    problems: list[str] = []
    for entry in book.entries:
        title, about, text = shown(screen, entry.kind, entry.name)
        source = english(entry.text)
        en_title, en_about, en_text = english_view[(entry.kind, entry.name)]
        assert en_text == source  # in English the screen shows the rule book's words
        where = f"{entry.kind} {entry.name!r}"
        if text == source or not text.strip():
            problems.append(f"{where}: its words are the English")
        if left := english_left(source, text, language):
            problems.append(f"{where}: English words left {left}: {text!r}")
        if about == en_about:
            problems.append(f"{where}: its about line is the English {about!r}")
        if left := english_left(en_about, about, language):
            problems.append(f"{where}: English in the about line {left}: {about!r}")
        if any(w in _words(about) for w in ("token", "tokens", "box")):
            problems.append(f"{where}: English facts {about!r}")
        if entry.kind == "turn" and title == en_title:
            problems.append(f"{where}: its title is the English")
        if "{" in text or "{" in about:
            problems.append(f"{where}: a placeholder left {text!r} {about!r}")
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_numbers_of_the_rules_reach_the_translated_words(screen: Any,
                                                            language: str) -> None:
    """A text holding a number of the rules (a Said) shows the number, in the language;
    a race's facts show its banner's numbers."""
    i18n.use(language)
    ui.pump()
    _title, about, text = shown(screen, "piece", "Ghosts")
    assert "14" in text and text != english(load_rulebook().entry("piece", "Ghosts").text)
    _title, about, _text = shown(screen, "race", "Amazons")
    assert all(number in about for number in ("6", "4", "15")), about
    words = {"fr": "pions", "de": "Marker"}[language]
    assert words in about


def test_a_french_name_finds_its_entry_and_shows_french_words(screen: Any) -> None:
    i18n.use("fr")
    ui.pump()
    screen.p.search("mi portions")  # Mi-portions, typed without the hyphen
    ui.pump()
    assert screen.ids.title.text == "Mi-portions"
    assert [row["text"] for row in screen.ids.matches.data] == ["Mi-portions"]
    assert screen.ids.text.text.startswith("Leur première conquête peut se faire")
    assert "Peuple" in screen.ids.about.text and "Jeu de base" in screen.ids.about.text
    assert "Bannière\u00a0: 6 pions\u00a0; 11 dans la boîte" in screen.ids.about.text
    screen.p.search("préparer")  # a turn step by its French name
    ui.pump()
    assert screen.ids.title.text == "Préparer vos troupes"
    assert screen.ids.text.text.startswith("Si vous avez un peuple actif")


def test_a_german_name_finds_its_entry_and_shows_german_words(screen: Any) -> None:
    i18n.use("de")
    ui.pump()
    screen.p.search("Seelenbr")
    ui.pump()
    assert screen.ids.title.text == "Seelenbrunnen"
    assert screen.ids.text.text.startswith("Jeder Marker, der bei einer Eroberung")
    assert "Die Insel des Geisterbeschwörers" in screen.ids.about.text
    screen.p.search("strauch")
    ui.pump()
    assert screen.ids.title.text == "Strauchmänner"
    assert screen.ids.text.text.startswith("Waldregionen, die sie halten")


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_a_long_entry_in_german_fits_the_screen(screen: Any, size: tuple[int, int]) -> None:
    i18n.use("de")
    ui.resize(size)
    for kind, name in (("piece", "Necromancer"), ("race", "Priestesses"),
                       ("power", "Catapult"), ("turn", "Redeploy")):
        screen.p.show(kind, name)
        ui.pump()
        assert ui.layout_problems(screen) == [], (kind, name, size)
        assert ui.broken_words(screen) == [], (kind, name, size)  # no word cut in two
        assert ui.glyph_problems(screen) == [], (kind, name, size)


def locale_names() -> ModuleType:
    """tools/locale_names.py, the script `make locale` runs."""
    spec = importlib.util.spec_from_file_location("locale_names",
                                                  ROOT / "tools" / "locale_names.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_extracted_summaries_are_the_catalogs() -> None:
    """`make locale` extracts every race's and power's summary from the catalog's data
    (babel.cfg's `summaries` extractor), in the files' order, with the context "summary",
    so every summary is in the catalogues under that context."""
    script = locale_names()
    catalog = load_catalog()
    config = (ROOT / "babel.cfg").read_text(encoding="utf-8")
    assert "summaries = tools.locale_names:extract_summaries" in config
    for kind, items in (("races", catalog.races), ("powers", catalog.powers)):
        assert f"[summaries: companion/data/{kind}.json]" in config
        with open(ROOT / "companion" / "data" / f"{kind}.json", "rb") as stream:
            found = [arguments for _line, _keyword, arguments, _comments
                     in script.extract_summaries(stream, None, None, None)]
        assert found == [("summary", item.summary) for item in items]
