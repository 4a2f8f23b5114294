"""Necromancer Island: the Necromancer's Ghosts, his Well of Souls, his purchases and his win."""

from __future__ import annotations

from contextlib import AbstractContextManager, suppress
from dataclasses import fields, replace

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.rules.errors import IllegalAction
from companion.rules.maps import Terrain, load_board
from companion.rules.necromancer import (
    GHOST_TOKENS,
    GHOSTS,
    NecromancerState,
    Step,
    Well,
    abandon,
    board_for,
    board_occupant,
    buy_ghost,
    buy_power,
    central_lake,
    conquer,
    draw_powers,
    income_lines,
    island_refusal,
    public,
    reach_refusal,
    redeploy,
    region_lost,
    return_ghosts,
    score,
    seat_for,
    set_up,
    souls_lost,
    spawn_ghosts,
    standings,
    start_turn,
    turn_ended,
)
from companion.rules.scoring import HeldRegion

BOARD = load_board("4p")  # a five-seat table plays the four-player board
LAKE = 17  # the 4p board's central Lake; it borders 9, 10, 12, 16, 18, 22, 25, 26
DRAWN = ("Flying", "Alchemist", "Hill", "Commando", "Wealthy", "Seafaring")
SEAT = 4


def necro(**changes: object) -> NecromancerState:
    """The Necromancer after set-up (Alchemist in use), with `changes` applied."""
    state = set_up(SEAT, LAKE, DRAWN, "Alchemist")
    return replace(state, **changes)  # type: ignore[arg-type]


def refused(match: str) -> AbstractContextManager[pytest.ExceptionInfo[IllegalAction]]:
    """An IllegalAction whose reason matches `match` (states are values: nothing changes)."""
    return pytest.raises(IllegalAction, match=match)


# --- set-up ------------------------------------------------------------------------------


def test_the_necromancer_sits_to_the_right_of_the_first_player_and_plays_last() -> None:
    assert seat_for(first_seat=0, seats=5) == 4
    assert seat_for(first_seat=2, seats=5) == 1


def test_a_necromancer_game_uses_the_board_for_one_player_fewer_than_the_table() -> None:
    assert board_for(5) == "4p"
    assert board_for(3) == "2p"
    with refused("3 to 6 at the table, not 2"):
        board_for(2)


def test_necromancer_island_sits_in_the_central_lake() -> None:
    assert central_lake(BOARD) == LAKE
    assert [central_lake(load_board(b)) for b in ("2p", "3p", "5p")] == [8, 15, 21]


def test_the_necromancer_draws_six_powers_passing_over_cursed_spirit_and_stout() -> None:
    shuffled = ("Spirit", "Flying", "Cursed", "Hill", "Alchemist", "Stout", "Forest",
                "Commando", "Wealthy", "Swamp", "Merchant")
    drawn, rest = draw_powers(shuffled)
    assert drawn == ("Flying", "Hill", "Alchemist", "Forest", "Commando", "Wealthy")
    assert rest == ("Spirit", "Cursed", "Stout", "Swamp", "Merchant")


def test_the_necromancer_needs_six_powers_he_may_draw() -> None:
    with refused("only 2 powers the Necromancer may draw"):
        draw_powers(("Spirit", "Flying", "Stout", "Hill"))


def test_the_necromancer_starts_with_one_ghost_on_the_island_and_thirteen_in_reserve() -> None:
    state = necro()
    assert (state.island, state.reserve, state.regions, state.hand) == (1, 13, {}, 0)
    assert state.well == Well(0, 0)
    assert state.step is Step.WAITING


def test_the_power_placed_with_the_well_is_in_use_and_the_other_five_wait() -> None:
    state = necro()
    assert state.powers_in_use == ("Alchemist",)
    assert state.powers_in_reserve == ("Flying", "Hill", "Commando", "Wealthy", "Seafaring")


def test_a_drawn_cursed_spirit_or_stout_is_refused() -> None:
    with refused("never draws Stout"):
        set_up(SEAT, LAKE, ("Stout", *DRAWN[1:]), "Alchemist")


