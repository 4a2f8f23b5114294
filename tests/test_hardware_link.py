"""The grid link against a real pseudo-terminal: handshake, snapshots, unplug, silence.

The simulated grid (``hardware.grid.sim.PtyGrid``) sits on the device end of an
``os.openpty`` pair; a symlink to its path plays the part of ``/dev/serial/by-id/...``.
Closing the device end is a real unplug (the link's reads fail); a new pty behind the same
symlink is the grid plugged in again. Timeouts are short so the tests take seconds; the
only waits are generous waits for an event, never timed assertions.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware.dispatch import QueueScheduler
from hardware.grid.link import GridLink, LinkState
from hardware.grid.protocol import Hello, ProtocolVersion, Snapshot
from hardware.grid.sim import PtyGrid, SimulatedGrid

WAIT = 60.0  # generous (a machine ten times slower): only ever reached when something is broken

FAST = {
    "settle_time": 0.05,
    "silence_timeout": 0.6,
    "hello_interval": 0.1,
    "reconnect_interval": 0.1,
    "poll_interval": 0.02,
}


class Recorder:
    """Collects the link's callbacks from its thread; the test waits for them in order."""

    def __init__(self) -> None:
        self.events: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.seen: list[tuple[str, Any]] = []

    def callbacks(self) -> dict[str, Callable[[Any], None]]:
        return {
            f"on_{kind}": self._recorder_of(kind)
            for kind in ("snapshot", "link_up", "link_down", "refused")
        }

    def _recorder_of(self, kind: str) -> Callable[[Any], None]:
        def record(value: Any) -> None:
            self.events.put((kind, value))

        return record

    def wait_for(self, kind: str, match: Callable[[Any], bool] = lambda _v: True) -> Any:
        """The next ``kind`` event that matches; earlier events are kept in ``seen``."""
        while True:
            try:
                got_kind, value = self.events.get(timeout=WAIT)
            except queue.Empty:
                raise AssertionError(f"no {kind} within {WAIT} s; seen {self.seen}") from None
            self.seen.append((got_kind, value))
            if got_kind == kind and match(value):
                return value


@pytest.fixture
def by_id(tmp_path: Path) -> Path:
    return tmp_path / "usb-SmallWorld_Grid_E6614C311B-if00"


@pytest.fixture
def sim(by_id: Path) -> Iterator[PtyGrid]:
    grid = PtyGrid(SimulatedGrid(8), link=by_id, heartbeat_interval=0.1)
    grid.start()
    yield grid
    grid.close()


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def link(by_id: Path, recorder: Recorder) -> Iterator[GridLink]:
    grid_link = GridLink(str(by_id), **recorder.callbacks(), **FAST)  # type: ignore[arg-type]
    yield grid_link
    grid_link.stop()


def covered(snapshot: Snapshot) -> set[int]:
    return set(snapshot.covered())


def test_the_link_shakes_hands_and_reports_the_board(
    sim: PtyGrid, link: GridLink, recorder: Recorder
) -> None:
    link.start()
    hello = recorder.wait_for("link_up")
    assert isinstance(hello, Hello) and hello.regions == 8
    assert covered(recorder.wait_for("snapshot")) == set()
    assert link.state is LinkState.UP
    assert sim.grid.requests["GET"] >= 1  # a GET after connecting
    sim.set_present(3, True)
    assert covered(recorder.wait_for("snapshot")) == {2}
    sim.set_present(8, True)
    assert covered(recorder.wait_for("snapshot")) == {2, 7}


def test_a_corrupted_snapshot_is_dropped_and_the_gap_brings_a_fresh_one(
    sim: PtyGrid, link: GridLink, recorder: Recorder
) -> None:
    link.start()
    recorder.wait_for("snapshot")
    gets = sim.grid.requests["GET"]
    sim.grid.set_present(5, True)  # the board changes, but its SNAP arrives corrupted
    sim.send_corrupt()
    # The next heartbeat reveals the lost frame; the link asks, and the grid answers.
    assert covered(recorder.wait_for("snapshot")) == {4}
    assert sim.grid.requests["GET"] > gets
    assert link.stats.sequence_gaps >= 1
    assert link.stats.total_errors >= 1
    assert all(
        covered(value) in (set(), {4}) for kind, value in recorder.seen if kind == "snapshot"
    )


def test_unplugging_is_noticed_and_replugging_behind_the_same_name_recovers(
    sim: PtyGrid, link: GridLink, recorder: Recorder, by_id: Path
) -> None:
    link.start()
    recorder.wait_for("snapshot")
    sim.unplug()
    reason = recorder.wait_for("link_down")
    assert "unplugged" in reason
    assert link.state is LinkState.CONNECTING
    sim.grid.set_present(1, True)
    new_path = sim.replug()
    assert by_id.resolve() == Path(new_path)
    recorder.wait_for("link_up")
    assert covered(recorder.wait_for("snapshot")) == {0}
    assert [kind for kind, _ in recorder.seen].count("link_down") == 1  # told once


def test_a_hung_grid_replaced_behind_the_same_name_is_found(
    sim: PtyGrid, link: GridLink, recorder: Recorder, by_id: Path
) -> None:
    link.start()
    recorder.wait_for("snapshot")
    sim.mute(60)  # hung: its port stays open, nothing fails, it just says nothing
    recorder.wait_for("link_down")
    grid = SimulatedGrid(8)
    grid.set_present(8, True)
    with PtyGrid(grid, link=by_id, heartbeat_interval=0.1):  # udev re-points the by-id link
        recorder.wait_for("link_up")
        assert covered(recorder.wait_for("snapshot")) == {7}


