"""The Pi deployment in ``deploy/``: scripts, systemd unit, Kivy kiosk config, udev rules.

- Every shell script is shellcheck clean; ``systemd-analyze verify`` accepts the unit as
  the installer renders it. Both tools are system packages: when one is missing, the test
  installs it with apt-get if it can (root, or sudo without a password) and otherwise
  fails saying how to install it; it never skips.
- ``install.sh --dry-run`` runs for real against a fake user: ``id``, ``getent``,
  ``dpkg-query``, ``apt-cache``, ``systemctl`` and ``sudo`` are stand-ins on ``PATH``
  (``sudo`` records any call, and a dry run must make none), so each step it prints can be
  checked on a fresh machine and on one where everything is already in place.
- The shipped Kivy config names exactly one touch input provider, and the installed Kivy
  really starts with it without adding its default ``mouse`` provider (which would count
  every touch twice); kiosk mode applies ``companion.toml`` over Kivy's own defaults.

The real installation, inside a Debian 12 root made with debootstrap, is
``deploy/deploy-check.sh`` (``make deploy-check``), not part of this suite.
"""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion import kivy_config
from companion.cli import build_parser
from companion.commands import discover
from companion.config import DEFAULT_GRID_PORT, Config, DisplayConfig, default_config_path

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
INSTALL = DEPLOY / "install.sh"
UNINSTALL = DEPLOY / "uninstall.sh"
KIVY_INI = DEPLOY / kivy_config.SHIPPED_INI_NAME
UNIT_TEMPLATE = DEPLOY / "smallworld-companion.service.in"
UDEV_RULES = DEPLOY / "60-smallworld-companion.rules"
KIOSK_GROUPS = ("gpio", "dialout", "video", "render", "input", "audio")
PACKAGES = [
    *("python3", "python3-venv", "ca-certificates", "libpam-systemd"),
    *("libegl1", "libgl1", "libgles2", "libegl-mesa0", "libgl1-mesa-dri", "libgbm1", "libdrm2"),
    "libmtdev1",
    *("udisks2", "polkitd"),
]


# --- system tools -------------------------------------------------------------------------


def _require_tool(command: str, package: str) -> str:
    """The path of ``command``, installing ``package`` with apt-get if it is missing."""
    found = shutil.which(command)
    if found:
        return found
    apt = shutil.which("apt-get")
    sudo: list[str] = []
    if os.geteuid() != 0:
        can_sudo = shutil.which("sudo") and (
            subprocess.run(["sudo", "-n", "true"], capture_output=True, check=False).returncode == 0
        )
        sudo = ["sudo", "-n"] if can_sudo else []
    if apt and (os.geteuid() == 0 or sudo):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run([*sudo, "apt-get", "update", "-qq"], check=False, env=env)
        subprocess.run(
            [*sudo, "apt-get", "install", "-y", "-qq", "--no-install-recommends", package],
            check=False,
            env=env,
        )
        found = shutil.which(command)
        if found:
            return found
    pytest.fail(
        f"{command} is needed for this check and could not be installed here: run "
        f"'sudo apt-get install {package}' (make test installs it: the Makefile's test-deps)"
    )


@pytest.fixture(scope="session")
def shellcheck() -> str:
    return _require_tool("shellcheck", "shellcheck")


@pytest.fixture(scope="session")
def systemd_analyze() -> str:
    return _require_tool("systemd-analyze", "systemd")


# --- a fake user for the installer -------------------------------------------------------

