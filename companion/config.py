"""The companion's one configuration file: ``companion.toml``.

Where it is
-----------
``$XDG_CONFIG_HOME/smallworld-companion/companion.toml``, by default
``~/.config/smallworld-companion/companion.toml`` (:func:`default_config_path`).
``deploy/install.sh`` writes it on a Pi from ``deploy/companion.example.toml`` when it is
absent and never overwrites it. A missing file is not an error: every key has a default
that works on a Pi with no extra hardware (a touchscreen, no LED, no buzzer, no grid
plugged in yet).

What it holds
-------------
``[display]``: full screen, rotation (the picture and the touches turn together), the
touch input device and driver, idle dimming, the text size, where the players sit and the
language the screens speak.
``[die]``: the GPIO pins (BCM numbers) of the die button, its LED and its buzzer, and
the button's debounce. ``[grid]``: the region sensor grid's serial port and line rate.
``[sound]``: the cues' volume, mute and quiet hours. ``[storage]``: the SQLite database.
Every key is listed, with its allowed values, in ``deploy/companion.example.toml`` and
in :data:`KEYS`.

Bad values
----------
Reading never fails. A bad value (wrong type, out of range, unknown choice) gives a
:class:`ConfigWarning` that names the key, the value and what is allowed, and that key
falls back to its default; the other keys keep their values. Unknown sections and keys are
reported too (a typo must not pass silently). A file that cannot be read or is not valid
TOML gives one warning and the defaults for every key.

Paths are data too: ``storage.database``, ``grid.port`` and ``display.touch_device`` are
refused, with the reason, when they hold a NUL character, are longer than Linux takes
(:data:`PATH_MAX_BYTES`, :data:`NAME_MAX_BYTES`), or (the database) start with a ``~user``
that does not exist or lie in a folder that cannot be made (below a file, in an unwritable
folder, in /proc or /sys); nothing is created while reading. A line nesting lists or
tables more than :data:`MAX_NESTING` deep (Python's TOML reader would give up with a
RecursionError) is left out with a warning, so its key takes its default and the rest of
the file is still read.

Usage::

    config, warnings = load_config(None)       # the default path
    for warning in warnings:
        print(f"companion: {warning}", file=sys.stderr)
    config.die.button_pin                       # 17, or None for no button

A warning is a sentence in the table's language too: ``warning.said`` is a
`companion.rules.said.Said` (the key's name, the value quoted from the file and the file's
path are its values, never translated) that a command or a screen words with
`companion.ui.wording.say`; ``str(warning)`` and ``warning.message`` are its English. What
each key allows (`KeySpec.allowed`) is an English text marked for translation.

This module reads the file, and writes it only through :func:`save_config_values` (the
settings screen, which keeps every other line as it was, through ``tomlkit``, imported
only when a setting is saved); it imports nothing heavy (the standard library, and
``tomllib`` only when there is a file to read), so the command line can load it at
start-up: a warning is a light `companion.sentence.Sentence`, which imports the rules'
sentences only when it is worded.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.i18n import AUTO, N_
from companion.i18n import SETTINGS as LANGUAGE_SETTINGS
from companion.paths import APP_DIR_NAME, default_db_path
from companion.sentence import Sentence, SentenceError, Value

if TYPE_CHECKING:
    from companion.rules.said import Said

CONFIG_FILE_NAME = "companion.toml"
"""The name of the configuration file inside the companion's configuration directory."""

ROTATIONS = (0, 90, 180, 270)
"""The allowed ``display.rotation`` values, in degrees."""

TOUCH_PROVIDERS = ("mtdev", "hidinput")
"""The Kivy input providers ``display.touch_provider`` may name (one reads the panel)."""

BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
"""The serial line rates ``grid.baud`` may take (a USB CDC grid ignores the rate)."""

GPIO_PINS = range(2, 28)
"""BCM GPIO numbers on the 40-pin header that a button, LED or buzzer may use.

GPIO 0 and 1 are kept for the HAT identification EEPROM, so they are refused.
"""

PHYSICAL_PIN = {2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32,
                13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15,
                23: 16, 24: 18, 25: 22, 26: 37, 27: 13}
"""Each of `GPIO_PINS` -> its pin on the 40-pin header (what a person counts when wiring;
gpiozero's ``board_info.physical_pin`` knows it too, but needs a pin factory, and the
settings screen and ``companion doctor`` must not load gpiozero to say it)."""

