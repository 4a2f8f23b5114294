"""The players sit around the screen (``display.seating = "around"``), on the real window
at 800x480: the table, the die screen and a private peek turn to face whom they are for,
only turned (no screen built again), following undo, redo and resume; with the players on
one side nothing ever turns."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.tests.common import UnitTestTouch

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from factories import created, play_turn

from companion.rules.catalog import load_catalog
from companion.seating import Side, sides_key
from companion.session import Session
from companion.store import Store
from companion.ui.widgets import Scroller

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NEAR, FAR = Side.NEAR, Side.FAR


def rotation() -> int:
    return int(ui.window().rotation)


@pytest.fixture
def table(headless_app: Any, tmp_path: Path) -> Iterator[tuple[Any, Session, Path]]:
    """A saved two-player game begun with Ann near and Bob far, shown on the table."""
    app = headless_app
    path = tmp_path / "g.sqlite3"
    s = Session(load_catalog(), rng=random.Random(3), store=Store.open(path))
    app.use_session(s, screen="home")
    app.ctx.seats.use("around")
    app.ctx.seats.chosen = (NEAR, FAR)  # as the new-game screen hands them over
    s.begin(created(2))
    app.ctx.nav.go("table")
    ui.resize((800, 480))
    ui.pump()
    yield app, s, path
    ui.close_dialogs()
    app.presenters["table"].end_peek()
    app.ctx.seats.use("one side")
    app.ctx.nav.go("home")
    ui.pump()
    assert rotation() == 0
    if s.store is not None:
        s.store.close()


def test_the_table_turns_to_the_far_side_seat_and_back(table: Any) -> None:
    app, s, _ = table
    screen = app.screens["table"]
    assert s.state.track.seat == 0 and rotation() == 0
    widgets = [id(w) for w in screen.walk(restrict=True)]
    play_turn(s)
    ui.pump()
    assert s.state.track.seat == 1
    assert rotation() == 180
    assert app.screens["table"] is screen  # turned, not built again
    assert [id(w) for w in screen.walk(restrict=True)] == widgets  # the same widgets
    play_turn(s)
    ui.pump()
    assert (s.state.track.seat, rotation()) == (0, 0)


def test_the_sides_are_kept_with_the_saved_game_and_follow_a_resume(table: Any) -> None:
    app, s, path = table
    play_turn(s)
    assert s.store.setting(sides_key(s.game_id)) == ["near", "far"]
    s.pick(0)  # a step of Bob's turn, taken back and put back: Bob still faces the screen
    ui.pump()
    s.undo()
    ui.pump()
    assert rotation() == 180
    s.redo()
    ui.pump()
    assert rotation() == 180
    app.ctx.nav.go("home")
    app.ctx.seats.sides = []  # another game was played meanwhile...
    ui.pump()
    assert rotation() == 0
    s.store.close()
    resumed = Session(load_catalog(), rng=random.Random(3), store=Store.open(path))
    assert resumed.resume() is not None
    app.use_session(resumed)  # ... and the saved one is resumed: on the table, for Bob
    ui.pump()
    assert app.ctx.nav.current == "table"
    assert list(app.ctx.seats.sides) == [NEAR, FAR]
    assert rotation() == 180
    s.store = resumed.store  # closed by the fixture


def test_a_peek_faces_its_owner_while_it_shows_then_the_turn_again(table: Any) -> None:
    app, s, _ = table
    play_turn(s)  # Bob's turn: the table faces the far side
    ui.pump()
    assert rotation() == 180
    presenter = app.presenters["table"]
    presenter.peek(0)  # Ann (near) looks at her coins during Bob's turn
    ui.pump()
    assert presenter.peek_text and rotation() == 0
    presenter.end_peek()
    ui.pump()
    assert rotation() == 180
    presenter.peek(1)  # Bob's own peek faces him, as his turn does
    ui.pump()
    assert rotation() == 180
    presenter.end_peek()


def test_a_held_name_peeks_on_the_turned_table(table: Any) -> None:
    app, s, _ = table
    play_turn(s)
    ui.pump()
    ann = app.screens["table"].ids.players.row(0).ids.name_button
    x, y = ann.to_window(*ann.center)
    # The finger is on the panel: on the turned picture, Ann's name is across the glass.
    touch = UnitTestTouch(800 - x, 480 - y)
    touch.touch_down()
    ui.wait(0.6)
    assert app.presenters["table"].peek_text
    assert rotation() == 0  # turned under the finger, which still holds the name
    touch.touch_move(800 - x + 3, 480 - y + 2)  # a finger never lies quite still
    ui.pump()
    assert app.presenters["table"].peek_text
    ui.release(touch)
    ui.pump()
    assert app.presenters["table"].peek_text == "" and rotation() == 180


def test_the_die_screen_faces_the_turn_and_the_map_stays_upright(table: Any) -> None:
    app, s, _ = table
    play_turn(s)
    app.ctx.nav.go("die")
    ui.pump()
    assert rotation() == 180
    app.ctx.nav.go("map")
    ui.pump()
    assert rotation() == 0
    app.ctx.nav.go("table")
    ui.pump()
    assert rotation() == 180


def test_the_scissor_boxes_turn_with_the_picture(table: Any) -> None:
    app, s, _ = table
    boxed = [w for w in ui.walk_shown(app.screens["table"])
             if isinstance(w, Scroller) and w.clipped_by_scissor]
    assert boxed
    before = [(b._box.x, b._box.y, b._box.width, b._box.height) for b in boxed]
    play_turn(s)
    ui.pump()
    assert rotation() == 180
    for scroller, (x, y, w, h) in zip(boxed, before, strict=True):
        box = scroller._box
        assert (box.width, box.height) == (w, h)
        assert (box.x, box.y) == (800 - x - w, 480 - y - h)


def test_one_side_never_turns(table: Any) -> None:
    app, s, _ = table
    app.ctx.seats.use("one side")
    ui.pump()
    for _ in range(3):
        play_turn(s)
        ui.pump()
        assert rotation() == 0
    presenter = app.presenters["table"]
    presenter.peek(0)
    ui.pump()
    assert rotation() == 0
    presenter.end_peek()
    app.ctx.nav.go("die")
    ui.pump()
    assert rotation() == 0
    app.ctx.seats.use("around")  # the setting applies at once, on the screen on show
    ui.pump()
    assert rotation() == (180 if s.state.track.seat == 1 else 0)


def test_the_settings_screen_switches_the_seating_at_once(headless_app: Any,
                                                          tmp_path: Path) -> None:
    from companion.config import load_config

    app = headless_app
    config = tmp_path / "companion.toml"
    config.write_text("# ours\n[display]\nrotation = 0\n")
    settings = app.presenters["settings"]
    settings.config_path = config
    try:
        app.ctx.nav.go("settings")
        ui.pump()
        screen = app.screens["settings"]
        button = screen.ids.seating
        assert button.text == "All on one side of the screen"
        screen.ids.scroll.scroll_to(button, padding=10, animate=False)
        ui.pump()
        ui.tap(button)
        assert button.text == "Around the screen: it turns"
        assert app.ctx.seats.seating == "around"
        assert load_config(config)[0].display.seating == "around"
        assert config.read_text().startswith("# ours\n[display]\n")
        assert rotation() == 0  # the settings screen itself never turns
        ui.tap(button)
        assert app.ctx.seats.seating == "one side"
        assert load_config(config)[0].display.seating == "one side"
    finally:
        app.ctx.seats.use("one side")
        settings.config_path = None
        app.ctx.nav.go("home")
        ui.pump()


def test_the_new_game_screen_chooses_each_seats_side_and_the_game_keeps_them(
        headless_app: Any, tmp_path: Path) -> None:
    app = headless_app
    s = Session(load_catalog(), rng=random.Random(3), store=Store.open(tmp_path / "g.sqlite3"))
    app.use_session(s, screen="home")
    presenter = app.presenters["new_game"]
    presenter.reset(["Ann", "Bob", "Cy"])
    try:
        app.ctx.nav.go("new_game")
        ui.pump()
        seat_list = app.screens["new_game"].ids.seats
        assert not ui.is_shown(seat_list.row(0).ids.side)  # one side: no toggle, no room
        app.ctx.seats.use("around")
        ui.pump()
        toggles = [seat_list.row(i).ids.side for i in range(3)]
        assert all(ui.is_shown(t) for t in toggles)
        assert [t.text for t in toggles] == ["Near", "Far", "Near"]
        assert ui.layout_problems(app.screens["new_game"]) == []
        ui.tap(toggles[2])  # Cy sits across the table too
        assert [seat_list.row(i).ids.side.text for i in range(3)] == ["Near", "Far", "Far"]
        presenter.move(0, 1)  # Ann moves down a seat and keeps her side
        ui.pump()
        assert [seat_list.row(i).ids.side.text for i in range(3)] == ["Far", "Near", "Far"]
        presenter.first = 1  # Ann starts
        presenter.start()
        ui.pump()
        assert app.ctx.nav.current == "table"
        assert list(app.ctx.seats.sides) == [FAR, NEAR, FAR]
        assert s.store.setting(sides_key(s.game_id)) == ["far", "near", "far"]
        assert s.state.track.seat == 1 and rotation() == 0
        play_turn(s)  # Cy's turn: across the table
        ui.pump()
        assert rotation() == 180
    finally:
        ui.close_dialogs()
        app.ctx.seats.use("one side")
        app.ctx.nav.go("home")
        ui.pump()
        s.store.close()


def test_the_table_moves_a_player_to_the_other_side_during_the_game(table: Any) -> None:
    app, s, _ = table
    screen = app.screens["table"]
    button = screen.ids.sides
    assert ui.is_shown(button)
    assert ui.layout_problems(screen) == []
    ui.tap(button)
    dialog = ui.dialogs()[-1]
    ui.tap(ui.find(dialog, text="Ann: near side (tap: far)"))
    ui.pump()
    assert list(app.ctx.seats.sides) == [FAR, FAR]
    assert rotation() == 180  # it is Ann's turn, and she sits across now
    assert s.store.setting(sides_key(s.game_id)) == ["far", "far"]
    app.ctx.seats.use("one side")
    ui.pump()
    assert not ui.is_shown(button) and rotation() == 0


def test_the_far_side_screenshots_are_turned_and_pass_the_quality_bar(tmp_path: Path) -> None:
    import screenshots as screenshots_tool

    report = screenshots_tool.run(tmp_path, ["table_far_side", "peek_far_side", "peek"],
                                  sizes=["800x480"])
    far, peek, upright = (report[name]["800x480"]
                          for name in ("table_far_side", "peek_far_side", "peek"))
    assert (far["screen"], far["rotation"], far["problems"]) == ("table", 180, [])
    assert "Bob's turn" in far["texts"]
    assert (peek["rotation"], peek["problems"]) == (0, [])  # Cy's peek faces Cy
    assert upright["rotation"] == 0
    assert screenshots_tool.frame_faults(report) == []  # turned, the frame is still 800x480


def test_the_picture_turns_with_the_touches(table: Any) -> None:
    """Kivy turns the touches as soon as the rotation is set, but its picture only on a
    resize: the app turns the picture too, so what is drawn is where the finger lands."""
    from kivy.graphics.transformation import Matrix

    _, s, _ = table
    window = ui.window()
    upright = Matrix().translate(400, 240, 0).multiply(Matrix().rotate(0, 0, 0, 1)) \
        .multiply(Matrix().translate(-400, -240, 0)).get()
    assert list(window.render_context["modelview_mat"].get()) == pytest.approx(list(upright))
    play_turn(s)
    ui.pump()
    turned = window.render_context["modelview_mat"].get()
    # The bottom-left corner of the picture is drawn at the top-right of the glass.
    assert turned[0] == pytest.approx(-1) and turned[5] == pytest.approx(-1)
    assert turned[12] == pytest.approx(800) and turned[13] == pytest.approx(480)


def test_the_pin_pad_faces_the_one_who_types_it(headless_app: Any, tmp_path: Path) -> None:
    from companion.ui.widgets import PinPad

    app = headless_app
    store = Store.open(tmp_path / "g.sqlite3")
    store.add_profile("Ann", "blue", pin="1234")
    s = Session(load_catalog(), rng=random.Random(3), store=store)
    app.use_session(s, screen="home")
    app.ctx.seats.use("around")
    app.ctx.seats.chosen = (NEAR, FAR)
    s.begin(created(2))  # Ann's seat is linked to her profile, PIN and all
    try:
        play_turn(s)  # Bob's turn, across the table
        app.ctx.nav.go("table")
        ui.pump()
        assert rotation() == 180
        presenter = app.presenters["table"]
        presenter.peek(0)  # Ann holds her name: her PIN is asked, facing her
        ui.pump()
        assert [d for d in ui.dialogs() if isinstance(d, PinPad)]
        assert rotation() == 0
        ui.type_on_pad("1234")
        ui.pump()
        assert presenter.peek_text and rotation() == 0
        presenter.end_peek()
        ui.pump()
        assert rotation() == 180
        presenter.peek(0)
        ui.pump()
        assert rotation() == 0
        ui.close_dialogs()  # Cancel: back to Bob
        ui.pump()
        assert rotation() == 180 and presenter.peek_text == ""
    finally:
        ui.close_dialogs()
        app.presenters["table"].end_peek()
        app.ctx.seats.use("one side")
        app.ctx.nav.go("home")
        ui.pump()
        store.close()
