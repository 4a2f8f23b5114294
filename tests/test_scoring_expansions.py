"""End-of-turn scoring of the mini-expansions (Cursed!, Grand Dames, Be Not Afraid...,
Royal Bonus): one test per rule that earns (or refuses) coins, and the properties."""

from __future__ import annotations

from collections.abc import Callable

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

from companion.rules import mini_game
from companion.rules.maps import Feature, Terrain
from companion.rules.mini_game import HistorianEvents, MiniFacts
from companion.rules.scoring import (
    EXPANSION_POWER_BONUSES,
    EXPANSION_RACE_BONUSES,
    POWER_BONUSES,
    RACE_BONUSES,
    ActiveHoldings,
    DeclinedHoldings,
    HeldRegion,
    QuickCount,
    ScoreLine,
    ScoringInput,
    count_regions,
    score_turn,
)

MINI_EXPANSIONS = ("cursed", "grand-dames", "be-not-afraid", "royal-bonus")
MINI_RACE_BONUSES = {**EXPANSION_RACE_BONUSES, **mini_game.RACE_BONUSES}
"""The mini-expansion races' rows: the shared table's, and those scoring on the
mini-expansions' own facts (the Pots of Gold, the Ivory Tower)."""
MINI_POWER_BONUSES = {**EXPANSION_POWER_BONUSES, **mini_game.POWER_BONUSES}


# --- the catalogue ---------------------------------------------------------------------


def test_every_mini_expansion_race_and_power_of_the_catalog_has_a_scoring_rule() -> None:
    assert sorted(MINI_RACE_BONUSES) == sorted(
        r.name for r in CATALOG.races_in(MINI_EXPANSIONS)
    )
    assert sorted(MINI_POWER_BONUSES) == sorted(
        p.name for p in CATALOG.powers_in(MINI_EXPANSIONS)
    )
    assert not set(MINI_RACE_BONUSES) & set(RACE_BONUSES)
    assert not set(MINI_POWER_BONUSES) & set(POWER_BONUSES)
    # a race or power has one row: the shared table's or its expansion's
    assert not set(EXPANSION_RACE_BONUSES) & set(mini_game.RACE_BONUSES)
    assert not set(EXPANSION_POWER_BONUSES) & set(mini_game.POWER_BONUSES)


QUIET_RACES = [name for name, bonuses in EXPANSION_RACE_BONUSES.items() if not bonuses]
QUIET_POWERS = [name for name, bonuses in EXPANSION_POWER_BONUSES.items() if not bonuses]


@pytest.mark.parametrize("race", QUIET_RACES)
def test_a_mini_expansion_race_that_scores_nothing_scores_its_regions_and_no_line(
    race: str,
) -> None:
    regions = (held(Terrain.FARMLAND, Feature.MAGIC), held(Terrain.HILL, Feature.MINE))
    result = score(active(race, "Commando", regions, conquered_non_empty=2))
    assert result.lines == (ScoreLine(f"Regions held by {race}", 2),)
    result = score(None, declined(race, "Commando", regions))
    assert result.lines == (ScoreLine(f"Regions held by {race} (in decline)", 2),)


@pytest.mark.parametrize("power", QUIET_POWERS)
def test_a_mini_expansion_power_that_scores_nothing_scores_its_regions_and_no_line(
    power: str,
) -> None:
    regions = (held(Terrain.FOREST, coastal=True), held(Terrain.HILL, Feature.MINE))
    result = score(active("Ratmen", power, regions, conquered_non_empty=1, first_turn=True))
    assert result.lines == (ScoreLine("Regions held by Ratmen", 2),)


def test_mini_expansion_names_ignore_case() -> None:
    result = score(active("white LADIES", "hordes OF", hills(2)))
    assert labels(result) == ["Regions held by White Ladies"]
    assert score(active("Ratmen", "were-", hills(1))).total == 1


# --- Aquatic ---------------------------------------------------------------------------


