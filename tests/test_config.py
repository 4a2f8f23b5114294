"""``companion.toml``: every key read, every bad value reported and replaced by its default.

Reading never fails: a bad value gives a warning naming the key, the value and what is
allowed, and that key alone falls back to its default. The shipped example file is the
defaults, key for key, so the documentation cannot drift from the code.
"""

from __future__ import annotations

import tomllib
from dataclasses import fields, replace
from datetime import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import config as cfg
from companion.config import (
    KEYS,
    Config,
    DieConfig,
    DisplayConfig,
    GridConfig,
    SoundConfig,
    StorageConfig,
    default_config_path,
    load_config,
    parse_config,
)
from companion.paths import default_db_path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "deploy" / "companion.example.toml"


def parse(text: str) -> tuple[Config, list[cfg.ConfigWarning]]:
    return parse_config(tomllib.loads(text))


def value_of(config: Config, key: str) -> Any:
    section, name = key.split(".")
    return getattr(getattr(config, section), name)


def toml_line(key: str, raw: str) -> str:
    section, name = key.split(".")
    return f"[{section}]\n{name} = {raw}\n"


# --- where the file is --------------------------------------------------------------------


def test_the_file_lives_in_the_xdg_config_directory() -> None:
    assert default_config_path({"XDG_CONFIG_HOME": "/srv/conf"}) == Path(
        "/srv/conf/smallworld-companion/companion.toml"
    )


@pytest.mark.parametrize("xdg", ["", "relative/conf"])
def test_a_relative_or_empty_xdg_config_home_is_ignored(xdg: str) -> None:
    expected = Path.home() / ".config" / "smallworld-companion" / "companion.toml"
    assert default_config_path({"XDG_CONFIG_HOME": xdg}) == expected
    assert default_config_path({}) == expected


def test_no_file_at_the_default_path_means_every_default_and_no_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    config, warnings = load_config(None)
    assert warnings == []
    assert config == Config()
    assert config.source is None


def test_the_default_path_is_read_when_the_file_is_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    path = tmp_path / "smallworld-companion" / "companion.toml"
    path.parent.mkdir()
    path.write_text("[die]\nbutton_pin = 5\n")
    config, warnings = load_config(None)
    assert warnings == []
    assert config.die.button_pin == 5
    assert config.source == path


def test_a_missing_file_named_explicitly_is_reported(tmp_path: Path) -> None:
    config, [warning] = load_config(tmp_path / "nope.toml")
    assert config == Config()
    assert "nope.toml: there is no such file; using the defaults for every key" in str(warning)
    assert warning.key == ""


def test_a_file_that_is_not_toml_gives_one_warning_with_the_line_and_every_default(
    tmp_path: Path,
) -> None:
    path = tmp_path / "companion.toml"
    path.write_text("[die]\nbutton_pin = 17\nled_pin = \n")
    config, [warning] = load_config(path)
    assert replace(config, source=None) == Config()
    assert "is not valid TOML" in str(warning)
    assert "line 3" in str(warning)
    assert "using the defaults for every key" in str(warning)


def test_a_file_that_is_not_utf8_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_bytes(b"[die]\nbutton_pin = 17 # \xff\n")
    config, [warning] = load_config(path)
    assert config == Config()
    assert "is not UTF-8 text" in str(warning)


def test_a_directory_in_place_of_the_file_is_reported(tmp_path: Path) -> None:
    config, [warning] = load_config(tmp_path)
    assert config == Config()
    assert "this is a directory" in str(warning)


def test_warnings_from_a_file_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text("[display]\nrotation = 45\n")
    _, [warning] = load_config(path)
    assert str(warning).startswith(f"{path}: display.rotation = 45 is not allowed")


# --- every key: the defaults, and a good value read ---------------------------------------


def test_the_defaults_work_on_a_pi_with_no_extra_hardware() -> None:
    config = Config()
    assert config.display == DisplayConfig(
        fullscreen=True,
        rotation=0,
        touch_device="auto",
        touch_provider="mtdev",
        touch_invert_x=False,
        touch_invert_y=False,
        dim_after_seconds=300,
        dim_brightness=20,
        text_scale=100,
        seating="one side",
    )
    assert config.sound == SoundConfig(volume=70, muted=False,
                                       quiet_hours=(time(22, 0), time(8, 0)))
    assert config.die == DieConfig(button_pin=17, led_pin=None, buzzer_pin=None, debounce_ms=50)
    assert config.grid == GridConfig(port="/dev/smallworld-grid", baud=115200)
    assert config.storage == StorageConfig(database=default_db_path())


