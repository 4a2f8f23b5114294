"""River World kept in its own modules: the shared income, scoring, score scenario, play
document, the Necromancer's rules and the scoring screen name none of its pieces in their
code, and what they used to read by name (Harbors, pirate ships) reaches them through River
World's hooks (its facts of a region held and of a quick count, found by type), its view
and the board's own words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from scoring_support import river_count, river_region
from words_support import code_words

from companion.rules.board import Markers
from companion.rules.maps import Terrain
from companion.rules.river import RIVER_WORLD
from companion.rules.scoring import HeldRegion, QuickCount
from companion.score_parts import PARTS

ROOT = Path(__file__).resolve().parent.parent
RIVER_PART = next(part for part in PARTS if part.name == RIVER_WORLD.name)
RIVER_FACTS, RIVER_COUNTS = RIVER_PART.facts, RIVER_PART.counts
assert RIVER_FACTS is not None and RIVER_COUNTS is not None

SHARED = ("companion/rules/income.py", "companion/scenario.py", "companion/play.py",
          "companion/rules/necromancer.py", "companion/rules/scoring.py",
          "companion/ui/presenters/scoring.py")
"""Shared modules that once named River World's pieces and now ask its hooks."""

RIVER_WORDS = re.compile(r"harbor|pirate|caravel|\briver(_game)?\b|River(State|Setup|World)"
                         r"|river_world", re.IGNORECASE)


@pytest.mark.parametrize("name", SHARED)
def test_the_shared_modules_name_no_river_world_piece_in_their_code(name: str) -> None:
    named = sorted({w for w in code_words(ROOT / name) if RIVER_WORDS.search(w)})
    assert named == []


def test_a_regions_markers_list_the_placed_ones_then_those_the_rules_set() -> None:
    markers = Markers(mountain=True, pieces=frozenset({"pirate_ship"}), encampments=2,
                      fortress=True)
    assert markers.shown() == ("fortress", "encampment", "pirate_ship")
    assert Markers(mountain=True).shown() == ()


def test_river_world_names_the_facts_a_seat_that_does_not_score_them_refuses() -> None:
    assert RIVER_FACTS(QuickCount({Terrain.HILL: 2})) == ()
    assert RIVER_FACTS(
        river_count({Terrain.HILL: 2}, harbors=1, inland_next_to_pirates=1)
    ) == ("harbors", "inland_next_to_pirates")
    assert RIVER_FACTS(HeldRegion(Terrain.HILL)) == ()
    assert RIVER_FACTS(
        river_region(Terrain.HILL, harbor=True, next_to_pirates=True)
    ) == ("harbor", "next_to_pirates")


def test_river_world_reads_its_own_counts_of_a_quick_count() -> None:
    count = RIVER_COUNTS({"hill": 3, "harbors": 2, "next_to_pirates": 1},
                         QuickCount({Terrain.HILL: 3}, mines=1))
    assert count == river_count({Terrain.HILL: 3}, mines=1, harbors=2, next_to_pirates=1)
