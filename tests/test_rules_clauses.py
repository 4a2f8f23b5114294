"""The limiting clauses of the rule books, each played through `companion play` (the same
session the touchscreen uses): the allowed use, then the refused one with the rule's reason,
and nothing changed by the refusal. `docs/rules-clauses.md` lists every clause with the test
that proves it (`tests/test_rules_clauses_table.py` keeps the two in step).
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from factories import session
from test_play import POWERS, RACES, game, holder

from companion.cli import main
from companion.rules.codec import from_record
from companion.rules.conquest import conquest_cost
from companion.rules.events import RegionConquered, to_record
from companion.rules.game import apply, attacker, refusal
from companion.rules.history import replay as history_replay
from companion.session import Session

FORTIFIED_ORCS = 3
"""Row of Ann's Fortified Orcs (8 tokens) in the first market of `game()`."""


def play(lines: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    """The printed lines of `companion play -` (the run must reach the end of its input)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(json.dumps(line) + "\n"
                                                         for line in lines)))
    code = main(["play", "-"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return [json.loads(line) for line in out.splitlines()]


def refused_and_unchanged(out: list[dict[str, Any]], index: int) -> str:
    """The reason of the refusal at `index`; the line after it (a no-op note) shows the
    same state as the line before it."""
    assert set(out[index]) == {"refused"}
    assert out[index + 1] == out[index - 1]
    reason: str = out[index]["refused"]
    return reason


NOTHING = {"do": "adjust_coins", "seat": 0, "delta": 0, "reason": "look again"}
"""A line that changes nothing: the state after it is the state before it."""


# --- Fortified -------------------------------------------------------------------------


def test_fortified_places_one_fortress_a_turn(monkeypatch, capsys) -> None:
    lines = [game(), {"do": "pick", "row": FORTIFIED_ORCS},
             {"do": "conquer", "region": 2, "tokens": 2},
             {"do": "place_marker", "region": 2, "marker": "fortress"},
             {"do": "conquer", "region": 3, "tokens": 2},
             {"do": "place_marker", "region": 3, "marker": "fortress"}, NOTHING]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[3], 2)["markers"] == ["fortress"]
    reason = refused_and_unchanged(out, 5)
    assert reason == ("Fortified: one Fortress a turn, as long as the race is active; this "
                      "turn's is already in region 2")
    assert "markers" not in holder(out[6], 3)


TURN_END = [{"do": "finish_conquests"}, {"do": "spread_hand"},
            {"do": "finish_redeployment"}, {"do": "score"}, {"do": "end_turn"}]
"""The rest of a turn after its conquests, as a table plays it."""


def test_fortified_places_its_next_fortress_the_next_turn(monkeypatch, capsys) -> None:
    lines = [game(), {"do": "pick", "row": FORTIFIED_ORCS},
             {"do": "conquer", "region": 2, "tokens": 2},
             {"do": "conquer", "region": 3, "tokens": 2},
             {"do": "place_marker", "region": 2, "marker": "fortress"}, *TURN_END,
             {"do": "pick", "row": 1}, {"do": "conquer", "region": 6}, *TURN_END,
             {"do": "place_marker", "region": 3, "marker": "fortress"}]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[-1], 2)["markers"] == ["fortress"]
    assert holder(out[-1], 3)["markers"] == ["fortress"]


def test_a_fortress_taken_back_out_the_same_turn_may_be_placed_again(monkeypatch,
                                                                     capsys) -> None:
    lines = [game(), {"do": "pick", "row": FORTIFIED_ORCS},
             {"do": "conquer", "region": 2, "tokens": 2},
             {"do": "conquer", "region": 3, "tokens": 2},
             {"do": "place_marker", "region": 2, "marker": "fortress"},
             {"do": "remove_marker", "region": 2, "marker": "fortress"},
             {"do": "place_marker", "region": 3, "marker": "fortress"},
             {"do": "place_marker", "region": 2, "marker": "fortress"}]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[6], 3)["markers"] == ["fortress"]
    assert "markers" not in holder(out[6], 2)
    assert out[7]["refused"].startswith("Fortified: one Fortress a turn")


def test_fortified_is_refused_a_second_fortress_when_the_first_is_undone_and_redone(
        monkeypatch, capsys) -> None:
    lines = [game(), {"do": "pick", "row": FORTIFIED_ORCS},
             {"do": "conquer", "region": 2, "tokens": 2},
             {"do": "conquer", "region": 3, "tokens": 2},
             {"do": "place_marker", "region": 2, "marker": "fortress"},
             {"do": "undo"}, {"do": "place_marker", "region": 3, "marker": "fortress"},
             {"do": "place_marker", "region": 2, "marker": "fortress"}]
    out = play(lines, monkeypatch, capsys)
    assert "markers" not in holder(out[5], 2)  # the undo takes the first one back
    assert holder(out[6], 3)["markers"] == ["fortress"]
    assert out[7]["refused"].endswith("this turn's is already in region 3")


def test_the_decks_hold_what_the_clause_tests_pick() -> None:
    assert (RACES[FORTIFIED_ORCS - 1], POWERS[FORTIFIED_ORCS - 1]) == ("Orcs", "Fortified")


# --- Dragon Master ---------------------------------------------------------------------

DRAGON_POWERS = ["Dragon Master", *[p for p in POWERS if p != "Dragon Master"]]
"""Ann's first combo (row 1) is Dragon Master Humans: 5 + 5 = 10 tokens."""


def dragon_game() -> dict[str, Any]:
    return game(powers=DRAGON_POWERS)


def test_dragon_master_conquers_once_a_turn_with_one_token_whatever_defends(monkeypatch,
                                                                            capsys) -> None:
    # the forest (4) holds a Lost Tribe: 3 tokens by the cost; the mountain (5) costs 3
    lines = [dragon_game(), {"do": "pick", "row": 1},
             {"do": "conquer", "region": 4, "dragon": True},
             {"do": "conquer", "region": 5, "dragon": True}, NOTHING]
    out = play(lines, monkeypatch, capsys)
    assert out[1]["players"][0]["active"]["power"] == "Dragon Master"
    assert holder(out[2], 4) == {"region": 4, "seat": 0, "race": "Humans",
                                 "in_decline": False, "tokens": 1, "markers": ["dragon"]}
    assert out[2]["players"][0]["active"]["hand"] == 9
    reason = refused_and_unchanged(out, 3)
    assert reason == ("Dragon Master: the Dragon conquers once a turn, and it took region 4 "
                      "this turn")


def test_a_dragon_master_conquest_without_the_dragon_pays_its_whole_cost(monkeypatch,
                                                                          capsys) -> None:
    lines = [dragon_game(), {"do": "pick", "row": 1},
             {"do": "conquer", "region": 4, "tokens": 1}, NOTHING,
             {"do": "conquer", "region": 4, "tokens": 3}]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 2) == "region 4 costs 3 tokens; 1 are not enough"
    assert holder(out[4], 4)["tokens"] == 3
    assert "markers" not in holder(out[4], 4)  # an ordinary conquest: no Dragon



