"""The shapes of the map: one cell per region, grown around the region's printed position.

Concept: the data gives one point per region (`Region.position`, inside the region on the
printed board) and who borders whom, not the outlines. The map is drawn as a *power
diagram* (a Voronoi diagram whose sites carry weights) of those points, clipped to the
board's rectangle. Each region owns its own point (the *primary site*) and may own a few
extra sites; its cell is the union of its sites' convex power cells. The weights and extra
sites are tuned (offline, by a deterministic hill climb) so that regions adjacent in the data
share a border on screen, regions that are not adjacent do not, and exactly the `border`
regions touch the board's edge: an L-shaped sea gets a chain of extra sites along the coast
it really follows and wraps round its islands. Tuning never moves a region's own point,
keeps room around it and never shrinks a cell's largest inscribed circle below its untuned
size (or `TOUCH_ROOM`). The tuning of the packaged boards is stored in
`companion/data/map_tuning.json` (keyed by a fingerprint of the board's positions and
adjacency; the tuner is ``tools/map_tuning.py``, run offline): every adjacent pair
of all four boards then shares a border and no other pair does. Any other board is drawn as
the plain Voronoi diagram (most borders right, a few wrong) until it is tuned.

Units: *board units*, y from the TOP of the board (as in the data): the board is the
rectangle 0..`aspect` by 0..1. `Fit` maps board units to a widget rectangle, letterboxed,
y up as Kivy wants it, optionally turned a quarter for a portrait screen.

Invariants of a `MapGeometry` (tests check them on every packaged board):

- every cell's outline is one simple polygon, counter-clockwise (positive shoelace area
  in these coordinates), and the outlines tile the board: their areas add up to the
  board's area and no point lies in two cells;
- every region's position lies inside its own cell (with room around it);
- `Cell.anchor` lies inside the cell, `Cell.clearance` from its outline;
- `Cell.pieces` are convex polygons whose union is the cell.

Pure: standard library, `companion.rules.maps` and the packaged tuning only; no Kivy.
"""

from __future__ import annotations

import functools
import hashlib
import heapq
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.paths import data_file
from companion.rules import Board

Point = tuple[float, float]
Polygon = tuple[Point, ...]
"""Vertices in order, counter-clockwise (positive shoelace area); the last joins the first."""

FRAME = -1
"""The edge label of a piece's edge that lies on the board's frame."""

MIN_SHARED = 0.02
"""A border shorter than this (board units: 1 = the board's height) does not count as shared."""

TOUCH_ROOM = 0.05
"""Tuning keeps every cell's inradius at least this (x the board's height) or at its untuned
size if that is smaller: 48 px touch targets on a square board 480 px high."""

_EPS = 1e-9
_JOIN = 1e-6  # two vertices closer than this are the same vertex


@dataclass(frozen=True, slots=True)
class Site:
    """A point that grows a convex piece of a region's cell; `weight` enlarges it."""

    region: int
    x: float
    y: float
    weight: float = 0.0


@dataclass(frozen=True, slots=True)
class Cell:
    """The shape drawn for one region."""

    region: int
    outline: Polygon
    pieces: tuple[Polygon, ...]
    """Convex parts whose union is the outline (one per site), e.g. to fill with triangle fans."""
    edges: tuple[tuple[Point, Point, int], ...]
    """The outline's edges as (start, end, neighbour region id or FRAME)."""
    anchor: Point
    """Where the label goes: the region's position, or a roomier point when it is cramped."""
    clearance: float
    """Distance from `anchor` to the outline: the radius of the room for the label."""
    inradius: float
    """Radius of the largest circle inside the cell (half the cell's touch-target size)."""

    @property
    def area(self) -> float:
        return polygon_area(self.outline)

    @property
    def neighbours(self) -> dict[int, float]:
        """Length of the border shared with each neighbouring region."""
        lengths: dict[int, float] = {}
        for start, end, label in self.edges:
            if label != FRAME:
                lengths[label] = lengths.get(label, 0.0) + math.dist(start, end)
        return lengths


