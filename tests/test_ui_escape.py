"""Escape on the real headless window: on a desktop it asks before the app ends; in kiosk
mode (COMPANION_KIOSK=1) it is ignored. Kivy's own handling (stop at once) never runs."""

from __future__ import annotations

from typing import Any

import kivy.core.window as kivy_window
import pytest
import ui_support

from companion.ui.app import LEAVE_QUESTION
from companion.ui.widgets import ConfirmDialog

ESCAPE = 27


@pytest.fixture
def ended(monkeypatch: pytest.MonkeyPatch, headless_app: Any) -> list[str]:
    """What would have ended the app: Kivy stopping it at once, or the app's own stop."""
    calls: list[str] = []
    win = ui_support.window()
    monkeypatch.setattr(kivy_window, "stopTouchApp", lambda: calls.append("kivy stopped"))
    monkeypatch.setattr(win, "close", lambda *_a: calls.append("window closed"))
    monkeypatch.setattr(headless_app, "stop", lambda *_a: calls.append("app stopped"))
    yield calls
    ui_support.close_dialogs()


def press_escape() -> None:
    ui_support.window().dispatch("on_keyboard", ESCAPE, 41, None, [])
    ui_support.pump()


def questions() -> list[ConfirmDialog]:
    return [d for d in ui_support.dialogs() if isinstance(d, ConfirmDialog)]


def test_escape_on_a_desktop_asks_and_leaves_only_when_told(
    ended: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COMPANION_KIOSK", raising=False)
    press_escape()
    assert ended == []
    [asked] = questions()
    assert asked.text == LEAVE_QUESTION == "Leave the table? The game is saved."
    press_escape()  # Escape again: stay
    assert questions() == [] and ended == []
    press_escape()
    [asked] = questions()
    leave = ui_support.find(asked, text="Leave")
    ui_support.tap(leave)
    ui_support.pump()
    assert ended == ["app stopped"]


def test_escape_in_kiosk_mode_is_ignored(ended: list[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_KIOSK", "1")
    for _ in range(3):
        press_escape()
    assert ended == [] and questions() == []
