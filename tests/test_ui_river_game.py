"""A whole River World game played through the real screens with simulated touches.

One real (offscreen) window at 800x480. Three at the table, Ann first, on the group's own
River World board (`tests/data/river-test.json`, put in the boards folder of the data
directory and chosen on the new-game screen). The session's seed deals Ann the Orcs,
Bob the Humans, Cy the Sorcerers, and lays the events Quiet waters, Storm, Pirates... Every
step is a tap: the board chosen, each turn's event announced as it starts, a river taken
for 1 token and emptied at the redeployment, a harbor scored, the Caravel placed from the
Shipyard opening the inland Temple, the Temple's holder looking at the next event in
private, a Storm making a river cost 3, the Pirates sailing into the empty rivers and the
region next to a ship scoring a coin less, and the final reveal.

Set COMPANION_SHOTS to a folder to keep screenshots of the River World screens there.
"""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from positions import part
from river_support import RIVER_FILE, river_session
from screen_steps import (
    choose,
    dismiss_notice,
    pick_top_combo,
    play_quiet_turn,
    screen,
    seat_player,
    shot,
    spread_hands,
    table_app,
    tap_action,
    tap_id,
    tap_region,
)

from companion.boards import custom_boards_dir
from companion.rules.events import GameCreated, Seat
from companion.rules.river import RiverEvent, RiverState, pirate_ships
from companion.session import Session
from companion.ui.presenters import river as river_words

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ANN, BOB, CY = range(3)
SEED = 382  # Orcs, Humans, Sorcerers on top; Quiet waters, Storm, Pirates, Quiet waters...
FARMLAND_2, RIVER_3, HARBOR_4, HARBOR_7, RIVER_8, TEMPLE_9 = 2, 3, 4, 7, 8, 9
RIVER_13, RIVER_18, SHIPYARD_20 = 13, 18, 20


@pytest.fixture(scope="module")
def app() -> Any:
    return table_app(SEED)


@pytest.fixture(scope="module", autouse=True)
def river_board() -> Any:
    """The group's River World board in the boards folder of the (test) data directory."""
    folder = custom_boards_dir()
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / "river-test.json"
    shutil.copy(RIVER_FILE, copy)
    yield copy
    copy.unlink()


def conquer(app: Any, region: int) -> list[str]:
    """On the map: tap `region`, conquer it with what it costs; the cost lines' labels."""
    tap_region(app, region)
    map_p = app.presenters["map"]
    labels = [row["label"] for row in map_p.cost_lines]
    screen(app).ids.panel_scroll.scroll_y = 0  # the button is below the cost lines
    ui.pump()
    ui.tap(screen(app).ids.actions.button("conquer"))
    held = app.session.state.regions[region].occupant
    assert held is not None and held.seat == app.session.state.track.seat
    return labels


def score_lines(app: Any) -> dict[str, str]:
    """Open the scoring screen: its lines, label -> coins as shown."""
    tap_action(app, "scoring")
    return {row["label"]: row["coins"] for row in app.presenters["scoring"].lines}


def start_river_game(app: Any) -> None:
    """The new game: Ann, Bob and Cy, Ann first, on the River Test board."""
    tap_id(app, "new_game")
    form = app.presenters["new_game"]
    if form.option("teams"):
        form.act("teams")
    if form.option("necromancer"):
        form.act("necromancer")
    while len(form.seats) > 3:
        form.remove_player(len(form.seats) - 1)
    while len(form.seats) < 3:
        form.add_default_player()
    for index, name in enumerate(("Ann", "Bob", "Cy")):
        seat_player(app, index, name)
    assert [seat["name"] for seat in form.seats] == ["Ann", "Bob", "Cy"]
    if form.first != ANN:
        ui.tap(screen(app).ids.seats.row(ANN).ids.first)
    options = screen(app).ids.board_choice
    options.parent.parent.scroll_y = 1  # the board choice is at the top of its list
    ui.pump()
    ui.tap(ui.button(options, "board"))
    choose("custom:River Test")
    ui.pump()
    form_screen = screen(app)
    assert "River Test: a River World board for 3 players, 10 turns" in form_screen.ids.board.text
    assert ui.button(form_screen.ids.river_world, "river_world").text == (
        "River World events: on (a River World board)")
    assert ui.button(form_screen.ids.river_world, "river_advice").text == (
        "Flying: left out of the decks (River World advises it)")
    shot(app, "river_new_game")
    tap_id(app, "start")