@dataclass(frozen=True, slots=True)
class MapGeometry:
    """Every region's cell on a board of `width` x `height` board units."""

    width: float
    height: float
    cells: Mapping[int, Cell]
    sites: tuple[Site, ...]
    boxes: Mapping[int, tuple[float, float, float, float]] = field(
        init=False, repr=False, compare=False)
    """Each cell's bounding box (left, bottom... as x0, y0, x1, y1): a tap tests the
    outlines of the few cells whose box holds it, not all of them."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "boxes", {
            rid: (min(x for x, _ in c.outline) - _EPS, min(y for _, y in c.outline) - _EPS,
                  max(x for x, _ in c.outline) + _EPS, max(y for _, y in c.outline) + _EPS)
            for rid, c in self.cells.items()})

    def region_at(self, x: float, y: float) -> int | None:
        """The region whose cell holds board point (x, y); None outside the board."""
        boxes = self.boxes
        return region_at({rid: c.outline for rid, c in self.cells.items()
                          if boxes[rid][0] <= x <= boxes[rid][2]
                          and boxes[rid][1] <= y <= boxes[rid][3]}, x, y)

    def shared_borders(self) -> dict[tuple[int, int], float]:
        """Border length of every pair (a < b) of cells that touch along an edge."""
        shared: dict[tuple[int, int], float] = {}
        for rid, cell in self.cells.items():
            for other, length in cell.neighbours.items():
                if rid < other:
                    shared[(rid, other)] = length
        return shared


@dataclass(frozen=True, slots=True)
class AdjacencyReport:
    """How well the drawn cells show the data's adjacency."""

    adjacent_pairs: int
    adjacent_shared: int
    """Adjacent pairs whose cells share a border of at least `MIN_SHARED`."""
    non_adjacent_shared: int
    """Pairs that are not adjacent but whose cells share a border of at least `MIN_SHARED`/4."""
    missing: tuple[tuple[int, int], ...]
    extra: tuple[tuple[int, int], ...]
    frame_mismatch: tuple[int, ...] = ()
    """Regions drawn touching the board's edge when the data says they do not, or the reverse."""


# --- public entry points -------------------------------------------------------------------


def geometry(board: Board) -> MapGeometry:
    """The cells of `board`, using the stored tuning when it matches the board (cached)."""
    return _geometry_cached(board)


def cells(board: Board) -> dict[int, Polygon]:
    """Each region's outline, in board units (x 0..aspect, y 0..1 from the top)."""
    return {rid: cell.outline for rid, cell in geometry(board).cells.items()}


def region_at(outlines: Mapping[int, Polygon], x: float, y: float) -> int | None:
    """The region whose outline holds (x, y) (the lowest id on a shared edge), else None."""
    return next((rid for rid in sorted(outlines) if point_in_polygon(outlines[rid], x, y)), None)


def board_size(board: Board) -> tuple[float, float]:
    """The board's width and height in board units (height 1; width the aspect, 1 if unknown)."""
    return (board.aspect or 1.0, 1.0)


def adjacency_report(board: Board, geo: MapGeometry | None = None) -> AdjacencyReport:
    """Count adjacent pairs drawn touching and non-adjacent pairs drawn touching."""
    geo = geo or geometry(board)
    shared = geo.shared_borders()
    pairs = _adjacent_pairs(board)
    missing = tuple(sorted(p for p in pairs if shared.get(p, 0.0) < MIN_SHARED))
    extra = tuple(
        sorted(p for p, length in shared.items() if p not in pairs and length >= MIN_SHARED / 4)
    )
    on_frame = {
        rid for rid, cell in geo.cells.items()
        if sum(math.dist(a, b) for a, b, label in cell.edges if label == FRAME) >= MIN_SHARED / 4
    }
    mismatch = tuple(
        sorted(rid for rid, r in board.regions.items() if r.border != (rid in on_frame))
    )
    return AdjacencyReport(
        len(pairs), len(pairs) - len(missing), len(extra), missing, extra, mismatch
    )


def fingerprint(board: Board) -> str:
    """A short digest of what the cells depend on: aspect, positions and adjacency."""
    parts = [f"{board_size(board)[0]:.6f}"]
    for rid, region in sorted(board.regions.items()):
        pos = region.position
        where = "-" if pos is None else f"{pos[0]:.6f},{pos[1]:.6f}"
        parts.append(f"{rid}:{where}:{','.join(map(str, sorted(region.adjacent)))}")
    return hashlib.sha256(";".join(parts).encode()).hexdigest()[:16]


# --- fitting the board into a widget --------------------------------------------------------

