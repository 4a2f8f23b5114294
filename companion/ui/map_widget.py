"""`BoardMap`: the printed board drawn so the players recognise it, and tapped to pick a region.

Concept: each region is the cell `companion.ui.map_geometry` grows around its printed
position, filled with its terrain's colour and outlined. On top, from what `regions`
(a `BoardState`) says lies there: a ring just inside the cell and a disc with the token
count in the holder's colour (a race in decline: a pale ring and a grey disc ringed in the
player's colour), a Lost Tribe token, and the printed features and the markers as small
drawn symbols (no emoji, no font glyphs; `legend()` names them and `SymbolIcon` draws one
for a legend), among them those the expansions' views add (`ExpansionView.map_symbols`,
each placed after one of the others in the drawing order and counting itself in a region),
and the pieces a view keeps off the regions' markers, each in the region `pieces` names
for its symbol. The region's id is written at its label anchor in Kivy's bundled Roboto.

Invariants:

- the widget draws only when a property, its position or its size changes (one
  `Clock.create_trigger` per change burst; no interval, no animation): idle is idle;
- the canvas is built whole only for a new board, position, size, turn, margin or text
  size (a layout pass that squashes the widget to nothing for a moment only hides the
  drawing, which comes back as it was), and what it replaces is let go of at once, freed
  by reference counts (`companion.ui.drawing`), never left for a full garbage
  collection: the static layer (the cells filled with their terrain, their outlines, the
  board's edge) and, per region, a slot in each layer that changes in play (`map_layers`): the
  cell's colour (dimmed or brightened by `highlight`, set in place), the holder's ring, the
  selection, the dashed outline of `differs`, and the contents (id, disc and token count,
  symbols, badge). Any other change repaints only the slots of the regions whose drawn
  state changed; what is on screen is what a map built afresh on the same properties
  draws, in the same order (`last_redrawn`, `rebuilds` and `drawn` let tests check it);
- the layers under the selection and those over it are drawn into two textures the size of
  the widget (each drawn again only when something in it changes), so a frame draws the
  map as two rectangles around the selection: a tap that moves the selection redraws no
  cell, outline or text, and when nothing else changed works out no other layer;
- texts are rendered once per text, size and colour (`_text_texture`), so a token count
  shown again reuses its texture;
- the board keeps its aspect ratio (letterboxed in the widget, see `map_geometry.fit`);
- a tap (touch down and up in the same cell) dispatches `on_region_tap(region_id)`; a touch
  outside every cell is not consumed; a touch that lands in a cell is the map's alone (an
  exclusive grab): its moves and its lift are not walked down the rest of the screen (the
  panel beside the map, its scrolling list), which has nothing to do with them;
- no game rule lives here: the screen decides what `highlight`, `selected`, `differs` and
  `badges` mean (the map screen: where the sensor grid disagrees with the record; the
  calibration screen: which sensor each region got).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import (
    Callback,
    ClearBuffers,
    ClearColor,
    Color,
    Ellipse,
    InstructionGroup,
    Line,
    Mesh,
    Rectangle,
    Translate,
)
from kivy.graphics.opengl import (
    GL_ONE,
    GL_ONE_MINUS_SRC_ALPHA,
    GL_SRC_ALPHA,
    glBlendFunc,
    glBlendFuncSeparate,
)
from kivy.metrics import sp
from kivy.properties import (
    BooleanProperty,
    DictProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.i18n import N_, _, pgettext
from companion.rules import (
    Board,
    BoardState,
    Feature,
    Markers,
    RegionState,
    Terrain,
    known_terrains,
)
from companion.rules import names as rule_names
from companion.ui import drawing, names
from companion.ui import map_geometry as mg
from companion.ui.map_layers import RegionColours, RegionGroups
from companion.ui.map_paint import BORDER_COLOUR, RGBA, MapSymbol, Painter
from companion.ui.map_paint import disc as _disc
from companion.ui.map_paint import fan as _fan
from companion.ui.map_paint import outline as _outline
from companion.ui.map_paint import ring as _ring
from companion.ui.map_paint import shape as _shape
from companion.ui.presenters.expansions import registered

_Contents = tuple[RegionState | None, tuple[str, ...], str | None, RGBA | None]
"""What a region's contents are drawn from: its state, the symbols of the pieces `pieces`
puts there (sorted), its badge and its holder's colour (None: no holder)."""

TERRAIN_COLOURS: dict[Terrain, RGBA] = {
    Terrain.FARMLAND: (0.91, 0.85, 0.55, 1),
    Terrain.HILL: (0.66, 0.79, 0.44, 1),
    Terrain.FOREST: (0.30, 0.55, 0.33, 1),
    Terrain.SWAMP: (0.58, 0.52, 0.36, 1),
    Terrain.MOUNTAIN: (0.73, 0.72, 0.71, 1),
    Terrain.SEA: (0.27, 0.52, 0.80, 1),
    Terrain.LAKE: (0.45, 0.70, 0.90, 1),
    **{look.terrain: look.colour for view in registered() for look in view.terrain_looks()},
}
"""A calm palette: light land, darker forest, water clearly blue (lakes lighter than seas,
an expansion's terrains as its view colours them)."""

SELECTED_COLOUR: RGBA = (1.0, 0.85, 0.10, 1)
DIFFERS_COLOURS: tuple[RGBA, RGBA] = ((0.05, 0.05, 0.05, 1), (1.0, 1.0, 1.0, 1))
"""The dashes of the outline of a region in `differs`: black and white, like no player
colour, no terrain and not the yellow of the selection."""
BADGE_FILL: RGBA = (0.08, 0.08, 0.08, 1)
BADGE_INK: RGBA = (1.0, 1.0, 1.0, 1)
TEXT_COLOUR: RGBA = (0.08, 0.07, 0.06, 1)
HALO_COLOUR: RGBA = (1.0, 1.0, 0.97, 1)
DECLINED_FILL: RGBA = (0.55, 0.55, 0.55, 1)
FALLBACK_PLAYER: RGBA = (0.85, 0.85, 0.85, 1)

BASE_SYMBOLS: tuple[tuple[str, str], ...] = (
    ("mine", "Mine"),
    ("magic", "Magic Source"),
    ("cavern", "Cavern"),
    ("lost_tribe", "Lost Tribe"),
    ("mountain", "Mountain"),
    ("fortress", "Fortress"),
    ("troll_lair", "Troll's Lair"),
    ("encampment", "Encampment"),
    ("hole_in_the_ground", "Hole-in-the-Ground"),
    ("hero", "Hero"),
    ("dragon", "Dragon"),
    ("catapult", rule_names.CATAPULT),
)
"""The symbols of the base game, with the English name a legend shows (translated as the
edition prints it, `_SYMBOL_CONTEXT`), in drawing order."""

