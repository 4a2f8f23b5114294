"""The appliance part of the Pi deployment: the sandboxed unit, its watchdog, the polkit rule
for Shut down / Restart / the USB stick, and ``install.sh --read-only-root``.

- The unit as ``install.sh`` renders it, on both display paths, is rated 4.9 or lower by
  ``systemd-analyze security --offline=yes`` (the threshold's exit status and the printed
  "Overall exposure level" both), and still writes exactly where the app writes.
- The polkit rule, as rendered for the fake user, is real JavaScript run by node against a
  stand-in ``polkit`` object: "yes" for that user and the eight actions, not handled for
  anyone or anything else.
- ``--read-only-root`` runs as a dry run against the fake user of ``test_deploy.py``: it
  checks raspi-config, the data partition and ``/etc/fstab`` before changing anything, and
  the command it prints to set ``storage.database`` really sets it.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from test_deploy import (
    INSTALL,
    UNINSTALL,
    FakeMachine,
    _lines_with,
    _rendered_unit,
    _require_tool,
    _unit_values,
    systemd_analyze,
)

from companion.config import load_config

__all__ = ["systemd_analyze"]  # the fixture, shared with test_deploy.py

MAX_EXPOSURE = 4.9
USER = "tableuser"
ALLOWED_ACTIONS = {
    "org.freedesktop.login1.power-off",
    "org.freedesktop.login1.power-off-multiple-sessions",
    "org.freedesktop.login1.reboot",
    "org.freedesktop.login1.reboot-multiple-sessions",
    "org.freedesktop.udisks2.filesystem-mount",
    "org.freedesktop.udisks2.filesystem-mount-other-seat",
    "org.freedesktop.udisks2.power-off-drive",
    "org.freedesktop.udisks2.eject-media",
}
POLKIT_FILE = "/etc/polkit-1/rules.d/50-smallworld-companion.rules"


@pytest.fixture
def machine(tmp_path: Path) -> FakeMachine:
    return FakeMachine(tmp_path)


def _words(unit: str, key: str) -> list[str]:
    return [word for value in _unit_values(unit, key) for word in value.split()]


# --- the sandbox --------------------------------------------------------------------------


@pytest.mark.parametrize("display", ["kms", "cage"])
def test_the_installed_unit_is_rated_4_9_or_lower_by_systemd_analyze_security(
    machine: FakeMachine, systemd_analyze: str, tmp_path: Path, display: str
) -> None:
    unit = tmp_path / "units" / "smallworld-companion.service"
    unit.parent.mkdir()
    unit.write_text(_rendered_unit(machine, "--display", display))
    command = [systemd_analyze, "security", "--offline=yes", "--no-pager"]
    rated = subprocess.run([*command, str(unit)], capture_output=True, text=True, check=False)
    match = re.search(r"Overall exposure level for smallworld-companion\.service: (\d+\.\d)",
                      rated.stdout)
    assert match, rated.stdout + rated.stderr
    assert float(match.group(1)) <= MAX_EXPOSURE, rated.stdout
    threshold = f"--threshold={round(MAX_EXPOSURE * 10)}"
    checked = subprocess.run(
        [*command, threshold, str(unit)], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_threshold_check_does_fail_an_exposed_unit(
    systemd_analyze: str, tmp_path: Path
) -> None:
    """The check above can fail: the unit as it was before hardening is rated above 4.9."""
    unit = tmp_path / "bare.service"
    unit.write_text(
        "[Service]\nType=simple\nUser=tableuser\nExecStart=/bin/true\n"
        "NoNewPrivileges=yes\nProtectSystem=full\nPrivateTmp=yes\n"
    )
    done = subprocess.run(
        [systemd_analyze, "security", "--offline=yes", "--threshold=49", str(unit)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0, done.stdout


def test_the_unit_sees_the_system_read_only_and_writes_only_where_the_app_writes(
    machine: FakeMachine,
) -> None:
    unit = _rendered_unit(machine)
    assert _unit_values(unit, "ProtectSystem") == ["strict"]
    assert _unit_values(unit, "ProtectHome") == ["read-only"]
    assert _unit_values(unit, "UMask") == ["0077"]
    home = machine.home
    assert set(_words(unit, "ReadWritePaths")) == {
        f"-{home}/.local/share/smallworld-companion",  # the games, the backups, the venv
        f"-{home}/.config/smallworld-companion",  # companion.toml, the Kivy home
        "-/media",  # the USB stick, as udisks2 mounts it on Debian
        "-/run/media",  # ... and elsewhere
        "-/run/user/1000",  # cage's Wayland socket
        "-/sys/devices/platform",  # the backlight's brightness
    }
    assert _unit_values(unit, "CacheDirectory") == ["smallworld-companion"]
    assert "XDG_CACHE_HOME=/var/cache/smallworld-companion" in _words(unit, "Environment")


def test_the_working_folder_is_one_the_unit_may_write_for_the_gpio_library(
    machine: FakeMachine,
) -> None:
    """lgpio (gpiozero's pin library on Raspberry Pi OS) makes a pipe in the working
    folder: a read-only home there would leave the die button dead."""
    unit = _rendered_unit(machine)
    data = f"{machine.home}/.local/share/smallworld-companion"
    assert _unit_values(unit, "WorkingDirectory") == [data]
    assert f"-{data}" in _words(unit, "ReadWritePaths")
    assert f"LG_WD={data}" in _words(unit, "Environment")


def test_the_unit_may_write_the_database_where_companion_toml_puts_it(
    machine: FakeMachine, tmp_path: Path
) -> None:
    machine.everything_in_place()
    games = tmp_path / "games"
    (machine.config_dir / "companion.toml").write_text(
        f'[storage]\ndatabase = "{games}/table.sqlite3"\n'
    )
    assert f"-{games}" in _words(_rendered_unit(machine), "ReadWritePaths")


def test_the_unit_has_no_capabilities_no_ip_and_only_local_sockets(machine: FakeMachine) -> None:
    unit = _rendered_unit(machine)
    assert _unit_values(unit, "CapabilityBoundingSet") == [""]
    assert _unit_values(unit, "AmbientCapabilities") == [""]
    assert _unit_values(unit, "NoNewPrivileges") == ["yes"]
    assert _unit_values(unit, "IPAddressDeny") == ["any"]
    assert _words(unit, "RestrictAddressFamilies") == ["AF_UNIX", "AF_NETLINK"]
    assert _unit_values(unit, "SystemCallFilter") == ["@system-service"]
    assert _unit_values(unit, "SystemCallArchitectures") == ["native"]
    for key in (
        "ProtectKernelTunables",
        "ProtectKernelModules",
        "ProtectKernelLogs",
        "ProtectControlGroups",
        "ProtectClock",
        "ProtectHostname",
        "RestrictNamespaces",
        "LockPersonality",
        "RestrictSUIDSGID",
        "RestrictRealtime",
        "PrivateTmp",
    ):
        assert _unit_values(unit, key) == ["yes"], key
    assert _unit_values(unit, "ProtectProc") == ["invisible"]
    # The screen, touch, tty1, GPIO and the grid are real devices; udev hotplug events
    # reach only the host's network namespace.
    assert not _unit_values(unit, "PrivateDevices")
    assert not _unit_values(unit, "PrivateNetwork")
    assert not _unit_values(unit, "DeviceAllow")


# --- the watchdog -------------------------------------------------------------------------


@pytest.mark.parametrize("display", ["kms", "cage"])
def test_a_silent_app_is_killed_and_restarted_by_the_watchdog(
    machine: FakeMachine, display: str
) -> None:
    unit = _rendered_unit(machine, "--display", display)
    assert _unit_values(unit, "WatchdogSec") == ["30"]
    # On the cage path the app is cage's child: its pings must count.
    assert _unit_values(unit, "NotifyAccess") == ["all"]
    assert _unit_values(unit, "Type") == ["simple"]
    # A watchdog kill is a failure, restarted within the same start limit as a crash.
    assert _unit_values(unit, "Restart") == ["on-failure"]
    assert _unit_values(unit, "StartLimitBurst") == ["5"]


# --- the polkit rule ----------------------------------------------------------------------


def _polkit_rule(machine: FakeMachine) -> str:
    done = machine.run(INSTALL, "--print-polkit")
    assert done.returncode == 0, done.stderr
    assert machine.sudo_calls() == []
    return done.stdout


def test_the_polkit_rule_names_only_the_user_and_only_the_eight_actions(
    machine: FakeMachine,
) -> None:
    rule = _polkit_rule(machine)
    code = "\n".join(line for line in rule.splitlines() if not line.lstrip().startswith("//"))
    assert not re.search(r"@[A-Z_]+@", rule)
    assert set(re.findall(r'"(org\.freedesktop\.[a-z0-9.-]+)"', code)) == ALLOWED_ACTIONS
    assert re.findall(r'subject\.user === "([^"]*)"', code) == [USER]
    assert re.findall(r'"([^"]*)"', code) == [*sorted(ALLOWED_ACTIONS, key=code.index), USER]
    assert "filesystem-unmount-others" not in code
    assert "polkit.Result.NO" not in code.replace("polkit.Result.NOT", "")


NODE_PROBE = r"""
// node -e: process.argv is [node, rule file, questions as JSON]
const vm = require("vm");
const fs = require("fs");
const rules = [];
const polkit = {
    Result: {NO: "no", YES: "yes", AUTH_SELF: "auth_self", AUTH_ADMIN: "auth_admin"},
    addRule: (rule) => rules.push(rule),
    log: () => {},
};
vm.runInNewContext(fs.readFileSync(process.argv[1], "utf8"), {polkit: polkit});
const questions = JSON.parse(process.argv[2]);
const answers = questions.map(([user, action]) => {
    for (const rule of rules) {
        const answer = rule({id: action}, {user: user, local: true, active: true});
        if (answer !== null && answer !== undefined) return answer;
    }
    return null;
});
console.log(JSON.stringify({rules: rules.length, answers: answers}));
"""


def test_polkit_allows_the_user_those_actions_and_nobody_anything_else(
    machine: FakeMachine, tmp_path: Path
) -> None:
    node = _require_tool("node", "nodejs")
    rule = tmp_path / "50-smallworld-companion.rules"
    rule.write_text(_polkit_rule(machine))
    others = [
        "org.freedesktop.login1.halt",
        "org.freedesktop.login1.suspend",
        "org.freedesktop.login1.set-wall-message",
        "org.freedesktop.udisks2.filesystem-unmount-others",
        "org.freedesktop.udisks2.modify-device",
        "org.freedesktop.systemd1.manage-units",
        "org.freedesktop.login1.power-off.extra",
        "",
    ]
    questions = (
        [[USER, action] for action in sorted(ALLOWED_ACTIONS)]
        + [[USER, action] for action in others]
        + [[user, action] for user in ("root", "pi", "tableuser2", "") for action in
           sorted(ALLOWED_ACTIONS)]
    )
    done = subprocess.run(
        [node, "-e", NODE_PROBE, "--", str(rule), json.dumps(questions)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["rules"] == 1
    answers = dict(zip(map(tuple, questions), report["answers"], strict=True))
    for (user, action), answer in answers.items():
        expected = "yes" if user == USER and action in ALLOWED_ACTIONS else None
        assert answer == expected, (user, action, answer)


def test_the_installer_installs_the_polkit_rule_and_the_uninstaller_removes_it(
    machine: FakeMachine,
) -> None:
    out = machine.run(INSTALL, "--dry-run").stdout
    [install] = [line for line in _lines_with(out, "would run:") if line.endswith(POLKIT_FILE)]
    assert install.strip().startswith("would run: sudo install -D -m 644 ")
    assert machine.sudo_calls() == []
    removed = machine.run(UNINSTALL, "--dry-run").stdout
    # Not on this machine: the uninstaller says it is already gone, or removes it.
    assert _lines_with(removed, POLKIT_FILE)


# --- the read-only root -------------------------------------------------------------------


class ReadOnlyRoot:
    """A data folder on a partition of its own (/dev/shm is a mount of its own), in fstab."""

    def __init__(self, machine: FakeMachine) -> None:
        self.machine = machine
        self.data_dir = Path("/dev/shm") / f"companion-test-{uuid.uuid4().hex}" / "games"
        self.fstab = machine.tmp / "fstab"
        self.fstab.write_text(
            "proc /proc proc defaults 0 0\n"
            "PARTUUID=1234-01 /boot/firmware vfat defaults 0 2\n"
            "PARTUUID=1234-02 / ext4 defaults,noatime 0 1\n"
            "tmpfs /dev/shm tmpfs defaults 0 0\n"
        )
        machine.env["FSTAB_FILE"] = str(self.fstab)
        self.raspi_config = machine.shims / "raspi-config"

    def with_raspi_config(self) -> None:
        self.raspi_config.write_text('#!/bin/sh\necho "raspi-config $*" >> "$FAKE_LOG"\n')
        self.raspi_config.chmod(0o755)

    def install(self, *args: str) -> subprocess.CompletedProcess[str]:
        return self.machine.run(INSTALL, "--dry-run", "--read-only-root", *args)


@pytest.fixture
def ro(machine: FakeMachine) -> ReadOnlyRoot:
    return ReadOnlyRoot(machine)


def _refused_without_a_change(ro: ReadOnlyRoot, *args: str) -> str:
    before = ro.machine.snapshot()
    for dry in ([], ["--dry-run"]):
        done = ro.machine.run(INSTALL, *dry, "--read-only-root", *args)
        assert done.returncode == 1, done.stdout + done.stderr
        assert "Nothing was changed" in done.stderr
        assert "== 1." not in done.stdout, "it stops before the first step"
    assert ro.machine.sudo_calls() == []
    assert ro.machine.snapshot() == before
    assert not ro.data_dir.parent.exists()
    return done.stderr


def test_without_raspi_config_the_read_only_root_is_refused_and_nothing_changes(
    ro: ReadOnlyRoot,
) -> None:
    message = _refused_without_a_change(ro, str(ro.data_dir))
    assert "needs raspi-config" in message
    assert "deploy/README.md" in message


def test_a_data_folder_on_the_root_partition_is_refused(ro: ReadOnlyRoot, tmp_path: Path) -> None:
    ro.with_raspi_config()
    on_root = tmp_path / "games"
    if subprocess.run(["stat", "-c", "%m", str(tmp_path)], capture_output=True,
                      text=True, check=True).stdout.strip() != "/":
        on_root = Path("/var/tmp") / f"companion-test-{uuid.uuid4().hex}"
    message = _refused_without_a_change(ro, str(on_root))
    assert "is on the root partition" in message
    assert "lost at the next reboot" in message


def test_a_data_partition_missing_from_fstab_is_refused(ro: ReadOnlyRoot) -> None:
    ro.with_raspi_config()
    ro.fstab.write_text("PARTUUID=1234-02 / ext4 defaults,noatime 0 1\n")
    message = _refused_without_a_change(ro, str(ro.data_dir))
    assert "not listed in" in message and str(ro.fstab) in message


@pytest.mark.parametrize("folder", ["games", "/data/../etc", "/data/with space"])
def test_the_read_only_root_takes_only_a_plain_absolute_folder(
    machine: FakeMachine, folder: str
) -> None:
    done = machine.run(INSTALL, "--dry-run", f"--read-only-root={folder}")
    assert done.returncode == 2
    assert "--read-only-root takes an absolute folder" in done.stderr
    assert machine.sudo_calls() == []


def test_the_read_only_root_dry_run_shows_every_step_and_changes_nothing(
    ro: ReadOnlyRoot,
) -> None:
    ro.with_raspi_config()
    machine = ro.machine
    machine.everything_in_place()
    before = machine.snapshot()
    done = ro.install(str(ro.data_dir))
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert machine.sudo_calls() == []
    assert machine.snapshot() == before
    assert not ro.data_dir.parent.exists()
    assert "raspi-config" not in (machine.log.read_text() if machine.log.exists() else "")
    steps = re.findall(r"^== (\d+)\.", out, flags=re.M)
    assert steps == [str(n) for n in range(1, 11)]
    user = "tableuser"
    assert _lines_with(
        out, f"would run: sudo install -d -m 700 -o {user} -g {user} {ro.data_dir}"
    )
    assert _lines_with(out, "would run: sudo raspi-config nonint do_overlayfs 0")
    # The unit may write the data folder.
    unit = _rendered_unit(machine, "--read-only-root", str(ro.data_dir))
    assert f"-{ro.data_dir}" in _words(unit, "ReadWritePaths")
    # What is left by hand: the check after the reboot, and how to change the system later.
    left = out.split("Left to do:")[1]
    assert f"findmnt --target {ro.data_dir}" in left
    assert "do_overlayfs 1" in left
    assert "reboot" in left


def test_the_printed_command_sets_storage_database_to_the_data_folder(
    ro: ReadOnlyRoot, tmp_path: Path
) -> None:
    ro.with_raspi_config()
    ro.machine.everything_in_place()
    out = ro.install(str(ro.data_dir)).stdout
    [line] = _lines_with(out, "save_config_values")
    words = shlex.split(line.split("would run: ", 1)[1])
    assert words[0] == f"{ro.machine.venv}/bin/python"
    config = ro.machine.config_dir / "companion.toml"
    assert words[-1] == str(config)
    done = subprocess.run([sys.executable, *words[1:]], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    loaded, warnings = load_config(config)
    assert warnings == []
    assert loaded.storage.database == ro.data_dir / "companion.sqlite3"
    assert loaded.die.button_pin == 5, "the other keys are kept"
    # Run again: the key is in place, and the overlay already on is left as it is.
    ro.machine.cmdline.write_text("console=tty1 root=PARTUUID=1234-02 consoleblank=0 "
                                  "boot=overlay\n")
    again = ro.install(str(ro.data_dir)).stdout
    assert not _lines_with(again, "save_config_values")
    assert _lines_with(again, f"storage.database in {config} is {ro.data_dir}")
    assert _lines_with(again, "the overlay file system is on")
    assert not _lines_with(again, "do_overlayfs 0")


def test_the_games_saved_so_far_are_named_to_be_moved_to_the_data_folder(ro: ReadOnlyRoot) -> None:
    ro.with_raspi_config()
    ro.machine.everything_in_place()
    saved = ro.machine.venv.parent / "companion.sqlite3"
    saved.write_bytes(b"SQLite format 3\x00")
    left = ro.install(str(ro.data_dir)).stdout.split("Left to do:")[1]
    assert f"mv {saved}* {saved.parent}/backups {ro.data_dir}/" in left
    assert "sudo systemctl stop smallworld-companion.service" in left


def test_uninstall_refuses_a_read_only_root(machine: FakeMachine) -> None:
    machine.cmdline.write_text("console=tty1 root=PARTUUID=1234-02 boot=overlay\n")
    done = machine.run(UNINSTALL, "--dry-run")
    assert done.returncode == 1
    assert "do_overlayfs 1" in done.stderr
    assert machine.sudo_calls() == []
