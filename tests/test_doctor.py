"""``companion doctor``: what works on this machine, and what to fix.

The checks run on a fake machine: a directory holding the ``/sys``, ``/dev``, ``/proc``
and ``/etc`` files they read, with the access rights, groups, Python modules, libraries
and ``systemctl`` answers given by the test. A healthy Pi has nothing to fix; each broken
thing gives one FIX line that says what to do. The real command also runs here once.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.cli import main
from companion.commands import doctor
from companion.commands.doctor import Finding, System, diagnose, render

GROUPS = {"gpio", "dialout", "video", "render", "input", "audio"}
ABS_MT = "660800000000003"  # ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X/Y, TRACKING_ID
ABS_SINGLE = "1000003"  # ABS_X, ABS_Y, ABS_PRESSURE
KEY_TOUCH = "400 0 0 0 0 0"  # BTN_TOUCH (0x14a) in the sixth 64-bit word from the end


class FakePi:
    """A Raspberry Pi with the official 7" display, a die button and a Pico grid."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.denied: set[str] = set()  # machine paths the user may not open
        self.modules = {"lgpio"}
        self.libraries = {"mtdev"}
        self.services: dict[str, tuple[int, str]] = {
            "is-enabled": (0, "enabled"),
            "is-active": (0, "active"),
        }
        self.environ = {
            "XDG_CONFIG_HOME": str(root / "home/pi/.config"),
            "XDG_DATA_HOME": str(root / "home/pi/.local/share"),
            "KIVY_HOME": str(root / "home/pi/.kivy"),
        }
        self.system = System(
            root=root,
            environ=self.environ,
            uid=1000,
            user="pi",
            process_groups={"pi", *GROUPS},
            user_groups={"pi", *GROUPS},
            existing_groups={"pi", *GROUPS},
            access=self.access,
            systemctl=self.systemctl,
            timedatectl=self.timedatectl,
            has_module=lambda name: name in self.modules,
            has_library=lambda name: name in self.libraries,
        )
        self.write("proc/device-tree/model", "Raspberry Pi 4 Model B Rev 1.5\x00")
        self.write("dev/dri/card0", "")
        self.write("dev/dri/card1", "")
        self.write("sys/class/drm/card1-DSI-1/status", "connected\n")
        self.write("sys/class/drm/card1-DSI-1/modes", "800x480\n")
        self.write("sys/class/drm/card1-HDMI-A-1/status", "disconnected\n")
        self.write("sys/class/backlight/10-0045/brightness", "255\n")
        self.write("sys/module/kernel/parameters/consoleblank", "0\n")
        self.touch_panel("event0", "raspberrypi-ts", ABS_MT)
        self.write("sys/class/input/event1/device/name", "Logitech USB Keyboard\n")
        self.write("sys/class/input/event1/device/capabilities/abs", "0\n")
        self.write("dev/gpiochip0", "")
        self.write("dev/ttyACM0", "")
        (root / "dev/smallworld-grid").symlink_to(root / "dev/ttyACM0")
        by_id = root / "dev/serial/by-id"
        by_id.mkdir(parents=True)
        (by_id / "usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00").symlink_to(
            root / "dev/ttyACM0"
        )
        self.write("etc/udev/rules.d/60-smallworld-companion.rules", "# rules\n")
        self.write("run/systemd/timesync/synchronized", "")
        self.clock: tuple[int, str] | None = (0, "NTP=yes\nNTPSynchronized=yes")
        self.config_dir = root / "home/pi/.config/smallworld-companion"
        self.write_config("")
        kiosk_ini = Path(__file__).resolve().parents[1] / "deploy" / "kivy-pi.ini"
        self.write("home/pi/.config/smallworld-companion/kivy/config.ini", kiosk_ini.read_text())
        self.database = root / "home/pi/.local/share/smallworld-companion/companion.sqlite3"
        self.database.parent.mkdir(parents=True)
        with sqlite3.connect(self.database) as connection:
            connection.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, body TEXT)")
            connection.execute("INSERT INTO events (body) VALUES ('{}')")
        connection.close()

    def write(self, path: str, text: str) -> Path:
        file = self.root / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text)
        return file

    def touch_panel(self, event: str, name: str, abs_bits: str, key_bits: str = "0") -> None:
        self.write(f"sys/class/input/{event}/device/name", name + "\n")
        self.write(f"sys/class/input/{event}/device/capabilities/abs", abs_bits + "\n")
        self.write(f"sys/class/input/{event}/device/capabilities/key", key_bits + "\n")
        self.write(f"dev/input/{event}", "")

    def write_config(self, text: str) -> None:
        self.write("home/pi/.config/smallworld-companion/companion.toml", text)

    def access(self, path: Path, mode: int) -> bool:
        shown = "/" + str(path.relative_to(self.root))
        return shown not in self.denied and path.exists()

    def systemctl(self, arguments: list[str]) -> tuple[int, str] | None:
        return self.services.get(arguments[0], (1, "unknown"))

    def timedatectl(self, arguments: list[str]) -> tuple[int, str] | None:
        assert arguments == ["show", "--property=NTP", "--property=NTPSynchronized"]
        return self.clock

    def diagnose(self) -> list[Finding]:
        return diagnose(self.config_dir / "companion.toml", self.system)

    def fixes(self) -> list[str]:
        return [f"{f.area}: {f.text}" for f in self.diagnose() if f.status == "fix"]