DIM_AFTER_RANGE = range(10, 86_401)
"""``display.dim_after_seconds``: 0 (never dim) or 10 seconds up to a day."""

DIM_BRIGHTNESS_RANGE = range(0, 101)
"""``display.dim_brightness``: the dimmed brightness in percent of full."""

DEBOUNCE_RANGE = range(5, 501)
"""``die.debounce_ms``: how long the button must have been released before a new press."""

PATH_MAX_BYTES = 4095
"""The longest path Linux takes (``PATH_MAX`` is 4096 with the closing NUL)."""

NAME_MAX_BYTES = 255
"""The longest single file or folder name Linux file systems take (``NAME_MAX``)."""

SHOWN_CHARS = 60
"""A warning quotes at most this many characters of a bad text value."""

MAX_NESTING = 100
"""A line that opens more lists or tables than this is refused before TOML reads it."""

WINDOW_SIDE_RANGE = range(320, 7681)
"""``display.window_size``: each side of the window, in pixels."""

DEFAULT_WINDOW_SIZE = (800, 480)
"""The official 7" Touch Display's size: the screen the app is laid out for."""

DEFAULT_GRID_PORT = "/dev/smallworld-grid"
"""The stable name ``deploy/60-smallworld-companion.rules`` gives a Pico grid."""

SEATINGS = ("one side", "around")
"""``display.seating``: the players sit on one side of the screen, or around it (lying flat
in the middle of the table, it turns to face whose turn it is: `companion.seating`)."""

LANGUAGE_ALLOWED = N_('"auto" (the system\'s language when it is English, French or German, '
                      'else English), "en", "fr", "de", or "qps" (a pseudo-language for layout '
                      'checks)')
"""What ``display.language`` allows, in words."""

TEXT_SCALES = (100, 115, 130)
"""``display.text_scale``: the text sizes offered, in percent of the normal size."""

VOLUME_RANGE = range(0, 101)
"""``sound.volume``: the cues' loudness in percent (0 is silent)."""

DEFAULT_QUIET_HOURS = (time(22, 0), time(8, 0))
"""``sound.quiet_hours`` unless the file says otherwise: silent from 22:00 to 08:00."""


@dataclass(frozen=True)
class DisplayConfig:
    """``[display]``: how the app fills the screen and reads the touchscreen."""

    fullscreen: bool = True
    """Fill the whole screen (the table's kiosk); false opens a window."""

    window_size: tuple[int, int] = DEFAULT_WINDOW_SIZE
    """The window's width and height in pixels when not full screen (``"800x480"``)."""

    rotation: int = 0
    """Turn the picture by 0, 90, 180 or 270 degrees; touches turn with it."""

    touch_device: str = "auto"
    """``"auto"`` (every multitouch panel found) or one ``/dev/input/...`` device."""

    touch_provider: str = "mtdev"
    """The one Kivy input provider that reads the panel: ``mtdev`` or ``hidinput``."""

    touch_invert_x: bool = False
    """Mirror the touches left to right (for a panel wired backwards)."""

    touch_invert_y: bool = False
    """Mirror the touches top to bottom (for a panel wired backwards)."""

    dim_after_seconds: int = 300
    """Dim the screen after this many seconds without a touch or a die press; 0 never."""

    dim_brightness: int = 20
    """The dimmed brightness, in percent of full (0 is dark, 100 does not dim)."""

    text_scale: int = 100
    """Every text's size in percent of the normal size: 100, 115 or 130 (from the next
    start: Kivy's font scale, ``kivy.metrics.Metrics.fontscale``)."""

    seating: str = "one side"
    """``"one side"`` (the screen stands: it never turns) or ``"around"`` (it lies in the
    middle: the table, the die and a peek turn to face the player; applied at once)."""

    language: str = AUTO
    """The language the screens speak (`companion.i18n`): ``"auto"`` follows the system's
    locale, else ``"en"``, ``"fr"``, ``"de"`` (or ``"qps"``, the pseudo-language);
    applied at once when chosen on the home or settings screen."""


@dataclass(frozen=True)
class DieConfig:
    """``[die]``: the reinforcement die's push button and its optional LED and buzzer."""

    button_pin: int | None = 17
    """The button's BCM GPIO number (to ground, internal pull-up), or None for none."""

    led_pin: int | None = None
    """The status LED's BCM GPIO number, or None for no LED."""

    buzzer_pin: int | None = None
    """The buzzer's BCM GPIO number, or None for no buzzer."""

    debounce_ms: int = 50
    """Milliseconds the button must have been released before a press counts again."""