GOOD = [
    ("display.fullscreen", "false", False),
    ("display.window_size", '"800x480"', (800, 480)),
    ("display.window_size", '"1024X600"', (1024, 600)),
    ("display.window_size", '"480x800"', (480, 800)),
    ("display.rotation", "90", 90),
    ("display.rotation", "180", 180),
    ("display.rotation", "270", 270),
    ("display.touch_device", '"/dev/input/event2"', "/dev/input/event2"),
    (
        "display.touch_device",
        '"/dev/input/by-path/platform-fe205000.i2c-event"',
        "/dev/input/by-path/platform-fe205000.i2c-event",
    ),
    ("display.touch_provider", '"hidinput"', "hidinput"),
    ("display.touch_invert_x", "true", True),
    ("display.touch_invert_y", "true", True),
    ("display.dim_after_seconds", "0", 0),
    ("display.dim_after_seconds", "10", 10),
    ("display.dim_after_seconds", "86400", 86400),
    ("display.dim_brightness", "0", 0),
    ("display.dim_brightness", "100", 100),
    ("display.text_scale", "115", 115),
    ("display.text_scale", "130", 130),
    ("display.seating", '"around"', "around"),
    ("display.seating", '"one side"', "one side"),
    ("display.language", '"fr"', "fr"),
    ("display.language", '"auto"', "auto"),
    ("die.button_pin", "2", 2),
    ("die.button_pin", "27", 27),
    ("die.button_pin", "false", None),
    ("die.led_pin", "27", 27),
    ("die.buzzer_pin", "22", 22),
    ("die.debounce_ms", "5", 5),
    ("die.debounce_ms", "500", 500),
    ("grid.port", '""', ""),
    ("grid.port", '"/dev/ttyACM0"', "/dev/ttyACM0"),
    ("grid.port", '"/tmp/grid"', "/tmp/grid"),
    ("grid.baud", "9600", 9600),
    ("grid.baud", "921600", 921600),
    ("sound.volume", "0", 0),
    ("sound.volume", "100", 100),
    ("sound.muted", "true", True),
    ("sound.quiet_hours", '""', None),
    ("sound.quiet_hours", '"21:30-07:15"', (time(21, 30), time(7, 15))),
    ("sound.quiet_hours", '" 9:00 - 12:00 "', (time(9, 0), time(12, 0))),
    ("storage.database", '"/srv/games.sqlite3"', Path("/srv/games.sqlite3")),
    ("storage.database", '"~/games.sqlite3"', Path.home() / "games.sqlite3"),
    ("storage.database", '""', default_db_path()),
]


@pytest.mark.parametrize(("key", "raw", "expected"), GOOD)
def test_a_good_value_is_read(key: str, raw: str, expected: object) -> None:
    config, warnings = parse(toml_line(key, raw))
    assert warnings == []
    assert value_of(config, key) == expected


def test_every_key_has_a_good_value_in_these_tests() -> None:
    assert {key for key, _, _ in GOOD} == set(cfg.key_names())


def test_the_database_default_follows_xdg_data_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/srv/data")
    assert Config().storage.database == Path("/srv/data/smallworld-companion/companion.sqlite3")
    config, _ = parse('[storage]\ndatabase = ""\n')
    assert config.storage.database == Path("/srv/data/smallworld-companion/companion.sqlite3")


# --- every key: bad values ----------------------------------------------------------------

