"""The expansions speak the table's language: Necromancer Island, River World, team play.

What the expansions' views and the Necromancer's screen word themselves (table buttons and
hints, the books under the players, the map's region texts and buttons, the new game's
options and board texts, the words of their own events) is checked in French and in German
against the published names of the pieces (Nécromant / Geisterbeschwörer, Fantômes /
Geister, Caravelle / Karavelle...), and in the pseudo-locale, where every text the views
make must come bracketed (a string left unwrapped would show as plain English). Names of
races and powers and the rules' own texts (a River World event's effect, a marker's
summary) are not the views' words and may stay English inside a translated sentence.

The Necromancer's screen is checked headless at 800x480: it speaks French and German at
once, with the same widgets, and nothing on it is clipped in the pseudo-locale (every text
about 40 % longer) at 800x480, 480x800 and 1280x720.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import river_support
import team_support
import ui_support as ui
from test_necromancer_game import NECRO, game, to_his_turn

from companion import i18n
from companion.rules import QuickCount, necromancer
from companion.rules.river import RiverEvent, is_river
from companion.rules.teams import (
    BONEYARD,
    SIGIL,
    BonyPlaced,
    MonsterPassed,
    MonsterPlaced,
    PowersSwapped,
    TavernShared,
)
from companion.session import Session
from companion.ui.presenters import mini, river, teams
from companion.ui.presenters import necromancer as necro_view
from companion.ui.presenters.base import Context
from companion.ui.presenters.expansion import ExpansionView
from companion.ui.presenters.necromancer import NecromancerPresenter
from companion.ui.presenters.new_game import NewGamePresenter

NBSP = "\u00a0"


@pytest.fixture
def speak() -> Iterator[Any]:
    """`i18n.use`, and English again after the test whatever it chose."""
    try:
        yield i18n.use
    finally:
        i18n.use(i18n.SOURCE)


def bracketed(texts: list[str]) -> list[str]:
    """The lines of `texts` that are not a pseudo-locale string (unwrapped words)."""
    return [line for text in texts for line in text.split("\n")
            if line and not (line.startswith("[") and line.endswith("]"))]


class Form:
    """The new game form as a view's option rows see it: every option `on`."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def option(self, key: str, default: bool = False) -> bool:
        return self.on


def option_texts(view: ExpansionView, on: bool) -> list[str]:
    """A view's option rows on the new game form, its main option `on`, in words."""
    return [row["text"] for row in view.setup_options(Form(on))]  # type: ignore[arg-type]


# -- Necromancer Island ---------------------------------------------------------------------


def necro_texts(s: Session) -> list[str]:
    state = s.state
    view = necro_view.NecromancerView()
    p = NecromancerPresenter(Context(session=s))
    p.update(state)
    rows = view.player_rows(state, [{"seat": NECRO, "combo": "", "tokens": "",
                                     "declined": ""}])
    turn = view.table_turn(state)
    return [view.summary(state), turn.hint if turn else "", p.title, p.hint,
            p.powers_text.split("\n")[0],
            *(a["text"] for a in view.table_actions(state, [])),
            *(a["text"] for a in p.buy_actions), *(a["text"] for a in p.bottom_actions),
            rows[0]["combo"], rows[0]["tokens"],
            view.empty_region_text(state, state.part(necromancer.NecromancerState).lake)
            or ""]


def test_the_necromancer_speaks_french_and_german(speak: Any) -> None:
    s = game()
    to_his_turn(s)
    name = s.state.player(NECRO).name
    speak("fr")
    summary, hint, title, screen_hint, powers, *actions = necro_texts(s)
    assert summary.startswith(f"{name} est le Nécromant.\nFantômes{NBSP}: ")
    assert f"Puits aux Âmes{NBSP}: 0 Fantôme dessus" in summary
    assert "Son prochain Fantôme ou pouvoir coûte 2 pièces." in summary
    assert hint.startswith("Le Nécromant peut d'abord acheter des Fantômes")
    assert title == f"{name}, le Nécromant"
    assert screen_hint.startswith("Achetez avant la première conquête")
    assert powers == f"Ce que font les pouvoirs en réserve{NBSP}:"
    assert actions[:3] == ["Acheter Fantômes ou pouvoirs (2 pièces chacun)",
                           "Conquérir avec les Fantômes sur la carte", "Terminer les conquêtes"]
    assert f"Acheter un Fantôme{NBSP}: 2 pièces" in actions
    assert "Le Nécromant" in actions and "Achats finis" + NBSP + ": conquérir sur la carte" \
        in actions
    assert actions[-1].startswith(f"Île du Nécromant{NBSP}: ")
    speak("de")
    summary, hint, title, *_rest = necro_texts(s)
    assert summary.startswith(f"{name} ist der Geisterbeschwörer.\nGeister: ")
    assert "Seelenbrunnen: 0 Geister obenauf" in summary
    assert hint.startswith("Der Geisterbeschwörer darf zuerst Geister")
    assert title == f"{name}, der Geisterbeschwörer"
    assert option_texts(necro_view.NecromancerView(), True)[0].startswith(
        "Insel des Geisterbeschwörers: an")
    assert necro_view.setup_board_text(4, None).startswith(
        "4 Spieler mit dem Geisterbeschwörer: das Spielbrett für 3 Spieler")


