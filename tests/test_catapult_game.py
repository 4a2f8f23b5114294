"""The Catapult power played inside a game, through the session: its piece placed in one
of the race's regions, the conquest one region beyond for a token less (once a turn), the
immunity of its region, and the piece leaving with its region or the race's decline.

On the 2-player board Ann's Catapult Humans take region 2 and put the Catapult there:
region 13 (a forest with a Lost Tribe) is one region beyond, over region 7."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from factories import play_turn, session

from companion.rules.codec import from_record
from companion.rules.conquest import assess, conquest_cost
from companion.rules.errors import IllegalAction
from companion.rules.events import RegionConquered, to_record
from companion.rules.game import attacker, catapult_ready
from companion.rules.history import replay
from companion.rules.turns import Phase
from companion.session import Session

BE_NOT_AFRAID = ("base", "be-not-afraid")
HOME, BEYOND = 2, 13


def _catapult_in_region_2() -> Session:
    """Ann (Catapult Humans) holds region 2 with her Catapult in it, still conquering."""
    s = session(players=2, races=("Humans", "Orcs"), powers=("Catapult", "Hill"),
                expansions=BE_NOT_AFRAID)
    s.pick(0)
    s.conquer(HOME, 3)
    s.place_marker(HOME, "catapult")
    return s


def _refused(s: Session, intent: object, words: str) -> None:
    """`intent` (a call on the session) is refused with `words`, and nothing changes."""
    before = s.state
    with pytest.raises(IllegalAction, match=words):
        intent()  # type: ignore[operator]
    assert s.state == before


def _end_turn(s: Session) -> None:
    if s.state.track.phase is Phase.CONQUER:
        s.finish_conquests()
    s.finish_redeployment()
    s.score(0)
    s.end_turn()


def test_the_catapult_conquers_one_region_beyond_for_one_token_less() -> None:
    s = _catapult_in_region_2()
    assert catapult_ready(s.state) == HOME
    who = attacker(s.state)
    shooter = replace(who, use_catapult=True, catapult_at=HOME)
    shot = assess(s.state.map, BEYOND, s.state.regions.regions, shooter)
    usual = conquest_cost(s.state.map, BEYOND, s.state.regions.regions, who)
    assert shot.reach.reachable and shot.cost is not None
    assert shot.cost.total == usual.total - 1 == 2  # 2 + 1 for the Lost Tribe, -1
    # without the Catapult, region 13 is out of reach
    _refused(s, lambda: s.conquer(BEYOND, 3), "does not border")
    s.conquer(BEYOND, 2, catapult=True)
    taken = s.state.regions[BEYOND]
    assert taken.occupant is not None and taken.occupant.seat == 0 and not taken.lost_tribe
    assert s.state.track.this_turn.catapult_used
    assert s.state.regions[HOME].markers.catapult  # the piece stays where it stood


def test_the_catapult_never_shoots_at_a_neighbour_of_its_region() -> None:
    s = _catapult_in_region_2()
    _refused(s, lambda: s.conquer(3, 2, catapult=True), "borders the Catapult's region")


def test_the_catapult_is_used_once_per_turn() -> None:
    s = _catapult_in_region_2()
    s.conquer(BEYOND, 2, catapult=True)
    assert catapult_ready(s.state) is None
    _refused(s, lambda: s.conquer(12, 2, catapult=True), "once per turn")
    # moving the piece does not give a second shot
    s.remove_marker(HOME, "catapult")
    s.place_marker(BEYOND, "catapult")
    _refused(s, lambda: s.conquer(9, 2, catapult=True), "once per turn")
    s.conquer(12, 3)  # the usual conquests go on
    _end_turn(s)
    play_turn(s)  # Bob
    assert s.state.track.seat == 0 and not s.state.track.this_turn.catapult_used
    assert catapult_ready(s.state) == BEYOND  # a new turn, a new shot
    s.conquer(9, 3, catapult=True)  # from 13 over 8 or 14
    assert s.state.regions[9].occupant is not None


def test_a_region_holding_another_players_catapult_cannot_be_conquered() -> None:
    s = _catapult_in_region_2()
    s.conquer(3, 3)
    _end_turn(s)
    s.pick(0)  # Bob: Hill Orcs
    _refused(s, lambda: s.conquer(HOME, 6), "Catapult in region 2 makes it immune")
    assert HOME not in _map_targets(s)
    assert 3 in _map_targets(s)
    s.conquer(3, 5)  # the region beside it, without the Catapult, falls as usual
    assert s.state.regions[3].occupant is not None and s.state.regions[3].occupant.seat == 1


def test_only_a_catapult_race_conquers_with_the_catapult() -> None:
    s = session(players=2, races=("Orcs", "Humans"), powers=("Hill", "Catapult"),
                expansions=BE_NOT_AFRAID)
    s.pick(0)  # Ann: Hill Orcs
    s.conquer(HOME, 3)
    _refused(s, lambda: s.place_marker(HOME, "catapult"), "only an active Catapult race")
    _refused(s, lambda: s.conquer(BEYOND, 2, catapult=True),
             "only a Catapult race conquers with the Catapult, not Hill Orcs")
    # a Catapult race must first put its piece on the board
    t = session(players=2, races=("Humans",), powers=("Catapult",), expansions=BE_NOT_AFRAID)
    t.pick(0)
    t.conquer(HOME, 3)
    assert catapult_ready(t.state) is None
    _refused(t, lambda: t.conquer(BEYOND, 2, catapult=True), "Catapult is not on the board")
    _refused(t, lambda: t.place_marker(BEYOND, "catapult"), "a region your active race holds")


def test_there_is_one_catapult_and_moving_it_is_remove_then_place() -> None:
    s = _catapult_in_region_2()
    s.conquer(3, 3)
    _refused(s, lambda: s.place_marker(3, "catapult"), "already on the board")
    s.remove_marker(HOME, "catapult")
    s.place_marker(3, "catapult")
    assert s.state.regions.catapults() == {3}


def test_the_catapult_leaves_with_its_region() -> None:
    s = _catapult_in_region_2()
    s.conquer(3, 3)
    _end_turn(s)
    play_turn(s)  # Bob
    s.abandon(HOME)  # Ann empties the Catapult's region: the piece goes with it
    assert s.state.regions.catapults() == frozenset()
    s.place_marker(3, "catapult")
    s.set_region(3, 0, "Humans", tokens=4)  # a count corrected: the piece stays
    assert s.state.regions.catapults() == {3}
    s.set_region(3, None)  # the table says nobody holds it: the piece goes
    assert s.state.regions.catapults() == frozenset()
    s.set_region(3, 0, "Humans", tokens=3)
    s.place_marker(3, "catapult")
    _end_turn(s)
    play_turn(s)  # Bob
    s.decline()  # the Catapult disappears when its race goes into decline
    assert s.state.regions.catapults() == frozenset()
    occupant = s.state.regions[3].occupant
    assert occupant is not None and occupant.in_decline


def test_a_catapult_conquest_is_undone_and_replays_the_same() -> None:
    s = _catapult_in_region_2()
    before = s.state
    s.conquer(BEYOND, 2, catapult=True)
    after = s.state
    s.undo()
    assert s.state == before and catapult_ready(s.state) == HOME
    s.conquer(BEYOND, 2, catapult=True)
    assert s.state == after
    assert s.history is not None
    assert replay(s.history.log, s.catalog).state == after
    # the event keeps the Catapult through JSON, and an old record without it reads false
    conquest = next(e for e in s.history.last_step if isinstance(e, RegionConquered))
    assert conquest.catapult
    assert from_record(json.loads(json.dumps(to_record(conquest)))) == conquest
    old = {"type": "region_conquered", "v": 1, "seat": 0, "region": 2, "tokens": 3,
           "mercenary_coin": False, "declined_ghouls": False}
    # (nor the Dragon's conquest: not recorded then, read as that release read it)
    assert from_record(old) == RegionConquered(0, 2, 3, dragon=None)


def test_the_map_offers_the_catapult_with_its_cost() -> None:
    from companion.ui.presenters.base import Context
    from companion.ui.presenters.map import MapPresenter

    s = _catapult_in_region_2()
    board = MapPresenter(Context(session=s))
    s.subscribe(board.update)
    board.update(s.state)
    assert BEYOND in board.highlight  # within the Catapult's reach
    board.tap(BEYOND)
    keys = [a["key"] for a in board.actions]
    assert "conquer" not in keys  # out of the usual reach
    shot = {"key": "catapult:2", "kind": "primary",
            "text": f"Conquer region {BEYOND} with the Catapult (2 tokens)"}
    assert shot in board.actions
    assert {"label": "Catapult", "value": "-1"} in board.cost_lines
    board.tap(3)  # a neighbour: the usual conquest only
    assert "conquer" in [a["key"] for a in board.actions]
    assert not any(a["key"].startswith("catapult:") for a in board.actions)
    board.tap(HOME)
    assert "Lying here: the Catapult." in board.holder_text
    assert {"key": "remove:catapult", "text": "Remove the Catapult"} in board.actions
    board.tap(BEYOND)
    board.act("catapult:2")
    assert s.state.track.this_turn.catapult_used
    assert s.state.regions[BEYOND].occupant is not None
    assert BEYOND not in board.highlight and 12 in board.highlight
    board.tap(9)  # beyond 13 over 8: no second shot this turn
    assert not any(a["key"].startswith("catapult:") for a in board.actions)


def _map_targets(s: Session) -> list[int]:
    from companion.ui.presenters.map import MapPresenter

    return MapPresenter._targets(s.state)
