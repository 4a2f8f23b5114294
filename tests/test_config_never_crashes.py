"""A bad value in ``companion.toml`` never stops the table: it is reported and defaulted.

Each fault of issue 14 (fault 4) is read through the real config reader from a real file;
the two that crashed a command (start-up's ``mkdir`` of the database folder and
``companion doctor`` on an over-long ``grid.port``) also run the real ``companion`` command.
Every warning names the key, says why the value is refused and which default is used.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.config import NAME_MAX_BYTES, PATH_MAX_BYTES, load_config, save_config_values
from companion.kivy_config import input_entry
from companion.paths import default_db_path


def read(tmp_path: Path, text: str) -> tuple[object, list[str]]:
    file = tmp_path / "companion.toml"
    file.write_text(text, encoding="utf-8")
    config, warnings = load_config(file)
    return config, [warning.message for warning in warnings]


def the_one(warnings: list[str]) -> str:
    assert len(warnings) == 1, warnings
    return warnings[0]


def test_a_database_under_a_user_that_does_not_exist_takes_the_default(tmp_path: Path) -> None:
    config, warnings = read(tmp_path, '[storage]\ndatabase = "~nosuchuser/x.sqlite3"\n')
    assert config.storage.database == default_db_path()  # type: ignore[attr-defined]
    warning = the_one(warnings)
    assert "storage.database" in warning
    assert "~nosuchuser cannot be expanded: there is no user 'nosuchuser'" in warning
    assert 'Using the default, ""' in warning


def test_a_database_in_a_folder_that_cannot_be_made_takes_the_default(tmp_path: Path) -> None:
    config, warnings = read(tmp_path, '[storage]\ndatabase = "/proc/nope/x.sqlite3"\n')
    assert config.storage.database == default_db_path()  # type: ignore[attr-defined]
    warning = the_one(warnings)
    assert "storage.database" in warning and "/proc" in warning
    assert "Using the default" in warning


def test_a_database_below_a_file_takes_the_default(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    config, warnings = read(tmp_path, f'[storage]\ndatabase = "{tmp_path}/a-file/x.sqlite3"\n')
    assert config.storage.database == default_db_path()  # type: ignore[attr-defined]
    assert "a-file is not a folder" in the_one(warnings)


def test_a_database_in_a_folder_still_to_be_made_is_kept(tmp_path: Path) -> None:
    wanted = tmp_path / "not" / "yet" / "games.sqlite3"
    config, warnings = read(tmp_path, f'[storage]\ndatabase = "{wanted}"\n')
    assert warnings == []
    assert config.storage.database == wanted  # type: ignore[attr-defined]
    assert not wanted.parent.exists()  # reading the config creates nothing


def test_a_nul_character_in_the_database_path_takes_the_default(tmp_path: Path) -> None:
    config, warnings = read(tmp_path, '[storage]\ndatabase = "/tmp/a\\u0000b.sqlite3"\n')
    assert config.storage.database == default_db_path()  # type: ignore[attr-defined]
    warning = the_one(warnings)
    assert "storage.database" in warning and "NUL character" in warning
    assert "\0" not in warning


def test_a_six_thousand_character_database_path_takes_the_default(tmp_path: Path) -> None:
    config, warnings = read(tmp_path, f'[storage]\ndatabase = "/tmp/{"a" * 6000}"\n')
    assert config.storage.database == default_db_path()  # type: ignore[attr-defined]
    warning = the_one(warnings)
    assert f"it is 6005 bytes long; a path has at most {PATH_MAX_BYTES}" in warning
    assert len(warning) < 600  # the value is quoted shortened


def test_a_file_name_longer_than_the_file_system_takes_is_refused(tmp_path: Path) -> None:
    config, warnings = read(tmp_path, f'[storage]\ndatabase = "/tmp/{"b" * 300}.sqlite3"\n')
    assert config.storage.database == default_db_path()  # type: ignore[attr-defined]
    assert f"a file name has at most {NAME_MAX_BYTES}" in the_one(warnings)


def test_a_rotation_nested_three_thousand_deep_takes_the_default(tmp_path: Path) -> None:
    deep = "[" * 3000 + "]" * 3000
    config, warnings = read(
        tmp_path, f"[display]\nrotation = {deep}\nfullscreen = false\n[die]\nbutton_pin = 22\n"
    )
    warning = the_one(warnings)
    assert "display.rotation (line 2) nests lists or tables more than 100 deep" in warning
    assert "Using the default, 0" in warning
    # The rest of the file is still read.
    assert config.display.rotation == 0  # type: ignore[attr-defined]
    assert config.display.fullscreen is False  # type: ignore[attr-defined]
    assert config.die.button_pin == 22  # type: ignore[attr-defined]


def test_an_over_long_grid_port_takes_the_default(tmp_path: Path) -> None:
    config, warnings = read(tmp_path, f'[grid]\nport = "/dev/{"x" * 6000}"\n')
    assert config.grid.port == "/dev/smallworld-grid"  # type: ignore[attr-defined]
    warning = the_one(warnings)
    assert "grid.port" in warning and "bytes long" in warning
    assert 'Using the default, "/dev/smallworld-grid"' in warning


def test_a_touch_device_with_a_nul_character_takes_the_default(tmp_path: Path) -> None:
    config, warnings = read(tmp_path, '[display]\ntouch_device = "/dev/input/ev\\u0000"\n')
    assert config.display.touch_device == "auto"  # type: ignore[attr-defined]
    assert "display.touch_device" in the_one(warnings)


def test_a_touch_device_with_a_comma_takes_the_default_and_kivy_gets_one_clean_entry(
    tmp_path: Path,
) -> None:
    config, warnings = read(tmp_path, '[display]\ntouch_device = "/dev/input/a,invert_x=1"\n')
    assert "cannot hold a comma" in the_one(warnings)
    display = config.display  # type: ignore[attr-defined]
    assert input_entry(display) == ("touch_%(name)s", "probesysfs,provider=mtdev")


def test_a_config_path_with_a_nul_character_gives_the_defaults() -> None:
    config, warnings = load_config(Path("/tmp/bad\0name.toml"))
    assert config.storage.database == default_db_path()
    assert "NUL character" in the_one([w.message for w in warnings])


def test_the_settings_screen_cannot_save_an_over_long_database_path(tmp_path: Path) -> None:
    file = tmp_path / "companion.toml"
    with pytest.raises(ValueError, match=r"storage.database .* bytes long"):
        save_config_values({"storage.database": "/tmp/" + "c" * 5000}, file)
    assert not file.exists()


# --- the real command -------------------------------------------------------------------


def command_env(tmp_path: Path) -> dict[str, str]:
    # Kivy without its console log replaces sys.stderr, which the probe imports first.
    quiet = {"KIVY_NO_CONSOLELOG"}
    env = {k: v for k, v in os.environ.items() if k not in quiet}
    return {**env, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
            "GPIOZERO_PIN_FACTORY": "mock", "KIVY_HOME": str(tmp_path / "kivy"),
            "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
            "COMPANION_KIOSK": "1"}  # fmt: skip


START = """
import sys
from kivy.clock import Clock
import companion.app as start

