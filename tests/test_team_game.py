"""Six players in teams played inside a game: the rules as `game.apply` and the session see
them (the table and board, the Monsters before the first turn, the Relics and Places found
where a Monster falls, their coins and choices, the team standings at the end).

The board is the 5-player one. Ann (seat 0) plays first; the teams are A = Ann and Di,
B = Bob and Ed, C = Cy and Fay. Monsters go (in turn order, seats 1 to 5) to regions 6, 12,
30, 37 and 24. Region 6 is a Lost Tribe farmland on the board's edge next to 5, 10 and 11.
"""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from factories import play_turn
from positions import part
from team_support import (
    ANN,
    BOB,
    COLOURS,
    CY,
    DI,
    ED,
    FAY,
    MONSTERS,
    NAMES,
    ann_takes_region_6,
    bob_in_decline,
    created,
    monsters_out,
    others_play,
    play_to_the_end,
    session,
    to_turn_end,
)

from companion.rules.catalog import load_catalog
from companion.rules.codec import from_record
from companion.rules.conquest import conquest_cost
from companion.rules.errors import IllegalAction
from companion.rules.events import Seat, to_record
from companion.rules.game import attacker
from companion.rules.income import income
from companion.rules.maps import load_board
from companion.rules.teams import (
    BONEYARD,
    MARKERS,
    MIRROR,
    SIGIL,
    SOAPBAR,
    TAVERN,
    BonyPlaced,
    MonsterPassed,
    MonsterPlaced,
    MonsterSetup,
    PowersSwapped,
    RelicsState,
    SigilPactMade,
    SoapbarMoved,
    TavernShared,
    TeamSetup,
    team_label,
    team_result,
)
from companion.rules.turns import Phase
from companion.session import Session
from companion.store import Store

# --- the table -----------------------------------------------------------------------------


def test_a_team_game_is_six_players_over_eight_turns_on_the_five_player_board() -> None:
    s = Session(load_catalog(), rng=random.Random(1))
    seats = [Seat(n, c) for n, c in zip(NAMES, COLOURS, strict=True)]
    state = s.new_game(seats, first_seat=0, teams=True)
    assert (state.board, state.track.turns, state.track.players) == ("5p", 8, 6)
    assert sorted(part(state, RelicsState).pile) == sorted(MARKERS)
    assert part(state, MonsterSetup).next_seat == BOB


def test_a_team_game_needs_exactly_six_players() -> None:
    with pytest.raises(IllegalAction, match="exactly 6 players"):
        session(players=5)


def test_six_players_without_teams_are_refused() -> None:
    with pytest.raises(IllegalAction, match="2 to 5 players"):
        session(teams=False)


def test_a_team_game_refuses_a_board_for_another_player_count() -> None:
    board = load_board("4p")
    with pytest.raises(IllegalAction, match="5p board"):
        session(board="4p", turns=board.turns)


def test_the_relic_pile_is_drawn_only_in_a_team_game() -> None:
    event = created(teams=False, players=5)
    with pytest.raises(IllegalAction, match="only in a team game"):
        Session(load_catalog()).begin(replace(event, options=(TeamSetup(False, tuple(MARKERS)),)))


def test_team_events_survive_a_save_as_records() -> None:
    for event in (created(), MonsterPlaced(1, 6), MonsterPassed(2), SoapbarMoved(0, 5),
                  TavernShared(0, 3, 2), BonyPlaced(0, 1, "Orcs"), PowersSwapped(0),
                  SigilPactMade(0, "shield", 1, "Orcs")):
        assert from_record(to_record(event)) == event


def test_a_team_game_plays_round_the_table_a1_b1_c1_a2_b2_c2_from_the_first_player() -> None:
    s = Session(load_catalog(), rng=random.Random(5))
    s.begin(replace(created(), first_seat=CY))
    placers = []
    for region in MONSTERS:
        placers.append(s.state.part(MonsterSetup).next_seat if s.state.part(MonsterSetup) else None)
        s.place_monster(region)
    assert placers == [DI, ED, FAY, ANN, BOB]  # everyone but the first player
    order = []
    for _ in range(7):
        seat = s.state.track.seat
        order.append((s.state.track.turn, seat, team_label(s.state, seat)))
        play_turn(s)
    assert order == [(1, CY, "A"), (1, DI, "B"), (1, ED, "C"), (1, FAY, "A"), (1, ANN, "B"),
                     (1, BOB, "C"), (2, CY, "A")]


