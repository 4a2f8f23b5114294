"""The real app as a process: `companion ...` started headless, and told apart whether it
reached its running main loop.

The app is started as a player's table starts it (``python -m companion run``), headless
as `make drills` runs (``SDL_VIDEODRIVER=offscreen``, Kivy's and the user's files in the
drill's folder). It counts as started once Kivy says it entered its main loop (its log
line "Start application main loop", so Kivy's console log is on here), or once it tells
systemd it is ready (``READY=1`` on ``$NOTIFY_SOCKET``, for a release that sends it).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAIN_LOOP = "Start application main loop"


def app_env(work: Path, *, kivy_log: bool = True, **extra: str) -> dict[str, str]:
    """A headless app's environment: nothing of the user's is read or written."""
    from bench.ui import kivy_env

    env = kivy_env(work)
    if kivy_log:  # Kivy's own console log, on stderr (not Python's logging)
        env.pop("KIVY_NO_CONSOLELOG", None)
        env["KIVY_LOG_MODE"] = "KIVY"
    env.update(extra)
    return env


@dataclass
class Started:
    process: subprocess.Popen[str]
    started: bool  # reached its main loop
    exited: int | None  # its status, when it ended by itself before that
    stderr: Path
    notify: socket.socket | None = None  # kept open while the app runs: it may write to it

    def errors(self) -> str:
        return self.stderr.read_text(errors="replace")

    def stop(self, timeout: float = 20) -> int:
        """End the app as systemd would (SIGTERM, then SIGKILL); its status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.notify is not None:
            path = self.notify.getsockname()
            self.notify.close()
            with contextlib.suppress(OSError):
                os.unlink(path)
        return self.process.returncode


def start(args: list[str], env: dict[str, str], stderr: Path, *, timeout: float = 60
          ) -> Started:
    """Start ``python -m companion ARGS``; wait until it reaches its main loop, ends, or
    `timeout` seconds pass."""
    notify_path = stderr.with_suffix(".notify")
    notify_path.unlink(missing_ok=True)
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(notify_path))
    notify.setblocking(False)
    env = {**env, "NOTIFY_SOCKET": str(notify_path)}
    with open(stderr, "w") as err:
        process = subprocess.Popen([sys.executable, "-m", "companion", *args],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=err, env=env, cwd=ROOT, text=True)
    deadline = time.monotonic() + timeout
    started = False
    while time.monotonic() < deadline:
        with contextlib.suppress(BlockingIOError):
            started = b"READY=1" in notify.recv(4096)
        if started or MAIN_LOOP in stderr.read_text(errors="replace"):
            return Started(process, True, None, stderr, notify)
        if process.poll() is not None:
            return Started(process, False, process.returncode, stderr, notify)
        time.sleep(0.05)
    return Started(process, False, None, stderr, notify)


def alive_after(started: Started, seconds: float) -> bool:
    """Whether the app is still running `seconds` after it started (it did not crash)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if started.process.poll() is not None:
            return False
        time.sleep(0.05)
    return started.process.poll() is None