def test_the_dragon_conquers_with_exactly_one_token(monkeypatch, capsys) -> None:
    lines = [dragon_game(), {"do": "pick", "row": 1},
             {"do": "conquer", "region": 4, "dragon": True, "tokens": 3}, NOTHING,
             {"do": "conquer", "region": 4, "dragon": True, "tokens": 1}]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 2) == "the Dragon conquers with 1 token, not 3"
    assert holder(out[4], 4)["tokens"] == 1


def test_the_dragon_moves_to_its_next_turns_conquest_and_leaves_the_last(monkeypatch,
                                                                         capsys) -> None:
    lines = [dragon_game(), {"do": "pick", "row": 1},
             {"do": "conquer", "region": 4, "dragon": True}, *TURN_END,
             {"do": "pick", "row": 1}, {"do": "conquer", "region": 6}, *TURN_END,
             {"do": "conquer", "region": 5, "dragon": True}]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[-2], 4)["markers"] == ["dragon"]
    assert "markers" not in holder(out[-1], 4)
    assert holder(out[-1], 5)["markers"] == ["dragon"]
    assert holder(out[-1], 5)["tokens"] == 1


def test_the_dragons_region_is_immune_to_other_players(monkeypatch, capsys) -> None:
    lines = [dragon_game(), {"do": "pick", "row": 1},
             {"do": "conquer", "region": 6, "dragon": True}, *TURN_END,
             {"do": "pick", "row": 1}, {"do": "conquer", "region": 6, "tokens": 5}, NOTHING]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, -2) == "the Dragon protects region 6"


