"""Going into decline."""

from __future__ import annotations

import pytest
from factories import play_turn, session

from companion.rules.errors import IllegalAction
from companion.rules.turns import Phase

RACES = ("Ratmen", "Orcs", "Elves", "Dwarves", "Humans", "Giants", "Trolls", "Wizards")
POWERS = ("Flying", "Hill", "Forest", "Spirit", "Stout", "Alchemist", "Merchant", "Swamp")


def two_players_with_races(**kwargs: object) -> object:
    s = session(players=2, races=RACES, powers=POWERS, **kwargs)  # type: ignore[arg-type]
    play_turn(s, row=0)  # Ann: Flying Ratmen
    play_turn(s, row=0)  # Bob: Hill Orcs
    return s


def test_declining_flips_the_race_and_discards_its_badge() -> None:
    s = two_players_with_races()
    s.decline()
    ann = s.state.players[0]
    assert ann.active is None
    assert [(d.race, d.power) for d in ann.declined] == [("Ratmen", "Flying")]
    assert s.state.market.discarded_powers == ("Flying",)


def test_no_conquest_in_the_turn_of_decline_the_turn_goes_to_scoring() -> None:
    s = two_players_with_races()
    s.decline()
    assert s.state.track.phase is Phase.SCORE
    with pytest.raises(IllegalAction, match="cannot finish conquering now"):
        s.finish_conquests()


def test_a_new_combo_is_picked_on_the_next_turn_not_the_turn_of_decline() -> None:
    s = two_players_with_races()
    s.decline()
    with pytest.raises(IllegalAction, match="went into decline this turn"):
        s.pick(0)
    s.score(1)
    s.end_turn()
    play_turn(s)  # Bob
    assert s.state.track.phase is Phase.PICK_COMBO
    s.pick(0)


def test_declining_twice_in_a_turn_is_refused() -> None:
    s = two_players_with_races()
    s.decline()
    with pytest.raises(IllegalAction, match="no active race"):
        s.decline()


def test_decline_comes_instead_of_conquest_not_after_it() -> None:
    s = two_players_with_races()
    s.finish_conquests()
    before = s.state
    with pytest.raises(IllegalAction, match="start of a turn, instead of conquering"):
        s.decline()
    assert s.state == before


def test_a_combo_picked_this_turn_cannot_go_into_decline_at_once() -> None:
    s = session(players=2, races=RACES, powers=POWERS)
    s.pick(0)
    with pytest.raises(IllegalAction, match="start of a turn"):
        s.decline()


def test_the_earlier_declined_race_leaves_the_board_when_another_declines() -> None:
    s = two_players_with_races()
    s.decline()  # Ratmen in decline
    s.score(1)
    s.end_turn()
    play_turn(s)
    play_turn(s, row=0)  # Ann picks the top combo again
    play_turn(s)
    new = s.state.players[0].active
    assert new is not None
    s.decline()
    assert [d.race for d in s.state.players[0].declined] == [new.race]
    assert s.state.market.race_stack[-1] == "Ratmen"


def test_a_spirit_race_in_decline_stays_beside_a_later_declined_race() -> None:
    s = session(players=2, races=("Elves", "Orcs", "Ratmen"), powers=("Spirit", "Hill", "Flying"))
    play_turn(s, row=0)  # Ann: Spirit Elves
    play_turn(s, row=0)  # Bob
    s.decline()  # Spirit Elves in decline; the Spirit badge stays in effect
    assert s.state.market.discarded_powers == ()
    s.score(1)
    s.end_turn()
    play_turn(s)  # Bob
    play_turn(s)  # Ann picks her second combo
    play_turn(s)  # Bob
    s.decline()  # Ann's second race declines: both stay on the board
    second = s.state.players[0].declined
    assert [d.race for d in second][:1] == ["Elves"] and len(second) == 2
    s.score(1)
    s.end_turn()
    for _ in range(3):
        play_turn(s)  # Bob, Ann picks her third combo, Bob
    s.decline()  # a third race declines: the Spirit Elves stay, the second race vanishes
    third = s.state.players[0].declined
    assert third[0].race == "Elves" and len(third) == 2
    assert s.state.market.race_stack[-1] == second[1].race


def test_stout_may_go_into_decline_at_the_end_of_a_turn_of_conquests() -> None:
    s = session(players=2, races=RACES, powers=("Stout", "Hill"))
    play_turn(s, row=0)  # Ann: Stout Ratmen
    play_turn(s, row=0)
    s.finish_conquests()
    s.finish_redeployment()
    with pytest.raises(IllegalAction, match="Stout: or at the end of the turn"):
        s.decline()
    s.score(4)
    s.decline()
    assert s.state.players[0].active is None
    assert s.state.track.phase is Phase.FINISHED
    s.end_turn()
    play_turn(s)
    assert s.state.track.phase is Phase.PICK_COMBO


def test_without_stout_decline_after_scoring_is_refused() -> None:
    s = two_players_with_races()
    s.finish_conquests()
    s.finish_redeployment()
    s.score(2)
    with pytest.raises(IllegalAction, match="start of a turn"):
        s.decline()
