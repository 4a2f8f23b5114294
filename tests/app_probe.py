"""The real app started in a child process, headless, on a saved-games file: a test hands
it a probe script (a `TableApp` subclass that prints what it sees) and reads its lines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TIMEOUT = 300
"""Seconds a probe may take: generous, for a machine ten times slower than this one."""


def run_probe(tmp_path: Path, script: str, db: Path) -> list[str]:
    """Run `script` (the probe, written beside a Kivy home of its own, as a desktop app:
    not the kiosk) on `db`; its lines on standard output. Fails the test, with the end of
    its standard error, unless it ends well."""
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_KIOSK"}
    env.update({"SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
                "GPIOZERO_PIN_FACTORY": "mock", "KIVY_HOME": str(tmp_path / "kivy")})
    probe = tmp_path / "probe.py"  # Kivy looks for a class's kv beside its source file
    probe.write_text(script)
    run = subprocess.run([sys.executable, str(probe), str(db)], capture_output=True,
                         text=True, timeout=TIMEOUT, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout.splitlines()
