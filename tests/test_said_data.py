"""The data files' errors reach a French or German table in its language.

A broken catalog file, a rule book entry, a name looked up that does not exist and a
group's own board file that cannot be used each raise an error whose `str()` is the same
English as ever (the existing tests hold it word for word) and whose sentence
(`error.said`, `BrokenBoard.said`) `companion.ui.wording.say` words in French and in
German: the language's own template is there, with the values quoted from the file (a
field's name, a JSON value, the file's path) as they are. The new-game screen's notice and
`companion doctor` show a broken board file's reason in the language spoken.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from words_support import in_language

from companion import i18n
from companion.boards import custom_boards_dir, load_custom_boards
from companion.paths import data_file
from companion.rules import RulesError, Said
from companion.rules.catalog import load_catalog, parse_catalog
from companion.rules.errors import DataError, UnknownName
from companion.rules.rule_entry import RACE, RuleEntry
from companion.rules.rulebook import KINDS, Rulebook, build_rulebook
from companion.rules.said import N_
from companion.ui.wording import say

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NB = "\u00a0"
"""French puts a no-break space before : and ;."""

Docs = dict[str, dict[str, Any]]


def raised(action: Callable[[], object]) -> RulesError:
    with pytest.raises(RulesError) as caught:
        action()
    return caught.value


def spoken(what: RulesError | Said, english: str) -> dict[str, str]:
    """`what` says `english` by str() and on an English table, and something else in
    French and German; the French and German texts, by language."""
    assert str(what) == english
    assert say(what) == english
    shown = {language: in_language(language, what) for language in ("fr", "de")}
    for language, text in shown.items():
        assert text != english, (language, text)
    return shown


# --- the catalog's files ----------------------------------------------------------------


@pytest.fixture
def docs() -> Docs:
    """The packaged catalog's three documents, to break one field at a time."""
    folder = resources.files("companion.data")
    return {name: json.loads(folder.joinpath(f"{name}.json").read_text("utf-8"))
            for name in ("races", "powers", "components")}


def parse(docs: Docs) -> RulesError:
    return raised(lambda: parse_catalog(docs["races"], docs["powers"], docs["components"]))


