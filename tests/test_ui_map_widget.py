"""The map widget, headless: a tap on a region names it, state changes redraw, idle is idle.

Kivy runs in this process with a real (offscreen) window: ``SDL_VIDEODRIVER=offscreen``,
real GL through Mesa. Touches go through Kivy's event loop as `UnitTestTouch`es, like
Kivy's own tests; screenshots are saved under pytest's tmp_path and their pixels read back.
"""

from __future__ import annotations

import gc
import math
import os
import weakref
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from kivy.base import EventLoop
from kivy.graphics import Fbo, Rectangle
from kivy.tests.common import UnitTestTouch

from companion.rules.board import BoardState, Markers, Occupant
from companion.rules.maps import (
    BOARD_NAMES,
    Board,
    known_terrains,
    load_board,
    parse_board_text,
)
from companion.rules.river import Site, setup_pirates, with_site
from companion.ui import map_geometry as mg
from companion.ui.map_widget import (
    SYMBOLS,
    TERRAIN_COLOURS,
    BoardMap,
    MapLegend,
    SymbolIcon,
    legend,
    region_symbols,
)

RIVER_FILE = Path(__file__).parent / "data" / "river-test.json"
"""The invented River World board (see tests/river_support.py): rivers 3, 8, 13, 18 with
pirate symbols on 8 and 18; harbors on 4, 7, 14, 16; the Shipyard on 20; the Temple on 9."""

ORANGE = (0.90, 0.62, 0.00, 1.0)
BLUE = (0.00, 0.45, 0.70, 1.0)
SIZES = [(800, 480), (1280, 720), (720, 1280)]


@pytest.fixture(scope="module")
def window() -> Any:
    EventLoop.ensure_window()
    return EventLoop.window


@pytest.fixture
def board_map(window: Any) -> Iterator[BoardMap]:
    window.size = (800, 480)
    widget = BoardMap(board=load_board("3p"), player_colours={0: ORANGE, 1: BLUE},
                      size_hint=(None, None), pos=(0, 0), size=window.size)
    window.add_widget(widget)
    _frames()
    yield widget
    window.remove_widget(widget)


def _fit(widget: BoardMap) -> mg.Fit:
    fit = widget.placement
    assert fit is not None
    return fit


def _geo(widget: BoardMap) -> mg.MapGeometry:
    geo = widget.geometry
    assert geo is not None
    return geo


def _frames(count: int = 3) -> None:
    for _ in range(count):
        EventLoop.idle()


def _tap(x: float, y: float) -> None:
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def _taps(widget: BoardMap) -> list[int]:
    seen: list[int] = []
    widget.bind(on_region_tap=lambda _w, rid: seen.append(rid))
    return seen


def _pixels(widget: BoardMap, path: Path) -> tuple[bytes, int, int]:
    """Draw the widget alone and read its pixels back in memory (RGBA rows, top row first,
    as its PNG holds them); the PNG is saved at `path` only when asked for
    (``COMPANION_SHOTS``: then in that folder, under `path`'s name)."""
    image = widget.export_as_image()
    folder = os.environ.get("COMPANION_SHOTS")
    if folder:
        image.save(str(Path(folder) / path.name), flipped=False)
    texture = image.texture
    return bytes(texture.pixels), texture.width, texture.height


def _pixel(data: tuple[bytes, int, int], x: float, y: float) -> tuple[int, int, int]:
    pixels, width, height = data
    # the PNG is read top row first; Kivy's y is up
    row = height - 1 - int(y)
    i = (row * width + int(x)) * 4
    return pixels[i], pixels[i + 1], pixels[i + 2]


def _close(rgb: tuple[int, int, int], rgba: tuple[float, ...], tolerance: int = 12) -> bool:
    return all(abs(rgb[k] - round(rgba[k] * 255)) <= tolerance for k in range(3))


