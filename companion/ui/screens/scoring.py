"""Scoring: the breakdown from the map line by line, or the quick count with steppers."""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui import palette
from companion.ui.screens.base import PresenterScreen
from companion.ui.widgets import FONT_MIN, Caption, Stepper


class QuickCountList(BoxLayout):  # type: ignore[misc]
    """The quick count: a caption per race and a stepper per count, from `rows`.

    Rebuilt only when the rows change shape (another player, another race); a count that
    moves only updates its stepper.
    """

    presenter = ObjectProperty(None, allownone=True)
    rows = ObjectProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self._shape: list[str] = []
        self._steppers: dict[str, Stepper] = {}
        super().__init__(**kwargs)
        self.fbind("rows", self._rebuild)

    def _rebuild(self, *_args: Any) -> None:
        shape = [row["key"] or row["label"] for row in self.rows]
        if shape == self._shape:
            for row in self.rows:
                if row["key"]:
                    self._steppers[row["key"]].value = row["value"]
            return
        self._shape = shape
        self.clear_widgets()
        self._steppers = {}
        for row in self.rows:
            if not row["key"]:
                self.add_widget(Caption(text=row["label"], bold=True, color=palette.ACCENT))
                continue
            stepper = Stepper(label=row["label"], value=row["value"], maximum=row["maximum"])
            stepper.ids.label.font_size = FONT_MIN
            key = row["key"]
            stepper.bind(on_step=lambda _s, value, key=key: self.presenter.set_count(key, value))
            self._steppers[key] = stepper
            self.add_widget(stepper)

    def stepper(self, key: str) -> Stepper | None:
        return self._steppers.get(key)


class ScoringScreen(PresenterScreen):
    pass
