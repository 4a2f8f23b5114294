"""The troops, as the rules move them: every race token in a region, in hand or in the tray.

Games here are created with the ledger on (`GameCreated.troops_counted`), on the 2-player
board: regions 2 (farmland), 3 (forest) and 5 (hill) are empty entry regions, 4 (swamp,
entry) and 10 (farmland, beside 4 and 5) start with a Lost Tribe... see `load_board("2p")`.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from factories import session
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.rules import troops as ledger
from companion.rules import troops_game
from companion.rules.board import Occupant
from companion.rules.conquest import conquest_cost, final_conquest, immunity, reach
from companion.rules.errors import IllegalAction, RulesError
from companion.rules.events import RegionAbandoned, RegionConquered
from companion.rules.game import GameState, attacker, refusal
from companion.rules.history import replay
from companion.rules.troops import RaceTroops
from companion.rules.turns import Phase
from companion.rules.views import pick_refusal, public
from companion.session import Session


def counted(races: tuple[str, ...], powers: tuple[str, ...], players: int = 2) -> Session:
    return session(players, races=races, powers=powers, troops_counted=True)


def troops(s: Session, seat: int, race: str) -> RaceTroops:
    assert s.state.troops is not None
    return s.state.troops.of(seat, race)


def tokens(s: Session, region: int) -> int | None:
    occupant = s.state.regions[region].occupant
    return None if occupant is None else occupant.tokens


def received(s: Session, race: str, power: str) -> int:
    return s.catalog.combo_tokens(race, power) + s.catalog.race(race).conquest_only_tokens


def consistent(s: Session) -> None:
    assert s.state.troops is not None
    ledger.check(s.state.troops, s.state.regions)


def end_turn(s: Session) -> None:
    """The current player finishes conquering, spreads their hand, scores, ends."""
    if s.state.track.phase is Phase.CONQUER:
        s.finish_conquests()
    seat = s.state.track.seat
    active = s.state.current.active
    if (active is not None and troops(s, seat, active.race).hand
            and s.state.regions.held_by(seat, active.race)):
        s.spread_hand()
    s.finish_redeployment()
    s.score(0)
    s.end_turn()


def test_a_picked_combo_puts_banner_and_badge_tokens_in_hand() -> None:
    s = counted(("Humans",), ("Alchemist",))
    s.pick(0)
    assert troops(s, 0, "Humans") == RaceTroops(0, "Humans", received=received(
        s, "Humans", "Alchemist"), hand=received(s, "Humans", "Alchemist"))


def test_hordes_of_bring_their_two_hordes_tokens_into_the_hand() -> None:
    s = session(2, races=("Ratmen",), powers=("Hordes of",), troops_counted=True,
                expansions=("base", "cursed"))
    s.pick(0)
    assert troops(s, 0, "Ratmen").hand == s.catalog.combo_tokens("Ratmen", "Hordes of") + 2


def test_a_conquest_takes_its_cost_from_the_hand() -> None:
    s = counted(("Humans",), ("Alchemist",))
    s.pick(0)
    start = troops(s, 0, "Humans").hand
    s.conquer(3)  # an empty forest: 2 tokens
    s.conquer(4, tokens=4)  # a swamp with a Lost Tribe costs 3; the player sends 4
    assert (tokens(s, 3), tokens(s, 4)) == (2, 4)
    assert troops(s, 0, "Humans").hand == start - 6
    consistent(s)


def test_a_conquest_beyond_the_hand_is_refused_with_the_numbers_and_changes_nothing() -> None:
    s = counted(("Dwarves",), ("Merchant",))  # 3 + 2 tokens
    s.pick(0)
    s.conquer(4)  # 3 tokens: a Lost Tribe swamp
    before = s.state
    with pytest.raises(IllegalAction, match="needs 3 tokens, but only 2 are in hand"):
        s.conquer(9)  # a mountain: 3
    assert s.state == before


def test_a_conquest_with_fewer_tokens_than_its_cost_is_refused() -> None:
    s = counted(("Humans",), ("Alchemist",))
    s.pick(0)
    assert str(refusal(s.state, RegionConquered(0, 4, tokens=2))) == (
        "region 4 costs 3 tokens; 2 are not enough")


def second_turn(race: str, power: str, held: dict[int, int]) -> Session:
    """Ann's `power` `race` took the regions of `held` with those tokens in turn 1 (Bob
    picked the Orcs); Ann's turn 2 begins."""
    s = counted((race, "Orcs"), (power, "Alchemist" if power != "Alchemist" else "Merchant"))
    s.pick(0)
    for region, count in held.items():
        s.conquer(region, tokens=count)
    end_turn(s)
    s.pick(0)
    end_turn(s)
    return s


