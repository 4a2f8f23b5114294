"""The translations: complete, matching the code, compiled, with the right plurals and glyphs.

The strings are extracted from the sources with Babel's own API and the mapping
``make locale`` uses (``babel.cfg``: the Python modules and the kv layouts), so a string
wrapped in code but missing from a catalogue fails here, and so does a catalogue entry no
code uses any more, an empty or fuzzy translation, a placeholder lost or renamed in a
translation, and a ``.mo`` file not compiled again after its ``.po`` changed. The
language switch, the system's default and the pseudo-locale are checked on the pure
module (`companion.i18n`); the screens' switch is `tests/test_ui_language.py`. A game
played while French, German or the pseudo-locale is spoken is saved, logged and exported
byte for byte as in English (ids and English keys, never translated text).
"""

from __future__ import annotations

import gettext
import re
import string
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from companion import i18n
from companion.rules.catalog import load_catalog

ROOT = Path(__file__).parents[1]
TRANSLATED = ("fr", "de")
EXTRA_KEYWORDS = {"tr": None, "N_": None, "said": None, "said_n": (1, 2)}
"""What ``make locale`` adds to Babel's keywords (``-k tr -k N_ -k said -k said_n:1,2``):
kv's ``lang.tr`` and the rules' sentences (`companion.rules.said`). The names of the game's
pieces and the catalog's summaries come through babel.cfg's own extractors
(tools/locale_names.py) with their context, so a name's entry is "used by code" only while
names.toml still has it, a summary's while the catalog does."""
MAKE_KEYWORDS = ("-k tr", "-k N_", "-k said", "-k said_n:1,2")
PLURAL_RULES = {"fr": "(n > 1)", "de": "(n != 1)"}

Key = tuple[str | None, str]
"""A message as a catalogue files it: its context and its (singular) msgid."""


