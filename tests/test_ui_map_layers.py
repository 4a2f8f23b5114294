"""The map's layered canvas, headless: a change repaints only the regions it changes.

`BoardMap` builds its static layer (filled cells, outlines, the board's edge) once per
board and placement and keeps, per region, a slot in each layer that changes in play.
These tests prove that a one-region change leaves every other instruction object in place,
that a resize or a new board rebuilds, and that after any sequence of changes the canvas
is what a map built afresh on the final properties draws: the same instructions in the
same order, and the same pixels. Real Kivy, offscreen window (``SDL_VIDEODRIVER``).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from kivy.base import EventLoop
from kivy.graphics import (
    Color,
    Ellipse,
    Fbo,
    InstructionGroup,
    Line,
    Mesh,
    Rectangle,
)

from companion.rules.board import BoardState, Markers, Occupant
from companion.rules.maps import Board, load_board, parse_board_text
from companion.rules.river import RIVER, setup_pirates
from companion.ui.map_layers import RegionColours, RegionGroups
from companion.ui.map_widget import BoardMap

RIVER_FILE = Path(__file__).parent / "data" / "river-test.json"
PALETTE = {0: (0.90, 0.62, 0.00, 1.0), 1: (0.00, 0.45, 0.70, 1.0),
           2: (0.80, 0.47, 0.65, 1.0)}


@pytest.fixture(scope="module")
def window() -> Any:
    EventLoop.ensure_window()
    return EventLoop.window


def _frames(count: int = 3) -> None:
    for _ in range(count):
        EventLoop.idle()


def _held(board: Board) -> BoardState:
    """The set-up board with seat 0 in 2, seat 1 (in decline) in 3, seat 2 in 9."""
    state = BoardState.setup(board)
    for rid, seat, decline in ((2, 0, False), (3, 1, True), (9, 2, False)):
        occupant = Occupant(seat=seat, race="Elves", in_decline=decline, tokens=3)
        state = state.with_region(rid, replace(state[rid], occupant=occupant, lost_tribe=False))
    return state


@pytest.fixture
def board_map(window: Any) -> Iterator[BoardMap]:
    window.size = (800, 480)
    board = load_board("3p")
    widget = BoardMap(board=board, regions=_held(board), player_colours=dict(PALETTE),
                      size_hint=(None, None), pos=(0, 0), size=(800, 480))
    window.add_widget(widget)
    _frames()
    yield widget
    window.remove_widget(widget)


def _walk(group: Any) -> list[Any]:
    """Every instruction under `group`, depth first, groups included."""
    found: list[Any] = []
    for child in group.children:
        found.append(child)
        if isinstance(child, InstructionGroup):
            found += _walk(child)
    return found


def _with_tokens(widget: BoardMap, rid: int, tokens: int) -> BoardState:
    state: BoardState = widget.regions
    here = state[rid]
    assert here.occupant is not None
    return state.with_region(rid, replace(here, occupant=replace(here.occupant, tokens=tokens)))


def test_a_token_count_changed_in_one_region_repaints_that_region_only(
    board_map: BoardMap,
) -> None:
    before = _walk(board_map.canvas)
    rebuilds = board_map.rebuilds
    outside = [i for i in before
               if not any(i is g or i in _walk(g) for g in board_map.region_groups(9))]
    contents = board_map.region_groups(9)[3]
    old_contents = list(contents.children)

    board_map.regions = _with_tokens(board_map, 9, 5)
    _frames()

    assert board_map.rebuilds == rebuilds, "no rebuild for a change in play"
    assert board_map.last_redrawn == frozenset({9})
    after = _walk(board_map.canvas)
    kept = [i for i in after
            if not any(i is g or i in _walk(g) for g in board_map.region_groups(9))]
    assert len(kept) == len(outside)
    assert all(a is b for a, b in zip(kept, outside, strict=True)), \
        "every instruction of the other regions and of the static layer is the same object"
    assert contents is board_map.region_groups(9)[3], "the slot stays in its place"
    assert not any(i in old_contents for i in contents.children), "region 9 was repainted"
    assert 0 < board_map.last_touched < len(after) / 10


def test_a_conquest_repaints_the_conquered_region_only(board_map: BoardMap) -> None:
    state: BoardState = board_map.regions
    occupant = Occupant(seat=0, race="Elves", in_decline=False, tokens=2)
    board_map.regions = state.with_region(12, replace(state[12], occupant=occupant,
                                                      lost_tribe=False))
    _frames()
    assert board_map.last_redrawn == frozenset({12})
    ring, _selection, _differs, _contents = board_map.region_groups(12)
    colours = [i.rgba for i in ring.children if isinstance(i, Color)]
    assert colours == [pytest.approx(PALETTE[0])], "the ring in the holder's colour"


def test_a_highlight_sets_the_cell_colours_in_place(board_map: BoardMap) -> None:
    rebuilds = board_map.rebuilds
    colours = {rid: board_map.fill_colour(rid) for rid in board_map.board.regions}
    static_count = len(board_map.static_layer().children)
    first = tuple(colours[5].rgba)

    board_map.highlight = frozenset({5, 6})
    _frames()

    assert board_map.rebuilds == rebuilds
    assert all(board_map.fill_colour(rid) is c for rid, c in colours.items())
    assert len(board_map.static_layer().children) == static_count
    assert tuple(colours[5].rgba) != first, "the pointed-out region is brighter"
    assert board_map.last_redrawn == frozenset(board_map.board.regions), \
        "every other region is dimmed"

    board_map.selected = 5
    _frames()
    assert board_map.last_redrawn == frozenset({5})
    _ring, selection, _differs, _contents = board_map.region_groups(5)
    lines = [i for i in selection.children if isinstance(i, Line)]
    assert len(lines) == 2, "a dark outline under a yellow one"
    assert board_map.last_touched == len(selection.children), "nothing else was touched"


def test_a_draw_with_nothing_changed_touches_nothing(board_map: BoardMap) -> None:
    before = _walk(board_map.canvas)
    board_map._trigger()  # as if a property were set to an equal value
    _frames()
    assert board_map.last_redrawn == frozenset()
    assert board_map.last_touched == 0
    assert all(a is b for a, b in zip(_walk(board_map.canvas), before, strict=True))


def test_a_resize_or_a_new_board_rebuilds_everything(board_map: BoardMap) -> None:
    static = board_map.static_layer()
    rebuilds = board_map.rebuilds
    board_map.size = (700, 420)
    _frames()
    assert board_map.rebuilds == rebuilds + 1
    assert board_map.static_layer() is not static
    assert board_map.last_redrawn == frozenset(board_map.board.regions)

    board_map.board = load_board("2p")
    board_map.regions = BoardState.setup(board_map.board)
    _frames()
    assert board_map.rebuilds == rebuilds + 2
    assert board_map.last_redrawn == frozenset(board_map.board.regions)


def test_the_same_token_count_reuses_its_texture(board_map: BoardMap) -> None:
    def textures(rid: int) -> list[Any]:
        contents = board_map.region_groups(rid)[3]
        return [i.texture for i in contents.children if isinstance(i, Rectangle)]

    shown = textures(9)
    board_map.regions = _with_tokens(board_map, 9, 6)
    _frames()
    assert textures(9) != shown
    board_map.regions = _with_tokens(board_map, 9, 3)
    _frames()
    again = textures(9)
    assert len(again) == len(shown)
    assert all(a is b for a, b in zip(again, shown, strict=True)), \
        "the id and the count 3 are the textures made the first time"
    twin = textures(2)  # region 2 also shows 3 tokens, in another colour but on a disc
    assert any(t is s for t in twin for s in shown[1:]), "the same number, the same texture"


def _describe(instruction: Any, layers: frozenset[int] = frozenset()) -> tuple[Any, ...]:
    """What an instruction draws, to compare two canvases (a rectangle that draws one of
    the map's own layers, `layers` by texture id, is described as that)."""
    if isinstance(instruction, Color):
        return ("Color", tuple(round(c, 6) for c in instruction.rgba))
    if isinstance(instruction, Mesh):
        return ("Mesh", instruction.mode, tuple(round(v, 3) for v in instruction.vertices),
                tuple(instruction.indices))
    if isinstance(instruction, Line):
        return ("Line", tuple(round(v, 3) for v in instruction.points),
                round(instruction.width, 3))
    if isinstance(instruction, Rectangle | Ellipse):
        texture = instruction.texture
        return (type(instruction).__name__, tuple(instruction.pos), tuple(instruction.size),
                None if texture is None else "layer" if id(texture) in layers else id(texture))
    return (type(instruction).__name__,)


def _drawing(widget: BoardMap) -> list[tuple[Any, ...]]:
    found = _walk(widget.canvas)
    layers = frozenset(id(i.texture) for i in found if isinstance(i, Fbo))
    return [_describe(i, layers) for i in found if not isinstance(i, InstructionGroup)]


def _pixels(widget: BoardMap, path: Path) -> bytes:
    from kivy.core.image import Image as CoreImage

    widget.export_to_png(str(path))
    return bytes(CoreImage(str(path), keep_data=True).texture.pixels)


def _play(widget: BoardMap, rng: random.Random, steps: int) -> None:
    """Random changes of every kind the game makes, a frame or none between them."""
    board: Board = widget.board
    land = [rid for rid, r in board.regions.items() if not r.is_water]
    for _ in range(steps):
        kind = rng.choice(["occupant", "tokens", "decline", "leave", "markers", "highlight",
                           "selected", "differs", "badges", "colours", "caravel"])
        state: BoardState = widget.regions
        rid = rng.choice(land)
        here = state[rid]
        if kind == "occupant":
            occupant = Occupant(seat=rng.randrange(3), race="Orcs", in_decline=False,
                                tokens=rng.choice([None, 1, 2, 4]))
            widget.regions = state.with_region(rid, replace(here, occupant=occupant,
                                                            lost_tribe=False))
        elif kind == "tokens" and here.occupant is not None:
            widget.regions = _with_tokens(widget, rid, rng.randrange(1, 9))
        elif kind == "decline" and here.occupant is not None:
            widget.regions = state.with_region(
                rid, replace(here, occupant=replace(here.occupant, in_decline=True)))
        elif kind == "leave":
            widget.regions = state.with_region(rid, replace(here, occupant=None))
        elif kind == "markers":
            markers = Markers(fortress=rng.random() < 0.5, encampments=rng.randrange(3),
                              hero=rng.random() < 0.3, dragon=rng.random() < 0.3)
            widget.regions = state.with_region(rid, replace(here, markers=markers))
        elif kind == "highlight":
            widget.highlight = frozenset(rng.sample(land, rng.choice([0, 3, 8])))
        elif kind == "selected":
            widget.selected = rng.choice([None, rid])
        elif kind == "differs":
            widget.differs = frozenset(rng.sample(land, rng.choice([0, 1, 3])))
        elif kind == "badges":
            widget.badges = {r: rng.choice(["+", "?", "12"]) for r in rng.sample(land, 2)}
        elif kind == "colours":
            colours = dict(widget.player_colours)
            colours[rng.randrange(3)] = (rng.random(), rng.random(), rng.random(), 1.0)
            widget.player_colours = colours
        elif kind == "caravel" and widget.pieces:
            rivers = [r.id for r in board.regions.values() if r.terrain is RIVER]
            widget.pieces = {"caravel": rng.choice(rivers)}
        if rng.random() < 0.7:
            _frames(1)
    _frames()


@pytest.mark.parametrize("which", ["3p", "river"])
def test_after_many_changes_the_map_draws_what_a_fresh_map_draws(
    window: Any, tmp_path: Path, which: str
) -> None:
    window.size = (800, 480)
    if which == "river":
        board = parse_board_text(RIVER_FILE.read_text("utf-8"), source=RIVER_FILE.name)
        state = setup_pirates(board, _held(board), 12)
        caravel: int | None = 3
    else:
        board, caravel = load_board(which), None
        state = _held(board)
    widget = BoardMap(board=board, regions=state, player_colours=dict(PALETTE),
                      pieces={"caravel": caravel} if caravel is not None else {},
                      size_hint=(None, None), pos=(0, 0), size=(800, 480))
    window.add_widget(widget)
    try:
        _frames()
        _play(widget, random.Random(which), 120)
        rebuilds = widget.rebuilds
        drawn = {rid: widget.drawn(rid) for rid in board.regions}
        drawing = _drawing(widget)
        pixels = _pixels(widget, tmp_path / "played.png")
    finally:
        window.remove_widget(widget)
    assert rebuilds == 1, "the changes were drawn without a rebuild"

    fresh = BoardMap(board=board, regions=widget.regions, highlight=widget.highlight,
                     selected=widget.selected, differs=widget.differs,
                     badges=dict(widget.badges), player_colours=dict(widget.player_colours),
                     pieces=dict(widget.pieces), size_hint=(None, None), pos=(0, 0),
                     size=(800, 480))
    window.add_widget(fresh)
    try:
        _frames()
        assert {rid: fresh.drawn(rid) for rid in board.regions} == drawn
        assert _drawing(fresh) == drawing
        assert _pixels(fresh, tmp_path / "fresh.png") == pixels
    finally:
        window.remove_widget(fresh)


# --- the layers on their own -------------------------------------------------------------


def _painter(log: list[tuple[int, str]]) -> Any:
    def paint(group: InstructionGroup, rid: int, key: str) -> None:
        log.append((rid, key))
        group.add(Color(1, 1, 1, 1))
        group.add(Rectangle(pos=(rid, len(key)), size=(1, 1)))
    return paint


def test_region_groups_repaint_only_the_changed_keys_and_keep_their_order(window: Any) -> None:
    log: list[tuple[int, str]] = []
    layer: RegionGroups[str] = RegionGroups([3, 1, 2], _painter(log))
    slots = list(layer.group.children)
    changed, touched = layer.update({1: "a", 2: "b", 3: "c"})
    per_slot = len(layer.slot(1).children)  # the colour, the rectangle (and its texture's)
    assert changed == {1, 2, 3} and log == [(3, "c"), (1, "a"), (2, "b")]
    assert per_slot >= 2 and touched == 3 * per_slot
    kept = list(layer.slot(1).children)

    log.clear()
    changed, touched = layer.update({1: "a", 2: "bb"})  # 3 absent: drawn as nothing
    assert changed == {2, 3} and log == [(2, "bb")]
    assert touched == 3 * per_slot  # 2's removed and made again, 3's removed
    assert layer.slot(3).children == [] and layer.key(3) is None
    assert all(a is b for a, b in zip(layer.slot(1).children, kept, strict=True))
    assert list(layer.group.children) == slots, "the slots keep their order"

    log.clear()
    assert layer.update({1: "a", 2: "bb"}) == (set(), 0) and log == []


def test_region_colours_are_set_in_place(window: Any) -> None:
    colours = RegionColours()
    made = {rid: colours.add(rid, (0.1 * rid, 0, 0, 1)) for rid in (1, 2)}
    assert colours.update({1: (0.1, 0, 0, 1), 2: (0, 1, 0, 1)}) == {2}
    assert colours.colour(2) is made[2] and tuple(made[2].rgba) == (0, 1, 0, 1)
    assert colours.update({1: (0.1, 0, 0, 1), 2: (0, 1, 0, 1)}) == set()
