"""Measuring the grid parser's throughput, for the companion's benchmark command.

Concept: a realistic stream (a HELLO, then snapshots of 48 cells and heartbeats, as a
5-player board's grid sends them) is fed to a fresh :class:`~hardware.grid.protocol.Parser`
in chunks of a given size, and the bytes per second are compared with what a serial line
can carry. Nothing here is asserted: the benchmark prints it (the issue's goal is at least
100 times a 115200 baud line on one core).

Invariant: the stream parses without a single error (checked, so a fast but wrong parser
cannot pass unnoticed).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from hardware.grid.protocol import (
    PROTOCOL_VERSION,
    Heartbeat,
    Hello,
    Message,
    Parser,
    Snapshot,
    encode,
)

LINE_RATE_BAUD = 115200
"""The serial line rate compared against (8N1: 10 bits per byte)."""


@dataclass(frozen=True)
class Throughput:
    """One measurement: how fast the parser ate a stream fed in ``chunk``-byte reads."""

    chunk: int
    bytes_parsed: int
    frames: int
    seconds: float

    @property
    def bytes_per_second(self) -> float:
        return self.bytes_parsed / self.seconds if self.seconds > 0 else float("inf")

    @property
    def line_rate_multiple(self) -> float:
        """How many 115200 baud lines the parser keeps up with."""
        return self.bytes_per_second / (LINE_RATE_BAUD / 10)


def sample_stream(frames: int = 20000, cells: int = 48) -> bytes:
    """A HELLO, then snapshots and heartbeats with consecutive sequence numbers."""
    messages: list[Message] = [Hello(0, PROTOCOL_VERSION, "bench", cells)]
    for seq in range(1, frames):
        if seq % 3:
            presence = tuple((seq * 2654435761 >> bit) & 1 == 1 for bit in range(cells))
            messages.append(Snapshot(seq % 65536, presence))
        else:
            messages.append(Heartbeat(seq % 65536, seq))
    return b"".join(encode(message) for message in messages)


def measure(chunk: int = 256, stream: bytes | None = None) -> Throughput:
    """Parse ``stream`` (default: :func:`sample_stream`) in ``chunk``-byte reads."""
    if chunk < 1:
        raise ValueError(f"chunk size {chunk} is not positive")
    data = sample_stream() if stream is None else stream
    parser = Parser()
    started = time.perf_counter()
    for start in range(0, len(data), chunk):
        parser.feed(data[start : start + chunk])
    seconds = time.perf_counter() - started
    stats = parser.stats
    if stats.total_errors or stats.sequence_gaps:
        raise RuntimeError(f"the benchmark stream did not parse cleanly: {stats.summary()}")
    return Throughput(chunk, len(data), stats.frames, seconds)