Turn = Literal["never", "auto", "always"]


@dataclass(frozen=True, slots=True)
class Fit:
    """Board units to screen pixels (y up), letterboxed into a rectangle.

    `turned`: the board is drawn a quarter turn clockwise (its top edge on the right), which
    a tall portrait screen may prefer for a wide board.
    """

    scale: float
    """Pixels per board unit."""
    left: float
    bottom: float
    board_width: float
    board_height: float
    turned: bool = False

    @property
    def rect(self) -> tuple[float, float, float, float]:
        """The board's rectangle on screen: x, y, width, height in pixels."""
        w, h = self.board_width * self.scale, self.board_height * self.scale
        return (self.left, self.bottom, h, w) if self.turned else (self.left, self.bottom, w, h)

    def to_screen(self, x: float, y: float) -> Point:
        s = self.scale
        if self.turned:
            return (self.left + (self.board_height - y) * s,
                    self.bottom + (self.board_width - x) * s)
        return (self.left + x * s, self.bottom + (self.board_height - y) * s)

    def to_board(self, sx: float, sy: float) -> Point:
        s = self.scale
        if self.turned:
            return (self.board_width - (sy - self.bottom) / s,
                    self.board_height - (sx - self.left) / s)
        return ((sx - self.left) / s, self.board_height - (sy - self.bottom) / s)


def fit(
    board_width: float,
    board_height: float,
    x: float,
    y: float,
    width: float,
    height: float,
    *,
    margin: float = 0.0,
    turn: Turn = "never",
) -> Fit:
    """The largest letterboxed placement of the board in the rectangle (x, y, width, height).

    `turn="auto"` turns the board a quarter when that makes it larger (a wide board on a
    portrait screen); `"always"` / `"never"` force it.
    """
    room_w, room_h = max(width - 2 * margin, 1.0), max(height - 2 * margin, 1.0)
    flat = min(room_w / board_width, room_h / board_height)
    upright = min(room_w / board_height, room_h / board_width)
    turned = turn == "always" or (turn == "auto" and upright > flat * 1.05)
    scale = upright if turned else flat
    drawn_w, drawn_h = (
        (board_height * scale, board_width * scale) if turned
        else (board_width * scale, board_height * scale)
    )
    return Fit(
        scale=scale,
        left=x + (width - drawn_w) / 2,
        bottom=y + (height - drawn_h) / 2,
        board_width=board_width,
        board_height=board_height,
        turned=turned,
    )


# --- polygons ------------------------------------------------------------------------------


def polygon_area(poly: Sequence[Point]) -> float:
    """Signed shoelace area (positive for this module's orientation)."""
    total = 0.0
    n = len(poly)
    for k in range(n):
        (x1, y1), (x2, y2) = poly[k], poly[(k + 1) % n]
        total += x1 * y2 - x2 * y1
    return total / 2


def point_in_polygon(poly: Sequence[Point], x: float, y: float) -> bool:
    """Whether (x, y) lies inside the polygon or on its outline (even-odd rule)."""
    inside = False
    n = len(poly)
    for k in range(n):
        (x1, y1), (x2, y2) = poly[k], poly[(k + 1) % n]
        if _distance_to_segment(x, y, x1, y1, x2, y2) <= _EPS:
            return True
        if (y1 > y) != (y2 > y):
            cross_x = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < cross_x:
                inside = not inside
    return inside


def distance_to_outline(poly: Sequence[Point], x: float, y: float) -> float:
    """Distance from (x, y) to the polygon's outline; negative when the point is outside."""
    n = len(poly)
    best = min(
        _distance_to_segment(x, y, *poly[k], *poly[(k + 1) % n]) for k in range(n)
    )
    return best if point_in_polygon(poly, x, y) else -best


