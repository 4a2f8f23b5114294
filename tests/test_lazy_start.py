"""A lazy start: the home screen's first frame waits for nothing it does not show.

Before the first frame only the home screen's modules and layouts are loaded (no rules,
session, store proper, sqlite-utils, gpiozero, pyserial, other screens); the rest of
start-up runs right after it; sqlite-utils is imported only for a file that needs a
migration, gpiozero only for a die button's pin, pyserial only for a grid's port, tomlkit
only when a setting is saved. Each check runs in a fresh interpreter, where ``sys.modules``
says what was imported.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from factories import created, play_turn

from companion.session import Session
from companion.store import Store

HEAVY = ("companion.rules", "companion.session", "companion.store.store",
         "companion.store.games", "companion.store.migrations", "sqlite_utils", "gpiozero",
         "serial", "companion.ui.presenters.table", "companion.ui.screens.table",
         "companion.ui.map_widget", "companion.ui.grid", "companion.grid", "hardware.grid.link",
         "companion.sounds", "kivy.core.audio", "importlib.metadata", "importlib.resources",
         "tomlkit")
"""Modules (and packages: their submodules too) the first frame must not wait for (the
sound cues and SDL's mixer are loaded after it too; the installed version's metadata is
read only for ``--version``; the shipped files are found without `importlib.resources`;
tomlkit, the config file's writer, only when a setting is saved)."""

FIRST_FRAME_MODULES = ("companion.cli", "companion.commands.run", "companion.app",
                       "companion.ui.app", "companion.ui.presenters.base",
                       "companion.ui.presenters.home", "companion.ui.screens.base",
                       "companion.ui.screens.home", "companion.ui.widgets",
                       "companion.ui.describe", "companion.store", "companion.store.summary",
                       "companion.store.lock", "companion.store.errors")

LOADED = """
import json, sys
HEAVY = {heavy!r}
def heavy():  # a copy of the names first: the app's threads may be importing meanwhile
    names = list(sys.modules)
    return sorted(m for m in names if any(m == h or m.startswith(h + ".") for h in HEAVY))
"""


def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
            "KIVY_LOG_MODE": "PYTHON", "GPIOZERO_PIN_FACTORY": "mock",
            "KIVY_HOME": str(tmp_path / "kivy"), "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_CONFIG_HOME": str(tmp_path / "config")}


def run_child(tmp_path: Path, code: str, *args: str) -> dict[str, Any]:
    """Run `code` (after the `heavy()` helper) in a fresh interpreter; its last stdout
    line is JSON."""
    script = tmp_path / "child.py"
    script.write_text(LOADED.format(heavy=HEAVY) + code)
    run = subprocess.run([sys.executable, str(script), *args], capture_output=True,
                         text=True, timeout=120, env=env(tmp_path))  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    result: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def saved_game(db: Path) -> None:
    """A saved-games file with a game in progress (turn 2, Bob's turn)."""
    with Store.open(db) as store:
        session = Session(rng=random.Random(4), store=store)
        session.begin(created(3))
        for _ in range(4):
            play_turn(session, coins=2)


def test_what_the_first_frame_imports_imports_nothing_heavy(tmp_path: Path) -> None:
    code = "import importlib\n" + "".join(
        f"importlib.import_module({name!r})\n" for name in FIRST_FRAME_MODULES
    ) + "print(json.dumps(heavy()))\n"
    found: Any = run_child(tmp_path, code)
    assert found == []


def test_with_no_configuration_file_the_toml_reader_is_never_imported(
    tmp_path: Path,
) -> None:
    code = ("from companion.config import load_config\n"
            "config, warnings = load_config()\n"
            "print(json.dumps([config.source is None, warnings, 'tomllib' in sys.modules]))\n")
    assert run_child(tmp_path, code) == [True, [], False]


def test_the_check_sees_a_heavy_import(tmp_path: Path) -> None:
    """The check above would fail if one of those modules imported the rules again."""
    code = "import companion.ui.presenters.table\nprint(json.dumps(heavy()))\n"
    found: Any = run_child(tmp_path, code)
    assert "companion.rules.game" in found


APP = """
from kivy.clock import Clock
import companion.app as start
from companion.ui.presenters.base import NO_SESSION
seen = {}

class Probe(start.TableApp):
    def on_start(self):
        super().on_start()
        from kivy.core.window import Window
        from kivy.lang import Builder
        flip = Window.flip

        def first_flip():
            flip()
            if "first" not in seen:
                seen["first"] = {
                    "heavy": heavy(), "ready": self.ready,
                    "no_session": self.session is NO_SESSION,
                    "screen": self.manager.current,
                    "offer": self.presenters["home"].resume_text,
                    "kv": sorted(f.rsplit("/", 1)[-1] for f in Builder.files),
                }

        Window.flip = first_flip
        self.fbind("ready", lambda *_: Clock.schedule_once(self.look, 0))

    def look(self, _dt):
        from kivy.lang import Builder
        home = self.presenters["home"]
        seen["ready"] = {"heavy": heavy(), "saving": self.session.store is not None,
                         "offer": home.resume_text, "die": home.die_status,
                         "dialogs_ready": bool(Builder.match_rule_name("messagedialog"))}
        print(json.dumps(seen))
        self.stop()

start.TableApp = Probe
from companion.cli import main
sys.exit(main(["run", "--db", *sys.argv[1:]]))
"""


