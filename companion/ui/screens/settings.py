"""Settings: players, display, hardware, data; read afresh each time the screen opens."""

from __future__ import annotations

from companion.ui.screens.loading import LoadingScreen


class SettingsScreen(LoadingScreen):
    pass