SHIMS = {
    # Who runs the script: the fake user, or uid 0 when FAKE_UID says so.
    "id": """
        case "$*" in
            -u) echo "${FAKE_UID:-1000}" ;;
            -un | -gn) echo "$FAKE_USER" ;;
            "-nG $FAKE_USER") echo "$FAKE_GROUPS" ;;
            *) echo "fake id: unexpected: $*" >&2; exit 1 ;;
        esac
    """,
    "getent": """
        case "$1" in
            passwd)
                [ "$2" = "$FAKE_USER" ] || exit 2
                echo "$FAKE_USER:x:1000:1000::$FAKE_HOME:/bin/bash" && exit 0 ;;
            group)
                for g in $FAKE_EXISTING_GROUPS; do
                    [ "$g" = "$2" ] && echo "$g:x:999:" && exit 0
                done ;;
        esac
        exit 2
    """,
    "dpkg-query": """
        [ "$FAKE_PACKAGES" = installed ] && printf installed && exit 0
        exit 1
    """,
    "apt-cache": """
        exit "${FAKE_APT_CACHE:-100}"
    """,
    "systemctl": """
        echo "systemctl $*" >> "$FAKE_LOG"
        case "$1" in
            is-enabled) exit "${FAKE_ENABLED:-1}" ;;
            get-default) echo graphical.target ;;
            is-active) exit 3 ;;
        esac
    """,
    "sudo": """
        echo "sudo $*" >> "$FAKE_LOG"
        exit 99
    """,
}


