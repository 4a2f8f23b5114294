"""Steps of a game played through the real screens, for the whole-game UI tests.

Each step is what a player does with a finger: tap a widget of the screen shown, a button
by its action key, a region of the map at its label, an answer in the dialog on top. They
build on `ui_support` (one real offscreen window, real touches).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import ui_support as ui

from companion.rules.turns import Phase


def table_app(seed: int) -> Any:
    """The one app of the process at 800x480, playing a new session drawn from `seed`."""
    import random

    from companion.session import Session

    app = ui.app_for(Session(rng=random.Random(seed)))
    ui.resize((800, 480))
    return app


def screen(app: Any) -> Any:
    """The screen shown now."""
    return app.screens[app.ctx.nav.current]


def tap_id(app: Any, widget_id: str) -> None:
    ui.tap(screen(app).ids[widget_id])


def tap_action(app: Any, key: str) -> None:
    ui.tap(ui.button(screen(app), key))


def answer_yes() -> None:
    (dialog,) = ui.dialogs()
    ui.tap(dialog.ids.yes)


def choose(key: str) -> None:
    """Tap the option `key` of the choice on top."""
    ui.tap(ui.button(ui.dialogs()[-1], key))


def dismiss_notice() -> str:
    """Close the one notice shown and return its text."""
    (dialog,) = ui.dialogs()
    text = str(dialog.text)
    ui.tap(dialog.ids.ok)
    return text


def seat_player(app: Any, index: int, name: str) -> None:
    """On the new-game form: seat `name` at `index` (a new seat one past the last), typed
    on the letters pad when the form first offers the saved players."""
    ui.pump()  # rows rebuilt after a change of seats are laid out first
    seats = screen(app).ids.seats
    row = seats.row(index)
    if row is None:
        tap_id(app, "add")
    else:
        ui.tap(row.ids.name)
    if "type" in [c["key"] for c in getattr(ui.dialogs()[-1], "choices", [])]:
        choose("type")  # saved players are offered first
    pad = ui.dialogs()[-1]
    for _ in range(len(pad.value)):  # a name left from an earlier game
        ui.tap(ui.button(pad, "delete"))
    ui.type_on_pad(name)


def tap_region(app: Any, region: int) -> None:
    """A finger on the region's label on the map screen."""
    board = screen(app).ids.board
    x, y = board.to_window(*board.anchor_on_screen(region))
    touch = ui.UnitTestTouch(x, y)
    touch.touch_down()
    ui.pump(1)
    touch.touch_up()
    ui.pump(3)


def shot(app: Any, name: str) -> None:
    """Check the quality bar on the screen shown; keep a screenshot in $COMPANION_SHOTS."""
    assert ui.layout_problems(screen(app)) == []
    folder = os.environ.get("COMPANION_SHOTS")
    if folder:
        ui.screenshot(Path(folder) / f"{name}.png")


def pick_top_combo(app: Any) -> None:
    tap_action(app, "market")
    ui.tap(screen(app).ids.rows.row("row0"))
    answer_yes()


def spread_hands(app: Any) -> None:
    """Tap every one-tap redeployment the table offers (the hand spread over the regions:
    the player's own while redeploying, each defender's before the turn ends)."""
    for action in list(app.ctx.presenters["table"].actions):
        if action["key"].startswith("spread:"):
            tap_action(app, action["key"])


def play_quiet_turn(app: Any) -> None:
    """The current player picks the top combo (if need be), conquers nothing, scores, ends."""
    session = app.session
    seat = session.state.track.seat
    while not session.state.is_over and session.state.track.seat == seat:
        phase = session.state.track.phase
        assert app.ctx.nav.current == "table"
        if phase is Phase.PICK_COMBO:
            pick_top_combo(app)
        elif phase is Phase.CONQUER:
            tap_action(app, "finish_conquests")
        elif phase is Phase.REDEPLOY:
            spread_hands(app)
            tap_action(app, "finish_redeployment")
        elif phase is Phase.SCORE:
            tap_action(app, "scoring")
            tap_id(app, "score")
        elif phase is Phase.FINISHED:
            spread_hands(app)
            tap_action(app, "end_turn")


def spend_hand_until_a_final_conquest(app: Any) -> int:
    """On the map: put all the hand but one token into the cheapest bright region (the
    Deploy stepper), then find a region the last token can try with the die."""
    map_p = app.presenters["map"]
    costs = {}
    for region in sorted(map_p.highlight):
        tap_region(app, region)
        if any(action["key"] == "conquer" for action in map_p.actions):
            costs[region] = int(map_p.deploy)
    cheapest = min(costs, key=lambda r: (costs[r], r))
    tap_region(app, cheapest)
    map_p.set_deploy(int(map_p.tokens_left) - 1)  # what the Deploy stepper sets
    panel = screen(app).ids.panel_scroll
    panel.scroll_y = 0  # the finger scrolls down to the button, then back up
    ui.pump()
    ui.tap(screen(app).ids.actions.button("conquer"))
    panel.scroll_y = 1
    ui.pump()
    for region in sorted(map_p.highlight):
        tap_region(app, region)
        if any(action["key"] == "final" for action in map_p.actions):
            return region
    raise AssertionError("no region for the last token to try with the die")


def revealed_tie(session: Any) -> tuple[Any, Any]:
    """`factories.tied_for_first`'s game on the game end screen of a new app, every purse
    revealed (as the reveal taps do): the app and the game end's presenter, the tie between
    Ann and Bob not yet broken."""
    app = ui.app_for(session)
    app.use_session(session, screen="game_end")
    presenter = app.presenters["game_end"]
    while not presenter.all_revealed:
        presenter.reveal_next()
    return app, presenter


def break_the_tie(presenter: Any) -> None:
    """The table counts its race tokens on the board: Ann 5, Bob 9; Bob wins the tie."""
    presenter.set_tokens(0, 5)
    presenter.set_tokens(1, 9)
    presenter.decide()
