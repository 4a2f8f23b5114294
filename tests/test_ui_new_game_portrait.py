"""The new-game screen in portrait (480x800, the 7" display turned), in the real headless
window: "Add a player" stays in sight however many players are listed."""

from __future__ import annotations

from typing import Any

import ui_support

from companion.session import Session


def test_add_a_player_is_in_sight_in_portrait(headless_app: Any) -> None:
    try:
        ui_support.resize((480, 800))
        headless_app.use_session(Session(), screen="new_game")
        form = headless_app.presenters["new_game"]
        form.reset()
        while len(form.seats) < 5:
            form.add_default_player()
        ui_support.pump(6)
        add = headless_app.screens["new_game"].ids.add
        x, y = add.to_window(*add.pos)
        assert ui_support.is_shown(add)
        assert ui_support._inside_scroll(add) is None  # never scrolled out of sight
        assert x >= 0 and y >= 0 and x + add.width <= 480 and y + add.height <= 800
        assert add.height >= 48
        ui_support.tap(add)  # it answers: who joins? (a saved player or a typed name)
        assert ui_support.dialogs()
    finally:
        ui_support.close_dialogs()
        ui_support.resize((800, 480))
