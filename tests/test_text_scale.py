"""The text size setting (``display.text_scale``) reaches Kivy's font scale and the screens.

The run command applies it (`kivy_config.apply_text_scale`) before any widget is imported:
Kivy's `Metrics.fontscale` then scales every ``sp`` size, the theme's sizes included. Each
check that builds widgets runs in a fresh interpreter, so this process's Kivy keeps its
own scale. At the largest size the main screens are rendered at 800x480 and checked
against the quality bar (`tests/screenshots.py`, `LARGEST_TEXT`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
import screenshots as screenshots_tool

from companion.config import TEXT_SCALES
from companion.kivy_config import FONTSCALE_ENV, apply_text_scale

CHILD = """
import json, sys
from companion.kivy_config import apply_text_scale
apply_text_scale(int(sys.argv[1]))
import ui_support
from kivy.metrics import Metrics
from kivy.uix.label import Label
from companion.session import Session
from companion.ui import widgets
app = ui_support.app_for(Session())
ui_support.resize((800, 480))
ui_support.pump()
sizes = sorted({round(w.font_size, 2) for w in ui_support.walk_shown(app.root)
                if isinstance(w, Label) and w.text})
print(json.dumps({"fontscale": Metrics.fontscale, "font_min": widgets.FONT_MIN,
                  "font": widgets.FONT, "sizes": sizes}))
"""


def child(tmp_path: Path, percent: int) -> dict[str, Any]:
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
           "KIVY_LOG_MODE": "PYTHON", "KIVY_NO_FILELOG": "1",
           "KIVY_HOME": str(tmp_path / "kivy"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "PYTHONPATH": str(Path(__file__).parent)}
    env.pop(FONTSCALE_ENV, None)
    run = subprocess.run([sys.executable, "-c", CHILD, str(percent)], capture_output=True,
                         text=True, timeout=120, env=env, cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    result: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def test_the_scale_goes_to_the_environment_kivy_reads_and_to_loaded_metrics(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    metrics = types.SimpleNamespace(Metrics=types.SimpleNamespace(fontscale=1.0))
    monkeypatch.setitem(sys.modules, "kivy.metrics", metrics)
    env: dict[str, str] = {}
    assert apply_text_scale(115, env) == 1.15
    assert env == {FONTSCALE_ENV: "1.15"}
    assert metrics.Metrics.fontscale == 1.15


def test_the_text_scale_reaches_kivy_and_every_text_of_the_home_screen(tmp_path: Path) -> None:
    normal, largest = child(tmp_path, 100), child(tmp_path, max(TEXT_SCALES))
    assert (normal["fontscale"], largest["fontscale"]) == (1.0, 1.3)
    assert largest["font_min"] == pytest.approx(normal["font_min"] * 1.3)
    assert largest["font"] == pytest.approx(normal["font"] * 1.3)
    assert len(largest["sizes"]) == len(normal["sizes"]) > 1
    for small, large in zip(normal["sizes"], largest["sizes"], strict=True):
        assert large == pytest.approx(small * 1.3, abs=0.02)


def test_the_main_screens_fit_800x480_at_the_largest_text(tmp_path: Path) -> None:
    report = screenshots_tool.run(tmp_path, list(screenshots_tool.LARGEST_TEXT),
                                  text_scale=max(TEXT_SCALES), sizes=["800x480"])
    assert set(report) == set(screenshots_tool.LARGEST_TEXT)
    assert screenshots_tool.frame_faults(report) == []
    problems = [f"{name}: {problem}" for name, sizes in report.items()
                for problem in sizes["800x480"]["problems"]]
    assert problems == []
