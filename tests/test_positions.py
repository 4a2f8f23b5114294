"""The one-line position builder (`tests/positions.py`), and rule tests written with it:
a position, ONE event applied with `companion.rules.game.apply`, the result.

On the 2-player board: 2 (farmland), 3 (forest, a mine) and 5 (hill) are empty border
regions; 4 (swamp, border) starts with a Lost Tribe; 7 (hill) borders 2, 3, 6, 8, 12, 13;
9 and 20 are mountains; 12 (farmland) borders 6, 7, 13, 17, 18.
"""

from __future__ import annotations

import pytest
from factories import session
from positions import PositionError, position

from companion.rules import troops as ledger
from companion.rules.board import Markers, Occupant, RegionState
from companion.rules.conquest import conquest_cost
from companion.rules.errors import IllegalAction
from companion.rules.events import RaceDeclined, RegionConquered, TurnEnded, TurnScored
from companion.rules.game import GameState, apply, attacker, refusal
from companion.rules.income import income
from companion.rules.players import ActiveRace, DeclinedRace
from companion.rules.troops import RaceTroops
from companion.rules.turns import Phase


def tokens(state: GameState, region: int) -> int | None:
    occupant = state.regions[region].occupant
    return None if occupant is None else occupant.tokens


def books(state: GameState, seat: int, race: str) -> RaceTroops:
    assert state.troops is not None
    return state.troops.of(seat, race)


# --- the builder ---------------------------------------------------------------------------


def test_a_description_gives_the_players_regions_ledger_and_turn_it_says() -> None:
    state = position("2p", "Ann $7: Flying Ratmen hand 3 2@12 @7+fortress; "
                           "Bob: Hill Trolls declined @4+lair+camp+camp",
                     seat="Bob", phase="score", turn=3)
    ann, bob = state.players
    assert (ann.name, ann.coins, bob.name, bob.coins) == ("Ann", 7, "Bob", 5)
    assert ann.active == ActiveRace("Ratmen", "Flying", tokens=state.catalog.combo_tokens(
        "Ratmen", "Flying"), picked_turn=2)
    assert (bob.active, bob.declined) == (None, (DeclinedRace("Trolls", "Hill", 2),))
    assert state.regions[12] == RegionState(Occupant(0, "Ratmen", False, 2))
    assert state.regions[7].markers == Markers(fortress=True)
    assert state.regions[4] == RegionState(  # the board's Lost Tribe is gone: Bob holds it
        Occupant(1, "Trolls", True, 1), markers=Markers(troll_lair=True, encampments=2))
    assert state.regions[20].markers.mountain and not state.regions[20].non_empty
    assert books(state, 0, "Ratmen") == RaceTroops(0, "Ratmen", received=6, hand=3)
    assert books(state, 1, "Trolls") == RaceTroops(1, "Trolls", received=1)
    assert state.troops is not None
    ledger.check(state.troops, state.regions)
    assert (state.track.turn, state.track.seat, state.track.phase) == (3, 1, Phase.SCORE)
    assert state.coins_issued == 12
    assert "Ratmen" not in state.market.race_stack and "Flying" not in state.market.power_stack


def test_a_position_is_the_state_a_played_game_reaches() -> None:
    played = session(2, races=("Humans",), powers=("Alchemist",), troops_counted=True)
    played.pick(0)
    played.conquer(3)  # an empty forest: 2 tokens
    played.conquer(4, tokens=4)  # the swamp's Lost Tribe: 3, and one more sent
    built = position("2p", "Ann: Alchemist Humans hand 3 2@3 4@4; Bob", seat="Ann", turn=1)
    assert built.players == played.state.players
    assert built.regions == played.state.regions
    assert built.troops is not None and played.state.troops is not None
    assert set(built.troops.races) == set(played.state.troops.races)
    assert built.track.this_turn.picked_combo == played.state.track.this_turn.picked_combo
    assert built.coins_issued == played.state.coins_issued


def test_names_ignore_case_and_may_be_several_words() -> None:
    state = position("2p", "ann: dragon master GIANTS @2; bob: Hordes of Ratmen @3",
                     expansions=("base", "cursed"))
    assert state.players[0].active is not None and state.players[1].active is not None
    assert (state.players[0].active.power, state.players[0].active.race) == (
        "Dragon Master", "Giants")
    assert (state.players[1].active.power, state.players[1].active.race) == (
        "Hordes of", "Ratmen")