@pytest.fixture
def pi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakePi:
    # The database's default place follows the process's XDG_DATA_HOME.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home/pi/.local/share"))
    return FakePi(tmp_path)


def the_one(findings: list[str], *words: str) -> str:
    matching = [text for text in findings if all(word in text for word in words)]
    assert len(matching) == 1, (words, findings)
    return matching[0]


def lines(pi: FakePi, status: str) -> list[str]:
    return [f"{f.area}: {f.text}" for f in pi.diagnose() if f.status == status]


# --- a healthy Pi -------------------------------------------------------------------------


def test_this_machine_is_read_as_its_user_and_groups_say() -> None:
    """`System.current` (what `companion doctor` looks at on the Pi): the process's user,
    the groups the process has, those the user is in (its own first) and every group,
    read from this machine's own account files."""
    import grp
    import pwd

    here = System.current()
    account = pwd.getpwuid(os.getuid())
    own = grp.getgrgid(account.pw_gid).gr_name
    assert (here.uid, here.user) == (os.getuid(), account.pw_name)
    assert grp.getgrgid(os.getgid()).gr_name in here.process_groups
    assert own in here.user_groups
    assert here.user_groups >= {g.gr_name for g in grp.getgrall() if account.pw_name in g.gr_mem}
    assert here.process_groups | here.user_groups <= here.existing_groups
    assert here.existing_groups == {g.gr_name for g in grp.getgrall()}


def test_a_healthy_pi_has_nothing_to_fix(pi: FakePi) -> None:
    assert pi.fixes() == []
    ok = lines(pi, "ok")
    the_one(ok, "user: pi is in the groups gpio dialout video render input audio")
    the_one(ok, "config:", "every value is valid")
    the_one(ok, "display: screen connected: DSI-1 (800x480)")
    the_one(ok, "display: backlight 10-0045: the app can dim it, after 300 s idle")
    the_one(ok, "touch: the kiosk's Kivy config reads the touchscreen once")
    the_one(ok, "touch: multitouch panel 'raspberrypi-ts' on /dev/input/event0")
    the_one(ok, "gpio: button on GPIO17 (physical pin 11); pin library lgpio")
    the_one(ok, "grid: grid port /dev/smallworld-grid -> /dev/ttyACM0 is usable")
    the_one(ok, "database:", "companion.sqlite3 is sound")
    the_one(ok, "service: smallworld-companion.service starts at boot")
    the_one(ok, "service: smallworld-companion.service is running")
    notes = lines(pi, "note")
    the_one(notes, "gpio: this is a Raspberry Pi 4 Model B Rev 1.5")
    the_one(notes, "serial device usb-MicroPython_Board_in_FS_mode")


def test_the_report_marks_fixes_and_counts_them() -> None:
    report = render(
        [
            Finding("ok", "user", "fine"),
            Finding("fix", "display", "plug the screen in"),
            Finding("note", "grid", "no grid"),
        ]
    )
    assert report.splitlines() == [
        "user     ok    fine",
        "display  FIX   plug the screen in",
        "grid     note  no grid",
        "1 thing to fix (the FIX lines above).",
    ]
    assert render([Finding("ok", "user", "fine")]).endswith("Nothing to fix.")


