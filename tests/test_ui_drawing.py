"""What a frame draws, in a real headless window: each pixel as few times as the look needs,
and a tap on the map setting each line of its panel once.

A screen's background is the window's clear colour, not a rectangle drawn over the whole
screen on every frame; a dialog's box is filled once (ModalView's own background), not a
transparent image under a filled rectangle; the table's player rows fill their card once
and ring only the current player's; a `Scroller` clips its content with a scissor box at
its place in the window instead of drawing its rectangle into the stencil twice a frame,
and what lies outside that box is not drawn. On the map, the panel's properties are worked
out and then set once each: a tap fires each changed property once, and a second tap on
the same region fires none.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from screen_steps import screen, table_app, tap_action, tap_region

from companion.rules.events import Seat
from companion.session import Session
from companion.ui import palette
from companion.ui.widgets import ConfirmDialog, Screenful, Scroller

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _kinds(group: Any) -> list[str]:
    return [type(i).__name__ for i in group.children]


def _pixel(x: int, y: int) -> tuple[int, int, int]:
    """The colour the window shows at (x, y) (from the bottom left) after a fresh draw."""
    from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

    win = ui.window()
    win.dispatch("on_draw")
    data = glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE)
    return data[0], data[1], data[2]


def _close(a: tuple[int, int, int], rgba: tuple[float, ...]) -> bool:
    return all(abs(v - round(c * 255)) <= 2 for v, c in zip(a, rgba[:3], strict=True))


@pytest.fixture(scope="module")
def app() -> Any:
    return ui.app_for(Session(rng=random.Random(3)))


def test_a_screen_draws_on_the_clear_colour_not_a_rectangle(app: Any) -> None:
    ui.resize((800, 480))
    app.ctx.nav.go("home")
    ui.pump()
    roots = [w for w in ui.walk_shown(ui.window()) if isinstance(w, Screenful)]
    assert roots
    for root in roots:
        assert root.canvas.before.children == [] or _kinds(root.canvas.before) == []
    assert tuple(ui.window().clearcolor) == pytest.approx(palette.BACKGROUND)
    assert _close(_pixel(1, 1), palette.BACKGROUND)  # the padding: only the clear is there


def test_a_dialog_fills_its_box_once(app: Any) -> None:
    dialog = ConfirmDialog()
    dialog.fill(title="Row 1", text="Take it?", yes_text="Take")
    dialog.open()
    ui.pump()
    try:
        fills = [i for i in dialog.canvas.children
                 if type(i).__name__ in ("Rectangle", "BorderImage")]
        assert len(fills) == 2  # the overlay over the window and the box: nothing else
        assert tuple(dialog.background_color) == pytest.approx(palette.PANEL)
        x, y = dialog.x + 3, dialog.y + 3  # inside the box, off its words
        assert _close(_pixel(int(x), int(y)), palette.PANEL)
    finally:
        dialog.dismiss()
        ui.pump()


def test_only_the_current_players_row_draws_a_ring() -> None:
    app = table_app(21)
    app.session.new_game([Seat("Ann", "blue"), Seat("Bob", "orange"), Seat("Cy", "green")],
                         first_seat=1)
    app.ctx.nav.go("table")
    ui.pump()
    rows = screen(app).ids.players
    for seat in range(3):
        row = rows.row(seat)
        strips = [i for i in row.canvas.before.children if type(i).__name__ == "Rectangle"]
        fill, ring = strips[0], strips[1:]
        assert tuple(fill.size) == pytest.approx(tuple(row.size))  # one fill, the whole row
        drawn = [tuple(s.size) for s in ring if s.size[0] * s.size[1] > 0]
        assert (len(drawn) == 4) == (seat == 1)
    current = rows.row(1)
    edge = current.to_window(current.x + 1, current.center_y)
    inside = current.to_window(current.right - 6, current.y + 4)
    assert _close(_pixel(int(edge[0]), int(edge[1])), palette.ACCENT)
    assert _close(_pixel(int(inside[0]), int(inside[1])), palette.PANEL)


def test_a_scroller_clips_with_a_scissor_box_at_its_place_in_the_window(app: Any) -> None:
    from kivy.graphics import Color, Rectangle
    from kivy.uix.relativelayout import RelativeLayout
    from kivy.uix.widget import Widget

    holder = RelativeLayout(size_hint=(None, None), size=(300, 200), pos=(100, 50))
    scroller = Scroller(size_hint=(None, None), size=(200, 100), pos=(40, 30),
                        do_scroll_x=False)
    content = Widget(size_hint=(1, None), height=400)
    with content.canvas:
        Color(1, 0, 0, 1)
        paint = Rectangle(pos=content.pos, size=content.size)
    content.bind(pos=lambda w, p: setattr(paint, "pos", p),
                 size=lambda w, s: setattr(paint, "size", s))
    scroller.add_widget(content)
    holder.add_widget(scroller)
    win = ui.window()
    win.add_widget(holder)
    try:
        ui.pump(4)
        assert scroller.clipped_by_scissor
        kinds = _kinds(scroller.canvas.before) + _kinds(scroller.canvas.after)
        assert "ScissorPush" in kinds and "ScissorPop" in kinds
        assert not any(k.startswith("Stencil") for k in kinds)
        box = scroller.canvas.before.children[-1]
        assert (box.x, box.y, box.width, box.height) == (140, 80, 200, 100)
        assert _close(_pixel(150, 90), (1, 0, 0, 1))  # inside: the content
        assert not _close(_pixel(150, 190), (1, 0, 0, 1))  # above it: clipped
        holder.pos = (150, 60)  # an ancestor that moves its children without moving them
        ui.pump(3)
        assert (box.x, box.y) == (190, 90)
        assert _close(_pixel(200, 100), (1, 0, 0, 1))
        assert not _close(_pixel(150, 90), (1, 0, 0, 1))
    finally:
        win.remove_widget(holder)
        ui.pump()


def test_a_scroller_stays_in_range_when_its_content_shrinks_to_fit_and_grows_again(
        app: Any) -> None:
    """A panel scrolled to its foot shrinks to fit (a region with fewer lines) and grows
    by a little (the next region): the scroll stays within 0..1 and the content's top at
    the scroller's top, so a button on it is where it is drawn. Kivy's scroll effect
    alone left `scroll_y` far out of range here (seen at -144)."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.widget import Widget

    scroller = Scroller(size_hint=(None, None), size=(200, 400), pos=(10, 10),
                        do_scroll_x=False, always_overscroll=False)
    box = BoxLayout(orientation="vertical", size_hint_y=None)
    box.bind(minimum_height=box.setter("height"))
    rows = [Widget(size_hint_y=None, height=100) for _ in range(10)]
    for row in rows:
        box.add_widget(row)
    scroller.add_widget(box)
    win = ui.window()
    win.add_widget(scroller)

    def top() -> float:  # the content's top, in the window
        return float(scroller.to_parent(0, box.top)[1])

    try:
        ui.pump(3)
        scroller.scroll_y = 0  # scrolled to the foot
        ui.pump(3)
        for row in rows[4:]:
            box.remove_widget(row)
        rows[3].height = 2  # 302 px in a 400 px scroller: it fits
        ui.pump(5)
        assert scroller.scroll_y == 1 and top() == scroller.top
        rows[3].height = 102  # 402 px: two to scroll
        ui.pump(5)
        assert 0 <= scroller.scroll_y <= 1
        assert abs(top() - scroller.top) <= 2
        rows[3].height = 450  # long again: scrolled anywhere within range
        ui.pump(5)
        assert 0 <= scroller.scroll_y <= 1 and top() >= scroller.top
    finally:
        win.remove_widget(scroller)
        ui.pump()


