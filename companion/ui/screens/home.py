"""Home: new game, back to the game, resume a saved one, settings, and a status line."""

from __future__ import annotations

from companion.ui.screens.base import PresenterScreen


class HomeScreen(PresenterScreen):
    pass
