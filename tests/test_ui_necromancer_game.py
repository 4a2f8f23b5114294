"""A whole Necromancer Island game played through the real screens with simulated touches.

One real (offscreen) window at 800x480. Three at the table: Ann plays first, so Cy, to
her right, is the Necromancer, and the game is on the 2-player board (its Lake is region
8). Every step is a tap: Necromancer Island switched on in the new game, his purchases at
the price shown, his conquest on the map, his Ghosts placed with steppers, his score, the
Ghosts others take from him put back, and the final reveal listing him after the others.

Set COMPANION_SHOTS to a folder to keep screenshots of his turn there.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from positions import part
from screen_steps import (
    play_quiet_turn,
    screen,
    seat_player,
    shot,
    table_app,
    tap_action,
    tap_id,
    tap_region,
)

from companion.rules.necromancer import NecromancerState

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CY = 2
LAKE = 8


@pytest.fixture(scope="module")
def app() -> Any:
    return table_app(11)


def play_his_turn(app: Any) -> None:
    """The Necromancer conquers nothing: finish, place the Ghosts as they stand, score."""
    session = app.session
    assert session.state.track.seat == CY
    tap_action(app, "finish_conquests")
    tap_action(app, "necromancer")
    assert app.ctx.nav.current == "necromancer"
    ui.tap(ui.button(screen(app).ids.bottom_actions, "confirm"))
    assert app.ctx.nav.current == "table"
    tap_action(app, "necro_score")
    tap_action(app, "end_turn")


def test_a_whole_necromancer_island_game_through_the_screens(app: Any) -> None:
    session = app.session
    # -- the new game: three players, Ann first, Necromancer Island on ------------------------
    tap_id(app, "new_game")
    seats = screen(app).ids.seats
    form = app.presenters["new_game"]
    assert len(form.seats) == 3  # a fresh form, or the one the last game left
    for index, name in enumerate(("Ann", "Bob", "Cy")):
        seat_player(app, index, name)
    if form.first != 0:
        ui.tap(seats.row(0).ids.first)
    toggle = screen(app).ids.necromancer
    toggle.parent.parent.scroll_y = 0  # the toggle is at the bottom of its list
    ui.pump()
    assert not form.option("necromancer")
    ui.tap(toggle.button("necromancer"))
    assert "the 2-player board" in screen(app).ids.board.text
    tap_id(app, "start")
    assert app.ctx.nav.current == "table"
    state = session.state
    assert state.board == "2p" and state.part(NecromancerState) is not None
    assert state.part(NecromancerState).seat == CY and state.part(NecromancerState).lake == LAKE
    table = screen(app)
    assert "Cy is the Necromancer." in table.ids.expansions.words
    assert table.ids.players.row(CY).ids.combo.text.startswith("The Necromancer")

    # -- Ann and Bob play; then Cy's turn opens with buying -----------------------------------
    play_quiet_turn(app)
    play_quiet_turn(app)
    assert session.state.track.seat == CY
    assert table.ids.current.text == "Cy's turn"
    assert [a["key"] for a in app.presenters["table"].actions] == [
        "necromancer", "map", "finish_conquests"]
    assert ui.button(table, "necromancer").text == "Buy Ghosts or powers (2 coins each now)"
    coins_shown = [t for t in ui.texts(table) if "5 coins" in t]
    assert coins_shown == []  # his purse is nowhere on the table
    shot(app, "necromancer_table")

    # -- his screen: a Ghost for 2 coins, then every price is 3 ------------------------------
    tap_action(app, "necromancer")
    necro_screen = screen(app)
    assert app.ctx.nav.current == "necromancer"
    shot(app, "necromancer_buying")
    ui.tap(ui.button(necro_screen.ids.buy, "buy_ghost"))
    assert session.state.part(NecromancerState).island == 2
    assert session.state.players[CY].coins == 3
    assert ui.button(necro_screen.ids.buy, "buy_ghost").text == "Buy a Ghost: 3 coins"
    power = session.state.part(NecromancerState).powers_in_reserve[0]
    assert ui.button(necro_screen.ids.buy, f"buy_power:{power}").text == f"Buy {power}: 3 coins"
    ui.tap(ui.button(necro_screen.ids.buy, "buy_ghost"))  # 3 coins, none left
    ui.tap(ui.button(necro_screen.ids.buy, "buy_ghost"))  # refused: he cannot pay 4
    (dialog,) = ui.dialogs()
    assert "costs 4 coins" in dialog.text and "has" not in dialog.text.split("costs")[1][:12]
    ui.tap(dialog.ids.ok)
    assert session.state.part(NecromancerState).island == 3

    # -- the map: the Lake's shore is bright, the Lake is not; he takes region 3 --------------
    ui.tap(ui.button(necro_screen.ids.bottom_actions, "map"))
    assert app.ctx.nav.current == "map"
    map_p = app.presenters["map"]
    assert {3, 7, 9, 13, 14} <= set(map_p.highlight) and LAKE not in map_p.highlight
    assert not set(map_p.highlight) & {1, 2, 5, 23}
    tap_region(app, 3)
    assert screen(app).ids.cost.text.startswith("Taking it costs")  # his powers may cut it
    assert map_p.tokens_left == 3  # every Ghost on the Island is free to move
    deploy = screen(app).ids.deploy
    while map_p.deploy != 2:
        ui.tap(deploy.ids.minus if map_p.deploy > 2 else deploy.ids.plus)
    shot(app, "necromancer_map")
    ui.tap(screen(app).ids.actions.button("conquer"))
    occupant = session.state.regions[3].occupant
    assert occupant is not None and occupant.seat == CY and occupant.tokens == 2
    tap_region(app, LAKE)
    assert "Necromancer Island: 0 Ghosts on it; 1 in his hand" in screen(app).ids.holder.text
    ui.tap(ui.button(screen(app).ids.bottom_actions, "finish_conquests"))
    assert app.ctx.nav.current == "table"

    # -- he places his Ghosts: 3 in region 3, none left on the Island ----------------------------
    tap_action(app, "necromancer")
    counts = screen(app).ids.counts
    assert screen(app).ids.placed.text == "3 of 3 Ghosts placed"
    ui.tap(counts.stepper("3").ids.plus)
    assert screen(app).ids.placed.text == "4 of 3 Ghosts placed: take away 1 more"
    ui.tap(counts.stepper("island").ids.minus)
    assert screen(app).ids.placed.text == "3 of 3 Ghosts placed"
    shot(app, "necromancer_placing")
    ui.tap(ui.button(screen(app).ids.bottom_actions, "confirm"))
    assert session.state.regions[3].occupant.tokens == 3  # type: ignore[union-attr]
    assert session.state.part(NecromancerState).island == 0

    # -- his score: one coin for region 3 and its soul in the Well; undo is offered ----------
    assert ui.button(table, "necro_score").text.startswith("Score 1 coin")
    tap_action(app, "necro_score")
    assert session.state.part(NecromancerState).well.souls == 1
    assert table.ids.undo.text == "Undo: take back Cy scoring 1 coin for the turn"
    tap_action(app, "end_turn")
    assert session.state.track.seat == 0 and session.state.track.turn == 2

    # -- Ann takes region 3 from him: one Ghost to the Well, two go back on his regions ------
    ann_race = session.state.players[0].active
    assert ann_race is not None
    tap_action(app, "map")
    tap_region(app, 3)
    assert "Ghosts in decline tokens there" in [row["label"] for row in map_p.cost_lines]
    conquer = screen(app).ids.actions.button("conquer")
    assert ui.out_of_sight(conquer) is None  # in sight, however long the cost lines
    ui.tap(conquer)
    assert session.state.part(NecromancerState).well.ghosts == 1
    assert session.state.part(NecromancerState).hand == 2
    ui.tap(ui.button(screen(app).ids.bottom_actions, "back"))
    play_quiet_turn(app)  # he holds no region: his two Ghosts go onto the Island
    him = part(session.state, NecromancerState)
    assert him.island == 2 and him.hand == 0

    # -- everybody plays on to the end --------------------------------------------------------
    while not session.state.is_over:
        if session.state.track.seat == CY:
            play_his_turn(app)
        else:
            play_quiet_turn(app)

    # -- the final reveal: the Necromancer first (he did not win), the winner last ------------
    assert app.ctx.nav.current == "game_end"
    end = screen(app)
    for _ in range(3):
        if not app.presenters["game_end"].all_revealed:
            tap_id(app, "reveal")
    revealed = [row["name"] for row in app.presenters["game_end"].revealed]
    assert revealed[0] == "Cy"
    standings = app.presenters["game_end"].standings
    if standings:  # no tie to count: decided at once
        assert standings[-1]["name"] == "Cy"
        assert "did not bring every Ghost into play" in end.ids.winner.text
    form.act("necromancer")  # the next test module starts from a plain form
    assert not form.option("necromancer")
