"""The map panel offers only what the rules allow now, clause by clause (the rule's own
tests are in `tests/test_rules_clauses.py`): the panel is built from the real session, as the
table's screen uses it."""

from __future__ import annotations

from factories import session

from companion.session import Session
from companion.ui.presenters.base import Context
from companion.ui.presenters.map import MapPresenter


def _map(s: Session) -> MapPresenter:
    board = MapPresenter(Context(session=s))
    s.subscribe(board.update)
    board.update(s.state)
    return board


def _keys(board: MapPresenter) -> list[str]:
    return [a["key"] for a in board.actions]


def _conquer_two(s: Session, board: MapPresenter) -> tuple[int, int]:
    """The current player takes two regions the map lights, each at its cost."""
    taken: list[int] = []
    for _ in range(2):
        rid = min(board.highlight)
        s.conquer(rid)
        taken.append(rid)
    return taken[0], taken[1]


def test_the_map_offers_fortified_one_fortress_a_turn() -> None:
    s = session(2, races=["Orcs"], powers=["Fortified"], troops_counted=True)
    s.pick(0)
    board = _map(s)
    first, second = _conquer_two(s, board)
    board.tap(first)
    assert "place:fortress" in _keys(board)
    board.act("place:fortress")
    assert s.state.regions[first].markers.fortress
    board.tap(second)
    assert "place:fortress" not in _keys(board)
    assert "remove:fortress" not in _keys(board)  # it lies in the other region


def _dragon_master() -> tuple[Session, MapPresenter]:
    s = session(2, races=["Humans"], powers=["Dragon Master"], troops_counted=True)
    s.pick(0)
    return s, _map(s)


def _cost(board: MapPresenter) -> int:
    return sum(int(line["value"]) for line in board.cost_lines)


def _dearer_targets(board: MapPresenter) -> list[int]:
    """The lit regions that cost more than 1 token, dearest first."""
    costs = {}
    for rid in sorted(board.highlight):
        board.tap(rid)
        costs[rid] = _cost(board)
    return sorted((r for r in costs if costs[r] > 1), key=lambda r: (-costs[r], r))


def test_the_map_offers_the_dragon_beside_the_ordinary_conquest() -> None:
    s, board = _dragon_master()
    rid = _dearer_targets(board)[0]
    board.tap(rid)
    cost = _cost(board)
    assert {"key": "conquer", "kind": "primary",
            "text": f"Conquer region {rid} with {cost} tokens"} in board.actions
    assert {"key": "dragon", "kind": "primary",
            "text": "Conquer with the Dragon (1 token)"} in board.actions
    assert not any(a["key"] == "place:dragon" for a in board.actions)
    board.act("dragon")
    here = s.state.regions[rid]
    assert here.occupant is not None and here.occupant.tokens == 1 and here.markers.dragon
    assert s.state.track.this_turn.dragon_took == rid


def test_the_map_says_why_the_dragon_may_not_conquer_again_this_turn() -> None:
    _, board = _dragon_master()
    first, *others = _dearer_targets(board)
    board.tap(first)
    board.act("dragon")
    second = next(r for r in others if r in board.highlight)
    board.tap(second)
    assert "dragon" not in _keys(board)
    assert "conquer" in _keys(board)
    assert (f"The Dragon: Dragon Master: the Dragon conquers once a turn, and it took region "
            f"{first} this turn.") in board.note_text


def test_the_token_stepper_never_goes_below_the_cost_shown() -> None:
    s, board = _dragon_master()
    rid = _dearer_targets(board)[0]
    board.tap(rid)
    cost = _cost(board)
    assert (board.deploy, board.deploy_least) == (cost, cost)
    board.set_deploy(1)
    assert board.deploy == cost
    assert {"key": "conquer", "kind": "primary",
            "text": f"Conquer region {rid} with {cost} tokens"} in board.actions
    board.act("conquer")
    here = s.state.regions[rid]
    assert here.occupant is not None and here.occupant.tokens == cost
    assert not here.markers.dragon  # an ordinary conquest, never the Dragon's
    assert s.state.track.this_turn.dragon_took is None
