"""The board as the replay of region events: conquests, losses, abandonment, decline, markers.

The 2-player board used here: 2 farmland (magic source, entry), 3 forest (mine, entry),
4 swamp (Lost Tribe, entry), 5 hill (entry), 7 hill (Lost Tribe, not on the edge),
9 mountain, 12 farmland (Lost Tribe, entry), 13 forest (Lost Tribe).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from factories import play_turn, session

from companion.rules.board import Occupant
from companion.rules.catalog import load_catalog
from companion.rules.errors import IllegalAction, UnknownName
from companion.rules.events import RegionConquered
from companion.rules.game import apply, attacker
from companion.rules.income import income
from companion.rules.state import with_player
from companion.rules.turns import Phase
from companion.session import Session


def two_player(races: tuple[str, ...], powers: tuple[str, ...],
               expansions: tuple[str, ...] = ("base",)) -> Session:
    s = session(players=2, races=races, powers=powers, expansions=expansions)
    s.pick(0)
    return s


def test_the_board_starts_with_lost_tribes_and_mountains_where_the_map_shows_them() -> None:
    s = session(players=2)
    regions = s.state.regions
    assert regions[4].lost_tribe and regions[7].lost_tribe and not regions[2].lost_tribe
    assert regions[9].markers.mountain and not regions[10].markers.mountain
    assert all(rs.occupant is None for rs in regions.regions.values())


def test_a_conquest_puts_the_race_in_the_region_and_removes_the_lost_tribe() -> None:
    s = two_player(("Orcs",), ("Hill",))
    s.conquer(4, tokens=3)
    here = s.state.regions[4]
    assert here.occupant == Occupant(0, "Orcs", in_decline=False, tokens=3)
    assert not here.lost_tribe
    assert s.state.track.this_turn.conquered == ((4, True),)


def test_the_first_conquest_must_enter_from_the_edge() -> None:
    s = two_player(("Orcs",), ("Hill",))
    before = s.state
    with pytest.raises(IllegalAction, match="must take an entry region; region 7 is not"):
        s.conquer(7)
    assert s.state == before


def test_halflings_may_enter_anywhere() -> None:
    s = two_player(("Halflings",), ("Hill",))
    s.conquer(7)
    assert s.state.regions[7].occupant is not None


def test_later_conquests_must_be_adjacent() -> None:
    s = two_player(("Orcs",), ("Hill",))
    s.conquer(2)
    with pytest.raises(IllegalAction, match="region 5 does not border any region Orcs hold"):
        s.conquer(5)
    s.conquer(7)  # 7 touches 2


def test_a_sea_cannot_be_conquered_without_seafaring() -> None:
    s = two_player(("Orcs",), ("Hill",))
    s.conquer(2)
    with pytest.raises(IllegalAction, match=r"[Ss]ea"):
        s.conquer(1)


def test_a_region_not_on_the_board_is_named() -> None:
    s = two_player(("Orcs",), ("Hill",))
    with pytest.raises(UnknownName, match="region 99"):
        s.conquer(99)


def test_losing_a_region_to_another_player() -> None:
    s = two_player(("Orcs", "Elves"), ("Hill", "Forest"))
    s.conquer(2, tokens=2)
    play_rest(s)
    s.pick(0)  # Bob: Forest Elves
    s.conquer(2, tokens=4)
    assert s.state.regions[2].occupant == Occupant(1, "Elves", False, 4)
    assert s.state.track.this_turn.conquered == ((2, True),)


def test_abandoning_a_region_leaves_it_empty() -> None:
    s = two_player(("Orcs",), ("Hill",))
    s.conquer(2)
    play_rest(s)
    play_turn(s)
    s.abandon(2)
    assert s.state.regions[2].occupant is None
    with pytest.raises(IllegalAction, match="not held by"):
        s.abandon(3)


def test_decline_flips_one_token_per_region_and_ghouls_keep_them_all() -> None:
    for race, expected in (("Orcs", 1), ("Ghouls", 4)):
        s = two_player((race,), ("Hill",))
        s.conquer(2, tokens=4)
        play_rest(s)
        play_turn(s)
        s.decline()
        assert s.state.regions[2].occupant == Occupant(0, race, True, expected)


def test_the_earlier_declined_race_leaves_the_board() -> None:
    s = two_player(("Orcs", "Elves", "Humans"), ("Hill", "Forest", "Swamp"))
    s.conquer(2)
    play_rest(s)
    play_turn(s)  # Bob
    s.decline()
    finish_scoring(s)
    play_turn(s)  # Bob
    s.pick(0)
    s.conquer(12)
    play_rest(s)
    play_turn(s)
    s.decline()
    assert s.state.regions[2].occupant is None
    assert s.state.regions[12].occupant is not None and s.state.regions[12].occupant.in_decline


def test_a_declined_race_whose_last_region_falls_leaves_and_its_banner_returns() -> None:
    s = two_player(("Orcs", "Elves"), ("Hill", "Forest"))
    s.conquer(2)
    play_rest(s)
    play_turn(s, row=0)  # Bob takes the Forest Elves
    s.decline()
    finish_scoring(s)
    s.conquer(2)  # Bob's Elves take the last Orc region
    assert s.state.players[0].declined == ()
    assert s.state.market.race_stack[-1] == "Orcs"


def test_a_troll_lair_stays_after_decline_but_a_hero_leaves() -> None:
    s = two_player(("Trolls",), ("Heroic",))
    s.conquer(2)
    s.place_marker(2, "troll_lair")
    s.finish_conquests()
    s.place_marker(2, "hero")  # the Heroes go out while redeploying
    s.finish_redeployment()
    finish_scoring(s)
    play_turn(s)
    s.decline()
    markers = s.state.regions[2].markers
    assert markers.troll_lair and not markers.hero


def test_a_fortress_is_removed_when_an_enemy_conquers_the_region() -> None:
    s = two_player(("Orcs", "Elves"), ("Fortified", "Forest"))
    s.conquer(2)
    s.place_marker(2, "fortress")
    play_rest(s)
    s.pick(0)
    s.conquer(2)
    assert not s.state.regions[2].markers.fortress


def test_only_the_right_power_places_a_marker() -> None:
    s = two_player(("Orcs",), ("Hill",))
    s.conquer(2)
    with pytest.raises(IllegalAction, match="only an active Fortified race places a Fortress"):
        s.place_marker(2, "fortress")
    with pytest.raises(IllegalAction, match="unknown marker 'castle'"):
        s.place_marker(2, "castle")


def test_one_fortress_per_region() -> None:
    s = two_player(("Orcs",), ("Fortified",))
    s.conquer(2)
    s.place_marker(2, "fortress")
    with pytest.raises(IllegalAction, match="already has a Fortress"):
        s.place_marker(2, "fortress")


def test_a_hero_makes_a_region_immune_to_conquest() -> None:
    s = two_player(("Orcs", "Elves"), ("Heroic", "Forest"))
    s.conquer(2)
    s.finish_conquests()
    s.place_marker(2, "hero")  # the Heroes go out while redeploying
    s.finish_redeployment()
    finish_scoring(s)
    s.pick(0)
    with pytest.raises(IllegalAction, match=r"[Hh]ero"):
        s.conquer(2)


def test_income_is_read_off_the_board() -> None:
    # Orcs conquer 4 (Lost Tribe: non-empty) and 5 (empty): 2 regions + 1 Orc bonus;
    # Hill: region 5 is a hill, +1.
    s = two_player(("Orcs",), ("Hill",))
    s.conquer(4)
    s.conquer(5)
    earned = income(s.state)
    assert earned.total == 4
    assert sum(line.coins for line in earned.lines) == earned.total
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    assert s.state.players[0].coins == 5 + 4


def test_a_race_that_declined_this_turn_scores_its_regions_but_no_bonus() -> None:
    s = two_player(("Humans",), ("Merchant",))
    s.conquer(2)  # farmland
    s.conquer(7)
    play_rest(s)
    play_turn(s)
    s.decline()
    assert income(s.state).total == 2


def test_correcting_a_region_does_not_count_as_a_conquest() -> None:
    s = two_player(("Orcs",), ("Hill",))
    s.set_region(7, 0, "Orcs", tokens=2)
    assert s.state.regions[7].occupant == Occupant(0, "Orcs", False, 2)
    assert s.state.track.this_turn.conquered == ()
    with pytest.raises(IllegalAction, match="Bob has no active race 'Orcs'"):
        s.set_region(7, 1, "Orcs")


def play_rest(s: Session) -> None:
    s.finish_conquests()
    s.finish_redeployment()
    finish_scoring(s)


def finish_scoring(s: Session) -> None:
    s.score()
    s.end_turn()


class FixedDie(random.Random):
    """A random generator whose die always shows `face` (the session draws with choice)."""

    def __init__(self, face: int) -> None:
        super().__init__(0)
        self.face = face

    def choice(self, seq):  # type: ignore[no-untyped-def, override]
        return self.face if seq == load_catalog().die_faces else super().choice(seq)


@pytest.mark.parametrize(("face", "taken"), [(0, False), (1, False), (2, True), (3, True)])
def test_the_final_conquest_succeeds_when_tokens_and_die_cover_the_cost(
    face: int, taken: bool
) -> None:
    # Region 4 on the 2p board holds a Lost Tribe: cost 3. With 1 token left, 2 short.
    s = two_player(("Orcs",), ("Hill",))
    s.rng = FixedDie(face)
    attempt = s.attempt_final_conquest(4, tokens_left=1)
    assert (attempt.cost, attempt.face, attempt.succeeded) == (3, face, taken)
    assert (s.state.regions[4].occupant is not None) == taken
    assert s.state.track.phase is Phase.REDEPLOY
    with pytest.raises(IllegalAction, match="die roll"):
        s.undo()


def test_the_final_conquest_needs_a_token_and_at_most_three_short() -> None:
    s = two_player(("Orcs",), ("Hill",))
    with pytest.raises(IllegalAction, match="no token left"):
        s.attempt_final_conquest(4, tokens_left=0)


def test_peace_loving_pays_only_when_no_active_race_was_attacked() -> None:
    s = two_player(("Orcs", "Elves"), ("Hill", "Peace-Loving"), ("base", "grand-dames"))
    s.conquer(2)
    play_rest(s)
    s.pick(0)  # Bob: Peace-Loving Elves
    s.conquer(12)  # a Lost Tribe is no active race
    s.conquer(6)
    assert "Peace-Loving" in " ".join(line.label for line in income(s.state).lines)
    s.conquer(2)  # Ann's active Orcs
    assert "Peace-Loving" not in " ".join(line.label for line in income(s.state).lines)


def test_gypsies_score_the_regions_they_abandoned_this_turn() -> None:
    s = two_player(("Gypsies",), ("Hill",), ("base", "grand-dames"))
    s.conquer(2)
    s.conquer(3)
    play_rest(s)
    play_turn(s)
    s.abandon(2)
    assert s.state.track.this_turn.abandoned == 1
    assert income(s.state).total == 1 + 1  # region 3, and the coin left in region 2


CURSED_SET = ("base", "cursed", "be-not-afraid")


def test_ransacking_takes_a_coin_from_the_player_whose_active_region_falls() -> None:
    s = two_player(("Orcs", "Elves"), ("Hill", "Ransacking"), CURSED_SET)
    s.conquer(2)
    play_rest(s)
    ann = s.state.players[0].coins
    s.pick(0)  # Bob: Ransacking Elves (pays nothing, top row)
    bob = s.state.players[1].coins
    s.conquer(2)
    assert (s.state.players[0].coins, s.state.players[1].coins) == (ann - 1, bob + 1)
    total = sum(p.coins for p in s.state.players) + s.state.market.coins_on_rows
    assert total == s.state.coins_issued


def test_a_corrupt_race_takes_a_coin_from_whoever_conquers_its_active_region() -> None:
    s = two_player(("Orcs", "Elves"), ("Corrupt", "Hill"), CURSED_SET)
    s.conquer(2)
    play_rest(s)
    ann = s.state.players[0].coins
    s.pick(0)
    bob = s.state.players[1].coins
    s.conquer(2)
    assert (s.state.players[0].coins, s.state.players[1].coins) == (ann + 1, bob - 1)


def test_a_mercenary_coin_goes_to_the_stash() -> None:
    s = two_player(("Orcs",), ("Mercenary",), CURSED_SET)
    s.conquer(4, mercenary_coin=True)
    assert s.state.players[0].coins == 4 and s.state.coins_issued == 2 * 5 - 1
    play_rest(s)
    play_turn(s)
    s.decline()
    finish_scoring(s)
    play_turn(s)
    s.pick(0)
    with pytest.raises(IllegalAction, match="only Mercenary races"):
        s.conquer(2, mercenary_coin=True)


def test_ransacking_takes_nothing_from_an_empty_purse() -> None:
    s = two_player(("Orcs", "Elves"), ("Hill", "Ransacking"), CURSED_SET)
    s.conquer(2)
    play_rest(s)
    s.pick(0)  # Bob: Ransacking Elves
    state = s.state
    broke = replace(state, players=with_player(state.players, replace(state.players[0], coins=0)))
    bob = broke.players[1].coins
    after = apply(broke, RegionConquered(1, 2))
    assert (after.players[0].coins, after.players[1].coins) == (0, bob)


def _ghouls_in_decline_then(power: str, expansions: tuple[str, ...]) -> Session:
    """Ann's Ghouls hold region 2 in decline; Bob's `power` Elves, holding nothing yet, are
    about to conquer."""
    s = two_player(("Ghouls", "Elves"), ("Hill", power), expansions)
    s.conquer(2, tokens=5)
    play_rest(s)
    play_turn(s)  # Bob picks the Elves and takes nothing
    s.decline()
    finish_scoring(s)
    return s


def test_ransacking_takes_nothing_from_ghouls_in_decline() -> None:
    s = _ghouls_in_decline_then("Ransacking", CURSED_SET)
    coins = [p.coins for p in s.state.players]
    s.conquer(2)
    assert [p.coins for p in s.state.players] == coins


def test_declined_ghouls_conquering_do_not_ransack_for_the_active_race() -> None:
    s = two_player(("Ghouls", "Elves", "Orcs"), ("Hill", "Forest", "Ransacking"), CURSED_SET)
    s.conquer(2, tokens=5)
    play_rest(s)
    s.pick(0)  # Bob: Forest Elves
    s.conquer(6)
    play_rest(s)
    s.decline()
    finish_scoring(s)
    play_turn(s)
    s.pick(0)  # Ann: Ransacking Orcs; her Ghouls in decline still conquer first
    coins = [p.coins for p in s.state.players]
    s.conquer(6, declined_ghouls=True)  # Bob's active Elves
    assert s.state.regions[6].occupant == Occupant(0, "Ghouls", True, None)
    assert [p.coins for p in s.state.players] == coins


def test_corrupt_takes_nothing_when_a_region_in_decline_falls() -> None:
    s = two_player(("Orcs", "Elves", "Humans"), ("Hill", "Forest", "Corrupt"), CURSED_SET)
    s.conquer(2)
    play_rest(s)
    play_turn(s)  # Bob picks the Forest Elves and takes nothing
    s.decline()
    finish_scoring(s)
    play_turn(s)
    s.pick(0)  # Ann: Corrupt Humans
    s.conquer(5)
    play_rest(s)
    coins = [p.coins for p in s.state.players]
    s.conquer(2)  # Bob takes Ann's Orcs in decline: no coin
    assert [p.coins for p in s.state.players] == coins
    s.conquer(3)
    s.conquer(4)
    s.conquer(5)  # Ann's active Humans: Bob pays one
    assert [p.coins for p in s.state.players] == [coins[0] + 1, coins[1] - 1]


def test_peace_loving_keeps_its_bonus_after_attacking_a_race_in_decline() -> None:
    s = _ghouls_in_decline_then("Peace-Loving", ("base", "grand-dames"))
    s.conquer(2)  # Ann's Ghouls in decline
    assert not s.state.track.this_turn.attacked_active_race
    assert "Peace-Loving" in " ".join(line.label for line in income(s.state).lines)


def test_gypsies_cannot_conquer_again_a_region_they_abandoned_this_turn() -> None:
    s = two_player(("Gypsies",), ("Hill",), ("base", "grand-dames"))
    s.conquer(2)
    s.conquer(3)
    play_rest(s)
    play_turn(s)
    s.abandon(2)
    with pytest.raises(IllegalAction, match="abandoned region 2 this turn"):
        s.conquer(2)
    assert income(s.state).total == 1 + 1  # region 3, and the coin left in region 2


def test_a_race_other_than_the_gypsies_may_retake_a_region_it_abandoned() -> None:
    s = two_player(("Orcs",), ("Hill",))
    s.conquer(2)
    s.conquer(3)
    play_rest(s)
    play_turn(s)
    s.abandon(2)
    s.conquer(2)
    assert s.state.regions[2].occupant is not None


def test_kobolds_never_hold_a_region_with_fewer_than_two_tokens() -> None:
    s = two_player(("Kobolds",), ("Hill",), CURSED_SET)
    with pytest.raises(IllegalAction, match="at least 2 tokens, not 1"):
        s.conquer(2, tokens=1)
    s.conquer(2, tokens=2)
    assert s.state.regions[2].occupant == Occupant(0, "Kobolds", False, 2)


def test_kobolds_never_try_the_final_conquest_with_a_single_kobold() -> None:
    s = two_player(("Kobolds",), ("Hill",), CURSED_SET)
    s.conquer(2, tokens=2)
    before = s.state
    with pytest.raises(IllegalAction, match="fewer than 2"):
        s.attempt_final_conquest(3, tokens_left=1)
    assert s.state == before


def test_a_region_conquered_this_turn_cannot_be_abandoned() -> None:
    s = two_player(("Orcs",), ("Hill",))
    s.conquer(2)
    with pytest.raises(IllegalAction, match="conquered this turn"):
        s.abandon(2)


def test_declined_ghouls_go_on_conquering_before_the_active_race() -> None:
    s = two_player(("Ghouls", "Elves", "Humans"), ("Hill", "Forest", "Swamp"))
    s.conquer(2, tokens=5)
    play_rest(s)
    play_turn(s)
    s.decline()  # the Ghouls keep all 5 tokens in region 2
    finish_scoring(s)
    play_turn(s)
    s.conquer(7, tokens=3, declined_ghouls=True)  # next to region 2, before picking
    assert s.state.regions[7].occupant == Occupant(0, "Ghouls", True, 3)
    s.pick(0)
    s.conquer(4)  # the new active race enters
    with pytest.raises(IllegalAction, match="before the active race"):
        s.conquer(3, declined_ghouls=True)
    assert s.state.track.this_turn.conquered_non_empty == 1  # the Ghouls' take is not counted


def test_only_declined_ghouls_conquer_while_in_decline() -> None:
    s = two_player(("Orcs",), ("Hill",))
    s.conquer(2)
    play_rest(s)
    play_turn(s)
    s.decline()
    finish_scoring(s)
    play_turn(s)
    with pytest.raises(IllegalAction, match="no Ghouls in decline"):
        s.conquer(7, declined_ghouls=True)


def test_a_berserk_roll_counts_for_one_conquest_only() -> None:
    s = session(players=2, races=("Ratmen",), powers=("Berserk",))
    s.pick(0)
    face = s.roll_for_berserk()
    assert attacker(s.state).berserk_roll == face
    s.conquer(4)
    assert attacker(s.state).berserk_roll is None