class FakeMachine:
    """A fake user (home, groups, packages) and the stand-in commands that report them."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.home = tmp / "home" / "tableuser"
        self.home.mkdir(parents=True)
        self.shims = tmp / "shims"
        self.shims.mkdir()
        for name, body in SHIMS.items():
            shim = self.shims / name
            shim.write_text("#!/bin/sh\n" + textwrap.dedent(body).lstrip())
            shim.chmod(0o755)
        self.log = tmp / "calls.log"
        self.cmdline = tmp / "cmdline.txt"
        self.cmdline.write_text("console=tty1 root=PARTUUID=1234-02 rootwait quiet\n")
        self.env = {
            "PATH": f"{self.shims}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
            "FAKE_USER": "tableuser",
            "FAKE_HOME": str(self.home),
            "FAKE_GROUPS": "tableuser",
            "FAKE_EXISTING_GROUPS": "tableuser dialout video render input audio",
            "FAKE_PACKAGES": "missing",
            "FAKE_LOG": str(self.log),
            "CMDLINE_TXT": str(self.cmdline),
        }

    @property
    def config_dir(self) -> Path:
        return self.home / ".config" / "smallworld-companion"

    @property
    def venv(self) -> Path:
        return self.home / ".local" / "share" / "smallworld-companion" / "venv"

    def everything_in_place(self) -> None:
        """The state a first real run leaves behind, on the user's side."""
        self.env.update(
            FAKE_PACKAGES="installed",
            FAKE_GROUPS="tableuser " + " ".join(KIOSK_GROUPS),
            FAKE_EXISTING_GROUPS="tableuser " + " ".join(KIOSK_GROUPS),
            FAKE_ENABLED="0",
        )
        python = self.venv / "bin" / "python"
        python.parent.mkdir(parents=True)
        python.write_text("#!/bin/sh\nexit 0\n")
        python.chmod(0o755)
        (self.venv / "bin" / "companion").write_text("#!/bin/sh\nexit 0\n")
        (self.venv / "bin" / "companion").chmod(0o755)
        link = self.home / ".local" / "bin" / "companion"
        link.parent.mkdir(parents=True)
        link.symlink_to(self.venv / "bin" / "companion")
        (self.config_dir / "kivy").mkdir(parents=True)
        (self.config_dir / "companion.toml").write_text("[die]\nbutton_pin = 5\n")
        shutil.copy(KIVY_INI, self.config_dir / "kivy" / "config.ini")
        self.cmdline.write_text("console=tty1 root=PARTUUID=1234-02 rootwait consoleblank=0\n")

    def snapshot(self) -> dict[str, bytes]:
        """Every file under the fake home and the cmdline, to prove nothing changed."""
        files = {
            str(p): (p.read_bytes() if p.is_file() and not p.is_symlink() else b"")
            for p in self.home.rglob("*")
        }
        files[str(self.cmdline)] = self.cmdline.read_bytes()
        return files

    def run(self, script: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", str(script), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    def sudo_calls(self) -> list[str]:
        if not self.log.exists():
            return []
        return [line for line in self.log.read_text().splitlines() if line.startswith("sudo")]


@pytest.fixture
def machine(tmp_path: Path) -> FakeMachine:
    return FakeMachine(tmp_path)


def _lines_with(output: str, text: str) -> list[str]:
    return [line for line in output.splitlines() if text in line]


# --- shell scripts ------------------------------------------------------------------------


def test_every_shell_script_is_shellcheck_clean(shellcheck: str) -> None:
    scripts = sorted(DEPLOY.glob("*.sh"))
    assert {p.name for p in scripts} >= {"install.sh", "uninstall.sh", "deploy-check.sh"}
    done = subprocess.run(
        [shellcheck, "--severity=style", *map(str, scripts)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("script", ["install.sh", "uninstall.sh", "deploy-check.sh"])
def test_every_script_is_strict_and_executable(script: str) -> None:
    path = DEPLOY / script
    text = path.read_text()
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "\nset -euo pipefail\n" in text
    assert os.access(path, os.X_OK), f"chmod +x deploy/{script}"


# --- install.sh --dry-run -----------------------------------------------------------------


def test_a_dry_run_on_a_fresh_machine_prints_every_step_and_changes_nothing(
    machine: FakeMachine,
) -> None:
    before = machine.snapshot()
    done = machine.run(INSTALL, "--dry-run")
    out = done.stdout
    assert done.returncode == 0, done.stdout + done.stderr
    assert machine.sudo_calls() == [], "a dry run must not call sudo"
    assert machine.snapshot() == before, "a dry run must not change a file"

    # The steps, in order.
    steps = re.findall(r"^== (.*)$", out, flags=re.M)
    assert [s.split(".")[0] for s in steps[1:-1]] == [str(n) for n in range(1, 10)]
    # 1. apt packages, all of them, in one apt-get install.
    [install_line] = _lines_with(out, "apt-get install")
    assert install_line.strip().startswith("would run: sudo env DEBIAN_FRONTEND=noninteractive")
    assert install_line.split("--no-install-recommends ")[1].split() == PACKAGES
    assert _lines_with(out, "would run: sudo apt-get update")
    # 2. every group, created when the system lacks it (gpio here).
    assert _lines_with(out, "would run: sudo groupadd --system gpio")
    for group in KIOSK_GROUPS:
        assert _lines_with(out, f"would run: sudo usermod -a -G {group} tableuser"), group
    # 3. the virtual environment, seeing apt's GPIO library, and the app from the checkout.
    venv = machine.venv
    assert _lines_with(out, f"would run: python3 -m venv --system-site-packages {venv}")
    assert _lines_with(out, f"would run: {venv}/bin/python -m pip install")
    assert _lines_with(out, str(ROOT))
    # 4. the config file written because it is absent; the kiosk's Kivy config.
    config = machine.config_dir / "companion.toml"
    assert _lines_with(out, f"install -D -m 644 {DEPLOY}/companion.example.toml {config}")
    assert _lines_with(out, f"{KIVY_INI} {machine.config_dir}/kivy/config.ini")
    # 5-6. udev rules, PAM, the unit, enabled.
    for dest in (
        "/etc/udev/rules.d/60-smallworld-companion.rules",
        "/etc/pam.d/smallworld-companion",
        "/etc/systemd/system/smallworld-companion.service",
    ):
        assert _lines_with(out, "would run: sudo install -D -m 644 "), dest
        assert _lines_with(out, dest), dest
    assert _lines_with(out, "would run: sudo systemctl enable smallworld-companion.service")
    # 7. no blanking: consoleblank=0 on the kernel command line, with a backup.
    assert _lines_with(out, f"would run: sudo cp -p {machine.cmdline} {machine.cmdline}.")
    assert _lines_with(out, f"added consoleblank=0 to {machine.cmdline}")
    # The summary: what it would do and what is left.
    assert "Would do:" in out
    left = out.split("Left to do:")[1]
    assert "reboot" in left
    assert "never root" in out


def test_a_dry_run_where_everything_is_in_place_repeats_nothing(machine: FakeMachine) -> None:
    machine.everything_in_place()
    before = machine.snapshot()
    done = machine.run(INSTALL, "--dry-run")
    out = done.stdout
    assert done.returncode == 0, done.stdout + done.stderr
    assert machine.sudo_calls() == []
    assert machine.snapshot() == before
    for absent in (
        "apt-get",
        "usermod",
        "groupadd",
        "python3 -m venv",
        "ln -s",
        "consoleblank=0 to",
    ):
        assert not _lines_with(out, absent), absent
    assert not _lines_with(out, f"{DEPLOY}/companion.example.toml"), "a config is never replaced"
    for kept in (
        "system packages installed",
        *(f"tableuser is in the group {g}" for g in KIOSK_GROUPS),
        f"virtual environment {machine.venv} exists",
        "points to the app",
        "kept your",
        "kivy/config.ini is up to date",
        "smallworld-companion.service is enabled",
        "already has consoleblank=0",
    ):
        assert _lines_with(out, f"ok: {kept}") or _lines_with(out, kept), kept
    # Re-running always reinstalls the app from the checkout: that is the upgrade.
    assert _lines_with(out, f"would run: {machine.venv}/bin/python -m pip install")


def test_a_changed_kivy_config_is_put_back_as_shipped(machine: FakeMachine) -> None:
    machine.everything_in_place()
    ini = machine.config_dir / "kivy" / "config.ini"
    ini.write_text(ini.read_text() + "\n[input]\nmouse = mouse\n")
    out = machine.run(INSTALL, "--dry-run").stdout
    assert _lines_with(out, f"would run: install -D -m 644 {KIVY_INI} {ini}")
    assert _lines_with(out, f"updated {ini}")


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL])
def test_the_scripts_refuse_to_run_as_root(machine: FakeMachine, script: Path) -> None:
    machine.env["FAKE_UID"] = "0"
    done = machine.run(script, "--dry-run")
    assert done.returncode == 1
    assert "not as root" in done.stderr
    assert machine.sudo_calls() == []


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["--help"], 0, "Usage: deploy/install.sh"),
        (["--frobnicate"], 2, "unknown option: --frobnicate"),
        (["--display", "x11"], 2, "--display takes kms or cage"),
    ],
)
def test_install_options(machine: FakeMachine, args: list[str], status: int, message: str) -> None:
    done = machine.run(INSTALL, *args)
    assert done.returncode == status
    assert message in done.stdout + done.stderr
    assert machine.sudo_calls() == []


