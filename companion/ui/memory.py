"""When the garbage collector runs: never a full collection on a tap.

CPython frees most objects at once (reference counts); its cyclic collector finds the
rest in passes whose cost grows with the number of objects it tracks. A full pass
(generation 2) over the ~200k objects of the built screens takes a tenth of a second or
more on a Pi, and with Python's default thresholds one comes every ten or so taps.

Invariants (one `MemoryPolicy` per app, driven by `TableApp`):

- Until `settle()`: Python's defaults (start-up: its first second or so).
- `settle()` runs once, right after the LAST screen is built: ``gc.collect()`` then
  ``gc.freeze()``. Everything built by then lives as long as the app, so it is moved out
  of the collector's sight for good. Then the threshold of automatic full collections is
  set out of reach (`FULL_THRESHOLD`): automatic collection keeps only generations 0
  and 1 (young objects, a millisecond or so), so no tap ever triggers a full pass.
- `turn_ended()` (a new turn, a new or resumed game, a game over) schedules one full
  ``gc.collect()`` for the frame AFTER the one that shows it, then ``malloc_trim(0)``
  hands the freed heap back to the system (glibc only; where it is missing nothing is
  called and nothing fails). Every cycle a turn made is collected at its end: memory
  does not grow from turn to turn.
- `activity()` (a touch, a new state, another screen) re-arms an idle timer: after
  `IDLE_SECONDS` without any, the same collection (and trim) runs if anything happened
  since the last one, so cycles made away from a game (settings, history) go too.
- Nothing here runs a collection inside a tap's own work: `turn_ended` and the idle timer
  only schedule one for a later frame.
- `release()` gives automatic full collections back (tests; the app never does).
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock

FULL_THRESHOLD = 1_000_000_000
"""Generation-1 passes before Python would run an automatic full one: never, in effect."""

IDLE_SECONDS = 3.0
"""Seconds without a touch, a new state or another screen before the idle collection."""


def find_malloc_trim() -> Callable[[], Any] | None:
    """glibc's ``malloc_trim(0)``, or None where the C library has none (musl, macOS,
    Windows) or cannot be loaded: calling it is then simply skipped."""
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (ImportError, OSError, AttributeError, TypeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: trim(0)


class MemoryPolicy:
    """The app's garbage-collection timetable (see the module's invariants).

    `trim`: what hands freed heap back to the system after a calm collection (the app
    gives `find_malloc_trim()`; None: nothing). `collections` and `trims` count the calm
    collections and trims run so far.
    """

    def __init__(self, trim: Callable[[], Any] | None) -> None:
        self.trim = trim
        self.settled = False
        self.collections = 0
        self.trims = 0
        self._dirty = False
        self._found = gc.get_threshold()[2]
        self._soon = Clock.create_trigger(self._calm, 0)  # after the next frame
        self._idle = Clock.create_trigger(self._when_idle, IDLE_SECONDS)

    def settle(self) -> None:
        """Once, after the last screen is built: freeze what lives as long as the app,
        and no automatic full collection from now on."""
        if self.settled:
            return
        self.settled = True
        gc.collect()
        gc.freeze()
        self.hold()

    def hold(self) -> None:
        """No automatic full collection from now on (generations 0 and 1 keep theirs)."""
        young, middle, full = gc.get_threshold()
        if full != FULL_THRESHOLD:
            self._found = full
            gc.set_threshold(young, middle, FULL_THRESHOLD)

    def release(self) -> None:
        """Automatic full collections as before `hold` (a test leaving the process as it
        found it)."""
        young, middle, full = gc.get_threshold()
        if full == FULL_THRESHOLD:
            gc.set_threshold(young, middle, self._found)

    def turn_ended(self) -> None:
        """A turn ended (or a game began, was resumed or ended): collect after the frame
        that shows it."""
        if self.settled:
            self._soon()

    def activity(self) -> None:
        """Something happened (a touch, a state, another screen): wait for calm again."""
        self._dirty = True
        if self.settled:
            self._idle.cancel()
            self._idle()

    def _when_idle(self, _dt: float) -> None:
        if self._dirty:
            self.collect()

    def _calm(self, _dt: float) -> None:
        self.collect()

    def collect(self) -> None:
        """A full collection, then the freed heap handed back: at a calm moment only."""
        self._dirty = False
        gc.collect()
        self.collections += 1
        if self.trim is not None:
            self.trim()
            self.trims += 1
