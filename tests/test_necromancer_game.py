"""Necromancer Island played inside a game: the rules as `game.apply` and the session see
them (his seat and turn, purchases, conquests, the Well, spawning, the win, the end).

The board is the 3-player one (four at the table): its Lake is region 15, bordered by
10 (Lost Tribe), 11, 14 (Lost Tribe), 16, 20 (forest, Lost Tribe), 21 (hill), 22 (Lost
Tribe). Ann (seat 0) plays first, so Di (seat 3) is the Necromancer.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from factories import COLOURS, NAMES, play_turn
from positions import part

from companion.commands.score import main as score_main
from companion.rules import necromancer
from companion.rules.catalog import load_catalog
from companion.rules.codec import from_record
from companion.rules.conquest import conquest_cost
from companion.rules.errors import IllegalAction, RulesError
from companion.rules.events import DieRolled, GameCreated, RegionConquered, Seat, to_record
from companion.rules.game import apply, attacker, start
from companion.rules.maps import load_board
from companion.rules.necromancer import GHOSTS, GhostBought, NecromancerSetup, NecromancerState
from companion.rules.state import with_player
from companion.rules.turns import Phase
from companion.session import Session
from companion.store import Store

NECRO = 3
LAKE = 15
SIX = ("Forest", "Flying", "Alchemist", "Hill", "Merchant", "Wealthy")


def created(players: int = 4, *, six: Sequence[str] = SIX, first: Sequence[str] = (),
            ghosts_removed: int = 0, first_race: str | None = None) -> GameCreated:
    catalog = load_catalog()
    races = [r.name for r in catalog.races_in(("base",))]
    if first_race is not None:
        races = [first_race, *(r for r in races if r != first_race)]
    powers = [p.name for p in catalog.powers_in(("base",)) if p.name not in six]
    powers = [*first, *(p for p in powers if p not in first)]
    board = load_board(f"{players - 1}p")
    return GameCreated(
        seats=tuple(Seat(NAMES[i], COLOURS[i]) for i in range(players)), first_seat=0,
        board=board.name, turns=board.turns, expansions=("base",), dealing="app",
        races=tuple(races), powers=tuple(powers),
        options=(NecromancerSetup(tuple(six), ghosts_removed),))


def game(store: Store | None = None, **kwargs: object) -> Session:
    s = Session(load_catalog(), rng=random.Random(1), store=store)
    s.begin(created(**kwargs))  # type: ignore[arg-type]
    return s


def to_his_turn(s: Session) -> None:
    while s.state.track.seat != NECRO:
        play_turn(s)


def ghosts_hold_21_and_22(s: Session) -> None:
    """His turn: two Ghosts bought, 2 Ghosts in region 21 and 1 in 22, scored and ended."""
    s.buy_ghost()
    s.buy_ghost()
    s.conquer(21, tokens=2)
    s.conquer(22, tokens=1)
    s.finish_conquests()
    s.redeploy_ghosts({21: 2, 22: 1})
    s.score()
    s.end_turn()


def his_turn(s: Session, conquer: int | None = None) -> None:
    if conquer is not None:
        s.conquer(conquer, tokens=max(1, s.state.part(NecromancerState).island))  # type: ignore[union-attr]
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    s.end_turn()


def necro(s: Session):  # type: ignore[no-untyped-def]
    assert s.state.part(NecromancerState) is not None
    return s.state.part(NecromancerState)


# --- set-up ------------------------------------------------------------------------------


def test_the_necromancer_sits_right_of_the_first_player_on_the_board_for_one_fewer() -> None:
    s = game()
    assert s.state.board == "3p" and len(s.state.players) == 4
    assert necro(s).seat == NECRO and necro(s).lake == LAKE
    assert necro(s).powers_in_use == ("Forest",) and necro(s).island == 1


def test_his_six_badges_are_out_of_the_market_deck() -> None:
    event = created()
    with pytest.raises(IllegalAction, match="more than once: Flying"):
        start(replace(event, powers=(*event.powers, "Flying")), load_catalog())


def test_necromancer_island_needs_three_to_six_at_the_table() -> None:
    event = created()
    two = replace(event, seats=event.seats[:2], board="2p")
    with pytest.raises(IllegalAction, match="3 to 6 at the table"):
        start(two, load_catalog())


def test_a_record_of_an_older_game_without_the_necromancer_still_loads() -> None:
    record = to_record(created())
    del record["necromancer_powers"], record["ghosts_removed"]
    event = from_record(record)
    assert isinstance(event, GameCreated) and event.option(NecromancerSetup) is None


def test_he_chooses_the_power_beside_the_well_before_his_first_turn() -> None:
    s = game()
    s.choose_well_power("Alchemist")
    assert necro(s).powers_in_use == ("Alchemist",) and "Forest" in necro(s).powers_in_reserve
    with pytest.raises(IllegalAction, match="one of his six"):
        s.choose_well_power("Commando")
    to_his_turn(s)
    with pytest.raises(IllegalAction, match="before the Necromancer's first turn"):
        s.choose_well_power("Forest")


# --- his turn ----------------------------------------------------------------------------


def test_he_plays_last_and_his_turn_opens_with_buying() -> None:
    s = game()
    for seat in range(3):
        assert s.state.track.seat == seat
        play_turn(s)
    assert s.state.track.seat == NECRO and s.state.track.phase is Phase.CONQUER
    assert necro(s).step.name == "ACQUIRE"


def test_a_purchase_costs_his_powers_in_use_plus_his_ghosts_on_the_map() -> None:
    s = game()
    to_his_turn(s)
    issued = s.state.coins_issued
    s.buy_ghost()  # 1 power + 1 Ghost: 2 coins
    assert s.state.current.coins == 3 and necro(s).island == 2
    s.buy_power("Flying")  # 1 power + 2 Ghosts: 3 coins
    assert s.state.current.coins == 0
    assert necro(s).powers_in_use == ("Forest", "Flying")
    assert s.state.coins_issued == issued - 5  # paid to the stash


def test_a_purchase_he_cannot_afford_is_refused_and_changes_nothing() -> None:
    s = game()
    to_his_turn(s)
    s.buy_ghost()
    s.buy_ghost()  # 3 coins: 0 left
    before = s.state
    with pytest.raises(IllegalAction, match="cannot afford a Ghost: it costs 4 coins"):
        s.buy_ghost()
    assert s.state is before


def test_only_the_necromancer_buys_and_only_before_his_first_move() -> None:
    s = game()
    with pytest.raises(IllegalAction, match="only the Necromancer"):
        apply(s.state, GhostBought(0))
    to_his_turn(s)
    s.conquer(21, tokens=1)
    with pytest.raises(IllegalAction, match="cannot buy a Ghost now"):
        s.buy_ghost()


def test_he_marches_out_from_the_shore_of_the_lake_and_never_onto_it() -> None:
    s = game()
    to_his_turn(s)
    with pytest.raises(IllegalAction, match="borders neither the Lake"):
        s.conquer(2, tokens=1)
    with pytest.raises(IllegalAction, match="nobody conquers it"):
        s.conquer(LAKE, tokens=1)
    s.conquer(21, tokens=1)
    occupant = s.state.regions[21].occupant
    assert occupant is not None and (occupant.seat, occupant.race) == (NECRO, GHOSTS)


def test_his_conquest_costs_follow_the_conquest_rules_with_every_power_in_use() -> None:
    s = game(six=("Commando", "Mounted", "Alchemist", "Hill", "Merchant", "Wealthy"))
    to_his_turn(s)
    s.adjust_coins(NECRO, 10, "a test")
    s.buy_power("Mounted")
    cost = conquest_cost(s.state.map, 21, s.state.regions.regions, attacker(s.state))
    labels = [line.label for line in cost.lines]
    assert "Commando" in labels and "Mounted on hill" in labels  # both powers count
    assert cost.total == 1


def test_his_berserk_roll_comes_off_his_next_conquest_like_any_berserk_race() -> None:
    s = game(six=("Forest", "Berserk", "Alchemist", "Hill", "Merchant", "Wealthy"))
    to_his_turn(s)
    s.adjust_coins(NECRO, 10, "a test")
    s.buy_power("Berserk")
    rolled = apply(s.state, DieRolled(NECRO, 2, "berserk"))
    cost = conquest_cost(rolled.map, 10, rolled.regions.regions, attacker(rolled))
    assert ("Berserk rolled 2", -2) in [(line.label, line.tokens) for line in cost.lines]
    after = apply(rolled, RegionConquered(NECRO, 10, 1))
    assert after.last_roll is None  # the roll is used up by the conquest


def test_a_lost_tribe_he_knocks_out_falls_into_the_well() -> None:
    s = game()
    to_his_turn(s)
    s.conquer(10, tokens=1)
    assert necro(s).well.souls == 1 and not s.state.regions[10].lost_tribe


def ann_holds_21_at_his_turn(s: Session) -> None:
    """Ann takes 29 and 21 (on the Lake's shore) with her active race; then his turn."""
    s.pick(0)
    s.conquer(29, tokens=3)
    s.conquer(21, tokens=3)
    s.finish_conquests()
    s.finish_redeployment()
    s.score(0)
    s.end_turn()
    to_his_turn(s)


def test_a_corrupt_race_takes_a_coin_from_the_necromancer_who_conquers_its_region() -> None:
    s = game()
    ann_holds_21_at_his_turn(s)
    ann = s.state.players[0]
    assert ann.active is not None
    corrupt = replace(ann, active=replace(ann.active, power="Corrupt"))
    state = replace(s.state, players=with_player(s.state.players, corrupt))
    after = apply(state, RegionConquered(NECRO, 21, 1))
    assert after.players[NECRO].coins == state.players[NECRO].coins - 1
    assert after.players[0].coins == state.players[0].coins + 1


def test_ransacking_ghosts_take_a_coin_from_the_active_race_they_conquer() -> None:
    s = game()
    ann_holds_21_at_his_turn(s)
    him = necro(s)
    state = s.state.with_part(replace(him, powers_in_use=(*him.powers_in_use, "Ransacking")))
    after = apply(state, RegionConquered(NECRO, 21, 1))
    assert after.players[NECRO].coins == state.players[NECRO].coins + 1
    assert after.players[0].coins == state.players[0].coins - 1


def test_his_ghosts_take_the_pot_of_gold_in_a_region_they_conquer() -> None:
    s = game()
    ann_holds_21_at_his_turn(s)
    here = s.state.regions[21]
    pot = replace(here, markers=here.markers.with_piece("pot_of_gold"))
    # a Pot of Gold stands only in a game that plays the Leprechauns' set
    state = replace(s.state, regions=s.state.regions.with_region(21, pot),
                    expansions=(*s.state.expansions, "be-not-afraid"))
    after = apply(state, RegionConquered(NECRO, 21, 1))
    assert after.players[NECRO].coins == state.players[NECRO].coins + 1
    assert after.coins_issued == state.coins_issued + 1


def test_a_race_in_decline_whose_last_region_his_ghosts_take_leaves_the_board() -> None:
    s = game()
    ann_holds_21_at_his_turn(s)
    his_turn(s)
    s.abandon(29)
    s.decline()
    race = s.state.players[0].declined[0].race
    s.score(0)
    s.end_turn()
    to_his_turn(s)
    s.conquer(21, tokens=1)
    assert s.state.players[0].declined == ()
    assert race in s.state.market.race_stack


def test_his_redeployment_places_every_ghost_and_scoring_follows() -> None:
    s = game()
    to_his_turn(s)
    s.buy_ghost()
    s.conquer(21, tokens=1)
    s.finish_conquests()
    with pytest.raises(IllegalAction, match="2 Ghosts on the map to place, not 3"):
        s.redeploy_ghosts({21: 2}, island=1)
    s.redeploy_ghosts({21: 2})
    assert s.state.track.phase is Phase.SCORE
    occupant = s.state.regions[21].occupant
    assert occupant is not None and occupant.tokens == 2 and necro(s).island == 0


def test_a_plain_end_of_his_redeployment_puts_his_free_ghosts_on_the_island() -> None:
    s = game()
    to_his_turn(s)
    s.buy_ghost()
    s.conquer(21, tokens=1)
    s.finish_conquests()
    s.finish_redeployment()
    assert necro(s).regions == {21: 1} and necro(s).island == 1


def test_he_scores_a_coin_per_region_his_powers_bonuses_and_a_soul_per_region() -> None:
    s = game()
    to_his_turn(s)
    s.buy_ghost()
    s.buy_ghost()
    s.conquer(20, tokens=1)  # a forest with a Lost Tribe
    s.conquer(21, tokens=1)
    s.conquer(22, tokens=1)  # a Lost Tribe
    s.finish_conquests()
    s.finish_redeployment()
    coins = s.state.current.coins
    s.score()
    lines = s.history.last_step[0].lines  # type: ignore[union-attr]
    assert lines == (("regions held", 3), ("Forest: one per forest region", 1))
    assert s.state.current.coins == coins + 4
    # 2 Lost Tribes + 3 bonus souls: one set of 4 spawned a Ghost, 1 soul waits
    assert necro(s).well.souls == 1 and necro(s).island == 1 and necro(s).reserve == 10


def test_companion_score_pays_the_necromancer_what_the_game_pays_him(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = game()
    to_his_turn(s)
    s.buy_ghost()
    s.conquer(20, tokens=1)  # a forest
    s.conquer(21, tokens=1)
    s.finish_conquests()
    s.finish_redeployment()
    in_game = necromancer.his_income_lines(s.state)
    scenario = tmp_path / "necromancer.json"
    scenario.write_text(json.dumps({"map": "3p", "turn": s.state.track.turn, "player": {
        "necromancer": {"powers": list(necro(s).powers_in_use), "regions": [20, 21]}}}))
    assert score_main([str(scenario)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [line["coins"] for line in printed["lines"]] == [coins for _, coins in in_game]
    assert printed["total"] == sum(coins for _, coins in in_game) == 3


def test_a_score_that_does_not_add_up_is_refused() -> None:
    s = game()
    to_his_turn(s)
    s.conquer(21, tokens=1)
    s.finish_conquests()
    s.finish_redeployment()
    with pytest.raises(IllegalAction, match="add up to 1 coins, not 5"):
        s.score(5, [("regions held", 1)])


# --- other players' turns ----------------------------------------------------------------


def test_other_players_count_every_ghost_as_a_race_in_decline() -> None:
    s = game()
    to_his_turn(s)
    s.buy_ghost()
    s.conquer(21, tokens=2)
    s.finish_conquests()
    s.redeploy_ghosts({21: 2})
    s.score()
    s.end_turn()
    occupant = s.state.regions[21].occupant
    assert occupant is not None and occupant.in_decline and occupant.tokens == 2
    cost = conquest_cost(s.state.map, 21, s.state.regions.regions, attacker(s.state))
    assert [(line.label, line.tokens) for line in cost.lines][-1] == (
        "Ghosts in decline tokens there", 2)


def test_nobody_else_may_conquer_the_island_not_even_by_sea() -> None:
    s = game(first=("Seafaring",))
    s.pick(0)
    with pytest.raises(IllegalAction, match="cannot be attacked, not even by sea"):
        s.conquer(LAKE, tokens=3)


def test_every_token_lost_in_another_players_conquest_feeds_the_well() -> None:
    s = game()
    s.pick(0)
    for region in (30, 24):  # Lost Tribes
        s.conquer(region, tokens=3)
    assert necro(s).well.souls == 2
    s.finish_conquests()
    s.finish_redeployment()
    s.score(0)
    s.end_turn()
    s.pick(0)
    s.conquer(29, tokens=2)
    s.conquer(30, tokens=4)  # Ann's active race loses one token
    assert necro(s).well.souls == 3


def test_the_elves_discarded_on_going_into_decline_fall_into_the_well() -> None:
    s = game(first_race="Elves")
    s.pick(0)
    elves = s.state.players[0].active
    assert elves is not None and elves.race == "Elves"
    s.conquer(29, tokens=3)
    s.conquer(28, tokens=3)
    s.finish_conquests()
    s.finish_redeployment()
    s.score(0)
    s.end_turn()
    play_turn(s)
    play_turn(s)
    his_turn(s)
    souls = necro(s).well.souls
    s.decline()
    assert necro(s).well.souls == souls + elves.tokens - 2  # one stays in each region


def test_tokens_a_race_sheds_going_into_decline_go_to_the_tray_not_the_well() -> None:
    s = game()
    ann_holds_21_at_his_turn(s)
    his_turn(s)
    well = necro(s).well
    s.decline()  # Amazons: 3 tokens in each of 29 and 21, one stays in each
    assert necro(s).well == well


def test_four_tokens_in_the_well_spawn_a_ghost_when_the_turn_ends() -> None:
    s = game()
    s.pick(0)
    for region in (30, 24, 23, 22):  # four Lost Tribes
        s.conquer(region, tokens=3)
    s.finish_conquests()
    s.finish_redeployment()
    s.score(0)
    assert necro(s).well.souls == 4 and necro(s).island == 1
    s.end_turn()
    assert necro(s).well.souls == 0 and necro(s).island == 2 and necro(s).reserve == 12


def test_taking_a_ghost_region_sends_one_ghost_to_the_well_and_the_rest_to_his_hand() -> None:
    s = game()
    to_his_turn(s)
    ghosts_hold_21_and_22(s)
    play_turn(s)  # Ann; Bob plays the race he picked in turn 1
    s.conquer(28, tokens=2)
    s.conquer(21, tokens=4)
    assert necro(s).well.ghosts == 1 and necro(s).hand == 1
    s.finish_conquests()
    s.finish_redeployment()
    s.score(0)
    with pytest.raises(IllegalAction, match="back on his regions first"):
        s.end_turn()
    s.return_ghosts({22: 1})
    s.end_turn()
    occupant = s.state.regions[22].occupant
    assert occupant is not None and occupant.tokens == 2


def test_ghosts_count_as_in_decline_so_nobody_ransacks_them_and_corrupt_earns_nothing() -> None:
    s = game()
    to_his_turn(s)
    his_turn(s, conquer=21)
    play_turn(s)  # Ann; Bob plays the race he picked in turn 1
    s.conquer(28, tokens=2)
    bob, him = s.state.players[1], necro(s)
    assert bob.active is not None
    ransacking = replace(bob, active=replace(bob.active, power="Ransacking"))
    state = replace(s.state, players=with_player(s.state.players, ransacking)).with_part(
        replace(him, powers_in_use=(*him.powers_in_use, "Corrupt")))
    after = apply(state, RegionConquered(1, 21, 3))
    assert [p.coins for p in after.players] == [p.coins for p in state.players]


# --- the end -----------------------------------------------------------------------------


def test_his_instant_win_ends_the_game_and_puts_him_first() -> None:
    s = game(ghosts_removed=2)
    to_his_turn(s)
    s.adjust_coins(NECRO, 100, "a test")
    while necro(s).reserve:
        s.buy_ghost()
    s.conquer(21, tokens=12)
    s.finish_conquests()
    s.finish_redeployment()
    s.score()
    assert s.state.is_over and necro(s).won
    with pytest.raises(IllegalAction, match="the game is over"):
        s.end_turn()
    result = s.finish()
    assert result.winners == frozenset({NECRO})
    assert result.placings[0].seat == NECRO and "every Ghost in play" in str(result.reason)


def test_without_his_win_the_others_win_on_coins_and_he_comes_after_them() -> None:
    s = game()
    s.adjust_coins(NECRO, 50, "a test")
    s.adjust_coins(1, 3, "a test")  # Bob ahead of the others: no tie to count
    while not s.state.is_over:
        if s.state.track.seat == NECRO:
            his_turn(s)
        else:
            play_turn(s)
    result = s.finish()
    assert result.winners == frozenset({1})
    assert result.placings[-1].seat == NECRO


# --- the session with a real store -------------------------------------------------------


def test_a_necromancer_game_comes_back_mid_turn_from_the_store(tmp_path: Path) -> None:
    s = game(store=Store.open(tmp_path / "g.sqlite3"))
    to_his_turn(s)
    s.buy_ghost()
    s.conquer(21, tokens=1)
    assert s.store is not None
    s.store.close()  # the app stops (one app per file: the next one opens it after)
    again = Session(load_catalog(), rng=random.Random(2), store=Store.open(tmp_path / "g.sqlite3"))
    resumed = again.resume()
    assert resumed is not None and resumed.part(NecromancerState) == s.state.part(NecromancerState)
    assert resumed.regions == s.state.regions and resumed.current.coins == 3
    again.finish_conquests()
    again.redeploy_ghosts({21: 2})
    assert again.state.track.phase is Phase.SCORE


def test_undo_takes_back_his_purchase_and_its_coins(tmp_path: Path) -> None:
    s = game(store=Store.open(tmp_path / "g.sqlite3"))
    to_his_turn(s)
    before = s.state
    s.buy_ghost()
    s.undo()
    assert s.state.part(NecromancerState) == before.part(NecromancerState)
    assert s.state.current.coins == before.current.coins


def test_new_game_draws_his_powers_from_the_shuffled_badges() -> None:
    s = Session(load_catalog(), rng=random.Random(5))
    seats = [Seat(n, c) for n, c in zip(NAMES[:5], COLOURS[:5], strict=True)]
    state = s.new_game(seats, first_seat=2, necromancer=True, ghosts_removed=1)
    assert state.board == "4p" and state.part(NecromancerState) is not None
    assert state.part(NecromancerState).seat == 1 and state.part(NecromancerState).reserve == 12
    him = part(state, NecromancerState)
    six = {*him.powers_in_use, *him.powers_in_reserve}
    assert len(six) == 6 and not six & {"Cursed", "Spirit", "Stout"}
    on_market = {row.combo.power for row in state.market.rows} | set(state.market.power_stack)
    assert not six & on_market


# --- whole games at random -----------------------------------------------------------------


def check_books(s: Session) -> None:
    """No Ghost lost or made up, the board shows exactly his Ghost regions, no coin lost."""
    state = s.state
    n = necro(s)
    total = (n.island + sum(n.regions.values()) + n.hand + n.reserve + n.well.ghosts
             + n.removed)
    assert total == 14
    on_board = {rid: here.occupant.tokens for rid, here in state.regions.regions.items()
                if here.occupant is not None and here.occupant.seat == NECRO}
    assert on_board == dict(n.regions)
    assert all(here.occupant is None for rid, here in state.regions.regions.items()
               if rid == LAKE)
    market = sum(row.coins for row in state.market.rows)
    assert sum(p.coins for p in state.players) + market == state.coins_issued


def random_turn(s: Session, rng: random.Random) -> None:
    from companion.rules.necromancer import attackable

    state = s.state
    his = state.track.seat == NECRO
    if his:
        while rng.random() < 0.6:
            powers = necro(s).powers_in_reserve
            try:
                if powers and rng.random() < 0.3:
                    s.buy_power(rng.choice(powers))
                else:
                    s.buy_ghost()
            except IllegalAction:
                break
            check_books(s)
    elif state.current.active is None:
        s.pick(0)
    for _ in range(rng.randrange(3)):
        who = attacker(s.state)
        targets = [r for r in s.state.map.regions if attackable(s.state, who, r)]
        if not targets:
            break
        free = necro(s).hand if his and necro(s).step.name == "CONQUER" else None
        if his and free == 0:
            break
        region = rng.choice(targets)
        try:
            s.conquer(region, tokens=rng.randint(1, free or 4) if his else 3)
        except IllegalAction as refused:
            assert "free to move" in str(refused)  # before the first move: counted then
            break
        check_books(s)
    s.finish_conquests()
    if his:
        n = necro(s)
        placed = dict.fromkeys(n.regions, 1)
        for _ in range(n.on_map - len(placed)):
            spot = rng.choice([*placed, None]) if placed else None
            if spot is not None:
                placed[spot] += 1
        s.redeploy_ghosts(placed, n.on_map - sum(placed.values()))
        check_books(s)
        s.score()
    else:
        s.finish_redeployment()
        s.score(0)
        if necro(s).hand and necro(s).regions:
            s.return_ghosts({rng.choice(list(necro(s).regions)): necro(s).hand})
    check_books(s)
    if not s.state.is_over:
        s.end_turn()
        check_books(s)


@pytest.mark.parametrize("seed", range(6))
def test_random_games_never_lose_a_ghost_or_a_coin_and_keep_the_board_in_step(
    seed: int,
) -> None:
    rng = random.Random(seed)
    s = game()
    s.adjust_coins(NECRO, 20, "a richer Necromancer, to buy more")
    while not s.state.is_over:
        random_turn(s, rng)
    result = s.finish({seat: 1 + seat for seat in s.tied_for_first()})
    assert {p.seat for p in result.placings} == {0, 1, 2, NECRO}


def test_he_buys_only_a_power_still_in_his_reserve() -> None:
    s = game()
    to_his_turn(s)
    before = s.state
    with pytest.raises(IllegalAction, match="Forest"):  # beside the Well: in use already
        s.buy_power("Forest")
    with pytest.raises(IllegalAction, match="Berserk"):  # not one of his six
        s.buy_power("Berserk")
    assert s.state is before
    s.buy_power("Flying")
    assert necro(s).powers_in_use == ("Forest", "Flying")


def test_one_or_two_ghosts_may_leave_his_reserve_but_no_more() -> None:
    assert necro(game(ghosts_removed=2)).reserve == necro(game()).reserve - 2
    with pytest.raises(RulesError, match="2"):
        game(ghosts_removed=3)
