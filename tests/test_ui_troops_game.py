"""A whole 3-player game through the screens, with the cardboard counted by hand beside it.

Ana, Ben and Cy play the base game on the real screens (market, map, table) at 800x480.
Beside the app, `Cardboard` keeps its own count of the tokens as players move them at the
table, by the rules of the booklet and nothing from the app but the cost the map shows:
the combo's tokens taken in hand, each conquest's tokens put in its region, one token of a
defeated region to the tray and the others in the defender's hand, Ready your Troops, the
tokens put back one tap at a time with the map's steppers, decline. After every turn the
map shows, region by region, the counts of the cardboard, and each player row on the table
says how many tokens are on the board and in hand.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from screen_steps import (
    pick_top_combo,
    screen,
    shot,
    table_app,
    tap_action,
    tap_id,
    tap_region,
)

from companion.rules.events import Seat
from companion.rules.turns import Phase

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SEED = 7
AMAZONS_ASIDE = 4


@dataclass
class Cardboard:
    """The tokens on the table, counted by hand: region -> (seat, race, tokens), and each
    race's hand and Amazons' tokens set aside."""

    regions: dict[int, tuple[int, str, int]] = field(default_factory=dict)
    hand: dict[tuple[int, str], int] = field(default_factory=dict)
    aside: dict[tuple[int, str], int] = field(default_factory=dict)
    declined: set[tuple[int, str]] = field(default_factory=set)

    def moving(self, seat: int, active: str | None) -> list[str]:
        """The races `seat` readies and redeploys: the active one, Ghouls in decline."""
        return ([active] if active else []) + [
            race for s, race in sorted(self.declined) if s == seat and race == "Ghouls"]

    def held(self, seat: int, race: str) -> list[int]:
        return sorted(r for r, (s, name, _) in self.regions.items() if (s, name) == (seat, race))

    def on_board(self, seat: int, race: str) -> int:
        return sum(n for s, name, n in self.regions.values() if (s, name) == (seat, race))

    def take_combo(self, seat: int, race: str, tokens: int) -> None:
        self.hand[(seat, race)] = tokens

    def conquer(self, seat: int, race: str, region: int, tokens: int) -> None:
        if region in self.regions:
            loser, lost_race, count = self.regions[region]
            elves = lost_race == "Elves" and (loser, lost_race) not in self.declined
            self.hand[(loser, lost_race)] += count if elves else count - 1
        self.regions[region] = (seat, race, tokens)
        self.hand[(seat, race)] -= tokens

    def ready(self, seat: int, race: str) -> None:
        back = self.aside.pop((seat, race), 0)
        for region in self.held(seat, race):
            s, name, n = self.regions[region]
            back += n - 1
            self.regions[region] = (s, name, 1)
        self.hand[(seat, race)] += back

    def move(self, seat: int, race: str, region: int, delta: int) -> None:
        s, name, n = self.regions[region]
        self.regions[region] = (s, name, n + delta)
        self.hand[(seat, race)] -= delta

    def set_aside(self, seat: int, race: str) -> None:
        self.aside[(seat, race)] = self.hand[(seat, race)]
        self.hand[(seat, race)] = 0

    def decline(self, seat: int, race: str) -> None:
        """One token stays in each region (Ghouls keep them all); the rest go to the tray,
        and any race already in decline leaves the board."""
        for old in [key for key in self.declined if key[0] == seat]:
            self.declined.discard(old)
            self.regions = {r: v for r, v in self.regions.items() if v[:2] != old}
        for region in self.held(seat, race):
            if race != "Ghouls":
                self.regions[region] = (seat, race, 1)
        self.hand[(seat, race)] = 0
        self.declined.add((seat, race))


@pytest.fixture(scope="module")
def app() -> Any:
    app = table_app(SEED)
    app.session.new_game([Seat("Ana", "blue"), Seat("Ben", "red"), Seat("Cy", "green")],
                         first_seat=0)
    app.use_session(app.session)
    ui.pump(10)  # the table is built when first shown
    return app


def map_panel_action(app: Any, key: str) -> None:
    screen(app).ids.panel_scroll.scroll_y = 0  # the buttons sit under the cost lines
    ui.pump()
    ids = screen(app).ids  # a conquest in the main column, a step at the panel's foot
    ui.tap(ids.actions.button(key) or ids.more_actions.button(key))


def keys_of(app: Any) -> list[str]:
    return [a["key"] for a in app.presenters["map"].actions]


def conquer_some(app: Any, board: Cardboard, seat: int, race: str) -> None:
    """Up to two conquests on the map (another player's region first, where one can be
    afforded), then the end of conquests: Skeletons take 1 new token from the tray for
    every 2 non-empty regions they took."""
    map_p = app.presenters["map"]
    tap_action(app, "map")
    non_empty = 0
    for _ in range(2):
        targets = sorted(map_p.highlight, key=lambda r: (r not in board.regions, r))
        for region in targets:
            tap_region(app, region)
            if "conquer" in keys_of(app) and int(map_p.deploy) <= board.hand[(seat, race)]:
                tokens = int(map_p.deploy)  # the cost the map shows, put on the cardboard
                non_empty += app.session.state.regions[region].non_empty  # what lies there
                map_panel_action(app, "conquer")
                board.conquer(seat, race, region, tokens)
                break
        else:
            break
    ui.tap(ui.button(screen(app).ids.bottom_actions, "finish_conquests"))
    if race == "Skeletons":
        board.hand[(seat, race)] += non_empty // 2


def put_back(app: Any, board: Cardboard, seat: int, race: str, keep: int = 0) -> None:
    """Tokens from the hand into the race's first region, one tap of "+1" at a time (or,
    for Amazons short of their four, "-1" back into the hand)."""
    tap_id(app, "map")  # the table's top bar
    while board.hand[(seat, race)] > keep:
        region = board.held(seat, race)[0]
        tap_region(app, region)
        map_panel_action(app, "add_token")
        board.move(seat, race, region, 1)
    while board.hand[(seat, race)] < keep:
        region = max(board.held(seat, race), key=lambda r: board.regions[r][2])
        tap_region(app, region)
        map_panel_action(app, "take_token")
        board.move(seat, race, region, -1)
    ui.tap(ui.button(screen(app).ids.bottom_actions, "back"))


def check_counts(app: Any, board: Cardboard) -> None:
    """The map's counts are the cardboard's, region by region; the table's rows agree."""
    state = app.session.state
    shown = {rid: (rs.occupant.seat, rs.occupant.race, rs.occupant.tokens)
             for rid, rs in app.presenters["map"].regions.regions.items()
             if rs.occupant is not None}
    assert shown == board.regions
    rows = {row["seat"]: row["tokens"] for row in app.presenters["table"].players}
    for player in state.players:
        if player.active is None:
            continue
        key = (player.seat, player.active.race)
        expected = f"{board.on_board(*key)} on the board"
        if board.hand[key]:
            expected += f", {board.hand[key]} in hand"
        if board.aside.get(key):
            expected += f", {board.aside[key]} aside"
        assert rows[player.seat] == expected


