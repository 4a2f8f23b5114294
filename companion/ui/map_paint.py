"""What the map draws with: the drawing primitives of its symbols, and `MapSymbol`, how an
expansion's view adds a symbol of its own (`ExpansionView.map_symbols`).

A symbol is painted by a function of (group, cx, cy, s): it draws into the Kivy
`InstructionGroup` centred on (cx, cy), in a square of half-side `s`, with the primitives
below (filled polygons as fans, outlines, discs, rings, shapes given in a -1..1 box).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kivy.graphics import Color, Ellipse, InstructionGroup, Line, Mesh

if TYPE_CHECKING:
    from companion.rules import Board, RegionState

RGBA = tuple[float, float, float, float]

BORDER_COLOUR: RGBA = (0.16, 0.14, 0.12, 1)

Painter = Callable[[InstructionGroup, float, float, float], None]
"""Paints a symbol: (group, cx, cy, s), centred on (cx, cy) in a square of half-side s."""


@dataclass(frozen=True)
class MapSymbol:
    """A symbol an expansion's view draws in a region, among the map's own."""

    key: str
    """Its key (in `map_widget.SYMBOLS` and the legend)."""
    name: str
    """Its name in the legend."""
    after: str
    """The key of the symbol it is drawn after (its place in the drawing order)."""
    count: Callable[[Board, int, RegionState | None, Mapping[str, int]], int]
    """How many the region shows: (board, region id, its state (None: the bare printed
    board), the pieces the views keep off the markers: symbol key -> the region it lies in
    (the map's `pieces`, from `ExpansionView.map_pieces`))."""
    paint: Painter


def fan(group: InstructionGroup, points: Sequence[tuple[float, float]],
         centre: tuple[float, float] | None = None) -> None:
    """Fill a polygon that is star-shaped from `centre` (convex: any inner point) as a fan."""
    if len(points) < 3:
        return
    cx, cy = centre if centre is not None else (
        sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
    )
    vertices = [cx, cy, 0.0, 0.0]
    for x, y in [*points, points[0]]:
        vertices += [x, y, 0.0, 0.0]
    group.add(Mesh(vertices=vertices, indices=list(range(len(vertices) // 4)),
                   mode="triangle_fan"))


def outline(group: InstructionGroup, points: Sequence[tuple[float, float]], width: float,
             rgba: RGBA = BORDER_COLOUR) -> None:
    group.add(Color(*rgba))
    group.add(Line(points=[c for p in points for c in p], close=True, width=width,
                   joint="round"))


def disc(group: InstructionGroup, cx: float, cy: float, r: float, rgba: RGBA) -> None:
    group.add(Color(*rgba))
    group.add(Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r)))


def ring(group: InstructionGroup, cx: float, cy: float, r: float, width: float,
          rgba: RGBA) -> None:
    group.add(Color(*rgba))
    group.add(Line(circle=(cx, cy, r), width=width))


def shape(group: InstructionGroup, unit: Sequence[tuple[float, float]], cx: float, cy: float,
           s: float, fill: RGBA, line: float = 1.0) -> None:
    """A polygon given in a -1..1 box (y up), filled and outlined, scaled by `s` around (cx, cy)."""
    points = [(cx + x * s, cy + y * s) for x, y in unit]
    group.add(Color(*fill))
    fan(group, points, (cx, cy))
    outline(group, points, line)
