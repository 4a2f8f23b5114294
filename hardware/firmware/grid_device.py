"""The grid's main loop, with its I/O injected (MicroPython; also runs on the host).

Concept: :class:`GridDevice` scans, debounces and speaks the protocol. ``scan()``
returns the raw covered/uncovered list, ``read_input()`` the bytes the host sent since
the last call (``b""`` if none), ``write(data)`` sends bytes, ``ticks_ms()`` is a
millisecond clock. ``main.py`` wires these to the Pico's pins and USB serial; host tests
wire them to fakes and read the output with the companion's own parser.

Invariants: HELLO at start and on every HELLO request; a SNAP whenever the debounced
state changes and on every GET; a heartbeat every ``heartbeat_ms``; an ERR for every
bad or unknown host frame. Sequence numbers start at 0 and wrap at 65536.
"""

import grid_frames
from grid_scan import Debouncer

try:  # MicroPython
    from time import ticks_diff, ticks_ms
except ImportError:  # CPython, for host tests
    import time

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b


class GridDevice:
    def __init__(
        self,
        scan,
        read_input,
        write,
        cells,
        firmware,
        stable_scans=3,
        heartbeat_ms=1000,
        clock=ticks_ms,
        elapsed=ticks_diff,
    ):
        self.scan = scan
        self.read_input = read_input
        self.write = write
        self.cells = cells
        self.firmware = firmware
        self.heartbeat_ms = heartbeat_ms
        self.clock = clock
        self.elapsed = elapsed
        self.debouncer = Debouncer(cells, stable_scans)
        self.reader = grid_frames.HostFrameReader()
        self.seq = 0
        self.last_heartbeat = clock()
        self.uptime_ms = 0

    def next_seq(self):
        seq = self.seq
        self.seq = (seq + 1) % grid_frames.SEQ_MODULUS
        return seq

    def send_hello(self):
        self.write(grid_frames.hello(self.next_seq(), self.firmware, self.cells))

    def send_snapshot(self):
        self.write(grid_frames.snapshot(self.next_seq(), self.debouncer.state))

    def start(self):
        self.send_hello()

    def step(self):
        """One pass of the loop: scan, answer the host, heartbeat when due."""
        if self.debouncer.update(self.scan()):
            self.send_snapshot()
        data = self.read_input()
        if data:
            for kind, _seq, detail in self.reader.feed(data):
                if kind == "HELLO":
                    self.send_hello()
                elif kind == "GET":
                    self.send_snapshot()
                elif kind == "UNKNOWN":
                    self.write(grid_frames.error(self.next_seq(), "UNKNOWN", detail))
                else:
                    self.write(grid_frames.error(self.next_seq(), "BADFRAME", detail))
        now = self.clock()
        since = self.elapsed(now, self.last_heartbeat)
        if since >= self.heartbeat_ms:
            # Uptime is summed from short intervals: MicroPython's ticks wrap after days.
            self.uptime_ms += since
            self.last_heartbeat = now
            self.write(grid_frames.heartbeat(self.next_seq(), self.uptime_ms // 1000))
