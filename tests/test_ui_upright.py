"""Faults 7 and 8 of issue 30, through the real screens: upright (480x800) the new-game
form shows every player and the map takes more than a third of the screen; the map's
"Tokens in hand", when the game counts them, shows no minus or plus that would do nothing;
a cost line of one token says "token" (French "pion"), not "tokens"."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from factories import COLOURS, NAMES, end_turn, finish_redeployment, play_turn, session

from companion import i18n
from companion.rules.conquest import immunity, reach
from companion.rules.events import Seat
from companion.rules.game import attacker
from companion.session import Session


def _targets(s: Session) -> list[int]:
    state = s.state
    who = attacker(state)
    return [rid for rid in sorted(state.map.regions)
            if immunity(state.map, rid, state.regions.regions, who) is None
            and reach(state.map, rid, who).reachable]


def test_upright_the_new_game_form_shows_every_player_and_start(upright: Any) -> None:
    app = upright
    app.use_session(Session(), screen="new_game")
    p = app.presenters["new_game"]
    p.reset(["Ann", "Bob", "Cy", "Di", "Ed"])  # the most the base game seats
    ui.pump(4)
    seats = app.screens["new_game"].ids.seats
    rows = [seats.row(i) for i in range(5)]
    assert all(row is not None for row in rows)
    assert [ui.out_of_sight(row) for row in rows] == [None] * 5
    assert ui.main_out_of_sight(("start", "add")) == []
    assert ui.layout_problems(app.root) == []


def test_upright_the_map_takes_more_than_a_third_of_the_screen(upright: Any) -> None:
    app = upright
    s = session(3)
    s.pick(0)
    app.use_session(s, screen="map")
    board = app.presenters["map"]
    board.tap(_targets(s)[0])
    ui.pump(4)
    drawn = app.screens["map"].ids.board
    # as tall as the screen's width lets the board be (it was cut to a third of the height)
    assert drawn.height >= drawn.width * board.board_ratio, (drawn.height, drawn.width)
    assert drawn.height > 800 / 3 + 10
    assert ui.main_out_of_sight(("conquer", "back")) == []


def test_the_tokens_in_hand_the_game_counts_show_no_live_minus_or_plus(
        headless_app: Any) -> None:
    app = headless_app
    s = Session(rng=__import__("random").Random(4))
    s.new_game([Seat(NAMES[i], COLOURS[i]) for i in range(3)], first_seat=0)
    s.pick(0)
    app.use_session(s, screen="map")
    board = app.presenters["map"]
    board.tap(_targets(s)[0])
    ui.pump(4)
    assert board.hand_known and board.show_final
    stepper = app.screens["map"].ids.tokens_left
    assert ui.is_shown(stepper)
    assert not ui.is_shown(stepper.ids.minus) and not ui.is_shown(stepper.ids.plus)
    before = int(board.tokens_left)
    stepper.ids.plus.dispatch("on_release")
    ui.pump()
    assert int(board.tokens_left) == before
    assert ui.layout_problems(app.root) == []


def test_a_cost_line_of_one_token_says_token_in_french(headless_app: Any) -> None:
    app = headless_app
    s = session(3, races=("Amazons", "Ratmen", "Trolls"), powers=("Hill", "Wealthy", "Stout"))
    s.pick(0)
    region = _targets(s)[0]
    s.conquer(region, tokens=3)
    s.finish_conquests()
    finish_redeployment(s)
    s.score()
    end_turn(s)
    play_turn(s)
    play_turn(s)
    s.decline()  # Ann's race in decline: one token left in the region
    s.score()
    end_turn(s)
    # Bob, whose race conquered nothing in turn 1, attacks it
    try:
        i18n.use("fr")
        app.use_session(s, screen="map")
        board = app.presenters["map"]
        board.tap(region)
        ui.pump(3)
        lines = {row["label"]: row["value"] for row in board.cost_lines}
        one = [label for label, value in lines.items() if value == "+1" and "déclin" in label]
        assert one and all(label.startswith("pion ") and label.endswith(" présent")
                           for label in one), lines
    finally:
        i18n.use("en")


def test_river_world_events_so_far_are_named_in_the_language_spoken() -> None:
    """Seen by eye on the explorer's French table: "Événements révélés : Harsh Winter,
    Pirates, Quiet waters, Storm"."""
    from river_support import river_session

    from companion.rules.river import RiverEvent
    from companion.ui.presenters.river import RiverView

    s = river_session(RiverEvent.HARSH_WINTER, RiverEvent.QUIET_WATERS)
    try:
        i18n.use("fr")
        said = RiverView().summary(s.state)
        assert "Hiver rigoureux" in said and "Harsh Winter" not in said, said
    finally:
        i18n.use("en")
