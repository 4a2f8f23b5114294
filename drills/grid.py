"""The sensor grid drills: serial abuse and the unplug storm, over a real pseudo-terminal.

Both run the app's `GridLink` with its default timings (the ones the app uses: settle
0.5 s, offline after 3 s of silence, a reconnect attempt every second) against the
simulated grid (`hardware.grid.sim.PtyGrid`) behind a symlink that plays the part of
``/dev/serial/by-id/...``.

Serial abuse: bursts of random bytes and corrupted frames (bits flipped, bytes changed,
dropped, inserted or swapped, frames cut short, fields made invalid under a correct CRC,
unknown types, over-long lines) are written into the link between the grid's own frames,
a million bytes in all. Every snapshot the parser accepts is compared with the frames the
grid really sent, and every snapshot handed to the app with the board states the grid
really had. After each burst the board changes and the time until the link hands over the
new board is the time to recover (the 0.5 s settling included, by design).

Unplug storm: the grid is unplugged (its end of the pty closed) and plugged in again on a
new pty behind the same symlink, 100 times, with a new board state each time; a reconnect
counts when the link hands over that new state. The gap is from the unplug to that moment.
"""

from __future__ import annotations

import logging
import os
import queue
import random
import select
import threading
import time
from pathlib import Path
from typing import Any

from bench.common import summary
from drills.report import Drill
from hardware.grid.link import GridLink, LinkState
from hardware.grid.protocol import Snapshot, crc16, encode
from hardware.grid.sim import PtyGrid, SimulatedGrid

SENSORS = 30


class RecordingGrid(PtyGrid):
    """A `PtyGrid` that writes every frame whole and remembers every frame it sent intact."""

    def __init__(self, grid: SimulatedGrid, **kwargs: Any) -> None:
        super().__init__(grid, **kwargs)
        self.intact: set[bytes] = set()
        self.states: set[tuple[bool, ...]] = set()
        self._write_lock = threading.Lock()

    def _write_all(self, data: bytes) -> bool:
        view = memoryview(data)
        deadline = time.monotonic() + 5
        with self._write_lock:
            while view:
                fd = self._master  # PtyGrid's device end (None while unplugged)
                if fd is None or time.monotonic() > deadline:
                    return False
                try:
                    written = os.write(fd, view)
                except BlockingIOError:
                    written = 0
                except OSError:
                    return False
                view = view[written:]
                if view:
                    select.select([], [fd], [], 0.05)
        return True

    def send(self, data: bytes) -> bool:  # the simulated device's own frames
        if not data:
            return True
        if self._master is None or self.muted:
            self.frames_dropped += 1
            return False
        for line in data.split(b"\n"):
            if line:
                self.intact.add(line + b"\n")
        self.states.add(tuple(self.grid.presence))
        ok = self._write_all(data)
        self.frames_sent += ok
        return ok

    def send_junk(self, data: bytes) -> bool:
        return self._write_all(data)


class Watcher:
    """The link's callbacks: snapshots, ups and downs, with the time they came."""

    def __init__(self) -> None:
        self.events: queue.Queue[tuple[str, Any, float]] = queue.Queue()
        self.accepted: list[Snapshot] = []  # every snapshot the parser accepted
        self.delivered: list[Snapshot] = []  # every snapshot handed to the app
        self._lock = threading.Lock()

    def callbacks(self) -> dict[str, Any]:
        def put(kind: str) -> Any:
            def record(value: Any) -> None:
                if kind == "snapshot":
                    with self._lock:
                        self.delivered.append(value)
                self.events.put((kind, value, time.monotonic()))

            return record

        def on_event(event: Any) -> None:
            if isinstance(event, Snapshot):
                with self._lock:
                    self.accepted.append(event)

        return {"on_snapshot": put("snapshot"), "on_link_up": put("up"),
                "on_link_down": put("down"), "on_event": on_event}

    def wait_for(self, kind: str, match: Any, timeout: float) -> tuple[Any, float] | None:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                got, value, at = self.events.get(timeout=left)
            except queue.Empty:
                return None
            if got == kind and match(value):
                return value, at


class ErrorCounter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record.getMessage())


# --- junk --------------------------------------------------------------------------------


def _snap(seq: int, presence: tuple[bool, ...]) -> bytes:
    return encode(Snapshot(seq, presence))


def _frame_with(body: bytes) -> bytes:
    return b"$" + body + b"*" + b"%04X" % crc16(body) + b"\n"


