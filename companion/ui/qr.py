"""A QR code on the screen: the modules of a text drawn as a Kivy texture.

Concept: `modules` asks segno (a pure-Python QR library) for the code of a text, quiet
zone included, as rows of dark (True) and light modules, top row first. `QRCode` turns
them into a texture of one texel a module (black on white) and shows it magnified with
nearest filtering by a whole number of screen pixels a module, at whole-pixel positions,
so every module is a sharp square of the same size: what a phone's camera reads best.

Invariants:
- the code is built at error correction L (raised when that costs no size: segno's
  ``boost_error``): the screen does not smudge, and a smaller code has bigger modules;
- the quiet zone is `QUIET` modules on each side, light, as the standard asks;
- the widget draws nothing for an empty text, or when it has less than one pixel a
  module; it never draws anything but the code (no scaling blur, no partial module);
- the texture is made again only when the text changes; a move or a resize only moves
  and scales the one rectangle (updated in place).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import segno
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.widget import Widget

QUIET = 4
"""Light modules round the code on each side."""

DARK, LIGHT = 0, 255


@lru_cache(maxsize=4)
def modules(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of `text` with its quiet zone: rows from the top, True for dark."""
    code = segno.make(text, error="l", boost_error=True)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix_iter(scale=1, border=QUIET))


def texture_of(rows: tuple[tuple[bool, ...], ...]) -> Texture:
    """One RGBA texel a module; a texture's first row is its bottom one, so the rows go in
    from the last."""
    side = len(rows)
    texture = Texture.create(size=(side, side), colorfmt="rgba")
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    pixels = bytearray()
    for row in reversed(rows):
        for dark in row:
            level = DARK if dark else LIGHT
            pixels += bytes((level, level, level, 255))
    texture.blit_buffer(bytes(pixels), colorfmt="rgba", bufferfmt="ubyte")
    return texture


class QRCode(Widget):  # type: ignore[misc]
    """The QR code of `text`, as big as fits in whole pixels a module, centred."""

    text = StringProperty("")
    module_px = NumericProperty(0)
    """Screen pixels a module is drawn with (0 when nothing is drawn)."""
    side = NumericProperty(0)
    """Modules a side, quiet zone included (0 without a text)."""

    def __init__(self, **kwargs: Any) -> None:
        self._texture: Texture | None = None
        self._texture_text = ""
        self._trigger = Clock.create_trigger(self._redraw, -1)
        super().__init__(**kwargs)
        with self.canvas:
            self._colour = Color(1, 1, 1, 0)
            self._rect = Rectangle(pos=self.pos, size=(0, 0))
        for name in ("text", "pos", "size"):
            self.fbind(name, self._trigger)

    def _redraw(self, *_args: Any) -> None:
        if self.text != self._texture_text:
            self._texture_text = self.text
            self._texture = texture_of(modules(self.text)) if self.text else None
            self.side = self._texture.width if self._texture is not None else 0
        scale = int(min(self.width, self.height) // self.side) if self.side else 0
        if self._texture is None or scale < 1:
            self.module_px = 0
            self._colour.a = 0
            self._rect.size = (0, 0)
            return
        drawn = scale * int(self.side)
        self.module_px = scale
        self._rect.texture = self._texture
        self._rect.pos = (round(self.center_x - drawn / 2), round(self.center_y - drawn / 2))
        self._rect.size = (drawn, drawn)
        self._colour.a = 1