def test_the_necromancer_draws_exactly_six_different_powers() -> None:
    with refused("draws 6 powers, not 5"):
        set_up(SEAT, LAKE, DRAWN[:5], "Alchemist")
    with refused("drawn twice: Hill"):
        set_up(SEAT, LAKE, ("Hill", *DRAWN[1:5], "Hill"), "Alchemist")


def test_the_drawn_powers_must_belong_to_the_game() -> None:
    with refused("Seafaring: not a badge"):
        set_up(SEAT, LAKE, DRAWN, "Alchemist", known_powers=DRAWN[:5])


def test_the_power_placed_with_the_well_is_one_of_the_six_drawn() -> None:
    with refused("must be one of the six drawn"):
        set_up(SEAT, LAKE, DRAWN, "Forest")


def test_one_or_two_ghosts_may_be_taken_out_of_the_reserve_to_set_the_difficulty() -> None:
    state = set_up(SEAT, LAKE, DRAWN, "Alchemist", ghosts_removed=2)
    assert (state.reserve, state.removed) == (11, 2)
    with refused("0 to 2 Ghosts"):
        set_up(SEAT, LAKE, DRAWN, "Alchemist", ghosts_removed=3)


# --- buying Ghosts and powers --------------------------------------------------------------


def test_a_ghost_costs_the_powers_in_use_plus_the_ghosts_on_the_map() -> None:
    state = start_turn(necro())
    bought = buy_ghost(state, coins=5)
    assert bought.cost == 2  # 1 power in use + 1 Ghost on the Island
    assert bought.coins == 3
    assert (bought.state.island, bought.state.reserve) == (2, 12)


def test_ghosts_in_regions_and_on_the_island_set_the_price_but_not_the_well_or_reserve() -> None:
    state = necro(island=2, regions={9: 3, 12: 1}, reserve=5, well=Well(3, 3),
                  step=Step.ACQUIRE)
    assert state.price == 1 + 2 + 3 + 1


def test_each_purchase_makes_the_next_one_a_coin_dearer() -> None:
    state = start_turn(necro())
    first = buy_ghost(state, coins=10)
    second = buy_power(first.state, "Flying", first.coins)
    third = buy_ghost(second.state, second.coins)
    assert (first.cost, second.cost, third.cost) == (2, 3, 4)
    assert third.coins == 1


def test_a_bought_power_joins_the_powers_in_use() -> None:
    bought = buy_power(start_turn(necro()), "Seafaring", coins=2)
    assert bought.state.powers_in_use == ("Alchemist", "Seafaring")
    assert "Seafaring" not in bought.state.powers_in_reserve
    assert bought.coins == 0


def test_the_necromancer_cannot_buy_what_he_cannot_afford() -> None:
    state = start_turn(necro())
    with refused("cannot afford a Ghost: it costs 2 coins"):
        buy_ghost(state, coins=1)
    assert state.reserve == 13


def test_no_ghost_can_be_bought_from_an_empty_reserve() -> None:
    with refused("no Ghost is left"):
        buy_ghost(necro(reserve=0, step=Step.ACQUIRE), coins=50)


def test_only_a_power_from_his_reserve_can_be_bought() -> None:
    state = start_turn(necro())
    with refused("already uses Alchemist"):
        buy_power(state, "Alchemist", coins=9)
    with refused("Forest is not among the Necromancer's powers in reserve"):
        buy_power(state, "Forest", coins=9)


def test_buying_happens_only_at_the_start_of_his_own_turn() -> None:
    with refused("cannot buy a Ghost now; he is at: another player's turn"):
        buy_ghost(necro(), coins=9)
    conquering = conquer(start_turn(necro()), BOARD, 9, 1)
    with refused("cannot buy Flying now; he is at: conquer"):
        buy_power(conquering, "Flying", coins=9)


