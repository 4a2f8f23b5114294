"""The die: a large drawn die that tumbles for under a second, then says what it means.

The face is already saved when the tumble starts (the presenter rolled through the
session); the tumble is an `Animation` that ends by itself, so the screen is idle again
right after.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, PopMatrix, PushMatrix, Rotate, RoundedRectangle
from kivy.properties import NumericProperty
from kivy.uix.widget import Widget

from companion.ui.screens.base import PresenterScreen

TUMBLE_SECONDS = 0.9
_SHOWN_WHILE_TUMBLING = (1, 3, 0, 2)

PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.27, 0.73), (0.73, 0.27)),
    3: ((0.25, 0.75), (0.5, 0.5), (0.75, 0.25)),
}


class DieFace(Widget):  # type: ignore[misc]
    """A die drawn square in the middle of the widget: `face` pips, turned by `angle`.

    A blank face (0) is drawn blank, as on the real reinforcement die. Drawn only when
    the face, the angle, the position or the size change.
    """

    face = NumericProperty(0)
    angle = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self._trigger = Clock.create_trigger(self._redraw, -1)
        super().__init__(**kwargs)
        for name in ("face", "angle", "pos", "size"):
            self.fbind(name, self._trigger)

    def _redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        side = max(0.0, min(self.width, self.height) * 0.85)
        if side < 4:
            return
        cx, cy = self.center
        x, y = cx - side / 2, cy - side / 2
        pip = side * 0.18
        with self.canvas:
            PushMatrix()
            Rotate(angle=self.angle, origin=(cx, cy))
            Color(0.97, 0.95, 0.88, 1)
            RoundedRectangle(pos=(x, y), size=(side, side), radius=[side * 0.14])
            Color(0.12, 0.12, 0.12, 1)
            Line(rounded_rectangle=(x, y, side, side, side * 0.14), width=2)
            Color(0.15, 0.15, 0.15, 1)
            for u, v in PIPS.get(int(self.face), ()):
                Ellipse(pos=(x + u * side - pip / 2, y + v * side - pip / 2), size=(pip, pip))
            PopMatrix()


class DieScreen(PresenterScreen):
    tumble = NumericProperty(0)

    def __init__(self, presenter: Any = None, **kwargs: Any) -> None:
        super().__init__(presenter, **kwargs)
        self._animation: Animation | None = None
        if presenter is not None:
            presenter.fbind("rolls", self._rolled)

    def _rolled(self, presenter: Any, _rolls: float) -> None:
        die = self.ids.die
        if self._animation is not None:
            self._animation.cancel(die)
        die.angle = 0
        animation = Animation(angle=720, duration=TUMBLE_SECONDS, t="out_cubic")
        animation.bind(on_progress=self._progress, on_complete=self._landed)
        self._animation = animation
        animation.start(die)

    def _progress(self, _animation: Any, die: DieFace, progress: float) -> None:
        if progress < 0.8:
            die.face = _SHOWN_WHILE_TUMBLING[math.floor(die.angle / 90) % 4]
        else:
            die.face = self.p.face

    def _landed(self, _animation: Any, die: DieFace) -> None:
        self._animation = None
        die.angle = 0
        die.face = self.p.face
        self.p.land()