def test_ready_your_troops_leaves_one_token_per_region_and_takes_the_rest_in_hand() -> None:
    s = second_turn("Humans", "Alchemist", {2: 4, 3: 5})
    assert troops(s, 0, "Humans").hand == 7  # 3 + 4 came back; 1 stays in 2 and in 3
    assert (tokens(s, 2), tokens(s, 3)) == (1, 1)
    consistent(s)


def test_abandoning_a_region_takes_its_tokens_back_in_hand() -> None:
    s = second_turn("Humans", "Alchemist", {2: 4})
    hand = troops(s, 0, "Humans").hand
    s.abandon(2)
    assert tokens(s, 2) is None and troops(s, 0, "Humans").hand == hand + 1
    consistent(s)


def attacked_by_orcs(defender: str = "Humans") -> Session:
    """Ann's `defender` (with Merchant) hold regions 5 (4 tokens) and 4 (3 tokens); Bob's
    Orcs (with Alchemist: 9 tokens) take region 5 for 2 + 4."""
    s = counted((defender, "Orcs"), ("Merchant", "Alchemist"))
    s.pick(0)
    s.conquer(5, tokens=4)
    s.conquer(4, tokens=troops(s, 0, defender).hand)
    end_turn(s)
    s.pick(0)
    s.conquer(5)
    assert tokens(s, 5) == 6
    return s


def test_the_defender_loses_one_token_to_the_tray_and_keeps_the_others_in_hand() -> None:
    s = attacked_by_orcs()
    humans = troops(s, 0, "Humans")
    assert (humans.hand, humans.tray) == (3, 1)  # the 4 of region 5
    consistent(s)


def test_active_elves_lose_no_token_when_a_region_falls() -> None:
    s = attacked_by_orcs("Elves")
    elves = troops(s, 0, "Elves")
    assert (elves.hand, elves.tray) == (4, 0)


def test_the_turn_ends_only_once_the_defender_has_put_their_hand_in_their_regions() -> None:
    s = attacked_by_orcs()
    s.finish_conquests()
    s.spread_hand()
    s.finish_redeployment()
    s.score(0)
    with pytest.raises(IllegalAction, match="Ann's Humans have 3 tokens in hand"):
        s.end_turn()
    in_region_4 = tokens(s, 4)
    assert in_region_4 is not None
    with pytest.raises(IllegalAction, match=f"region 4 keeps its {in_region_4} and may only"):
        s.redeploy({4: 2}, seat=0, race="Humans")
    s.spread_hand(seat=0, race="Humans")
    assert tokens(s, 4) == in_region_4 + 3 and troops(s, 0, "Humans").hand == 0
    s.end_turn()
    consistent(s)


def test_a_defender_with_no_region_left_keeps_the_hand_for_the_next_first_conquest() -> None:
    s = counted(("Dwarves", "Orcs"), ("Merchant", "Alchemist"))
    s.pick(0)
    s.conquer(5, tokens=5)  # all 5 Dwarves
    end_turn(s)
    s.pick(0)
    s.conquer(5)  # 2 + 5 defenders, of the Orcs' 9
    end_turn(s)  # nothing asks Ann's Dwarves to redeploy: they hold no region
    assert troops(s, 0, "Dwarves").hand == 4
    s.conquer(2, tokens=4)  # their next turn: a first conquest with the whole hand
    consistent(s)


def test_redeployment_must_empty_the_hand_and_keep_one_token_in_each_region() -> None:
    s = counted(("Humans",), ("Alchemist",))
    s.pick(0)
    s.conquer(2)
    s.conquer(3)
    s.finish_conquests()
    with pytest.raises(IllegalAction, match="5 Humans tokens are still in hand"):
        s.finish_redeployment()
    with pytest.raises(IllegalAction, match="region 3 must keep at least 1 Humans token"):
        s.redeploy({2: 9, 3: 0})
    s.redeploy({2: 6, 3: 3})
    s.finish_redeployment()
    assert troops(s, 0, "Humans").hand == 0
    consistent(s)


