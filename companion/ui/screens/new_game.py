"""New game: the players in seat order, their colours, the first player, decks, dealing."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui import palette
from companion.ui.screens.base import PresenterScreen
from companion.ui.widgets import Pool


class SeatRow(BoxLayout):  # type: ignore[misc]
    index = NumericProperty(0)
    name = StringProperty("")
    colour_name = StringProperty("")
    rgba = ObjectProperty(palette.FALLBACK)
    ink = ObjectProperty(palette.TEXT)
    first = BooleanProperty(False)
    can_up = BooleanProperty(False)
    can_down = BooleanProperty(False)
    side = StringProperty("Near")
    """The seat's side of the screen ("Near" or "Far"), shown when the players sit around
    it (`NewGamePresenter.around`)."""
    presenter = ObjectProperty(None, allownone=True)


class SeatList(BoxLayout):  # type: ignore[misc]
    presenter = ObjectProperty(None, allownone=True)
    seats = ObjectProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self._pool: Pool[SeatRow] = Pool(self, row=lambda: SeatRow(presenter=self.presenter))
        super().__init__(**kwargs)
        self.fbind("seats", self._rebuild)

    def _rebuild(self, *_args: Any) -> None:
        rows = self._pool.show(["row"] * len(self.seats))
        for row, seat in zip(rows, self.seats, strict=True):
            row.presenter = self.presenter
            for key in ("index", "name", "colour_name", "rgba", "ink", "first", "can_up",
                        "can_down", "side"):
                setattr(row, key, seat[key])

    def row(self, index: int) -> SeatRow | None:
        return next((c for c in self.children if isinstance(c, SeatRow) and c.index == index),
                    None)


class NewGameScreen(PresenterScreen):
    """The form; each expansion view's option rows are found under its `setup_key` among
    the ids (the board choice's column for the rows placed with the board, else
    `options`)."""

    def __init__(self, presenter: Any = None, **kwargs: Any) -> None:
        super().__init__(presenter, **kwargs)
        if presenter is not None:
            for key, place in presenter.option_places().items():
                self.ids[key] = self.ids.board_choice if place == "board" else self.ids.options
