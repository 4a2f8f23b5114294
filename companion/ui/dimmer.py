"""Dimming the screen when nobody has touched it for a while.

After `after` seconds without a touch (or a press of the die button) the screen darkens:
the backlight goes down to `brightness` percent where the panel allows it, and a dark veil
covers the picture in any case. The next touch only wakes the screen (it does not also
press whatever lies under the finger); the die button wakes it and rolls. Idle means idle:
one scheduled wake-up check, moved on at each touch, and no redraw while dimmed.

The backlight (`Backlight`: what the dimmer needs of one, e.g. `hardware.backlight`'s) is
handed over by the composition root, which finds it; None: the veil alone dims.
"""

from __future__ import annotations

from typing import Any, Protocol

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import Color, Rectangle
from kivy.uix.widget import Widget


class Backlight(Protocol):
    """A panel's backlight: its level now, out of `maximum`, and a way to set it."""

    @property
    def maximum(self) -> int: ...

    @property
    def level(self) -> int: ...

    def set_percent(self, percent: int) -> object: ...


class Veil(Widget):  # type: ignore[misc]  # Kivy ships no type information
    """A dark cover over the whole window that swallows the touch that wakes the screen."""

    def __init__(self, dimmer: IdleDimmer, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.dimmer = dimmer
        with self.canvas:
            Color(0, 0, 0, 0.85)
            self.rect = Rectangle(pos=(0, 0), size=Window.size)

    def on_touch_down(self, touch: Any) -> bool:
        self.dimmer.wake()
        return True  # the waking touch goes no further


class IdleDimmer:
    """Darkens the window after `after` seconds without a touch; 0 turns it off."""

    def __init__(self, after: float, brightness: int = 20,
                 backlight: Backlight | None = None) -> None:
        self.after = after
        self.brightness = brightness
        self.backlight = backlight
        self._bright_level = backlight.level if backlight is not None else None
        self.veil: Veil | None = None
        self._timer = Clock.create_trigger(self._dim, after) if after > 0 else None
        if self._timer is not None:
            Window.bind(on_touch_down=self._touched)
            self._timer()

    @property
    def dimmed(self) -> bool:
        return self.veil is not None

    def wake(self) -> None:
        """Light the screen again and start counting anew."""
        if self.veil is not None:
            Window.remove_widget(self.veil)
            self.veil = None
            if self.backlight is not None and self._bright_level is not None:
                self.backlight.set_percent(
                    round(100 * self._bright_level / self.backlight.maximum))
        if self._timer is not None:
            self._timer.cancel()
            self._timer()

    def _touched(self, _window: Any, _touch: Any) -> bool:
        if self.veil is None and self._timer is not None:
            self._timer.cancel()
            self._timer()
        return False  # a touch on a lit screen goes on to the widgets

    def _dim(self, _dt: float) -> None:
        if self.veil is not None:
            return
        if self.backlight is not None:
            self._bright_level = self.backlight.level
            self.backlight.set_percent(self.brightness)
        self.veil = Veil(self)
        Window.add_widget(self.veil)