def extracted() -> dict[Key, Any]:
    """Every string the code wraps, by context and msgid -> the msgid (a tuple for a
    plural), read with Babel as ``make locale`` reads it (babel.cfg's extractors imported
    from the repository's root, as its ``PYTHONPATH=.`` does)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    with open(ROOT / "babel.cfg", encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    keywords = {**DEFAULT_KEYWORDS, **EXTRA_KEYWORDS}
    found: dict[Key, Any] = {}
    for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords):
        single = message[0] if isinstance(message, tuple) else message
        found[(context, single)] = message
    return found


@pytest.fixture(scope="module")
def code() -> dict[Key, Any]:
    return extracted()


def catalogue(language: str) -> Catalog:
    with open(i18n.catalogue_path(language, ".po"), "rb") as stream:
        return read_po(stream)


def messages(cat: Catalog) -> Iterator[Message]:
    return (m for m in cat if m.id)


def key(message: Message) -> Key:
    single = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return (message.context, single)


def fields(text: str) -> list[str]:
    """The placeholders of `text`, sorted: ``{name}`` fields and ``%(name)s``."""
    named = [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]
    return sorted(named + re.findall(r"%\((\w+)\)[sd]", text))


def forms(value: Any) -> list[str]:
    return list(value) if isinstance(value, tuple | list) else [value]


# -- the catalogues against the code --------------------------------------------------------

WRAPPED_KV = ("home.kv", "settings.kv", "necromancer.kv",
              "table.kv", "market.kv", "die.kv", "game_end.kv", "scoring.kv",
              "map.kv", "new_game.kv", "history.kv", "history_game.kv", "stats.kv",
              "profiles.kv", "calibration.kv", "rules.kv", "widgets.kv")
WRAPPED_MODULES = ("companion/ui/presenters/home.py", "companion/ui/presenters/settings.py",
                   "companion/ui/presenters/necromancer.py", "companion/ui/presenters/river.py",
                   "companion/ui/presenters/teams.py", "companion/ui/presenters/mini.py",
                   "companion/ui/presenters/expansion.py",
                   "companion/ui/presenters/table.py", "companion/ui/presenters/market.py",
                   "companion/ui/presenters/die.py", "companion/ui/presenters/game_end.py",
                   "companion/ui/presenters/scoring.py", "companion/ui/presenters/sides.py",
                   "companion/ui/describe.py", "companion/ui/results.py",
                   "companion/ui/seats.py", "companion/ui/palette.py", "companion/story.py",
                   "companion/ui/presenters/map.py", "companion/ui/presenters/new_game.py",
                   "companion/ui/presenters/history.py",
                   "companion/ui/presenters/history_game.py",
                   "companion/ui/presenters/stats.py", "companion/ui/presenters/profiles.py",
                   "companion/ui/presenters/calibration.py",
                   "companion/ui/presenters/keypads.py", "companion/ui/presenters/rules.py",
                   "companion/ui/presenters/base.py", "companion/ui/widgets.py",
                   "companion/ui/grid.py", "companion/app.py",
                   "companion/commands/doctor.py", "companion/commands/export.py",
                   "companion/commands/play.py", "companion/commands/score.py")
"""The screens whose every word is wrapped (issue 18 wraps the others screen by screen:
add each here once it is done)."""


def test_the_wrapped_screens_show_no_literal_words() -> None:
    """In a wrapped kv file every text and title is ``lang.tr("...")`` (or a presenter's
    property); in a wrapped presenter no f-string holds words (a sentence is
    ``_("... {name} ...").format(name=...)``, which a translation may reorder)."""
    import ast

    wrapped = re.compile(r'\btr\("[^"]*"\)')
    words = re.compile(r'"[^"]*[A-Za-z]{2}[^"]*"')
    for name in WRAPPED_KV:
        lines = (ROOT / "kv" / name).read_text(encoding="utf-8").splitlines()
        found = [f"{name}:{n}: {line.strip()}" for n, line in enumerate(lines, 1)
                 if re.match(r"\s*(text|title):", line)
                 and words.search(wrapped.sub("", line))]
        assert found == []
    for module in WRAPPED_MODULES:
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
        worded = [f"{module}:{node.lineno}" for node in ast.walk(tree)
                  if isinstance(node, ast.JoinedStr) and re.search(r"[A-Za-z]{2}", "".join(
                      str(part.value) for part in node.values
                      if isinstance(part, ast.Constant)))]
        assert worded == []



def test_the_code_wraps_the_home_and_settings_screens(code: dict[Key, Any]) -> None:
    """The extraction finds the strings (a wrong mapping would make the others vacuous)."""
    assert (None, "New game") in code  # kv/home.kv: lang.tr("New game")
    assert (None, "No game on the table.") in code  # home.py: N_(...)
    assert code[(None, "{count} saved player.")] == ("{count} saved player.",
                                                      "{count} saved players.")
    makefile = (ROOT / "Makefile").read_text()
    for keyword in MAKE_KEYWORDS:
        assert f"{keyword} " in makefile
    assert ("race", "Ghouls") in code  # names.toml: Ghouls = { fr = "Zombies", ...
    assert ("power-in-combo", "Mounted") in code  # names.toml's powers, again in combos
    assert ("summary", load_catalog().races[0].summary) in code  # races.json


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_string_in_the_code_is_translated(language: str, code: dict[Key, Any]) -> None:
    cat = catalogue(language)
    entries = {key(m): m for m in messages(cat)}
    missing = sorted(str(k) for k in code if k not in entries)
    assert missing == [], f"not in {language}'s catalogue (run make locale): {missing}"
    untranslated = sorted(str(key(m)) for m in entries.values()
                          if not all(forms(m.string)) or m.fuzzy)
    assert untranslated == [], f"untranslated or fuzzy in {language}: {untranslated}"
    for k, msgid in code.items():
        entry = entries[k]
        assert forms(entry.id) == forms(msgid), f"{k}: the plural changed in the code"
        if isinstance(msgid, tuple):
            assert len(forms(entry.string)) == cat.num_plurals == 2


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_catalogue_entry_is_left_that_no_code_uses(language: str,
                                                      code: dict[Key, Any]) -> None:
    unused = sorted(str(key(m)) for m in messages(catalogue(language)) if key(m) not in code)
    assert unused == [], f"{language}'s catalogue has entries no code uses: {unused}"
    assert not catalogue(language).obsolete


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_placeholders_match_between_msgid_and_translation(language: str) -> None:
    wrong = []
    for message in messages(catalogue(language)):
        wanted = fields(forms(message.id)[-1])
        for form in forms(message.string):
            if fields(form) != wanted and fields(form) != fields(forms(message.id)[0]):
                wrong.append(f"{message.id!r} -> {form!r}")
            form.format(**{name: "x" for name in fields(form)})  # well formed
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalogue_has_its_language_and_plural_rule(language: str) -> None:
    cat = catalogue(language)
    assert str(cat.locale) == language
    assert cat.plural_expr == PLURAL_RULES[language]


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalogue_is_the_po_file_compiled(language: str) -> None:
    """The .mo holds exactly what the .po says (run make locale after editing a .po)."""
    with open(i18n.catalogue_path(language), "rb") as stream:
        compiled = gettext.GNUTranslations(stream)
    wanted: dict[Any, str] = {}
    for message in messages(catalogue(language)):
        prefix = f"{message.context}\x04" if message.context else ""
        if isinstance(message.id, tuple | list):
            for index, form in enumerate(message.string):
                wanted[(prefix + message.id[0], index)] = form
        else:
            wanted[prefix + message.id] = message.string
    found = {k: v for k, v in compiled._catalog.items() if k != ""}  # type: ignore[attr-defined]
    assert found == wanted
    assert compiled.plural(0) == (0 if language == "fr" else 1)


# -- plurals, switching, the default ---------------------------------------------------------

@pytest.fixture
def english() -> Iterator[None]:
    """Each test starts and ends in English, whatever it switched to."""
    i18n.use(i18n.SOURCE)
    yield
    i18n.use(i18n.SOURCE)


@pytest.mark.parametrize(("language", "counts"), [
    ("en", {0: "0 saved players.", 1: "1 saved player.", 2: "2 saved players."}),
    ("fr", {0: "0 joueur enregistré.", 1: "1 joueur enregistré.",
            2: "2 joueurs enregistrés."}),
    ("de", {0: "0 gespeicherte Spieler.", 1: "1 gespeicherter Spieler.",
            2: "2 gespeicherte Spieler."}),
])
def test_plural_forms_follow_each_language(english: None, language: str,
                                           counts: dict[int, str]) -> None:
    i18n.use(language)
    for n, text in counts.items():
        assert i18n.ngettext("{count} saved player.", "{count} saved players.",
                             n).format(count=n) == text
    minutes = {n: i18n.ngettext("After {count} minute", "After {count} minutes",
                                n).format(count=n) for n in (1, 2)}
    assert minutes == {"en": {1: "After 1 minute", 2: "After 2 minutes"},
                       "fr": {1: "Après 1 minute", 2: "Après 2 minutes"},
                       "de": {1: "Nach 1 Minute", 2: "Nach 2 Minuten"}}[language]


def test_switching_speaks_the_new_language_at_once_and_tells_each_listener_once(
        english: None) -> None:
    heard: list[str] = []
    i18n.subscribe(heard.append)
    i18n.subscribe(heard.append)  # once is enough
    try:
        assert i18n._("New game") == "New game"
        assert i18n.use("fr") == "fr"
        assert i18n._("New game") == "Nouvelle partie"
        i18n.use("fr")  # the same again: nobody is told
        assert i18n.use("de") == "de"
        assert i18n._("New game") == "Neues Spiel"
        assert i18n.use("it") == "en"  # unknown: English
        assert i18n._("New game") == "New game"
        assert heard == ["fr", "de", "en"]
    finally:
        i18n.unsubscribe(heard.append)


def test_a_missing_or_damaged_catalogue_is_english(english: None, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    assert i18n.translations("fr").gettext("New game") == "New game"
    damaged = i18n.catalogue_path("de")
    damaged.parent.mkdir(parents=True)
    damaged.write_bytes(b"not a catalogue at all")
    assert i18n.translations("de").gettext("New game") == "New game"


@pytest.mark.parametrize(("environ", "language"), [
    ({}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "de_AT.UTF-8"}, "de"),
    ({"LANG": "fr_BE@euro"}, "fr"),
    ({"LANG": "es_ES.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_ALL": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"}, "de"),
    ({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANGUAGE": "it:de:fr", "LANG": "it_IT.UTF-8"}, "de"),
    ({"LANGUAGE": "it", "LC_MESSAGES": "fr_CH.UTF-8"}, "fr"),
])
def test_the_default_is_the_systems_language_when_the_table_speaks_it(
        environ: dict[str, str], language: str) -> None:
    assert i18n.system_language(environ) == language
    assert i18n.resolve(i18n.AUTO, environ) == language
    assert i18n.resolve("de", environ) == "de"


def test_the_language_module_imports_no_kivy() -> None:
    probe = ("import sys, companion.i18n, companion.config; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'kivy'))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"


# -- the pseudo-locale -----------------------------------------------------------------------

ACCENTED = set("éèçœäöüß")


def test_the_pseudo_locale_lengthens_and_accents_every_string(english: None,
                                                              code: dict[Key, Any]) -> None:
    i18n.use(i18n.PSEUDO)
    for msgid in code.values():
        for english_text in forms(msgid):
            shown = i18n._(english_text) if not isinstance(msgid, tuple) else i18n.ngettext(
                msgid[0], msgid[1], 1 if english_text == msgid[0] else 2)
            bare = re.sub(r"\{[^{}]*\}", "", english_text)
            assert len(shown) - len(english_text) >= 0.4 * len(bare) - 1, shown
            assert fields(shown) == fields(english_text), shown
            if any(c.isalpha() for c in bare):
                assert ACCENTED & set(shown), shown
            assert shown.startswith("[") and shown.endswith("]")
    assert i18n._("Shoes") == "[Shœß ç]"


def test_the_pseudo_locale_keeps_placeholders_and_lines(english: None) -> None:
    i18n.use(i18n.PSEUDO)
    text = i18n._("On the table: {names}, turn {turn} of {turns}.")
    assert text.format(names="Ann, Bob", turn=2, turns=10).count("Ann, Bob") == 1
    assert "{turns}" in text
    assert i18n.pseudo("one\ntwo").count("\n") == 1
    assert i18n.pseudo("") == ""


# -- the font --------------------------------------------------------------------------------

def test_the_apps_font_has_every_letter_the_translations_use(code: dict[Key, Any]) -> None:
    """Kivy's default font (Roboto, which every label uses) has a glyph for é, è, ç, œ, ä,
    ö, ü, ß and for every other character of the catalogues and the pseudo-locale."""
    import kivy
    from ui_support import font_chars

    used = set("éèçœäöüßÉÈÇŒÄÖÜ«»„“\u00a0")
    for language in TRANSLATED:
        for message in messages(catalogue(language)):
            used.update("".join(forms(message.string)))
    for msgid in code.values():
        for text in forms(msgid):
            used.update(i18n.pseudo(text))
    used -= {"\n"}
    fonts = Path(kivy.__file__).parent / "data" / "fonts"
    for face in ("Roboto-Regular.ttf", "Roboto-Bold.ttf"):
        missing = sorted(used - font_chars(str(fonts / face)))
        assert missing == [], f"{face} has no glyph for {missing}"


def test_contexts_and_plurals_through_a_compiled_catalogue(
        english: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`pgettext` and `npgettext` reach the entry of their context, and a count picks the
    form by the catalogue's own plural rule (French: 0 and 1 are singular; German: 1).

    The rule is the project's catalogue's (its header), not the one Babel's CLDR data
    gives for the locale: Babel 2.19 gives French three forms (one, many, other), which
    `make locale` keeps out of the catalogues' headers."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    wanted = {
        "fr": {"coins": ("{count} pièce", "{count} pièces"), "race": "Amazones",
               "word": "amazones", "counts": {0: "0 pièce", 1: "1 pièce", 2: "2 pièces"}},
        "de": {"coins": ("{count} Münze", "{count} Münzen"), "race": "Amazonen",
               "word": "Amazonen (Wort)", "counts": {0: "0 Münzen", 1: "1 Münze",
                                                     2: "2 Münzen"}},
    }
    for language, words in wanted.items():
        with open(i18n.LOCALE_DIR / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.po",
                  "rb") as stream:
            rule = read_po(stream).plural_forms
        cat = Catalog(locale=language)
        cat.mime_headers = [("Plural-Forms", rule)]
        cat.add(("{count} coin", "{count} coins"), words["coins"], context="purse")
        cat.add("Amazons", words["race"], context="race")
        cat.add("Amazons", words["word"])
        path = tmp_path / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo"
        path.parent.mkdir(parents=True)
        with open(path, "wb") as stream:
            write_mo(stream, cat)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    for language, words in wanted.items():
        i18n.use(language)
        assert i18n.pgettext("race", "Amazons") == words["race"]
        assert i18n._("Amazons") == words["word"]
        counts = {n: i18n.npgettext("purse", "{count} coin", "{count} coins", n).format(
            count=n) for n in (0, 1, 2)}
        assert counts == words["counts"]
    i18n.use(i18n.SOURCE)
    assert i18n.npgettext("purse", "{count} coin", "{count} coins", 1) == "{count} coin"
    i18n.use(i18n.PSEUDO)
    assert i18n.pgettext("race", "Amazons") == i18n.pseudo("Amazons")


# -- what is kept stays language-neutral -----------------------------------------------------

def _play_and_keep(folder: Path, language: str) -> tuple[dict[str, str], list[Any]]:
    """The same game played and saved while `language` is spoken: its exports, and every
    row the saved-games file holds about it."""
    import sqlite3

    from test_store_history import CATALOG, Clock, play_game_1

    from companion.store import Store

    i18n.use(language)
    db = folder / language / "companion.sqlite3"
    db.parent.mkdir()
    clock = Clock()
    with Store.open(db, catalog=CATALOG, clock=clock) as store:
        game = play_game_1(store, clock)
        exports = {fmt: store.export(game, fmt) for fmt in ("json", "csv", "bgstats")}
    with sqlite3.connect(db) as connection:
        rows = [(table, *row) for table in ("events", "games", "game_seats", "turn_scores",
                                            "game_combos")
                for row in connection.execute(f"SELECT * FROM {table}")]
    return exports, rows


def test_saved_games_exports_and_the_event_log_are_the_same_in_every_language(
        english: None, tmp_path: Path) -> None:
    kept = {language: _play_and_keep(tmp_path, language)
            for language in (*i18n.LANGUAGES, i18n.PSEUDO)}
    assert kept["en"][0]["json"] and kept["en"][1]
    for language, (exports, rows) in kept.items():
        assert exports == kept["en"][0], language
        assert rows == kept["en"][1], language


def test_the_dies_odds_agree_with_the_faces_that_win(english: None) -> None:
    """One face that wins is said in the singular in every language (French put '1 faces
    sur 6 gagnent' on the map panel)."""
    from companion.i18n import ngettext

    one, many = ("The die: {short} short; {good} of {faces} faces wins ({percent}%).",
                 "The die: {short} short; {good} of {faces} faces win ({percent}%).")
    said = {}
    for language in ("en", "fr", "de"):
        i18n.use(language)
        said[language] = [ngettext(one, many, good).format(short=3, good=good, faces=6,
                                                           percent=17 * good)
                          for good in (1, 2)]
    assert said["fr"] == ["Le dé\u00a0: il en manque 3\u00a0; 1 face sur 6 gagne (17\u00a0%).",
                          "Le dé\u00a0: il en manque 3\u00a0; 2 faces sur 6 gagnent (34\u00a0%)."]
    assert said["de"][0].endswith("1 von 6 Seiten gewinnt (17 %).")
    assert said["en"][1] == "The die: 3 short; 2 of 6 faces win (34%)."