def test_a_missing_device_is_reported_once_and_found_when_it_appears(
    tmp_path: Path, recorder: Recorder
) -> None:
    by_id = tmp_path / "usb-grid"
    with GridLink(str(by_id), **recorder.callbacks(), **FAST) as link:  # type: ignore[arg-type]
        reason = recorder.wait_for("link_down")
        assert f"cannot open {by_id}" in reason
        with PtyGrid(SimulatedGrid(4), link=by_id, heartbeat_interval=0.1):
            recorder.wait_for("link_up")
            recorder.wait_for("snapshot")
            assert link.state is LinkState.UP
    assert [kind for kind, _ in recorder.seen].count("link_down") == 1


def test_silence_takes_the_grid_offline_and_its_return_brings_it_back(
    sim: PtyGrid, link: GridLink, recorder: Recorder
) -> None:
    link.start()
    recorder.wait_for("snapshot")
    sim.mute(1.5)
    reason = recorder.wait_for("link_down")
    assert "no frame from the grid" in reason and "0.6 s" in reason
    assert link.state is LinkState.OFFLINE
    recorder.wait_for("link_up")  # it answers the HELLO requests once it speaks again
    assert link.state.value == "up"  # (read again: the reader thread changed it)


def test_a_grid_with_another_major_version_is_refused_with_a_reason(
    sim: PtyGrid, link: GridLink, recorder: Recorder
) -> None:
    link.start()
    recorder.wait_for("snapshot")
    sim.send(sim.grid.boot(ProtocolVersion(2, 0)))
    reason = recorder.wait_for("refused")
    assert "speaks protocol 2.0" in reason and "1.x" in reason and "update the companion" in reason
    assert link.state is LinkState.REFUSED
    sim.set_present(2, True)  # not believed from a refused grid
    sim.send(sim.grid.boot(ProtocolVersion(1, 3)))  # re-flashed: a newer minor is fine
    recorder.wait_for("link_up")
    refused_at = next(i for i, (kind, _) in enumerate(recorder.seen) if kind == "refused")
    assert not any(kind == "snapshot" for kind, _ in recorder.seen[refused_at:])
    assert covered(recorder.wait_for("snapshot")) == {1}


def test_a_grid_rebooted_as_another_size_is_announced_again(
    sim: PtyGrid, link: GridLink, recorder: Recorder
) -> None:
    link.start()
    recorder.wait_for("snapshot")
    sim.send(sim.grid.boot())  # the same grid restarting: nothing new to announce
    sim.grid.firmware = "grid-sim-2.0"
    sim.send(sim.grid.boot())  # re-flashed in place
    hello = recorder.wait_for("link_up")
    assert hello.firmware == "grid-sim-2.0"
    assert [kind for kind, _ in recorder.seen].count("link_up") == 2


def test_an_old_firmware_is_told_to_be_flashed(tmp_path: Path, recorder: Recorder) -> None:
    by_id = tmp_path / "grid"
    grid = SimulatedGrid(4, version=ProtocolVersion(0, 9))
    with PtyGrid(grid, link=by_id), GridLink(str(by_id), **recorder.callbacks(), **FAST):  # type: ignore[arg-type]
        reason = recorder.wait_for("refused")
    assert "speaks protocol 0.9" in reason and "flash the grid" in reason


def test_the_port_is_opened_exclusively(
    sim: PtyGrid, link: GridLink, recorder: Recorder, by_id: Path
) -> None:
    link.start()
    recorder.wait_for("link_up")
    second = Recorder()
    with GridLink(str(by_id), **second.callbacks(), **FAST):  # type: ignore[arg-type]
        reason = second.wait_for("link_down")
    assert "cannot open" in reason and "lock" in reason.lower()


def test_callbacks_given_a_scheduler_run_on_the_thread_that_drains_it(
    sim: PtyGrid, by_id: Path
) -> None:
    scheduler = QueueScheduler()
    threads: list[str] = []
    done = threading.Event()

    def on_snapshot(_snapshot: Snapshot) -> None:
        threads.append(threading.current_thread().name)
        done.set()

    with GridLink(str(by_id), on_snapshot=on_snapshot, schedule=scheduler, **FAST):  # type: ignore[arg-type]
        for _ in range(int(WAIT / 0.1)):
            scheduler.drain(timeout=0.1)
            if done.is_set():
                break
    assert threads and set(threads) == {threading.main_thread().name}


def test_a_failing_callback_does_not_stop_the_link(
    sim: PtyGrid, by_id: Path, recorder: Recorder
) -> None:
    def explode(_snapshot: Snapshot) -> None:
        recorder.events.put(("snapshot", _snapshot))
        raise RuntimeError("the app's bug")

    callbacks = recorder.callbacks()
    callbacks["on_snapshot"] = explode
    with GridLink(str(by_id), **callbacks, **FAST) as link:  # type: ignore[arg-type]
        recorder.wait_for("snapshot")
        sim.set_present(6, True)
        assert covered(recorder.wait_for("snapshot")) == {5}
        assert link.running


def test_request_snapshot_asks_the_grid_now(
    sim: PtyGrid, link: GridLink, recorder: Recorder
) -> None:
    assert not link.request_snapshot()  # not started: not UP
    link.start()
    recorder.wait_for("snapshot")
    gets = sim.grid.requests["GET"]
    assert link.request_snapshot()
    for _ in range(100):
        if sim.grid.requests["GET"] > gets:
            break
        threading.Event().wait(0.1)
    assert sim.grid.requests["GET"] > gets


def test_timeouts_must_be_positive() -> None:
    with pytest.raises(ValueError, match="silence timeout must be positive, not 0"):
        GridLink("/dev/null", silence_timeout=0)
