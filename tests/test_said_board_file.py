"""A broken board file's errors in the table's language (issue #18).

`companion.rules.maps` says every board-file error as a sentence: `str(error)` stays the
English it always was (`tests/test_maps.py` holds it word for word), while a screen or
`companion doctor` words it in French or German with `companion.ui.wording.say`. The file's
name, the JSON field names and the values quoted from the file stay as they are.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_maps import Change, _board, _region
from words_support import in_language

from companion.rules.errors import DataError, RulesError, UnknownName
from companion.rules.maps import board_for_players, load_board, parse_board, parse_board_text
from companion.rules.river import check_event_line, event_named


def _tiny() -> dict[str, Any]:
    """Sea 1 on the edge; farmland 2 on the edge; hill 3 on its shore; forest 4 inland."""

    def region(id_: int, terrain: str, adjacent: list[int], **flags: Any) -> dict[str, Any]:
        doc = {"id": id_, "terrain": terrain, "features": [], "lost_tribe": False,
               "border": False, "entry": False, "coastal": False, "adjacent": adjacent}
        doc.update(flags)
        return doc

    return {"schema": 1, "name": "tiny", "players": 2, "turns": 10, "regions": [
        region(1, "sea", [2, 3], border=True),
        region(2, "farmland", [1, 3, 4], border=True, entry=True, coastal=True),
        region(3, "hill", [1, 2, 4], entry=True, coastal=True),
        region(4, "forest", [2, 3], features=["mine"], lost_tribe=True),
    ]}  # fmt: skip


def _landlocked(doc: dict[str, Any]) -> None:
    for region in doc["regions"]:
        region.update(border=False, entry=False)


def _refused(change: Change) -> DataError:
    doc = _tiny()
    change(doc)
    with pytest.raises(DataError) as err:
        parse_board(doc, source="tiny.json")
    return err.value


# (what is broken, the change, the English, a piece of the French, a piece of the German)
CASES: list[tuple[str, Change, str, str, str]] = [
    ("asymmetric adjacency", lambda d: d["regions"][1].update(adjacent=[1, 3]),
     "tiny.json: region 4: adjacent lists 2 but region 2 does not list 4",
     "tiny.json\u00a0: région 4\u00a0: adjacent cite 2 mais la région 2 ne cite pas 4",
     "tiny.json: Region 4: adjacent nennt 2, aber Region 2 nennt 4 nicht"),
    ("adjacent to an unknown id", _region(4, "adjacent", [2, 3, 9]),
     "tiny.json: region 4: adjacent lists 9, which is not a region of this board (ids 1..4)",
     "adjacent cite 9, qui n'est pas une région de ce plateau (identifiants 1..4)",
     "adjacent nennt 9, das keine Region dieses Spielbretts ist (IDs 1..4)"),
    ("adjacent to itself", _region(4, "adjacent", [2, 3, 4]),
     "tiny.json: region 4: adjacent lists the region itself",
     "adjacent cite la région elle-même", "adjacent nennt die Region selbst"),
    ("adjacent twice", _region(4, "adjacent", [2, 3, 2]),
     "tiny.json: region 4: adjacent lists 2 twice", "adjacent cite 2 deux fois",
     "adjacent nennt 2 zweimal"),
    ("adjacent not an id", _region(4, "adjacent", [2, "3"]),
     'tiny.json: region 4: adjacent must list region ids (whole numbers), found "3"',
     'adjacent doit lister des identifiants de région (nombres entiers), trouvé "3"',
     'adjacent muss Regions-IDs (ganze Zahlen) auflisten, gefunden: "3"'),
    ("duplicate id", _region(4, "id", 1),
     "tiny.json: region 1: this id is used by two regions",
     "région 1\u00a0: cet identifiant est utilisé par deux régions",
     "Region 1: diese ID wird von zwei Regionen verwendet"),
    ("gap in the ids", _region(4, "id", 5),
     "tiny.json: region 5: id is outside 1..4: the 4 regions must be numbered 1 to 4 without "
     "gaps",
     "les 4 régions doivent être numérotées de 1 à 4 sans trou",
     "die 4 Regionen müssen lückenlos von 1 bis 4 nummeriert sein"),
    ("unknown terrain", _region(4, "terrain", "desert"),
     'tiny.json: region 4: unknown terrain "desert"; allowed: farmland, hill, forest, swamp, '
     "mountain, sea, lake, river",
     'terrain inconnu "desert"\u00a0; possibles\u00a0: farmland, hill',
     'unbekanntes Gelände "desert"; möglich: farmland, hill'),
    ("unknown feature", _region(4, "features", ["gold"]),
     'tiny.json: region 4: unknown feature "gold"; allowed: mine, magic, cavern, harbor, '
     "shipyard, temple",
     'symbole inconnu "gold"\u00a0; possibles\u00a0: mine, magic, cavern',
     'unbekanntes Symbol "gold"; möglich: mine, magic, cavern'),
    ("feature twice", _region(4, "features", ["mine", "mine"]),
     "tiny.json: region 4: features lists mine twice", "features cite mine deux fois",
     "features nennt mine zweimal"),
    ("sea flagged entry", _region(1, "entry", True),
     "tiny.json: region 1: a sea cannot be an entry region (entry must be false)",
     "une région de type sea ne peut pas être une région d'entrée (entry doit valoir false)",
     "eine Region vom Typ sea kann keine Einstiegsregion sein (entry muss false sein)"),
    ("sea flagged coastal", _region(1, "coastal", True),
     "tiny.json: region 1: a sea cannot be coastal (coastal is for land next to water)",
     "une région de type sea ne peut pas être côtière",
     "eine Region vom Typ sea kann keine Küstenregion sein"),
    ("lost tribe at sea", _region(1, "lost_tribe", True),
     "tiny.json: region 1: a sea cannot start with a Lost Tribe",
     "ne peut pas commencer avec une Tribu oubliée",
     "kann nicht mit einem Untergegangenen Stamm beginnen"),
    ("magic at sea", _region(1, "features", ["magic"]),
     "tiny.json: region 1: a sea cannot have features (found magic)",
     "une région de type sea ne peut pas avoir de features (trouvé magic)",
     "eine Region vom Typ sea kann keine features haben (gefunden: magic)"),
    ("coastal without water", _region(4, "coastal", True),
     "tiny.json: region 4: coastal is true but no neighbour is a sea or lake",
     "coastal vaut true mais aucune région voisine n'est une mer ou un lac",
     "coastal ist true, aber keine Nachbarregion ist ein Meer oder See"),
    ("not coastal beside the sea", _region(3, "coastal", False),
     "tiny.json: region 3: coastal is false but it borders sea region 1",
     "coastal vaut false mais elle touche la région 1, de type sea",
     "coastal ist false, aber sie grenzt an Region 1 vom Typ sea"),
    ("edge region not an entry", _region(2, "entry", False),
     "tiny.json: region 2: entry is false but the region touches the board edge (border is "
     "true)",
     "entry vaut false mais la région touche le bord du plateau (border vaut true)",
     "entry ist false, aber die Region berührt den Rand des Spielbretts (border ist true)"),
    ("shore of an edge sea not an entry", _region(3, "entry", False),
     "tiny.json: region 3: entry is false but it borders sea region 1, which touches the board "
     "edge",
     "entry vaut false mais elle touche la région de mer 1, qui touche le bord du plateau",
     "entry ist false, aber sie grenzt an die Meeresregion 1, die den Rand des Spielbretts"),
    ("inland entry", _region(4, "entry", True),
     "tiny.json: region 4: entry is true but the region neither touches the board edge nor "
     "borders a sea that does",
     "entry vaut true mais la région ne touche ni le bord du plateau ni une mer qui le touche",
     "entry ist true, aber die Region berührt weder den Rand des Spielbretts noch ein Meer"),
    ("position off the board", _region(4, "position", [1.2, 0.5]),
     "tiny.json: region 4: position must be [x, y] with both between 0 and 1, or null; got "
     "[1.2, 0.5]",
     "position doit être [x, y] avec les deux entre 0 et 1, ou null\u00a0; trouvé [1.2, 0.5]",
     "position muss [x, y] mit beiden Werten zwischen 0 und 1 sein, oder null; gefunden: "
     "[1.2, 0.5]"),
    ("pirate on land", _region(4, "pirate", True),
     "tiny.json: region 4: pirate is true but the region is a forest; pirate symbols mark "
     "rivers only",
     "pirate vaut true mais la région est de type forest\u00a0; les symboles pirates",
     "pirate ist true, aber die Region ist vom Typ forest; Piratensymbole"),
    ("harbor at sea", _region(1, "features", ["harbor"]),
     "tiny.json: region 1: a sea cannot have a harbor, shipyard or temple (found harbor)",
     "une région de type sea ne peut avoir ni port, ni chantier naval, ni temple (trouvé harbor)",
     "eine Region vom Typ sea kann keinen Hafen, keine Werft und keinen Tempel haben "
     "(gefunden: harbor)"),
    ("unsupported schema", _board("schema", 2),
     "tiny.json: board: schema 2 is not supported (this version reads 1)",
     "tiny.json\u00a0: plateau\u00a0: le schéma 2 n'est pas pris en charge",
     "tiny.json: Spielbrett: Schema 2 wird nicht unterstützt (diese Version liest 1)"),
    ("negative aspect", _board("aspect", -1),
     "tiny.json: board: aspect must be a positive number (width / height) or null, got -1",
     "aspect doit être un nombre positif (largeur / hauteur) ou null, trouvé -1",
     "aspect muss eine positive Zahl (Breite / Höhe) oder null sein, gefunden: -1"),
    ("notes not text", _board("notes", [1]),
     "tiny.json: board: notes must be a list of strings, got [1]",
     "notes doit être une liste de textes, reçu [1]",
     "notes muss eine Liste von Texten sein, erhalten: [1]"),
    ("no regions", _board("regions", []),
     "tiny.json: board: regions is empty; a board needs at least one region",
     "regions est vide\u00a0; un plateau a besoin d'au moins une région",
     "regions ist leer; ein Spielbrett braucht mindestens eine Region"),
    ("no way in", _landlocked,
     "tiny.json: board: no region is an entry region, so no race could ever enter the board",
     "aucune région n'est une région d'entrée",
     "keine Region ist eine Einstiegsregion"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "english", "french", "german"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_a_broken_board_is_worded_in_french_and_german_and_stays_english_by_str(
    change: Change, english: str, french: str, german: str
) -> None:
    error = _refused(change)
    assert str(error) == english
    in_french, in_german = in_language("fr", error), in_language("de", error)
    assert french in in_french, in_french
    assert german in in_german, in_german
    assert in_french.startswith("tiny.json\u00a0: ") and in_german.startswith("tiny.json: ")
    assert in_language("en", error) == english


def test_the_entry_stays_its_english_text_while_the_sentence_names_it_in_the_language() -> None:
    error = _refused(_region(4, "adjacent", [2, 3, 4]))
    assert (error.source, error.entry) == ("tiny.json", "region 4")
    assert "région 4" in in_language("fr", error) and "Region 4" in in_language("de", error)


def test_a_region_without_a_usable_id_is_named_by_its_place_in_the_list() -> None:
    error = _refused(lambda d: d["regions"].append([5]))
    assert str(error).startswith("tiny.json: region entry #5: ")
    assert "entrée de région n°5" in in_language("fr", error)
    assert "Regionseintrag Nr. 5" in in_language("de", error)


def test_text_that_is_not_json_names_its_line_in_the_language() -> None:
    with pytest.raises(DataError) as err:
        parse_board_text('{\n"schema": 1,\n  oops', source="mine.json")
    english = str(err.value)
    assert english.startswith("mine.json: line 3: not valid JSON: ")
    assert in_language("fr", err.value).startswith(
        "mine.json\u00a0: ligne 3\u00a0: JSON non valide\u00a0: ")
    assert in_language("de", err.value).startswith("mine.json: Zeile 3: kein gültiges JSON: ")


def test_a_board_nested_too_deeply_is_worded_too() -> None:
    with pytest.raises(DataError) as err:
        parse_board_text("[" * 100_000, source="deep.json")
    assert str(err.value) == "deep.json: board: not valid JSON: nested too deeply"
    assert in_language("fr", err.value) == (
        "deep.json\u00a0: plateau\u00a0: JSON non valide\u00a0: imbrication trop profonde")
    assert in_language("de", err.value) == (
        "deep.json: Spielbrett: kein gültiges JSON: zu tief verschachtelt")


def test_unknown_boards_regions_and_player_counts_are_worded() -> None:
    with pytest.raises(UnknownName) as board:
        load_board("7p")
    with pytest.raises(UnknownName) as region:
        load_board("2p").region(99)
    with pytest.raises(UnknownName) as count:
        board_for_players(9)
    assert str(board.value) == "unknown board '7p'; allowed: 2p, 3p, 4p, 5p"
    assert str(region.value) == "unknown region 99; allowed: 1..23"
    assert str(count.value) == "unknown player count 9; allowed: 2, 3, 4, 5"
    assert in_language("fr", board.value) == (
        "plateau '7p' introuvable\u00a0; valeurs possibles\u00a0: 2p, 3p, 4p, 5p")
    assert in_language("de", region.value) == "Region 99 unbekannt; erlaubt: 1..23"
    assert in_language("de", count.value) == "Spielerzahl 9 unbekannt; erlaubt: 2, 3, 4, 5"


def test_an_unknown_river_world_event_lists_the_events_by_their_printed_names() -> None:
    with pytest.raises(UnknownName) as err:
        event_named("Tsunami")
    assert str(err.value) == (
        "unknown River World event 'Tsunami'; allowed: Storm, Quiet waters, Harsh Winter, Pirates")
    in_french = in_language("fr", err.value)
    assert in_french.startswith(
        "événement de River World inconnu 'Tsunami'\u00a0; possibles\u00a0: ")
    assert "Tempête" in in_french and "Storm" not in in_french
    assert in_language("de", err.value).startswith("unbekanntes River-World-Ereignis 'Tsunami'; ")


def test_an_event_line_with_an_unknown_marker_is_refused_in_the_language() -> None:
    from companion.rules.catalog import load_catalog

    with pytest.raises(RulesError) as err:
        check_event_line(["Storm", "Tsunami"], 2, load_catalog())
    assert str(err.value).startswith("unknown River World event 'Tsunami'")
    assert "Eaux calmes" in in_language("fr", err.value)