def test_a_whole_river_world_game_through_the_screens(app: Any) -> None:
    session = app.session
    start_river_game(app)
    state = session.state
    assert state.map.name == "River Test" and state.part(RiverState) is not None
    created = session.history.log[0][0] if session.history else None
    assert isinstance(created, GameCreated) and created.board_doc is not None
    events = part(state, RiverState).events
    assert [e.value for e in events[:3]] == ["Quiet waters", "Storm", "Pirates"]
    assert created.left_out == ("Flying",) and "Flying" not in created.powers

    # -- turn 1 is announced as the game starts ---------------------------------------------
    assert app.ctx.nav.current == "table"
    assert "Quiet waters" in dismiss_notice()
    table = screen(app)
    assert table.ids.reminders.words.startswith("River World, turn 1: Quiet waters.")
    assert f"Pirate ships on rivers {RIVER_8} and {RIVER_18}" in table.ids.expansions.words
    assert "Next" not in table.ids.expansions.words  # the next event is nobody's business

    # -- Ann: a river for 1 token, two harbors; the river is left at the redeployment --------
    pick_top_combo(app)
    tap_action(app, "map")
    assert {RIVER_3, HARBOR_4} <= set(app.presenters["map"].highlight)
    assert "A river region" in conquer(app, RIVER_3)
    for region in (HARBOR_4, FARMLAND_2, HARBOR_7):
        assert "Any conquest" in conquer(app, region)
    shot(app, "river_map")
    ui.tap(ui.button(screen(app).ids.bottom_actions, "finish_conquests"))
    spread_hands(app)
    tap_action(app, "finish_redeployment")
    assert session.state.regions[RIVER_3].occupant is None  # Quiet waters: rivers empty
    assert session.state.regions[HARBOR_4].occupant is not None
    lines = score_lines(app)
    assert lines["Harbors: 2 held score 1 + 2 (1 each already counted as a region)"] == "+1"
    pirates = [label for label in lines if label.startswith("Pirate ships next to")]
    assert [lines[label] for label in pirates] == ["-1"]  # harbor 7 borders river 8's ship
    shot(app, "river_scoring")
    scoring = app.presenters["scoring"]
    scoring.act("quick")  # counting by hand starts from the map's Harbors and ships
    values = {row["key"]: row["value"] for row in scoring.quick_rows if row["key"]}
    assert (values["active.harbors"], values["active.next_to_pirates"]) == (2, 1)
    assert {row["label"]: row["coins"] for row in scoring.lines} == lines
    scoring.set_count("active.harbors", 3)
    assert "Harbors: 3 held score 1 + 2 + 3 (1 each already counted as a region)" in [
        row["label"] for row in scoring.lines]
    scoring.act("board")
    tap_id(app, "score")
    tap_action(app, "end_turn")

    # -- Bob: the Shipyard, then the Caravel on river 8 opens the inland Temple ---------------
    pick_top_combo(app)
    tap_action(app, "map")
    assert TEMPLE_9 not in app.presenters["map"].highlight  # inland: not an entry
    conquer(app, SHIPYARD_20)
    ui.tap(ui.button(screen(app).ids.bottom_actions, "back"))
    assert "The Shipyard is held by Bob." in table.ids.expansions.words
    tap_action(app, "caravel")
    choose(str(RIVER_8))
    assert session.state.part(RiverState).caravel == RIVER_8
    assert "caravel" not in [a["key"] for a in app.presenters["table"].actions]  # once a turn
    assert f"The Caravel is on river {RIVER_8}" in table.ids.expansions.words
    tap_action(app, "map")
    assert TEMPLE_9 in app.presenters["map"].highlight
    conquer(app, TEMPLE_9)
    assert screen(app).ids.region_title.text == (
        "Region 9: Farmland (Magic, Temple of the Seer)")
    tap_region(app, RIVER_8)
    assert "A pirate ship lies here" in screen(app).ids.holder.text
    assert "The Caravel lies here this turn." in screen(app).ids.holder.text
    ui.tap(ui.button(screen(app).ids.bottom_actions, "finish_conquests"))
    spread_hands(app)
    tap_action(app, "finish_redeployment")
    lines = score_lines(app)
    pirates = [label for label in lines if label.startswith("Pirate ships next to")]
    assert len(pirates) == 1 and lines[pirates[0]] == "-1"  # the Temple borders river 8
    tap_id(app, "score")
    tap_action(app, "end_turn")
    assert session.state.part(RiverState).caravel is None  # it leaves when the turn ends
    play_quiet_turn(app)  # Cy

    # -- turn 2: a Storm, announced; a river now costs 3 ------------------------------------
    assert session.state.track.turn == 2
    assert "Storm" in dismiss_notice()
    assert table.ids.reminders.words.startswith("River World, turn 2: Storm.")
    tap_action(app, "map")
    tap_region(app, RIVER_3)
    lines_now = {row["label"]: row["value"] for row in app.presenters["map"].cost_lines}
    assert lines_now["A river in a Storm"] == "+3"
    assert "A river costs" not in screen(app).ids.holder.text  # the cost line says it
    ui.tap(ui.button(screen(app).ids.bottom_actions, "back"))
    tap_action(app, "finish_conquests")
    tap_action(app, "map")
    tap_region(app, RIVER_3)  # no cost lines at redeployment: the region's note says it
    assert "A river costs 3 tokens this turn (Storm)." in screen(app).ids.holder.text
    ui.tap(ui.button(screen(app).ids.bottom_actions, "back"))
    play_quiet_turn(app)  # Ann

    # -- Bob holds the Temple: he alone sees that turn 3 brings the Pirates ------------------
    assert session.state.track.seat == BOB
    assert "The Temple of the Seer is held by Bob." in table.ids.expansions.words
    tap_action(app, "seer")
    peek = table.peek_view
    assert peek is not None and peek.text == RiverEvent.PIRATES.value
    assert "Only Bob looks" in peek.detail
    shot(app, "river_seer")
    ui.tap(peek)
    assert not app.presenters["table"].peek_text
    assert "Pirates" not in table.ids.expansions.words
    play_quiet_turn(app)  # Bob
    play_quiet_turn(app)  # Cy

    # -- turn 3: Pirates sail into every empty river -----------------------------------------
    assert "Pirates" in dismiss_notice()
    assert set(pirate_ships(session.state.regions)) == {RIVER_3, RIVER_8, RIVER_13, RIVER_18}
    assert f"Pirate ships on rivers {RIVER_3}, {RIVER_8}, {RIVER_13} and {RIVER_18}" in (
        table.ids.expansions.words)
    shot(app, "river_table")

    # -- everybody plays on to the end, each new turn announced -----------------------------
    while not session.state.is_over:
        turn = session.state.track.turn
        play_quiet_turn(app)
        if not session.state.is_over and session.state.track.turn != turn:
            assert session.state.part(RiverState).event(session.state.track.turn).value in (
                dismiss_notice())

    # -- the final reveal ---------------------------------------------------------------------
    assert app.ctx.nav.current == "game_end"
    end_p = app.presenters["game_end"]
    for _ in range(3):
        if not end_p.all_revealed:
            tap_id(app, "reveal")
    assert sorted(row["name"] for row in end_p.revealed) == ["Ann", "Bob", "Cy"]
    shot(app, "river_game_end")


