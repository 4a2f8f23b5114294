"""The shared engine's own sentences reach a French or German table in its language.

Refusals raised by the real rules (a position from `positions`, or a real session) and the
reasons the screens show (the die's chance, the final conquest's odds, a region's reach,
the winner's line, the table's reminders) are worded with `companion.ui.wording.say`: in
French and German no English sentence is left, the language's own words are there, and the
names inside are the edition's (the Ghouls are "Zombies" in French, "Ghule" in German),
while `str()` stays the English sentence. A screen test: a refused tap on the market, and
the table's die line, speak German on the real headless app.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
import words_support
from factories import session
from positions import position
from screen_steps import dismiss_notice, screen

from companion import i18n
from companion.rules import IllegalAction, RulesError, Said
from companion.rules.conquest import Attacker, conquest_cost, final_conquest, reach
from companion.rules.die import die_roll_allowed
from companion.rules.events import DieRolled, MarkerPlaced, RaceDeclined, RegionConquered
from companion.rules.game import apply, attacker
from companion.rules.reminders import reminders as reminders_said
from companion.rules.standings import final_standings
from companion.ui import names
from companion.ui.wording import say

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ENGLISH_GLUE = (" the ", " cannot ", " is ", " are ", " not ", " any ", " hold ", " has ",
                " holds ", " needs ", " only ", " must ", " tokens", " token ", " turn ",
                " conquest", " afford ")
"""English words a French or German sentence never holds (names and numbers aside)."""

LANGUAGE_WORDS = {"fr": (" la ", " le ", " les ", " de ", " pas ", " pion", " ne ", " une ",
                         " un ", " ce ", " est ", " en ", " avec ", " votre ", " des "),
                  "de": (" der ", " die ", " das ", " nicht ", " kein", " ist ", " Marker",
                         " eine ", " ein ", " nur ", " auf ", " mit ", " und ", " dein")}


def refusal(action: Callable[[], object]) -> RulesError:
    with pytest.raises(RulesError) as raised:
        action()
    return raised.value


def assert_translated(what: RulesError | Said | str, english: str) -> dict[str, str]:
    """`what` says `english` by str() and in English, and a sentence of their own in French
    and German (no English glue word left, words of the language there): a rules error or
    a `Said`, never plain text."""
    assert isinstance(what, RulesError | Said), what
    assert str(what) == english
    assert say(what) == english
    shown = {}
    for language in ("fr", "de"):
        text = words_support.in_language(language, what)
        padded = f" {text} "
        assert text != english, (language, text)
        assert not [w for w in ENGLISH_GLUE if w in padded], (language, text)
        assert any(w in padded for w in LANGUAGE_WORDS[language]), (language, text)
        shown[language] = text
    return shown


def in_language(language: str, words: Callable[[], str]) -> str:
    i18n.use(language)
    try:
        return words()
    finally:
        i18n.use(i18n.SOURCE)


def far_land_region(state: Any, held: int) -> int:
    """A land region neither `held` nor next to it, nobody's."""
    board = state.map
    found: int = next(rid for rid in sorted(board.regions)
                      if rid != held and rid not in board.region(held).adjacent
                      and not board.region(rid).is_water and state.regions[rid].occupant is None)
    return found


def test_an_illegal_conquest_names_the_race_as_the_edition_does() -> None:
    state = position("2p", "Ann: Merchant Ghouls 3@5 hand 6; Bob", seat="Ann")
    far = far_land_region(state, 5)
    refused = refusal(lambda: apply(state, RegionConquered(0, far)))
    shown = assert_translated(
        refused, f"region {far} does not border any region Ghouls hold")
    assert "Zombies" in shown["fr"] and "région" in shown["fr"]
    assert "Ghule" in shown["de"] and "Region" in shown["de"]
    route = reach(state.map, far, attacker(state))  # the map panel's reason, the same words
    assert not route.reachable and words_support.in_language("fr", route.reason) == shown["fr"]


