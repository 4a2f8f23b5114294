"""When the garbage collector runs: never a long pass, never on a tap.

CPython frees most objects at once (reference counts); its cyclic collector finds the
rest in passes whose cost grows with the number of objects it walks. A pass over the
~250k objects of the built screens takes 60-120 ms here (more on a Pi); with Python's
default thresholds one comes every ten or so taps. ``gc.freeze()`` moves every object
tracked so far out of the collector's sight (an O(1) list splice): a later pass walks
only what was made since. A frozen object is still freed by its reference count; only a
frozen object that dies in a reference cycle (a released screen, a discarded widget) stays
until ``gc.unfreeze()`` and a pass over everything, which the app never runs (below).

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
  objects, a few milliseconds. Every cycle a turn made is collected at its end (one that
  died after being frozen stays: see below). After each screen built in the
  background (`screen_built`; `settle` after the last one) the calm collection is a young
  one (generations 0 and 1: the build's temporaries, under a millisecond), then the
  freeze: the few cycles of a build that reached generation 2 stay (once, at start). A
  large drawing made in play (`drawing_made`: the map drawn anew for a board and a size,
  some 10k instructions) is frozen the same way after the frame that shows it, so the
  next end of turn does not walk it (13-16 ms here, once a game, before).
- No full collection (one over everything, frozen or not) ever runs: one walks the whole
  heap (200 ms here with the games' objects, seconds on a Pi), a pause a player would
  feel even at a calm moment. Nothing needs one: what the app draws or shows is let go
  of by reference counts (`companion.ui.drawing`: the map), or made once and reused (the
  die's tumble, the dialogs), and a rare screen (`rare_shown`, `screen_released`) is
  never frozen: while one is built, or released and still held (a scroll bar fading out
  for a second), nothing is frozen, so the calm collection after its release (the frame
  after, or the next idle moment) finds its widgets, which die in cycles. What a turn's calm
  collection froze and a later cycle let die stays: Kivy's own animations (a dialog
  opening, a scroll bar fading) leave some 80 bound callbacks a game, a few kilobytes
  (`tests/test_ui_memory.py` counts what a full collection would find after each game).
- Nothing here runs a collection inside a tap's own work: `turn_ended`, `screen_released`
  and the idle timer only schedule one for a later frame; `screen_built` runs in a
  background build's frame.
- `release()` gives automatic full collections back (tests; the app never does).

What was measured to choose this timetable is in ``bench/README.md`` ("The garbage
collector's timetable").
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock

FULL_THRESHOLD = 1_000_000_000
"""Generation-1 passes before Python would run an automatic full one: never, in effect."""

IDLE_SECONDS = 3.0
"""Seconds without a touch, a new state or another screen before the idle collection."""

RELEASED_WAITS = 4
"""Collections a released rare screen still alive (held for a moment by an animation) is
waited for, unfrozen, before everything is frozen anyway."""


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
    `find_malloc_trim()`; None: nothing). `collections` counts the collections run so
    far, `trims` the trims, `rare` the rare screens built and not yet released.
    """

    def __init__(self, trim: Callable[[], Any] | None) -> None:
        self.trim = trim
        self.begun = False
        self.settled = False
        self.collections = 0
        self.trims = 0
        self.rare = 0
        self._leaving: list[weakref.ref[Any]] = []
        self._waits = 0
        self._dirty = False
        self._found = gc.get_threshold()[2]
        self._soon = Clock.create_trigger(self._calm, 0)  # after the next frame
        self._soon_young = Clock.create_trigger(lambda _dt: self.collect(young=True), 0)
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

    def drawing_made(self) -> None:
        """A large drawing was made (the map drawn anew, once a board and a size): after
        the frame that shows it, a young collection and a freeze, as for a screen built,
        so that no calm collection at an end of turn walks its instructions."""
        if self.settled:
            self._soon_young()

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

    def rare_shown(self) -> None:
        """A rare screen was built to be shown: nothing is frozen until it is released
        and gone, so that a collection after its release finds it."""
        self.rare += 1

    def screen_released(self, screen: Any) -> None:
        """A rare screen was released: collect after the next frame (it was never frozen,
        so that collection frees it, though its widgets die in cycles). Something may
        still hold it for a moment (a scroll bar fading out): until it is gone, or
        `RELEASED_WAITS` collections have passed, nothing is frozen and the idle moment
        collects again."""
        self.rare = max(0, self.rare - 1)
        self._leaving.append(weakref.ref(screen))
        self._waits = 0
        self.activity()
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

    def collect(self, *, young: bool = False) -> None:
        """A calm collection (what was made since the last freeze; with `young` only
        generations 0 and 1 of it); the survivors frozen (not while a rare screen is
        built, or released and not yet gone), the freed heap handed back. At a calm
        moment only."""
        self._dirty = False
        gc.collect(1 if young else 2)
        self._leaving = [gone for gone in self._leaving if gone() is not None]
        self._waits += 1
        if self._leaving and self._waits < RELEASED_WAITS:
            self._dirty = True  # the next idle moment collects again
            if self.settled:
                self._idle()
        elif self.begun and not self.rare:
            self._leaving = []
            gc.freeze()
        self.collections += 1
        if self.trim is not None:
            self.trim()
            self.trims += 1
