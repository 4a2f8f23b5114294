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

from companion.sentence import N_, Sentence, SentenceError

POWER_ACTIONS = ("poweroff", "reboot")
TIMEOUT = 20.0
"""Seconds a command may take (logind answers at once; a slow stick may take a while).
Below the kiosk's 30-second watchdog: the app runs these on its main loop."""


class ActionFailed(SentenceError):
    """The operating system did not do what was asked; the message says why in one line.
    `str()` is the English, `said` the same for the table's language."""


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def run(argv: list[str], what: Sentence, timeout: float = TIMEOUT) -> str:
    """Run `argv`; its standard output, or `ActionFailed` naming `what` failed."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, check=False)
    except FileNotFoundError:
        raise ActionFailed(Sentence(N_("{what}: {command} is not installed on this system."),
                                    what=what, command=argv[0])) from None
    except subprocess.TimeoutExpired:
        raise ActionFailed(Sentence(N_("{what}: {command} gave no answer in {seconds} "
                                       "seconds."), what=what, command=argv[0],
                                    seconds=f"{timeout:.0f}")) from None
    except OSError as error:
        raise ActionFailed(Sentence(N_("{what}: {command} could not be run ({why})."),
                                    what=what, command=argv[0], why=str(error))) from None
    if done.returncode != 0:
        said = _last_line(done.stderr) or _last_line(done.stdout)
        why = said or Sentence(N_("{command} exited with status {status}"), command=argv[0],
                               status=done.returncode)
        raise ActionFailed(Sentence(N_("{what}: {why}"), what=what, why=why))
    return done.stdout


def power_command(action: str) -> list[str]:
    """The command that powers the table off ("poweroff") or restarts it ("reboot")."""
    if action not in POWER_ACTIONS:
        raise ValueError(f"unknown power action {action!r}: one of {', '.join(POWER_ACTIONS)}")
    return ["systemctl", "--no-ask-password", action]


def switch_off(action: str) -> None:
    """Ask logind to power off or restart; returns once it has accepted."""
    words = (Sentence(N_("The table could not be switched off")) if action == "poweroff" else
             Sentence(N_("The table could not be restarted")))
    run(power_command(action), words)


def mount(device: str) -> Path:
    """Mount `device` (e.g. ``/dev/sda1``) with udisks2; where it is mounted now."""
    out = run(["udisksctl", "mount", "--no-user-interaction", "-b", device],
              Sentence(N_("The stick could not be opened ({device})"), device=device))
    found = re.search(r" at (/.*?)\.?\s*$", out.strip())
    if found is None:
        raise ActionFailed(Sentence(N_("The stick could not be opened ({device}): udisksctl "
                                       "said {answer}"), device=device,
                                    answer=repr(_last_line(out))))
    return Path(found.group(1))


def unmount(device: str) -> None:
    run(["udisksctl", "unmount", "--no-user-interaction", "-b", device],
        Sentence(N_("The stick could not be closed ({device})"), device=device))


def power_off_drive(disk: str) -> None:
    run(["udisksctl", "power-off", "--no-user-interaction", "-b", disk],
        Sentence(N_("The stick could not be powered off ({disk})"), disk=disk))