BAD = [
    ("display.fullscreen", '"yes"', "true or false"),
    ("display.fullscreen", "1", "true or false"),
    ("display.window_size", '"800*480"', '"WIDTHxHEIGHT" in pixels'),
    ("display.window_size", '"100x480"', '"WIDTHxHEIGHT" in pixels'),
    ("display.window_size", '"800x99999"', '"WIDTHxHEIGHT" in pixels'),
    ("display.window_size", "800", '"WIDTHxHEIGHT" in pixels'),
    ("display.window_size", "[800, 480]", '"WIDTHxHEIGHT" in pixels'),
    ("display.rotation", "45", "0, 90, 180 or 270 (degrees)"),
    ("display.rotation", "-90", "0, 90, 180 or 270 (degrees)"),
    ("display.rotation", "90.0", "0, 90, 180 or 270 (degrees)"),
    ("display.rotation", '"90"', "0, 90, 180 or 270 (degrees)"),
    ("display.touch_device", '"event2"', '"auto", or a device path under /dev/input/'),
    ("display.touch_device", '"/dev/ttyACM0"', '"auto", or a device path under /dev/input/'),
    ("display.touch_device", '"/dev/input/"', '"auto", or a device path under /dev/input/'),
    ("display.touch_device", "3", '"auto", or a device path under /dev/input/'),
    ("display.touch_provider", '"mouse"', '"mtdev" or "hidinput"'),
    ("display.touch_provider", '"MTDEV"', '"mtdev" or "hidinput"'),
    ("display.touch_invert_x", "0", "true or false"),
    ("display.touch_invert_y", '"false"', "true or false"),
    ("display.dim_after_seconds", "5", "0 (never dim), or a whole number of seconds from 10"),
    ("display.dim_after_seconds", "-1", "0 (never dim), or a whole number of seconds from 10"),
    ("display.dim_after_seconds", "86401", "0 (never dim), or a whole number of seconds"),
    ("display.dim_after_seconds", "60.5", "0 (never dim), or a whole number of seconds"),
    ("display.dim_after_seconds", "0.0", "0 (never dim), or a whole number of seconds"),
    ("display.dim_after_seconds", "false", "0 (never dim), or a whole number of seconds"),
    ("display.dim_brightness", "101", "0 to 100 (percent)"),
    ("display.dim_brightness", "-1", "0 to 100 (percent)"),
    ("display.dim_brightness", "0.5", "0 to 100 (percent)"),
    ("display.text_scale", "120", "100, 115 or 130 (percent)"),
    ("display.text_scale", "1.3", "100, 115 or 130 (percent)"),
    ("display.text_scale", '"130%"', "100, 115 or 130 (percent)"),
    ("display.seating", '"Around"', '"one side" or "around"'),
    ("display.seating", "true", '"one side" or "around"'),
    ("display.language", '"FR"', '"en", "fr", "de"'),
    ("display.language", '"it"', '"auto" (the system'),
    ("die.button_pin", "0", "a BCM GPIO number from 2 to 27, or false for none"),
    ("die.button_pin", "1", "a BCM GPIO number from 2 to 27, or false for none"),
    ("die.button_pin", "28", "a BCM GPIO number from 2 to 27, or false for none"),
    ("die.button_pin", "40", "a BCM GPIO number from 2 to 27, or false for none"),
    ("die.button_pin", "true", "a BCM GPIO number from 2 to 27, or false for none"),
    ("die.button_pin", '"GPIO17"', "a BCM GPIO number from 2 to 27, or false for none"),
    ("die.led_pin", "-3", "a BCM GPIO number from 2 to 27, or false for none"),
    ("die.buzzer_pin", "99", "a BCM GPIO number from 2 to 27, or false for none"),
    ("die.debounce_ms", "4", "5 to 500 (milliseconds)"),
    ("die.debounce_ms", "501", "5 to 500 (milliseconds)"),
    ("die.debounce_ms", "0.05", "5 to 500 (milliseconds)"),
    ("grid.port", '"ttyACM0"', '"" for no grid, or an absolute device path'),
    ("grid.port", '"/dev/"', '"" for no grid, or an absolute device path'),
    ("grid.port", "false", '"" for no grid, or an absolute device path'),
    ("grid.baud", "115201", "9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600"),
    ("grid.baud", "0", "9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600"),
    ("grid.baud", '"115200"', "9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600"),
    ("sound.volume", "101", "0 to 100 (percent; 0 is silent)"),
    ("sound.volume", "-5", "0 to 100 (percent; 0 is silent)"),
    ("sound.volume", "0.7", "0 to 100 (percent; 0 is silent)"),
    ("sound.volume", '"loud"', "0 to 100 (percent; 0 is silent)"),
    ("sound.muted", '"yes"', "true or false"),
    ("sound.muted", "1", "true or false"),
    ("sound.quiet_hours", '"22-8"', '"HH:MM-HH:MM" in 24-hour time'),
    ("sound.quiet_hours", '"24:00-08:00"', '"HH:MM-HH:MM" in 24-hour time'),
    ("sound.quiet_hours", '"22:00-08:60"', '"HH:MM-HH:MM" in 24-hour time'),
    ("sound.quiet_hours", '"08:00-08:00"', "two different times"),
    ("sound.quiet_hours", "false", '"HH:MM-HH:MM" in 24-hour time'),
    ("sound.quiet_hours", "22:00:00", '"HH:MM-HH:MM" in 24-hour time'),
    ("storage.database", '"games.sqlite3"', '"" for the default, or an absolute file path'),
    ("storage.database", '"/srv/games/"', '"" for the default, or an absolute file path'),
    ("storage.database", "1", '"" for the default, or an absolute file path'),
    ("storage.database", "[1, 2]", '"" for the default, or an absolute file path'),
]