def test_an_unaffordable_combo_names_the_combo_in_the_languages_order() -> None:
    s = session(2, races=("Ratmen", "Orcs", "Ghouls", "Elves"),
                powers=("Flying", "Hill", "Mounted", "Alchemist"))
    s.adjust_coins(0, -3, "a test")
    combo = s.state.market.rows[3].combo
    assert (combo.power, combo.race) == ("Alchemist", "Elves")
    refused = refusal(lambda: s.pick(3))
    shown = assert_translated(
        refused, "Ann cannot afford the Alchemist Elves in row 4: it costs 3 coins and they "
                 "have fewer")
    assert in_language("fr", lambda: names.combo("Alchemist", "Elves")) in shown["fr"]
    assert "ligne 4" in shown["fr"] and "3 pièces" in shown["fr"]
    assert "Reihe 4" in shown["de"] and "3 Münzen" in shown["de"]


def test_a_roll_out_of_its_phase_says_the_phase_in_the_language_too() -> None:
    state = position("2p", "Ann: Berserk Ratmen 2@5 hand 4; Bob", seat="Ann", phase="redeploy")
    refused = refusal(lambda: apply(state, DieRolled(0, 2, "berserk")))
    shown = assert_translated(
        refused, "Ann cannot roll the reinforcement die now; the turn is at: redeploy")
    assert "dé de renfort" in shown["fr"] and "redéployer" in shown["fr"]
    assert "Verstärkungswürfel" in shown["de"] and "neu verteilen" in shown["de"]
    chance = die_roll_allowed(state)  # the table's die line: the same moment, in words
    assert chance.purpose is None
    assert_translated(chance.reason, "No roll now: the die is rolled while conquering, and "
                                     "Ann's turn is at: redeploy.")


def test_a_decline_refused_after_a_pick_and_a_stout_one() -> None:
    state = position("2p", "Ann: Alchemist Orcs picked 1 2@5 hand 3; Bob", seat="Ann")
    refused = refusal(lambda: apply(state, RaceDeclined(0)))
    shown = assert_translated(
        refused, "a race goes into decline at the start of a turn, instead of conquering")
    assert "déclin" in shown["fr"] and "Niedergang" in shown["de"]
    stout = position("2p", "Ann: Stout Orcs picked 1 2@5 hand 3; Bob", seat="Ann")
    shown = assert_translated(
        refusal(lambda: apply(stout, RaceDeclined(0))),
        "a race goes into decline at the start of a turn, instead of conquering (Stout: or at "
        "the end of the turn, after scoring)")
    assert "Durs-à-cuire" in shown["fr"] and "Unerschrocken" in shown["de"]


def test_a_marker_and_a_short_hand_are_refused_in_the_language() -> None:
    state = position("2p", "Ann: Fortified Orcs 2@5 hand 1; Bob", seat="Ann")
    far = far_land_region(state, 5)
    shown = assert_translated(
        refusal(lambda: apply(state, MarkerPlaced(0, far, "fortress"))),
        "a Fortress goes in a region your active race holds")
    assert "forteresse" in shown["fr"] and "Festung" in shown["de"]
    near = next(rid for rid in sorted(state.map.region(5).adjacent)
                if not state.map.region(rid).is_water)
    refused = refusal(lambda: apply(state, RegionConquered(0, near, tokens=5)))
    assert isinstance(refused, IllegalAction)
    shown = assert_translated(
        refused, f"conquering region {near} needs 5 tokens, but only 1 is in hand; roll the "
                 "die for a final conquest")
    assert "5 pions" in shown["fr"] and "1 est en main" in shown["fr"]
    assert "würfle für eine letzte Eroberung" in shown["de"]


def test_the_final_conquest_odds_the_winner_and_the_reminders_are_said_too() -> None:
    kobolds = Attacker(0, "Kobolds", "Alchemist", frozenset({5}))
    odds = final_conquest(1, 3, (0, 0, 0, 1, 2, 3), kobolds)
    shown = assert_translated(
        odds.reason, "1 token left; Kobolds never hold a region with fewer than 2")
    assert "Kobolds" in shown["fr"] and "Kobolde" in shown["de"]
    result = final_standings({0: 30, 1: 30}, {0: 9, 1: 12}, {0: "Ann", 1: "Bo"})
    shown = assert_translated(result.reason, "Ann and Bo tie on 30 coins; Bo wins with 12 race "
                                             "tokens on the board (Ann: 9)")
    assert "Ann et Bo" in shown["fr"] and "Ann\u00a0: 9" in shown["fr"]
    assert "Ann und Bo" in shown["de"]
    ghouls = position("2p", "Ann: Alchemist Orcs 2@5 hand 3, Merchant Ghouls declined 2@9; Bob",
                      seat="Ann")
    (first, *_) = reminders_said(ghouls)
    assert isinstance(first, Said)
    shown = assert_translated(
        first, "Ghouls in decline: conquer with them first, before your active race.")
    assert shown["fr"].startswith("Zombies en déclin") and shown["de"].startswith("Ghule")