# --- the Monsters --------------------------------------------------------------------------


def test_no_turn_begins_before_every_monster_is_out() -> None:
    s = session()
    with pytest.raises(IllegalAction, match="Bob sets"):
        s.pick(0)
    s.place_monster(6)
    with pytest.raises(IllegalAction, match="Cy sets"):
        s.pick(0)


def test_monsters_go_out_in_turn_order_from_the_second_player() -> None:
    s = session()
    placed = []
    for region in MONSTERS:
        placed.append(s.state.part(MonsterSetup).next_seat if s.state.part(MonsterSetup) else None)
        s.place_monster(region)
    assert placed == [BOB, CY, DI, ED, FAY]
    assert part(s.state, RelicsState).monsters == frozenset(MONSTERS)
    s.pick(0)  # and the first turn begins


def test_a_monster_never_goes_next_to_another_monster() -> None:
    s = session()
    s.place_monster(12)
    with pytest.raises(IllegalAction, match="borders the Monster in region 12"):
        s.place_monster(8)
    with pytest.raises(IllegalAction, match="Lost Tribe region"):
        s.place_monster(9)


def test_a_player_passes_only_when_no_region_is_left_for_their_monster() -> None:
    s = session()
    with pytest.raises(IllegalAction, match="must be placed"):
        s.pass_monster()


def test_a_monster_adds_one_token_to_the_cost_of_its_region() -> None:
    s = session()
    monsters_out(s)
    s.pick(0)
    state = s.state
    cost = conquest_cost(state.map, 6, state.regions.regions, attacker(state))
    assert ("Monster", 1) in [(line.label, line.tokens) for line in cost.lines]
    plain = conquest_cost(state.map, 17, state.regions.regions, attacker(state))
    assert "Monster" not in [line.label for line in plain.lines]


def test_taking_a_monsters_region_removes_it_and_draws_the_top_of_the_pile() -> None:
    s = session(pile=(TAVERN,))
    ann_takes_region_6(s)
    relics = s.state.part(RelicsState)
    assert relics is not None
    assert 6 not in relics.monsters and relics.lying == {TAVERN: 6}
    assert len(relics.pile) == 4


def test_a_relic_or_place_found_adds_nothing_to_the_cost_of_its_region() -> None:
    s = session(pile=(TAVERN,))
    ann_takes_region_6(s)  # the Monster falls, the Tavern is drawn into region 6
    to_turn_end(s)
    s.end_turn()
    s.pick(0)  # Bob
    state = s.state
    cost = conquest_cost(state.map, 6, state.regions.regions, attacker(state))
    raised = [(line.label, line.tokens) for line in cost.lines if line.tokens > 0]
    assert raised == [("Any conquest", 2), ("Amazons tokens there", 4)]


# --- the Golden Soapbar ----------------------------------------------------------------------


def test_the_golden_soapbar_pays_its_holder_one_coin_at_the_end_of_their_turn() -> None:
    s = session(pile=(SOAPBAR,))
    ann_takes_region_6(s)
    s.finish_conquests()
    s.finish_redeployment()
    before = s.state.players[ANN].coins
    earned = income(s.state).total
    s.score()
    assert s.state.players[ANN].coins == before + earned + 1


def test_the_turn_cannot_end_before_the_soapbar_has_moved() -> None:
    s = session(pile=(SOAPBAR,))
    ann_takes_region_6(s)
    to_turn_end(s)
    with pytest.raises(IllegalAction, match="move the Golden Soapbar first"):
        s.end_turn()
    s.move_soapbar(5)
    s.end_turn()
    assert part(s.state, RelicsState).lying[SOAPBAR] == 5


def test_the_soapbar_moves_next_to_its_holder_but_never_into_their_active_region() -> None:
    s = session(pile=(SOAPBAR,))
    ann_takes_region_6(s)
    to_turn_end(s)
    with pytest.raises(IllegalAction, match="allowed: 5, 10, 11"):
        s.move_soapbar(6)
    with pytest.raises(IllegalAction, match="allowed: 5, 10, 11"):
        s.move_soapbar(20)


