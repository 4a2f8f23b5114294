"""River World scoring: harbors 1 + 2 + 3 ..., one coin less next to a pirate ship; by map,
by quick count and through `companion score`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scoring_support import held, river_count, river_counts, river_region, run_score

from companion.rules.catalog import load_catalog
from companion.rules.maps import Terrain
from companion.rules.river import RIVER, harbor_coins
from companion.rules.scoring import (
    ActiveHoldings,
    DeclinedHoldings,
    HeldRegion,
    QuickCount,
    ScoringInput,
    ScoringInputError,
    count_regions,
    score_turn,
)

CATALOG = load_catalog()


def harbor(terrain: Terrain = Terrain.HILL, *, pirates: bool = False) -> HeldRegion:
    return river_region(terrain, harbor=True, next_to_pirates=pirates)


def lines(inp: ScoringInput) -> list[tuple[str, int]]:
    result = score_turn(inp, CATALOG)
    assert result.total == sum(line.coins for line in result.lines)
    return [(line.label, line.coins) for line in result.lines]


def test_harbors_score_one_plus_two_plus_three() -> None:
    assert [harbor_coins(n) + n for n in range(5)] == [0, 1, 3, 6, 10]
    inp = ScoringInput(3, ActiveHoldings("Ratmen", "Hill", (harbor(), harbor(), harbor())))
    assert lines(inp) == [
        ("Regions held by Ratmen", 3),
        ("Hill: one per hill region", 3),
        ("Harbors: 3 held score 1 + 2 + 3 (1 each already counted as a region)", 3),
    ]


def test_harbors_of_active_and_declined_races_count_together() -> None:
    inp = ScoringInput(
        5,
        ActiveHoldings("Ratmen", "Commando", (harbor(), held(Terrain.FOREST))),
        (DeclinedHoldings("Elves", "Commando", (harbor(Terrain.SWAMP),)),),
    )
    assert lines(inp) == [
        ("Regions held by Ratmen", 2),
        ("Regions held by Elves (in decline)", 1),
        ("Harbors: 2 held score 1 + 2 (1 each already counted as a region)", 1),
    ]


def test_a_single_harbor_scores_like_a_region() -> None:
    inp = ScoringInput(3, ActiveHoldings("Ratmen", "Commando", (harbor(),)))
    assert lines(inp) == [("Regions held by Ratmen", 1)]


def test_a_region_next_to_a_pirate_ship_scores_one_less() -> None:
    regions = (held(Terrain.FARMLAND), river_region(Terrain.FARMLAND, next_to_pirates=True))
    inp = ScoringInput(3, ActiveHoldings("Humans", "Commando", regions))
    assert lines(inp) == [
        ("Regions held by Humans", 2),
        ("Humans: one per farmland region", 2),
        ("Pirate ships next to 1 region of Humans: one coin less each", -1),
    ]


def test_a_harbor_next_to_a_pirate_ship_scores_one_less() -> None:
    inp = ScoringInput(3, ActiveHoldings("Ratmen", "Commando", (harbor(), harbor(pirates=True))))
    result = score_turn(inp, CATALOG)
    assert result.total == 1 + 2 - 1


def test_pirates_never_take_a_race_below_nothing() -> None:
    # Aquatic: an inland region earns 1 - 1 = 0, and a pirate ship cannot make it cost a coin
    inland = river_region(Terrain.HILL, next_to_pirates=True)
    inp = ScoringInput(3, ActiveHoldings("Ratmen", "Aquatic", (inland,)))
    assert score_turn(inp, CATALOG).total == 0
    assert lines(inp) == [
        ("Regions held by Ratmen", 1),
        ("Aquatic: one less per inland region", -1),
    ]


def test_an_aquatic_inland_region_beside_a_pirate_ship_loses_nothing_region_by_region() -> None:
    # the coastal hill earns 1 + 1 and loses its coin to the pirates; the inland forest
    # earns 1 - 1 = 0 and has nothing to lose, even though the race earns coins elsewhere
    coastal = river_region(Terrain.HILL, coastal=True, next_to_pirates=True)
    inland = river_region(Terrain.FOREST, next_to_pirates=True)
    inp = ScoringInput(3, ActiveHoldings("Ratmen", "Aquatic", (coastal, inland)))
    assert lines(inp) == [
        ("Regions held by Ratmen", 2),
        ("Aquatic: one per coastal region", 1),
        ("Aquatic: one less per inland region", -1),
        ("Pirate ships next to 1 region of Ratmen: one coin less each", -1),
    ]
    assert score_turn(inp, CATALOG).total == 1
    counted = count_regions((coastal, inland))
    assert (river_counts(counted).next_to_pirates,
            river_counts(counted).inland_next_to_pirates) == (2, 1)
    assert score_turn(ScoringInput(3, ActiveHoldings("Ratmen", "Aquatic", counted)), CATALOG) == (
        score_turn(inp, CATALOG)
    )


def test_an_inland_region_beside_a_pirate_ship_loses_its_coin_without_aquatic() -> None:
    # in decline (or under any other power) an inland region earns 1, so it loses it
    inland = river_region(Terrain.FOREST, next_to_pirates=True)
    inp = ScoringInput(
        3, None, (DeclinedHoldings("Ratmen", "Aquatic", (inland, held(Terrain.HILL))),)
    )
    assert lines(inp)[-1] == (
        "Pirate ships next to 1 region of Ratmen (in decline): one coin less each", -1
    )


def test_the_inland_regions_counted_next_to_pirates_are_some_of_those_next_to_pirates() -> None:
    for count in (
        river_count({Terrain.HILL: 2}, next_to_pirates=1, inland_next_to_pirates=2),
        river_count({Terrain.HILL: 2}, coastal=2, next_to_pirates=2, inland_next_to_pirates=1),
    ):
        with pytest.raises(ScoringInputError) as refused:
            score_turn(ScoringInput(3, ActiveHoldings("Ratmen", "Aquatic", count)), CATALOG)
        assert refused.value.field == "active.regions.inland_next_to_pirates"


def test_a_river_held_is_a_region_worth_one_coin() -> None:
    inp = ScoringInput(3, ActiveHoldings("Ratmen", "Commando", (held(RIVER),)))
    assert lines(inp) == [("Regions held by Ratmen", 1)]


def test_the_quick_count_scores_harbors_and_pirates_as_the_map_does() -> None:
    regions = (
        harbor(),
        harbor(Terrain.FOREST, pirates=True),
        held(RIVER),
        river_region(Terrain.SWAMP, next_to_pirates=True),
    )
    counted = count_regions(regions)
    assert (river_counts(counted).harbors, river_counts(counted).next_to_pirates) == (2, 2)
    by_map = ScoringInput(4, ActiveHoldings("Ratmen", "Forest", regions))
    by_count = ScoringInput(4, ActiveHoldings("Ratmen", "Forest", counted))
    assert score_turn(by_map, CATALOG) == score_turn(by_count, CATALOG)


@pytest.mark.parametrize(
    ("count", "field"),
    [
        (river_count({Terrain.HILL: 1}, harbors=2), "active.regions.harbors"),
        (river_count({Terrain.HILL: 1}, next_to_pirates=2), "active.regions.next_to_pirates"),
        (river_count({Terrain.HILL: 1}, harbors=-1), "active.regions.harbors"),
    ],
)
def test_a_river_world_count_the_rules_cannot_produce_is_refused(
    count: QuickCount, field: str
) -> None:
    with pytest.raises(ScoringInputError) as refused:
        score_turn(ScoringInput(3, ActiveHoldings("Ratmen", "Hill", count)), CATALOG)
    assert refused.value.field == field


# --- companion score -------------------------------------------------------------------


def test_the_quick_count_takes_harbors_and_regions_next_to_pirates(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = {
        "turn": 5,
        "player": {
            "active": {
                "race": "Ratmen",
                "power": "Commando",
                "counts": {"hill": 3, "river": 1, "harbors": 3, "next_to_pirates": 1},
            }
        },
    }
    code, out, err = run_score(capsys, doc, tmp_path)
    assert (code, err) == (0, "")
    assert json.loads(out) == {"total": 6, "lines": [
        {"label": "Regions held by Ratmen", "coins": 4},
        {"label": "Pirate ships next to 1 region of Ratmen: one coin less each", "coins": -1},
        {"label": "Harbors: 3 held score 1 + 2 + 3 (1 each already counted as a region)",
         "coins": 3},
    ]}  # fmt: skip


def test_region_objects_take_a_harbor_feature_and_next_to_pirates(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = {
        "turn": 5,
        "player": {
            "active": {
                "race": "Ratmen",
                "power": "Commando",
                "regions": [
                    {"terrain": "hill", "features": ["harbor", "mine"]},
                    {"terrain": "forest", "features": ["shipyard"], "next_to_pirates": True},
                ],
            },
            "declined": [
                {
                    "race": "Elves",
                    "power": "Hill",
                    "regions": [{"terrain": "swamp", "features": ["Harbor"]}],
                }
            ],
        },
    }
    code, out, err = run_score(capsys, doc, tmp_path)
    assert (code, err) == (0, "")
    assert json.loads(out)["total"] == 2 - 1 + 1 + 1  # regions, pirates, Elves, 1+2 less 2


@pytest.mark.parametrize(
    ("counts", "field"),
    [
        ({"hill": 1, "harbors": 2}, "player.active.counts.harbors"),
        ({"hill": 1, "next_to_pirates": 3}, "player.active.counts.next_to_pirates"),
        ({"hill": 1, "harbours": 1}, "player.active.counts.harbours"),
    ],
)
def test_a_bad_river_world_count_exits_2_naming_the_field(
    counts: dict[str, int], field: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = {"turn": 3, "player": {"active": {"race": "Ratmen", "power": "Hill", "counts": counts}}}
    code, out, err = run_score(capsys, doc, tmp_path)
    assert (code, out) == (2, "")
    assert f" {field}: " in err and err.count("\n") == 1


_LAND = (Terrain.FARMLAND, Terrain.HILL, Terrain.FOREST, Terrain.SWAMP, Terrain.MOUNTAIN)


Drawn = tuple[Terrain, bool, bool]
"""A region drawn: its terrain, whether it is coastal, whether it borders a pirate ship."""


@st.composite
def aquatic_or_not(draw: st.DrawFn) -> tuple[str, tuple[Drawn, ...]]:
    power = draw(st.sampled_from(("Aquatic", "Hill", "Alchemist", "Commando")))
    drawn = tuple(draw(st.lists(
        st.tuples(st.sampled_from(_LAND), st.booleans(), st.booleans()), max_size=8)))
    return power, drawn


@settings(max_examples=200)
@given(aquatic_or_not())
def test_pirates_take_a_coin_from_each_region_next_to_them_that_earns_one(
    case: tuple[str, tuple[Drawn, ...]],
) -> None:
    power, drawn = case
    regions = tuple(river_region(terrain, coastal=coastal, next_to_pirates=pirates)
                    for terrain, coastal, pirates in drawn)
    calm = tuple(river_region(terrain, coastal=coastal) for terrain, coastal, _ in drawn)
    with_ships = score_turn(ScoringInput(4, ActiveHoldings("Ratmen", power, regions)), CATALOG)
    without = score_turn(ScoringInput(4, ActiveHoldings("Ratmen", power, calm)), CATALOG)
    earns_nothing = power == "Aquatic"  # an inland region: 1 less 1
    losing = sum(pirates and not (earns_nothing and not coastal)
                 for _, coastal, pirates in drawn)
    assert with_ships.total == without.total - losing
    counted = ScoringInput(4, ActiveHoldings("Ratmen", power, count_regions(regions)))
    assert score_turn(counted, CATALOG) == with_ships
