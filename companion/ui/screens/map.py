"""The map screen: the board (`BoardMap`) beside a panel about the region tapped, and,
with a sensor grid, the differences between the sensed board and the record."""

from __future__ import annotations

from typing import Any

from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.map_widget import BoardMap
from companion.ui.screens.base import PresenterScreen
from companion.ui.widgets import Pool, as_tall_as_its_children

__all__ = ["BoardMap", "DifferenceList", "DifferenceRow", "MapScreen"]


class MapScreen(PresenterScreen):
    pass


class DifferenceRow(BoxLayout):  # type: ignore[misc]  # Kivy ships no type information
    """One difference: what the grid sees, a button to accept it and one to dismiss it.

    Both buttons call ``target.act(key)`` (their `action_key`s come from the row)."""

    text = StringProperty("")
    accept = StringProperty("")
    accept_text = StringProperty("")
    accept_kind = StringProperty("primary")
    dismiss = StringProperty("")
    target = ObjectProperty(None, allownone=True)

    def act(self, key: str) -> None:
        if self.target is not None and key:
            self.target.act(key)


class DifferenceList(BoxLayout):  # type: ignore[misc]
    """A `DifferenceRow` per dict of `rows` (the map presenter's `grid_rows`), updated in
    place (a `Pool`): a row is built only when more are shown than ever before."""

    rows = ListProperty([])
    target = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("size_hint_y", None)
        self._pool: Pool[DifferenceRow] = Pool(self, row=DifferenceRow)
        super().__init__(**kwargs)
        as_tall_as_its_children(self)
        self.fbind("rows", self._rebuild)
        self.fbind("target", self._rebuild)
        self._rebuild()

    def _rebuild(self, *_args: Any) -> None:
        shown = self._pool.show(["row"] * len(self.rows))
        for widget, row in zip(shown, self.rows, strict=True):
            widget.text, widget.accept = row["text"], row["accept"]
            widget.accept_text, widget.accept_kind = row["accept_text"], row.get("kind", "primary")
            widget.dismiss, widget.target = row["dismiss"], self.target
