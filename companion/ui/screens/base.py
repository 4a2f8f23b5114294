"""What every screen shares: its presenter `p`, and a rebuildable list helper."""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen

from companion.ui.widgets import AddedAlone


class PresenterScreen(AddedAlone, Screen):  # type: ignore[misc]
    """A screen bound to one presenter (`p`); kv binds to ``root.p.<property>``."""

    p = ObjectProperty(None, allownone=True)

    def __init__(self, presenter: Any = None, **kwargs: Any) -> None:
        # Passed through kwargs so that `p` is set before the kv rule is applied.
        super().__init__(p=presenter, **kwargs)
