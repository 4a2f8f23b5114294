"""Switching the table's language on the real screens: at once, no restart, saved.

Driven by touches on the headless app at 800x480: the settings screen's Language button
and the home screen's both offer the languages in their own words; the one chosen is
written to ``companion.toml`` (``display.language``) and the screen on show speaks it at
once, its kv texts (``lang.tr``) and its presenter's texts alike, with the same widgets
(nothing is built again). The screen not on show speaks it when next shown. In German and
in the pseudo-locale (every text about 40 % longer) the home screen still fits.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import ui_support as ui

from companion import i18n
from companion.config import load_config
from companion.session import Session
from companion.ui.describe import resume_text

NBSP = "\u00a0"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Any, Path]]:
    """The app on the home screen in English, its settings written to a file of the test's
    own; English again afterwards, whatever the test chose."""
    app = ui.app_for(Session())
    ui.resize((800, 480))
    config = tmp_path / "companion.toml"
    config.write_text("# ours\n[display]\nrotation = 0\n")
    settings = app.presenters["settings"]
    settings.config_path = config
    try:
        yield app, config
    finally:
        ui.close_dialogs()
        app.ctx.nav.go("home")
        ui.pump()
        i18n.use(i18n.SOURCE)
        ui.pump()
        settings.config_path = None


def choose(text: str) -> None:
    dialog = ui.dialogs()[-1]
    ui.tap(ui.find(dialog, text=text))
    ui.pump()


def tap_in_view(screen: Any, widget_id: str) -> None:
    widget = screen.ids[widget_id]
    screen.ids.scroll.scroll_to(widget, padding=10, animate=False)
    ui.pump()
    ui.tap(widget)
    ui.pump()


def test_french_chosen_in_the_settings_redraws_them_at_once_and_home_when_shown(
        table: tuple[Any, Path]) -> None:
    app, config = table
    home = app.screens["home"]
    assert home.ids.new_game.text == "New game"
    app.ctx.nav.go("settings")
    ui.pump()
    screen = app.screens["settings"]
    ids = screen.ids
    assert (ids.title.text, ids.volume.text) == ("Settings", "Volume: 70 %")
    back, volume = ids.back, ids.volume

    tap_in_view(screen, "language")
    assert ui.dialogs()[-1].title == "Language"
    choose("Français")

    # At once, on the screen on show: its kv texts and its presenter's, same widgets.
    assert ids.title.text == "Réglages"
    assert ids.back.text == "Retour"
    assert ids.volume.text == f"Volume{NBSP}: 70{NBSP}%"
    assert ids.language.text == f"Langue{NBSP}: Français"
    assert ids.mute.text == f"Son{NBSP}: activé (touchez pour le couper)"
    assert ids.about.text.startswith("Le Compagnon de table pour Small World")
    assert (ids.back, ids.volume) == (back, volume)
    saved, warnings = load_config(config)
    assert (saved.display.language, warnings) == ("fr", [])
    assert config.read_text().startswith("# ours\n[display]\nrotation = 0\n")

    # The home screen speaks French when shown again, without a restart.
    ui.tap(ids.back)
    assert app.ctx.nav.current == "home"
    assert app.screens["home"] is home
    assert home.ids.new_game.text == "Nouvelle partie"
    assert home.ids.game.text == "Aucune partie sur la table."
    assert home.ids.language.text == "Français"
    assert home.ids.status.text.startswith(f"Bouton du dé{NBSP}: aucun")


def test_german_chosen_on_the_home_screen_redraws_it_at_once(table: tuple[Any, Path]) -> None:
    app, config = table
    home = app.screens["home"]
    ids = home.ids
    new_game = ids.new_game
    assert ids.language.text == "English"
    ui.tap(ui.button(home, "language"))
    assert [b.text for b in ui.walk_shown(ui.dialogs()[-1])
            if getattr(b, "text", "") in i18n.NAMES.values()] != []
    choose("Deutsch")

    assert ids.new_game is new_game
    assert ids.new_game.text == "Neues Spiel"
    assert ids.title.text == "Tischbegleiter für Small World"
    assert ids.history.text == "Frühere Spiele und Statistik"
    assert ids.settings.text == "Einstellungen"
    assert ids.game.text == "Kein Spiel auf dem Tisch."
    assert ids.resume.text == "Gespeichertes Spiel fortsetzen"
    assert ids.language.text == "Deutsch"
    assert load_config(config)[0].display.language == "de"
    assert ui.layout_problems(home) == []

    # The settings, opened after, speak German too.
    ui.tap(ids.settings)
    settings = app.screens["settings"]
    assert settings.ids.title.text == "Einstellungen"
    assert settings.ids.volume.text == "Lautstärke: 70 %"
    assert settings.ids.language.text == "Sprache: Deutsch"

    # And back to English from the settings, "As the system" (this test's system: English
    # unless its locale is French or German).
    tap_in_view(settings, "language")
    system = i18n.NAMES[i18n.system_language()]
    choose(f"Wie das System: {system}")
    assert load_config(config)[0].display.language == "auto"
    assert i18n.language() == i18n.system_language()


def test_the_resume_offer_and_the_die_line_made_at_start_up_follow_the_language(
        table: tuple[Any, Path]) -> None:
    """Start-up words them once, before any language change: they are given to the home
    screen as ways to word them, so a switch words them again."""
    app, _config = table
    home = app.presenters["home"]
    offer = SimpleNamespace(names=("Ann", "Bob", "Cy"), turn=2, turns=10, current="Bob")
    app.set_resume(partial(resume_text, offer))
    home.say_devices(lambda: i18n._("Die button: ready on GPIO{pin}").format(pin=17), None)
    ui.pump()
    ids = app.screens["home"].ids
    assert ids.resume.text == "Resume Ann, Bob and Cy: turn 2 of 10, Bob's turn"
    assert home.die_status == "Die button: ready on GPIO17"
    ui.tap(ui.button(app.screens["home"], "language"))
    choose("Deutsch")
    assert ids.resume.text == "Spiel fortsetzen: Ann, Bob und Cy, Runde 2 von 10, Bob ist am Zug"
    assert home.die_status == "Würfelknopf: bereit an GPIO17"
    app.set_resume(None)
    assert not home.can_resume


SIZES = ((800, 480), (480, 800), (1280, 720))


@pytest.mark.parametrize("language", [i18n.PSEUDO, "de", "fr"])
def test_home_and_settings_fit_in_longer_languages(table: tuple[Any, Path],
                                                   language: str) -> None:
    """No text overflows its widget, nothing leaves the window and every button stays a
    finger's size, with every text about 40 % longer (the pseudo-locale) or in German."""
    app, _config = table
    home = app.screens["home"]
    i18n.use(language)
    ui.pump()
    if language == i18n.PSEUDO:
        assert home.ids.new_game.text == i18n.pseudo("New game")
        assert home.ids.game.text == i18n.pseudo("No game on the table.")
    try:
        for size in SIZES:
            ui.resize(size)
            assert ui.layout_problems(home) == [], size
        ui.tap(ui.button(home, "language"))
        dialog = ui.dialogs()[-1]
        assert dialog.title == i18n._("Language")
        assert ui.layout_problems(dialog) == []
        ui.close_dialogs()
        app.ctx.nav.go("settings")
        ui.pump()
        settings = app.screens["settings"]
        for size in SIZES:
            ui.resize(size)
            assert ui.layout_problems(settings) == [], size
    finally:
        ui.resize((800, 480))


def test_a_refused_setting_is_told_on_the_screen_in_the_table_s_language(
        table: tuple[Any, Path]) -> None:
    """A value the settings file refuses (`config.SettingRefused`) reaches the screen as a
    notice worded in the language spoken, naming the key as it is spelt (not capitalised)
    and what it allows; the file keeps what it had."""
    app, config = table
    app.ctx.nav.go("settings")
    ui.pump()
    i18n.use("fr")
    ui.pump()
    before = config.read_text()
    app.presenters["settings"].set_volume("250")  # what the volume dialog's choice calls
    ui.pump()
    shown = ui.texts(ui.dialogs()[-1])
    assert shown[:2] == ["Non enregistré", (
        f"Le réglage n'a pas été enregistré{NBSP}: sound.volume ne peut pas valoir 250{NBSP}: "
        f"0 à 100 (pour cent{NBSP}; 0 est muet).")]
    assert config.read_text() == before
