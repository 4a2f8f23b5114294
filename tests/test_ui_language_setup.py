"""The map, new game, past games, stats, players, calibration and rules screens in French
and German, and their layouts in the pseudo-locale.

Driven on the real headless app at 800x480 with a real saved-games file: the language is
switched (`companion.i18n.use`, as the settings and home screens do), each screen is shown,
and its main texts are read off its widgets. Besides the words checked one by one, no text
on the screen may still be an English sentence these screens' own files write (every
msgid of theirs, placeholders filled with anything, whose translation differs from the
English). In the pseudo-locale (every text about 40 % longer) no label on these screens
overflows its widget, leaves the window or shrinks a button under a finger's size.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ui_support as ui
from babel.messages.pofile import read_po
from factories import created, play_turn

from companion import i18n
from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NBSP = "\u00a0"
OURS = ("companion/app.py", "companion/ui/grid.py", "companion/ui/widgets.py",
        *(f"companion/ui/presenters/{name}.py" for name in (
            "map", "new_game", "history", "history_game", "stats", "profiles",
            "calibration", "keypads", "rules", "base")),
        *(f"kv/{name}.kv" for name in (
            "map", "new_game", "history", "history_game", "stats", "profiles",
            "calibration", "rules", "widgets")))
"""The files whose words this test holds to the language spoken."""


def english_patterns(language: str) -> list[re.Pattern[str]]:
    """A whole-text pattern for each English sentence `OURS` write that `language`
    translates otherwise (a placeholder matches anything; a sentence of placeholders with
    fewer than four letters between them, such as "{some} and {last}", is left out: it
    would match any text)."""
    with open(i18n.catalogue_path(language, ".po"), "rb") as stream:
        catalogue = read_po(stream)
    patterns = []
    for message in catalogue:
        if not message.id or not any(where in OURS for where, _line in message.locations):
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = (message.string if isinstance(message.string, tuple | list)
                   else (message.string,))
        for english in ids:
            if english in strings or len(re.findall(
                    r"[A-Za-z]", re.sub(r"\{[^{}]*\}", "", english))) < 4:
                continue
            parts = re.split(r"\{[^{}]*\}", english)
            patterns.append(re.compile(".+?".join(re.escape(p) for p in parts), re.DOTALL))
    return patterns


def english_left(texts: list[str], language: str) -> list[str]:
    patterns = english_patterns(language)
    return [t for t in texts if any(p.fullmatch(t) for p in patterns)]


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with Store.open(tmp_path / "games.sqlite3") as opened:
        yield opened


@pytest.fixture
def speak() -> Iterator[Any]:
    """Switch the language for a test; English again afterwards, whatever it chose."""
    try:
        yield i18n.use
    finally:
        ui.close_dialogs()
        i18n.use(i18n.SOURCE)
        ui.resize((800, 480))
        ui.pump()


def start(session: Session, language: str) -> Any:
    app = ui.app_for(session)
    ui.resize((800, 480))
    i18n.use(language)
    ui.pump()
    return app


def show(app: Any, screen: str) -> Any:
    app.ctx.nav.go(screen)
    ui.pump()
    return app.screens[screen]


def game_in_progress() -> Session:
    s = Session(load_catalog(), rng=random.Random(1))
    s.begin(created(3))
    return s


def finished_game(store: Store) -> Session:
    """A two-player game played to its end and saved as finished (the game end's reveal),
    with both players saved."""
    store.add_profile("Ann", "blue")
    store.add_profile("Bob", "orange")
    s = Session(load_catalog(), rng=random.Random(1), store=store)
    s.begin(created(2))
    while not s.state.is_over:
        play_turn(s, row=0, coins=3 + s.state.track.seat)
    app = ui.app_for(s)
    ui.resize((800, 480))
    app.ctx.nav.go("game_end")
    ui.pump()
    for _ in range(2):
        ui.tap(app.screens["game_end"].ids.reveal)
    assert [g.id for g in store.games(finished=True)] == [s.game_id]
    return s


WORDS = {
    "fr": {
        "map_hint": "Touchez une région pour la voir",
        "back_to_table": "Retour à la table", "region": "Région 1\u00a0: ",
        "rules": "Règles", "correct": "Corriger cette région",
        "new_game": "Nouvelle partie", "add": "Ajouter un joueur", "start": "Commencer la partie",
        "first": f"Premier joueur{NBSP}: tiré au sort", "dealing": "L'appli distribue",
        "history": "Parties passées", "stats": "Statistiques", "seats": f"Places{NBSP}: ",
        "won": " a gagné avec ", "summary": "tours", "export": "Exporter",
        "chart_note": "Pièces à la fin de chaque tour", "games": "1 partie, 1 victoire",
        "players": "Joueurs", "pin": "Pas de PIN", "remove": "Retirer",
        "calibrate": "Calibrer la grille de capteurs", "no_grid": "Aucune grille de capteurs",
        "entries": "entrées", "clear": "Effacer", "back": "Retour",
    },
    "de": {
        "map_hint": "Eine Region antippen, um sie anzusehen",
        "back_to_table": "Zurück zum Tisch", "region": "Region 1: ",
        "rules": "Regeln", "correct": "Diese Region korrigieren",
        "new_game": "Neues Spiel", "add": "Spieler hinzufügen", "start": "Spiel beginnen",
        "first": "Startspieler: wird ausgelost", "dealing": "Die App teilt aus",
        "history": "Frühere Spiele", "stats": "Statistik", "seats": "Plätze: ",
        "won": " hat mit ", "summary": "Runden", "export": "Exportieren",
        "chart_note": "Münzen am Ende jeder Runde", "games": "1 Spiel, 1 Sieg",
        "players": "Spieler", "pin": "Keine PIN", "remove": "Entfernen",
        "calibrate": "Sensorraster kalibrieren", "no_grid": "Es ist kein Sensorraster",
        "entries": "Einträge", "clear": "Leeren", "back": "Zurück",
    },
}


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_map_and_the_new_game_speak_the_language(speak: Any, language: str) -> None:
    words = WORDS[language]
    app = start(game_in_progress(), language)
    screen = show(app, "map")
    presenter = app.presenters["map"]
    presenter.tap(1)
    ui.pump()
    assert presenter.hint.startswith(words["map_hint"])
    assert presenter.region_title.startswith(words["region"])
    assert presenter.bottom_actions[-1]["text"] == words["back_to_table"]
    assert screen.ids.look_up.text == words["rules"]
    assert screen.ids.correct.text == words["correct"]
    assert english_left(ui.texts(screen), language) == []

    screen = show(app, "new_game")
    shown = ui.texts(screen)
    assert {words["new_game"], words["add"], words["start"], words["first"]} <= set(shown)
    assert any(t.startswith(words["dealing"]) for t in shown)
    assert english_left(shown, language) == []


@pytest.mark.parametrize("language", ["fr", "de"])
def test_past_games_stats_and_players_speak_the_language(speak: Any, store: Store,
                                                         language: str) -> None:
    words = WORDS[language]
    app = start(finished_game(store), language)
    screen = show(app, "history")
    shown = ui.texts(screen)
    assert {words["history"], words["stats"], words["back"]} <= set(shown)
    (game,) = screen.ids.games.children
    assert words["seats"] in game.text and words["won"] in game.text
    assert english_left(shown + game.text.split("\n"), language) == []

    ui.tap(game)
    detail = app.screens["history_game"]
    assert app.ctx.nav.current == "history_game"
    shown = ui.texts(detail)
    assert words["summary"] in app.presenters["history_game"].summary_text
    assert {words["export"], words["chart_note"]} <= set(shown)
    assert english_left(shown, language) == []

    screen = show(app, "stats")
    ui.tap(screen.ids.players)  # the app is shared: the last test may have left combos
    shown = ui.texts(screen)
    assert any(t.startswith(words["games"]) for t in shown), shown
    assert english_left(shown, language) == []
    ui.tap(screen.ids.combos)
    assert english_left(ui.texts(screen), language) == []

    screen = show(app, "profiles")
    shown = ui.texts(screen)
    assert {words["players"], words["pin"], words["remove"]} <= set(shown)
    assert english_left(shown, language) == []


@pytest.mark.parametrize("language", ["fr", "de"])
def test_calibration_and_rules_speak_the_language(speak: Any, language: str) -> None:
    words = WORDS[language]
    app = start(game_in_progress(), language)
    if "calibration" in app.ctx.presenters:
        screen = show(app, "calibration")
        calibration = app.presenters["calibration"]
        assert calibration.title.startswith(words["calibrate"])
        assert calibration.prompt.startswith(words["no_grid"])
        assert english_left(ui.texts(screen), language) == []

    screen = show(app, "rules")
    shown = ui.texts(screen)
    assert {words["rules"], words["clear"], words["back"]} <= set(shown)
    assert app.presenters["rules"].count_text.endswith(words["entries"])
    assert english_left(shown, language) == []


def test_a_language_chosen_while_the_map_shows_rewords_it_when_shown_again(
        speak: Any) -> None:
    app = start(game_in_progress(), "en")
    show(app, "map")
    presenter = app.presenters["map"]
    presenter.tap(1)
    assert presenter.region_title.startswith("Region 1: ")
    speak("de")
    show(app, "table")
    show(app, "map")
    assert presenter.region_title.startswith("Region 1: ")  # the same words in German
    assert presenter.bottom_actions[-1]["text"] == "Zurück zum Tisch"
    speak("fr")
    show(app, "table")
    show(app, "map")
    assert presenter.region_title.startswith(f"Région 1{NBSP}: ")


@pytest.mark.parametrize("screen_name", ["map", "new_game", "history", "history_game",
                                         "stats", "profiles", "calibration", "rules"])
def test_the_screens_fit_in_the_pseudo_locale(speak: Any, store: Store,
                                              screen_name: str) -> None:
    """No label overflows, nothing leaves the window, every button stays a finger's size,
    with every text about 40 % longer, at 800x480."""
    session = finished_game(store) if screen_name.startswith("history") else (
        game_in_progress())
    app = start(session, i18n.PSEUDO)
    if screen_name not in app.ctx.presenters:
        pytest.fail(f"no {screen_name} screen")
    if screen_name == "history_game":
        show(app, "history")
        ui.tap(app.screens["history"].ids.games.children[0])
    else:
        show(app, screen_name)
    if screen_name == "map":
        app.presenters["map"].tap(1)
        ui.pump()
    screen = app.screens[screen_name]
    assert any(t.startswith("[") for t in ui.texts(screen))  # the pseudo-locale shows
    assert ui.layout_problems(screen) == []


def test_the_grid_status_line_is_worded_again_when_the_language_changes(speak: Any) -> None:
    from companion.ui.grid import GridController

    grid = GridController("/dev/ttyACM0", calibrations=None)  # type: ignore[arg-type]
    try:
        grid.connecting()
        assert grid.status == "Sensor grid: looking for it on /dev/ttyACM0"
        speak("de")
        assert grid.status == "Sensorraster: wird an /dev/ttyACM0 gesucht"
        grid.link_refused("the grid speaks protocol 2.0: update the companion")
        assert grid.status == "Sensorraster: abgelehnt: Protokoll 2.0, den Begleiter aktualisieren"
        speak("fr")
        assert grid.status == (f"Grille de capteurs{NBSP}: refusée{NBSP}: protocole 2.0, "
                               "mettez à jour le compagnon")
    finally:
        grid.close()
    speak("de")
    assert grid.status.startswith("Grille")  # closed: no longer worded
