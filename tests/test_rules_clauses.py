"""The limiting clauses of the rule books, each played through `companion play` (the same
session the touchscreen uses): the allowed use, then the refused one with the rule's reason,
and nothing changed by the refusal. `docs/rules-clauses.md` lists every clause with the test
that proves it (`tests/test_rules_clauses_table.py` keeps the two in step).
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from test_play import POWERS, RACES, game, holder

from companion.cli import main

FORTIFIED_ORCS = 3
"""Row of Ann's Fortified Orcs (8 tokens) in the first market of `game()`."""


def play(lines: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    """The printed lines of `companion play -` (the run must reach the end of its input)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(json.dumps(line) + "\n"
                                                         for line in lines)))
    code = main(["play", "-"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return [json.loads(line) for line in out.splitlines()]


def refused_and_unchanged(out: list[dict[str, Any]], index: int) -> str:
    """The reason of the refusal at `index`; the line after it (a no-op note) shows the
    same state as the line before it."""
    assert set(out[index]) == {"refused"}
    assert out[index + 1] == out[index - 1]
    reason: str = out[index]["refused"]
    return reason


NOTHING = {"do": "adjust_coins", "seat": 0, "delta": 0, "reason": "look again"}
"""A line that changes nothing: the state after it is the state before it."""


# --- Fortified -------------------------------------------------------------------------


def test_fortified_places_one_fortress_a_turn(monkeypatch, capsys) -> None:
    lines = [game(), {"do": "pick", "row": FORTIFIED_ORCS},
             {"do": "conquer", "region": 2, "tokens": 2},
             {"do": "place_marker", "region": 2, "marker": "fortress"},
             {"do": "conquer", "region": 3, "tokens": 2},
             {"do": "place_marker", "region": 3, "marker": "fortress"}, NOTHING]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[3], 2)["markers"] == ["fortress"]
    reason = refused_and_unchanged(out, 5)
    assert reason == ("Fortified: one Fortress a turn, as long as the race is active; this "
                      "turn's is already in region 2")
    assert "markers" not in holder(out[6], 3)


def test_fortified_places_its_next_fortress_the_next_turn(monkeypatch, capsys) -> None:
    lines = [game(), {"do": "pick", "row": FORTIFIED_ORCS},
             {"do": "conquer", "region": 2, "tokens": 2},
             {"do": "conquer", "region": 3, "tokens": 2},
             {"do": "place_marker", "region": 2, "marker": "fortress"},
             {"do": "finish_conquests"}, {"do": "spread_hand"},
             {"do": "finish_redeployment"}, {"do": "score"}, {"do": "end_turn"},
             {"do": "pick", "row": 1}, {"do": "conquer", "region": 6},
             {"do": "finish_conquests"}, {"do": "spread_hand"},
             {"do": "finish_redeployment"}, {"do": "score"}, {"do": "end_turn"},
             {"do": "place_marker", "region": 3, "marker": "fortress"}]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[-1], 2)["markers"] == ["fortress"]
    assert holder(out[-1], 3)["markers"] == ["fortress"]


def test_a_fortress_taken_back_out_the_same_turn_may_be_placed_again(monkeypatch,
                                                                     capsys) -> None:
    lines = [game(), {"do": "pick", "row": FORTIFIED_ORCS},
             {"do": "conquer", "region": 2, "tokens": 2},
             {"do": "conquer", "region": 3, "tokens": 2},
             {"do": "place_marker", "region": 2, "marker": "fortress"},
             {"do": "remove_marker", "region": 2, "marker": "fortress"},
             {"do": "place_marker", "region": 3, "marker": "fortress"},
             {"do": "place_marker", "region": 2, "marker": "fortress"}]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[6], 3)["markers"] == ["fortress"]
    assert "markers" not in holder(out[6], 2)
    assert out[7]["refused"].startswith("Fortified: one Fortress a turn")


def test_fortified_is_refused_a_second_fortress_when_the_first_is_undone_and_redone(
        monkeypatch, capsys) -> None:
    lines = [game(), {"do": "pick", "row": FORTIFIED_ORCS},
             {"do": "conquer", "region": 2, "tokens": 2},
             {"do": "conquer", "region": 3, "tokens": 2},
             {"do": "place_marker", "region": 2, "marker": "fortress"},
             {"do": "undo"}, {"do": "place_marker", "region": 3, "marker": "fortress"},
             {"do": "place_marker", "region": 2, "marker": "fortress"}]
    out = play(lines, monkeypatch, capsys)
    assert "markers" not in holder(out[5], 2)  # the undo takes the first one back
    assert holder(out[6], 3)["markers"] == ["fortress"]
    assert out[7]["refused"].endswith("this turn's is already in region 3")


def test_the_decks_hold_what_the_clause_tests_pick() -> None:
    assert (RACES[FORTIFIED_ORCS - 1], POWERS[FORTIFIED_ORCS - 1]) == ("Orcs", "Fortified")
