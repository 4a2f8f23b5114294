"""Time how long `BoardMap` takes to bring its canvas up to date after one change.

    SDL_VIDEODRIVER=offscreen KIVY_NO_ARGS=1 .venv/bin/python tools/map_redraw_timing.py [BOARD]

On BOARD (default 5p) at 800x480, with `tools/render_maps.sample_state` on it, each of
three changes is made and undone 200 times: a held region's token count, a conquest of an
empty region, and the selection moving. Each time, the property is set and the map drawn
at once (its trigger's callback, as the next frame would); the median and 90th percentile
of that time are printed, with the instructions made per change (objects on the canvas
that were not there before) and, where the map counts them, the instructions touched and
the regions redrawn. Python only: the GL frame that follows is not timed.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

REPEATS = 200


def _walk(group: Any) -> list[Any]:
    from kivy.graphics import InstructionGroup

    found: list[Any] = []
    for child in group.children:
        found.append(child)
        if isinstance(child, InstructionGroup):
            found += _walk(child)
    return found


def main(board_name: str) -> None:
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from render_maps import PALETTE, sample_state

    from companion.rules.board import Occupant
    from companion.rules.maps import load_board
    from companion.ui.map_widget import BoardMap

    EventLoop.ensure_window()
    Window.size = (800, 480)
    board = load_board(board_name)
    state = sample_state(board)
    widget = BoardMap(board=board, regions=state, player_colours=dict(PALETTE),
                      size=(800, 480), pos=(0, 0), size_hint=(None, None))
    Window.add_widget(widget)
    for _ in range(3):
        EventLoop.idle()
    print(f"{board_name}: {len(_walk(widget.canvas))} instructions on the canvas")
    held = [r for r, s in state.regions.items() if s.occupant is not None]
    empty = [r for r, s in state.regions.items()
             if s.occupant is None and not board.regions[r].is_water]
    first = state.regions[held[0]]
    assert first.occupant is not None
    fewer = state.with_region(held[0], replace(first, occupant=replace(first.occupant, tokens=5)))
    taken = state.with_region(empty[0], replace(
        state.regions[empty[0]], lost_tribe=False,
        occupant=Occupant(seat=1, race="Sample", in_decline=False, tokens=3)))
    changes: dict[str, list[tuple[str, Any]]] = {
        "token count": [("regions", fewer), ("regions", state)],
        "conquest": [("regions", taken), ("regions", state)],
        "selection": [("selected", held[0]), ("selected", empty[0])],
    }
    for name, values in changes.items():
        times: list[float] = []
        made: list[int] = []
        touched: list[int] = []
        redrawn: list[int] = []
        for k in range(REPEATS):
            prop, value = values[k % 2]
            kept = _walk(widget.canvas)  # held, so that no new object gets an old one's id
            before = {id(i) for i in kept}
            started = time.perf_counter()
            setattr(widget, prop, value)
            widget._trigger.cancel()
            widget._redraw()
            times.append((time.perf_counter() - started) * 1000)
            made.append(sum(1 for i in _walk(widget.canvas) if id(i) not in before))
            del kept
            touched.append(getattr(widget, "last_touched", made[-1]))
            redrawn.append(len(getattr(widget, "last_redrawn", board.regions)))
            if k % 20 == 0:
                EventLoop.idle()
        times.sort()
        print(f"  {name}: median {statistics.median(times):.2f} ms, "
              f"p90 {times[int(REPEATS * 0.9)]:.2f} ms; instructions made "
              f"{statistics.median(made):.0f}, touched {statistics.median(touched):.0f}, "
              f"regions redrawn {statistics.median(redrawn):.0f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "5p")
