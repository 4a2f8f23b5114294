"""The game end's standings read whole where a tie was broken: each row's coins on one
line, the tokens on the board that decided under the player's name, and the sentence
that says who won in sight without scrolling (German at 800x480, its longest words); the
past game's screen shows the same rows once the game is saved."""

from __future__ import annotations

import tempfile
from pathlib import Path

import ui_support as ui
from factories import tied_for_first
from screen_steps import break_the_tie, revealed_tie

from companion import i18n


def test_a_broken_tie_shows_each_rows_coins_on_one_line_and_who_won_in_sight() -> None:
    s = tied_for_first(Path(tempfile.mkdtemp()) / "companion.sqlite3")
    i18n.use("de")
    app, p = revealed_tie(s)
    ui.resize((800, 480))
    break_the_tie(p)
    ui.pump()
    screen = app.screens["game_end"]
    rows = [row for row in screen.ids.results.children if row.detail]
    assert len(rows) == 2  # the two tied players: the tokens that decided under the name
    for row in rows:
        coins, detail = row.ids.coins, row.ids.detail
        assert "Spielbrett" in detail.text and "Spielbrett" not in coins.text
        assert len(coins._label._cached_lines) == 1, coins.text
    assert ui.out_of_sight(screen.ids.winner) is None


def test_a_past_game_broken_by_a_tie_shows_the_tokens_under_the_names() -> None:
    s = tied_for_first(Path(tempfile.mkdtemp()) / "companion.sqlite3")
    app, p = revealed_tie(s)
    break_the_tie(p)
    past = app.presenters["history_game"]
    assert s.game_id is not None and past.load(s.game_id)
    rows = {row["name"]: row for row in past.standings}
    assert (rows["Bob"]["detail"], rows["Ann"]["detail"], rows["Cy"]["detail"]) == (
        "9 tokens on the board", "5 tokens on the board", "")
    assert all("token" not in row["coins"] for row in rows.values())
