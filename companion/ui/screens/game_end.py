"""The game end: totals revealed one by one, the tie-break, the standings, the coins chart,
and the QR code that logs the play in BG Stats (`companion.ui.qr`)."""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.i18n import _
from companion.ui import palette
from companion.ui.qr import QRCode
from companion.ui.results import CoinsChart, ResultList, ResultRow
from companion.ui.screens.base import PresenterScreen
from companion.ui.widgets import Pool, Stepper


class StoryCard(BoxLayout):  # type: ignore[misc]
    """One player's story: their name by a strip of their colour, a line a race."""

    name = StringProperty("")
    lines = StringProperty("")
    rgba = ObjectProperty(palette.FALLBACK)


class StoryList(BoxLayout):  # type: ignore[misc]
    """The players' stories (`GameEndPresenter.story_rows`), cards updated in place."""

    rows = ObjectProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self._pool: Pool[StoryCard] = Pool(self, card=StoryCard)
        super().__init__(**kwargs)
        self.fbind("rows", self._rebuild)

    def _rebuild(self, *_args: Any) -> None:
        for card, row in zip(self._pool.show(["card"] * len(self.rows)), self.rows,
                             strict=True):  # fmt: skip
            card.name = row["name"]
            card.lines = row["lines"]
            card.rgba = row["rgba"]


class TieBreak(BoxLayout):  # type: ignore[misc]
    """One stepper per tied player: race tokens on the board. The steppers are updated in
    place (a `Pool`); each carries its seat as its `key`, read when it steps."""

    presenter = ObjectProperty(None, allownone=True)
    rows = ObjectProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self._pool: Pool[Stepper] = Pool(self, stepper=self._stepper)
        super().__init__(**kwargs)
        self.fbind("rows", self._rebuild)

    def _stepper(self) -> Stepper:
        stepper = Stepper(maximum=99)
        stepper.bind(on_step=self._stepped)
        return stepper

    def _stepped(self, stepper: Stepper, value: int) -> None:
        self.presenter.set_tokens(int(stepper.key), value)

    def _rebuild(self, *_args: Any) -> None:
        steppers = self._pool.show(["stepper"] * len(self.rows))
        for stepper, row in zip(steppers, self.rows, strict=True):
            stepper.key = str(row["seat"])
            stepper.label = _("{name}: tokens on the board").format(name=row["name"])
            stepper.value = row["value"]


class GameEndScreen(PresenterScreen):
    pass


__all__ = ["CoinsChart", "GameEndScreen", "QRCode", "ResultList", "ResultRow", "StoryCard",
           "StoryList", "TieBreak"]