@pytest.fixture
def market_app() -> Any:
    """The app on the market in German: Ann has 2 coins, so row 4 (3 coins) is beyond her."""
    s = session(2, races=("Ratmen", "Orcs", "Ghouls", "Elves"),
                powers=("Flying", "Hill", "Mounted", "Alchemist"))
    s.adjust_coins(0, -3, "a test")
    app = ui.app_for(s)
    ui.resize((800, 480))
    i18n.use("de")
    app.ctx.nav.go("market")
    ui.pump()
    try:
        yield app
    finally:
        ui.close_dialogs()
        i18n.use(i18n.SOURCE)
        app.ctx.nav.go("home")
        ui.pump()


def test_a_refused_tap_on_the_market_and_the_tables_die_line_speak_german(
        market_app: Any) -> None:
    app = market_app
    rows = screen(app).ids.rows
    ui.tap(rows.row("row3"))
    ui.pump()
    notice = dismiss_notice()
    combo = names.combo("Alchemist", "Elves")  # German, in German order
    assert notice == (f"Ann kann sich {combo} in Reihe 4 nicht leisten: es kostet 3 "
                      "Münzen, und es sind weniger da."), notice
    assert app.session.state.players[0].active is None  # refused: nothing changed
    app.ctx.nav.go("table")
    ui.pump()
    table = screen(app)  # Ann picks first: the die's line says why it is not for now
    assert table.ids.die_reason.text == ("Jetzt kein Wurf: gewürfelt wird beim Erobern, und "
                                         "Anns Zug steht bei „eine Kombination wählen“."), \
        table.ids.die_reason.text


def test_a_conquest_costs_lines_and_notes_are_worded_in_the_language() -> None:
    board = position("2p", "Ann; Bob", phase="pick").map
    near = next(rid for rid in sorted(board.region(5).adjacent)
                if not board.region(rid).is_water)
    state = position("2p", f"Ann: Berserk Ratmen 2@5 hand 6; Bob: Alchemist Ghouls 3@{near}",
                     seat="Ann")
    cost = conquest_cost(state.map, near, state.regions.regions, attacker(state))
    labels = {str(line.words): line for line in cost.lines}
    assert "Any conquest" in labels and "Ghouls tokens there" in labels
    assert cost.notes[0] == "Berserk: roll the die first; its face comes off this cost"
    french = {words_support.in_language("fr", line.words) for line in cost.lines}
    assert {"Toute conquête", "pions Zombies présents"} <= french, french
    (note,) = cost.said_notes
    assert words_support.in_language("de", note) == (
        "Berserker: würfle zuerst; die Augenzahl geht von diesen Kosten ab")


def test_the_map_panel_words_the_cost_its_notes_and_the_reach_in_french() -> None:
    from companion.ui.presenters.base import Context
    from companion.ui.presenters.map import MapPresenter

    s = session(2, races=("Ratmen", "Orcs"), powers=("Berserk", "Hill"))
    s.pick(0)  # Ann: Berserk Ratmen, entering the board
    board_map = s.state.map
    entry = next(rid for rid in sorted(board_map.regions) if board_map.region(rid).entry
                 and not board_map.region(rid).is_water)
    inland = next(rid for rid in sorted(board_map.regions) if not board_map.region(rid).entry
                  and not board_map.region(rid).is_water)
    panel = MapPresenter(Context(session=s))
    i18n.use("fr")
    panel.update(s.state)
    panel.tap(entry)  # Berserk rolls before a cost is offered
    assert panel.cost_lines == []
    assert "Berserks\u00a0: lancez d'abord le dé" in panel.note_text, panel.note_text
    s.roll_for_berserk()
    panel.update(s.state)
    panel.tap(entry)
    labels = [row["label"] for row in panel.cost_lines]
    assert labels[0] == "Toute conquête", labels
    panel.tap(inland)
    assert panel.note_text == (f"Un peuple qui entre sur le plateau doit prendre une région "
                               f"d'entrée\u00a0; la région {inland} n'en est pas une."), \
        panel.note_text
