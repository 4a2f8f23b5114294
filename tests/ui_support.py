"""Helpers for the headless UI tests: one real Kivy window per process, driven by touches.

Kivy's Window is a singleton, so every UI test module shares one `TableApp` (`ui_app`),
built without `App.run()`: its root goes into the window and frames are pumped by hand
(`pump`). Touches are real `MotionEvent`s sent through the event loop (`tap`, `hold`), at
the centre of the widget in window coordinates, so they reach the widget only if it is
really there and on top.

`layout_problems` is the quality bar as code: no widget outside the window, no text under
14 px, no text overflowing its widget, every button at least 48 px each way. Two more
checks hold a screen to its use at the table: `out_of_sight` (its main actions lie whole
in the window, in sight without scrolling) and `stepper_moves` / `repeat_moves` (no button
moves while a stepper or a repeated control is tapped).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")  # keep stderr: tracebacks stay visible
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")  # no xsel/xclip child processes
os.environ.setdefault("KCFG_GRAPHICS_WIDTH", "800")
os.environ.setdefault("KCFG_GRAPHICS_HEIGHT", "480")
os.environ.setdefault("KCFG_KIVY_EXIT_ON_ESCAPE", "0")
os.environ.setdefault("KCFG_GRAPHICS_MAXFPS", "0")  # no 60 fps cap: pumped frames never wait

from kivy.app import App
from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.tests.common import UnitTestTouch
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from companion.session import Session
from companion.ui.app import TableApp

SIZES = {"800x480": (800, 480), "1280x720": (1280, 720), "720x1280": (720, 1280)}
MIN_TEXT = 14
MIN_TARGET = 48

_app: TableApp | None = None


def window() -> Any:
    EventLoop.ensure_window()
    return EventLoop.window


def app_for(session: Session) -> TableApp:
    """The one app of this process, playing `session` (built the first time)."""
    global _app
    win = window()
    if _app is None:
        _app = TableApp(session=session)
        root = _app.build()
        _app.root = root
        App._running_app = _app
        win.add_widget(root)
    else:
        close_dialogs()
        _app.use_session(session, screen="home")
    pump()
    return _app


def pump(frames: int = 3) -> None:
    """Draw `frames` frames (with the clock held, each moves it on by `FRAME_SECONDS`)."""
    for _ in range(frames):
        if _time.held_at is not None:
            _time.held_at += FRAME_SECONDS
        EventLoop.idle()


def lay_out(frames: int = 2) -> None:
    """Run `frames` turns of Kivy's loop as `pump` does (timers, input, kv rules, layout
    passes, label textures) but draw nothing: for checks that read only where widgets are
    and what they say. Drawing is most of a frame's time on a software GL; the next `pump`
    or `frame` draws what these turns changed."""
    for _ in range(frames):
        if _time.held_at is not None:
            _time.held_at += FRAME_SECONDS
        _turn()


def _turn() -> None:
    """One turn of Kivy's loop (`EventLoop.idle`) but the drawing."""
    Clock.tick()
    EventLoop.dispatch_input()
    Builder.sync()
    Clock.tick_draw()
    Builder.sync()


