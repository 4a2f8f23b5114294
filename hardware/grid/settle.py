"""Settling: a grid snapshot is believed only once the board has been still for a while.

Concept
-------
Hands over the board (reaching across, sliding a stack of tokens) make the sensors flicker
and the grid sends a storm of snapshots. :class:`Settler` holds back every snapshot until
the board state it shows has stayed the same for ``settle_time`` seconds, then hands it
over once.

It is pure: no thread, no timer. The owner calls :meth:`Settler.offer` with each snapshot
and :meth:`Settler.poll` regularly (the grid link does so on its reader thread, several
times a second); time comes from an injectable monotonic clock.

Invariants
----------
- A state is handed over only after ``settle_time`` without any different state offered.
- Each settled state is handed over once; the same state offered again is not repeated,
  unless :meth:`Settler.reset` was called (after a reconnect the owner wants it again).
- A state that only flickered (changed again before settling) is never handed over.
- The sequence number of a snapshot is not part of its state.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from hardware.grid.protocol import BoardState, Snapshot

DEFAULT_SETTLE_TIME = 0.5
"""Seconds the board must stay still before a snapshot is believed."""


class Settler:
    """Holds back snapshots until the board state has been stable for ``settle_time``."""

    def __init__(
        self,
        settle_time: float = DEFAULT_SETTLE_TIME,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if settle_time < 0:
            raise ValueError(f"settle time {settle_time} s is negative")
        self.settle_time = settle_time
        self._clock = clock
        self._candidate: Snapshot | None = None
        self._since = 0.0
        self._settled: BoardState | None = None

    @property
    def settled(self) -> BoardState | None:
        """The last state handed over, if any."""
        return self._settled

    @property
    def pending(self) -> bool:
        """Whether a state is waiting to settle."""
        return self._candidate is not None

    def offer(self, snapshot: Snapshot) -> Snapshot | None:
        """Take a new snapshot; returns it at once only when ``settle_time`` is 0."""
        if self._candidate is None or self._candidate.state() != snapshot.state():
            self._since = self._clock()
        self._candidate = snapshot
        return self.poll()

    def poll(self) -> Snapshot | None:
        """The latest snapshot once its state has settled and was not handed over yet."""
        candidate = self._candidate
        if candidate is None or self._clock() - self._since < self.settle_time:
            return None
        self._candidate = None
        if candidate.state() == self._settled:
            return None
        self._settled = candidate.state()
        return candidate

    def reset(self) -> None:
        """Forget everything: the next settled state is handed over even if unchanged."""
        self._candidate = None
        self._settled = None
