"""The grid simulator's commands, and the ``grid-sim`` and ``grid-monitor`` subcommands."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main
from hardware.grid.protocol import Capability, GetRequest, HelloRequest, Parser, Snapshot, encode
from hardware.grid.sim import PtyGrid, SimulatedGrid, SimulatorError, run_command, run_script

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def sim(tmp_path: Path) -> Iterator[PtyGrid]:
    with PtyGrid(SimulatedGrid(6), link=tmp_path / "grid", heartbeat_interval=0.1) as grid:
        yield grid


def run(line: str, sim: PtyGrid) -> list[str]:
    said: list[str] = []
    run_command(line, sim, out=said.append, sleep=lambda _s: None)
    return said


def test_a_bare_number_toggles_that_sensor_and_shows_the_board(sim: PtyGrid) -> None:
    assert run("3", sim) == ["covered: 3"]
    assert run("on 1 2", sim) == ["covered: 1 2 3"]
    assert run("3", sim) == ["covered: 1 2"]
    assert run("clear", sim) == ["covered: none"]
    assert sim.grid.presence == [False] * 6


def test_sensor_numbers_are_checked_before_anything_changes(sim: PtyGrid) -> None:
    with pytest.raises(SimulatorError, match=r"sensor 7 is outside 1\.\.6"):
        run("on 1 7", sim)
    assert sim.grid.covered() == []


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("frobnicate", "unknown command 'frobnicate'; try 'help'"),
        ("wait soon", "wait: 'soon' is not a number of seconds"),
        ("on", "on: needs a sensor number"),
        ("count 1 2", "does not sense counts"),
        ("reboot two", "reboot: protocol version 'two' is not MAJOR.MINOR"),
    ],
)
def test_a_bad_command_is_named(sim: PtyGrid, line: str, complaint: str) -> None:
    with pytest.raises(SimulatorError, match=complaint):
        run(line, sim)


def test_a_script_error_names_its_line(sim: PtyGrid) -> None:
    with pytest.raises(SimulatorError, match=r"demo.txt, line 3: unknown command 'oops'"):
        run_script(["# a comment", "on 1", "oops"], sim, source="demo.txt", out=lambda _s: None)


def test_quit_ends_a_script(sim: PtyGrid) -> None:
    assert run_script(["on 1", "quit", "on 2"], sim, out=lambda _s: None) is False
    assert sim.grid.covered() == [1]


def test_counts_and_owners_when_the_grid_senses_them(tmp_path: Path) -> None:
    grid = SimulatedGrid(3, capabilities=[Capability.COUNT, Capability.OWNER])
    with PtyGrid(grid) as sim:
        assert run("count 2 4", sim) == ["covered: 2x4"]
        run("owner 2 1", sim)
    snapshot = grid.snapshot()
    assert snapshot == Snapshot(0, (False, True, False), (0, 4, 0), (None, 1, None))


def test_the_simulated_grid_answers_hello_get_and_bad_frames() -> None:
    grid = SimulatedGrid(4)
    grid.set_present(2, True)
    host = Parser()
    events = host.feed(grid.boot() + grid.receive(b"$GET,0*0000\n"))
    assert [type(e).__name__ for e in events] == ["Hello", "DeviceError"]
    assert "does not match" in events[1].text  # type: ignore[union-attr]
    events = host.feed(grid.receive(encode(GetRequest(2)) + encode(HelloRequest(3))))
    assert [type(e).__name__ for e in events] == ["Snapshot", "Hello"]
    assert events[0].covered() == {1}  # type: ignore[union-attr]
    assert grid.requests == {"GET": 1, "HELLO": 1, "BAD": 1}


def test_a_storm_ends_where_it_started(sim: PtyGrid) -> None:
    run("on 2", sim)
    (said,) = run("storm 0.2", sim)
    assert said.endswith("covered: 2")


# --- the subcommands ------------------------------------------------------------------


def test_grid_sim_prints_the_path_runs_its_script_and_stops_at_end_of_input(
    tmp_path: Path,
) -> None:
    script = tmp_path / "demo.txt"
    script.write_text("# cover two regions\non 4 5\noff 4\n")
    link = tmp_path / "usb-grid"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "companion", "grid-sim", str(script), "--regions", "12",
         "--link", str(link)],
        input="3\nshow\nquit\n", capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("grid-sim: a fake grid of 12 sensors on /dev/pts/")
    assert str(link) in lines[0]
    assert lines[-1] == "covered: 3 5"
    assert not link.exists()  # removed on exit


def test_grid_sim_reports_a_bad_script_line_and_fails(tmp_path: Path) -> None:
    script = tmp_path / "bad.txt"
    script.write_text("on 1\nwait forever\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "companion", "grid-sim", str(script)],
        input="", capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert result.returncode == 1
    assert "bad.txt, line 2: wait: 'forever' is not a number of seconds" in result.stderr


def test_grid_sim_refuses_a_missing_script_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["grid-sim", str(tmp_path / "nope.txt")]) == 2
    assert "cannot read the script" in capsys.readouterr().err


class Watched(io.TextIOBase):
    """A stdout another thread can wait on: everything written, kept."""

    def __init__(self) -> None:
        super().__init__()
        self.text = ""
        self.changed = threading.Condition()

    def write(self, text: str) -> int:
        with self.changed:
            self.text += text
            self.changed.notify_all()
        return len(text)

    def wait_for(self, *parts: str) -> bool:
        """Whether every one of `parts` has been written, waiting up to `PATIENCE` for it."""
        with self.changed:
            return self.changed.wait_for(lambda: all(p in self.text for p in parts), PATIENCE)


PATIENCE = 60.0  # what takes a second here, on a machine ten times slower, and more


def test_grid_monitor_prints_decoded_frames_and_error_counts(
    sim: PtyGrid, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The monitor runs until Ctrl-C; here the poker presses it once the monitor has printed
    what the pokes make it print (or after `PATIENCE`): no time window to miss."""
    import _thread

    watched = Watched()
    monkeypatch.setattr(sys, "stdout", watched)

    def poke() -> None:
        try:
            if watched.wait_for("link up"):
                sim.set_present(2, True)
                sim.send_noise(8)
                sim.send_corrupt()
                watched.wait_for("covered 2 (of 6)", "HB #", "dropped (noise)",
                                 "dropped (bad_crc)")
        finally:
            _thread.interrupt_main()  # Ctrl-C: the monitor prints its totals and returns

    poker = threading.Thread(target=poke)
    poker.start()
    assert main(["grid-monitor", str(sim.link), "--seconds", str(10 * PATIENCE)]) == 0
    poker.join()
    out = watched.text
    assert "HELLO #" in out and "6 sensors" in out
    assert "link up" in out
    assert "SNAP #" in out and "covered 2 (of 6)" in out
    assert "HB #" in out
    assert "dropped (noise)" in out
    assert "dropped (bad_crc)" in out
    assert "counts: frames" in out
    assert "totals: frames" in out.splitlines()[-1]


def test_grid_sim_never_replaces_a_file_that_is_not_a_symlink(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me")
    assert main(["grid-sim", "--link", str(notes)]) == 2
    assert "exists and is not a symlink" in capsys.readouterr().err
    assert notes.read_text() == "keep me"


def test_both_subcommands_are_listed_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "grid-sim" in out and "grid-monitor" in out