# --- the user -----------------------------------------------------------------------------


def test_root_is_told_never_to_run_the_table(pi: FakePi) -> None:
    pi.system.uid = 0
    the_one(pi.fixes(), "user: running as root", "never run as root")


def test_a_missing_group_says_how_to_join_it(pi: FakePi) -> None:
    pi.system.user_groups.discard("input")
    pi.system.process_groups.discard("input")
    assert the_one(pi.fixes(), "group input") == (
        "user: pi is not in the group input: sudo usermod -aG input pi "
        "(deploy/install.sh does it), then log in again"
    )


def test_a_group_joined_since_the_login_needs_a_new_login(pi: FakePi) -> None:
    pi.system.process_groups -= {"dialout", "video"}
    assert pi.fixes() == []
    the_one(lines(pi, "note"), "joined dialout video after this login", "log out and in again")


def test_a_system_without_a_gpio_group_is_only_a_note(pi: FakePi) -> None:
    pi.system.existing_groups.discard("gpio")
    pi.system.user_groups.discard("gpio")
    assert pi.fixes() == []
    the_one(lines(pi, "note"), "no group gpio")


# --- the config ---------------------------------------------------------------------------


def test_each_bad_config_value_is_a_fix_naming_the_key(pi: FakePi) -> None:
    pi.write_config("[display]\nrotation = 45\n[grid]\nbaud = 7\n")
    fixes = pi.fixes()
    the_one(fixes, "config:", "display.rotation = 45 is not allowed", "Using the default, 0")
    the_one(fixes, "config:", "grid.baud = 7 is not allowed")


def test_no_config_file_is_a_note_and_the_defaults(pi: FakePi) -> None:
    (pi.config_dir / "companion.toml").unlink()
    findings = diagnose(None, pi.system)  # the default path, through XDG_CONFIG_HOME
    assert [f for f in findings if f.status == "fix"] == []
    assert any("every key at its default" in f.text for f in findings)


# --- the display --------------------------------------------------------------------------


def test_no_drm_device_means_no_kms_driver(pi: FakePi) -> None:
    for card in (pi.root / "dev/dri").iterdir():
        card.unlink()
    the_one(pi.fixes(), "display: no /dev/dri/card*", "dtoverlay=vc4-kms-v3d")


def test_a_drm_device_the_user_cannot_open_needs_video_and_render(pi: FakePi) -> None:
    pi.denied.add("/dev/dri/card1")
    the_one(pi.fixes(), "cannot open /dev/dri/card1", "video and render")


def test_no_connected_screen_is_a_fix(pi: FakePi) -> None:
    pi.write("sys/class/drm/card1-DSI-1/status", "disconnected\n")
    the_one(pi.fixes(), "display: no screen is connected")


def test_a_read_only_backlight_is_a_fix_and_no_backlight_a_note(pi: FakePi) -> None:
    pi.denied.add("/sys/class/backlight/10-0045/brightness")
    the_one(pi.fixes(), "backlight 10-0045 is not writable", "udev rule")
    pi.denied.clear()
    (pi.root / "sys/class/backlight/10-0045/brightness").unlink()
    (pi.root / "sys/class/backlight/10-0045").rmdir()
    assert pi.fixes() == []
    the_one(lines(pi, "note"), "no backlight control", "the app dims by drawing")


def test_console_blanking_is_a_note(pi: FakePi) -> None:
    pi.write("sys/module/kernel/parameters/consoleblank", "600\n")
    the_one(lines(pi, "note"), "blanks after 600 s", "consoleblank=0")


def test_a_desktop_session_is_a_note(pi: FakePi) -> None:
    pi.environ["WAYLAND_DISPLAY"] = "wayland-1"
    the_one(lines(pi, "note"), "a desktop session is running here (WAYLAND_DISPLAY set)")


# --- the touchscreen ----------------------------------------------------------------------


def test_two_touch_providers_in_the_kiosk_kivy_config_are_a_fix(pi: FakePi) -> None:
    ini = pi.config_dir / "kivy" / "config.ini"
    ini.write_text(ini.read_text().replace("[input]\n", "[input]\nmouse = mouse\n"))
    fix = the_one(pi.fixes(), "touch:", "2 input providers")
    assert "every touch would count 2 times" in fix
    assert "deploy/kivy-pi.ini" in fix