def test_the_soapbar_pays_whoever_holds_it_when_their_turn_ends() -> None:
    s = session(pile=(SOAPBAR,))
    ann_takes_region_6(s)
    to_turn_end(s)
    s.move_soapbar(5)  # an empty region next to Ann's
    s.end_turn()
    s.pick(0)  # Bob takes the Soapbar's region: its coin is his now
    s.conquer(5, tokens=3)
    s.finish_conquests()
    s.finish_redeployment()
    before = s.state.players[BOB].coins
    earned = income(s.state).total
    s.score()
    assert s.state.players[BOB].coins == before + earned + 1
    assert part(s.state, RelicsState).soapbar_owed_by == BOB
    s.move_soapbar(4)
    s.end_turn()
    others_play(s)
    s.finish_conquests()  # Ann, turn 2: she no longer holds it
    s.finish_redeployment()
    before = s.state.players[ANN].coins
    earned = income(s.state).total
    s.score()
    assert s.state.players[ANN].coins == before + earned


# --- Glandulf's Tavern -----------------------------------------------------------------------


def test_the_tavern_pays_two_coins_which_its_holder_may_give_to_a_partner() -> None:
    s = session(pile=(TAVERN,))
    ann_takes_region_6(s)
    s.finish_conquests()
    s.finish_redeployment()
    earned = income(s.state).total
    ann, di = s.state.players[ANN].coins, s.state.players[DI].coins
    s.score()
    assert s.state.players[ANN].coins == ann + earned + 2
    issued = s.state.coins_issued
    s.share_tavern(DI, 2)
    assert s.state.players[ANN].coins == ann + earned
    assert s.state.players[DI].coins == di + 2
    assert s.state.coins_issued == issued  # coins move, none are made
    with pytest.raises(IllegalAction, match="only the Tavern's holder"):
        s.share_tavern(BOB, 1)  # once a turn


def test_the_tavern_shares_its_own_two_coins_and_no_others() -> None:
    s = session(pile=(TAVERN,))
    ann_takes_region_6(s)
    to_turn_end(s)
    with pytest.raises(IllegalAction, match="1 to 2 coin"):
        s.share_tavern(BOB, 3)
    with pytest.raises(IllegalAction, match="another player"):
        s.share_tavern(ANN, 1)


def test_the_tavern_is_shared_only_in_the_turn_its_coins_were_collected() -> None:
    s = session(pile=(TAVERN,))
    ann_takes_region_6(s)
    to_turn_end(s)
    s.end_turn()
    s.pick(0)
    with pytest.raises(IllegalAction, match="only the Tavern's holder"):
        s.share_tavern(ANN, 1)


def test_a_race_in_decline_never_collects_a_places_coins() -> None:
    s = session(pile=(TAVERN,))
    ann_takes_region_6(s)
    to_turn_end(s)
    s.end_turn()
    others_play(s)
    s.decline()  # Ann's race goes into decline at the start of turn 2, still in region 6
    earned = income(s.state).total
    before = s.state.players[ANN].coins
    s.score()
    assert s.state.players[ANN].coins == before + earned
    assert part(s.state, RelicsState).tavern_open is None


# --- Bony's Boneyard -------------------------------------------------------------------------


def test_bony_keeps_another_players_power_from_lowering_the_cost_of_his_banner() -> None:
    # Ann takes the Boneyard; Bob's race declines in region 2; Ann sets Bony
    # on it; Cy's Commando then gets no discount against it, Bob's own race would.
    s = bob_in_decline((BONEYARD,), powers=("Alchemist", "Wealthy", "Commando"))
    bob_race = s.state.players[BOB].declined[0]
    s.place_bony(BOB, bob_race.race)  # Ann, turn 3
    assert part(s.state, RelicsState).bony is not None
    to_turn_end(s)
    s.end_turn()
    play_turn(s)  # Bob
    state = s.state  # Cy's turn: their Commando race
    assert state.current.active is not None and state.current.active.power == "Commando"
    cost = conquest_cost(state.map, 2, state.regions.regions, attacker(state))
    assert "Commando" not in [line.label for line in cost.lines]
    assert cost.notes and "Bony" in cost.notes[0]