@pytest.mark.parametrize(("key", "raw", "allowed"), BAD)
def test_a_bad_value_is_reported_with_key_and_range_and_the_default_is_used(
    key: str, raw: str, allowed: str
) -> None:
    other = "[grid]\nbaud = 9600\n" if not key.startswith("grid.") else "[die]\nbutton_pin = 5\n"
    config, [warning] = parse(toml_line(key, raw) + other)
    assert warning.key == key
    message = str(warning)
    assert message.startswith(f"{key} = ")
    assert "is not allowed: " in message
    assert allowed in message
    assert message.endswith("Using the default, " + default_shown(key))
    assert value_of(config, key) == value_of(Config(), key)
    # The other keys keep their values.
    if key.startswith("grid."):
        assert config.die.button_pin == 5
    else:
        assert config.grid.baud == 9600


def default_shown(key: str) -> str:
    spec = next(spec for spec in KEYS if spec.key == key)
    return spec.show(value_of(Config(), key))


def test_every_key_has_bad_values_in_these_tests() -> None:
    assert {key for key, _, _ in BAD} == set(cfg.key_names())


def test_the_value_shown_is_the_one_in_the_file() -> None:
    _, [warning] = parse('[die]\nbutton_pin = "GPIO17"\n')
    assert str(warning).startswith('die.button_pin = "GPIO17" is not allowed')
    _, [warning] = parse("[display]\nrotation = 90.0\n")
    assert str(warning).startswith("display.rotation = 90.0 is not allowed")
    _, [warning] = parse("[storage]\ndatabase = [1, 2]\n")
    assert str(warning).startswith("storage.database = a list is not allowed")
    _, [warning] = parse("[display]\nrotation = 1979-05-27\n")
    assert str(warning).startswith("display.rotation = 1979-05-27 is not allowed")


def test_several_bad_values_give_one_warning_each() -> None:
    config, warnings = parse(
        "[display]\nrotation = 45\ndim_brightness = 200\n[die]\nbutton_pin = 99\ndebounce_ms = 50\n"
    )
    assert [w.key for w in warnings] == [
        "display.rotation",
        "display.dim_brightness",
        "die.button_pin",
    ]
    assert config == Config()


def test_the_die_devices_need_pins_of_their_own() -> None:
    config, [warning] = parse("[die]\nbutton_pin = 17\nled_pin = 17\nbuzzer_pin = 22\n")
    assert warning.key == "die.led_pin"
    assert str(warning) == (
        "die.led_pin = 17 is not allowed: GPIO 17 is already die.button_pin; each device "
        "needs its own pin. Using the default, false"
    )
    assert config.die == DieConfig(button_pin=17, led_pin=None, buzzer_pin=22)


def test_the_buzzer_may_not_share_the_leds_pin() -> None:
    config, [warning] = parse("[die]\nled_pin = 27\nbuzzer_pin = 27\n")
    assert warning.key == "die.buzzer_pin"
    assert "already die.led_pin" in str(warning)
    assert config.die == DieConfig(led_pin=27, buzzer_pin=None)


def test_with_no_button_the_led_may_use_its_old_pin() -> None:
    config, warnings = parse("[die]\nbutton_pin = false\nled_pin = 17\n")
    assert warnings == []
    assert config.die == DieConfig(button_pin=None, led_pin=17)


def test_an_unknown_key_is_reported_with_the_keys_of_its_section() -> None:
    config, [warning] = parse("[display]\nrotate = 90\n")
    assert warning.key == "display.rotate"
    assert str(warning).startswith("unknown key display.rotate is ignored; the keys of [display]")
    assert "rotation" in str(warning)
    assert config == Config()


def test_an_unknown_section_is_reported() -> None:
    config, [warning] = parse("[screen]\nrotation = 90\n")
    assert warning.key == "screen"
    assert str(warning) == (
        "unknown section [screen] is ignored; the sections are [display], [die], [grid], "
        "[sound], [storage]"
    )
    assert config == Config()


def test_a_top_level_key_is_an_unknown_section() -> None:
    _, [warning] = parse("rotation = 90\n")
    assert "unknown section [rotation]" in str(warning)


