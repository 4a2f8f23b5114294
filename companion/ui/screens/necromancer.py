"""The Necromancer's screen: his side of the table, the purchases of his turn with their
price, and a stepper per region (and the Island) to place his Ghosts (a `CountList`)."""

from __future__ import annotations

from companion.ui.screens.base import PresenterScreen


class NecromancerScreen(PresenterScreen):
    pass