def tap_panel_action(app: Any, key: str) -> None:
    """Tap the map panel's button `key` (the panel scrolled down to the buttons)."""
    screen(app).ids.panel_scroll.scroll_y = 0
    ui.pump()
    ids = screen(app).ids
    ui.tap(ids.actions.button(key) or ids.more_actions.button(key))


def test_a_tapped_river_takes_the_caravel_and_the_tables_pirate_ship_corrections(
    app: Any,
) -> None:
    s = river_session(RiverEvent.QUIET_WATERS)
    app.use_session(s, screen="table")
    ui.pump()
    assert "Quiet waters" in dismiss_notice()  # the first turn's event
    s.pick(0)  # Ann
    s.conquer(SHIPYARD_20)
    ui.pump()
    tap_action(app, "map")
    tap_region(app, RIVER_13)
    keys = [action["key"] for action in app.presenters["map"].actions]
    assert {"river_caravel", "river_ship_on"} <= set(keys) and "river_ship_off" not in keys
    tap_panel_action(app, "river_caravel")
    assert part(s.state, RiverState).caravel == RIVER_13
    tap_panel_action(app, "river_ship_on")
    assert RIVER_13 in pirate_ships(s.state.regions)
    assert "A pirate ship lies here" in screen(app).ids.holder.text
    tap_panel_action(app, "river_ship_off")
    assert RIVER_13 not in pirate_ships(s.state.regions)
    tap_region(app, HARBOR_4)  # not a river: no Caravel, no pirate ship
    assert not {"river_caravel", "river_ship_on", "river_ship_off"} & {
        action["key"] for action in app.presenters["map"].actions}