class _KivyTime:
    """The time Kivy's clock reads (installed as `Clock.time`): the real time, carried on
    from where a held clock left it; or, while the clock is held (`held_clock`), a moment
    that moves only when the test moves it (`wait`)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.offset = 0.0
        self.held_at: float | None = None

    def __call__(self) -> float:
        if self.held_at is not None:
            return self.held_at
        return float(self.real()) + self.offset


_time = _KivyTime(Clock.time)
Clock.time = _time  # an instance attribute: the clock reads its time through it
FRAME_SECONDS = 1 / 30
"""How far a held clock moves at each frame drawn (`pump`, `wait`): a frame of a slow
machine, so that a dialog's fade (a tenth of a second) is over within a tap's frames."""


@contextmanager
def held_clock() -> Iterator[None]:
    """Kivy's clock moves inside only as the test draws frames (`FRAME_SECONDS` each) and
    waits (`wait`): a timer fires, an animation moves, a finger counts as held when the test
    says so, however slow the machine. So a test can check that something has not happened
    yet: nothing happens while a loaded machine is slow to draw."""
    assert _time.held_at is None, "the clock is held already"
    max_fps, Clock._max_fps = Clock._max_fps, 0  # a capped clock would wait for time to pass
    _time.held_at = Clock._last_tick  # the last frame's time: what timers count from
    try:
        yield
    finally:
        now, _time.held_at = _time.held_at, None
        _time.offset = now - float(_time.real())  # the clock goes on from there, never back
        Clock._max_fps = max_fps


def clock_held() -> bool:
    return _time.held_at is not None


def wait(seconds: float) -> None:
    """Let Kivy's clock run for `seconds` (animations, hold timers): with the clock held
    (`held_clock`), move it on by `seconds`, a frame every `FRAME_SECONDS`, without waiting;
    else until `seconds` have passed on Kivy's clock since its last frame, drawing frames
    meanwhile (a timer set in that frame, a finger's hold, is due by then, however long
    the frames took)."""
    import time

    if _time.held_at is not None:
        end = _time.held_at + seconds
        while _time.held_at < end:
            _time.held_at = min(end, _time.held_at + FRAME_SECONDS)
            _turn()  # the frames between are not drawn: nothing reads them
        pump()
        return
    end = Clock.get_time() + seconds  # from the last frame's time, as timers count
    while Clock.get_time() < end:  # Kivy's own time: a slow frame is not a lost wait
        EventLoop.idle()
        time.sleep(0.01)
    pump()


def resize(size: tuple[int, int], draw: bool = True) -> None:
    win = window()
    win.size = size
    lay_out(3)
    if draw:
        pump(1)


def _centre(widget: Widget) -> tuple[float, float]:
    return widget.to_window(*widget.center)


def tap(widget: Widget) -> None:
    """A finger down and up on the middle of `widget`."""
    assert is_shown(widget), f"{widget!r} is not on screen"
    x, y = _centre(widget)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    lay_out(1)
    touch.touch_up()
    lay_out(2)
    pump(1)  # the frame that shows it


def scroll_to(widget: Widget) -> None:
    """Scroll the list holding `widget` until it shows, as a player's finger would."""
    scroll = _inside_scroll(widget)
    assert scroll is not None, f"{widget!r} is not in a scrolled list"
    scroll.scroll_to(widget, padding=0, animate=False)
    pump(2)


def hold(widget: Widget, seconds: float = 0.6) -> UnitTestTouch:
    """Press `widget` and keep the finger down for `seconds`; returns the touch to lift."""
    x, y = _centre(widget)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    wait(seconds)
    return touch


def release(touch: UnitTestTouch) -> None:
    touch.touch_up()
    lay_out(2)
    pump(1)


def type_on_pad(text: str, done: bool = True) -> None:
    """Tap `text` out on the open letters pad (or PIN pad), then Done unless told not to.

    Letters are tapped as the pad shows them; Shift is tapped first when the pad would
    give the other case, the accent key when the letter is not on the layout's keys.
    """
    from companion.ui.widgets import NamePad

    pad = dialogs()[-1]
    for char in text:
        if char == " ":
            tap(find(pad, action_key="key: "))
            continue
        if isinstance(pad, NamePad):
            if char.isalpha() and len(char.upper()) == 1 and pad.upper != char.isupper():
                tap(find(pad, action_key="shift"))
            key = f"key:{char.upper()}"
            if not any(getattr(w, "action_key", None) == key for w in walk_shown(pad)):
                tap(find(pad, action_key="accents"))  # an accented letter: its keys
            tap(find(pad, action_key=key))
        else:
            tap(find(pad, action_key=f"digit:{char}"))
    if done and isinstance(pad, NamePad):
        tap(find(pad, action_key="done"))


