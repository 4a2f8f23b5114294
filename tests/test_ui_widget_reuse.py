"""Nothing is built on a tap once it has been shown: lists update their widgets in place and
dialogs are refilled, in a real headless window.

`ActionColumn`, `CountList` and `LineList` keep their children in a pool: after any number
of updates the same widget objects are there and none is built unless more are shown at
once than ever before; a reused button or stepper calls the action it shows now, never
the one it showed before. The app builds one dialog of each kind and refills it: a question
answered twice in a row is the same dialog, each "yes" calling its own callback, and a
second question while one is open stacks on top as before. Over a whole game, no stepper,
button, breakdown row or dialog is built once the first round has shown them.

Constructions are counted by wrapping `Widget.__init__` (every Kivy widget runs it).
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
from screen_steps import (
    pick_top_combo,
    play_quiet_turn,
    screen,
    table_app,
    tap_action,
    tap_region,
)

from companion.rules.events import Seat
from companion.rules.turns import Phase
from companion.session import Session
from companion.ui.presenters.base import Choice, Question
from companion.ui.presenters.keypads import NameRequest, PinRequest
from companion.ui.widgets import (
    ActionColumn,
    BigButton,
    ChoiceDialog,
    ConfirmDialog,
    CountList,
    LineList,
    LineRow,
    NamePad,
    PinPad,
    Stepper,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@contextmanager
def constructions(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts the widgets built inside the block, by class name."""
    from kivy.uix.widget import Widget

    built: Counter[str] = Counter()
    original = Widget.__init__

    def counted(self: Any, **kwargs: Any) -> None:
        built[type(self).__name__] += 1
        original(self, **kwargs)

    monkeypatch.setattr(Widget, "__init__", counted)
    try:
        yield built
    finally:
        monkeypatch.setattr(Widget, "__init__", original)


@pytest.fixture(scope="module")
def app() -> Any:
    app = ui.app_for(Session(rng=random.Random(5)))
    ui.resize((800, 480))
    while app.screens.build_next():  # as after start-up: no screen is built mid-test
        pass
    ui.pump()
    return app


class Target:
    """What an `ActionColumn` or a `CountList` calls: it records the calls."""

    def __init__(self) -> None:
        self.acted: list[str] = []
        self.counts: list[tuple[str, int]] = []

    def act(self, key: str) -> None:
        self.acted.append(key)

    def set_count(self, key: str, value: int) -> None:
        self.counts.append((key, value))


def actions(*keys: str, kind: str = "secondary") -> list[dict[str, Any]]:
    return [{"key": key, "text": f"Do {key}", "kind": kind} for key in keys]


def shown(box: Any) -> list[Any]:
    """The box's children in layout order."""
    return list(reversed(box.children))