_SYMBOL_CONTEXT = {"mine": "feature", "magic": "feature", "cavern": "feature",
                   "catapult": "power"}
"""The names.toml kind of a base symbol's name (the others are pieces)."""


def _view_symbols() -> tuple[MapSymbol, ...]:
    """The registered views' symbols, in the registry's order."""
    return tuple(symbol for view in registered() for symbol in view.map_symbols)


def _ordered(base: tuple[tuple[str, str], ...], more: tuple[MapSymbol, ...]
             ) -> tuple[tuple[str, str], ...]:
    """`base` with each of `more` placed right after the symbol it names (`after`)."""
    out = list(base)
    for symbol in more:
        keys = [key for key, _ in out]
        at = keys.index(symbol.after) + 1 if symbol.after in keys else len(out)
        out.insert(at, (symbol.key, symbol.name))
    return tuple(out)


VIEW_SYMBOLS: tuple[MapSymbol, ...] = _view_symbols()
SYMBOLS: tuple[tuple[str, str], ...] = _ordered(BASE_SYMBOLS, VIEW_SYMBOLS)
"""Every symbol the map draws (the base game's and the views'), with the name a legend
shows, in drawing order."""

HOLDER_LEGEND: tuple[tuple[str, str], ...] = (
    ("active", N_("Active race: ring and disc in the player's colour; the number is its "
                  "tokens")),
    ("declined", N_("Race in decline: pale ring, grey disc ringed in the player's colour")),
)


def legend() -> list[tuple[str, str]]:
    """(symbol key, text) for everything drawn on a region, for a legend on the screen, in
    the language spoken."""
    base = dict(BASE_SYMBOLS)
    shown = [(key, _symbol_name(key, name) if key in base else _(name))
             for key, name in SYMBOLS]
    return [*shown, *((key, _(text)) for key, text in HOLDER_LEGEND)]


def _symbol_name(key: str, name: str) -> str:
    printed = pgettext(_SYMBOL_CONTEXT.get(key, "piece"), name)
    # TRANSLATORS: the map legend's encampment line; {encampment} is the piece's name.
    return _("{encampment} (a number: how many)").format(encampment=printed) \
        if key == "encampment" else printed


def terrain_legend() -> list[tuple[RGBA, str]]:
    """(colour, name) of every terrain, in the language spoken: a view's terrain as its
    look names it, the others as the edition prints them."""
    looks = {look.terrain: look.name for view in registered() for look in view.terrain_looks()}
    return [(TERRAIN_COLOURS[t], looks.get(t) or names.terrain(t.value))
            for t in known_terrains()]


def region_symbols(
    board: Board, region_id: int, state: RegionState | None,
    pieces: Mapping[str, int] | None = None,
) -> list[tuple[str, int]]:
    """The symbols drawn in a region, as (key, count), in `SYMBOLS` order (no holder disc).

    Without a `state` (the bare printed board) the markers are those of the set-up: a
    mountain on a mountain (and a view's, as its symbol counts them). `pieces`: the pieces
    the views keep off the markers, symbol key -> the region it lies in
    (`ExpansionView.map_pieces`)."""
    region = board.regions[region_id]
    markers = state.markers if state is not None else Markers(
        mountain=region.terrain is Terrain.MOUNTAIN
    )
    present: dict[str, int] = {
        "mine": int(Feature.MINE in region.features),
        "magic": int(Feature.MAGIC in region.features),
        "cavern": int(Feature.CAVERN in region.features),
        "mountain": int(markers.mountain),
        "fortress": int(markers.fortress),
        "troll_lair": int(markers.troll_lair),
        "encampment": markers.encampments,
        "hole_in_the_ground": int(markers.hole_in_the_ground),
        "hero": int(markers.hero),
        "dragon": int(markers.dragon),
        "catapult": int(markers.catapult),
    }
    placed: Mapping[str, int] = pieces if pieces is not None else {}
    for symbol in VIEW_SYMBOLS:
        present[symbol.key] = symbol.count(board, region_id, state, placed)
    return [(key, present[key]) for key, _ in SYMBOLS if present.get(key, 0) > 0]


# --- drawing primitives ----------------------------------------------------------------


def _star(points: int, outer: float, inner: float, turn: float = 0.0) -> list[tuple[float, float]]:
    found = []
    for k in range(points * 2):
        r = outer if k % 2 == 0 else inner
        a = math.pi / 2 + turn + k * math.pi / points
        found.append((r * math.cos(a), r * math.sin(a)))
    return found


def draw_symbol(group: InstructionGroup, key: str, cx: float, cy: float, size: float) -> None:
    """Draw symbol `key` (see `SYMBOLS`) centred on (cx, cy) in a `size` pixel square."""
    s = size / 2
    painter = _PAINTERS.get(key)
    if painter is None:
        raise KeyError(f"no symbol named {key!r}; known: {', '.join(_PAINTERS)}")
    painter(group, cx, cy, s)


