"""Kivy's labels measure each word once per font (`companion.ui.text_measure`): the same
extents as the text provider's own, the same layout, and a label whose font changes gets
the new font's measures."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")

from kivy.base import EventLoop
from kivy.core.text import Label as CoreLabel

from companion.ui import text_measure

WORDS = ("Amazons", "Skeletons", "Dragon Master", "tokens", "Région 12", "Straße", "", " ",
         "9", "Take the combo for 3 coins")
PARAGRAPH = ("Once per turn you may conquer a region with a single token, whatever defends "
             "it; the Dragon then makes it immune until your next turn. ") * 3


@pytest.fixture
def installed() -> Iterator[None]:
    EventLoop.ensure_window()
    text_measure.uninstall()
    text_measure.install()
    yield
    text_measure.uninstall()
    text_measure.install()  # as the app leaves it


def _own(**options: object) -> CoreLabel:
    label = CoreLabel(**options)
    label.resolve_font_name()
    return label


@pytest.mark.parametrize("options", [{"font_size": 15}, {"font_size": 17, "bold": True},
                                     {"font_size": 22, "italic": True},
                                     {"font_size": 16, "outline_width": 2}])
def test_a_cached_measure_is_the_providers_own(installed: None, options: dict[str, object]
                                               ) -> None:
    label = _own(**options)
    measure = label.get_cached_extents()
    for word in WORDS:
        assert measure(word) == label.get_extents(word), word
        assert measure(word) == label.get_extents(word), word  # the second time, cached


def test_a_wrapped_paragraph_is_laid_out_as_without_the_cache(installed: None) -> None:
    cached = _own(text=PARAGRAPH, font_size=17, text_size=(300, None))
    cached.refresh()
    text_measure.uninstall()
    plain = _own(text=PARAGRAPH, font_size=17, text_size=(300, None))
    plain.refresh()
    assert cached.texture.size == plain.texture.size
    assert [line.words[0].text for line in cached._cached_lines] == \
        [line.words[0].text for line in plain._cached_lines]


def test_a_label_whose_font_changes_measures_in_the_new_font(installed: None) -> None:
    label = _own(text="Amazons", font_size=15)
    small = label.get_cached_extents()("Amazons")
    label.options["font_size"] = 30
    label.resolve_font_name()
    large = label.get_cached_extents()("Amazons")
    assert large[0] > small[0]
    assert large == _own(font_size=30).get_extents("Amazons")
    assert _own(font_size=15).get_cached_extents()("Amazons") == small


def test_a_font_table_starts_again_when_full(installed: None, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    monkeypatch.setattr(text_measure, "LIMIT", 3)
    label = _own(font_size=19)
    measure = label.get_cached_extents()
    for n in range(10):
        assert measure(f"word {n}") == label.get_extents(f"word {n}")
    cell = measure.__closure__
    assert cell is not None
    tables = [c.cell_contents for c in cell if isinstance(c.cell_contents, dict)]
    assert tables and all(len(t) <= 3 for t in tables)