def test_amazons_set_four_aside_after_redeploying_and_get_them_back_when_ready() -> None:
    s = counted(("Amazons", "Orcs"), ("Alchemist", "Merchant"))
    s.pick(0)
    total = received(s, "Amazons", "Alchemist")
    s.conquer(2, tokens=total)
    s.finish_conquests()
    s.redeploy({2: total - 3})
    with pytest.raises(IllegalAction, match="leave 4 in hand, not 3"):
        s.finish_redeployment()
    s.redeploy({2: total - 4})
    s.finish_redeployment()
    amazons = troops(s, 0, "Amazons")
    assert (amazons.hand, amazons.aside, tokens(s, 2)) == (0, 4, total - 4)
    s.score(0)
    s.end_turn()
    end_turn_with_pick(s)
    assert troops(s, 0, "Amazons").hand == total - 1  # 4 aside + all but 1 in region 2
    consistent(s)


def end_turn_with_pick(s: Session) -> None:
    if s.state.current.active is None:
        s.pick(0)
    end_turn(s)


def test_skeletons_get_one_token_for_every_two_non_empty_regions_taken() -> None:
    s = counted(("Skeletons",), ("Alchemist",))
    s.pick(0)
    s.conquer(4)  # Lost Tribe: non-empty
    s.conquer(5)  # empty
    s.conquer(11)  # Lost Tribe: non-empty
    hand = troops(s, 0, "Skeletons").hand
    s.finish_conquests()
    assert troops(s, 0, "Skeletons").hand == hand + 1
    assert troops(s, 0, "Skeletons").received == received(s, "Skeletons", "Alchemist") + 1
    consistent(s)


def test_going_into_decline_keeps_one_token_per_region_the_rest_to_the_tray() -> None:
    s = second_turn("Humans", "Alchemist", {2: 5, 3: 4})
    s.decline()
    humans = troops(s, 0, "Humans")
    assert (tokens(s, 2), tokens(s, 3), humans.hand, humans.tray) == (1, 1, 0, 7)
    consistent(s)


def test_ghouls_going_into_decline_keep_every_token_where_it_stood() -> None:
    s = second_turn("Ghouls", "Merchant", {2: 4, 3: 3})
    assert (tokens(s, 2), tokens(s, 3)) == (1, 1)  # readied as the turn began
    s.decline()  # instead of conquering: nothing was readied after all
    ghouls = troops(s, 0, "Ghouls")
    assert (tokens(s, 2), tokens(s, 3), ghouls.hand, ghouls.tray) == (4, 3, 0, 0)
    consistent(s)


def test_trolls_get_their_lair_in_the_region_they_conquer() -> None:
    s = counted(("Trolls",), ("Alchemist",))
    s.pick(0)
    s.conquer(2)
    assert s.state.regions[2].markers.troll_lair


def test_the_final_conquest_deploys_every_token_left_in_hand() -> None:
    s = counted(("Dwarves",), ("Merchant",))  # 5 tokens
    s.pick(0)
    s.conquer(4)  # 3 tokens
    attempt = s.attempt_final_conquest(10, tokens_left=99)  # the hand decides: 2
    assert attempt.tokens_left == 2
    if attempt.succeeded:
        assert tokens(s, 10) == 2 and troops(s, 0, "Dwarves").hand == 0
    else:
        assert troops(s, 0, "Dwarves").hand == 2
    assert s.state.track.phase is Phase.REDEPLOY
    consistent(s)


def test_a_correction_keeps_hand_board_and_tray_adding_up() -> None:
    s = counted(("Humans",), ("Alchemist",))
    s.pick(0)
    s.conquer(2)
    hand = troops(s, 0, "Humans").hand
    s.set_region(2, 0, "Humans", tokens=4)  # two more stood there: taken from the hand
    assert troops(s, 0, "Humans").hand == hand - 2
    s.set_region(2, 0, "Humans", tokens=1)  # three fewer: back in the tray
    assert troops(s, 0, "Humans").tray == 3
    consistent(s)


