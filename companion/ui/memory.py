"""When the garbage collector runs: never a long pass, never on a tap.

CPython frees most objects at once (reference counts); its cyclic collector finds the
rest in passes whose cost grows with the number of objects it walks. A pass over the
~250k objects of the built screens takes 60-120 ms here (more on a Pi); with Python's
default thresholds one comes every ten or so taps. ``gc.freeze()`` moves every object
tracked so far out of the collector's sight (an O(1) list splice): a later pass walks
only what was made since. A frozen object is still freed by its reference count; only a
frozen object that dies in a reference cycle (a released screen, a discarded widget) stays
until ``gc.unfreeze()`` and a pass over everything.

Invariants (one `MemoryPolicy` per app, driven by `TableApp`):

- Until `begin()`: no automatic collection at all when the app runs (`run_app` calls
  ``gc.disable()``: start-up, its first second or so, makes few cycles, and a pass over
  a heap still being built cost 5 ms of the first frame); Python's defaults otherwise.
- `begin()` (before the first screen built in the background): ``gc.freeze()`` without a
  pass, so no pass ever walks start-up's heap, then ``gc.enable()``; automatic full
  collections are set out of reach (`FULL_THRESHOLD`): automatic collection keeps only
  generations 0 and 1 (young objects, a millisecond or so), so no tap ever triggers a
  full pass.
- A *calm* collection is ``gc.collect()`` then ``gc.freeze()``: it walks only what was
  made (and kept) since the previous freeze, then freezes the survivors; then
  ``malloc_trim(0)`` hands the freed heap back to the system (glibc only; where it is
  missing nothing is called and nothing fails). Calm collections run on the frame AFTER
  the one that shows a new turn, game or game over (`turn_ended`): each walks one turn's
  objects, a few milliseconds. Every cycle a turn made is collected at its end, or by the
  next full collection if it died after being frozen. After each screen built in the
  background (`screen_built`; `settle` after the last one) the calm collection is a young
  one (generations 0 and 1: the build's temporaries, under a millisecond), then the
  freeze: the few cycles of a build that reached generation 2 wait for the first full
  collection.
- A *full* collection (``gc.unfreeze()``, ``gc.collect()``, ``gc.freeze()``, the trim)
  walks everything, so it runs only when the app is truly idle: `IDLE_SECONDS` after the
  last `activity()` (a touch, a new state, another screen), and only if a screen was
  released since the last full one (`screen_released`: its widgets die in cycles, frozen
  or not) or `FULL_EVERY` calm collections were run since (frozen cycles that died in
  them). Otherwise the idle moment runs a calm collection if anything happened since.
- Nothing here runs a collection inside a tap's own work: `turn_ended` and the idle timer
  only schedule one for a later frame; `screen_built` runs in a background build's frame.
- `release()` gives automatic full collections back (tests; the app never does).

Measured (``make bench BENCH_ARGS="--only rss"``: three whole 5-player games, one intent
per frame; 2-core x86 with software GL, load 2.5):

- Freezing start-up without a pass, each screen as it is built and the survivors of each
  calm collection: the longest pause over the three games went from 124 ms (the one
  pass over the whole heap after the last screen was built, and Python's automatic full
  passes before it) to 3-9 ms (the machine shared, load 2-4); 122 end-of-turn
  collections of about 1-3k objects each (a turn's survivors: lists, Kivy bindings,
  canvas instructions), 140-190 ms in all with the young ones, against 1,090 ms.
- A full pass over each screen just built (20-45k objects, 3-8 ms) instead of a young
  one: it finds almost nothing more (a few thousand objects once). Left out.
- Generation-1 collections at ends of turn instead of full ones over the unfrozen objects:
  no faster (the unfrozen set is already one turn's), and they freeze more garbage. Left
  out.
- Frozen garbage left after three games (what the idle full collection finds): 500 to
  12,000 objects (bound methods and Kivy callbacks), no growth from game 2 to game 3.
  The full collection itself takes 70-140 ms here, hence only when idle.
- A rare screen released: every widget of it is freed by the next full collection
  (`tests/test_ui_memory.py`); the resident memory keeps what the GL driver cached while
  drawing it (software GL: shader variants), not the screen.
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

FULL_EVERY = 200
"""Calm collections after which the next idle moment runs a full collection even if no
screen was released (about five whole games of ends of turn)."""


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

    `trim`: what hands freed heap back to the system after a collection (the app gives
    `find_malloc_trim()`; None: nothing). `collections` counts the calm and full
    collections run so far, `full_collections` the full ones, `trims` the trims.
    """

    def __init__(self, trim: Callable[[], Any] | None) -> None:
        self.trim = trim
        self.begun = False
        self.settled = False
        self.collections = 0
        self.full_collections = 0
        self.trims = 0
        self._dirty = False
        self._released = False
        self._since_full = 0
        self._found = gc.get_threshold()[2]
        self._soon = Clock.create_trigger(self._calm, 0)  # after the next frame
        self._idle = Clock.create_trigger(self._when_idle, IDLE_SECONDS)

    def begin(self) -> None:
        """Once, before the screens are built in the background: start-up's heap frozen
        (no pass over it), and no automatic full collection from now on."""
        if self.begun:
            return
        self.begun = True
        gc.freeze()
        self.hold()
        gc.enable()  # `run_app` turns collection off for start-up

    def screen_built(self) -> None:
        """A screen was just built in the background: its young objects collected (its
        temporaries), then everything frozen."""
        self.begin()
        self.collect(young=True)

    def settle(self) -> None:
        """Once, after the last screen is built in the background (each was collected
        and frozen as it was built): ends of turn and idle moments collect from now on."""
        self.begin()
        self.settled = True

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

    def screen_released(self) -> None:
        """A screen was released: the next idle moment runs a full collection."""
        self._released = True
        self.activity()

    def activity(self) -> None:
        """Something happened (a touch, a state, another screen): wait for calm again."""
        self._dirty = True
        if self.settled:
            self._idle.cancel()
            self._idle()

    def _when_idle(self, _dt: float) -> None:
        if self._released or self._since_full >= FULL_EVERY:
            self.collect(full=True)
        elif self._dirty:
            self.collect()

    def _calm(self, _dt: float) -> None:
        self.collect()

    def collect(self, *, full: bool = False, young: bool = False) -> None:
        """A calm collection (what was made since the last freeze; with `young` only
        generations 0 and 1 of it), or with `full` one over everything; the survivors
        frozen, the freed heap handed back. At a calm moment only."""
        self._dirty = False
        if full:
            self._released = False
            self._since_full = 0
            self.full_collections += 1
            gc.unfreeze()
        else:
            self._since_full += 1
        gc.collect(1 if young and not full else 2)
        if self.begun:
            gc.freeze()
        self.collections += 1
        if self.trim is not None:
            self.trim()
            self.trims += 1
