"""The expansions' refusals and reminders in the table's language: Necromancer Island, team
play with its Monsters, Relics and Places, and the mini-expansions raise `Said` sentences,
which a French or German table reads in its own words, the pieces and powers by the names
its edition prints; `str()` stays the English. Raised through the real rules (a session
playing each expansion), and one refused tap on the Necromancer's screen, headless."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import team_support
import ui_support as ui
from factories import session as base_session
from test_necromancer_game import NECRO, game, to_his_turn

from companion import i18n
from companion.rules.errors import IllegalAction
from companion.rules.events import RegionConquered
from companion.rules.game import apply
from companion.rules.mini_game import PygmiesRecovered
from companion.rules.mini_game import reminders as reminders_said
from companion.rules.necromancer import NecromancerState
from companion.rules.said import Said
from companion.rules.teams import team_standings
from companion.session import Session
from companion.ui.wording import say


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use(i18n.SOURCE)


def refusal(act: Callable[[], object]) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        act()
    return refused.value


def in_each_language(what: IllegalAction | Said) -> dict[str, str]:
    """`what` worded in English, French and German."""
    worded = {}
    for lang in ("en", "fr", "de"):
        i18n.use(lang)
        worded[lang] = say(what)
    i18n.use(i18n.SOURCE)
    return worded


def assert_translated(what: IllegalAction | Said, fr: tuple[str, ...],
                      de: tuple[str, ...]) -> None:
    """English as `str()` says it; French and German not that, with the words given."""
    worded = in_each_language(what)
    assert worded["en"] == str(what)
    for lang, words in (("fr", fr), ("de", de)):
        assert worded[lang] != str(what), lang
        for word in words:
            assert word in worded[lang], (lang, worded[lang])


# --- Necromancer Island ------------------------------------------------------------------


def test_only_the_necromancer_buys_his_powers_in_each_language() -> None:
    s = game()
    assert s.state.track.seat != NECRO
    refused = refusal(lambda: s.buy_power("Flying"))
    assert str(refused) == "only the Necromancer (Di) can buy Flying"
    assert_translated(refused, fr=("Nécromant", "Volants", "(Di)"),
                      de=("Geisterbeschwörer", "Fliegend", "(Di)"))


def test_his_buying_ends_with_his_first_conquest_in_each_language() -> None:
    s = game()
    to_his_turn(s)
    s.conquer(21, tokens=1)
    refused = refusal(s.buy_ghost)
    assert str(refused) == "the Necromancer cannot buy a Ghost now; he is at: conquer"
    assert_translated(refused, fr=("Nécromant", "Fantôme", "\u00a0:"),
                      de=("Geisterbeschwörer", "Geist", "erobern"))


def test_his_ghosts_placed_must_add_up_in_each_language() -> None:
    s = game()
    to_his_turn(s)
    s.conquer(21, tokens=1)
    s.finish_conquests()
    refused = refusal(lambda: s.redeploy_ghosts({21: 2}))
    assert str(refused) == "the Necromancer has 1 Ghosts on the map to place, not 2"
    assert_translated(refused, fr=("Nécromant", "Fantômes"), de=("Geisterbeschwörer",))


# --- team play, its Monsters, Relics and Places ------------------------------------------


def test_the_monsters_go_out_first_in_each_language() -> None:
    s = team_support.session()
    refused = refusal(lambda: s.pick(0))
    assert str(refused).startswith("the Monsters go out before the first turn: Bob sets")
    assert_translated(refused, fr=("Monstres", "Bob"), de=("Monster", "Bob"))


def test_a_monster_goes_only_in_a_lost_tribe_region_in_each_language() -> None:
    s = team_support.session()
    region = min(r.id for r in s.state.map.regions.values()
                 if not r.lost_tribe and not r.is_water)
    refused = refusal(lambda: s.place_monster(region))
    assert str(refused) == f"a Monster goes in a Lost Tribe region; region {region} is not one"
    assert_translated(refused, fr=("Monstre", "Tribu oubliée", str(region)),
                      de=("Monster", "Stamm", str(region)))


def test_only_the_sigils_holder_makes_a_pact_in_each_language() -> None:
    s = team_support.session()
    team_support.monsters_out(s)
    s.pick(0)
    refused = refusal(lambda: s.make_sigil_pact("shield", team_support.BOB, "Orcs"))
    assert str(refused) == ("only a player whose active race holds the Sigil of Sacrifice "
                            "makes a pact")
    assert_translated(refused, fr=("Sceau du Sacrifice",), de=("Siegel des Opfers",))


def test_why_a_team_won_reads_in_each_language() -> None:
    names = dict(enumerate(team_support.NAMES))
    tied = team_standings({0: 60, 3: 45, 1: 45, 4: 60, 2: 70, 5: 30}, names=names)
    assert tied.reason == str(tied.why) == (
        "Teams A and B tie on 45 coins; teams A and B also tie on the best single total (60) "
        "and share the win")
    assert_translated(tied.why, fr=("Les équipes A et B", "égalité", "(60)"),
                      de=("Die Teams A und B", "gleichauf", "(60)"))
    won = team_standings({0: 60, 3: 41, 1: 50, 4: 45, 2: 99, 5: 30})
    assert won.reason == ("Team B (seat 1 and seat 4) wins with 45 coins, seat 4's total "
                          "(the lower of the two)")
    assert_translated(won.why, fr=("(place 1 et place 4)", "le total de place 4"),
                      de=("(Platz 1 und Platz 4)", "der Summe von Platz 4"))


# --- the mini-expansions -----------------------------------------------------------------


def priestesses_declining() -> Session:
    """Ann's Priestesses hold 2, 3 and 7; her second turn, before any move."""
    s = base_session(players=2, races=("Priestesses", "Humans"), powers=("Hill", "Swamp"),
                     expansions=("base", "grand-dames"))
    s.pick(0)
    for region in (2, 3, 7):
        s.conquer(region)
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    s.end_turn()
    s.pick(0)  # Bob
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    s.end_turn()
    return s


