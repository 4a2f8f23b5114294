"""A whole game played through the real screens in French and in German: no word of English.

One real (offscreen) window at 800x480 with a real saved-games file. Every step is a tap, as
in `test_ui_game.py`: the language chosen on the home screen, a new game (names typed on the
letters pad), a combo bought from a lower row, a conquest on the map, a refused tap, the
final conquest with the die, redeployment, the scoring screen, an undo and its bar, a peek,
a rule looked up, a decline, every turn to the last, the reveal and the export. After each
step every text on the screen (and in any dialog or notice) is read: none may hold an
English word (`ENGLISH_WORDS`, words that are not French or German); a screenshot of each
step is kept when asked for (in ``$UI_SCREENSHOTS/game-<language>/`` when set).
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
import ui_support as ui
from screen_steps import (
    answer_yes,
    choose,
    dismiss_notice,
    play_quiet_turn,
    screen,
    spend_hand_until_a_final_conquest,
    spread_hands,
    tap_action,
    tap_id,
    tap_region,
)

from companion import i18n
from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store
from companion.ui.widgets import PeekView

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ENGLISH_WORDS = frozenset((
    "the", "and", "your", "you", "of", "to", "is", "are", "it", "its", "with", "from",
    "this", "that", "their", "they", "has", "have", "had", "can", "cannot", "would",
    "not", "be", "been", "for", "at", "by", "than", "then", "when", "what", "which", "who",
    "each", "every", "into", "onto", "turn", "turns", "token", "tokens", "coin", "coins",
    "conquer", "conquest", "conquests", "decline", "declined", "regions", "hold", "holds",
    "pick", "picks", "picked", "choose", "tap", "taps", "roll", "rolled", "rolls", "scored",
    "scoring", "board", "player", "players", "game", "games", "victory", "undo", "redo",
    "took", "take", "back", "done", "next", "first", "last", "peek", "only", "more", "less",
    "one", "two", "three", "none", "here", "there", "now", "yet", "again", "new",
    "ended", "ends", "round", "rules", "market", "map", "won", "wins",
))
"""Words that are English and neither French nor German (so not: die, in, an, on, or, was,
will, still, final, hand, held, race, region, start, score, menu)."""

NAMES = ("Ann", "Bob", "Cy")


def english_in(texts: list[str]) -> list[str]:
    """The texts holding an English word."""
    return [text for text in texts
            if ENGLISH_WORDS & {w.casefold() for w in re.findall(r"[^\W\d_]+", text)}]


class Reader:
    """Reads every text shown after each step; keeps a screenshot of it in `folder` (when
    asked for: ``UI_SCREENSHOTS``)."""

    def __init__(self, app: Any, language: str, folder: Path | None) -> None:
        self.app, self.language, self.folder = app, language, folder
        self.found: list[str] = []
        self.steps = 0

    def read(self, step: str) -> None:
        ui.pump()
        shown = ui.texts(screen(self.app))
        for dialog in ui.dialogs():
            shown += ui.texts(dialog)
        for view in ui.window().children:
            if isinstance(view, PeekView):
                shown += ui.texts(view)
        self.found += [f"{step}: {text!r}" for text in english_in(shown)]
        self.steps += 1
        if self.folder is not None:
            ui.screenshot(self.folder / f"{self.steps:02d}-{step}.png")


@pytest.fixture
def table(headless_app: Any, tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    store = Store.open(tmp_path / "games.sqlite3")
    session = Session(load_catalog(), rng=random.Random(7), store=store)
    headless_app.use_session(session, screen="home")
    ui.resize((800, 480))
    ui.pump()
    yield headless_app
    ui.close_dialogs()
    i18n.use(i18n.SOURCE)
    headless_app.ctx.nav.go("home")
    ui.pump()
    store.close()


@pytest.mark.parametrize("language", ["fr", "de"])
def test_a_whole_game_without_a_word_of_english(table: Any, language: str) -> None:
    app = table
    keep = os.environ.get("UI_SCREENSHOTS")
    folder = Path(keep) / f"game-{language}" if keep else None
    reader = Reader(app, language, folder)
    session = app.session

    # -- the language, chosen on the home screen ---------------------------------------------
    tap_id(app, "language")
    choose(language)
    assert i18n.language() == language
    reader.read("home")

    # -- a new game: three players, named on the letters pad -----------------------------------
    tap_id(app, "new_game")
    seats = screen(app).ids.seats
    for index, name in enumerate(NAMES):
        ui.tap(seats.row(index).ids.name)
        if index == 0:
            reader.read("name_pad")
        ui.type_on_pad(name)
    ui.tap(seats.row(0).ids.first)
    reader.read("new_game")
    tap_id(app, "start")
    assert app.ctx.nav.current == "table"
    reader.read("table")

    # -- Ann buys the combo in row 3 -------------------------------------------------------
    tap_action(app, "market")
    reader.read("market")
    ui.tap(screen(app).ids.rows.row("row2"))
    reader.read("market_pay")
    answer_yes()
    reader.read("picked")

    # -- a conquest on the map, and a tap the rules refuse ----------------------------------
    tap_action(app, "map")
    map_p = app.presenters["map"]
    target = sorted(map_p.highlight)[0]
    tap_region(app, target)
    reader.read("map_region")
    ui.tap(screen(app).ids.actions.button("conquer"))
    reader.read("conquered")
    assert session.state.regions[target].occupant is not None
    ui.tap(ui.button(screen(app).ids.bottom_actions, "back"))

    # -- the final conquest with the die -----------------------------------------------------
    tap_id(app, "die")
    spend_hand_until_a_final_conquest(app)
    reader.read("map_final")
    final = screen(app).ids.actions.button("final")
    assert ui.out_of_sight(final) is None  # in sight, never scrolled to
    ui.pump()
    ui.tap(final)
    assert app.ctx.nav.current == "die"
    ui.wait(1.3)
    reader.read("die")
    tap_id(app, "done")
    reader.read("redeploy")

    # -- redeployment, the scoring screen, the end of the turn ------------------------------
    spread_hands(app)
    tap_action(app, "finish_redeployment")
    tap_action(app, "scoring")
    reader.read("scoring")
    tap_id(app, "score")
    reader.read("scored")
    tap_action(app, "end_turn")

    # -- Bob picks, then takes it back: the undo bar ---------------------------------------
    tap_action(app, "market")
    ui.tap(screen(app).ids.rows.row("row0"))
    answer_yes()
    reader.read("bob_picked")
    ui.tap(screen(app).ids.undo)
    reader.read("took_back")

    # -- a region Bob may not take yet: the map says why ---------------------------------
    tap_id(app, "map")
    far = next(r for r in sorted(session.state.map.regions) if r not in map_p.highlight
               and session.state.regions[r].occupant is None)
    tap_region(app, far)
    reader.read("map_refused")
    if ui.dialogs():
        dismiss_notice()
    ui.tap(ui.button(screen(app).ids.bottom_actions, "back"))

    # -- Cy peeks at their coins -----------------------------------------------------------
    touch = ui.hold(screen(app).ids.players.row(2).ids.name_button, 0.6)
    reader.read("peek")
    ui.release(touch)

    # -- a rule looked up ----------------------------------------------------------------
    tap_id(app, "rules")
    assert app.ctx.nav.current == "rules"
    tap_id(app, "search")
    ui.type_on_pad("Tro")  # the Trolls, in every language
    reader.read("rule")
    tap_id(app, "back")
    assert app.ctx.nav.current == "table"

    # -- Bob and Cy play turn 1; Ann goes into decline ---------------------------------------
    play_quiet_turn(app)
    play_quiet_turn(app)
    tap_action(app, "decline")
    reader.read("decline_asked")
    answer_yes()
    reader.read("declined")

    # -- on to the last turn, then the reveal and the export ----------------------------------
    while not session.state.track.is_final_turn:
        play_quiet_turn(app)
    reader.read("final_turn")
    while not session.state.is_over:
        play_quiet_turn(app)
    assert app.ctx.nav.current == "game_end"
    for _ in NAMES:
        tap_id(app, "reveal")
    reader.read("revealed")
    tap_id(app, "export")
    reader.read("exported")
    ui.close_dialogs()

    assert reader.found == [], "\n".join(reader.found)