def test_every_necromancer_text_is_wrapped(speak: Any) -> None:
    s = game()
    to_his_turn(s)
    speak(i18n.PSEUDO)
    texts = necro_texts(s)
    texts += [*option_texts(necro_view.NecromancerView(), True),
              *option_texts(necro_view.NecromancerView(), False)]
    texts += [necro_view.setup_board_text(n, d) for n, d in ((2, None), (4, None),
                                                              (4, "A board"))]
    assert bracketed([t for t in texts if t]) == []


def test_the_well_power_and_the_ghosts_placing_speak_the_tables_language(speak: Any) -> None:
    from companion.ui.presenters.base import Choice

    s = game()
    p = NecromancerPresenter(Context(session=s))
    s.subscribe(p.update)
    asked: list[Choice] = []
    p.ctx.notices.bind(on_choice=lambda _notices, choice: asked.append(choice))
    speak("de")
    necro_view.do_table(p, Overlay(), necro_view.TableAction.NECRO_WELL)
    assert asked[-1].title == "Welche Sonderfähigkeit kommt neben den Brunnen?"
    speak(i18n.PSEUDO)
    necro_view.do_table(p, Overlay(), necro_view.TableAction.NECRO_WELL)
    assert bracketed([asked[-1].title, asked[-1].text]) == []
    to_his_turn(s)
    s.buy_ghost()
    s.conquer(21, tokens=1)
    s.finish_conquests()
    speak("fr")
    p.update(s.state)
    placed = [p.placed_text]
    assert placed[0].endswith(" placés") and "Fantômes" in placed[0]
    assert [row["label"] for row in p.rows][-1] == "Sur l'Île"
    assert p.rows[0]["label"].startswith("Région 21 (")
    speak(i18n.PSEUDO)
    p.update(s.state)  # as the app does on a change of language
    for change in (1, -2):  # one too many, then one too few
        p.set_count("21", p.rows[0]["value"] + change)
        placed.append(p.placed_text)
    assert len(set(placed[1:])) == 2
    texts = [*placed[1:], *(row["label"] for row in p.rows),
             *(a["text"] for a in p.bottom_actions), p.hint,
             *(a["text"] for a in necro_view.NecromancerView().table_actions(s.state, []))]
    assert bracketed(texts) == []


# -- River World ----------------------------------------------------------------------------


def river_texts(s: Session) -> list[str]:
    state = s.state
    view = river.RiverView()
    rivers = [rid for rid, region in state.map.regions.items() if is_river(region)]
    return [view.headline(state), view.summary(state),
            *(a["text"] for a in view.table_actions(state, [])),
            *(view.region_text(state, rid) for rid in rivers),
            *(a["text"] for rid in rivers for a in view.region_actions(state, rid, [], [])[1]),
            view.spread_text(state, rivers[:1]) or "", view.spread_text(state, rivers) or "",
            *(words for _count, words, _value in view.scoring_counts(QuickCount())),
            *(look.name for look in view.terrain_looks()),
            *(look.words for look in view.terrain_looks())]


def test_river_world_speaks_french_and_german(speak: Any) -> None:
    s = river_support.river_session(RiverEvent.PIRATES)
    speak("fr")
    headline, summary, *rest = river_texts(s)
    assert headline.startswith(f"River World, tour 1{NBSP}: ")
    assert summary.startswith(f"Événements révélés{NBSP}: ")
    assert "Corriger" + NBSP + ": il y a un navire pirate ici" in rest \
        or "Corriger" + NBSP + ": pas de navire pirate ici" in rest
    assert any("Une rivière coûte " in t for t in rest)
    assert "Rivière" in rest and "Avec un Port" in rest
    speak("de")
    headline, summary, *rest = river_texts(s)
    assert headline.startswith("River World, Runde 1: ")
    assert summary.startswith("Bisherige Ereignisse: ")
    assert any("Ein Fluss kostet in dieser Runde " in t for t in rest)
    assert "Fluss" in rest and "Neben einem Piratenschiff" in rest