def test_no_mercenary_coin_is_spent_against_the_banner_bony_guards() -> None:
    # As above, with Cy's race Mercenary: the power does nothing against Bob's Dwarves in
    # decline, so its coin is refused there (it would buy no discount).
    s = bob_in_decline((BONEYARD,), powers=("Alchemist", "Wealthy", "Mercenary"),
                       expansions=("base", "be-not-afraid"))
    bob_race = s.state.players[BOB].declined[0]
    s.place_bony(BOB, bob_race.race)  # Ann, turn 3
    to_turn_end(s)
    s.end_turn()
    play_turn(s)  # Bob
    coins = s.state.players[CY].coins
    with pytest.raises(IllegalAction, match="Bony"):
        s.conquer(2, tokens=3, mercenary_coin=True)
    assert s.state.players[CY].coins == coins
    s.conquer(2, tokens=3)  # without the coin, at the full cost


def test_only_the_boneyards_active_holder_sets_bony() -> None:
    s = session(pile=(TAVERN,))
    ann_takes_region_6(s)
    with pytest.raises(IllegalAction, match="Bony's Boneyard sets Bony"):
        s.place_bony(BOB, "Amazons")


# --- Mirror's Vale ---------------------------------------------------------------------------


def test_mirrors_vale_swaps_special_powers_with_the_partner_at_the_start_of_a_turn() -> None:
    s = session(pile=(MIRROR,))
    ann_takes_region_6(s)
    to_turn_end(s)
    s.end_turn()
    others_play(s)
    ann = s.state.players[ANN].active
    di = s.state.players[DI].active
    assert ann is not None and di is not None
    s.swap_powers()
    assert s.state.players[ANN].active.power == di.power  # type: ignore[union-attr]
    assert s.state.players[DI].active.power == ann.power  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match="already been used this turn"):
        s.swap_powers()


def test_mirrors_vale_lifts_the_swapped_powers_pieces_and_costs_follow_the_new_power() -> None:
    s = session(pile=(MIRROR,), powers=("Fortified", "Alchemist", "Wealthy", "Commando"))
    ann_takes_region_6(s)
    s.finish_conquests()
    s.place_marker(6, "fortress")
    s.finish_redeployment()
    s.score()
    s.end_turn()
    others_play(s)  # Di picks Commando
    plain = conquest_cost(s.state.map, 5, s.state.regions.regions, attacker(s.state))
    assert "Commando" not in [line.label for line in plain.lines]
    s.swap_powers()  # Ann, turn 2
    state = s.state
    assert not state.regions[6].markers.fortress  # back to the hand of Fortified's new owner
    cost = conquest_cost(state.map, 5, state.regions.regions, attacker(state))
    assert ("Commando", -1) in [(line.label, line.tokens) for line in cost.lines]


def test_mirrors_vale_is_used_before_any_conquest_of_the_turn() -> None:
    s = session(pile=(MIRROR,))
    ann_takes_region_6(s)
    with pytest.raises(IllegalAction, match="start of your turn"):
        s.swap_powers()


# --- the Sigil of Sacrifice --------------------------------------------------------------------


def test_the_sigils_pact_holds_while_its_holder_keeps_the_sigil() -> None:
    s = session(pile=(SIGIL,))
    ann_takes_region_6(s)
    s.conquer(5, tokens=2)
    to_turn_end(s)
    s.end_turn()
    s.pick(0)  # Bob
    s.conquer(2, tokens=3)
    bob = s.state.players[BOB].active
    assert bob is not None
    to_turn_end(s)
    s.end_turn()
    others_play(s)
    s.make_sigil_pact("shield", BOB, bob.race)  # Ann, turn 2
    assert part(s.state, RelicsState).sigil is not None
    s.abandon(6)
    assert s.state.part(RelicsState).sigil is None  # she no longer holds the Sigil