@dataclass(frozen=True)
class Frame:
    """What the window shows, read from its framebuffer in memory: RGB, bottom row first
    (as GL reads it), `width` x `height` pixels."""

    width: int
    height: int
    pixels: bytes

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        """The colour at window coordinates (`x`, `y`), y up as Kivy counts."""
        i = (y * self.width + x) * 3
        return self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]

    def colours(self, step: int = 5) -> int:
        """How many colours every `step`-th pixel shows: 1 for a blank frame, dozens as soon
        as any text is drawn (its anti-aliased edges)."""
        stride = 3 * step
        return len(set(zip(self.pixels[0::stride], self.pixels[1::stride],
                           self.pixels[2::stride], strict=False)))


def frame() -> Frame:
    """Draw the window now and read it back from the framebuffer, as a screenshot does, but
    in memory: the checks need no PNG (`screenshot` writes one when a person asks). The
    turns before it lay out what changed without drawing: one frame is drawn, the one read."""
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

    win = window()
    lay_out(2)
    win.dispatch("on_draw")
    width, height = (int(v) for v in win.size)
    pixels = glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE)
    assert len(pixels) == width * height * 3, f"{len(pixels)} bytes read for {width}x{height}"
    return Frame(width, height, bytes(pixels))


def screenshot(path: Path) -> Path:
    """Save what the window shows now as a PNG at `path` (exactly there)."""
    win = window()
    pump(2)
    win.dispatch("on_draw")
    path.parent.mkdir(parents=True, exist_ok=True)
    saved = win.screenshot(name=str(path.with_name(path.stem + "%(counter)s" + path.suffix)))
    Path(saved).replace(path)
    return path


def dialogs() -> list[ModalView]:
    return [w for w in window().children if isinstance(w, ModalView)]


def close_dialogs() -> None:
    """Dismiss every open dialog, without its fade; the next frame drawn shows none."""
    for view in dialogs():
        view.dismiss(animation=False)
    lay_out(3)


def walk_shown(root: Widget) -> Iterator[Widget]:
    """Every widget under `root` that is visible (opacity > 0, not collapsed)."""
    stack = list(root.children) if root is window() else [root]
    while stack:
        widget = stack.pop()
        if widget.opacity <= 0 or widget.width <= 0 or widget.height <= 0:
            continue
        yield widget
        stack.extend(widget.children)


def is_shown(widget: Widget) -> bool:
    node: Any = widget
    while node is not None and not isinstance(node, type(window())):
        if node.opacity <= 0 or node.width <= 0 or node.height <= 0:
            return False
        node = node.parent
    return node is not None


def find(root: Widget, **attrs: Any) -> Widget:
    """The one shown widget under `root` whose attributes equal `attrs`."""
    found = [w for w in walk_shown(root)
             if all(getattr(w, key, object()) == value for key, value in attrs.items())]
    assert len(found) == 1, f"{len(found)} shown widgets with {attrs}"
    return found[0]


def button(root: Widget, key: str) -> Widget:
    return find(root, action_key=key)


def texts(root: Widget) -> list[str]:
    return [w.text for w in walk_shown(root) if isinstance(w, Label | TextInput) and w.text]


def _inside_scroll(widget: Widget) -> ScrollView | None:
    node = widget.parent
    while node is not None and node is not widget.get_root_window():
        if isinstance(node, ScrollView):
            return node
        node = node.parent
    return None