def test_his_turn_starts_only_once_the_ghosts_in_hand_are_back() -> None:
    with refused("still has 2 Ghost"):
        start_turn(necro(hand=2, regions={9: 1}))


# --- conquering ----------------------------------------------------------------------------


def test_no_ghost_needs_to_stay_on_the_island() -> None:
    state = start_turn(necro(island=3))
    state = conquer(state, BOARD, 9, 3)
    assert (state.island, state.hand, dict(state.regions)) == (0, 0, {9: 3})


def test_his_ghosts_march_out_from_the_shore_of_the_lake() -> None:
    state = start_turn(necro(island=3))
    assert reach_refusal(state, BOARD, 26) is None
    assert str(reach_refusal(state, BOARD, 3)) == (
        "region 3 borders neither the Lake nor a region the Necromancer holds"
    )
    state = conquer(state, BOARD, 9, 2)
    state = conquer(state, BOARD, 3, 1)  # next to region 9, now his
    assert set(state.regions) == {9, 3}


def test_nobody_conquers_the_lake_where_the_island_lies() -> None:
    state = start_turn(necro(island=3))
    with refused("the Lake is Necromancer Island"):
        conquer(state, BOARD, LAKE, 1)
    assert str(island_refusal(state, LAKE, seat=0)) == (
        "Necromancer Island cannot be attacked, not even by sea"
    )
    assert island_refusal(state, 9, seat=0) is None


def test_seafaring_ghosts_may_take_a_sea_and_flying_ghosts_reach_anywhere() -> None:
    state = necro(island=3, regions={14: 1}, step=Step.ACQUIRE)
    assert str(reach_refusal(state, BOARD, 1)) == ("region 1 is a sea; only Seafaring Ghosts "
                                                   "go there")
    sailing = replace(state, powers_in_use=("Alchemist", "Seafaring"))
    assert reach_refusal(sailing, BOARD, 1) is None
    flying = replace(state, powers_in_use=("Flying",))
    assert reach_refusal(flying, BOARD, 36) is None


def test_he_conquers_only_with_the_ghosts_he_has_free() -> None:
    state = start_turn(necro(island=1, regions={9: 3}))
    state = conquer(state, BOARD, 10, 2)  # 1 from the Island + 2 lifted from region 9
    assert (state.hand, state.regions[9]) == (1, 1)
    with refused("has 1 Ghost\\(s\\) free to move, not 2"):
        conquer(state, BOARD, 12, 2)
    with refused("already holds region 9"):
        conquer(state, BOARD, 9, 1)


def test_a_region_he_abandons_returns_its_ghosts_to_his_hand() -> None:
    state = start_turn(necro(island=0, regions={9: 2, 10: 1}))
    state = abandon(state, 10)
    assert (dict(state.regions), state.hand) == ({9: 1}, 2)
    state = conquer(state, BOARD, 12, 2)
    with refused("conquered this turn"):
        abandon(state, 12)


def test_redeployment_places_every_ghost_and_keeps_one_in_each_region() -> None:
    state = conquer(start_turn(necro(island=4)), BOARD, 9, 2)
    with refused("missing: 9"):
        redeploy(state, {}, island=4)
    with refused("at least 1 Ghost"):
        redeploy(state, {9: 0}, island=4)
    with refused("4 Ghosts on the map to place, not 3"):
        redeploy(state, {9: 2}, island=1)
    state = redeploy(state, {9: 3}, island=1)
    assert (dict(state.regions), state.island, state.hand, state.step) == (
        {9: 3}, 1, 0, Step.SCORE)


# --- scoring -------------------------------------------------------------------------------


def scoring(**changes: object) -> NecromancerState:
    return necro(step=Step.SCORE, **changes)


def test_the_necromancer_scores_a_coin_per_region_and_nothing_for_the_island() -> None:
    result = score(scoring(island=5, regions={9: 1, 10: 2}))
    assert result.coins == 2
    assert result.lines == (("regions held", 2),)