def test_the_first_frame_shows_home_and_the_rest_follows(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    saved_game(db)
    seen = run_child(tmp_path, APP, str(db))
    first, ready = seen["first"], seen["ready"]
    assert first["heavy"] == []
    assert first["ready"] is False and first["no_session"] is True
    assert first["screen"] == "home"
    assert first["offer"] == "Resume Ann, Bob and Cy: turn 2 of 10, Bob's turn"
    assert "home.kv" in first["kv"] and "table.kv" not in first["kv"]
    # after the first frame: the store, the session, the devices
    assert ready["saving"] is True
    assert "companion.session" in ready["heavy"] and "companion.store.store" in ready["heavy"]
    assert "sqlite_utils" not in ready["heavy"]  # the file was up to date
    assert "tomlkit" not in ready["heavy"]  # no setting saved
    assert ready["offer"] == first["offer"]
    assert ready["die"] == "Die button: ready on GPIO17"  # the default config's pin
    assert ready["dialogs_ready"] is True


def test_a_bad_setting_is_warned_of_without_delaying_the_first_frame(tmp_path: Path) -> None:
    """A value the config file cannot have is told on stderr in the language spoken, and
    that wording imports no rules before the first frame."""
    db = tmp_path / "games.sqlite3"
    saved_game(db)
    config = tmp_path / "companion.toml"
    config.write_text("[display]\nrotation = 45\n")
    seen = run_child(tmp_path, APP, str(db), "--config", str(config))
    assert seen["first"]["heavy"] == []
    assert seen["ready"]["saving"] is True


OPEN = """
from pathlib import Path
from companion.store import Store
with Store.open(Path(sys.argv[1])) as store:
    print(json.dumps({"migrated": store.migrated, "heavy": heavy()}))
"""


def test_an_up_to_date_file_opens_without_sqlite_utils(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    saved_game(db)
    seen = run_child(tmp_path, OPEN, str(db))
    assert seen["migrated"] == []
    assert "sqlite_utils" not in seen["heavy"]


def test_a_file_that_needs_a_migration_gets_it_with_sqlite_utils(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    shutil.copyfile(Path(__file__).parent / "data" / "store-0.1.0-m002.sqlite3", db)
    seen = run_child(tmp_path, OPEN, str(db))
    assert seen["migrated"] == ["m003_resume_summary", "m004_snapshots"]
    assert "sqlite_utils" in seen["heavy"]


DEVICES = """
from companion.app import Devices, open_die_button, open_grid
devices = Devices()
open_die_button(None, None, devices)
assert open_grid(None, "") is None
before = heavy()
from kivy.clock import Clock
from companion.ui.app import TableApp
from companion.session import Session
app = TableApp(Session())
open_die_button(app, 17, devices)
print(json.dumps({"before": before, "after": heavy(), "die": devices.die_status}))
devices.close()
"""


def test_no_pin_no_gpiozero_no_port_no_pyserial(tmp_path: Path) -> None:
    seen = run_child(tmp_path, DEVICES)
    assert "gpiozero" not in seen["before"] and "serial" not in seen["before"]
    assert "gpiozero" in seen["after"]  # a pin: the button needs it
    assert seen["die"] == "Die button: ready on GPIO17"


def test_the_home_screen_is_drawn_with_the_first_frame_rules_only() -> None:
    """Before the first frame only the shared rules of `FIRST_FRAME_SHARED` are parsed: the
    home screen must need no other rule of widgets.kv (one added to it, for a class it
    shows or a base of one, must be added there too)."""
    import ui_support as ui

    from companion.paths import kv_file
    from companion.ui.app import FIRST_FRAME_SHARED, FIRST_SCREEN, kv_rules

    text = kv_file("widgets.kv").read_text()
    ruled = {line.strip().removesuffix(":").strip("<>").split("@")[0].lstrip("-")
             for line in text.splitlines() if line.startswith("<")}
    app = ui.app_for(Session())
    shown = {cls.__name__ for widget in app.screens[FIRST_SCREEN].walk()
             for cls in type(widget).__mro__}
    assert shown & ruled == set(FIRST_FRAME_SHARED)
    # the two parts hold every line of the file, once, at its own line number
    first = kv_rules(text, FIRST_FRAME_SHARED, chosen=True).splitlines()
    rest = kv_rules(text, FIRST_FRAME_SHARED, chosen=False).splitlines()
    assert len(first) == len(rest) == len(text.splitlines())
    for line, a, b in zip(text.splitlines(), first, rest, strict=True):
        assert line in (a, b) and (not a or not b or a == b == line)