def layout_problems(root: Widget) -> list[str]:
    """What breaks the quality bar on the screen under `root`, in words.

    Touch targets: every shown, enabled button (anything with `ButtonBehavior`: the
    steppers' minus and plus, the pools' buttons, the dialogs' keys) and every text input
    must be at least `MIN_TARGET` (48) px each way. The table's 7-inch panel shows 800x480
    pixels on a 154 mm x 86 mm active area, about 5.2 px a millimetre, so 48 px is a little
    over 9 mm, the least a finger hits without looking. A disabled button is exempt: it
    cannot be touched.
    """
    win = window()
    width, height = win.size
    problems: list[str] = []
    for widget in walk_shown(root):
        name = type(widget).__name__
        key = getattr(widget, "action_key", "") or getattr(widget, "text", "")[:30]
        scroll = _inside_scroll(widget)
        x0, y0 = widget.to_window(widget.x, widget.y)
        x1, y1 = widget.to_window(widget.right, widget.top)
        if scroll is None:
            if x0 < -1 or y0 < -1 or x1 > width + 1 or y1 > height + 1:
                problems.append(f"{name} {key!r} lies outside the window: "
                                f"({x0:.0f},{y0:.0f})-({x1:.0f},{y1:.0f}) in {width}x{height}")
        else:
            sx0, _ = scroll.to_window(scroll.x, scroll.y)
            sx1, _ = scroll.to_window(scroll.right, scroll.top)
            if x0 < sx0 - 1 or x1 > sx1 + 1:
                problems.append(f"{name} {key!r} sticks out sideways of its scroll view")
        if isinstance(widget, Label) and widget.text.strip():
            if widget.font_size < MIN_TEXT:
                problems.append(f"{name} {key!r}: text of {widget.font_size:.1f} px")
            tw, th = widget.texture_size
            if not widget.shorten and (tw > widget.width + 2 or th > widget.height + 2):
                problems.append(f"{name} {key!r}: text {tw:.0f}x{th:.0f} overflows "
                                f"{widget.width:.0f}x{widget.height:.0f}")
        if isinstance(widget, ButtonBehavior | TextInput) and not widget.disabled and (
                widget.width < MIN_TARGET - 0.5 or widget.height < MIN_TARGET - 0.5):
            problems.append(f"{name} {key!r}: touch target {widget.width:.0f}x"
                            f"{widget.height:.0f} px")
    return problems


def idle_ticks() -> int:
    """How many scheduled events Kivy's clock holds now (0 or so when idle)."""
    return len(Clock.get_events())


KIVY_HOUSEKEEPING = {"Cache._purge_by_timeout"}
"""Kivy's own once-a-second cache purge: runs whatever the app does."""


def repeating_events(settle: float = 1.0, patience: float = 20.0) -> list[str]:
    """The clock events that fire again and again (intervals, animations) besides Kivy's
    housekeeping: none while the app is idle. Looked at after `settle` seconds, then again
    every half second for up to `patience` more while some are left: an animation that
    ends by itself (a scroll bar's fade, half a second after a scroll) may still run on a
    loaded machine, but one that never ends is found."""
    wait(settle)
    found = _repeating()
    waited = 0.0
    while found and waited < patience:
        wait(0.5)
        waited += 0.5
        found = _repeating()
    return found


def _repeating() -> list[str]:
    found = []
    for event in Clock.get_events():
        if getattr(event, "loop", False):
            callback = event.get_callback()
            name = getattr(callback, "__qualname__", repr(callback))
            if name not in KIVY_HOUSEKEEPING:
                found.append(name)
    return found


