"""``companion doctor``: check this machine for what the table needs, and say what to fix.

It looks, without changing anything and without opening a window, at: who runs it (never
root; the groups), the configuration file, the display (KMS/DRM devices, connected
screens, the backlight, console blanking, Kivy's input providers), the touchscreen, GPIO
(the die button, LED and buzzer), the serial ports (the region sensor grid), the
database file, the kiosk service and the clock (a Pi has no battery clock: without the
network its date is wrong, and so is every game's). Each finding is one line: ``ok``,
``note`` (worth knowing, nothing to do) or ``FIX`` (with what to do). The exit status is 1
when anything needs fixing, else 0. ``deploy/install.sh`` runs it at the end.

The machine's own files (``/sys``, ``/dev``, ``/proc``, ``/etc``) are read through
:class:`System`, so tests run the checks on a fake tree; the user's files (the
configuration, the Kivy configs, the database) are where the environment and the
configuration say. Only the standard library is imported at module level; the
configuration, SQLite and ``systemctl`` are reached inside the checks.

The report speaks ``--lang`` (else the configuration's ``display.language``, whose "auto"
follows the system's locale): every sentence is translated whole, with the commands,
paths, keys, group and device names in it left as they are (they are what one types).
The area and status columns (``display``, ``ok``, ``note``, ``FIX``) stay English, as
the words a script or a helper on the phone looks for.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from companion.commands import N_, Command, _, ngettext, use_language

if TYPE_CHECKING:
    from companion.config import Config
    from companion.rules.maps import Board

Status = Literal["ok", "note", "fix"]

KIOSK_GROUPS = ("gpio", "dialout", "video", "render", "input", "audio")
"""The groups the kiosk's user needs: GPIO, serial, screen, GPU, touchscreen, sound."""

SERVICE = "smallworld-companion.service"
UDEV_RULES = "etc/udev/rules.d/60-smallworld-companion.rules"

ABS_X = 0x00
ABS_MT_POSITION_X = 0x35
BTN_TOUCH = 0x14A


@dataclass(frozen=True)
class Finding:
    """One line of the report: its status, the area it is about, and what it says."""

    status: Status
    area: str
    text: str


class Findings(list[Finding]):
    """The lines of one area, each added in one call: its sentence, already translated
    (`_()`), with `values` filled in (a sentence without values is taken as it is)."""

    def __init__(self, area: str) -> None:
        super().__init__()
        self.area = area

    def add(self, status: Status, text: str, **values: object) -> None:
        self.append(Finding(status, self.area, text.format(**values) if values else text))

    def ok(self, text: str, **values: object) -> None:
        """A line of what works."""
        self.add("ok", text, **values)

    def note(self, text: str, **values: object) -> None:
        """A line worth knowing, with nothing to do."""
        self.add("note", text, **values)

    def fix(self, text: str, **values: object) -> None:
        """A line of what to fix, and how."""
        self.add("fix", text, **values)