def test_the_bonuses_of_his_powers_add_to_his_coins() -> None:
    result = score(scoring(regions={9: 1}), bonus=(("Alchemist", 2),))
    assert result.coins == 3
    assert result.lines == (("regions held", 1), ("Alchemist", 2))


def test_an_aquatic_necromancer_earns_one_less_for_each_inland_region() -> None:
    # Aquatic's inland line is negative; it comes off his coins like any race's
    lines = income_lines((HeldRegion(Terrain.HILL, coastal=True), HeldRegion(Terrain.FOREST),
                          HeldRegion(Terrain.SWAMP)), ("Aquatic",))
    result = score(scoring(regions={9: 1, 10: 1, 12: 1}), bonus=lines[1:])
    assert result.coins == 3 + 1 - 2
    with pytest.raises(IllegalAction, match="never negative"):
        score(scoring(regions={9: 1}), bonus=(("Aquatic: one less per inland region", -2),))


def test_each_region_he_holds_adds_a_bonus_soul_to_the_well() -> None:
    result = score(scoring(regions={9: 1, 10: 1}, well=Well(0, 1)))
    assert result.souls == 2
    assert result.state.well == Well(0, 3)
    assert result.spawned == 0


def test_his_souls_spawn_ghosts_as_soon_as_he_has_scored() -> None:
    result = score(scoring(island=0, regions={9: 1, 10: 1, 12: 1}, well=Well(0, 2)))
    assert result.spawned == 1
    assert (result.state.island, result.state.reserve, result.state.well) == (1, 12, Well(0, 1))
    assert result.state.step is Step.WAITING


def test_scoring_comes_after_redeployment() -> None:
    with refused("cannot score now"):
        score(start_turn(necro()))


# --- other players' turns ----------------------------------------------------------------


def test_tokens_lost_in_conquests_fall_into_the_well_under_its_ghosts() -> None:
    state = souls_lost(necro(well=Well(1, 0)), 2)
    assert state.well == Well(1, 2)


def test_taking_a_ghost_region_sends_one_ghost_to_the_well_and_the_rest_to_his_hand() -> None:
    state = region_lost(necro(regions={9: 3, 10: 1}), 9)
    assert (dict(state.regions), state.hand, state.well) == ({10: 1}, 2, Well(1, 0))


def test_a_lone_ghost_region_taken_sends_its_ghost_to_the_well() -> None:
    state = region_lost(necro(regions={9: 1}), 9)
    assert (state.regions, state.hand, state.well) == ({}, 0, Well(1, 0))


def test_ghosts_in_hand_go_back_onto_his_regions_when_the_turn_ends() -> None:
    state = region_lost(necro(regions={9: 3, 10: 1, 12: 1}), 9)
    with refused("puts his 2 Ghost\\(s\\) in hand back"):
        turn_ended(state)
    with refused("region 26 is not the Necromancer's"):
        return_ghosts(state, {26: 2})
    with refused("2 Ghost\\(s\\) in hand to put back, not 1"):
        return_ghosts(state, {10: 1})
    state = return_ghosts(state, {10: 1, 12: 1})
    assert (dict(state.regions), state.hand) == ({10: 2, 12: 2}, 0)


def test_ghosts_in_hand_go_to_the_island_only_when_he_holds_no_region() -> None:
    state = region_lost(necro(island=0, regions={9: 3}), 9)
    with refused("go to the Island"):
        return_ghosts(state, {9: 2})
    spawn = turn_ended(state)
    assert (spawn.state.island, spawn.state.hand) == (2, 0)


def test_every_four_tokens_in_the_well_spawn_a_ghost_on_the_island() -> None:
    spawn = turn_ended(necro(well=Well(0, 9)))
    assert spawn.spawned == 2
    assert spawn.souls_to_tray == 8
    assert (spawn.state.island, spawn.state.reserve, spawn.state.well) == (3, 11, Well(0, 1))