def font_chars(path: str) -> set[str]:
    """The characters a TrueType font has a glyph for (its format-4 cmap)."""
    import struct

    data = Path(path).read_bytes()
    tables = {}
    for i in range(struct.unpack(">H", data[4:6])[0]):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        tables[tag] = offset
    cmap = tables[b"cmap"]
    chars: set[str] = set()
    for i in range(struct.unpack(">H", data[cmap + 2:cmap + 4])[0]):
        _, _, sub = struct.unpack(">HHI", data[cmap + 4 + 8 * i:cmap + 12 + 8 * i])
        at = cmap + sub
        if struct.unpack(">H", data[at:at + 2])[0] != 4:
            continue
        seg2 = struct.unpack(">H", data[at + 6:at + 8])[0]
        seg = seg2 // 2
        ends = struct.unpack(f">{seg}H", data[at + 14:at + 14 + seg2])
        starts = struct.unpack(f">{seg}H", data[at + 16 + seg2:at + 16 + 2 * seg2])
        deltas = struct.unpack(f">{seg}h", data[at + 16 + 2 * seg2:at + 16 + 3 * seg2])
        ranges_at = at + 16 + 3 * seg2
        ranges = struct.unpack(f">{seg}H", data[ranges_at:ranges_at + seg2])
        for s in range(seg):
            for code in range(starts[s], ends[s] + 1):
                if code == 0xFFFF:
                    continue
                if ranges[s] == 0:
                    glyph = (code + deltas[s]) & 0xFFFF
                else:
                    p = ranges_at + 2 * s + ranges[s] + 2 * (code - starts[s])
                    glyph = struct.unpack(">H", data[p:p + 2])[0]
                    glyph = (glyph + deltas[s]) & 0xFFFF if glyph else 0
                if glyph:
                    chars.add(chr(code))
    return chars


# -- in sight, and staying put ----------------------------------------------------------------

def control(name: str) -> Widget | None:
    """The shown control called `name`: its `action_key`, its kv id (in the rule of a
    screen, a dialog or a row that holds it), or else its text; None when none is shown."""
    shown = list(walk_shown(window()))
    for widget in shown:
        if isinstance(widget, ButtonBehavior) and getattr(widget, "action_key", None) == name:
            return widget
    for widget in shown:
        found = getattr(widget, "ids", {}).get(name)
        if found is not None and is_shown(found):
            return found  # type: ignore[no-any-return]
    for widget in shown:
        if isinstance(widget, ButtonBehavior) and getattr(widget, "text", None) == name:
            return widget
    return None


def out_of_sight(widget: Widget) -> str | None:
    """Why `widget` is not whole in sight as the screen is now (outside the window, or in a
    scroll view's part scrolled out of sight), in words; None when it is in sight."""
    width, height = window().size
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    if x0 < -1 or y0 < -1 or x1 > width + 1 or y1 > height + 1:
        return (f"lies outside the window: ({x0:.0f},{y0:.0f})-({x1:.0f},{y1:.0f}) in "
                f"{width}x{height}")
    node = widget.parent
    while node is not None and node is not window():
        if isinstance(node, ScrollView):
            sx0, sy0 = node.to_window(node.x, node.y)
            sx1, sy1 = node.to_window(node.right, node.top)
            if x0 < sx0 - 1 or y0 < sy0 - 1 or x1 > sx1 + 1 or y1 > sy1 + 1:
                return (f"needs scrolling: ({x0:.0f},{y0:.0f})-({x1:.0f},{y1:.0f}) in a "
                        f"scroll view showing ({sx0:.0f},{sy0:.0f})-({sx1:.0f},{sy1:.0f})")
        node = node.parent
    return None


def main_out_of_sight(names: tuple[str, ...]) -> list[str]:
    """For each of the main action controls `names` (see `control`), what keeps it out of
    sight as the screen is now, in words."""
    problems = []
    for name in names:
        widget = control(name)
        why = "is not shown" if widget is None else out_of_sight(widget)
        if why is not None:
            problems.append(f"main action {name!r} {why}")
    return problems


Places = dict[int, tuple[Widget, tuple[float, float, float, float]]]


def button_places() -> Places:
    """Every shown button in the window (dialogs too), with its window rectangle."""
    places: Places = {}
    for widget in walk_shown(window()):
        if isinstance(widget, ButtonBehavior):
            x0, y0 = widget.to_window(widget.x, widget.y)
            places[id(widget)] = (widget, (x0, y0, widget.width, widget.height))
    return places


