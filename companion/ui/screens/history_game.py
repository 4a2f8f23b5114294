"""One past game: standings, each player's turns and combos, the coins chart, export."""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui import palette
from companion.ui.qr import QRCode
from companion.ui.results import CoinsChart, ResultList
from companion.ui.screens.base import PresenterScreen


class SeatStory(BoxLayout):  # type: ignore[misc]
    """One player of a past game: name in their colour, coins per turn, combos picked."""

    name = StringProperty("")
    turns = StringProperty("")
    combos = StringProperty("")
    rgba = ObjectProperty(palette.FALLBACK)
    ink = ObjectProperty(palette.TEXT)


class SeatStories(BoxLayout):  # type: ignore[misc]
    players = ObjectProperty([])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fbind("players", self._rebuild)

    def _rebuild(self, *_args: Any) -> None:
        self.clear_widgets()
        for player in self.players:
            self.add_widget(SeatStory(**player))


class GameHistoryScreen(PresenterScreen):
    """Loaded by the history screen before it opens (`GameHistoryPresenter.load`)."""


__all__ = ["CoinsChart", "GameHistoryScreen", "QRCode", "ResultList", "SeatStories",
           "SeatStory"]
