"""Escape and the close button on the real headless window: on a desktop both ask before the
app ends, in the same reused dialog; in kiosk mode (COMPANION_KIOSK=1) Escape is ignored and
a request to close (the system's: there is no close button) is let through and logged.
Kivy's own handling of Escape (stop at once) never runs."""

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


def request_close() -> bool:
    """The window's close button, as SDL reports it: True when the window is kept open."""
    kept = bool(ui_support.window().dispatch("on_request_close"))
    ui_support.pump()
    return kept


def test_the_close_button_on_a_desktop_asks_the_same_question(
    ended: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COMPANION_KIOSK", raising=False)
    assert request_close() is True  # the window stays open
    assert ended == []
    [asked] = questions()
    assert asked.text == LEAVE_QUESTION
    assert request_close() is True  # a second click: the question stays, nothing ends
    assert questions() == [asked] and ended == []
    ui_support.tap(ui_support.find(asked, text="Stay"))
    assert questions() == [] and ended == []
    assert request_close() is True
    [again] = questions()
    assert again is asked  # the same dialog, filled again
    ui_support.tap(ui_support.find(again, text="Leave"))
    assert ended == ["app stopped"]


def test_a_request_to_close_in_kiosk_mode_is_the_systems_and_is_let_through(
    ended: list[str], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("COMPANION_KIOSK", "1")
    with caplog.at_level("INFO", logger="companion.ui.app"):
        assert request_close() is False  # SIGTERM (switch-off, systemctl stop): no wait
    assert questions() == []
    assert any("game is saved" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(("language", "words"), [
    ("fr", ("Quitter la table\u00a0? La partie est enregistrée.", "Quitter la table", "Rester",
            "Quitter", "Compagnon de table pour Small World")),
    ("de", ("Den Tisch verlassen? Die Partie ist gespeichert.", "Tisch verlassen", "Bleiben",
            "Verlassen", "Tischbegleiter für Small World")),
])
def test_the_leave_question_is_asked_in_the_language_spoken(
    ended: list[str], monkeypatch: pytest.MonkeyPatch, headless_app: Any, language: str,
    words: tuple[str, str, str, str, str],
) -> None:
    from companion import i18n

    question, title, stay, leave, window_title = words
    monkeypatch.delenv("COMPANION_KIOSK", raising=False)
    i18n.use(language)
    press_escape()
    [asked] = questions()
    assert asked.text == question
    assert asked.title == title
    ui_support.find(asked, text=stay)  # the buttons too
    ui_support.tap(ui_support.find(asked, text=leave))
    assert ended == ["app stopped"]
    assert headless_app.title == window_title  # the window's