def test_a_tap_at_each_region_names_that_region(board_map: BoardMap) -> None:
    seen = _taps(board_map)
    for rid in board_map.board.regions:
        _tap(*board_map.anchor_on_screen(rid))
    assert seen == sorted(board_map.board.regions)


def test_a_tap_off_the_board_names_nothing(board_map: BoardMap) -> None:
    seen = _taps(board_map)
    _x, y, _w, _h = _fit(board_map).rect
    _tap(400, y / 2)  # in the letterbox below the board
    assert seen == []


def test_sliding_from_one_region_to_another_is_not_a_tap(board_map: BoardMap) -> None:
    seen = _taps(board_map)
    touch = UnitTestTouch(*board_map.anchor_on_screen(1))
    touch.touch_down()
    touch.touch_move(*board_map.anchor_on_screen(15))
    touch.touch_up()
    assert seen == []


def test_changing_who_holds_a_region_redraws_and_shows_the_holder(
    board_map: BoardMap, tmp_path: Path
) -> None:
    board = board_map.board
    before = board_map.redraws
    _frames(5)
    assert board_map.redraws == before, "idle is idle: no redraw without a change"

    state = BoardState.setup(board)
    state = state.with_region(
        9, replace(state[9], occupant=Occupant(seat=0, race="Elves", in_decline=False, tokens=3))
    )
    board_map.regions = state
    _frames()
    assert board_map.redraws == before + 1

    cell = _geo(board_map).cells[9]
    fit = _fit(board_map)
    (ax, ay), (bx, by), _ = max(cell.edges, key=lambda e: math.dist(e[0], e[1]))
    length = math.dist((ax, ay), (bx, by))
    inward = 0.7 * board_map.ring_width() / fit.scale  # inside the ring, clear of the border
    probe = ((ax + bx) / 2 - (by - ay) / length * inward,
             (ay + by) / 2 + (bx - ax) / length * inward)
    data = _pixels(board_map, tmp_path / "held.png")
    assert _close(_pixel(data, *fit.to_screen(*probe)), ORANGE)

    board_map.regions = state  # the same state again: nothing to do
    _frames()
    assert board_map.redraws == before + 1


def test_a_screenshot_shows_the_terrain_colours(board_map: BoardMap, tmp_path: Path) -> None:
    data = _pixels(board_map, tmp_path / "map-3p.png")
    pixels, width, height = data
    assert (width, height) == (800, 480)
    colours = {pixels[i:i + 3] for i in range(0, len(pixels), 4 * 97)}
    assert len(colours) > 20, "the map is not blank"
    board = board_map.board
    fit = _fit(board_map)
    for rid in (1, 15):  # the sea top-left, the lake in the middle
        cell = _geo(board_map).cells[rid]
        x, y = cell.anchor
        # a point halfway between the label and the outline shows the bare terrain
        probe = (x, y + cell.clearance * 0.8) if rid == 15 else (x, y - cell.clearance * 0.8)
        colour = TERRAIN_COLOURS[board.regions[rid].terrain]
        assert _close(_pixel(data, *fit.to_screen(*probe)), colour), rid


def test_ids_are_at_least_14_px(board_map: BoardMap) -> None:
    board_map.label_size = 10
    _frames()
    label_px, symbol_px = board_map.text_sizes()
    assert label_px >= 14 and symbol_px >= 12


def test_highlight_and_selected_redraw(board_map: BoardMap) -> None:
    before = board_map.redraws
    board_map.highlight = frozenset({3, 4})
    board_map.selected = 4
    _frames()
    assert board_map.redraws == before + 1  # one redraw for a burst of changes


def _offscreen_buffers(widget: BoardMap) -> list[Any]:
    """The map's two off-screen textures (`Fbo`), found in its canvas."""
    found: list[Any] = []
    todo = list(widget.canvas.children)
    while todo:
        instruction = todo.pop()
        if isinstance(instruction, Fbo):
            found.append(instruction)
        todo.extend(getattr(instruction, "children", ()))
    return found


