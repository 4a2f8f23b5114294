"""Every roll of the reinforcement die has its purpose, and comes only where the rules give one.

Each refusal asserts the reason and that nothing changed (the session's state and history
are the same objects as before the refused intent).
"""

from __future__ import annotations

import pytest
from factories import final_target, session

from companion.rules.catalog import load_catalog
from companion.rules.codec import from_record
from companion.rules.die import DiePurpose, die_roll_allowed
from companion.rules.errors import IllegalAction
from companion.rules.events import SCHEMA_VERSION, DieRolled, RegionConquered, to_record
from companion.rules.game import apply, attacker
from companion.rules.history import History, replay
from companion.rules.mini_game import PygmiesRecovered, pygmy_rolls_owed
from companion.rules.turns import Phase
from companion.session import Session

FINAL = DiePurpose.FINAL_CONQUEST
BERSERK = DiePurpose.BERSERK


def refused(s: Session, intent: object, reason: str) -> None:
    """`intent` (a callable) is refused with `reason`, and the game is unchanged."""
    before = s.history
    with pytest.raises(IllegalAction, match=reason):
        intent()  # type: ignore[operator]
    assert s.history is before


def conquering(races: tuple[str, ...] = ("Orcs",), powers: tuple[str, ...] = ("Hill",),
               *, players: int = 2, expansions: tuple[str, ...] = ("base",)) -> Session:
    s = session(players, races=races, powers=powers, expansions=expansions)
    s.pick(0)
    return s


# --- the final conquest --------------------------------------------------------------------


def test_the_final_conquest_is_the_roll_a_race_without_berserk_may_make() -> None:
    chance = die_roll_allowed(conquering().state)
    assert chance.purpose is FINAL
    assert str(chance.reason) == "Final conquest: Ann chooses the region, then rolls once."


def test_the_final_conquest_roll_names_the_region_chosen_before_it() -> None:
    s = conquering()
    region, tokens_left = final_target(s)
    attempt = s.attempt_final_conquest(region, tokens_left)
    assert s.history is not None
    rolled = [e for e in s.history.last_step if isinstance(e, DieRolled)]
    assert rolled == [DieRolled(0, attempt.face, FINAL, region)]
    assert s.state.track.this_turn.final_roll == (region, attempt.face)


def test_the_final_conquest_is_rolled_once_a_turn() -> None:
    s = conquering()
    region, _ = final_target(s)
    state = apply(s.state, DieRolled(0, 0, FINAL, region))  # failed: no conquest follows
    with pytest.raises(IllegalAction, match=f"Ann rolled for the final conquest of region "
                                            f"{region}; conquests are over this turn"):
        apply(state, DieRolled(0, 3, FINAL, region))
    assert die_roll_allowed(state).purpose is None


def test_the_final_conquest_is_not_tried_again_after_it_ended_the_conquests() -> None:
    s = conquering()
    region, tokens_left = final_target(s)
    s.attempt_final_conquest(region, tokens_left)
    refused(s, lambda: s.attempt_final_conquest(region, tokens_left),
            "the die is rolled while conquering, and Ann's turn is at: redeploy")


def test_after_the_final_roll_only_its_region_may_be_conquered() -> None:
    s = conquering()
    region, _ = final_target(s)
    state = apply(s.state, DieRolled(0, 3, FINAL, region))
    other = next(rid for rid, land in sorted(state.map.regions.items())
                 if rid != region and land.entry and not land.is_water)
    with pytest.raises(IllegalAction, match=f"after the final conquest's roll only region "
                                            f"{region}, chosen before the roll, may be "
                                            "conquered"):
        apply(state, RegionConquered(0, other, 3))
    taken = apply(state, RegionConquered(0, region, 3))  # the one the roll was for
    assert taken.regions[region].occupant is not None


def test_a_final_conquest_is_won_only_when_the_tokens_and_the_face_cover_the_cost() -> None:
    s = conquering()
    region, tokens_left = final_target(s)  # one token short
    short = apply(s.state, DieRolled(0, 0, FINAL, region))  # a blank
    with pytest.raises(IllegalAction, match=f"the final conquest of region {region} falls "
                                            f"short: {tokens_left} token"):
        apply(short, RegionConquered(0, region, tokens_left))
    covered = apply(s.state, DieRolled(0, 1, FINAL, region))
    assert apply(covered, RegionConquered(0, region, tokens_left)).regions[region].occupant


