"""`companion play`: a whole game from JSON lines, through the real command.

Each test feeds lines to `companion play -` (the CLI entry point, standard input) and reads
back one JSON line per input line; a malformed line must stop the run with status 2 and one
line on stderr naming the line number and the field.
"""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.play import VERBS
from companion.play import play as play_lines
from companion.rules.catalog import load_catalog

POCKET: dict[str, Any] = {
    "schema": 1, "name": "Pocket", "players": 2, "turns": 3, "regions": [
        {"id": 1, "terrain": "sea", "features": [], "lost_tribe": False, "border": True,
         "entry": False, "coastal": False, "adjacent": [2, 3]},
        {"id": 2, "terrain": "farmland", "features": [], "lost_tribe": False, "border": True,
         "entry": True, "coastal": True, "adjacent": [1, 3, 4]},
        {"id": 3, "terrain": "hill", "features": ["mine"], "lost_tribe": False, "border": True,
         "entry": True, "coastal": True, "adjacent": [1, 2, 5]},
        {"id": 4, "terrain": "forest", "features": [], "lost_tribe": True, "border": True,
         "entry": True, "coastal": False, "adjacent": [2, 5, 6]},
        {"id": 5, "terrain": "mountain", "features": ["cavern"], "lost_tribe": False,
         "border": False, "entry": False, "coastal": False, "adjacent": [3, 4, 6]},
        {"id": 6, "terrain": "swamp", "features": ["magic"], "lost_tribe": False,
         "border": True, "entry": True, "coastal": False, "adjacent": [4, 5]},
    ]}
RACES = ["Humans", "Dwarves", "Orcs", "Elves", "Giants", "Trolls", "Amazons", "Ghouls",
         "Halflings", "Ratmen", "Skeletons", "Sorcerers", "Tritons", "Wizards"]
POWERS = ["Alchemist", "Hill", "Fortified", "Forest", "Mounted", "Heroic", "Berserk",
          "Bivouacking", "Commando", "Diplomat", "Dragon Master", "Flying", "Merchant",
          "Pillaging", "Seafaring", "Spirit", "Stout", "Swamp", "Underworld", "Wealthy"]


DELTA: dict[str, Any] = {
    "schema": 1, "name": "Delta", "players": 2, "turns": 3, "regions": [
        {"id": 1, "terrain": "sea", "features": [], "lost_tribe": False, "border": True,
         "entry": False, "coastal": False, "adjacent": [2, 3]},
        {"id": 2, "terrain": "farmland", "features": ["harbor"], "lost_tribe": False,
         "border": True, "entry": True, "coastal": True, "adjacent": [1, 3, 4]},
        {"id": 3, "terrain": "river", "features": [], "lost_tribe": False, "border": True,
         "entry": True, "coastal": True, "pirate": True, "adjacent": [1, 2, 4, 5]},
        {"id": 4, "terrain": "hill", "features": ["shipyard"], "lost_tribe": False,
         "border": True, "entry": True, "coastal": False, "adjacent": [2, 3, 5, 6]},
        {"id": 5, "terrain": "river", "features": [], "lost_tribe": False, "border": True,
         "entry": True, "coastal": False, "adjacent": [3, 4, 6]},
        {"id": 6, "terrain": "forest", "features": [], "lost_tribe": False, "border": True,
         "entry": True, "coastal": False, "adjacent": [4, 5]},
    ]}
"""A River World board: a pirate symbol on river 3, the Shipyard on the hill (4)."""
EVENTS = ["Quiet waters", "Storm", "Pirates"]


def game(**fields: Any) -> dict[str, Any]:
    """The first line: Ann and Bob on Pocket, decks in the order above, the die given."""
    line: dict[str, Any] = {"players": ["Ann", "Bob"], "board": POCKET, "races": RACES,
                            "powers": POWERS, "die": [2, 0]}
    line.update(fields)
    return {k: v for k, v in line.items() if v is not None}


def as_text(lines: list[Any]) -> str:
    return "".join((line if isinstance(line, str) else json.dumps(line)) + "\n"
                   for line in lines)


def play(lines: list[Any], monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]], str]:
    """Exit status, the printed lines (decoded) and stderr of `companion play -`."""
    monkeypatch.setattr("sys.stdin", io.StringIO(as_text(lines)))
    code = main(["play", "-"])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


ANN_CONQUERS = [game(), {"do": "pick", "row": 1}, {"do": "conquer", "region": 2, "tokens": 2}]
ANN_HAS_ONE_LEFT = [game(), {"do": "pick", "row": 1}, {"do": "conquer", "region": 2, "tokens": 8}]
"""Ann's Alchemist Humans (9 tokens) hold the farmland with 8: one token left in hand."""
TURN = [{"do": "finish_conquests"}, {"do": "spread_hand"}, {"do": "finish_redeployment"},
        {"do": "score"}, {"do": "end_turn"}]
