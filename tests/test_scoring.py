"""End-of-turn scoring: one test per rule of the base game that earns (or refuses) coins."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scoring_support import (
    CATALOG,
    LAND,
    WATER,
    active,
    counted_by_hand,
    counted_input,
    declined,
    held,
    hills,
    labels,
    line,
    refused,
    score,
)

from companion.rules.catalog import Catalog, parse_catalog
from companion.rules.maps import Feature, Terrain
from companion.rules.scoring import (
    POWER_BONUSES,
    RACE_BONUSES,
    ActiveHoldings,
    DeclinedHoldings,
    HeldRegion,
    QuickCount,
    ScoreLine,
    ScoringInput,
    ScoringInputError,
    count_regions,
    score_turn,
)

# --- regions ---------------------------------------------------------------------------


def test_each_region_held_by_the_active_race_earns_one_coin() -> None:
    result = score(active("Ratmen", "Commando", hills(4)))
    assert result.lines == (ScoreLine("Regions held by Ratmen", 4),)
    assert result.total == 4


def test_each_region_held_by_a_race_in_decline_earns_one_coin() -> None:
    result = score(None, declined("Ratmen", "Commando", hills(3)))
    assert result.lines == (ScoreLine("Regions held by Ratmen (in decline)", 3),)


def test_active_and_declined_races_both_score() -> None:
    result = score(active("Elves", "Heroic", hills(2)), declined("Ratmen", "Commando", hills(3)))
    assert result.total == 5


def test_a_player_with_nothing_on_the_board_scores_nothing() -> None:
    result = score(None)
    assert result.lines == ()
    assert result.total == 0


# --- the rulebook's worked examples ----------------------------------------------------


def test_worked_example_merchant_skeletons_holding_three_regions_earn_six_coins() -> None:
    result = score(
        active(
            "Skeletons", "Merchant", (held(Terrain.FOREST), held(Terrain.HILL), held(Terrain.SWAMP))
        )
    )
    assert line(result, "Regions held by Skeletons") == 3
    assert line(result, "Merchant: one per region held") == 3
    assert result.total == 6


def test_worked_example_hill_tritons_on_one_hill_with_merchant_skeletons_in_decline() -> None:
    result = score(
        active("Tritons", "Hill", (held(Terrain.HILL, coastal=True),)),
        declined("Skeletons", "Merchant", (held(Terrain.FOREST), held(Terrain.SWAMP))),
    )
    assert line(result, "Regions held by Tritons") == 1
    assert line(result, "Hill: one per hill region") == 1
    assert line(result, "Regions held by Skeletons (in decline)") == 2
    assert not any("Merchant" in label for label in labels(result))
    assert result.total == 4


# --- races -----------------------------------------------------------------------------


def test_dwarves_earn_one_more_coin_per_mine_region() -> None:
    regions = (
        held(Terrain.HILL, Feature.MINE),
        held(Terrain.MOUNTAIN, Feature.MINE),
        held(Terrain.FOREST),
    )
    result = score(active("Dwarves", "Flying", regions))
    assert line(result, "Dwarves: one per mine region") == 2
    assert result.total == 5


def test_dwarves_in_decline_keep_their_mine_bonus() -> None:
    regions = (held(Terrain.HILL, Feature.MINE), held(Terrain.FOREST))
    result = score(None, declined("Dwarves", "Flying", regions))
    assert line(result, "Dwarves (in decline): one per mine region") == 1
    assert result.total == 3


def test_dwarves_keep_their_mine_bonus_on_the_turn_they_go_into_decline() -> None:
    regions = (held(Terrain.HILL, Feature.MINE), held(Terrain.FOREST, Feature.MINE))
    result = score(None, declined("Dwarves", "Merchant", regions, this_turn=True))
    assert line(result, "Dwarves (in decline): one per mine region") == 2
    assert result.total == 4


def test_humans_earn_one_more_coin_per_farmland_region() -> None:
    regions = (held(Terrain.FARMLAND), held(Terrain.FARMLAND), held(Terrain.HILL))
    result = score(active("Humans", "Diplomat", regions))
    assert line(result, "Humans: one per farmland region") == 2
    assert result.total == 5


def test_humans_in_decline_lose_their_farmland_bonus() -> None:
    result = score(None, declined("Humans", "Diplomat", (held(Terrain.FARMLAND),)))
    assert result.total == 1


def test_wizards_earn_one_more_coin_per_magic_source_region() -> None:
    regions = (
        held(Terrain.FOREST, Feature.MAGIC),
        held(Terrain.SWAMP, Feature.MAGIC),
        held(Terrain.HILL),
    )
    result = score(active("Wizards", "Berserk", regions))
    assert line(result, "Wizards: one per magic source region") == 2
    assert result.total == 5


def test_wizards_in_decline_lose_their_magic_bonus() -> None:
    result = score(None, declined("Wizards", "Berserk", (held(Terrain.FOREST, Feature.MAGIC),)))
    assert result.total == 1


def test_orcs_earn_one_more_coin_per_non_empty_region_conquered_this_turn() -> None:
    result = score(active("Orcs", "Stout", hills(4), conquered_non_empty=3))
    assert line(result, "Orcs: one per non-empty region conquered this turn") == 3
    assert result.total == 7


def test_orcs_in_decline_earn_no_conquest_bonus() -> None:
    result = score(None, declined("Orcs", "Stout", hills(2)))
    assert result.total == 2


# --- special powers --------------------------------------------------------------------


def test_alchemist_earns_two_coins_every_turn_while_active_even_holding_nothing() -> None:
    assert (
        line(score(active("Ratmen", "Alchemist", hills(1))), "Alchemist: while the race is active")
        == 2
    )
    assert score(active("Ratmen", "Alchemist")).total == 2


def test_alchemist_in_decline_earns_nothing_more() -> None:
    assert score(None, declined("Ratmen", "Alchemist", hills(2))).total == 2


def test_alchemist_earns_nothing_on_the_turn_the_race_goes_into_decline() -> None:
    assert score(None, declined("Ratmen", "Alchemist", hills(2), this_turn=True)).total == 2


@pytest.mark.parametrize(
    ("power", "terrain"),
    [("Forest", Terrain.FOREST), ("Hill", Terrain.HILL), ("Swamp", Terrain.SWAMP)],
)
def test_a_terrain_power_earns_one_more_coin_per_region_of_its_terrain(
    power: str, terrain: Terrain
) -> None:
    regions = (
        held(terrain),
        held(terrain),
        held(Terrain.FARMLAND if terrain is not Terrain.FARMLAND else Terrain.HILL),
    )
    result = score(active("Ratmen", power, regions))
    assert line(result, f"{power}: one per {terrain.value} region") == 2
    assert result.total == 5


@pytest.mark.parametrize("power", ["Forest", "Hill", "Swamp"])
def test_a_terrain_power_in_decline_earns_nothing_more(power: str) -> None:
    terrain = Terrain(power.lower())
    assert score(None, declined("Ratmen", power, (held(terrain),))).total == 1


def test_merchant_earns_one_more_coin_per_region_held() -> None:
    result = score(active("Giants", "Merchant", hills(5)))
    assert line(result, "Merchant: one per region held") == 5
    assert result.total == 10


def test_fortified_earns_one_coin_per_fortress_while_active() -> None:
    result = score(active("Giants", "Fortified", hills(3), fortresses=2))
    assert line(result, "Fortified: one per fortress") == 2
    assert result.total == 5


def test_a_declined_fortified_race_earns_nothing_for_its_fortresses() -> None:
    # a race in decline has no fortress count to give: only its regions score
    assert score(None, declined("Giants", "Fortified", hills(3))).total == 3


def test_only_a_fortified_race_can_hold_fortresses() -> None:
    problem = refused("active.fortresses", active("Giants", "Merchant", hills(3), fortresses=1))
    assert "Fortified" in problem


def test_fortresses_cannot_outnumber_the_regions_held_or_the_six_in_the_box() -> None:
    refused("active.fortresses", active("Giants", "Fortified", hills(2), fortresses=3))
    problem = refused("active.fortresses", active("Giants", "Fortified", hills(8), fortresses=7))
    assert "in the box" in problem


def test_pillaging_earns_one_more_coin_per_non_empty_region_conquered_this_turn() -> None:
    result = score(active("Trolls", "Pillaging", hills(3), conquered_non_empty=2))
    assert line(result, "Pillaging: one per non-empty region conquered this turn") == 2
    assert result.total == 5


def test_pillaging_orcs_earn_both_conquest_bonuses() -> None:
    result = score(active("Orcs", "Pillaging", hills(3), conquered_non_empty=2))
    assert result.total == 3 + 2 + 2


def test_wealthy_earns_seven_coins_at_the_end_of_the_turn_it_was_picked() -> None:
    result = score(active("Trolls", "Wealthy", hills(2), first_turn=True))
    assert line(result, "Wealthy: once, on the turn the combo was picked") == 7
    assert result.total == 9


def test_wealthy_earns_nothing_on_later_turns() -> None:
    result = score(active("Trolls", "Wealthy", hills(2), first_turn=False))
    assert result.total == 2
    assert labels(result) == ["Regions held by Trolls"]


def test_seafaring_seas_and_the_lake_count_as_regions() -> None:
    regions = (held(Terrain.SEA), held(Terrain.LAKE), held(Terrain.HILL))
    result = score(active("Ratmen", "Seafaring", regions))
    assert line(result, "Regions held by Ratmen") == 1
    assert line(result, "Seas and lakes held by Ratmen (Seafaring)") == 2
    assert result.total == 3


def test_a_seafaring_race_in_decline_keeps_scoring_its_seas() -> None:
    result = score(None, declined("Ratmen", "Seafaring", (held(Terrain.SEA), held(Terrain.HILL))))
    assert line(result, "Seas and lakes held by Ratmen (in decline) (Seafaring)") == 1
    assert result.total == 2


@pytest.mark.parametrize("water", WATER)
def test_a_race_without_seafaring_cannot_hold_seas_or_the_lake(water: Terrain) -> None:
    problem = refused(
        "active.regions[1]", active("Ratmen", "Merchant", (held(Terrain.HILL), held(water)))
    )
    assert "Seafaring" in problem
    refused("declined[0].regions[0]", None, declined("Ratmen", "Merchant", (held(water),)))
    refused(
        f"active.regions.terrains.{water.value}",
        active("Ratmen", "Merchant", QuickCount({water: 1})),
    )


def test_spirit_lets_two_races_in_decline_score_side_by_side() -> None:
    result = score(
        active("Elves", "Hill", hills(1)),
        declined("Ratmen", "Spirit", hills(2)),
        declined("Humans", "Merchant", hills(3)),
    )
    assert line(result, "Regions held by Ratmen (in decline)") == 2
    assert line(result, "Regions held by Humans (in decline)") == 3
    assert result.total == 1 + 1 + 2 + 3


def test_two_races_in_decline_without_spirit_are_refused() -> None:
    problem = refused(
        "declined",
        None,
        declined("Ratmen", "Hill", hills(1)),
        declined("Humans", "Forest", hills(1)),
    )
    assert "Spirit" in problem


def test_three_races_in_decline_are_refused() -> None:
    refused(
        "declined",
        None,
        declined("Ratmen", "Spirit", hills(1)),
        declined("Humans", "Forest", hills(1)),
        declined("Elves", "Hill", hills(1)),
    )


def test_a_race_that_declines_this_turn_scores_its_regions_but_no_bonus() -> None:
    regions = (held(Terrain.FARMLAND), held(Terrain.FARMLAND), held(Terrain.HILL))
    result = score(None, declined("Humans", "Merchant", regions, this_turn=True))
    assert result.lines == (ScoreLine("Regions held by Humans (in decline)", 3),)


def test_on_the_turn_a_race_declines_the_player_has_no_active_race() -> None:
    refused(
        "declined[0].this_turn",
        active("Elves", "Hill", hills(1)),
        declined("Ratmen", "Hill", hills(1), this_turn=True),
    )


def test_only_one_race_declines_in_a_turn() -> None:
    refused(
        "declined[1].this_turn",
        None,
        declined("Ratmen", "Spirit", hills(1), this_turn=True),
        declined("Humans", "Forest", hills(1), this_turn=True),
    )


NO_BONUS_POWERS = [name for name, bonuses in POWER_BONUSES.items() if not bonuses]
NO_BONUS_RACES = [name for name, bonuses in RACE_BONUSES.items() if not bonuses]


@pytest.mark.parametrize("power", NO_BONUS_POWERS)
def test_a_power_that_scores_nothing_adds_no_line(power: str) -> None:
    result = score(
        active(
            "Ratmen",
            power,
            (held(Terrain.FOREST), held(Terrain.HILL, Feature.MINE)),
            conquered_non_empty=1,
        )
    )
    assert result.lines == (ScoreLine("Regions held by Ratmen", 2),)


@pytest.mark.parametrize("race", NO_BONUS_RACES)
def test_a_race_that_scores_nothing_adds_no_line(race: str) -> None:
    regions = (held(Terrain.FARMLAND, Feature.MAGIC), held(Terrain.HILL, Feature.MINE))
    result = score(active(race, "Commando", regions, conquered_non_empty=2))
    assert result.lines == (ScoreLine(f"Regions held by {race}", 2),)


def test_a_bonus_that_earns_nothing_this_turn_adds_no_line() -> None:
    result = score(active("Humans", "Forest", hills(2)))
    assert labels(result) == ["Regions held by Humans"]


def test_every_base_race_and_power_of_the_catalog_has_a_scoring_rule() -> None:
    assert sorted(RACE_BONUSES) == sorted(r.name for r in CATALOG.races_in(["base"]))
    assert sorted(POWER_BONUSES) == sorted(p.name for p in CATALOG.powers_in(["base"]))


def _catalog_with(kind: str, entry: dict[str, object]) -> Catalog:
    """The packaged catalogue with one more race or power that scoring has no rule for."""
    data = resources.files("companion.data")
    docs = {name: json.loads(data.joinpath(f"{name}.json").read_text("utf-8"))
            for name in ("races", "powers", "components")}
    docs[kind][kind].append(entry)
    return parse_catalog(docs["races"], docs["powers"], docs["components"])


def test_a_race_or_power_with_no_scoring_rule_is_refused_not_scored_without_it() -> None:
    # Every race and power of the packaged catalogue now scores (the mini-expansions too);
    # one added to the data files later is refused until scoring knows its rule.
    newcomer = {"name": "Necromancers", "tokens": 5, "max_tokens": None, "expansion": "base",
                "summary": "a race scoring does not know"}
    catalog = _catalog_with("races", newcomer)
    with pytest.raises(ScoringInputError) as caught:
        score_turn(ScoringInput(4, active("Necromancers", "Hill", hills(1))), catalog)
    assert caught.value.field == "active.race"
    assert "not supported" in caught.value.problem
    catalog = _catalog_with(
        "powers", {"name": "Haunting", "tokens": 4, "expansion": "base", "summary": "new"}
    )
    with pytest.raises(ScoringInputError) as caught:
        score_turn(ScoringInput(4, active("Ratmen", "Haunting", hills(1))), catalog)
    assert caught.value.field == "active.power"


# --- names and impossible inputs -------------------------------------------------------


def test_race_and_power_names_ignore_case() -> None:
    result = score(active("sKeLeToNs", "MERCHANT", hills(2)))
    assert labels(result) == ["Regions held by Skeletons", "Merchant: one per region held"]


def test_an_unknown_race_is_refused_naming_the_field_and_the_value() -> None:
    problem = refused("active.race", active("Orks", "Hill", hills(1)))
    assert "'Orks'" in problem


def test_an_unknown_power_is_refused_naming_the_field_and_the_value() -> None:
    problem = refused("declined[0].power", None, declined("Orcs", "Hilly", hills(1)))
    assert "'Hilly'" in problem


def test_a_region_listed_twice_is_refused() -> None:
    problem = refused(
        "declined[0].regions[1]",
        active("Orcs", "Hill", (held(Terrain.HILL, id=3),)),
        declined("Dwarves", "Forest", (held(Terrain.HILL, id=4), held(Terrain.HILL, id=3))),
    )
    assert "region 3" in problem and "Orcs" in problem


def test_the_same_race_cannot_be_active_and_in_decline() -> None:
    refused(
        "declined[0].race", active("Orcs", "Hill", hills(1)), declined("orcs", "Forest", hills(1))
    )


@pytest.mark.parametrize("count", ["conquered_non_empty", "fortresses"])
def test_a_negative_count_is_refused(count: str) -> None:
    problem = refused(f"active.{count}", active("Orcs", "Fortified", hills(1), **{count: -1}))
    assert "negative" in problem


def test_more_non_empty_conquests_than_regions_held_are_refused() -> None:
    refused("active.conquered_non_empty", active("Orcs", "Hill", hills(2), conquered_non_empty=3))


def test_a_turn_before_the_first_is_refused() -> None:
    refused("turn", active("Orcs", "Hill", hills(1)), turn=0)


def test_on_turn_one_every_combo_was_just_picked_and_nothing_is_in_decline() -> None:
    assert score(active("Trolls", "Wealthy", hills(1), first_turn=True), turn=1).total == 8
    refused("active.first_turn", active("Trolls", "Wealthy", hills(1)), turn=1)
    refused("declined", None, declined("Orcs", "Hill", hills(1)), turn=1)


def test_quick_count_mines_cannot_outnumber_land_regions() -> None:
    counted = QuickCount({Terrain.HILL: 1}, mines=2)
    refused("active.regions.mines", active("Dwarves", "Hill", counted))


def test_quick_count_negative_terrain_count_is_refused() -> None:
    refused(
        "active.regions.terrains.hill", active("Dwarves", "Hill", QuickCount({Terrain.HILL: -1}))
    )


# --- properties ------------------------------------------------------------------------

BASE_RACES = sorted(RACE_BONUSES)
BASE_POWERS = sorted(POWER_BONUSES)


@st.composite
def regions_of(draw: st.DrawFn, seafaring: bool) -> tuple[HeldRegion, ...]:
    terrains = st.sampled_from(LAND + WATER if seafaring else LAND)
    n = draw(st.integers(0, 8))
    found = []
    for _ in range(n):
        terrain = draw(terrains)
        features = (
            frozenset() if terrain.is_water else draw(st.frozensets(st.sampled_from(list(Feature))))
        )
        found.append(HeldRegion(terrain, features, draw(st.booleans())))
    return tuple(found)


@st.composite
def positions(draw: st.DrawFn) -> ScoringInput:
    races = draw(st.permutations(BASE_RACES))
    turn = draw(st.integers(1, 10))
    act = None
    if turn == 1 or draw(st.booleans()):
        power = draw(st.sampled_from(BASE_POWERS))
        regions = draw(regions_of(power == "Seafaring"))
        fortresses = draw(st.integers(0, min(len(regions), 6))) if power == "Fortified" else 0
        act = ActiveHoldings(
            races[0],
            power,
            regions,
            first_turn=turn == 1 or draw(st.booleans()),
            conquered_non_empty=draw(st.integers(0, len(regions))),
            fortresses=fortresses,
        )
    dec: list[DeclinedHoldings] = []
    if turn > 1:
        powers = draw(st.sampled_from([[], ["any"], ["Spirit", "any"], ["any", "Spirit"]]))
        for index, kind in enumerate(powers):
            power = kind if kind == "Spirit" else draw(st.sampled_from(BASE_POWERS))
            this_turn = act is None and index == len(powers) - 1 and draw(st.booleans())
            dec.append(
                DeclinedHoldings(
                    races[index + 1], power, draw(regions_of(power == "Seafaring")), this_turn
                )
            )
    return ScoringInput(turn, act, tuple(dec))


def expected_total(inp: ScoringInput) -> int:
    """The rules of the booklet, written out a second time as plainly as possible."""
    total = 0
    a = inp.active
    if a is not None:
        regions = a.regions
        assert isinstance(regions, tuple)
        total += len(regions)
        land = [r for r in regions if not r.terrain.is_water]
        mines = sum(Feature.MINE in r.features for r in land)
        magic = sum(Feature.MAGIC in r.features for r in land)
        total += {
            "Dwarves": mines,
            "Humans": sum(r.terrain is Terrain.FARMLAND for r in regions),
            "Wizards": magic,
            "Orcs": a.conquered_non_empty,
        }.get(a.race, 0)
        total += {
            "Alchemist": 2,
            "Forest": sum(r.terrain is Terrain.FOREST for r in regions),
            "Hill": sum(r.terrain is Terrain.HILL for r in regions),
            "Swamp": sum(r.terrain is Terrain.SWAMP for r in regions),
            "Merchant": len(regions),
            "Fortified": a.fortresses,
            "Pillaging": a.conquered_non_empty,
            "Wealthy": 7 if a.first_turn else 0,
        }.get(a.power, 0)
    for d in inp.declined:
        assert isinstance(d.regions, tuple)
        total += len(d.regions)
        if d.race == "Dwarves":
            total += sum(Feature.MINE in r.features and not r.terrain.is_water for r in d.regions)
    return total


@settings(max_examples=300)
@given(positions())
def test_the_lines_always_add_up_to_the_total_and_follow_the_rules(inp: ScoringInput) -> None:
    result = score_turn(inp, CATALOG)
    assert result.total == sum(item.coins for item in result.lines)
    assert result.total == expected_total(inp)
    assert all(item.coins > 0 for item in result.lines if not item.label.startswith("Regions held"))


@settings(max_examples=300)
@given(positions())
def test_the_quick_count_scores_the_same_as_the_map_for_the_same_position(
    inp: ScoringInput,
) -> None:
    quick = counted_input(inp)
    assert score_turn(quick, CATALOG) == score_turn(inp, CATALOG)


@given(regions_of(True))
def test_count_regions_describes_the_same_regions(regions: tuple[HeldRegion, ...]) -> None:
    assert count_regions(regions) == counted_by_hand(regions)
