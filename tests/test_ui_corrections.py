"""The settings screen shows the numbers that rest on one source and corrects them, saved
in a real SQLite store; driven with simulated touches (800x480, the Pi's panel)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from kivy.uix.scrollview import ScrollView

from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store
from companion.store import corrections as saved_corrections
from companion.ui.widgets import MessageDialog

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with Store.open(tmp_path / "games.sqlite3") as opened:
        yield opened


def choose(text: str) -> None:
    """Tap the choice `text` of the dialog on top, scrolled into view first."""
    ui.pump()
    button = ui.find(ui.dialogs()[-1], text=text)
    scroll = button.parent.parent
    if isinstance(scroll, ScrollView):
        scroll.scroll_to(button, animate=False)
        ui.pump()
    ui.tap(button)


def test_the_settings_screen_corrects_a_single_source_number_and_puts_it_back(
    store: Store,
) -> None:
    session = Session(load_catalog(), store=store)
    app = ui.app_for(session)
    ui.resize((800, 480))
    app.ctx.nav.go("settings")
    ui.pump()
    ids = app.screens["settings"].ids
    assert "Were-: tokens on the badge: 4" in ids.corrections_text.text
    assert "Orcs" not in ids.corrections_text.text  # cross-checked: not offered
    ids.scroll.scroll_to(ids.correct, animate=False)
    ui.pump()
    ui.tap(ids.correct)
    choose("Were-: tokens on the badge: 4")
    choose("6")
    assert "Were-: tokens on the badge: 6 (corrected; the data says 4)" in ids.corrections_text.text
    assert session.catalog.power("Were-").tokens == 6
    assert saved_corrections.saved(store) == (("power", "Were-", "tokens", 6),)
    ids.scroll.scroll_to(ids.uncorrect, animate=False)
    ui.pump()
    ui.tap(ids.uncorrect)
    assert "Were-: tokens on the badge: 4" in ids.corrections_text.text
    assert session.catalog.power("Were-").tokens == 4
    assert store.setting(saved_corrections.KEY) is None
    assert not [d for d in ui.dialogs() if isinstance(d, MessageDialog)]
    ids.scroll.scroll_y = 1  # the app is shared by the tests: leave the screen as it was
    app.ctx.nav.go("home")
    ui.pump()