def test_the_final_conquest_region_is_chosen_before_the_roll() -> None:
    state = conquering().state
    with pytest.raises(IllegalAction, match="the final conquest's region is chosen before "
                                            "the roll: name it"):
        apply(state, DieRolled(0, 2, FINAL))


def test_the_final_conquest_region_must_be_one_the_race_could_attack() -> None:
    s = conquering()
    inland = next(rid for rid, region in sorted(s.state.map.regions.items())
                  if not region.entry and not region.is_water)
    with pytest.raises(IllegalAction, match=f"region {inland} cannot be the final conquest: "
                                            "a race entering the board must take an entry "
                                            "region"):
        apply(s.state, DieRolled(0, 2, FINAL, inland))
    refused(s, lambda: s.attempt_final_conquest(inland, 1),
            f"region {inland} cannot be the final conquest")


def test_the_final_conquest_needs_at_least_one_unused_token() -> None:
    s = conquering()
    region, _ = final_target(s)
    refused(s, lambda: s.attempt_final_conquest(region, 0), "no token left")


def test_only_the_final_conquest_roll_names_a_region() -> None:
    state = conquering(("Ratmen",), ("Berserk",)).state
    with pytest.raises(IllegalAction, match="only the final conquest's roll names a region"):
        apply(state, DieRolled(0, 2, BERSERK, 3))


# --- Berserk ---------------------------------------------------------------------------------


def test_a_berserk_race_rolls_before_its_next_conquest() -> None:
    s = conquering(("Ratmen",), ("Berserk",))
    assert str(die_roll_allowed(s.state).reason) == "Berserk: Ann rolls before the next conquest."
    face = s.roll_for_berserk()
    assert s.history is not None
    assert s.history.last_step == (DieRolled(0, face, BERSERK),)
    assert attacker(s.state).berserk_roll == face


def test_a_second_berserk_roll_before_the_conquest_is_refused() -> None:
    s = conquering(("Ratmen",), ("Berserk",))
    face = s.roll_for_berserk()
    reason = f"No roll now: Ann's Berserk roll \\({face}\\) waits for the next conquest."
    refused(s, s.roll_for_berserk, reason)
    with pytest.raises(IllegalAction, match=reason):
        apply(s.state, DieRolled(0, 1, BERSERK))


def test_the_conquest_uses_up_the_berserk_roll_and_the_next_one_may_be_rolled() -> None:
    s = conquering(("Ratmen",), ("Berserk",))
    s.roll_for_berserk()
    s.conquer(*final_target(s))
    assert s.state.last_roll is None
    assert die_roll_allowed(s.state).purpose is BERSERK
    s.roll_for_berserk()


def test_a_race_without_berserk_does_not_roll_before_a_conquest() -> None:
    s = conquering()
    refused(s, s.roll_for_berserk, "only a Berserk race rolls before a conquest")
    with pytest.raises(IllegalAction, match="only a Berserk race rolls before a conquest, "
                                            "and Ann's is not Berserk"):
        apply(s.state, DieRolled(0, 1, BERSERK))


def test_a_berserk_race_has_no_separate_final_roll() -> None:
    s = conquering(("Ratmen",), ("Berserk",))
    region, tokens_left = final_target(s)
    refused(s, lambda: s.attempt_final_conquest(region, tokens_left),
            "Berserk rolls before each conquest instead of a final roll")
    with pytest.raises(IllegalAction, match="Berserk rolls before each conquest"):
        apply(s.state, DieRolled(0, 1, FINAL, region))


# --- when there is no roll at all ------------------------------------------------------------


def test_no_roll_outside_the_conquest_phase() -> None:
    s = conquering()
    s.finish_conquests()
    chance = die_roll_allowed(s.state)
    assert (chance.purpose, str(chance.reason)) == (
        None, "No roll now: the die is rolled while conquering, and Ann's turn is at: "
              "redeploy.")
    with pytest.raises(IllegalAction, match="Ann cannot roll the reinforcement die now; "
                                            "the turn is at: redeploy"):
        apply(s.state, DieRolled(0, 1, FINAL, 1))


