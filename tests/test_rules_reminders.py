"""Reminders of what is owed now."""

from __future__ import annotations

import pytest
from factories import play_turn, session

from companion.rules.reminders import reminders as said_reminders
from companion.rules.state import GameState
from companion.session import Session


def reminders(state: GameState) -> tuple[str, ...]:
    """The reminders in English, as the rules say them."""
    return tuple(str(line) for line in said_reminders(state))


def test_skeletons_take_one_token_per_two_non_empty_conquests_at_redeployment() -> None:
    s = session(players=2, races=("Skeletons",), powers=("Hill",))
    s.pick(0)
    for region in (4, 3, 7):  # on the 2p board 4 and 7 hold Lost Tribes, 3 is empty
        s.conquer(region)
    s.finish_conquests()
    assert "Skeletons: take 1 new token from the tray" in " ".join(reminders(s.state))


def test_no_skeleton_reminder_without_two_non_empty_conquests() -> None:
    s = session(players=2, races=("Skeletons",), powers=("Hill",))
    s.pick(0)
    s.conquer(4)
    s.finish_conquests()
    assert not any("Skeletons" in r for r in reminders(s.state))


def test_amazons_give_back_four_tokens_after_redeploying() -> None:
    s = session(players=2, races=("Amazons",), powers=("Hill",))
    s.pick(0)
    s.finish_conquests()
    assert any("lift 4 Amazons" in r for r in reminders(s.state))


def test_wealthy_pays_once_on_the_turn_it_was_picked() -> None:
    s = session(players=2, races=("Orcs",), powers=("Wealthy",))
    s.pick(0)
    s.finish_conquests()
    s.finish_redeployment()
    assert "Wealthy: 7 coins this turn, once." in reminders(s.state)
    s.score()
    s.end_turn()
    play_turn(s)
    s.finish_conquests()
    s.finish_redeployment()
    assert "Wealthy: 7 coins this turn, once." not in reminders(s.state)


def test_a_declined_races_power_reminds_of_nothing() -> None:
    s = session(players=2, races=("Trolls",), powers=("Heroic",))
    play_turn(s)
    play_turn(s)
    assert any("Troll's Lair" in r for r in reminders(s.state))
    s.decline()
    s.score()
    assert not any("Heroes" in r or "Troll" in r for r in reminders(s.state))


def _at_redeployment(race: str, power: str, expansion: str) -> Session:
    s = session(players=2, races=(race,), powers=(power,), expansions=("base", expansion))
    s.pick(0)
    s.finish_conquests()
    return s


def test_fireball_gains_one_fireball_per_magic_source_held_at_redeployment() -> None:
    s = session(players=2, races=("Orcs",), powers=("Fireball",),
                expansions=("base", "royal-bonus"))
    s.pick(0)
    for magic_source in (2, 11):  # Magic Sources on the 2-player board
        s.set_region(magic_source, 0, "Orcs")
    s.set_region(3, 0, "Orcs")  # no Magic Source there
    s.finish_conquests()
    assert "Fireball: take 2 Fireballs (1 per Magic Source held)." in reminders(s.state)


def test_fireball_without_a_magic_source_gains_nothing() -> None:
    s = _at_redeployment("Orcs", "Fireball", "royal-bonus")
    assert "Fireball: no Magic Source held, so no new Fireball this turn." in reminders(s.state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_igors_turn_a_batch_as_large_as_the_table_into_one_igor(players: int) -> None:
    s = session(players=players, races=("Igors",), powers=("Hill",),
                expansions=("base", "royal-bonus"))
    s.pick(0)
    assert any(f"Igors: every {players} tokens lost" in r for r in reminders(s.state))


@pytest.mark.parametrize(("race", "power", "expansion", "words"), [
    ("Barbarians", "Hill", "be-not-afraid", "Barbarians: no redeployment"),
    ("Pixies", "Hill", "be-not-afraid", "keep 1 Pixie per region"),
    ("Fauns", "Hill", "royal-bonus", "1 new token per active enemy region"),
    ("Leprechauns", "Hill", "be-not-afraid", "Pot of Gold in each of your regions"),
])
def test_races_the_table_redeploys_by_hand_are_reminded_at_redeployment(
    race: str, power: str, expansion: str, words: str
) -> None:
    s = _at_redeployment(race, power, expansion)
    assert any(words in r for r in reminders(s.state))


@pytest.mark.parametrize(("race", "power", "expansion", "words"), [
    ("Kobolds", "Hill", "cursed", "at least 2 Kobolds"),
    ("Gypsies", "Hill", "grand-dames", "cannot be taken back this turn"),
    ("Orcs", "Hordes of", "cursed", "2 Hordes tokens"),
    ("Orcs", "Marauding", "cursed", "conquer again"),
    ("Orcs", "Catapult", "be-not-afraid", "1 region beyond a neighbour"),
    ("Orcs", "Behemoth", "royal-bonus", "1 token per Swamp you hold"),
])
def test_conquest_rules_the_table_plays_by_hand_are_reminded_while_conquering(
    race: str, power: str, expansion: str, words: str
) -> None:
    s = session(players=2, races=(race,), powers=(power,), expansions=("base", expansion))
    s.pick(0)
    assert any(words in r for r in reminders(s.state))
    s.finish_conquests()
    assert not any(words in r for r in reminders(s.state))
