"""The Pico firmware, run on the host: its frames are the companion's frames, byte for byte.

The firmware modules are plain top-level modules on the Pico (``import grid_frames``), so
the test puts ``hardware/firmware`` on ``sys.path``. ``GridDevice`` is driven with fake
sensors, a fake clock and a byte buffer standing in for USB serial, and everything it
writes is read back with the companion's own parser.
"""

from __future__ import annotations

import binascii
import importlib
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.grid.protocol import (
    PROTOCOL_VERSION,
    Capability,
    DeviceError,
    Event,
    GetRequest,
    Heartbeat,
    Hello,
    HelloRequest,
    Parser,
    Rejected,
    Snapshot,
    encode,
)

FIRMWARE = Path(__file__).resolve().parents[1] / "hardware" / "firmware"


@pytest.fixture(scope="module")
def fw() -> Iterator[dict[str, ModuleType]]:
    sys.path.insert(0, str(FIRMWARE))
    try:
        modules = {name: importlib.import_module(name) for name in
                   ("grid_frames", "grid_scan", "grid_device")}  # fmt: skip
        spec = importlib.util.spec_from_file_location("grid_firmware_main", FIRMWARE / "main.py")
        assert spec is not None and spec.loader is not None
        main = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(main)  # must not start the loop on the host
        modules["main"] = main
        yield modules
    finally:
        sys.path.remove(str(FIRMWARE))
        for name in ("grid_frames", "grid_scan", "grid_device"):
            sys.modules.pop(name, None)


@given(st.binary(max_size=300))
def test_the_firmware_crc_is_crc16_ccitt_false(data: bytes) -> None:
    sys.path.insert(0, str(FIRMWARE))
    try:
        grid_frames = importlib.import_module("grid_frames")
    finally:
        sys.path.remove(str(FIRMWARE))
    assert grid_frames.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_the_firmware_writes_exactly_the_companions_frames(fw: dict[str, ModuleType]) -> None:
    frames = fw["grid_frames"]
    presence = (True, False, False, True)
    assert str(PROTOCOL_VERSION) == frames.PROTOCOL_VERSION
    assert frames.hello(0, "pico-grid-1.0.0", 48) == encode(
        Hello(0, PROTOCOL_VERSION, "pico-grid-1.0.0", 48, frozenset({Capability.PRESENCE}))
    )
    assert frames.snapshot(7, presence) == encode(Snapshot(7, presence))
    assert frames.snapshot(8, presence, [1, 0, 0, 12], [0, None, None, 3]) == encode(
        Snapshot(8, presence, (1, 0, 0, 12), (0, None, None, 3))
    )
    assert frames.heartbeat(65535, 3600) == encode(Heartbeat(65535, 3600))
    assert frames.error(2, "BADFRAME", "bad CRC") == encode(DeviceError(2, "BADFRAME", "bad CRC"))


def test_the_firmware_cleans_text_that_frames_reserve(fw: dict[str, ModuleType]) -> None:
    frame = fw["grid_frames"].error(1, "FIRMWARE", "OSError(5, '$*,\n')")
    (event,) = Parser().feed(frame)
    assert isinstance(event, DeviceError) and event.text == "OSError(5_ '____')"


def test_the_firmware_reads_the_hosts_frames_split_anywhere(fw: dict[str, ModuleType]) -> None:
    reader = fw["grid_frames"].HostFrameReader()
    stream = b"junk" + encode(HelloRequest(0)) + encode(GetRequest(1)) + b"$GET,2*0000\n"
    stream += b"$" + b"x" * 300 + b"\n" + encode(GetRequest(3))[:5] + encode(GetRequest(4))
    items = []
    for i in range(len(stream)):
        items += reader.feed(stream[i : i + 1])
    assert items == [
        ("HELLO", 0, "1.0"),
        ("GET", 1, None),
        ("BAD", None, "bad CRC"),
        ("BAD", None, "frame over 256 bytes"),
        ("BAD", None, "a '$' arrived inside a frame"),
        ("GET", 4, None),
    ]


def test_the_debouncer_needs_a_change_to_last(fw: dict[str, ModuleType]) -> None:
    debouncer = fw["grid_scan"].Debouncer(2, stable_scans=3)
    bouncy = [[True, False], [False, False], [True, False], [True, False]]
    assert [debouncer.update(scan) for scan in bouncy] == [False, False, False, False]
    assert debouncer.update([True, False]) is True
    assert debouncer.state == [True, False]