def test_aquatic_pays_one_more_per_coastal_region_and_one_less_per_inland_one() -> None:
    regions = (*hills(3, coastal=True), *hills(1))
    result = score(active("Ratmen", "Aquatic", regions))
    assert result.lines == (
        ScoreLine("Regions held by Ratmen", 4),
        ScoreLine("Aquatic: one per coastal region", 3),
        ScoreLine("Aquatic: one less per inland region", -1),
    )
    assert result.total == 6


def test_aquatic_inland_regions_earn_nothing_at_all() -> None:
    result = score(active("Ratmen", "Aquatic", hills(3)))
    assert line(result, "Aquatic: one less per inland region") == -3
    assert result.total == 0


def test_aquatic_in_decline_neither_pays_nor_costs() -> None:
    regions = (*hills(2, coastal=True), *hills(2))
    for this_turn in (False, True):
        result = score(None, declined("Ratmen", "Aquatic", regions, this_turn=this_turn))
        assert result.lines == (ScoreLine("Regions held by Ratmen (in decline)", 4),)


def test_aquatic_quick_count_reads_the_coastal_land_regions() -> None:
    counted = QuickCount({Terrain.HILL: 3, Terrain.FOREST: 1}, coastal=2)
    assert score(active("Ratmen", "Aquatic", counted)).total == 4 + 2 - 2
    refused(
        "active.regions.coastal",
        active("Ratmen", "Aquatic", QuickCount({Terrain.HILL: 1}, coastal=2)),
    )


# --- Barricade and Imperial ------------------------------------------------------------


@pytest.mark.parametrize("regions", [0, 1, 4])
def test_barricade_pays_three_coins_holding_four_regions_or_fewer(regions: int) -> None:
    result = score(active("Ratmen", "Barricade", hills(regions)))
    assert line(result, "Barricade: holding 4 regions or fewer") == 3
    assert result.total == regions + 3


def test_barricade_pays_nothing_holding_five_regions() -> None:
    assert score(active("Ratmen", "Barricade", hills(5))).lines == (
        ScoreLine("Regions held by Ratmen", 5),
    )


def test_barricade_in_decline_pays_nothing() -> None:
    for this_turn in (False, True):
        assert (
            score(None, declined("Ratmen", "Barricade", hills(2), this_turn=this_turn)).total == 2
        )


@pytest.mark.parametrize(("regions", "bonus"), [(0, 0), (3, 0), (4, 1), (7, 4)])
def test_imperial_pays_one_coin_per_region_beyond_the_third(regions: int, bonus: int) -> None:
    result = score(active("Ratmen", "Imperial", hills(regions)))
    assert result.total == regions + bonus
    assert ("Imperial: one per region beyond the 3rd" in labels(result)) == (bonus > 0)


def test_imperial_in_decline_pays_nothing() -> None:
    assert score(None, declined("Ratmen", "Imperial", hills(6))).total == 6


# --- Peace-Loving ----------------------------------------------------------------------


def test_peace_loving_pays_three_coins_after_a_turn_attacking_no_other_active_race() -> None:
    # Lost Tribes, races in decline and declined Ghouls may be attacked: the flag stays false
    result = score(active("Ratmen", "Peace-Loving", hills(2), attacked_active_race=False))
    assert line(result, "Peace-Loving: no other active race attacked this turn") == 3
    assert result.total == 5


def test_peace_loving_pays_nothing_after_attacking_an_active_race() -> None:
    result = score(active("Ratmen", "Peace-Loving", hills(2), attacked_active_race=True))
    assert result.lines == (ScoreLine("Regions held by Ratmen", 2),)


def test_peace_loving_must_say_whether_an_active_race_was_attacked() -> None:
    problem = refused("active.attacked_active_race", active("Ratmen", "Peace-Loving", hills(2)))
    assert "true or false" in problem
    # any other power may leave it unsaid
    assert score(active("Ratmen", "Hill", hills(2))).total == 4


def test_peace_loving_in_decline_pays_nothing() -> None:
    assert score(None, declined("Ratmen", "Peace-Loving", hills(2), this_turn=True)).total == 2


def test_attacked_active_race_must_be_true_or_false() -> None:
    refused(
        "active.attacked_active_race",
        active("Ratmen", "Peace-Loving", hills(1), attacked_active_race=1),
    )


