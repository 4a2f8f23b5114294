"""The state explorer (`tests/explore.py`) at work, bounded: seeded random legal games played
through the real screens, every state a table looks at drawn and held to the quality bar
(main action in sight, no word cut, nothing over anything, nothing left in English, touch
targets, no control moving under the finger); and each state where it found faults 1-4 of
issue 30 on the code before their fixes, replayed by its ``seed:step``: it holds now.

`make explore` runs the full exploration (every size and language, more games).
"""

from __future__ import annotations

from pathlib import Path

import explore
import pytest

SAMPLE = ((11, "800x480", "fr"), (11, "480x800", "de"))
"""The bounded sample: a whole 2-player game with the mini-expansions, ending in a tie, at
the table's panel both ways, in French and in German (about a minute each)."""

FOUND = (
    # (kind, seed, step, size, language): where the explorer found each fault of issue 30
    # on the code of main before the fixes (each of these failed there).
    pytest.param("out_of_sight", 0, 43, "800x480", "fr", id="1-map-final-under-the-fold"),
    pytest.param("out_of_sight", 0, 43, "480x800", "de", id="1-map-final-under-the-fold-upright"),
    pytest.param("moved", 0, 70, "800x480", "fr", id="3-finish-under-the-finger-after-a-spread"),
    pytest.param("cut", 0, 4, "800x480", "fr", id="4-reminder-cut-through-a-line"),
    pytest.param("layout", 0, 243, "480x800", "de", id="4-die-title-cut-mid-word"),
)


@pytest.mark.parametrize(("seed", "size", "language"), SAMPLE)
def test_a_whole_game_holds_in_every_state_it_shows(
        tmp_path: Path, seed: int, size: str, language: str) -> None:
    report = explore.run(tmp_path, [seed], [size], [language], timeout=600)
    assert report["games"] == 1 and report["stuck"] == []
    assert report["states"][language][size] >= 150  # distinct states, the game to its end
    assert [line for line in explore.summary(report) if line.startswith("  ")][-1:] and \
        report["violations"] == [], "\n".join(explore.summary(report))


@pytest.mark.parametrize(("kind", "seed", "step", "size", "language"), FOUND)
def test_a_state_where_the_explorer_found_a_fault_holds_now(
        tmp_path: Path, kind: str, seed: int, step: int, size: str, language: str) -> None:
    report = explore.run(tmp_path, [seed], [size], [language], replay=(seed, step))
    assert report["states"][language] == {size: 1}  # that one state, drawn again
    assert [v for v in report["violations"] if v["kind"] == kind] == []
    assert report["violations"] == [], "\n".join(explore.summary(report))
