"""The map screen: the board (`BoardMap`) beside a panel about the region tapped, and,
with a sensor grid, the differences between the sensed board and the record."""

from __future__ import annotations

from typing import Any

from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.map_widget import BoardMap
from companion.ui.screens.base import PresenterScreen

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
    """`DifferenceRow`s rebuilt from `rows` (the map presenter's `grid_rows`)."""

    rows = ListProperty([])
    target = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        self.bind(minimum_height=self.setter("height"))
        self.fbind("rows", self._rebuild)
        self.fbind("target", self._rebuild)
        self._rebuild()

    def _rebuild(self, *_args: Any) -> None:
        self.clear_widgets()
        for row in self.rows:
            self.add_widget(DifferenceRow(text=row["text"], accept=row["accept"],
                                          accept_text=row["accept_text"],
                                          accept_kind=row.get("kind", "primary"),
                                          dismiss=row["dismiss"], target=self.target))