def test_no_frame_of_the_table_uses_the_stencil(app: Any) -> None:
    """Nothing on the table's main screens clips with the stencil (Kivy's screen manager
    did, over the whole window, at every frame): the lists clip with a scissor box."""
    from kivy.graphics.stencil_instructions import StencilPush

    def stencils(group: Any) -> int:
        return sum(isinstance(i, StencilPush) + stencils(i)
                   for i in getattr(group, "children", None) or [])

    s = app.session
    s.new_game([Seat("Ann", "blue"), Seat("Bob", "orange"), Seat("Cy", "green")],
               first_seat=0)
    for name in ("table", "market", "map", "die"):
        app.ctx.nav.go(name)
        ui.pump(3)
        assert stencils(ui.window().canvas) == 0, name


@contextmanager
def scrolling_content() -> Iterator[tuple[Scroller, Any]]:
    """A 200x400 scroller in the window holding a widget 100 high, Kivy's clock held;
    taken out of the window after."""
    from kivy.uix.widget import Widget

    scroller = Scroller(size_hint=(None, None), size=(200, 400), pos=(10, 10),
                        do_scroll_x=False)
    content = Widget(size_hint_y=None, height=100)
    scroller.add_widget(content)
    win = ui.window()
    win.add_widget(scroller)
    try:
        with ui.held_clock():
            yield scroller, content
    finally:
        win.remove_widget(scroller)
        ui.pump()


