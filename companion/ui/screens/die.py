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
from kivy.graphics import (
    Color,
    Ellipse,
    InstructionGroup,
    Line,
    PopMatrix,
    PushMatrix,
    Rotate,
    RoundedRectangle,
)
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

    A blank face (0) is drawn blank, as on the real reinforcement die. Its instructions are
    made once and set in place: a new angle turns them, a new face moves its three pips
    (only those the face uses are in the canvas), a new position or size reshapes the
    body. Drawn only when the face, the angle, the position or the size change.
    """

    face = NumericProperty(0)
    angle = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self._trigger = Clock.create_trigger(self._redraw, -1)
        self._shape: tuple[float, float, float] | None = None
        super().__init__(**kwargs)
        with self.canvas:
            PushMatrix()
            self._turn = Rotate(angle=0, origin=(0, 0))
            Color(0.97, 0.95, 0.88, 1)
            self._body = RoundedRectangle(pos=(0, 0), size=(0, 0), radius=[0])
            Color(0.12, 0.12, 0.12, 1)
            self._edge = Line(points=[], width=2)
            Color(0.15, 0.15, 0.15, 1)
            self._spots = InstructionGroup()
            PopMatrix()
        self._pips = [Ellipse(pos=(0, 0), size=(0, 0)) for _ in range(3)]
        for name in ("face", "angle", "pos", "size"):
            self.fbind(name, self._trigger)

    def _redraw(self, *_args: Any) -> None:
        side = max(0.0, min(self.width, self.height) * 0.85)
        cx, cy = self.center
        if side < 4:
            side = 0.0
        shape = (side, cx, cy)
        if shape != self._shape:
            self._shape = shape
            x, y = cx - side / 2, cy - side / 2
            self._body.pos, self._body.size = (x, y), (side, side)
            self._body.radius = [side * 0.14]
            if side:
                self._edge.rounded_rectangle = (x, y, side, side, side * 0.14)
            else:
                self._edge.points = []
        self._turn.origin = (cx, cy)
        self._turn.angle = self.angle
        x, y, pip = cx - side / 2, cy - side / 2, side * 0.18
        spots = PIPS.get(int(self.face), ()) if side else ()
        for (u, v), ellipse in zip(spots, self._pips, strict=False):
            ellipse.pos = (x + u * side - pip / 2, y + v * side - pip / 2)
            ellipse.size = (pip, pip)
        shown = self._pips[:len(spots)]
        # a pip the face does not use is not in the canvas
        if [i for i in self._spots.children if isinstance(i, Ellipse)] != shown:
            self._spots.clear()
            for ellipse in shown:
                self._spots.add(ellipse)


class DieScreen(PresenterScreen):
    tumble = NumericProperty(0)

    def __init__(self, presenter: Any = None, **kwargs: Any) -> None:
        super().__init__(presenter, **kwargs)
        # one tumble, made once and started again for each roll: an animation made per
        # roll would leave a reference cycle (its bound callbacks) for every roll
        self._animation = Animation(angle=720, duration=TUMBLE_SECONDS, t="out_cubic")
        self._animation.bind(on_progress=self._progress, on_complete=self._landed)
        if presenter is not None:
            presenter.fbind("rolls", self._rolled)

    def _rolled(self, presenter: Any, _rolls: float) -> None:
        die = self.ids.die
        self._animation.cancel(die)  # a tumble still going lands first
        die.angle = 0
        self._animation.start(die)

    def _progress(self, _animation: Any, die: DieFace, progress: float) -> None:
        if progress < 0.8:
            die.face = _SHOWN_WHILE_TUMBLING[math.floor(die.angle / 90) % 4]
        else:
            die.face = self.p.face

    def _landed(self, _animation: Any, die: DieFace) -> None:
        die.angle = 0
        die.face = self.p.face
        self.p.land()
