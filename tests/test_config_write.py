"""Writing ``companion.toml`` from the settings screen: only the keys asked for change.

Every other line (comments, other keys, unknown keys) stays as it was; a bad value is
refused with its key and what is allowed, and then nothing is written.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.config import load_config, save_config_values

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "deploy" / "companion.example.toml"


def test_a_changed_key_replaces_its_line_and_keeps_every_other_line(tmp_path: Path) -> None:
    file = tmp_path / "companion.toml"
    shutil.copy(EXAMPLE, file)
    before = file.read_text().splitlines()
    save_config_values({"display.rotation": 180, "die.button_pin": None,
                        "grid.port": "/dev/ttyACM0"}, file)
    after = file.read_text().splitlines()
    changed = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    assert changed == [("rotation = 0", "rotation = 180"),
                       ("button_pin = 17", "button_pin = false"),
                       ('port = "/dev/smallworld-grid"', 'port = "/dev/ttyACM0"')]
    config, warnings = load_config(file)
    assert warnings == []
    assert (config.display.rotation, config.die.button_pin, config.grid.port) == (
        180, None, "/dev/ttyACM0")


def test_a_missing_key_goes_into_its_section_and_a_missing_file_is_created(
    tmp_path: Path,
) -> None:
    file = tmp_path / "new" / "companion.toml"
    save_config_values({"display.dim_after_seconds": 60}, file)
    assert file.read_text() == "[display]\ndim_after_seconds = 60\n"
    file.write_text("# mine\n[display]\nfullscreen = false\n\n# the die\n[die]\nled_pin = 27\n"
                    "[extra]\nkept = 1\n")
    save_config_values({"display.rotation": 90, "die.button_pin": 22, "grid.baud": 9600}, file)
    assert file.read_text() == (
        "# mine\n[display]\nfullscreen = false\nrotation = 90\n\n# the die\n[die]\n"
        "led_pin = 27\nbutton_pin = 22\n[extra]\nkept = 1\n\n[grid]\nbaud = 9600\n")
    config, _ = load_config(file)
    assert (config.display.fullscreen, config.display.rotation, config.die.led_pin,
            config.die.button_pin, config.grid.baud) == (False, 90, 27, 22, 9600)


@pytest.mark.parametrize(("key", "value", "said"), [
    ("display.rotation", 45, "0, 90, 180 or 270"),
    ("die.button_pin", 1, "2 to 27"),
    ("display.dim_after_seconds", 5, "10 to 86400"),
    ("display.colour", "red", "there is no setting display.colour"),
])
def test_a_bad_value_is_refused_with_its_key_and_nothing_is_written(
    tmp_path: Path, key: str, value: object, said: str,
) -> None:
    file = tmp_path / "companion.toml"
    file.write_text("[display]\nrotation = 0\n")
    with pytest.raises(ValueError, match=said):
        save_config_values({"display.rotation": 90, key: value}, file)
    assert file.read_text() == "[display]\nrotation = 0\n"
    assert [p.name for p in tmp_path.iterdir()] == ["companion.toml"]


def test_the_sound_settings_are_written_as_the_file_spells_them(tmp_path: Path) -> None:
    from datetime import time

    file = tmp_path / "companion.toml"
    save_config_values({"sound.volume": 35, "sound.muted": True,
                        "sound.quiet_hours": (time(23, 0), time(7, 30)),
                        "display.text_scale": 130}, file)
    assert file.read_text() == ('[display]\ntext_scale = 130\n\n[sound]\nvolume = 35\n'
                                'muted = true\nquiet_hours = "23:00-07:30"\n')
    save_config_values({"sound.quiet_hours": None}, file)
    config, warnings = load_config(file)
    assert warnings == []
    assert (config.sound.volume, config.sound.muted, config.sound.quiet_hours,
            config.display.text_scale) == (35, True, None, 130)


def test_a_refused_value_is_said_in_the_table_s_language(tmp_path: Path) -> None:
    from words_support import in_language

    from companion.config import SettingRefused

    file = tmp_path / "companion.toml"
    with pytest.raises(SettingRefused) as refused:
        save_config_values({"display.rotation": 45}, file)
    assert str(refused.value) == "display.rotation cannot be 45: 0, 90, 180 or 270 (degrees)"
    assert in_language("fr", refused.value) == (
        "display.rotation ne peut pas valoir 45\u00a0: 0, 90, 180 ou 270 (degrés)")
    assert in_language("de", refused.value) == (
        "display.rotation kann nicht 45 sein: 0, 90, 180 oder 270 (Grad)")
    with pytest.raises(SettingRefused) as unknown:
        save_config_values({"display.colour": "red"}, file)
    assert in_language("de", unknown.value).startswith(
        "es gibt keine Einstellung display.colour; die Einstellungen sind display.fullscreen, ")
    assert not file.exists()
