"""Scoring: the breakdown from the map line by line, or the quick count with steppers."""

from __future__ import annotations

from companion.ui.screens.base import PresenterScreen


class ScoringScreen(PresenterScreen):
    pass
