"""Starting the real app on a saved-games file: resume offered, devices on the status line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from app_probe import run_probe
from factories import created, play_turn

from companion.session import Session
from companion.store import Store

SCRIPT = """
import sys
from pathlib import Path
from kivy.clock import Clock
import companion.app as start

class Probe(start.TableApp):
    def on_start(self):
        super().on_start()
        def look(_dt):
            home = self.presenters["home"]
            print("SCREEN", self.ctx.nav.current)
            print("DIE", home.die_status)
            print("RESUME", home.can_resume, home.resume_text)
            self.presenters["home"].resume()
            print("AFTER", self.ctx.nav.current, self.session.state.track.turn)
            ran = []  # the session's work that waits for the screen (a turn's backup)
            self.session.later(lambda: ran.append("backup"))
            print("LATER NOW", ran)
            def later(_dt):
                print("LATER AFTER A FRAME", ran)
                self.stop()
            Clock.schedule_once(later, 0.1)
        self.fbind("ready", lambda *_: Clock.schedule_once(look, 0.3))  # start-up is over

start.TableApp = Probe
start.run_app(Path(sys.argv[1]), die_pin=17)
"""


def test_the_app_offers_the_saved_game_and_resumes_it(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    session = Session(rng=random.Random(4), store=Store.open(db))
    session.begin(created(3))
    for _ in range(4):
        play_turn(session, coins=2)
    assert session.store is not None
    session.store.close()

    out = "\n".join(run_probe(tmp_path, SCRIPT, db))
    assert "SCREEN home" in out
    assert "DIE Die button: ready on GPIO17" in out
    assert "RESUME True Resume Ann, Bob and Cy: turn 2 of 10, Bob's turn" in out
    assert "AFTER table 2" in out
    assert "LATER NOW []" in out  # a turn's backup is not taken inside the tap...
    assert "LATER AFTER A FRAME ['backup']" in out  # ...but in the frame after


DIM_SCRIPT = """
import sys
from pathlib import Path
from kivy.clock import Clock
import companion.app as start
from companion.ui.dimmer import Veil

class Probe(start.TableApp):
    def on_start(self):
        super().on_start()
        def look(_dt):
            from kivy.core.window import Window
            from kivy.tests.common import UnitTestTouch
            print("VEILED", any(isinstance(w, Veil) for w in Window.children))
            home = self.screens["home"]
            button = [w for w in home.walk() if getattr(w, "text", "") == "New game"][0]
            touch = UnitTestTouch(*button.to_window(*button.center))
            touch.touch_down()  # on the veil, over the New game button
            touch.touch_up()
            print("AFTER", any(isinstance(w, Veil) for w in Window.children),
                  self.ctx.nav.current)
            self.stop()
        self.fbind("ready", lambda *_: Clock.schedule_once(look, 0.8))  # start-up is over

start.TableApp = Probe
start.run_app(Path(sys.argv[1]), dim_after=0.3)
"""


def test_the_screen_dims_when_idle_and_the_waking_touch_presses_nothing(
    tmp_path: Path,
) -> None:
    lines = run_probe(tmp_path, DIM_SCRIPT, tmp_path / "g.sqlite3")
    assert "VEILED True" in lines
    assert "AFTER False home" in lines


HOME_SCRIPT = """
import sys
from pathlib import Path
from kivy.clock import Clock
import companion.app as start

class Probe(start.TableApp):
    def on_start(self):
        super().on_start()
        def shown(when):
            home = self.screens["home"]
            print(when, "LINE", home.ids.game.text)
            print(when, "RESUME", home.ids.resume.text)
        shown("FIRST")
        def look(_dt):
            shown("READY")
            self.presenters["home"].resume()
            self.ctx.nav.go("home")
            shown("RESUMED")
            self.stop()
        self.fbind("ready", lambda *_: Clock.schedule_once(look, 0.3))

