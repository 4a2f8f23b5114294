"""The two things the app asks the operating system to do for the player: switch the
table off (or restart it) and mount, unmount and power off a USB stick.

Concept: both run as the table's own user, never as root: ``systemctl --no-ask-password
poweroff`` (or ``reboot``) goes through logind, and ``udisksctl ... --no-user-interaction``
through udisks2; the installer's polkit rule allows exactly these for the table's user.
Each function runs one command, found on ``$PATH``, and returns only once it has finished.

Invariants:
- nothing here raises but `ActionFailed`, whose message is one plain line saying what
  did not work (the command's own last line of error output when it gave one);
- ``--no-ask-password`` / ``--no-user-interaction`` always: a command never waits for a
  password nobody at the table could type;
- a command that does not finish within its timeout is given up on (and killed).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

POWER_ACTIONS = ("poweroff", "reboot")
TIMEOUT = 20.0
"""Seconds a command may take (logind answers at once; a slow stick may take a while).
Below the kiosk's 30-second watchdog: the app runs these on its main loop."""


class ActionFailed(Exception):
    """The operating system did not do what was asked; the message says why in one line."""


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def run(argv: list[str], what: str, timeout: float = TIMEOUT) -> str:
    """Run `argv`; its standard output, or `ActionFailed` naming `what` failed."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, check=False)
    except FileNotFoundError:
        raise ActionFailed(f"{what}: {argv[0]} is not installed on this system.") from None
    except subprocess.TimeoutExpired:
        raise ActionFailed(f"{what}: {argv[0]} gave no answer in {timeout:.0f} seconds.") \
            from None
    except OSError as error:
        raise ActionFailed(f"{what}: {argv[0]} could not be run ({error}).") from None
    if done.returncode != 0:
        why = _last_line(done.stderr) or _last_line(done.stdout) or \
            f"{argv[0]} exited with status {done.returncode}"
        raise ActionFailed(f"{what}: {why}")
    return done.stdout


def power_command(action: str) -> list[str]:
    """The command that powers the table off ("poweroff") or restarts it ("reboot")."""
    if action not in POWER_ACTIONS:
        raise ValueError(f"unknown power action {action!r}: one of {', '.join(POWER_ACTIONS)}")
    return ["systemctl", "--no-ask-password", action]


def switch_off(action: str) -> None:
    """Ask logind to power off or restart; returns once it has accepted."""
    words = "The table could not be switched off" if action == "poweroff" else \
        "The table could not be restarted"
    run(power_command(action), words)


def mount(device: str) -> Path:
    """Mount `device` (e.g. ``/dev/sda1``) with udisks2; where it is mounted now."""
    out = run(["udisksctl", "mount", "--no-user-interaction", "-b", device],
              f"The stick could not be opened ({device})")
    found = re.search(r" at (/.*?)\.?\s*$", out.strip())
    if found is None:
        raise ActionFailed(f"The stick could not be opened ({device}): udisksctl said "
                           f"{_last_line(out)!r}")
    return Path(found.group(1))


def unmount(device: str) -> None:
    run(["udisksctl", "unmount", "--no-user-interaction", "-b", device],
        f"The stick could not be closed ({device})")


def power_off_drive(disk: str) -> None:
    run(["udisksctl", "power-off", "--no-user-interaction", "-b", disk],
        f"The stick could not be powered off ({disk})")