def test_a_game_saved_before_the_ledger_replays_without_counting() -> None:
    s = session(2, races=("Dwarves",), powers=("Merchant",))  # troops_counted left out
    s.pick(0)
    s.conquer(4, tokens=9)  # more than the hand: the old game did not know it
    assert s.state.troops is None and tokens(s, 4) == 9


# --- random legal play keeps the ledger exact ----------------------------------------------

def troop_moves(s: Session, data: st.DataObject) -> list[tuple[str, Callable[[], object]]]:
    state = s.state
    seat, phase = state.track.seat, state.track.phase
    active = state.current.active
    moves: list[tuple[str, Callable[[], object]]] = []
    if phase is Phase.PICK_COMBO:
        moves += [(f"pick {row}", lambda row=row: s.pick(row))
                  for row in range(len(state.market.rows)) if pick_refusal(state, row) is None]
    if public(state).may_decline:
        moves.append(("decline", s.decline))
    if phase is Phase.CONQUER and active is not None:
        moves.append(("finish conquests", s.finish_conquests))
        regions = sorted(state.regions.regions)
        takes = [r for r in regions if refusal(state, RegionConquered(seat, r)) is None]
        if takes:
            region = data.draw(st.sampled_from(takes), label="conquest")
            extra = data.draw(st.integers(0, 2), label="extra tokens")
            moves.append((f"conquer {region}", lambda: s.conquer(region)))
            more = RegionConquered(seat, region, tokens=_cost(state, region) + extra)
            if refusal(state, more) is None:
                moves.append((f"conquer {region} +{extra}",
                              lambda: s.conquer(region, tokens=more.tokens)))
        if active.race == "Sorcerers":
            spells = [r for r in regions
                      if refusal(state, RegionConquered(seat, r, sorcery=True)) is None]
            if spells:
                spell = data.draw(st.sampled_from(spells), label="sorcery")
                moves.append((f"sorcery {spell}", lambda: s.conquer(spell, sorcery=True)))
        finals = [r for r in regions if r not in takes and _final_allowed(s, r)]
        if finals:
            final = data.draw(st.sampled_from(finals), label="final conquest")
            moves.append((f"final {final}", lambda: s.attempt_final_conquest(final, 0)))
        left = [r for r in regions if refusal(state, RegionAbandoned(seat, r)) is None]
        if left:
            gone = data.draw(st.sampled_from(left), label="abandon")
            moves.append((f"abandon {gone}", lambda: s.abandon(gone)))
    if phase is Phase.REDEPLOY and active is not None:
        held = state.regions.held_by(seat, active.race)
        count = troops_game.race_count(state, seat, active.race)
        assert count is not None
        ghouls = [r for r in troops_game.own_races(state, seat)[1:]
                  if troops_game.suggested(state, seat, r) and state.regions.held_by(seat, r)]
        if ghouls:
            moves.append(("spread", lambda: s.spread_hand(race=ghouls[0])))
        elif held and count.hand != troops_game.keep_in_hand(state, seat, active.race):
            moves.append(("spread", s.spread_hand))
        elif len(held) > 1:
            src, dst = data.draw(st.permutations(held), label="move")[:2]
            if (tokens(s, src) or 1) > 1:
                placement = troops_game.placement_with(state, seat, active.race, src, -1)
                placement[dst] += 1
                moves.append((f"move {src}->{dst}",
                              lambda: s.redeploy(placement)))
            moves.append(("finish redeployment", s.finish_redeployment))
        else:
            moves.append(("finish redeployment", s.finish_redeployment))
    if phase is Phase.SCORE:
        moves.append(("score", s.score))
    if phase is Phase.FINISHED:
        waiting = troops_game.waiting_hands(state)
        for defender, race, _ in waiting:
            moves.append((f"{defender} spreads",
                          lambda d=defender, r=race: s.spread_hand(seat=d, race=r)))
        if not waiting:
            moves.append(("end turn", s.end_turn))
    assert s.history is not None
    if s.history.undo_blocker() is None:
        moves.append(("undo", s.undo))
    return moves


def _cost(state: GameState, region: int) -> int:
    return conquest_cost(state.map, region, state.regions.regions, attacker(state),
                         catapults=state.regions.catapults()).total