"""The rest of a turn: the tokens in hand spread over the race's regions, then scored."""


def holder(state: dict[str, Any], region: int) -> dict[str, Any] | None:
    return next((r for r in state["regions"] if r["region"] == region), None)


# --- a game goes on --------------------------------------------------------------------


def test_each_line_prints_the_public_state_after_it(monkeypatch, capsys) -> None:
    code, out, err = play(ANN_CONQUERS, monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert len(out) == 3
    assert out[0]["phase"] == "pick_combo"
    assert [row["race"] for row in out[0]["market"]] == RACES[:6]
    assert [row["power"] for row in out[0]["market"]] == POWERS[:6]
    assert out[1]["players"][0]["active"] == {"race": "Humans", "power": "Alchemist",
                                              "on_board": 0, "hand": 9, "aside": 0, "tray": 0}
    assert out[2]["players"][0]["active"]["hand"] == 7  # 2 tokens went into the farmland
    assert holder(out[2], 2) == {"region": 2, "seat": 0, "race": "Humans",
                                 "in_decline": False, "tokens": 2}
    assert holder(out[2], 4) == {"region": 4, "lost_tribe": True}


def test_no_purse_is_printed_before_the_game_is_over(monkeypatch, capsys) -> None:
    _, out, _ = play([*ANN_CONQUERS, *TURN[:4]], monkeypatch, capsys)
    assert out[-1]["phase"] == "finished"
    assert all("coins" not in player for state in out for player in state["players"])


def test_a_note_is_allowed_on_any_line_and_changes_nothing(monkeypatch, capsys) -> None:
    noted = [{**line, "note": "from our notebook"} for line in ANN_CONQUERS]
    _, with_notes, _ = play(noted, monkeypatch, capsys)
    _, without, _ = play(ANN_CONQUERS, monkeypatch, capsys)
    assert with_notes == without


def test_players_without_a_colour_get_the_first_free_ones(monkeypatch, capsys) -> None:
    first = game(players=[{"name": "Ann"}, {"name": "Bob", "colour": "blue"}])
    _, out, _ = play([first], monkeypatch, capsys)
    assert [p["colour"] for p in out[0]["players"]] == ["orange", "blue"]


def test_a_seed_shuffles_the_decks_left_out_the_same_way_every_time(monkeypatch,
                                                                    capsys) -> None:
    seeded = game(races=None, powers=None, seed=11)
    _, first, _ = play([seeded], monkeypatch, capsys)
    _, again, _ = play([seeded], monkeypatch, capsys)
    _, other, _ = play([{**seeded, "seed": 12}], monkeypatch, capsys)
    assert first == again
    assert first[0]["market"] != other[0]["market"]


def test_the_same_input_prints_the_same_output(monkeypatch, capsys) -> None:
    lines = [*ANN_HAS_ONE_LEFT, {"do": "final_conquest", "region": 3}, *TURN[1:]]
    monkeypatch.setattr("sys.stdin", io.StringIO(as_text(lines)))
    assert main(["play", "-"]) == 0
    once = capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO(as_text(lines)))
    assert main(["play", "-"]) == 0
    assert capsys.readouterr().out == once
    assert len(once.splitlines()) == len(lines)


def test_table_dealing_waits_for_each_combo_to_be_revealed(monkeypatch, capsys) -> None:
    first = game(dealing="table", races=None, powers=None)
    _, out, _ = play([first, {"do": "reveal", "race": "ratmen", "power": "flying"}],
                     monkeypatch, capsys)
    assert (out[0]["market"], out[0]["combos_owed"]) == ([], 6)
    assert out[1]["market"][0]["race"] == "Ratmen"
    assert out[1]["combos_owed"] == 5


def test_berserk_rolls_before_a_conquest_and_the_face_comes_off_its_cost(monkeypatch,
                                                                         capsys) -> None:
    berserk = ["Berserk", *[p for p in POWERS if p != "Berserk"]]
    lines = [game(powers=berserk, die=[2, 3]), {"do": "pick", "row": 1},
             {"do": "roll_for_berserk"}, {"do": "roll_for_berserk"},
             {"do": "conquer", "region": 4}]
    _, out, _ = play(lines, monkeypatch, capsys)
    assert out[1]["players"][0]["active"]["power"] == "Berserk"
    assert out[2]["last_roll"] == 2
    assert "refused" in out[3]  # one roll before each conquest
    assert holder(out[4], 4)["tokens"] == 1  # the forest's cost of 3, less the 2 rolled


