"""Helpers for the headless UI tests: one real Kivy window per process, driven by touches.

Kivy's Window is a singleton, so every UI test module shares one `TableApp` (`ui_app`),
built without `App.run()`: its root goes into the window and frames are pumped by hand
(`pump`). Touches are real `MotionEvent`s sent through the event loop (`tap`, `hold`), at
the centre of the widget in window coordinates, so they reach the widget only if it is
really there and on top.

`layout_problems` is the quality bar as code: no widget outside the window, no text under
14 px, no text overflowing its widget, every button at least 48 px each way.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
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

from kivy.app import App
from kivy.base import EventLoop
from kivy.clock import Clock
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
    for _ in range(frames):
        EventLoop.idle()


def wait(seconds: float) -> None:
    """Let Kivy's clock run for `seconds` of real time (animations, hold timers)."""
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        EventLoop.idle()
        time.sleep(0.01)
    pump()


def resize(size: tuple[int, int]) -> None:
    win = window()
    win.size = size
    pump(4)


def _centre(widget: Widget) -> tuple[float, float]:
    return widget.to_window(*widget.center)


def tap(widget: Widget) -> None:
    """A finger down and up on the middle of `widget`."""
    assert is_shown(widget), f"{widget!r} is not on screen"
    x, y = _centre(widget)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    pump(1)
    touch.touch_up()
    pump(3)


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
    pump(3)


def type_on_pad(text: str, done: bool = True) -> None:
    """Tap `text` out on the open letters pad (or PIN pad), then Done unless told not to.

    Letters are tapped as the pad shows them; Shift is tapped first when the pad would
    give the other case.
    """
    from companion.ui.widgets import NamePad

    pad = dialogs()[-1]
    for char in text:
        if char == " ":
            tap(find(pad, action_key="key: "))
            continue
        if isinstance(pad, NamePad):
            if char.isalpha() and pad.upper != char.isupper():
                tap(find(pad, action_key="shift"))
            tap(find(pad, action_key=f"key:{char.upper()}"))
        else:
            tap(find(pad, action_key=f"digit:{char}"))
    if done and isinstance(pad, NamePad):
        tap(find(pad, action_key="done"))


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
    for view in dialogs():
        view.dismiss(animation=False)
    pump()


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
    """What breaks the quality bar on the screen under `root`, in words."""
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


def repeating_events(settle: float = 1.0) -> list[str]:
    """After `settle` seconds, the clock events that fire again and again (intervals,
    animations) besides Kivy's housekeeping: none while the app is idle."""
    wait(settle)
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
