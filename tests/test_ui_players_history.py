"""Saved players, the PIN before a peek, the quick count, past games, stats and settings,
driven through the real screens with simulated touches (800x480, the Pi's panel).

Names are typed on the on-screen letters pad and PINs on the PIN pad: no keyboard.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from factories import created, play_turn

from companion.rules.catalog import load_catalog
from companion.rules.events import TurnScored
from companion.rules.turns import Phase
from companion.rules.views import own_coins
from companion.session import Session
from companion.store import Store
from companion.ui.presenters import table as table_presenter
from companion.ui.widgets import MessageDialog, NamePad, PeekView, PinPad

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with Store.open(tmp_path / "games.sqlite3") as opened:
        yield opened


def saved_session(store: Store, players: int = 3, **kwargs: Any) -> Session:
    s = Session(load_catalog(), rng=random.Random(1), store=store)
    s.begin(created(players, **kwargs))
    return s


def start(session: Session, screen: str = "home") -> Any:
    app = ui.app_for(session)
    ui.resize((800, 480))
    app.ctx.nav.go(screen)
    ui.pump()
    return app


def shown(app: Any) -> Any:
    return app.screens[app.ctx.nav.current]


def tap_id(app: Any, widget_id: str) -> None:
    ui.tap(shown(app).ids[widget_id])


def only_dialog(kind: type) -> Any:
    found = ui.dialogs()
    assert len(found) == 1 and isinstance(found[0], kind), found
    return found[0]


def choose(text: str) -> None:
    dialog = ui.dialogs()[-1]
    ui.tap(ui.find(dialog, text=text))


def message() -> str:
    dialog = only_dialog(MessageDialog)
    text: str = dialog.text
    ui.tap(dialog.ids.ok)
    return text


def peeks() -> list[Any]:
    return [w for w in ui.window().children if isinstance(w, PeekView)]


# -- new game: saved players or names typed by touch ------------------------------------------

def test_a_new_game_seats_saved_players_and_saves_typed_names(store: Store) -> None:
    bob = store.add_profile("Bob", "green")
    app = start(Session(load_catalog(), rng=random.Random(2), store=store))
    tap_id(app, "new_game")
    app.presenters["new_game"].reset(["Player 1", "Player 2", "Player 3"])  # a fresh form
    ui.pump()
    seats = shown(app).ids.seats
    ui.tap(seats.row(0).ids.name)  # a saved player, or someone new
    choose("Someone new: type the name")
    pad = only_dialog(NamePad)
    ui.type_on_pad("Ann Mary", done=False)
    assert pad.value == "Ann Mary"  # a capital at the start of each word, by itself
    for _ in range(2):
        ui.tap(ui.find(pad, action_key="delete"))
    ui.type_on_pad("rie-Lou")
    assert seats.row(0).ids.name.text == "Ann Marie-Lou"
    ui.tap(seats.row(1).ids.name)
    choose("Bob (Green)")
    assert seats.row(1).ids.name.text == "Bob"
    assert seats.row(1).ids.colour.text == "Green"  # Bob's own colour...
    assert seats.row(2).ids.colour.text == "Orange"  # ...swapped with the seat that had it
    assert {p.name for p in store.profiles()} == {"Ann Marie-Lou", "Bob"}
    tap_id(app, "start")
    assert app.ctx.nav.current == "table"
    seated = store.game(app.session.game_id).seats
    assert seated[1].player_id == bob.id
    assert seated[0].player_id == next(p.id for p in store.profiles() if p.name != "Bob")
    assert seated[2].player_id is None  # "Player 3" is nobody's profile


def test_the_letters_pad_wants_a_name_and_cancel_changes_nothing(store: Store) -> None:
    app = start(Session(load_catalog(), store=store), "new_game")
    app.presenters["new_game"].reset(["Player 1", "Player 2"])
    ui.pump()
    seats = shown(app).ids.seats
    ui.tap(seats.row(0).ids.name)
    pad = only_dialog(NamePad)
    ui.tap(ui.find(pad, action_key="done"))
    assert pad.text == "A name needs at least one letter."
    ui.type_on_pad("Zed", done=False)
    ui.tap(ui.find(pad, action_key="cancel"))
    assert ui.dialogs() == []
    assert seats.row(0).ids.name.text == "Player 1"
    assert store.profiles() == []


# -- the peek behind a PIN --------------------------------------------------------------------

def test_a_pin_is_set_by_touch_and_the_peek_then_asks_for_it(
    store: Store, monkeypatch: pytest.MonkeyPatch, kivy_clock: None,
) -> None:
    store.add_profile("Ann", "blue")
    s = saved_session(store)
    app = start(s, "settings")
    tap_id(app, "players")
    assert app.ctx.nav.current == "profiles"
    ann = shown(app).ids.profiles.row("Ann")
    ui.tap(ann.ids.pin)
    only_dialog(PinPad)
    ui.type_on_pad("1234")
    only_dialog(PinPad)  # once more, to be sure
    ui.type_on_pad("1234")
    assert "now types this PIN" in message()
    assert shown(app).ids.profiles.row("Ann").ids.pin.text == "PIN: on"
    assert store.check_pin(store.profiles()[0].id, "1234")

    app.ctx.nav.go("table")
    ui.pump()
    name = shown(app).ids.players.row(0).ids.name_button
    touch = ui.hold(name)
    pad = only_dialog(PinPad)
    ui.release(touch)
    assert peeks() == []
    ui.type_on_pad("9999")  # wrong
    assert pad.parent is None
    assert "not right" in message()
    assert peeks() == [] and app.presenters["table"].peek_text == ""

    ui.release(ui.hold(name))
    ui.type_on_pad("1234")
    (view,) = peeks()
    assert view.ids.peek_total.text == f"{own_coins(s.state, 0)} coins"
    ui.wait(table_presenter.PEEK_SECONDS - 0.5)  # Kivy's clock is held: the test moves it
    assert peeks() == [view]  # shown for PEEK_SECONDS
    ui.wait(1.0)  # no finger holds it: it goes by itself
    assert peeks() == []
    monkeypatch.setattr(table_presenter, "PEEK_SECONDS", 30)
    ui.release(ui.hold(name))
    ui.type_on_pad("1234")
    ui.tap(peeks()[0])  # or at a tap
    assert peeks() == []
    assert ui.repeating_events() == []  # the timer went with the peek


def test_a_player_without_a_pin_peeks_by_holding_alone(store: Store) -> None:
    s = saved_session(store)
    app = start(s, "table")
    touch = ui.hold(shown(app).ids.players.row(1).ids.name_button)
    assert not [d for d in ui.dialogs() if isinstance(d, PinPad)]
    assert len(peeks()) == 1
    ui.release(touch)
    assert peeks() == []


def test_a_pin_protects_its_own_removal_and_rename_and_colour_work(store: Store) -> None:
    ann = store.add_profile("Ann", "blue", pin="2468")
    app = start(Session(load_catalog(), store=store), "profiles")
    rows = shown(app).ids.profiles
    ui.tap(rows.row("Ann").ids.drop)
    ui.type_on_pad("1111")
    assert "nothing was changed" in message()
    assert [p.name for p in store.profiles()] == ["Ann"]
    ui.tap(rows.row("Ann").ids.pin)
    choose("Remove the PIN")
    ui.type_on_pad("2468")
    assert not store.profile(ann.id).has_pin
    ui.tap(rows.row("Ann").ids.colour)
    assert store.profile(ann.id).colour == "orange"
    ui.tap(rows.row("Ann").ids.name)
    pad = only_dialog(NamePad)
    assert pad.value == "Ann"
    ui.type_on_pad("e")
    assert store.profile(ann.id).name == "Anne"
    ui.tap(rows.row("Anne").ids.drop)
    ui.tap(ui.dialogs()[-1].ids.yes)
    assert store.profiles() == []
    assert shown(app).ids.empty.opacity == 1


# -- the quick count ---------------------------------------------------------------------------

def test_the_quick_count_scores_the_counts_through_the_rules_line_by_line(
    store: Store,
) -> None:
    s = saved_session(store, races=("Dwarves",), powers=("Hill",))
    s.pick(0)
    s.finish_conquests()
    s.finish_redeployment()
    app = start(s, "scoring")
    tap_id(app, "quick")
    counts = shown(app).ids.counts
    for key, taps in (("active.farmland", 2), ("active.hill", 1), ("active.mines", 1)):
        ui.scroll_to(counts.stepper(key))  # the mines lie under a heading, below the fold
        for _ in range(taps):
            ui.tap(counts.stepper(key).ids.plus)
    lines = [(row.label, row.value) for row in reversed(shown(app).ids.quick_lines.children)]
    assert lines == [("Regions held by Dwarves", "+3"),
                     ("Dwarves: one per mine region", "+1"),
                     ("Hill: one per hill region", "+1")]
    assert shown(app).ids.score_quick.text == "Score 5 coins"
    for _ in range(3):
        ui.tap(counts.stepper("active.mines").ids.plus)  # 4 mines in 3 regions
    assert shown(app).ids.score_quick.text == "Fix the counts first"
    assert "more than 3" in shown(app).ids.quick_hint.text
    ui.tap(shown(app).ids.score_quick)
    assert message()
    assert s.state.track.phase is Phase.SCORE  # nothing scored
    for _ in range(3):
        ui.tap(counts.stepper("active.mines").ids.minus)
    ui.tap(shown(app).ids.score_quick)
    assert app.ctx.nav.current == "table"
    scored = [e for e in s.history.last_step if isinstance(e, TurnScored)]
    assert scored[0].coins == 5
    assert [label for label, _ in scored[0].lines] == [label for label, _ in lines]


# -- past games, stats, export -----------------------------------------------------------------

def finish_a_game(store: Store) -> Session:
    store.add_profile("Ann", "blue")
    store.add_profile("Bob", "orange")
    s = saved_session(store, 2)
    while not s.state.is_over:
        play_turn(s, row=0, coins=3 + s.state.track.seat)
    return s


def test_the_game_end_saves_the_game_and_history_and_stats_show_it(
    store: Store, tmp_path: Path,
) -> None:
    s = finish_a_game(store)
    app = start(s, "game_end")
    for _ in range(2):
        tap_id(app, "reveal")
    assert [g.id for g in store.games(finished=True)] == [s.game_id]
    tap_id(app, "export")  # straight from the game end
    choose("JSON (everything)")
    folder = tmp_path / "data" / "smallworld-companion" / "exports"
    assert str(folder) in message()
    assert [p.name for p in folder.iterdir()] == [f"small-world-game-{s.game_id}.json"]

    app.ctx.nav.go("game_end")
    tap_id(app, "home")
    tap_id(app, "history")
    assert app.ctx.nav.current == "history"
    (game,) = shown(app).ids.games.children
    assert "Seats: Ann, Bob" in game.text and "Bob won with" in game.text
    ui.tap(game)
    assert app.ctx.nav.current == "history_game"
    detail = shown(app)
    assert [row.name for row in reversed(detail.ids.standings.children)] == ["Bob", "Ann"]
    assert detail.ids.chart.turns == 10 and len(detail.ids.chart.series) == 2
    tap_id(app, "export")
    choose("All three files")
    assert str(folder) in message()
    files = sorted(p.name for p in folder.iterdir())
    assert files == [f"small-world-game-{s.game_id}.{end}" for end in
                     ("bgstats.json", "csv", "json")]
    assert json.loads((folder / files[0]).read_text())["players"]

    tap_id(app, "back")
    tap_id(app, "stats")
    cards = shown(app).ids
    texts = ui.texts(shown(app))
    assert "Bob" in texts and "Ann" in texts
    assert any(t.startswith("1 game, 1 win") for t in texts)
    ui.tap(cards.combos)
    assert cards.combo_rows.children  # one row per combo picked
    assert ui.repeating_events() == []


def test_a_new_table_has_no_history_and_says_so(store: Store) -> None:
    app = start(Session(load_catalog(), store=store), "history")
    assert shown(app).ids.games.children == []
    assert "No finished game yet" in shown(app).ids.empty.text


def test_another_tables_session_opens_the_stats_on_the_players(store: Store) -> None:
    """The tab a table chose stays while it plays; another table's session starts afresh."""
    app = start(Session(load_catalog(), store=store), "stats")
    ui.tap(shown(app).ids.combos)
    assert app.presenters["stats"].mode == "combos"
    app.ctx.nav.go("home")
    ui.pump()
    app.ctx.nav.go("stats")
    ui.pump()
    assert app.presenters["stats"].mode == "combos"  # the same table: as it was left
    start(Session(load_catalog(), store=store), "stats")
    assert app.presenters["stats"].mode == "players"


