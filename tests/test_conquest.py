"""Conquest helper: costs and their modifiers, immunity, reach, and the final-conquest die."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from companion.rules.board import Markers, Occupant, RegionState
from companion.rules.catalog import load_catalog
from companion.rules.conquest import (
    Attacker,
    CostLine,
    TokenCountUnknown,
    assess,
    conquest_cost,
    final_conquest,
    immunity,
    reach,
)
from companion.rules.errors import IllegalAction, UnknownName
from companion.rules.maps import Feature, Region, Terrain, load_board

BOARD = load_board("2p")
DIE = load_catalog().die_faces
ME = 0
ENEMY = 1


def region_where(test: Callable[[Region], bool]) -> int:
    """The first region of the 2-player board that passes `test`."""
    return next(r.id for r in BOARD.regions.values() if test(r))


def plain(r: Region) -> bool:
    """Land where no modifier of this module applies: no mountain, coast or cavern."""
    return (
        not r.is_water
        and r.terrain is not Terrain.MOUNTAIN
        and not r.coastal
        and Feature.CAVERN not in r.features
    )


FOREST = region_where(lambda r: plain(r) and r.terrain is Terrain.FOREST)
SWAMP = region_where(lambda r: plain(r) and r.terrain is Terrain.SWAMP)
HILL = region_where(lambda r: plain(r) and r.terrain is Terrain.HILL)
FARMLAND = region_where(lambda r: plain(r) and r.terrain is Terrain.FARMLAND)
MOUNTAIN = region_where(
    lambda r: r.terrain is Terrain.MOUNTAIN and not r.coastal and not r.features
)
COASTAL = region_where(lambda r: r.coastal and r.terrain is Terrain.FOREST and not r.features)
SEA = region_where(lambda r: r.terrain is Terrain.SEA)
LAKE = region_where(lambda r: r.terrain is Terrain.LAKE)
CAVERN = region_where(lambda r: Feature.CAVERN in r.features and r.terrain is Terrain.SWAMP)
OTHER_CAVERN = region_where(
    lambda r: Feature.CAVERN in r.features and r.id != CAVERN and CAVERN not in r.adjacent
)
ENTRY = region_where(lambda r: r.entry and plain(r))
NOT_ENTRY = region_where(lambda r: not r.entry and not r.is_water)


def attacker(
    race: str = "Ratmen", power: str | None = "Heroic", held: set[int] | None = None
) -> Attacker:
    return Attacker(ME, race, power, frozenset(held or set()))


def cost(region_id: int, who: Attacker | None = None, state: RegionState | None = None) -> int:
    """The total cost for `who` (plain Heroic Ratmen by default), `state` lying there."""
    board_state = {} if state is None else {region_id: state}
    return conquest_cost(BOARD, region_id, board_state, who or attacker()).total


def enemy(
    tokens: int | None = 3, race: str = "Orcs", in_decline: bool = False, seat: int = ENEMY
) -> RegionState:
    return RegionState(occupant=Occupant(seat, race, in_decline, tokens))


def test_the_regions_used_here_are_what_their_names_say() -> None:
    assert BOARD.region(MOUNTAIN).terrain is Terrain.MOUNTAIN
    assert BOARD.region(COASTAL).coastal
    assert not BOARD.region(NOT_ENTRY).entry
    assert Feature.CAVERN in BOARD.region(OTHER_CAVERN).features


# --- the base cost ---------------------------------------------------------------------


def test_an_empty_region_costs_two_tokens() -> None:
    result = conquest_cost(BOARD, FOREST, {}, attacker())
    assert result.lines == (CostLine("Any conquest", 2),)
    assert result.total == 2


def test_a_mountain_adds_one_token_to_the_conquest_cost() -> None:
    assert cost(MOUNTAIN) == 3


def test_a_mountain_counts_once_even_with_its_marker_recorded() -> None:
    assert cost(MOUNTAIN, state=RegionState(markers=Markers(mountain=True))) == 3


def test_a_fortress_adds_one_token_to_the_conquest_cost() -> None:
    state = RegionState(occupant=Occupant(ENEMY, "Orcs", True, 1), markers=Markers(fortress=True))
    assert cost(FOREST, state=state) == 2 + 1 + 1


def test_a_trolls_lair_adds_one_token_to_the_conquest_cost() -> None:
    state = RegionState(
        occupant=Occupant(ENEMY, "Trolls", False, 1), markers=Markers(troll_lair=True)
    )
    assert cost(FOREST, state=state) == 2 + 1 + 1


def test_each_encampment_adds_one_token_to_the_conquest_cost() -> None:
    state = RegionState(occupant=Occupant(ENEMY, "Orcs", False, 1), markers=Markers(encampments=3))
    assert cost(FOREST, state=state) == 2 + 3 + 1


def test_a_lost_tribe_adds_one_token_to_the_conquest_cost() -> None:
    assert cost(FOREST, state=RegionState(lost_tribe=True)) == 3


def test_each_enemy_token_adds_one_token_to_the_conquest_cost() -> None:
    result = conquest_cost(BOARD, FOREST, {FOREST: enemy(4)}, attacker())
    assert CostLine("Orcs tokens there", 4) in result.lines
    assert result.total == 6


def test_a_declined_enemy_holds_one_token_when_the_count_is_not_recorded() -> None:
    assert cost(FOREST, state=enemy(None, in_decline=True)) == 3


def test_an_unrecorded_count_of_active_enemies_is_asked_for_not_guessed() -> None:
    with pytest.raises(TokenCountUnknown) as caught:
        cost(FOREST, state=enemy(None))
    assert caught.value.region_id == FOREST


def test_declined_ghouls_keep_all_their_tokens_so_their_count_must_be_known() -> None:
    with pytest.raises(TokenCountUnknown):
        cost(FOREST, state=enemy(None, race="Ghouls", in_decline=True))
    assert cost(FOREST, state=enemy(3, race="Ghouls", in_decline=True)) == 5


def test_your_own_declined_token_adds_nothing_to_the_cost() -> None:
    # the booklet counts Lost Tribes and *other players'* tokens only
    assert cost(FOREST, state=enemy(1, race="Humans", in_decline=True, seat=ME)) == 2


# --- race and power modifiers ----------------------------------------------------------


def test_commando_conquers_any_region_with_one_token_less() -> None:
    assert cost(MOUNTAIN, attacker(power="Commando")) == 2
    assert cost(FOREST, attacker(power="Commando"), state=enemy(2)) == 3


@pytest.mark.parametrize("region_id", [HILL, FARMLAND])
def test_mounted_conquers_hills_and_farmland_with_one_token_less(region_id: int) -> None:
    result = conquest_cost(BOARD, region_id, {}, attacker(power="Mounted"))
    assert result.total == 1
    assert any(line.label.startswith("Mounted") and line.tokens == -1 for line in result.lines)


@pytest.mark.parametrize("region_id", [FOREST, SWAMP, MOUNTAIN])
def test_mounted_gets_no_discount_elsewhere(region_id: int) -> None:
    assert cost(region_id, attacker(power="Mounted")) == cost(region_id)


def test_tritons_conquer_coastal_regions_with_one_token_less() -> None:
    assert cost(COASTAL, attacker(race="Tritons")) == 1
    assert cost(COASTAL, attacker(race="Tritons"), state=enemy(2)) == 3


def test_tritons_get_no_discount_inland() -> None:
    assert cost(FOREST, attacker(race="Tritons")) == 2


def test_giants_conquer_next_to_a_mountain_they_hold_with_one_token_less() -> None:
    target = next(
        i for i in sorted(BOARD.region(MOUNTAIN).adjacent) if not BOARD.region(i).is_water
    )
    giants = attacker(race="Giants", held={MOUNTAIN})
    result = conquest_cost(BOARD, target, {target: enemy(2)}, giants)
    assert result.total == 2 + 2 - 1
    assert any(line.label.startswith("Giants") for line in result.lines)


def test_giants_get_no_discount_without_a_mountain_of_theirs_next_door() -> None:
    far = region_where(
        lambda r: not r.is_water and MOUNTAIN not in r.adjacent and r.id != MOUNTAIN and plain(r)
    )
    assert cost(far, attacker(race="Giants", held={MOUNTAIN})) == 2
    beside = next(i for i in sorted(BOARD.region(MOUNTAIN).adjacent) if plain(BOARD.region(i)))
    assert cost(beside, attacker(race="Giants", held=set())) == 2
    non_mountain = next(
        i
        for i in sorted(BOARD.region(beside).adjacent)
        if BOARD.region(i).terrain is not Terrain.MOUNTAIN
    )
    assert cost(beside, attacker(race="Giants", held={non_mountain})) == 2


def test_underworld_conquers_cavern_regions_with_one_token_less() -> None:
    assert cost(CAVERN, attacker(power="Underworld")) == 1
    assert cost(FOREST, attacker(power="Underworld")) == 2


def test_discounts_add_up_but_a_conquest_always_needs_at_least_one_token() -> None:
    result = conquest_cost(BOARD, COASTAL, {}, attacker(race="Tritons", power="Commando"))
    assert result.total == 1
    assert result.lines[-1] == CostLine("Never fewer than 1 token", 1)
    assert sum(line.tokens for line in result.lines) == result.total


def test_race_and_power_names_ignore_case() -> None:
    assert cost(COASTAL, attacker(race="TRITONS", power="commando")) == 1


def test_dragon_master_pays_the_whole_cost_of_an_ordinary_conquest() -> None:
    # the Dragon's conquest is an action of its own (tests/test_rules_clauses.py)
    result = conquest_cost(BOARD, FOREST, {FOREST: enemy(5)}, attacker(power="Dragon Master"))
    assert result.total == 7
    assert not any("Dragon" in note for note in result.notes)


# --- regions that cannot be attacked ---------------------------------------------------


@pytest.mark.parametrize(
    ("markers", "word"),
    [
        (Markers(hole_in_the_ground=True), "Hole-in-the-Ground"),
        (Markers(hero=True), "Hero"),
        (Markers(dragon=True), "Dragon"),
    ],
)
def test_a_protected_region_cannot_be_attacked(markers: Markers, word: str) -> None:
    state = {FOREST: RegionState(occupant=Occupant(ENEMY, "Halflings", False, 1), markers=markers)}
    reason = immunity(BOARD, FOREST, state, attacker())
    assert reason is not None and word in str(reason)
    with pytest.raises(IllegalAction, match=word):
        conquest_cost(BOARD, FOREST, state, attacker())


@pytest.mark.parametrize("water", [SEA, LAKE])
def test_seas_and_the_lake_cannot_be_attacked_without_seafaring(water: int) -> None:
    reason = immunity(BOARD, water, {}, attacker())
    assert reason is not None and "Seafaring" in str(reason)
    assert immunity(BOARD, water, {}, attacker(power="Flying")) is not None


@pytest.mark.parametrize("water", [SEA, LAKE])
def test_seafaring_may_conquer_seas_and_the_lake_as_empty_regions(water: int) -> None:
    assert immunity(BOARD, water, {}, attacker(power="Seafaring")) is None
    assert cost(water, attacker(power="Seafaring")) == 2


def test_a_region_the_race_already_holds_cannot_be_attacked() -> None:
    state = {FOREST: RegionState(occupant=Occupant(ME, "Ratmen", False, 2))}
    reason = immunity(BOARD, FOREST, state, attacker())
    assert reason is not None and "already hold" in str(reason)


def test_a_region_of_your_own_race_in_decline_may_be_attacked() -> None:
    state = {FOREST: enemy(1, race="Humans", in_decline=True, seat=ME)}
    assert immunity(BOARD, FOREST, state, attacker()) is None


def test_unattackable_regions_lists_every_water_region_for_a_land_race() -> None:
    found = {rid for rid in BOARD.regions if immunity(BOARD, rid, {}, attacker()) is not None}
    assert found == {r.id for r in BOARD.regions.values() if r.is_water}


def test_an_id_not_on_the_board_is_an_unknown_region() -> None:
    with pytest.raises(UnknownName):
        conquest_cost(BOARD, 99, {}, attacker())


# --- reach -----------------------------------------------------------------------------


def test_a_race_entering_the_board_must_take_an_entry_region() -> None:
    assert reach(BOARD, ENTRY, attacker()).reachable
    refused = reach(BOARD, NOT_ENTRY, attacker())
    assert not refused.reachable and "entry" in str(refused.reason)


def test_halflings_may_enter_the_board_anywhere() -> None:
    assert reach(BOARD, NOT_ENTRY, attacker(race="Halflings")).reachable


def test_halflings_entering_anywhere_still_may_not_enter_a_sea_or_the_lake() -> None:
    for water in (SEA, LAKE):
        refused = reach(BOARD, water, attacker(race="Halflings"))
        assert not refused.reachable
        assert "only a Seafaring race may enter it" in str(refused.reason)
    assert reach(BOARD, SEA, attacker(race="Halflings", power="Seafaring")).reachable


def test_no_race_without_seafaring_reaches_a_sea_even_from_a_bordering_region() -> None:
    shore = min(BOARD.region(SEA).adjacent - {LAKE})
    refused = reach(BOARD, SEA, attacker(held={shore}))
    assert not refused.reachable and "Seafaring" in str(refused.reason)
    assert reach(BOARD, SEA, attacker(power="Seafaring", held={shore})).reachable


def test_halflings_follow_adjacency_once_on_the_board() -> None:
    far = region_where(lambda r: not r.is_water and ENTRY not in r.adjacent and r.id != ENTRY)
    assert not reach(BOARD, far, attacker(race="Halflings", held={ENTRY})).reachable


def test_later_conquests_must_border_a_region_the_race_holds() -> None:
    neighbour = min(i for i in BOARD.region(ENTRY).adjacent if not BOARD.region(i).is_water)
    far = region_where(lambda r: not r.is_water and ENTRY not in r.adjacent and r.id != ENTRY)
    assert reach(BOARD, neighbour, attacker(held={ENTRY})).reachable
    assert not reach(BOARD, far, attacker(held={ENTRY})).reachable


def test_flying_reaches_any_land_region_even_on_entering() -> None:
    far = region_where(lambda r: not r.is_water and ENTRY not in r.adjacent and r.id != ENTRY)
    assert reach(BOARD, far, attacker(power="Flying", held={ENTRY})).reachable
    assert reach(BOARD, NOT_ENTRY, attacker(power="Flying")).reachable


def test_underworld_treats_every_cavern_as_bordering_every_other() -> None:
    underworld = attacker(power="Underworld", held={CAVERN})
    assert reach(BOARD, OTHER_CAVERN, underworld).reachable
    assert not reach(BOARD, OTHER_CAVERN, attacker(held={CAVERN})).reachable


def test_seafaring_may_enter_on_a_sea_at_the_edge_of_the_board() -> None:
    assert reach(BOARD, SEA, attacker(power="Seafaring")).reachable
    assert not reach(BOARD, SEA, attacker()).reachable


def test_assess_gathers_immunity_reach_and_cost() -> None:
    result = assess(BOARD, ENTRY, {}, attacker())
    assert result.can_attack and result.cost is not None and result.cost.total == 2
    blocked = assess(BOARD, SEA, {}, attacker())
    assert not blocked.can_attack and blocked.cost is None


# --- the final conquest ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("tokens", "cost_", "chance"),
    [
        (2, 3, Fraction(1, 2)),
        (1, 3, Fraction(1, 3)),
        (1, 4, Fraction(1, 6)),
        (2, 5, Fraction(1, 6)),
    ],
)
def test_the_die_covers_up_to_three_missing_tokens(
    tokens: int, cost_: int, chance: Fraction
) -> None:
    result = final_conquest(tokens, cost_, DIE, attacker())
    assert result.allowed and result.needs_die
    assert result.chance == chance


def test_four_tokens_short_the_die_may_not_be_tried() -> None:
    result = final_conquest(1, 5, DIE, attacker())
    assert not result.allowed
    assert result.chance == 0


def test_the_die_needs_at_least_one_token_left() -> None:
    result = final_conquest(0, 2, DIE, attacker())
    assert not result.allowed and "no token" in str(result.reason)


def test_with_enough_tokens_no_die_is_needed() -> None:
    result = final_conquest(3, 3, DIE, attacker())
    assert result.allowed and not result.needs_die and result.chance == 1


def test_the_chance_comes_from_the_faces_of_the_die() -> None:
    assert DIE == (0, 0, 0, 1, 2, 3)
    assert final_conquest(1, 2, (1, 1, 1, 1, 1, 1), attacker()).chance == 1
    assert final_conquest(1, 3, (0, 2), attacker()).chance == Fraction(1, 2)


def test_bad_final_conquest_numbers_are_refused() -> None:
    with pytest.raises(IllegalAction):
        final_conquest(-1, 2, DIE, attacker())
    with pytest.raises(IllegalAction):
        final_conquest(1, 0, DIE, attacker())
    with pytest.raises(IllegalAction):
        final_conquest(1, 2, (), attacker())


def berserk(roll: int | None) -> Attacker:
    return Attacker(ME, "Ratmen", "Berserk", frozenset(), berserk_roll=roll)


@pytest.mark.parametrize(("roll", "expected"), [(0, 5), (1, 4), (2, 3), (3, 2)])
def test_berserk_takes_the_face_rolled_before_the_conquest_off_its_cost(
    roll: int, expected: int
) -> None:
    assert cost(FOREST, berserk(roll), state=enemy(3)) == expected


def test_berserk_never_pays_less_than_one_token() -> None:
    assert cost(FOREST, berserk(3)) == 1


def test_berserk_before_the_roll_pays_full_price_and_is_told_to_roll() -> None:
    result = conquest_cost(BOARD, FOREST, {}, berserk(None))
    assert result.total == 2
    assert any("Berserk: roll the die first" in note for note in result.notes)


def test_only_a_berserk_race_takes_a_roll_off_its_cost() -> None:
    with pytest.raises(IllegalAction, match="only a Berserk race"):
        conquest_cost(BOARD, FOREST, {}, Attacker(ME, "Ratmen", "Heroic", berserk_roll=2))