def test_two_touch_providers_in_the_users_own_kivy_config_are_a_note(pi: FakePi) -> None:
    pi.write("home/pi/.kivy/config.ini", "[input]\nmouse = mouse\n%(name)s = probesysfs\n")
    assert pi.fixes() == []
    the_one(lines(pi, "note"), "this user's Kivy config", "2 input providers")


def test_no_touchscreen_is_a_fix(pi: FakePi) -> None:
    for name in ("name", "capabilities/abs", "capabilities/key"):
        (pi.root / f"sys/class/input/event0/device/{name}").unlink()
    the_one(pi.fixes(), "touch: no touchscreen found")


def test_an_unreadable_touchscreen_needs_the_input_group(pi: FakePi) -> None:
    pi.denied.add("/dev/input/event0")
    the_one(pi.fixes(), "'raspberrypi-ts' on /dev/input/event0 is not readable", "input")


def test_a_single_touch_panel_is_pointed_at_hidinput(pi: FakePi) -> None:
    pi.touch_panel("event4", "ADS7846 Touchscreen", ABS_SINGLE, KEY_TOUCH)
    the_one(lines(pi, "ok"), "single-touch panel 'ADS7846 Touchscreen' on /dev/input/event4")
    the_one(
        lines(pi, "note"),
        'display.touch_provider = "hidinput" and display.touch_device = "/dev/input/event4"',
    )


def test_a_missing_touch_device_and_a_missing_libmtdev_are_fixes(pi: FakePi) -> None:
    pi.write_config('[display]\ntouch_device = "/dev/input/by-path/nothing-event"\n')
    pi.libraries.clear()
    fixes = pi.fixes()
    the_one(fixes, "display.touch_device = '/dev/input/by-path/nothing-event' does not exist")
    the_one(fixes, "libmtdev is missing", "apt install libmtdev1")


def test_capability_bitmaps_are_read_word_by_word() -> None:
    assert doctor._bits("3") == {0, 1}
    assert 0x35 in doctor._bits(ABS_MT)
    assert 0x14A in doctor._bits(KEY_TOUCH)
    assert doctor._bits("1 0") == {64} or doctor._bits("1 0") == {32}


# --- GPIO ---------------------------------------------------------------------------------


def test_the_die_pins_are_shown_with_their_physical_pins(pi: FakePi) -> None:
    pi.write_config("[die]\nbutton_pin = 17\nled_pin = 27\nbuzzer_pin = 22\n")
    the_one(
        lines(pi, "ok"),
        "button on GPIO17 (physical pin 11); LED on GPIO27 (physical pin 13); "
        "buzzer on GPIO22 (physical pin 15)",
    )


def test_gpio_the_user_cannot_open_needs_the_gpio_group(pi: FakePi) -> None:
    pi.denied.add("/dev/gpiochip0")
    the_one(pi.fixes(), "gpio: /dev/gpiochip0 not usable by pi", "gpio")


def test_no_pin_library_on_a_pi_is_a_fix(pi: FakePi) -> None:
    pi.modules.clear()
    the_one(pi.fixes(), "no GPIO pin library", "python3-lgpio")


def test_no_gpio_off_a_pi_is_only_a_note(pi: FakePi) -> None:
    (pi.root / "proc/device-tree/model").unlink()
    (pi.root / "dev/gpiochip0").unlink()
    assert pi.fixes() == []
    the_one(lines(pi, "note"), "no /dev/gpiochip*", "the on-screen die still works")


def test_no_die_button_needs_no_gpio(pi: FakePi) -> None:
    pi.write_config("[die]\nbutton_pin = false\n")
    (pi.root / "dev/gpiochip0").unlink()
    assert pi.fixes() == []
    the_one(lines(pi, "ok"), "no die button, LED or buzzer configured")


# --- the grid -----------------------------------------------------------------------------


def test_a_pico_without_the_stable_name_is_pointed_at_the_udev_rule(pi: FakePi) -> None:
    (pi.root / "dev/smallworld-grid").unlink()
    fix = the_one(pi.fixes(), "a Pico is plugged in")
    assert 'grid.port = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_' in fix


