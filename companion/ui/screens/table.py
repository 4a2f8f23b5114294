"""The table screen: the turn, whose turn it is, what they can do, every player, undo, die.

Each player's name is a hold-to-peek button: held, it shows that player's own total in a
full-screen overlay; released, the overlay goes at once. (A player with a PIN types it
first; the total then shows for a few seconds, or until the overlay is tapped.)
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView

from companion.ui import palette
from companion.ui.screens.base import PresenterScreen
from companion.ui.widgets import PeekView, Pool


class PlayerRow(BoxLayout):  # type: ignore[misc]
    """One player: name (hold to peek) in their colour, combo, tokens, races in decline."""

    seat = NumericProperty(0)
    name = StringProperty("")
    combo = StringProperty("")
    tokens = StringProperty("")
    declined = StringProperty("")
    current = BooleanProperty(False)
    rgba = ObjectProperty(palette.FALLBACK)
    ink = ObjectProperty(palette.TEXT)
    presenter = ObjectProperty(None, allownone=True)


class PlayerList(BoxLayout):  # type: ignore[misc]
    """The players, from the presenter's `players` list of dicts, their rows updated in
    place (a `Pool`).

    In a list taller than its room (upright, five or six players), the current player's
    row is scrolled into sight when their turn begins and when the list's room changes;
    between those, the list stays where a finger put it."""

    presenter = ObjectProperty(None, allownone=True)
    players = ObjectProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self._pool: Pool[PlayerRow] = Pool(self, row=lambda: PlayerRow(presenter=self.presenter))
        super().__init__(**kwargs)
        self._current: int | None = None
        self._show_current = Clock.create_trigger(self._scroll_to_current, 0)
        self.fbind("players", self._rebuild)
        self.fbind("height", self._show_current)

    def _rebuild(self, *_args: Any) -> None:
        rows = self._pool.show(["row"] * len(self.players))
        for row, player in zip(rows, self.players, strict=True):
            row.presenter = self.presenter
            for key in ("seat", "name", "combo", "tokens", "declined", "current", "rgba", "ink"):
                setattr(row, key, player[key])
        current = next((int(p["seat"]) for p in self.players if p["current"]), None)
        if current != self._current:
            self._current = current
            self._show_current()

    def _scroll_to_current(self, *_args: Any) -> None:
        scroll = self.parent
        if self._current is None or not isinstance(scroll, ScrollView) \
                or self.height <= scroll.height:
            return
        row = self.row(self._current)
        if row is None:
            return
        shift = scroll.g_translate.y  # where the scroller draws the list
        if scroll.y <= row.y + shift and row.top + shift <= scroll.top \
                and not self._trigger_layout.is_triggered:  # in sight, and laid out
            return  # (what Kivy's scroll_to finds, walking the tree, to then leave it)
        scroll.scroll_to(row, padding=0, animate=False)

    def row(self, seat: int) -> PlayerRow | None:
        return next((c for c in self.children if isinstance(c, PlayerRow) and c.seat == seat),
                    None)


class UndoBar(BoxLayout):  # type: ignore[misc]
    """The bar after an undo: "Took back: <what>" and Redo. One widget for every undo,
    updated in place; it lies over the foot of the players' list (in portrait, of the
    reminders), never over the action buttons, the undo or the die. Hidden, it is
    transparent and lets every touch through to what lies under it."""

    shown = BooleanProperty(False)

    def on_touch_down(self, touch: Any) -> bool:
        if not self.shown:
            return False
        if super().on_touch_down(touch):
            return True
        return bool(self.collide_point(*touch.pos))  # a tap on the bar goes no further

    def on_touch_move(self, touch: Any) -> bool:
        return bool(self.shown and super().on_touch_move(touch))

    def on_touch_up(self, touch: Any) -> bool:
        return bool(self.shown and super().on_touch_up(touch))


class TableScreen(PresenterScreen):
    def __init__(self, presenter: Any = None, **kwargs: Any) -> None:
        self.peek_view: PeekView | None = None
        super().__init__(presenter, **kwargs)
        if presenter is not None:
            presenter.fbind("peek_text", self._peek_changed)

    def _peek_changed(self, presenter: Any, text: str) -> None:
        if text:
            if self.peek_view is None:
                self.peek_view = PeekView()
                self.peek_view.bind(on_tap=lambda _view: presenter.end_peek())
            view = self.peek_view
            view.text = text
            view.detail = presenter.peek_detail
            view.colour = presenter.peek_rgba
            if view.parent is None:
                view.open(animation=False)
        elif self.peek_view is not None and self.peek_view.parent is not None:
            self.peek_view.text = ""
            self.peek_view.dismiss(animation=False)