def _final_allowed(s: Session, region: int) -> bool:
    state = s.state
    active = state.current.active
    if active is None or active.power == "Berserk" or state.last_roll is not None:
        return False
    hand = troops_game.hand(state, state.track.seat, active.race) or 0
    try:
        cost = _cost(state, region)
    except RulesError:
        return False
    return (hand >= 1 and cost > hand and refusal(state, RegionConquered(
        state.track.seat, region, tokens=cost)) is not None
            and final_conquest(hand, cost, s.catalog.die_faces, attacker(state)).allowed
            and _reachable(state, region))


def _reachable(state: GameState, region: int) -> bool:
    who = attacker(state)
    return (immunity(state.map, region, state.regions.regions, who,
                     catapults=state.regions.catapults()) is None
            and reach(state.map, region, who).reachable)


def check_ledger(before: GameState, state: GameState) -> None:
    assert state.troops is not None
    ledger.check(state.troops, state.regions)
    for rid, here in state.regions.regions.items():
        occupant = here.occupant
        if occupant is not None:
            assert occupant.tokens is not None and occupant.tokens >= 1, rid
    redeployed = before.track.phase is Phase.REDEPLOY and state.track.phase is Phase.SCORE
    if redeployed:
        seat = before.track.seat
        for race in troops_game.own_races(state, seat):
            if state.regions.held_by(seat, race):
                assert state.troops.of(seat, race).hand == 0, race


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**16), data=st.data())
def test_random_legal_play_accounts_for_every_token(players: int, seed: int,
                                                     data: st.DataObject) -> None:
    s = session(players=players, seed=seed, first_seat=seed % players, troops_counted=True)
    for _ in range(data.draw(st.integers(1, 200), label="steps")):
        if s.state.is_over:
            break
        moves = troop_moves(s, data)
        name, move = data.draw(st.sampled_from(moves), label="move")
        event(name.split()[0] if name[0].isalpha() else "defender spreads")
        if before_attack := [t for t in (s.state.troops.races if s.state.troops else ())
                             if t.tray]:
            event("a race lost tokens")
            del before_attack
        before = s.state
        try:
            move()
        except IllegalAction as refused:
            raise AssertionError(f"{name} refused ({refused}) in {before.track}") from None
        check_ledger(before, s.state)
    assert s.history is not None
    assert replay(s.history.log, s.catalog) == s.history


def sorcerers_beside_lone_humans() -> Session:
    """Ann's Sorcerers hold region 2; Bob's Humans hold regions 3 and 4 with a lone token
    each and the rest in region 5; Ann's turn 2 begins."""
    s = counted(("Sorcerers", "Humans"), ("Merchant", "Alchemist"))
    s.pick(0)
    s.conquer(2, tokens=troops(s, 0, "Sorcerers").hand)
    end_turn(s)
    s.pick(0)
    for region in (3, 4, 5):
        s.conquer(region)
    s.finish_conquests()
    s.redeploy({3: 1, 4: 1, 5: (tokens(s, 5) or 0) + (tokens(s, 3) or 0) + (tokens(s, 4) or 0)
                + troops(s, 1, "Humans").hand - 2})
    s.finish_redeployment()
    s.score(0)
    s.end_turn()
    return s


def test_sorcerers_replace_a_lone_active_token_with_one_from_the_tray() -> None:
    s = sorcerers_beside_lone_humans()
    before = troops(s, 0, "Sorcerers")
    s.conquer(3, sorcery=True)
    assert s.state.regions[3].occupant == Occupant(0, "Sorcerers", False, 1)
    after = troops(s, 0, "Sorcerers")
    assert (after.received, after.hand) == (before.received + 1, before.hand)
    humans = troops(s, 1, "Humans")
    assert (humans.hand, humans.tray) == (0, 1)  # the replaced token goes to the tray
    consistent(s)


def test_sorcerers_replace_only_a_lone_token_and_one_per_opponent_a_turn() -> None:
    s = sorcerers_beside_lone_humans()
    s.conquer(3, sorcery=True)
    assert "stands alone" in str(refusal(s.state, RegionConquered(0, 5, sorcery=True)))
    before = s.state
    with pytest.raises(IllegalAction, match="once per opponent"):
        s.conquer(4, sorcery=True)
    assert s.state == before