def test_only_a_dragon_master_race_conquers_with_the_dragon(monkeypatch, capsys) -> None:
    lines = [game(), {"do": "pick", "row": 1},
             {"do": "conquer", "region": 4, "dragon": True}, NOTHING]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 2) == ("only an active Dragon Master race conquers with "
                                             "the Dragon, not Alchemist Humans")


def test_the_dragons_conquest_still_keeps_to_the_regions_it_may_attack(monkeypatch,
                                                                       capsys) -> None:
    # the mountain (5) does not touch the board's edge: no first conquest there
    lines = [dragon_game(), {"do": "pick", "row": 1},
             {"do": "conquer", "region": 5, "dragon": True}, NOTHING,
             {"do": "conquer", "region": 1, "dragon": True}, NOTHING]
    out = play(lines, monkeypatch, capsys)
    assert "refused" in out[2] and out[3] == out[1]
    assert refused_and_unchanged(out, 4) == ("region 1 is a sea: only a Seafaring race may "
                                             "take it")


def _dragon_master_humans() -> Session:
    """Ann has just picked Dragon Master Humans (10 tokens) on the 2-player board."""
    s = session(2, races=["Humans"], powers=["Dragon Master"], troops_counted=True)
    s.pick(0)
    return s


def _dearest_target(s: Session) -> tuple[int, int]:
    """A region Ann may attack now and its cost, the dearest of them."""
    state = s.state
    who = attacker(state)
    costs = {rid: conquest_cost(state.map, rid, state.regions.regions, who).total
             for rid in sorted(state.map.regions)
             if refusal(state, RegionConquered(0, rid, dragon=True)) is None}
    rid = max(costs, key=lambda r: (costs[r], -r))
    return rid, costs[rid]


def test_a_dragon_conquest_saved_by_an_earlier_release_still_replays() -> None:
    s = _dragon_master_humans()
    rid, cost = _dearest_target(s)
    assert cost > 1
    old = {"type": "region_conquered", "v": 2, "seat": 0, "region": rid, "tokens": 1,
           "mercenary_coin": False, "declined_ghouls": False, "catapult": False,
           "sorcery": False}
    event = from_record(old)
    assert event == RegionConquered(0, rid, 1, dragon=None)
    assert history_replay((*s.history.log, (event,)), s.catalog)  # type: ignore[union-attr]
    after = apply(s.state, event)
    assert after.regions[rid].occupant is not None
    assert after.regions[rid].occupant.tokens == 1
    assert not after.regions[rid].markers.dragon  # that release placed it by hand
    # written today, the same conquest says it is not the Dragon's, and is refused
    assert to_record(RegionConquered(0, rid, 1))["dragon"] is False
    assert str(refusal(s.state, RegionConquered(0, rid, 1))) == (
        f"region {rid} costs {cost} tokens; 1 are not enough")


def test_the_dragon_conquest_is_recorded_and_replays_the_same() -> None:
    s = _dragon_master_humans()
    rid, _ = _dearest_target(s)
    s.conquer(rid, dragon=True)
    assert s.history is not None
    conquest = next(e for e in s.history.last_step if isinstance(e, RegionConquered))
    assert conquest.dragon is True
    assert from_record(json.loads(json.dumps(to_record(conquest)))) == conquest
    assert history_replay(s.history.log, s.catalog).state == s.state
    assert s.state.track.this_turn.dragon_took == rid


