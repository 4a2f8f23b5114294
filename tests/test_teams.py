"""Six players in teams: partners opposite, turn order, Monsters, and the team standings."""

from __future__ import annotations

from contextlib import AbstractContextManager

import pytest

from companion.rules.errors import IllegalAction
from companion.rules.maps import Board, Region, Terrain, load_board
from companion.rules.teams import (
    TEAM_TURNS,
    MonsterSetup,
    Team,
    check_table,
    monster_sites,
    partner,
    pass_monster,
    place_monster,
    start_monsters,
    team_of,
    team_standings,
    teams,
    turn_order,
)

BOARD = load_board("4p")  # Lost Tribes: 3 4 5 7 8 12 15 23 24 26 27 28 31 32
NAMES = {0: "Ann", 1: "Bo", 2: "Cy", 3: "Di", 4: "Ed", 5: "Flo"}


def refused(match: str) -> AbstractContextManager[pytest.ExceptionInfo[IllegalAction]]:
    return pytest.raises(IllegalAction, match=match)


def line_board(lost_tribes: int) -> Board:
    """A row of `lost_tribes` farmland regions with a Lost Tribe, each next to the following."""
    ids = range(1, lost_tribes + 1)
    regions = {
        i: Region(i, Terrain.FARMLAND, frozenset(), True, True, True, False,
                  frozenset(j for j in (i - 1, i + 1) if j in ids), None)
        for i in ids
    }
    return Board("line", 6, TEAM_TURNS, None, regions)


# --- seating and turns -------------------------------------------------------------------


