"""The game end's QR code of the BG Stats link, read back from the screen, and the game's
story beside the standings.

How the code is checked: not with a QR decoder (none is installed for the tests), but by
comparing grids. The window is drawn and read back with ``glReadPixels``; the colour at
the centre of every module of the drawn code gives the grid of dark and light modules the
screen shows, and that grid must equal segno's own matrix of the expected link (the link
`companion.bgstats` builds from what the records keep of the game), quiet zone included.
Equal grids means a phone's camera reads that link: the modules are the code's, and the
code is segno's encoding of it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import screenshots
import segno
import ui_support as ui

from companion import bgstats, story
from companion.ui.qr import QUIET, QRCode, modules

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _grid_on_screen(widget: QRCode) -> list[list[bool]]:
    """Dark (True) or light at the centre of each module the window shows, top row first."""
    from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

    win = ui.window()
    win.dispatch("on_draw")
    side, scale = int(widget.side), int(widget.module_px)
    x0, y0 = (int(v) for v in widget.to_window(*widget._rect.pos))
    drawn = side * scale
    data = glReadPixels(x0, y0, drawn, drawn, GL_RGBA, GL_UNSIGNED_BYTE)
    grid = []
    for row in range(side):  # from the top
        y = drawn - 1 - (row * scale + scale // 2)  # read-back rows go from the bottom
        line = []
        for col in range(side):
            x = col * scale + scale // 2
            red, green, blue = data[(y * drawn + x) * 4: (y * drawn + x) * 4 + 3]
            assert red == green == blue and red in (0, 255), (row, col, red, green, blue)
            line.append(red == 0)
        grid.append(line)
    return grid


def _segno_grid(url: str) -> list[list[bool]]:
    code = segno.make(url, error="l", boost_error=True)
    return [[bool(m) for m in row] for row in code.matrix_iter(scale=1, border=QUIET)]


@pytest.fixture(scope="module")
def saved_game_end() -> Any:
    """The game end of a finished 4-player game saved in a store, at 800x480, standings
    decided, showing the QR code."""
    app = ui.app_for(screenshots._over_saved())
    ui.resize((800, 480))
    app.use_session(app.session, screen="game_end")
    p = app.presenters["game_end"]
    while not p.all_revealed:
        p.reveal_next()
    if p.needs_tiebreak:
        p.decide()
    ui.pump(4)
    return app


def _qr(app: Any) -> QRCode:
    found = [w for w in ui.walk_shown(ui.window()) if isinstance(w, QRCode)]
    assert len(found) == 1
    return found[0]


def test_the_link_is_the_saved_games(saved_game_end: Any) -> None:
    app = saved_game_end
    records, game_id = app.session.records, app.session.game_id
    assert records is not None and game_id is not None
    p = app.presenters["game_end"]
    assert p.can_export
    assert p.bgstats_url == bgstats.play_url(records.game_summary(game_id))
    assert p.bgstats_url.startswith("https://app.bgstatsapp.com/createPlay.html?data=")


def test_the_screen_shows_the_code_of_the_link_in_modules_of_three_pixels(
        saved_game_end: Any) -> None:  # fmt: skip
    app = saved_game_end
    p = app.presenters["game_end"]
    ui.tap(ui.button(app.root, "bgstats"))
    ui.pump(4)
    assert p.side == "bgstats"
    assert "Scan with your phone to log this play in BG Stats" in ui.texts(app.root)
    widget = _qr(app)
    assert widget.text == p.bgstats_url
    assert widget.module_px >= 3  # a phone reads it from across the table corner
    expected = _segno_grid(p.bgstats_url)
    assert [list(row) for row in modules(p.bgstats_url)] == expected
    assert _grid_on_screen(widget) == expected
    assert not ui.layout_problems(ui.window())


def test_the_chart_comes_back_and_the_code_goes(saved_game_end: Any) -> None:
    app = saved_game_end
    p = app.presenters["game_end"]
    p.show_side("bgstats")
    ui.pump(4)
    ui.tap(ui.button(app.root, "bgstats"))  # now says "Chart"
    ui.pump(4)
    assert p.side == "chart"
    assert not [w for w in ui.walk_shown(ui.window()) if isinstance(w, QRCode)]
    assert "Coins at the end of each turn" in ui.texts(app.root)


def test_the_story_tells_the_saved_game(saved_game_end: Any) -> None:
    """Ann declined her first race in turn 4 and picked another in turn 5 (see
    `screenshots._over_saved`); the story says so, with the coins the records hold."""
    app = saved_game_end
    p = app.presenters["game_end"]
    summary = app.session.records.game_summary(app.session.game_id)
    assert [row["name"] for row in p.story_rows] == ["Ann", "Bob", "Cy", "Di"]
    ann = p.story_rows[0]["lines"].split("\n")
    assert len(ann) == 3 and "declined in turn 4: " in ann[0]
    assert ann[1].startswith(f"{summary.combos_of(0)[1].name}, turns 5 to 9: ")
    spans = story.race_spans(summary, 0, (4,))
    assert [story.race_line(span) for span in spans] == ann[:2]
    assert [span.coins for span in spans] == [c.coins for c in summary.combos_of(0)]
    assert sum(span.coins for span in spans) == sum(summary.income_of(0))
    best = story.game_best_turn(summary)
    assert best is not None and p.story_best == (
        f"Best turn of the game: Ann, {best.coins} coins in turn {best.turn}.")
    shown = ui.texts(app.root)
    assert "The game's story" in shown and p.story_rows[1]["lines"] in shown


def test_a_past_game_shows_the_same_code(saved_game_end: Any) -> None:
    """The finished game's own screen (from the past games) offers the same link: a play
    not logged at the table can be logged later, and a second scan is the same play."""
    app = saved_game_end
    url = app.presenters["game_end"].bgstats_url
    past = app.presenters["history_game"]
    assert past.load(app.session.game_id)
    app.ctx.nav.go("history_game")
    ui.pump(4)
    assert past.bgstats_url == url and past.side == "chart"
    ui.tap(ui.button(app.root, "bgstats"))
    ui.pump(4)
    assert past.side == "bgstats"
    widget = _qr(app)
    assert widget.module_px >= 3
    assert _grid_on_screen(widget) == _segno_grid(url)
    assert not ui.layout_problems(ui.window())
    app.ctx.nav.go("game_end")
    ui.pump(4)


def test_a_game_without_saved_games_has_no_code() -> None:
    app = ui.app_for(screenshots._over(tie=False))
    ui.resize((800, 480))
    app.use_session(app.session, screen="game_end")
    p = app.presenters["game_end"]
    while not p.all_revealed:
        p.reveal_next()
    ui.pump(4)
    assert p.bgstats_url == "" and p.side == "chart"
    assert p.story_rows == [] and p.story_best == ""  # the records tell the story
    p.show_side("bgstats")
    assert p.side == "chart"
    assert not [w for w in ui.walk_shown(ui.window()) if getattr(w, "action_key", "") ==
                "bgstats"]


def _three_saved() -> Any:
    """A finished 3-player game saved in a store of its own."""
    import random
    import tempfile

    from factories import created, play_turn

    from companion.rules.catalog import load_catalog
    from companion.session import Session
    from companion.store import Store

    store = Store.open(Path(tempfile.mkdtemp()) / "companion.sqlite3")
    s = Session(load_catalog(), rng=random.Random(1), store=store)
    s.begin(created(3))
    while not s.state.is_over:
        play_turn(s, row=0, coins=2 + s.state.track.seat)
    return s


def test_the_next_game_to_end_shows_its_own_link() -> None:
    """Straight from one ended game to another (no game in play between them): the first
    one's link and story go as soon as the second is shown, and the second's come once it
    is decided."""
    app = ui.app_for(screenshots._over_saved())
    app.use_session(app.session, screen="game_end")
    p = app.presenters["game_end"]
    while not p.all_revealed:
        p.reveal_next()
    first = p.bgstats_url
    assert first and len(p.story_rows) == 4
    second = _three_saved()
    app.use_session(second, screen="game_end")
    ui.pump(2)
    assert p.bgstats_url == "" and p.story_rows == []
    while not p.all_revealed:
        p.reveal_next()
    assert second.records is not None and second.game_id is not None
    assert p.bgstats_url == bgstats.play_url(second.records.game_summary(second.game_id))
    assert p.bgstats_url != first and len(p.story_rows) == 3


def test_a_tie_broken_at_the_table_gives_the_link_its_winner() -> None:
    """Ann and Bob tie for the most coins; Bob has more race tokens on the board. The
    link read back names Bob the winner, whatever the order of the seats."""
    import json
    import tempfile
    from urllib.parse import parse_qs, urlsplit

    from factories import tied_for_first
    from screen_steps import break_the_tie, revealed_tie

    s = tied_for_first(Path(tempfile.mkdtemp()) / "companion.sqlite3")
    _app, p = revealed_tie(s)
    assert p.needs_tiebreak and p.bgstats_url == ""  # not decided, not saved: no link
    break_the_tie(p)
    data = json.loads(parse_qs(urlsplit(p.bgstats_url).query)["data"][0])
    players = {player["name"]: player for player in data["players"]}
    assert players["Ann"]["score"] == players["Bob"]["score"]
    assert (players["Bob"]["winner"], players["Bob"]["rank"]) == (True, 1)
    assert (players["Ann"]["winner"], players["Ann"]["rank"]) == (False, 2)
    assert [name for name, player in players.items() if player["startPlayer"]] == ["Ann"]


def test_the_link_words_the_board_in_the_tables_language(saved_game_end: Any) -> None:
    """BG Stats keeps the board as the play's variant: a French table's play says it in
    French (the game end's link is made when the game is saved; a past game's when it is
    opened)."""
    import json
    import re
    from urllib.parse import unquote

    from companion import i18n

    app = saved_game_end
    past = app.presenters["history_game"]

    def board_in_link() -> str:
        assert past.load(app.session.game_id)
        return str(json.loads(unquote(past.bgstats_url.partition("?data=")[2]))["board"])

    assert re.fullmatch(r"\d-player board", board_in_link())
    i18n.use("fr")
    assert re.fullmatch(r"Plateau \d joueurs", board_in_link())
    i18n.use("de")
    assert re.fullmatch(r"Spielplan für \d Spieler", board_in_link())