def _distance_to_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def pole_of_inaccessibility(poly: Sequence[Point], precision: float = 1e-3) -> tuple[Point, float]:
    """The point inside the polygon farthest from its outline, and that distance.

    Mapbox's polylabel: a priority queue of square cells, best possible distance first.
    """
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    min_x, min_y, max_x, max_y = min(xs), min(ys), max(xs), max(ys)
    size = min(max_x - min_x, max_y - min_y)
    if size <= 0:
        return (min_x, min_y), 0.0

    def probe(cx: float, cy: float, half: float) -> tuple[float, float, float, float, float]:
        d = distance_to_outline(poly, cx, cy)
        return (-(d + half * math.sqrt(2)), d, cx, cy, half)

    heap: list[tuple[float, float, float, float, float]] = []
    half = size / 2
    x = min_x
    while x < max_x:
        y = min_y
        while y < max_y:
            heapq.heappush(heap, probe(x + half, y + half, half))
            y += size
        x += size
    cx, cy = _centroid(poly)
    best_d, best = distance_to_outline(poly, cx, cy), (cx, cy)
    while heap:
        _, d, cx, cy, h = heapq.heappop(heap)
        if d > best_d:
            best_d, best = d, (cx, cy)
        if d + h * math.sqrt(2) - best_d <= precision:
            continue
        h /= 2
        for ox in (-h, h):
            for oy in (-h, h):
                heapq.heappush(heap, probe(cx + ox, cy + oy, h))
    return best, best_d


def _centroid(poly: Sequence[Point]) -> Point:
    area = polygon_area(poly)
    if abs(area) < _EPS:
        return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))
    cx = cy = 0.0
    n = len(poly)
    for k in range(n):
        (x1, y1), (x2, y2) = poly[k], poly[(k + 1) % n]
        cross = x1 * y2 - x2 * y1
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    return (cx / (6 * area), cy / (6 * area))


def inner_band(piece: Sequence[Point], start: Point, end: Point, width: float) -> Polygon:
    """The part of a convex `piece` within `width` of its edge start->end (inside the piece).

    Drawing these bands along every outline edge of a cell's pieces paints a ring just
    inside the cell, which never spills into the neighbour.
    """
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length < _EPS:
        return ()
    # inward normal: the piece is counter-clockwise, so the inside is to the left
    nx, ny = -dy / length, dx / length
    # keep points with (p - start) . n <= width
    c = width + nx * start[0] + ny * start[1]
    clipped = _clip([(p, FRAME) for p in piece], nx, ny, c, FRAME)
    return tuple(p for p, _ in clipped)


def rim_bands(cell: Cell, width: float) -> list[Polygon]:
    """Convex bands that together paint a ring `width` wide just inside the cell's outline."""
    bands = []
    outline = cell.outline
    for piece in cell.pieces:
        n = len(piece)
        for k in range(n):
            a, b = piece[k], piece[(k + 1) % n]
            middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            if math.dist(a, b) > _EPS and abs(distance_to_outline(outline, *middle)) < _JOIN:
                band = inner_band(piece, a, b, width)
                if len(band) >= 3:
                    bands.append(band)
    return bands


def box_fits(outline: Sequence[Point], cx: float, cy: float, half_w: float, half_h: float) -> bool:
    """Whether the box centred on (cx, cy) lies inside the outline (a simple polygon).

    All four corners inside and no outline vertex strictly inside the box is enough: an
    outline that cut into the box without a vertex in it would leave a corner outside.
    """
    x0, x1, y0, y1 = cx - half_w, cx + half_w, cy - half_h, cy + half_h
    if not all(point_in_polygon(outline, x, y) for x in (x0, x1) for y in (y0, y1)):
        return False
    return not any(x0 < x < x1 and y0 < y < y1 for x, y in outline)


def place_box(cell: Cell, half_w: float, half_h: float) -> tuple[Point, bool]:
    """Where to centre a box of half-size (half_w, half_h) in the cell, and whether it fits.

    The anchor when the box fits there, else the fitting place nearest to the anchor (on a
    grid a quarter of the box's smaller side apart); when no place fits, the anchor.
    """
    outline, anchor = cell.outline, cell.anchor
    if box_fits(outline, *anchor, half_w, half_h):
        return anchor, True
    step = max(min(half_w, half_h) / 2, 1e-3)
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    candidates = []
    y = min(ys) + half_h
    while y <= max(ys) - half_h + _EPS:
        x = min(xs) + half_w
        while x <= max(xs) - half_w + _EPS:
            candidates.append((math.dist((x, y), anchor), x, y))
            x += step
        y += step
    for _, x, y in sorted(candidates):
        if box_fits(outline, x, y, half_w, half_h):
            return (x, y), True
    return anchor, False


# --- building the diagram -----------------------------------------------------------------

