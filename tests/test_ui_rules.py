"""The rules screen, driven through a real window with simulated touches (800x480): it
opens from the table, the letters pad's search filters the list, a tapped match shows its
words, Back returns where it came from, and `show()` opens it at one entry."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
from kivy.uix.recycleview import views

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from factories import created, session
from screen_steps import tap_region

from companion.rules.catalog import load_catalog
from companion.rules.errors import UnknownName
from companion.rules.rule_entry import english
from companion.rules.rulebook import load_rulebook
from companion.session import Session
from companion.ui.screens.rules import RuleMatch
from companion.ui.widgets import NamePad

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def game() -> Session:
    s = Session(load_catalog(), rng=random.Random(1))
    s.begin(created(3))
    return s


def start(screen: str) -> Any:
    app = ui.app_for(game())
    ui.resize((800, 480))
    app.ctx.nav.go(screen)
    ui.pump()
    return app


def rules_screen(app: Any) -> Any:
    assert app.ctx.nav.current == "rules"
    assert app.manager.current == "rules"
    return app.screens["rules"]


def shown_matches(screen: Any) -> list[str]:
    return [row["text"] for row in screen.ids.matches.data]


def test_the_table_s_rules_button_opens_the_screen_and_back_returns_to_the_table() -> None:
    app = start("table")
    app.presenters["rules"].search("")
    ui.tap(ui.button(app.screens["table"], "top_rules"))
    screen = rules_screen(app)
    # no active race yet: the turn's first step
    assert screen.ids.title.text == "Pick a combo"
    assert shown_matches(screen) == ["Pick a combo"]
    assert ui.layout_problems(screen) == []
    app.presenters["rules"].search("")
    ui.pump()
    assert len(shown_matches(screen)) == len(load_rulebook())
    ui.tap(ui.button(screen, "back"))
    assert app.ctx.nav.current == "table"
    assert app.manager.current == "table"


def test_typing_on_the_pad_filters_the_list_and_a_tapped_match_shows_its_words() -> None:
    app = start("home")
    app.ctx.nav.go("rules")
    ui.pump()
    screen = rules_screen(app)
    app.presenters["rules"].search("")
    ui.tap(screen.ids.search)  # a finger on the field opens the letters pad
    pad = ui.dialogs()[-1]
    assert isinstance(pad, NamePad)
    ui.type_on_pad("Gho")
    ui.pump()
    assert screen.ids.search.query == "Gho"
    assert shown_matches(screen) == ["Ghouls", "Ghosts"]  # races first
    assert screen.ids.count.text == "2 entries"
    assert screen.ids.title.text == "Ghouls"  # the first match shows by itself
    assert screen.ids.text.text == load_catalog().race("Ghouls").summary
    assert "Race" in screen.ids.about.text and "Base game" in screen.ids.about.text
    ui.tap(ui.button(screen, "match:piece:Ghosts"))
    assert screen.ids.title.text == "Ghosts"
    assert screen.ids.text.text == english(load_rulebook().entry("piece", "Ghosts").text)
    assert "Necromancer Island" in screen.ids.about.text
    assert [row["chosen"] for row in screen.ids.matches.data] == [False, True]
    ui.tap(ui.button(screen, "clear"))
    assert screen.ids.search.query == ""
    assert len(shown_matches(screen)) == len(load_rulebook())
    assert screen.ids.title.text == "Ghosts"  # still shown: it is in the full list
    ui.tap(ui.button(screen, "back"))
    assert app.ctx.nav.current == "home"


def test_a_search_that_finds_nothing_says_so_and_keeps_the_entry_shown() -> None:
    app = start("rules")
    screen = rules_screen(app)
    p = app.presenters["rules"]
    p.show("event", "Storm")
    p.search("xyzzy")
    ui.pump()
    assert shown_matches(screen) == []
    assert "xyzzy" in screen.ids.count.text
    assert screen.ids.title.text == "Storm"


def test_show_opens_the_screen_at_an_entry_from_another_screen() -> None:
    app = start("market")
    app.presenters["rules"].show("power", "Flying")
    app.ctx.nav.go("rules")
    ui.pump()
    screen = rules_screen(app)
    assert screen.ids.title.text == "Flying"
    assert screen.ids.text.text == load_catalog().power("Flying").summary
    assert shown_matches(screen)[0] == "Flying"
    assert ui.layout_problems(screen) == []
    ui.tap(ui.button(screen, "back"))
    assert app.ctx.nav.current == "market"
    with pytest.raises(UnknownName):
        app.presenters["rules"].show("power", "Invisible")


def test_the_rules_screen_is_let_go_when_left_and_shows_the_same_entry_when_back() -> None:
    app = start("table")
    app.presenters["rules"].show("relic", "Golden Soapbar")
    app.ctx.nav.go("rules")
    ui.pump()
    app.presenters["rules"].search("so")  # the list's rows are replaced: Kivy keeps spares
    ui.pump()
    app.ctx.nav.go("table")
    ui.pump()
    assert "rules" not in app.screens._built
    assert not views._cached_views.get(RuleMatch)  # no row outlives the screen
    app.ctx.nav.go("rules")
    ui.pump()
    assert rules_screen(app).ids.title.text == "Golden Soapbar"


def test_the_market_s_rules_button_opens_the_screen_and_back_returns_to_the_market() -> None:
    app = start("market")
    ui.tap(ui.button(app.screens["market"], "rules"))
    rules_screen(app)
    ui.tap(ui.button(app.screens["rules"], "back"))
    assert app.ctx.nav.current == "market"


def test_open_at_shows_the_entry_and_goes_to_the_screen() -> None:
    app = start("map")
    app.presenters["rules"].open_at("place", "Mirror's Vale")
    ui.pump()
    screen = rules_screen(app)
    assert screen.ids.title.text == "Mirror's Vale"
    assert "Popular Place" in screen.ids.about.text
    ui.tap(ui.button(screen, "back"))
    assert app.ctx.nav.current == "map"


def test_the_table_s_rules_button_opens_at_the_current_player_s_active_race() -> None:
    s = session(players=2, races=("Amazons",), powers=("Hill",))
    s.pick(0)
    app = ui.app_for(s)
    ui.resize((800, 480))
    app.ctx.nav.go("table")
    ui.pump()
    ui.tap(ui.button(app.screens["table"], "top_rules"))
    screen = rules_screen(app)
    assert screen.ids.title.text == "Amazons"
    assert screen.ids.text.text == load_catalog().race("Amazons").summary
    ui.tap(ui.button(screen, "back"))
    assert app.ctx.nav.current == "table"


def test_a_tap_on_the_table_s_reminders_opens_at_what_they_name() -> None:
    s = session(players=2, races=("Amazons",), powers=("Hill",))
    s.pick(0)
    s.finish_conquests()
    app = ui.app_for(s)
    ui.resize((800, 480))
    app.ctx.nav.go("table")
    ui.pump()
    table = app.screens["table"]
    assert "lift 4 Amazons" in table.ids.reminders.words
    assert ui.layout_problems(table) == []
    assert ui.is_shown(table.ids.reminders)  # whole lines under the actions, no scrolling
    ui.tap(table.ids.reminders)
    screen = rules_screen(app)
    assert screen.ids.title.text == "Amazons"
    ui.tap(ui.button(screen, "back"))
    assert app.ctx.nav.current == "table"


def test_named_in_finds_the_first_and_longest_name_a_text_holds() -> None:
    p = ui.app_for(game()).presenters["rules"]
    assert p.named_in("Amazons: lift 4 Amazons off the map.") == ("race", "Amazons")
    assert p.named_in("Wealthy: 7 coins this turn, once.") == ("power", "Wealthy")
    assert p.named_in("Pay at Glandulf\u2019s tavern") == ("place", "Glandulf's Tavern")
    assert p.named_in("Nothing to look up here.") is None
    assert p.named_in("") is None


def test_a_market_row_s_question_mark_opens_at_its_race_or_power() -> None:
    app = start("market")
    market = app.screens["market"]
    row = market.ids.rows.row("row2")
    combo = app.presenters["market"].rows[2]["combo"]
    r = app.session.state.market.rows[2].combo
    for kind, name in (("race", r.race), ("power", r.power)):
        ui.tap(row.ids.look_up)
        choice = ui.dialogs()[-1]
        assert combo in choice.title
        ui.tap(ui.button(choice, f"{kind}:{name}"))
        screen = rules_screen(app)
        assert screen.ids.title.text == name
        ui.tap(ui.button(screen, "back"))
        assert app.ctx.nav.current == "market"
        assert ui.dialogs() == []  # looking up picked nothing: no question to take it
        row = app.screens["market"].ids.rows.row("row2")


def test_the_map_panel_s_rules_open_at_the_holder_s_race_or_power() -> None:
    s = session(players=2, races=("Amazons",), powers=("Hill",))
    s.pick(0)
    s.conquer(4)
    app = ui.app_for(s)
    ui.resize((800, 480))
    app.ctx.nav.go("map")
    ui.pump()
    map_screen = app.screens["map"]
    assert map_screen.ids.look_up.disabled  # no region tapped: nothing to look up
    tap_region(app, 4)
    assert app.presenters["map"].region_rules(s.state, 4) == [
        ("race", "Amazons"), ("power", "Hill")]
    assert ui.layout_problems(map_screen) == []
    for key, title in (("race:Amazons", "Amazons"), ("power:Hill", "Hill")):
        ui.tap(app.screens["map"].ids.look_up)
        choice = ui.dialogs()[-1]
        assert [c["key"] for c in choice.choices] == ["race:Amazons", "power:Hill"]
        ui.tap(ui.button(choice, key))
        screen = rules_screen(app)
        assert screen.ids.title.text == title
        ui.tap(ui.button(screen, "back"))
        assert app.ctx.nav.current == "map"
        assert app.presenters["map"].selected == 4