def test_the_map_panel_s_rules_offer_the_holder_s_combo_and_the_river_world_pieces(
    app: Any,
) -> None:
    s = river_session(RiverEvent.QUIET_WATERS)
    app.use_session(s, screen="table")
    ui.pump()
    dismiss_notice()
    s.pick(0)  # Ann
    s.conquer(SHIPYARD_20)
    ui.pump()
    active = s.state.current.active
    assert active is not None
    tap_action(app, "map")
    tap_region(app, SHIPYARD_20)
    ui.tap(screen(app).ids.look_up)
    choice = ui.dialogs()[-1]
    keys = [c["key"] for c in choice.choices]
    assert keys[:2] == [f"race:{active.race}", f"power:{active.power}"]
    assert "piece:Shipyard and Caravel" in keys
    ui.tap(ui.button(choice, "piece:Shipyard and Caravel"))
    assert app.ctx.nav.current == "rules"
    rules = screen(app)
    assert rules.ids.title.text == "Shipyard and Caravel"
    ui.tap(ui.button(rules, "back"))
    assert app.ctx.nav.current == "map"
    tap_region(app, TEMPLE_9)  # nobody holds it: the Temple alone, straight at its entry
    ui.tap(screen(app).ids.look_up)
    assert app.ctx.nav.current == "rules"
    assert screen(app).ids.title.text == "Temple of the Seer"
    ui.tap(ui.button(screen(app), "back"))
    assert app.ctx.nav.current == "map"


def test_river_world_on_a_packaged_board_counts_harbors_pirates_and_rivers_by_hand(
    app: Any,
) -> None:
    s = Session(rng=random.Random(3))
    s.new_game([Seat(name, colour) for name, colour in
                (("Ann", "blue"), ("Bob", "orange"), ("Cy", "green"))],
               first_seat=ANN, river_world=True)
    app.use_session(s, screen="table")
    ui.pump()
    dismiss_notice()
    s.pick(0)
    s.finish_conquests()
    s.finish_redeployment()
    ui.pump()
    tap_action(app, "scoring")
    scoring = app.presenters["scoring"]
    scoring.act("quick")
    rows = {row["key"]: row["label"] for row in scoring.quick_rows}
    assert rows["active.harbors"] == "With a Harbor"
    assert rows["active.next_to_pirates"] == "Next to a pirate ship"
    assert rows["active.river"].startswith("Rivers")
    scoring.set_count("active.farmland", 3)
    scoring.set_count("active.harbors", 2)
    ui.pump()
    counts = screen(app).ids.counts
    for key in ("active.river", "active.next_to_pirates"):  # a river kept in a Harsh Winter
        stepper = counts.stepper(key)
        screen(app).ids.quick_scroll.scroll_to(stepper, animate=False)
        ui.pump()
        ui.tap(stepper.ids.plus)
    values = {row["key"]: row["value"] for row in scoring.quick_rows if row["key"]}
    assert (values["active.river"], values["active.next_to_pirates"]) == (1, 1)
    lines = {row["label"]: row["coins"] for row in scoring.lines}
    assert lines["Harbors: 2 held score 1 + 2 (1 each already counted as a region)"] == "+1"
    assert [coins for label, coins in lines.items() if label.startswith("Pirate ships")] == [
        "-1"]


def test_the_table_names_one_pirate_ship_or_several_in_words() -> None:
    s = river_session(RiverEvent.QUIET_WATERS)
    assert "Pirate ships on rivers 8 and 18 (a region next to one scores 1 coin less)." in (
        river_words.RiverView().summary(s.state))
    s.set_pirate_ship(RIVER_18, False)
    assert "A pirate ship on river 8 (a region next to it scores 1 coin less)." in (
        river_words.RiverView().summary(s.state))
    s.set_pirate_ship(RIVER_8, False)
    assert "No pirate ship on the rivers." in river_words.RiverView().summary(s.state)
