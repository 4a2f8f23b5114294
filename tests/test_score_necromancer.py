"""`companion score` for Necromancer Island: the Necromancer's turn, scored by the game's own
rule (a coin per region his Ghosts hold, his powers' bonuses; the Island pays nothing)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scoring_support import run_score, score_ok

from companion.rules.maps import Terrain, load_board
from companion.rules.necromancer import REGIONS_LINE, income_lines
from companion.rules.scoring import HeldRegion, QuickCount

BOARD = load_board("3p")
LAKE = 15  # Necromancer Island stands in the 3-player board's Lake


def refused(
    capsys: pytest.CaptureFixture[str], doc: Any, tmp_path: Path, field: str
) -> str:
    code, out, err = run_score(capsys, doc, tmp_path)
    assert (code, out) == (2, "")
    assert err.startswith(f"companion score: {field}: "), err
    assert err.count("\n") == 1
    return err


def necromancer(**fields: Any) -> dict[str, Any]:
    return {"map": "3p", "turn": 5, "player": {"necromancer": fields}}


def test_the_necromancer_earns_a_coin_per_region_and_his_powers_bonuses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = necromancer(powers=["forest", "Alchemist"],
                      regions=[20, {"terrain": "forest"}, {"terrain": "hill"}])
    assert BOARD.region(20).terrain is Terrain.FOREST
    assert score_ok(capsys, doc, tmp_path) == {"total": 7, "lines": [
        {"label": "Regions held by the Necromancer's Ghosts", "coins": 3},
        {"label": "Forest: one per forest region", "coins": 2},
        {"label": "Alchemist: while the race is active", "coins": 2}]}


def test_the_command_and_the_game_share_one_rule_for_his_income() -> None:
    regions = (HeldRegion(Terrain.FOREST), HeldRegion(Terrain.HILL))
    assert income_lines(regions, ("Forest", "Merchant")) == (
        (REGIONS_LINE, 2),
        ("Forest: one per forest region", 1),
        ("Merchant: one per region held", 2),
    )
    counted = QuickCount({Terrain.FOREST: 1, Terrain.HILL: 1})
    assert income_lines(counted, ("Forest", "Merchant")) == income_lines(
        regions, ("Forest", "Merchant")
    )


def test_necromancer_island_pays_nothing_and_the_lake_is_refused_among_his_regions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert BOARD.region(LAKE).terrain is Terrain.LAKE
    for doc, field in (
        (necromancer(powers=["Hill"], regions=[21, LAKE]), "player.necromancer.regions[1]"),
        (necromancer(powers=["Hill"], regions=[{"terrain": "lake"}]),
         "player.necromancer.regions[0]"),
        (necromancer(powers=["Seafaring"], counts={"lake": 1}),
         "player.necromancer.counts.lake"),
    ):
        err = refused(capsys, doc, tmp_path, field)
        assert "Necromancer Island" in err and "pays him nothing" in err


def test_ghosts_are_not_a_race_banner_and_point_to_the_necromancer(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for player, field in (
        ({"active": {"race": "Ghosts", "power": "Hill", "counts": {"hill": 1}}},
         "player.active.race"),
        ({"declined": [{"race": "ghosts", "power": "Hill", "counts": {"hill": 1}}]},
         "player.declined[0].race"),
    ):
        err = refused(capsys, {"turn": 3, "player": player}, tmp_path, field)
        assert "player.necromancer" in err


def test_the_necromancer_plays_no_race_beside_his_ghosts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = necromancer(powers=["Hill"], regions=[21])
    doc["player"]["active"] = {"race": "Elves", "power": "Hill", "counts": {"hill": 1}}
    refused(capsys, doc, tmp_path, "player.active")


@pytest.mark.parametrize(("powers", "field", "reason"), [
    ([], "player.necromancer.powers", "1 to 6"),
    (["Hill"] * 7, "player.necromancer.powers", "1 to 6"),
    (["Hill", "hill"], "player.necromancer.powers[1]", "listed twice"),
    (["Stout"], "player.necromancer.powers[0]", "never holds Stout"),
    (["Spirit"], "player.necromancer.powers[0]", "never holds Spirit"),
    (["Cursed"], "player.necromancer.powers[0]", "never holds Cursed"),
    (["Telepathy"], "player.necromancer.powers[0]", "Telepathy"),
    ("Hill", "player.necromancer.powers", "expected a list"),
])
def test_his_powers_are_one_to_six_badges_he_may_draw(
    powers: Any, field: str, reason: str,
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    assert reason in refused(capsys, necromancer(powers=powers, regions=[21]), tmp_path, field)


def test_a_peace_loving_necromancer_must_say_whether_he_attacked_an_active_race(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    refused(capsys, necromancer(powers=["Peace-Loving"], regions=[21]), tmp_path,
            "player.necromancer.attacked_active_race")
    result = score_ok(capsys, necromancer(powers=["Peace-Loving"], regions=[21],
                                    attacked_active_race=False), tmp_path)
    assert result["total"] == 1 + 3


def test_a_sea_is_his_only_with_seafaring(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sea = {"terrain": "sea"}
    refused(capsys, necromancer(powers=["Hill"], regions=[sea]), tmp_path,
            "player.necromancer.regions[0]")
    seafaring = necromancer(powers=["Seafaring"], regions=[sea])
    assert score_ok(capsys, seafaring, tmp_path)["total"] == 1


def test_pillaging_and_fortified_read_his_conquests_and_fortresses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = necromancer(powers=["Pillaging", "Fortified"], counts={"hill": 3},
                      conquered_non_empty=2, fortresses=1)
    assert score_ok(capsys, doc, tmp_path)["lines"] == [
        {"label": "Regions held by the Necromancer's Ghosts", "coins": 3},
        {"label": "Pillaging: one per non-empty region conquered this turn", "coins": 2},
        {"label": "Fortified: one per fortress", "coins": 1}]
    left_out = score_ok(capsys, necromancer(powers=["Pillaging"], counts={"hill": 3}), tmp_path)
    assert left_out["notes"] == [
        "player.necromancer.conquered_non_empty left out: taken as 0, so Pillaging earns nothing"
    ]
    refused(capsys, necromancer(powers=["Hill"], counts={"hill": 3}, fortresses=1), tmp_path,
            "player.necromancer.fortresses")
    refused(capsys, necromancer(powers=["Pillaging"], counts={"hill": 1}, conquered_non_empty=2),
            tmp_path, "player.necromancer.conquered_non_empty")


def test_river_world_facts_are_refused_for_the_necromancer(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    refused(capsys, necromancer(powers=["Hill"], counts={"hill": 1, "next_to_pirates": 1}),
            tmp_path, "player.necromancer.counts.next_to_pirates")
    refused(capsys, necromancer(powers=["Hill"],
                                regions=[{"terrain": "hill", "features": ["harbor"]}]),
            tmp_path, "player.necromancer.regions[0]")


def test_an_impossible_count_of_his_regions_names_the_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    refused(capsys, necromancer(powers=["Hill"], counts={"hill": 1, "mines": 2}), tmp_path,
            "player.necromancer.counts.mines")
