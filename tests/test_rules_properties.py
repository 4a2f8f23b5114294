"""Random legal play keeps the game's invariants (Hypothesis)."""

from __future__ import annotations

from collections.abc import Callable

from factories import session
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.conquest import conquest_cost, minimum_cost
from companion.rules.die import DiePurpose
from companion.rules.errors import IllegalAction, RulesError
from companion.rules.events import RegionAbandoned, RegionConquered
from companion.rules.game import GameState, attacker, refusal
from companion.rules.history import replay
from companion.rules.market import ROWS
from companion.rules.turns import Phase
from companion.rules.views import pick_refusal, public
from companion.session import Session


def legal_moves(s: Session, data: st.DataObject) -> list[tuple[str, Callable[[], object]]]:
    state = s.state
    phase = state.track.phase
    moves: list[tuple[str, Callable[[], object]]] = []
    if phase is Phase.PICK_COMBO:
        for row in range(len(state.market.rows)):
            if pick_refusal(state, row) is None:
                moves.append((f"pick {row}", lambda row=row: s.pick(row)))
    if public(state).may_decline:
        moves.append(("decline", s.decline))
    if phase is Phase.CONQUER:
        moves.append(("finish conquests", s.finish_conquests))
        region = data.draw(st.sampled_from(sorted(state.regions.regions)), label="region")
        seat = state.track.seat
        chance = s.die_chance()
        if chance.purpose is DiePurpose.BERSERK:
            moves.append(("roll for Berserk", s.roll_for_berserk))
        elif chance.purpose is DiePurpose.FINAL_CONQUEST:
            try:
                who = attacker(state)
                cost = conquest_cost(state.map, region, state.regions.regions, who).total
                tokens_left = max(minimum_cost(who), cost - 1)
                if refusal(state, RegionConquered(seat, region, tokens_left)) is None:
                    moves.append((f"final conquest {region}",
                                  lambda: s.attempt_final_conquest(region, tokens_left)))
            except RulesError:
                pass  # the region cannot be attacked: no final conquest there
        if refusal(state, RegionConquered(seat, region)) is None:
            moves.append((f"conquer {region}", lambda: s.conquer(region)))
        if refusal(state, RegionAbandoned(seat, region)) is None:
            moves.append((f"abandon {region}", lambda: s.abandon(region)))
    if phase is Phase.REDEPLOY:
        moves.append(("finish redeployment", s.finish_redeployment))
    if phase is Phase.SCORE:
        coins = data.draw(st.integers(0, 12), label="income")
        moves.append((f"score {coins}", lambda: s.score(coins)))
        moves.append(("score from the board", s.score))
    if phase is Phase.FINISHED:
        moves.append(("end turn", s.end_turn))
    assert s.history is not None
    if s.history.undo_blocker() is None:
        moves.append(("undo", s.undo))
    seat = data.draw(st.integers(0, len(state.players) - 1), label="seat")
    delta = data.draw(st.integers(-state.players[seat].coins, 5), label="delta")
    moves.append((f"adjust {seat} {delta}", lambda: s.adjust_coins(seat, delta, "table")))
    return moves


def check_invariants(state: GameState) -> None:
    for rid, here in state.regions.regions.items():
        if here.occupant is not None:
            owner = state.players[here.occupant.seat]
            races = [d.race for d in owner.declined] if here.occupant.in_decline else (
                [owner.active.race] if owner.active else [])
            assert here.occupant.race in races, f"region {rid} held by a race not in play"
    assert all(p.coins >= 0 for p in state.players)
    assert sum(p.coins for p in state.players) + state.market.coins_on_rows == state.coins_issued
    market = state.market
    stacks_allow = min(len(market.race_stack), len(market.power_stack) + len(
        market.discarded_powers))
    assert len(market.rows) == ROWS or stacks_allow == 0
    view = public(state)
    assert all(not hasattr(p, "coins") for p in view.players)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**16), data=st.data())
def test_random_legal_play_keeps_coins_conserved_and_six_combos_showing(
    players: int, seed: int, data: st.DataObject
) -> None:
    s = session(players=players, seed=seed, first_seat=seed % players)
    for _ in range(data.draw(st.integers(1, 150), label="steps")):
        if s.state.is_over:
            break
        moves = legal_moves(s, data)
        _, move = data.draw(st.sampled_from(moves), label="move")
        before = s.state
        try:
            move()
        except IllegalAction as refused:  # a move offered as legal must never be refused
            raise AssertionError(f"legal move refused ({refused}) in {before.track}") from None
        check_invariants(s.state)
    assert s.history is not None
    assert replay(s.history.log, s.catalog) == s.history


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**16), data=st.data())
def test_an_illegal_intent_changes_nothing(players: int, seed: int, data: st.DataObject) -> None:
    s = session(players=players, seed=seed)
    intents: list[Callable[[], object]] = [
        s.decline, s.finish_redeployment, s.end_turn, lambda: s.score(1), lambda: s.pick(9),
        s.undo,
    ]
    for _ in range(data.draw(st.integers(0, 30))):
        before = s.state
        intent = data.draw(st.sampled_from(intents))
        try:
            intent()
        except IllegalAction:
            assert s.state == before
        if s.state.track.phase is Phase.PICK_COMBO and pick_refusal(s.state, 0) is None:
            s.pick(0)
        if s.state.is_over:
            break
