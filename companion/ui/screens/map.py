"""The map screen: the board (`BoardMap`) beside a panel about the region tapped."""

from __future__ import annotations

from companion.ui.map_widget import BoardMap
from companion.ui.screens.base import PresenterScreen

__all__ = ["BoardMap", "MapScreen"]


class MapScreen(PresenterScreen):
    pass
