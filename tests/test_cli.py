"""The ``companion`` command line: its subcommands, its default, its errors, its speed.

The app itself is never started here: the run command's ``companion.app`` is replaced by a
recorder, so these tests need no window and never import Kivy in the test process.
"""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from companion import __version__, paths
from companion.cli import main
from companion.commands import Command, discover
from companion.config import SoundConfig


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``companion ARGV`` in this process: (exit status, stdout, stderr)."""
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def started_apps(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Replace ``companion.app`` with a recorder of the apps the run command would start."""
    started: list[dict[str, Any]] = []
    fake = types.ModuleType("companion.app")

    def run_app(db_path: Path, *, fullscreen: bool = False, **devices: Any) -> None:
        started.append({"db_path": db_path, "fullscreen": fullscreen, **devices})

    fake.run_app = run_app  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "companion.app", fake)
    return started


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_main(["--help"], capsys)
    assert status == 0
    for name in ("run", "version"):
        assert name in out
    for command in discover():
        assert command.name in out
        assert command.help in out


def test_help_says_that_run_is_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_main(["--help"], capsys)
    assert "companion run" in out


def test_an_unknown_subcommand_exits_2_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_main(["frobnicate"], capsys)
    assert status == 2
    assert out == ""
    assert "invalid choice: 'frobnicate'" in err
    assert "usage: companion" in err


def test_an_unknown_option_of_run_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(["run", "--no-such-option"], capsys)
    assert status == 2
    assert "--no-such-option" in err


def test_the_version_option_prints_the_version_as_the_command_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_main(["--version"], capsys)
    assert status == 0
    assert out == f"smallworld-companion {__version__}\n"


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_main(["version"], capsys)
    assert status == 0
    assert out == f"smallworld-companion {__version__}\n"
    assert __version__[0].isdigit()


