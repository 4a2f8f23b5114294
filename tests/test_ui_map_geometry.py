"""The map's cells: grown around the printed positions, tiling the board, following adjacency."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import sys
from pathlib import Path
from types import MappingProxyType

import pytest

from companion.rules.maps import BOARD_NAMES, Board, load_board
from companion.ui import map_geometry as mg

_TUNER = Path(__file__).resolve().parents[1] / "tools" / "map_tuning.py"
_spec = importlib.util.spec_from_file_location("map_tuning", _TUNER)
assert _spec is not None and _spec.loader is not None
map_tuning = importlib.util.module_from_spec(_spec)
sys.modules["map_tuning"] = map_tuning  # its dataclass looks its module up by name
_spec.loader.exec_module(map_tuning)

BOARDS = [load_board(name) for name in BOARD_NAMES]
IDS = list(BOARD_NAMES)

# Measured with the stored tuning (tools/render_maps.py prints these): adjacent pairs drawn
# sharing a border of at least MIN_SHARED, and non-adjacent pairs drawn touching.
TUNED_FLOOR = {"2p": (51, 0), "3p": (71, 0), "4p": (95, 0), "5p": (119, 0)}
# The same for the untuned Voronoi diagram, which any other board gets until it is tuned.
PLAIN_FLOOR = {"2p": (51, 0), "3p": (68, 0), "4p": (85, 7), "5p": (109, 8)}
# The smallest touch target (largest circle in a cell) at 800x480, in px, as measured.
TOUCH_FLOOR_800x480 = {"2p": 90, "3p": 86, "4p": 49, "5p": 48}


def _grid(board: Board, steps: int = 60) -> list[tuple[float, float]]:
    width, _height = mg.board_size(board)
    # irrational offsets keep the probes off the cells' edges
    return [
        ((i + 0.5 + 0.01 * math.sqrt(2)) * width / steps, (j + 0.5 + 0.01 * math.sqrt(3)) / steps)
        for i in range(steps) for j in range(steps)
    ]


@pytest.mark.parametrize("board", BOARDS, ids=IDS)
def test_every_region_position_lies_inside_its_own_cell(board: Board) -> None:
    geo = mg.geometry(board)
    width, _ = mg.board_size(board)
    for rid, region in board.regions.items():
        assert region.position is not None
        x, y = region.position[0] * width, region.position[1]
        assert geo.region_at(x, y) == rid
        assert mg.distance_to_outline(geo.cells[rid].outline, x, y) > 0.02


@pytest.mark.parametrize("board", BOARDS, ids=IDS)
def test_the_cells_tile_the_board(board: Board) -> None:
    geo = mg.geometry(board)
    width, height = mg.board_size(board)
    assert sum(cell.area for cell in geo.cells.values()) == pytest.approx(width * height, rel=1e-9)
    outlines = {rid: cell.outline for rid, cell in geo.cells.items()}
    for x, y in _grid(board):
        holders = [rid for rid, o in outlines.items() if mg.point_in_polygon(o, x, y)]
        assert len(holders) == 1, (x, y, holders)


@pytest.mark.parametrize("board", BOARDS, ids=IDS)
def test_outlines_are_simple_counter_clockwise_polygons_made_of_convex_pieces(board: Board) -> None:
    for rid, cell in mg.geometry(board).cells.items():
        assert mg.polygon_area(cell.outline) > 0, rid
        assert not _self_intersects(cell.outline), rid
        assert sum(mg.polygon_area(p) for p in cell.pieces) == pytest.approx(cell.area, rel=1e-9)
        for piece in cell.pieces:
            assert _is_convex(piece), rid


@pytest.mark.parametrize("board", BOARDS, ids=IDS)
def test_the_label_anchor_is_well_inside_its_cell(board: Board) -> None:
    geo = mg.geometry(board)
    outlines = {rid: cell.outline for rid, cell in geo.cells.items()}
    for rid, cell in geo.cells.items():
        assert mg.region_at(outlines, *cell.anchor) == rid
        assert cell.clearance >= 0.75 * cell.inradius - 1e-3
        assert mg.distance_to_outline(cell.outline, *cell.anchor) == pytest.approx(
            cell.clearance, abs=1e-9
        )


def test_region_at_answers_none_off_the_board() -> None:
    outlines = mg.cells(load_board("2p"))
    assert mg.region_at(outlines, -0.01, 0.5) is None
    assert mg.region_at(outlines, 0.5, 1.01) is None
    assert mg.region_at(outlines, 1.889, 0.5) is None


def test_region_1_is_drawn_top_left_as_on_the_printed_board() -> None:
    for board in BOARDS:
        geo = mg.geometry(board)
        width, _ = mg.board_size(board)
        assert geo.region_at(0.02 * width, 0.02) in (1, 2)
        last = max(board.regions)
        x, y = geo.cells[last].anchor
        assert x > width / 2 and y > 0.5


@pytest.mark.parametrize("board", BOARDS, ids=IDS)
def test_adjacent_regions_share_a_border_and_others_hardly_ever_do(board: Board) -> None:
    report = mg.adjacency_report(board)
    shared, extra = TUNED_FLOOR[board.name]
    assert report.adjacent_shared >= shared, report.missing
    assert report.non_adjacent_shared <= extra, report.extra
    assert report.adjacent_shared >= 0.97 * report.adjacent_pairs
    assert report.frame_mismatch == (), "a region drawn on the board's edge is not, or the reverse"


@pytest.mark.parametrize("board", BOARDS, ids=IDS)
def test_the_untuned_diagram_already_shows_most_borders(board: Board) -> None:
    report = mg.adjacency_report(board, mg.build(board))
    shared, extra = PLAIN_FLOOR[board.name]
    assert report.adjacent_shared >= shared
    assert report.non_adjacent_shared <= extra


@pytest.mark.parametrize("board", BOARDS, ids=IDS)
def test_the_stored_tuning_belongs_to_the_packaged_board(board: Board) -> None:
    stored = mg.tuned_sites(board)
    assert stored is not None, (
        f"the {board.name} board's positions or adjacency changed: "
        "run `python tools/render_maps.py --tune`"
    )
    assert mg.geometry(board).sites == stored


def test_tuning_is_deterministic_and_reproduces_the_stored_rows(tmp_path: Path) -> None:
    board = load_board("2p")
    sites = map_tuning.tune(board)
    written = map_tuning.store({"2p": (board, sites)}, tmp_path / "tuning.json")
    stored = json.loads(mg.data_file(mg.TUNING_FILE).read_text(encoding="utf-8"))
    assert json.loads(written.read_text(encoding="utf-8"))["2p"] == stored["2p"]


def test_a_damaged_tuning_file_draws_the_boards_untuned(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    board = load_board("2p")
    damaged = json.dumps({"2p": {"fingerprint": mg.fingerprint(board), "sites": [[1, "x"]]}})
    for text in ("{not json", damaged, "[]"):
        (tmp_path / mg.TUNING_FILE).write_text(text, encoding="utf-8")
        monkeypatch.setattr(mg, "data_file", lambda name: tmp_path / name)
        mg._stored_tuning.cache_clear()
        try:
            assert mg.tuned_sites(board) is None, text
        finally:
            monkeypatch.undo()
            mg._stored_tuning.cache_clear()


@pytest.mark.parametrize("board", BOARDS, ids=IDS)
def test_every_cell_is_a_big_enough_touch_target_on_the_7_inch_screen(board: Board) -> None:
    geo = mg.geometry(board)
    fit = mg.fit(geo.width, geo.height, 0, 0, 800, 480, margin=2)
    smallest = min(2 * cell.inradius * fit.scale for cell in geo.cells.values())
    assert smallest >= TOUCH_FLOOR_800x480[board.name]


def test_a_board_without_positions_is_still_drawn_soundly() -> None:
    board = load_board("3p")
    regions = {rid: dataclasses.replace(r, position=None) for rid, r in board.regions.items()}
    bare = dataclasses.replace(board, regions=MappingProxyType(regions))
    geo = mg.geometry(bare)
    assert sorted(geo.cells) == sorted(board.regions)
    width, height = mg.board_size(bare)
    assert sum(c.area for c in geo.cells.values()) == pytest.approx(width * height)
    for rid, cell in geo.cells.items():
        assert geo.region_at(*cell.anchor) == rid


# --- fitting into a widget ------------------------------------------------------------------


def test_a_wide_board_is_letterboxed_and_centred() -> None:
    fit = mg.fit(1.888, 1.0, 0, 0, 800, 480)
    x, y, w, h = fit.rect
    assert w == pytest.approx(800) and h == pytest.approx(800 / 1.888)
    assert y == pytest.approx((480 - h) / 2) and x == pytest.approx(0)
    assert fit.to_screen(0, 0) == pytest.approx((0, y + h))  # top-left stays top-left
    assert fit.to_screen(1.888, 1.0) == pytest.approx((800, y))


def test_a_square_board_in_a_landscape_screen_has_side_bars() -> None:
    fit = mg.fit(1.0, 1.0, 10, 20, 800, 480, margin=2)
    x, y, w, h = fit.rect
    assert (w, h) == pytest.approx((476, 476))
    assert x == pytest.approx(10 + (800 - 476) / 2) and y == pytest.approx(22)


@pytest.mark.parametrize("turn", ["never", "always"])
def test_screen_and_board_coordinates_round_trip(turn: mg.Turn) -> None:
    fit = mg.fit(1.649, 1.0, 5, 7, 720, 1280, turn=turn)
    for point in [(0.0, 0.0), (1.649, 1.0), (0.3, 0.8), (1.2, 0.1)]:
        assert fit.to_board(*fit.to_screen(*point)) == pytest.approx(point)


def test_portrait_screens_keep_the_board_upright_unless_turning_is_allowed() -> None:
    upright = mg.fit(1.888, 1.0, 0, 0, 720, 1280)
    assert not upright.turned and upright.rect[2] == pytest.approx(720)
    turned = mg.fit(1.888, 1.0, 0, 0, 720, 1280, turn="auto")
    assert turned.turned and turned.scale > upright.scale
    x, y, w, h = turned.rect
    assert h == pytest.approx(1.888 * turned.scale) and w == pytest.approx(turned.scale)
    # a quarter turn clockwise: the board's top-left corner goes to the top-right
    assert turned.to_screen(0, 0) == pytest.approx((x + w, y + h))
    assert mg.fit(1.888, 1.0, 0, 0, 800, 480, turn="auto").turned is False


# --- helpers for drawing ------------------------------------------------------------------


def test_rim_bands_stay_inside_their_cell() -> None:
    geo = mg.geometry(load_board("5p"))
    for cell in geo.cells.values():
        bands = mg.rim_bands(cell, 0.01)
        assert bands
        for band in bands:
            cx = sum(p[0] for p in band) / len(band)
            cy = sum(p[1] for p in band) / len(band)
            assert mg.point_in_polygon(cell.outline, cx, cy)
            assert 0 <= mg.distance_to_outline(cell.outline, cx, cy) <= 0.01 + 1e-9
        ring = sum(mg.polygon_area(b) for b in bands)
        perimeter = sum(math.dist(a, b) for a, b, _ in cell.edges)
        assert ring == pytest.approx(perimeter * 0.01, rel=0.25)


def test_a_box_is_placed_inside_the_cell_near_the_anchor() -> None:
    geo = mg.geometry(load_board("4p"))
    for cell in geo.cells.values():
        half = 0.6 * cell.inradius
        centre, fits = mg.place_box(cell, half, half / 2)
        assert fits
        assert mg.box_fits(cell.outline, *centre, half, half / 2)
    cell = geo.cells[1]
    centre, fits = mg.place_box(cell, 5.0, 5.0)  # larger than the board: nowhere
    assert not fits and centre == cell.anchor


def test_pole_of_inaccessibility_of_a_square_is_its_centre() -> None:
    point, radius = mg.pole_of_inaccessibility(((0, 0), (2, 0), (2, 2), (0, 2)), 1e-4)
    assert point == pytest.approx((1, 1), abs=1e-3)
    assert radius == pytest.approx(1, abs=1e-3)


def test_pole_of_inaccessibility_of_an_l_shape_lies_in_its_thick_part() -> None:
    ell = ((0, 0), (3, 0), (3, 1), (1, 1), (1, 3), (0, 3))
    point, radius = mg.pole_of_inaccessibility(ell, 1e-3)
    assert mg.point_in_polygon(ell, *point)
    assert radius == pytest.approx(2 - math.sqrt(2), abs=2e-3)  # where the arms meet


def _is_convex(poly: tuple[mg.Point, ...]) -> bool:
    n = len(poly)
    for k in range(n):
        (ax, ay), (bx, by), (cx, cy) = poly[k], poly[(k + 1) % n], poly[(k + 2) % n]
        if (bx - ax) * (cy - by) - (by - ay) * (cx - bx) < -1e-9:
            return False
    return True


def _self_intersects(poly: tuple[mg.Point, ...]) -> bool:
    n = len(poly)
    edges = [(poly[k], poly[(k + 1) % n]) for k in range(n)]
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue
            if _segments_cross(*edges[i], *edges[j]):
                return True
    return False


def _segments_cross(a: mg.Point, b: mg.Point, c: mg.Point, d: mg.Point) -> bool:
    def side(p: mg.Point, q: mg.Point, r: mg.Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    d1, d2 = side(c, d, a), side(c, d, b)
    d3, d4 = side(a, b, c), side(a, b, d)
    return d1 * d2 < -1e-12 and d3 * d4 < -1e-12