def test_ghosts_on_top_of_the_well_are_taken_first_and_go_back_to_the_reserve() -> None:
    spawn = spawn_ghosts(necro(reserve=4, well=Well(2, 3)))
    assert spawn.spawned == 1
    assert (spawn.ghosts_back, spawn.souls_to_tray) == (2, 2)
    assert (spawn.state.reserve, spawn.state.island, spawn.state.well) == (5, 2, Well(0, 1))


def test_fewer_than_four_tokens_stay_in_the_well() -> None:
    spawn = spawn_ghosts(necro(well=Well(1, 2)))
    assert spawn.spawned == 0
    assert spawn.state.well == Well(1, 2)


def test_a_set_of_souls_finds_no_ghost_in_an_empty_reserve_and_stays_in_the_well() -> None:
    spawn = spawn_ghosts(necro(reserve=0, well=Well(0, 5)))
    assert spawn.spawned == 0
    assert spawn.state.well == Well(0, 5)


def test_a_ghost_in_the_set_refills_an_empty_reserve_and_spawns() -> None:
    spawn = spawn_ghosts(necro(reserve=0, island=0, well=Well(1, 3)))
    assert spawn.spawned == 1
    assert (spawn.state.reserve, spawn.state.island, spawn.state.well) == (0, 1, Well(0, 0))


def test_other_players_see_ghosts_as_a_race_in_decline_with_every_ghost_counted() -> None:
    occupant = board_occupant(necro(regions={9: 3}), 9)
    assert occupant is not None
    assert (occupant.seat, occupant.race, occupant.in_decline, occupant.tokens) == (
        SEAT, GHOSTS, True, 3)
    assert board_occupant(necro(), 9) is None


def test_his_ghosts_are_attacked_only_in_other_players_turns() -> None:
    with refused("only attacked in other players' turns"):
        region_lost(start_turn(necro(regions={9: 1})), 9)


# --- the win -------------------------------------------------------------------------------


def test_the_necromancer_wins_at_once_when_no_ghost_is_left_in_reserve_or_well() -> None:
    result = score(scoring(island=0, regions={9: 1, 10: 1}, reserve=1, well=Well(0, 2)))
    # 2 bonus souls join the Well: 4 souls spawn the last Ghost of the reserve.
    assert result.spawned == 1
    assert (result.state.reserve, result.state.well) == (0, Well(0, 0))
    assert result.won and result.state.won


def test_souls_left_in_the_well_do_not_stop_his_win() -> None:
    result = score(scoring(island=13, regions={9: 1}, reserve=0, well=Well(0, 1)))
    assert result.state.well == Well(0, 2)
    assert result.won


def test_a_ghost_left_in_the_well_stops_his_win() -> None:
    result = score(scoring(island=12, regions={9: 1}, reserve=0, well=Well(1, 0)))
    assert not result.won


def test_the_win_is_checked_only_at_the_end_of_his_own_turn() -> None:
    spawn = turn_ended(necro(island=13, reserve=1, well=Well(0, 4)))
    assert spawn.state.reserve == 0
    assert not spawn.state.won


def test_nothing_moves_once_the_necromancer_has_won() -> None:
    with refused("already won"):
        start_turn(necro(won=True))


def test_his_instant_win_puts_him_first_and_the_others_after_by_coins() -> None:
    won = necro(won=True)
    result = standings(won, {0: 30, 1: 41, 2: 30, 3: 12, 4: 8}, names={4: "Nell"})
    assert result.winners == {SEAT}
    assert [(p.rank, p.seat) for p in result.placings] == [
        (1, 4), (2, 1), (3, 0), (3, 2), (5, 3)]
    assert str(result.reason) == "Nell, the Necromancer, has every Ghost in play and wins at once"


def test_without_his_win_the_winner_is_found_among_the_other_players() -> None:
    result = standings(necro(), {0: 30, 1: 41, 2: 30, 3: 12, 4: 80}, names={1: "Bo"})
    assert result.winners == {1}
    assert result.placings[-1].seat == SEAT
    assert str(result.reason).startswith("Bo wins with 41 coins")