def test_the_final_conquest_rolls_the_next_face_given(monkeypatch, capsys) -> None:
    _, out, _ = play([*ANN_HAS_ONE_LEFT, {"do": "final_conquest", "region": 3}],
                     monkeypatch, capsys)
    assert out[-1]["last_roll"] == 2  # 1 token + 2 covers the hill's cost of 2
    assert holder(out[-1], 3) == {"region": 3, "seat": 0, "race": "Humans",
                                  "in_decline": False, "tokens": 1}
    assert out[-1]["phase"] == "redeploy"


def test_a_whole_game_ends_with_the_totals_and_the_standings(monkeypatch, capsys) -> None:
    lines = [game(), {"do": "pick", "row": 1}, {"do": "conquer", "region": 2, "tokens": 2},
             *TURN, {"do": "pick", "row": 1}, {"do": "conquer", "region": 6, "tokens": 2},
             *TURN, *TURN, *TURN, *TURN, *TURN, {"do": "finish"}]
    code, out, _ = play(lines, monkeypatch, capsys)
    assert code == 0
    assert out[-2]["phase"] == "game_over"
    # Ann: 5 to start, then 3 turns of farmland + Humans' farmland + Alchemist (1 + 1 + 2);
    # Bob: 5 to start, then 3 turns of one swamp (the Hill Dwarves hold no hill or mine)
    assert [p["coins"] for p in out[-2]["players"]] == [17, 8]
    assert out[-1]["standings"] == {
        "placings": [{"rank": 1, "seat": 0, "name": "Ann", "coins": 17, "tokens": None},
                     {"rank": 2, "seat": 1, "name": "Bob", "coins": 8, "tokens": None}],
        "winners": [0], "reason": "Ann wins with 17 coins"}


def test_a_tie_for_first_is_broken_by_the_tokens_the_board_records(monkeypatch,
                                                                   capsys) -> None:
    # Ann's 9 Humans all end in the farmland, Bob's 7 Dwarves in the swamp
    lines = [game(), {"do": "pick", "row": 1}, {"do": "conquer", "region": 2},
             *TURN, {"do": "pick", "row": 1}, {"do": "conquer", "region": 6},
             *TURN, *TURN, *TURN, *TURN, *TURN,
             {"do": "adjust_coins", "seat": 1, "delta": 9, "reason": "coins miscounted"},
             {"do": "finish"}, {"do": "finish", "tokens": {"0": 4, "1": 8}}]
    _, out, _ = play(lines, monkeypatch, capsys)
    assert [p["coins"] for p in out[-3]["players"]] == [17, 17]
    standings = out[-2]["standings"]
    assert standings["winners"] == [0]
    assert [(p["name"], p["tokens"]) for p in standings["placings"]] == [("Ann", 9),
                                                                          ("Bob", 7)]
    assert standings["reason"] == ("Ann and Bob tie on 17 coins; Ann wins with 9 race tokens "
                                   "on the board (Bob: 7)")
    # counts given by seat are taken as the table gives them
    assert out[-1]["standings"]["winners"] == [1]


def test_corrections_reach_the_board_and_the_purse(monkeypatch, capsys) -> None:
    lines = [*ANN_CONQUERS,
             {"do": "set_region", "region": 6, "seat": 0, "race": "Humans", "tokens": 3},
             {"do": "set_region", "region": 2, "seat": None},
             {"do": "adjust_coins", "seat": 0, "delta": -99, "reason": "too many"}]
    _, out, _ = play(lines, monkeypatch, capsys)
    assert holder(out[3], 6) == {"region": 6, "seat": 0, "race": "Humans",
                                 "in_decline": False, "tokens": 3}
    assert holder(out[4], 2) is None
    assert out[5] == {"refused": "Ann cannot give back 99 coins: a purse is never negative"}


def test_a_marker_placed_shows_in_its_region(monkeypatch, capsys) -> None:
    lines = [game(), {"do": "pick", "row": 3}, {"do": "conquer", "region": 2, "tokens": 2},
             {"do": "finish_conquests"},
             {"do": "place_marker", "region": 2, "marker": "fortress"},
             {"do": "remove_marker", "region": 2, "marker": "fortress"}]
    _, out, _ = play(lines, monkeypatch, capsys)
    assert out[1]["players"][0]["active"]["power"] == "Fortified"
    assert holder(out[4], 2)["markers"] == ["fortress"]
    assert "markers" not in holder(out[5], 2)


def test_a_decline_sends_the_race_to_the_declined_list(monkeypatch, capsys) -> None:
    lines = [*ANN_CONQUERS, *TURN, {"do": "pick", "row": 1}, *TURN, {"do": "decline"}]
    _, out, _ = play(lines, monkeypatch, capsys)
    ann = out[-1]["players"][0]
    assert ann["active"] is None
    # one token stays in the region, the other 8 go back to the tray
    assert ann["declined"] == [{"race": "Humans", "power": "Alchemist", "on_board": 1,
                                "hand": 0, "aside": 0, "tray": 8}]
    assert holder(out[-1], 2)["in_decline"] is True
    assert out[-1]["phase"] == "score"