def test_every_river_world_text_is_wrapped(speak: Any) -> None:
    s = river_support.river_session(RiverEvent.PIRATES)
    speak(i18n.PSEUDO)
    texts = river_texts(s)
    form = NewGamePresenter(Context(session=Session()))
    form.set_option("river_world", True)
    texts += [a["text"] for a in river.RiverView().setup_options(form)]
    assert bracketed([t for t in texts if t]) == []


class Overlay:
    """The table's private overlay, as the views see it: it keeps what it was asked to show."""

    def __init__(self) -> None:
        self.shown: list[tuple[int, str, str]] = []

    def show_private(self, seat: int, text: str, detail: str) -> None:
        self.shown.append((seat, text, detail))


def test_the_temple_and_the_caravel_speak_the_tables_language(speak: Any) -> None:
    from companion.ui.presenters.base import Choice, Presenter

    s = river_support.river_session(RiverEvent.QUIET_WATERS, RiverEvent.STORM)
    s.pick(0)
    s.set_region(river_support.TEMPLE, 0, "Ratmen", tokens=2)
    s.set_region(river_support.SHIPYARD, 0, "Ratmen", tokens=2)
    p = Presenter(Context(session=s))
    overlay = Overlay()
    asked: list[Choice] = []
    p.ctx.notices.bind(on_choice=lambda _notices, choice: asked.append(choice))
    speak("fr")
    assert [a["text"] for a in river.RiverView().table_actions(s.state, [])] == [
        f"Le Temple{NBSP}: Ann voit le prochain événement", "Placer la Caravelle sur une rivière"]
    river.do_table(p, overlay, river.TableAction.SEER)
    assert overlay.shown[-1][2].startswith(
        f"Réservé à Ann{NBSP}: l'événement du tour 2.")
    river.do_table(p, overlay, river.TableAction.CARAVEL)
    assert asked[-1].title == f"Où va la Caravelle{NBSP}?"
    assert all(words.startswith("Rivière ") for _key, words in asked[-1].choices)
    speak("de")
    river.do_table(p, overlay, river.TableAction.CARAVEL)
    assert asked[-1].title == "Wohin kommt die Karavelle?"
    speak(i18n.PSEUDO)
    river.do_table(p, overlay, river.TableAction.SEER)
    river.do_table(p, overlay, river.TableAction.CARAVEL)
    texts = [a["text"] for a in river.RiverView().table_actions(s.state, [])]
    assert bracketed([*texts, overlay.shown[-1][2], asked[-1].title, asked[-1].text,
                      *(words for _key, words in asked[-1].choices)]) == []


# -- team play ------------------------------------------------------------------------------


def team_texts(s: Session) -> list[str]:
    state = s.state
    view = teams.TeamView()
    rows = [{"seat": seat, "declined": "", "current": False} for seat in range(6)]
    turn = view.table_turn(state)
    lit = view.map_highlight(state)
    return [turn.hint if turn else "", lit[1] if lit else "", view.summary(state),
            turn.heading if turn else "",
            *(a["text"] for a in view.table_actions(state, [])),
            *(row["declined"] for row in view.player_rows(state, rows)),
            *(a["text"] for rid in state.map.regions
              for a in view.region_actions(state, rid, [], [])[0]),
            *(view.region_text(state, rid) for rid in state.map.regions),
            *option_texts(view, True), *option_texts(view, False),
            teams.board_text(6), teams.board_text(5), teams.board_text(4, "A board")]