def test_a_tie_among_the_other_players_goes_to_the_most_tokens_and_his_are_not_counted() -> None:
    coins = {0: 41, 1: 30, 2: 41, 3: 12, 4: 41}
    result = standings(necro(), coins, tokens={0: 5, 2: 9, 4: 20})
    assert result.winners == {2}
    assert [(p.rank, p.seat) for p in result.placings] == [
        (1, 2), (2, 0), (3, 1), (4, 3), (5, 4)]


# --- what the table sees -------------------------------------------------------------------


def test_the_public_view_shows_every_ghost_and_badge_but_never_his_coins() -> None:
    view = public(necro(island=2, regions={10: 2, 9: 1}, well=Well(1, 2), step=Step.ACQUIRE))
    assert view.regions == ((9, 1), (10, 2))
    assert (view.island, view.reserve, view.well_ghosts, view.well_souls) == (2, 13, 1, 2)
    assert view.powers_in_reserve == ("Flying", "Hill", "Commando", "Wealthy", "Seafaring")
    assert view.price == 6
    assert view.souls_to_next_ghost == 1
    assert not any("coin" in f.name for f in fields(view))


# --- random play -------------------------------------------------------------------------


def spread(data: st.DataObject, ghosts: int, regions: list[int]) -> dict[int, int]:
    """A random way to share `ghosts` out among `regions` (each may get 0)."""
    out = dict.fromkeys(regions, 0)
    for _ in range(ghosts):
        out[data.draw(st.sampled_from(regions))] += 1
    return out


def random_step(
    state: NecromancerState, coins: int, data: st.DataObject
) -> tuple[NecromancerState, int]:
    """One step a table could ask for now (legal or not); returns the state and coins after."""
    region = data.draw(st.sampled_from(sorted(BOARD.regions)))
    held = sorted(state.regions)
    match state.step:
        case Step.WAITING:
            choice = data.draw(st.sampled_from(["souls", "lose", "return", "end", "start"]))
            if choice == "souls":
                return souls_lost(state, data.draw(st.integers(0, 3))), coins
            if choice == "lose":
                return region_lost(state, region), coins
            if choice == "return" and held:
                return return_ghosts(state, spread(data, state.hand, held)), coins
            if choice == "end":
                return turn_ended(state).state, coins
            return start_turn(state), coins
        case Step.ACQUIRE | Step.CONQUER:
            choice = data.draw(st.sampled_from(["ghost", "power", "conquer", "abandon",
                                                "redeploy"]))
            if choice == "ghost":
                bought = buy_ghost(state, coins)
                return bought.state, bought.coins
            if choice == "power" and state.powers_in_reserve:
                power = data.draw(st.sampled_from(state.powers_in_reserve))
                bought = buy_power(state, power, coins)
                return bought.state, bought.coins
            if choice == "conquer":
                return conquer(state, BOARD, region, data.draw(st.integers(1, 4))), coins
            if choice == "abandon":
                return abandon(state, region), coins
            extra = spread(data, state.on_map - len(held), [*held, 0])
            island = extra.pop(0)
            return redeploy(state, {r: 1 + n for r, n in extra.items()}, island), coins
        case Step.SCORE:
            result = score(state)
            return result.state, coins + result.coins
    return state, coins


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_play_never_loses_or_makes_a_ghost_and_never_overspends(
    data: st.DataObject,
) -> None:
    state, coins = necro(), 5
    for _ in range(data.draw(st.integers(1, 60), label="steps")):
        if state.won:
            break
        with suppress(IllegalAction):  # a refused step leaves everything as it was
            state, coins = random_step(state, coins, data)
        places = (state.island, state.hand, state.reserve, state.well.ghosts,
                  state.well.souls, *state.regions.values())
        assert min(places) >= 0
        assert min(state.regions.values(), default=1) >= 1
        assert (state.island + sum(state.regions.values()) + state.hand + state.reserve
                + state.well.ghosts + state.removed) == GHOST_TOKENS
        assert state.lake not in state.regions
        assert coins >= 0
        event(f"reached {state.step}")
