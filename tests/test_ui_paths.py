"""A long file path on the settings screen, in the real headless window at 800x480: Kivy
wraps it at its separators, never inside a folder name ("companio" / "n")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ui_support

from companion.session import Session
from companion.ui.widgets import ELLIPSIS, break_paths

LONG = Path("/home/a-player-with-a-long-name/.config/smallworld-companion/companion.toml")


def rendered_lines(label: Any) -> list[str]:
    """The lines Kivy drew for `label`, as drawn."""
    label.texture_update()
    return ["".join(word.text for word in line.words).strip()
            for line in label._label._cached_lines]  # fmt: skip


def test_the_config_path_is_wrapped_at_its_separators(headless_app: Any) -> None:
    headless_app.use_session(Session(), screen="settings")
    settings = headless_app.presenters["settings"]
    settings.config_path = LONG
    settings.load()
    ui_support.pump(6)
    label = headless_app.screens["settings"].ids.config_text
    lines = rendered_lines(label)
    assert len(lines) > 2  # the path does not fit one line of its column
    names = [part for part in LONG.parts if part != "/"]
    for name in names:  # every name drawn whole, on one line
        assert any(name in line for line in lines), (name, lines)
    assert "".join(lines).replace(" ", "").startswith("Savedin" + str(LONG))
    assert label.texture_size[0] <= label.width + 1


def test_a_name_too_long_for_a_line_loses_its_middle() -> None:
    def measure(text: str) -> float:
        return 10.0 * len(text)

    broken = break_paths("Saved in /srv/" + "x" * 30 + "/file.toml.", 150, measure)
    first, *rest = broken.split("\n")
    assert first == "Saved in /srv/"
    assert rest[0].startswith("xxxx") and ELLIPSIS in rest[0] and len(rest[0]) <= 15
    assert rest[-1] == "file.toml."
    assert break_paths("Saved in /a/b.", 150, measure) == "Saved in /a/b."