def test_a_map_drawn_anew_lets_go_of_its_old_drawing_at_once(board_map: BoardMap) -> None:
    """With the garbage collector off: a new size draws the map anew, and every piece of
    the old drawing (its off-screen textures, its groups and shapes) is freed by reference
    counts alone, not left for a full collection."""
    old = _offscreen_buffers(board_map)
    assert len(old) == 2
    pieces = [weakref.ref(i) for fbo in old for i in fbo.children]
    fbos = [weakref.ref(fbo) for fbo in old]
    del old
    rebuilds = board_map.rebuilds
    gc.disable()
    try:
        board_map.size = (700, 420)
        _frames()
        assert board_map.rebuilds == rebuilds + 1
        assert [r for r in fbos + pieces if r() is not None] == []
    finally:
        gc.enable()


def test_the_maps_layers_are_laid_pixel_for_pixel_and_read_texel_for_pixel(
        board_map: BoardMap, tmp_path: Path) -> None:
    """Each off-screen layer is laid on the screen at its own size, on whole pixels, even
    where the map itself sits between two pixels, and is read 'nearest': the very pixels
    Kivy's linear filter gives there, for less work a frame."""
    for pos, size in (((3.5, 2.25), (640.5, 400.75)), ((0, 0), (800, 480))):
        board_map.pos, board_map.size = pos, size
        _frames()
        layers = [i for i in board_map._drawing.children if isinstance(i, Rectangle)]
        assert len(layers) == 2
        for layer in layers:
            assert tuple(layer.size) == tuple(layer.texture.size)
            assert all(float(v).is_integer() for v in layer.pos)
            assert (layer.texture.mag_filter, layer.texture.min_filter) == ("nearest",) * 2
    nearest = _pixels(board_map, tmp_path / "nearest.png")
    for layer in layers:
        layer.texture.mag_filter = layer.texture.min_filter = "linear"
    assert _pixels(board_map, tmp_path / "linear.png") == nearest


def test_a_map_squashed_for_a_moment_is_not_drawn_anew(board_map: BoardMap) -> None:
    """A layout pass that squashes the map to nothing for a moment (a panel beside it
    growing, then shrinking) hides the drawing and shows the same one again: nothing is
    rebuilt, nothing drawn in between."""
    drawn = _offscreen_buffers(board_map)
    rebuilds = board_map.rebuilds
    size = tuple(board_map.size)
    board_map.height = 0
    _frames()
    assert _offscreen_buffers(board_map) == []
    board_map.size = size
    _frames()
    assert board_map.rebuilds == rebuilds
    assert _offscreen_buffers(board_map) == drawn


def test_a_symbol_icon_redrawn_leaves_no_instruction_behind(window: Any) -> None:
    icon = SymbolIcon(symbol="fortress", size_hint=(None, None), size=(40, 40))
    window.add_widget(icon)
    try:
        _frames()
        drawn = [weakref.ref(i) for i in icon.canvas.children]
        gc.disable()
        try:
            icon.symbol = "dragon"
            _frames()
            assert [r for r in drawn if r() is not None] == []
        finally:
            gc.enable()
    finally:
        window.remove_widget(icon)