def test_a_river_world_board_plays_its_events_ships_and_caravel(monkeypatch, capsys) -> None:
    lines = [game(board=DELTA, river_events=EVENTS), {"do": "pick", "row": 1},
             {"do": "conquer", "region": 4, "tokens": 3},
             {"do": "place_caravel", "region": 5},
             {"do": "conquer", "region": 3, "tokens": 2},
             {"do": "set_pirate_ship", "region": 5, "present": True},
             *TURN, {"do": "pick", "row": 1}, *TURN]
    code, out, _ = play(lines, monkeypatch, capsys)
    assert code == 0
    assert out[0]["river"] == {"event": "Quiet waters", "revealed": ["Quiet waters"],
                               "face_down": 2, "river_cost": 1, "pirate_ships": [3],
                               "caravel": None}
    assert holder(out[0], 3) == {"region": 3, "markers": ["pirate_ship"]}
    assert out[3]["river"]["caravel"] == 5
    assert out[4]["river"]["pirate_ships"] == []  # the ship in river 3 was sunk
    assert holder(out[5], 5) == {"region": 5, "markers": ["pirate_ship"]}
    assert out[-1]["turn"] == 2
    assert out[-1]["river"]["event"] == "Storm"
    assert out[-1]["river"]["river_cost"] == 3


def test_a_river_world_line_left_out_is_shuffled_by_the_seed(monkeypatch, capsys) -> None:
    _, out, _ = play([game(board=DELTA, seed=5)], monkeypatch, capsys)
    _, again, _ = play([game(board=DELTA, seed=5)], monkeypatch, capsys)
    assert out == again
    assert out[0]["river"]["face_down"] == 2
    assert out[0]["river"]["event"] in {"Quiet waters", "Storm", "Harsh Winter", "Pirates"}


def test_a_game_without_river_world_shows_no_river(monkeypatch, capsys) -> None:
    _, out, _ = play([game()], monkeypatch, capsys)
    assert out[0]["river"] is None


def test_necromancer_island_deals_him_six_powers_and_shows_his_ghosts(monkeypatch,
                                                                     capsys) -> None:
    first = game(players=["Ann", "Bob", "Cy"], board=None, necromancer=True,
                 powers=["Spirit", *[p for p in POWERS if p != "Spirit"]])
    lines = [first, {"do": "buy_ghost"}, {"do": "pick", "row": 1}, *TURN,
             {"do": "pick", "row": 1}, *TURN, {"do": "buy_ghost"}]
    code, out, _ = play(lines, monkeypatch, capsys)
    assert code == 0
    assert out[0]["turns"] == 10  # three at the table play on the 2-player board
    necro = out[0]["necromancer"]
    assert necro["seat"] == 2  # to the right of the first player: he plays last
    # Spirit is passed over (he may not have it) and stays on top of the market's stack
    assert [necro["powers_in_use"], necro["powers_in_reserve"]] == [
        ["Alchemist"], ["Hill", "Fortified", "Forest", "Mounted", "Heroic"]]
    assert out[0]["market"][0]["power"] == "Spirit"
    assert out[1] == {"refused": "only the Necromancer (Cy) can buy a Ghost"}
    assert out[-1]["player"] == "Cy"
    assert (out[-1]["necromancer"]["island"], out[-1]["necromancer"]["reserve"]) == (
        necro["island"] + 1, necro["reserve"] - 1)
    assert all("coins" not in player for state in out if "players" in state
               for player in state["players"])


def test_team_play_sets_out_the_monsters_before_the_first_turn(monkeypatch, capsys) -> None:
    first = game(players=["A1", "B1", "C1", "A2", "B2", "C2"], board=None, teams=True,
                 seed=3, races=None, powers=None)
    code, out, _ = play([first, {"do": "pick", "row": 1},
                         {"do": "place_monster", "region": 6}], monkeypatch, capsys)
    assert code == 0
    shown = out[0]["teams"]
    assert shown["teams"] == [{"team": "A", "seats": [0, 3]}, {"team": "B", "seats": [1, 4]},
                              {"team": "C", "seats": [2, 5]}]
    assert (shown["monster_next"], shown["monsters"], shown["face_down"]) == (1, [], 5)
    assert out[1] == {"refused": "the Monsters go out before the first turn: B1 sets theirs "
                                 "(or passes) first"}
    assert (out[2]["teams"]["monster_next"], out[2]["teams"]["monsters"]) == (2, [6])