# -- settings ----------------------------------------------------------------------------------

def test_settings_write_the_config_file_and_say_it_takes_effect_next_start(
    store: Store, tmp_path: Path,
) -> None:
    app = start(Session(load_catalog(), store=store))
    config = tmp_path / "config" / "companion.toml"
    config.parent.mkdir()
    config.write_text("# ours\n[die]\nled_pin = 27\n")
    app.presenters["settings"].config_path = config
    tap_id(app, "settings")
    ids = shown(app).ids
    # The button shows only when the app has a calibration screen to go to.
    assert ids.calibrate.opacity == (1 if "calibration" in app.ctx.presenters else 0)
    ui.scroll_to(ids.rotation)  # the settings are longer than an 800x480 screen
    ui.tap(ids.rotation)
    choose("90 degrees")
    assert ids.rotation.text == "Screen rotation: 90 degrees (from the next start)"
    ui.scroll_to(ids.die)
    ui.tap(ids.die)
    assert not [b for b in ui.walk_shown(ui.dialogs()[-1])
                if getattr(b, "text", "").startswith("GPIO 27 ")]  # the LED's pin
    choose("GPIO 4 (header pin 7)")
    ui.scroll_to(ids.port)
    ui.tap(ids.port)
    choose("No sensor grid (tap the map)")
    assert config.read_text() == ("# ours\n[die]\nled_pin = 27\nbutton_pin = 4\n\n"
                                  "[display]\nrotation = 90\n\n[grid]\nport = \"\"\n")
    assert "the next time the app starts" in ids.config_text.text

    before = len(store.backups())
    ids.scroll.scroll_to(ids.data_section, padding=10, animate=False)  # below the fold
    ui.pump()
    ui.tap(ids.backup)
    assert "Saved as" in message()
    assert len(store.backups()) == before + 1
    ui.tap(ids.export)
    assert "nothing to export" in message()