def test_no_roll_before_a_combo_is_picked() -> None:
    s = session(2)
    assert s.state.track.phase is Phase.PICK_COMBO
    assert die_roll_allowed(s.state).purpose is None
    refused(s, s.roll_for_berserk, "the die is rolled while conquering")


def test_a_roll_has_one_of_the_purposes_the_rules_know() -> None:
    state = conquering().state
    with pytest.raises(IllegalAction, match="a die roll's purpose is one of final_conquest, "
                                            "berserk, unrecorded, not 'fun'"):
        apply(state, DieRolled(0, 1, "fun", None))


def test_a_roll_shows_a_face_the_die_has() -> None:
    state = conquering(("Ratmen",), ("Berserk",)).state
    with pytest.raises(IllegalAction, match="the reinforcement die has no face 6"):
        apply(state, DieRolled(0, 6, BERSERK))


def test_a_roll_cannot_be_undone() -> None:
    s = conquering(("Ratmen",), ("Berserk",))
    s.roll_for_berserk()
    refused(s, s.undo, "cannot be undone: a die roll")


# --- Pygmies -------------------------------------------------------------------------------------


def pygmies_attacked() -> tuple[Session, int]:
    """Ann's active Pygmies hold a region; Bob's turn, with a race to conquer it."""
    s = session(2, races=("Pygmies", "Orcs"), powers=("Hill", "Alchemist"),
                expansions=("base", "be-not-afraid"))
    s.pick(0)
    region, _ = final_target(s)
    s.conquer(region, 3)
    s.finish_conquests()
    s.finish_redeployment()
    s.score(1)
    s.end_turn()
    s.pick(0)
    return s, region


def test_pygmies_roll_only_for_a_token_lost_to_a_conquest() -> None:
    s, _ = pygmies_attacked()
    state = s.state
    with pytest.raises(IllegalAction, match="the die is rolled once per Pygmy token lost to "
                                            "a conquest; Ann is owed 0 rolls now, not 1"):
        apply(state, PygmiesRecovered(0, (2,)))


def test_a_conquered_pygmy_region_owes_one_roll_and_the_session_rolls_it() -> None:
    s, region = pygmies_attacked()
    before = s.state
    conquest = RegionConquered(1, region, 4)
    taken = apply(before, conquest)
    assert pygmy_rolls_owed(taken) == ((0, 1),)
    paid = apply(taken, PygmiesRecovered(0, (1,)))
    assert pygmy_rolls_owed(paid) == ()
    with pytest.raises(IllegalAction, match="Ann is owed 0 rolls now, not 1"):
        apply(paid, PygmiesRecovered(0, (3,)))
    s.conquer(region, 4)  # the session rolls the one owed in the same step
    assert s.history is not None
    assert [type(e) for e in s.history.last_step] == [RegionConquered, PygmiesRecovered]


# --- old saved games ---------------------------------------------------------------------------


def test_an_old_die_roll_record_is_read_as_an_unrecorded_roll() -> None:
    old = {"type": "die_rolled", "v": 1, "seat": 2, "face": 3}
    assert SCHEMA_VERSION == 3
    assert from_record(old) == DieRolled(2, 3, DiePurpose.UNRECORDED, None)
    assert to_record(DieRolled(2, 3, FINAL, 14)) == {
        "type": "die_rolled", "v": 3, "seat": 2, "face": 3, "purpose": "final_conquest",
        "region": 14}


def test_an_old_game_with_three_rolls_in_one_conquest_phase_still_replays() -> None:
    # Schema 1 let the table roll three times in one conquest phase; the game replays as
    # it was played, the last face the one that counts.
    s = conquering()
    assert s.history is not None
    history: History = s.history
    for face in (2, 0, 3):
        history = history.record((from_record({"type": "die_rolled", "v": 1, "seat": 0,
                                               "face": face}),))
    assert history.state.last_roll == 3
    assert history.state.track.phase is Phase.CONQUER
    assert replay(history.log, load_catalog()) == history
