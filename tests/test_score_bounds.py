"""`companion score` refuses counts no board can hold, and no output line grows with a count.

The limit is the regions of the largest packaged board (48 on the five-player board): a
race cannot hold more regions of one terrain, more mines, more harbors, nor conquer more
regions in a turn than a board has. Before issue 14 a 127-byte scenario with ten million
harbors printed 99 MB (the harbor line spelt out 1 + 2 + ... + n).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from companion.rules.maps import BOARD_NAMES, load_board
from companion.rules.river import harbor_series
from companion.scenario import most_regions


def score(doc: Any) -> subprocess.CompletedProcess[str]:
    """The real `companion score -` on `doc` (a JSON document or raw text)."""
    text = doc if isinstance(doc, str) else json.dumps(doc)
    return subprocess.run([sys.executable, "-m", "companion", "score", "-"], input=text,
                          capture_output=True, text=True, timeout=120)  # fmt: skip


def active(counts: dict[str, Any], **more: Any) -> dict[str, Any]:
    race = {"race": "Orcs", "power": "Hill", "conquered_non_empty": 0, "counts": counts, **more}
    return {"turn": 3, "player": {"active": race}}


def test_the_limit_is_the_regions_of_the_largest_packaged_board() -> None:
    assert most_regions() == max(len(load_board(name).regions) for name in BOARD_NAMES) == 48


def refused(run: subprocess.CompletedProcess[str]) -> str:
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr[:500]
    return lines[0]


def test_ten_million_hills_and_harbors_are_refused_naming_the_field_and_the_limit() -> None:
    line = refused(score(active({"hill": 10_000_000, "harbors": 10_000_000})))
    assert line == ("companion score: player.active.counts.hill: 10000000 is more than any "
                    "board can hold (at most 48, the regions of the largest board)")  # fmt: skip


def test_a_googol_of_hills_is_refused() -> None:
    line = refused(score(active({"hill": 10**100})))
    assert "player.active.counts.hill" in line and "at most 48" in line


def test_one_more_harbor_than_the_largest_board_has_is_refused() -> None:
    line = refused(score(active({"hill": 1, "harbors": 49})))
    assert "player.active.counts.harbors: 49 is more than any board can hold" in line


def test_terrain_counts_that_add_up_to_more_regions_than_any_board_are_refused() -> None:
    line = refused(score(active({"hill": 30, "farmland": 30})))
    assert line.startswith("companion score: player.active.counts: 60 regions in all")
    assert "at most 48" in line


def test_more_conquests_than_any_board_has_regions_are_refused() -> None:
    line = refused(score(active({"hill": 1}, conquered_non_empty=49)))
    assert "player.active.conquered_non_empty: 49 is more than any board can hold" in line


def test_a_list_of_more_regions_than_any_board_has_is_refused() -> None:
    doc = {"turn": 3, "player": {"active": {
        "race": "Orcs", "power": "Hill", "conquered_non_empty": 0,
        "regions": [{"terrain": "hill"}] * 49}}}  # fmt: skip
    line = refused(score(doc))
    assert "player.active.regions: 49 regions is more than any board has" in line


def test_the_harbor_line_stays_short_for_the_most_harbors_a_board_can_hold() -> None:
    run = score(active({"hill": 48, "harbors": 48}))
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    harbor = next(line for line in result["lines"] if line["label"].startswith("Harbors"))
    assert harbor == {
        "label": "Harbors: 48 held score 1 + 2 + ... + 48 (1 each already counted as a region)",
        "coins": 48 * 47 // 2,
    }
    assert max(len(line["label"]) for line in result["lines"]) < 100


def test_the_harbor_series_is_spelt_out_up_to_four_and_shortened_beyond() -> None:
    assert harbor_series(2) == "1 + 2"
    assert harbor_series(4) == "1 + 2 + 3 + 4"
    assert harbor_series(5) == "1 + 2 + ... + 5"
    assert len(harbor_series(10**9)) == len("1 + 2 + ... + ") + 10