def test_a_scrollers_bars_change_colour_at_most_once_after_a_change_and_never_unseen(
        app: Any) -> None:
    """Content that changes size: where it fits (no bar shows), the bars' colour is not
    touched in the second after it (Kivy's half-second fade set it every frame: about 30
    frames of the whole window drawn again after each map region tapped); where it
    overflows, the bar turns inactive in one change, not a fade."""
    with scrolling_content() as (scroller, content):
        changes: list[list[float]] = []
        scroller.bind(_bar_color=lambda _s, value: changes.append(list(value)))
        ui.wait(1.5)
        for height in (150, 120, 200):  # fits
            changes.clear()
            content.height = height
            ui.wait(1.5)
            assert changes == [], height
        content.height = 900  # overflows: shown, then inactive at once
        changes.clear()
        ui.wait(1.5)
        assert changes == [list(scroller.bar_inactive_color)]


def test_a_scroller_keeps_one_binding_for_its_bars_colour_however_often_its_content_changes(
        app: Any) -> None:
    """Kivy's ScrollView binds the bars' colour again at every change of its content and
    unbinds it once when the bars turn inactive: a panel with no bar, or laid out twice
    before its bars turned, kept one binding more each time (some 160 a game, for the
    app's life). Here it holds one, to `bar_color` or to `bar_inactive_color`."""
    with scrolling_content() as (scroller, content):
        def bindings() -> int:
            return sum(1 for name in ("bar_color", "bar_inactive_color")
                       for observer in scroller.get_property_observers(name)
                       if observer == scroller._change_bar_color)

        for heights in ((150, 120, 200), (900, 950), (130,), (800, 120, 700)):
            for height in heights:  # twice or more in a frame, then the bars turn
                content.height = height
                ui.pump()
            ui.wait(1.5)
            assert bindings() == 1, heights


def test_every_list_on_the_tapped_screens_clips_with_a_scissor(app: Any) -> None:
    from kivy.uix.scrollview import ScrollView

    for name in ("table", "market", "map", "scoring", "new_game", "game_end", "necromancer"):
        scrollers = [w for w in app.screens[name].walk() if isinstance(w, ScrollView)]
        assert scrollers, name
        assert all(isinstance(s, Scroller) and s.clipped_by_scissor for s in scrollers), name


PANEL = ("region_title", "holder_text", "cost_lines", "cost_text", "note_text", "odds_text",
         "actions", "show_deploy", "show_final")


def test_a_map_tap_sets_each_line_of_the_panel_once() -> None:
    app = table_app(8)
    app.session.new_game([Seat("Ann", "blue"), Seat("Bob", "orange")], first_seat=0)
    app.session.pick(0)
    app.ctx.nav.go("map")
    ui.pump()
    presenter = app.presenters["map"]
    fired: Counter[str] = Counter()
    for name in PANEL:
        presenter.fbind(name, lambda *_a, name=name: fired.update([name]))
    targets = sorted(presenter.highlight)
    assert len(targets) >= 2
    tap_region(app, targets[1])
    fired.clear()
    tap_region(app, targets[0])
    assert presenter.cost_text  # a conquest's cost: the panel has its lines
    assert max(fired.values()) == 1, fired
    fired.clear()
    tap_region(app, targets[0])  # the same region again: nothing changed, nothing fires
    assert fired == Counter()
    tap_region(app, targets[1])
    assert max(fired.values(), default=1) == 1, fired
    assert presenter.region_title.startswith(f"Region {targets[1]}:")
    tap_action(app, "back")


def test_the_die_turns_and_changes_face_in_place(app: Any) -> None:
    from companion.ui.screens.die import DieFace

    die = DieFace(size_hint=(None, None), size=(200, 200), pos=(10, 10))
    ui.window().add_widget(die)
    try:
        ui.pump()
        made = list(die.canvas.children)
        shown: list[int] = []
        for face, angle in ((1, 0), (3, 90), (0, 400), (2, 720)):
            die.face, die.angle = face, angle
            ui.pump(1)
            assert list(die.canvas.children) == made  # the same objects, set in place
            drawn = [i for i in die._spots.children if type(i).__name__ == "Ellipse"]
            assert all(p in die._pips for p in drawn)  # the three made at first, reused
            shown.append(len(drawn))
            assert die._turn.angle == angle
        assert shown == [1, 3, 0, 2]  # as many pips in the canvas as the face shows
        die.size = (2, 2)  # too small to draw: nothing has a size
        ui.pump(1)
        assert tuple(die._body.size) == (0, 0)
    finally:
        ui.window().remove_widget(die)
