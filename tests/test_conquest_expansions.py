"""Conquest helper for the mini-expansions: cost modifiers, immunities, the Catapult's reach,
and the Mercenary's coin on the final conquest."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.board import Markers, Occupant, RegionState
from companion.rules.catalog import load_catalog
from companion.rules.conquest import (
    Attacker,
    CostLine,
    assess,
    behemoth_height,
    conquest_cost,
    final_conquest,
    immunity,
    minimum_cost,
    reach,
)
from companion.rules.errors import IllegalAction
from companion.rules.maps import Board, Feature, Region, Terrain, load_board

BOARD = load_board("2p")
CATALOG = load_catalog()
DIE = CATALOG.die_faces
ME = 0
ENEMY = 1


def region_where(test: Callable[[Region], bool], board: Board = BOARD) -> int:
    return next(r.id for r in board.regions.values() if test(r))


def plain(r: Region) -> bool:
    """Land where no base modifier applies: no mountain, coast or cavern."""
    return (
        not r.is_water
        and r.terrain is not Terrain.MOUNTAIN
        and not r.coastal
        and Feature.CAVERN not in r.features
    )


FOREST = region_where(lambda r: plain(r) and r.terrain is Terrain.FOREST)
HILL = region_where(lambda r: plain(r) and r.terrain is Terrain.HILL)
FARMLAND = region_where(lambda r: plain(r) and r.terrain is Terrain.FARMLAND)
SWAMPS = sorted(r.id for r in BOARD.regions.values() if r.terrain is Terrain.SWAMP)


def attacker(race: str = "Ratmen", power: str | None = "Heroic", **kw: object) -> Attacker:
    held = kw.pop("held", set())
    assert isinstance(held, set)
    return Attacker(ME, race, power, frozenset(held), **kw)  # type: ignore[arg-type]


def enemy(
    tokens: int | None = 3, race: str = "Orcs", in_decline: bool = False, seat: int = ENEMY
) -> RegionState:
    return RegionState(occupant=Occupant(seat, race, in_decline, tokens))


def cost_of(
    region_id: int, who: Attacker, state: RegionState | None = None, board: Board = BOARD
) -> tuple[int, tuple[CostLine, ...], tuple[str, ...]]:
    board_state = {} if state is None else {region_id: state}
    result = conquest_cost(board, region_id, board_state, who)
    assert result.total == sum(line.tokens for line in result.lines)
    return result.total, result.lines, result.notes


def total(region_id: int, who: Attacker, state: RegionState | None = None) -> int:
    return cost_of(region_id, who, state)[0]


# --- Goblins ---------------------------------------------------------------------------


def test_goblins_conquer_a_region_held_by_a_race_in_decline_with_one_token_less() -> None:
    _, lines, _ = cost_of(FOREST, attacker("Goblins"), enemy(1, in_decline=True))
    assert lines == (
        CostLine("Any conquest", 2),
        CostLine("Orcs in decline token there", 1),
        CostLine("Goblins against a race in decline", -1),
    )


def test_goblins_get_no_discount_against_an_active_race_or_an_empty_region() -> None:
    assert total(FOREST, attacker("Goblins"), enemy(2)) == 4
    assert total(FOREST, attacker("Goblins")) == 2
    assert total(FOREST, attacker("Goblins"), RegionState(lost_tribe=True)) == 3


def test_goblins_against_a_race_in_decline_still_need_one_token() -> None:
    who = attacker("Goblins", "Commando")
    lines = cost_of(FOREST, who, enemy(1, in_decline=True, race="Elves"))[1]
    assert sum(line.tokens for line in lines) == 1
    assert CostLine("Goblins against a race in decline", -1) in lines


# --- Kobolds ---------------------------------------------------------------------------


def test_kobolds_never_conquer_a_region_with_fewer_than_two_tokens() -> None:
    _, lines, _ = cost_of(FOREST, attacker("Kobolds", "Commando"))
    assert lines == (
        CostLine("Any conquest", 2),
        CostLine("Commando", -1),
        CostLine("Kobolds: never fewer than 2 tokens", 1),
    )
    assert minimum_cost(attacker("Kobolds")) == 2
    assert minimum_cost(attacker("Ratmen")) == 1


def test_kobolds_pay_the_usual_cost_above_two_tokens() -> None:
    _, lines, _ = cost_of(FOREST, attacker("Kobolds"), enemy(2))
    assert sum(line.tokens for line in lines) == 4
    assert not any("Kobolds" in line.label for line in lines)


def test_kobolds_never_try_the_final_conquest_with_a_single_kobold() -> None:
    # the minimum comes from the attacker itself: no caller can forget to pass it
    alone = final_conquest(1, 2, DIE, attacker("Kobolds"))
    assert not alone.allowed and alone.chance == 0
    assert str(alone.reason) == "1 token left; Kobolds never hold a region with fewer than 2"
    assert final_conquest(2, 4, DIE, attacker("Kobolds")).allowed
    assert final_conquest(1, 2, DIE, attacker("Ratmen")).allowed  # others try with one


def test_the_final_conquest_needs_the_race_that_tries_it() -> None:
    with pytest.raises(IllegalAction, match="attacker must be the race"):
        final_conquest(1, 2, DIE, "Kobolds")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        final_conquest(1, 2, DIE)  # type: ignore[call-arg]


# --- Were- -----------------------------------------------------------------------------


@pytest.mark.parametrize("turn", [2, 4, 10])
def test_were_conquer_with_two_tokens_less_on_night_turns(turn: int) -> None:
    _, lines, _ = cost_of(FOREST, attacker(power="Were-", turn=turn), enemy(2))
    assert CostLine(f"Were- at night (turn {turn})", -2) in lines
    assert sum(line.tokens for line in lines) == 2 + 2 - 2


@pytest.mark.parametrize("turn", [1, 3, 9])
def test_were_have_no_discount_by_day(turn: int) -> None:
    result, lines, notes = cost_of(FOREST, attacker(power="Were-", turn=turn), enemy(2))
    assert result == 4
    assert not any("Were-" in line.label for line in lines)
    assert any("daytime" in note for note in notes)


def test_were_without_a_known_turn_are_reminded_not_discounted() -> None:
    result, _, notes = cost_of(FOREST, attacker(power="Were-"), enemy(2))
    assert result == 4
    assert any("night" in note and "not known" in note for note in notes)


def test_were_at_night_still_need_one_token() -> None:
    result, lines, _ = cost_of(FOREST, attacker(power="WERE-", turn=6))
    assert result == 1
    assert lines[-1] == CostLine("Never fewer than 1 token", 1)


def test_only_were_have_a_night_discount() -> None:
    assert total(FOREST, attacker(power="Heroic", turn=2)) == 2


# --- Catapult --------------------------------------------------------------------------


def _two_steps(board: Board, kinds: set[Terrain]) -> tuple[int, int, int]:
    """(source, target, between): land regions two steps apart whose only common
    neighbours are of `kinds`."""
    for source in board.regions.values():
        for target in board.regions.values():
            if source.is_water or target.is_water or target.id == source.id:
                continue
            if target.id in source.adjacent:
                continue
            common = sorted(source.adjacent & target.adjacent)
            if common and {board.region(i).terrain for i in common} == kinds:
                return source.id, target.id, common[0]
    raise AssertionError(f"no such pair on board {board.name}")


def test_catapult_conquers_a_region_one_beyond_with_one_token_less() -> None:
    source, target = 3, 13  # 13 is one region beyond 3 (over 7 or the lake 8)
    assert target not in BOARD.region(source).adjacent
    who = attacker(power="Catapult", held={source}, use_catapult=True, catapult_at=source)
    result, lines, notes = cost_of(target, who, enemy(2))
    assert CostLine("Catapult", -1) in lines
    assert result == 2 + 2 - 1
    assert any("once per turn" in note for note in notes)
    route = reach(BOARD, target, who)
    assert route.reachable and f"region {source}" in str(route.reason)


def test_catapult_reaches_one_region_beyond_but_not_a_neighbour() -> None:
    who = attacker(power="Catapult", held={3}, use_catapult=True, catapult_at=3)
    route = reach(BOARD, 4, who)
    assert not route.reachable and "borders" in str(route.reason)
    far = reach(BOARD, 19, who)
    assert not far.reachable and "not one region beyond" in str(far.reason)
    # without the Catapult the neighbour is reachable as usual
    assert reach(BOARD, 4, attacker(power="Catapult", held={3})).reachable


def test_catapult_shoots_over_the_lake() -> None:
    board = load_board("4p")
    source, target, between = _two_steps(board, {Terrain.LAKE})
    who = attacker(power="Catapult", held={source}, use_catapult=True, catapult_at=source)
    route = reach(board, target, who)
    assert route.reachable and f"over region {between}" in str(route.reason)


def test_catapult_never_shoots_over_a_sea() -> None:
    board = load_board("4p")
    source, target, _ = _two_steps(board, {Terrain.SEA})
    who = attacker(power="Catapult", held={source}, use_catapult=True, catapult_at=source)
    route = reach(board, target, who)
    assert not route.reachable and "sea" in str(route.reason)


def test_catapult_never_lands_a_race_without_seafaring_in_a_sea() -> None:
    source, sea = next(
        (land.id, water.id)
        for land in BOARD.regions.values()
        if not land.is_water
        for water in BOARD.regions.values()
        if water.terrain is Terrain.SEA
        and water.id not in land.adjacent
        and any(not BOARD.region(i).is_water for i in land.adjacent & water.adjacent)
    )
    who = attacker(power="Catapult", held={source}, use_catapult=True, catapult_at=source)
    route = reach(BOARD, sea, who)
    assert not route.reachable and "only a Seafaring race may enter it" in str(route.reason)


def test_catapult_without_a_chosen_region_shoots_from_any_region_held() -> None:
    who = attacker(power="Catapult", held={5, 3}, use_catapult=True)
    assert reach(BOARD, 13, who).reachable  # from 3
    assert not reach(BOARD, 19, who).reachable


def test_catapult_needs_a_region_held_to_stand_in() -> None:
    who = attacker(power="Catapult", use_catapult=True)
    assert not reach(BOARD, 2, who).reachable
    with pytest.raises(IllegalAction, match="catapult_at"):
        reach(BOARD, 13, attacker(power="Catapult", held={5}, use_catapult=True, catapult_at=3))


def test_the_catapult_region_is_immune_to_other_players() -> None:
    state = {7: enemy(1, race="Elves")}
    who = attacker(held={2})
    reason = immunity(BOARD, 7, state, who, catapults={7})
    assert reason is not None and "Catapult" in str(reason)
    with pytest.raises(IllegalAction, match="Catapult"):
        conquest_cost(BOARD, 7, state, who, catapults={7})
    found = assess(BOARD, 7, state, who, catapults={7})
    assert found.cost is None and not found.can_attack
    # the same region without the Catapult may be attacked
    assert immunity(BOARD, 7, state, who) is None


def test_a_catapult_protects_only_against_other_players() -> None:
    # your own declined race's region is yours to take (the Catapult leaves on decline anyway)
    state = {7: enemy(1, race="Elves", in_decline=True, seat=ME)}
    assert immunity(BOARD, 7, state, attacker(held={2}), catapults={7}) is None


# --- Behemoth --------------------------------------------------------------------------


def test_a_behemoth_counts_as_many_tokens_as_swamp_regions_held() -> None:
    held = set(SWAMPS[:3])
    assert behemoth_height(BOARD, held) == 3
    who = attacker(power="Behemoth", held=held, behemoths=1)
    result, lines, _ = cost_of(FOREST, who, enemy(4))
    assert CostLine("a Behemoth stack of 3 (one per Swamp region held)", -3) in lines
    assert result == 2 + 4 - 3


def test_both_behemoth_stacks_may_join_one_attack() -> None:
    who = attacker(power="Behemoth", held=set(SWAMPS[:2]), behemoths=2)
    _, lines, _ = cost_of(FOREST, who, enemy(5))
    assert CostLine("2 Behemoth stacks of 2 (one per Swamp region held)", -4) in lines


def test_a_behemoth_without_a_swamp_counts_for_nothing() -> None:
    who = attacker(power="Behemoth", held={HILL}, behemoths=1)
    result, lines, notes = cost_of(FOREST, who, enemy(2))
    assert result == 4
    assert not any("Behemoth" in line.label for line in lines)
    assert any("no Swamp" in note for note in notes)


def test_a_behemoth_must_be_accompanied_by_a_race_token() -> None:
    who = attacker(power="Behemoth", held=set(SWAMPS), behemoths=2)
    assert total(FOREST, who) == 1


# --- Fireball --------------------------------------------------------------------------


def test_each_fireball_counts_as_two_tokens_in_an_attack() -> None:
    result, lines, _ = cost_of(FOREST, attacker(power="Fireball", fireballs=2), enemy(3))
    assert CostLine("2 Fireballs, 2 tokens each", -4) in lines
    assert result == 2 + 3 - 4


def test_fireballs_still_leave_one_race_token_to_occupy_the_region() -> None:
    result, lines, _ = cost_of(FOREST, attacker(power="Fireball", fireballs=3))
    assert result == 1
    assert CostLine("3 Fireballs, 2 tokens each", -6) in lines


# --- Hordes of -------------------------------------------------------------------------


def test_hordes_of_is_a_reminder_not_a_discount() -> None:
    result, lines, notes = cost_of(FOREST, attacker(power="Hordes of"), enemy(2))
    assert result == 4
    assert not any("Hordes" in line.label for line in lines)
    assert any(note.startswith("Hordes of: the 2 Hordes tokens") for note in notes)


# --- Mercenary -------------------------------------------------------------------------


def test_a_mercenary_coin_lowers_the_cost_by_two_tokens() -> None:
    result, lines, notes = cost_of(FOREST, attacker(power="Mercenary", mercenary_coins=1), enemy(3))
    assert CostLine("Mercenary: 1 Victory coin spent", -2) in lines
    assert result == 3
    assert notes == ()


def test_a_mercenary_conquest_still_needs_one_token_and_says_what_the_coin_saved() -> None:
    result, lines, notes = cost_of(FOREST, attacker(power="Mercenary", mercenary_coins=1))
    assert result == 1
    assert lines[-1] == CostLine("Never fewer than 1 token", 1)
    assert "Mercenary: the coin saves only 1 token(s) here" in notes


def test_mercenary_spends_at_most_one_coin_per_conquest() -> None:
    with pytest.raises(IllegalAction, match="at most 1"):
        conquest_cost(BOARD, FOREST, {}, attacker(power="Mercenary", mercenary_coins=2))


def test_mercenary_may_spend_its_coin_after_the_final_conquest_roll() -> None:
    who = attacker(power="Mercenary")
    state = {FOREST: enemy(3)}
    cost = conquest_cost(BOARD, FOREST, state, who).total
    with_coin = conquest_cost(
        BOARD, FOREST, state, attacker(power="Mercenary", mercenary_coins=1)
    ).total
    assert (cost, with_coin) == (5, 3)
    # 1 token left: 4 short, beyond the die alone; with the coin 2 short
    assert not final_conquest(1, cost, DIE, who).allowed
    attempt = final_conquest(1, cost, DIE, who, cost_with_coin=with_coin)
    assert attempt.allowed and attempt.needs_die
    assert attempt.chance == Fraction(2, 6)
    assert "2 or more with the Mercenary coin" in str(attempt.reason)
    # 3 tokens left: the die alone must show 2, the coin covers any face
    covered = final_conquest(3, cost, DIE, who, cost_with_coin=with_coin)
    assert covered.allowed and not covered.needs_die and covered.chance == 1
    # 2 tokens left: 3 short, or 1 short with the coin
    both = final_conquest(2, cost, DIE, who, cost_with_coin=with_coin)
    assert both.chance == Fraction(3, 6)
    assert "3 or more, or 1 or more with the Mercenary coin" in str(both.reason)


def test_the_cost_with_a_coin_must_lie_between_one_and_the_cost() -> None:
    for bad in (0, 6, True):
        with pytest.raises(IllegalAction, match="cost_with_coin"):
            final_conquest(1, 5, DIE, attacker(power="Mercenary"), cost_with_coin=bad)


# --- Shrubmen and White Ladies ---------------------------------------------------------


@pytest.mark.parametrize("in_decline", [False, True])
def test_shrubmen_forest_regions_are_immune_even_in_decline(in_decline: bool) -> None:
    state = {FOREST: enemy(2, race="Shrubmen", in_decline=in_decline)}
    reason = immunity(BOARD, FOREST, state, attacker())
    assert reason is not None and "Shrubmen" in str(reason) and "forest" in str(reason)
    with pytest.raises(IllegalAction, match="Shrubmen"):
        conquest_cost(BOARD, FOREST, state, attacker())


def test_shrubmen_outside_a_forest_may_be_attacked() -> None:
    state = {HILL: enemy(2, race="Shrubmen")}
    assert immunity(BOARD, HILL, state, attacker()) is None
    assert total(HILL, attacker(), state[HILL]) == 4


def test_white_ladies_in_decline_are_immune() -> None:
    state = {HILL: enemy(1, race="White Ladies", in_decline=True)}
    reason = immunity(BOARD, HILL, state, attacker())
    assert reason is not None and "White Ladies" in str(reason)


def test_active_white_ladies_may_be_attacked() -> None:
    assert immunity(BOARD, HILL, {HILL: enemy(2, race="White Ladies")}, attacker()) is None


def test_immunity_of_a_race_holds_against_opponents_only() -> None:
    mine = {
        FOREST: enemy(1, race="Shrubmen", in_decline=True, seat=ME),
        HILL: enemy(1, race="White Ladies", in_decline=True, seat=ME),
    }
    assert immunity(BOARD, FOREST, mine, attacker()) is None
    assert immunity(BOARD, HILL, mine, attacker()) is None


# --- options the combo cannot use ------------------------------------------------------

BAD_OPTIONS: dict[str, tuple[Attacker, str]] = {
    "fireballs without Fireball": (attacker(fireballs=1), "fireballs"),
    "negative fireballs": (attacker(power="Fireball", fireballs=-1), "fireballs"),
    "behemoths without Behemoth": (attacker(behemoths=1), "behemoths"),
    "three behemoths": (attacker(power="Behemoth", behemoths=3), "behemoths"),
    "coins without Mercenary": (attacker(mercenary_coins=1), "mercenary_coins"),
    "catapult without Catapult": (attacker(use_catapult=True), "use_catapult"),
    "catapult place without using it": (
        attacker(power="Catapult", held={3}, catapult_at=3),
        "catapult_at",
    ),
    "catapult place not held": (
        attacker(power="Catapult", held={3}, use_catapult=True, catapult_at=4),
        "catapult_at",
    ),
    "turn zero": (attacker(power="Were-", turn=0), "turn"),
    "declined ghouls with fireballs": (attacker("Ghouls", None, fireballs=1), "fireballs"),
}


@pytest.mark.parametrize("case", list(BAD_OPTIONS), ids=list(BAD_OPTIONS))
def test_an_option_the_combo_cannot_use_is_refused_by_name(case: str) -> None:
    who, name = BAD_OPTIONS[case]
    with pytest.raises(IllegalAction, match=name):
        conquest_cost(BOARD, FOREST, {}, who)


def test_base_game_attackers_are_costed_as_before() -> None:
    who = Attacker(ME, "Ratmen", "Commando", frozenset({HILL}))
    assert conquest_cost(BOARD, FOREST, {FOREST: enemy(2)}, who).total == 3


def test_expansion_discounts_add_up_line_by_line() -> None:
    who = attacker("Goblins", "Were-", turn=8)
    result, lines, _ = cost_of(FOREST, who, enemy(3, in_decline=True, race="Ghouls"))
    assert lines == (
        CostLine("Any conquest", 2),
        CostLine("Ghouls in decline tokens there", 3),
        CostLine("Goblins against a race in decline", -1),
        CostLine("Were- at night (turn 8)", -2),
    )
    assert result == 2


# --- properties ------------------------------------------------------------------------

RACES = [r.name for r in CATALOG.races]
POWERS = [p.name for p in CATALOG.powers]
LAND_IDS = sorted(r.id for r in BOARD.regions.values() if not r.is_water)


@st.composite
def attackers(draw: st.DrawFn) -> Attacker:
    race = draw(st.sampled_from(RACES))
    power = draw(st.sampled_from([*POWERS, None]))
    held = draw(st.frozensets(st.sampled_from(LAND_IDS), max_size=6))
    catapult = power == "Catapult" and bool(held) and draw(st.booleans())
    return Attacker(
        ME,
        race,
        power,
        held,
        turn=draw(st.none() | st.integers(1, 10)),
        use_catapult=catapult,
        catapult_at=draw(st.sampled_from(sorted(held)))
        if catapult and draw(st.booleans())
        else None,
        behemoths=draw(st.integers(0, 2)) if power == "Behemoth" else 0,
        fireballs=draw(st.integers(0, 4)) if power == "Fireball" else 0,
        mercenary_coins=draw(st.integers(0, 1)) if power == "Mercenary" else 0,
    )


@st.composite
def defences(draw: st.DrawFn) -> RegionState:
    occupant = None
    if draw(st.booleans()):
        occupant = Occupant(
            draw(st.sampled_from([ME, ENEMY, 2])),
            draw(st.sampled_from(RACES)),
            draw(st.booleans()),
            draw(st.integers(1, 6)),
        )
    markers = Markers(
        fortress=draw(st.booleans()),
        troll_lair=draw(st.booleans()),
        encampments=draw(st.integers(0, 3)),
    )
    return RegionState(occupant, draw(st.booleans()), markers)


def expected_lines(here: RegionState, who: Attacker) -> dict[str, int]:
    """Which mini-expansion rules apply, written out a second time."""
    found: dict[str, int] = {}
    occupant = here.occupant
    if who.race == "Goblins" and occupant is not None and occupant.in_decline:
        found["Goblins"] = -1
    if who.power == "Were-" and who.turn is not None and who.turn % 2 == 0:
        found["Were-"] = -2
    if who.use_catapult:
        found["Catapult"] = -1
    swamps = sum(BOARD.region(i).terrain is Terrain.SWAMP for i in who.held)
    if who.behemoths and swamps:
        found["Behemoth"] = -swamps * who.behemoths
    if who.fireballs:
        found["Fireball"] = -2 * who.fireballs
    if who.mercenary_coins:
        found["Mercenary"] = -2
    return found


@settings(max_examples=400)
@given(attackers(), st.sampled_from(LAND_IDS), defences())
def test_with_the_mini_expansions_the_lines_always_add_up_to_a_total_of_at_least_the_minimum(
    who: Attacker, region_id: int, here: RegionState
) -> None:
    state = {region_id: here}
    if immunity(BOARD, region_id, state, who) is not None:
        with pytest.raises(IllegalAction):
            conquest_cost(BOARD, region_id, state, who)
        return
    result = conquest_cost(BOARD, region_id, state, who)
    least = 2 if who.race == "Kobolds" else 1
    floor = [line for line in result.lines if "never fewer" in line.label.casefold()]
    raw = sum(line.tokens for line in result.lines if line not in floor)
    assert result.total == sum(line.tokens for line in result.lines)
    assert result.total == max(least, raw)
    assert bool(floor) == (raw < least)
    assert all(line.tokens != 0 for line in result.lines)
    expected = expected_lines(here, who)
    discounts = [line for line in result.lines if line.tokens < 0]
    for key, tokens in expected.items():
        matching = [line.tokens for line in discounts if key.casefold() in line.label.casefold()]
        assert matching == [tokens], (key, result.lines)
    for key in {"Goblins", "Were-", "Catapult", "Behemoth", "Fireball", "Mercenary"} - set(
        expected
    ):
        assert not any(key in line.label for line in discounts), (key, result.lines)
