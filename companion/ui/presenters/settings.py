"""Settings: a minimal screen for now (what the app is, where it keeps its games)."""

from __future__ import annotations

from kivy.properties import StringProperty

from companion.ui.presenters.base import Presenter


class SettingsPresenter(Presenter):
    about = StringProperty(
        "Table Companion for Small World keeps the turn track, the market, everybody's "
        "hidden coins and the scoring, so the table can just play."
    )
    where = StringProperty("")
    """Where the games are saved (set by the app)."""

    def act(self, key: str) -> None:
        if key == "back":
            self.go("home")