# --- Historian -------------------------------------------------------------------------


def test_historian_pays_one_coin_per_race_in_decline_when_the_combo_is_picked() -> None:
    events = HistorianEvents(in_decline_when_picked=3)
    result = score(active("Ratmen", "Historian", hills(2), first_turn=True, historian=events))
    assert line(result, "Historian: one per race in decline when the combo was picked") == 3
    assert result.total == 5


def test_historian_counts_races_in_decline_only_on_the_turn_the_combo_was_picked() -> None:
    events = HistorianEvents(in_decline_when_picked=1)
    problem = refused(
        "active.historian.in_decline_when_picked",
        active("Ratmen", "Historian", hills(1), historian=events),
    )
    assert "first_turn" in problem


def test_historian_pays_one_coin_each_time_another_race_goes_into_decline() -> None:
    events = HistorianEvents(others_declined=2)
    result = score(active("Ratmen", "Historian", hills(1), historian=events))
    assert line(result, "Historian: one per other race that went into decline") == 2
    assert result.total == 3


def test_historian_pays_a_last_coin_when_the_historians_go_into_decline() -> None:
    result = score(None, declined("Ratmen", "Historian", hills(2), this_turn=True))
    assert result.lines == (
        ScoreLine("Regions held by Ratmen (in decline)", 2),
        ScoreLine("Historian (in decline): a last coin on going into decline", 1),
    )


def test_historian_counts_other_declines_up_to_the_turn_it_declines() -> None:
    events = HistorianEvents(others_declined=2)
    result = score(
        None, declined("Ratmen", "Historian", hills(1), this_turn=True, historian=events)
    )
    assert line(result, "Historian (in decline): one per other race that went into decline") == 2
    assert result.total == 1 + 2 + 1


def test_historians_in_decline_since_an_earlier_turn_earn_nothing_more() -> None:
    assert score(None, declined("Ratmen", "Historian", hills(2))).total == 2
    problem = refused(
        "declined[0].historian.others_declined",
        None,
        declined("Ratmen", "Historian", hills(2), historian=HistorianEvents(others_declined=1)),
    )
    assert "earlier turn" in problem


def test_only_the_historian_power_counts_declines() -> None:
    problem = refused(
        "active.historian.others_declined",
        active("Ratmen", "Hill", hills(1), historian=HistorianEvents(others_declined=1)),
    )
    assert "Historian" in problem and "Hill" in problem
    refused(
        "declined[0].historian.in_decline_when_picked",
        None,
        declined(
            "Ratmen",
            "Historian",
            hills(1),
            this_turn=True,
            historian=HistorianEvents(in_decline_when_picked=1),
        ),
    )


def test_historian_events_must_be_counts() -> None:
    refused("active.historian", active("Ratmen", "Historian", hills(1), historian={"x": 1}))
    refused(
        "active.historian.others_declined",
        active("Ratmen", "Historian", hills(1), historian=HistorianEvents(others_declined=-1)),
    )


# --- Gypsies ---------------------------------------------------------------------------


def test_gypsies_collect_the_coin_left_in_each_region_abandoned_this_turn() -> None:
    result = score(active("Gypsies", "Hill", hills(2), abandoned=3))
    assert line(result, "Gypsies: the coins left in the regions they abandoned this turn") == 3
    assert result.total == 2 + 2 + 3


def test_gypsies_who_abandon_nothing_earn_no_line() -> None:
    assert labels(score(active("Gypsies", "Commando", hills(2)))) == ["Regions held by Gypsies"]


def test_only_gypsies_leave_coins_in_abandoned_regions() -> None:
    problem = refused("active.abandoned", active("Ratmen", "Hill", hills(1), abandoned=1))
    assert "Gypsies" in problem and "Ratmen" in problem


# --- Leprechauns -----------------------------------------------------------------------


def test_leprechauns_collect_each_pot_of_gold_still_there_at_the_start_of_the_turn() -> None:
    result = score(active("Leprechauns", "Commando", hills(3), pots_of_gold=2))
    assert (
        line(result, "Leprechauns: Pots of Gold still in their regions at the start of the turn")
        == 2
    )
    assert result.total == 5