_Labelled = list[tuple[Point, int]]  # vertex, and the label of the edge that leaves it


def _clip(poly: _Labelled, a: float, b: float, c: float, label: int) -> _Labelled:
    """Keep the part of a convex polygon where a*x + b*y <= c; new edges get `label`."""
    out: _Labelled = []
    n = len(poly)
    for k in range(n):
        p, lp = poly[k]
        q = poly[(k + 1) % n][0]
        fp = a * p[0] + b * p[1] - c
        fq = a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append((p, lp))
            if fq > 0:
                t = fp / (fp - fq)
                out.append(((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])), label))
        elif fq <= 0:
            t = fp / (fp - fq)
            out.append(((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])), lp))
    return out


def _power_piece(index: int, sites: Sequence[Site], width: float, height: float) -> _Labelled:
    """The convex power cell of sites[index]; edge labels are site indexes or FRAME."""
    me = sites[index]
    poly: _Labelled = [((0.0, 0.0), FRAME), ((width, 0.0), FRAME),
                       ((width, height), FRAME), ((0.0, height), FRAME)]
    own = me.x * me.x + me.y * me.y - me.weight
    for j, other in enumerate(sites):
        if j == index:
            continue
        a, b = 2 * (other.x - me.x), 2 * (other.y - me.y)
        c = other.x * other.x + other.y * other.y - other.weight - own
        poly = _clip(poly, a, b, c, j)
        if len(poly) < 3:
            return []
    return _drop_short_edges(poly)


def _drop_short_edges(poly: _Labelled) -> _Labelled:
    out: _Labelled = []
    for p, label in poly:
        if out and math.dist(out[-1][0], p) < _EPS:
            continue
        out.append((p, label))
    while len(out) > 1 and math.dist(out[-1][0], out[0][0]) < _EPS:
        out.pop()
    return out if len(out) >= 3 else []


@dataclass(frozen=True, slots=True)
class _Diagram:
    pieces: tuple[_Labelled, ...]  # one per site
    sites: tuple[Site, ...]

    def region_edges(self, region: int) -> list[tuple[Point, Point, int]]:
        """The edges of a region's pieces that border another region or the frame."""
        edges = []
        for index, piece in enumerate(self.pieces):
            if self.sites[index].region != region:
                continue
            n = len(piece)
            for k in range(n):
                p, label = piece[k]
                neighbour = FRAME if label == FRAME else self.sites[label].region
                if neighbour != region:
                    edges.append((p, piece[(k + 1) % n][0], neighbour))
        return edges


def _diagram(sites: Sequence[Site], width: float, height: float) -> _Diagram:
    return _Diagram(
        tuple(_power_piece(i, sites, width, height) for i in range(len(sites))), tuple(sites)
    )


def _loops(edges: list[tuple[Point, Point, int]]) -> list[list[tuple[Point, Point, int]]]:
    """Chain edges end to start into closed loops."""
    left = list(edges)
    loops = []
    while left:
        loop = [left.pop(0)]
        while math.dist(loop[-1][1], loop[0][0]) > _JOIN:
            end = loop[-1][1]
            k = min(range(len(left)), key=lambda i: math.dist(left[i][0], end), default=-1)
            if k < 0 or math.dist(left[k][0], end) > _JOIN:
                raise ValueError("the cell's outline does not close")
            loop.append(left.pop(k))
        loops.append(loop)
    return loops


def _merge_collinear(loop: list[tuple[Point, Point, int]]) -> list[tuple[Point, Point, int]]:
    """Join consecutive edges with the same neighbour that continue in a straight line."""
    merged: list[tuple[Point, Point, int]] = []
    for edge in loop:
        if merged:
            a, b, label = merged[-1]
            if label == edge[2] and _collinear(a, b, edge[1]):
                merged[-1] = (a, edge[1], label)
                continue
        merged.append(edge)
    if len(merged) > 1:
        a, b, label = merged[-1]
        first = merged[0]
        if label == first[2] and _collinear(a, b, first[1]):
            merged[0] = (a, first[1], label)
            merged.pop()
    return merged


def _collinear(a: Point, b: Point, c: Point) -> bool:
    cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return abs(cross) <= 1e-9 * max(1.0, math.dist(a, c))


class _Unsound(Exception):
    """A candidate diagram breaks an invariant (a region split, a hole, a lost site)."""