def test_lost_tribes_and_counting_can_be_said() -> None:
    state = position("2p", "Ann: Hill Orcs @5; Bob", lost_tribes=[10], counted=False)
    assert state.troops is None
    assert [rid for rid, rs in state.regions.regions.items() if rs.lost_tribe] == [10]


MALFORMED = {
    "a board that does not exist": (("9p", "Ann; Bob"), {}, "board '9p'"),
    "too few players for the board": (("3p", "Ann; Bob"), {}, "2 players described"),
    "an unknown race": (("2p", "Ann: Hill Orks @5; Bob"), {}, "expected POWER RACE"),
    "no power": (("2p", "Ann: Orcs @5; Bob"), {}, "expected POWER RACE"),
    "a race of an expansion not chosen": (
        ("2p", "Ann: Hill Kobolds @5; Bob"), {}, "not in the chosen expansions"),
    "a region not on the board": (("2p", "Ann: Hill Orcs @99; Bob"), {}, "region 99 is not"),
    "a region held twice": (("2p", "Ann: Hill Orcs @5; Bob: Flying Elves @5"), {},
                            "region 5 is already held"),
    "a malformed region": (("2p", "Ann: Hill Orcs 5@; Bob"), {}, "'5@' is not"),
    "an unknown marker": (("2p", "Ann: Hill Orcs @5+castle; Bob"), {}, "marker 'castle'"),
    "two active races": (("2p", "Ann: Hill Orcs @5, Flying Elves @2; Bob"), {},
                         "already plays the Hill Orcs"),
    "hand without a number": (("2p", "Ann: Hill Orcs hand; Bob"), {}, "needs a number"),
    "a coin count that is no number": (("2p", "Ann $x: Hill Orcs @5; Bob"), {},
                                       "'x' is not a whole number"),
    "a word after the combo": (("2p", "Ann: Hill Orcs hand 2 strong @5; Bob"), {},
                               "'strong' is not a region"),
    "an unknown seat": (("2p", "Ann: Hill Orcs @5; Bob"), {"seat": "Cy"}, "no such player"),
    "an unknown phase": (("2p", "Ann: Hill Orcs @5; Bob"), {"phase": "battle"},
                         "phase 'battle'"),
    "conquering without a race": (("2p", "Ann; Bob"), {}, "no active race to conquer"),
    "picking with a race": (("2p", "Ann: Hill Orcs @5; Bob"), {"phase": "pick"},
                            "not at the pick"),
    "a turn past the end": (("2p", "Ann: Hill Orcs @5; Bob"), {"turn": 11}, "turn 11"),
}


