"""A whole 3-player game played through the real screens with simulated touches.

One real (offscreen) window at 800x480, the Raspberry Pi touchscreen. Every step is a tap
on a widget found by its kv id or its action key, as a player's finger would do it: a new
game (the names typed on the on-screen letters pad), a combo bought from a lower row, a
conquest on the map, a die roll, an undo, a peek, a decline, every turn scored on the
scoring screen, and the final reveal.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from screen_steps import (
    answer_yes,
    play_quiet_turn,
    screen,
    spend_hand_until_a_final_conquest,
    spread_hands,
    tap_action,
    tap_id,
    tap_region,
)

from companion.rules.turns import Phase
from companion.rules.views import final_totals, own_coins
from companion.session import Session
from companion.ui.app import kv_files
from companion.ui.widgets import PeekView

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def app() -> Any:
    session = Session(rng=random.Random(7))
    table_app = ui.app_for(session)
    ui.resize((800, 480))
    return table_app


def test_every_kv_file_loads(app: Any) -> None:
    """Each screen's kv file is loaded when the screen is first built (every one is, in
    the background after start-up): building them all loads them all."""
    from kivy.lang import Builder

    from companion.paths import kv_dir
    from companion.ui.app import SCREENS

    for name in SCREENS:
        app.screens[name]
    loaded = {Path(f).name for f in Builder.files}
    assert set(kv_files()) <= loaded
    ours = {p.name for p in kv_dir().glob("*.kv")} - {"map_widget.kv"}
    assert ours <= set(kv_files())


def test_a_whole_game_through_the_screens(app: Any) -> None:
    session = app.session
    # -- home -> new game: three players, Ann first ----------------------------------------
    assert app.ctx.nav.current == "home"
    tap_id(app, "new_game")
    assert app.ctx.nav.current == "new_game"
    seats = screen(app).ids.seats
    for index, name in enumerate(("Ann", "Bob", "Cy")):
        ui.tap(seats.row(index).ids.name)  # no saved players: the letters pad opens
        ui.type_on_pad(name)
    assert [seats.row(i).ids.name.text for i in range(3)] == ["Ann", "Bob", "Cy"]
    ui.tap(seats.row(0).ids.first)
    tap_id(app, "start")
    assert app.ctx.nav.current == "table"
    state = session.state
    assert [p.name for p in state.players] == ["Ann", "Bob", "Cy"]
    assert state.track.seat == 0
    table = screen(app)
    assert table.ids.turn.text == "Turn 1 of 10"
    assert table.ids.current.text == "Ann's turn"
    assert ui.repeating_events() == []  # idle: nothing redraws on a timer

    # -- Ann buys the combo in row 3: two coins, one on each row above --------------------
    tap_action(app, "market")
    rows = screen(app).ids.rows
    third = session.state.market.rows[2].combo
    ui.tap(rows.row("row2"))
    (dialog,) = ui.dialogs()
    assert "pays 2 coins" in dialog.text
    answer_yes()
    assert app.ctx.nav.current == "table"
    ann = session.state.players[0]
    assert ann.active is not None and ann.active.race == third.race
    assert [r.coins for r in session.state.market.rows[:2]] == [1, 1]
    assert f"{third.power} {third.race}" in table.ids.players.row(0).ids.combo.text

    # -- conquest on the map: tap a bright region, then Conquer ----------------------------
    tap_action(app, "map")
    map_p = app.presenters["map"]
    target = sorted(map_p.highlight)[0]
    tap_region(app, target)
    assert map_p.selected == target
    assert "Taking it costs" in screen(app).ids.cost.text
    ui.tap(screen(app).ids.actions.button("conquer"))
    held = session.state.regions[target].occupant
    assert held is not None and held.seat == 0
    ui.tap(ui.button(screen(app).ids.bottom_actions, "back"))

    # -- the die: the final conquest, its region chosen on the map before the roll --------
    assert table.ids.die.text == "Final conquest with the die" and table.ids.die.kind == "primary"
    tap_id(app, "die")
    assert app.ctx.nav.current == "map"
    last = spend_hand_until_a_final_conquest(app)
    assert "1 token in hand" in map_p.hint
    tokens_left = session.state.troops.of(0, ann.active.race).hand
    assert map_p.tokens_left == tokens_left and map_p.hand_known  # the ledger's, not a guess
    final = screen(app).ids.actions.button("final")
    assert ui.out_of_sight(final) is None  # in sight, never scrolled to
    ui.pump()
    ui.tap(final)
    assert app.ctx.nav.current == "die"
    face = session.state.last_roll
    assert face is not None  # recorded at once, with the conquest if it won
    ui.wait(1.3)
    assert screen(app).ids.result.text.startswith(
        f"Rolled {face}: {tokens_left} + {face} = {tokens_left + face}")
    assert last in (session.state.track.this_turn.final_roll or ())
    assert ui.repeating_events() == []
    tap_id(app, "done")
    assert session.state.track.phase is Phase.REDEPLOY  # conquests are over
    assert table.ids.die.kind == "dimmed"
    assert table.ids.die_reason.text.endswith("Ann's turn is at: redeploy.")

    # -- the rest of Ann's turn ------------------------------------------------------------
    spread_hands(app)
    tap_action(app, "finish_redeployment")
    tap_action(app, "scoring")
    scoring = screen(app)
    assert scoring.ids.lines.lines  # the breakdown, line by line
    tap_id(app, "score")
    tap_action(app, "end_turn")
    assert session.state.track.seat == 1

    # -- Bob picks, then takes it back with undo ---------------------------------------------
    tap_action(app, "market")
    ui.tap(screen(app).ids.rows.row("row0"))
    picked = session.state.market.rows[0].combo
    answer_yes()
    undo = table.ids.undo
    assert undo.text == f"Undo: take back Bob picking the {picked.power} {picked.race}"
    ui.tap(undo)  # at once, no question: the bar offers to put it back
    assert table.p.redo_offered
    assert table.p.took_back_text == f"Took back: Bob picking the {picked.power} {picked.race}"
    assert session.state.players[1].active is None
    assert session.state.track.phase is Phase.PICK_COMBO
    assert table.ids.undo.text.startswith("Undo: the last action stays")  # Ann's turn end

    # -- Cy peeks at their own coins: shown while held, gone on release -------------------
    cy_name = table.ids.players.row(2).ids.name_button
    touch = ui.hold(cy_name, 0.6)
    views = [w for w in ui.window().children if isinstance(w, PeekView)]
    assert len(views) == 1
    assert views[0].ids.peek_total.text == f"{own_coins(session.state, 2)} coins"
    ui.release(touch)
    assert not [w for w in ui.window().children if isinstance(w, PeekView)]
    assert app.presenters["table"].peek_text == ""

    # -- no roll now: the die button is greyed and says why -----------------------------------
    assert table.ids.die.kind == "dimmed"
    why = "No roll now: the die is rolled while conquering, and Bob's turn is at: pick a combo."
    assert table.ids.die_reason.text == why
    ui.tap(table.ids.die)  # a finger on the greyed button: told why, nothing rolled
    assert app.ctx.nav.current == "table" and [d.text for d in ui.dialogs()] == [why]
    ui.close_dialogs()

    # -- Bob and Cy finish turn 1 ------------------------------------------------------------
    play_quiet_turn(app)
    play_quiet_turn(app)
    assert session.state.track.turn == 2 and session.state.track.seat == 0

    # -- Ann goes into decline -----------------------------------------------------------------
    tap_action(app, "decline")
    answer_yes()
    ann = session.state.players[0]
    assert ann.active is None and [d.race for d in ann.declined] == [third.race]
    assert table.ids.players.row(0).ids.declined.text == f"In decline: {third.race}"
    play_quiet_turn(app)

    # -- everybody plays on to the last turn ----------------------------------------------
    while not session.state.track.is_final_turn:
        play_quiet_turn(app)
    assert table.ids.turn.text == "FINAL TURN 10 of 10"
    while not session.state.is_over:
        play_quiet_turn(app)

    # -- the final reveal: fewest coins first, the winner last ---------------------------
    assert app.ctx.nav.current == "game_end"
    end = screen(app)
    totals = dict(final_totals(session.state))
    for _ in range(3):
        tap_id(app, "reveal")
    shown = {row.name: row.coins for row in end.ids.results.children}
    assert shown == {name: f"{coins} coins" for name, coins in totals.items()}
    assert end.ids.winner.text
    assert end.ids.chart.series and end.ids.chart.turns == 10
    assert ui.repeating_events() == []