def _moved(before: Places, what: str) -> list[str]:
    after = button_places()
    problems = []
    for key, (widget, was) in before.items():
        if key not in after:
            continue
        now = after[key][1]
        if any(abs(a - b) > 1 for a, b in zip(was, now, strict=True)):
            name = getattr(widget, "action_key", "") or getattr(widget, "text", "")[:30]
            problems.append(f"{type(widget).__name__} {name!r} moved after {what}: "
                            f"({was[0]:.0f},{was[1]:.0f}) {was[2]:.0f}x{was[3]:.0f} -> "
                            f"({now[0]:.0f},{now[1]:.0f}) {now[2]:.0f}x{now[3]:.0f}")
    return problems


def shown_steppers() -> list[Any]:
    """The shown, enabled steppers in the window, top to bottom."""
    from companion.ui.widgets import Stepper

    found = [w for w in walk_shown(window()) if isinstance(w, Stepper) and not w.disabled]
    return sorted(found, key=lambda w: -w.to_window(w.x, w.top)[1])


def stepper_moves(taps: int = 5, tapped: list[str] | None = None) -> list[str]:
    """Tap every shown, enabled stepper's plus `taps` times, its minus twice as often, and
    its plus again (each through the real button's `on_release`), and say which buttons
    moved from where they were before the first tap; the first move of each is enough.
    `tapped` gets a line per tap made ("Tokens in hand +")."""
    steppers = shown_steppers()
    problems: list[str] = []
    for stepper in steppers:
        label = stepper.label or stepper.key or "a stepper"
        before = button_places()
        found: list[str] = []
        for sign, count in (("plus", taps), ("minus", 2 * taps), ("plus", taps)):
            for _ in range(count):
                if found or not is_shown(stepper):
                    break
                stepper.ids[sign].dispatch("on_release")
                lay_out(2)
                what = f"{label} {'+' if sign == 'plus' else '-'}"
                if tapped is not None:
                    tapped.append(what)
                found = _moved(before, repr(what))
        problems += found
        close_dialogs()
    return problems


def repeat_moves(names: tuple[str, ...], taps: int = 8,
                 tapped: list[str] | None = None) -> list[str]:
    """Tap each control of `names` (see `control`) again and again through its
    `on_release`, while it is shown and enabled (up to `taps` times), and say which buttons
    moved from where they were before the first tap. `tapped` gets a line per tap."""
    problems: list[str] = []
    for name in names:
        widget = control(name)
        if widget is None:
            problems.append(f"{name!r} is not shown")
            continue
        before = button_places()
        for _ in range(taps):
            if not is_shown(widget) or widget.disabled:
                break
            widget.dispatch("on_release")
            lay_out(2)
            if tapped is not None:
                tapped.append(name)
            found = _moved(before, f"{name!r} tapped")
            if found:
                problems += found
                break
        close_dialogs()
    return problems


# -- glyphs ------------------------------------------------------------------------------------

_FONT_CHARS: dict[str, set[str]] = {}


def _font_file(widget: Label) -> str | None:
    """The font file `widget` draws with: a registered family (Roboto) in its face (bold,
    italic), or a file named directly; None when it cannot be told."""
    from kivy.core.text import LabelBase
    from kivy.resources import resource_find

    name = str(widget.font_name)
    faces = LabelBase._fonts.get(name)
    if faces:
        return str(faces[2 * bool(widget.bold) + bool(widget.italic)])
    for candidate in (name, f"{name}.ttf"):
        found = resource_find(candidate)
        if found and found.lower().endswith(".ttf"):
            return str(found)
    return None