# -- ActionColumn --------------------------------------------------------------------------
def test_an_action_column_keeps_its_buttons_over_many_updates(
        app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    column = ActionColumn(target=Target(), actions=actions("a", "b", "c"))
    first = shown(column)
    assert [b.action_key for b in first] == ["a", "b", "c"]
    with constructions(monkeypatch) as built:
        for n in range(50):
            column.actions = actions(*[f"k{n}-{i}" for i in range(1 + n % 3)])
        column.actions = actions("x", "y", "z", kind="primary")
    assert built == Counter()
    assert shown(column) == first  # the same objects, in the same places
    assert [(b.action_key, b.text, b.kind) for b in first] == [
        ("x", "Do x", "primary"), ("y", "Do y", "primary"), ("z", "Do z", "primary")]


def test_a_reused_button_calls_its_new_action(app: Any) -> None:
    target = Target()
    column = ActionColumn(target=target, actions=actions("old", "gone"))
    old, gone = shown(column)
    column.actions = [{"key": "new", "text": "New", "markup": True, "halign": "left",
                       "kind": "tint", "tint": (1, 0, 0, 1)}]
    assert shown(column) == [old] and gone.parent is None  # the extra one is put away
    assert column.button("gone") is None and column.button("new") is old
    assert (old.markup, old.halign, old.kind, tuple(old.tint)) == (True, "left", "tint",
                                                                   (1, 0, 0, 1))
    old.dispatch("on_release")
    assert target.acted == ["new"]
    column.actions = actions("again", "back")
    assert shown(column) == [old, gone]  # the one put away comes back, not a new one
    assert (old.markup, old.halign, old.kind, old.tint) == (False, "center", "secondary", None)
    gone.dispatch("on_release")
    assert target.acted == ["new", "back"]


def test_a_button_tapped_on_screen_that_changes_its_column_calls_once(app: Any) -> None:
    """The tap that makes the presenter give new actions: the button reused in place
    does not fire the new action too."""
    column = ActionColumn(cols=1, size_hint=(None, None), width=300, pos=(10, 10))

    class Shifting(Target):
        def act(self, key: str) -> None:
            super().act(key)
            column.actions = actions(f"after-{key}")

    column.target = Shifting()
    column.actions = actions("first")
    ui.window().add_widget(column)
    try:
        ui.pump()
        ui.tap(column.button("first"))
        assert column.target.acted == ["first"]
        ui.tap(column.button("after-first"))
        assert column.target.acted == ["first", "after-first"]
    finally:
        ui.window().remove_widget(column)


# -- CountList ------------------------------------------------------------------------------
def count_rows(*keys: str, value: int = 0) -> list[dict[str, Any]]:
    """Steppers for `keys`; a key "" is a heading."""
    return [{"key": key, "label": key or "Heading", "value": value, "maximum": 9}
            for key in keys]


def test_a_count_list_keeps_its_steppers_and_steps_the_key_it_shows_now(
        app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    target = Target()
    counts = CountList(presenter=target, orientation="vertical")
    counts.rows = count_rows("", "a", "b")
    heading, a, b = shown(counts)
    with constructions(monkeypatch) as built:
        for n in range(50):
            counts.rows = count_rows(*(["x", "", "y"] if n % 2 else ["", "a", "b"]), value=n % 9)
        counts.rows = count_rows("", "p", "q", value=3)
    assert built == Counter()
    assert shown(counts) == [heading, a, b]
    assert counts.stepper("a") is None and counts.stepper("p") is a
    assert (a.key, a.label, int(a.value), heading.text) == ("p", "p", 3, "Heading")
    a.ids.plus.dispatch("on_release")  # the + of the stepper that counted "a"
    b.ids.minus.dispatch("on_release")
    assert target.counts == [("p", 4), ("q", 2)]
    counts.rows = count_rows("q")
    assert shown(counts) == [a] and b.parent is None and heading.parent is None


def test_an_empty_list_takes_no_room_from_the_start(app: Any) -> None:
    """A list that starts empty is 0 high, not Kivy's 100 (its `minimum_height` stays 0,
    so no change told it): on the map, an empty column and an empty cost breakdown held
    200 pixels of nothing before the first region was chosen, and showed a scroll bar."""
    from companion.ui.screens.map import DifferenceList

    for empty in (ActionColumn(), LineList(), DifferenceList()):
        assert empty.height == 0, type(empty).__name__
    column = ActionColumn(actions=actions("a"))
    ui.pump(1)
    assert column.height > 0
    column.actions = []
    ui.pump(1)
    assert column.height == 0


# -- LineList -------------------------------------------------------------------------------
def test_a_line_list_keeps_its_rows(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = LineList(lines=[{"label": f"line {i}", "value": str(i)} for i in range(4)])
    rows = shown(lines)
    assert len(rows) == 4 and all(isinstance(r, LineRow) for r in rows)
    with constructions(monkeypatch) as built:
        for n in range(50):
            lines.lines = [{"label": f"{n}:{i}", "value": str(n)} for i in range(n % 5)]
        lines.lines = [{"label": "last", "value": "+1"}]
    assert built == Counter()
    assert shown(lines) == rows[:1] and (rows[0].label, rows[0].value) == ("last", "+1")


def _difference(n: int) -> dict[str, Any]:
    return {"text": f"Region {n}: tokens sensed", "accept": f"accept:{n}",
            "accept_text": f"Conquest of {n}", "dismiss": f"dismiss:{n}"}


def test_a_difference_list_keeps_its_rows_and_each_button_acts_for_its_row_now(
        app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.ui.screens.map import DifferenceList, DifferenceRow

    target = Target()
    rows = DifferenceList(rows=[_difference(n) for n in range(3)], target=target)
    first = shown(rows)
    assert len(first) == 3 and all(isinstance(r, DifferenceRow) for r in first)
    with constructions(monkeypatch) as built:
        for n in range(30):
            rows.rows = [_difference(10 * n + i) for i in range(n % 4)]
        rows.rows = [_difference(7), {**_difference(8), "kind": "warning"}]
    assert built == Counter()
    assert shown(rows) == first[:2]
    assert [(r.text, r.accept_kind) for r in first[:2]] == [
        ("Region 7: tokens sensed", "primary"), ("Region 8: tokens sensed", "warning")]
    first[1].act(first[1].accept)
    first[0].act(first[0].dismiss)
    assert target.acted == ["accept:8", "dismiss:7"]


# -- dialogs --------------------------------------------------------------------------------
def test_a_question_answered_twice_is_the_same_dialog_each_yes_its_own(
        app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    answers: list[str] = []
    notices = app.ctx.notices
    notices.ask(Question("First?", "Yes", lambda: answers.append("first")))
    ui.pump()
    (dialog,) = ui.dialogs()
    assert app.dialogs == [dialog] and isinstance(dialog, ConfirmDialog)
    ui.tap(dialog.ids.yes)
    assert answers == ["first"] and ui.dialogs() == [] and app.dialogs == []
    with constructions(monkeypatch) as built:
        notices.ask(Question("Second?", "Sure", lambda: answers.append("second"),
                             kind="danger", no="Keep"))
        ui.pump()
        (again,) = ui.dialogs()
        assert again is dialog and app.dialogs == [dialog]
        assert (again.text, again.yes_text, again.no_text, again.yes_kind) == (
            "Second?", "Sure", "Keep", "danger")
        ui.tap(again.ids.no)  # no: nothing called, and the callback is let go of
        notices.ask(Question("Third?", "Yes", lambda: answers.append("third")))
        ui.pump()
        ui.tap(ui.dialogs()[0].ids.yes)
    assert answers == ["first", "third"]
    assert built == Counter()


def test_a_question_asked_by_a_yes_reopens_the_same_dialog(app: Any) -> None:
    answers: list[str] = []
    notices = app.ctx.notices

    def then_ask() -> None:
        answers.append("first")
        notices.ask(Question("And then?", "Yes", lambda: answers.append("then")))

    notices.ask(Question("First?", "Yes", then_ask))
    ui.pump()
    (dialog,) = ui.dialogs()
    ui.tap(dialog.ids.yes)
    assert ui.dialogs() == [dialog] and app.dialogs == [dialog]
    assert dialog.text == "And then?" and answers == ["first"]
    ui.tap(dialog.ids.yes)
    assert answers == ["first", "then"] and ui.dialogs() == []


def test_a_second_question_while_one_is_open_stacks_on_top(app: Any) -> None:
    answers: list[str] = []
    notices = app.ctx.notices
    notices.ask(Question("Under?", "Yes", lambda: answers.append("under")))
    ui.pump()
    notices.ask(Question("Over?", "Yes", lambda: answers.append("over")))
    ui.pump()
    over, under = ui.dialogs()  # the window's children: the newest first, on top
    assert under is not over and app.dialogs == [under, over]
    assert (under.text, over.text) == ("Under?", "Over?")
    ui.tap(over.ids.yes)
    assert answers == ["over"] and ui.dialogs() == [under]
    ui.tap(under.ids.yes)
    assert answers == ["over", "under"] and app.dialogs == []
    notices.ask(Question("Again?", "Yes", lambda: answers.append("again")))
    ui.pump()
    assert ui.dialogs()[0] in (under, over)  # both are kept: neither is built again
    ui.tap(ui.dialogs()[0].ids.yes)
    assert answers[-1] == "again"


def test_a_choice_dialog_is_refilled_with_its_buttons(
        app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    chosen: list[str] = []
    notices = app.ctx.notices
    notices.choose(Choice("Pick", [("a", "A"), ("b", "B")], lambda k: chosen.append(f"1{k}")))
    ui.pump()
    (dialog,) = ui.dialogs()
    assert isinstance(dialog, ChoiceDialog)
    buttons = shown(dialog.ids.choices_box)
    ui.tap(ui.button(dialog, "b"))
    with constructions(monkeypatch) as built:
        notices.choose(Choice("Pick again", [("c", "C"), ("d", "D")],
                              lambda k: chosen.append(f"2{k}")))
        ui.pump()
        assert ui.dialogs() == [dialog] and dialog.title == "Pick again"
        assert shown(dialog.ids.choices_box) == buttons
        ui.tap(ui.button(dialog, "c"))
    assert chosen == ["1b", "2c"] and built == Counter()


def test_the_pads_are_reused_and_start_afresh(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    names: list[str] = []
    pins: list[str] = []
    notices = app.ctx.notices
    notices.ask_name(NameRequest("Name", names.append, initial="Ann"))
    ui.pump()
    (pad,) = ui.dialogs()
    assert isinstance(pad, NamePad) and pad.value == "Ann"
    ui.tap(ui.button(pad, "shift"))
    ui.tap(ui.button(pad, "cancel"))
    notices.ask_pin(PinRequest("PIN", pins.append))
    ui.pump()
    (pin_pad,) = ui.dialogs()
    ui.type_on_pad("1234")
    assert pins == ["1234"] and ui.dialogs() == []
    with constructions(monkeypatch) as built:
        notices.ask_name(NameRequest("Another name", names.append))
        ui.pump()
        assert ui.dialogs() == [pad]
        assert (pad.value, pad.upper, pad.title) == ("", True, "Another name")
        ui.type_on_pad("Bo")
        notices.ask_pin(PinRequest("PIN again", pins.append))
        ui.pump()
        assert ui.dialogs() == [pin_pad] and pin_pad.value == ""
        ui.type_on_pad("0042")
    assert names == ["Bo"] and pins == ["1234", "0042"]
    assert built == Counter()
    assert isinstance(pin_pad, PinPad)


# -- a whole game ---------------------------------------------------------------------------
POOLED = ("Stepper", "BigButton", "LineRow", "ConfirmDialog", "MessageDialog",
          "ChoiceDialog", "MarketRow", "PlayerRow")


def play_turn_looking_at_the_map(app: Any) -> int:
    """A quiet turn (the top combo, no conquest, scored, ended), the map looked at first:
    three bright regions tapped, each showing its cost lines and its buttons. Returns how
    many breakdown rows the map showed."""
    if app.session.state.track.phase is Phase.PICK_COMBO:
        pick_top_combo(app)
    assert app.session.state.track.phase is Phase.CONQUER
    tap_action(app, "map")
    lines = 0
    for region in sorted(app.presenters["map"].highlight)[:3]:
        tap_region(app, region)
        lines += len(screen(app).ids.cost_lines.children)
    ui.tap(ui.button(screen(app).ids.bottom_actions, "back"))
    play_quiet_turn(app)
    return lines


def test_after_the_first_round_a_game_builds_no_stepper_button_row_or_dialog(
        monkeypatch: pytest.MonkeyPatch) -> None:
    app = table_app(11)
    app.session.new_game([Seat(name, colour) for name, colour in (
        ("Ann", "blue"), ("Bob", "orange"), ("Cy", "green"), ("Di", "yellow"))],
        first_seat=0)
    app.use_session(app.session)
    ui.pump(10)
    session = app.session
    scoring = app.screens["scoring"]
    for _ in range(4 * 2):  # two rounds: every screen shown, every pool filled
        play_turn_looking_at_the_map(app)
    steppers = list(scoring.ids.counts.children)
    with constructions(monkeypatch) as built:
        lines = sum(play_turn_looking_at_the_map(app)  # three rounds: the market, the
                    for _ in range(4 * 3))              # map, the scoring, the table
    assert lines > 12  # the map's cost breakdowns were shown
    assert session.state.track.turn == 6 and screen(app).name == "table"
    assert {name: n for name, n in built.items() if name in POOLED} == {}
    assert list(scoring.ids.counts.children) == steppers
    assert isinstance(steppers[0], Stepper) and isinstance(
        screen(app).ids.actions.children[0], BigButton)


def test_a_reused_pin_pad_draws_its_dots_in_the_middle_after_a_new_layout(app: Any) -> None:
    """Reopened in a window of another shape (its words above the keys, not beside them),
    the pad draws its dots in the middle of where they now are."""
    from kivy.graphics import Ellipse, Line

    def dots_middle(pad: Any) -> tuple[float, float]:
        shapes = [(i.pos[0], i.size[0]) for i in pad.ids.dots.canvas.children
                  if isinstance(i, Ellipse)]
        shapes += [(i.ellipse[0], i.ellipse[2]) for i in pad.ids.dots.canvas.children
                   if isinstance(i, Line)]
        left = min(x for x, _ in shapes)
        right = max(x + w for x, w in shapes)
        return (left + right) / 2, pad.ids.dots.center_x

    try:
        pads = []
        for size in ((800, 480), (470, 480)):
            ui.resize(size)
            app.ctx.notices.ask_pin(PinRequest("PIN", lambda _pin: None,
                                               text="Only Ann types it."))
            (pad,) = ui.dialogs()
            pad.press("1")
            ui.pump(6)
            pads.append(pad)
            drawn, middle = dots_middle(pad)
            assert abs(drawn - middle) < 1, f"dots drawn at {drawn:.0f}, not {middle:.0f}"
            ui.tap(ui.button(pad, "cancel"))
        assert pads[0] is pads[1] and pads[1].ids.box.orientation == "vertical"
    finally:
        ui.resize((800, 480))


def test_the_maps_first_conquest_panel_builds_no_button_or_row() -> None:
    """The map's conquest buttons and cost rows are built with its screen (`reserve`), so
    the first region tapped that can be taken builds none of them inside the tap."""
    from companion.ui.app import presenter_class, screen_class

    app = table_app(13)
    app.session.new_game([Seat(name, colour) for name, colour in (
        ("Ann", "blue"), ("Bob", "orange"), ("Cy", "green"))], first_seat=0)
    app.use_session(app.session)
    ui.pump(10)
    pick_top_combo(app)
    # a screen and a presenter of their own, as the app builds them: the app's keep to
    # themselves (nothing of this test is left bound to what later tests use)
    presenter = presenter_class("map")(app.ctx)
    fresh = screen_class("map")(presenter, name="map-fresh")
    ids = fresh.ids

    def made() -> tuple[int, int, int]:
        return (len(ids.actions._pool.made["button"]),
                len(ids.more_actions._pool.made["button"]), len(ids.cost_lines._pool.made["row"]))

    assert made() == (2, 2, 3)  # before anything is shown
    presenter.update(app.session.state)
    presenter.tap(sorted(presenter.highlight)[0])
    ui.pump(3)
    assert ids.actions.children and ids.cost_lines.children  # a conquest and its cost shown
    assert made() == (2, 2, 3)  # (the app's screens may be building meanwhile: not counted)
