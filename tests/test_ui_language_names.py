"""The game's pieces by the names printed on the French and German editions.

`companion/locale/names.toml` is the one source of those names: every entry reaches each
catalogue with its context ("race", "power"...) and exactly its French and German name,
and the marked module `make locale` extracts them from is the one names.toml makes. The
screens show them: a French and a German market, table, map and past game name the races,
powers and terrains as printed (a combo in the language's word order), the Rules screen
titles an entry by its printed name and finds it by that name typed without accents; in
English every text is what it always was, and what is kept (the game's state) holds the
English names.
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
from babel.messages.pofile import read_po
from factories import created

from companion import i18n
from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store
from companion.ui import names

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).parents[1]
LANGUAGES = ("fr", "de")


def tool() -> ModuleType:
    """tools/locale_names.py, the script `make locale` runs."""
    spec = importlib.util.spec_from_file_location("locale_names",
                                                  ROOT / "tools" / "locale_names.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def names_toml() -> dict[str, Any]:
    with open(ROOT / "companion" / "locale" / "names.toml", "rb") as stream:
        return tomllib.load(stream)


def catalogue_names(language: str) -> dict[tuple[str, str], str]:
    """The catalogue's entries in a name context: (context, English) -> translation."""
    contexts = set(tool().CONTEXTS.values())
    with open(i18n.catalogue_path(language, ".po"), "rb") as stream:
        catalog = read_po(stream)
    return {(m.context, m.id): m.string for m in catalog
            if m.id and m.context in contexts and isinstance(m.id, str)}


# -- names.toml and the catalogues -----------------------------------------------------------

@pytest.mark.parametrize("language", LANGUAGES)
def test_every_name_of_names_toml_is_in_the_catalogue_as_names_toml_says(
        language: str) -> None:
    data = names_toml()
    wanted: dict[tuple[str, str], str] = {}
    for kind, context in tool().CONTEXTS.items():
        for key, entry in data[kind].items():
            english = entry.get("en", key)
            wanted[(context, english)] = entry[language]
    assert len(wanted) == 116  # every entry of the file, none dropped by a clash
    assert catalogue_names(language) == wanted
    i18n.use(language)
    try:  # and the compiled catalogue says the same
        assert {k: i18n.pgettext(*k) for k in wanted} == wanted
    finally:
        i18n.use(i18n.SOURCE)


def test_the_extracted_names_are_the_ones_names_toml_makes() -> None:
    """`make locale` extracts names.toml's names (babel.cfg's `names` extractor), each in its
    context and every power again in its combo's; the screens read an id's English name
    from names.toml too."""
    script = tool()
    with open(ROOT / "companion" / "locale" / "names.toml", "rb") as stream:
        found = [arguments for _line, keyword, arguments, _comments
                 in script.extract_names(stream, None, None, None) if keyword == "pgettext"]
    data = names_toml()
    assert found == [(context, entry.get("en", key))
                     for kind, context in script.CONTEXTS.items()
                     for key, entry in data[kind].items()] + [
                         (script.IN_COMBO, key) for key in data["powers"]]
    assert ("race", "Ghouls") in found and ("power", "Mounted") in found
    config = (ROOT / "babel.cfg").read_text(encoding="utf-8")
    assert "names = tools.locale_names:extract_names" in config
    assert "[names: companion/locale/names.toml]" in config
    assert names.english_by_id("terrains")["farmland"] == "Farmland"
    assert names.english_by_id("expansions") == {
        ident: entry["en"] for ident, entry in data["expansions"].items()}


