"""Every screen that reads the saved games says so in words when the file refuses a read,
and the app goes on: no SQLite exception reaches a screen (they arrive as the store's own
`StoreReadError`).

The failure is real: another connection drops one of the file's tables under the open
app (as a database tool or a damaged schema would), so the app's next read of it gets
SQLite's own error from a real file.
"""

from __future__ import annotations

import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from factories import created

from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

REFUSED = "The saved games could not be read"


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with Store.open(tmp_path / "games.sqlite3") as opened:
        opened.add_profile("Ann", "red", "1234")
        yield opened


def app_on(store: Store, *, playing: bool = False) -> Any:
    session = Session(load_catalog(), rng=random.Random(1), store=store)
    if playing:
        session.begin(created(3))  # Ann, Bob and Cy: Ann is linked to her profile
    app = ui.app_for(session)
    ui.resize((800, 480))
    return app


def gone(store: Store, table: str) -> None:
    """Drop `table` from the file through another connection, under the open app."""
    other = sqlite3.connect(store.path)
    other.execute(f"DROP TABLE {table}")
    other.close()


def test_past_games_say_they_cannot_be_read(store: Store) -> None:
    app = app_on(store)
    gone(store, "game_seats")
    gone(store, "games")
    history = app.presenters["history"]
    history.load()
    assert history.error_text.startswith(f"The past games cannot be read: {REFUSED}")
    assert history.games == []


def test_one_past_game_says_it_cannot_be_shown(store: Store) -> None:
    app = app_on(store)
    gone(store, "games")
    assert app.presenters["history_game"].load(1) is False
    assert app.ctx.notices.last_title == "Past games"
    assert app.ctx.notices.last_message.startswith(f"That game cannot be shown: {REFUSED}")


def test_stats_say_they_cannot_be_read(store: Store) -> None:
    app = app_on(store)
    gone(store, "game_combos")
    stats = app.presenters["stats"]
    stats.load()
    assert stats.empty and stats.empty_text.startswith(f"The stats cannot be read: {REFUSED}")


def test_an_export_says_it_was_not_written_and_leaves_no_file(store: Store) -> None:
    app = app_on(store)
    gone(store, "games")
    detail = app.presenters["history_game"]
    detail.game_id = 1
    detail._export("json")
    assert app.ctx.notices.last_title == "Not exported"
    assert REFUSED in app.ctx.notices.last_message
    settings = app.presenters["settings"]
    settings.export_all()
    assert app.ctx.notices.last_title == "Not exported"
    exports = Path(store.path.parent / "data")
    assert not any(p.is_file() for p in exports.rglob("*"))


def test_profiles_settings_and_new_game_say_the_players_cannot_be_read(
    store: Store,
) -> None:
    app = app_on(store)
    gone(store, "players")
    profiles = app.presenters["profiles"]
    profiles.load()
    assert profiles.hint.startswith(f"The saved players cannot be read: {REFUSED}")
    assert profiles.profiles == []
    settings = app.presenters["settings"]
    settings._show_data()
    assert settings.players_text.startswith(f"The saved players cannot be read: {REFUSED}")
    assert app.presenters["new_game"].profiles() == []  # typed names still work


def test_a_peek_says_the_pin_cannot_be_checked(store: Store) -> None:
    app = app_on(store, playing=True)
    gone(store, "game_seats")
    app.presenters["table"].peek(0)
    assert app.ctx.notices.last_title == "Nothing shown"
    assert app.ctx.notices.last_message.startswith(f"The PIN cannot be checked: {REFUSED}")


def test_the_sensor_grid_calibrates_anew_when_its_calibration_cannot_be_read(
    store: Store,
) -> None:
    from companion.grid import Calibrations

    app = app_on(store)
    gone(store, "settings")
    calibrations = Calibrations(lambda: app.ctx.session.records)
    assert calibrations.saved("3p") is None


def test_the_home_screen_says_the_saved_game_cannot_be_offered(store: Store) -> None:
    from companion.app import offer_resume

    app = app_on(store)
    app.set_resume(None)
    gone(store, "game_seats")
    gone(store, "games")
    offer_resume(app, store)
    assert app.ctx.notices.last_title == "Saved games"
    assert REFUSED in app.ctx.notices.last_message
    assert not app.presenters["home"].can_resume