def glyph_problems(root: Widget) -> list[str]:
    """Every shown label under `root` whose font has no glyph for a character of its text
    (drawn as an empty box), in words. Line breaks, tabs and markup need none."""
    problems: list[str] = []
    for widget in walk_shown(root):
        if not isinstance(widget, Label) or not widget.text.strip():
            continue
        path = _font_file(widget)
        if path is None:
            continue
        if path not in _FONT_CHARS:
            _FONT_CHARS[path] = font_chars(path)
        missing = sorted({ch for ch in widget.text if ch not in "\n\t\r"}
                         - _FONT_CHARS[path])
        if missing:
            key = getattr(widget, "action_key", "") or widget.text[:30]
            codes = ", ".join(f"U+{ord(ch):04X}" for ch in missing)
            problems.append(f"{type(widget).__name__} {key!r}: no glyph in "
                            f"{Path(path).name} for {codes}")
    return problems


_WORD_WIDTHS: dict[tuple[str, float, bool, bool, str], float] = {}


def broken_words(root: Widget) -> list[str]:
    """Every shown wrapping label under `root` with a word wider than its line (Kivy then
    breaks the word between two letters: "Kombinati-onen"), in words. A label that is
    shortened ("Bart...nder") or in markup is left out."""
    from kivy.core.text import Label as CoreLabel

    problems: list[str] = []
    for widget in walk_shown(root):
        if (not isinstance(widget, Label) or not widget.text.strip() or widget.shorten
                or widget.markup or widget.text_size[0] is None):
            continue
        room = widget.text_size[0] - 2 * widget.padding[0]
        font = (str(widget.font_name), float(widget.font_size), bool(widget.bold),
                bool(widget.italic))
        for word in {w for line in widget.text.split("\n") for w in line.split(" ") if w}:
            key = (*font, word)
            if key not in _WORD_WIDTHS:
                core = CoreLabel(font_name=font[0], font_size=font[1], bold=font[2],
                                 italic=font[3])
                _WORD_WIDTHS[key] = float(core.get_extents(word)[0])
            if _WORD_WIDTHS[key] > room + 1:
                name = getattr(widget, "action_key", "") or widget.text[:30]
                problems.append(f"{type(widget).__name__} {name!r}: the word {word!r} "
                                f"({_WORD_WIDTHS[key]:.0f} px) is broken on a line of "
                                f"{room:.0f} px")
                break
    return problems


def dropped_lines(root: Widget) -> list[str]:
    """Every shown label under `root` whose box is too short for its text (a `text_size`
    with a height): Kivy lays out the lines that fit and drops the rest without a sign
    ("Kostet 5" over a dropped "Münzen"), in words. A label whose lines are limited on
    purpose (`max_lines`, the table's reminders) or that is shortened (`cut_words`) is
    left out."""
    return _not_drawn_whole(
        root, "drawn without its last lines, as",
        lambda w: not (w.shorten or w.markup or w.max_lines or w.text_size[1] is None
                       or not w.text.strip()))


def cut_words(root: Widget) -> list[str]:
    """Every shown label under `root` that Kivy draws shortened in the middle of a word or
    a sentence ("54 pi...ateau"): its `shorten` dropped letters for want of room, in words.
    A label whose text is drawn whole (every word, in order) is fine, and so is a name
    alone (one word, "Bart...nder" on a seat's button), shortened by design."""
    return _not_drawn_whole(root, "drawn cut as",
                            lambda w: w.shorten and len(w.text.split()) >= 2)


def _not_drawn_whole(root: Widget, said: str, checked: Callable[[Label], bool]) -> list[str]:
    """The shown labels under `root` that `checked` picks and that Kivy does not draw
    whole (every word of their text, in order), each as "<kind> <name>: <said> <drawn>"."""
    problems: list[str] = []
    for widget in walk_shown(root):
        if not isinstance(widget, Label) or not checked(widget):
            continue
        widget.texture_update()
        lines = getattr(widget._label, "_cached_lines", None) or []
        drawn = " ".join(w.text for line in lines for w in line.words)
        if drawn.split() != widget.text.split():
            name = getattr(widget, "action_key", "") or widget.text[:30]
            problems.append(f"{type(widget).__name__} {name!r}: {said} {drawn[:60]!r}")
    return problems