def test_team_play_speaks_french_and_german(speak: Any) -> None:
    s = team_support.session()
    speak("fr")
    texts = team_texts(s)
    hint, map_hint, summary, turn = texts[:4]
    assert hint.startswith("Avant le premier tour, Bob pose un Monstre")  # Bob sets first
    assert map_hint.startswith(f"Bob pose un Monstre{NBSP}: ")
    assert summary == f"Reliques et Lieux encore face cachée{NBSP}: 5."
    assert turn == "Monstre de Bob"
    assert f"Bob{NBSP}: poser le Monstre sur la carte" in texts
    assert "Poser le Monstre de Bob dans la région 6" in texts
    assert "Équipe A, avec Di" in texts
    assert f"Équipes de deux (6 joueurs, Reliques et Lieux){NBSP}: oui" in texts
    speak("de")
    texts = team_texts(s)
    assert texts[0].startswith("Vor der ersten Runde setzt Bob ein Monster")
    assert texts[3] == "Monster von Bob"
    assert "Team A, mit Di" in texts
    team_support.monsters_out(s)
    state = s.state
    assert teams.TeamView().region_text(state, team_support.MONSTERS[0]).startswith(
        "Ein Monster bewacht sie")
    assert teams.TeamView().event_text(MonsterPassed(0), lambda seat: "Ann") == \
        "das Passen von Ann beim Monster"


def test_every_team_play_text_is_wrapped(speak: Any) -> None:
    s = team_support.session()
    speak(i18n.PSEUDO)
    texts = team_texts(s)
    team_support.monsters_out(s)
    texts += team_texts(s)[2:]
    assert bracketed([t for t in texts if t]) == []


@pytest.mark.parametrize("marker", [BONEYARD, SIGIL])
def test_bony_and_the_sigil_ask_in_the_tables_language(speak: Any, marker: str) -> None:
    from companion.ui.presenters.base import Choice, Presenter

    s = team_support.bob_in_decline((marker,))
    p = Presenter(Context(session=s))
    asked: list[Choice] = []
    p.ctx.notices.bind(on_choice=lambda _notices, choice: asked.append(choice))
    action = teams.TableAction.BONY if marker == BONEYARD else teams.TableAction.SIGIL
    speak("fr")
    teams.do_table(p, Overlay(), action)
    assert asked[-1].title == ("Quelle bannière Bony garde-t-il" + NBSP + "?"
                               if marker == BONEYARD else "Le pacte du Sceau")
    assert all(" de Bob" in words for _key, words in asked[-1].choices)
    speak("de")
    teams.do_table(p, Overlay(), action)
    assert asked[-1].title == ("Welches Banner bewacht Bony?" if marker == BONEYARD
                               else "Der Pakt des Siegels")
    speak(i18n.PSEUDO)
    teams.do_table(p, Overlay(), action)
    assert bracketed([asked[-1].title, asked[-1].text,
                      *(words for _key, words in asked[-1].choices)]) == []
    asked[-1].on_choice(asked[-1].choices[0][0])
    assert bracketed([teams.TeamView().summary(s.state)]) == []  # (its reminders are the rules')


def test_the_ivory_tower_and_the_pygmies_ask_and_tell_in_french_and_german(
        speak: Any) -> None:
    from test_mini_game import _priestesses_declining, _pygmies_in_region_2

    from companion.ui.presenters.base import Choice, Presenter
    from companion.ui.presenters.map import MapPresenter

    s = _priestesses_declining()
    p = Presenter(Context(session=s))
    asked: list[Choice] = []
    p.ctx.notices.bind(on_choice=lambda _notices, choice: asked.append(choice))
    speak("de")
    assert mini.MiniExpansionsView().decline(p, s.state)
    assert asked[-1].title == "Der Elfenbeinturm"
    assert asked[-1].text.startswith("Aus jeder der 3 Regionen kommt eine Priesterin")
    assert all(words.startswith(f"Region {key} (") for key, words in asked[-1].choices)
    speak(i18n.PSEUDO)
    assert mini.MiniExpansionsView().decline(p, s.state)
    assert bracketed([asked[-1].title, asked[-1].text,
                      *(words for _key, words in asked[-1].choices)]) == []

    s = _pygmies_in_region_2()
    board = MapPresenter(Context(session=s))
    s.subscribe(board.update)
    board.update(s.state)
    speak("fr")
    board.tap(2)
    board.act("conquer")
    assert board.ctx.notices.last_title == "Pygmées"
    assert board.ctx.notices.last_message.startswith(
        f"Les Pygmées de Ann ont perdu un pion{NBSP}: le dé a été lancé pour eux{NBSP}: ")
    speak(i18n.PSEUDO)
    mini.MiniExpansionsView().conquered(board)
    assert bracketed([board.ctx.notices.last_title, board.ctx.notices.last_message]) == []


