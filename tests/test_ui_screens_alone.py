"""Each screen can be built first: in a fresh process, with no other screen built before it.

A kv layout may use a widget class only once its Python module has been imported (that
registers it with Kivy's factory) and a rule only once its kv file is loaded. The app
builds the screens in its own order, and the rare ones when they are first shown, so a
screen that borrowed a widget from another screen's module worked only when that one had
been built before (a past game's screen raised "Unknown class <ResultList>" when opened
before the game end had been built). Each child process here builds exactly one screen.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.ui.app import SCREENS

CHILD = """
import random, sys
from companion.session import Session
from companion.ui.app import presenter_class, screen_class
from companion.ui.presenters.base import Context

name = sys.argv[1]
ctx = Context(session=Session(rng=random.Random(1)))
presenter = presenter_class(name)(ctx)
screen = screen_class(name)(presenter, name=name)
print("built", type(screen).__name__)
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.CompletedProcess[str]]:
    """Every screen built alone, the children run two at a time."""
    home = tmp_path_factory.mktemp("kivy")
    env = {**os.environ, "KIVY_HOME": str(home), "SDL_VIDEODRIVER": "offscreen",
           "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1"}
    (home / "mods").mkdir(exist_ok=True)  # two children must not race to make it
    results: dict[str, subprocess.CompletedProcess[str]] = {}
    names = list(SCREENS)
    for pair in (names[i:i + 2] for i in range(0, len(names), 2)):
        running = {name: subprocess.Popen(
            [sys.executable, "-c", CHILD, name], env=env, cwd=Path(__file__).parents[1],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for name in pair}
        for name, child in running.items():
            out, err = child.communicate(timeout=120)
            results[name] = subprocess.CompletedProcess(child.args, child.returncode, out, err)
    return results


@pytest.mark.parametrize("name", list(SCREENS))
def test_the_screen_can_be_built_before_any_other(
        name: str, built: dict[str, subprocess.CompletedProcess[str]]) -> None:
    child = built[name]
    assert child.returncode == 0, child.stderr[-2000:]
    assert child.stdout.startswith("built ")
