"""Reminders of what is owed now."""

from __future__ import annotations

from factories import play_turn, session

from companion.rules.reminders import reminders


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