def corrupted_frame(rng: random.Random, kind: str) -> bytes:
    """A snapshot frame of a board state the grid never had, damaged in one way."""
    presence = tuple(rng.random() < 0.5 for _ in range(SENSORS))
    frame = bytearray(_snap(rng.randrange(65536), presence))
    star = frame.index(b"*")
    if kind == "bit":
        at = rng.randrange(1, len(frame) - 1)
        frame[at] ^= 1 << rng.randrange(8)
    elif kind == "byte":
        at = rng.randrange(1, len(frame) - 1)
        frame[at] = rng.choice([b for b in range(256) if b != frame[at]])
    elif kind == "bytes":
        for _ in range(rng.randint(2, 6)):
            at = rng.randrange(1, len(frame) - 1)
            frame[at] = rng.randrange(256)
    elif kind == "drop":
        del frame[rng.randrange(1, len(frame) - 1)]
    elif kind == "insert":
        frame.insert(rng.randrange(1, len(frame) - 1), rng.randrange(256))
    elif kind == "swap":
        at = rng.randrange(1, star - 1)
        frame[at], frame[at + 1] = frame[at + 1], frame[at]
        if frame[at] == frame[at + 1]:
            frame[at] ^= 0x01
    elif kind == "cut":
        frame = frame[: rng.randrange(2, len(frame) - 1)]
    elif kind == "crc":  # the CRC of another body
        frame[star + 1 : star + 5] = b"%04X" % rng.randrange(65536)
    elif kind == "wrong_size":  # a correct CRC over a body with the wrong cell count
        cells = rng.choice([n for n in range(1, 65) if n != SENSORS])
        body = b"SNAP,%d,P=" % rng.randrange(65536) + bytes(rng.choice(b"01") for _ in range(cells))
        return _frame_with(body)
    elif kind == "bad_field":  # a correct CRC over fields that are not a snapshot's
        body = b"SNAP,%d," % rng.randrange(65536) + rng.choice(
            [b"P=" + b"2" * SENSORS, b"Q=" + b"0" * SENSORS, b"P=" + b"0" * SENSORS + b",P=1",
             b"", b"P=" + b"1" * SENSORS + b",C=" + b"!" * SENSORS])
        return _frame_with(body)
    elif kind == "unknown":
        return _frame_with(b"ZAP,%d,P=" % rng.randrange(65536) + b"1" * SENSORS)
    elif kind == "overlong":
        return b"$SNAP,1,P=" + bytes(rng.choice(b"01") for _ in range(rng.randint(300, 900)))
    return bytes(frame)


CORRUPTIONS = ("bit", "byte", "bytes", "drop", "insert", "swap", "cut", "crc", "wrong_size",
               "bad_field", "unknown", "overlong")


def junk(rng: random.Random, size: int, counts: dict[str, int]) -> bytes:
    """About `size` bytes of noise and corrupted frames."""
    out = bytearray()
    while len(out) < size:
        choice = rng.random()
        if choice < 0.35:
            n = rng.randint(1, 200)
            out += bytes(rng.randrange(256) for _ in range(n))
            counts["random runs"] += 1
        elif choice < 0.45:
            out += rng.choice([b"\r\n", b"$", b"$$$$", b"*", b"\n\n\n", b"$SNAP,", b"\x00" * 16,
                               b"\xff" * 16, b"$HB,1,5*"])
            counts["stray delimiters"] += 1
        else:
            kind = rng.choice(CORRUPTIONS)
            out += corrupted_frame(rng, kind)
            counts["corrupted frames"] += 1
            counts[f"  {kind}"] += 1
    return bytes(out[:size])


