"""The combo market: six rows like the cardboard column, tap one to pick it."""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from companion.ui.screens.base import PresenterScreen
from companion.ui.widgets import Pool


class MarketRow(ButtonBehavior, BoxLayout):  # type: ignore[misc]
    """One row of the market; a tap calls ``presenter.act(key)``."""

    key = StringProperty("")
    rules_key = StringProperty("")
    """What its "?" asks for: its race or power in the rules ("rules<n>")."""
    number = StringProperty("")
    combo = StringProperty("")
    tokens = StringProperty("")
    cost = StringProperty("")
    lying = StringProperty("")
    refusal = StringProperty("")
    kind = StringProperty("secondary")
    presenter = ObjectProperty(None, allownone=True)

    def on_release(self) -> None:
        if self.presenter is not None:
            self.presenter.act(self.key)

    def look_up(self) -> None:
        """Its "?": the rules for its race or power (the row itself is not picked)."""
        if self.presenter is not None and self.rules_key:
            self.presenter.act(self.rules_key)


class MarketList(BoxLayout):  # type: ignore[misc]
    presenter = ObjectProperty(None, allownone=True)
    rows = ObjectProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self._pool: Pool[MarketRow] = Pool(self, row=lambda: MarketRow(presenter=self.presenter))
        super().__init__(**kwargs)
        self.fbind("rows", self._rebuild)

    def _rebuild(self, *_args: Any) -> None:
        """Show `rows`: the row widgets are updated in place (a `Pool`: building widgets
        is what made a tap slow)."""
        for shown, row in zip(self._pool.show(["row"] * len(self.rows)), self.rows,
                              strict=True):
            shown.presenter = self.presenter
            for name in ("key", "rules_key", "number", "combo", "tokens", "cost", "lying",
                         "refusal", "kind"):
                setattr(shown, name, row[name])

    def row(self, key: str) -> MarketRow | None:
        return next((c for c in self.children if isinstance(c, MarketRow) and c.key == key),
                    None)


class MarketScreen(PresenterScreen):
    """The market; shown for another player's turn than last time, its list starts at
    row 1 again: a list the last buyer left scrolled down would hide the cheapest rows
    and the coins on them."""

    def __init__(self, presenter: Any = None, **kwargs: Any) -> None:
        super().__init__(presenter, **kwargs)
        self._shown_for: tuple[int, int] | None = None

    def on_pre_enter(self, *_args: Any) -> None:
        state = self.p.state if self.p is not None else None
        turn = None if state is None else (state.track.turn, state.track.seat)
        if turn != self._shown_for:
            self._shown_for = turn
            self.ids.rows_scroll.scroll_y = 1