def test_a_section_that_is_not_a_table_falls_back_whole() -> None:
    config, [warning] = parse('die = 17\n[grid]\nport = ""\n')
    assert warning.key == "die"
    assert "die = 17 is not a table" in str(warning)
    assert config.die == DieConfig()
    assert config.grid.port == ""


# --- the example file and the round trip --------------------------------------------------


def test_the_example_file_is_the_defaults_with_no_warning() -> None:
    config, warnings = load_config(EXAMPLE)
    assert warnings == []
    assert replace(config, source=None) == Config()


def test_the_example_file_lists_every_key_in_its_section() -> None:
    document = tomllib.loads(EXAMPLE.read_text())
    listed = {f"{section}.{name}" for section, table in document.items() for name in table}
    assert listed == set(cfg.key_names())


def test_the_keys_are_exactly_the_fields_of_the_sections() -> None:
    from_fields = [
        f"{section}.{item.name}"
        for section, kind in (
            ("display", DisplayConfig),
            ("die", DieConfig),
            ("grid", GridConfig),
            ("sound", SoundConfig),
            ("storage", StorageConfig),
        )
        for item in fields(kind)
    ]
    assert cfg.key_names() == from_fields


def test_to_toml_reads_back_the_same_configuration() -> None:
    config = Config(
        display=DisplayConfig(
            fullscreen=False,
            window_size=(1024, 600),
            rotation=270,
            touch_device="/dev/input/by-id/usb-ILITEK-event-if00",
            touch_provider="hidinput",
            touch_invert_x=True,
            touch_invert_y=True,
            dim_after_seconds=0,
            dim_brightness=0,
            text_scale=130,
        ),
        die=DieConfig(button_pin=None, led_pin=27, buzzer_pin=22, debounce_ms=120),
        grid=GridConfig(port="", baud=9600),
        sound=SoundConfig(volume=0, muted=True, quiet_hours=(time(23, 30), time(7, 5))),
        storage=StorageConfig(database=Path('/srv/odd "name"\\games.sqlite3')),
    )
    again, warnings = parse(config.to_toml())
    assert warnings == []
    assert again == config
    assert parse(Config().to_toml()) == (Config(), [])


# --- reading never fails ------------------------------------------------------------------

toml_values = st.recursive(
    st.one_of(
        st.booleans(),
        st.integers(min_value=-(2**63), max_value=2**63 - 1),
        st.floats(allow_nan=False),
        st.text(max_size=20),
    ),
    lambda inner: st.lists(inner, max_size=3),
    max_leaves=5,
)
key_names = st.sampled_from([spec.name for spec in KEYS] + ["other", "rotate"])
tables = st.dictionaries(key_names, toml_values, max_size=6)
documents = st.dictionaries(
    st.sampled_from(["display", "die", "grid", "storage", "extra"]),
    st.one_of(tables, toml_values),
    max_size=5,
)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_any_document_gives_a_configuration_and_a_warning_per_rejected_value(
    document: dict[str, Any],
) -> None:
    config, warnings = parse_config(document)
    assert isinstance(config, Config)
    warned = {w.key for w in warnings}
    for spec in KEYS:
        table = document.get(spec.section)
        if not isinstance(table, dict) or spec.name not in table:
            continue
        value = value_of(config, spec.key)
        if spec.key in warned:
            assert value == value_of(Config(), spec.key)
        else:
            assert value == spec.parse(table[spec.name])
    for warning in warnings:
        assert warning.key and warning.key.split(".")[0] in document


# --- the sound's quiet hours ---------------------------------------------------------------


@pytest.mark.parametrize(("hours", "now", "audible"), [
    ((time(22, 0), time(8, 0)), time(21, 59), True),
    ((time(22, 0), time(8, 0)), time(22, 0), False),
    ((time(22, 0), time(8, 0)), time(3, 0), False),
    ((time(22, 0), time(8, 0)), time(8, 0), True),
    ((time(12, 0), time(14, 0)), time(13, 0), False),
    ((time(12, 0), time(14, 0)), time(23, 0), True),
    (None, time(3, 0), True),
])
def test_quiet_hours_silence_the_cues_between_their_times(
    hours: cfg.QuietHours | None, now: time, audible: bool
) -> None:
    assert SoundConfig(quiet_hours=hours).audible_at(now) is audible


def test_muted_or_volume_zero_is_silent_at_any_hour() -> None:
    assert not SoundConfig(muted=True, quiet_hours=None).audible_at(time(12, 0))
    assert not SoundConfig(volume=0, quiet_hours=None).audible_at(time(12, 0))