def test_the_cage_display_path_adds_cage_and_xwayland(machine: FakeMachine) -> None:
    out = machine.run(INSTALL, "--dry-run", "--display", "cage").stdout
    [install_line] = _lines_with(out, "apt-get install")
    assert install_line.split()[-2:] == ["cage", "xwayland"]


def test_python3_lgpio_is_installed_where_the_system_has_it(machine: FakeMachine) -> None:
    machine.env["FAKE_APT_CACHE"] = "0"  # Raspberry Pi OS: apt-cache knows python3-lgpio
    out = machine.run(INSTALL, "--dry-run").stdout
    [install_line] = _lines_with(out, "apt-get install")
    assert install_line.split()[-1] == "python3-lgpio"


def test_no_boot_config_leaves_the_kernel_command_line_alone(machine: FakeMachine) -> None:
    out = machine.run(INSTALL, "--dry-run", "--no-boot-config").stdout
    assert not _lines_with(out, "consoleblank=0 to")
    assert "consoleblank=0" in out.split("Left to do:")[1]


def test_uninstall_dry_run_keeps_the_players_database_unless_purged(
    machine: FakeMachine,
) -> None:
    machine.everything_in_place()
    database = machine.venv.parent / "companion.sqlite3"
    database.write_bytes(b"SQLite format 3\x00")
    before = machine.snapshot()
    kept = machine.run(UNINSTALL, "--dry-run")
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert machine.snapshot() == before
    assert machine.sudo_calls() == []
    assert _lines_with(kept.stdout, f"would run: rm -rf {machine.venv}")
    assert _lines_with(kept.stdout, f"kept the players' database {database}")
    assert not _lines_with(kept.stdout, f"rm -rf {database}")
    purged = machine.run(UNINSTALL, "--dry-run", "--purge")
    assert _lines_with(purged.stdout, f"would run: rm -rf {database}")
    assert _lines_with(purged.stdout, f"would run: rm -rf {machine.config_dir}")


