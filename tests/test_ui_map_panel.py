"""The map's panel shows a region from the top: its title and first actions in sight.

On a small screen the panel of a region being conquered is taller than its place and scrolls. A
panel scrolled to its foot (to reach the steppers or "Correct this region") stayed there:
the next region tapped, or the next visit to the map, showed that region's foot, its
"Conquer" button above the window, and a tap on the screen where it had been missed it.
"""

from __future__ import annotations

from typing import Any

import ui_support as ui
from screen_steps import tap_region
from screenshots import _conquering


def in_window(widget: Any) -> bool:
    _, y = widget.to_window(widget.x, widget.y)
    return y >= 0 and y + widget.height <= ui.window().height


def test_a_region_tapped_shows_its_panel_from_the_top_wherever_it_was_scrolled() -> None:
    s, target = _conquering()
    app = ui.app_for(s)
    ui.resize((800, 360))  # short enough that this region's panel scrolls
    app.ctx.nav.go("map")
    ui.pump()
    screen = app.screens["map"]
    tap_region(app, target)
    scroll, panel = screen.ids.panel_scroll, screen.ids.panel
    assert panel.height > scroll.height  # it scrolls at this size
    top = panel.children[-1]  # the panel's first row
    assert in_window(top)

    scroll.scroll_y = 0  # a finger took it to its foot
    ui.pump()
    assert not in_window(top)
    tap_region(app, target)
    assert scroll.scroll_y == 1 and in_window(top)

    scroll.scroll_y = 0
    app.ctx.nav.go("table")
    ui.pump()
    app.ctx.nav.go("map")
    ui.pump()
    assert scroll.scroll_y == 1 and in_window(top)