def test_leprechauns_collect_their_pots_on_the_turn_they_go_into_decline() -> None:
    result = score(
        None, declined("Leprechauns", "Commando", hills(3), this_turn=True, pots_of_gold=3)
    )
    assert result.total == 3 + 3


def test_leprechauns_in_decline_since_an_earlier_turn_have_no_pots_left() -> None:
    refused(
        "declined[0].pots_of_gold", None, declined("Leprechauns", "Hill", hills(1), pots_of_gold=1)
    )


def test_leprechauns_picked_this_turn_have_no_pot_of_gold_to_collect_yet() -> None:
    for turn in (1, 4):
        problem = refused(
            "active.pots_of_gold",
            active("Leprechauns", "Commando", hills(2), first_turn=True, pots_of_gold=2),
            turn=turn,
        )
        assert "picked this turn" in problem and "0 is the only count possible" in problem
    picked = score(active("Leprechauns", "Commando", hills(2), first_turn=True), turn=1)
    assert picked.total == 2


def test_only_leprechauns_place_pots_of_gold() -> None:
    refused("active.pots_of_gold", active("Ratmen", "Hill", hills(1), pots_of_gold=1))
    refused(
        "declined[0].pots_of_gold",
        None,
        declined("Ratmen", "Hill", hills(1), this_turn=True, pots_of_gold=1),
    )


# --- Priestesses -----------------------------------------------------------------------


def test_priestesses_in_decline_score_their_ivory_tower_instead_of_their_regions() -> None:
    result = score(None, declined("Priestesses", "Merchant", hills(1), ivory_tower=5))
    assert result.lines == (
        ScoreLine("Regions held by Priestesses (in decline): the Ivory Tower scores instead", 0),
        ScoreLine("Priestesses (in decline): one per Priestess in the Ivory Tower", 5),
    )


def test_the_ivory_tower_scores_from_the_turn_the_priestesses_go_into_decline() -> None:
    result = score(None, declined("Priestesses", "Hill", hills(1), this_turn=True, ivory_tower=4))
    assert result.total == 4


def test_a_seafaring_ivory_tower_on_a_sea_scores_only_its_priestesses() -> None:
    result = score(None, declined("Priestesses", "Seafaring", (held(Terrain.SEA),), ivory_tower=2))
    assert result.total == 2


def test_active_priestesses_score_their_regions_as_usual() -> None:
    assert score(active("Priestesses", "Hill", hills(3))).total == 6
    # an active race has no Ivory Tower at all: the field exists only for a declined one
    assert not hasattr(ActiveHoldings("Priestesses", "Hill"), "ivory_tower")


def test_priestesses_in_decline_keep_only_the_ivory_towers_region() -> None:
    problem = refused(
        "declined[0].regions", None, declined("Priestesses", "Hill", hills(2), ivory_tower=2)
    )
    assert "Ivory Tower" in problem


def test_a_conquered_ivory_tower_scores_nothing() -> None:
    result = score(None, declined("Priestesses", "Hill", ()))
    assert result.total == 0
    problem = refused(
        "declined[0].ivory_tower", None, declined("Priestesses", "Hill", (), ivory_tower=3)
    )
    assert "conquered" in problem


def test_the_ivory_tower_holds_no_more_priestesses_than_the_box() -> None:
    most = CATALOG.race("Priestesses").max_tokens
    assert most is not None
    assert score(None, declined("Priestesses", "Hill", hills(1), ivory_tower=most)).total == most
    refused(
        "declined[0].ivory_tower",
        None,
        declined("Priestesses", "Hill", hills(1), ivory_tower=most + 1),
    )


def test_only_priestesses_build_an_ivory_tower() -> None:
    refused("declined[0].ivory_tower", None, declined("Ratmen", "Hill", hills(1), ivory_tower=1))


# --- impossible inputs -----------------------------------------------------------------