# --- the systemd unit ---------------------------------------------------------------------


def _rendered_unit(machine: FakeMachine, *args: str) -> str:
    done = machine.run(INSTALL, "--print-unit", *args)
    assert done.returncode == 0, done.stderr
    assert machine.sudo_calls() == []
    return done.stdout


def _unit_values(unit: str, key: str) -> list[str]:
    return [line.split("=", 1)[1] for line in unit.splitlines() if line.startswith(f"{key}=")]


def test_systemd_analyze_verify_accepts_the_unit(
    machine: FakeMachine, systemd_analyze: str, tmp_path: Path
) -> None:
    machine.everything_in_place()  # ExecStart's program must exist for verify
    unit = tmp_path / "units" / "smallworld-companion.service"
    unit.parent.mkdir()
    unit.write_text(_rendered_unit(machine))
    done = subprocess.run(
        [systemd_analyze, "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    problems = [line for line in done.stderr.splitlines() if "smallworld-companion" in line]
    assert problems == []


def test_the_unit_runs_the_app_as_the_user_never_as_root(machine: FakeMachine) -> None:
    unit = _rendered_unit(machine)
    assert _unit_values(unit, "User") == ["tableuser"]
    assert _unit_values(unit, "Group") == ["tableuser"]
    assert "root" not in _unit_values(unit, "User")
    assert not re.search(r"@[A-Z_]+@", unit)


def test_the_unit_restarts_on_a_crash_with_a_limit_and_logs_to_the_journal(
    machine: FakeMachine,
) -> None:
    unit = _rendered_unit(machine)
    assert _unit_values(unit, "Restart") == ["on-failure"]
    assert int(_unit_values(unit, "RestartSec")[0]) >= 1
    assert _unit_values(unit, "StartLimitBurst") == ["5"]
    assert _unit_values(unit, "StartLimitIntervalSec") == ["300"]
    assert _unit_values(unit, "StandardOutput") == ["journal"]
    assert _unit_values(unit, "StandardError") == ["journal"]
    assert _unit_values(unit, "WantedBy") == ["multi-user.target"]
    assert _unit_values(unit, "OnFailure") == ["getty@tty1.service"]


def test_the_unit_is_the_kiosk_with_its_own_kivy_home(machine: FakeMachine) -> None:
    unit = _rendered_unit(machine)
    environment = " ".join(_unit_values(unit, "Environment")).split()
    assert f"{kivy_config.KIOSK_ENV}=1" in environment
    kivy_home = machine.config_dir / "kivy"
    assert f"KIVY_HOME={kivy_home}" in environment
    assert "SDL_VIDEODRIVER=kmsdrm" in environment
    # The service reads the same config as the user (doctor checks the same Kivy home).
    assert f"XDG_CONFIG_HOME={machine.home}/.config" in environment
    assert default_config_path({"XDG_CONFIG_HOME": f"{machine.home}/.config"}).parent == (
        machine.config_dir
    )


def test_the_unit_command_line_is_one_the_app_accepts(machine: FakeMachine) -> None:
    for args in ([], ["--display", "cage"]):
        unit = _rendered_unit(machine, *args)
        [exec_start] = _unit_values(unit, "ExecStart")
        words = exec_start.split()
        if args:
            assert words[:3] == ["/usr/bin/cage", "-d", "--"]
            assert "SDL_VIDEODRIVER=x11" in unit
            words = words[3:]
        assert words[0] == f"{machine.venv}/bin/companion"
        parsed = build_parser(discover()).parse_args(words[1:])
        assert parsed.command == "run"
        # Full screen comes from the kiosk's Kivy config and companion.toml, not a flag.
        assert words[1:] == ["run"]


# --- the Kivy kiosk config ----------------------------------------------------------------


def _kivy_source_constant(name: str) -> str:
    import importlib.util

    spec = importlib.util.find_spec("kivy")
    assert spec is not None and spec.origin is not None
    source = (Path(spec.origin).parent / "config.py").read_text()
    match = re.search(rf"^{name} = (\d+)$", source, flags=re.M)
    assert match, name
    return match.group(1)


def test_the_shipped_kivy_config_names_exactly_one_touch_input_provider() -> None:
    entries = kivy_config.read_input_section(KIVY_INI)
    assert kivy_config.touch_readers(entries) == entries
    assert len(entries) == 1
    assert entries == [kivy_config.input_entry(DisplayConfig())]
    assert not [value for _, value in entries if value.startswith("mouse")]


def test_the_shipped_kivy_config_is_fullscreen_with_no_cursor_or_screensaver() -> None:
    parser = configparser.RawConfigParser()
    parser.read(KIVY_INI)
    assert parser.get("graphics", "fullscreen") == "auto"
    assert parser.get("graphics", "show_cursor") == "0"
    assert parser.get("graphics", "allow_screensaver") == "0"
    assert parser.get("graphics", "rotation") == "0"
    assert parser.get("kivy", "exit_on_escape") == "0"
    assert parser.get("kivy", "log_enable") == "0"


def test_the_shipped_kivy_config_is_of_the_installed_kivys_version() -> None:
    parser = configparser.RawConfigParser()
    parser.read(KIVY_INI)
    assert parser.get("kivy", "config_version") == _kivy_source_constant("KIVY_CONFIG_VERSION")


def test_no_value_in_the_shipped_kivy_config_carries_an_inline_comment() -> None:
    parser = configparser.RawConfigParser()
    parser.read(KIVY_INI)
    for section in parser.sections():
        for name, value in parser.items(section):
            assert ";" not in value and " #" not in value, f"[{section}] {name} = {value}"


KIVY_CHILD = r"""
import json, sys
from kivy.app import App
from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.config import Config
from kivy.uix.widget import Widget

class Probe(App):
    def build(self):
        Clock.schedule_once(self.report, 0)
        return Widget()

    def report(self, dt):
        print(json.dumps({
            "input": Config.items("input"),
            "providers": [type(p).__name__ for p in EventLoop.input_providers],
            "show_cursor": Config.get("graphics", "show_cursor"),
        }))
        self.stop()

Probe().run()
"""


def _kivy_env(kivy_home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KCFG_", "KIVY_"))}
    env.update(
        KIVY_HOME=str(kivy_home),
        KIVY_NO_ARGS="1",
        KIVY_NO_FILELOG="1",
        SDL_VIDEODRIVER="offscreen",
    )
    return env


def test_kivy_starts_with_the_shipped_config_and_reads_the_touchscreen_once(
    tmp_path: Path,
) -> None:
    import json

    kivy_home = tmp_path / "kivy"
    kivy_home.mkdir()
    shutil.copy(KIVY_INI, kivy_home / "config.ini")
    child = tmp_path / "probe.py"  # a file: Kivy's App looks for its own source
    child.write_text(KIVY_CHILD)
    done = subprocess.run(
        [sys.executable, str(child)],
        env=_kivy_env(kivy_home),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["input"] == [list(kivy_config.input_entry(DisplayConfig()))]
    assert "MouseMotionEventProvider" not in report["providers"]
    assert report["show_cursor"] == "0"
    # Kivy took the file as it is: it did not "upgrade" it (and add its default providers).
    assert (kivy_home / "config.ini").read_bytes() == KIVY_INI.read_bytes()


def test_the_shipped_kivy_config_sets_every_option_kivy_has(tmp_path: Path) -> None:
    """Kivy fills no defaults into a current-version file: a missing option crashes it."""
    kivy_home = tmp_path / "kivy"
    done = subprocess.run(
        [sys.executable, "-c", "import kivy.config"],
        env=_kivy_env(kivy_home),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    defaults = configparser.RawConfigParser()
    defaults.read(kivy_home / "config.ini")
    shipped = configparser.RawConfigParser()
    shipped.read(KIVY_INI)
    for section in defaults.sections():
        if section == "input":
            continue
        missing = set(defaults.options(section)) - set(shipped.options(section))
        assert not missing, f"[{section}] lacks {sorted(missing)}"


KIOSK_CHILD = r"""
import json
from kivy.config import Config
from companion.config import DisplayConfig
from companion.kivy_config import apply_kiosk
before = Config.items("input")
apply_kiosk(DisplayConfig(rotation=90, fullscreen=True))
print(json.dumps({"before": before, "after": Config.items("input"),
                  "rotation": Config.get("graphics", "rotation"),
                  "fullscreen": Config.get("graphics", "fullscreen"),
                  "show_cursor": Config.get("graphics", "show_cursor")}))
"""


def test_kiosk_mode_replaces_kivys_default_providers_with_exactly_one(tmp_path: Path) -> None:
    import json

    done = subprocess.run(
        [sys.executable, "-c", KIOSK_CHILD],
        env=_kivy_env(tmp_path / "kivy"),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(kivy_config.touch_readers(map(tuple, report["before"]))) == 2  # the trap
    assert report["after"] == [["touch_%(name)s", "probesysfs,provider=mtdev"]]
    assert report["rotation"] == "90"
    assert report["fullscreen"] == "auto"
    assert report["show_cursor"] == "0"


# --- kivy_config, the pure part -----------------------------------------------------------


@pytest.mark.parametrize(
    ("display", "entry"),
    [
        (DisplayConfig(), ("touch_%(name)s", "probesysfs,provider=mtdev")),
        (
            DisplayConfig(touch_invert_x=True, touch_invert_y=True),
            ("touch_%(name)s", "probesysfs,provider=mtdev,param=invert_x=1,param=invert_y=1"),
        ),
        (
            DisplayConfig(touch_device="/dev/input/event3"),
            ("touch", "mtdev,/dev/input/event3"),
        ),
        (
            DisplayConfig(touch_provider="hidinput", touch_device="/dev/input/event1"),
            ("touch", "hidinput,/dev/input/event1"),
        ),
        (
            # hidinput flips Y by itself: mirroring Y means turning its flip off.
            DisplayConfig(
                touch_provider="hidinput", touch_device="/dev/input/event1", touch_invert_y=True
            ),
            ("touch", "hidinput,/dev/input/event1,invert_y=0"),
        ),
    ],
)
def test_the_one_input_entry_follows_the_display_config(
    display: DisplayConfig, entry: tuple[str, str]
) -> None:
    assert kivy_config.input_entry(display) == entry
    assert kivy_config.kiosk_settings(display)["input"] == dict([entry])


def test_rotation_and_fullscreen_go_to_kivys_graphics_section() -> None:
    graphics = kivy_config.kiosk_settings(DisplayConfig(rotation=270, fullscreen=False))["graphics"]
    assert graphics == {
        "fullscreen": "0",
        "rotation": "270",
        "show_cursor": "0",
        "allow_screensaver": "0",
    }


def test_touch_readers_counts_the_mouse_as_a_reader_of_the_panel() -> None:
    entries = [
        ("mouse", "mouse"),
        ("%(name)s", "probesysfs"),
        ("tuio", "tuio,0.0.0.0:3333"),
    ]
    assert kivy_config.touch_readers(entries) == entries[:2]


class RecordingConfig:
    """Just enough of Kivy's ConfigParser to see what :func:`apply_kiosk` does."""

    def __init__(self) -> None:
        self.sections: dict[str, dict[str, str]] = {
            "graphics": {"rotation": "0"},
            "input": {"mouse": "mouse", "%(name)s": "probesysfs"},
        }

    def set(self, section: str, option: str, value: str) -> None:
        self.sections[section][option] = value

    def has_section(self, section: str) -> bool:
        return section in self.sections

    def remove_section(self, section: str) -> None:
        del self.sections[section]

    def add_section(self, section: str) -> None:
        self.sections[section] = {}


def test_prepare_changes_kivy_only_in_kiosk_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    applied: list[DisplayConfig] = []
    monkeypatch.setattr(kivy_config, "apply_kiosk",
                        lambda display, _kivy=None: applied.append(display))  # fmt: skip
    config = Config(display=DisplayConfig(rotation=180))
    recorded = RecordingConfig()
    assert kivy_config.prepare(config, {}, recorded) is False
    assert kivy_config.prepare(config, {"COMPANION_KIOSK": "0"}, recorded) is False
    assert applied == []
    assert kivy_config.prepare(config, {"COMPANION_KIOSK": "1"}, recorded) is True
    assert applied == [config.display]


def test_a_quarter_rotation_stands_the_desktop_window_upright_not_the_kiosks() -> None:
    """Fault 8 of issue 30: on a desktop the window is the table's picture, upright; the
    kiosk's window is the panel, in which Kivy turns the picture."""
    size = {}
    for rotation, kiosk in ((0, "0"), (180, "0"), (90, "0"), (270, "0"), (90, "1")):
        recorded = RecordingConfig()
        config = Config(display=DisplayConfig(rotation=rotation))
        kivy_config.prepare(config, {"COMPANION_KIOSK": kiosk}, recorded)
        graphics = recorded.sections["graphics"]
        size[rotation, kiosk] = (graphics["width"], graphics["height"], graphics["rotation"])
    assert size == {(0, "0"): ("800", "480", "0"), (180, "0"): ("800", "480", "0"),
                    (90, "0"): ("480", "800", "0"), (270, "0"): ("480", "800", "0"),
                    (90, "1"): ("800", "480", "90")}


def test_apply_kiosk_replaces_the_whole_input_section() -> None:
    recorded = RecordingConfig()
    kivy_config.apply_kiosk(DisplayConfig(rotation=90), recorded)
    assert recorded.sections["input"] == {"touch_%(name)s": "probesysfs,provider=mtdev"}
    assert recorded.sections["graphics"]["rotation"] == "90"


# --- udev ---------------------------------------------------------------------------------

_UDEV_PAIR = re.compile(r'^\s*([A-Z_]+(?:\{[^}]+\})?)\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*$')


def _udev_rules() -> list[dict[str, tuple[str, str]]]:
    rules = []
    for line in UDEV_RULES.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        rule: dict[str, tuple[str, str]] = {}
        for pair in line.split(", "):
            match = _UDEV_PAIR.match(pair)
            assert match, f'not a udev KEY op "value" pair: {pair!r}'
            key, op, value = match.groups()
            rule[key if key not in rule else f"{key}#2"] = (op, value)
        rules.append(rule)
    return rules


def test_the_udev_rule_names_a_pico_grid_stably_for_the_dialout_group() -> None:
    [grid] = [rule for rule in _udev_rules() if rule.get("SUBSYSTEM") == ("==", "tty")]
    assert grid["ATTRS{idVendor}"] == ("==", "2e8a")
    assert grid["SYMLINK"] == ("+=", Path(DEFAULT_GRID_PORT).name)
    assert grid["GROUP"] == ("=", "dialout")
    assert grid["MODE"] == ("=", "0660")
    assert Config().grid.port == DEFAULT_GRID_PORT == "/dev/smallworld-grid"


def test_the_udev_rules_use_only_groups_the_installer_sets_up() -> None:
    groups = {rule["GROUP"][1] for rule in _udev_rules() if "GROUP" in rule}
    groups |= {
        word
        for rule in _udev_rules()
        for key, (_, value) in rule.items()
        if key.startswith("RUN")
        for word in value.split()
        if word in KIOSK_GROUPS
    }
    assert groups <= set(KIOSK_GROUPS)
    assert {"dialout", "gpio", "video"} <= groups


def test_the_pam_file_opens_a_logind_session() -> None:
    text = (DEPLOY / "pam-smallworld-companion").read_text()
    assert "@include common-session" in text
    assert "@include common-account" in text
    unit = UNIT_TEMPLATE.read_text()
    assert "PAMName=smallworld-companion" in unit