def _outlines(diagram: _Diagram) -> dict[int, list[tuple[Point, Point, int]]]:
    """Each region's outline edges as one closed loop; `_Unsound` when that is impossible."""
    regions = sorted({s.region for s in diagram.sites})
    outlines = {}
    for rid in regions:
        edges = [e for e in diagram.region_edges(rid) if math.dist(e[0], e[1]) > _EPS]
        if not edges:
            raise _Unsound(f"region {rid} has no cell")
        try:
            loops = _loops(edges)
        except ValueError as err:
            raise _Unsound(str(err)) from err
        if len(loops) != 1:
            raise _Unsound(f"region {rid} is split or holds a hole")
        outlines[rid] = _merge_collinear(loops[0])
    return outlines


def build(
    board: Board, sites: Sequence[Site] | None = None, *, precision: float = 1e-3
) -> MapGeometry:
    """The geometry of `board` grown from `sites` (default: one unweighted site per region)."""
    width, height = board_size(board)
    sites = tuple(sites) if sites is not None else primary_sites(board)
    diagram = _diagram(sites, width, height)
    outlines = _outlines(diagram)
    primary = {s.region: s for s in reversed(sites)}  # the first site of a region is its own
    built = {}
    for rid, edges in outlines.items():
        outline = tuple(a for a, _, _ in edges)
        pieces = tuple(
            tuple(p for p, _ in piece)
            for piece, site in zip(diagram.pieces, sites, strict=True)
            if site.region == rid and piece
        )
        home = primary[rid]
        room = distance_to_outline(outline, home.x, home.y)
        pole, best = pole_of_inaccessibility(outline, precision)
        anchor, clearance = ((home.x, home.y), room) if room >= 0.75 * best else (pole, best)
        built[rid] = Cell(rid, outline, pieces, tuple(edges), anchor, clearance, best)
    return MapGeometry(width, height, dict(sorted(built.items())), sites)


def primary_sites(board: Board) -> tuple[Site, ...]:
    """One site per region at its position; regions without one get a grid place."""
    width, height = board_size(board)
    missing = [rid for rid, r in sorted(board.regions.items()) if r.position is None]
    columns = max(1, math.ceil(math.sqrt(len(missing) * width / height))) if missing else 1
    rows = max(1, math.ceil(len(missing) / columns))
    spare = {
        rid: ((k % columns + 0.5) / columns, (k // columns + 0.5) / rows)
        for k, rid in enumerate(missing)
    }
    seen: set[tuple[float, float]] = set()
    sites = []
    for rid, region in sorted(board.regions.items()):
        fx, fy = region.position or spare[rid]
        x, y = fx * width, fy * height
        while (round(x, 9), round(y, 9)) in seen:  # two regions on one point: nudge apart
            x += 1e-4
        seen.add((round(x, 9), round(y, 9)))
        sites.append(Site(rid, x, y))
    return tuple(sites)


def _adjacent_pairs(board: Board) -> frozenset[tuple[int, int]]:
    return frozenset(
        (rid, other) for rid, region in board.regions.items() for other in region.adjacent
        if rid < other
    )


TUNING_FILE = "map_tuning.json"
"""The stored tuning of the packaged boards, in `companion/data`: per board name, the
`fingerprint` it was tuned for and its `sites` as ``[region, x, y, weight]`` rows. Written
by ``tools/map_tuning.py`` (``python tools/render_maps.py --tune``)."""


def tuned_sites(board: Board) -> tuple[Site, ...] | None:
    """The stored tuning of `board`, or None: a board of no stored tuning, or one whose
    positions or adjacency changed since it was tuned (its fingerprint differs)."""
    stored = _stored_tuning().get(board.name)
    if not isinstance(stored, dict) or stored.get("fingerprint") != fingerprint(board):
        return None
    try:
        return tuple(Site(int(r), float(x), float(y), float(w)) for r, x, y, w in stored["sites"])
    except (KeyError, TypeError, ValueError):
        return None  # a damaged file: the board is drawn untuned, never not at all


@functools.cache
def _stored_tuning() -> dict[str, Any]:
    try:
        found = json.loads(data_file(TUNING_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


@functools.cache
def _geometry_cached(board: Board) -> MapGeometry:
    return build(board, tuned_sites(board))