NEGATIVE: dict[str, Callable[[], tuple[ActiveHoldings | None, DeclinedHoldings | None]]] = {
    "active.abandoned": lambda: (active("Gypsies", "Hill", abandoned=-1), None),
    "active.pots_of_gold": lambda: (active("Leprechauns", "Hill", pots_of_gold=-1), None),
    "declined[0].ivory_tower": lambda: (
        None,
        declined("Priestesses", "Hill", hills(1), ivory_tower=-1),
    ),
    "active.historian.in_decline_when_picked": lambda: (
        active(
            "Ratmen",
            "Historian",
            first_turn=True,
            historian=HistorianEvents(in_decline_when_picked=-2),
        ),
        None,
    ),
}


@pytest.mark.parametrize("field", list(NEGATIVE))
def test_a_negative_mini_expansion_count_is_refused(field: str) -> None:
    act, dec = NEGATIVE[field]()
    problem = refused(field, act, *(() if dec is None else (dec,)))
    assert "negative" in problem


def test_a_mini_expansion_count_that_is_not_a_whole_number_is_refused() -> None:
    refused("active.abandoned", active("Gypsies", "Hill", abandoned=1.5))
    refused("active.pots_of_gold", active("Leprechauns", "Hill", pots_of_gold=True))


def test_base_game_callers_that_know_nothing_of_the_expansions_score_as_before() -> None:
    result = score(
        ActiveHoldings("Orcs", "Pillaging", hills(2), False, 1, 0),
        DeclinedHoldings("Dwarves", "Hill", (held(Terrain.HILL, Feature.MINE),), False),
    )
    assert result.total == 2 + 1 + 1 + 1 + 1


# --- properties ------------------------------------------------------------------------

ALL_RACES = sorted({*RACE_BONUSES, *MINI_RACE_BONUSES})
ALL_POWERS = sorted({*POWER_BONUSES, *MINI_POWER_BONUSES})


@st.composite
def regions_of(draw: st.DrawFn, seafaring: bool, most: int = 8) -> tuple[HeldRegion, ...]:
    terrains = st.sampled_from(LAND + WATER if seafaring else LAND)
    found = []
    for _ in range(draw(st.integers(0, most))):
        terrain = draw(terrains)
        features = (
            frozenset() if terrain.is_water else draw(st.frozensets(st.sampled_from(list(Feature))))
        )
        found.append(HeldRegion(terrain, features, draw(st.booleans())))
    return tuple(found)


@st.composite
def active_holdings(draw: st.DrawFn, race: str, turn: int) -> ActiveHoldings:
    power = draw(st.sampled_from(ALL_POWERS))
    regions = draw(regions_of(power == "Seafaring"))
    first_turn = turn == 1 or draw(st.booleans())
    attacked = draw(st.booleans()) if power == "Peace-Loving" else draw(st.none() | st.booleans())
    historian = HistorianEvents()
    if power == "Historian":
        historian = HistorianEvents(
            draw(st.integers(0, 6)) if first_turn else 0, draw(st.integers(0, 6))
        )
    return ActiveHoldings(
        race,
        power,
        regions,
        first_turn=first_turn,
        conquered_non_empty=draw(st.integers(0, len(regions))),
        fortresses=draw(st.integers(0, min(len(regions), 6))) if power == "Fortified" else 0,
        abandoned=draw(st.integers(0, 5)) if race == "Gypsies" else 0,
        attacked_active_race=attacked,
        facts=(MiniFacts(
            pots_of_gold=draw(st.integers(0, 5)) if race == "Leprechauns" and not first_turn else 0,
            historian=historian,
        ),),
    )


@st.composite
def declined_holdings(draw: st.DrawFn, race: str, power: str, this_turn: bool) -> DeclinedHoldings:
    seafaring = power == "Seafaring"
    if race == "Priestesses":
        regions = draw(regions_of(seafaring, most=1))
        tower = draw(st.integers(0, 9)) if regions else 0
    else:
        regions, tower = draw(regions_of(seafaring)), 0
    return DeclinedHoldings(
        race,
        power,
        regions,
        this_turn,
        facts=(MiniFacts(
            ivory_tower=tower,
            pots_of_gold=draw(st.integers(0, 5)) if race == "Leprechauns" and this_turn else 0,
            historian=HistorianEvents(
                others_declined=draw(st.integers(0, 4)) if power == "Historian" and this_turn
                else 0
            ),
        ),),
    )


