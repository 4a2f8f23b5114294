"""On the first map, before anyone holds a region, the regions the player may attack
stand out from the rest by light and by colour, in the real headless app at 800x480:
with no ring or token to tell them by, the fill is all there is."""

from __future__ import annotations

import colorsys
from typing import Any

import ui_support
from factories import session

from companion.ui.map_widget import _luminance

MARGIN = 0.12
"""The least step in brightness between the dimmest target and the brightest other."""


def test_the_first_maps_targets_stand_out_from_the_rest(headless_app: Any) -> None:
    s = session(2)
    s.pick(0)
    assert not s.state.regions.regions or all(
        r.occupant is None for r in s.state.regions.regions.values())
    headless_app.use_session(s, screen="map")
    ui_support.pump(6)
    board = headless_app.screens["map"].ids.board
    targets = set(headless_app.presenters["map"].highlight)
    others = set(board.board.regions) - targets
    assert targets and others
    lit = {rid: board.drawn(rid)[0] for rid in targets}
    dim = {rid: board.drawn(rid)[0] for rid in others}
    darkest_target = min(_luminance(c) for c in lit.values())
    brightest_other = max(_luminance(c) for c in dim.values())
    assert darkest_target >= brightest_other + MARGIN, (darkest_target, brightest_other)
    # And by colour: the others are close to grey, the targets keep their terrain's colour.
    assert max(colorsys.rgb_to_hsv(*c[:3])[1] for c in dim.values()) < 0.2
