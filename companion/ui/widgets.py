"""Small widgets every screen shares: big buttons, hold-to-peek, steppers, dialogs.

Concept: nothing here knows the game. A button calls one method of a presenter (the
*target*); a dialog shows words it is given and calls back one function. Sizes come from
the theme constants below, so every text is at least 14 px and every touch target at least
48 px on any screen (`FONT_MIN`, `TARGET`).

Kivy draws only when something changes: no widget here schedules an interval. The one
timer is `HoldButton`'s single `Clock.schedule_once` while a finger rests on it.

Nothing here is built on a tap once it has been shown: the lists (`ActionColumn`,
`CountList`, `LineList`) keep their children in a `Pool` and update them in place, and the
dialogs are filled again (`Dialog.fill`) and reopened by the app rather than built anew
(building widgets made taps slow and fed the garbage collector).

Each pixel of a frame is drawn as few times as the look needs: a screen's background is
the window's clear colour (`Screenful`), a dialog's box is ModalView's own background in
the panel colour (one fill), and a list scrolls in a `Scroller`, clipped by a scissor box
rather than by the stencil (drawn twice a frame over the list's whole rectangle).

Words: the few a widget has of its own (a keypad's Shift, Space, Delete, Cancel and Done,
a message's OK) are in the language spoken (`companion.i18n`); a reused keypad words its
keys again each time it opens. Every other text is given by whoever fills the widget.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, ClassVar, Generic, TypeVar

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import BindTexture, Rectangle
from kivy.graphics.scissor_instructions import ScissorPop, ScissorPush
from kivy.graphics.stencil_instructions import StencilPop, StencilPush, StencilUnUse, StencilUse
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.layout import Layout
from kivy.uix.modalview import ModalView
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.i18n import N_, _
from companion.i18n import language as spoken_language
from companion.ui import palette
from companion.ui.text_measure import cut_to_lines, lines_of

FONT_MIN = sp(15)
"""The smallest text anywhere (the quality bar is 14 px)."""
FONT = sp(17)
FONT_LARGE = sp(22)
FONT_HUGE = sp(30)
TARGET = dp(52)
"""The height of a button: above the 48 px minimum touch target."""
GAP = dp(8)
PAD = dp(10)

KINDS: dict[str, palette.RGBA] = {
    "primary": palette.PRIMARY,
    "secondary": palette.SECONDARY,
    "danger": palette.DANGER,
    "dimmed": palette.DIMMED,
    "warning": palette.WARNING,
}


W = TypeVar("W")


class AddedAlone(Widget):  # type: ignore[misc]
    """A widget added to (or taken from) a parent that is not disabled walks nothing.

    Kivy's `add_widget` and `remove_widget` hand the parent's disabled count down the
    whole tree of the widget added or taken, even a count of 0, which changes nothing:
    a walk of some sixty widgets at each screen switch (the screen shown is added, the one
    left taken away), and of a dialog's at each opening and closing. A count of 0 is not
    handed down here; any other is, as Kivy does."""

    def inc_disabled(self, count: int = 1) -> None:
        if count:
            super().inc_disabled(count)

    def dec_disabled(self, count: int = 1) -> None:
        if count:
            super().dec_disabled(count)


class Pool(Generic[W]):
    """The children of one box, kept and reused: `show(kinds)` makes the box show a widget
    of each kind named, in order, and returns them for the caller to fill in.

    Invariants: the box holds nothing but the widgets shown, in order. The n-th widget of
    a kind shown is always the n-th ever made of that kind (`made[kind][n]`), so the
    widgets of a common start stay where they are; only those after the first difference
    are detached (kept for later) or attached. A widget is made only when more of its kind
    are shown at once than ever before, so a list that keeps its length never builds one.
    A widget first attached to a vertical box that stretches it across is laid out at once.
    """

    def __init__(self, box: Any, **makers: Callable[[], W]) -> None:
        self._box = box
        self._makers = makers
        self.made: dict[str, list[W]] = {kind: [] for kind in makers}
        self.shown: list[W] = []
        self._laid: set[int] = set()
        """The widgets (`id`) laid out at their first showing."""

    def show(self, kinds: Sequence[str]) -> list[W]:
        wanted: list[W] = []
        used = dict.fromkeys(self._makers, 0)
        for kind in kinds:
            made = self.made[kind]
            if used[kind] == len(made):
                made.append(self._makers[kind]())
            wanted.append(made[used[kind]])
            used[kind] += 1
        keep = 0
        for old, new in zip(self.shown, wanted, strict=False):
            if old is not new:
                break
            keep += 1
        for widget in reversed(self.shown[keep:]):
            self._box.remove_widget(widget)
        box = self._box
        across = getattr(box, "orientation", "") == "vertical"
        for widget in wanted[keep:]:
            placed: Any = widget  # a Kivy widget (Kivy ships no types)
            if across and placed.size_hint_x == 1 and id(widget) not in self._laid:
                # shown for the first time: laid out at once at the width the box gives
                # it, so the texts it is filled with are drawn once, wrapped at their own
                # width (not first at Kivy's default of 100 pixels, then again)
                self._laid.add(id(widget))
                placed.width = box.width - box.padding[0] - box.padding[2]
                if isinstance(placed, Layout):
                    placed.do_layout()
            box.add_widget(widget)
        self.shown = wanted
        return wanted

    def reserve(self, kind: str, count: int) -> None:
        """Make widgets of `kind` until `count` of them are made, showing none: a list
        built with its screen, ahead of play, builds nothing when it is first shown that
        long (a widget's build and its kv rules, some milliseconds each, are not in a tap)."""
        made = self.made[kind]
        while len(made) < count:
            made.append(self._makers[kind]())


def as_tall_as_its_children(layout: Any) -> None:
    """Keep `layout`'s height at its `minimum_height` (or at its `least`, where it has that
    property and it is more), from now on and now: Kivy fires no change for a list that
    stays empty, whose `minimum_height` stays 0, and a widget starts 100 high, so an empty
    list held 100 pixels of nothing (a scroll bar on the map's panel before any region was
    chosen)."""
    least = "least" in layout.properties()

    def fit(*_args: Any) -> None:
        layout.height = max(layout.minimum_height, layout.least if least else 0)

    layout.fbind("minimum_height", fit)
    if least:
        layout.fbind("least", fit)
    fit()


class Caption(Label):  # type: ignore[misc]
    """A label that wraps to its width and is as tall as its text."""


ELLIPSIS = "..."
"""What stands for the middle of a folder name too long for a whole line."""


def break_paths(text: str, width: float, measure: Callable[[str], float]) -> str:
    """`text` with each file path (a word holding "/") that is wider than `width` broken
    onto lines at its separators (each line but the last ends with "/"), so that Kivy,
    which wraps at spaces and cuts a word too long for a line anywhere ("companio" /
    "n"), never cuts one; a single name wider than a line loses its middle to an
    ellipsis. `measure` gives a text's width as drawn."""
    words = text.split(" ")
    for index, word in enumerate(words):
        if "/" in word and measure(word) > width:
            words[index] = _break_path(word, width, measure)
    return " ".join(words)


def _break_path(path: str, width: float, measure: Callable[[str], float]) -> str:
    parts = re.findall(r"[^/]*/|[^/]+$", path)  # each folder with its "/"
    lines: list[str] = []
    line = ""
    for part in parts:
        if line and measure(line + part) > width:
            lines.append(line)
            line = part
        else:
            line += part
    lines.append(line)
    return "\n".join(_elide_middle(line, width, measure) for line in lines)


def _elide_middle(line: str, width: float, measure: Callable[[str], float]) -> str:
    """`line`, or its start and end around an ellipsis when it is wider than `width`."""
    if measure(line) <= width:
        return line
    keep = len(line)
    while keep > 2:
        keep -= 1
        head, tail = line[: (keep + 1) // 2], line[len(line) - keep // 2 :]
        shorter = f"{head}{ELLIPSIS}{tail}"
        if measure(shorter) <= width:
            return shorter
    return ELLIPSIS


class PathCaption(Caption):
    """A caption whose `source` text holds file paths: a path too long for a line is
    broken at its separators, never inside a name (`break_paths`)."""

    source = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name in ("source", "width", "font_size", "font_name"):
            self.fbind(name, self._rewrap)

    def _rewrap(self, *_args: Any) -> None:
        pad = list(self.padding)
        room = self.width - (pad[0] + pad[2] if len(pad) == 4 else 2 * pad[0])
        if room <= 0:
            self.text = self.source
            return
        measure = CoreLabel(font_size=self.font_size, font_name=self.font_name).get_extents
        self.text = break_paths(self.source, room, lambda text: measure(text)[0])


class Heading(Caption):
    """A larger caption for titles."""


class Panel(BoxLayout):  # type: ignore[misc]
    """A vertical box on a slightly lighter background."""


class Swatch(Widget):  # type: ignore[misc]
    """A filled rectangle in a colour (a player's colour beside their name)."""

    colour = ObjectProperty(palette.FALLBACK)


def button_height(button: Any, lines: int) -> float:
    """How tall a `BigButton` is with `lines` lines of words at its font (its height rule):
    a bar that keeps this room stays still when a button's words wrap onto that many lines
    or fewer."""
    tall = lines_of(button._label.options, "\n".join(["Ag"] * lines), 1e6)[1]
    return max(float(TARGET), tall + float(button.margins))


class BigButton(Button):  # type: ignore[misc]
    """A flat button at least `TARGET` tall whose text wraps; `kind` picks its colour.

    `action_key` names what it does (tests and `ActionColumn` find buttons by it);
    `tint` overrides the colour (a player's own colour).
    """

    kind = OptionProperty("secondary", options=[*KINDS, "tint"])
    tint = ObjectProperty(None, allownone=True)
    action_key = StringProperty("")
    margins = NumericProperty(dp(14))
    """The room above and below its words, together (its height is its words' and this,
    or `TARGET`, whichever is more)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.disabled_color = self.color  # a disabled button says its words in its ink

    def fill(self, kind: str, tint: Any) -> palette.RGBA:
        if kind == "tint" and tint is not None:
            return (float(tint[0]), float(tint[1]), float(tint[2]), float(tint[3]))
        return KINDS.get(kind, palette.SECONDARY)

    def ink(self, kind: str, tint: Any) -> palette.RGBA:
        return palette.ink_on(self.fill(kind, tint))

    def on_color(self, _button: Any, color: Any) -> None:
        self.disabled_color = color


def words_width(text: str, font_size: float, font_name: str, bold: bool) -> float:
    """How wide the widest word of `text` is, on one line at this font."""
    measure = CoreLabel(font_size=font_size, font_name=font_name, bold=bold).get_extents
    return max((measure(word)[0] for word in text.split()), default=0.0)


BUTTON_PADDING = dp(16)
"""What a `BigButton` keeps free of text across (its `text_size` is its width less this)."""


class WordButton(BigButton):
    """A button as wide as its longest word needs, and never narrower than `least_width`:
    a word in a longer language ("Regeln", "Wiederholen") is never broken between two
    letters. Give it ``size_hint_x: None``; it is measured when its text or font changes
    (a language switch), never on a tap."""

    least_width = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name in ("text", "font_size", "font_name", "bold", "least_width"):
            self.fbind(name, self._fit)
        self._fit()

    def _fit(self, *_args: Any) -> None:
        needed = words_width(self.text, self.font_size, self.font_name, self.bold)
        self.width = max(self.least_width, needed + BUTTON_PADDING)


class WordKey(BigButton):
    """A pad's key with words on it, in type as large as `most_font` when its words fit
    its width and smaller when they do not (never below `FONT_MIN`): "Umschalt" or
    "Abbrechen" on a key sized for "Shift" stays whole. Measured when its text, font or
    width changes, never on a tap."""

    most_font = NumericProperty(0)
    """The largest type the key takes (0: `FONT_LARGE`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name in ("text", "font_name", "bold", "width", "most_font"):
            self.fbind(name, self._fit)
        self._fit()

    def _fit(self, *_args: Any) -> None:
        largest: float = self.most_font or FONT_LARGE
        room = self.width - BUTTON_PADDING
        needed = words_width(self.text, largest, self.font_name, self.bold)
        fits = largest if needed <= room or needed <= 0 else largest * room / needed
        self.font_size = max(FONT_MIN, int(fits))


class HoldButton(BigButton):
    """A button that reports a press held for `hold_time` seconds (`on_hold`) and the
    release after it (`on_hold_end`). A short tap does nothing but `on_release`."""

    hold_time = NumericProperty(0.35)
    holding = BooleanProperty(False)

    __events__ = ("on_hold", "on_hold_end")

    def __init__(self, **kwargs: Any) -> None:
        self._timer: Any = None
        super().__init__(**kwargs)
        self.always_release = True  # a finger sliding off still ends the hold

    def on_press(self) -> None:
        self._cancel()
        self._timer = Clock.schedule_once(self._held, self.hold_time)

    def on_release(self) -> None:
        self._cancel()
        if self.holding:
            self.holding = False
            self.dispatch("on_hold_end")

    def _held(self, _dt: float) -> None:
        self._timer = None
        if self.state == "down":
            self.holding = True
            self.dispatch("on_hold")

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def on_hold(self) -> None:
        pass

    def on_hold_end(self) -> None:
        pass


class ActionColumn(GridLayout):  # type: ignore[misc]
    """Buttons built from `actions`, a list of dicts {key, text, kind?, tint?, markup?,
    halign?, disabled?, hidden?}.

    A `hidden` action keeps its button's place (invisible and untouchable), so the buttons
    after it do not move when it comes and goes; a `disabled` one is shown greyed.

    Each button calls ``target.act(key)`` when released: one presenter method for all,
    reading the button's `action_key` at the release, so a button given another action
    calls the new one. New `actions` update the buttons in place (a `Pool`): a button is
    built only when more are shown than ever before. The column is as tall as its buttons
    (`cols` 1 by default; 2 puts them side by side), and never less than `least`.
    """

    actions = ListProperty([])
    target = ObjectProperty(None, allownone=True)
    reserve = NumericProperty(0)
    """Buttons to build with the column, before any is shown (`Pool.reserve`)."""
    least = NumericProperty(0)
    """The height it keeps when it shows fewer buttons (none): a place held for the main
    one, so that what lies above does not move as it comes and goes."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cols", 1)
        kwargs.setdefault("spacing", GAP)
        kwargs.setdefault("size_hint_y", None)
        self._pool: Pool[BigButton] = Pool(self, button=self._make)
        super().__init__(**kwargs)
        as_tall_as_its_children(self)
        self.fbind("actions", self._rebuild)
        self.fbind("reserve", lambda _column, count: self._pool.reserve("button", int(count)))
        self._rebuild()

    def _make(self) -> BigButton:
        button = BigButton()
        button.bind(on_release=self._released)
        return button

    def _rebuild(self, *_args: Any) -> None:
        buttons = self._pool.show(["button"] * len(self.actions))
        for button, action in zip(buttons, self.actions, strict=True):
            button.markup = action.get("markup", False)
            button.halign = action.get("halign", "center")
            button.kind = action.get("kind", "secondary")
            button.tint = action.get("tint")
            button.action_key = action["key"]
            button.text = action["text"]
            hidden, disabled = action.get("hidden", False), action.get("disabled", False)
            button.disabled = hidden or disabled
            button.opacity = 0 if hidden else 0.55 if disabled else 1

    def _released(self, button: BigButton) -> None:
        if self.target is not None and not button.disabled:  # a kept place is disabled;
            self.target.act(button.action_key)  # "" may be a choice's key (quiet hours: none)

    def button(self, key: str) -> BigButton | None:
        return next((c for c in self.children
                     if isinstance(c, BigButton) and c.action_key == key), None)


class Stepper(BoxLayout):  # type: ignore[misc]
    """A number with big minus and plus buttons; `on_step(value)` asks for a new value.

    The stepper does not change `value` itself: the presenter decides and its property
    flows back through the kv binding.
    """

    value = NumericProperty(0)
    minimum = NumericProperty(0)
    maximum = NumericProperty(99)
    label = StringProperty("")
    key = StringProperty("")
    """What it counts, for its owner to read when it steps (a reused stepper changes it)."""
    read_only = BooleanProperty(False)
    """Shows the number only: its minus and plus are hidden (their places kept) and take
    no tap, so no live-looking button does nothing (the map's tokens in hand, when the
    game counts them)."""

    __events__ = ("on_step",)

    def step(self, delta: int) -> None:
        if self.read_only:
            return
        new = int(min(self.maximum, max(self.minimum, self.value + delta)))
        if new != self.value:
            self.dispatch("on_step", new)

    def on_step(self, value: int) -> None:
        pass


class CountList(BoxLayout):  # type: ignore[misc]
    """A stepper per row of the presenter's `rows` (dicts {key, label, value, maximum} and
    an optional minimum), and a heading for a row whose key is "". A step asks the
    presenter's `set_count(key, value)`, the key read from the stepper at the step.

    New rows update the steppers and headings in place (a `Pool`): one is built only when
    more are shown than ever before.
    """

    presenter = ObjectProperty(None, allownone=True)
    rows = ObjectProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self._steppers: dict[str, Stepper] = {}
        self._pool: Pool[Any] = Pool(self, heading=self._heading, stepper=self._stepper)
        super().__init__(**kwargs)
        self.fbind("rows", self._rebuild)

    @staticmethod
    def _heading() -> Caption:
        return Caption(bold=True, color=palette.ACCENT)

    def _stepper(self) -> Stepper:
        stepper = Stepper()
        stepper.ids.label.font_size = FONT_MIN
        stepper.bind(on_step=self._stepped)
        return stepper

    def _stepped(self, stepper: Stepper, value: int) -> None:
        self.presenter.set_count(stepper.key, value)

    def _rebuild(self, *_args: Any) -> None:
        widgets = self._pool.show(["stepper" if row["key"] else "heading" for row in self.rows])
        steppers: dict[str, Stepper] = {}
        for widget, row in zip(widgets, self.rows, strict=True):
            if not row["key"]:
                widget.text = row["label"]
                continue
            widget.key = row["key"]
            widget.label = row["label"]
            widget.minimum = row.get("minimum", 0)
            widget.maximum = row["maximum"]
            widget.value = row["value"]
            steppers[row["key"]] = widget
        self._steppers = steppers

    def stepper(self, key: str) -> Stepper | None:
        return self._steppers.get(key)


class Dialog(AddedAlone, ModalView):  # type: ignore[misc]
    """A modal box in the middle of the screen; words only, closed by its buttons.

    A dialog is built once and reused: `fill` gives it the words (and the callback) of
    the next showing. It opens and closes at once (no fade, `animation` False unless
    asked), so a dialog closed by its own button is free again before that button's
    callback runs, and a callback that asks the next question can reopen it.
    """

    title = StringProperty("")
    text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("auto_dismiss", False)
        super().__init__(**kwargs)
        self._anim_duration = 0  # open and close at once: no fade to wait for

    def fill(self, **words: Any) -> None:
        """Set the properties named (title, text, button words) for the next showing."""
        for name, value in words.items():
            setattr(self, name, value)

    def open(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("animation", False)
        super().open(*args, **kwargs)

    def dismiss(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("animation", False)
        super().dismiss(*args, **kwargs)


class MessageDialog(Dialog):
    """A plain message with one button that closes it."""

    ok_text = StringProperty(N_("OK"))
    """The button's words (in English: the kv shows them in the language spoken)."""


class ConfirmDialog(Dialog):
    """A question with a yes and a no button; `on_yes` is called after yes.

    The callback is let go of at the answer (yes or no), before it runs: each showing's
    yes calls its own callback, once.
    """

    yes_text = StringProperty("Yes")
    no_text = StringProperty("Cancel")
    yes_kind = StringProperty("primary")

    def __init__(self, on_yes: Callable[[], None] | None = None, **kwargs: Any) -> None:
        self._on_yes = on_yes
        super().__init__(**kwargs)

    def fill(self, on_yes: Callable[[], None] | None = None, **words: Any) -> None:
        self._on_yes = on_yes
        super().fill(**words)

    def answer(self, yes: bool) -> None:
        on_yes, self._on_yes = self._on_yes, None
        self.dismiss()
        if yes and on_yes is not None:
            on_yes()


class ChoiceDialog(Dialog):
    """A list of choices (key, text) as big buttons; `on_choice(key)` after a tap.

    Refilled, its buttons are reused (an `ActionColumn`) and the list scrolled back to
    its top; the callback is let go of at the tap, before it runs.
    """

    choices = ListProperty([])

    def __init__(self, on_choice: Callable[[str], None] | None = None,
                 choices: Sequence[tuple[str, str]] = (), **kwargs: Any) -> None:
        self._on_choice = on_choice
        super().__init__(**kwargs)
        self.choices = [{"key": key, "text": text} for key, text in choices]

    def fill(self, on_choice: Callable[[str], None] | None = None,
             choices: Sequence[tuple[str, str]] = (), **words: Any) -> None:
        self._on_choice = on_choice
        super().fill(**words)
        self.choices = [{"key": key, "text": text} for key, text in choices]
        self.ids.scroll.scroll_y = 1

    def act(self, key: str) -> None:
        on_choice, self._on_choice = self._on_choice, None
        self.dismiss()
        if on_choice is not None:
            on_choice(key)


class PeekView(AddedAlone, ModalView):  # type: ignore[misc]
    """The private total, full screen, while a finger holds a name (or after the PIN).

    A new touch anywhere fires `on_tap` (the screen hides the total then).
    """

    text = StringProperty("")
    detail = StringProperty("")
    colour = ObjectProperty(palette.PANEL)

    __events__ = ("on_tap",)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("auto_dismiss", False)
        super().__init__(**kwargs)
        self._anim_duration = 0  # appear and vanish at once: a peek is short

    def on_touch_down(self, touch: Any) -> bool:
        self.dispatch("on_tap")
        return True

    def on_tap(self) -> None:
        pass


FITS_LIMIT = 1000
"""The fits a `FitLabel` remembers at most (all of them, of every fitted label)."""


class FitLabel(Label):  # type: ignore[misc]
    """A label that says its whole text in its box: it wraps at word ends, and where the
    lines do not fit at `base_size` it is drawn smaller, down to `FONT_MIN` (the
    legibility floor), never shortened in the middle of a word ("pendant les con...").

    Invariant: `font_size` is the largest of `base_size`, ..., `FONT_MIN` (a step of 1 px)
    at which every word fits the width and the lines fit the height; `FONT_MIN` when none
    does (the quality bar's checks then tell of the overflow). Worked out once a frame at
    most, after a change of text, size or base size, and remembered (`_FITS`, at most
    `FITS_LIMIT` of them): a text shown again in the same box and font (a player's turn
    come round again) is not measured again.
    """

    base_size = NumericProperty(FONT)
    _FITS: ClassVar[dict[tuple[Any, ...], float]] = {}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._fit = Clock.create_trigger(self._fit_text, -1)
        for name in ("text", "size", "base_size", "bold", "padding"):
            self.fbind(name, self._fit)
        self._fit()

    def _fit_text(self, *_args: Any) -> None:
        pad = self.padding
        width = float(self.width) - float(pad[0]) - float(pad[2])
        height = float(self.height) - float(pad[1]) - float(pad[3])
        if width <= 1 or not self.text:
            self.font_size = self.base_size
            return
        key = (self.text, width, height, float(self.base_size), self.font_name, self.bold,
               self.halign)
        size = self._FITS.get(key)
        if size is None:
            if len(self._FITS) >= FITS_LIMIT:
                self._FITS.clear()
            size = self._FITS[key] = self._largest_fit(width, height)
        self.text_size = (width, None)
        self.font_size = size

    def _largest_fit(self, width: float, height: float) -> float:
        words = [w for line in self.text.split("\n") for w in line.split(" ") if w]
        size = float(self.base_size)
        while True:
            core = CoreLabel(text=self.text, font_size=size, font_name=self.font_name,
                             bold=self.bold, text_size=(width, None), halign=self.halign)
            core.refresh()
            widest = max((CoreLabel(text=w, font_size=size, font_name=self.font_name,
                                    bold=self.bold).get_extents(w)[0] for w in words),
                         default=0)
            if (core.content_height <= height + 0.5 and widest <= width) or size <= FONT_MIN:
                return size
            size = max(float(FONT_MIN), size - 1)


def whole_rows(column: Any, room: float) -> float:
    """The height of as many of `column`'s rows (a vertical layout's children, top first)
    as fit whole in `room`: a list shown in that height ends at a row's edge, never
    through a button's words. All of them when they fit."""
    rows = [w for w in reversed(column.children) if w.height > 0]
    spacing = float(column.spacing[1] if isinstance(column.spacing, list | tuple)
                    else column.spacing)
    used = 0.0
    for i, row in enumerate(rows):
        need = used + (spacing if i else 0.0) + float(row.height)
        if need > room + 0.5:
            return used
        used = need
    return float(column.height)


class NoteCaption(Label):  # type: ignore[misc]
    """A wrapping caption of a `WholeLines` box, which gives it its height and lines: it
    shows its `words` whole, or as many of them as its lines hold, ending in an ellipsis."""

    words = StringProperty("")
    """What it says (its `text` is what it shows of it)."""
    least = NumericProperty(0)
    """The least height it takes when shown (a tap target's, for a caption tapped)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)


class TapNote(ButtonBehavior, NoteCaption):  # type: ignore[misc]
    """A `NoteCaption` a finger may tap (the table's reminders open the rules at what they
    name); `action_key` names what a tap asks for, as a button's does. Folded away by its
    `WholeLines` box (unseen), it takes no touch."""

    action_key = StringProperty("")

    def on_touch_down(self, touch: Any) -> bool:
        return bool(self.opacity and super().on_touch_down(touch))


class WholeLines(BoxLayout):  # type: ignore[misc]
    """A vertical box of `NoteCaption`s that shows, in its height, as many whole lines of
    them as fit, in order, and no part of a line: the table's reminders under its actions.

    Invariant: every caption shows its `words` whole when it has room for all their lines,
    else as many whole words as the lines it has room for hold, the last line ending in an
    ellipsis (a sentence never stops short as if it were whole); it is as tall as those
    lines (or its `least`); one with no room, or no words, is folded to no height and
    unseen (opacity 0; never disabled, which has Kivy draw a label again: a folded
    `TapNote` takes no touch of itself). So the box's edge never cuts through a line of
    text, whatever the actions above it leave; the rest is a tap away (the reminders open
    the rules). The lines are counted by Kivy's
    layout alone (`text_measure.lines_of`), so a caption is drawn once after a change, by
    Kivy; and they are counted once the boxes this one lies in have laid themselves out
    before the frame (at a height the frame shows, not at one a box above gives it first).
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        super().__init__(**kwargs)
        self._fit = Clock.create_trigger(self._fit_lines, -1)
        self.fbind("size", self._fit)

    def add_widget(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        super().add_widget(widget, *args, **kwargs)
        for name in ("words", "width", "font_size"):
            widget.fbind(name, self._fit)
        self._fit()

    def _fit_lines(self, *_args: Any) -> None:
        if self._settling():  # fitted after the boxes above have laid themselves out
            self._fit()
            return
        room = float(self.height)
        for caption in reversed(self.children):  # top first
            caption.text_size = (caption.width, None)
            words, options = caption.words, caption._label.options
            lines, tall = (lines_of(options, words, caption.width) if words.strip()
                           else (0, 0))
            line = float(tall) / lines if lines else 0.0
            fits = min(lines, int((room + 0.5) // line)) if line else 0
            if fits and max(line * fits, caption.least) > room + 0.5:
                fits = 0  # not even its least height left
            cut = 0 < fits < lines
            caption.text = (cut_to_lines(options, words, caption.width, fits, ELLIPSIS)
                            if cut else words)
            caption.max_lines = fits if cut else 0
            caption.height = max(line * fits, caption.least) if fits else 0
            caption.opacity = 1 if fits else 0  # (never `disabled`: Kivy draws it again)
            room -= caption.height + (self.spacing if fits else 0)

    def _settling(self) -> bool:
        """Whether a box this one lies in is yet to lay itself out before the next frame
        (its height then is not yet the one the frame shows)."""
        widget = self.parent
        while widget is not None and widget is not widget.parent:
            pending = getattr(widget, "_trigger_layout", None)
            if pending is not None and pending.is_triggered:
                return True
            widget = widget.parent
        return False


class Collapsible(BoxLayout):  # type: ignore[misc]
    """A vertical box that folds away (no height, no touches) while `shown` is false.

    Folded, its children keep their last places; a disabled widget there would swallow
    touches meant for what is drawn now, so a folded box passes every touch on. Folded, it
    still lays its children out when its width or one of their sizes changed (not when it
    moves): built folded, its texts are wrapped at its width, and the height it will take
    known, before it first unfolds, which is then one layout pass in the tap that unfolds
    it, not a cascade of texts wrapped at Kivy's default width of 100 pixels and again.
    """

    shown = BooleanProperty(True)

    def __init__(self, **kwargs: Any) -> None:
        self._laid: tuple[float, list[tuple[float, float]]] | None = None
        """Its width and its children's sizes after it last laid them out."""
        super().__init__(**kwargs)

    def on_shown(self, *_args: Any) -> None:
        self._trigger_layout()

    def do_layout(self, *args: Any) -> None:
        # folded, nothing of it is seen: its children stay where they are, at its width,
        # and its own height to come (`minimum_height`) follows theirs
        if self.shown or self._laid != self._shape():
            super().do_layout(*args)
            self._laid = self._shape()

    def _shape(self) -> tuple[float, list[tuple[float, float]]]:
        return self.width, [(child.width, child.height) for child in self.children]

    def on_touch_down(self, touch: Any) -> bool:
        return bool(self.shown and super().on_touch_down(touch))

    def on_touch_move(self, touch: Any) -> bool:
        return bool(self.shown and super().on_touch_move(touch))

    def on_touch_up(self, touch: Any) -> bool:
        return bool(self.shown and super().on_touch_up(touch))


class ArrowButton(BigButton):
    """A square button with a drawn arrow (`direction` "up" or "down"): no font glyph."""

    direction = OptionProperty("up", options=["up", "down"])

    def arrow(self, x: float, y: float, w: float, h: float, direction: str) -> list[float]:
        cx, cy, s = x + w / 2, y + h / 2, min(w, h) * 0.22
        if direction == "up":
            return [cx - s, cy - s * 0.6, cx + s, cy - s * 0.6, cx, cy + s * 0.8]
        return [cx - s, cy + s * 0.6, cx + s, cy + s * 0.6, cx, cy - s * 0.8]


BAR_HANDLES = ("_handle_y_pos", "_handle_y_size", "_handle_x_pos", "_handle_x_size")
"""Where a `ScrollView`'s bars are drawn (and tell a touch on a handle from one beside it)."""


class Scroller(ScrollView):  # type: ignore[misc]
    """A `ScrollView` that clips its content with the GPU's scissor box, not the stencil.

    Kivy's ScrollView clips by drawing its whole rectangle into the stencil buffer twice a
    frame (once to mark it, once to unmark it) and testing every pixel drawn inside
    against it; a scissor box is a rectangle the GPU clips to for free. The box is in the
    window's pixels: it is worked out again (once, before the next frame) when the
    scroller moves or changes size, or when an ancestor that moves its children without
    moving them (a RelativeLayout, a ScrollView) moves or scrolls. With the window turned
    by a quarter (`Window.rotation` 90 or 270, set from the configuration at start), the
    stencil is kept: the scissor box would need turning too. A half turn (the players
    sitting around the screen, `TableApp._face`) turns the box with the picture: the app
    calls `window_turned` after turning the window, and every scroller's box is worked out
    again (each scroller with a box is in `_boxed`, weakly, so none is kept alive by it).
    Its bars' handles are placed by `_place_bars`, only while a bar shows.
    """

    panel = BooleanProperty(False)
    """A panel made to be scrolled (the map's region panel, the Necromancer's screen): its
    bar always shows, so a newcomer sees there is more below and drags it; its edge may
    then cut through a line (the explorer holds other scrolled texts to whole lines)."""

    _boxed: ClassVar[weakref.WeakSet[Scroller]] = weakref.WeakSet()

    @classmethod
    def window_turned(cls) -> None:
        """The window was turned: every scissor box is worked out again before the next
        frame (the shown screen's and those of the screens built but not on show)."""
        for scroller in list(cls._boxed):
            scroller._place()

    def __init__(self, **kwargs: Any) -> None:
        self._box: ScissorPush | None = None
        self._watched: list[tuple[Any, str, int]] = []
        self._bounds_for: tuple[float, float] = (-1.0, -1.0)
        super().__init__(**kwargs)

    def update_from_scroll(self, *args: Any) -> None:
        """Kivy's, which binds the bars' colour to `bar_color` at every call: bound once.

        Kivy's unbinds it only when the bars turn inactive: a second call before they
        turned (a panel laid out twice in a frame), or a panel with no bar (whose bars
        never turn, `_bind_inactive_bar_color`), left a binding behind each time, some
        160 a game, for the app's life.
        """
        self.funbind("bar_color", self._change_bar_color)
        super().update_from_scroll(*args)

    def _bind_inactive_bar_color(self, *_args: Any) -> None:
        """Half a second after a scroll or a change of content, the bars turn inactive at
        once, and only if one shows.

        Kivy fades them over another half second: some 30 frames of the whole window drawn
        again after every change of a panel's lines (a map region tapped), even when no
        bar shows (its colour is still set, every frame, to the same nothing).
        """
        self.funbind("bar_color", self._change_bar_color)
        self.fbind("bar_inactive_color", self._change_bar_color)
        width, height = self.viewport_size
        if not ((self.do_scroll_x and width > self.width)
                or (self.do_scroll_y and height > self.height)):
            return  # no bar shows: nothing to turn, no frame to draw
        self._bar_color = self.bar_inactive_color

    def _update_effect_y_bounds(self, *args: Any) -> None:
        """The scroller or its content changed height: the scroll is put back in range
        before Kivy works the scroll effect's bounds out again.

        Kivy's effect keeps moving from the old size (a spring pulling back an overscroll,
        a fling's velocity) and turns its offset into `scroll_y` against the new size: a
        panel that shrank to fit and then grew by a line was seen at `scroll_y` -144, its
        buttons thousands of pixels off screen. Here, unless a finger is on the scroller,
        the effect stops, and `scroll_y` is 1 (the top) for content that fits, else kept
        within 0..1; Kivy then sets the effect's value from it, so both agree.
        """
        effect = self.effect_y
        size = (float(self.height), float(self.viewport_size[1]))
        if effect is not None and not self._touch and size != self._bounds_for:
            effect.velocity = 0
            effect.overscroll = 0
            scroll: float = getattr(self, "scroll_y")  # noqa: B009 (a Kivy property)
            self.scroll_y = 1.0 if size[1] <= size[0] else min(1.0, max(0.0, scroll))
        self._bounds_for = size
        super()._update_effect_y_bounds(*args)

    def on_kv_post(self, base_widget: Any) -> None:
        """Kivy's rules are on the canvas now (built from kv, they come after __init__)."""
        from kivy.core.window import Window
        from kivy.lang import Builder

        for name in BAR_HANDLES:  # worked out by `_place_bars` instead
            Builder.unbind_property(self, name)
        bars = Clock.create_trigger(self._place_bars, -1)
        for name in ("pos", "size", "viewport_size", "vbar", "hbar", "bar_width",
                     "bar_margin", "bar_pos_x", "bar_pos_y", "do_scroll_x", "do_scroll_y"):
            self.fbind(name, bars)
        bars()

        if self._box is not None or Window.rotation:
            return
        before, after = self.canvas.before, self.canvas.after
        # Kivy's StencilView rule: before [push, texture, rectangle, use], after [unuse,
        # texture, rectangle, pop, then the bars]. Anything else: leave it as it is.
        marked, unmarked = list(before.children), list(after.children)[:4]
        if [type(i) for i in marked] != [StencilPush, BindTexture, Rectangle, StencilUse] \
                or [type(i) for i in unmarked] != [StencilUnUse, BindTexture, Rectangle,
                                                    StencilPop]:
            return
        for group, instructions in ((before, marked), (after, unmarked)):
            for instruction in instructions:
                if not isinstance(instruction, BindTexture):  # goes with its rectangle
                    group.remove(instruction)
        self._box = ScissorPush(x=0, y=0, width=0, height=0)
        before.add(self._box)
        after.insert(0, ScissorPop())
        self._place = Clock.create_trigger(self._update_box, -1)
        Scroller._boxed.add(self)
        self.fbind("pos", self._place)
        self.fbind("size", self._place)
        self.fbind("parent", self._watch_ancestors)

    def _place_bars(self, *_args: Any) -> None:
        """Where the bars' handles are: Kivy's rules for them (`<ScrollView>` in its
        style.kv), worked out once before the next frame, and only for a bar that shows.

        Kivy's four rules ran again at every move or change of size of the scroller, some
        nine of them a tap on a table that settles; a bar that does not show is drawn in
        no colour and takes no touch, so where its handle is does not matter.
        """
        width, height = self.viewport_size
        if self.do_scroll_y and height > self.height:
            self._handle_y_pos = (
                (self.right - self.bar_width - self.bar_margin) if self.bar_pos_y == "right"
                else (self.x + self.bar_margin), self.y + self.height * self.vbar[0])
            self._handle_y_size = min(self.bar_width, self.width), self.height * self.vbar[1]
        if self.do_scroll_x and width > self.width:
            self._handle_x_pos = (
                self.x + self.width * self.hbar[0], (self.y + self.bar_margin)
                if self.bar_pos_x == "bottom" else (self.top - self.bar_margin - self.bar_width))
            self._handle_x_size = self.width * self.hbar[1], min(self.bar_width, self.height)

    def _watch_ancestors(self, *_args: Any) -> None:
        for widget, name, uid in self._watched:
            widget.unbind_uid(name, uid)
        self._watched = []
        widget = self.parent
        while widget is not None and widget is not widget.parent:
            names: tuple[str, ...] = ()
            if isinstance(widget, ScrollView):
                names = ("scroll_x", "scroll_y", "pos")
            elif isinstance(widget, RelativeLayout):
                names = ("pos",)
            for name in names:
                self._watched.append((widget, name, widget.fbind(name, self._place)))
            widget = widget.parent
        self._place()

    def _update_box(self, *_args: Any) -> None:
        box = self._box
        if box is None:
            return
        from kivy.core.window import Window

        x0, y0 = self.to_window(self.x, self.y)
        x1, y1 = self.to_window(self.right, self.top)
        left, bottom = min(x0, x1), min(y0, y1)
        width, height = abs(x1 - x0), abs(y1 - y0)
        if Window.rotation == 180:  # the GPU's pixels: the window's, turned by a half
            left, bottom = Window.width - left - width, Window.height - bottom - height
        box.x, box.y = round(left), round(bottom)
        box.width, box.height = round(width), round(height)

    @property
    def clipped_by_scissor(self) -> bool:
        """Whether the content is clipped by the scissor box (False: by the stencil)."""
        return self._box is not None


class Screenful(BoxLayout):  # type: ignore[misc]
    """The root box of a screen: vertical, padded, on the app's background.

    The background is the window's clear colour (`TableApp.build` sets it), not a
    rectangle: a rectangle the size of the screen is drawn, pixel by pixel, on every
    frame, where the clear is one fill the GPU does anyway (a tile-based GPU, the Pi's,
    and Mesa's software one skip the pixels nothing else is drawn on).
    """


class LineRow(BoxLayout):  # type: ignore[misc]
    """One line of a breakdown: what, and how much (right-aligned, in the accent colour)."""

    label = StringProperty("")
    value = StringProperty("")


class LineList(BoxLayout):  # type: ignore[misc]
    """A breakdown shown from `lines`, a list of dicts {label, value}; its rows are updated
    in place (a `Pool`), one built only when more are shown than ever before."""

    lines = ListProperty([])
    reserve = NumericProperty(0)
    """Rows to build with the list, before any is shown (`Pool.reserve`)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("size_hint_y", None)
        self._pool: Pool[LineRow] = Pool(self, row=LineRow)
        super().__init__(**kwargs)
        as_tall_as_its_children(self)
        self.fbind("lines", self._rebuild)
        self.fbind("reserve", lambda _list, count: self._pool.reserve("row", int(count)))
        self._rebuild()

    def _rebuild(self, *_args: Any) -> None:
        rows = self._pool.show(["row"] * len(self.lines))
        for row, line in zip(rows, self.lines, strict=True):
            row.label = line["label"]
            row.value = line["value"]


NAME_KEYS: dict[str, tuple[str, str, str]] = {
    "en": ("QWERTYUIOP", "ASDFGHJKL'", "ZXCVBNM-"),
    "fr": ("AZERTYUIOP", "QSDFGHJKLM", "WXCVBN'-"),
    "de": ("QWERTZUIOP", "ASDFGHJKL'", "YXCVBNM-"),
}
"""The letters pad's rows of characters in each language's own layout (QWERTY, AZERTY,
QWERTZ; any other language types on the English one); Shift and Delete frame the last
row. Every layout has rows of 10, 10 and 8 keys: the keys are built once and relabelled."""

ACCENTS: dict[str, str] = {
    "en": "ÉÈÀÇÑÄÖÜÁÍÓÚ",
    "fr": "ÉÈÊËÀÂÇÎÏÔÛÙÜŒÆŸ",
    "de": "ÄÖÜßÉÈÀÇÑ",
}
"""The accented letters a language's names need, the most used first: the accent key
shows them on the letter keys in place of the layout."""


class KeyRow(BoxLayout):  # type: ignore[misc]
    """One row of the letters pad, in two halves: side by side, or one above the other
    where ten keys side by side would be narrower than a finger (the 7-inch panel
    upright). The kv rule turns it; the keys are never built again."""

    narrow = BooleanProperty(False)


class KeyPad(Dialog):
    """A dialog typed into with big on-screen keys, and with a keyboard when there is one.

    `on_done(value)` is called after Done (or once the PIN is complete); Cancel calls
    nothing. While open, characters typed on a real keyboard go in too (Backspace deletes,
    Enter is Done, Escape is Cancel), so `make run` on a desktop needs no clicking.
    """

    value = StringProperty("")

    def __init__(self, on_done: Callable[[str], None] | None = None, **kwargs: Any) -> None:
        self._on_done = on_done
        self._worded: list[tuple[BigButton, str]] = []
        """The keys with words, each with its English (worded again at each opening)."""
        super().__init__(**kwargs)
        self.bind(on_open=self._keyboard_on, on_dismiss=self._keyboard_off)
        self.bind(on_open=self._reword)

    def _reword(self, *_args: Any) -> None:
        """The keys' words in the language spoken now."""
        for button, words in self._worded:
            button.text = _(words)

    def fill(self, on_done: Callable[[str], None] | None = None, **words: Any) -> None:
        """Words and callback for the next showing; the value starts empty unless given."""
        self._on_done = on_done
        words.setdefault("value", "")
        super().fill(**words)

    # a real keyboard, when there is one
    def _keyboard_on(self, *_args: Any) -> None:
        from kivy.core.window import Window

        Window.bind(on_textinput=self._typed, on_key_down=self._key)

    def _keyboard_off(self, *_args: Any) -> None:
        from kivy.core.window import Window

        Window.unbind(on_textinput=self._typed, on_key_down=self._key)

    def _typed(self, _window: Any, text: str) -> bool:
        for char in text:
            self.press(char)
        return True

    def _key(self, _window: Any, key: int, *_args: Any) -> bool:
        if key == 8:
            self.delete()
        elif key in (13, 271):
            self.done()
        elif key == 27:
            self.cancel()
        else:
            return False
        return True

    # what the keys do
    def press(self, char: str) -> None:
        """Type one character (ignored when the pad does not take it)."""

    def delete(self) -> None:
        self.value = self.value[:-1]

    def cancel(self) -> None:
        self.dismiss()

    def done(self) -> None:
        on_done, self._on_done = self._on_done, None
        self.dismiss()
        if on_done is not None:
            on_done(self.value)

    def key(self, action_key: str, text: str, press: Callable[[], None],
            kind: str = "secondary", **kwargs: Any) -> BigButton:
        button = BigButton(text=text, action_key=action_key, kind=kind,
                           font_size=FONT_LARGE, **kwargs)
        button.bind(on_release=lambda _b: press())
        return button

    def word_key(self, action_key: str, words: str, press: Callable[[], None],
                 kind: str = "secondary", **kwargs: Any) -> BigButton:
        """A key with words (`words` in English, marked `N_`): shown in the language
        spoken, and again in the one spoken when the pad next opens."""
        button = WordKey(text=_(words), action_key=action_key, kind=kind,
                         most_font=FONT_LARGE, font_size=FONT_LARGE, **kwargs)
        button.bind(on_release=lambda _b: press())
        self._worded.append((button, words))
        return button


def _cased(char: str, upper: bool) -> str:
    """`char` as a capital or small letter; a letter without a one-letter capital (ß)
    stays as it is."""
    changed = char.upper() if upper else char.lower()
    return changed if len(changed) == 1 else char


class NamePad(KeyPad):
    """Letters, space, hyphen and apostrophe as big keys: a name typed by touch alone.

    The letters are in the layout of the language spoken when the pad opens (AZERTY for
    French, QWERTZ for German, QWERTY else: `NAME_KEYS`), and the accent key shows that
    language's accented letters on the same keys (`ACCENTS`), until it is pressed again or
    a letter is typed. A letter at the start of a word is a capital, the others small;
    Shift swaps the case of the next letter. Done gives the name with spaces tidied; it is
    refused while empty.
    """

    text = StringProperty("")
    upper = BooleanProperty(True)
    """Whether the next letter is a capital (the keys show it)."""
    accents = BooleanProperty(False)
    """Whether the letter keys show the accented letters."""
    max_length = NumericProperty(20)

    def __init__(self, **kwargs: Any) -> None:
        self._keys: list[BigButton] = []
        """The character keys, row by row: relabelled for each layout and for accents."""
        super().__init__(**kwargs)
        keys = self.ids.keypad
        rows = NAME_KEYS["en"]
        for index, row in enumerate(rows):
            line = KeyRow()
            first, second = line.ids.first, line.ids.second
            if index == len(rows) - 1:
                first.add_widget(self.word_key("shift", N_("Shift"), self.shift,
                                               size_hint_x=1.5))
            for n, char in enumerate(row):
                button = self.key("key:" + char, char, partial(self._tap, len(self._keys)))
                self._keys.append(button)
                (first if n < len(row) // 2 else second).add_widget(button)
            if index == len(rows) - 1:
                second.add_widget(self.word_key("delete", N_("Delete"), self.delete,
                                                size_hint_x=1.5))
            keys.add_widget(line)
        line = BoxLayout(spacing=dp(5), size_hint_y=None, height=TARGET)
        line.add_widget(self.word_key("cancel", N_("Cancel"), self.cancel, size_hint_x=2.5))
        self._accent_key = self.key("accents", "", self.toggle_accents, size_hint_x=1.5)
        line.add_widget(self._accent_key)
        line.add_widget(self.word_key("key: ", N_("Space"), lambda: self.press(" "),
                                      size_hint_x=4))
        line.add_widget(self.word_key("done", N_("Done"), self.done, kind="primary",
                                      size_hint_x=2.5))
        keys.add_widget(line)
        self._chars: list[str] = []
        self.fbind("upper", self._relabel)
        self.fbind("accents", self._relabel)
        self.fbind("value", self._follow)
        self.bind(on_open=self._relabel)
        self._follow()
        self._relabel()

    def fill(self, on_done: Callable[[str], None] | None = None, **words: Any) -> None:
        super().fill(on_done, **words)
        self.accents = False
        self._follow()  # the case of the next letter, whatever Shift did last time

    def _language(self) -> str:
        spoken = spoken_language()
        return spoken if spoken in NAME_KEYS else "en"

    def _relabel(self, *_args: Any) -> None:
        """Each character key's character: the language's layout, or its accented
        letters (the keys left over blank and inert), in the case of the next letter."""
        language = self._language()
        chars = list("".join(NAME_KEYS[language]))
        if self.accents:
            letters = ACCENTS[language]
            chars = [*letters, *[""] * (len(chars) - len(letters))]
        self._chars = chars
        for button, char in zip(self._keys, chars, strict=True):
            button.text = _cased(char, self.upper) if char.isalpha() else char
            button.action_key = "key:" + char.upper() if char else "key:none"
            button.disabled = not char
            button.opacity = 1 if char else 0
        self._accent_key.text = "ABC" if self.accents else ACCENTS[language][:2].title()

    def _tap(self, index: int) -> None:
        char = self._chars[index]
        if char:
            self.press(char)
            self.accents = False  # one accented letter, then the layout again

    def toggle_accents(self) -> None:
        self.accents = not self.accents

    def _follow(self, *_args: Any) -> None:
        self.upper = not self.value or self.value[-1] in " -'"

    def shift(self) -> None:
        self.upper = not self.upper

    def press(self, char: str) -> None:
        if len(self.value) >= self.max_length:
            return
        if char == " " and (not self.value or self.value.endswith(" ")):
            return
        if char.isalpha():
            self.value += _cased(char, self.upper)
        elif char in " -'" or char.isdigit():
            self.value += char

    def done(self) -> None:
        name = " ".join(self.value.split())
        if not name:
            self.text = _("A name needs at least one letter.")
            return
        self.value = name
        super().done()


class PinDots(Widget):  # type: ignore[misc]
    """`length` drawn circles, the first `count` filled: how many digits are typed."""

    count = NumericProperty(0)
    length = NumericProperty(4)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name in ("count", "length", "pos", "size"):
            self.fbind(name, self._redraw)
        self._redraw()

    def _redraw(self, *_args: Any) -> None:
        from kivy.graphics import Color, Ellipse, Line

        self.canvas.clear()
        n = int(self.length)
        if n <= 0:
            return
        size = min(dp(22), self.height * 0.6)
        gap = dp(18)
        # From x and width, not center_x: that cached alias may not have followed a move
        # yet when `pos` fires (a reused pad moved to another layout drew off-centre).
        x = self.x + (self.width - (n * size + (n - 1) * gap)) / 2
        y = self.y + (self.height - size) / 2
        with self.canvas:
            Color(*palette.TEXT)
            for i in range(n):
                if i < self.count:
                    Ellipse(pos=(x, y), size=(size, size))
                else:
                    Line(ellipse=(x, y, size, size), width=dp(1.5))
                x += size + gap


class PinPad(KeyPad):
    """Ten big digit keys for a PIN of `length` digits, shown as dots, never as digits.

    The PIN is handed over as soon as its last digit is typed.
    """

    text = StringProperty("")
    length = NumericProperty(4)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        keys = self.ids.keypad
        for char in "123456789":
            keys.add_widget(self.key("digit:" + char, char, partial(self.press, char)))
        keys.add_widget(self.word_key("delete", N_("Delete"), self.delete))
        keys.add_widget(self.key("digit:0", "0", lambda: self.press("0")))
        keys.add_widget(self.word_key("cancel", N_("Cancel"), self.cancel))

    def press(self, char: str) -> None:
        if char.isdigit() and len(self.value) < self.length:
            self.value += char
            if len(self.value) == self.length:
                self.done()