@dataclass(frozen=True)
class GridConfig:
    """``[grid]``: the region sensor grid on USB serial."""

    port: str = DEFAULT_GRID_PORT
    """The serial device; ``""`` for no grid. A missing device only means "offline"."""

    baud: int = 115200
    """The line rate (a Pico on USB ignores it; a UART grid needs it)."""


QuietHours = tuple[time, time]
"""From when to when the table is silent; the end may be earlier than the start (over
midnight). The same start and end are refused (always or never would be ambiguous)."""


@dataclass(frozen=True)
class SoundConfig:
    """``[sound]``: the short cues (the die, whose turn, the final turn, the reveal)."""

    volume: int = 70
    """The cues' loudness, 0 (silent) to 100 percent."""

    muted: bool = False
    """No cue at all while true."""

    quiet_hours: QuietHours | None = DEFAULT_QUIET_HOURS
    """No cue between these two times of day (the Pi's local clock), or None: never
    quiet."""

    def audible_at(self, now: time) -> bool:
        """Whether a cue may sound at `now`: not muted, a volume above 0, outside the
        quiet hours (the start counts as quiet, the end no longer)."""
        if self.muted or self.volume <= 0:
            return False
        if self.quiet_hours is None:
            return True
        start, end = self.quiet_hours
        quiet = start <= now < end if start < end else (now >= start or now < end)
        return not quiet


@dataclass(frozen=True)
class StorageConfig:
    """``[storage]``: where the players' games are kept."""

    database: Path = field(default_factory=default_db_path)
    """The SQLite database; by default in the user's data directory (XDG)."""