start.TableApp = Probe
start.run_app(Path(sys.argv[1]))
"""


def test_the_home_screen_says_one_thing_about_the_saved_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    session = Session(rng=random.Random(4), store=Store.open(db))
    session.begin(created(3))
    for _ in range(4):
        play_turn(session, coins=2)
    assert session.store is not None
    session.store.close()

    lines = run_probe(tmp_path, HOME_SCRIPT, db)
    for when in ("FIRST", "READY"):
        assert f"{when} RESUME Resume Ann, Bob and Cy: turn 2 of 10, Bob's turn" in lines
        line = next(line for line in lines if line.startswith(f"{when} LINE "))
        assert "No game" not in line, line  # the Resume button right below names one
        assert "saved game is waiting" in line
    resumed = next(line for line in lines if line.startswith("RESUMED LINE "))
    assert resumed == "RESUMED LINE On the table: Ann, Bob, Cy, turn 2 of 10."


SIGTERM_SCRIPT = """
import os, signal, sys
from pathlib import Path
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.modalview import ModalView
import companion.app as start

class Probe(start.TableApp):
    def on_start(self):
        super().on_start()
        def term(_dt):
            print("READY", flush=True)
            self.killed_at = Clock.frames
            os.kill(os.getpid(), signal.SIGTERM)  # as systemctl stop, or a log-out
        self.fbind("ready", lambda *_: Clock.schedule_once(term, 0.3))

    def on_stop(self):
        asked = [v for v in Window.children if isinstance(v, ModalView)]
        print("ASKED", len(asked), flush=True)
        print("FRAMES", Clock.frames - self.killed_at, flush=True)
        super().on_stop()

start.TableApp = Probe
start.run_app(Path(sys.argv[1]), die_pin=17)
print("ENDED", flush=True)
"""


def test_the_systems_sigterm_ends_the_app_on_a_desktop_without_asking(
        tmp_path: Path) -> None:
    """Outside the kiosk too: a signal from the system is not a question for the table;
    the app ends (its store closed, its lock let go) instead of opening the leave
    question and waiting for a tap nobody makes."""
    db = tmp_path / "games.sqlite3"
    session = Session(rng=random.Random(4), store=Store.open(db))
    session.begin(created(3))
    play_turn(session)
    assert session.store is not None
    session.store.close()
    lines = run_probe(tmp_path, SIGTERM_SCRIPT, db)
    assert lines[0] == "READY" and lines[-1] == "ENDED"
    said = set(lines[1:-1])  # stopped (Kivy says so once or twice): no question, and
    # within a second: in the frame after the signal (counted in frames, not by a clock)
    assert {"ASKED 0", "FRAMES 1"} <= said <= {"ASKED 0", "FRAMES 1", "FRAMES 2"}, said
    with Store.open(db) as again:  # the lock was let go, the game is there
        assert again.unfinished_game() is not None


UPRIGHT_SCRIPT = """
import sys
from pathlib import Path
import companion.kivy_config as kivy_config
from companion.cli import main

prepare = kivy_config.prepare

def prepare_then_probe(*args, **kwargs):
    kiosk = prepare(*args, **kwargs)  # the window's settings first: Kivy is imported after
    from kivy.clock import Clock
    import companion.app as start

    class Probe(start.TableApp):
        def on_start(self):
            super().on_start()
            def look(_dt):
                from kivy.core.window import Window
                print("WINDOW", *Window.system_size, Window.rotation)
                print("SCREEN", *self.root.size)
                self.stop()
            self.fbind("ready", lambda *_: Clock.schedule_once(look, 0.3))

    start.TableApp = Probe
    return kiosk

kivy_config.prepare = prepare_then_probe
db = Path(sys.argv[1])
sys.exit(main(["run", "--db", str(db), "--config", str(db.parent / "companion.toml")]))
"""


@pytest.mark.parametrize(("display", "seen"), [
    ("rotation = 90", "480 800"),
    ('rotation = 270\nwindow_size = "1280x720"', "720 1280"),
])
def test_an_upright_table_opens_an_upright_window_on_a_desktop(
        tmp_path: Path, display: str, seen: str) -> None:
    """Fault 8 of issue 30: `companion run` outside the kiosk with the panel upright
    (``display.rotation`` 90 or 270) opened a landscape window, 800x480, half off a
    480x800 screen. The window stands upright now, the screens laid out in it, and the
    picture is not turned in it: the desktop turns its own screen."""
    (tmp_path / "companion.toml").write_text(f"[display]\n{display}\n")
    lines = run_probe(tmp_path, UPRIGHT_SCRIPT, tmp_path / "g.sqlite3")
    assert f"WINDOW {seen} 0" in lines and f"SCREEN {seen}" in lines, lines
