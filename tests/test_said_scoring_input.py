"""A scoring input's errors and the configuration file's warnings speak the table's language.

What a person reads (`companion.ui.wording.say`, `companion score --lang`, `companion
doctor --lang`, `companion run`'s lines on stderr) is in French or German; `str()` of the
error or warning is the English it always was; the field's name, the key, the value quoted
from the input and the file's path stay as they are, in every language. A field's path
before its problem is a label, as the command line has always printed it ("FILE: ",
"input: "): French puts no space before that colon.
"""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_cli_language import run
from test_doctor import FakePi, pi  # noqa: F401  (pi is a fixture)
from words_support import in_language

from companion.commands import doctor
from companion.commands.doctor import System
from companion.config import WINDOW_SIDE_RANGE, WINDOW_SIZE_ALLOWED, load_config
from companion.json_fields import BadInput
from companion.rules.catalog import load_catalog
from companion.rules.said import Said
from companion.rules.scoring import LAND_COUNTED, ScoringInputError, score_turn, whole_count
from companion.scenario import parse_scenario, score_scenario
from companion.ui.wording import say

NBSP = "\u00a0"

FORTRESS_ON_ALCHEMISTS = {"turn": 3, "player": {"active": {
    "race": "Orcs", "power": "Alchemist", "regions": [{"terrain": "hill"}], "fortresses": 1}}}
ORCS_AT_SEA = {"turn": 3, "player": {"active": {
    "race": "Orcs", "power": "Alchemist", "regions": [{"terrain": "sea"}]}}}
DECLINED_ON_TURN_ONE = {"turn": 1, "player": {"declined": [
    {"race": "Orcs", "power": "Alchemist", "regions": []}]}}


def refused(doc: dict[str, Any]) -> ScoringInputError:
    inp = parse_scenario(doc)
    with pytest.raises(ScoringInputError) as caught:
        score_turn(inp, load_catalog())
    return caught.value


# --- the scoring engine's errors ------------------------------------------------------------


def test_a_scoring_error_is_worded_in_french_and_german_and_its_english_is_unchanged() -> None:
    error = refused(FORTRESS_ON_ALCHEMISTS)
    english = "active.fortresses: only a Fortified race places fortresses, not Alchemist"
    assert str(error) == english
    assert error.problem == "only a Fortified race places fortresses, not Alchemist"
    assert say(error) == english  # English words it as str() says it
    assert in_language("fr", error) == (
        "active.fortresses: seul un peuple Bâtisseur pose des forteresses, pas Alchimistes")
    assert in_language("de", error) == (
        "active.fortresses: nur ein wehrhaftes Volk stellt Festungen auf, nicht Alchemist")


def test_the_race_in_a_scoring_error_is_the_editions_name_and_the_field_stays() -> None:
    error = refused(ORCS_AT_SEA)
    assert str(error) == ("active.regions[0]: sea: Orcs cannot hold a sea or the lake: only a "
                          "Seafaring race can")
    german = in_language("de", error)
    assert german == ("active.regions[0]: sea: Orks können kein Meer und nicht den See halten: "
                      "Das kann nur ein seefahrendes Volk")
    assert "Orcs" not in german  # the race is the German edition's name


def test_a_limit_inside_a_count_error_is_worded_too() -> None:
    with pytest.raises(ScoringInputError) as caught:
        whole_count("regions.mines", 3, at_most=1, limit=Said(LAND_COUNTED))
    assert str(caught.value) == "regions.mines: 3 is more than 1 (the land regions counted)"
    assert in_language("fr", caught.value) == (
        "regions.mines: 3 dépasse 1 (les régions terrestres comptées)")
    assert in_language("de", caught.value) == (
        "regions.mines: 3 ist mehr als 1 (die gezählten Landregionen)")


def test_a_scenario_carries_the_scoring_errors_sentence_under_its_json_path() -> None:
    with pytest.raises(BadInput) as caught:
        score_scenario(json.dumps(DECLINED_ON_TURN_ONE), load_catalog())
    assert str(caught.value) == "player.declined: no race is in decline on turn 1"
    assert in_language("fr", caught.value) == (
        "player.declined: aucun peuple n'est en déclin au tour 1")
    assert in_language("de", caught.value) == (
        "player.declined: in Runde 1 ist kein Volk im Niedergang")


