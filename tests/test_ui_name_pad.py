"""The name pad types the names of the table's language: AZERTY and its accents for a
French table (Zoé, Hélène, François), QWERTZ with ä ö ü ß for a German one, QWERTY else;
every key stays a finger wide at 800x480 and upright."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import ui_support as ui

from companion import i18n
from companion.ui.presenters.keypads import NameRequest
from companion.ui.widgets import NamePad


@pytest.fixture
def pad(headless_app: Any) -> Iterator[tuple[NamePad, list[str]]]:
    names: list[str] = []

    def opened(language: str) -> NamePad:
        i18n.use(language)
        headless_app.ctx.notices.ask_name(NameRequest("Name", names.append))
        ui.pump()
        (found,) = ui.dialogs()
        assert isinstance(found, NamePad)
        return found

    yield opened, names  # type: ignore[misc]
    ui.close_dialogs()


def first_row(pad: NamePad) -> str:
    return "".join(key.text for key in pad._keys[:10])


@pytest.mark.parametrize(("language", "layout", "names"), [
    ("en", "QWERTYUIOP", ["Ann", "José", "Renée"]),
    ("fr", "AZERTYUIOP", ["Zoé", "Hélène", "François", "Maëlle"]),
    ("de", "QWERTZUIOP", ["Jürgen", "Weiß", "Özlem", "Bärbel"]),
])
def test_the_pad_follows_the_language_and_types_its_accents(
        pad: Any, language: str, layout: str, names: list[str]) -> None:
    opened, typed = pad
    for name in names:
        shown = opened(language)
        assert first_row(shown) == layout
        ui.type_on_pad(name)
        assert typed[-1] == name
    assert typed == names


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_accented_keys_are_a_finger_wide(pad: Any, size: tuple[int, int],
                                             language: str) -> None:
    opened, _typed = pad
    ui.resize(size)
    try:
        shown = opened(language)
        ui.tap(ui.find(shown, action_key="accents"))
        assert shown.accents
        assert not ui.layout_problems(ui.window())
        ui.tap(ui.find(shown, action_key="accents"))  # and back
        assert not shown.accents
    finally:
        ui.resize((800, 480))
