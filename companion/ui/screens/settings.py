"""Settings: minimal for now."""

from __future__ import annotations

from companion.ui.screens.base import PresenterScreen


class SettingsScreen(PresenterScreen):
    pass