@pytest.mark.parametrize("args, options, message", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_description_is_refused_naming_what_is_wrong(
    args: tuple[str, str], options: dict[str, object], message: str
) -> None:
    with pytest.raises(PositionError, match=message.replace("(", r"\(")):
        position(*args, **options)  # type: ignore[arg-type]


# --- rules, one event at a time ---------------------------------------------------------------


def test_a_region_costs_two_plus_its_defenders_and_markers() -> None:
    state = position("2p", "Ann: Flying Ratmen hand 6 2@12; Bob: Hill Trolls declined @7+lair",
                     turn=3)
    cost = conquest_cost(state.map, 7, state.regions.regions, attacker(state))
    assert [(line.label, line.tokens) for line in cost.lines] == [
        ("Any conquest", 2), ("Troll's Lair", 1), ("Trolls in decline token there", 1)]
    after = apply(state, RegionConquered(0, 7))
    assert tokens(after, 7) == 4 and books(after, 0, "Ratmen").hand == 2
    assert after.players[1].declined == ()  # their last region fell: the Trolls are gone


def test_flying_reaches_a_region_far_away_and_walking_does_not() -> None:
    walking = position("2p", "Ann: Alchemist Ratmen hand 6 2@12; Bob", turn=3)
    flying = position("2p", "Ann: Flying Ratmen hand 6 2@12; Bob", turn=3)
    assert str(refusal(walking, RegionConquered(0, 20))) == (
        "region 20 does not border any region Ratmen hold")
    assert tokens(apply(flying, RegionConquered(0, 20)), 20) == 3  # 2 + the mountain


def test_a_conquest_beyond_the_hand_is_refused_and_changes_nothing() -> None:
    state = position("2p", "Ann: Merchant Dwarves hand 2 3@4; Bob")
    with pytest.raises(IllegalAction, match="needs 3 tokens, but only 2 are in hand"):
        apply(state, RegionConquered(0, 9))  # a mountain next to region 4: 3 tokens
    assert position("2p", "Ann: Merchant Dwarves hand 2 3@4; Bob") == state


def test_the_defender_loses_one_token_to_the_tray_and_keeps_the_others_in_hand() -> None:
    # test_rules_troops.py plays this with a Session: two picks, three conquests and a whole
    # turn's end (nine intents) before Bob's conquest. Here: the position, then the conquest.
    state = position("2p", "Ann: Merchant Humans 4@5 3@4; Bob: Alchemist Orcs hand 9",
                     seat="Bob")
    after = apply(state, RegionConquered(1, 5))
    assert tokens(after, 5) == 6  # 2 + 4 defenders
    humans = books(after, 0, "Humans")
    assert (humans.hand, humans.tray) == (3, 1)
    assert after.troops is not None
    ledger.check(after.troops, after.regions)


def test_going_into_decline_keeps_one_token_per_region_the_rest_to_the_tray() -> None:
    # test_rules_troops.py: a Session, two turns played (twelve intents), then the decline.
    state = position("2p", "Ann: Alchemist Humans hand 7 @2 @3; Bob: Merchant Orcs @9",
                     turn=2)
    after = apply(state, RaceDeclined(0))
    humans = books(after, 0, "Humans")
    assert (tokens(after, 2), tokens(after, 3), humans.hand, humans.tray) == (1, 1, 0, 7)
    assert after.players[0].active is None
    assert after.players[0].declined == (DeclinedRace("Humans", "Alchemist", 2),)
    assert after.track.phase is Phase.SCORE


def test_a_race_picked_this_turn_cannot_go_into_decline() -> None:
    state = position("2p", "Ann: Alchemist Humans hand 9; Bob", turn=2, seat="Ann")
    assert refusal(state, RaceDeclined(0)) is None
    picked_now = position("2p", "Ann: Alchemist Humans hand 9 picked 2; Bob", turn=2)
    assert str(refusal(picked_now, RaceDeclined(0))) == (
        "a race goes into decline at the start of a turn, instead of conquering")


def test_the_income_counts_regions_powers_and_the_declined_race_and_is_paid() -> None:
    state = position("2p", "Ann $3: Hill Orcs 2@5 @7 @15 @10, Alchemist Dwarves declined "
                           "@4 @3; Bob: Merchant Humans @2", phase="score", turn=4)
    score = income(state)
    assert [(line.label, line.coins) for line in score.lines] == [
        ("Regions held by Orcs", 4),
        ("Hill: one per hill region", 3),
        ("Regions held by Dwarves (in decline)", 2),
        ("Dwarves (in decline): one per mine region", 1),
    ]
    after = apply(state, TurnScored(0, score.total))
    assert after.players[0].coins == 3 + 10
    assert after.track.phase is Phase.FINISHED


def test_the_next_player_begins_with_their_troops_readied() -> None:
    state = position("2p", "Ann: Hill Orcs 2@5; Bob: Merchant Humans 4@2 3@3",
                     phase="end", turn=2)
    after = apply(state, TurnEnded(0))
    assert (after.track.seat, after.track.turn, after.track.phase) == (1, 2, Phase.CONQUER)
    assert (tokens(after, 2), tokens(after, 3), books(after, 1, "Humans").hand) == (1, 1, 5)


def test_the_game_turn_ends_with_the_seat_before_the_first_player() -> None:
    state = position("2p", "Ann: Hill Orcs 2@5; Bob: Merchant Humans 4@2 3@3",
                     seat="Ann", first="Bob", phase="end", turn=2)
    after = apply(state, TurnEnded(0))
    assert (after.track.seat, after.track.turn) == (1, 3)