# --- companion score ------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "line"), [
    ("fr", "companion score: player.declined: aucun peuple n'est en déclin au tour 1"),
    ("de", "companion score: player.declined: in Runde 1 ist kein Volk im Niedergang"),
    ("en", "companion score: player.declined: no race is in decline on turn 1"),
])
def test_companion_score_prints_the_rules_refusal_in_its_language(
    language: str, line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "turn1.json"
    scenario.write_text(json.dumps(DECLINED_ON_TURN_ONE), encoding="utf-8")
    code, out, err = run(capsys, "score", str(scenario), "--lang", language)
    assert (code, out, err) == (2, "", line + "\n")


@pytest.mark.parametrize(("language", "line"), [
    ("fr", "companion score: turn: 0 n'est pas un tour de jeu (1 ou plus)"),
    ("de", "companion score: turn: 0 ist keine Spielrunde (1 oder mehr)"),
])
def test_companion_score_words_its_own_checks_of_a_scenario_too(
    language: str, line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "turn0.json"
    scenario.write_text('{"turn": 0, "player": {}}', encoding="utf-8")
    code, _out, err = run(capsys, "score", str(scenario), "--lang", language)
    assert (code, err) == (2, line + "\n")


def test_companion_score_keeps_the_input_language_free_json_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "ok.json"
    scenario.write_text(json.dumps({"turn": 3, "player": {"active": {
        "race": "Orcs", "power": "Alchemist", "regions": [{"terrain": "hill"}]}}}),
        encoding="utf-8")
    printed = {language: run(capsys, "score", str(scenario), "--lang", language)[1]
               for language in ("en", "fr", "de")}
    assert printed["fr"] == printed["de"] == printed["en"]
    assert json.loads(printed["en"])["lines"][0]["label"] == "Regions held by Orcs"


def test_an_expansions_own_part_of_a_scenario_is_worded_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "necromancer.json"
    scenario.write_text(json.dumps({"turn": 3, "player": {"necromancer": {
        "powers": ["Alchemist"], "regions": [{"terrain": "lake"}]}}}), encoding="utf-8")
    _code, _out, err = run(capsys, "score", str(scenario), "--lang", "de")
    assert err == ("companion score: player.necromancer.regions[0]: im See liegt die Insel des "
                   "Geisterbeschwörers, die keine Region ist: Sie bringt ihm nichts und niemand "
                   "hält sie; lass sie weg\n")
    scenario.write_text(json.dumps({"turn": 3, "player": {"necromancer": {
        "powers": ["Alchemist", "Alchemist"], "regions": []}}}), encoding="utf-8")
    _code, _out, err = run(capsys, "score", str(scenario), "--lang", "fr")
    assert err == (f"companion score: player.necromancer.powers[1]: Alchimistes est listé deux "
                   f"fois{NBSP}; il a chaque badge une fois\n")


def test_ghosts_named_as_a_race_and_river_facts_on_his_regions_are_refused_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "ghosts.json"
    scenario.write_text(json.dumps({"turn": 3, "player": {"active": {
        "race": "Ghosts", "power": "Hill", "counts": {"hill": 1}}}}), encoding="utf-8")
    _code, _out, err = run(capsys, "score", str(scenario))
    assert err == ("companion score: player.active.race: Ghosts are the Necromancer's tokens, "
                   "not a race banner; score his turn with player.necromancer "
                   '({"powers": [...], "regions": [...]})\n')
    _code, _out, err = run(capsys, "score", str(scenario), "--lang", "de")
    assert err.startswith("companion score: player.active.race: Geister sind die Marker des ")
    assert 'player.necromancer ({"powers": [...], "regions": [...]})' in err
    scenario.write_text(json.dumps({"turn": 3, "player": {"necromancer": {
        "powers": ["Hill"], "counts": {"hill": 1, "next_to_pirates": 1}}}}), encoding="utf-8")
    _code, _out, err = run(capsys, "score", str(scenario))
    assert err == ("companion score: player.necromancer.counts.next_to_pirates: River World's "
                   "harbors and pirate ships are not scored for the Necromancer, here as in "
                   "the app\n")
    _code, _out, err = run(capsys, "score", str(scenario), "--lang", "fr")
    assert err.startswith("companion score: player.necromancer.counts.next_to_pirates: Les "
                          "ports et navires pirates de River World ne comptent pas pour le "
                          "Nécromant")


# --- companion play -------------------------------------------------------------------------


def test_companion_play_words_a_malformed_line_in_its_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "game.jsonl"
    game.write_text('{"players": ["Ann", "Ann"]}\n', encoding="utf-8")
    expected = {
        "en": "companion play: line 1: players[1]: 'Ann' is also the name of players[0]; "
              "give each player a different name\n",
        "de": "companion play: Zeile 1: players[1]: 'Ann' ist auch der Name von players[0]; "
              "gib jedem Spieler einen anderen Namen\n",
        "fr": f"companion play: ligne 1{NBSP}: players[1]: 'Ann' est aussi le nom de "
              f"players[0]{NBSP}; donnez à chaque joueur un nom différent\n",
    }
    for language, line in expected.items():
        assert run(capsys, "play", str(game), "--lang", language) == (2, "", line)


def test_companion_play_words_a_line_that_is_no_object_with_its_example_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "game.jsonl"
    game.write_text("[1, 2]\n", encoding="utf-8")
    _code, _out, err = run(capsys, "play", str(game), "--lang", "de")
    assert err == ('companion play: Zeile 1: erwartet wird das Spiel als Objekt wie '
                   '{"players": ["Ann", "Bob"]}, erhalten: [1, 2]\n')


def test_companion_play_words_what_a_field_takes_and_a_choice_it_does_not_know(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "game.jsonl"
    game.write_text('{"players": ["Ann", "Bob"], "seed": 1}\n{"do": "pick"}\n',
                    encoding="utf-8")
    _code, _out, err = run(capsys, "play", str(game), "--lang", "de")
    assert err == ("companion play: Zeile 2: row: fehlt; pick braucht row: eine Zeile des "
                   "Markts, 1 oben\n")
    game.write_text('{"players": ["Ann", "Bob"], "dealing": "x"}\n', encoding="utf-8")
    _code, _out, err = run(capsys, "play", str(game), "--lang", "fr")
    assert err == (f'companion play: ligne 1{NBSP}: dealing: distribution "x" introuvable{NBSP}; '
                   f"valeurs possibles{NBSP}: app, table\n")
    _code, _out, err = run(capsys, "play", str(game), "--lang", "en")
    assert err == 'companion play: line 1: dealing: unknown dealing "x"; allowed: app, table\n'


def test_companion_play_counts_players_in_the_languages_own_forms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "game.jsonl"
    game.write_text('{"players": ["Ann"]}\n', encoding="utf-8")
    _code, _out, err = run(capsys, "play", str(game), "--lang", "en")
    assert err == "companion play: line 1: players: 1 players; a game has 2 to 5\n"
    _code, _out, err = run(capsys, "play", str(game), "--lang", "fr")
    assert err == (f"companion play: ligne 1{NBSP}: players: 1 joueur{NBSP}; une partie se joue "
                   "de 2 à 5\n")


# --- the configuration file -----------------------------------------------------------------


def test_a_config_warning_is_worded_in_french_and_german_its_key_value_and_path_kept(
    tmp_path: Path
) -> None:
    file = tmp_path / "companion.toml"
    file.write_text('[display]\nrotation = 45\n[die]\nled_pin = 17\n[nope]\n')
    _config, warnings = load_config(file)
    by_key = {warning.key: warning for warning in warnings}
    rotation = by_key["display.rotation"]
    assert str(rotation) == rotation.message == (
        f"{file}: display.rotation = 45 is not allowed: 0, 90, 180 or 270 (degrees). "
        "Using the default, 0")
    assert in_language("fr", rotation.said) == (
        f"{file}{NBSP}: display.rotation = 45 n'est pas permis{NBSP}: 0, 90, 180 ou 270 "
        f"(degrés). La valeur par défaut est utilisée{NBSP}: 0")
    assert in_language("de", rotation.said) == (
        f"{file}: display.rotation = 45 ist nicht erlaubt: 0, 90, 180 oder 270 (Grad). "
        "Der Standardwert wird verwendet: 0")
    pins = in_language("de", by_key["die.led_pin"].said)
    assert "GPIO 17 ist schon für die.button_pin vergeben" in pins
    section = in_language("fr", by_key["nope"].said)
    assert f"la section inconnue [nope] est ignorée{NBSP};" in section


def test_a_reason_inside_a_config_warning_is_worded_too(tmp_path: Path) -> None:
    file = tmp_path / "companion.toml"
    file.write_text('[storage]\ndatabase = "/proc/companion/games.sqlite3"\n')
    (warning,) = load_config(file)[1]
    assert "(/proc is a system file system (proc or sys), not a place for files)" in str(warning)
    german = in_language("de", warning.said)
    assert "(/proc ist ein Dateisystem des Systems (proc oder sys), kein Ort für Dateien)" in german
    assert 'storage.database = "/proc/companion/games.sqlite3" ist nicht erlaubt' in german


def test_a_file_that_is_no_toml_is_said_in_the_tables_language(tmp_path: Path) -> None:
    file = tmp_path / "companion.toml"
    file.write_text("[display\n")
    (warning,) = load_config(file)[1]
    assert str(warning).endswith("; using the defaults for every key")
    french = in_language("fr", warning.said)
    assert french.startswith(f"{file}{NBSP}: n'est pas du TOML valide (")
    assert french.endswith(f"{NBSP}; les valeurs par défaut sont utilisées pour toutes les clés")


def test_the_window_sizes_allowed_text_says_the_sides_the_range_allows() -> None:
    assert (f"from {WINDOW_SIDE_RANGE.start} to {WINDOW_SIDE_RANGE.stop - 1} "
            in WINDOW_SIZE_ALLOWED)


def test_companion_doctor_lang_de_shows_the_config_warnings_in_german(
    pi: FakePi, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]  # noqa: F811
) -> None:
    current: Callable[[], System] = lambda: pi.system  # noqa: E731
    monkeypatch.setattr(doctor.System, "current", staticmethod(current))
    pi.write_config("[display]\nrotation = 45\n")
    config = pi.config_dir / "companion.toml"
    _code, out, _err = run(capsys, "doctor", "--config", str(config), "--lang", "de")
    assert (f"{config}: display.rotation = 45 ist nicht erlaubt: 0, 90, 180 oder 270 (Grad). "
            "Der Standardwert wird verwendet: 0") in out
    assert "is not allowed" not in out


@pytest.fixture
def started_apps(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``companion.app`` replaced by a recorder of the apps the run command would start (no
    window: what is tested is the command's stderr before the app)."""
    started: list[dict[str, Any]] = []
    fake = types.ModuleType("companion.app")

    def run_app(db_path: Path, *, fullscreen: bool = False, **devices: Any) -> None:
        started.append({"db_path": db_path, **devices})

    fake.run_app = run_app  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "companion.app", fake)
    return started


@pytest.mark.parametrize(("language", "words"), [
    ("fr", f"display.rotation = 45 n'est pas permis{NBSP}: 0, 90, 180 ou 270 (degrés)"),
    ("de", "display.rotation = 45 ist nicht erlaubt: 0, 90, 180 oder 270 (Grad)"),
])
def test_companion_run_prints_the_config_warnings_in_the_configured_language(
    language: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    started_apps: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    file = tmp_path / "companion.toml"
    file.write_text(f'[display]\nlanguage = "{language}"\nrotation = 45\n'
                    f'[storage]\ndatabase = "{tmp_path / "g.sqlite3"}"\n')
    code, _out, err = run(capsys, "run", "--config", str(file))
    assert code == 0 and len(started_apps) == 1
    assert err == f"companion: {file}{NBSP if language == 'fr' else ''}: {words}" + (
        f". La valeur par défaut est utilisée{NBSP}: 0\n" if language == "fr" else
        ". Der Standardwert wird verwendet: 0\n")


def test_companion_run_speaks_the_systems_language_when_the_configured_one_is_bad(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], started_apps: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "de")
    file = tmp_path / "companion.toml"
    file.write_text(f'[display]\nlanguage = "xx"\n'
                    f'[storage]\ndatabase = "{tmp_path / "g.sqlite3"}"\n')
    code, _out, err = run(capsys, "run", "--config", str(file))
    assert code == 0
    assert err.startswith(f'companion: {file}: display.language = "xx" ist nicht erlaubt: ')
