"""A screen that asks its presenter to `load()` each time it is about to show.

For screens that read the saved games (history, stats, players, settings): they read
when opened, never on a timer, so they cost nothing while nobody looks at them.
"""

from __future__ import annotations

from companion.ui.screens.base import PresenterScreen


class LoadingScreen(PresenterScreen):
    def on_pre_enter(self, *_args: object) -> None:
        if self.p is not None:
            self.p.load()