def serial_abuse(work: Path, total_bytes: int = 1_000_000, bursts: int = 20,
                 seed: int = 42, timings: dict[str, float] | None = None) -> Drill:
    """`timings`: GridLink timeouts to use instead of the app's (for the smoke test)."""
    from collections import Counter

    started = time.monotonic()
    rng = random.Random(seed)
    link_path = work / "usb-SmallWorld_Grid-abuse"
    sim = RecordingGrid(SimulatedGrid(SENSORS), link=link_path,
                        heartbeat_interval=(timings or {}).get("silence_timeout", 3.0) / 3)
    watcher = Watcher()
    errors = ErrorCounter()
    logging.getLogger("hardware.grid").addHandler(errors)
    counts: Counter[str] = Counter()
    recover: list[float] = []
    not_recovered = 0
    sim.start()
    options: dict[str, Any] = {**watcher.callbacks(), **(timings or {})}
    link = GridLink(str(link_path), **options)
    link.start()
    try:
        if watcher.wait_for("snapshot", lambda _s: True, 15) is None:
            raise RuntimeError("the link never came up")
        written = 0
        per_burst = max(1, total_bytes // bursts)
        for burst in range(bursts):
            data = junk(rng, min(per_burst, total_bytes - written), counts)
            step = 4096
            for at in range(0, len(data), step):
                sim.send_junk(data[at : at + step])
            written += len(data)
            # the board changes right after the burst: how long until the app knows?
            sensor = burst % SENSORS + 1
            changed_at = time.monotonic()
            sim.toggle(sensor)
            wanted = tuple(sim.grid.presence)
            got = watcher.wait_for("snapshot", lambda s, w=wanted: s.presence == w, 15)
            if got is None:
                not_recovered += 1
            else:
                recover.append(got[1] - changed_at)
        time.sleep(1.0)
        delivered = [s.presence for s in watcher.delivered]
        alive = link.running and link.state is LinkState.UP
        stats = link.stats
    finally:
        link.stop()
        sim.close()
        logging.getLogger("hardware.grid").removeHandler(errors)
    accepted_bad = [s for s in watcher.accepted if encode(s) not in sim.intact]
    delivered_bad = [p for p in delivered if p not in sim.states]
    times = summary([t * 1000 for t in recover])
    result = Drill(
        "Serial abuse",
        f"{written:,} bytes of random noise and corrupted frames ({counts['corrupted frames']:,}"
        f" corrupted snapshot frames of {len(CORRUPTIONS)} kinds) written into the grid link over"
        f" a pty in {bursts} bursts, between the grid's own frames; the board changed after "
        "each burst",
    )
    result.check("link crashes (reader thread dead, exceptions logged)",
                 (0 if alive else 1) + len(errors.records), "0",
                 alive and not errors.records)
    result.check("corrupted snapshots accepted by the parser", len(accepted_bad), "0",
                 not accepted_bad)
    result.check("wrong boards handed to the app", len(delivered_bad), "0", not delivered_bad)
    result.check("good snapshots accepted", len(watcher.accepted) - len(accepted_bad))
    result.check("frames rejected (bad CRC, malformed, unknown, over-long, noise runs)",
                 f"{stats.total_errors:,}")
    result.check("boards recovered after a burst", f"{len(recover)} of {bursts}", "all",
                 not_recovered == 0)
    result.check("time to recover the next good snapshot, p50 / max",
                 f"{times.get('p50', float('nan')):.0f} / {times.get('max', float('nan')):.0f} ms",
                 "(includes the 0.5 s settling)")
    result.seconds = time.monotonic() - started
    result.detail = {"counts": dict(counts), "parser": stats.summary(),
                     "recover_ms": times, "errors_logged": errors.records[:5],
                     "accepted_bad": [repr(s)[:200] for s in accepted_bad[:5]]}
    return result


def unplug_storm(work: Path, cycles: int = 100, seed: int = 7,
                 max_unplugged: float = 0.5, timings: dict[str, float] | None = None) -> Drill:
    """`timings`: GridLink timeouts to use instead of the app's (for the smoke test)."""
    started = time.monotonic()
    rng = random.Random(seed)
    link_path = work / "usb-SmallWorld_Grid-storm"
    sim = RecordingGrid(SimulatedGrid(SENSORS), link=link_path,
                        heartbeat_interval=(timings or {}).get("silence_timeout", 3.0) / 3)
    watcher = Watcher()
    errors = ErrorCounter()
    logging.getLogger("hardware.grid").addHandler(errors)
    sim.start()
    options: dict[str, Any] = {**watcher.callbacks(), **(timings or {})}
    link = GridLink(str(link_path), **options)
    link.start()
    gaps: list[float] = []
    replug_to_board: list[float] = []
    missed: list[int] = []
    downs = ups = 0
    try:
        if watcher.wait_for("snapshot", lambda _s: True, 15) is None:
            raise RuntimeError("the link never came up")
        for cycle in range(1, cycles + 1):
            unplugged = time.monotonic()
            sim.unplug()
            time.sleep(rng.uniform(0.0, max_unplugged))
            for bit in range(8):  # a board state of its own for this cycle
                sim.grid.set_present(bit + 1, bool(cycle >> bit & 1))
            sim.grid.set_present(SENSORS, cycle % 2 == 0)
            wanted = tuple(sim.grid.presence)
            replugged = time.monotonic()
            sim.replug()
            got = None
            deadline = time.monotonic() + 15
            while got is None and time.monotonic() < deadline:
                try:
                    kind, value, at = watcher.events.get(timeout=deadline - time.monotonic())
                except queue.Empty:
                    break
                downs += kind == "down"
                ups += kind == "up"
                if kind == "snapshot" and value.presence == wanted:
                    got = at
            if got is None:
                missed.append(cycle)
            else:
                gaps.append(got - unplugged)
                replug_to_board.append(got - replugged)
        alive = link.running
    finally:
        link.stop()
        sim.close()
        logging.getLogger("hardware.grid").removeHandler(errors)
    gap = summary([g * 1000 for g in gaps])
    back = summary([g * 1000 for g in replug_to_board])
    result = Drill(
        "Unplug storm",
        f"{cycles} unplug/replug cycles of the simulated grid (its pty closed, then a new pty "
        f"behind the same by-id symlink after 0 to {max_unplugged:g} s), a new board each time",
    )
    result.check("reconnects with the new board", f"{len(gaps)} of {cycles}", "all",
                 len(gaps) == cycles)
    result.check("link thread alive at the end, exceptions logged",
                 f"{'yes' if alive else 'NO'}, {len(errors.records)}", "yes, 0",
                 alive and not errors.records)
    result.check("downs / ups reported", f"{downs} / {ups}")
    result.check("longest gap, unplug to the new board",
                 f"{gap.get('max', float('nan')):.0f} ms", "(information)")
    result.check("replug to the new board, p50 / max",
                 f"{back.get('p50', float('nan')):.0f} / {back.get('max', float('nan')):.0f} ms",
                 "(reconnect every 1 s, settle 0.5 s)")
    result.seconds = time.monotonic() - started
    result.detail = {"gap_ms": gap, "replug_to_board_ms": back, "missed": missed[:20],
                     "errors_logged": errors.records[:5]}
    return result