def test_partners_sit_opposite_each_other() -> None:
    assert [partner(s) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    assert partner(1) == 4
    assert partner(1) != 2
    assert partner(1) != 1


def test_team_a_holds_the_first_player_and_the_teams_follow_clockwise() -> None:
    assert teams(0) == (Team("A", (0, 3)), Team("B", (1, 4)), Team("C", (2, 5)))
    assert teams(2) == (Team("A", (2, 5)), Team("B", (3, 0)), Team("C", (4, 1)))
    assert team_of(4, first_seat=2) == Team("C", (4, 1))


def test_play_runs_a1_b1_c1_a2_b2_c2_clockwise() -> None:
    assert turn_order(0) == (0, 1, 2, 3, 4, 5)
    assert turn_order(4) == (4, 5, 0, 1, 2, 3)
    a, b, c = teams(4)
    assert turn_order(4) == (a.seats[0], b.seats[0], c.seats[0],
                             a.seats[1], b.seats[1], c.seats[1])


def test_a_team_game_is_six_players_over_eight_turns() -> None:
    check_table(6, 8)
    with refused("exactly 6 players, not 5"):
        check_table(5, 8)
    with refused("lasts 8 turns, not 9"):
        check_table(6, 9)


def test_there_is_no_seventh_seat() -> None:
    with refused("seats 0 to 5; no seat 6"):
        partner(6)


# --- Monsters ------------------------------------------------------------------------------


def test_every_player_but_the_first_places_a_monster_in_turn_order() -> None:
    setup = start_monsters(first_seat=2)
    assert setup.placers == (3, 4, 5, 0, 1)
    assert setup.next_seat == 3
    for seat, region in zip(setup.placers, (3, 7, 12, 23, 27), strict=True):
        setup = place_monster(setup, BOARD, seat, region)
    assert setup.done
    assert setup.monsters == {3, 7, 12, 23, 27}
    with refused("every Monster is set out"):
        place_monster(setup, BOARD, 3, 31)


def test_the_first_player_places_no_monster_and_nobody_plays_out_of_turn() -> None:
    setup = start_monsters(first_seat=0)
    with refused("the first player places no Monster"):
        place_monster(setup, BOARD, 0, 3)
    with refused("seat 1 places the next Monster, not seat 2"):
        place_monster(setup, BOARD, 2, 3)


def test_a_monster_goes_only_in_a_lost_tribe_region() -> None:
    with refused("region 9 is not one"):
        place_monster(start_monsters(), BOARD, 1, 9)


def test_a_monster_never_goes_in_or_next_to_a_region_holding_another() -> None:
    setup = place_monster(start_monsters(), BOARD, 1, 3)
    with refused("already holds a Monster"):
        place_monster(setup, BOARD, 2, 3)
    with refused("borders the Monster in region 3"):
        place_monster(setup, BOARD, 2, 4)


def test_the_regions_open_to_a_monster_are_lost_tribe_regions_clear_of_monsters() -> None:
    assert monster_sites(BOARD) == (3, 4, 5, 7, 8, 12, 15, 23, 24, 26, 27, 28, 31, 32)
    assert monster_sites(BOARD, frozenset({3, 26})) == (7, 12, 15, 23, 24, 28)


def test_a_player_passes_only_when_no_region_is_left_for_a_monster() -> None:
    board = line_board(3)
    setup = start_monsters()
    with refused("must be placed while a region allows it: 1, 2, 3"):
        pass_monster(setup, board, 1)
    setup = place_monster(setup, board, 1, 2)  # 1 and 3 border it
    assert monster_sites(board, setup.monsters) == ()
    setup = pass_monster(setup, board, 2)
    assert setup == MonsterSetup(0, placed=((1, 2),), passed=(2,))
    assert setup.next_seat == 3


# --- the end: team standings -------------------------------------------------------------


def test_a_team_scores_its_lower_partners_total() -> None:
    result = team_standings({0: 60, 3: 41, 1: 50, 4: 45, 2: 70, 5: 30}, names=NAMES)
    assert [(p.team.label, p.score) for p in result.placings] == [("B", 45), ("A", 41),
                                                                 ("C", 30)]
    assert result.placings[0].totals == ((1, 50), (4, 45))


def test_the_team_with_the_highest_score_wins_however_high_one_partner_scored() -> None:
    result = team_standings({0: 60, 3: 41, 1: 50, 4: 45, 2: 99, 5: 30}, names=NAMES)
    assert result.winners == {"B"}
    assert result.reason == (
        "Team B (Bo and Ed) wins with 45 coins, Ed's total (the lower of the two)"
    )


def test_a_tie_goes_to_the_team_with_the_highest_individual_score() -> None:
    result = team_standings({0: 60, 3: 45, 1: 52, 4: 45, 2: 70, 5: 30}, names=NAMES)
    assert result.winners == {"A"}
    assert [(p.rank, p.team.label) for p in result.placings] == [(1, "A"), (2, "B"), (3, "C")]
    assert result.reason == (
        "Teams A and B tie on 45 coins; team A (Ann and Di) wins with the best single total, "
        "Ann's 60"
    )


def test_a_tie_on_team_score_and_best_total_is_a_shared_win() -> None:
    result = team_standings({0: 60, 3: 45, 1: 45, 4: 60, 2: 70, 5: 30}, names=NAMES)
    assert result.winners == {"A", "B"}
    assert result.shared
    assert [p.rank for p in result.placings] == [1, 1, 3]
    assert result.reason == (
        "Teams A and B tie on 45 coins; teams A and B also tie on the best single total (60) "
        "and share the win"
    )


def test_a_tie_below_first_place_is_a_shared_place() -> None:
    result = team_standings({0: 60, 3: 50, 1: 30, 4: 70, 2: 30, 5: 31})
    assert result.winners == {"A"}
    assert [(p.rank, p.team.label) for p in result.placings] == [(1, "A"), (2, "B"), (2, "C")]


def test_the_teams_follow_the_first_player() -> None:
    result = team_standings({0: 10, 1: 20, 2: 30, 3: 40, 4: 50, 5: 60}, first_seat=1)
    assert [(p.team, p.score) for p in result.placings] == [
        (Team("B", (2, 5)), 30), (Team("A", (1, 4)), 20), (Team("C", (3, 0)), 10)]
    assert result.winners == {"B"}


def test_every_seat_needs_its_total() -> None:
    with refused("every seat 0 to 5 needs its total"):
        team_standings({0: 1, 1: 1, 2: 1, 3: 1, 4: 1})
    with refused("coins of seat 2 must be a whole number"):
        team_standings({0: 1, 1: 1, 2: -1, 3: 1, 4: 1, 5: 1})
