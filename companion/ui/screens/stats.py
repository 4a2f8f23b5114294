"""Stats: a card per saved player, or a row per combo."""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui import palette
from companion.ui.screens.loading import LoadingScreen
from companion.ui.widgets import Pool


class StatCard(BoxLayout):  # type: ignore[misc]
    """A heading (in a player's colour, or plain for a combo) and lines of words."""

    name = StringProperty("")
    text = StringProperty("")
    rgba = ObjectProperty(palette.PANEL)
    ink = ObjectProperty(palette.ACCENT)


class StatCards(BoxLayout):  # type: ignore[misc]
    """A `StatCard` per dict of `cards` ({name, text, rgba?, ink?}), updated in place (a
    `Pool`): a card is built only when more are shown than ever before."""

    cards = ObjectProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self._pool: Pool[StatCard] = Pool(self, card=StatCard)
        super().__init__(**kwargs)
        self.fbind("cards", self._rebuild)

    def _rebuild(self, *_args: Any) -> None:
        widgets = self._pool.show(["card"] * len(self.cards))
        for widget, card in zip(widgets, self.cards, strict=True):
            values = {"name": "", "text": "", "rgba": palette.PANEL, "ink": palette.ACCENT}
            values.update(card)
            for name, value in values.items():
                setattr(widget, name, value)


class StatsScreen(LoadingScreen):
    pass