@pytest.mark.parametrize("name", BOARD_NAMES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_board_renders_at_every_size_with_big_enough_cells(
    window: Any, tmp_path: Path, name: str, size: tuple[int, int]
) -> None:
    board = load_board(name)
    window.size = size
    widget = BoardMap(board=board, regions=_busy_state(board), player_colours={0: ORANGE},
                      size_hint=(None, None), pos=(0, 0), size=size)
    window.add_widget(widget)
    try:
        _frames()
        pixels, width, height = _pixels(widget, tmp_path / f"map-{name}.png")
        assert (width, height) == size
        assert len({pixels[i:i + 3] for i in range(0, len(pixels), 4 * 101)}) > 20
        x, y, w, h = _fit(widget).rect
        assert x >= 0 and y >= 0 and x + w <= size[0] + 1e-6 and y + h <= size[1] + 1e-6
        assert min(widget.touch_targets().values()) >= 46
    finally:
        window.remove_widget(widget)
        window.size = (800, 480)


def test_every_symbol_has_a_drawing_and_a_legend_line(window: Any) -> None:
    keys = [key for key, _ in legend()]
    assert len(keys) == len(set(keys))
    assert {key for key, _ in SYMBOLS} == {
        "mine", "magic", "cavern", "lost_tribe", "mountain", "fortress", "troll_lair",
        "encampment", "hole_in_the_ground", "hero", "dragon", "pot_of_gold", "catapult",
        "harbor", "shipyard", "temple", "pirate_ship", "caravel",
    }
    for key in keys:
        icon = SymbolIcon(symbol=key, size=(40, 40))
        icon._redraw()
        assert len(icon.canvas.children) > 0
    legend_widget = MapLegend(show_terrain=True)
    assert len(legend_widget.children) == 2 * (len(keys) + len(known_terrains()))


def test_region_symbols_list_features_and_markers_in_legend_order() -> None:
    board = load_board("2p")
    state = BoardState.setup(board)
    region_6 = state[6]  # a mountain with a mine and a cavern
    assert region_symbols(board, 6, region_6) == [("mine", 1), ("cavern", 1), ("mountain", 1)]
    camp = replace(region_6, markers=Markers(mountain=True, encampments=3, hero=True))
    assert region_symbols(board, 6, camp) == [
        ("mine", 1), ("cavern", 1), ("mountain", 1), ("encampment", 3), ("hero", 1)
    ]


# --- River World: the printed sites, the pirate ships, the Caravel ---------------------


def _river_board() -> Board:
    return parse_board_text(RIVER_FILE.read_text("utf-8"), source=RIVER_FILE.name)


def _with_key(board: Board, state: BoardState | None, key: str,
              caravel: int | None = None) -> set[int]:
    """The regions where `region_symbols` reports `key`."""
    return {rid for rid in board.regions
            if key in dict(region_symbols(board, rid, state[rid] if state else None,
                                          {"caravel": caravel} if caravel is not None else None))}


def test_river_world_sites_and_pirate_ships_are_reported_where_they_are() -> None:
    board = _river_board()
    state = setup_pirates(board, BoardState.setup(board), supply=12)
    assert _with_key(board, state, "harbor") == set(with_site(board, Site.HARBOR)) \
        == {4, 7, 14, 16}
    assert _with_key(board, state, "shipyard") == {20}
    assert _with_key(board, state, "temple") == {9}
    assert _with_key(board, state, "pirate_ship") == {8, 18}
    assert _with_key(board, state, "caravel") == set()
    # in legend order, beside the base game's features
    assert region_symbols(board, 9, state[9]) == [("magic", 1), ("temple", 1)]
    assert region_symbols(board, 14, state[14]) == [("mine", 1), ("harbor", 1)]
    assert region_symbols(board, 8, state[8]) == [("pirate_ship", 1)]

    # the ship is the region's marker: sunk, it is no longer drawn; put elsewhere, it is
    sunk = state.with_region(8, replace(state[8], markers=Markers()))
    ship = Markers(pieces=frozenset({"pirate_ship"}))
    sunk = sunk.with_region(3, replace(state[3], markers=ship))
    assert _with_key(board, sunk, "pirate_ship") == {3, 18}

    # the bare printed board: a ship where the pirate symbol is (as at set-up)
    assert _with_key(board, None, "pirate_ship") == {8, 18}
    assert _with_key(board, None, "temple") == {9}


def test_the_caravel_is_reported_in_its_river_only() -> None:
    board = _river_board()
    state = setup_pirates(board, BoardState.setup(board), supply=12)
    assert _with_key(board, state, "caravel", caravel=13) == {13}
    assert _with_key(board, state, "caravel", caravel=8) == {8}
    assert region_symbols(board, 8, state[8], {"caravel": 8}) == [("pirate_ship", 1),
                                                                   ("caravel", 1)]
    assert region_symbols(board, 13, state[13]) == []  # callers without a Caravel


def test_the_legend_names_river_worlds_symbols() -> None:
    names = dict(legend())
    assert [names[key] for key in ("harbor", "shipyard", "temple", "pirate_ship", "caravel")] \
        == ["Harbor", "Shipyard", "Temple of the Seer", "Pirate ship", "Caravel"]


def test_the_legend_speaks_the_tables_language() -> None:
    from companion import i18n
    from companion.ui.map_widget import terrain_legend

    english = dict(legend())
    i18n.use("de")
    try:
        german = dict(legend())
        terrains = [name for _colour, name in terrain_legend()]
    finally:
        i18n.use("en")
    assert german["fortress"] == "Festung" and english["fortress"] == "Fortress"
    assert german["troll_lair"] == "Trollhöhle"
    assert german["active"].startswith("Aktives Volk")
    assert german["encampment"] == "Lager (eine Zahl: wie viele)"
    assert "Wald" in terrains and "Forest" not in terrains


def _changed_box(a: tuple[bytes, int, int],
                 b: tuple[bytes, int, int]) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1, Kivy's y up) of the pixels that differ, or None."""
    pixels_a, width, height = a
    pixels_b = b[0]
    found = [(i // 4 % width, height - 1 - i // 4 // width)
             for i in range(0, len(pixels_a), 4) if pixels_a[i:i + 3] != pixels_b[i:i + 3]]
    if not found:
        return None
    xs, ys = [x for x, _ in found], [y for _, y in found]
    return min(xs), min(ys), max(xs), max(ys)


def _cell_box(widget: BoardMap, rid: int) -> tuple[float, float, float, float]:
    fit = _fit(widget)
    points = [fit.to_screen(*p) for p in _geo(widget).cells[rid].outline]
    return (min(x for x, _ in points) - 2, min(y for _, y in points) - 2,
            max(x for x, _ in points) + 2, max(y for _, y in points) + 2)


def _inside(box: tuple[int, int, int, int] | None,
            cell: tuple[float, float, float, float]) -> bool:
    return box is not None and cell[0] <= box[0] and cell[1] <= box[1] \
        and box[2] <= cell[2] and box[3] <= cell[3]


@pytest.fixture
def river_map(window: Any) -> Iterator[BoardMap]:
    window.size = (800, 480)
    board = _river_board()
    widget = BoardMap(board=board, regions=setup_pirates(board, BoardState.setup(board), 12),
                      player_colours={0: ORANGE, 1: BLUE},
                      size_hint=(None, None), pos=(0, 0), size=window.size)
    window.add_widget(widget)
    _frames()
    yield widget
    window.remove_widget(widget)


def test_the_caravel_redraws_the_map_in_its_river_only(
    river_map: BoardMap, tmp_path: Path
) -> None:
    before = river_map.redraws
    without = _pixels(river_map, tmp_path / "no-caravel.png")
    river_map.pieces = {"caravel": 13}
    _frames()
    assert river_map.redraws == before + 1
    with_caravel = _pixels(river_map, tmp_path / "caravel.png")
    assert _inside(_changed_box(without, with_caravel), _cell_box(river_map, 13))

    river_map.pieces = {"caravel": 13}  # the same river again: nothing to do
    _frames()
    assert river_map.redraws == before + 1
    river_map.pieces = {}  # the turn is over: it leaves
    _frames()
    assert river_map.redraws == before + 2
    assert _changed_box(without, _pixels(river_map, tmp_path / "gone.png")) is None


def test_a_pirate_ship_is_drawn_in_its_river_only(river_map: BoardMap, tmp_path: Path) -> None:
    state: BoardState = river_map.regions
    with_ships = _pixels(river_map, tmp_path / "ships.png")
    river_map.regions = state.with_region(8, replace(state[8], markers=Markers()))
    _frames()
    sunk = _pixels(river_map, tmp_path / "sunk.png")
    assert _inside(_changed_box(with_ships, sunk), _cell_box(river_map, 8))


def test_a_river_world_game_on_the_map_screen() -> None:
    """A River World game played onto the real map screen: the sites, the pirate ships, the
    Caravel and the holders, at 800x480. COMPANION_SHOTS=DIR keeps the screenshot."""
    import ui_support as ui
    from river_support import SHIPYARD, river_session

    from companion.rules.river import RiverEvent

    session = river_session(RiverEvent.QUIET_WATERS)
    app = ui.app_for(session)
    ui.resize((800, 480))
    session.pick(0)
    session.conquer(SHIPYARD, 2)
    session.conquer(19, 3)  # the Lost Tribe's farmland beside it
    app.ctx.nav.go("map")
    ui.pump()
    screen = app.screens["map"]
    board: BoardMap = screen.ids.board
    assert board.pieces == {}
    drawn = board.redraws

    session.place_caravel(13)  # the map follows the game, no polling
    ui.pump()
    assert board.pieces == {"caravel": 13} and board.redraws > drawn
    session.conquer(14, 2)  # a harbor, reached from the Caravel
    session.conquer(8, 2)   # the river with a pirate ship: the ship sinks
    ui.pump()
    assert board.pieces == {"caravel": 13}
    held = board.regions
    assert not held[8].markers.has("pirate_ship") and held[18].markers.has("pirate_ship")
    assert ui.layout_problems(screen) == []

    frame = ui.frame()
    assert (frame.width, frame.height) == (800, 480)
    assert frame.colours() >= 16  # drawn, not blank
    folder = os.environ.get("COMPANION_SHOTS")
    if folder:
        ui.screenshot(Path(folder) / "map-river-world-800x480.png")


def _busy_state(board: Board) -> BoardState:
    state = BoardState.setup(board)
    for k, rid in enumerate(r for r in board.regions if not board.regions[r].is_water):
        if k % 3 == 0:
            occupant = Occupant(seat=0, race="Ratmen", in_decline=k % 2 == 1, tokens=k % 5 + 1)
            state = state.with_region(rid, replace(state[rid], occupant=occupant,
                                                   lost_tribe=False))
        elif k % 3 == 1:
            markers = Markers(mountain=state[rid].markers.mountain, fortress=True, encampments=2)
            state = state.with_region(rid, replace(state[rid], markers=markers))
    return state


def test_a_river_world_regions_title_names_its_printed_sites() -> None:
    """The map panel's title lists a region's printed features, River World's sites among
    them (its view's `printed_features`), in the language spoken."""
    import ui_support as ui
    from river_support import SHIPYARD, TEMPLE, river_session

    from companion import i18n
    from companion.rules.river import RiverEvent

    session = river_session(RiverEvent.QUIET_WATERS)
    app = ui.app_for(session)
    ui.resize((800, 480))
    app.ctx.nav.go("map")
    ui.pump()
    presenter = app.presenters["map"]
    titles = {}
    for rid in (14, SHIPYARD, TEMPLE, 1):
        presenter.tap(rid)
        titles[rid] = presenter.region_title
    assert titles[14].startswith("Region 14: ") and titles[14].endswith("(Mine, Harbor)")
    assert titles[SHIPYARD].endswith("Shipyard)") and titles[TEMPLE].endswith(
        "Temple of the Seer)")
    assert not any(site in titles[1] for site in ("Harbor", "Shipyard", "Temple"))
    try:
        i18n.use("fr")
        presenter.tap(14)
        assert presenter.region_title.endswith("(Mine, Port)")
    finally:
        i18n.use(i18n.SOURCE)
        app.ctx.nav.go("table")
        ui.pump()
