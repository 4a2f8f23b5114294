"""The placeholder app really starts, draws its screen and says what it is.

The app runs in a child process, headless (``SDL_VIDEODRIVER=offscreen``: real GL through
Mesa, no display), started the way ``make run`` starts it: through the command line's
``run`` subcommand. A few frames in, the child saves a screenshot, reads the widget tree
and the pixels, writes a report and stops the app. The window is the size of the
Raspberry Pi 7" touchscreen (800 x 480).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

NOTICE = "Table Companion for Small World — the table screens arrive in a later release"
BACKGROUND = (33, 51, 41)  # the placeholder's background colour, 0-255
WIDTH, HEIGHT = 800, 480

CHILD = r"""
import json, sys
from pathlib import Path

out, db = Path(sys.argv[1]), sys.argv[2]
background = tuple(json.loads(sys.argv[3]))

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels
from kivy.uix.label import Label

from companion.cli import main

report = {}


def capture(dt):
    if Clock.frames_displayed < 3:  # let the layout settle over a few frames
        Clock.schedule_once(capture, 0)
        return
    app = App.get_running_app()
    Window.dispatch("on_draw")  # draw this frame into the back buffer, then read it
    width, height = Window.size
    pixels = glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE)
    distances = [
        max(abs(pixels[i + k] - background[k]) for k in range(3))
        for i in range(0, len(pixels), 3)
    ]
    report.update(
        screenshot=Window.screenshot(name=str(out / "placeholder.png")),
        window=[width, height],
        title=app.title,
        background_pixels=sum(1 for d in distances if d <= 2),
        drawn_pixels=sum(1 for d in distances if d > 24),
        labels={
            name: {
                "text": widget.text,
                "box": [widget.x, widget.y, widget.right, widget.top],
                "texture": list(widget.texture_size),
            }
            for name, widget in app.root.ids.items()
            if isinstance(widget, Label)
        },
        texts=[w.text for w in app.root.walk() if isinstance(w, Label)],
    )
    app.stop()


Clock.schedule_once(capture, 0)
status = main(["run", "--db", db])
(out / "report.json").write_text(json.dumps(report))
sys.exit(status)
"""


@pytest.fixture(scope="module")
def placeholder(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run the app once; return the child's report (screenshot path, widgets, pixels)."""
    out = tmp_path_factory.mktemp("placeholder")
    env = {k: v for k, v in os.environ.items() if not k.startswith("KCFG_")}
    env.update(
        SDL_VIDEODRIVER="offscreen",
        KIVY_NO_ARGS="1",
        KIVY_NO_FILELOG="1",
        KIVY_HOME=str(out / "kivy"),
        XDG_DATA_HOME=str(out / "data"),
        GPIOZERO_PIN_FACTORY="mock",
        KCFG_GRAPHICS_WIDTH=str(WIDTH),
        KCFG_GRAPHICS_HEIGHT=str(HEIGHT),
    )
    db = out / "table.sqlite3"
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(out), str(db), json.dumps(BACKGROUND)],
        capture_output=True, text=True, timeout=120, cwd=out, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    report: dict[str, Any] = json.loads((out / "report.json").read_text())
    report["db"] = str(db)
    report["stderr"] = result.stderr
    return report


def test_the_placeholder_says_what_the_companion_is_and_what_comes_next(
    placeholder: dict[str, Any],
) -> None:
    assert placeholder["labels"]["notice"]["text"] == NOTICE
    assert NOTICE in placeholder["texts"]
    assert placeholder["title"] == "Table Companion for Small World"


def test_the_placeholder_shows_the_database_it_would_use(placeholder: dict[str, Any]) -> None:
    assert placeholder["labels"]["db_path"]["text"] == f"Database: {placeholder['db']}"
    assert not Path(placeholder["db"]).exists()


def test_every_label_is_drawn_inside_the_pi_touchscreen(placeholder: dict[str, Any]) -> None:
    assert placeholder["window"] == [WIDTH, HEIGHT]
    for name, label in placeholder["labels"].items():
        left, bottom, right, top = label["box"]
        texture_width, texture_height = label["texture"]
        assert 0 <= left < right <= WIDTH, name
        assert 0 <= bottom < top <= HEIGHT, name
        assert 0 < texture_width <= right - left, name
        assert texture_height > 0, name


def test_the_screen_is_drawn_and_saved(placeholder: dict[str, Any]) -> None:
    screenshot = Path(placeholder["screenshot"])
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    total = WIDTH * HEIGHT
    assert placeholder["background_pixels"] > total // 2  # the background is painted
    assert placeholder["drawn_pixels"] > total // 200  # and text stands out on it