def race(docs: Docs, name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(r for r in docs["races"]["races"] if r["name"] == name)
    return found


def test_a_number_below_its_least_names_the_race_and_the_field_in_the_language(
        docs: Docs) -> None:
    race(docs, "Dwarves")["tokens"] = -1
    error = parse(docs)
    assert isinstance(error, DataError)
    shown = spoken(error, "races.json: race 'Dwarves': tokens must be at least 1, got -1")
    assert shown["fr"] == (f"races.json{NB}: peuple 'Dwarves'{NB}: tokens doit valoir au "
                           "moins 1, reçu -1")
    assert shown["de"] == ("races.json: Volk 'Dwarves': tokens muss mindestens 1 sein, "
                           "erhalten: -1")
    assert (error.entry, error.problem) == ("race 'Dwarves'", "tokens must be at least 1, got -1")


def test_a_missing_and_an_unknown_field_keep_the_fields_name(docs: Docs) -> None:
    power = docs["powers"]["powers"][0]
    name = power["name"]
    del power["summary"]
    shown = spoken(parse(docs), f"powers.json: power {name!r}: missing field 'summary'")
    assert shown["fr"] == f"powers.json{NB}: pouvoir {name!r}{NB}: champ 'summary' manquant"
    assert shown["de"] == f"powers.json: Sonderfähigkeit {name!r}: Feld 'summary' fehlt"
    power["summary"] = "back"
    power["colour"] = "red"
    shown = spoken(parse(docs), f"powers.json: power {name!r}: unknown field 'colour'; "
                                "allowed: confidence, expansion, name, single_source, "
                                "summary, tokens")
    assert shown["fr"].startswith(f"powers.json{NB}: pouvoir {name!r}{NB}: champ 'colour' "
                                  f"inconnu{NB}; champs possibles{NB}: confidence, ")
    assert shown["de"].startswith(f"powers.json: Sonderfähigkeit {name!r}: unbekanntes Feld "
                                  "'colour'; erlaubt: confidence, ")


def test_a_name_given_twice_and_an_unknown_expansion(docs: Docs) -> None:
    races = docs["races"]["races"]
    races.append(copy.deepcopy(races[0]) | {"name": races[0]["name"].upper()})
    twice = races[-1]["name"]
    shown = spoken(parse(docs), f"races.json: race {twice!r}: the name is used twice (also "
                                "race #1; case is ignored)")
    assert f"peuple {twice!r}{NB}: le nom figure deux fois (aussi au peuple n°{NB}1" in shown["fr"]
    assert f"Volk {twice!r}: der Name kommt zweimal vor (auch bei Volk Nr. 1;" in shown["de"]
    races.pop()
    races[0]["expansion"] = "moon"
    error = parse(docs)
    assert str(error).startswith(f"races.json: race {races[0]['name']!r}: unknown expansion "
                                 '"moon"; allowed: base, ')
    assert str(error).endswith("(components.json)")
    french = in_language("fr", error)
    assert f'extension "moon" inconnue{NB}; valeurs possibles{NB}: base, ' in french
    assert 'unbekannte Erweiterung "moon"; erlaubt: base, ' in in_language("de", error)
    assert in_language("de", error).endswith("(components.json)")


def test_the_top_level_the_die_and_the_turn_track(docs: Docs) -> None:
    docs["races"]["schema"] = 2
    shown = spoken(parse(docs), "races.json: top level: schema 2 is not supported (this "
                                "version reads 1)")
    assert shown["fr"] == (f"races.json{NB}: niveau supérieur{NB}: le schéma 2 n'est pas pris "
                           "en charge (cette version lit le 1)")
    assert shown["de"] == ("races.json: oberste Ebene: Schema 2 wird nicht unterstützt (diese "
                           "Version liest 1)")
    docs["races"]["schema"] = 1
    docs["components"]["die_faces"] = [0, "x"]
    shown = spoken(parse(docs), 'components.json: die_faces: each face must be a whole '
                                'number, got "x"')
    assert shown["fr"].endswith('die_faces : chaque face doit être un nombre entier, reçu "x"'
                                .replace(" :", NB + ":"))
    assert shown["de"].endswith('die_faces: jede Seite muss eine ganze Zahl sein, erhalten: "x"')
    docs["components"]["die_faces"] = [0, 1]
    docs["components"]["turns_by_players"] = {"1": 5}
    shown = spoken(parse(docs), "components.json: turns_by_players: player count '1' must be "
                                "a whole number of at least 2")
    assert "le nombre de joueurs '1' doit être un nombre entier d'au moins 2" in shown["fr"]
    assert "die Spielerzahl '1' muss eine ganze Zahl von mindestens 2 sein" in shown["de"]
    docs["components"]["turns_by_players"] = {"2": 0}
    shown = spoken(parse(docs), "components.json: turns_by_players: turns for 2 players must "
                                "be at least 1, got 0")
    assert "tours pour 2 joueurs doit valoir au moins 1, reçu 0" in shown["fr"]
    assert "Runden für 2 Spieler muss mindestens 1 sein, erhalten: 0" in shown["de"]


def test_a_box_smaller_than_the_banner_counts_its_tokens_in_the_plural(docs: Docs) -> None:
    amazons = race(docs, "Amazons")
    amazons["max_tokens"] = 3
    least = amazons["tokens"] + amazons.get("conquest_only_tokens", 0)
    shown = spoken(parse(docs), f"races.json: race 'Amazons': max_tokens 3 is fewer than the "
                                f"{least} tokens the banner gives")
    assert f"max_tokens 3 est inférieur aux {least} pions que donne la bannière" in shown["fr"]
    assert f"max_tokens 3 ist weniger als die {least} Marker, die das Banner gibt" in shown["de"]


# --- a name that does not exist ----------------------------------------------------------


def test_an_unknown_race_power_or_expansion_is_said_with_its_kind_in_the_language() -> None:
    catalog = load_catalog()
    error = raised(lambda: catalog.race("Gnomes"))
    assert isinstance(error, UnknownName) and error.kind == "race"
    allowed = ", ".join(r.name for r in catalog.races)
    shown = spoken(error, f"unknown race 'Gnomes'; allowed: {allowed}")
    assert shown["fr"] == f"peuple 'Gnomes' introuvable{NB}; valeurs possibles{NB}: {allowed}"
    assert shown["de"] == f"Volk 'Gnomes' unbekannt; erlaubt: {allowed}"
    shown = spoken(raised(lambda: catalog.power("Sneaky")),
                   f"unknown power 'Sneaky'; allowed: {', '.join(p.name for p in catalog.powers)}")
    assert shown["fr"].startswith("pouvoir 'Sneaky' introuvable")
    assert shown["de"].startswith("Sonderfähigkeit 'Sneaky' unbekannt; erlaubt: ")
    shown = spoken(raised(lambda: catalog.races_in(["moon"])),
                   f"unknown expansion 'moon'; allowed: "
                   f"{', '.join(ident for ident, _ in catalog.expansions)}")
    assert shown["fr"].startswith("extension 'moon' introuvable")
    assert shown["de"].startswith("Erweiterung 'moon' unbekannt; erlaubt: base, ")


def test_an_unknown_name_with_nothing_allowed_is_said_without_a_list() -> None:
    shown = spoken(UnknownName(N_("race"), "Gnomes"), "unknown race 'Gnomes'")
    assert shown == {"fr": "peuple 'Gnomes' introuvable", "de": "Volk 'Gnomes' unbekannt"}


def test_an_entry_the_rule_book_lacks_is_said_in_the_language() -> None:
    book = build_rulebook(load_catalog())
    shown = spoken(raised(lambda: book.entry("spell", "x")),
                   "unknown kind of rule 'spell'; allowed: " + ", ".join(KINDS))
    assert shown["fr"].startswith("type de règle 'spell' introuvable")
    assert shown["de"].startswith("Regelart 'spell' unbekannt")
    power = raised(lambda: book.entry("power", "Sneaky"))
    assert str(power).startswith("unknown special power 'Sneaky'; allowed: ")
    assert in_language("fr", power).startswith(f"pouvoir spécial 'Sneaky' introuvable{NB}; ")
    assert in_language("de", power).startswith("Sonderfähigkeit 'Sneaky' unbekannt; erlaubt: ")


def test_a_broken_rule_book_entry_is_said_in_the_language() -> None:
    blank = RuleEntry(RACE, "Gnomes", " ", "Base game")
    shown = spoken(raised(lambda: Rulebook([blank])), "rulebook: race 'Gnomes': no text")
    assert shown == {"fr": f"rulebook{NB}: race 'Gnomes'{NB}: aucun texte",
                     "de": "rulebook: race 'Gnomes': kein Text"}
    twice = RuleEntry(RACE, "Gnomes", "They dig.", "Base game")
    shown = spoken(raised(lambda: Rulebook([twice, twice])),
                   "rulebook: race 'Gnomes': listed twice")
    assert shown["fr"].endswith("figure deux fois") and shown["de"].endswith("zweimal aufgeführt")


# --- the group's own board files --------------------------------------------------------


@pytest.fixture
def boards(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The boards folder of a data directory of the test's own."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    folder = custom_boards_dir()
    folder.mkdir(parents=True)
    return folder


def board_doc(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(data_file("boards/3p.json").read_text("utf-8"))
    doc["name"] = name
    return doc


def write(folder: Path, file: str, doc: dict[str, Any] | bytes) -> None:
    text = doc if isinstance(doc, bytes) else json.dumps(doc).encode("utf-8")
    (folder / file).write_bytes(text)


TAKEN = ("boards/b.json: board: name 'Home Map' is already used by boards/a.json; give each "
         "board a name of its own")


def test_a_board_name_already_used_is_said_in_the_language(boards: Path) -> None:
    write(boards, "a.json", board_doc("Home Map"))
    write(boards, "b.json", board_doc("home map"))
    (twin,) = load_custom_boards().broken
    assert twin.message == TAKEN.replace("'Home Map'", "'home map'")
    shown = spoken(twin.said, twin.message)
    assert shown["fr"] == (f"boards/b.json{NB}: plateau{NB}: le nom 'home map' est déjà pris "
                           f"par boards/a.json{NB}; donnez à chaque plateau son propre nom")
    assert shown["de"] == ("boards/b.json: Spielbrett: der Name 'home map' wird schon von "
                           "boards/a.json verwendet; gebt jedem Spielbrett einen eigenen Namen")
    assert twin.entry == "board"


def test_a_packaged_boards_name_text_and_a_field_are_said_in_the_language(
        boards: Path) -> None:
    write(boards, "a.json", board_doc("3p"))
    write(boards, "b.json", b"\xff\xfe not text")
    missing = board_doc("No Turns")
    del missing["turns"]
    write(boards, "c.json", missing)
    packaged, garbled, no_turns = load_custom_boards().broken
    shown = spoken(packaged.said, "boards/a.json: board: name '3p' is the name of a packaged "
                                  "board; give this board another")
    assert shown["fr"].endswith("le nom '3p' est celui d'un plateau fourni ; donnez-en un "
                                "autre à ce plateau".replace(" ;", NB + ";"))
    assert shown["de"].endswith("der Name '3p' gehört einem mitgelieferten Spielbrett; gebt "
                                "diesem Spielbrett einen anderen")
    assert garbled.message.startswith("boards/b.json: file: not UTF-8 text (")
    assert in_language("fr", garbled.said).startswith(f"boards/b.json{NB}: fichier{NB}: pas du "
                                                 "texte UTF-8 (")
    assert in_language("de", garbled.said).startswith("boards/b.json: Datei: kein UTF-8-Text (")
    assert no_turns.message.endswith("missing field 'turns'")
    assert in_language("fr", no_turns.said).endswith("champ 'turns' manquant")
    assert in_language("de", no_turns.said).endswith("Feld 'turns' fehlt")


def test_doctor_words_a_broken_board_file_in_the_reports_language(boards: Path) -> None:
    from companion.commands.doctor import System, check_boards
    from companion.config import Config

    write(boards, "a.json", board_doc("Home Map"))
    write(boards, "b.json", board_doc("Home Map"))

    def fixes() -> list[str]:
        return [f.text for f in check_boards(System.current(), Config()) if f.status == "fix"]

    assert fixes() == [TAKEN]
    i18n.use("de")
    assert fixes() == ["boards/b.json: Spielbrett: der Name 'Home Map' wird schon von "
                       "boards/a.json verwendet; gebt jedem Spielbrett einen eigenen Namen"]
    i18n.use("fr")
    assert fixes() == [f"boards/b.json{NB}: plateau{NB}: le nom 'Home Map' est déjà pris par "
                       f"boards/a.json{NB}; donnez à chaque plateau son propre nom"]


def test_the_new_game_screen_tells_a_broken_board_file_in_german(boards: Path) -> None:
    import ui_support as ui

    from companion.session import Session

    write(boards, "a.json", board_doc("Home Map"))
    write(boards, "b.json", board_doc("Home Map"))
    app = ui.app_for(Session(rng=random.Random(5)))
    ui.resize((800, 480))
    i18n.use("de")
    try:
        app.ctx.nav.go("home")
        ui.pump()
        ui.tap(app.screens["home"].ids.new_game)
        assert app.ctx.nav.current == "new_game"
        new_game = app.screens["new_game"]
        new_game.ids.board_choice.parent.parent.scroll_y = 1
        ui.pump()
        ui.tap(ui.button(new_game.ids.board_choice, "broken_boards"))
        told = app.ctx.notices.last_message.split("\n")
        assert told[0] == ("boards/b.json: Spielbrett: der Name 'Home Map' wird schon von "
                           "boards/a.json verwendet; gebt jedem Spielbrett einen eigenen Namen")
        assert app.ctx.notices.last_title == "Nicht verwendete Spielbrett-Dateien"
    finally:
        ui.close_dialogs()
        i18n.use(i18n.SOURCE)
        app.ctx.nav.go("home")
        ui.pump()
