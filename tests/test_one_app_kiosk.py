"""One app per saved-games file, kiosk-friendly: the kiosk waits for the other app to
close instead of exiting (systemd would soon stop restarting it), telling systemd it is
alive meanwhile; outside kiosk mode a second app exits 75 ("try again later").

Real processes on a real file: one child holds the lock as the app does (`Store.open`),
the other runs ``companion run``. In the waiting child, `companion.app` is replaced by a
stub whose `run_app` opens the store (taking the lock for real) and reports, so that the
test sees the app get past the wait without opening a kiosk's full-screen window.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from companion.commands.run import EX_TEMPFAIL
from companion.store.lock import holder

HOLDER = """
import sys
from pathlib import Path
from companion.store import Store
store = Store.open(Path(sys.argv[1]))
print("LOCKED", flush=True)
sys.stdin.read()  # held until the test closes our input
store.close()
"""

KIOSK = """
import sys
import types
from companion.cli import main
from companion.store import Store
from companion.store.lock import holder

def run_app(db_path, **_options):
    with Store.open(db_path):
        print("STARTED", holder(db_path), flush=True)

start = types.ModuleType("companion.app")  # the app, as far as `companion run` needs it
start.run_app = run_app
sys.modules["companion.app"] = start
sys.exit(main(["run", "--db", sys.argv[1]]))
"""


def hold(db: Path) -> subprocess.Popen[str]:
    child = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "LOCKED"
    return child


def let_go(child: subprocess.Popen[str]) -> None:
    assert child.stdin is not None
    child.stdin.close()
    child.wait(timeout=60)


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "KIVY_NO_ARGS": "1",
           "KIVY_HOME": str(tmp_path / "kivy"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           **extra}
    for name in ("COMPANION_KIOSK", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        if name not in extra:
            env.pop(name, None)
    return env


def test_outside_kiosk_mode_a_second_app_exits_75_with_one_line(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    first = hold(db)
    try:
        run = subprocess.run([sys.executable, "-m", "companion", "run", "--db", str(db)],
                             capture_output=True, text=True, timeout=120,
                             env=environment(tmp_path))
    finally:
        let_go(first)
    assert run.returncode == EX_TEMPFAIL == 75
    lines = [line for line in run.stderr.splitlines() if line.startswith("companion:")]
    assert len(lines) == 1, run.stderr[-2000:]
    assert f"(process {first.pid})" in lines[0]
    assert "waiting" not in lines[0]


def test_in_kiosk_mode_a_second_app_waits_alive_and_starts_once_the_first_closes(
    tmp_path: Path,
) -> None:
    db = tmp_path / "companion.sqlite3"
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(60)  # a safety net against a hang, not a timing check
    script = tmp_path / "kiosk_probe.py"
    script.write_text(KIOSK)
    first = hold(db)
    second = subprocess.Popen(
        [sys.executable, str(script), str(db)], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        env=environment(tmp_path, COMPANION_KIOSK="1", NOTIFY_SOCKET=str(tmp_path / "notify"),
                        WATCHDOG_USEC="30000000"))
    try:
        assert second.stderr is not None and second.stdout is not None
        said = second.stderr.readline()
        assert said.startswith("companion: "), said
        assert f"in use by another companion app (process {first.pid})" in said
        assert "waiting for it to close" in said
        seen: list[str] = []
        while not ({"WATCHDOG=1"} <= set(seen) and any(m.startswith("STATUS=") for m in seen)
                   and len(seen) >= 4):  # two rounds of the wait: it keeps going
            seen.append(notify.recv(4096).decode())
        status = next(m for m in seen if m.startswith("STATUS="))
        assert f"process {first.pid}" in status
        assert second.poll() is None  # still waiting, not exited
        assert holder(db) == first.pid
    finally:
        let_go(first)
    out, err = second.communicate(timeout=120)
    notify.close()
    assert second.returncode == 0, err[-2000:]
    assert f"STARTED {second.pid}" in out  # it took the lock once the first let go
    assert [line for line in err.splitlines() if line.startswith("companion:")] == []
