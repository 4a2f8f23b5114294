"""Render the four boards, with a few made-up holders and markers, to PNGs for a look.

    SDL_VIDEODRIVER=offscreen KIVY_NO_ARGS=1 .venv/bin/python tools/render_maps.py OUT_DIR
    .venv/bin/python tools/render_maps.py --tune     # re-tune the cells, rewrite their file

Each board is drawn by `BoardMap` at 800x480, 1280x720 and 720x1280 (OUT_DIR/map-2p-800x480.png
...), plus a legend; the smallest touch target per board and size and the adjacency numbers
are printed. `--tune` runs `tools/map_tuning.py` on every packaged board (a few minutes) and
writes the result to companion/data/map_tuning.json, where the app reads it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.rules.board import BoardState, Markers, Occupant  # noqa: E402
from companion.rules.maps import BOARD_NAMES, Board, load_board  # noqa: E402
from companion.ui import map_geometry as mg  # noqa: E402

SIZES = ((800, 480), (1280, 720), (720, 1280))
PALETTE = {  # Okabe-Ito, colour-blind safe
    0: (0.90, 0.62, 0.00, 1),
    1: (0.00, 0.45, 0.70, 1),
    2: (0.80, 0.47, 0.65, 1),
    3: (0.84, 0.37, 0.00, 1),
    4: (0.00, 0.62, 0.45, 1),
}


def sample_state(board: Board) -> BoardState:
    """The set-up board with a few made-up holders and every kind of marker somewhere."""
    state = BoardState.setup(board)
    land = [r.id for r in board.regions.values() if not r.is_water]
    seats = board.players
    for k, rid in enumerate(land[::3]):
        here = state.regions[rid]
        occupant = Occupant(seat=k % seats, race="Sample", in_decline=k % 4 == 3,
                            tokens=None if k == 2 else 1 + k % 4)
        state = state.with_region(rid, replace(here, occupant=occupant, lost_tribe=False))
    extras = [
        Markers(fortress=True), Markers(troll_lair=True), Markers(encampments=3),
        Markers(hole_in_the_ground=True), Markers(hero=True), Markers(dragon=True),
        Markers(fortress=True, hero=True, encampments=2),
    ]
    for markers, rid in zip(extras, land[1::4], strict=False):
        here = state.regions[rid]
        merged = replace(markers, mountain=here.markers.mountain)
        state = state.with_region(rid, replace(here, markers=merged))
    return state


def render(out: Path) -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.base import EventLoop
    from kivy.core.window import Window

    from companion.ui.map_widget import BoardMap, MapLegend

    out.mkdir(parents=True, exist_ok=True)
    EventLoop.ensure_window()
    Window.clearcolor = (0.13, 0.20, 0.16, 1)
    for name in BOARD_NAMES:
        board = load_board(name)
        report = mg.adjacency_report(board)
        print(f"{name}: adjacent pairs sharing a border {report.adjacent_shared}/"
              f"{report.adjacent_pairs}, non-adjacent pairs touching "
              f"{report.non_adjacent_shared}; missing {list(report.missing)}, "
              f"extra {list(report.extra)}")
        state = sample_state(board)
        for width, height in SIZES:
            Window.size = (width, height)
            widget = BoardMap(board=board, regions=state, player_colours=PALETTE,
                              size=(width, height), pos=(0, 0), size_hint=(None, None))
            if name == "3p":
                widget.selected = 5
            Window.add_widget(widget)
            for _ in range(3):
                EventLoop.idle()
            path = out / f"map-{name}-{width}x{height}.png"
            widget.export_to_png(str(path))
            targets = widget.touch_targets()
            smallest = min(targets, key=lambda rid: targets[rid])
            print(f"  {width}x{height}: smallest touch target region {smallest} "
                  f"{targets[smallest]:.0f} px -> {path}")
            Window.remove_widget(widget)
    Window.size = (800, 480)
    from kivy.graphics import Color, Rectangle

    legend = MapLegend(show_terrain=True, width=520, pos=(0, 0), size_hint_x=None)
    with legend.canvas.before:
        Color(*Window.clearcolor)
        Rectangle(pos=(0, 0), size=(520, 2000))
    Window.add_widget(legend)
    for _ in range(3):
        EventLoop.idle()
    legend.export_to_png(str(out / "legend.png"))
    print(f"  legend -> {out / 'legend.png'}")


def retune() -> None:
    import map_tuning  # tools/map_tuning.py, beside this file

    tuned = {}
    for name in BOARD_NAMES:
        board = load_board(name)
        started = time.perf_counter()
        sites = map_tuning.tune(board)
        report = mg.adjacency_report(board, mg.build(board, sites))
        print(f"{name}: tuned in {time.perf_counter() - started:.1f} s, "
              f"{len(sites) - len(board.regions)} extra sites, adjacent shared "
              f"{report.adjacent_shared}/{report.adjacent_pairs}, non-adjacent touching "
              f"{report.non_adjacent_shared}")
        tuned[name] = (board, sites)
    print(f"wrote {map_tuning.store(tuned)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, help="folder for the PNGs")
    parser.add_argument("--tune", action="store_true", help="re-tune the packaged boards")
    args = parser.parse_args()
    if args.tune:
        retune()
    if args.out is not None:
        render(args.out)
    elif not args.tune:
        parser.error("give an output folder, --tune, or both")


if __name__ == "__main__":
    main()
