"""The Necromancer's screen: his side of the table, the purchases of his turn with their
price, and a stepper per region (and the Island) to place his Ghosts."""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.screens.base import PresenterScreen
from companion.ui.widgets import FONT_MIN, Stepper


class GhostCountList(BoxLayout):  # type: ignore[misc]
    """One stepper per row of the presenter's `rows`; rebuilt only when the regions change,
    otherwise each stepper just takes its new value."""

    presenter = ObjectProperty(None, allownone=True)
    rows = ObjectProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self._shape: list[str] = []
        self._steppers: dict[str, Stepper] = {}
        super().__init__(**kwargs)
        self.fbind("rows", self._rebuild)

    def _rebuild(self, *_args: Any) -> None:
        shape = [row["key"] for row in self.rows]
        if shape == self._shape:
            for row in self.rows:
                self._steppers[row["key"]].value = row["value"]
            return
        self._shape = shape
        self.clear_widgets()
        self._steppers = {}
        for row in self.rows:
            stepper = Stepper(label=row["label"], value=row["value"], minimum=row["minimum"],
                              maximum=row["maximum"])
            stepper.ids.label.font_size = FONT_MIN
            key = row["key"]
            stepper.bind(on_step=lambda _s, value, key=key: self.presenter.set_count(key, value))
            self._steppers[key] = stepper
            self.add_widget(stepper)

    def stepper(self, key: str) -> Stepper | None:
        return self._steppers.get(key)


class NecromancerScreen(PresenterScreen):
    pass
