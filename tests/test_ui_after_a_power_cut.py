"""After a power cut, the screens a table comes back to: the home screen's green button is
the way back to the game (Resume, not New game), and the market opens at row 1."""

from __future__ import annotations

from typing import Any

import ui_support as ui
from factories import play_turn

from bench.scripted import seats


def kinds(app: Any) -> dict[str, str]:
    ids = app.screens["home"].ids
    return {name: ids[name].kind for name in ("new_game", "resume")}


def test_resume_is_the_green_button_when_a_saved_game_waits(headless_app: Any) -> None:
    app = headless_app
    app.ctx.nav.go("home")
    app.set_resume("Resume Ann, Bob and Cy: turn 2 of 10, Bob's turn")
    ui.pump()
    try:
        assert kinds(app) == {"new_game": "secondary", "resume": "primary"}
        resume = app.screens["home"].ids.resume
        assert ui.out_of_sight(resume) is None  # in sight without scrolling
        assert not ui.layout_problems(app.screens["home"])
    finally:
        app.set_resume(None)
        ui.pump()
    assert kinds(app) == {"new_game": "primary", "resume": "dimmed"}


def test_the_market_opens_at_row_1_for_the_next_player(headless_app: Any) -> None:
    """A buyer who scrolled down to row 6 does not leave the next player's market
    scrolled down, hiding row 1 and its coins."""
    app = headless_app
    session = app.session
    session.new_game(seats(3), first_seat=0)
    app.use_session(session, screen="market")
    ui.pump(4)
    scroll = app.screens["market"].ids.rows_scroll
    scroll.scroll_y = 0  # Ann looks at the last rows
    ui.pump()
    app.ctx.nav.go("table")
    ui.pump()
    app.ctx.nav.go("market")  # still Ann's turn: the market is as she left it
    ui.pump(2)
    assert scroll.scroll_y == 0
    app.ctx.nav.go("table")
    play_turn(session)  # Ann's turn ends at the table
    app.ctx.nav.go("market")  # Bob's turn
    ui.pump(2)
    assert scroll.scroll_y == 1
    row1 = app.screens["market"].ids.rows.row("row0")
    assert ui.out_of_sight(row1) is None
