r"""The results of a game as the game end and a past game's screen both show them: the
standings (`ResultList` of `ResultRow`\ s, updated in place) and the coins chart
(`CoinsChart`). Their layout is in the shared widgets' kv file, so either screen may be
built first.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.ui import palette
from companion.ui.widgets import FONT_MIN, Pool


class ResultRow(BoxLayout):  # type: ignore[misc]
    """A player's place, name and coins; under the name, what else decided (`detail`: the
    tokens on the board of a tie-break), in smaller words."""

    rank = StringProperty("")
    name = StringProperty("")
    coins = StringProperty("")
    detail = StringProperty("")
    rgba = ObjectProperty(palette.FALLBACK)
    ink = ObjectProperty(palette.TEXT)


class ResultList(BoxLayout):  # type: ignore[misc]
    """The revealed totals, or the final standings once decided; the rows are updated in
    place (a `Pool`), one built only when more are shown than ever before."""

    revealed = ObjectProperty([])
    standings = ObjectProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self._pool: Pool[ResultRow] = Pool(self, row=ResultRow)
        super().__init__(**kwargs)
        self.fbind("revealed", self._rebuild)
        self.fbind("standings", self._rebuild)

    def _rebuild(self, *_args: Any) -> None:
        rows = self.standings or self.revealed
        for widget, row in zip(self._pool.show(["row"] * len(rows)), rows, strict=True):
            widget.rank = row.get("rank", "")
            widget.name = row["name"]
            widget.coins = row["coins"]
            widget.detail = row.get("detail", "")
            widget.rgba = row["rgba"]
            widget.ink = row["ink"]


class CoinsChart(Widget):  # type: ignore[misc]
    """Each player's coins at the end of every turn, as lines in their colours.

    Drawn with Kivy graphics when its data, position or size change; never otherwise.
    """

    series = ObjectProperty([])
    turns = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self._trigger = Clock.create_trigger(self._redraw, -1)
        super().__init__(**kwargs)
        for name in ("series", "turns", "pos", "size"):
            self.fbind(name, self._trigger)

    def _text(self, text: str) -> Any:
        label = CoreLabel(text=text, font_size=FONT_MIN, color=palette.MUTED)
        label.refresh()
        return label.texture

    def _redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        turns = int(self.turns)
        if not self.series or turns <= 0 or self.width < dp(80) or self.height < dp(80):
            return
        top = max(max(s["values"]) for s in self.series) or 1
        step = next(n for n in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10**9)
                    if top / n <= 6)
        top = ((top + step - 1) // step) * step
        left_pad, bottom_pad, right_pad, top_pad = dp(40), dp(28), dp(10), dp(10)
        x0, y0 = self.x + left_pad, self.y + bottom_pad
        w = self.width - left_pad - right_pad
        h = self.height - bottom_pad - top_pad
        with self.canvas:
            Color(*palette.PANEL)
            Rectangle(pos=(x0, y0), size=(w, h))
            Color(*palette.MUTED[:3], 0.35)
            for value in range(0, top + 1, step):
                y = y0 + h * value / top
                Line(points=[x0, y, x0 + w, y], width=1)
            for value in (0, top // 2, top):
                texture = self._text(str(value))
                Color(1, 1, 1, 1)
                y = y0 + h * value / top
                Rectangle(texture=texture, size=texture.size,
                          pos=(x0 - texture.width - dp(4), y - texture.height / 2))
            for turn in range(turns + 1):
                if turn % (2 if turns > 10 else 1):
                    continue
                texture = self._text(str(turn))
                Color(1, 1, 1, 1)
                x = x0 + w * turn / turns
                Rectangle(texture=texture, size=texture.size,
                          pos=(x - texture.width / 2, self.y + dp(4)))
            for series in self.series:
                values = series["values"]
                points: list[float] = []
                for turn, value in enumerate(values):
                    points += [x0 + w * turn / turns, y0 + h * value / top]
                Color(*palette.BACKGROUND)
                Line(points=points, width=dp(3.5))
                Color(*series["rgba"])
                Line(points=points, width=dp(2.2))
