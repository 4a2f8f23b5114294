"""The golden line of a game state, for the golden games' test: its one definition is
`companion.rules.golden.line`, which the recorder (tools/record_golden.py) uses too."""

from __future__ import annotations

from companion.rules.golden import line

__all__ = ["line"]