def _paint_mine(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # two crossed pickaxes on a pale tile
    _shape(g, [(-1, -1), (1, -1), (1, 1), (-1, 1)], cx, cy, s * 0.95, (0.93, 0.86, 0.70, 1))
    g.add(Color(0.35, 0.22, 0.10, 1))
    w = max(1.2, s * 0.16)
    g.add(Line(points=[cx - s * 0.65, cy - s * 0.65, cx + s * 0.55, cy + s * 0.55], width=w))
    g.add(Line(points=[cx + s * 0.65, cy - s * 0.65, cx - s * 0.55, cy + s * 0.55], width=w))
    g.add(Color(0.25, 0.25, 0.28, 1))
    g.add(Line(points=[cx + s * 0.15, cy + s * 0.80, cx + s * 0.70, cy + s * 0.70,
                       cx + s * 0.80, cy + s * 0.15], width=w))
    g.add(Line(points=[cx - s * 0.15, cy + s * 0.80, cx - s * 0.70, cy + s * 0.70,
                       cx - s * 0.80, cy + s * 0.15], width=w))


def _paint_magic(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a violet four-pointed sparkle
    _shape(g, _star(4, 1.0, 0.38), cx, cy, s, (0.62, 0.36, 0.90, 1))
    _disc(g, cx, cy, s * 0.18, (1, 1, 1, 1))


def _paint_cavern(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a grey rock arch around a black opening
    arch = [(math.cos(a), -0.8 + math.sin(a) * 1.6) for a in (k * math.pi / 10 for k in range(11))]
    _shape(g, arch, cx, cy - s * 0.05, s, (0.55, 0.52, 0.50, 1))
    mouth = [(math.cos(a) * 0.5, -0.8 + math.sin(a) * 0.9)
             for a in (k * math.pi / 8 for k in range(9))]
    g.add(Color(0.05, 0.05, 0.05, 1))
    _fan(g, [(cx + x * s, cy - s * 0.05 + y * s) for x, y in mouth],
         (cx, cy - s * 0.05 - s * 0.6))


def _paint_lost_tribe(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a stone-coloured hexagon with a dark dot (the tribe's token)
    hexagon = [(math.cos(a), math.sin(a)) for a in (k * math.pi / 3 for k in range(6))]
    _shape(g, hexagon, cx, cy, s, (0.86, 0.80, 0.66, 1))
    _disc(g, cx, cy, s * 0.32, (0.40, 0.30, 0.20, 1))


def _paint_mountain(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a grey peak with a white snowcap
    _shape(g, [(-1, -0.8), (1, -0.8), (0, 0.95)], cx, cy, s, (0.45, 0.42, 0.42, 1))
    g.add(Color(1, 1, 1, 1))
    _fan(g, [(cx - s * 0.36, cy + s * 0.32), (cx + s * 0.36, cy + s * 0.32), (cx, cy + s * 0.9)])


def _paint_fortress(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a crenellated tower
    fill = (0.40, 0.42, 0.50, 1)
    _shape(g, [(-0.75, -1), (0.75, -1), (0.75, 0.45), (-0.75, 0.45)], cx, cy, s, fill)
    for x0 in (-0.75, -0.15, 0.45):
        _shape(g, [(x0, 0.45), (x0 + 0.3, 0.45), (x0 + 0.3, 0.95), (x0, 0.95)], cx, cy, s, fill)
    g.add(Color(0.08, 0.08, 0.10, 1))
    g.add(Rectangle(pos=(cx - s * 0.2, cy - s), size=(s * 0.4, s * 0.7)))


def _paint_troll_lair(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a mossy green boulder with white fangs
    blob = [(math.cos(a) * 1.0, math.sin(a) * 0.85) for a in (k * math.pi / 8 for k in range(16))]
    _shape(g, blob, cx, cy, s, (0.30, 0.45, 0.20, 1))
    g.add(Color(1, 1, 1, 1))
    for x0 in (-0.5, -0.1, 0.3):
        _fan(g, [(cx + x0 * s, cy + s * 0.2), (cx + (x0 + 0.3) * s, cy + s * 0.2),
                 (cx + (x0 + 0.15) * s, cy - s * 0.4)])


def _paint_encampment(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a cream tent with a dark door
    _shape(g, [(-1, -0.85), (1, -0.85), (0, 0.95)], cx, cy, s, (0.97, 0.93, 0.80, 1))
    g.add(Color(0.55, 0.10, 0.10, 1))
    _fan(g, [(cx - s * 0.28, cy - s * 0.85), (cx + s * 0.28, cy - s * 0.85), (cx, cy + s * 0.1)])


def _paint_hole(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a black pit with a brown rim
    g.add(Color(0.50, 0.33, 0.18, 1))
    g.add(Ellipse(pos=(cx - s, cy - s * 0.62), size=(2 * s, s * 1.24)))
    g.add(Color(0.02, 0.02, 0.02, 1))
    g.add(Ellipse(pos=(cx - s * 0.72, cy - s * 0.40), size=(s * 1.44, s * 0.80)))


def _paint_hero(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a golden shield
    shield = [(-0.85, 0.9), (0.85, 0.9), (0.85, 0.0), (0.0, -1.0), (-0.85, 0.0)]
    _shape(g, shield, cx, cy, s, (0.95, 0.75, 0.15, 1))
    g.add(Color(0.60, 0.35, 0.05, 1))
    g.add(Line(points=[cx, cy + s * 0.75, cx, cy - s * 0.7], width=max(1.0, s * 0.12)))


def _paint_catapult(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a wooden frame on two wheels, its throwing arm raised with a stone in the cup
    wood = (0.55, 0.36, 0.16, 1)
    _shape(g, [(-0.9, -0.45), (0.9, -0.45), (0.9, -0.2), (-0.9, -0.2)], cx, cy, s, wood)
    _shape(g, [(0.05, -0.2), (0.35, -0.2), (0.2, 0.25)], cx, cy, s, wood)  # the upright
    g.add(Color(0.30, 0.20, 0.08, 1))
    g.add(Line(points=[cx - s * 0.55, cy - s * 0.25, cx + s * 0.2, cy + s * 0.2,
                       cx + s * 0.55, cy + s * 0.75], width=max(1.1, s * 0.12)))  # the arm
    _disc(g, cx + s * 0.62, cy + s * 0.78, s * 0.2, (0.45, 0.45, 0.48, 1))  # the stone
    for x in (-0.55, 0.55):  # the wheels
        _disc(g, cx + x * s, cy - s * 0.62, s * 0.3, (0.25, 0.16, 0.06, 1))
        _ring(g, cx + x * s, cy - s * 0.62, s * 0.3, 1.0, BORDER_COLOUR)


def _paint_dragon(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    # a red three-tongued flame
    flame = [(0.0, -1.0), (0.8, -0.45), (0.9, 0.3), (0.55, 0.0), (0.45, 0.6), (0.15, 0.25),
             (0.0, 1.0), (-0.15, 0.25), (-0.45, 0.6), (-0.55, 0.0), (-0.9, 0.3), (-0.8, -0.45)]
    _shape(g, flame, cx, cy - s * 0.1 + s * 0.1, s, (0.88, 0.18, 0.12, 1))
    g.add(Color(1.0, 0.80, 0.20, 1))
    _fan(g, [(cx - s * 0.3, cy - s * 0.6), (cx + s * 0.3, cy - s * 0.6), (cx, cy + s * 0.05)])


def _paint_active(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    _holder_disc(g, cx, cy, s, (0.80, 0.20, 0.20, 1), in_decline=False)


def _paint_declined(g: InstructionGroup, cx: float, cy: float, s: float) -> None:
    _holder_disc(g, cx, cy, s, (0.80, 0.20, 0.20, 1), in_decline=True)


_PAINTERS: dict[str, Painter] = {
    "mine": _paint_mine,
    "magic": _paint_magic,
    "cavern": _paint_cavern,
    "lost_tribe": _paint_lost_tribe,
    "mountain": _paint_mountain,
    "fortress": _paint_fortress,
    "troll_lair": _paint_troll_lair,
    "encampment": _paint_encampment,
    "hole_in_the_ground": _paint_hole,
    "hero": _paint_hero,
    "dragon": _paint_dragon,
    "catapult": _paint_catapult,
    "active": _paint_active,
    "declined": _paint_declined,
    **{symbol.key: symbol.paint for symbol in VIEW_SYMBOLS},
}


def _holder_disc(g: InstructionGroup, cx: float, cy: float, r: float, colour: RGBA,
                 *, in_decline: bool) -> None:
    if in_decline:
        _disc(g, cx, cy, r, DECLINED_FILL)
        _ring(g, cx, cy, r - max(1.5, r * 0.14), max(1.5, r * 0.14), colour)
        _ring(g, cx, cy, r, 1.0, BORDER_COLOUR)
    else:
        _disc(g, cx, cy, r, colour)
        _ring(g, cx, cy, r, 1.2, BORDER_COLOUR)


def _dashed(group: InstructionGroup, points: Sequence[tuple[float, float]], width: float,
            dash: float, colours: tuple[RGBA, RGBA]) -> None:
    """A closed outline in dashes of `dash` px alternating the two colours, on a rim of the
    first colour (so it reads on any terrain)."""
    _outline(group, points, width / 2 + 1.0, colours[0])
    ring = [*points, points[0]]
    quads: tuple[list[float], list[float]] = ([], [])
    which, left, half = 1, dash, width / 2
    for (ax, ay), (bx, by) in pairwise(ring):
        length = math.dist((ax, ay), (bx, by))
        if length < 1e-6:
            continue
        ux, uy = (bx - ax) / length, (by - ay) / length
        nx, ny = -uy * half, ux * half
        done = 0.0
        while length - done > 1e-6:
            step = min(left, length - done)
            x0, y0 = ax + ux * done, ay + uy * done
            x1, y1 = ax + ux * (done + step), ay + uy * (done + step)
            quads[which].extend((x0 - nx, y0 - ny, x1 - nx, y1 - ny,
                                 x1 + nx, y1 + ny, x0 + nx, y0 + ny))
            done += step
            left -= step
            if left <= 1e-6:
                which, left = 1 - which, dash
    for colour, coords in zip(colours, quads, strict=True):
        if not coords:
            continue
        vertices: list[float] = []
        indices: list[int] = []
        for k in range(0, len(coords), 8):
            base = len(vertices) // 4
            for j in range(0, 8, 2):
                vertices += [coords[k + j], coords[k + j + 1], 0.0, 0.0]
            indices += [base, base + 1, base + 2, base, base + 2, base + 3]
        group.add(Color(*colour))
        group.add(Mesh(vertices=vertices, indices=indices, mode="triangles"))


def _badge(group: InstructionGroup, text: str, left: float, right: float, y: float,
           size: int, within: tuple[float, float, float, float]) -> None:
    """A dark disc with `text` in white, just right of x = `right` (or, where the board
    ends there, just left of x = `left`), centred on `y`, kept inside `within`."""
    texture = _text_texture(text, size, BADGE_INK, BADGE_FILL)
    w, h = texture.size
    r = max(w, h) / 2 + 2
    bx, by, bw, bh = within
    cx = right + r if right + 2 * r + 2 <= bx + bw else left - r
    cx = min(max(cx, bx + r + 2), bx + bw - r - 2)
    cy = min(max(y, by + r + 2), by + bh - r - 2)
    _disc(group, cx, cy, r + 1.5, BADGE_INK)
    _disc(group, cx, cy, r, BADGE_FILL)
    _blit(group, texture, cx, cy)


def _lighter(rgba: RGBA, amount: float) -> RGBA:
    r, g, b, a = rgba
    return (r + (1 - r) * amount, g + (1 - g) * amount, b + (1 - b) * amount, a)


def _darker(rgba: RGBA, amount: float) -> RGBA:
    r, g, b, a = rgba
    return (r * (1 - amount), g * (1 - amount), b * (1 - amount), a)


HIGHLIGHT_LIGHTER = 0.15
"""How much a highlighted region's terrain colour is lightened: it keeps its colour."""
LEFT_OUT_GREY = 0.85
"""How far a region left out of a highlight goes towards the grey of its own brightness."""
LEFT_OUT_DARKER = 0.55
"""How much darker it then gets: every terrain left out is darker than any highlighted one
(a dark forest among the targets still outshines a bright farmland that is not), so the
regions pointed out (the ones the player may attack...) stand out by colour and by light,
even on the first map, before anyone holds a region to tell them by."""


def pointed_out(rgba: RGBA) -> RGBA:
    """A terrain colour in a region the highlight points out: its own colour, lighter."""
    return _lighter(rgba, HIGHLIGHT_LIGHTER)


def left_out(rgba: RGBA) -> RGBA:
    """A terrain colour in a region left out of the highlight: greyed and darkened."""
    r, g, b, a = rgba
    grey = _luminance(rgba)
    mixed = (r + (grey - r) * LEFT_OUT_GREY, g + (grey - g) * LEFT_OUT_GREY,
             b + (grey - b) * LEFT_OUT_GREY, a)  # fmt: skip
    return _darker(mixed, LEFT_OUT_DARKER)


def _luminance(rgba: RGBA) -> float:
    r, g, b, _ = rgba
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


_TEXTURES: dict[tuple[str, int, RGBA, RGBA], Any] = {}


def _text_texture(text: str, size: int, colour: RGBA = TEXT_COLOUR,
                  halo: RGBA = HALO_COLOUR) -> Any:
    """A bold Roboto texture of `text` at `size` px, with a halo so it reads on any terrain."""
    key = (text, size, colour, halo)
    texture = _TEXTURES.get(key)
    if texture is None:
        label = CoreLabel(text=text, font_size=size, bold=True, color=colour,
                          outline_width=max(1, size // 8), outline_color=halo[:3])
        label.refresh()
        texture = label.texture
        _TEXTURES[key] = texture
    return texture


def _blit(g: InstructionGroup, texture: Any, cx: float, cy: float) -> None:
    g.add(Color(1, 1, 1, 1))
    w, h = texture.size
    g.add(Rectangle(texture=texture, pos=(round(cx - w / 2), round(cy - h / 2)), size=(w, h)))


def _blending(_instruction: Any) -> None:
    """Kivy's blending: a colour over what is there, by its alpha."""
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA)


def _premultiplying(_instruction: Any) -> None:
    """Drawing into a transparent texture: the colours as Kivy blends them (so they come
    out multiplied by their alpha), the alphas added up as coverage."""
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA)


def _premultiplied(_instruction: Any) -> None:
    """Laying such a texture on the screen: its colours are already multiplied."""
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA)


# --- the widget --------------------------------------------------------------------------


class BoardMap(Widget):  # type: ignore[misc]  # Kivy ships no type information
    """The board, drawn from `board` and `regions`; tap a cell to get `on_region_tap(id)`."""

    board = ObjectProperty(None, allownone=True)
    """The `Board` to draw (None: nothing is drawn)."""
    regions = ObjectProperty(None, allownone=True)
    """A `BoardState` (who holds what, markers), or None for the bare printed board."""
    player_colours = DictProperty({})
    """Seat -> (r, g, b, a) of that player's colour."""
    highlight = ObjectProperty(frozenset())
    """Region ids to point out (e.g. the regions a conquest may target); the others are dimmed
    while it is not empty."""
    selected = ObjectProperty(None, allownone=True)
    """One region id drawn with a bright outline, or None."""
    differs = ObjectProperty(frozenset())
    """Region ids drawn with a dashed black-and-white outline (e.g. where the sensor grid
    disagrees with the record)."""
    badges = DictProperty({})
    """Region id -> a short text (one to three characters) drawn in a small dark disc at
    the top right of the region's contents."""
    turn = OptionProperty("never", options=["never", "auto", "always"])
    """Whether the board may be drawn a quarter turn (a wide board on a portrait screen)."""
    label_size = NumericProperty(sp(16))
    """The region id's font size in px (never below 14)."""
    symbol_size = NumericProperty(sp(16))
    """The size of a marker symbol in px."""
    margin = NumericProperty(2)
    """Pixels kept free around the board inside the widget."""
    pieces = DictProperty({})
    """The pieces the views keep off the regions' markers: symbol key -> the id of the
    region it lies in (drawn there with its symbol: `ExpansionView.map_pieces`)."""

    __events__ = ("on_region_tap", "on_drawn_anew")

    def __init__(self, **kwargs: Any) -> None:
        self._trigger = Clock.create_trigger(self._redraw, -1)
        self.redraws = 0
        """How many times the map was drawn (tests use it to prove that idle is idle)."""
        self.rebuilds = 0
        """How many times the whole canvas was built (a new board, size, position...)."""
        self.last_redrawn: frozenset[int] = frozenset()
        """The regions whose instructions the last draw changed (all of them after a
        rebuild)."""
        self.last_touched = 0
        """How many instructions the last draw made, removed or changed in place."""
        self._geometry: mg.MapGeometry | None = None
        self._fit: mg.Fit | None = None
        self._frame: tuple[Any, ...] | None = None
        """What the canvas was built for: the board, its placement, the text and ring sizes."""
        self._static = drawing.group()
        self._drawing = drawing.group()
        """Everything the map draws; in the canvas while the widget has room to show it."""
        self._shown = False
        self._sizes: tuple[int, float] = (14, 12.0)
        self._ring_px = 3.0
        self._outlines: dict[int, list[tuple[float, float]]] = {}
        self._fills = RegionColours()
        self._rims: RegionGroups[RGBA] = RegionGroups((), self._paint_rim)
        self._selection: RegionGroups[bool] = RegionGroups((), self._paint_selection)
        self._differs: RegionGroups[bool] = RegionGroups((), self._paint_differs)
        self._tops: RegionGroups[_Contents] = RegionGroups((), self._paint_contents)
        self._changes: set[str] = set()
        """The properties changed since the last draw."""
        super().__init__(**kwargs)
        for name in ("board", "regions", "player_colours", "highlight", "selected", "differs",
                     "badges", "turn", "label_size", "symbol_size", "margin", "pieces",
                     "pos", "size"):
            self.fbind(name, self._changed, name)
        self._trigger()

    def _changed(self, name: str, *_args: Any) -> None:
        self._changes.add(name)
        self._trigger()

    # -- events and touches --

    def on_region_tap(self, region_id: int) -> None:
        """Default handler: nothing (the screen binds its own)."""

    def on_drawn_anew(self) -> None:
        """The whole drawing was just made anew (`rebuilds` went up): thousands of new
        instructions, which the app freezes after the frame (`MemoryPolicy.drawing_made`).
        Default handler: nothing."""

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return bool(super().on_touch_down(touch))
        region = self.region_at_screen(*touch.pos)
        if region is None:
            return bool(super().on_touch_down(touch))
        touch.grab(self, exclusive=True)
        touch.ud[f"board_map_{self.uid}"] = region
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is self:
            return True
        return bool(super().on_touch_move(touch))

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return bool(super().on_touch_up(touch))
        touch.ungrab(self)
        pressed = touch.ud.get(f"board_map_{self.uid}")
        if pressed is not None and self.region_at_screen(*touch.pos) == pressed:
            self.dispatch("on_region_tap", pressed)
        return True

    # -- queries the screen (and tests) can use --

    @property
    def geometry(self) -> mg.MapGeometry | None:
        """The cells of the current board (None without a board)."""
        if self.board is None:
            return None
        if self._geometry is None:
            self._geometry = mg.geometry(self.board)
        return self._geometry

    def on_board(self, _instance: Any, _value: Any) -> None:
        self._geometry = None

    @property
    def placement(self) -> mg.Fit | None:
        """How the board sits in the widget now (None without a board)."""
        geo = self.geometry
        if geo is None:
            return None
        x, y = self.pos
        w, h = self.size
        return mg.fit(geo.width, geo.height, x, y, w, h, margin=self.margin, turn=self.turn)

    def region_at_screen(self, x: float, y: float) -> int | None:
        """The region under window point (x, y) (in this widget's parent coordinates)."""
        geo, fit = self.geometry, self.placement
        if geo is None or fit is None:
            return None
        return geo.region_at(*fit.to_board(x, y))

    def anchor_on_screen(self, region_id: int) -> tuple[float, float]:
        """Where region `region_id`'s label sits, in this widget's parent coordinates."""
        geo, fit = self.geometry, self.placement
        if geo is None or fit is None:
            raise LookupError("the map has no board")
        return fit.to_screen(*geo.cells[region_id].anchor)

    def touch_targets(self) -> dict[int, float]:
        """Each region's touch target in px: the diameter of the largest circle in its cell."""
        geo, fit = self.geometry, self.placement
        if geo is None or fit is None:
            return {}
        return {rid: 2 * cell.inradius * fit.scale for rid, cell in geo.cells.items()}

    # -- drawing --

    def _redraw(self, *_args: Any) -> None:
        """Bring the canvas up to date: rebuild it all when the board or its placement
        changed, else touch only the regions whose drawn state changed (only the selection
        when nothing else changed: a tap)."""
        changes, self._changes = self._changes, set()
        geo, fit = self.geometry, self.placement
        squashed = self.width < 4 or self.height < 4
        if geo is None or fit is None or squashed:
            if squashed and geo is not None:
                self._show(False)  # a layout pass squashed it for a moment: kept as built
            else:
                drawing.release(self._drawing)
                self._frame = None
            self.last_redrawn = frozenset()
            self.last_touched = 0
            return
        self._show(True)
        self.redraws += 1
        if changes == {"selected"} and self._frame is not None:
            redrawn, touched = self._selection.update(self._selection_of(geo))
            self.last_redrawn, self.last_touched = frozenset(redrawn), touched
            return
        frame = (fit, self.text_sizes(), self.ring_width())
        fills, rims, selection, differs, tops = self._wanted(geo)
        touched = 0
        if self._frame is None or self._frame[0] is not self.board or self._frame[1:] != frame:
            touched = self._build(geo, fit, fills)
            self._frame = (self.board, *frame)
            self.rebuilds += 1
            self.dispatch("on_drawn_anew")
        redrawn = self._fills.update(fills)
        touched += len(redrawn)
        for changed, count in (self._rims.update(rims), self._selection.update(selection),
                               self._differs.update(differs), self._tops.update(tops)):
            redrawn |= changed
            touched += count
        self.last_redrawn = frozenset(redrawn)
        self.last_touched = touched

    def _wanted(self, geo: mg.MapGeometry) -> tuple[
        dict[int, RGBA], dict[int, RGBA], dict[int, bool], dict[int, bool],
        dict[int, _Contents],
    ]:
        """What each region should show now, layer by layer: its fill colour, its ring's
        colour (absent: no ring), whether it is selected, whether it differs, its contents."""
        board: Board = self.board
        state: BoardState | None = self.regions
        highlight = frozenset(self.highlight or ())
        differs = frozenset(self.differs or ())
        placed: dict[int, tuple[str, ...]] = {}
        for key, where in sorted(self.pieces.items()):
            placed[where] = (*placed.get(where, ()), key)
        fills: dict[int, RGBA] = {}
        rims: dict[int, RGBA] = {}
        tops: dict[int, _Contents] = {}
        for rid in geo.cells:
            colour = TERRAIN_COLOURS[board.regions[rid].terrain]
            if highlight:
                colour = pointed_out(colour) if rid in highlight else left_out(colour)
            fills[rid] = colour
            here = state.regions.get(rid) if state is not None else None
            occupant = here.occupant if here is not None else None
            player: RGBA | None = None
            if occupant is not None:
                player = tuple(self.player_colours.get(occupant.seat, FALLBACK_PLAYER))
                rims[rid] = _lighter(player, 0.55) if occupant.in_decline else player
            tops[rid] = (here, placed.get(rid, ()), self.badges.get(rid) or None, player)
        return (fills, rims, self._selection_of(geo),
                {rid: True for rid in differs & set(geo.cells)}, tops)

    def _selection_of(self, geo: mg.MapGeometry) -> dict[int, bool]:
        return {self.selected: True} if self.selected in geo.cells else {}

    def _build(self, geo: mg.MapGeometry, fit: mg.Fit, fills: dict[int, RGBA]) -> int:
        """Make the canvas for this board and placement: the static layer (filled cells,
        outlines, the board's edge) and an empty slot per region in each dynamic layer, in
        the order the map is painted, in place of the previous one, let go of at once
        (`release`). Returns how many instructions were made."""
        drawing.release(self._drawing)
        self._fit = fit
        self._sizes = self.text_sizes()
        self._ring_px = self.ring_width()
        self._outlines = {rid: [fit.to_screen(*p) for p in cell.outline]
                          for rid, cell in geo.cells.items()}
        ids = list(geo.cells)
        cells = drawing.group()
        lines = drawing.group()
        self._fills = RegionColours()
        for rid, cell in geo.cells.items():
            cells.add(self._fills.add(rid, fills[rid]))
            for piece in cell.pieces:
                _fan(cells, [fit.to_screen(*p) for p in piece])
            _outline(lines, self._outlines[rid], 1.1)
        edge = drawing.group()
        x, y, w, h = fit.rect
        _outline(edge, [(x, y), (x + w, y), (x + w, y + h), (x, y + h)], 1.5)
        self._rims = RegionGroups(ids, self._paint_rim)
        self._selection = RegionGroups(ids, self._paint_selection)
        self._differs = RegionGroups(sorted(ids), self._paint_differs)
        self._tops = RegionGroups(ids, self._paint_contents)
        # Two textures the size of the widget hold the layers under the selection (cells,
        # rims, outlines) and those over it (dashed outlines, the board's edge, the
        # contents); each frame draws them as two rectangles around the live selection, and
        # a texture is drawn again only when something in it changes. The layers over it
        # have soft edges (texts): they go in with their alpha premultiplied and are laid
        # on the screen as such, which gives what drawing them straight there gives. Each is
        # laid on the screen pixel for pixel (its own size, on whole pixels), so it is read
        # texel for pixel ('nearest'): the pixels Kivy's linear filter gives there, for less
        # work per frame (a software rasteriser spent a third of a map tap's frame on it).
        x0, y0 = math.floor(self.x), math.floor(self.y)
        width, height = max(1, math.ceil(self.right) - x0), max(1, math.ceil(self.top) - y0)
        below, above = drawing.offscreen((width, height)), drawing.offscreen((width, height))
        for layer in (below, above):
            layer.texture.mag_filter = layer.texture.min_filter = "nearest"
        for instruction in (ClearColor(0, 0, 0, 0), ClearBuffers(), Translate(-x0, -y0),
                            cells, self._rims.group, lines):
            below.add(instruction)
        for instruction in (ClearColor(0, 0, 0, 0), ClearBuffers(), Translate(-x0, -y0),
                            Callback(_premultiplying), self._differs.group, edge,
                            self._tops.group, Callback(_blending)):
            above.add(instruction)
        self._static = cells
        for instruction in (below, above, Color(1, 1, 1, 1),
                            Rectangle(texture=below.texture, pos=(x0, y0), size=(width, height)),
                            self._selection.group, Color(1, 1, 1, 1), Callback(_premultiplied),
                            Rectangle(texture=above.texture, pos=(x0, y0), size=(width, height)),
                            Callback(_blending)):
            self._drawing.add(instruction)
        return len(cells.children) + len(lines.children) + len(edge.children)

    def _show(self, shown: bool) -> None:
        """Put the drawing in the canvas, or take it out (kept whole, to be put back)."""
        if shown and not self._shown:
            self.canvas.add(self._drawing)
        elif not shown and self._shown:
            self.canvas.remove(self._drawing)
        self._shown = shown

    def static_layer(self) -> InstructionGroup:
        """The cells filled in their terrain colours (made by the last rebuild)."""
        if self._frame is None:
            raise LookupError("the map is not drawn")
        return self._static

    def _paint_rim(self, g: InstructionGroup, rid: int, colour: RGBA) -> None:
        geo, fit = self.geometry, self._fit
        assert geo is not None and fit is not None
        g.add(Color(*colour))
        for band in mg.rim_bands(geo.cells[rid], self._ring_px / fit.scale):
            _fan(g, [fit.to_screen(*p) for p in band])

    def _paint_selection(self, g: InstructionGroup, rid: int, _selected: bool) -> None:
        _outline(g, self._outlines[rid], 4.0, BORDER_COLOUR)
        _outline(g, self._outlines[rid], 2.4, SELECTED_COLOUR)

    def _paint_differs(self, g: InstructionGroup, rid: int, _differs: bool) -> None:
        assert self._fit is not None
        _dashed(g, self._outlines[rid], 3.0, max(8.0, self._fit.scale * 0.02), DIFFERS_COLOURS)

    def _paint_contents(self, g: InstructionGroup, rid: int, contents: _Contents) -> None:
        geo, fit = self.geometry, self._fit
        assert geo is not None and fit is not None
        here, placed, badge, player = contents
        self._draw_contents(g, self.board, rid, geo.cells[rid], here, fit, badge, player,
                            dict.fromkeys(placed, rid))

    def drawn(self, rid: int) -> tuple[tuple[float, ...], Any, Any, Any, Any]:
        """What region `rid` shows now: its fill colour, its ring's colour (None: no ring),
        whether it is selected and whether it differs (True or None), and what its contents
        were drawn from. Tests compare maps with it."""
        if self._frame is None:
            raise LookupError("the map is not drawn")
        return (self._fills.rgba(rid), self._rims.key(rid), self._selection.key(rid),
                self._differs.key(rid), self._tops.key(rid))

    def region_groups(self, rid: int) -> tuple[InstructionGroup, ...]:
        """Region `rid`'s groups in the layers that change in play (ring, selection, dashed
        outline, contents): all that a change to that region alone may touch, besides the
        colour of its cell."""
        if self._frame is None:
            raise LookupError("the map is not drawn")
        return (self._rims.slot(rid), self._selection.slot(rid), self._differs.slot(rid),
                self._tops.slot(rid))

    def fill_colour(self, rid: int) -> Any:
        """Region `rid`'s cell colour: a `Color` of the static layer, set in place."""
        if self._frame is None:
            raise LookupError("the map is not drawn")
        return self._fills.colour(rid)

    def ring_width(self) -> float:
        """Width in px of the ring in the holder's colour just inside a held region."""
        fit = self.placement
        return max(3.0, fit.scale * 0.012) if fit is not None else 3.0

    def text_sizes(self) -> tuple[int, float]:
        """Font size of the ids (never below 14) and size of a symbol, in px: at least the
        properties, growing with the map up to half as much again."""
        fit = self.placement
        grow = fit.scale * 0.034 if fit is not None else 0.0
        label = max(14, round(min(max(self.label_size, grow), self.label_size * 1.5)))
        symbol = max(12.0, min(max(float(self.symbol_size), grow), self.symbol_size * 1.5))
        return label, symbol

    def _draw_contents(self, g: InstructionGroup, board: Board, rid: int, cell: mg.Cell,
                       here: RegionState | None, fit: mg.Fit, badge: str | None,
                       player: RGBA | None, pieces: Mapping[str, int]) -> None:
        """The id, the holder's disc (or a Lost Tribe) and the symbols, placed in the cell;
        the `badge` text, if any, at the top right of them. `player`: the holder's colour."""
        label_px, full_symbol = self._sizes
        label = _text_texture(str(rid), label_px)
        occupant = here.occupant if here is not None else None
        lost_tribe = here.lost_tribe if here is not None else board.regions[rid].lost_tribe
        symbols = region_symbols(board, rid, here, pieces)

        # the largest symbols that fit (down to 12 px), in as few rows as fit
        best: tuple[tuple[bool, float, int], tuple[float, float], _Arrangement] | None = None
        options = [
            (size, per_row)
            for size in sorted({full_symbol, max(12.0, full_symbol * 0.8)}, reverse=True)
            for per_row in range(max(1, len(symbols)), 0, -1)
        ]
        for symbol, per_row in options:
            disc = max(22.0, symbol * 1.45) if occupant is not None or lost_tribe else 0.0
            arrangement = _arrange(label.size, disc, symbols, per_row, symbol)
            w, h = arrangement.size
            half = (h / 2, w / 2) if fit.turned else (w / 2, h / 2)
            centre, fits = mg.place_box(cell, half[0] / fit.scale + 1e-3,
                                        half[1] / fit.scale + 1e-3)
            rank = (not fits, math.dist(centre, cell.anchor), arrangement.rows)
            if best is None or rank < best[0]:
                best = (rank, centre, arrangement)
            if fits and centre == cell.anchor:
                break
        assert best is not None
        _, centre, arrangement = best
        symbol, disc = arrangement.symbol, arrangement.disc
        cx, cy = fit.to_screen(*centre)
        x, y, w, h = fit.rect  # never spill over the board's edge
        half_w, half_h = arrangement.size[0] / 2, arrangement.size[1] / 2
        cx = min(max(cx, x + half_w + 1), x + w - half_w - 1)
        cy = min(max(cy, y + half_h + 1), y + h - half_h - 1)

        for kind, key, count, dx, dy in arrangement.items:
            px, py = cx + dx, cy + dy
            if kind == "label":
                _blit(g, label, px, py)
            elif kind == "disc" and occupant is not None:
                ink = player if player is not None else FALLBACK_PLAYER
                _holder_disc(g, px, py, disc / 2, ink, in_decline=occupant.in_decline)
                if occupant.tokens is not None:
                    fill = DECLINED_FILL if occupant.in_decline else ink
                    dark = _luminance(fill) > 0.5
                    text = _text_texture(
                        str(occupant.tokens), max(14, round(disc * 0.62)),
                        TEXT_COLOUR if dark else (1, 1, 1, 1),
                        (1, 1, 1, 0.0) if dark else (0, 0, 0, 1),
                    )
                    _blit(g, text, px, py)
            elif kind == "disc":
                draw_symbol(g, "lost_tribe", px, py, disc * 0.95)
            elif kind == "symbol":
                draw_symbol(g, key, px, py, symbol)
                if count > 1:
                    _blit(g, _text_texture(str(count), 14), px + symbol * 0.5, py - symbol * 0.3)
        if badge:  # beside the id (and the holder's disc), on their line
            left, right, top = 0.0, 0.0, 0.0
            for kind, _key, _count, dx, dy in arrangement.items:
                if kind == "label":
                    left, top = dx - label.size[0] / 2, dy
                    right = max(right, dx + label.size[0] / 2)
                elif kind == "disc":
                    right = max(right, dx + disc / 2)
            _badge(g, badge, cx + left - 2, cx + right + 2, cy + top, label_px, fit.rect)


class _Arrangement:
    """Where each item of a region's contents goes, relative to the contents' centre (px)."""

    def __init__(self, size: tuple[float, float], rows: int, symbol: float, disc: float,
                 items: list[tuple[str, str, int, float, float]]) -> None:
        self.size = size
        self.rows = rows
        self.symbol = symbol
        self.disc = disc
        self.items = items


def _arrange(label: tuple[float, float], disc: float, symbols: Sequence[tuple[str, int]],
             per_row: int, symbol: float, gap: float = 2.0) -> _Arrangement:
    """The id and the disc side by side on top, the symbols below in rows of `per_row`."""
    label_w, label_h = label
    top_w = label_w + (gap + disc if disc else 0.0)
    top_h = max(label_h, disc)
    rows = [symbols[k:k + per_row] for k in range(0, len(symbols), per_row)]
    row_ws = [len(row) * symbol + (len(row) - 1) * gap + (6 if any(c > 1 for _, c in row) else 0)
              for row in rows]
    width = max([top_w, *row_ws])
    height = top_h + len(rows) * (symbol + gap)
    top_y = height / 2 - top_h / 2
    items: list[tuple[str, str, int, float, float]] = [
        ("label", "", 0, -top_w / 2 + label_w / 2, top_y)
    ]
    if disc:
        items.append(("disc", "", 0, top_w / 2 - disc / 2, top_y))
    y = top_y - top_h / 2 - gap - symbol / 2
    for row, row_w in zip(rows, row_ws, strict=True):
        x = -row_w / 2 + symbol / 2
        for key, count in row:
            items.append(("symbol", key, count, x, y))
            x += symbol + gap
        y -= symbol + gap
    return _Arrangement((width, height), len(rows), symbol, disc, items)


class SymbolIcon(Widget):  # type: ignore[misc]  # Kivy ships no type information
    """One map symbol (a key of `SYMBOLS`, "active" or "declined"), drawn to fit the widget."""

    symbol = StringProperty("mine")
    colour = ObjectProperty((0.80, 0.20, 0.20, 1))
    """The player colour the "active" and "declined" samples use."""

    def __init__(self, **kwargs: Any) -> None:
        self._trigger = Clock.create_trigger(self._redraw, -1)
        super().__init__(**kwargs)
        for name in ("symbol", "colour", "pos", "size"):
            self.fbind(name, self._trigger)
        self._trigger()

    def _redraw(self, *_args: Any) -> None:
        self.canvas.clear()  # its instructions, drawn straight in it, go with their links
        size = min(self.width, self.height) * 0.9
        cx, cy = self.center
        if self.symbol in ("active", "declined"):
            _holder_disc(self.canvas, cx, cy, size / 2, tuple(self.colour),
                         in_decline=self.symbol == "declined")
        else:
            draw_symbol(self.canvas, self.symbol, cx, cy, size)


class MapLegend(GridLayout):  # type: ignore[misc]  # Kivy ships no type information
    """A two-column legend: each symbol beside its name (and, optionally, the terrains)."""

    show_terrain = BooleanProperty(False)
    font_size = NumericProperty(sp(15))
    row_height = NumericProperty(sp(26))

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cols", 2)
        kwargs.setdefault("spacing", (sp(6), sp(2)))
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        self.bind(minimum_height=self.setter("height"))
        self.fbind("show_terrain", self._rebuild)
        self._rebuild()

    def _rebuild(self, *_args: Any) -> None:
        self.clear_widgets()
        for key, text in legend():
            self._row(SymbolIcon(symbol=key), text)
        if self.show_terrain:
            for colour, name in terrain_legend():
                swatch = Widget()
                with swatch.canvas:
                    Color(*colour)
                    rect = Rectangle()
                swatch.bind(pos=_follow(rect), size=_follow(rect))
                self._row(swatch, name)

    def _row(self, icon: Widget, text: str) -> None:
        icon.size_hint = (None, None)
        icon.size = (self.row_height, self.row_height)
        self.add_widget(icon)
        label = Label(text=text, font_size=max(14, self.font_size), color=(1, 1, 1, 1),
                      halign="left", valign="middle", size_hint_y=None,
                      height=self.row_height)
        label.bind(size=lambda lbl, size: setattr(lbl, "text_size", size))
        self.add_widget(label)


def _follow(rect: Rectangle) -> Callable[[Widget, Any], None]:
    def update(widget: Widget, _value: Any) -> None:
        rect.pos, rect.size = widget.pos, widget.size
    return update