def test_a_name_changed_in_a_catalogue_is_put_back_from_names_toml(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`fill` makes the catalogues' names names.toml's again, and leaves the rest."""
    script = tool()
    for language in LANGUAGES:
        folder = tmp_path / "companion" / "locale" / language / "LC_MESSAGES"
        folder.mkdir(parents=True)
        text = i18n.catalogue_path(language, ".po").read_text(encoding="utf-8")
        (folder / "companion.po").write_text(text, encoding="utf-8")
    po = tmp_path / "companion" / "locale" / "fr" / "LC_MESSAGES" / "companion.po"
    original = po.read_text(encoding="utf-8")
    tampered = original.replace('msgid "Ghouls"\nmsgstr "Zombies"',
                                'msgid "Ghouls"\nmsgstr "Goules"')
    assert tampered != original
    po.write_text(tampered, encoding="utf-8")
    monkeypatch.setattr(script, "ROOT", tmp_path)
    script.fill()
    assert _but_the_writer(po.read_text(encoding="utf-8")) == _but_the_writer(original)


def _but_the_writer(catalogue: str) -> str:
    """A catalogue without its header's Generated-By line, which names the Babel version
    that wrote it (a fresh venv may have a newer one than the catalogue's)."""
    return re.sub(r'^"Generated-By: [^"]*"\n', "", catalogue, flags=re.MULTILINE)


# -- the names module ------------------------------------------------------------------------

@pytest.fixture
def english() -> Iterator[None]:
    i18n.use(i18n.SOURCE)
    yield
    i18n.use(i18n.SOURCE)


@pytest.mark.parametrize(("language", "shown"), [
    ("en", {"race": "Ghouls", "power": "Mounted", "combo": "Mounted Orcs",
            "dragon": "Dragon Master Halflings", "terrain": "Farmland", "feature": "Magic",
            "event": "Storm", "expansion": "Cursed!", "unknown": "Snowmen"}),
    ("fr", {"race": "Zombies", "power": "Montés", "combo": "Orcs Montés",
            "dragon": "Mi-portions et leur Dragon", "terrain": "Champs",
            "feature": "Source de magie", "event": "Tempête", "expansion": "Maauuudits\u00a0!",
            "unknown": "Snowmen"}),
    ("de", {"race": "Ghule", "power": "Beritten", "combo": "Berittene Orks",
            "dragon": "Drachenbändiger Halblinge", "terrain": "Ackerland",
            "feature": "Magische Quelle", "event": "Sturm", "expansion": "Verflucht!",
            "unknown": "Snowmen"}),
])
def test_names_are_shown_as_printed_and_english_when_unknown(
        english: None, language: str, shown: dict[str, str]) -> None:
    i18n.use(language)
    assert {"race": names.race("Ghouls"), "power": names.power("Mounted"),
            "combo": names.combo("Mounted", "Orcs"),
            "dragon": names.combo("Dragon Master", "Halflings"),
            "terrain": names.terrain("farmland"), "feature": names.feature("magic"),
            "event": names.event("Storm"), "expansion": names.expansion("cursed", "Cursed!"),
            "unknown": names.race("Snowmen")} == shown
    assert names.of_kind("turn", "Pick a combo") == "Pick a combo"
    assert names.expansion("snow-day", "Snow Day") == "Snow Day"
    assert names.terrain("glacier") == "Glacier"


@pytest.mark.parametrize(("language", "soapbar", "tavern"), [
    ("en", "Golden Soapbar", "Glandulf's Tavern"),
    ("fr", "Savonnette dorée", "Taverne de Glandulf"),
    ("de", "Goldene Seife", "Glandulfs Taverne"),
])
def test_an_expansions_pieces_are_named_by_their_kind(
        english: None, language: str, soapbar: str, tavern: str) -> None:
    i18n.use(language)
    assert names.of_kind("relic", "Golden Soapbar") == soapbar
    assert names.of_kind("place", "Glandulf's Tavern") == tavern
    assert names.of_kind("board", "2p") == "2p"  # a kind without names: as it is
    assert names.of_kind("region", "") == ""


def test_names_are_matched_without_accents_or_case() -> None:
    assert names.folded("Géants") == names.folded("geants") == "geants"
    assert names.folded("Mi-portions") == "mi portions"
    assert names.folded("  Dames  Blanches ") == "dames blanches"


# -- the screens -----------------------------------------------------------------------------

@pytest.fixture
def game(headless_app: Any, tmp_path: Path) -> Iterator[tuple[Any, Session]]:
    """Ann and Bob; the market's top rows the Mounted Ghouls and the Forest Halflings; on
    the market screen in English (the next test finds English again: conftest)."""
    s = Session(load_catalog(), rng=random.Random(5), store=Store.open(tmp_path / "g.sqlite3"))
    s.begin(created(2, races=("Ghouls", "Halflings"), powers=("Mounted", "Forest")))
    headless_app.use_session(s, screen="market")
    ui.resize((800, 480))
    ui.pump()
    try:
        yield headless_app, s
    finally:
        ui.close_dialogs()
        headless_app.ctx.nav.go("home")
        ui.pump()
        assert s.store is not None
        s.store.close()


def shown(app: Any, name: str) -> Any:
    app.ctx.nav.go(name)
    ui.pump()
    return app.screens[name]


MARKET = {"en": ["Mounted Ghouls", "Forest Halflings"],
          "fr": ["Zombies Montés", "Mi-portions des Forêts"],
          "de": ["Berittene Ghule", "Wald Halblinge"]}
TABLE = {"en": ("Mounted Ghouls", "No race yet"),
         "fr": ("Zombies Montés", "Pas encore de peuple"),
         "de": ("Berittene Ghule", "Noch kein Volk")}


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_market_and_the_table_name_races_and_powers_as_printed(
        game: tuple[Any, Session], language: str) -> None:
    app, s = game
    i18n.use(language)
    screen = shown(app, "market")
    market = app.presenters["market"]
    assert [row["combo"] for row in market.rows[:2]] == MARKET[language]
    texts = "\n".join(ui.texts(screen))
    assert all(combo in texts for combo in MARKET[language]), texts
    if language != "en":
        assert "Mounted" not in texts and "Ghouls" not in texts, texts

    s.pick(0)
    screen = shown(app, "table")
    rows = app.presenters["table"].players
    assert (rows[0]["combo"], rows[1]["combo"]) == TABLE[language]
    assert TABLE[language][0] in "\n".join(ui.texts(screen))
    # what the game keeps is English whatever is spoken
    active = s.state.players[0].active
    assert active is not None and (active.power, active.race) == ("Mounted", "Ghouls")


def test_the_rules_screen_titles_and_finds_an_entry_by_its_printed_name(
        game: tuple[Any, Session]) -> None:
    app, _s = game
    rules = app.presenters["rules"]
    i18n.use("fr")
    screen = shown(app, "rules")
    rules.search("zombi")
    assert [m["text"] for m in rules.matches] == ["Zombies"]
    assert rules.title == "Zombies"
    assert rules.matches[0]["action_key"] == "match:race:Ghouls"  # the id stays English
    assert "Zombies" in ui.texts(screen)
    rules.search("geants")  # no accent typed
    assert [m["text"] for m in rules.matches] == ["Géants"]
    rules.search("Ghouls")  # the English name finds it too
    assert rules.title == "Zombies"
    rules.show("power", "Dragon Master")
    assert (rules.query, rules.title) == ("Dragon", "Dragon")  # the badge alone: its noun
    i18n.use("de")
    rules.search("hexen")
    assert rules.title == "Hexenmeister"
    i18n.use(i18n.SOURCE)
    rules.search("zombi")
    assert rules.matches == []
    rules.search("ghou")
    assert [m["text"] for m in rules.matches] == ["Ghouls"] and rules.title == "Ghouls"


HOLDER = {"en": ("Held by Ann's Ghouls (3 tokens).", "Region 3: "),
          "fr": ("Zombies", "Région 3\u00a0: "),
          "de": ("Ghule", "Region 3: ")}


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_map_names_the_holder_and_the_terrain_as_printed(
        game: tuple[Any, Session], language: str) -> None:
    app, s = game
    s.pick(0)
    s.set_region(3, 0, "Ghouls", tokens=3)  # a correction: Ann's Ghouls hold region 3
    terrain = s.state.map.region(3).terrain.value
    i18n.use(language)
    shown(app, "map")
    presenter = app.presenters["map"]
    presenter.tap(3)
    held, title = HOLDER[language]
    assert held in presenter.holder_text
    assert presenter.region_title.startswith(title + names.terrain(terrain))
    if language != "en":
        assert "Ghouls" not in presenter.holder_text
        assert names.terrain(terrain) != terrain.title()
    assert s.state.regions[3].occupant is not None
    assert s.state.regions[3].occupant.race == "Ghouls"  # kept in English


@pytest.mark.parametrize(("language", "line"), [
    ("en", "Mounted Ghouls (turn 2, 5 coins)"),
    ("fr", "Zombies Montés"),
    ("de", "Berittene Ghule"),
])
def test_a_past_games_combos_are_named_as_printed(english: None, language: str,
                                                   line: str) -> None:
    from companion.records import ComboPlayed
    from companion.ui.presenters.history_game import combo_words

    i18n.use(language)
    said = combo_words(ComboPlayed(seat=0, turn=2, row=0, race="Ghouls", power="Mounted",
                                   coins=5))
    assert said.startswith(line), said
