"""``companion grid-monitor`` under a flood: a bounded queue, frames dropped and counted.

A real pseudo-terminal plays the grid: the test answers the monitor's HELLO request with a
simulated grid's HELLO, then writes fifty thousand heartbeat frames with blocking writes,
so the monitor's reader thread has taken nearly all of them, while the monitor's standard
output is a pipe nobody reads (its printer is stuck after some thousand lines). Before
issue 14 every frame waited in an unbounded queue; now at most ``WAITING_LIMIT`` wait and
the rest are dropped, counted and reported. No timing is asserted: the flood is sized so
that frames must be dropped whatever the speed of the machine.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tty
from pathlib import Path

from companion.commands.grid_monitor import WAITING_LIMIT
from hardware.dispatch import BoundedScheduler
from hardware.grid.sim import SimulatedGrid

FLOOD = 50_000
_WITH_CTRL_C = (
    "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv[0] = 'companion'; runpy.run_module('companion', run_name='__main__')"
)


def test_a_flood_is_dropped_and_counted_and_the_queue_stays_bounded() -> None:
    device, host = os.openpty()
    tty.setraw(host)
    grid = SimulatedGrid(6)
    grid.boot()
    # Ctrl-C as a terminal delivers it. A shell that starts a job in the background (a CI
    # runner, `make test &`) starts it with SIGINT ignored, and a child inherits that, so
    # the monitor would never hear the Ctrl-C: its SIGINT handler is put back first.
    monitor = subprocess.Popen(
        [sys.executable, "-c", _WITH_CTRL_C, "grid-monitor", os.ttyname(host)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        answer = b""
        while not answer:  # the monitor's HELLO request, answered with the grid's HELLO
            answer = grid.receive(os.read(device, 1024))
        os.write(device, answer)
        for _ in range(FLOOD // 100):
            os.write(device, b"".join(grid.heartbeat_frame() for _ in range(100)))
        monitor.send_signal(signal.SIGINT)
        try:
            out, err = monitor.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            monitor.kill()
            out, err = monitor.communicate()
            raise AssertionError(
                "the monitor did not exit within 120 s of Ctrl-C (SIGINT) after the flood; its "
                f"last output: {out.decode()[-800:]!r}; its errors: {err.decode()[-800:]!r}"
            ) from None
    finally:
        if monitor.poll() is None:
            monitor.kill()
            monitor.wait()
        os.close(device)
        os.close(host)
    text = out.decode()
    assert monitor.returncode == 0, err.decode()[-2000:]
    assert "link up" in text
    closing = re.search(
        r"not printed in time: (\d+) frames dropped \(at most (\d+) of (\d+) were waiting\)", text
    )
    assert closing is not None, text[-2000:]
    dropped, most, limit = map(int, closing.groups())
    assert limit == WAITING_LIMIT
    assert most <= WAITING_LIMIT
    assert dropped > 0
    printed = text.count("HB #")
    # Every heartbeat the reader took was either printed or dropped and counted; at most a
    # pseudo-terminal's buffer (64 KiB at most) was still unread when the monitor stopped.
    assert printed + dropped <= FLOOD
    assert printed + dropped >= FLOOD - 65536 // len(grid.heartbeat_frame())
    assert re.search(r"dropped \d+ frames not printed in time \(\d+ in all\)", text)


def test_a_full_bounded_scheduler_drops_and_counts_and_runs_the_rest_in_order() -> None:
    scheduler = BoundedScheduler(3)
    ran: list[int] = []
    for n in range(5):
        scheduler(lambda _dt, n=n: ran.append(n))
    assert (scheduler.dropped, scheduler.most_waiting) == (2, 3)
    assert scheduler.drain() == 3
    assert ran == [0, 1, 2]
    assert scheduler.drain() == 0


def test_grid_monitor_on_a_missing_port_exits_1_with_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "no-grid"
    run = subprocess.run([sys.executable, "-m", "companion", "grid-monitor", str(missing)],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr.splitlines() == [
        f"companion grid-monitor: there is no port {missing} (is the grid plugged in? "
        "'companion doctor' lists the serial ports)"
    ]
