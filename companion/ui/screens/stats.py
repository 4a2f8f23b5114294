"""Stats: a card per saved player, or a row per combo."""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui import palette
from companion.ui.screens.loading import LoadingScreen


class StatCard(BoxLayout):  # type: ignore[misc]
    """A heading (in a player's colour, or plain for a combo) and lines of words."""

    name = StringProperty("")
    text = StringProperty("")
    rgba = ObjectProperty(palette.PANEL)
    ink = ObjectProperty(palette.ACCENT)


class StatCards(BoxLayout):  # type: ignore[misc]
    cards = ObjectProperty([])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fbind("cards", self._rebuild)

    def _rebuild(self, *_args: Any) -> None:
        self.clear_widgets()
        for card in self.cards:
            self.add_widget(StatCard(**card))


class StatsScreen(LoadingScreen):
    pass