class FakePin:
    def __init__(self, level: int = 0) -> None:
        self.level = level

    def value(self, level: int | None = None) -> int:
        if level is not None:
            self.level = level
        return self.level


class FakeBoard:
    """Two multiplexers; a covered cell pulls its signal low when selected."""

    def __init__(self, covered: set[int]) -> None:
        self.covered = covered
        self.select = [FakePin() for _ in range(4)]
        board = self

        class Signal(FakePin):
            def __init__(self, mux: int) -> None:
                super().__init__(1)
                self.mux = mux

            def value(self, level: int | None = None) -> int:
                channel = sum(pin.level << bit for bit, pin in enumerate(board.select))
                return 0 if self.mux * 16 + channel in board.covered else 1

        self.signals = [Signal(0), Signal(1)]


def test_the_scanner_reads_each_cell_through_its_multiplexer(fw: dict[str, ModuleType]) -> None:
    board = FakeBoard({0, 15, 16, 20})
    scanner = fw["grid_scan"].MuxScanner(board.select, board.signals, 24)
    assert [i for i, c in enumerate(scanner.read()) if c] == [0, 15, 16, 20]


def test_too_many_cells_for_the_multiplexers_are_refused(fw: dict[str, ModuleType]) -> None:
    with pytest.raises(ValueError, match="40 cells need 3 multiplexers, 2 wired"):
        fw["grid_scan"].MuxScanner([FakePin()] * 4, [FakePin(), FakePin()], 40)


class Harness:
    """A GridDevice on fake pins, a fake clock and a byte buffer for USB serial."""

    def __init__(self, fw: dict[str, ModuleType], cells: int = 20) -> None:
        self.board = FakeBoard(set())
        scanner = fw["grid_scan"].MuxScanner(self.board.select, self.board.signals, cells)
        self.now = 0
        self.incoming = b""
        self.out = bytearray()
        self.device: Any = fw["grid_device"].GridDevice(
            scanner.read, self._read, self.out.extend, cells, "pico-test",
            stable_scans=3, heartbeat_ms=1000, clock=lambda: self.now,
            elapsed=lambda a, b: a - b,
        )  # fmt: skip
        self.host = Parser()

    def _read(self) -> bytes:
        data, self.incoming = self.incoming, b""
        return data

    def run(self, ms: int, step: int = 10) -> list[Event]:
        for _ in range(ms // step):
            self.device.step()
            self.now += step
        events = self.host.feed(bytes(self.out))
        self.out.clear()
        return events


def test_the_device_says_hello_sends_snapshots_on_change_and_heartbeats(
    fw: dict[str, ModuleType],
) -> None:
    h = Harness(fw)
    h.device.start()
    assert h.run(10) == [Hello(0, PROTOCOL_VERSION, "pico-test", 20)]
    h.board.covered = {3, 17}
    events = h.run(100)
    assert [type(e) for e in events] == [Snapshot]
    assert events[0].covered() == {3, 17}  # type: ignore[union-attr]
    events = h.run(1000)
    assert [type(e) for e in events] == [Heartbeat]
    assert h.host.stats.total_errors == 0 and h.host.stats.sequence_gaps == 0


def test_a_flicker_shorter_than_the_debounce_sends_nothing(fw: dict[str, ModuleType]) -> None:
    h = Harness(fw)
    h.device.start()
    h.run(10)
    h.board.covered = {5}
    h.device.step()  # one scan only, then the hand is gone
    h.board.covered = set()
    assert h.run(200) == []


def test_the_device_answers_the_host(fw: dict[str, ModuleType]) -> None:
    h = Harness(fw)
    h.device.start()
    h.run(10)
    h.incoming = encode(GetRequest(0)) + encode(HelloRequest(1)) + b"$GET,2*0000\n$FOO,3*"
    h.incoming += b"%04X\n" % binascii.crc_hqx(b"FOO,3", 0xFFFF)
    events = h.run(10)
    assert [type(e).__name__ for e in events] == ["Snapshot", "Hello", "DeviceError", "DeviceError"]
    assert [e.code for e in events[2:]] == ["BADFRAME", "UNKNOWN"]  # type: ignore[union-attr]
    assert not any(isinstance(e, Rejected) for e in events)


def test_the_firmware_main_is_importable_on_the_host_and_configured(
    fw: dict[str, ModuleType],
) -> None:
    main = fw["main"]
    assert len(main.SELECT_PINS) == 4
    assert 16 * len(main.SIGNAL_PINS) >= main.CELLS
    assert callable(main.main)
