"""Golden games: whole recorded games replayed step by step and compared line by line.

The files were recorded by tools/record_golden.py and checked by hand. They are also the
saved games of an earlier release: they must keep replaying after any upgrade.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from golden_lines import line

from companion.rules.catalog import load_catalog
from companion.rules.codec import from_record
from companion.rules.history import History, replay

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_recorded_game_replays_line_by_line(path: Path) -> None:
    steps = json.loads(path.read_text())["steps"]
    catalog = load_catalog()
    history: History | None = None
    for number, step in enumerate(steps):
        events = tuple(from_record(r) for r in step["events"])
        history = History.begin(events, catalog) if history is None else history.record(events)
        assert line(history.state) == step["after"], f"step {number}"
    assert history is not None and history.state.is_over
    assert replay(history.log, catalog) == history


def test_there_is_a_golden_game() -> None:
    assert GOLDEN
