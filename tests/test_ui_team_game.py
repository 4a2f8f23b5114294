"""A whole six-player team game played through the real screens with simulated touches.

One real (offscreen) window at 800x480. Six at the table in three teams, Ann first: A = Ann
and Di, B = Bob and Ed, C = Cy and Fay, on the 5-player board. Every step is a tap: team
play switched on in the new game, the Monsters set out on the map before the first turn
(one taken back with undo), Ann taking a Monster's region and finding the Golden Soapbar
(the turn cannot end until it moves), Bob finding Glandulf's Tavern and giving its coins
to his partner, everybody playing on to the end, and the reveal with the team standings.

Set COMPANION_SHOTS to a folder to keep screenshots of the team table and the game end.
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
    choose,
    pick_top_combo,
    play_quiet_turn,
    screen,
    seat_player,
    shot,
    spread_hands,
    table_app,
    tap_action,
    tap_id,
    tap_region,
)

from companion.rules.teams import SOAPBAR, TAVERN, MonsterSetup, RelicsState

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Fay")
ANN, BOB, CY, DI, ED, FAY = range(6)
MONSTERS = (6, 12, 30, 37, 24)
SEED = 13  # its pile starts with the Golden Soapbar, then Glandulf's Tavern


@pytest.fixture(scope="module")
def app() -> Any:
    return table_app(SEED)


def set_monster(app: Any, region: int) -> None:
    """From the table: the map, the region, "Set the Monster here"."""
    tap_action(app, "monster_map")
    assert app.ctx.nav.current == "map"
    assert region in app.presenters["map"].highlight
    tap_region(app, region)
    ui.tap(screen(app).ids.actions.button("monster"))
    if app.ctx.nav.current == "map":
        ui.tap(ui.button(screen(app).ids.bottom_actions, "back"))


def conquer_on_map(app: Any, region: int) -> None:
    """The map, `region`, conquer it with what it costs, back to the table."""
    tap_action(app, "map")
    tap_region(app, region)
    labels = [row["label"] for row in app.presenters["map"].cost_lines]
    assert "Monster" in labels  # the Monster defends its region
    screen(app).ids.panel_scroll.scroll_y = 0  # the button is below the cost lines
    ui.pump()
    ui.tap(screen(app).ids.actions.button("conquer"))
    ui.tap(ui.button(screen(app).ids.bottom_actions, "finish_conquests"))
    assert app.ctx.nav.current == "table"


def score_on_screen(app: Any) -> None:
    spread_hands(app)
    tap_action(app, "finish_redeployment")
    tap_action(app, "scoring")
    tap_id(app, "score")
    assert app.ctx.nav.current == "table"


def test_a_whole_six_player_team_game_through_the_screens(app: Any) -> None:
    session = app.session
    # -- the new game: team play on, six players, Ann first ---------------------------------
    tap_id(app, "new_game")
    form = app.presenters["new_game"]
    toggle = screen(app).ids.teams
    toggle.parent.parent.scroll_y = 0  # the toggle is at the bottom of its list
    ui.pump()
    if form.option("necromancer"):
        form.act("necromancer")
    assert not form.option("teams")
    ui.tap(toggle.button("teams"))
    assert form.option("teams")
    while len(form.seats) > 3:
        form.remove_player(len(form.seats) - 1)
    for index, name in enumerate(NAMES):
        seat_player(app, index, name)
    assert [s["name"] for s in form.seats] == list(NAMES)
    if form.first != ANN:
        form.choose_first(ANN)
    assert "the 5-player board, 8 turns" in screen(app).ids.board.text
    tap_id(app, "start")
    assert app.ctx.nav.current == "table"
    state = session.state
    assert (state.board, state.track.turns, state.track.players) == ("5p", 8, 6)
    assert part(state, RelicsState).pile[:2] == (SOAPBAR, TAVERN)

    # -- the table: teams and partners; Bob's Monster first ----------------------------------
    table = screen(app)
    assert table.ids.players.row(ANN).ids.declined.text == "Team A, with Di"
    assert table.ids.players.row(ED).ids.declined.text == "Team B, with Bob"
    assert table.ids.current.text == "Bob's Monster"
    assert [a["key"] for a in app.presenters["table"].actions] == ["monster_map"]
    shot(app, "team_monsters_table")

    # -- the Monsters on the map; one taken back with undo ----------------------------------
    assert table.ids.players.row(BOB).current and not table.ids.players.row(ANN).current
    tap_action(app, "monster_map")
    tap_region(app, MONSTERS[0])
    shot(app, "team_monsters_map")
    ui.tap(ui.button(screen(app).ids.bottom_actions, "back"))
    set_monster(app, MONSTERS[0])
    tap_action(app, "monster_map")
    assert MONSTERS[0] not in app.presenters["map"].highlight  # taken
    tap_region(app, 5)  # not a Lost Tribe region: no Monster button
    assert "monster" not in [a["key"] for a in app.presenters["map"].actions]
    ui.tap(ui.button(screen(app).ids.bottom_actions, "back"))
    set_monster(app, 13)  # Cy's, then taken back
    assert session.state.part(MonsterSetup) is not None
    assert session.state.part(MonsterSetup).placed == ((BOB, 6), (CY, 13))
    assert table.ids.undo.text == "Undo: take back Cy's Monster in region 13"
    tap_id(app, "undo")
    assert session.state.part(MonsterSetup).placed == ((BOB, 6),)
    assert table.ids.current.text == "Cy's Monster"
    for region in MONSTERS[1:]:
        set_monster(app, region)
    assert app.ctx.nav.current == "table"
    assert session.state.part(RelicsState) is not None
    assert session.state.part(RelicsState).monsters == frozenset(MONSTERS)
    assert table.ids.current.text == "Ann's turn"
    assert "Monsters in regions 6, 12, 24, 30, 37." in table.ids.expansions.words

    # -- Ann takes Bob's Monster's region: the Golden Soapbar --------------------------------
    pick_top_combo(app)
    conquer_on_map(app, 6)
    assert session.state.part(RelicsState).lying == {SOAPBAR: 6}
    score_on_screen(app)
    assert "Golden Soapbar: move it now" in table.ids.reminders.words
    tap_action(app, "end_turn")  # refused: the Soapbar has not moved
    (dialog,) = ui.dialogs()
    assert "Move the Golden Soapbar first" in dialog.text
    ui.tap(dialog.ids.ok)
    assert session.state.track.seat == ANN
    tap_action(app, "soapbar")
    choose("5")
    assert session.state.part(RelicsState).lying[SOAPBAR] == 5
    tap_action(app, "end_turn")

    # -- Bob takes Cy's Monster's region: Glandulf's Tavern; he gives its coins to Ed --------
    pick_top_combo(app)
    conquer_on_map(app, 12)
    assert session.state.part(RelicsState).lying[TAVERN] == 12
    ed_before = session.state.players[ED].coins
    spread_hands(app)
    tap_action(app, "finish_redeployment")
    assert "Glandulf's Tavern: 2 coins more come with this turn's score." in (
        table.ids.reminders.words)
    tap_action(app, "scoring")
    tap_id(app, "score")
    assert "Glandulf's Tavern: you may give" in table.ids.reminders.words
    assert "Glandulf's Tavern (Popular Place) in region 12, used by Bob." in (
        table.ids.expansions.words)
    shot(app, "team_table")
    tap_action(app, "tavern")
    choose(str(ED))
    choose("2")
    assert session.state.players[ED].coins == ed_before + 2
    assert "tavern" not in [a["key"] for a in app.presenters["table"].actions]
    tap_action(app, "end_turn")

    # -- everybody plays on to the end ---------------------------------------------------------
    while not session.state.is_over:
        play_quiet_turn(app)

    # -- the reveal: six totals, then the teams with the lower total of each -----------------
    assert app.ctx.nav.current == "game_end"
    end_p = app.presenters["game_end"]
    for _ in range(6):
        if not end_p.all_revealed:
            tap_id(app, "reveal")
    assert len(end_p.revealed) == 6
    assert not end_p.needs_tiebreak  # teams never count tokens
    rows = end_p.standings
    assert len(rows) == 3 and {row["name"][0] for row in rows} == {"A", "B", "C"}
    assert "Each team scores its lower total." in screen(app).ids.hint.text
    totals = {p.seat: p.coins for p in session.state.players}
    lower = sorted((min(totals[a], totals[b]) for a, b in ((ANN, DI), (BOB, ED), (CY, FAY))),
                   reverse=True)
    assert [row["coins"] for row in rows] == [
        f"{n} coin" + ("" if n == 1 else "s") for n in lower]
    assert "Team " in screen(app).ids.winner.text
    shot(app, "team_game_end")
    while len(form.seats) > 5:  # the next test module starts from a plain form
        form.remove_player(len(form.seats) - 1)
    form.act("teams")
    assert not form.option("teams")
