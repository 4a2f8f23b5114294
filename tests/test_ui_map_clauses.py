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
