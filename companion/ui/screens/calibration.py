"""The calibration screen: the bare board with the region to cover lit up, and the steps."""

from __future__ import annotations

from companion.ui.map_widget import BoardMap
from companion.ui.screens.base import PresenterScreen

__all__ = ["BoardMap", "CalibrationScreen"]


class CalibrationScreen(PresenterScreen):
    def on_pre_enter(self, *_args: object) -> None:
        if self.p is not None:
            self.p.open()