def test_the_sigils_pact_is_a_shield_or_a_stand_in() -> None:
    s = session(pile=(SIGIL,))
    ann_takes_region_6(s)
    with pytest.raises(IllegalAction, match="shield or stand-in"):
        s.make_sigil_pact("trade", BOB, "Amazons")


# --- the end -----------------------------------------------------------------------------------


def test_a_team_scores_its_lower_total_and_the_best_team_wins(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "games.sqlite3")
    s = session(store=store)
    play_to_the_end(s, {ANN: 20, BOB: 30, CY: 25, DI: 22, ED: 12, FAY: 24})
    result = s.finish()
    assert result.winners == {ANN, DI} or result.winners == {CY, FAY}
    teams = team_result(s.state)
    assert [(p.team.label, p.score) for p in teams.placings] == [("C", 24), ("A", 20),
                                                                  ("B", 12)]
    assert result.winners == {CY, FAY}
    assert s.game_id is not None
    summary = store.game_summary(s.game_id)
    assert summary.game.result is not None and "Team C" in summary.game.result
    assert {w.seat for w in summary.game.winners} == {CY, FAY}


def test_teams_level_on_their_lower_totals_go_by_the_best_single_total() -> None:
    s = session()
    play_to_the_end(s, {ANN: 20, BOB: 30, CY: 20, DI: 22, ED: 12, FAY: 26})
    result = s.finish()
    assert result.winners == {CY, FAY}
    assert "best single total" in str(result.reason)
    assert s.tied_for_first() == frozenset()  # nobody counts tokens in a team game


# --- saved, resumed, undone ----------------------------------------------------------------------


def test_the_monster_set_up_is_saved_resumed_and_undone(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    s = session(store=Store.open(path))
    s.place_monster(6)
    s.place_monster(12)
    s.undo()
    assert part(s.state, MonsterSetup).placed == ((BOB, 6),)
    assert part(s.state, RelicsState).monsters == frozenset({6})
    s.place_monster(30)
    assert s.store is not None
    s.store.close()

    again = Session(load_catalog(), rng=random.Random(5), store=Store.open(path))
    resumed = again.resume()
    assert resumed == s.state
    assert resumed is not None and resumed.part(MonsterSetup) is not None
    assert resumed.part(MonsterSetup).placed == ((BOB, 6), (CY, 30))
    again.undo()
    again.undo()
    assert part(again.state, MonsterSetup).placed == ()
    for region in MONSTERS:
        again.place_monster(region)
    again.pick(0)
    assert again.state.track.phase is Phase.CONQUER


def test_a_relic_found_is_saved_with_the_game(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    s = session(store=Store.open(path), pile=(SOAPBAR,))
    ann_takes_region_6(s)
    to_turn_end(s)
    assert s.store is not None
    s.store.close()
    again = Session(load_catalog(), rng=random.Random(5), store=Store.open(path))
    resumed = again.resume()
    assert resumed is not None and resumed.part(RelicsState) is not None
    relics = part(resumed, RelicsState)
    assert relics.soapbar_owed_by == ANN and relics.lying == {SOAPBAR: 6}
    with pytest.raises(IllegalAction, match="Golden Soapbar"):
        again.end_turn()


def test_bony_leaves_his_banner_when_the_boneyards_holder_goes_into_decline() -> None:
    s = bob_in_decline((BONEYARD,), powers=("Alchemist", "Wealthy", "Commando"))
    bob_race = s.state.players[BOB].declined[0]
    s.place_bony(BOB, bob_race.race)  # Ann, turn 3, holding the Boneyard
    to_turn_end(s)
    s.end_turn()
    others_play(s)
    assert part(s.state, RelicsState).bony is not None
    s.decline()  # Ann's race, holding the Boneyard, goes into decline
    assert part(s.state, RelicsState).bony is None


def test_an_abandoned_region_keeps_the_relic_or_place_found_in_it() -> None:
    s = session(pile=(TAVERN,))
    ann_takes_region_6(s)
    to_turn_end(s)
    s.end_turn()
    others_play(s)
    s.abandon(6)  # Ann leaves the Tavern's region before conquering
    state = part(s.state, RelicsState)
    assert state.lying[TAVERN] == 6
    assert s.state.regions[6].occupant is None
