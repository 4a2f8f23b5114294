"""Saved players: a row each (colour, name, PIN, remove) and a button to add one."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui import palette
from companion.ui.screens.loading import LoadingScreen
from companion.ui.widgets import Pool


class ProfileRow(BoxLayout):  # type: ignore[misc]
    profile_id = NumericProperty(0)
    name = StringProperty("")
    colour_name = StringProperty("")
    rgba = ObjectProperty(palette.FALLBACK)
    ink = ObjectProperty(palette.TEXT)
    pin_text = StringProperty("")
    has_pin = BooleanProperty(False)
    presenter = ObjectProperty(None, allownone=True)


class ProfileList(BoxLayout):  # type: ignore[misc]
    presenter = ObjectProperty(None, allownone=True)
    profiles = ObjectProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self._pool: Pool[ProfileRow] = Pool(self, row=lambda: ProfileRow(presenter=self.presenter))
        super().__init__(**kwargs)
        self.fbind("profiles", self._rebuild)

    def _rebuild(self, *_args: Any) -> None:
        rows = self._pool.show(["row"] * len(self.profiles))
        for row, profile in zip(rows, self.profiles, strict=True):
            row.presenter, row.profile_id = self.presenter, profile["id"]
            for key in ("name", "colour_name", "rgba", "ink", "pin_text", "has_pin"):
                setattr(row, key, profile[key])

    def row(self, name: str) -> ProfileRow | None:
        return next((r for r in self.children if isinstance(r, ProfileRow) and r.name == name),
                    None)


class ProfilesScreen(LoadingScreen):
    pass
