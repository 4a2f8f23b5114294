"""The table's list of players, upright (480x800), is taller than its room with five
players: the current player's row is scrolled into sight when their turn begins, turn
after turn, and the list stays where a finger put it in between."""

from __future__ import annotations

from typing import Any

import ui_support as ui
from factories import play_turn, session

from companion.ui.screens.table import PlayerList


def _list(app: Any) -> PlayerList:
    players: PlayerList = app.screens["table"].ids.players
    return players


def test_upright_the_current_players_row_is_in_sight_at_each_turn(upright: Any) -> None:
    app = upright
    s = session(players=5, seed=4)
    app.use_session(s, screen="table")
    ui.pump(4)
    players = _list(app)
    scroll = app.screens["table"].ids.players_scroll
    assert players.height > scroll.height, "five players fit: nothing to prove here"
    for _ in range(5):
        ui.lay_out(2)
        ui.pump(1)
        row = players.row(s.state.track.seat)
        assert row is not None and ui.out_of_sight(row) is None, s.state.track.seat
        play_turn(s)


def test_a_list_scrolled_by_a_finger_stays_there_until_the_next_turn(upright: Any) -> None:
    app = upright
    s = session(players=5, seed=4)
    app.use_session(s, screen="table")
    ui.pump(4)
    scroll = app.screens["table"].ids.players_scroll
    scroll.scroll_y = 0.0  # the foot of the list, as a finger leaves it
    ui.lay_out(2)
    ui.pump(1)
    assert scroll.scroll_y == 0.0
