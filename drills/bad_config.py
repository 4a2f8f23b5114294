"""Bad config: the real app started as the table's kiosk with a bad ``companion.toml``.

A typo in the config must never become a crash loop at boot. The app is started as the
kiosk service starts it (``COMPANION_KIOSK=1``, headless here) with the file holding:

- each bad value the issue found crashing start-up or `doctor`: ``database =
  "~nosuchuser/x"``, ``"/proc/nope/x.sqlite3"``, a NUL byte, a 6,000-character path, a
  3,000-deep nested ``rotation`` and an over-long ``grid.port``;
- each of the bad-input drill's values (`drills.bad_input.BAD_TOML`), given to every key
  that does not allow it (one file a value; with ``every_key``, one file a key and value);
- the bad-input drill's broken files (not TOML, not UTF-8, unknown sections and keys, a
  section that is a value, a directory, a missing file).

Each time the app must reach its running main loop and still run a second later (it is
then stopped with SIGTERM, as systemd stops it), and ``companion doctor --config FILE``
must finish without a traceback. Crashes are the goal-0 counts.
"""

from __future__ import annotations

import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

from drills.app_process import alive_after, app_env, start
from drills.report import Drill

ROOT = Path(__file__).resolve().parents[1]

ISSUE_VALUES: list[tuple[str, str]] = [
    ("storage.database = ~nosuchuser/x", '[storage]\ndatabase = "~nosuchuser/x"\n'),
    ("storage.database under /proc", '[storage]\ndatabase = "/proc/nope/x.sqlite3"\n'),
    ("storage.database with a NUL byte", '[storage]\ndatabase = "/tmp/a\\u0000b.sqlite3"\n'),
    ("storage.database of 6,000 characters",
     f'[storage]\ndatabase = "/tmp/{"x" * 5995}"\n'),
    ("display.rotation nested 3,000 deep",
     "[display]\nrotation = " + "[" * 3000 + "]" * 3000 + "\n"),
    ("grid.port of 6,000 characters", f'[grid]\nport = "/dev/{"x" * 5995}"\n'),
]


def bad_files(every_key: bool) -> list[tuple[str, bytes | None]]:
    """(what, the file's bytes) for every case; None: the config path is a directory."""
    from companion.config import KEYS
    from drills.bad_input import BAD_TOML, BROKEN_TOML_FILES

    files: list[tuple[str, bytes | None]] = [(w, t.encode()) for w, t in ISSUE_VALUES]
    for literal in BAD_TOML:
        value = tomllib.loads(f"v = {literal}")["v"]
        refusing = []
        for spec in KEYS:
            try:
                spec.parse(value)
            except Exception:  # the config module's own rejection
                refusing.append(spec)
        if every_key:
            files += [(f"{spec.key} = {literal}",
                       f"[{spec.section}]\n{spec.name} = {literal}\n".encode())
                      for spec in refusing]
            continue
        sections: dict[str, list[str]] = {}
        for spec in refusing:
            sections.setdefault(spec.section, []).append(f"{spec.name} = {literal}")
        text = "".join(f"[{name}]\n" + "\n".join(lines) + "\n"
                       for name, lines in sections.items())
        files.append((f"{literal} in all {len(refusing)} keys that refuse it", text.encode()))
    files += BROKEN_TOML_FILES
    return files


def cases(work: Path, every_key: bool = False, limit: int | None = None) -> dict[str, Any]:
    work.mkdir(parents=True, exist_ok=True)
    env = app_env(work, COMPANION_KIOSK="1")
    counts = {"files": 0, "app_running": 0, "app_crashes": 0, "app_tracebacks": 0,
              "doctor_ran": 0, "doctor_crashes": 0}
    examples: list[str] = []
    for n, (what, data) in enumerate(bad_files(every_key)[:limit]):
        config = work / f"case-{n}.toml"
        if data is None:
            config.mkdir(exist_ok=True)
        else:
            config.write_bytes(data)
        counts["files"] += 1
        app = start(["run", "--config", str(config)], env, work / f"case-{n}.stderr")
        try:
            running = app.started and alive_after(app, 1.0)
        finally:
            app.stop()
        said = app.errors()
        counts["app_running"] += running
        counts["app_crashes"] += not running
        counts["app_tracebacks"] += "Traceback" in said
        if (not running or "Traceback" in said) and len(examples) < 10:
            examples.append(f"app, {what}: {said[-500:]}")
        try:
            doctor = subprocess.run([sys.executable, "-m", "companion", "doctor", "--config",
                                     str(config)], env=app_env(work, kivy_log=False), cwd=ROOT,
                                    capture_output=True, text=True, timeout=120,
                                    stdin=subprocess.DEVNULL)
            fine = doctor.returncode >= 0 and "Traceback" not in doctor.stderr + doctor.stdout
            told = doctor.stderr[-500:]
        except subprocess.TimeoutExpired:
            fine, told = False, "did not finish in 120 s"
        counts["doctor_ran"] += fine
        counts["doctor_crashes"] += not fine
        if not fine and len(examples) < 10:
            examples.append(f"doctor, {what}: {told}")
    return {**counts, "examples": examples}


def drill(work: Path, *, every_key: bool = False, limit: int | None = None) -> Drill:
    started = time.monotonic()
    found = cases(work, every_key, limit)
    result = Drill(
        "Bad config",
        f"the real app started {found['files']} times as the kiosk (COMPANION_KIOSK=1, "
        f"headless), each with a bad companion.toml: the {len(ISSUE_VALUES)} values that "
        "crashed start-up or doctor before (~nosuchuser, /proc, a NUL byte, a 6,000-character "
        "path, a 3,000-deep rotation, a 6,000-character grid.port), the bad-input drill's "
        + ("values one key at a time" if every_key else "values each given to every key "
           "that refuses it") + " and its broken files; `companion doctor` on each",
    )
    result.check("app reached its main loop and ran on",
                 f"{found['app_running']} of {found['files']}", "all",
                 found["app_running"] == found["files"])
    result.check("app crashes", found["app_crashes"], "0", found["app_crashes"] == 0)
    result.check("app runs with a traceback on stderr", found["app_tracebacks"], "0",
                 found["app_tracebacks"] == 0)
    result.check("doctor finished without a traceback",
                 f"{found['doctor_ran']} of {found['files']}", "all",
                 found["doctor_ran"] == found["files"])
    result.check("doctor crashes", found["doctor_crashes"], "0", found["doctor_crashes"] == 0)
    result.seconds = time.monotonic() - started
    result.detail = found
    return result