class Probe(start.TableApp):
    def on_start(self):
        super().on_start()
        def look(_dt):
            print("SCREEN", self.ctx.nav.current)
            print("SAVING", self.session.store is not None)
            self.stop()
        self.fbind("ready", lambda *_: Clock.schedule_once(look, 0.3))  # start-up is over

start.TableApp = Probe
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_the_kiosk_starts_on_a_config_whose_every_path_is_bad(tmp_path: Path) -> None:
    config = tmp_path / "companion.toml"
    deep = "[" * 3000 + "]" * 3000
    config.write_text(
        f'[display]\nrotation = {deep}\n[grid]\nport = "/dev/{"x" * 6000}"\n'
        '[storage]\ndatabase = "/proc/nope/x.sqlite3"\n'
    )
    script = tmp_path / "start.py"
    script.write_text(START)
    run = subprocess.run([sys.executable, str(script), "run", "--config", str(config)],
                         capture_output=True, text=True, timeout=120,
                         env=command_env(tmp_path))  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    assert "SCREEN home" in run.stdout
    assert "SAVING True" in run.stdout  # on the default database
    assert (tmp_path / "data" / "smallworld-companion" / "companion.sqlite3").exists()
    for key in ("display.rotation", "grid.port", "storage.database"):
        assert f"companion: {config}: {key}" in run.stderr


def test_the_app_starts_unsaved_when_the_database_folder_cannot_be_made(tmp_path: Path) -> None:
    script = tmp_path / "start.py"
    script.write_text(START)
    run = subprocess.run([sys.executable, str(script), "run", "--db", "/proc/nope/x.sqlite3"],
                         capture_output=True, text=True, timeout=120,
                         env=command_env(tmp_path))  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    assert "SCREEN home" in run.stdout
    assert "SAVING False" in run.stdout


def test_doctor_reports_an_over_long_grid_port_and_does_not_crash(tmp_path: Path) -> None:
    config = tmp_path / "companion.toml"
    config.write_text(f'[grid]\nport = "/dev/{"x" * 6000}"\n')
    run = subprocess.run([sys.executable, "-m", "companion", "doctor", "--config", str(config)],
                         capture_output=True, text=True, timeout=120,
                         env=command_env(tmp_path))  # fmt: skip
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    config_lines = [line for line in run.stdout.splitlines() if line.startswith("config ")]
    assert len(config_lines) == 1, run.stdout
    assert " FIX " in config_lines[0]
    assert "grid.port" in config_lines[0] and "bytes long" in config_lines[0]