def test_a_conquest_takes_its_tokens_from_the_hand_never_more(monkeypatch, capsys) -> None:
    _, out, _ = play([*ANN_CONQUERS, {"do": "conquer", "region": 4, "tokens": 8},
                      {"do": "conquer", "region": 4}], monkeypatch, capsys)
    assert "refused" in out[3] and "7" in out[3]["refused"]  # the hand holds 7
    assert holder(out[4], 4)["tokens"] == 3  # the cost when not given: 2 + the Lost Tribe
    assert out[4]["players"][0]["active"]["hand"] == 4


def test_redeployment_empties_the_hand_before_the_turn_is_scored(monkeypatch, capsys) -> None:
    _, out, _ = play([*ANN_CONQUERS, {"do": "finish_conquests"},
                      {"do": "finish_redeployment"},
                      {"do": "redeploy", "regions": {"2": 5}},
                      {"do": "redeploy", "regions": {"2": 9}},
                      {"do": "finish_redeployment"}], monkeypatch, capsys)
    assert out[4] == {"refused": "7 Humans tokens are still in hand: put them in your "
                                 "regions first"}
    assert out[5]["players"][0]["active"]["hand"] == 4  # what is not placed stays in hand
    assert out[6]["players"][0]["active"]["hand"] == 0
    assert holder(out[6], 2)["tokens"] == 9
    assert out[7]["phase"] == "score"


def test_a_defender_puts_back_the_tokens_in_hand_before_the_turn_ends(monkeypatch,
                                                                     capsys) -> None:
    lines = [*ANN_CONQUERS, {"do": "conquer", "region": 4, "tokens": 3}, *TURN,
             {"do": "pick", "row": 1}, {"do": "conquer", "region": 4, "tokens": 6},
             *TURN[:4], {"do": "end_turn"},
             {"do": "redeploy", "seat": 0, "race": "Humans", "regions": {"2": 8}},
             {"do": "end_turn"}]
    _, out, _ = play(lines, monkeypatch, capsys)
    taken = out[10]
    ann = taken["players"][0]["active"]
    assert holder(taken, 4)["race"] == "Dwarves"
    # Ann's forest held 4 after her spread: one to the tray, the other 3 back in her hand
    assert taken["hands_to_place"] == [{"seat": 0, "race": "Humans", "hand": 3}]
    assert (ann["hand"], ann["tray"]) == (3, 1)
    assert out[-3] == {"refused": "Ann's Humans have 3 tokens in hand: put them in their "
                                  "regions before the turn ends"}
    assert holder(out[-2], 2)["tokens"] == 8
    assert out[-2]["hands_to_place"] == []
    assert out[-1]["player"] == "Ann"


# --- undo ------------------------------------------------------------------------------


def test_undo_takes_back_the_last_conquest(monkeypatch, capsys) -> None:
    _, out, _ = play([*ANN_CONQUERS, {"do": "conquer", "region": 4, "tokens": 3},
                      {"do": "undo"}], monkeypatch, capsys)
    assert out[-1] == out[-3]


def test_undo_does_not_take_back_a_die_roll(monkeypatch, capsys) -> None:
    _, out, _ = play([*ANN_HAS_ONE_LEFT, {"do": "final_conquest", "region": 3},
                      {"do": "undo"}], monkeypatch, capsys)
    assert out[-1] == {"refused": "the last action cannot be undone: a die roll, a reshuffle "
                                  "or the end of a turn"}


def test_redo_puts_back_what_undo_took_back_until_anything_else_is_done(
        monkeypatch, capsys) -> None:
    conquest = {"do": "conquer", "region": 4, "tokens": 3}
    _, out, _ = play([*ANN_CONQUERS, conquest, {"do": "undo"}, {"do": "redo"}, {"do": "undo"},
                      conquest, {"do": "redo"}], monkeypatch, capsys)
    assert out[-4] == out[-6] != out[-5]  # the redo: as after the conquest
    assert out[-2] == out[-6]  # the conquest made again, after which there is no redo
    assert out[-1] == {"refused": "there is nothing to redo: something else happened since "
                                  "the undo, or nothing was taken back"}


# --- refusals --------------------------------------------------------------------------