def test_no_grid_plugged_in_is_only_a_note(pi: FakePi) -> None:
    for link in (pi.root / "dev/serial/by-id").iterdir():
        link.unlink()
    (pi.root / "dev/smallworld-grid").unlink()
    assert pi.fixes() == []
    the_one(lines(pi, "note"), "no grid plugged in", "the game carries on by hand")


def test_a_grid_port_the_user_cannot_open_needs_dialout(pi: FakePi) -> None:
    pi.denied.add("/dev/smallworld-grid")
    the_one(pi.fixes(), "grid port /dev/smallworld-grid is not usable", "dialout")


def test_a_missing_udev_rule_is_a_fix(pi: FakePi) -> None:
    (pi.root / "etc/udev/rules.d/60-smallworld-companion.rules").unlink()
    the_one(pi.fixes(), "60-smallworld-companion.rules is missing")


def test_no_grid_configured_checks_nothing_serial(pi: FakePi) -> None:
    pi.write_config('[grid]\nport = ""\n')
    (pi.root / "etc/udev/rules.d/60-smallworld-companion.rules").unlink()
    assert pi.fixes() == []
    the_one(lines(pi, "ok"), 'no sensor grid configured (grid.port = "")')


# --- the database -------------------------------------------------------------------------


def test_a_database_not_there_yet_is_created_by_the_app(pi: FakePi) -> None:
    pi.database.unlink()
    assert pi.fixes() == []
    the_one(lines(pi, "ok"), "does not exist yet; the app will create it")


def test_a_database_that_is_not_sqlite_is_a_fix(pi: FakePi) -> None:
    pi.database.write_bytes(b"this is not a database at all")
    the_one(pi.fixes(), "database:", "is not an SQLite database")


def test_a_damaged_database_is_a_fix(pi: FakePi) -> None:
    data = bytearray(pi.database.read_bytes())
    data[100:] = b"\xff" * (len(data) - 100)  # keep the header, ruin the pages
    pi.database.write_bytes(bytes(data))
    fix = the_one(pi.fixes(), "database:")
    assert "is damaged" in fix or "cannot be checked" in fix


def test_a_database_the_user_cannot_write_is_a_fix(pi: FakePi) -> None:
    pi.denied.add("/home/pi/.local/share/smallworld-companion/companion.sqlite3")
    the_one(pi.fixes(), "database:", "not writable by pi", "run as root")


def test_a_database_elsewhere_is_checked_there(pi: FakePi, tmp_path: Path) -> None:
    pi.write_config(f'[storage]\ndatabase = "{pi.root}/srv/games/table.sqlite3"\n')
    pi.denied.add("/srv")
    (pi.root / "srv").mkdir()
    the_one(pi.fixes(), "database:", "cannot be created", f"{pi.root}/srv is not writable")


# --- the service --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answers", "status", "words"),
    [
        ({"is-enabled": (1, "not-found")}, "note", ("is not installed", "deploy/install.sh")),
        ({"is-enabled": (1, "disabled")}, "fix", ("is disabled", "sudo systemctl enable")),
        (
            {"is-enabled": (0, "enabled"), "is-active": (3, "failed")},
            "fix",
            ("failed", "journalctl -u smallworld-companion -b", "reset-failed"),
        ),
        (
            {"is-enabled": (0, "enabled"), "is-active": (3, "inactive")},
            "note",
            ("is inactive (it starts at boot)",),
        ),
    ],
)
def test_the_service_state(
    pi: FakePi, answers: dict[str, tuple[int, str]], status: str, words: tuple[str, ...]
) -> None:
    pi.services = answers
    the_one(lines(pi, status), "service:", *words)


def test_no_systemctl_is_a_note(pi: FakePi) -> None:
    pi.system.systemctl = lambda arguments: None
    the_one(lines(pi, "note"), "no systemctl here")


# --- the clock ----------------------------------------------------------------------------


def test_a_clock_set_by_systemd_timesyncd_is_ok(pi: FakePi) -> None:
    pi.clock = None  # the file is enough: timedatectl is not asked
    the_one(lines(pi, "ok"), "clock:", "set from the network (systemd-timesyncd)")


