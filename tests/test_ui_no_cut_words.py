"""No word cut in the middle where a real game's words are long: a French or German
tie-break's standings ("54 pièces, 12 pions sur le plateau") wrap instead, at 800x480 and
upright."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import screenshots
import ui_support as ui
from kivy.uix.label import Label

from companion import i18n
from companion.ui.results import ResultRow


def cut(root: Any) -> list[str]:
    """The shown labels whose words are drawn shortened (Kivy's ``shorten`` cut them)."""
    found = []
    for widget in ui.walk_shown(root):
        if isinstance(widget, Label) and widget.text:
            widget.texture_update()
            drawn = " ".join(w.text for line in widget._label._cached_lines for w in line.words)
            if drawn.split() != widget.text.split():
                found.append(f"{widget.text!r} drawn as {drawn!r}")
    return found


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_tied_standings_wrap_instead_of_cutting_words(
        headless_app: Any, language: str, size: tuple[int, int]) -> None:
    app = headless_app
    ui.resize(size)
    try:
        i18n.use(language)
        app.use_session(screenshots._over(tie=True), screen="game_end")
        p = app.presenters["game_end"]
        while not p.all_revealed:
            p.reveal_next()
        for row in p.tie_rows:
            p.set_tokens(row["seat"], 10 + row["seat"])
        p.decide()
        ui.pump(4)
        rows = [w for w in ui.walk_shown(app.root) if isinstance(w, ResultRow)]
        assert len(rows) == 3  # the tokens that decided said under the names
        assert sorted(row.detail.split()[0] for row in rows if row.detail) == ["10", "11"]
        assert [problem for row in rows for problem in cut(row)] == []
        assert ui.layout_problems(app.root) == []
    finally:
        ui.resize((800, 480))