def test_no_subcommand_starts_the_app_on_the_default_database(
    capsys: pytest.CaptureFixture[str],
    started_apps: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    status, _, _ = run_main([], capsys)
    assert status == 0
    assert started_apps == [
        {"db_path": tmp_path / "smallworld-companion" / "companion.sqlite3", "fullscreen": False,
         "die_pin": 17, "dim_after": 300, "dim_brightness": 20,
         "grid_port": "/dev/smallworld-grid", "grid_baud": 115200, "config_path": None,
         "sound": SoundConfig(), "seating": "one side"}
    ]
    assert started_apps[0]["db_path"] == paths.default_db_path()


def test_run_takes_a_database_path_and_fullscreen(
    capsys: pytest.CaptureFixture[str], started_apps: list[dict[str, Any]], tmp_path: Path
) -> None:
    db = tmp_path / "game.sqlite3"
    status, _, _ = run_main(["run", "--db", str(db), "--fullscreen"], capsys)
    assert status == 0
    assert [(a["db_path"], a["fullscreen"]) for a in started_apps] == [(db, True)]


def test_run_reads_the_config_file_and_reports_a_bad_value_with_its_key(
    capsys: pytest.CaptureFixture[str], started_apps: list[dict[str, Any]], tmp_path: Path
) -> None:
    config = tmp_path / "companion.toml"
    config.write_text(
        f'[die]\nbutton_pin = 99\n[storage]\ndatabase = "{tmp_path / "x.sqlite3"}"\n'
        "[display]\ndim_after_seconds = 60\nseating = \"around\"\n"
        "[sound]\nvolume = 150\nmuted = true\n"
    )
    status, _, err = run_main(["run", "--config", str(config)], capsys)
    assert status == 0
    assert "die.button_pin = 99 is not allowed" in err
    assert "sound.volume = 150 is not allowed: 0 to 100 (percent; 0 is silent)" in err
    assert started_apps == [{"db_path": tmp_path / "x.sqlite3", "fullscreen": False,
                             "die_pin": 17, "dim_after": 60, "dim_brightness": 20,
                             "grid_port": "/dev/smallworld-grid", "grid_baud": 115200,
                             "config_path": config, "sound": SoundConfig(muted=True),
                             "seating": "around"}]


def test_every_subcommand_module_defines_one_command() -> None:
    commands = discover()
    assert all(isinstance(command, Command) for command in commands)
    names = [command.name for command in commands]
    assert len(names) == len(set(names))
    assert {"run", "version"} <= set(names)


def test_help_imports_no_ui_device_or_database_library() -> None:
    code = (
        "import sys\n"
        "from companion.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'kivy', 'gpiozero', 'serial', 'sqlite3', 'sqlite_utils', 'companion'} "
        "and not m.startswith(('companion.cli', 'companion.commands', 'companion.paths')) "
        "and m != 'companion')\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert "usage: companion" in result.stdout
    assert "HEAVY []" in result.stderr


def test_python_dash_m_companion_is_the_same_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion", "version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert result.stdout == f"smallworld-companion {__version__}\n"


@pytest.fixture
def kivy_window_size() -> Any:
    """Kivy's own configuration with its default window size, 800x600, put back after."""
    from kivy.config import Config as KivyConfig

    before = (KivyConfig.get("graphics", "width"), KivyConfig.get("graphics", "height"))
    KivyConfig.set("graphics", "width", "800")
    KivyConfig.set("graphics", "height", "600")

    def size() -> tuple[int, int]:
        return KivyConfig.getint("graphics", "width"), KivyConfig.getint("graphics", "height")

    yield size
    KivyConfig.set("graphics", "width", before[0])
    KivyConfig.set("graphics", "height", before[1])


def test_run_opens_a_window_of_the_tables_screen_by_default(
    capsys: pytest.CaptureFixture[str], started_apps: list[dict[str, Any]],
    kivy_window_size: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    monkeypatch.delenv("COMPANION_KIOSK", raising=False)
    status, _, err = run_main(["run", "--db", str(tmp_path / "g.sqlite3")], capsys)
    assert (status, err) == (0, "")
    assert len(started_apps) == 1
    assert kivy_window_size() == (800, 480)  # Kivy's own default, 800x600, hid the bottom


def test_an_upright_display_stands_the_window_upright_unless_a_size_is_typed(
    capsys: pytest.CaptureFixture[str], started_apps: list[dict[str, Any]],
    kivy_window_size: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    monkeypatch.delenv("COMPANION_KIOSK", raising=False)
    config = tmp_path / "companion.toml"
    config.write_text("[display]\nrotation = 90\n")
    db = ["--db", str(tmp_path / "g.sqlite3"), "--config", str(config)]
    assert run_main(["run", *db], capsys)[0] == 0
    assert kivy_window_size() == (480, 800)  # display.window_size 800x480, stood upright
    assert run_main(["run", *db, "--size", "800x480"], capsys)[0] == 0
    assert kivy_window_size() == (800, 480)  # what was typed, as it is
    assert len(started_apps) == 2


def test_the_config_file_and_size_set_the_window_and_a_bad_size_falls_back(
    capsys: pytest.CaptureFixture[str], started_apps: list[dict[str, Any]],
    kivy_window_size: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    monkeypatch.delenv("COMPANION_KIOSK", raising=False)
    config = tmp_path / "companion.toml"
    db = ["--db", str(tmp_path / "g.sqlite3"), "--config", str(config)]
    config.write_text('[display]\nwindow_size = "1024x600"\n')
    assert run_main(["run", *db], capsys)[0] == 0
    assert kivy_window_size() == (1024, 600)
    assert run_main(["run", *db, "--size", "1280x720"], capsys)[0] == 0
    assert kivy_window_size() == (1280, 720)
    status, _, err = run_main(["run", *db, "--size", "huge"], capsys)
    assert status == 0
    assert "--size 'huge' is not allowed" in err and "Using 1024x600" in err
    assert kivy_window_size() == (1024, 600)
    config.write_text('[display]\nwindow_size = "800 by 480"\n')
    status, _, err = run_main(["run", *db], capsys)
    assert status == 0
    assert 'display.window_size = "800 by 480" is not allowed' in err
    assert 'Using the default, "800x480"' in err
    assert kivy_window_size() == (800, 480)
    assert len(started_apps) == 4
