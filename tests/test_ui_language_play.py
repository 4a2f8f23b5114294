"""The game's own screens in French and German: the table, the combo market, the die, the
scoring screen, the sides chooser and the game end with its reveal.

Each screen is shown in English first, then the language is switched while it is on show:
its main texts are the translations, and no text it showed in English is left in English
on the same widget (names of players, races and powers, and the rules' own texts, which a
later design translates, are the only ones kept). In the pseudo-locale (every text about
40 % longer) at 800x480 no label is clipped and every button stays a finger's size.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ui_support as ui
from factories import created, end_turn, finish_redeployment, play_turn
from kivy.uix.label import Label

from companion import i18n
from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store
from companion.ui.presenters import sides

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NBSP = "\u00a0"
SAME_IN_TRANSLATION = {"Menu", "BG Stats"}
"""English words a translation keeps as they are."""


@pytest.fixture
def game(headless_app: Any, tmp_path: Path) -> Iterator[tuple[Any, Session]]:
    """Ann and Bob, Ann to pick the Berserk Ratmen, saved to a real file, on the table
    screen in English; English again afterwards."""
    s = Session(load_catalog(), rng=random.Random(5), store=Store.open(tmp_path / "g.sqlite3"))
    s.begin(created(2, races=("Ratmen",), powers=("Berserk",)))
    headless_app.use_session(s, screen="table")
    ui.resize((800, 480))
    ui.pump()
    try:
        yield headless_app, s
    finally:
        ui.close_dialogs()
        i18n.use(i18n.SOURCE)
        headless_app.ctx.nav.go("home")
        ui.pump()
        ui.resize((800, 480))
        assert s.store is not None
        s.store.close()


def shown(app: Any, name: str) -> Any:
    app.ctx.nav.go(name)
    ui.pump()
    return app.screens[name]


def labels(root: Any) -> dict[Any, str]:
    """Every shown label with words on it, by widget."""
    return {w: w.text for w in ui.walk_shown(root)
            if isinstance(w, Label) and re.search(r"[A-Za-z]{2}", w.text)}


def kept(s: Session, *rules_texts: str) -> set[str]:
    """The texts a translation leaves as they are: names, the rules' own words, and the
    words every language writes alike."""
    state = s.state
    names = {p.name for p in state.players}
    names |= set(state.market.race_stack)
    names |= set(state.market.power_stack)
    for p in state.players:
        if p.active is not None:
            names |= {p.active.race, p.active.power, f"{p.active.power} {p.active.race}"}
    return names | {t for t in rules_texts if t} | SAME_IN_TRANSLATION


def left_in_english(before: dict[Any, str], root: Any, keep: set[str]) -> list[str]:
    """The texts shown in English before the switch that are still the same on the same
    widget after it (the kept ones aside)."""
    after = labels(root)
    return [text for widget, text in before.items()
            if after.get(widget) == text and text.strip() not in keep
            and "\n".join(line for line in text.split("\n") if line not in keep).strip()]


def switch(language: str) -> None:
    i18n.use(language)
    ui.pump()


EXPECTED_TABLE = {
    "fr": {"turn": "Tour 1 sur 10", "current": "Au tour de Ann", "rules": "Règles",
           "market": "Marché", "undo": "Rien à annuler pour l'instant",
           "die": "Lancer le dé",
           "players_hint": "Gardez le doigt sur votre nom pour voir vos pièces",
           "phase": "Choisissez une combinaison de peuple et de pouvoir au marché."},
    "de": {"turn": "Runde 1 von 10", "current": "Ann ist am Zug", "rules": "Regeln",
           "market": "Markt", "undo": "Noch nichts rückgängig zu machen",
           "die": "Würfeln",
           "players_hint": "Deinen Namen gedrückt halten, um deine Münzen zu sehen",
           "phase": "Wähle eine Kombination aus Volk und Fähigkeit auf dem Markt."},
}


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_table_speaks_the_language_at_once(game: tuple[Any, Session],
                                                language: str) -> None:
    app, s = game
    screen = shown(app, "table")
    ids, p = screen.ids, app.presenters["table"]
    assert ids.turn.text == "Turn 1 of 10"
    before = labels(screen)
    switch(language)
    for widget_id, text in EXPECTED_TABLE[language].items():
        assert ids[widget_id].text == text, widget_id
    assert p.actions[0]["text"] == i18n._("Pick a race and power")
    assert left_in_english(before, screen, kept(s, p.die_reason, p.reminders_text,
                                                 p.combo_text)) == []
    # Turn, whose turn and the undo button after a pick and an undo.
    s.pick(0)
    ui.pump()
    assert p.undo_text == {"fr": "Annuler{0}: Ann prend les Hommes-rats Berserks",
                           "de": "Rückgängig: Ann nimmt Berserker Rattenmenschen"}[
        language].format(NBSP)
    p.undo()
    ui.pump()
    assert ids.took_back.text == {"fr": "Annulé{0}: Ann prend les Hommes-rats Berserks",
                                  "de": "Zurückgenommen: Ann nimmt Berserker Rattenmenschen"}[
        language].format(NBSP)
    assert ids.redo.text == {"fr": "Rétablir", "de": "Wiederholen"}[language]
    p.hide_redo()


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_market_speaks_the_language(game: tuple[Any, Session], language: str) -> None:
    app, s = game
    screen = shown(app, "market")
    p = app.presenters["market"]
    assert p.title == "Ann picks a race and power"
    before = labels(screen)
    switch(language)
    assert p.title == {"fr": "Ann choisit un peuple et un pouvoir",
                       "de": "Ann wählt Volk und Fähigkeit"}[language]
    assert p.rows[0]["cost"] == {"fr": "Gratuit", "de": "Kostenlos"}[language]
    assert p.rows[2]["cost"] == {"fr": "Coûte 2 pièces", "de": "Kostet 2 Münzen"}[language]
    assert screen.ids.back.text == {"fr": "Retour", "de": "Zurück"}[language]
    assert left_in_english(before, screen, kept(s, *(r["refusal"] for r in p.rows))) == []
    # The question a row asks, and its buttons.
    p.choose(0)
    ui.pump()
    dialog = ui.dialogs()[-1]
    question = " ".join(w.text for w in ui.walk_shown(dialog) if isinstance(w, Label))
    assert {"fr": "C'est gratuit.", "de": "Sie ist kostenlos."}[language] in question
    assert {"fr": "Ligne 1", "de": "Reihe 1"}[language] in question
    ui.close_dialogs()


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_die_and_its_outcome_speak_the_language(game: tuple[Any, Session],
                                                    language: str) -> None:
    app, s = game
    s.pick(0)  # the Berserk Ratmen: a roll before a conquest
    screen = shown(app, "die")
    p = app.presenters["die"]
    assert p.title == "The reinforcement die"
    before = labels(screen)
    switch(language)
    assert p.title == {"fr": "Le dé de renfort", "de": "Der Verstärkungswürfel"}[language]
    assert p.roll_text == {"fr": "Lancer pour Berserks", "de": "Würfeln für Berserker"}[language]
    assert screen.ids.back.text == {"fr": "Retour à la table", "de": "Zurück zum Tisch"}[
        language]
    assert left_in_english(before, screen, kept(s, p.reason)) == []
    p.roll()
    p.land()
    ui.pump()
    assert p.title == {"fr": "Lancer Berserks", "de": "Berserker-Wurf"}[language]
    assert p.result_text.startswith({"fr": ("Résultat", "Face blanche"),
                                     "de": ("Gewürfelt", "Leere Seite")}[language])
    # Back in English, the same roll is worded in English again.
    switch(i18n.SOURCE)
    assert p.title == "Berserk roll" and p.result_text.startswith("Rolled")


@pytest.mark.parametrize("language", ["fr", "de"])
def test_scoring_speaks_the_language(game: tuple[Any, Session], language: str) -> None:
    app, s = game
    s.pick(0)
    s.finish_conquests()
    finish_redeployment(s)
    screen = shown(app, "scoring")
    p = app.presenters["scoring"]
    assert p.title == "Ann scores the turn"
    before = labels(screen)
    switch(language)
    assert p.title == {"fr": "Ann compte son tour", "de": "Ann wertet den Zug"}[language]
    assert re.fullmatch({"fr": r"Marquer \d+ pièces?", "de": r"\d+ Münzen? werten"}[language],
                        p.score_text)
    assert screen.ids.quick.text == {"fr": "Compter plutôt à la main",
                                     "de": "Lieber von Hand zählen"}[language]
    rules_lines = [line["label"] for line in p.lines]
    assert left_in_english(before, screen, kept(s, *rules_lines)) == []
    # The quick count's rows.
    p.act("quick")
    ui.pump()
    row_labels = [row["label"] for row in p.quick_rows]
    assert {"fr": "Montagnes", "de": "Gebirge"}[language] in row_labels
    assert {"fr": "Avec une mine", "de": "Mit einer Mine"}[language] in row_labels


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_sides_chooser_speaks_the_language(game: tuple[Any, Session],
                                               language: str) -> None:
    app, _s = game
    switch(language)
    lines = [text for _key, text in sides.choices(app.presenters["table"])]
    assert lines[0] == {"fr": f"Ann{NBSP}: côté proche (toucher{NBSP}: opposé)",
                        "de": "Ann: Seite vorn (antippen: hinten)"}[language]
    sides.choose(app.presenters["table"])
    ui.pump()
    assert ui.dialogs()[-1].title == {"fr": f"Qui est assis où{NBSP}?",
                                      "de": "Wer sitzt wo?"}[language]
    ui.close_dialogs()


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_game_end_and_reveal_speak_the_language(game: tuple[Any, Session],
                                                     language: str) -> None:
    app, s = game
    for turn in range(20):
        play_turn(s, coins=4 if turn % 2 == 0 else 1)
    assert s.state.is_over
    screen = shown(app, "game_end")
    p = app.presenters["game_end"]
    p.reveal_next()
    ui.pump()
    assert p.reveal_text == "Reveal the winner's total"
    before = labels(screen)
    switch(language)
    assert screen.ids.title.text == {"fr": "La partie est finie",
                                     "de": "Das Spiel ist vorbei"}[language]
    assert p.reveal_text == {"fr": "Révéler le total du vainqueur",
                             "de": "Summe des Siegers aufdecken"}[language]
    assert p.revealed[0]["coins"].endswith({"fr": "pièces", "de": "Münzen"}[language])
    assert left_in_english(before, screen, kept(s)) == []
    p.reveal_next()
    ui.pump()
    assert p.standings[0]["rank"] == {"fr": "1er", "de": "1."}[language]
    assert p.hint == {"fr": "Le classement final.", "de": "Der Endstand."}[language]
    switch(i18n.SOURCE)
    assert p.standings[0]["rank"] == "1st" and p.standings[1]["rank"] == "2nd"


def test_the_game_screens_fit_in_the_pseudo_locale(game: tuple[Any, Session]) -> None:
    """Every text about 40 % longer: no label of the table, market, die and scoring
    screens, nor of the game end, is clipped at 800x480, and every button stays a
    finger's size."""
    app, s = game
    switch(i18n.PSEUDO)
    assert ui.layout_problems(shown(app, "table")) == []
    assert ui.layout_problems(shown(app, "market")) == []
    app.presenters["market"].choose(1)  # a row's question: what it costs and brings
    ui.pump()
    assert ui.layout_problems(ui.dialogs()[-1]) == []
    ui.close_dialogs()
    s.pick(0)
    ui.pump()
    assert ui.layout_problems(shown(app, "table")) == []
    sides.choose(app.presenters["table"])
    ui.pump()
    assert ui.layout_problems(ui.dialogs()[-1]) == []
    ui.close_dialogs()
    app.presenters["table"].decline()  # the question before a decline
    ui.pump()
    assert ui.layout_problems(ui.dialogs()[-1]) == []
    ui.close_dialogs()
    assert ui.layout_problems(shown(app, "die")) == []
    s.finish_conquests()
    finish_redeployment(s)
    assert ui.layout_problems(shown(app, "scoring")) == []
    s.score(4)
    end_turn(s)
    for turn in range(1, 20):
        play_turn(s, coins=4 if turn % 2 == 0 else 1)
    screen = shown(app, "game_end")
    assert ui.layout_problems(screen) == []
    app.presenters["game_end"].reveal_next()
    ui.pump()
    assert ui.layout_problems(screen) == []


def final_standings(app: Any, s: Session, language: str) -> Any:
    """The game end's standings, every total revealed, in `language`."""
    s.pick(0)
    s.finish_conquests()
    finish_redeployment(s)
    s.score(4)
    end_turn(s)
    for turn in range(1, 20):
        play_turn(s, coins=4 if turn % 2 == 0 else 1)
    switch(language)
    screen = shown(app, "game_end")
    app.presenters["game_end"].reveal_next()
    app.presenters["game_end"].reveal_next()
    ui.pump()
    assert app.presenters["game_end"].standings
    return screen


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_final_standings_fit_in_french_and_german(game: tuple[Any, Session],
                                                      language: str) -> None:
    app, s = game
    assert ui.layout_problems(final_standings(app, s, language)) == []


def test_the_final_standings_fit_in_the_pseudo_locale(game: tuple[Any, Session]) -> None:
    app, s = game
    assert ui.layout_problems(final_standings(app, s, i18n.PSEUDO)) == []