def test_the_expansions_own_events_in_words(speak: Any) -> None:
    from companion.rules import mini_game

    def who(seat: int) -> str:
        return ("Ann", "Bob")[seat]

    events: list[tuple[Any, Any]] = [
        (necro_view.NecromancerView(), necromancer.WellPowerChosen(0, "Flying")),
        (necro_view.NecromancerView(), necromancer.GhostBought(0)),
        (necro_view.NecromancerView(), necromancer.NecromancerPowerBought(0, "Hill")),
        (necro_view.NecromancerView(), necromancer.GhostsRedeployed(0, ((3, 1),))),
        (necro_view.NecromancerView(), necromancer.GhostsReturned(((3, 1),))),
        (teams.TeamView(), MonsterPlaced(0, 6)),
        (teams.TeamView(), MonsterPassed(0)),
        (teams.TeamView(), TavernShared(0, 1, 2)),
        (teams.TeamView(), BonyPlaced(0, 1, "Ratmen")),
        (teams.TeamView(), PowersSwapped(0)),
        (mini.MiniExpansionsView(), mini_game.PygmiesRecovered(0, (2, 5))),
    ]
    speak("fr")
    worded = [view.event_text(event, who) for view, event in events]
    assert worded[1] == "l'achat d'un Fantôme par Ann"
    assert worded[7] == "le don par Ann de 2 pièces de la Taverne à Bob"
    speak("de")
    assert events[0][0].event_text(events[0][1], who) == \
        "das Anlegen von Fliegend neben den Brunnen durch Ann"
    speak(i18n.PSEUDO)
    assert bracketed([view.event_text(event, who) for view, event in events]) == []


def test_the_mini_expansions_words_are_translated(speak: Any) -> None:
    speak("fr")
    assert mini.MAP_SYMBOLS[0].name == "Pot of Gold"  # marked, shown through `_`
    assert i18n._(mini.MAP_SYMBOLS[0].name) == "Pot d'or"
    speak("de")
    assert [i18n._(symbol.name) for symbol in river.MAP_SYMBOLS] == [
        "Hafen", "Werft", "Tempel des Sehers", "Piratenschiff", "Karavelle"]


# -- the Necromancer's screen, headless -----------------------------------------------------


@pytest.fixture
def necro_screen() -> Iterator[tuple[Any, Any]]:
    s = game()
    to_his_turn(s)
    app = ui.app_for(s)
    ui.resize((800, 480))
    app.ctx.nav.go("necromancer")
    ui.pump()
    try:
        yield app, app.screens["necromancer"]
    finally:
        ui.close_dialogs()
        i18n.use(i18n.SOURCE)
        ui.resize((800, 480))
        app.ctx.nav.go("home")
        ui.pump()


def test_the_necromancer_screen_switches_language_at_once(
        necro_screen: tuple[Any, Any]) -> None:
    app, screen = necro_screen
    name = app.session.state.player(NECRO).name
    ids = screen.ids
    assert (ids.title.text, ids.back.text) == (f"{name}, the Necromancer", "Back")
    title, back = ids.title, ids.back
    i18n.use("fr")
    ui.pump()
    assert (ids.title.text, ids.back.text) == (f"{name}, le Nécromant", "Retour")
    assert ids.hint.text.startswith("Achetez avant la première conquête")
    assert ui.button(ids.buy, "buy_ghost").text == f"Acheter un Fantôme{NBSP}: 2 pièces"
    assert (ids.title, ids.back) == (title, back)
    i18n.use("de")
    ui.pump()
    assert (ids.title.text, ids.back.text) == (f"{name}, der Geisterbeschwörer", "Zurück")
    assert ui.button(ids.buy, "buy_ghost").text == "Einen Geist kaufen: 2 Münzen"
    assert ids.summary.text.startswith(f"{name} ist der Geisterbeschwörer.")


@pytest.mark.parametrize("language", [i18n.PSEUDO, "de", "fr"])
def test_the_necromancer_screen_fits_in_longer_languages(necro_screen: tuple[Any, Any],
                                                          language: str) -> None:
    app, screen = necro_screen
    i18n.use(language)
    ui.pump()
    if language == i18n.PSEUDO:
        assert bracketed([screen.ids.title.text, screen.ids.hint.text]) == []
    for size in ((800, 480), (480, 800), (1280, 720)):
        ui.resize(size)
        assert ui.layout_problems(screen) == [], size
    # his redeployment: the steppers and the count placed
    s = app.session
    s.buy_ghost()
    s.conquer(21, tokens=1)
    s.finish_conquests()
    ui.pump()
    assert screen.ids.counts.rows
    for size in ((800, 480), (480, 800)):
        ui.resize(size)
        assert ui.layout_problems(screen) == [], size
