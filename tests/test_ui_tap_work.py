"""A tap does the work its change needs and no more (issue #27), counted in the real headless
app: counts do not depend on the machine, as milliseconds do.

- a kv rule run again formats no trace line for Kivy's log (`companion.ui.quiet_rules`),
  and sets what Kivy's own function sets;
- a box that folds or unfolds (`Collapsible`) draws none of its labels again, and a folded
  box still lets no touch reach its buttons; folded, it lays nothing out when it moves,
  and unfolded its children are in it again; built folded, it unfolds in one layout pass;
- rows made ahead of play draw their words once when first shown, at their width;
- a tap on a region of the map draws no label whose text stayed as it was, and the map
  works out only its selection (what the other layers show did not change), and its lift
  is walked through no other widget of the screen; the panel
  keeps its height whether the region offers a conquest or not; the first
  region title reads the names' file once, not once per kind of name it shows;
- the table's body growing or shrinking (the die's reason shown under it, at an end of
  turn) runs none of the rules that place its columns (they read whether it is wide);
  the die's words wrapping onto two lines (a final conquest's) do not move it;
- a note of the table's that folds away and comes back with the same lines (the table
  settling after a tap) is not drawn again: it is unseen while folded, never disabled;
- a list that moves or changes size runs none of Kivy's rules for its scroll bars'
  handles: they are worked out only for a bar that shows;
- a button's ink is worked out once for its colour and its disabled colour;
- the table's notes are fitted to their room once the boxes above them have laid out (a
  'Take' lays the notes' column out at its old height first): each is drawn once;
- a title shown again in the same box (a player's turn come round) is not measured again;
- a market row tapped asks the rules once (may it be taken?), its question worded from
  the market's rows alone;
- a label that shows a text again with the same options (the turn's banner, hints and
  buttons coming round) draws nothing: it shows the texture drawn then, which no other
  text has been drawn into since;
- an end of turn lays the table's screen out once its bars under the body have their
  words (the undo's, the die's reason), not once per bar; beside the actions, the players'
  column keeps the body's height whatever its list's height does;
- the regions tapped in one state ask the rules once who attacks, from which Catapult,
  and what the die may do;
- a turn passing to a player whose row is in sight scrolls nothing;
- a screen switch, and a dialog opened and closed, walk no widget tree to hand down a
  disabled count of 0;
- a screen switch is over in the frame it is asked in (Kivy's took the next one, the
  screen left drawn under the one shown meanwhile).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest
import ui_support as ui
from kivy.lang import Builder
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from screen_steps import screen, tap_region

from companion.ui import quiet_rules
from companion.ui.map_widget import BoardMap
from companion.ui.widgets import BigButton, Collapsible, NoteCaption

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@contextmanager
def recorded(monkeypatch: pytest.MonkeyPatch, cls: type, name: str,
             note: Callable[[Any], Any]) -> Iterator[list[Any]]:
    """`note(instance)` for each call of `cls.name` inside the block, in order (Kivy calls
    these methods by name: the class's own is wrapped under its name, then given back)."""
    own = getattr(cls, name)
    seen: list[Any] = []

    @functools.wraps(own)
    def wrapper(self: Any, *args: Any) -> Any:
        seen.append(note(self))
        return own(self, *args)

    monkeypatch.setattr(cls, name, wrapper)
    try:
        yield seen
    finally:
        monkeypatch.setattr(cls, name, own)


def drawn_labels(
        monkeypatch: pytest.MonkeyPatch) -> AbstractContextManager[list[tuple[Label, str]]]:
    """Every label texture drawn inside the block: (label, its text then)."""
    return recorded(monkeypatch, Label, "texture_update", lambda label: (label, label.text))


def laid_out_boxes(monkeypatch: pytest.MonkeyPatch) -> AbstractContextManager[list[Any]]:
    """Every box laid out inside the block, in order."""
    from kivy.uix.boxlayout import BoxLayout

    return recorded(monkeypatch, BoxLayout, "do_layout", lambda box: box)


def test_a_rule_run_again_formats_no_trace_line_and_sets_what_kivys_sets(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import kivy.lang.builder as builder

    traced: list[object] = []
    monkeypatch.setattr(builder, "trace", lambda *args: traced.append(args))
    widget = Builder.load_string("Label:\n    text: str(self.width * 2)\n")
    traced.clear()  # (a widget built says which rules it found)
    rule_runs = []
    for width in (10, 21, 21, 30):
        widget.width = width
        rule_runs.append(widget.text)
    assert rule_runs == ["20", "42", "42", "60"]
    assert traced == []
    quiet_rules.uninstall()  # Kivy's own function, for a rule bound now: the same value
    try:
        own = Builder.load_string("Label:\n    text: str(self.width * 2)\n")
        traced.clear()
        own.width = 21
        assert own.text == "42"
        assert traced  # (Kivy's own formats its lines)
    finally:
        quiet_rules.install()


def test_a_box_that_folds_and_unfolds_draws_none_of_its_labels_again(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    box = Collapsible(size_hint=(None, None), width=300)
    caption = Label(text="Tokens in hand", size_hint_y=None, height=40)
    button = BigButton(text="+", size_hint_y=None, height=60)
    box.add_widget(caption)
    box.add_widget(button)
    ui.window().add_widget(box)
    try:
        ui.pump(2)
        with drawn_labels(monkeypatch) as drawn:
            for shown in (False, True, False, True):
                box.shown = shown
                ui.pump(2)
        assert drawn == []
        assert box.height > 0 and box.opacity == 1
        box.shown = False
        ui.pump(2)
        pressed: list[str] = []
        button.bind(on_press=lambda *_: pressed.append("+"))
        x, y = button.to_window(*button.center)
        touch = ui.UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        assert pressed == []  # folded: no touch reaches its button
    finally:
        ui.window().remove_widget(box)


def test_a_folded_box_lays_nothing_out_when_it_moves_and_is_whole_when_unfolded(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from kivy.uix.boxlayout import BoxLayout

    box = Collapsible(size_hint=(None, None), width=300, shown=False)
    row = BoxLayout(size_hint_y=None, height=60)
    row.add_widget(BigButton(text="-"))
    row.add_widget(BigButton(text="+"))
    box.add_widget(Label(text="Tokens in hand", size_hint_y=None, height=40))
    box.add_widget(row)
    ui.window().add_widget(box)
    try:
        ui.pump(2)
        with laid_out_boxes(monkeypatch) as laid_out:
            for y in (10, 50, 90):
                box.y = y
                ui.pump(2)
        assert laid_out == []
        box.shown = True
        ui.pump(2)
        assert box.height == 40 + 60 + box.spacing
        assert row.y == box.y and row.x == box.x and row.width == 300
        assert row.children[0].x > row.children[1].x + 100  # the buttons side by side
    finally:
        ui.window().remove_widget(box)


def test_a_box_built_folded_unfolds_in_one_layout_pass(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A box built folded wraps its texts at its own width before it first unfolds: the
    tap that unfolds it lays it out once (its texts were not wrapped at Kivy's default
    width first, then again at the box's, each time growing and shrinking it)."""
    from companion.ui.widgets import Caption

    box = Collapsible(size_hint=(None, None), width=330, shown=False)
    note = Caption(text="A race entering the board must take an edge region or a region "
                        "by the sea first.")
    box.add_widget(note)
    ui.window().add_widget(box)
    try:
        ui.pump(3)
        with laid_out_boxes(monkeypatch) as laid_out, drawn_labels(monkeypatch) as drawn:
            box.shown = True
            ui.pump(3)
        assert laid_out == [box]
        assert drawn == []  # its text was wrapped at 330 pixels while folded
        assert note.width == 330 and box.height == note.height > 0
    finally:
        ui.window().remove_widget(box)


def test_rows_made_ahead_of_play_draw_their_texts_once_when_first_shown(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cost list's rows are made with the screen and laid out only when first shown: each
    row's words are drawn once then, wrapped at the row's width (not first at Kivy's
    default width of 100 pixels, five lines tall, then again)."""
    from companion.ui.widgets import LineList

    lines = LineList(size_hint_x=None, width=330, reserve=3)
    ui.window().add_widget(lines)
    try:
        ui.pump(3)
        wanted = [{"label": f"Line {n}: words for one line", "value": "+1"}
                  for n in range(3)]
        with drawn_labels(monkeypatch) as drawn:
            lines.lines = wanted
            ui.pump(3)
        texts = [text for _label, text in drawn]
        assert sorted(texts) == sorted([line["label"] for line in wanted] + ["+1"] * 3)
        assert all(row.height < 60 for row in lines.children)  # one line each
    finally:
        ui.window().remove_widget(lines)


def test_a_map_tap_draws_only_the_labels_whose_text_changed(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the map while the first player conquers (the panel's steppers fold and unfold as
    the regions tapped change), each label drawn on a tap shows a text it did not show
    before that tap."""
    from bench.scripted import seats

    session = headless_app.session
    session.new_game(seats(5), first_seat=0)
    session.pick(0)
    headless_app.ctx.nav.go("map")
    ui.pump(6)
    board = screen(headless_app).ids.board
    rng = random.Random(11)
    regions = sorted(board.geometry.cells)
    folds = set()
    for rid in rng.sample(regions, 3):  # every label's first drawing
        tap_region(headless_app, rid)
    wanted = BoardMap._wanted
    layers: list[int] = []

    def every_layer(self: BoardMap, *args: Any) -> Any:
        layers.append(self.selected)
        return wanted(self, *args)

    monkeypatch.setattr(BoardMap, "_wanted", every_layer)
    for rid in rng.sample(regions, 12):
        before = {id(w): w.text for w in _labels(screen(headless_app))}
        redraws = board.redraws
        with drawn_labels(monkeypatch) as drawn:
            tap_region(headless_app, rid)
        assert board.redraws == redraws + 1 and board.drawn(rid)[2] is True
        again = [text for label, text in drawn if before.get(id(label)) == text]
        assert again == [], f"region {rid}: drawn again with the same text: {again}"
        folds.add(screen(headless_app).ids.final_panel.shown)
    assert folds == {True, False}  # the steppers' box folded and unfolded on these taps
    assert layers == []


def test_a_finger_lifted_from_a_region_is_heard_by_the_map_alone(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lift of a touch that landed on a region goes to the map only: no other widget
    of the screen (the panel beside it, its scrolling list) is walked through for it, and
    the tap still opens that region's panel."""
    from bench.scripted import seats

    session = headless_app.session
    session.new_game(seats(5), first_seat=0)
    session.pick(0)
    headless_app.ctx.nav.go("map")
    ui.pump(6)
    board = screen(headless_app).ids.board
    with recorded(monkeypatch, Widget, "on_touch_up", lambda w: type(w).__name__) as heard:
        for rid in sorted(board.geometry.cells)[:3]:
            tap_region(headless_app, rid)
            assert headless_app.presenters["map"].selected == rid
    assert heard == []  # the map's own handler calls no other widget's


def test_the_map_panel_keeps_its_height_whether_the_region_tapped_is_conquerable(
        headless_app: Any) -> None:
    """The main action's place below the panel is kept when a region offers none, so the
    panel above keeps its height from tap to tap (nothing in it moves or is laid out
    again); a second main button (a final roll) takes room of its own."""
    from bench.scripted import seats

    session = headless_app.session
    session.new_game(seats(5), first_seat=0)
    session.pick(0)
    headless_app.ctx.nav.go("map")
    ui.pump(6)
    map_screen = screen(headless_app)
    presenter = headless_app.presenters["map"]
    offered, heights = set(), set()
    for rid in sorted(map_screen.ids.board.geometry.cells)[:12]:
        tap_region(headless_app, rid)
        ui.pump(2)
        if len(presenter.main_actions) <= 1:
            offered.add(len(presenter.main_actions))
            heights.add(map_screen.ids.panel_scroll.height)
    assert offered == {0, 1}  # conquerable regions and others among those tapped
    assert len(heights) == 1


def _labels(root: Widget) -> Iterator[Label]:
    stack = [root]
    while stack:
        widget = stack.pop()
        if isinstance(widget, Label):
            yield widget
        stack.extend(widget.children)


def test_the_names_file_is_read_once_for_all_its_kinds(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    import tomllib

    from companion.ui import names

    read: list[object] = []
    load = tomllib.load
    monkeypatch.setattr(tomllib, "load", lambda stream: read.append(stream) or load(stream))
    forget = [f for f in vars(names).values() if hasattr(f, "cache_clear")]  # read anew
    for cached in forget:
        cached.cache_clear()
    try:
        assert (names.terrain("farmland"), names.feature("magic")) == ("Farmland", "Magic")
        assert names.expansion("river", "River World") and names.terrain("hill") == "Hill"
        assert len(read) == 1
    finally:
        for cached in forget:
            cached.cache_clear()


def test_the_table_body_growing_or_shrinking_runs_no_rule_that_places_its_columns(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.scripted import seats

    headless_app.session.new_game(seats(5), first_seat=0)
    headless_app.ctx.nav.go("table")
    ui.pump(6)
    table = screen(headless_app)
    body, undo_bar = table.ids.body, table.ids.undo_bar
    players, actions = body.children[-1], body.children[0]  # (children: last added first)
    placing = {(body.uid, "orientation"), (players.uid, "size_hint"),
               (actions.uid, "size_hint_x"), (undo_bar.uid, "x"), (undo_bar.uid, "width")}
    ran: list[tuple[Any, str]] = []

    def rule_sets(widget: Any, key: str, value: Any) -> None:  # what every rule run calls
        ran.append((getattr(widget, "uid", None), key))  # (a widget's, or a canvas's)
        setattr(widget, key, value)

    presenter = headless_app.presenters["table"]
    presenter.die_reason = ""
    ui.pump(3)
    height = body.height
    long = " ".join(["No roll now: the die is rolled while conquering."] * 4)  # 3 lines
    monkeypatch.setattr(quiet_rules, "setattr", rule_sets, raising=False)
    try:
        for reason in (long, ""):
            presenter.die_reason = reason
            ui.pump(3)
            assert (body.height < height) == bool(reason)
    finally:
        monkeypatch.undo()
    assert ran  # (the rules that follow the body's height ran)
    assert [key for uid, key in ran if (uid, key) in placing] == []
    assert body.orientation == "horizontal" and undo_bar.x == table.ids.players_scroll.x


def test_the_die_s_reason_of_one_line_coming_and_going_moves_nothing(
        headless_app: Any) -> None:
    """A turn or a phase begins: the reason the die may not be rolled comes or goes; its
    line is kept, so the table's body keeps its height (nothing jumps, and the boxes of
    the body are not laid out again)."""
    from bench.scripted import seats

    headless_app.session.new_game(seats(5), first_seat=0)
    headless_app.ctx.nav.go("table")
    ui.pump(6)
    table = screen(headless_app)
    presenter = headless_app.presenters["table"]
    presenter.die_reason = ""
    ui.pump(3)
    height, line = table.ids.body.height, table.ids.die_reason.height
    assert line > 0
    for reason in ("No roll now: the die is rolled while conquering.", ""):
        presenter.die_reason = reason
        ui.pump(3)
        assert (table.ids.body.height, table.ids.die_reason.height) == (height, line)


def test_the_die_buttons_words_wrapping_onto_two_lines_move_nothing(headless_app: Any) -> None:
    """A turn begins: the die's button says a final conquest (two lines) where it said a
    roll (one); the bar under the body keeps room for two lines, so the body keeps its
    height (nothing jumps, and the boxes of the body are not laid out again)."""
    from bench.scripted import seats

    headless_app.session.new_game(seats(5), first_seat=0)
    headless_app.ctx.nav.go("table")
    ui.pump(6)
    table = screen(headless_app)
    presenter = headless_app.presenters["table"]
    heights = set()
    for words in ("Roll the die", "Final conquest with the die", "Roll the die"):
        presenter.die_text = words
        ui.pump(3)
        heights.add((table.ids.die.texture_size[1], table.ids.body.height))
    assert len({words for words, _body in heights}) == 2  # (the words did wrap)
    assert len({body for _words, body in heights}) == 1


def test_a_note_folded_and_shown_again_with_the_same_lines_is_not_drawn_again(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's reminders fold away when the actions above leave them no room (as the
    table settles after a tap) and come back with the same lines: no label is drawn, and
    folded, the tappable note takes no touch (what is under it does)."""
    from companion.ui.widgets import TapNote, WholeLines

    notes = WholeLines(size_hint=(None, None), width=300, height=200)
    note = TapNote(words="Trolls: a Troll's Lair in every region they take.", least=48)
    caption = NoteCaption(words="Hill: one more coin for every Hill region held.")
    notes.add_widget(note)
    notes.add_widget(caption)
    ui.window().add_widget(notes)
    try:
        ui.pump(2)
        assert note.opacity == caption.opacity == 1
        with drawn_labels(monkeypatch) as drawn:
            for height in (0, 200, 0, 200):
                notes.height = height
                ui.pump(2)
                assert note.opacity == caption.opacity == (1 if height else 0)
        assert drawn == []
        notes.height = 0
        ui.pump(2)
        tapped: list[str] = []
        note.bind(on_release=lambda *_: tapped.append("rules"))
        touch = ui.UnitTestTouch(*note.to_window(note.x + 10, note.y))
        touch.touch_down()
        touch.touch_up()
        assert tapped == []  # folded: unseen, untouchable
    finally:
        ui.window().remove_widget(notes)


def test_a_scroller_that_moves_runs_no_rule_for_its_bars_and_places_those_shown(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A list that moves or changes size as the table settles (no bar shown) runs none of
    Kivy's rules for its bars' handles; a bar that shows has its handle where Kivy's rules
    put it."""
    from kivy.uix.boxlayout import BoxLayout

    from companion.ui.widgets import Scroller

    scroller = Scroller(size_hint=(None, None), size=(300, 200), do_scroll_x=False,
                        bar_width=6)
    content = BoxLayout(size_hint_y=None, height=100)
    scroller.add_widget(content)
    ui.window().add_widget(scroller)
    ran: list[str] = []

    def rule_sets(widget: Any, key: str, value: Any) -> None:  # what every rule run calls
        ran.append(key)
        setattr(widget, key, value)

    try:
        ui.pump(2)
        monkeypatch.setattr(quiet_rules, "setattr", rule_sets, raising=False)
        for y, height in ((10, 200), (40, 180), (40, 150), (70, 150)):
            scroller.y, scroller.height = y, height
            ui.pump(2)
        assert [key for key in ran if key.startswith("_handle")] == []
        content.height = 450  # more than it shows: the bar shows
        scroller.scroll_y = 0.5
        ui.pump(2)
        s = scroller
        assert tuple(s._handle_y_pos) == pytest.approx(
            (s.right - s.bar_width - s.bar_margin, s.y + s.height * s.vbar[0]))
        assert tuple(s._handle_y_size) == pytest.approx((6, s.height * s.vbar[1]))
        assert 0 < s.vbar[1] < 1 and s.vbar[0] > 0
    finally:
        monkeypatch.undo()
        ui.window().remove_widget(scroller)


def test_a_buttons_ink_is_worked_out_once_for_its_colour_and_its_disabled_colour(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.ui import palette
    from companion.ui.widgets import KINDS

    button = BigButton(text="Final conquest with the die", kind="secondary")
    inked: list[str] = []
    ink = BigButton.ink

    def counted(self: BigButton, kind: str, tint: Any) -> palette.RGBA:
        inked.append(kind)
        return ink(self, kind, tint)

    monkeypatch.setattr(BigButton, "ink", counted)
    for kind in ("primary", "dimmed", "secondary"):
        button.kind = kind
        assert list(button.color) == list(button.disabled_color) \
            == list(palette.ink_on(KINDS[kind]))
    assert inked == ["primary", "dimmed", "secondary"]
    button.disabled = True
    assert button._label.options["color"] == list(palette.ink_on(KINDS["secondary"]))


def test_notes_are_fitted_once_the_boxes_above_have_laid_out(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tap changes the actions above the table's notes and the room the screen gives
    them, in one frame: the notes' column lays out at its old height, then at the new one.
    The notes are fitted (and drawn) once, at the height the frame shows."""
    from kivy.uix.boxlayout import BoxLayout

    from companion.ui.widgets import TapNote, WholeLines

    screen_box = BoxLayout(orientation="vertical", size_hint=(None, None), size=(300, 400))
    column = BoxLayout(orientation="vertical")
    actions = Widget(size_hint_y=None, height=100)
    notes = WholeLines()
    note = TapNote(words=" ".join(["Trolls: a Troll's Lair in every region they take."] * 20),
                   least=48)
    notes.add_widget(note)
    column.add_widget(actions)
    column.add_widget(notes)
    screen_box.add_widget(column)
    ui.window().add_widget(screen_box)
    try:
        ui.pump(3)
        shown = []
        for actions_height, room in ((130, 330), (100, 400), (160, 300)):
            with drawn_labels(monkeypatch) as drawn:
                actions.height = actions_height  # the column lays out first...
                screen_box.height = room  # ... then the screen: the column again
                ui.pump(2)
            assert notes.height == room - actions_height
            assert [text for _label, text in drawn] == [note.text]  # drawn once
            shown.append((note.max_lines, note.height))
        assert len(set(shown)) == 3 and all(0 < height <= room for _, height in shown)
    finally:
        ui.window().remove_widget(screen_box)


def test_a_title_shown_again_in_the_same_box_is_not_measured_again(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's banner says whose turn it is: a name come round again is fitted as it
    was, with no text measured."""
    from companion.ui import widgets

    title = widgets.FitLabel(size_hint=(None, None), size=(200, 30),
                             base_size=widgets.FONT_LARGE)
    ui.window().add_widget(title)
    measured: list[str] = []

    class Measuring(widgets.CoreLabel):  # type: ignore[misc]
        def __init__(self, **kwargs: Any) -> None:
            measured.append(kwargs.get("text", ""))
            super().__init__(**kwargs)

    monkeypatch.setattr(widgets, "CoreLabel", Measuring)
    try:
        fitted = {}
        for text in ("Ed's turn", "Bartholomew-Maximilian's turn"):
            title.text = text
            ui.pump(2)
            fitted[text] = title.font_size
        first = len(measured)
        for text in ("Ed's turn", "Bartholomew-Maximilian's turn") * 2:
            title.text = text
            ui.pump(2)
            assert title.font_size == fitted[text]
        assert len(measured) == first > 0  # come round again: nothing measured
        assert fitted["Ed's turn"] == widgets.FONT_LARGE
        assert fitted["Bartholomew-Maximilian's turn"] < widgets.FONT_LARGE
    finally:
        ui.window().remove_widget(title)


def test_a_market_row_tapped_asks_the_rules_only_whether_it_may_be_taken(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The row's question says what the pick costs and brings from the market's rows
    alone: the rules are asked once (may it be taken?), not also about a decline the whole
    public view works out."""
    import companion.rules.views as views
    from bench.scripted import seats

    headless_app.session.new_game(seats(5), first_seat=0)
    headless_app.ctx.nav.go("market")
    ui.pump(6)
    row = views.public(headless_app.session.state).market[2]
    asked: list[object] = []
    refusal = views.refusal
    monkeypatch.setattr(views, "refusal",
                        lambda state, event: asked.append(event) or refusal(state, event))
    headless_app.presenters["market"].choose(2)
    ui.pump(3)
    dialog = ui.dialogs()[-1]
    assert [type(event).__name__ for event in asked] == ["ComboPicked"]
    assert dialog.title == "Row 3" and f"with {row.tokens} tokens" in dialog.text
    ui.close_dialogs()


def test_a_text_shown_again_is_not_drawn_again(headless_app: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn's banner says the same few texts turn after turn: each is drawn once, and
    shown again it is the same picture (two texts of one size never share a texture)."""
    from kivy.core.text import Label as CoreLabel

    from companion.ui import label_textures
    from companion.ui.widgets import Caption

    assert Label.texture_update is label_textures.texture_update  # (the app's first frame)
    label = Caption(text="Turn 8 of 8", size_hint=(None, None), size=(300, 40))
    ui.window().add_widget(label)
    ui.pump(2)  # laid out: its text box is its width
    drawn: list[str] = []
    render = CoreLabel._render_real

    def render_real(self: Any) -> Any:
        drawn.append(self.text)
        return render(self)

    monkeypatch.setattr(CoreLabel, "_render_real", render_real)
    try:
        pictures: dict[tuple[str, bool], bytes] = {}
        for _round in range(3):
            for text in ("Turn 1 of 8", "Turn 2 of 8"):
                for bold in (False, True):
                    label.text, label.bold = text, bold
                    ui.pump(1)
                    picture = bytes(label.texture.pixels)
                    assert pictures.setdefault((text, bold), picture) == picture
                    assert tuple(label.texture_size) == tuple(label.texture.size)
        assert sorted(drawn) == sorted(text for text, _bold in pictures)  # once each
        assert len(set(pictures.values())) == 4
    finally:
        ui.window().remove_widget(label)


def five_on_the_table(app: Any) -> tuple[Any, Callable[[], None], Any]:
    """A new 5-player game on the table screen: its session, a scripted player's
    function that plays the current turn up to its "End the turn", and the table screen."""
    from bench.scripted import ScriptedPlayer, seats
    from companion.rules import Phase, troops_game

    session = app.session
    session.new_game(seats(5), first_seat=0)
    player = ScriptedPlayer(session, random.Random(11), undo_rate=0.0)

    def play_to_turn_end() -> None:
        while not (session.state.track.phase is Phase.FINISHED
                   and not troops_game.waiting_hands(session.state)):
            player.intent()

    app.ctx.nav.go("table")
    ui.pump(6)
    return session, play_to_turn_end, screen(app)


def test_an_end_of_turn_lays_the_table_screen_out_once_its_bars_have_their_words(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """'End the turn' changes the undo's words and the die's reason under the body in the
    same step: the screen's box is laid out once both have their words (and once more, as
    Kivy looks again at a box whose children it resized), not once for each."""
    from companion.ui.widgets import Screenful

    session, play_to_turn_end, table = five_on_the_table(headless_app)
    box = next(c for c in table.children if isinstance(c, Screenful))
    for _turn in range(6):
        play_to_turn_end()
        name = session.state.players[session.state.track.next_seat].name
        ui.pump(4)
        reason, undo = table.ids.die_reason.text, table.ids.undo.text
        with laid_out_boxes(monkeypatch) as laid_out:
            headless_app.presenters["table"].act("end_turn")
            ui.pump(2)
        passes = ["screen" if laid is box else "" for laid in laid_out]
        assert name in table.ids.current.text
        if (reason, undo) != (table.ids.die_reason.text, table.ids.undo.text):
            assert passes.count("screen") <= 2, passes  # (2: Kivy's own look again)


def test_the_wide_tables_players_column_keeps_the_bodys_height_as_its_list_grows(
        headless_app: Any) -> None:
    """Side by side with the actions, the players' column is as tall as the body whatever
    its list's height does (a row's words onto two lines at an end of turn): it never
    takes another height for a moment, which laid the whole column out twice."""
    _session, _play_to_turn_end, table = five_on_the_table(headless_app)
    assert table.wide
    players = table.ids.players
    column = players.parent.parent  # the hint and the players' list
    heights: list[float] = []
    column.bind(height=lambda _column, height: heights.append(height))
    for grown in (18, -18, 36):  # as a row's words take one line more, or one fewer
        players.height += grown
        ui.pump(2)
        assert heights == [], heights
        assert column.height == table.ids.body.height


def test_the_regions_tapped_in_one_state_ask_the_rules_once_who_attacks(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Who attacks, from which Catapult, and what the die may do now are the same for every
    region tapped while the game stands still: the map works them out once per state, as
    it shows the state (its bright regions need them), and no tap asks again; a new state
    asks again."""
    import companion.ui.presenters.map as map_presenter
    from bench.scripted import seats

    session = headless_app.session
    session.new_game(seats(5), first_seat=0)
    headless_app.ctx.nav.go("map")
    ui.pump(6)
    asked: list[str] = []
    for name in ("attacker", "die_roll_allowed", "catapult_ready"):
        rule = getattr(map_presenter, name)
        monkeypatch.setattr(map_presenter, name, lambda *args, _name=name, _rule=rule: (
            asked.append(_name), _rule(*args))[1])
    presenter = headless_app.presenters["map"]
    session.pick(0)  # the first player conquers: the map lights their targets
    ui.pump(3)
    assert sorted(asked) == ["attacker", "catapult_ready", "die_roll_allowed"]  # once each
    asked.clear()
    for rid in sorted(screen(headless_app).ids.board.geometry.cells)[:8]:
        tap_region(headless_app, rid)
        assert presenter.selected == rid and presenter.region_title.startswith(f"Region {rid}")
    assert asked == []
    rid = next(iter(presenter.highlight))
    cost = map_presenter.MapPresenter._cost(session.state, rid)
    asked.clear()
    session.conquer(rid, cost)  # a new state
    ui.pump(3)
    assert sorted(asked) == ["attacker", "catapult_ready", "die_roll_allowed"]  # asked again
    asked.clear()
    tap_region(headless_app, rid)
    assert asked == []


def test_a_turn_passing_to_a_player_in_sight_scrolls_nothing(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Five players at 800x480 overflow the players' list a little: the current player's
    row is scrolled into sight when their turn comes, and only when it is not in sight
    already (Kivy's `scroll_to` walks the widget tree up and down to find that out)."""
    from kivy.uix.scrollview import ScrollView

    session, play_to_turn_end, table = five_on_the_table(headless_app)
    scroll, players = table.ids.players_scroll, table.ids.players
    assert players.height > scroll.height  # (the list overflows)
    scrolled: list[int] = []
    scroll_to = ScrollView.scroll_to
    monkeypatch.setattr(ScrollView, "scroll_to", lambda self, widget, *args, **kwargs: (
        scrolled.append(widget.seat), scroll_to(self, widget, *args, **kwargs)))
    seen = []
    for _turn in range(6):
        play_to_turn_end()
        seat = session.state.track.next_seat
        scrolled.clear()
        headless_app.presenters["table"].act("end_turn")
        ui.pump(3)
        row = players.row(seat)
        bottom = scroll.parent.to_widget(*row.to_window(row.x, row.y))[1]
        top = scroll.parent.to_widget(*row.to_window(row.right, row.top))[1]
        assert scroll.y <= bottom and top <= scroll.top  # in sight
        assert scrolled in ([], [seat])
        seen.append(list(scrolled))
    assert [] in seen and any(seen), seen  # scrolled only to a row out of sight


def test_a_screen_switch_and_a_dialog_walk_no_tree_to_hand_down_nothing(
        headless_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kivy hands a parent's disabled count down the whole tree of a widget added or taken
    away, 0 included (a screen's sixty widgets at each switch): nothing is walked for 0,
    and a disabled count still reaches every widget of the screen shown."""
    from bench.scripted import seats

    headless_app.session.new_game(seats(5), first_seat=0)
    nav = headless_app.ctx.nav
    walked: list[tuple[str, int]] = []

    def switch_and_tell() -> None:
        for name in ("market", "table"):
            nav.go(name)
            ui.pump(2)
        headless_app.ctx.notices.tell("Words", "A title")
        ui.pump(2)
        ui.close_dialogs()
        ui.pump(2)

    switch_and_tell()  # (the screens and the dialog built)
    for name in ("inc_disabled", "dec_disabled"):
        own = getattr(Widget, name)
        monkeypatch.setattr(Widget, name, lambda self, count=1, _own=own: (
            walked.append((type(self).__name__, count)), _own(self, count))[1])
    switch_and_tell()
    assert walked == []
    monkeypatch.undo()
    manager = headless_app.manager
    manager.disabled = True
    try:
        nav.go("market")
        ui.pump(2)
        assert screen(headless_app).ids.rows.disabled  # (a widget deep in the screen)
    finally:
        manager.disabled = False
    ui.pump(2)
    assert not screen(headless_app).ids.rows.disabled


def test_a_screen_switch_is_over_in_the_frame_it_is_asked_in(headless_app: Any) -> None:
    """The next frame draws the screen shown alone: the one left is out of the manager as
    soon as the switch is asked for, every event of the switch told, in Kivy's order."""
    from bench.scripted import seats

    headless_app.session.new_game(seats(5), first_seat=0)
    nav, manager = headless_app.ctx.nav, headless_app.manager
    nav.go("table")
    ui.pump(2)
    told: list[str] = []
    left, shown = manager.get_screen("table"), headless_app.screens["market"]
    for screen_, events in ((left, ("on_pre_leave", "on_leave")),
                            (shown, ("on_pre_enter", "on_enter"))):
        for event in events:
            screen_.fbind(event, lambda *_args, _event=event: told.append(_event))
    nav.go("market")
    assert not manager.transition.is_active
    assert manager.children == [shown] and manager.current_screen is shown
    assert told == ["on_pre_enter", "on_pre_leave", "on_enter", "on_leave"]
    assert tuple(shown.pos) == tuple(manager.pos)
