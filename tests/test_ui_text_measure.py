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


@pytest.mark.parametrize("width", [120, 300, 700])
def test_lines_of_counts_the_lines_and_height_kivy_draws(installed: None, width: int) -> None:
    from kivy.uix.label import Label

    label = Label(text=PARAGRAPH, font_size=17, padding=(4, 6), text_size=(width, None))
    label.texture_update()
    drawn = len(label._label._cached_lines), label.texture_size[1]
    assert text_measure.lines_of(label._label.options, PARAGRAPH, width) == drawn
    assert text_measure.lines_of(label._label.options, "", width) == (0, 0)


def test_whole_lines_draws_each_caption_once_a_change_and_not_again_when_nothing_changed(
        installed: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's reminders (`WholeLines`) are measured without drawing: a caption is drawn
    once after its text changes, the others not at all (each was drawn twice a fit)."""
    from kivy.clock import Clock

    from companion.ui.widgets import NoteCaption, WholeLines

    drawn: list[str] = []
    update = NoteCaption.texture_update

    def texture_update(self: NoteCaption, *args: object) -> None:  # Kivy calls it by name
        drawn.append(self.text)
        update(self, *args)

    monkeypatch.setattr(NoteCaption, "texture_update", texture_update)
    box = WholeLines(size=(300, 200), size_hint=(None, None))
    captions = [NoteCaption(words=f"{n}: {PARAGRAPH[:60 + 20 * n]}", font_size=17, width=300,
                            size_hint_x=None) for n in range(3)]
    for caption in captions:
        box.add_widget(caption)

    def settled() -> None:
        for _ in range(5):
            Clock.tick()

    settled()
    assert all(caption.height > 0 for caption in captions)
    drawn.clear()
    captions[1].words = "1: a reminder that changed"
    settled()
    assert drawn == ["1: a reminder that changed"]
    drawn.clear()
    box.height = 201  # the box moved, no caption's lines did
    settled()
    assert drawn == []


def test_a_reminder_longer_than_its_room_ends_in_an_ellipsis_and_is_whole_with_room(
        installed: None) -> None:
    """A caption with room for fewer lines than its words take shows the words its lines
    hold, whole, then an ellipsis, in those lines; given the room, all its words again."""
    from kivy.clock import Clock

    from companion.ui.widgets import ELLIPSIS, NoteCaption, WholeLines

    box = WholeLines(size=(300, 60), size_hint=(None, None))
    caption = NoteCaption(words=PARAGRAPH, font_size=17, width=300, size_hint_x=None)
    box.add_widget(caption)

    def settled() -> None:
        for _ in range(5):
            Clock.tick()

    settled()
    lines, _tall = text_measure.lines_of(caption._label.options, PARAGRAPH, 300)
    assert 1 <= caption.max_lines < lines
    shown = caption.text
    assert shown.endswith(ELLIPSIS)
    kept = shown[:-len(ELLIPSIS)].split()
    words = PARAGRAPH.split()
    assert kept and kept[:-1] == words[:len(kept) - 1]  # whole words, from the start
    assert kept[-1] == words[len(kept) - 1].rstrip(",;:")
    assert text_measure.lines_of(caption._label.options, shown, 300)[0] <= caption.max_lines
    longer = " ".join(words[:len(kept) + 1]) + ELLIPSIS  # no word more fits
    assert text_measure.lines_of(caption._label.options, longer, 300)[0] > caption.max_lines
    box.height = 600
    settled()
    assert (caption.text, caption.max_lines) == (PARAGRAPH, 0)
