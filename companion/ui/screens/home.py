"""Home: new game, back to the game, resume a saved one, settings, a status line, and (in
kiosk mode only) switching the table off.

The switch-off dialog is built the first time it is asked for and reused after that.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.ui.screens.base import PresenterScreen
from companion.ui.widgets import Dialog


class SwitchOffDialog(Dialog):
    """Shut down, restart or cancel; `on_choice(action)` is called with "poweroff" or
    "reboot" after the dialog has closed, nothing after Cancel."""

    def __init__(self, on_choice: Callable[[str], Any] | None = None, **kwargs: Any) -> None:
        self._on_choice = on_choice
        super().__init__(**kwargs)

    def answer(self, action: str) -> None:
        self.dismiss()
        if action and self._on_choice is not None:
            self._on_choice(action)


class HomeScreen(PresenterScreen):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._switch_off: SwitchOffDialog | None = None

    def ask_switch_off(self) -> SwitchOffDialog:
        """Open the switch-off dialog (built once, reused)."""
        if self._switch_off is None:
            self._switch_off = SwitchOffDialog(on_choice=self.p.switch_off)
        self.p.power_text = ""
        self._switch_off.open()
        return self._switch_off