@pytest.mark.parametrize(("intent", "reason"), [
    ({"do": "end_turn"}, "Ann cannot end the turn now; the turn is at: conquer"),
    ({"do": "abandon", "region": 2},
     "region 2 was conquered this turn; regions are abandoned before conquering, when the "
     "troops are readied"),
    ({"do": "conquer", "region": 9}, "unknown region 9; allowed: 1..6"),
    ({"do": "pick", "row": 2}, "Ann has already picked a combo this turn"),
    ({"do": "finish"}, "totals are revealed only at the end of the game"),
    ({"do": "conquer", "region": 3, "ghouls": True},
     "Ann has no Ghouls in decline to conquer with"),
    ({"do": "conquer", "region": 3, "catapult": True},
     "only a Catapult race conquers with the Catapult, not Alchemist Humans"),
    ({"do": "conquer", "region": 3, "sorcery": True},
     "only active Sorcerers replace a lone token with one of theirs"),
    ({"do": "conquer", "region": 3, "mercenary_coin": True},
     "only Mercenary races spend a coin to conquer with fewer tokens"),
    ({"do": "decline", "ivory_tower": 2},
     "a race goes into decline at the start of a turn, instead of conquering"),
    ({"do": "reveal", "race": "Ratmen", "power": "Flying"},
     "the market already shows 6 combos"),
])
def test_a_refused_intent_prints_its_reason_changes_nothing_and_the_run_goes_on(
        intent: dict[str, Any], reason: str, monkeypatch, capsys) -> None:
    code, out, err = play([*ANN_CONQUERS, intent, {"do": "finish_conquests"}],
                          monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert out[3] == {"refused": reason}
    assert out[4]["phase"] == "redeploy"
    assert {**out[4], "phase": "conquer"} == out[2]  # nothing else moved


def test_a_roll_with_no_face_left_is_refused_never_made_up(monkeypatch, capsys) -> None:
    _, out, _ = play([game(die=[]), *ANN_HAS_ONE_LEFT[1:],
                      {"do": "final_conquest", "region": 3}], monkeypatch, capsys)
    assert out[3] == {"refused": 'no die face is left: the first line\'s "die" gave 0 faces '
                                 'and all are rolled; add faces to "die"'}


def test_a_refused_conquest_gives_back_the_pygmies_face_it_drew(monkeypatch, capsys) -> None:
    # the Pygmies' roll for a token lost is drawn before the conquest is checked
    sets = ["base", "be-not-afraid"]
    catalog = load_catalog()
    races = ["Humans", "Pygmies"]
    races += [r.name for r in catalog.races_in(sets) if r.name not in races]
    powers = ["Alchemist", "Hill"]
    powers += [p.name for p in catalog.powers_in(sets) if p.name not in powers]
    lines = [game(expansions=sets, races=races, powers=powers, die=[2]),
             {"do": "pick", "row": 1}, {"do": "conquer", "region": 2, "tokens": 2}, *TURN,
             {"do": "pick", "row": 1}, {"do": "conquer", "region": 4},
             {"do": "conquer", "region": 6}, *TURN,
             {"do": "conquer", "region": 4, "tokens": 1}, {"do": "conquer", "region": 4}]
    _, out, _ = play(lines, monkeypatch, capsys)
    assert out[-3]["players"][1]["active"]["race"] == "Pygmies"
    assert "refused" in out[-2]
    taken = out[-1]
    assert "refused" not in taken, taken  # the face was still there for the Pygmies
    assert holder(taken, 4)["race"] == "Humans"
    pygmies = taken["players"][1]["active"]
    before = out[-3]["players"][1]["active"]
    # one Pygmy to the tray, the others back in hand, and 2 new ones (the face given)
    assert pygmies["hand"] == before["hand"] + holder(out[-3], 4)["tokens"] - 1 + 2


# --- malformed input -------------------------------------------------------------------


@pytest.mark.parametrize(("lines", "message"), [
    ([game(), "{not json"], "line 2: not JSON: Expecting property name enclosed in "
                            "double quotes at column 2; each line is one JSON object"),
    ([game(), {"do": "attack"}], 'line 2: do: unknown verb "attack"; the verbs are: pick,'),
    ([game(), {"row": 1}], "line 2: do: missing; the verbs are: pick,"),
    ([game(), {"do": "pick", "row": 1}, {"do": "conquer"}],
     "line 3: region: missing; conquer needs region: a region id of the board (1 or more)"),
    ([game(), {"do": "pick", "row": 1}, {"do": "conquer", "region": 2, "tokens": "4"}],
     'line 3: tokens: expected a whole number, got "4"'),
    ([game(), {"do": "pick", "row": 0}], "line 2: row: 0 is too small; the least allowed is 1"),
    ([game(), {"do": "end_turn", "note": 3}], "line 2: note: expected a string, got 3"),
    ([game(), {"do": "pick", "rows": 1}],
     "line 2: rows: unknown field for pick; it takes: row (and note)"),
    ([game(), {"do": "place_marker", "region": 2, "marker": "castle"}],
     'line 2: marker: unknown marker "castle"; allowed: fortress, troll_lair,'),
    ([game(), {"do": "finish", "tokens": {"Ann": 3}}],
     'line 2: tokens.Ann: a key is a number written as a string, such as "7"'),
    ([game(), "", "[1, 2]"], 'line 3: expected an object such as {"do": "end_turn"}'),
    ([game(), '{"do": "pick", "row": 1, "row": 2}'],
     "line 2: row: given twice in one object; give each field once"),
    ([game(players=["Ann"])], "line 1: players: 1 players; a game has 2 to 5"),
    ([game(players=["Ann", "ann"])], "line 1: players[1]: 'ann' is also the name of"),
    ([game(board="9p")], "line 1: board: unknown board '9p'; allowed: 2p, 3p, 4p, 5p"),
    ([game(board="3p")],
     "line 1: board: the 3p board is made for 3 players; this game needs the one for 2"),
    ([game(die=[4])], "line 1: die[0]: the reinforcement die has no face 4; its faces are "
                      "0, 1, 2, 3"),
    ([game(races=RACES[1:])], "line 1: races: the deck must hold every race of the chosen "
                              "sets once; missing: Humans"),
    ([game(races=[*RACES, "Humans"])], "line 1: races[14]: Humans is in the deck twice"),
    ([game(powers=["Flyin", *POWERS])], "line 1: powers[0]: unknown power 'Flyin'"),
    ([game(races=None)], 'line 1: races: missing: give the race deck in order (top first), '
                         'or a "seed" to shuffle it'),
    ([game(first_seat=2)], "line 1: first_seat: 2 is not a seat; seats are 0 to 1"),
    ([game(expansions=["cursed"])], "line 1: expansions: the base game's banners and badges"),
    ([game(river_events=EVENTS)], "line 1: river_events: the Pocket board has no rivers"),
    ([game(board=DELTA)], "line 1: river_events: missing: the Delta board is a River World "
                          "board; give its Event markers in order (one per turn)"),
    ([game(board=DELTA, river_events=["Storm", "Flood", "Storm"])],
     "line 1: river_events: unknown River World event 'Flood'"),
    ([game(board=DELTA, river_events=EVENTS[:2])],
     "line 1: river_events: the River World event line holds one marker per turn: 3, not 2"),
    ([game(necromancer=True)], "line 1: players: 2 players; a Necromancer Island game has "
                               "3 to 6"),
    ([game(teams=True)], "line 1: players: 2 players; a team game has 6"),
    ([game(necromancer=True, teams=True)], "line 1: teams: a game plays Necromancer Island "
                                           "or teams of two, not both"),
    ([game(ghosts_removed=1)], "line 1: ghosts_removed: Ghosts are taken out only in a "
                               "Necromancer Island game"),
    ([game(relic_order=[])], "line 1: relic_order: the Relics and Places are part of team "
                             "play"),
    ([game(players=["Ann", "Bob", "Cy"], necromancer=True, board=POCKET)],
     "line 1: the game cannot be set up: the Pocket board needs exactly one Lake for "
     "Necromancer Island (lakes found: none)"),
    ([game(colour="red")], "line 1: colour: unknown field for the game; allowed: players,"),
    ([{"do": "pick", "row": 1}], "line 1: do: the first line sets up the game"),
])
def test_a_malformed_line_stops_the_run_naming_its_line_and_field(
        lines: list[Any], message: str, monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(as_text(lines)))
    code = main(["play", "-"])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1
    assert err.startswith("companion play: " + message), err
    played = len([line for line in lines if line != ""]) - 1
    assert len(out.splitlines()) == played  # the lines before it were played


def test_a_file_that_cannot_be_read_is_named(tmp_path: Path, capsys) -> None:
    assert main(["play", str(tmp_path / "missing.jsonl")]) == 2
    assert "companion play: FILE: cannot read" in capsys.readouterr().err


def test_every_verb_names_its_help_and_fields() -> None:
    for name, verb in VERBS.items():
        assert verb.help, name
        assert len({f.name for f in verb.fields}) == len(verb.fields), name


# --- the real program ------------------------------------------------------------------


def _command() -> list[str]:
    return [sys.executable, "-m", "companion", "play"]


def test_the_program_reads_a_file_and_standard_input_alike(tmp_path: Path) -> None:
    text = as_text(ANN_CONQUERS)
    path = tmp_path / "game.jsonl"
    path.write_text(text, encoding="utf-8")
    from_file = subprocess.run([*_command(), str(path)], capture_output=True, text=True,
                               check=False)
    from_stdin = subprocess.run([*_command(), "-"], input=text, capture_output=True,
                                text=True, check=False)
    assert (from_file.returncode, from_file.stderr) == (0, "")
    assert (from_stdin.returncode, from_stdin.stderr) == (0, "")
    assert from_file.stdout == from_stdin.stdout
    assert len(from_stdin.stdout.splitlines()) == 3


def test_a_file_written_with_a_byte_order_mark_plays_the_same(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(as_text(ANN_CONQUERS), encoding="utf-8-sig")
    run = subprocess.run([*_command(), str(path)], capture_output=True, text=True, check=False)
    assert (run.returncode, run.stderr) == (0, "")
    assert len(run.stdout.splitlines()) == 3


def test_playing_imports_no_window_device_or_serial_library() -> None:
    code = ("import sys, companion.play; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('kivy', 'gpiozero', 'serial')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert run.stdout.strip() == "[]"


def _read_line(process: subprocess.Popen[str]) -> str:
    """The next line the program prints; fails (rather than hangs) if none comes."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], 60)
    assert ready, "the program did not answer the line it was given"
    return process.stdout.readline()


def test_a_bot_gets_each_answer_before_it_sends_the_next_line() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # buffered
    process = subprocess.Popen([*_command(), "-"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, env=env)
    assert process.stdin is not None
    try:
        for line in ANN_CONQUERS:
            process.stdin.write(json.dumps(line) + "\n")
            process.stdin.flush()
            state = json.loads(_read_line(process))
        assert holder(state, 2) is not None
    finally:
        process.stdin.close()
        assert process.wait() == 0


def test_a_bot_plays_ten_turns_on_the_packaged_board_to_the_standings() -> None:
    """`play` answers each line before it takes the next, so a bot can read the state it is
    in: pick the top combo, conquer what the rules allow, spread the hands, score."""
    out = io.StringIO()

    def state() -> dict[str, Any]:  # the last state printed (refusals change nothing)
        lines = out.getvalue().splitlines()
        last: dict[str, Any] = next(json.loads(line) for line in reversed(lines)
                                    if not line.startswith('{"refused"'))
        return last

    def turn(now: dict[str, Any]) -> list[dict[str, Any]]:
        phase = now["phase"]
        if phase == "pick_combo":
            return [{"do": "pick", "row": 1}]
        if phase == "conquer":
            return [*({"do": "conquer", "region": region} for region in range(1, 24)),
                    {"do": "finish_conquests"}]
        if phase == "redeploy":
            return [{"do": "spread_hand"}, {"do": "finish_redeployment"}]
        if phase == "score":
            return [{"do": "score"}]
        return [*({"do": "spread_hand", "seat": h["seat"], "race": h["race"]}
                  for h in now["hands_to_place"]), {"do": "end_turn"}]

    def bot() -> Iterator[str]:
        yield json.dumps({"players": ["Ann", "Bob"], "seed": 8})
        for _ in range(400):  # far more steps than ten turns take
            if state()["phase"] == "game_over":
                break
            yield from (json.dumps(intent) for intent in turn(state()))
        yield json.dumps({"do": "finish"})

    play_lines(bot(), out, load_catalog())
    states = [json.loads(line) for line in out.getvalue().splitlines()]
    assert states[-1]["phase"] == "game_over"
    assert states[-1]["standings"]["winners"]
    ended = [s for s in states if s.get("phase") == "finished"]
    assert len({(s["turn"], s["seat"]) for s in ended}) == 20  # 10 turns of 2 players


# --- any game at all -------------------------------------------------------------------

_INTENT = st.one_of(
    st.builds(lambda row: {"do": "pick", "row": row}, st.integers(1, 6)),
    st.builds(lambda region, tokens: {"do": "conquer", "region": region, "tokens": tokens},
              st.integers(1, 7), st.integers(1, 5)),
    st.builds(lambda region: {"do": "abandon", "region": region}, st.integers(1, 6)),
    st.builds(lambda region: {"do": "final_conquest", "region": region}, st.integers(1, 6)),
    st.sampled_from([{"do": "spread_hand"}, {"do": "redeploy", "regions": {"2": 3}}]),
    st.sampled_from([{"do": verb} for verb in ("decline", "finish_conquests",
                                               "finish_redeployment", "score", "end_turn",
                                               "undo", "finish")]),
)
_FLOW = [{"do": "finish_conquests"}, {"do": "finish_redeployment"}, {"do": "score"},
         {"do": "end_turn"}]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_INTENT, st.sampled_from(_FLOW)), max_size=60),
       st.lists(st.sampled_from([0, 1, 2, 3]), max_size=4))
def test_any_intents_get_an_answer_each_and_keep_the_purses_secret_until_the_end(
        intents: list[dict[str, Any]], die: list[int]) -> None:
    lines = [json.dumps(game(die=die)), *(json.dumps(intent) for intent in intents)]
    first, again = io.StringIO(), io.StringIO()
    play_lines(lines, first, load_catalog())
    play_lines(lines, again, load_catalog())
    assert first.getvalue() == again.getvalue()
    out = [json.loads(line) for line in first.getvalue().splitlines()]
    assert len(out) == len(lines)
    for state in out:
        if "refused" in state:
            assert set(state) == {"refused"} and state["refused"]
            continue
        over = state["phase"] == "game_over"
        assert all(("coins" in player) == over for player in state["players"])
        assert ("standings" in state) <= over