@st.composite
def positions(draw: st.DrawFn) -> ScoringInput:
    races = draw(st.permutations(ALL_RACES))
    turn = draw(st.integers(1, 10))
    act = draw(active_holdings(races[0], turn)) if turn == 1 or draw(st.booleans()) else None
    dec: list[DeclinedHoldings] = []
    if turn > 1:
        kinds = draw(st.sampled_from([[], ["any"], ["Spirit", "any"], ["any", "Spirit"]]))
        for index, kind in enumerate(kinds):
            power = kind if kind == "Spirit" else draw(st.sampled_from(ALL_POWERS))
            this_turn = act is None and index == len(kinds) - 1 and draw(st.booleans())
            dec.append(draw(declined_holdings(races[index + 1], power, this_turn)))
    return ScoringInput(turn, act, tuple(dec))


def _land(regions: tuple[HeldRegion, ...] | QuickCount) -> list[HeldRegion]:
    assert isinstance(regions, tuple)
    return [r for r in regions if not r.terrain.is_water]


def expected_total(inp: ScoringInput) -> int:
    """The rules of the booklet and the expansions, written out a second time plainly."""
    total = 0
    a = inp.active
    if a is not None:
        regions = a.regions
        assert isinstance(regions, tuple)
        land = _land(regions)
        coastal = sum(r.coastal for r in land)
        mini = a.fact(MiniFacts) or MiniFacts()
        total += len(regions)
        total += {
            "Dwarves": sum(Feature.MINE in r.features for r in land),
            "Humans": sum(r.terrain is Terrain.FARMLAND for r in regions),
            "Wizards": sum(Feature.MAGIC in r.features for r in land),
            "Orcs": a.conquered_non_empty,
            "Gypsies": a.abandoned,
            "Leprechauns": mini.pots_of_gold,
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
            "Aquatic": coastal - (len(land) - coastal),
            "Barricade": 3 if len(regions) <= 4 else 0,
            "Imperial": max(0, len(regions) - 3),
            "Peace-Loving": 0 if a.attacked_active_race else 3,
            "Historian": mini.historian.in_decline_when_picked + mini.historian.others_declined,
        }.get(a.power, 0)
    for d in inp.declined:
        assert isinstance(d.regions, tuple)
        mini = d.fact(MiniFacts) or MiniFacts()
        if d.race == "Priestesses":
            total += mini.ivory_tower
        else:
            total += len(d.regions)
        if d.race == "Dwarves":
            total += sum(Feature.MINE in r.features for r in _land(d.regions))
        if d.this_turn:
            total += mini.pots_of_gold
            if d.power == "Historian":
                total += mini.historian.others_declined + 1
    return total


@settings(max_examples=400)
@given(positions())
def test_with_the_mini_expansions_the_lines_always_add_up_to_the_total_and_follow_the_rules(
    inp: ScoringInput,
) -> None:
    result = score_turn(inp, CATALOG)
    assert result.total == sum(item.coins for item in result.lines)
    assert result.total == expected_total(inp)
    assert result.total >= 0
    for item in result.lines:
        if item.label.startswith("Regions held"):
            assert item.coins >= 0
        elif item.label.startswith("Aquatic: one less"):
            assert item.coins < 0
        else:
            assert item.coins > 0, item


@settings(max_examples=400)
@given(positions())
def test_with_the_mini_expansions_the_quick_count_scores_the_same_as_the_map(
    inp: ScoringInput,
) -> None:
    quick = counted_input(inp)
    assert score_turn(quick, CATALOG) == score_turn(inp, CATALOG)


@given(regions_of(True))
def test_count_regions_counts_coastal_land_regions(regions: tuple[HeldRegion, ...]) -> None:
    assert count_regions(regions) == counted_by_hand(regions)