@dataclass(frozen=True)
class Config:
    """The whole configuration: one value per key, defaults where the file said nothing."""

    display: DisplayConfig = field(default_factory=DisplayConfig)
    die: DieConfig = field(default_factory=DieConfig)
    grid: GridConfig = field(default_factory=GridConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    source: Path | None = None
    """The file these values came from, or None when no file was read."""

    def to_toml(self) -> str:
        """The configuration as TOML text that :func:`load_config` reads back unchanged."""
        lines: list[str] = []
        for section in _SECTIONS:
            if lines:
                lines.append("")
            lines.append(f"[{section}]")
            values = getattr(self, section)
            for spec in KEYS:
                if spec.section == section:
                    lines.append(f"{spec.name} = {spec.show(getattr(values, spec.name))}")
        return "\n".join(lines) + "\n"


def said(template: str, **values: Value) -> Sentence:
    """A warning's sentence (`said` is the name ``make locale`` extracts templates by): a
    light `Sentence`, which imports the rules only when a screen words it."""
    return Sentence(template, **values)


@dataclass(frozen=True)
class ConfigWarning:
    """One problem found while reading the file: the key (``""`` for the whole file) and
    what is wrong, a sentence (`said`) whose English is `message` and ``str()``."""

    key: str
    sentence: Sentence

    @property
    def said(self) -> Said:
        return self.sentence.said

    @property
    def message(self) -> str:
        return str(self.sentence)

    def __str__(self) -> str:
        return self.message


class SettingRefused(SentenceError, ValueError):
    """A value `save_config_values` refuses, before anything is written: its sentence names
    the key and what the key allows (``str()`` its English, `said` for the screen)."""


class _Rejected(ValueError):
    """A value that is not allowed for its key; the key's ``allowed`` text says why, and
    `reason` (if any) what in particular is wrong (``str()`` its English)."""

    def __init__(self, reason: Sentence | None = None) -> None:
        super().__init__(*(() if reason is None else (str(reason),)))
        self.reason = reason


# --- how each kind of value is read -------------------------------------------------------


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise _Rejected
    return value


def _int_in(allowed: range | tuple[int, ...]) -> Callable[[object], int]:
    def parse(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
            raise _Rejected
        return value

    return parse


def _pin(value: object) -> int | None:
    if value is False:
        return None
    return _int_in(GPIO_PINS)(value)


def _choice(*choices: str) -> Callable[[object], str]:
    def parse(value: object) -> str:
        if not isinstance(value, str) or value not in choices:
            raise _Rejected
        return value

    return parse


def _dim_after(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value == 0:
        return 0
    return _int_in(DIM_AFTER_RANGE)(value)


def parse_window_size(value: object) -> tuple[int, int]:
    """``"WIDTHxHEIGHT"`` (e.g. ``"800x480"``) as two whole numbers of pixels, each side
    in :data:`WINDOW_SIDE_RANGE`; anything else is refused."""
    if not isinstance(value, str):
        raise _Rejected
    match = re.fullmatch(r"\s*(\d{1,5})\s*[xX]\s*(\d{1,5})\s*", value)
    if match is None:
        raise _Rejected
    width, height = int(match.group(1)), int(match.group(2))
    if width not in WINDOW_SIDE_RANGE or height not in WINDOW_SIDE_RANGE:
        raise _Rejected
    return width, height


def _show_window_size(value: object) -> str:
    if isinstance(value, tuple) and len(value) == 2:
        return f'"{value[0]}x{value[1]}"'
    return _show(value)


WINDOW_SIZE_ALLOWED = N_('"WIDTHxHEIGHT" in pixels, each from 320 to 7680 (e.g. "800x480")')
"""What ``display.window_size`` allows, in words (also the run command's ``--size``): the
sides of `WINDOW_SIDE_RANGE` (a test keeps them the same)."""


QUIET_HOURS_ALLOWED = N_(
    '"HH:MM-HH:MM" in 24-hour time, two different times (e.g. "22:00-08:00"), or "" for none'
)
"""What ``sound.quiet_hours`` allows, in words."""


def parse_quiet_hours(value: object) -> QuietHours | None:
    """``"HH:MM-HH:MM"`` (e.g. ``"22:00-08:00"``, over midnight allowed) as two times of
    day, or ``""`` for none; a start equal to the end is refused."""
    if value == "":
        return None
    if not isinstance(value, str):
        raise _Rejected
    match = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*", value)
    if match is None:
        raise _Rejected
    numbers = [int(part) for part in match.groups()]
    try:
        start, end = time(numbers[0], numbers[1]), time(numbers[2], numbers[3])
    except ValueError:  # an hour past 23 or a minute past 59
        raise _Rejected from None
    if start == end:
        raise _Rejected
    return start, end


def show_quiet_hours(value: object) -> str:
    """Quiet hours as the file spells them: ``"22:00-08:00"``, or ``""`` for none."""
    if isinstance(value, tuple) and len(value) == 2:
        return f'"{value[0]:%H:%M}-{value[1]:%H:%M}"'
    return '""'


def _path_text(value: object) -> str:
    """A path as text the system can take: no NUL, within Linux's length limits."""
    if not isinstance(value, str):
        raise _Rejected
    if "\0" in value:
        raise _Rejected(said("it holds a NUL character, which no path can"))
    try:
        encoded = os.fsencode(value)
    except UnicodeError:
        raise _Rejected(said("it holds characters the file system cannot name")) from None
    if len(encoded) > PATH_MAX_BYTES:
        raise _Rejected(said("it is {n} bytes long; a path has at most {most}",
                             n=len(encoded), most=PATH_MAX_BYTES))
    longest = max((len(part) for part in encoded.split(b"/")), default=0)
    if longest > NAME_MAX_BYTES:
        raise _Rejected(said("one of its names is {n} bytes long; a file name has at most "
                             "{most}", n=longest, most=NAME_MAX_BYTES))
    return value


def _touch_device(value: object) -> str:
    if value == "auto":
        return "auto"
    text = _path_text(value)
    if not text.startswith("/dev/input/") or text.endswith("/"):
        raise _Rejected
    if "," in text or not text.isprintable():
        # Kivy's [input] entry is comma-separated (kivy_config.input_entry): such a path
        # would be split into wrong options.
        raise _Rejected(said("Kivy's input settings cannot hold a comma or a control "
                             "character"))
    return text


def _serial_port(value: object) -> str:
    if value == "":
        return ""
    text = _path_text(value)
    if not os.path.isabs(text) or text.endswith("/"):
        raise _Rejected
    return text


def _database(value: object) -> Path:
    if value == "":
        return default_db_path()
    text = _path_text(value)
    if text.endswith("/"):
        raise _Rejected
    try:
        path = Path(text).expanduser()
    except RuntimeError:
        user = text[1:].split("/", 1)[0]
        start = text.split("/", 1)[0]
        raise _Rejected(said("{start} cannot be expanded: there is no user {user}", start=start,
                             user=repr(user)) if user else
                        said("{start} cannot be expanded: there is no home folder",
                             start=start)) from None
    if not path.is_absolute():
        raise _Rejected
    _path_text(str(path))  # the expanded path must fit too
    problem = _folder_problem(path.parent)
    if problem is not None:
        raise _Rejected(problem)
    return path


def _folder_problem(folder: Path) -> Sentence | None:
    """Why ``folder`` cannot hold the database, or None when it exists or can be made.

    Nothing is created: the nearest folder that exists must be a folder the app may write
    in (or ``folder`` itself must exist and be writable).
    """
    ancestor = folder
    try:
        while not ancestor.exists():
            if ancestor == ancestor.parent:
                break
            ancestor = ancestor.parent
        if not ancestor.is_dir():
            return said("{ancestor} is not a folder, so the folder {folder} cannot be made",
                        ancestor=str(ancestor), folder=str(folder))
        if not os.access(ancestor, os.W_OK | os.X_OK):
            if ancestor == folder:
                return said("the folder {folder} cannot be written", folder=str(folder))
            return said("the folder {ancestor} cannot be written, so {folder} cannot be made "
                        "in it", ancestor=str(ancestor), folder=str(folder))
        if _is_pseudo_file_system(ancestor):
            return said("{folder} is a system file system (proc or sys), not a place for files",
                        folder=str(ancestor))
    except OSError as error:
        return said("the folder {folder} cannot be checked ({reason})", folder=str(folder),
                    reason=str(error.strerror))
    return None


def _is_pseudo_file_system(folder: Path) -> bool:
    """Whether ``folder`` lies in /proc or /sys, which a process may not make files in."""
    parts = folder.resolve().parts
    return len(parts) > 1 and parts[1] in ("proc", "sys")


def _show(value: object) -> str:
    """A value as TOML spells it."""
    if value is None:
        return "false"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def _show_database(value: object) -> str:
    return '""' if value == default_db_path() else _show(value)


@dataclass(frozen=True)
class KeySpec:
    """One key of the file: where it lives, how it is read and what it allows."""

    section: str
    name: str
    parse: Callable[[object], Any]
    allowed: str
    """What the key allows, in words; every warning about the key quotes it."""
    show: Callable[[object], str] = _show

    @property
    def key(self) -> str:
        """The dotted name used in warnings and documentation, e.g. ``die.button_pin``."""
        return f"{self.section}.{self.name}"


_PIN_TEXT = N_("a BCM GPIO number from 2 to 27, or false for none")

KEYS: tuple[KeySpec, ...] = (
    KeySpec("display", "fullscreen", _bool, N_("true or false")),
    KeySpec("display", "window_size", parse_window_size, WINDOW_SIZE_ALLOWED, _show_window_size),
    KeySpec("display", "rotation", _int_in(ROTATIONS), N_("0, 90, 180 or 270 (degrees)")),
    KeySpec("display", "touch_device", _touch_device,
            N_('"auto", or a device path under /dev/input/ (e.g. "/dev/input/by-path/...-event")')),
    KeySpec("display", "touch_provider", _choice(*TOUCH_PROVIDERS), N_('"mtdev" or "hidinput"')),
    KeySpec("display", "touch_invert_x", _bool, N_("true or false")),
    KeySpec("display", "touch_invert_y", _bool, N_("true or false")),
    KeySpec("display", "dim_after_seconds", _dim_after,
            N_("0 (never dim), or a whole number of seconds from 10 to 86400")),
    KeySpec("display", "dim_brightness", _int_in(DIM_BRIGHTNESS_RANGE), N_("0 to 100 (percent)")),
    KeySpec("display", "text_scale", _int_in(TEXT_SCALES), N_("100, 115 or 130 (percent)")),
    KeySpec("display", "seating", _choice(*SEATINGS), N_('"one side" or "around"')),
    KeySpec("display", "language", _choice(*LANGUAGE_SETTINGS), LANGUAGE_ALLOWED),
    KeySpec("die", "button_pin", _pin, _PIN_TEXT),
    KeySpec("die", "led_pin", _pin, _PIN_TEXT),
    KeySpec("die", "buzzer_pin", _pin, _PIN_TEXT),
    KeySpec("die", "debounce_ms", _int_in(DEBOUNCE_RANGE), N_("5 to 500 (milliseconds)")),
    KeySpec("grid", "port", _serial_port,
            N_('"" for no grid, or an absolute device path (e.g. "/dev/smallworld-grid")')),
    KeySpec("grid", "baud", _int_in(BAUD_RATES), ", ".join(map(str, BAUD_RATES))),
    KeySpec("sound", "volume", _int_in(VOLUME_RANGE), N_("0 to 100 (percent; 0 is silent)")),
    KeySpec("sound", "muted", _bool, N_("true or false")),
    KeySpec("sound", "quiet_hours", parse_quiet_hours, QUIET_HOURS_ALLOWED, show_quiet_hours),
    KeySpec("storage", "database", _database,
            N_('"" for the default, or an absolute file path (~ allowed)'), _show_database),
)
"""Every key the file may hold, in the order the example file lists them."""

_SECTIONS = ("display", "die", "grid", "sound", "storage")
"""The sections of the file, each a field of `Config`, in the order it lists them."""


def default_config_path(environ: Mapping[str, str] | None = None) -> Path:
    """Where the configuration file lives, following the XDG Base Directory specification.

    ``$XDG_CONFIG_HOME`` counts only when it is an absolute path; otherwise ``~/.config``.
    """
    env = os.environ if environ is None else environ
    xdg = env.get("XDG_CONFIG_HOME", "")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".config"
    return base / APP_DIR_NAME / CONFIG_FILE_NAME


def load_config(path: Path | None = None) -> tuple[Config, list[ConfigWarning]]:
    """Read the configuration file; return the configuration and what was wrong in it.

    ``path`` None means :func:`default_config_path`, and then a missing file is silent
    (the defaults are the configuration). A ``path`` given explicitly that is missing is
    reported. Never raises for anything in or about the file.
    """
    explicit = path is not None
    file = path if path is not None else default_config_path()
    try:
        with open(file, "rb") as stream:
            text = stream.read().decode("utf-8")
        document, nested = _read_toml(text)
    except RecursionError:
        return Config(source=file), [_whole_file(file, said(
            "nests lists or tables more than {most} deep", most=MAX_NESTING))]
    except FileNotFoundError:
        return Config(), [_whole_file(file, said("there is no such file"))] if explicit else []
    except IsADirectoryError:
        return Config(), [_whole_file(file, said("this is a directory, not a file"))]
    except OSError as error:
        return Config(), [_whole_file(file, said("cannot be read ({reason})",
                                                 reason=str(error.strerror)))]
    except UnicodeDecodeError:
        return Config(), [_whole_file(file, said("is not UTF-8 text"))]
    except _NotToml as error:
        return Config(source=file), [_whole_file(file, said("is not valid TOML ({error})",
                                                            error=str(error)))]
    except ValueError:  # a NUL byte in the path given
        return Config(), [_whole_file(file, said("is not a path (it holds a NUL character)"))]
    config, warnings = parse_config(document)
    warnings = nested + warnings
    return replace(config, source=file), [
        ConfigWarning(w.key, said("{file}: {warning}", file=str(file), warning=w.sentence))
        for w in warnings
    ]


class _NotToml(Exception):
    """The file is not valid TOML; its text is the TOML reader's message."""


def _read_toml(text: str) -> tuple[dict[str, Any], list[ConfigWarning]]:
    """The TOML document `text` holds, read with the lines nested too deep blanked (and a
    warning each) when Python's reader gives up on them; raises `_NotToml`, and
    RecursionError when even the blanked text nests too deep."""
    import tomllib  # here: a table with no configuration file never needs it

    try:
        try:
            return tomllib.loads(text), []
        except RecursionError:
            text, nested = _drop_deep_lines(text)
            return tomllib.loads(text), nested
    except tomllib.TOMLDecodeError as error:
        raise _NotToml(str(error)) from error


def _drop_deep_lines(text: str) -> tuple[str, list[ConfigWarning]]:
    """`text` without the lines nested more than :data:`MAX_NESTING` deep, and a warning each.

    Python's TOML reader recurses once per nested list or table and gives up (a
    RecursionError) some hundreds deep; such a line is blanked so that the rest of the file
    is still read, and its key takes its default.
    """
    warnings: list[ConfigWarning] = []
    lines = text.split("\n")
    section = ""
    for number, line in enumerate(lines):
        header = _SECTION_LINE.match(line)
        if header:
            section = header.group(1)
            continue
        if line.count("[") + line.count("{") <= MAX_NESTING:
            continue
        name = line.split("=", 1)[0].strip() if "=" in line else ""
        key = f"{section}.{name}" if section and name else name or section
        spec = next((spec for spec in KEYS if spec.key == key), None)
        default = (
            said("Using the default, {default}",
                 default=spec.show(getattr(getattr(Config(), spec.section), spec.name)))
            if spec is not None
            else said("It is ignored")
        )
        allowed = Sentence(spec.allowed) if spec is not None else said("a plain value")
        at = number + 1
        warnings.append(
            ConfigWarning(key, said(
                "{key} (line {line}) nests lists or tables more than {most} deep, which is "
                "not allowed: {allowed}. {default}", key=key, line=at, most=MAX_NESTING,
                allowed=allowed, default=default) if key else said(
                "line {line} (line {line}) nests lists or tables more than {most} deep, "
                "which is not allowed: {allowed}. {default}", line=at, most=MAX_NESTING,
                allowed=allowed, default=default))
        )
        lines[number] = ""
    return "\n".join(lines), warnings


def parse_config(document: Mapping[str, object]) -> tuple[Config, list[ConfigWarning]]:
    """The configuration from an already parsed TOML document (see :func:`load_config`)."""
    warnings = [ConfigWarning(name, said(
        "unknown section [{name}] is ignored; the sections are {sections}",
        name=name, sections=", ".join(f"[{s}]" for s in _SECTIONS)))
        for name in document if name not in _SECTIONS]
    sections: dict[str, Any] = {}
    for section in _SECTIONS:
        raw = document.get(section, {})
        if not isinstance(raw, dict):
            warnings.append(
                ConfigWarning(section, said(
                    "{section} = {value} is not a table; write it as [{section}] followed by "
                    "its keys. Using the defaults for the whole section",
                    section=section, value=_show(raw)))
            )
            raw = {}
        sections[section] = _parse_section(section, raw, warnings)
    sections["die"] = _check_distinct_pins(sections["die"], warnings)
    return Config(**sections), warnings


def _parse_section(section: str, raw: dict[str, object], warnings: list[ConfigWarning]) -> Any:
    """One section's dataclass from its table, a warning and the default for each bad key."""
    specs = {spec.name: spec for spec in KEYS if spec.section == section}
    warnings.extend(ConfigWarning(f"{section}.{name}", said(
        "unknown key {key} is ignored; the keys of [{section}] are {keys}",
        key=f"{section}.{name}", section=section, keys=", ".join(specs)))
        for name in raw if name not in specs)
    defaults = getattr(Config(), section)
    values: dict[str, object] = {}
    for name, spec in specs.items():
        if name not in raw:
            continue
        try:
            values[name] = spec.parse(raw[name])
        except _Rejected as rejected:
            shown: dict[str, Value] = {"key": spec.key, "value": _show_raw(raw[name]),
                     "allowed": Sentence(spec.allowed),
                     "default": spec.show(getattr(defaults, name))}
            warnings.append(
                ConfigWarning(spec.key, said(
                    "{key} = {value} is not allowed: {allowed}. Using the default, {default}",
                    **shown) if rejected.reason is None else said(
                    "{key} = {value} is not allowed ({why}): {allowed}. Using the default, "
                    "{default}", why=rejected.reason, **shown))
            )
    return replace(defaults, **values)


def _show_raw(value: object) -> str:
    """A value as it stood in the file, for a warning (tables and lists shortened)."""
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, float):
        return repr(value)
    if not isinstance(value, bool | int | str):
        return str(value)  # TOML dates and times
    if isinstance(value, str):
        # Control characters (a NUL) escaped, a long value cut: the warning stays one line.
        value = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in value[:SHOWN_CHARS])
        return _show(value)[:-1] + ('..."' if len(value) >= SHOWN_CHARS else '"')
    return _show(value)


def _check_distinct_pins(die: DieConfig, warnings: list[ConfigWarning]) -> DieConfig:
    """The LED and the buzzer may not share a pin with the button or with each other."""
    defaults = DieConfig()
    taken: dict[int, str] = {}
    if die.button_pin is not None:
        taken[die.button_pin] = "die.button_pin"
    for name in ("led_pin", "buzzer_pin"):
        pin = getattr(die, name)
        if pin is None:
            continue
        if pin in taken:
            default = getattr(defaults, name)
            key = f"die.{name}"
            warnings.append(
                ConfigWarning(key, said(
                    "{key} = {pin} is not allowed: GPIO {pin} is already {other}; each device "
                    "needs its own pin. Using the default, {default}",
                    key=key, pin=pin, other=taken[pin], default=_show(default)))
            )
            die = replace(die, **{name: default})
        else:
            taken[pin] = f"die.{name}"
    return die


def _whole_file(file: Path, problem: Sentence) -> ConfigWarning:
    return ConfigWarning("", said("{file}: {problem}; using the defaults for every key",
                                  file=str(file), problem=problem))


def key_names() -> list[str]:
    """Every key's dotted name, e.g. ``["display.fullscreen", ...]``."""
    return [spec.key for spec in KEYS]


# --- writing --------------------------------------------------------------------------------

_SECTION_LINE = re.compile(r"^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(#.*)?$")


def save_config_values(values: Mapping[str, object], path: Path | None = None) -> Path:
    """Set some keys of ``companion.toml``, keeping every other line of the file as it was.

    ``values`` maps dotted keys (``"display.rotation"``) to values as :func:`load_config`
    returns them (``None`` for "no pin"). Each value is checked first: an unknown key or a
    value that is not allowed raises :class:`SettingRefused` (a ``ValueError``) whose
    sentence names the key and what it allows, and then nothing is written. A key already
    in the file keeps its line and its comment, with the new value; a missing key is added
    after the last key of its section, and a missing section at the end of the file (through
    ``tomlkit``, which keeps every comment, unknown key and blank line). A file that is not
    valid TOML, or whose section is not a table, is refused (a :class:`SettingRefused`
    naming the file) and left as it is. The file and its folder are created when absent; it
    is written whole to a temporary file and then renamed over the old one, so a pulled
    plug leaves either the old file or the new one.

    ``path`` None means :func:`default_config_path`. Returns the path written. The running
    app does not read the file again: the new values take effect at its next start.
    """
    specs = {spec.key: spec for spec in KEYS}
    wanted: dict[str, dict[str, str]] = {}
    for key, value in values.items():
        spec = specs.get(key)
        if spec is None:
            raise SettingRefused(said("there is no setting {key}; the settings are {settings}",
                                      key=key, settings=tuple(specs)))
        raw = False if value is None and spec.parse is _pin else value
        if spec.parse is parse_quiet_hours and not isinstance(value, str):
            raw = show_quiet_hours(value)[1:-1]  # as the file spells it, unquoted
        if isinstance(raw, Path):
            raw = str(raw)
        try:
            parsed = spec.parse(raw)
        except _Rejected as rejected:
            shown: dict[str, Value] = {"key": key, "value": _show_raw(raw),
                                       "allowed": Sentence(spec.allowed)}
            raise SettingRefused(said("{key} cannot be {value}: {allowed}", **shown)
                                 if rejected.reason is None else
                                 said("{key} cannot be {value} ({why}): {allowed}",
                                      why=rejected.reason, **shown)) from None
        wanted.setdefault(spec.section, {})[spec.name] = spec.show(parsed)
    file = path if path is not None else default_config_path()
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    written = _with_values(text, wanted, file)
    file.parent.mkdir(parents=True, exist_ok=True)
    temporary = file.with_name(file.name + ".new")
    with open(temporary, "w", encoding="utf-8") as stream:
        stream.write(written)
        stream.flush()
        os.fsync(stream.fileno())
    os.replace(temporary, file)
    return file


def _with_values(text: str, wanted: Mapping[str, Mapping[str, str]], file: Path) -> str:
    """`text`, the TOML document of `file`, with the keys of `wanted` (section -> name -> TOML
    value) set; new sections in the order of :data:`_SECTIONS`."""
    import tomlkit  # only when a setting is saved, never at start-up
    from tomlkit.exceptions import ParseError
    from tomlkit.items import Table

    def refused(problem: Sentence) -> SettingRefused:
        return SettingRefused(said("{file}: {warning}", file=str(file), warning=problem))

    try:
        document = tomlkit.parse(text)
    except ParseError as error:  # a nesting too deep too
        raise refused(said("is not valid TOML ({error})", error=str(error))) from None
    for section in _SECTIONS:
        if section not in wanted:
            continue
        table = document.setdefault(section, tomlkit.table())
        if not isinstance(table, dict):
            raise refused(said(
                "{section} = {value} is not a table; write it as [{section}] followed by "
                "its keys. Using the defaults for the whole section",
                section=section, value=_show(document.unwrap()[section])))
        for name, shown in wanted[section].items():
            value = tomlkit.value(shown)
            if name in table or not isinstance(table, Table):
                table[name] = value  # a key in place keeps its line and comment
                continue
            # after the section's last key, not after the comments that end it (they
            # usually introduce the next section); tomlkit has no public insert
            body = table.value.body
            at = max((i + 1 for i, (key, item) in enumerate(body)
                      if key is not None and not isinstance(item, Table)), default=0)
            if at < len(body):
                table.value._insert_at(at, name, value)
            else:
                table[name] = value
    return tomlkit.dumps(document)
