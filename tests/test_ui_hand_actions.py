"""The table's one-tap redeployments, as a player reads them: Amazons setting their four
aside, River World's rivers left, Ghouls in decline putting their hand back."""

from __future__ import annotations

import dataclasses
import random

from factories import end_turn, finish_redeployment, session
from river_support import river_created
from test_rules_troops import second_turn

from companion.rules.catalog import load_catalog
from companion.rules.river import RiverEvent
from companion.session import Session
from companion.ui.presenters.table import hand_actions


def texts(s: Session) -> list[str]:
    return [action["text"] for action in hand_actions(s.state)]


def test_amazons_with_nothing_in_hand_are_asked_to_take_four_off_the_map() -> None:
    s = session(2, races=("Amazons",), powers=("Alchemist",), troops_counted=True)
    s.pick(0)
    s.conquer(2, tokens=s.state.troops.of(0, "Amazons").hand)  # type: ignore[union-attr]
    s.finish_conquests()
    assert texts(s) == ["Take 4 tokens off the map to set aside"]
    s.spread_hand()
    s.finish_redeployment()  # the four are aside now
    assert s.state.troops.of(0, "Amazons").aside == 4  # type: ignore[union-attr]


def test_a_river_held_at_redeployment_is_left_with_one_tap() -> None:
    s = Session(load_catalog(), rng=random.Random(0))
    s.begin(dataclasses.replace(river_created(RiverEvent.QUIET_WATERS), troops_counted=True))
    s.pick(0)
    for region in (3, 4):  # river 3, then the harbor beside it
        s.conquer(region)
    s.finish_conquests()
    assert texts(s) == ["Leave river 3 and spread the tokens over your regions"]
    s.spread_hand()
    s.finish_redeployment()
    assert s.state.regions[3].occupant is None


def test_ghouls_in_decline_put_their_readied_hand_back_with_the_active_race() -> None:
    s = second_turn("Ghouls", "Merchant", {2: 4, 3: 3})
    s.decline()
    s.score(0)
    end_turn(s)
    s.finish_conquests()  # Bob: his Orcs were readied
    finish_redeployment(s)
    s.score(0)
    end_turn(s)
    s.pick(0)  # Ann's new race; her Ghouls in decline were readied as the turn began
    s.finish_conquests()
    assert texts(s)[-1] == "Ghouls in decline: spread the 5 tokens in hand over your regions"
