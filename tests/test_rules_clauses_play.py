"""More limiting clauses of the rule books, each played through `companion play` on the
six-region Pocket board of `test_play` (1 sea; 2 farmland, coastal; 3 hill with a mine,
coastal; 4 forest with a Lost Tribe; 5 mountain with a cavern, inland and off the edge;
6 swamp with a magic source): the allowed use, then the refused one with the rule's reason,
and nothing changed by the refusal. `docs/rules-clauses.md` lists which clause each proves.

A combo is put on top of the decks (`combo`), so Ann's `pick` of row 1 takes it and Bob's
next `pick` of row 1 takes the combo below it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_play import DELTA, game, holder
from test_rules_clauses import NOTHING, TURN_END, play, refused_and_unchanged

import companion.rules.troops_game as troops_game
from companion.play import parse_setup
from companion.rules.catalog import load_catalog
from companion.rules.events import TurnScored
from companion.session import Session


def combo(*pairs: tuple[str, str], sets: tuple[str, ...] = ("base",),
          **fields: Any) -> dict[str, Any]:
    """The first line of a game on Pocket whose decks start with `pairs` (race, power), in
    order: Ann's row 1 is the first pair, and once she took it, Bob's row 1 the second."""
    catalog = load_catalog()
    races = [race for race, _ in pairs]
    powers = [power for _, power in pairs]
    line = game(races=[*races, *(r.name for r in catalog.races_in(sets) if r.name not in races)],
                powers=[*powers, *(p.name for p in catalog.powers_in(sets)
                                   if p.name not in powers)], **fields)
    if sets != ("base",):
        line["expansions"] = list(sets)
    return line


def conquer(region: int, tokens: int | None = None, **more: Any) -> dict[str, Any]:
    line: dict[str, Any] = {"do": "conquer", "region": region, **more}
    if tokens is not None:
        line["tokens"] = tokens
    return line


PICK = {"do": "pick", "row": 1}


def short(region: int, cost: int, given: int) -> str:
    """The refusal of a conquest given fewer tokens than it costs."""
    return f"region {region} costs {cost} tokens; {given} are not enough"


# --- entering and moving on the board --------------------------------------------------


def test_a_new_race_enters_on_a_region_at_the_edge_of_the_board(monkeypatch, capsys) -> None:
    lines = [combo(("Humans", "Alchemist")), PICK, conquer(5), NOTHING, conquer(6)]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 2) == ("a race entering the board must take an entry "
                                             "region; region 5 is not")
    assert holder(out[4], 6)["race"] == "Humans"


def test_later_conquests_border_a_region_the_race_holds(monkeypatch, capsys) -> None:
    lines = [combo(("Humans", "Alchemist")), PICK, conquer(2), conquer(6), NOTHING,
             conquer(4)]
    out = play(lines, monkeypatch, capsys)
    assert "Humans hold" in refused_and_unchanged(out, 3)
    assert holder(out[5], 4)["race"] == "Humans"


def test_seas_are_not_conquered_but_by_a_seafaring_race(monkeypatch, capsys) -> None:
    lines = [combo(("Humans", "Alchemist"), ("Elves", "Seafaring")), PICK, conquer(1),
             NOTHING, conquer(2), *TURN_END, PICK, conquer(1)]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 2) == "region 1 is a sea: only a Seafaring race may take it"
    assert holder(out[-1], 1)["race"] == "Elves"


def test_halflings_enter_anywhere_on_land_but_never_on_a_sea(monkeypatch, capsys) -> None:
    lines = [combo(("Halflings", "Alchemist")), PICK, conquer(1), NOTHING, conquer(5)]
    out = play(lines, monkeypatch, capsys)
    assert "sea" in refused_and_unchanged(out, 2)
    assert holder(out[4], 5)["race"] == "Halflings"


def test_flying_reaches_a_region_far_off_but_never_a_sea(monkeypatch, capsys) -> None:
    lines = [combo(("Humans", "Flying")), PICK, conquer(2), conquer(1), NOTHING, conquer(6)]
    out = play(lines, monkeypatch, capsys)
    assert "sea" in refused_and_unchanged(out, 3)
    assert holder(out[5], 6)["race"] == "Humans"  # 6 does not border 2


# --- what a conquest costs -------------------------------------------------------------


def test_a_conquest_costs_two_and_one_more_for_a_lost_tribe_and_a_mountain(monkeypatch,
                                                                           capsys) -> None:
    lines = [combo(("Humans", "Alchemist")), PICK, conquer(4, 2), NOTHING, conquer(4, 3),
             conquer(5, 2), NOTHING, conquer(5, 3)]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 2) == short(4, 3, 2)
    assert holder(out[4], 4)["tokens"] == 3
    assert refused_and_unchanged(out, 5) == short(5, 3, 2)
    assert holder(out[7], 5)["tokens"] == 3


def test_discounts_never_bring_a_conquest_under_one_token(monkeypatch, capsys) -> None:
    # Commando Tritons on the coast: 2 - 1 - 1, yet one token goes in
    lines = [combo(("Tritons", "Commando")), PICK, conquer(2, 0), NOTHING, conquer(2)]
    out = play(lines, monkeypatch, capsys)
    assert "refused" in out[2] and out[3] == out[1]
    assert holder(out[4], 2)["tokens"] == 1


def test_commando_conquers_with_one_token_less(monkeypatch, capsys) -> None:
    lines = [combo(("Humans", "Commando")), PICK, conquer(4, 1), NOTHING, conquer(4, 2)]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 2) == short(4, 2, 1)
    assert holder(out[4], 4)["tokens"] == 2


def test_tritons_pay_one_less_on_the_coast_only(monkeypatch, capsys) -> None:
    lines = [combo(("Tritons", "Alchemist")), PICK, conquer(6, 1), NOTHING, conquer(2, 1)]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 2) == short(6, 2, 1)
    assert holder(out[4], 2)["tokens"] == 1


def test_mounted_pay_one_less_on_hills_and_farmland_only(monkeypatch, capsys) -> None:
    lines = [combo(("Humans", "Mounted")), PICK, conquer(6, 1), NOTHING, conquer(3, 1)]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 2) == short(6, 2, 1)
    assert holder(out[4], 3)["tokens"] == 1


def test_underworld_pays_one_less_on_a_cavern(monkeypatch, capsys) -> None:
    lines = [combo(("Humans", "Underworld")), PICK, conquer(4), conquer(5, 1), NOTHING,
             conquer(5, 2)]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 3) == short(5, 2, 1)
    assert holder(out[5], 5)["tokens"] == 2


def test_giants_pay_one_less_next_to_a_mountain_they_hold(monkeypatch, capsys) -> None:
    # 6 borders their mountain (5); 2 does not
    lines = [combo(("Giants", "Alchemist")), PICK, conquer(4), conquer(5), conquer(2, 1),
             NOTHING, conquer(6, 1)]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 4) == short(2, 2, 1)
    assert holder(out[6], 6)["tokens"] == 1


# --- what protects a region ------------------------------------------------------------


def test_a_halflings_hole_makes_its_region_immune(monkeypatch, capsys) -> None:
    lines = [combo(("Halflings", "Alchemist"), ("Humans", "Hill")), PICK, conquer(2),
             conquer(3), {"do": "place_marker", "region": 2, "marker": "hole_in_the_ground"},
             *TURN_END, PICK, conquer(2, 5), NOTHING, conquer(3)]
    out = play(lines, monkeypatch, capsys)
    assert "Hole-in-the-Ground" in refused_and_unchanged(out, -3)
    assert holder(out[-1], 3)["race"] == "Humans"


def test_a_region_of_your_own_race_in_decline_may_be_attacked(monkeypatch, capsys) -> None:
    lines = [combo(("Humans", "Alchemist"), ("Elves", "Hill")), PICK, conquer(2), *TURN_END,
             PICK, conquer(6), *TURN_END, {"do": "decline"}, {"do": "score"},
             {"do": "end_turn"}, *TURN_END, PICK, conquer(2, 3)]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[-1], 2)["in_decline"] is False
    assert holder(out[-1], 2)["seat"] == 0


# --- the mini-expansions ---------------------------------------------------------------

CURSED = ("base", "cursed")
GRAND_DAMES = ("base", "grand-dames")
BE_NOT_AFRAID = ("base", "be-not-afraid")
ROYAL_BONUS = ("base", "royal-bonus")


def bob_hand_back(race: str) -> dict[str, Any]:
    """Ann, the defender, puts the tokens a conquest sent back to her hand on the board."""
    return {"do": "spread_hand", "seat": 0, "race": race}


def test_shrubmen_forests_are_immune_and_their_other_regions_are_not(monkeypatch,
                                                                      capsys) -> None:
    lines = [combo(("Shrubmen", "Alchemist"), ("Humans", "Hill"), sets=ROYAL_BONUS), PICK,
             conquer(4), conquer(2), *TURN_END, PICK, conquer(4, 9), NOTHING, conquer(2, 7),
             bob_hand_back("Shrubmen")]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, -4) == "Shrubmen make their forest region 4 immune"
    assert holder(out[-2], 2)["race"] == "Humans"


def test_white_ladies_are_immune_once_in_decline(monkeypatch, capsys) -> None:
    lines = [combo(("White Ladies", "Alchemist"), ("Humans", "Hill"), sets=GRAND_DAMES), PICK,
             conquer(2), conquer(3), *TURN_END, PICK, conquer(2, 5),
             bob_hand_back("White Ladies"), *TURN_END, {"do": "decline"}, {"do": "score"},
             {"do": "end_turn"}, conquer(3, 5), NOTHING]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[10], 2)["race"] == "Humans"  # active, they could be attacked
    assert refused_and_unchanged(out, -2) == "White Ladies in decline are immune: region 3"


def test_goblins_pay_one_less_against_a_race_in_decline(monkeypatch, capsys) -> None:
    # Ann's Humans hold region 2 with 2 tokens and decline (1 token left): 2 + 1 - 1
    lines = [combo(("Humans", "Alchemist"), ("Goblins", "Hill"), sets=CURSED), PICK,
             conquer(2), *TURN_END, PICK, conquer(3), *TURN_END, {"do": "decline"},
             {"do": "score"}, {"do": "end_turn"}, conquer(2, 1), NOTHING, conquer(2, 2)]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, -3) == short(2, 2, 1)
    assert holder(out[-1], 2)["race"] == "Goblins"


def test_kobolds_never_hold_a_region_with_fewer_than_two(monkeypatch, capsys) -> None:
    lines = [combo(("Kobolds", "Commando"), sets=CURSED), PICK, conquer(2, 1), NOTHING,
             conquer(2)]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 2) == ("a region conquered by Kobolds holds at least 2 "
                                             "tokens, not 1")
    assert holder(out[4], 2)["tokens"] == 2


def test_were_pay_two_less_by_night_and_nothing_less_by_day(monkeypatch, capsys) -> None:
    lines = [combo(("Humans", "Were-"), sets=CURSED), PICK, conquer(4, 1), NOTHING,
             conquer(4), *TURN_END, PICK, conquer(6), *TURN_END, conquer(5, 1)]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 2) == short(4, 3, 1)  # turn 1: day
    assert out[-1]["turn"] == 2 and holder(out[-1], 5)["tokens"] == 1  # turn 2: night


def test_a_mercenary_coin_takes_two_tokens_off_one_conquest(monkeypatch, capsys) -> None:
    lines = [combo(("Humans", "Mercenary"), ("Elves", "Hill"), sets=BE_NOT_AFRAID), PICK,
             conquer(4, 1, mercenary_coin=True), conquer(5, 1), NOTHING, *TURN_END, PICK,
             conquer(6, 1, mercenary_coin=True), NOTHING]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[2], 4)["tokens"] == 1
    assert refused_and_unchanged(out, 3) == short(5, 3, 1)  # no coin: the whole cost
    assert refused_and_unchanged(out, -2) == ("only Mercenary races spend a coin to conquer "
                                              "with fewer tokens")


def test_a_cursed_combo_costs_three_coins_to_pass_over(monkeypatch, capsys) -> None:
    # Ann has 5 coins: passing the Cursed combo costs 3, and each other row 1
    lines = [combo(("Humans", "Cursed"), sets=CURSED), {"do": "pick", "row": 5}, NOTHING,
             {"do": "pick", "row": 2}]
    out = play(lines, monkeypatch, capsys)
    assert [row["cost"] for row in out[0]["market"][:3]] == [0, 3, 4]
    assert "refused" in out[1] and out[2] == out[0]
    assert out[3]["market"][0]["coins"] == 3
    assert out[3]["players"][0]["active"]["race"] == "Amazons"


# --- River World -----------------------------------------------------------------------
# Delta (test_play): 1 sea; 2 farmland with a harbor; 3 river with a pirate symbol (a ship
# from the start); 4 hill with the Shipyard; 5 river; 6 forest.


def river_game(*events: str) -> dict[str, Any]:
    return combo(("Humans", "Alchemist"), ("Elves", "Hill"), board=DELTA,
                 river_events=[*events, *["Quiet waters"] * (3 - len(events))])


def test_a_river_costs_one_token_and_a_pirate_ship_one_more(monkeypatch, capsys) -> None:
    lines = [river_game("Quiet waters"), PICK, conquer(5, 1), conquer(3, 1), NOTHING,
             conquer(3, 2)]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[2], 5)["tokens"] == 1
    assert refused_and_unchanged(out, 3) == short(3, 2, 1)
    assert "pirate_ship" not in holder(out[5], 3).get("markers", [])  # sunk


def test_a_storm_river_costs_three_tokens(monkeypatch, capsys) -> None:
    lines = [river_game("Storm"), PICK, conquer(5, 2), NOTHING, conquer(5, 3)]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 2) == short(5, 3, 2)
    assert holder(out[4], 5)["tokens"] == 3


def test_a_frozen_river_costs_two_tokens(monkeypatch, capsys) -> None:
    lines = [river_game("Harsh Winter"), PICK, conquer(5, 1), NOTHING, conquer(5, 2)]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 2) == short(5, 2, 1)
    assert holder(out[4], 5)["tokens"] == 2


def test_a_homunculi_combo_passed_over_gets_a_homunculus_with_the_coin(monkeypatch,
                                                                       capsys) -> None:
    lines = [combo(("Homunculi", "Alchemist"), ("Humans", "Hill"), sets=BE_NOT_AFRAID),
             {"do": "pick", "row": 2}]
    out = play(lines, monkeypatch, capsys)
    before, after = out[0]["market"][0], out[1]["market"][0]
    assert before["race"] == after["race"] == "Homunculi"
    assert (after["coins"], after["tokens"]) == (1, before["tokens"] + 1)
    assert out[1]["market"][1]["coins"] == 0  # below the one picked: nothing on it


def test_pixies_keep_one_token_a_region_after_redeploying_until_the_next_turn(monkeypatch,
                                                                              capsys) -> None:
    lines = [combo(("Pixies", "Alchemist"), ("Humans", "Hill"), sets=BE_NOT_AFRAID), PICK,
             conquer(2, 3), conquer(4, 3), {"do": "finish_conquests"}, {"do": "spread_hand"},
             {"do": "finish_redeployment"}, {"do": "score"}, {"do": "end_turn"}, PICK,
             conquer(6), *TURN_END]
    out = play(lines, monkeypatch, capsys)
    spread = out[5]["players"][0]["active"]
    assert spread["hand"] == 0 and holder(out[5], 2)["tokens"] > 1
    finished = out[6]["players"][0]["active"]
    assert (holder(out[6], 2)["tokens"], holder(out[6], 4)["tokens"]) == (1, 1)
    assert (finished["on_board"], finished["aside"]) == (2, spread["on_board"] - 2)
    # Ann's next turn: Ready your Troops brings them back to her hand
    assert out[-1]["seat"] == 0 and out[-1]["players"][0]["active"]["aside"] == 0
    assert out[-1]["players"][0]["active"]["hand"] == spread["on_board"] - 2


# --- troops ----------------------------------------------------------------------------


def test_ready_your_troops_leaves_one_token_a_region_and_the_rest_in_hand(monkeypatch,
                                                                          capsys) -> None:
    lines = [combo(("Humans", "Alchemist"), ("Elves", "Hill")), PICK, conquer(2), conquer(3),
             *TURN_END, PICK, conquer(6), *TURN_END]
    out = play(lines, monkeypatch, capsys)
    ann = out[-1]["players"][0]["active"]
    assert out[-1]["seat"] == 0 and out[-1]["phase"] == "conquer"
    assert (holder(out[-1], 2)["tokens"], holder(out[-1], 3)["tokens"]) == (1, 1)
    assert (ann["on_board"], ann["hand"]) == (2, 7)  # 5 Humans + 4 Alchemist


def test_active_elves_lose_no_token_when_a_region_falls(monkeypatch, capsys) -> None:
    # every Elf of region 6 goes back to Ann's hand, none to the tray
    lines = [combo(("Elves", "Alchemist"), ("Humans", "Hill")), PICK, conquer(2), conquer(4),
             conquer(6), *TURN_END, PICK, conquer(6)]
    out = play(lines, monkeypatch, capsys)
    held = holder(out[-2], 6)["tokens"]
    assert out[-1]["hands_to_place"] == [{"seat": 0, "race": "Elves", "hand": held}]
    assert out[-1]["players"][0]["active"]["tray"] == 0


def test_bivouacking_has_five_encampments_which_may_share_a_region(monkeypatch,
                                                                   capsys) -> None:
    place = {"do": "place_marker", "region": 2, "marker": "encampment"}
    lines = [combo(("Humans", "Bivouacking")), PICK, conquer(2), {"do": "finish_conquests"},
             *[place] * 5, place, NOTHING]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[8], 2)["encampments"] == 5
    assert refused_and_unchanged(out, 9) == "all 5 of the encampment pieces are on the board"


def test_encampments_and_heroes_go_out_while_redeploying(monkeypatch, capsys) -> None:
    camp = {"do": "place_marker", "region": 2, "marker": "encampment"}
    hero = {"do": "place_marker", "region": 4, "marker": "hero"}
    lines = [combo(("Humans", "Bivouacking"), ("Elves", "Heroic")), PICK, conquer(2), camp,
             NOTHING, {"do": "finish_conquests"}, camp, *TURN_END[1:], PICK, conquer(4),
             hero, NOTHING, {"do": "finish_conquests"}, hero]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, 3) == ("Bivouacking: the Encampments are set out while "
                                             "redeploying; the turn is at: conquer")
    assert holder(out[6], 2)["markers"] == ["encampment"]
    assert refused_and_unchanged(out, -4) == ("Heroic: the Heroes are placed at the end of "
                                              "the turn, while redeploying; the turn is at: "
                                              "conquer")
    assert holder(out[-1], 4)["markers"] == ["hero"]


# --- what a turn scores, through the Session -------------------------------------------


def pocket(*pairs: tuple[str, str], sets: tuple[str, ...] = ("base",)) -> Session:
    """A Session playing the game of `combo(*pairs)` (as `companion play` sets it up)."""
    catalog = load_catalog()
    s = Session(catalog, rng=random.Random(0))
    s.begin(parse_setup(combo(*pairs, sets=sets), catalog).created)
    return s


def scored(s: Session, *, decline: bool = False) -> dict[str, int]:
    """The rest of the current player's turn (or a decline instead of it), scored from the
    board: the lines of the score, by label."""
    if decline:
        s.decline()
    else:
        s.finish_conquests()
        seat, race = s.state.track.seat, s.state.current.active.race  # type: ignore[union-attr]
        if s.state.regions.held_by(seat, race) and troops_game.hand(s.state, seat, race):
            s.spread_hand()
        s.finish_redeployment()
    s.score()
    assert s.history is not None
    lines = next(e for e in s.history.last_step if isinstance(e, TurnScored)).lines
    s.end_turn()
    return dict(lines)


BONUSES = [
    # race, power, regions taken, the line, its coins, whether it is paid in decline
    ("Humans", "Alchemist", (2, 3), "Humans: one per farmland region", 1, False),
    ("Humans", "Alchemist", (2, 3), "Alchemist: while the race is active", 2, False),
    ("Dwarves", "Merchant", (3, 2), "Dwarves: one per mine region", 1, True),
    ("Dwarves", "Merchant", (3, 2), "Merchant: one per region held", 2, False),
    ("Orcs", "Pillaging", (4, 2), "Orcs: one per non-empty region conquered this turn", 1,
     False),
    ("Orcs", "Pillaging", (4, 2), "Pillaging: one per non-empty region conquered this turn", 1,
     False),
    ("Wizards", "Wealthy", (6,), "Wizards: one per magic source region", 1, False),
    ("Wizards", "Wealthy", (6,), "Wealthy: once, on the turn the combo was picked", 7, False),
    ("Humans", "Forest", (4,), "Forest: one per forest region", 1, False),
]
MINI_BONUSES = [
    # the same, and the sets that hold the power
    ("Humans", "Aquatic", (2, 3, 4), "Aquatic: one per coastal region", 2, False, ROYAL_BONUS),
    ("Humans", "Aquatic", (2, 3, 4), "Aquatic: one less per inland region", -1, False,
     ROYAL_BONUS),
    ("Humans", "Barricade", (2, 3), "Barricade: holding 4 regions or fewer", 3, False,
     BE_NOT_AFRAID),
    ("Humans", "Imperial", (2, 3, 4, 6), "Imperial: one per region beyond the 3rd", 1, False,
     BE_NOT_AFRAID),
    ("Humans", "Peace-Loving", (2, 3), "Peace-Loving: no other active race attacked this turn",
     3, False, GRAND_DAMES),
]


@pytest.mark.parametrize(("race", "power", "taken", "label", "coins", "in_decline", "sets"),
                         [(*b, ("base",)) for b in BONUSES] + MINI_BONUSES)
def test_a_bonus_is_paid_while_the_race_is_active_and_in_decline_only_where_the_rule_says(
        race: str, power: str, taken: tuple[int, ...], label: str, coins: int,
        in_decline: bool, sets: tuple[str, ...]) -> None:
    s = pocket((race, power), ("Trolls", "Swamp"), sets=sets)
    s.pick(0)
    for region in taken:
        s.conquer(region)
    first = scored(s)
    assert first[label] == coins
    s.pick(0)  # Bob: a turn without conquests
    scored(s)
    declined = scored(s, decline=True)  # Ann's race goes into decline instead of conquering
    assert f"Regions held by {race} (in decline)" in declined  # its regions still score
    why = label.split(":")[1]  # the line of a race in decline names it "(in decline)"
    assert any(line.endswith(":" + why) for line in declined) is in_decline, declined


def test_barbarians_never_redeploy_and_their_hand_waits_off_the_board(monkeypatch,
                                                                      capsys) -> None:
    lines = [combo(("Barbarians", "Alchemist"), ("Humans", "Hill"), sets=BE_NOT_AFRAID), PICK,
             conquer(2), conquer(4), {"do": "finish_conquests"}, {"do": "spread_hand"},
             NOTHING, {"do": "redeploy", "regions": {"2": 1, "4": 4}}, NOTHING,
             {"do": "finish_redeployment"}, {"do": "score"}, {"do": "end_turn"}, PICK,
             conquer(6), *TURN_END]
    out = play(lines, monkeypatch, capsys)
    hand = out[4]["players"][0]["active"]["hand"]
    assert hand > 0
    assert refused_and_unchanged(out, 5) == (f"the Barbarians keep the {hand} tokens in hand "
                                             "off the board until the next turn")
    assert refused_and_unchanged(out, 7).startswith("Barbarians never redeploy")
    finished = out[9]["players"][0]["active"]
    assert (holder(out[9], 2)["tokens"], holder(out[9], 4)["tokens"]) == (2, 3)
    assert (finished["hand"], finished["aside"]) == (0, hand)
    # Ann's next turn: Ready your Troops brings them back to her hand
    assert out[-1]["seat"] == 0 and out[-1]["players"][0]["active"]["aside"] == 0


def test_sorcerers_replace_one_lone_token_an_opponent_a_turn_and_an_elf_is_lost(
        monkeypatch, capsys) -> None:
    # Ann's Elves stand alone in 2 and 3; Bob's Sorcerers come in at 4, next to 2
    lines = [combo(("Elves", "Alchemist"), ("Sorcerers", "Hill")), PICK, conquer(2),
             conquer(3), conquer(5), {"do": "finish_conquests"},
             {"do": "redeploy", "regions": {"2": 1, "3": 1, "5": 8}},
             *TURN_END[2:], PICK, conquer(4), conquer(5, sorcery=True), NOTHING,
             conquer(2, sorcery=True), conquer(3, sorcery=True), NOTHING]
    out = play(lines, monkeypatch, capsys)
    assert refused_and_unchanged(out, -5) == ("the Sorcerers replace a token only when it "
                                              "stands alone; region 5 holds 8 (or an "
                                              "encampment)")
    assert holder(out[-3], 2)["race"] == "Sorcerers"
    assert out[-3]["players"][0]["active"]["tray"] == 1  # the Elf is lost all the same
    assert refused_and_unchanged(out, -2) == ("the Sorcerers have already replaced a token of "
                                              "Ann's this turn (once per opponent)")


def test_a_halflings_hole_leaves_with_its_abandoned_region(monkeypatch, capsys) -> None:
    hole = {"do": "place_marker", "region": 2, "marker": "hole_in_the_ground"}
    lines = [combo(("Halflings", "Alchemist"), ("Elves", "Hill")), PICK, conquer(2),
             conquer(3), hole, *TURN_END, PICK, conquer(6), *TURN_END,
             {"do": "abandon", "region": 2}, hole, NOTHING]
    out = play(lines, monkeypatch, capsys)
    assert holder(out[-4], 2)["markers"] == ["hole_in_the_ground"]
    assert holder(out[-3], 2) is None  # left, and its Hole with it
    assert refused_and_unchanged(out, -2) == ("a Hole-in-the-Ground goes in a region your "
                                              "active race holds")
