"""Past games: one big button per finished game (date, board, seats, winner, tie-break)."""

from __future__ import annotations

from companion.ui.screens.loading import LoadingScreen


class HistoryScreen(LoadingScreen):
    pass