def test_a_whole_game_keeps_the_map_equal_to_the_cardboard(app: Any) -> None:
    session = app.session
    board = Cardboard()
    catalog = session.catalog
    turns_checked = 0
    while not session.state.is_over:
        state = session.state
        seat, turn = state.track.seat, state.track.turn
        player = state.current
        active_race = player.active.race if player.active is not None else None
        declining = player.active is not None and turn == 4 and seat == 0  # Ana, once
        for race in board.moving(seat, active_race) if not declining else ():
            board.ready(seat, race)  # a race going into decline does not ready its troops
        if declining:
            tap_action(app, "decline")
            ui.tap(ui.dialogs()[-1].ids.yes)
            board.decline(seat, active_race)
        else:
            if state.track.phase is Phase.PICK_COMBO:
                pick_top_combo(app)
                active = session.state.current.active
                assert active is not None
                board.take_combo(seat, active.race, catalog.combo_tokens(
                    active.race, active.power) + catalog.race(active.race).conquest_only_tokens)
            race = session.state.current.active.race
            conquer_some(app, board, seat, race)
            keep = 0
            if race == "Amazons":
                keep = min(AMAZONS_ASIDE, board.on_board(seat, race) + board.hand[(seat, race)]
                           - len(board.held(seat, race)))
            for moved in board.moving(seat, race):
                if board.held(seat, moved):
                    put_back(app, board, seat, moved, keep if moved == race else 0)
            tap_action(app, "finish_redeployment")
            if keep:
                board.set_aside(seat, race)
        tap_action(app, "scoring")
        ui.tap(screen(app).ids.score)
        for (defender, race), count in sorted(board.hand.items()):
            if defender != seat and count and board.held(defender, race):
                put_back(app, board, defender, race)
        check_counts(app, board)
        if turns_checked == 4:
            shot(app, "troops_table")
        tap_action(app, "end_turn")
        turns_checked += 1
    assert turns_checked == 3 * session.state.track.turns
    assert app.ctx.nav.current == "game_end"


def test_the_map_offers_sorcery_on_a_lone_token_and_the_table_counts_it(app: Any) -> None:
    from test_rules_troops import sorcerers_beside_lone_humans

    session = sorcerers_beside_lone_humans()
    app.use_session(session)
    ui.pump(10)
    tap_id(app, "map")
    tap_region(app, 3)
    assert "sorcery" in keys_of(app)
    assert [a["text"] for a in app.presenters["map"].actions if a["key"] == "sorcery"] == [
        "Sorcery: replace Bob's lone token with a Sorcerer from the tray"]
    map_panel_action(app, "sorcery")
    occupant = session.state.regions[3].occupant
    assert occupant is not None and (occupant.seat, occupant.race, occupant.tokens) == (
        0, "Sorcerers", 1)
    tap_region(app, 4)
    assert "sorcery" not in keys_of(app)  # once a turn against Bob
    ui.tap(ui.button(screen(app).ids.bottom_actions, "back"))
    sorcerers = session.state.troops.of(0, "Sorcerers")
    rows = {row["seat"]: row["tokens"] for row in app.presenters["table"].players}
    assert rows[0] == f"{sorcerers.received - sorcerers.hand} on the board, " \
                      f"{sorcerers.hand} in hand"


def test_the_table_says_who_puts_tokens_back_before_the_turn_can_end() -> None:
    """A turn scored while a defender still holds the tokens it took back: the hint says
    so before "End the turn" is tapped (and refused), and says the turn's end once they
    are back on the board."""
    from test_rules_troops import attacked_by_orcs

    from companion.ui.presenters.base import Context
    from companion.ui.presenters.table import TablePresenter

    s = attacked_by_orcs()
    s.finish_conquests()
    s.spread_hand()
    s.finish_redeployment()
    s.score(0)
    table = TablePresenter(Context(session=s))
    s.subscribe(table.update)
    table.update(s.state)
    assert table.phase_text == ("The turn is scored. First Ann puts the tokens in hand back "
                                "on the board; then end the turn.")
    s.spread_hand(seat=0, race="Humans")
    assert table.phase_text == "The turn is scored. End the turn to pass to the next player."
