"""The small faults of issue 14 (fault 7), each through the real ``companion`` command.

``grid-sim`` keeps serving when its standard input is not a terminal; ``export`` never
leaves a 0-byte file behind and tells a read-only card apart from a missing folder.
(``grid-monitor`` on a missing port is in test_grid_monitor_flood.py.)
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tty
from pathlib import Path

import pytest
from test_store_history import CATALOG, Clock, play_game_1

from companion.store import Store
from hardware.grid.protocol import Hello, HelloRequest, Parser, Role, encode


def test_grid_sim_with_no_terminal_on_its_input_keeps_serving_until_sigterm(
    tmp_path: Path,
) -> None:
    link = tmp_path / "usb-grid"
    sim = subprocess.Popen(
        [sys.executable, "-m", "companion", "grid-sim", "--regions", "7", "--link", str(link)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert sim.stdout is not None
        said = [sim.stdout.readline() for _ in range(3)]
        assert said[2] == (f"grid-sim: end of input; still serving on {link} until stopped "
                           "(SIGTERM or Ctrl-C)\n"), said  # fmt: skip
        # It still answers a host: a HELLO request gets the grid's HELLO.
        port = os.open(link, os.O_RDWR | os.O_NOCTTY)
        try:
            tty.setraw(port)
            os.write(port, encode(HelloRequest(1)))
            parser = Parser(Role.HOST)
            hellos: list[Hello] = []
            while not hellos:
                hellos = [e for e in parser.feed(os.read(port, 1024)) if isinstance(e, Hello)]
        finally:
            os.close(port)
        assert hellos[0].regions == 7
        sim.send_signal(signal.SIGTERM)
        _out, err = sim.communicate(timeout=60)
    finally:
        if sim.poll() is None:
            sim.kill()
            sim.wait()
    assert sim.returncode == 0, err
    assert not link.exists()  # SIGTERM closes it as quit does


# --- export: never a 0-byte file, and a read-only card named as such ---------------------

EXPORT = [sys.executable, "-m", "companion", "export"]


def in_own_mounts(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the shell `script` with `args` in a mount namespace of its own (no root needed
    where user namespaces are allowed), so it can mount a small or read-only card."""
    unshare = ["unshare", "--mount"] + ([] if os.geteuid() == 0 else ["--map-root-user"])
    probe = subprocess.run([*unshare, "true"], capture_output=True, text=True)
    if shutil.which("unshare") is None or probe.returncode != 0:
        pytest.skip(f"cannot make a mount namespace here: {probe.stderr.strip()}")
    return subprocess.run([*unshare, "sh", "-euc", script, "sh", *args],
                          capture_output=True, text=True, timeout=120)  # fmt: skip


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    db = tmp_path_factory.mktemp("finished") / "companion.sqlite3"
    clock = Clock()
    with Store.open(db, catalog=CATALOG, clock=clock) as store:
        store.add_profile("Ann", "blue")
        store.add_profile("Bob", "orange")
        game = play_game_1(store, clock)
    return db, game


def test_export_to_a_full_card_leaves_no_file_behind(
    finished: tuple[Path, int], tmp_path: Path
) -> None:
    db, game = finished
    card = tmp_path / "card"
    card.mkdir()
    run = in_own_mounts(
        'mount -t tmpfs -o size=64k tmpfs "$1"; cat /dev/zero > "$1/filler" 2>/dev/null || :; '
        '"$2" -m companion export "$3" --db "$4" -o "$1/game.json" || echo "status $?"; '
        'ls -A "$1"',
        str(card), sys.executable, str(game), str(db),
    )  # fmt: skip
    assert "status 1" in run.stdout, run.stdout + run.stderr
    assert f"companion export: cannot write {card}/game.json: No space left on device; " \
           "nothing was written" in run.stderr  # fmt: skip
    # The card holds its filler and nothing else: no game.json, no temporary file.
    assert run.stdout.strip().splitlines() == ["status 1", "filler"]


def test_export_to_a_read_only_card_says_it_is_read_only(
    finished: tuple[Path, int], tmp_path: Path
) -> None:
    db, game = finished
    card = tmp_path / "card"
    card.mkdir()
    run = in_own_mounts(
        'mount -t tmpfs -o ro tmpfs "$1"; '
        '"$2" -m companion export "$3" --db "$4" -o "$1/game.json" || echo "status $?"',
        str(card), sys.executable, str(game), str(db),
    )  # fmt: skip
    assert "status 1" in run.stdout, run.stdout + run.stderr
    assert run.stderr.strip() == (
        f"companion export: cannot write {card}/game.json: the file system it is on is "
        "mounted read-only (a memory card the system found faulty is remounted read-only; "
        "copy the saved games off it and check or replace it); nothing was written"
    )


def test_export_from_a_card_remounted_read_only_says_so_not_to_check_the_folder(
    finished: tuple[Path, int], tmp_path: Path
) -> None:
    db, game = finished
    card = tmp_path / "card"
    card.mkdir()
    run = in_own_mounts(
        'mount -t tmpfs tmpfs "$1"; cp "$4" "$1/companion.sqlite3"; mount -o remount,ro "$1"; '
        '"$2" -m companion export "$3" --db "$1/companion.sqlite3" || echo "status $?"',
        str(card), sys.executable, str(game), str(db),
    )  # fmt: skip
    if "status" not in run.stdout:  # SQLite could read it after all: the export is whole
        assert run.returncode == 0 and '"seats"' in run.stdout, run.stderr
        return
    assert "mounted read-only" in run.stderr, run.stderr
    assert "check that its folder" not in run.stderr.casefold()