def _run_tool(tool: str, arguments: list[str]) -> tuple[int, str] | None:
    """``TOOL ARGUMENTS``: (status, output), or None where there is no such tool."""
    try:
        done = subprocess.run(
            [tool, *arguments], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.returncode, done.stdout.strip()


def _run_systemctl(arguments: list[str]) -> tuple[int, str] | None:
    return _run_tool("systemctl", arguments)


def _run_timedatectl(arguments: list[str]) -> tuple[int, str] | None:
    return _run_tool("timedatectl", arguments)


def _find_module(name: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _find_library(name: str) -> bool:
    import ctypes.util

    return ctypes.util.find_library(name) is not None


@dataclass
class System:
    """What the doctor looks at; :meth:`current` is this machine, tests build fakes."""

    root: Path = Path("/")
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    uid: int = 1000
    user: str = "pi"
    process_groups: set[str] = field(default_factory=set)
    user_groups: set[str] = field(default_factory=set)
    existing_groups: set[str] = field(default_factory=lambda: set(KIOSK_GROUPS))
    access: Callable[[Path, int], bool] = os.access
    systemctl: Callable[[list[str]], tuple[int, str] | None] = _run_systemctl
    timedatectl: Callable[[list[str]], tuple[int, str] | None] = _run_timedatectl
    has_module: Callable[[str], bool] = _find_module
    has_library: Callable[[str], bool] = _find_library

    @classmethod
    def current(cls) -> System:
        """This machine, as the current process sees it: its user (by number when it has
        no name), the groups this process has, the groups the user is in (its own and
        those listing it) and every group there is."""
        import grp
        import pwd

        try:
            user = pwd.getpwuid(os.getuid()).pw_name
        except KeyError:
            user = str(os.getuid())
        groups = grp.getgrall()
        in_process: set[str] = set()
        for gid in {os.getgid(), *os.getgroups()}:
            with contextlib.suppress(KeyError):
                in_process.add(grp.getgrgid(gid).gr_name)
        of_user = {g.gr_name for g in groups if user in g.gr_mem}
        with contextlib.suppress(KeyError):
            of_user.add(grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name)
        return cls(uid=os.getuid(), user=user, process_groups=in_process, user_groups=of_user,
                   existing_groups={g.gr_name for g in groups})

    def path(self, absolute: str) -> Path:
        """An absolute path of the machine, inside :attr:`root`."""
        return self.root / absolute.lstrip("/")

    def read(self, absolute: str | Path) -> str | None:
        """A small text file's content, stripped, or None when it cannot be read."""
        path = absolute if isinstance(absolute, Path) else self.path(absolute)
        try:
            return path.read_text(errors="replace").strip().strip("\x00")
        except OSError:
            return None

    def shown(self, path: Path) -> str:
        """A path inside :attr:`root` as the machine names it."""
        try:
            return "/" + str(path.relative_to(self.root))
        except ValueError:
            return str(path)


# --- the checks ---------------------------------------------------------------------------


def check_user(system: System) -> list[Finding]:
    """Never root; in every group the kiosk needs, and with them in this very session."""
    found = Findings("user")
    if system.uid == 0:
        found.fix(_("running as root: the table must never run as root (Kivy would read root's "
                    "~/.kivy, files would belong to root); run this as the kiosk's user"))
    missing, relogin, absent = [], [], []
    for group in KIOSK_GROUPS:
        if group not in system.existing_groups:
            absent.append(group)
        elif group not in system.user_groups:
            missing.append(group)
        elif group not in system.process_groups:
            relogin.append(group)
    joined = [g for g in KIOSK_GROUPS if g not in missing + relogin + absent]
    if joined:
        found.ok(_("{user} is in the groups {groups}"), user=system.user, groups=" ".join(joined))
    for group in missing:
        found.fix(_("{user} is not in the group {group}: sudo usermod -aG {group} {user} "
                    "(deploy/install.sh does it), then log in again"),
                  user=system.user, group=group)
    if relogin:
        found.note(_("{user} joined {groups} after this login: the service has them; log out "
                     "and in again (or reboot) for this shell to have them too"),
                   user=system.user, groups=" ".join(relogin))
    for group in absent:
        found.add("fix" if group != "gpio" else "note",
                  _("this system has no group {group} (deploy/install.sh creates it)"),
                  group=group)
    return found


def check_config(path: Path | None, system: System) -> tuple[Config, list[Finding]]:
    """The configuration file: found or not, and every bad value in it."""
    from companion.config import Config, default_config_path, load_config

    found = Findings("config")
    file = path if path is not None else default_config_path(system.environ)
    if path is None and not file.exists():
        found.note(_("no {file}: every key at its default (deploy/install.sh writes one from "
                     "deploy/companion.example.toml)"), file=file)
        return Config(), found
    config, warnings = load_config(file)
    from companion.ui.wording import say  # each warning in the report's language

    for warning in warnings:
        found.fix(say(warning.said))
    if not warnings:
        found.ok(_("{file}: every value is valid"), file=file)
    return config, found


def check_display(system: System, config: Config) -> list[Finding]:
    """KMS/DRM devices and screens, a desktop in the way, backlight, console blanking."""
    found = Findings("display")
    cards = sorted(system.path("/dev/dri").glob("card[0-9]*"))
    if not cards:
        found.fix(_("no /dev/dri/card*: no KMS display driver. On a Pi, "
                    "/boot/firmware/config.txt needs dtoverlay=vc4-kms-v3d (Bookworm's default)"))
    for card in cards:
        if not system.access(card, os.R_OK | os.W_OK):
            found.fix(_("cannot open {device}: {user} needs the groups video and render "
                        "(deploy/install.sh), then a new login"),
                      device=system.shown(card), user=system.user)
    screens = []
    for status_file in sorted(system.path("/sys/class/drm").glob("card*-*/status")):
        if system.read(status_file) != "connected":
            continue
        name = status_file.parent.name.split("-", 1)[1]
        modes = (system.read(status_file.parent / "modes") or "").split()
        screens.append(f"{name} ({modes[0]})" if modes else name)
    if screens:
        found.ok(_("screen connected: {screens}"), screens=", ".join(screens))
    elif cards:
        found.fix(_("no screen is connected: check the display's ribbon (DSI) or HDMI cable "
                    "and its power"))
    desktop = [name for name in ("WAYLAND_DISPLAY", "DISPLAY") if system.environ.get(name)]
    if desktop:
        found.note(_("a desktop session is running here ({variables} set): at boot the kiosk "
                     "takes tty1 instead (deploy/install.sh keeps the desktop from starting)"),
                   variables=", ".join(desktop))
    _check_backlight(found, system, config)
    blank = system.read("/sys/module/kernel/parameters/consoleblank")
    if blank not in (None, "0"):
        found.note(_("the console blanks after {seconds} s when the app is not on the screen; "
                     "deploy/install.sh adds consoleblank=0 to /boot/firmware/cmdline.txt"),
                   seconds=blank)
    return found + _check_kivy_input(system)


def _check_backlight(found: Findings, system: System, config: Config) -> None:
    dims = config.display.dim_after_seconds
    lights = sorted(system.path("/sys/class/backlight").glob("*"))
    if not lights:
        found.note(_("no backlight control (e.g. an HDMI screen): the app dims by drawing, "
                     "after {seconds} s idle") if dims else
                   _("no backlight control (e.g. an HDMI screen): the app dims by drawing, never "
                     "(display.dim_after_seconds = 0)"), seconds=dims)
    for light in lights:
        if system.access(light / "brightness", os.W_OK):
            found.ok(_("backlight {light}: the app can dim it, after {seconds} s idle") if dims
                     else _("backlight {light}: the app can dim it, never "
                            "(display.dim_after_seconds = 0)"), light=light.name, seconds=dims)
        else:
            found.fix(_("backlight {light} is not writable by {user}: the udev rule from deploy/ "
                        "(deploy/install.sh) gives the video group write access"),
                      light=light.name, user=system.user)


def _check_kivy_input(system: System) -> list[Finding]:
    """Kivy's [input]: exactly one provider may read the touchscreen."""
    from companion.config import default_config_path
    from companion.kivy_config import read_input_section, touch_readers

    kiosk_ini = default_config_path(system.environ).parent / "kivy" / "config.ini"
    home = system.environ.get("KIVY_HOME") or str(Path.home() / ".kivy")
    found = Findings("touch")
    for kiosk, ini in ((True, kiosk_ini), (False, Path(home) / "config.ini")):
        if not ini.is_file():
            continue
        try:
            readers = touch_readers(read_input_section(ini))
        except (OSError, ValueError) as error:
            found.fix(_("cannot read {file}: {why}"), file=ini, why=error)
            continue
        names = ", ".join(f"{name} = {value}" for name, value in readers)
        if len(readers) > 1:
            if kiosk:
                text = _("the kiosk's Kivy config {file} has {count} input providers that read "
                         "the touchscreen ({names}): every touch would count {count} times. "
                         "Re-run deploy/install.sh to put back deploy/kivy-pi.ini")
            else:
                text = _("this user's Kivy config {file} has {count} input providers that "
                         "read the touchscreen ({names}): every touch would count {count} "
                         "times. The kiosk does not read it; for 'make run' on a "
                         "touchscreen, keep only one")
            found.add("fix" if kiosk else "note", text, file=ini, count=len(readers),
                      names=names)
        elif kiosk:
            found.ok(_("the kiosk's Kivy config reads the touchscreen once ({names})"),
                     names=names)
    return found


def _bits(text: str) -> set[int]:
    """The bit numbers set in a sysfs capability bitmap (hex words, most significant first)."""
    words = text.split()
    width = 64 if any(len(word) > 8 for word in words) else struct.calcsize("l") * 8
    bits: set[int] = set()
    for index, word in enumerate(reversed(words)):
        value = int(word, 16)
        bits.update(index * width + bit for bit in range(width) if value >> bit & 1)
    return bits


@dataclass(frozen=True)
class InputDevice:
    """One ``/dev/input/eventN`` and what it can do."""

    node: str
    name: str
    multitouch: bool
    single_touch: bool


def input_devices(system: System) -> list[InputDevice]:
    """Every input event device with its name and whether it is a touch panel."""
    devices = []
    for event in sorted(system.path("/sys/class/input").glob("event[0-9]*")):
        absolute = _bits(system.read(event / "device/capabilities/abs") or "0")
        keys = _bits(system.read(event / "device/capabilities/key") or "0")
        devices.append(
            InputDevice(
                node="/dev/input/" + event.name,
                name=system.read(event / "device/name") or "?",
                multitouch=ABS_MT_POSITION_X in absolute,
                single_touch=ABS_X in absolute and BTN_TOUCH in keys,
            )
        )
    return devices


def check_touch(system: System, config: Config) -> list[Finding]:
    """A touch panel is there, readable, and read by the configured provider."""
    display = config.display
    found = Findings("touch")
    panels = [d for d in input_devices(system) if d.multitouch or d.single_touch]
    for panel in panels:
        if system.access(system.path(panel.node), os.R_OK):
            found.ok(_("multitouch panel {name} on {device}") if panel.multitouch
                     else _("single-touch panel {name} on {device}"),
                     name=repr(panel.name), device=panel.node)
        else:
            found.fix(_("multitouch panel {name} on {device} is not readable by {user}: add the "
                        "group input (deploy/install.sh), then log in again")
                      if panel.multitouch else
                      _("single-touch panel {name} on {device} is not readable by {user}: add "
                        "the group input (deploy/install.sh), then log in again"),
                      name=repr(panel.name), device=panel.node, user=system.user)
    if not panels:
        found.fix(_("no touchscreen found: check the display's touch connection (DSI ribbon, or "
                    "the USB cable of an HDMI panel); Touch Display 2 needs its dtoverlay line"))
    if display.touch_device != "auto" and not system.path(display.touch_device).exists():
        found.fix(_('display.touch_device = {device} does not exist; use "auto" or one of the '
                    "devices above"), device=repr(display.touch_device))
    if display.touch_provider == "mtdev" and not system.has_library("mtdev"):
        found.fix(_("libmtdev is missing (sudo apt install libmtdev1): without it Kivy falls "
                    "back to hidinput, which misreads most multitouch panels"))
    if display.touch_provider == "hidinput" and display.touch_device == "auto":
        found.note(_('display.touch_provider = "hidinput" with touch_device = "auto" finds only '
                     "multitouch panels; for a single-touch panel give its touch_device"))
    single = [p for p in panels if p.single_touch and not p.multitouch]
    if single and display.touch_provider == "mtdev":
        found.note(_('{name} is single-touch: set display.touch_provider = "hidinput" and '
                     'display.touch_device = "{device}"'),
                   name=repr(single[0].name), device=single[0].node)
    return found


PIN_TEXTS = {
    "button": (N_("button on GPIO{pin}"), N_("button on GPIO{pin} (physical pin {physical})")),
    "LED": (N_("LED on GPIO{pin}"), N_("LED on GPIO{pin} (physical pin {physical})")),
    "buzzer": (N_("buzzer on GPIO{pin}"), N_("buzzer on GPIO{pin} (physical pin {physical})")),
}
"""How each of the die's parts on a pin is named: without, and with, its physical pin."""


def _pin_text(what: str, pin: int) -> str:
    from companion.config import PHYSICAL_PIN

    physical = PHYSICAL_PIN.get(pin)
    bare, located = PIN_TEXTS[what]
    return _(located if physical else bare).format(pin=pin, physical=physical)


def check_gpio(system: System, config: Config) -> list[Finding]:
    """GPIO chips readable, a pin library present, and which pins the die uses."""
    die = config.die
    found = Findings("gpio")
    model = system.read("/proc/device-tree/model") or ""
    off_a_pi: Status = "fix" if "Raspberry Pi" in model else "note"
    if model:
        found.note(_("this is a {model}"), model=model)
    chips = sorted(system.path("/dev").glob("gpiochip[0-9]*"))
    devices = (("button", die.button_pin), ("LED", die.led_pin), ("buzzer", die.buzzer_pin))
    used = [_pin_text(what, pin) for what, pin in devices if pin is not None]
    if not used:
        found.ok(_("no die button, LED or buzzer configured"))
        return found
    if not chips:
        found.add(off_a_pi, _("no /dev/gpiochip*: no GPIO here, so the die button is off (the "
                              "on-screen die still works)"))
        return found
    unreadable = [c for c in chips if not system.access(c, os.R_OK | os.W_OK)]
    if unreadable:
        found.fix(_("{devices} not usable by {user}: add the group gpio (deploy/install.sh), "
                    "then log in again"),
                  devices=", ".join(system.shown(c) for c in unreadable), user=system.user)
    libraries = [name for name in ("lgpio", "RPi.GPIO", "pigpio") if system.has_module(name)]
    if libraries:
        found.ok(_("{pins}; pin library {library}"), pins="; ".join(used), library=libraries[0])
    else:
        found.add(off_a_pi, _("{pins}, but no GPIO pin library: sudo apt install python3-lgpio "
                              "(the app's virtual environment sees it)"), pins="; ".join(used))
    return found


def check_serial(system: System, config: Config) -> list[Finding]:
    """The grid's serial port: configured, plugged in, usable."""
    port = config.grid.port
    found = Findings("grid")
    by_id = sorted(system.path("/dev/serial/by-id").glob("*"))
    picos = [link for link in by_id if "MicroPython" in link.name or "Pico" in link.name]
    if not port:
        found.ok(_('no sensor grid configured (grid.port = "")'))
        return found
    device = system.path(port)
    if device.exists():
        real = system.shown(device.resolve()) if device.is_symlink() else port
        if system.access(device, os.R_OK | os.W_OK):
            found.ok(_("grid port {port} is usable"),
                     port=port if real == port else f"{port} -> {real}")
        else:
            found.fix(_("grid port {port} is not usable by {user}: add the group dialout "
                        "(deploy/install.sh), then log in again"), port=port, user=system.user)
    elif picos:
        found.fix(_("a Pico is plugged in ({pico}) but {port} does not exist: install the udev "
                    'rule (deploy/install.sh) or set grid.port = "/dev/serial/by-id/{pico}"'),
                  pico=picos[0].name, port=port)
    else:
        found.note(_("no grid plugged in ({port} does not exist): the game carries on by hand; "
                     "plug the Pico into any USB socket"), port=port)
    if port == "/dev/smallworld-grid" and not system.path(UDEV_RULES).exists():
        found.fix(_("{rules} is missing, so no device is ever named {port} (deploy/install.sh "
                    "installs it)"), rules="/" + UDEV_RULES, port=port)
    for link in by_id:
        found.note(_("serial device {name} -> {device}"),
                   name=link.name, device=system.shown(link.resolve()))
    return found


def check_database(system: System, config: Config) -> list[Finding]:
    """The database file: where it is, that it can be written, that it is sound."""
    path = config.storage.database
    shown = str(path)
    found = Findings("database")
    if path.exists() and not path.is_file():
        found.fix(_("{path} is not a file (storage.database)"), path=shown)
        return found
    if not path.exists():
        ancestor = path.parent
        while not ancestor.exists() and ancestor != ancestor.parent:
            ancestor = ancestor.parent
        if system.access(ancestor, os.W_OK):
            found.ok(_("{path} does not exist yet; the app will create it"), path=shown)
        else:
            found.fix(_("{path} cannot be created: {folder} is not writable by {user}"),
                      path=shown, folder=ancestor, user=system.user)
        _disk_space(found, path.parent if path.parent.exists() else ancestor)
        return found
    if not system.access(path, os.R_OK | os.W_OK) or not system.access(path.parent, os.W_OK):
        found.fix(_("{path} or its directory is not writable by {user} (was the app once run "
                    "as root? sudo chown -R the directory back)"), path=shown, user=system.user)
    _database_health(found, path, shown)
    _disk_space(found, path.parent)
    return found


def _database_health(found: Findings, path: Path, shown: str) -> None:
    import sqlite3

    try:
        with open(path, "rb") as stream:
            header = stream.read(16)
    except OSError as error:
        found.fix(_("{path} cannot be read: {why}"), path=shown, why=error.strerror)
        return
    if header and header != b"SQLite format 3\x00":
        found.fix(_("{path} is not an SQLite database"), path=shown)
        return
    size = path.stat().st_size
    try:
        connection = sqlite3.connect(path.as_uri() + "?mode=ro", uri=True, timeout=2)
        try:
            result = connection.execute("PRAGMA quick_check").fetchone()
        finally:
            connection.close()
    except sqlite3.Error as error:
        found.fix(_("{path} cannot be checked: {why}"), path=shown, why=error)
        return
    if result is None or result[0] != "ok":
        found.fix(_("{path} is damaged: {detail}"), path=shown,
                  detail=result[0] if result else _("no answer"))
        return
    found.ok(_("{path} is sound ({size} KiB)"), path=shown, size=size // 1024)


def _disk_space(found: Findings, directory: Path) -> None:
    try:
        stats = os.statvfs(directory)
    except OSError:
        return
    free = stats.f_bavail * stats.f_frsize
    if free < 100 * 1024 * 1024:
        found.fix(_("only {free} MiB free where the database is: games need room"),
                  free=free // (1024 * 1024))


def _expansion_name(name: str) -> str:
    """An expansion's name as the language spoken prints it (its catalog name's
    translation, made by ``make locale`` from the catalog; else as it is)."""
    from companion import i18n

    return i18n.pgettext("expansion", name)


def _board_kind(board: Board) -> str | None:
    """The expansion `board` is made for, by name (None: a board of the base game)."""
    from companion.rules.expansions import registered

    kinds = [part.name for part in registered() if part.board_made_for(board)]
    return _expansion_name(kinds[0]) if kinds else None


def _with_kind(name: str, board: Board) -> str:
    """A board file in the list offered: its name, its players and its expansion."""
    kind = _board_kind(board)
    if kind is None:
        return ngettext("{name} ({players} player)", "{name} ({players} players)",
                        board.players).format(name=name, players=board.players)
    return ngettext("{name} ({players} player, {kind})", "{name} ({players} players, {kind})",
                    board.players).format(name=name, players=board.players, kind=kind)


def _no_boards_note(folder: Path) -> str:
    """No board file of the group's own: where they go, and which kinds there are."""
    from companion.rules.expansions import registered

    kinds = [_expansion_name(part.name) for part in registered() if part.has_boards]
    if not kinds:
        return _("no board files of your own in {folder} (fan boards: "
                 "docs/board-format.md)").format(folder=folder)
    return _("no board files of your own in {folder} ({kinds} or fan boards: "
             "docs/board-format.md)").format(folder=folder, kinds=", ".join(kinds))


def check_boards(system: System, config: Config) -> list[Finding]:
    """The group's own board files: the usable ones by name (and the expansion each is
    made for), each broken one with why."""
    from companion.boards import custom_boards_dir, load_custom_boards
    from companion.ui.wording import say  # the file's error in the report's language

    found = Findings("boards")
    folder = custom_boards_dir()
    boards = load_custom_boards(folder)
    if not boards.boards and not boards.broken:
        found.note(_no_boards_note(folder))
    if boards.boards:
        found.ok(_("offered for a new game: {boards}"),
                 boards=", ".join(_with_kind(b.name, b.board) for b in boards.boards))
    for broken in boards.broken:
        found.fix(say(broken.said))
    return found


def check_service(system: System) -> list[Finding]:
    """The kiosk service: installed, enabled, running."""
    found = Findings("service")
    enabled = system.systemctl(["is-enabled", SERVICE])
    if enabled is None:
        found.note(_("no systemctl here: the kiosk service cannot run"))
        return found
    status, text = enabled
    if status != 0 and text in ("", "not-found"):
        found.note(_("{service} is not installed (deploy/install.sh installs it)"),
                   service=SERVICE)
        return found
    if text == "enabled":
        found.ok(_("{service} starts at boot"), service=SERVICE)
    else:
        found.fix(_("{service} is {state}: sudo systemctl enable {service}"),
                  service=SERVICE, state=text)
    active = system.systemctl(["is-active", SERVICE])
    state = active[1] if active and active[1] else None
    if state == "active":
        found.ok(_("{service} is running"), service=SERVICE)
    elif state == "failed":
        found.fix(_("{service} failed: journalctl -u smallworld-companion -b shows why; then "
                    "sudo systemctl reset-failed {service} && sudo systemctl start {service}"),
                  service=SERVICE)
    elif state is None:
        found.note(_("{service} is not running (it starts at boot)"), service=SERVICE)
    else:
        found.note(_("{service} is {state} (it starts at boot)"), service=SERVICE, state=state)
    return found


TIMESYNC_SYNCHRONIZED = "/run/systemd/timesync/synchronized"
"""Made by systemd-timesyncd once it has set the clock from the network, at each boot."""


def check_clock(system: System) -> list[Finding]:
    """Whether the clock was set from the network: a Pi keeps no time while switched off."""
    found = Findings("clock")
    if system.path(TIMESYNC_SYNCHRONIZED).exists():
        found.ok(_("the clock is set from the network (systemd-timesyncd)"))
        return found
    answer = system.timedatectl(["show", "--property=NTP", "--property=NTPSynchronized"])
    properties = dict(
        line.split("=", 1) for line in (answer[1] if answer else "").splitlines() if "=" in line
    )
    if answer is None or answer[0] != 0 or "NTPSynchronized" not in properties:
        found.note(_("cannot tell whether the clock is right (no timedatectl answer): check the "
                     "date with 'date', as the games are dated by it"))
    elif properties["NTPSynchronized"] == "yes":
        found.ok(_("the clock is set from the network"))
    else:
        found.fix(_("the clock is not set from the network (it says {now}; a Pi keeps no time "
                    "while switched off), so games may get the wrong date: {what}"),
                  now=time.strftime("%Y-%m-%d %H:%M"),
                  what=_("network time is turned off: sudo timedatectl set-ntp true")
                  if properties.get("NTP") == "no" else
                  _("connect the Pi to the network (Wi-Fi: sudo raspi-config) and it sets "
                    "itself within a minute; with no network, set it by hand: "
                    "sudo date -s 'YYYY-MM-DD HH:MM'"))
    return found


def diagnose(config_path: Path | None, system: System) -> list[Finding]:
    """Every check, in the order the report lists them."""
    config, findings = check_config(config_path, system)
    findings = check_user(system) + findings
    for check in (check_display, check_touch, check_gpio, check_serial, check_database,
                  check_boards):
        findings.extend(check(system, config))
    findings.extend(check_service(system))
    findings.extend(check_clock(system))
    return findings


def render(findings: Iterable[Finding]) -> str:
    """The report: one line per finding, then how many things need fixing."""
    findings = list(findings)
    width = max((len(f.area) for f in findings), default=0)
    lines = [
        f"{f.area:<{width}}  {f.status.upper() if f.status == 'fix' else f.status:<4}  {f.text}"
        for f in findings
    ]
    fixes = sum(1 for f in findings if f.status == "fix")
    if fixes:
        lines.append(ngettext("{count} thing to fix (the FIX lines above).",
                              "{count} things to fix (the FIX lines above).", fixes)
                     .format(count=fixes))
    else:
        lines.append(_("Nothing to fix."))
    return "\n".join(lines)


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="PATH",
        help="the configuration file to check "
        "(default: $XDG_CONFIG_HOME/smallworld-companion/companion.toml)",
    )


def _run(args: argparse.Namespace) -> int:
    if args.lang is None:  # the table's own language, as the app would speak it
        from companion.config import load_config

        use_language(args, load_config(args.config)[0].display.language)
    findings = diagnose(args.config, System.current())
    print("companion doctor: " + _("what works here and what to fix"))
    print(render(findings))
    sys.stdout.flush()
    return 1 if any(f.status == "fix" for f in findings) else 0


COMMAND = Command(
    name="doctor",
    help="check this machine for what the table needs, say what to fix",
    configure=_configure,
    run=_run,
    speaks=True,
)
