"""Switching the table off from the home screen: in kiosk mode only, through a dialog,
with ``systemctl --no-ask-password poweroff`` (or ``reboot``) run as the table's user.

The real home screen, headless at 800x480, driven by touches; a fake ``systemctl`` first
on PATH writes its arguments to a file and exits 0 (accepted) or 1 (refused).
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ui_support as ui
from factories import created, play_turn

from companion.rules.catalog import load_catalog
from companion.session import Session
from companion.store import Store
from companion.store.lock import check_free
from companion.ui.presenters.base import Context
from companion.ui.presenters.home import HomePresenter
from companion.ui.screens.home import SwitchOffDialog

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FAKE_SYSTEMCTL = """#!/bin/sh
printf '%s\\n' "$*" >> "{log}"
if [ "$(cat "{status}")" != 0 ]; then
    echo "Failed to power off system via logind: Access denied" >&2
    exit 1
fi
"""


class Table:
    """The home screen in kiosk mode, on a saved game, with a fake systemctl."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        self.log = tmp_path / "systemctl.log"
        self.status = tmp_path / "systemctl.status"
        self.status.write_text("0")
        fake = bin_dir / "systemctl"
        fake.write_text(FAKE_SYSTEMCTL.format(log=self.log, status=self.status))
        fake.chmod(0o755)
        monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
        self.db = tmp_path / "games.sqlite3"
        self.store = Store.open(self.db)
        self.session = Session(load_catalog(), rng=random.Random(1), store=self.store)
        self.session.begin(created(3))
        self.app = ui.app_for(self.session)
        ui.resize((800, 480))
        self.home = self.app.presenters["home"]
        self.stopped: list[bool] = []
        self.home.on_switched_off = lambda: self.stopped.append(True)
        self.home.can_switch_off = True
        self.app.ctx.nav.go("home")
        ui.pump()
        self.screen = self.app.screens["home"]

    def commands(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    def open_dialog(self) -> SwitchOffDialog:
        ui.tap(ui.button(self.screen, "switch_off"))
        [dialog] = ui.dialogs()
        assert isinstance(dialog, SwitchOffDialog)
        return dialog


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    t = Table(tmp_path, monkeypatch)
    yield t
    ui.close_dialogs()
    t.home.can_switch_off = False
    t.home.power_text = ""
    t.home.on_switched_off = None
    t.store.close()


def test_switch_off_asks_first_in_words_a_player_understands(table: Table) -> None:
    dialog = table.open_dialog()
    shown = " ".join(ui.texts(dialog))
    assert "The game is saved" in shown
    assert "switch off at the wall only once the screen is dark" in shown
    for key in ("poweroff", "reboot", "cancel"):
        ui.button(dialog, key)
    assert ui.layout_problems(dialog) == []
    assert table.commands() == []  # asking runs nothing


def test_cancel_does_nothing(table: Table) -> None:
    dialog = table.open_dialog()
    ui.tap(ui.button(dialog, "cancel"))
    assert ui.dialogs() == []
    assert table.commands() == [] and table.stopped == []
    play_turn(table.session, coins=1)  # the saved games are still open


def test_shut_down_runs_poweroff_then_closes_the_saved_games_and_stops(table: Table) -> None:
    ui.tap(ui.button(table.open_dialog(), "poweroff"))
    assert table.commands() == ["--no-ask-password poweroff"]
    assert table.stopped == [True]
    check_free(table.db)  # the lock is released: the store was closed
    assert "Switch off at the wall once the screen is dark" in table.home.power_text


def test_restart_runs_reboot(table: Table) -> None:
    ui.tap(ui.button(table.open_dialog(), "reboot"))
    assert table.commands() == ["--no-ask-password reboot"]
    assert table.stopped == [True]


def test_a_refused_switch_off_is_said_in_one_line_and_the_app_stays_usable(
    table: Table,
) -> None:
    table.status.write_text("1")
    ui.tap(ui.button(table.open_dialog(), "poweroff"))
    assert table.commands() == ["--no-ask-password poweroff"]
    assert table.stopped == []
    line = table.screen.ids.power
    assert ui.is_shown(line)
    assert line.text == ("The table could not be switched off: "
                         "Failed to power off system via logind: Access denied")
    assert "\n" not in line.text
    assert ui.layout_problems(table.screen) == []
    play_turn(table.session, coins=1)  # still saving: the store was not closed
    assert table.store.steps(table.session.game_id or 0) > 0
    again = table.open_dialog()  # the same dialog, reused
    assert again is table.screen._switch_off
    assert table.home.power_text == ""


def test_a_missing_systemctl_is_said_and_nothing_stops(
    table: Table, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    ui.tap(ui.button(table.open_dialog(), "reboot"))
    assert table.stopped == []
    assert table.home.power_text == ("The table could not be restarted: systemctl is not "
                                     "installed on this system.")


def test_a_missing_systemctl_is_said_in_the_table_s_language(
    table: Table, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    from companion import i18n

    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    i18n.use("fr")
    try:
        ui.tap(ui.button(table.open_dialog(), "reboot"))
        assert table.stopped == []
        assert table.home.power_text == ("La table n'a pas pu redémarrer\u00a0: systemctl "
                                         "n'est pas installé sur ce système.")
    finally:
        i18n.use(i18n.SOURCE)


def test_the_button_is_absent_outside_kiosk_mode(table: Table) -> None:
    table.home.can_switch_off = False
    ui.pump()
    assert not any(getattr(w, "action_key", "") == "switch_off"
                   for w in ui.walk_shown(table.screen))
    assert table.home.switch_off("poweroff") is False  # and the intent is refused
    assert table.commands() == []


def test_kiosk_mode_alone_offers_it(monkeypatch: pytest.MonkeyPatch) -> None:
    session: Any = Session(load_catalog())
    monkeypatch.delenv("COMPANION_KIOSK", raising=False)
    assert HomePresenter(Context(session=session)).can_switch_off is False
    monkeypatch.setenv("COMPANION_KIOSK", "1")
    assert HomePresenter(Context(session=session)).can_switch_off is True