def test_the_dragon_leaves_the_board_when_its_race_goes_into_decline(monkeypatch,
                                                                     capsys) -> None:
    lines = [dragon_game(), {"do": "pick", "row": 1},
             {"do": "conquer", "region": 4, "dragon": True}, *TURN_END,
             {"do": "pick", "row": 1}, {"do": "conquer", "region": 6}, *TURN_END,
             {"do": "decline"}]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[-2], 4)["markers"] == ["dragon"]
    assert holder(out[-1], 4)["in_decline"] is True
    assert "markers" not in holder(out[-1], 4)


# --- Halflings -------------------------------------------------------------------------

HALFLINGS = ["Halflings", *[r for r in RACES if r != "Halflings"]]
"""Ann's first combo (row 1) is Alchemist Halflings: 6 + 4 = 10 tokens."""


def test_halflings_put_their_holes_only_in_the_first_two_regions_they_conquer(
        monkeypatch, capsys) -> None:
    lines = [game(races=HALFLINGS), {"do": "pick", "row": 1},
             {"do": "conquer", "region": 2, "tokens": 2},
             {"do": "conquer", "region": 3, "tokens": 2},
             {"do": "conquer", "region": 4, "tokens": 3},
             {"do": "place_marker", "region": 4, "marker": "hole_in_the_ground"}, NOTHING,
             {"do": "place_marker", "region": 2, "marker": "hole_in_the_ground"},
             {"do": "place_marker", "region": 3, "marker": "hole_in_the_ground"}]
    out = play(lines, monkeypatch, capsys)
    assert out[1]["players"][0]["active"]["race"] == "Halflings"
    reason = refused_and_unchanged(out, 5)
    assert reason == ("Halflings: a Hole-in-the-Ground goes only in the first 2 regions they "
                      "conquered (2, 3), not region 4")
    assert "markers" not in holder(out[6], 4)
    assert holder(out[8], 2)["markers"] == ["hole_in_the_ground"]
    assert holder(out[8], 3)["markers"] == ["hole_in_the_ground"]


def test_a_halflings_hole_waits_for_a_region_they_have_conquered(monkeypatch, capsys) -> None:
    # one conquest the first turn, the second the next: each takes its Hole when it comes
    lines = [game(races=HALFLINGS), {"do": "pick", "row": 1},
             {"do": "conquer", "region": 2, "tokens": 2},
             {"do": "place_marker", "region": 2, "marker": "hole_in_the_ground"}, *TURN_END,
             {"do": "pick", "row": 1}, {"do": "conquer", "region": 6}, *TURN_END,
             {"do": "conquer", "region": 4, "tokens": 3},
             {"do": "place_marker", "region": 4, "marker": "hole_in_the_ground"},
             {"do": "conquer", "region": 3, "tokens": 2},
             {"do": "remove_marker", "region": 4, "marker": "hole_in_the_ground"},
             {"do": "place_marker", "region": 3, "marker": "hole_in_the_ground"}]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[3], 2)["markers"] == ["hole_in_the_ground"]
    assert holder(out[-4], 4)["markers"] == ["hole_in_the_ground"]
    # the third region conquered takes no Hole, even with one back in the box
    assert out[-1]["refused"].endswith("(2, 4), not region 3")


# --- The pieces' owners ----------------------------------------------------------------


def test_only_the_power_a_piece_belongs_to_places_it_and_the_refusal_names_it_well(
        monkeypatch, capsys) -> None:
    # Ann plays Alchemist Humans: an Encampment is Bivouacking's; the Fortified Orcs' Fortress
    lines = [game(), {"do": "pick", "row": 1}, {"do": "conquer", "region": 2, "tokens": 2},
             {"do": "place_marker", "region": 2, "marker": "encampment"}, NOTHING]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 3) == ("only an active Bivouacking race places an "
                                             "Encampment")