def test_the_ivory_tower_goes_in_a_priestess_region_in_each_language() -> None:
    s = priestesses_declining()
    refused = refusal(lambda: s.decline(region=5))
    assert str(refused) == ("the Ivory Tower goes in a region the Priestesses hold (2, 3, 7), "
                            "not in region 5")
    assert_translated(refused, fr=("Tour d'ivoire", "Prêtresses", "2, 3, 7"),
                      de=("Elfenbeinturm", "Priesterinnen", "2, 3, 7"))


def test_the_new_pygmies_reminder_picks_its_plural_in_each_language() -> None:
    s = base_session(players=2, races=("Pygmies", "Humans"), powers=("Hill", "Swamp"),
                     expansions=("base", "be-not-afraid"), seed=3)
    s.pick(0)
    s.conquer(2)
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    s.end_turn()
    s.pick(0)
    lost = apply(s.state, RegionConquered(1, 2))
    three, = reminders_said(apply(lost, PygmiesRecovered(0, (3,))))
    one, = reminders_said(apply(lost, PygmiesRecovered(0, (1,))))
    assert str(three) == str(reminders_said(apply(lost, PygmiesRecovered(0, (3,))))[0])
    assert str(one).startswith("Pygmies: Ann gets 1 new Pygmy from the box")
    assert_translated(three, fr=("Pygmées", "3 nouveaux"), de=("Pygmäen", "3 neue"))
    assert_translated(one, fr=("1 nouveau Pygmée",), de=("1 neuen Pygmäen",))


# --- a refused tap on the Necromancer's screen, in German -------------------------------


def test_a_refused_tap_on_the_necromancers_screen_reads_in_german() -> None:
    s = game()
    to_his_turn(s)
    s.buy_ghost()
    s.conquer(21, tokens=2)
    s.finish_conquests()
    app: Any = ui.app_for(s)
    try:
        ui.resize((800, 480))
        i18n.use("de")
        app.ctx.nav.go("necromancer")
        ui.pump()
        screen = app.screens["necromancer"]
        ui.tap(screen.ids.counts.stepper("island").ids.plus)
        ui.tap(ui.button(screen.ids.bottom_actions, "confirm"))
        (dialog,) = ui.dialogs()
        assert "Geisterbeschwörer hat 2 Geister auf der Karte einzusetzen, nicht 3" in dialog.text
        assert "Necromancer" not in dialog.text
        ui.tap(dialog.ids.ok)
        assert s.state.part(NecromancerState).regions == {21: 2}  # type: ignore[union-attr]
    finally:
        ui.close_dialogs()
        i18n.use(i18n.SOURCE)
        app.ctx.nav.go("home")
        ui.pump()