@pytest.mark.parametrize(
    ("answer", "status", "words"),
    [
        ((0, "NTP=yes\nNTPSynchronized=yes"), "ok", ("set from the network",)),
        (
            (0, "NTP=yes\nNTPSynchronized=no"),
            "fix",
            ("not set from the network", "wrong date", "network", "sudo date -s"),
        ),
        ((0, "NTP=no\nNTPSynchronized=no"), "fix", ("sudo timedatectl set-ntp true",)),
        (None, "note", ("cannot tell whether the clock is right", "date")),
        ((1, ""), "note", ("cannot tell whether the clock is right",)),
    ],
)
def test_the_clock_without_timesyncds_mark_is_asked_of_timedatectl(
    pi: FakePi, answer: tuple[int, str] | None, status: str, words: tuple[str, ...]
) -> None:
    (pi.root / "run/systemd/timesync/synchronized").unlink()
    pi.clock = answer
    the_one(lines(pi, status), "clock:", *words)
    assert [f for f in pi.diagnose() if f.area == "clock"] == [
        f for f in pi.diagnose() if f.area == "clock" and f.status == status
    ]


# --- the real command ---------------------------------------------------------------------


def test_the_command_reports_and_exits_1_when_something_needs_fixing(
    pi: FakePi, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    current: Callable[[], System] = lambda: pi.system  # noqa: E731
    monkeypatch.setattr(doctor.System, "current", staticmethod(current))
    config = pi.config_dir / "companion.toml"
    assert main(["doctor", "--config", str(config)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "Nothing to fix."
    pi.write_config("[die]\nbutton_pin = 99\n")
    assert main(["doctor", "--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("companion doctor: what works here and what to fix\n")
    assert "die.button_pin = 99" in out
    assert out.splitlines()[-1] == "1 thing to fix (the FIX lines above)."


def test_the_command_runs_on_this_machine(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "KIVY_HOME": str(tmp_path / "kivy"),
    }
    done = subprocess.run(
        [sys.executable, "-m", "companion", "doctor"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    assert done.stdout.startswith("companion doctor: what works here and what to fix\n")
    assert "Traceback" not in done.stderr
    assert "kivy" not in done.stderr.lower(), "the doctor must not import Kivy"


# --- the group's own boards -----------------------------------------------------------------


def _board_file(name: str, text: str) -> None:
    from companion.boards import custom_boards_dir

    folder = custom_boards_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


def test_no_board_files_of_ones_own_is_only_a_note(pi: FakePi) -> None:
    assert "no board files of your own in" in the_one(lines(pi, "note"), "boards:")


def test_the_note_names_the_expansions_that_have_boards_of_their_own(pi: FakePi) -> None:
    from companion.rules import expansions
    from companion.rules.expansion import Expansion

    class Woodland(Expansion):
        name = "Woodland"
        has_boards = True

    assert the_one(lines(pi, "note"), "boards:").endswith(
        "(River World or fan boards: docs/board-format.md)")
    with expansions.extended(Woodland()):
        assert the_one(lines(pi, "note"), "boards:").endswith(
            "(River World, Woodland or fan boards: docs/board-format.md)")


def test_usable_board_files_are_named_and_a_broken_one_is_a_fix_naming_the_region(
    pi: FakePi,
) -> None:
    import json

    river = Path(__file__).parent / "data" / "river-test.json"
    _board_file("river.json", river.read_text("utf-8"))
    broken = json.loads(river.read_text("utf-8"))
    broken["name"] = "Broken River"
    broken["regions"][6]["adjacent"].append(99)
    _board_file("broken.json", json.dumps(broken))
    assert the_one(lines(pi, "ok"), "boards:") == (
        "boards: offered for a new game: River Test (3 players, River World)")
    assert the_one(pi.fixes(), "boards:").startswith("boards: boards/broken.json: region 7:")


def test_a_board_file_is_named_with_the_expansion_it_is_made_for_in_the_language_spoken(
    pi: FakePi,
) -> None:
    from companion import i18n

    river = Path(__file__).parent / "data" / "river-test.json"
    _board_file("river.json", river.read_text("utf-8"))
    i18n.use("fr")
    assert the_one(lines(pi, "ok"), "boards:") == (
        "boards: proposés pour une nouvelle partie\u00a0: River Test (3 joueurs, River World)")
    i18n.use("de")
    assert the_one(lines(pi, "ok"), "boards:").endswith("River Test (3 Spieler, River World)")
